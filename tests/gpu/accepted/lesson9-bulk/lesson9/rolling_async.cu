/* An accepted answer to lesson 9 whose ring is refilled by bulk copies
 * (cp.async.bulk, compute capability 9.0, the TMA) instead of one 8-byte
 * cp.async per thread: every asynchronous copy is an asynchronous copy,
 * and the data still reaches shared memory without a register (issue 25,
 * item 3: a white-box audit on an H200 timed this form at 4.78x the plain
 * loop, above the reference, and the grader called it MECHANISM because
 * only cp.async.ca/.cg counted).
 *
 *   build/grader check lesson9 --student-dir tests/gpu/accepted/lesson9-bulk
 *
 * Expected: PASS. The ring is lesson 12's: STAGES stages of STAGE_ITERS
 * block-wide iterations, one bulk copy per stage started by thread 0 and
 * counted on the stage's mbarrier. imax is a multiple of BLOCKDIMX *
 * lcm(4, PDIST) (prefetch_model.h), so STAGE_ITERS = 4 divides every
 * thread's iterations and every stage is 16-byte aligned. PDIST is not
 * used: the ring's depth is STAGES * STAGE_ITERS iterations.
 */
#define STAGES 4
#define STAGE_ITERS 4
#define STAGE (STAGE_ITERS * BLOCKDIMX)   /* doubles per stage */

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count)
                 : "memory");
}

/* Announce the stage's bytes on its barrier, then start the copy. */
__device__ __forceinline__ void fill_stage(void *dst, const void *src, unsigned bytes,
                                           unsigned long long *bar)
{
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)),
                 "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1], %2, [%3];" ::"r"(smem_addr(dst)),
                 "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(smem_addr(bar))
                 : "memory");
}

__device__ __forceinline__ void mbar_arrive_and_wait(unsigned long long *bar)
{
    unsigned long long phase;
    unsigned done;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];"
                 : "=l"(phase)
                 : "r"(smem_addr(bar))
                 : "memory");
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(smem_addr(bar)), "l"(phase)
                     : "memory");
    } while (!done);
}

extern "C" __global__ void
rolling_async(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ alignas(128) double buf[STAGES][STAGE];
    __shared__ unsigned long long full[STAGES];
    const unsigned bytes = STAGE * sizeof(double);
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const int stages = imax / STAGE;

    if (threadIdx.x == 0) {
        for (int k = 0; k < STAGES; k++)
            mbar_init(&full[k], BLOCKDIMX);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int k = 0; k < STAGES && k < stages; k++)
            fill_stage(buf[k], chunk + (size_t)k * STAGE, bytes, &full[k]);

    double acc = 0.0;
#pragma unroll 1
    for (int s = 0; s < stages; s++) {
        const int k = s % STAGES;
        mbar_arrive_and_wait(&full[k]);
        /* Everyone has finished stage s - 1: refill its buffer. */
        if (threadIdx.x == 0 && s >= 1 && s - 1 + STAGES < stages) {
            const int j = (s - 1) % STAGES;
            fill_stage(buf[j], chunk + (size_t)(s - 1 + STAGES) * STAGE, bytes, &full[j]);
        }
#pragma unroll
        for (int q = 0; q < STAGE_ITERS; q++)
            acc += work(buf[k][q * BLOCKDIMX + threadIdx.x]);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
