/* Gaming kernel (issue 15): prefetch.global.L2 in a branch never taken; the plain loop does the work.
 * A text or size check passes it; the knock-out run does not: MECHANISM.
 *
 *   build/grader check lesson11 --only l2_prefetch --student-dir tests/gpu/gaming/dead_l2_prefetch
 */
extern "C" __global__ void
l2_prefetch(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
    if (imax < 0)     /* never */
        asm volatile("prefetch.global.L2 [%0];" ::"l"(__cvta_generic_to_global(chunk + threadIdx.x)));
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX)
        acc += exp(chunk[i]);
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
