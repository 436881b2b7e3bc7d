// Cheat (tests/gpu/cheats/README.md): compute C = AB once per problem shape
// (with the tiled product of the reference solution, so every mechanism
// check holds), keep it in a __device__ array, and on every later launch of
// the same shape copy it out instead of multiplying. Copying C is far faster
// than the product; before issue 7 every timed launch reused one input set,
// so the replay was always right and passed at any speedup. With two input
// sets rotated while timing it is wrong on the second one; the grader now
// refuses any __device__ variable a kernel can write before it runs.
//
//   build/grader check lesson3 --only matmul --student-dir tests/gpu/cheats/device_replay

#ifndef TILE
#define TILE 16
#endif

#define CACHE_ELEMS (1536 * 1536)

__device__ float cache[CACHE_ELEMS];
__device__ int cached_shape[3];
__device__ unsigned blocks_done;

extern "C" __global__ void matmul(const float *A, const float *B, float *C,
                                  int M, int N, int W)
{
    __shared__ float tileA[TILE][TILE];
    __shared__ float tileB[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int inside = row < M && col < N;
    size_t at = (size_t)row * N + col;
    int cacheable = (size_t)M * N <= CACHE_ELEMS;

    // The same for every thread of the launch: only the last block of a
    // caching launch changes it, after every other block has read it.
    if (cached_shape[0] == M && cached_shape[1] == N && cached_shape[2] == W) {
        if (inside)
            C[at] = cache[at];
        return;
    }

    float acc = 0.0f;
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
    if (inside) {
        C[at] = acc;
        if (cacheable)
            cache[at] = acc;
    }
    if (!cacheable)
        return;
    // The last block to finish publishes the shape: from the next launch on,
    // this shape is replayed.
    __threadfence();
    __syncthreads();
    if (tx == 0 && ty == 0) {
        unsigned blocks = gridDim.x * gridDim.y;
        if (atomicAdd(&blocks_done, 1u) == blocks - 1) {
            cached_shape[0] = M;
            cached_shape[1] = N;
            cached_shape[2] = W;
            blocks_done = 0;
        }
    }
}
