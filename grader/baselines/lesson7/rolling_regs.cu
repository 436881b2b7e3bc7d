/* Baseline of lesson 7 (rolling_regs): the plain model loop, with no prefetching.
 * The grader times your kernel against this one. Do not edit.
 *
 *   make check lesson7 ONLY=rolling_regs   (times your kernel against this one)
 *
 * Block b owns imax consecutive doubles of arr. Thread t visits elements
 * t, t + BLOCKDIMX, t + 2*BLOCKDIMX, ... of that chunk and writes the sum of
 * work(x) over them, in that order, to out[b*BLOCKDIMX + t].
 * Launched with one block of BLOCKDIMX threads per SM by default.
 *
 * Each iteration issues one load and needs its value at once, so every
 * element waits a full trip to device memory while the thread has nothing
 * else to do. '#pragma unroll 1' keeps the compiler from batching loads on
 * its own: this is the loop as written, one element per trip.
 */

/* Knob defaults, the ones grader/specs/lesson7.c gives (the grader sets
 * every knob with -D; these let nvcc -Xptxas -v compile the file alone). */
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif

/* The work on one element. exp() rather than sin(): sin(double) keeps a
 * local array for the rare huge arguments, which would give even this loop a
 * stack frame and blur the local-memory checks of lesson 7. */
__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

extern "C" __global__ void
rolling_regs(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX) {
        const double x = chunk[i];
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
