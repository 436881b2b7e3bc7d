/* Gaming kernel (issue 15): the shared ring of exactly the asked size is
 * used, for each thread's first element only (through volatile accesses, so
 * the compiler keeps them); lesson 7's register ring loads the rest. Fed
 * other inputs through what it stores into shared memory, every sum changes
 * by one term only, so none is the other inputs' sum: MECHANISM.
 *
 *   build/grader check lesson8 --student-dir tests/gpu/gaming/token_ring
 */
#define SLOT(k) buf[(k) + (PDIST + PADDING) * threadIdx.x]

extern "C" __global__ void
rolling_smem(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[(PDIST + PADDING) * BLOCKDIMX];
    volatile double *vbuf = buf;
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double ring[PDIST];
    vbuf[PDIST * threadIdx.x + PADDING * threadIdx.x] = chunk[threadIdx.x];
#pragma unroll
    for (int k = 1; k < PDIST; k++)
        ring[k] = chunk[threadIdx.x + k * BLOCKDIMX];
    ring[0] = vbuf[PDIST * threadIdx.x + PADDING * threadIdx.x];
    double acc = 0.0;
    const int last = imax - PDIST * BLOCKDIMX;
#pragma unroll 1
    for (int base = threadIdx.x; base < imax; base += PDIST * BLOCKDIMX) {
#pragma unroll
        for (int k = 0; k < PDIST; k++) {
            const int i = base + k * BLOCKDIMX;
            const double x = ring[k];
            if (i < last)
                ring[k] = chunk[i + PDIST * BLOCKDIMX];
            acc += exp(x);
        }
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
