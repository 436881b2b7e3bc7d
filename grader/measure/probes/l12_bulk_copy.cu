/* l12_bulk_copy.cu: lesson 9's ring with one bulk copy per stage
 * (cp.async.bulk into shared memory, completed on an mbarrier; compute
 * capability 9.0) against lesson 9's per-thread 8-byte cp.async ring.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -o build/probes/l12 grader/measure/probes/l12_bulk_copy.cu
 *   build/probes/l12 FORM > l12.tsv     FORM: ref | cccl_sync | cccl_fe | ptx_fe
 * (run by grader/measure/probe-new-lessons.sh, each form in its own process,
 * so that a form that hangs or faults costs only its own rows.)
 *
 * A stage is SI iterations of the block: SI*BDX consecutive doubles of its
 * chunk, one contiguous range, so one bulk copy fills it. P stages form the
 * ring. Thread t reads element q*BDX + t of the stage (index-major: no bank
 * conflicts).
 *   ref        the plain loop, lesson 9's ring (thread-major, async9) and
 *              lesson 10b's (index-major, async10b) at P = 2, 4, 8, 16
 *   cccl_sync  cuda::memcpy_async(dst, src, cuda::aligned_size_t<16>, bar)
 *              with one cuda::barrier per stage that every thread
 *              arrive_and_wait()s on: the simplest libcu++ form. Arriving on
 *              stage s's barrier means "done with stage s-1", so after the wait
 *              thread 0 refills the stage of s-1 (distance P-1 stages).
 *   cccl_fe    a "full" barrier per stage (thread 0 arrives with the expected
 *              bytes, cuda::device::barrier_arrive_tx + memcpy_async_tx;
 *              everyone wait_parity()s) and an "empty" barrier per stage
 *              (everyone arrives after reading; only thread 0 waits, before
 *              refilling): no block-wide wait per iteration.
 *   ptx_fe     the same protocol in PTX (mbarrier.*, cp.async.bulk), one
 *              empty-barrier arrival per warp, and a wait that traps instead
 *              of hanging if a phase never completes.
 * Every form runs at 1, 2 and 4 blocks of 128 threads per SM, P = 2, 4, 8, 16
 * with one iteration per stage (SI = 1), and P = 2, 4 with SI = 4. Columns:
 * see model_common.cuh; "pdist" is P, "dist" is SI. */
#include "model_common.cuh"
#include <cuda_pipeline.h>
#include <cuda/barrier>
#include <stdint.h>

#pragma nv_diag_suppress static_var_with_dynamic_init
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

