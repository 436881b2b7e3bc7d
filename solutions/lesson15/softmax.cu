// Lesson 15, the capstone: a row-wise softmax (see exercises/lesson15/
// softmax.cu for the problem). x and y are rows x cols floats, row-major,
// 1 <= cols <= 512. Grade it with: make check-solutions lesson15
//
// Reference solution: a warp per row, the row held in registers.
//   - Coalescing (lesson 2): lane l reads elements l, l+32, l+64, ... of
//     the row, so each load instruction of the warp reads 32 consecutive
//     floats, one 128-byte line, where the naive kernel's touched 32 lines.
//   - Reuse (lesson 3): the row is read from memory once, into PER_LANE
//     registers per lane; the maximum, the sum and the output all come from
//     those registers. 8 bytes of traffic per element: a copy's.
//   - Unrolling (lesson 4): the PER_LANE loads are issued before the first
//     use, so a warp has its whole row in flight at once; the array stays in
//     registers because every index is a compile-time constant after
//     #pragma unroll (lesson 7).
//   - The reductions are warp shuffles: no shared memory, no __syncthreads.
// Each warp of the block takes 32 of the block's 256 rows in turn.

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

extern "C" __global__ void softmax(const float *__restrict__ x, float *__restrict__ y,
                                   int rows, int cols)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int warps = blockDim.x >> 5;
    const int first = blockIdx.x * ROWS_PER_BLOCK;
    const int last = min(first + ROWS_PER_BLOCK, rows);

    for (int r = first + warp; r < last; r += warps) {
        const float *xr = x + (size_t)r * cols;
        float v[PER_LANE];
        // All loads first: up to PER_LANE independent loads in flight.
        #pragma unroll
        for (int k = 0; k < PER_LANE; ++k) {
            int j = k * 32 + lane;
            v[k] = j < cols ? xr[j] : -3.402823466e38f;
        }
        float m = v[0];
        #pragma unroll
        for (int k = 1; k < PER_LANE; ++k)
            m = fmaxf(m, v[k]);
        m = warp_max(m);

        float s = 0.0f;
        #pragma unroll
        for (int k = 0; k < PER_LANE; ++k) {
            v[k] = k * 32 + lane < cols ? expf(v[k] - m) : 0.0f;
            s += v[k];
        }
        float inv = 1.0f / warp_sum(s);

        float *yr = y + (size_t)r * cols;
        #pragma unroll
        for (int k = 0; k < PER_LANE; ++k) {
            int j = k * 32 + lane;
            if (j < cols)
                yr[j] = v[k] * inv;
        }
    }
}
