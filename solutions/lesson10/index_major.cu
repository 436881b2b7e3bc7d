/* Lesson 10, reference solution of 10b: the async rolling prefetch of lesson
 * 9 with an index-major buffer, no padding.
 *
 *   make check-solutions lesson10 ONLY=index_major   (grades this reference solution)
 *
 * Thread t's slot k is buf[k * BLOCKDIMX + t]: the buffer is PDIST rows of
 * BLOCKDIMX doubles, one row per slot number. All threads of a warp work on
 * the same slot number in the same iteration (they run the same number of
 * iterations in step), so a warp's access is 32 consecutive doubles of one
 * row: 256 contiguous bytes, which the 32 banks serve in the minimum two
 * passes whatever PDIST is. The buffer is exactly PDIST * BLOCKDIMX doubles.
 *
 * This is what NVIDIA, 2022 leaves as an exercise: the speed of the padded
 * buffer without its extra shared memory.
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

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

#define SLOT(k) buf[(k) * BLOCKDIMX + threadIdx.x]

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
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX],
                                    sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