/* ---- lesson 9 / 10b rings, for comparison ---- */
template <int P, bool INDEX_MAJOR>
__global__ void async_ring(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[P * BDX];
#define RSLOT(k) buf[INDEX_MAJOR ? (k) * BDX + threadIdx.x : (k) + P * threadIdx.x]
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < P; k++) {
        __pipeline_memcpy_async(&RSLOT(k), &chunk[threadIdx.x + k * BDX], sizeof(double));
        __pipeline_commit();
    }
    const int last = imax - P * BDX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BDX, ctr++) {
        const int k = ctr % P;
        __pipeline_wait_prior(P - 1);
        const double x = RSLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&RSLOT(k), &chunk[i + P * BDX], sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
#undef RSLOT
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

/* ---- cccl_sync ---- */
template <int P, int SI>
__global__ void bulk_cccl_sync(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    static_assert(P >= 2, "the stage refilled is the one read in the previous iteration");
    constexpr int STAGE = SI * BDX;
    constexpr unsigned BYTES = STAGE * sizeof(double);
    __shared__ alignas(128) double buf[P][STAGE];
    __shared__ block_barrier full[P];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const int stages = imax / STAGE;
    if (threadIdx.x == 0) {
        for (int k = 0; k < P; k++)
            init(&full[k], BDX);
        /* make the initialised barriers visible to the copy engine */
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int k = 0; k < P; k++)
            cuda::memcpy_async(buf[k], chunk + (size_t)k * STAGE, cuda::aligned_size_t<16>(BYTES),
                               full[k]);
    double acc = 0.0;
#pragma unroll 1
    for (int s = 0; s < stages; s++) {
        const int k = s % P;
        full[k].arrive_and_wait();
        if (threadIdx.x == 0 && s >= 1 && s - 1 + P < stages) {
            const int j = (s - 1) % P;
            cuda::memcpy_async(buf[j], chunk + (size_t)(s - 1 + P) * STAGE,
                               cuda::aligned_size_t<16>(BYTES), full[j]);
        }
#pragma unroll
        for (int q = 0; q < SI; q++)
            acc += work(buf[k][q * BDX + threadIdx.x]);
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

/* ---- cccl_fe ---- */
template <int P, int SI>
__global__ void bulk_cccl_fe(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    static_assert(P >= 2, "the stage refilled is the one read in the previous iteration");
    constexpr int STAGE = SI * BDX;
    constexpr unsigned BYTES = STAGE * sizeof(double);
    __shared__ alignas(128) double buf[P][STAGE];
    __shared__ block_barrier full[P], empty[P];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const int stages = imax / STAGE;
    if (threadIdx.x == 0) {
        for (int k = 0; k < P; k++) {
            init(&full[k], 1);
            init(&empty[k], BDX);
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int k = 0; k < P; k++) {
            (void)cuda::device::barrier_arrive_tx(full[k], 1, BYTES);
            cuda::device::memcpy_async_tx(buf[k], chunk + (size_t)k * STAGE,
                                          cuda::aligned_size_t<16>(BYTES), full[k]);
        }
    double acc = 0.0;
#pragma unroll 1
    for (int s = 0; s < stages; s++) {
        const int k = s % P;
        full[k].wait_parity((s / P) & 1);
        double x[SI];
#pragma unroll
        for (int q = 0; q < SI; q++)
            x[q] = buf[k][q * BDX + threadIdx.x];
        (void)empty[k].arrive();
        if (threadIdx.x == 0 && s >= 1 && s - 1 + P < stages) {
            const int j = (s - 1) % P;
            empty[j].wait_parity(((s - 1) / P) & 1);
            (void)cuda::device::barrier_arrive_tx(full[j], 1, BYTES);
            cuda::device::memcpy_async_tx(buf[j], chunk + (size_t)(s - 1 + P) * STAGE,
                                          cuda::aligned_size_t<16>(BYTES), full[j]);
        }
#pragma unroll
        for (int q = 0; q < SI; q++)
            acc += work(x[q]);
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

/* ---- ptx_fe ---- */
__device__ __forceinline__ uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(uint64_t *b, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(b)), "r"(count)
                 : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t *b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(b)) : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *b, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(b)),
                 "r"(bytes)
                 : "memory");
}

/* Waits for the phase of parity `parity` to complete; traps after about
 * 2^22 polls (each poll may itself suspend a while): a protocol bug becomes
 * a reported fault, not a hang. */
__device__ __forceinline__ void mbar_wait(uint64_t *b, unsigned parity)
{
    uint32_t done;
    unsigned polls = 0;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(smem_addr(b)), "r"(parity)
                     : "memory");
        if (++polls > (1u << 22))
            __trap();
    } while (!done);
}

__device__ __forceinline__ void bulk_copy(void *dst, const void *src, unsigned bytes, uint64_t *b)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1], %2, [%3];" ::"r"(smem_addr(dst)),
                 "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(smem_addr(b))
                 : "memory");
}

