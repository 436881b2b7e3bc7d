/* Accepted answer (issue 28): the chunk read as float4 in whole rounds (a
 * round: one float4 for each of the block's threads, 4 * BLOCK floats), and
 * the last incomplete round, up to 4 * BLOCK - 1 floats, as scalars. At the
 * timed size a block's chunk is ~500 rounds, so 99.8% of the bytes come by
 * 16-byte loads; the knock-out asked 90% of the block sums to be entirely
 * the vector loads' and got none, each sum having a few scalar elements
 * (MECHANISM). The data watch counts bytes: 98% by 16-byte loads at the
 * largest simulated size. PASS.
 *
 *   build/grader check lesson4 --student-dir tests/gpu/accepted/lesson4-whole-rounds
 */
#define BLOCK 256

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
    int len = min(n, begin + chunk) - begin;          /* negative for a block past n */
    int rounds = len > 0 ? len / (4 * BLOCK) : 0;     /* whole rounds of float4 */
    const float4 *x4 = reinterpret_cast<const float4 *>(x + begin);

    double acc = 0.0;
#pragma unroll 1
    for (int r = 0; r < rounds; r++) {
        float4 v = x4[r * BLOCK + threadIdx.x];
        acc += ((double)v.x + (double)v.y) + ((double)v.z + (double)v.w);
    }
    /* the last incomplete round, one float at a time */
    for (int i = 4 * BLOCK * rounds + threadIdx.x; i < len; i += BLOCK)
        acc += x[begin + i];

    acc = block_sum(acc);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = acc;
}
