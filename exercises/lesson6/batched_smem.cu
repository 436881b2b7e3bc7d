/* Lesson 6 exercise: prefetch in batches of PDIST into shared memory.
 *
 * This is the plain model loop. Make each thread fetch PDIST elements at a
 * time into its own part of a shared-memory array, so the batch length is the
 * knob PDIST (make check lesson6 PDIST=4) instead of lines of code.
 *
 * TODO (lessons/lesson6-batched-shared.md, section "A batch in shared memory"):
 *   1. Declare __shared__ double buf[(PDIST + PADDING) * BLOCKDIMX] and the
 *      SLOT(k) macro below: slot k of this thread. PADDING is a knob, 0
 *      unless you set it (make check lesson6 PADDING=1; lesson 10 explains
 *      what the unused slots do to the shared-memory banks).
 *   2. Count this thread's iterations in ctr (0, 1, 2, ...).
 *   3. When ctr % PDIST == 0, store chunk[i + j*BLOCKDIMX] into SLOT(j) for
 *      j = 0 .. PDIST-1 (a loop with #pragma unroll, so all the loads are
 *      issued before the first store).
 *   4. Take x from SLOT(ctr % PDIST).
 * Every thread's iteration count is a multiple of PDIST, so the batch never
 * reaches past the thread's last element. Each thread reads only its own
 * slots: no __syncthreads() is needed.
 *
 * Check with: make check lesson6
 *
 * Graded on sizes 1, 2000000, 6000000; timed at 33554432 (doubles asked for, in whole rounds per block).
 */

/* Knob defaults, the ones grader/specs/lesson6.c gives (the grader sets
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

/* #define SLOT(k) buf[(k) + (PDIST + PADDING) * threadIdx.x] */

extern "C" __global__ void
batched_smem(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX) {
        const double x = chunk[i];   /* TODO: take x from this thread's batch */
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
