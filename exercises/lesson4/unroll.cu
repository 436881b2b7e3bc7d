// Lesson 4, unrolling: sums[b] = the sum, in double, of the floats
// x[b*chunk .. min(n, (b+1)*chunk)), one block per chunk.
//
// Launch (fixed by the grader): one block of 256 threads per SM, so each
// SM has only 8 warps to switch between. chunk is a multiple of 64, so
// every chunk starts on a 256-byte boundary.
//
// TODO (lessons/lesson4-unrolling.md, sections "One load at a time" and
// "Unrolling"): as written, each thread loads one value, waits the whole
// memory latency for it, adds it, and only then issues the next load. With
// so few warps per SM nothing else hides that wait. Restructure the loop so
// that each iteration first issues UNROLL independent loads (x[i],
// x[i + BLOCK], ..., x[i + (UNROLL-1)*BLOCK]) into UNROLL registers, and
// only then adds them up; finish the last, incomplete round with the
// simple loop. UNROLL is a knob (default 8): make check lesson4 UNROLL=16.
// Index any per-thread array only with compile-time constants (fully
// unrolled loops), or it lands in local memory. Keep the accumulation in
// double: the grader compares against a double-precision sum.
//
// Graded on sizes 1, 1000, 100003, 1234567; timed at 67108864 (n, the length of x).

#define BLOCK 256
#ifndef UNROLL
#define UNROLL 8
#endif

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
    for (int i = begin + threadIdx.x; i < end; i += BLOCK)  // TODO: UNROLL loads per round
        acc += x[i];

    acc = block_sum(acc);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = acc;
}
