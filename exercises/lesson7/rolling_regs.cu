/* Lesson 7 exercise: a rolling prefetch into registers that really stays in
 * registers.
 *
 * This is the direct rolling prefetch (the same as the demo
 * grader/demos/lesson7/rolling_direct.cu). It is correct, but ring[ctr % PDIST]
 * is indexed at run time, so the compiler puts ring[] in local memory and the
 * kernel is slower than the plain loop. `make check lesson7` shows the local
 * memory in the table and fails the mechanism check.
 *
 * TODO (lessons/lesson7-rolling-registers.md, section "Unroll by PDIST"):
 *   1. Walk this thread's elements in groups of PDIST: an outer loop whose
 *      index `base` starts at threadIdx.x and steps by PDIST*BLOCKDIMX.
 *   2. Inside it, a loop over k = 0 .. PDIST-1 with #pragma unroll: element
 *      i = base + k*BLOCKDIMX uses ring[k] and refills ring[k] with
 *      chunk[i + PDIST*BLOCKDIMX] while i < last.
 *   3. Unroll the filling loop before the main loop too.
 * Once every index into ring[] is a compile-time constant, the stack frame
 * disappears (the table's "local" column shows 0 B). Every thread's iteration
 * count is a multiple of PDIST, so the groups need no leftover loop.
 *
 * Check with: make check lesson7
 *
 * Graded on sizes 1, 2000000, 6000000; timed at 33554432 (doubles asked for, in whole rounds per block).
 */

/* Knob defaults, the ones grader/specs/lesson7.c gives (the grader sets
 * every knob with -D; these let nvcc -Xptxas -v compile the file alone). */
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif
#ifndef PDIST
#define PDIST 8
#endif

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

extern "C" __global__ void
rolling_regs(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
    double ring[PDIST];
    for (int k = 0; k < PDIST; k++)
        ring[k] = chunk[threadIdx.x + k * BLOCKDIMX];
    /* Elements at or beyond `last` have no element PDIST iterations ahead. */
    const int last = imax - PDIST * BLOCKDIMX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX, ctr++) {
        const int k = ctr % PDIST;   /* TODO: make k a compile-time constant */
        const double x = ring[k];
        if (i < last)
            ring[k] = chunk[i + PDIST * BLOCKDIMX];
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
