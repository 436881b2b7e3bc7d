// Lesson 4, vector loads: sums[b] = the sum, in double, of the floats
// x[b*chunk .. min(n, (b+1)*chunk)), one block per chunk.
//
//   make check lesson4 ONLY=vector_loads   (times your kernel against this one)
//
// Launch (fixed by the grader): one block of 256 threads per SM, so each
// SM has only 8 warps to switch between. chunk is a multiple of 64, so
// every chunk starts on a 256-byte boundary.
//
// Each thread strides through its block's chunk and adds one value per
// iteration. `#pragma unroll 1` keeps the loop exactly as written: load,
// wait for the load, add, next iteration. (The compiler would unroll a loop
// this short on its own; the pragma stands for the many loops it does not
// unroll, because the body is long, calls something opaque, or stores
// through a pointer that might alias the next load.) With one load in
// flight per thread, each SM has 256 x 4 bytes = 1 KiB on its way from
// memory at a time, and the kernel is bound by memory latency, not by
// bandwidth. Each load instruction also brings only 4 bytes per thread,
// 128 bytes per warp. (Trusted baseline: students never edit this file;
// the same code as the baseline of the unrolling exercise.)

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
    for (int i = begin + threadIdx.x; i < end; i += BLOCK)
        acc += x[i];

    acc = block_sum(acc);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = acc;
}
