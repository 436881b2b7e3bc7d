/* Lesson 11a with the prefetch offset in the wrong unit: chunk[i + L2DIST]
 * instead of chunk[i + L2DIST * BLOCKDIMX]. The loop's index steps by
 * BLOCKDIMX, so L2DIST elements ahead lies in the lines the warp is loading
 * in this very iteration: the prefetch is there (the PTX has
 * prefetch.global.L2, every mechanism check holds) but brings nothing the
 * load would not. Expected SLOW; the report's diagnosis names the offset
 * (issue 15).
 *
 *   build/grader check lesson11 --only l2_prefetch --student-dir tests/gpu/faulty/l2dist_elements
 */

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

/* Bring the line holding *p into L2. PTX wants a .global address. */
__device__ __forceinline__ void prefetch_l2(const void *p)
{
    asm volatile("prefetch.global.L2 [%0];" ::"l"(__cvta_generic_to_global(p)));
}

extern "C" __global__ void
l2_prefetch(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const int last = imax - L2DIST * BLOCKDIMX;
    const bool issues = threadIdx.x % 16 == 0;   /* one thread per 128-byte line */
    double acc = 0.0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX) {
        if (issues && i < last)
            prefetch_l2(&chunk[i + L2DIST]);   /* elements, not iterations */
        acc += work(chunk[i]);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
