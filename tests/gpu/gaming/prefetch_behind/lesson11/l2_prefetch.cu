/* Gaming kernel (issue 15): the L2 prefetch runs for every line of the
 * input, but L2DIST iterations behind the load: each prefetch asks for a
 * line the warp loaded already, so nothing is hidden. The PTX has
 * 'prefetch.global.L2' and the prefetches cover almost every line: only
 * the rule that a prefetch runs ahead of the load it serves
 * (grader/knockout_run.c) stops it: MECHANISM.
 *
 *   build/grader check lesson11 --only l2_prefetch --student-dir tests/gpu/gaming/prefetch_behind
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
        acc += exp(chunk[i]);
        if (issues && i >= L2DIST * BLOCKDIMX)
            prefetch_l2(&chunk[i - L2DIST * BLOCKDIMX]);   /* behind, not ahead */
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
