/* Race probe (tests/gpu/races/README.md): lesson 9's asynchronous ring
 * waiting with __pipeline_wait_prior(PDIST) instead of PDIST - 1: one batch
 * too few, so every read, the first included, may see its slot before the
 * copy lands. CUDA 13.0's header turns any argument above 7 into
 * cp.async.wait_group 8 (lesson 9, "Beyond PDIST 9"), so from PDIST 9 on this
 * file waits for enough after all: racy only for PDIST <= 8.
 *
 *   build/grader check lesson9 --student-dir tests/gpu/races/async_wait_prior_pdist
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
        __pipeline_wait_prior(PDIST);   /* the race: should be PDIST - 1 */
        const double x = SLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX],
                                    sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
