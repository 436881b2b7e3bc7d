/* Gaming kernel (issue 25 item 2): tells the knock-out from a timed launch
 * by the problem's size. The knock-out used to run at the largest
 * correctness size (6M elements), the timing at 32M: the reference's
 * cp.async ring up to the largest check size, lesson 7's register ring
 * above it. (A lesson 12 kernel with the same switch, bulk ring below and
 * register ring with an L2 prefetch above, passed at 2.36x on an H200,
 * 2026-11-29.) Now the knock-out runs at the timing size: MECHANISM.
 *
 *   build/grader check lesson9 --student-dir tests/gpu/gaming/tell_size
 */
#include <cuda_pipeline.h>

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

#define SLOT(k) buf[(k) + PDIST * threadIdx.x]

/* The reference's ring: every slot filled by an asynchronous copy. */
__device__ double async_ring(const double *chunk, int imax)
{
    __shared__ double buf[PDIST * BLOCKDIMX];
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < PDIST; k++) {
        __pipeline_memcpy_async(&SLOT(k), &chunk[threadIdx.x + k * BLOCKDIMX],
                                sizeof(double));
        __pipeline_commit();
    }
    const int last = imax - PDIST * BLOCKDIMX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX, ctr++) {
        const int k = ctr % PDIST;
        __pipeline_wait_prior(PDIST - 1);
        const double x = SLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX],
                                    sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    return acc;
}

/* Lesson 7's register ring: no shared memory, no copy. */
__device__ double register_ring(const double *chunk, int imax)
{
    double acc = 0.0, ring[PDIST];
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
    return acc;
}

/* Up to the largest check size (6000000 elements): the copies. */
__device__ bool knock_out(const double *arr, int imax)
{
    (void)arr;
    return (long long)imax * gridDim.x <= 6000000;
}

extern "C" __global__ void
rolling_async(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = knock_out(arr, imax) ? async_ring(chunk, imax) : register_ring(chunk, imax);
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