template <int P, int SI>
__global__ void bulk_ptx_fe(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    static_assert(P >= 2, "the stage refilled is the one read in the previous iteration");
    constexpr int STAGE = SI * BDX;
    constexpr unsigned BYTES = STAGE * sizeof(double);
    __shared__ alignas(128) double buf[P][STAGE];
    __shared__ alignas(8) uint64_t full[P], empty[P];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const int stages = imax / STAGE;
    if (threadIdx.x == 0) {
        for (int k = 0; k < P; k++) {
            mbar_init(&full[k], 1);
            mbar_init(&empty[k], BDX / 32);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int k = 0; k < P; k++) {
            mbar_arrive_expect_tx(&full[k], BYTES);
            bulk_copy(buf[k], chunk + (size_t)k * STAGE, BYTES, &full[k]);
        }
    double acc = 0.0;
#pragma unroll 1
    for (int s = 0; s < stages; s++) {
        const int k = s % P;
        mbar_wait(&full[k], (s / P) & 1);
        double x[SI];
#pragma unroll
        for (int q = 0; q < SI; q++)
            x[q] = buf[k][q * BDX + threadIdx.x];
        __syncwarp();
        if ((threadIdx.x & 31) == 0)
            mbar_arrive(&empty[k]);
        if (threadIdx.x == 0 && s >= 1 && s - 1 + P < stages) {
            const int j = (s - 1) % P;
            mbar_wait(&empty[j], ((s - 1) / P) & 1);
            mbar_arrive_expect_tx(&full[j], BYTES);
            bulk_copy(buf[j], chunk + (size_t)(s - 1 + P) * STAGE, BYTES, &full[j]);
        }
#pragma unroll
        for (int q = 0; q < SI; q++)
            acc += work(x[q]);
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

static const char *const P12 = "l12";

template <int P>
static void run_ref(model *m)
{
    model_run(m, P12, "async9_thread_major", P, 1, async_ring<P, false>);
    model_run(m, P12, "async10b_index_major", P, 1, async_ring<P, true>);
}

/* One form at every (P, SI) of the probe. */
#define RUN_FORM(m, name, kern)                                                  \
    do {                                                                         \
        model_run((m), P12, (name), 2, 1, kern<2, 1>);                           \
        model_run((m), P12, (name), 4, 1, kern<4, 1>);                           \
        model_run((m), P12, (name), 8, 1, kern<8, 1>);                           \
        model_run((m), P12, (name), 16, 1, kern<16, 1>);                         \
        model_run((m), P12, (name), 2, 4, kern<2, 4>);                           \
        model_run((m), P12, (name), 4, 4, kern<4, 4>);                           \
    } while (0)

int main(int argc, char **argv)
{
    const char *form = argc > 1 ? argv[1] : "ref";
    if (strcmp(form, "ref") && strcmp(form, "cccl_sync") && strcmp(form, "cccl_fe") &&
        strcmp(form, "ptx_fe")) {
        fprintf(stderr, "usage: %s ref|cccl_sync|cccl_fe|ptx_fe\n", argv[0]);
        return 2;
    }
    model m;
    char about[160];
    snprintf(about, sizeof about, "bulk async copies (cp.async.bulk + mbarrier), form %s", form);
    if (!model_init(&m, "l12_bulk_copy", about))
        return 1;
    if (m.dev.prop.major < 9) {
        printf("# skipped: compute capability %d.%d has no cp.async.bulk (needs 9.0)\n",
               m.dev.prop.major, m.dev.prop.minor);
        return 0;
    }
    const int bps_list[] = {1, 2, 4};
    for (int bps : bps_list) {
        if (!model_config(&m, bps))
            continue;
        if (!strcmp(form, "ref")) {
            run_ref<2>(&m);
            run_ref<4>(&m);
            run_ref<8>(&m);
            run_ref<16>(&m);
        } else if (!strcmp(form, "cccl_sync")) {
            RUN_FORM(&m, "bulk_cccl_sync", bulk_cccl_sync);
        } else if (!strcmp(form, "cccl_fe")) {
            RUN_FORM(&m, "bulk_cccl_fe", bulk_cccl_fe);
        } else {
            RUN_FORM(&m, "bulk_ptx_fe", bulk_ptx_fe);
        }
    }
    fprintf(stderr, "l12 %s: %d failed CUDA calls\n", form, probe_failures);
    return probe_failures ? 1 : 0;
}
