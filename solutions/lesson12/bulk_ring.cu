/* Lesson 12, reference solution: lesson 9's ring with one bulk copy per
 * stage (compute capability 9.0: cp.async.bulk, completed on an mbarrier).
 *
 *   make check lesson12
 *   make check lesson12 STAGES=2 STAGE_ITERS=8
 *
 * A stage is STAGE_ITERS iterations of the whole block: STAGE_ITERS *
 * BLOCKDIMX consecutive doubles of the block's chunk, one contiguous range,
 * so ONE copy by ONE thread fills it, where lesson 9 needed an 8-byte copy
 * per thread and iteration. The ring holds STAGES stages, each with its own
 * barrier, initialised for BLOCKDIMX arrivals.
 *
 * Stage s: every thread arrives on barrier s % STAGES and waits. The phase
 * completes when all BLOCKDIMX threads have arrived and the stage's bytes
 * have landed. Arriving there also says "I am done with stage s - 1", whose
 * reads came earlier in program order; so once the wait returns, thread 0
 * refills stage s - 1's buffer with stage s - 1 + STAGES. Then every thread
 * reads its STAGE_ITERS elements of stage s, at q * BLOCKDIMX + threadIdx.x:
 * a warp reads 32 consecutive doubles, no bank conflict.
 *
 * The data stays in the order of the model loop: thread t still sums its
 * elements t, t + BLOCKDIMX, ... in increasing order. The block's chunk
 * begins on a multiple of 8 * BLOCKDIMX doubles (the grader sizes it so),
 * so every stage is 16-byte aligned, and STAGE_ITERS * BLOCKDIMX * 8 bytes
 * is a multiple of 16. A short chunk may have fewer stages than the ring:
 * the fill stops at the last stage.
 */

/* Knob defaults, the ones grader/specs/lesson12.c gives (the grader sets
 * every knob with -D; these let nvcc -Xptxas -v compile the file alone). */
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif
#ifndef STAGES
#define STAGES 4
#endif
#ifndef STAGE_ITERS
#define STAGE_ITERS 4
#endif

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
            mbar_expect_bytes(&full[j], bytes);
            bulk_copy(buf[j], chunk + (size_t)(s - 1 + STAGES) * STAGE, bytes, &full[j]);
        }
#pragma unroll
        for (int q = 0; q < STAGE_ITERS; q++)
            acc += work(buf[k][q * BLOCKDIMX + threadIdx.x]);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
