// Race probe (tests/gpu/races/README.md): lesson 3's tiled matrix product
// WITHOUT the second __syncthreads(). A warp that finishes its TILE
// multiply-adds early loads the next tiles over tileA/tileB while slower
// warps of the block still read the current ones (write-after-read across
// warps). The global load in between usually delays the overwrite long
// enough, so the answer is usually right: the race the experiment measures.
//
//   build/grader check lesson3 --only matmul --student-dir tests/gpu/races/matmul_no_second_sync
//   tests/gpu/race-experiment.sh OUTDIR      (all probes, on a GPU)

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

    for (int k0 = 0; k0 < W; k0 += TILE) {
        int ka = k0 + tx, kb = k0 + ty;
        tileA[ty][tx] = (row < M && ka < W) ? A[(size_t)row * W + ka] : 0.0f;
        tileB[ty][tx] = (kb < W && col < N) ? B[(size_t)kb * N + col] : 0.0f;
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < TILE; ++kk)
            acc += tileA[ty][kk] * tileB[kk][tx];
        // The race: no __syncthreads() here before the next iteration's stores.
    }

    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}
