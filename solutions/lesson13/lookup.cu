/* Lesson 13, reference solution of 13b: the table read through the L1
 * cache instead of constant memory.
 *
 *   make check lesson13 ONLY=lookup
 *
 * The 32 lanes of a warp read 32 different entries. The constant cache
 * serves a warp one address at a time, so from constant memory each lookup
 * costs 32 turns; the L1 cache serves the 32 addresses of a warp's load in
 * one request (the whole 1 KB table stays in L1 after the first reads).
 * const __restrict__ tells the compiler the table is read-only for the
 * whole kernel, so it may use the read-only load (ld.global.nc).
 *
 * The __constant__ array is still declared because the grader fills it
 * before every launch; this kernel does not read it.
 */
#define NTAB 256
#define LOOKUPS 8

__constant__ float table[NTAB];

__device__ __forceinline__ unsigned mix(unsigned h)
{
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

/* The index of element i's r-th lookup: per-warp base + 37 * lane. */
__device__ __forceinline__ int lookup_index(int i, int r)
{
    const unsigned warp = (unsigned)i >> 5, lane = (unsigned)i & 31;
    return (int)((mix(warp * LOOKUPS + (unsigned)r) + lane * 37u) & (NTAB - 1));
}

extern "C" __global__ void
lookup(const float *__restrict__ table_g, const float *__restrict__ x, float *__restrict__ y,
       int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = x[i];
#pragma unroll
    for (int r = 0; r < LOOKUPS; r++)
        acc = fmaf(acc, 0.5f, table_g[lookup_index(i, r)]);
    y[i] = acc;
}
