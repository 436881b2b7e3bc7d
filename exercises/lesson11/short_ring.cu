/* Lesson 11 exercise 11b: a ring too short for the latency, helped by L2.
 *
 *   make check lesson11 ONLY=short_ring
 *   make check lesson11 ONLY=short_ring L2DIST=16
 *
 * This is lesson 10b's asynchronous ring, index-major, with PDIST = 2 slots
 * per thread: suppose the rest of this kernel's shared memory holds other
 * data, so two slots are all the ring can have (the grade checks that the
 * buffer stays PDIST * BLOCKDIMX doubles). Two copies in flight cover only
 * part of a trip to device memory. Keep the ring, and make each copy come
 * from L2 instead of from device memory.
 *
 * TODO (lessons/lesson11-l2-prefetch.md, section "Two levels"):
 *   1. Add the prefetch helper of exercise 11a (PTX prefetch.global.L2 on
 *      __cvta_generic_to_global(address)).
 *   2. In every iteration, let the threads with threadIdx.x % 16 == 0
 *      prefetch the line of chunk[i + L2DIST * BLOCKDIMX], while
 *      i < imax - L2DIST * BLOCKDIMX. L2DIST (8 by default) is larger than
 *      PDIST: L2 is far larger than the ring, so it can hold more ahead.
 *      Put the prefetch after the iteration's copy and __pipeline_commit(),
 *      not at the top of the loop before __pipeline_wait_prior: there it
 *      measured SLOW, because the compiler then issued the ring's refill
 *      after work() (lesson 11, "Where the prefetch goes").
 * Leave the ring, its commits and its wait as they are.
 *
 * Graded on sizes 1, 2000000, 6000000; timed at 33554432 (doubles asked for, in whole rounds per block).
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

#define SLOT(k) buf[(k) * BLOCKDIMX + threadIdx.x]

extern "C" __global__ void
short_ring(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[PDIST * BLOCKDIMX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < PDIST; k++) {
        __pipeline_memcpy_async(&SLOT(k), &chunk[threadIdx.x + k * BLOCKDIMX], sizeof(double));
        __pipeline_commit();
    }
    const int last = imax - PDIST * BLOCKDIMX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX, ctr++) {
        const int k = ctr % PDIST;
        __pipeline_wait_prior(PDIST - 1);
        const double x = SLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX], sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
