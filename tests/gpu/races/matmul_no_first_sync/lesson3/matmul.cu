// Race probe (tests/gpu/races/README.md), a control: lesson 3's tiled matrix
// product WITHOUT the first __syncthreads(). Threads read tile elements that
// other warps may not have stored yet (read-after-write across warps). The
// experiment expects normal grading and racecheck to catch this one; if they
// do not, the harness is what is broken.
//
//   build/grader check lesson3 --only matmul --student-dir tests/gpu/races/matmul_no_first_sync
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
        // The race: no __syncthreads() here before reading other threads' stores.

        #pragma unroll
        for (int kk = 0; kk < TILE; ++kk)
            acc += tileA[ty][kk] * tileB[kk][tx];
        __syncthreads();
    }

    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}
