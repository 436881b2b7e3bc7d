/* Lesson 5 exercise: prefetch in batches of four into registers.
 *
 * This is the plain model loop: every iteration loads one element and waits
 * for it (lessons/lesson5-batched-registers.md, "Why the plain loop waits").
 * Make each thread fetch its elements four at a time.
 *
 * TODO (lesson 5, section "Batches of four in named registers"):
 *   1. Before the loop, declare four doubles and an iteration counter ctr
 *      (0, 1, 2, ... for this thread's iterations).
 *   2. When ctr % 4 == 0, load chunk[i], chunk[i + BLOCKDIMX],
 *      chunk[i + 2*BLOCKDIMX] and chunk[i + 3*BLOCKDIMX] into the four doubles,
 *      all four loads before the first use.
 *   3. Take x from the double numbered ctr % 4, with a switch. Do not use an
 *      array indexed by ctr % 4: the grader rejects the local memory that it
 *      creates (lesson 7 explains why).
 * Every thread's iteration count is a multiple of 4, so step 2 never loads
 * past the thread's last element.
 *
 * Check with: make check lesson5
 *
 * Graded on sizes 1, 2000000, 6000000; timed at 33554432 (doubles asked for, in whole rounds per block).
 */

/* Knob defaults, the ones grader/specs/lesson5.c gives (the grader sets
 * every knob with -D; these let nvcc -Xptxas -v compile the file alone). */
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif

/* exp() rather than sin(): sin(double) keeps a local array for rare huge
 * arguments, which would give even the plain loop a stack frame. */
__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

extern "C" __global__ void
batched_regs(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX) {
        const double x = chunk[i];   /* TODO: take x from the batch instead */
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
