// Lesson 3, bank conflicts: G = A * A^T, the dot product of every pair of
// rows of A (A is M x W, G is M x M, row-major floats).
//
//   make check lesson3 ONLY=bank_conflicts   (times your kernel against this one)
//
// Launch (fixed by the grader): blocks of 32 x 32 threads, one block per
// 32 x 32 tile of G; thread (x, y) computes G[i0 + y][j0 + x].
//
// Each block stages 32 rows of A for i and 32 rows for j in shared memory,
// a 32-wide slice of the W columns at a time, and reads every staged value
// 32 times: the kernel lives on shared-memory bandwidth, not DRAM.
//
// The tiles are declared [32][32]. In the inner loop the threads of a warp
// (consecutive x, same y) read rowsJ[x][k]: 32 addresses 32 words apart,
// which all fall into one bank (bank = word address mod 32). The hardware
// serves them one after another: a 32-way bank conflict on every read.
// (Trusted baseline: students never edit this file.)

#define T 32

extern "C" __global__ void gram(const float *A, float *G, int M, int W)
{
    __shared__ float rowsI[T][T];  // rowsI[y][k] = A[i0 + y][k0 + k]
    __shared__ float rowsJ[T][T];  // rowsJ[x][k] = A[j0 + x][k0 + k]

    int x = threadIdx.x, y = threadIdx.y;
    int i0 = blockIdx.y * T, j0 = blockIdx.x * T;
    float acc = 0.0f;

    for (int k0 = 0; k0 < W; k0 += T) {
        // threadIdx.x walks along a row of A: coalesced loads. Outside the
        // matrix, zeros, which add nothing to the dot products.
        int k = k0 + x;
        rowsI[y][x] = (i0 + y < M && k < W) ? A[(size_t)(i0 + y) * W + k] : 0.0f;
        rowsJ[y][x] = (j0 + y < M && k < W) ? A[(size_t)(j0 + y) * W + k] : 0.0f;
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < T; ++kk)
            acc += rowsI[y][kk] * rowsJ[x][kk];  // rowsI: one address, a broadcast;
                                                 // rowsJ: one bank, 32-way conflict
        __syncthreads();
    }

    if (i0 + y < M && j0 + x < M)
        G[(size_t)(i0 + y) * M + j0 + x] = acc;
}
