// Lesson 4, unrolling: sums[b] = the sum, in double, of the floats
// x[b*chunk .. min(n, (b+1)*chunk)), one block per chunk.
//
//   make check-solutions lesson4 ONLY=unroll   (grades this reference solution)
//
// Reference solution: each round issues UNROLL loads, all independent of
// each other and of the sum, before the first of them is used. Their
// latencies overlap, so each SM has UNROLL times as many bytes in flight
// (8 KiB at UNROLL = 8) and the same latency delivers UNROLL times the data.
// The cost is UNROLL registers per thread for the values (see the register
// count in the report). Two accumulators halve the chain of dependent
// additions; with memory this slow one would do, but it costs nothing.

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

    double acc0 = 0.0, acc1 = 0.0;
    int i = begin + threadIdx.x;

    // Whole rounds: every one of the UNROLL indices is below `end`.
    #pragma unroll 1
    for (; i + (UNROLL - 1) * BLOCK < end; i += UNROLL * BLOCK) {
        float v[UNROLL];
        #pragma unroll
        for (int u = 0; u < UNROLL; ++u)  // all loads first ...
            v[u] = x[i + u * BLOCK];
        #pragma unroll
        for (int u = 0; u < UNROLL; u += 2) {  // ... then the arithmetic
            acc0 += v[u];
            if (u + 1 < UNROLL)
                acc1 += v[u + 1];
        }
    }
    // The last, incomplete round: fewer than UNROLL values per thread.
    #pragma unroll 1
    for (; i < end; i += BLOCK)
        acc0 += x[i];

    double acc = block_sum(acc0 + acc1);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = acc;
}
