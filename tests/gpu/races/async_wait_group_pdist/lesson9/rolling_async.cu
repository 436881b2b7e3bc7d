/* Race probe (tests/gpu/races/README.md): the same off-by-one wait as
 * async_wait_prior_pdist, written as the PTX instruction itself, so the
 * header's clamp to 8 does not hide it: cp.async.wait_group PDIST leaves one
 * batch too many in flight at every PDIST.
 *
 *   build/grader check lesson9 --student-dir tests/gpu/races/async_wait_group_pdist
 *   tests/gpu/race-experiment.sh OUTDIR      (all probes, on a GPU)
 */
#include <cuda_pipeline.h>

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

#define SLOT(k) buf[(k) + PDIST * threadIdx.x]

extern "C" __global__ void
rolling_async(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[PDIST * BLOCKDIMX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < PDIST; k++) {
        __pipeline_memcpy_async(&SLOT(k), &chunk[threadIdx.x + k * BLOCKDIMX],
                                sizeof(double));
        __pipeline_commit();
    }
    const int last = imax - PDIST * BLOCKDIMX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX, ctr++) {
        const int k = ctr % PDIST;
        /* the race: PDIST batches may stay in flight, the one needed among them */
        asm volatile("cp.async.wait_group %0;" ::"n"(PDIST) : "memory");
        const double x = SLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX],
                                    sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
