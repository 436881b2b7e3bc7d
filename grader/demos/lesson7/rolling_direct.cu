/* Lesson 7 demo: a rolling prefetch into a register array, written directly.
 * The grader shows this kernel next to your exercise; it is expected to fail.
 *
 *   make check lesson7 ONLY=rolling_direct   (shows this demo beside the fix)
 *
 * Before the loop each thread loads its first PDIST elements into ring[].
 * Iteration ctr then uses ring[ctr % PDIST] and refills that slot with the
 * element it will need PDIST iterations later. On paper this keeps PDIST
 * loads in flight at all times.
 *
 * In practice ctr % PDIST is known only at run time, and registers cannot be
 * indexed at run time (an instruction names its registers when it is
 * compiled). So the compiler places ring[] in local memory: per-thread device
 * memory behind the L1 cache. Every refill now becomes a store to local
 * memory, which cannot be issued until the global load has delivered its
 * value, so the thread waits a full memory latency in every iteration, as in
 * the plain loop, and pays for the local traffic on top. ptxas reports the
 * array as a stack frame, and the PTX shows ld.local / st.local.
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
rolling_direct(const double *__restrict__ arr, double *__restrict__ out, int imax)
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
        const int k = ctr % PDIST;
        const double x = ring[k];
        if (i < last)
            ring[k] = chunk[i + PDIST * BLOCKDIMX];
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
