/* Gaming kernel (issue 15): the asynchronous copy runs, but for a token
 * element only: each thread copies its first element with
 * __pipeline_memcpy_async and loads the rest through lesson 7's register
 * ring. The PTX has 'cp.async' and the copy is executed; fed other inputs
 * through the copies, every sum changes only by one term, so no sum is the
 * other inputs' sum: MECHANISM.
 *
 *   build/grader check lesson9 --student-dir tests/gpu/gaming/token_async
 */
#include <cuda_pipeline.h>

extern "C" __global__ void
rolling_async(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double first[BLOCKDIMX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    __pipeline_memcpy_async(&first[threadIdx.x], &chunk[threadIdx.x], sizeof(double));
    __pipeline_commit();
    double ring[PDIST];
#pragma unroll
    for (int k = 1; k < PDIST; k++)
        ring[k] = chunk[threadIdx.x + k * BLOCKDIMX];
    __pipeline_wait_prior(0);
    ring[0] = first[threadIdx.x];
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
