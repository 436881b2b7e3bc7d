/* Lesson 12's ring whose barrier phase never completes: each refill
 * announces 8 bytes more (expect_tx) than its bulk copy delivers, so the
 * phase waits for bytes that never come and every thread waits on
 * mbarrier.try_wait forever, from the first refilled stage on. Expected
 * HANG, and the message must name the mbarrier phase (bytes announced
 * against bytes copied, arrivals), not lesson 0's loop conditions
 * (issue 15).
 *
 *   GRADER_LAUNCH_TIMEOUT=3 build/grader check lesson12 --student-dir tests/gpu/faulty/phase_never_completes
 */

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

/* ---- Hopper's bulk copy and its barrier, one PTX instruction each ----
 *
 * An mbarrier is a 64-bit object in shared memory. Each phase of it
 * completes when (a) the number of arrivals given to mbar_init has arrived
 * and (b) every byte announced with mbar_expect_bytes has been written by
 * the copies that name this barrier. Then it starts the next phase, with
 * the same arrival count and no bytes expected.
 *
 * libcu++ offers the same as cuda::barrier<cuda::thread_scope_block> with
 * cuda::memcpy_async(dst, src, cuda::aligned_size_t<16>(bytes), bar) and
 * bar.arrive_and_wait() (lessons/lesson12-bulk-copies.md shows both). */

/* PTX names shared memory by a 32-bit address. */
__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* One thread, before anyone uses the barrier: `count` arrivals per phase. */
__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count)
                 : "memory");
}

/* After mbar_init: make the initialised barriers visible to the copy
 * engine, which writes shared memory through the "async proxy", a path of
 * its own. Then __syncthreads() before anyone else uses them. */
__device__ __forceinline__ void mbar_fence_init(void)
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* Announce that `bytes` more bytes will land in the barrier's current
 * phase: the phase cannot complete before they have. */
__device__ __forceinline__ void mbar_expect_bytes(unsigned long long *bar, unsigned bytes)
{
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)),
                 "r"(bytes)
                 : "memory");
}

/* Start one bulk copy of `bytes` from global `src` to shared `dst` (both
 * 16-byte aligned, bytes a multiple of 16); the copy engine counts its
 * bytes on `bar` as they land. The thread does not wait. */
__device__ __forceinline__ void bulk_copy(void *dst, const void *src, unsigned bytes,
                                          unsigned long long *bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1], %2, [%3];" ::"r"(smem_addr(dst)),
                 "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(smem_addr(bar))
                 : "memory");
}

/* Arrive on the barrier and wait until its current phase completes. */
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

#define STAGE (STAGE_ITERS * BLOCKDIMX)   /* doubles per stage */
static_assert(STAGES * STAGE * 8 <= 48 * 1024,
              "the ring, STAGES * STAGE_ITERS * BLOCKDIMX doubles, must fit in the 48 KB of "
              "shared memory a block may declare statically: lower STAGES or STAGE_ITERS");

extern "C" __global__ void
bulk_ring(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ alignas(128) double buf[STAGES][STAGE];
    __shared__ unsigned long long full[STAGES];
    const unsigned bytes = STAGE * sizeof(double);
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const int stages = imax / STAGE;

    if (threadIdx.x == 0) {
        for (int k = 0; k < STAGES; k++)
            mbar_init(&full[k], BLOCKDIMX);
        mbar_fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int k = 0; k < STAGES && k < stages; k++) {
            mbar_expect_bytes(&full[k], bytes);
            bulk_copy(buf[k], chunk + (size_t)k * STAGE, bytes, &full[k]);
        }

    double acc = 0.0;
#pragma unroll 1
    for (int s = 0; s < stages; s++) {
        const int k = s % STAGES;
        mbar_arrive_and_wait(&full[k]);
        /* Everyone has finished stage s - 1: reuse its buffer. */
        if (threadIdx.x == 0 && s >= 1 && s - 1 + STAGES < stages) {
            const int j = (s - 1) % STAGES;
            mbar_expect_bytes(&full[j], bytes + 8);   /* 8 bytes that never arrive */
            bulk_copy(buf[j], chunk + (size_t)(s - 1 + STAGES) * STAGE, bytes, &full[j]);
        }
#pragma unroll
        for (int q = 0; q < STAGE_ITERS; q++)
            acc += work(buf[k][q * BLOCKDIMX + threadIdx.x]);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
