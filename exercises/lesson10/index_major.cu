/* Lesson 10, exercise 10b: the same speed as the padded buffer, with no
 * padding at all.
 *
 * This is lesson 9's solution, launched with BLOCKS_PER_SM = 4 blocks per SM:
 * the thread-major buffer whose bank conflicts exercise 10a removed by
 * padding. Here the shared array must stay exactly PDIST * BLOCKDIMX doubles
 * (the grader checks the size). Remove the conflicts by changing where slot k
 * of thread t lives instead (lessons/lesson10-bank-conflicts.md, section
 * "Fix 2: change the index scheme").
 *
 * TODO (lesson 10, section "Fix 2: change the index scheme"):
 *   Change SLOT(k) so that, for any fixed k, the 32 threads of a warp use 32
 *   consecutive doubles. Nothing else in the kernel needs to change.
 *
 * Check with: make check lesson10
 *
 * Graded on sizes 1, 2000000, 6000000; timed at 33554432 (doubles asked for, in whole rounds per block).
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

#define SLOT(k) buf[(k) + PDIST * threadIdx.x]   /* TODO: see above */

extern "C" __global__ void
rolling_async(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[PDIST * BLOCKDIMX];      /* keep this size */
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
