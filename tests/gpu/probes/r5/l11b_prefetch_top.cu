/* Lesson 11b as the first learner wrote it from the hint: the prefetch at the
 * top of the loop, before __pipeline_wait_prior (issue 26). SLOW, 1.35x, on
 * the H200 of 2026-11-29 by that learner's report; measured again here.
 *
 *   make check lesson11 ONLY=short_ring STUDENT_DIR=<dir holding lesson11/short_ring.cu>
 */
#include <cuda_pipeline.h>

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

__device__ __forceinline__ void prefetch_l2(const void *p)
{
    asm volatile("prefetch.global.L2 [%0];" ::"l"(__cvta_generic_to_global(p)));
}

#define SLOT(k) buf[(k) * BLOCKDIMX + threadIdx.x]

extern "C" __global__ void
short_ring(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[PDIST * BLOCKDIMX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const bool issues = threadIdx.x % 16 == 0;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < PDIST; k++) {
        __pipeline_memcpy_async(&SLOT(k), &chunk[threadIdx.x + k * BLOCKDIMX], sizeof(double));
        __pipeline_commit();
    }
    const int last = imax - PDIST * BLOCKDIMX;
    const int last_l2 = imax - L2DIST * BLOCKDIMX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX, ctr++) {
        const int k = ctr % PDIST;
        if (issues && i < last_l2)
            prefetch_l2(&chunk[i + L2DIST * BLOCKDIMX]);
        __pipeline_wait_prior(PDIST - 1);
        const double x = SLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX], sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
