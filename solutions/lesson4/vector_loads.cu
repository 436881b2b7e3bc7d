// Lesson 4, vector loads: sums[b] = the sum, in double, of the floats
// x[b*chunk .. min(n, (b+1)*chunk)), one block per chunk.
//
//   make check-solutions lesson4 ONLY=vector_loads   (grades this reference solution)
//
// Reference solution: the chunk is read as float4, one 16-byte load per
// thread per iteration (ld.global.v4.f32 in PTX, LDG.E.128 in SASS): a warp
// brings 512 bytes per instruction instead of 128, so with the same single
// load in flight per thread each SM has 4 KiB on its way instead of 1 KiB.
// The loop is still not unrolled, to show what the wider load alone buys.
// A float4 load needs a 16-byte aligned address: the chunk starts at a
// multiple of 64 floats and cudaMalloc returns 256-byte aligned memory.

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
    int len = min(n, begin + chunk) - begin;  // negative for a block past n
    int quads = len > 0 ? len / 4 : 0;
    const float4 *x4 = reinterpret_cast<const float4 *>(x + begin);

    double acc = 0.0;
    #pragma unroll 1
    for (int q = threadIdx.x; q < quads; q += BLOCK) {
        float4 v = x4[q];
        acc += ((double)v.x + (double)v.y) + ((double)v.z + (double)v.w);
    }
    // At most 3 floats after the last whole float4.
    for (int i = 4 * quads + threadIdx.x; i < len; i += BLOCK)
        acc += x[begin + i];

    acc = block_sum(acc);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = acc;
}
