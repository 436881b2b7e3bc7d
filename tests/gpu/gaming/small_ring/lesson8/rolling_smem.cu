/* Gaming kernel (issue 15): every element does pass through shared memory,
 * but through one slot per thread (volatile, so the compiler keeps the
 * store and the load), with no prefetch; a second array, used only in a
 * branch never taken, makes the shared memory add up to exactly the asked
 * (PDIST + PADDING) * BLOCKDIMX doubles. The results come through shared
 * memory, but the data fills an eighth of the asked bytes: MECHANISM.
 *
 *   build/grader check lesson8 --student-dir tests/gpu/gaming/small_ring
 */
extern "C" __global__ void
rolling_smem(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double slot[BLOCKDIMX];
    __shared__ double pad[(PDIST + PADDING - 1) * BLOCKDIMX];
    volatile double *v = slot;
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
    if (imax < 0) {   /* never */
        pad[threadIdx.x] = chunk[threadIdx.x];
        acc += pad[threadIdx.x ^ 1];
    }
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX) {
        v[threadIdx.x] = chunk[i];
        acc += exp(v[threadIdx.x]);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
