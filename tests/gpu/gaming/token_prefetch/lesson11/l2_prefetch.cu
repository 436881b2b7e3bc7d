/* Gaming kernel (issue 15): the L2 prefetch runs, but only in each
 * thread's first iteration; the plain loop does the rest. The PTX has
 * 'prefetch.global.L2' and the prefetch is executed, but it covers a few
 * lines of the input, not the stream: MECHANISM.
 *
 *   build/grader check lesson11 --only l2_prefetch --student-dir tests/gpu/gaming/token_prefetch
 */
__device__ __forceinline__ void prefetch_l2(const void *p)
{
    asm volatile("prefetch.global.L2 [%0];" ::"l"(__cvta_generic_to_global(p)));
}

extern "C" __global__ void
l2_prefetch(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX) {
        if (i == threadIdx.x && i + L2DIST * BLOCKDIMX < imax)
            prefetch_l2(&chunk[i + L2DIST * BLOCKDIMX]);
        acc += exp(chunk[i]);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
