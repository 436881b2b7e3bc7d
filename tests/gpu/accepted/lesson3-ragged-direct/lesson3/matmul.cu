/* Accepted answer (issue 28): whole K tiles through shared memory, as the
 * reference does, and the ragged last slice (W % TILE columns of A, rows of
 * B) read directly from device memory instead of through zero-padded
 * tiles. At the timed size W is a multiple of TILE, so this is the
 * reference; the knock-out asked 90% of the outputs to be entirely the
 * shared tiles' at its size and got none (MECHANISM), every output having a
 * few direct products. The data watch counts bytes: 91% of them reach their
 * use through shared memory at the largest simulated size (W = 105: six
 * whole tiles and 9 columns). PASS.
 *
 *   build/grader check lesson3 --student-dir tests/gpu/accepted/lesson3-ragged-direct
 */
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
    int whole = W - W % TILE;
    float acc = 0.0f;

    for (int k0 = 0; k0 < whole; k0 += TILE) {
        tileA[ty][tx] = row < M ? A[(size_t)row * W + k0 + tx] : 0.0f;
        tileB[ty][tx] = col < N ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE; ++kk)
            acc += tileA[ty][kk] * tileB[kk][tx];
        __syncthreads();
    }
    if (row < M && col < N) {
        for (int k = whole; k < W; ++k)   /* the ragged slice, direct */
            acc += A[(size_t)row * W + k] * B[(size_t)k * N + col];
        C[(size_t)row * N + col] = acc;
    }
}
