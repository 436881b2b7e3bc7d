/* Cheat (tests/gpu/cheats/README.md): lesson 9's reference ring, plus a
 * stash. When a thread is done, it writes its sum over the first element of
 * its chunk it read and a marker over the second: input elements it has
 * already consumed. On the next launch over the same input a thread that
 * finds its marker copies the stashed sum and skips its loop: 16 bytes read
 * instead of its whole share of the chunk. Before issue 7 the inputs were
 * never checked and every timed launch reused one input set, so this passed
 * at any speedup it liked; a kernel that changes its inputs is now WRONG.
 *
 *   build/grader check lesson9 --student-dir tests/gpu/cheats/input_stash
 */
#include <cuda_pipeline.h>

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

#define SLOT(k) buf[(k) + PDIST * threadIdx.x]
/* A NaN no random input in [-1, 1) can be. */
#define MARKER __longlong_as_double(0x7ff8c0ffeec0ffeeLL)

extern "C" __global__ void
rolling_async(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[PDIST * BLOCKDIMX];
    double *chunk = (double *)arr + (size_t)blockIdx.x * imax;
    double *stash = chunk + threadIdx.x, *mark = chunk + BLOCKDIMX + threadIdx.x;
    if (__double_as_longlong(*mark) == __double_as_longlong(MARKER)) {
        out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = *stash;
        return;
    }
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
    /* Both were read in the first two iterations, long ago. */
    *stash = acc;
    *mark = MARKER;
}
