/* Baseline of lesson 12 (bulk_ring): lesson 9's reference solution, the
 * rolling prefetch into shared memory with one 8-byte asynchronous copy per
 * thread and iteration (cp.async), at lesson 9's default distance, 8. The
 * grader times your kernel against this one. Do not edit.
 *
 *   make check lesson12
 *
 * The knobs of lesson 12 (STAGES, STAGE_ITERS) do not apply to it.
 */

/* Knob defaults, the ones grader/specs/lesson12.c gives (the grader sets
 * every knob with -D; these let nvcc -Xptxas -v compile the file alone). */
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif

#include <cuda_pipeline.h>

#define RING 8   /* lesson 9's PDIST */

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

#define SLOT(k) buf[(k) + RING * threadIdx.x]

extern "C" __global__ void
bulk_ring(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[RING * BLOCKDIMX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < RING; k++) {
        __pipeline_memcpy_async(&SLOT(k), &chunk[threadIdx.x + k * BLOCKDIMX], sizeof(double));
        __pipeline_commit();
    }
    const int last = imax - RING * BLOCKDIMX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX, ctr++) {
        const int k = ctr % RING;
        __pipeline_wait_prior(RING - 1);
        const double x = SLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + RING * BLOCKDIMX], sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
