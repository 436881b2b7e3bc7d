// Lesson 4, vector loads: sums[b] = the sum, in double, of the floats
// x[b*chunk .. min(n, (b+1)*chunk)), one block per chunk.
//
// Launch (fixed by the grader): one block of 256 threads per SM, so each
// SM has only 8 warps to switch between. chunk is a multiple of 64, so
// every chunk starts on a 256-byte boundary.
//
// TODO (lessons/lesson4-unrolling.md, section "Wider loads"): each load
// below brings 4 bytes per thread. Read the chunk as float4 instead, 16
// bytes per thread and per instruction, four times the data in flight for
// the same number of loads:
//   - view the chunk as an array of float4, starting at x + begin (16-byte
//     aligned, because chunk is a multiple of 64 floats and cudaMalloc'd
//     memory is 256-byte aligned);
//   - let thread t read float4 number t, t + BLOCK, ... and add its four
//     components;
//   - the chunk's length need not be a multiple of 4: add the last few
//     floats (at most 3) with scalar loads.
// Keep `#pragma unroll 1` on the main loop: this exercise measures the
// wider loads alone (the unrolling exercise measures the other remedy).
// The grader checks the PTX for 4-wide loads (".v4.").
//
// Check with: make check lesson4 ONLY=vector_loads
//
// Graded on sizes 1, 1000, 100003, 1234567; timed at 67108864 (n, the length of x).

#define BLOCK 256

// Sum of a double over the block; the result is valid in thread 0.
__device__ double block_sum(double v)
{
    __shared__ double warp_sums[BLOCK / 32];
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0.0;
    if (threadIdx.x < BLOCK / 32)
        v = warp_sums[threadIdx.x];
    if (threadIdx.x < 32)
        for (int d = 16; d > 0; d /= 2)
            v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

extern "C" __global__ void block_sums(const float *x, double *sums, int n, int chunk)
{
    int begin = blockIdx.x * chunk;
    int end = min(n, begin + chunk);

    double acc = 0.0;
    #pragma unroll 1
    for (int i = begin + threadIdx.x; i < end; i += BLOCK)  // TODO: float4 loads
        acc += x[i];

    acc = block_sum(acc);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = acc;
}
