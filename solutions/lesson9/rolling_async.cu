/* Lesson 9, reference solution: a rolling prefetch into shared memory with
 * asynchronous copies (compute capability 8.0 and newer).
 *
 *   make check-solutions lesson9 ONLY=rolling_async   (grades this reference solution)
 *
 * The ring is the one of lesson 8, but every slot is filled by
 * __pipeline_memcpy_async: a copy from global to shared memory that the
 * thread only starts (cp.async in PTX, LDGSTS in the machine code). The data
 * travels straight into shared memory without passing through a register, so
 * the thread never waits for it until it asks to, with
 * __pipeline_wait_prior(PDIST - 1): "all but my PDIST-1 most recent batches
 * of copies have landed". That is exactly the slot this iteration reads; the
 * PDIST-1 newer copies keep flying.
 *
 * One commit per iteration, always: the wait counts committed batches, not
 * copies. In the last PDIST iterations there is nothing left to copy, but the
 * commit still closes an (empty) batch, so the batch that filled this
 * iteration's slot is still the one PDIST-1 batches back. Skipping those
 * commits would let the last iterations read slots whose copies may not have
 * landed yet.
 *
 * Each thread copies into and reads from only its own slots, so no
 * __syncthreads() is needed.
 */

/* Knob defaults, the ones grader/specs/lesson9.c gives (the grader sets
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
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX],
                                    sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
