// Lesson 15 answered by a register ring: an accepted answer
// (tests/gpu/accepted/README.md), not the reference. Grade it with:
//   build/grader check lesson15 --student-dir tests/gpu/accepted/lesson15-register-ring
//
// A warp per row, the row in registers, and the warp's next row prefetched
// into a second set of registers before the current row's arithmetic
// (lessons 5-7: a ring of two rows). Lane l holds elements l, l+32, ... of
// a row, so every load instruction of the warp reads one 128-byte line
// (lesson 2); the row is read once (lesson 3); the arrays stay in registers
// because every index is a compile-time constant after #pragma unroll
// (lesson 7). The reductions are warp shuffles.

#define MAX_COLS 512
#define PER_LANE (MAX_COLS / 32)
#define ROWS_PER_BLOCK 256

__device__ __forceinline__ float warp_max(float v)
{
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ void load_row(float (&v)[PER_LANE], const float *__restrict__ xr,
                                         int cols, int lane)
{
    #pragma unroll
    for (int k = 0; k < PER_LANE; ++k) {
        int j = k * 32 + lane;
        v[k] = j < cols ? xr[j] : -3.402823466e38f;
    }
}

extern "C" __global__ void softmax(const float *__restrict__ x, float *__restrict__ y,
                                   int rows, int cols)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int warps = blockDim.x >> 5;
    const int first = blockIdx.x * ROWS_PER_BLOCK;
    const int last = min(first + ROWS_PER_BLOCK, rows);

    float cur[PER_LANE], next[PER_LANE];
    int r = first + warp;
    if (r < last)
        load_row(cur, x + (size_t)r * cols, cols, lane);
    for (; r < last; r += warps) {
        // The prefetch: the next row's loads leave before this row's math.
        if (r + warps < last)
            load_row(next, x + (size_t)(r + warps) * cols, cols, lane);

        float m = cur[0];
        #pragma unroll
        for (int k = 1; k < PER_LANE; ++k)
            m = fmaxf(m, cur[k]);
        m = warp_max(m);
        float s = 0.0f;
        #pragma unroll
        for (int k = 0; k < PER_LANE; ++k) {
            cur[k] = k * 32 + lane < cols ? expf(cur[k] - m) : 0.0f;
            s += cur[k];
        }
        float inv = 1.0f / warp_sum(s);
        float *yr = y + (size_t)r * cols;
        #pragma unroll
        for (int k = 0; k < PER_LANE; ++k) {
            if (k * 32 + lane < cols)
                yr[k * 32 + lane] = cur[k] * inv;
            cur[k] = next[k];   // rotate the ring: a register move, unrolled
        }
    }
}
