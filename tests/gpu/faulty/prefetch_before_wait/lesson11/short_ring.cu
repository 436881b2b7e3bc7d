/* Lesson 11b with the L2 prefetch at the top of the loop, before
 * __pipeline_wait_prior (cp.async.wait_group in the PTX), where a learner
 * put it on 2026-11-29: "add, in every iteration, a prefetch of
 * chunk[i + L2DIST * BLOCKDIMX]" read as "first thing in the iteration".
 * The same lines are prefetched as far ahead as in the reference, and the
 * answer is right, but on an H200 it ran 1.34x-1.39x against a 1.36x-1.39x
 * bar (SLOW, 6 of 6 over two batches), the reference's placement (after the
 * copy and its commit) 1.60x-1.65x: the SASS shows ptxas moving the ring's
 * refill and commit below exp()'s work, so each refill starts one
 * iteration late (grader/calibration/h200-2026-11-29). Expected SLOW; the
 * report's diagnosis names the placement (DIAG_L2_PREFETCH_BEFORE_WAIT).
 *
 *   build/grader check lesson11 --only short_ring --student-dir tests/gpu/faulty/prefetch_before_wait
 */
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
        if (issues && i < last_l2)
            prefetch_l2(&chunk[i + L2DIST * BLOCKDIMX]);   /* before the wait */
        __pipeline_wait_prior(PDIST - 1);
        const double x = SLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX], sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
