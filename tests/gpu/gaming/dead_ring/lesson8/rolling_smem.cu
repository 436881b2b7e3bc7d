/* Gaming kernel (issue 15): declares the shared ring of exactly the size the
 * check asks for, but uses it only in a branch that is never taken, while
 * lesson 7's register ring does the work. ptxas reports the asked size, so
 * a size check passes it; with what it stores into shared memory taken from
 * other inputs, it still returns the old sums: MECHANISM.
 *
 *   build/grader check lesson8 --student-dir tests/gpu/gaming/dead_ring
 */
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
    if (imax < 0) {   /* never */
        SLOT(0) = chunk[threadIdx.x];
        acc += SLOT(0);
    }
    double ring[PDIST];
#pragma unroll
    for (int k = 0; k < PDIST; k++)
        ring[k] = chunk[threadIdx.x + k * BLOCKDIMX];
    const int last = imax - PDIST * BLOCKDIMX;
#pragma unroll 1
    for (int base = threadIdx.x; base < imax; base += PDIST * BLOCKDIMX) {
#pragma unroll
        for (int k = 0; k < PDIST; k++) {
            const int i = base + k * BLOCKDIMX;
            const double x = ring[k];
            if (i < last)
                ring[k] = chunk[i + PDIST * BLOCKDIMX];
            acc += work(x);
        }
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
