/* Race probe (tests/gpu/races/README.md): lesson 9's asynchronous ring with
 * __pipeline_commit() only when a copy was issued, as the source blog's code
 * does. In the last iterations no batch is committed, so
 * __pipeline_wait_prior(PDIST - 1) no longer covers the slot being read
 * (lesson 9, "One commit per wait"): those reads may see the slot's old
 * value. Whether they do depends on how late the copies land.
 *
 *   build/grader check lesson9 --student-dir tests/gpu/races/async_commit_if_copy
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
        __pipeline_wait_prior(PDIST - 1);
        const double x = SLOT(k);
        if (i < last) {
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX],
                                    sizeof(double));
            __pipeline_commit();   /* the race: no commit when there is no copy */
        }
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
