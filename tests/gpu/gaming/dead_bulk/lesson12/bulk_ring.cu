/* Gaming kernel (issue 15): the plain model loop does the work; one bulk
 * copy (cp.async.bulk) sits in a branch never taken (imax is never
 * negative). The PTX has 'cp.async.bulk.shared', so a text search passes
 * it; fed other inputs through its bulk copies, it still returns the old
 * sums: MECHANISM.
 *
 *   build/grader check lesson12 --student-dir tests/gpu/gaming/dead_bulk
 */
extern "C" __global__ void
bulk_ring(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ alignas(128) double buf[BLOCKDIMX];
    __shared__ alignas(8) unsigned long long bar;
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
    if (imax < 0) {   /* never */
        unsigned dst = (unsigned)__cvta_generic_to_shared(buf);
        unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[%0], [%1], %2, [%3];" ::"r"(dst), "l"(__cvta_generic_to_global(chunk)),
                     "r"(16), "r"(b)
                     : "memory");
        acc += buf[threadIdx.x];
    }
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX)
        acc += exp(chunk[i]);
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
