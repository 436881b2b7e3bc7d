/* Lesson 10, reference solution of 10a: the async rolling prefetch of lesson
 * 9 with a padded thread-major buffer.
 *
 *   make check-solutions lesson10 ONLY=padded   (grades this reference solution)
 *
 * Thread t's slot k is buf[k + (PDIST + PADDING) * t]. When the threads of a
 * warp touch their slot k, consecutive threads are PDIST + PADDING doubles
 * apart. A double spans two of the 32 four-byte banks, so a warp's 8-byte
 * access is served 16 threads at a time, over 16 pairs of banks; thread t
 * uses pair (k + stride * t) mod 16. For the 16 threads to use 16 different
 * pairs the stride must be odd. With PDIST = 8 and no padding the stride is
 * 8: only 2 pairs, 8 threads on each, an 8-way conflict. With PADDING = 1 the
 * stride is 9 = 2^3 + 1 (the rule of NVIDIA, 2022: a power of two plus one),
 * and every pair is used once.
 *
 * The padding slots are never read or written: they only move the next
 * thread's slots to other banks, at the cost of PADDING * BLOCKDIMX doubles
 * of shared memory per block.
 */

/* Knob defaults, the ones grader/specs/lesson10.c gives (the grader sets
 * every knob with -D; these let nvcc -Xptxas -v compile the file alone). */
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif
#ifndef PDIST
#define PDIST 8
#endif

#include <cuda_pipeline.h>

/* 10b times its kernel against this one; it has no PADDING knob of its own. */
#ifndef PADDING
#define PADDING 1
#endif

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

#define STRIDE (PDIST + PADDING)
#define SLOT(k) buf[(k) + STRIDE * threadIdx.x]

extern "C" __global__ void
rolling_async(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[STRIDE * BLOCKDIMX];
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
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX],
                                    sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
