/* Gaming kernel (issue 15): G = A * A^T read straight from device memory,
 * with a shared tile used only in a branch never taken (M is never
 * negative). The PTX has 'ld.shared', so a text search passes it; with what
 * it stores into shared memory taken from other inputs, it still returns
 * the old G: MECHANISM.
 *
 *   build/grader check lesson3 --only bank_conflicts --student-dir tests/gpu/gaming/dead_tile_gram
 */
#define T 32

extern "C" __global__ void gram(const float *A, float *G, int M, int W)
{
    __shared__ float ko_tile[T];
    if (M < 0) {   /* never */
        ko_tile[threadIdx.x] = A[threadIdx.x];
        __syncthreads();
        G[threadIdx.x] = ko_tile[threadIdx.x ^ 1];
    }
    int i = blockIdx.y * T + threadIdx.y, j = blockIdx.x * T + threadIdx.x;
    if (i >= M || j >= M)
        return;
    float acc = 0.0f;
    for (int k = 0; k < W; k++)
        acc += A[(size_t)i * W + k] * A[(size_t)j * W + k];
    G[(size_t)i * M + j] = acc;
}
