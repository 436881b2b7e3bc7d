/* Gaming kernel (issue 28): a ring of the asked size in which only one slot
 * in eight carries data: each thread keeps one slot, refilled with the next
 * element, at buf[PDIST * t] so that the slots in use are spread over the
 * whole buffer (the lowest and the highest address written span it, which
 * the knock-out's footprint rule measured: issue 28, a kernel of this kind
 * graded PASS 1.14x on an H200, 2026-11-29). The data watch counts the bytes that ever carried live data:
 * an eighth of the buffer; and a one-slot ring waits 0 iterations. MECHANISM.
 *
 *   build/grader check lesson8 --student-dir tests/gpu/gaming/sparse_ring
 */
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif
#ifndef PDIST
#define PDIST 8
#endif
#ifndef PADDING
#define PADDING 0
#endif

extern "C" __global__ void
rolling_smem(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[(PDIST + PADDING) * BLOCKDIMX];
    volatile double *slot = &buf[(PDIST + PADDING) * threadIdx.x];   /* kept in memory */
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
    *slot = chunk[threadIdx.x];
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX) {
        const double x = *slot;
        if (i + BLOCKDIMX < imax)
            *slot = chunk[i + BLOCKDIMX];
        acc += exp(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
