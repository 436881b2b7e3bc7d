/* l11_l2_prefetch.cu: does prefetching into L2 pay on the model loop, alone
 * or under a short shared-memory ring (the design question of lesson 11)?
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -o build/probes/l11 grader/measure/probes/l11_l2_prefetch.cu
 *   build/probes/l11 > l11.tsv
 * (run by grader/measure/probe-new-lessons.sh; compute capability 9.0 for
 * cp.async.bulk.prefetch; the rest needs 8.0.)
 *
 * Variants, each at 1, 2 and 4 blocks of 128 threads per SM:
 *   l2pf_all D    the plain loop, and every thread issues prefetch.global.L2
 *                 for its element D iterations ahead (no register, no smem)
 *   l2pf_line D   the same, one prefetch per 128-byte line (lanes 0 and 16)
 *   l2pf_bulk D   thread 0 issues cp.async.bulk.prefetch.L2 for the block's
 *                 whole slab (BDX doubles) D iterations ahead
 *   ld_L2_128B, ld_L2_256B   the plain loop whose load carries the L2
 *                 prefetch-size qualifier (no separate prefetch)
 *   ring P        lesson 10b's async ring (index-major) at PDIST P, alone:
 *                 what shared memory buys when it is there
 *   ring+l2line P D   that ring at a small P plus a line prefetch D ahead:
 *                 the two-level form when smem only has room for P
 *   ring+l2all, ring+l2bulk P D   the same with the other prefetch forms
 *   regs P, regs+l2line P D   lesson 7's unrolled register ring at P=2
 * and, at 1 block per SM with 192 KiB of dynamic shared memory reserved (a
 * kernel whose shared memory is taken by something else: L1 shrinks to what
 * is left), the plain loop, l2pf_line and the P=2 ring with and without it
 * (variant names end in +rsv192K).
 * Columns: see model_common.cuh. "pdist" is the ring's P, "dist" the L2
 * prefetch distance D in iterations (one iteration = BDX doubles per block). */
#include "model_common.cuh"
#include <cuda_pipeline.h>

enum { PF_ALL, PF_LINE, PF_BULK };

__device__ __forceinline__ void l2_prefetch(const void *p)
{
    asm volatile("prefetch.global.L2 [%0];" ::"l"(__cvta_generic_to_global(p)));
}

__device__ __forceinline__ void l2_bulk_prefetch(const void *p, unsigned bytes)
{
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(__cvta_generic_to_global(p)),
                 "r"(bytes)
                 : "memory");
}

/* Prefetch this thread's element `ahead` elements further on, in form MODE.
 * For PF_BULK thread 0's element starts the block's slab of BDX doubles. */
template <int MODE>
__device__ __forceinline__ void prefetch_ahead(const double *chunk, int i, int ahead)
{
    if (MODE == PF_ALL)
        l2_prefetch(chunk + i + ahead);
    else if (MODE == PF_LINE) {
        if ((threadIdx.x & 15) == 0)
            l2_prefetch(chunk + i + ahead);
    } else if (threadIdx.x == 0)
        l2_bulk_prefetch(chunk + i + ahead, BDX * sizeof(double));
}

