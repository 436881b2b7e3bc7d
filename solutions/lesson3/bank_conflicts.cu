// Lesson 3, bank conflicts: G = A * A^T, the dot product of every pair of
// rows of A (A is M x W, G is M x M, row-major floats).
//
//   make check-solutions lesson3 ONLY=bank_conflicts   (grades this reference solution)
//
// Reference solution: rowsJ gets one extra column, [32][33]. Row x of the
// tile now starts at word 33*x, so rowsJ[x][kk] sits in bank (x + kk) mod 32:
// the 32 threads of a warp hit 32 different banks and the read is served in
// one pass. The spare column is never read; it only shifts each row by one
// bank. rowsI needs no padding: a warp reads one word of it (a broadcast).

#define T 32

extern "C" __global__ void gram(const float *A, float *G, int M, int W)
{
    __shared__ float rowsI[T][T];      // read as a broadcast: no conflict
    __shared__ float rowsJ[T][T + 1];  // read down a column: padded

    int x = threadIdx.x, y = threadIdx.y;
    int i0 = blockIdx.y * T, j0 = blockIdx.x * T;
    float acc = 0.0f;

    for (int k0 = 0; k0 < W; k0 += T) {
        int k = k0 + x;
        rowsI[y][x] = (i0 + y < M && k < W) ? A[(size_t)(i0 + y) * W + k] : 0.0f;
        rowsJ[y][x] = (j0 + y < M && k < W) ? A[(size_t)(j0 + y) * W + k] : 0.0f;
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < T; ++kk)
            acc += rowsI[y][kk] * rowsJ[x][kk];
        __syncthreads();
    }

    if (i0 + y < M && j0 + x < M)
        G[(size_t)(i0 + y) * M + j0 + x] = acc;
}
