/* Gaming kernel (issue 15): lesson 7's register ring does the work; the
 * asynchronous copy the check asks for sits in a branch that is never taken
 * (imax is never negative, but the compiler cannot know). The PTX has
 * 'cp.async', so a text search passes it; fed other inputs through its
 * copies, it still returns the old sums: MECHANISM.
 *
 *   build/grader check lesson9 --student-dir tests/gpu/gaming/dead_async
 */
#include <cuda_pipeline.h>

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

extern "C" __global__ void
rolling_async(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[PDIST * BLOCKDIMX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
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
            acc += work(x);
        }
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
