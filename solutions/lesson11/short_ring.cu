/* Lesson 11, reference solution of 11b: a two-level prefetch. The short
 * ring of shared memory (PDIST = 2 slots per thread, lesson 10b's
 * index-major asynchronous ring) brings elements from L2 into shared
 * memory; a prefetch L2DIST iterations ahead (8 by default) brings them from
 * device memory into L2 first.
 *
 *   make check lesson11 ONLY=short_ring
 *
 * Each asynchronous copy of the ring now finds its line in L2, so the
 * latency it has to cover is an L2 hit, not a trip to device memory, and
 * two iterations of work cover much more of it. The prefetch costs no
 * register and no shared memory: L2 (50 MB on an H100) holds what the ring
 * has no room for. One thread per 128-byte line issues it.
 */

/* Knob defaults, the ones grader/specs/lesson11.c gives (the grader sets
 * every knob with -D; these let nvcc -Xptxas -v compile the file alone). */
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif
#ifndef PDIST
#define PDIST 2
#endif
#ifndef L2DIST
#define L2DIST 8
#endif

#include <cuda_pipeline.h>

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

/* Bring the line holding *p into L2. PTX wants a .global address. */
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
    const bool issues = threadIdx.x % 16 == 0;   /* one thread per 128-byte line */
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
        __pipeline_wait_prior(PDIST - 1);
        const double x = SLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX], sizeof(double));
        __pipeline_commit();
        if (issues && i < last_l2)
            prefetch_l2(&chunk[i + L2DIST * BLOCKDIMX]);
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
