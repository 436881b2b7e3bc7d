// Lesson 3, tiled matrix product: C = A * B, A is M x W, B is W x N, C is
// M x N, row-major floats.
//
//   make check-solutions lesson3 ONLY=matmul   (grades this reference solution)
//
// Reference solution: tiles of A and B in shared memory. For each step of
// TILE along k the block loads a TILE x TILE tile of A (its rows) and one of
// B (its columns), one element per thread, and every thread then reads TILE
// values of each from shared memory. Global loads fall from 2*W per thread
// to 2*W/TILE.
//
// Banks: a warp reads tileA[ty][kk] - one address per row of the block the
// warp spans, a broadcast - and tileB[kk][tx], consecutive words: neither
// conflicts, so no padding is needed here.

#ifndef TILE
#define TILE 16
#endif

extern "C" __global__ void matmul(const float *A, const float *B, float *C,
                                  int M, int N, int W)
{
    __shared__ float tileA[TILE][TILE];
    __shared__ float tileB[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;

    // No early return: threads outside C still load their share of the
    // tiles and must reach every __syncthreads().
    for (int k0 = 0; k0 < W; k0 += TILE) {
        int ka = k0 + tx, kb = k0 + ty;
        tileA[ty][tx] = (row < M && ka < W) ? A[(size_t)row * W + ka] : 0.0f;
        tileB[ty][tx] = (kb < W && col < N) ? B[(size_t)kb * N + col] : 0.0f;
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < TILE; ++kk)
            acc += tileA[ty][kk] * tileB[kk][tx];
        __syncthreads();
    }

    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}
