/* Gaming kernel (issue 15): prefetch.global.L2 and cp.async into a ring of the asked size, both in a branch never taken; lesson 7's register ring does the work.
 * A text or size check passes it; the knock-out run does not: MECHANISM.
 *
 *   build/grader check lesson11 --only short_ring --student-dir tests/gpu/gaming/dead_short_ring
 */
#include <cuda_pipeline.h>

extern "C" __global__ void
short_ring(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[PDIST * BLOCKDIMX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
    if (imax < 0)     /* never */
        asm volatile("prefetch.global.L2 [%0];" ::"l"(__cvta_generic_to_global(chunk + threadIdx.x)));
    if (imax < 0) {   /* never */
        __pipeline_memcpy_async(&buf[threadIdx.x], &chunk[threadIdx.x], sizeof(double));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        acc += buf[threadIdx.x];
    }
    double ring[PDIST];
#pragma unroll
    for (int k = 0; k < PDIST; k++)
        ring[k] = chunk[threadIdx.x + k * BLOCKDIMX];
    const int last = imax - PDIST * BLOCKDIMX;
#pragma unroll 1
    for (int base = threadIdx.x; base < imax; base += PDIST * BLOCKDIMX) {
#pragma unroll
        for (int k = 0; k < PDIST; k++) {
            const int i = base + k * BLOCKDIMX;
            const double x = ring[k];
            if (i < last)
                ring[k] = chunk[i + PDIST * BLOCKDIMX];
            acc += exp(x);
        }
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
