// Lesson 3, bank conflicts: G = A * A^T, the dot product of every pair of
// rows of A (A is M x W, G is M x M, row-major floats).
//
// Launch (fixed by the grader): blocks of 32 x 32 threads, one block per
// 32 x 32 tile of G; thread (x, y) computes G[i0 + y][j0 + x].
//
// Each block stages 32 rows of A for i and 32 rows for j in shared memory,
// a 32-wide slice of the W columns at a time, and reads every staged value
// 32 times: the kernel lives on shared-memory bandwidth, not DRAM.
//
// TODO (lessons/lesson3-shared-memory.md, sections "Banks" and "Padding"):
// in the inner loop the 32 threads of a warp (consecutive x, same y) read
// rowsJ[x][kk]: 32 words that are 32 words apart. Work out which bank each
// one falls into (bank = word address mod 32): they are all the same bank,
// so the warp's read needs 32 passes over the banks instead of 1 (or, where
// the compiler merges four such reads into one 16-byte read, 8 passes per
// value instead of 1: section "Seeing the conflicts"). Change
// the layout of the shared tile so that those 32 words fall into 32
// different banks. The loads from A, the arithmetic and the result stay as
// they are. `make check lesson3 NCU=1` shows the conflict count where
// Nsight Compute is available.
//
// Graded on sizes 1, 33, 100, 256, 300; timed at 2048 (M: A is M x W, G is M x M).

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
            acc += rowsI[y][kk] * rowsJ[x][kk];  // TODO: rowsJ[x][kk] is a 32-way conflict
        __syncthreads();
    }

    if (i0 + y < M && j0 + x < M)
        G[(size_t)(i0 + y) * M + j0 + x] = acc;
}
