/* Lesson 7 answered with a shift register: ring[0] is used, every slot
 * takes its neighbour's value (ring[k] = ring[k + 1]), and the new element
 * is loaded into ring[PDIST - 1]. Every index is a compile-time constant, so
 * the local column shows 0 B and the mechanism checks hold, but the copies
 * are instructions that read registers loads are still filling, and each
 * waits for its load: 1.14x on an H100 (issue 15) against the solution's
 * 4.43x. The grader must say so (the PTX's mov between load-filled
 * registers in the loop), not only talk of local memory.
 *
 *   build/grader check lesson7 --only rolling_regs --student-dir tests/gpu/faulty/shift_register
 */

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
#pragma unroll
    for (int k = 0; k < PDIST; k++)
        ring[k] = chunk[threadIdx.x + k * BLOCKDIMX];
    const int last = imax - PDIST * BLOCKDIMX;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX) {
        const double x = ring[0];
#pragma unroll
        for (int k = 0; k < PDIST - 1; k++)
            ring[k] = ring[k + 1];
        if (i < last)
            ring[PDIST - 1] = chunk[i + PDIST * BLOCKDIMX];
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