template <int D, int MODE>
__global__ void l2pf(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const int last = imax - D * BDX;
    double acc = 0.0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BDX) {
        if (i < last)
            prefetch_ahead<MODE>(chunk, i, D * BDX);
        acc += work(chunk[i]);
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

template <int BYTES>
__device__ __forceinline__ double ld_hint(const double *p)
{
    double v;
    if (BYTES == 128)
        asm("ld.global.L2::128B.f64 %0, [%1];" : "=d"(v) : "l"(__cvta_generic_to_global(p)));
    else
        asm("ld.global.L2::256B.f64 %0, [%1];" : "=d"(v) : "l"(__cvta_generic_to_global(p)));
    return v;
}

template <int BYTES>
__global__ void ld_l2(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BDX)
        acc += work(ld_hint<BYTES>(chunk + i));
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

/* Lesson 10b's ring (index-major, async copies) at distance P, plus an L2
 * prefetch D iterations ahead when D > 0. */
template <int P, int D, int MODE>
__global__ void ring_l2(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[P * BDX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < P; k++) {
        __pipeline_memcpy_async(&buf[k * BDX + threadIdx.x], &chunk[threadIdx.x + k * BDX],
                                sizeof(double));
        __pipeline_commit();
    }
    const int lastP = imax - P * BDX, lastD = imax - D * BDX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BDX, ctr++) {
        const int k = ctr % P;
        __pipeline_wait_prior(P - 1);
        const double x = buf[k * BDX + threadIdx.x];
        if (i < lastP)
            __pipeline_memcpy_async(&buf[k * BDX + threadIdx.x], &chunk[i + P * BDX],
                                    sizeof(double));
        __pipeline_commit();
        if (D > 0 && i < lastD)
            prefetch_ahead<MODE>(chunk, i, D * BDX);
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

/* Lesson 7's unrolled register ring at distance P, plus a line prefetch D
 * ahead when D > 0. */
template <int P, int D>
__global__ void regs_l2(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
    double ring[P];
#pragma unroll
    for (int k = 0; k < P; k++)
        ring[k] = chunk[threadIdx.x + k * BDX];
    const int lastP = imax - P * BDX, lastD = imax - D * BDX;
#pragma unroll 1
    for (int base = threadIdx.x; base < imax; base += P * BDX) {
#pragma unroll
        for (int k = 0; k < P; k++) {
            const int i = base + k * BDX;
            const double x = ring[k];
            if (i < lastP)
                ring[k] = chunk[i + P * BDX];
            if (D > 0 && i < lastD)
                prefetch_ahead<PF_LINE>(chunk, i, D * BDX);
            acc += work(x);
        }
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

static const char *const P11 = "l11";

template <int D>
static void run_l2pf(model *m)
{
    model_run(m, P11, "l2pf_all", 0, D, l2pf<D, PF_ALL>);
    model_run(m, P11, "l2pf_line", 0, D, l2pf<D, PF_LINE>);
    model_run(m, P11, "l2pf_bulk", 0, D, l2pf<D, PF_BULK>);
}

template <int P>
static void run_ring_l2(model *m)
{
    model_run(m, P11, "ring+l2line", P, 8, ring_l2<P, 8, PF_LINE>);
    model_run(m, P11, "ring+l2line", P, 16, ring_l2<P, 16, PF_LINE>);
    model_run(m, P11, "ring+l2line", P, 32, ring_l2<P, 32, PF_LINE>);
    model_run(m, P11, "ring+l2line", P, 64, ring_l2<P, 64, PF_LINE>);
}

/* A row with `rsv` bytes of dynamic shared memory the kernel never touches. */
static void run_reserved(model *m, const char *variant, int pdist, int dist, model_kernel k,
                         int rsv)
{
    if (!TRY(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  rsv))) {
        printf("%s\t%s\t%d\t%d\t%d\tFAIL\t-\t-\tNOSMEM\t-\t-\t-\n", P11, variant, m->bps, pdist,
               dist);
        return;
    }
    const int grid = m->grid, imax = m->imax;
    const double *arr = m->arr;
    double *out = m->out;
    model_row(m, P11, variant, pdist, dist, (const void *)k,
              [=] { k<<<grid, BDX, rsv>>>(arr, out, imax); });
}

int main()
{
    model m;
    if (!model_init(&m, "l11_l2_prefetch",
                    "L2 prefetch (prefetch.global.L2, ld L2::nB, cp.async.bulk.prefetch.L2) on "
                    "the model loop, alone and under a short async ring"))
        return 1;
    const int bps_list[] = {1, 2, 4};
    for (int bps : bps_list) {
        if (!model_config(&m, bps))
            continue;
        run_l2pf<2>(&m);
        run_l2pf<4>(&m);
        run_l2pf<8>(&m);
        run_l2pf<16>(&m);
        run_l2pf<32>(&m);
        run_l2pf<64>(&m);
        model_run(&m, P11, "ld_L2_128B", 0, 0, ld_l2<128>);
        model_run(&m, P11, "ld_L2_256B", 0, 0, ld_l2<256>);
        model_run(&m, P11, "ring", 1, 0, ring_l2<1, 0, PF_LINE>);
        model_run(&m, P11, "ring", 2, 0, ring_l2<2, 0, PF_LINE>);
        model_run(&m, P11, "ring", 4, 0, ring_l2<4, 0, PF_LINE>);
        model_run(&m, P11, "ring", 8, 0, ring_l2<8, 0, PF_LINE>);
        model_run(&m, P11, "ring", 16, 0, ring_l2<16, 0, PF_LINE>);
        run_ring_l2<1>(&m);
        run_ring_l2<2>(&m);
        run_ring_l2<4>(&m);
        model_run(&m, P11, "ring+l2all", 2, 32, ring_l2<2, 32, PF_ALL>);
        model_run(&m, P11, "ring+l2bulk", 2, 32, ring_l2<2, 32, PF_BULK>);
        model_run(&m, P11, "regs", 2, 0, regs_l2<2, 0>);
        model_run(&m, P11, "regs+l2line", 2, 16, regs_l2<2, 16>);
        model_run(&m, P11, "regs+l2line", 2, 32, regs_l2<2, 32>);
    }
    /* Shared memory taken by something else: one block per SM, 192 KiB
     * reserved, so at most a few KiB remain for a ring. */
    const int rsv = 192 << 10;
    if (model_config(&m, 1)) {
        run_reserved(&m, "plain+rsv192K", 0, 0, model_plain, rsv);
        run_reserved(&m, "l2pf_line+rsv192K", 0, 16, l2pf<16, PF_LINE>, rsv);
        run_reserved(&m, "l2pf_line+rsv192K", 0, 32, l2pf<32, PF_LINE>, rsv);
        run_reserved(&m, "ring+rsv192K", 2, 0, ring_l2<2, 0, PF_LINE>, rsv);
        run_reserved(&m, "ring+l2line+rsv192K", 2, 32, ring_l2<2, 32, PF_LINE>, rsv);
    }
    fprintf(stderr, "l11: %d failed CUDA calls\n", probe_failures);
    return probe_failures ? 1 : 0;
}
