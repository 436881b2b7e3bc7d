/* Lesson 8, reference solution: a rolling prefetch into shared memory, with
 * ordinary (synchronous) loads.
 *
 *   make check-solutions lesson8 ONLY=rolling_smem   (grades this reference solution)
 *
 * Before the loop each thread fills its PDIST slots with its first PDIST
 * elements. Iteration ctr then reads slot ctr % PDIST and refills it with the
 * element PDIST iterations ahead. A run-time slot index is fine here: shared
 * memory is addressed, unlike registers.
 *
 * This kernel is correct and uses no local memory, yet it is barely faster
 * than the plain loop, if at all: the refill is a load into a register
 * followed by a store of that register to shared memory, and the store
 * cannot be issued before the load has delivered. So the thread still waits
 * one full memory latency per iteration, and only the work placed between
 * the load and the store (none, here) hides any of it. The lesson explains
 * why, and lesson 9 removes the wait with asynchronous copies.
 *
 * Each thread touches only its own slots, so no __syncthreads() is needed.
 * PADDING (a knob, 0 by default) leaves unused doubles after each thread's
 * slots, as lesson 10 explains.
 */

/* Knob defaults, the ones grader/specs/lesson8.c gives (the grader sets
 * every knob with -D; these let nvcc -Xptxas -v compile the file alone). */
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif
#ifndef PDIST
#define PDIST 8
#endif
#ifndef PADDING
#define PADDING 0
#endif

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

#define SLOT(k) buf[(k) + (PDIST + PADDING) * threadIdx.x]

extern "C" __global__ void
rolling_smem(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[(PDIST + PADDING) * BLOCKDIMX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < PDIST; k++)
        SLOT(k) = chunk[threadIdx.x + k * BLOCKDIMX];
    const int last = imax - PDIST * BLOCKDIMX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX, ctr++) {
        const int k = ctr % PDIST;
        const double x = SLOT(k);
        if (i < last)
            SLOT(k) = chunk[i + PDIST * BLOCKDIMX];   /* waits for the load */
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
