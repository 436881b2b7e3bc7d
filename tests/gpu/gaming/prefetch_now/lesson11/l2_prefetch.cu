/* Gaming kernel (issue 15): the L2 prefetch runs for every line of the
 * input, but right before the load of its own element (distance 0): the
 * load that follows waits for the same trip to device memory, so nothing
 * is hidden. The PTX has 'prefetch.global.L2' and the prefetches cover
 * every line: only the rule that a prefetch runs ahead of the load it
 * serves (grader/knockout_run.c) stops it: MECHANISM.
 *
 *   build/grader check lesson11 --only l2_prefetch --student-dir tests/gpu/gaming/prefetch_now
 */
__device__ __forceinline__ void prefetch_l2(const void *p)
{
    asm volatile("prefetch.global.L2 [%0];" ::"l"(__cvta_generic_to_global(p)));
}

extern "C" __global__ void
l2_prefetch(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const bool issues = threadIdx.x % 16 == 0;   /* one thread per 128-byte line */
    double acc = 0.0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX) {
        if (issues)
            prefetch_l2(&chunk[i]);   /* the element this iteration loads */
        acc += exp(chunk[i]);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
