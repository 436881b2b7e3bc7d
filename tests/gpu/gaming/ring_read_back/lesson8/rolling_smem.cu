/* Gaming kernel (issue 28): lesson 7's register ring does the prefetching;
 * each value is stored into its shared slot and read back (volatile, so the
 * compiler keeps both) in the same iteration, just before it is used. Every
 * result does come through shared memory, and the ring is the asked size,
 * so the knock-out passes it (issue 28: a kernel of this kind graded PASS
 * 4.40x on an H200, 2026-11-29); but no
 * value ever waits in shared memory: the data watch measures 0 iterations
 * between a slot's store and its read, where lesson 8's ring waits
 * PDIST - 1. MECHANISM.
 *
 *   build/grader check lesson8 --student-dir tests/gpu/gaming/ring_read_back
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

#define SLOT(k) v[(k) + (PDIST + PADDING) * threadIdx.x]

extern "C" __global__ void
rolling_smem(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[(PDIST + PADDING) * BLOCKDIMX];
    volatile double *v = buf;
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double ring[PDIST];
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < PDIST; k++)
        ring[k] = chunk[threadIdx.x + k * BLOCKDIMX];
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += PDIST * BLOCKDIMX) {
#pragma unroll
        for (int k = 0; k < PDIST; k++) {
            const int j = i + (k + PDIST) * BLOCKDIMX;
            SLOT(k) = ring[k];            /* into its slot ... */
            const double x = SLOT(k);     /* ... and straight back */
            if (j < imax)
                ring[k] = chunk[j];
            acc += exp(x);
        }
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
