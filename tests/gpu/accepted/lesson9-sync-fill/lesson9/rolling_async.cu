/* Accepted answer (issue 28): lesson 8's synchronous fill kept before the
 * loop (each thread loads its first PDIST elements and stores them in its
 * slots), then lesson 9's ring, every refill a cp.async. At the timed size
 * the fill is PDIST of each thread's ~2000 elements, under 1% of the bytes;
 * the knock-out asked 90% of the outputs to be entirely the copies' and got
 * none (MECHANISM). The data watch counts bytes: 93% of them arrive by
 * cp.async at the simulated 2M size, 99.6% at the timed size, and the ring's
 * values wait PDIST - 1 iterations as they should. PASS.
 *
 *   build/grader check lesson9 --student-dir tests/gpu/accepted/lesson9-sync-fill
 */
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif
#ifndef PDIST
#define PDIST 8
#endif

#include <cuda_pipeline.h>

#define SLOT(k) buf[(k) + PDIST * threadIdx.x]

extern "C" __global__ void
rolling_async(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[PDIST * BLOCKDIMX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < PDIST; k++)       /* lesson 8's fill: loads, then stores */
        SLOT(k) = chunk[threadIdx.x + k * BLOCKDIMX];
    const int last = imax - PDIST * BLOCKDIMX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX, ctr++) {
        const int k = ctr % PDIST;
        __pipeline_wait_prior(PDIST - 1);   /* the refill of slot k, PDIST groups ago */
        const double x = SLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&SLOT(k), &chunk[i + PDIST * BLOCKDIMX], sizeof(double));
        __pipeline_commit();
        acc += exp(x);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
