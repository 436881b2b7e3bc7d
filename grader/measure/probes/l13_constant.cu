/* l13_constant.cu: a small table read by every thread, from constant memory,
 * plain global memory, const __restrict__, __ldg() and shared memory (the
 * design question of lesson 13).
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -o build/probes/l13 grader/measure/probes/l13_constant.cu
 *   build/probes/l13 > l13.tsv
 * (run by grader/measure/probe-new-lessons.sh; any GPU of 7.5 or newer.)
 *
 * N = 16 Mi floats in, 16 Mi floats out, one element per thread, 256 threads
 * per block. Kernels:
 *   horner_unrolled  y = polynomial of degree 31 in x, Horner's rule, the
 *                    coefficient loop fully unrolled: every warp reads the
 *                    same coefficient at the same time (a broadcast), at an
 *                    index known at compile time
 *   horner_rolled    the same loop with #pragma unroll 1: the same broadcast,
 *                    at a run-time index
 *   lookup D         8 table lookups per thread into a 256-entry table, the
 *                    index differing between warps and taking D distinct
 *                    values within a warp (D = 1: broadcast, 32: every lane its
 *                    own entry): how constant memory serialises distinct
 *                    addresses
 * Modes: const (__constant__ table, filled with cudaMemcpyToSymbol), global
 * (const float *), restrict (const float *__restrict__ for every pointer),
 * ldg (__ldg()), smem (the block copies the table to shared memory first).
 * Columns: probe kernel mode param ms speedup(vs global, same kernel and
 * param) GBps(8 bytes per element / time) check(vs const) regs. */
#include "probe_common.cuh"
#include <math.h>

#define N_ELEMS ((size_t)16 << 20)
#define NCOEF 32
#define NTAB 256
#define LOOKUPS 8

enum { M_CONST, M_GLOBAL, M_RESTRICT, M_LDG, M_SMEM, M_COUNT };
static const char *const mode_name[M_COUNT] = {"const", "global", "restrict", "ldg", "smem"};

__constant__ float c_coef[NCOEF];
__constant__ float c_tab[NTAB];

/* Entry k of a table as mode MODE reads it. `g` is the global copy, `s` the
 * shared one. */
template <int MODE>
__device__ __forceinline__ float entry(const float *cnst, const float *g, const float *s, int k)
{
    if (MODE == M_CONST)
        return cnst[k];
    if (MODE == M_LDG)
        return __ldg(&g[k]);
    if (MODE == M_SMEM)
        return s[k];
    return g[k];
}

/* Copies the table to shared memory (smem mode only). */
template <int MODE, int LEN>
__device__ __forceinline__ void stage_table(float *s, const float *g)
{
    if (MODE == M_SMEM) {
        for (int k = threadIdx.x; k < LEN; k += blockDim.x)
            s[k] = g[k];
        __syncthreads();
    }
}

template <int MODE, bool UNROLL>
__device__ __forceinline__ void horner_body(const float *g, const float *x, float *y, size_t n)
{
    __shared__ float s[NCOEF];
    stage_table<MODE, NCOEF>(s, g);
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float v = x[i];
    float acc = entry<MODE>(c_coef, g, s, NCOEF - 1);
    if (UNROLL) {
#pragma unroll
        for (int k = NCOEF - 2; k >= 0; k--)
            acc = fmaf(acc, v, entry<MODE>(c_coef, g, s, k));
    } else {
#pragma unroll 1
        for (int k = NCOEF - 2; k >= 0; k--)
            acc = fmaf(acc, v, entry<MODE>(c_coef, g, s, k));
    }
    y[i] = acc;
}

template <int MODE, bool UNROLL>
__global__ void horner(const float *g, const float *x, float *y, size_t n)
{
    horner_body<MODE, UNROLL>(g, x, y, n);
}

template <bool UNROLL>
__global__ void horner_restrict(const float *__restrict__ g, const float *__restrict__ x,
                                float *__restrict__ y, size_t n)
{
    horner_body<M_RESTRICT, UNROLL>(g, x, y, n);
}

__device__ __forceinline__ unsigned mix(unsigned h)
{
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

/* Lookup r of element i: a per-warp random base, and lane % d picks one of d
 * entries spread over the table (d a power of two). */
__device__ __forceinline__ int lookup_index(size_t i, int r, int d)
{
    const unsigned warp = (unsigned)(i >> 5);
    const unsigned base = mix(warp * 8u + (unsigned)r);
    return (int)((base + (unsigned)((int)(i & 31) & (d - 1)) * 37u) & (NTAB - 1));
}

template <int MODE>
__device__ __forceinline__ void lookup_body(const float *g, const float *x, float *y, size_t n,
                                            int d)
{
    __shared__ float s[NTAB];
    stage_table<MODE, NTAB>(s, g);
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = x[i];
#pragma unroll
    for (int r = 0; r < LOOKUPS; r++)
        acc = fmaf(acc, 0.5f, entry<MODE>(c_tab, g, s, lookup_index(i, r, d)));
    y[i] = acc;
}

template <int MODE>
__global__ void lookup(const float *g, const float *x, float *y, size_t n, int d)
{
    lookup_body<MODE>(g, x, y, n, d);
}

__global__ void lookup_restrict(const float *__restrict__ g, const float *__restrict__ x,
                                float *__restrict__ y, size_t n, int d)
{
    lookup_body<M_RESTRICT>(g, x, y, n, d);
}

struct bench {
    probe_device dev;
    probe_timer timer;
    float *x, *y, *coef, *tab;
    float *ref, *got;
    float global_ms;
};

/* Times one launch and prints its row; `is_ref` keeps the output as the
 * reference the next rows are checked against. */
template <class F>
static void row(bench *b, const char *kernel, int mode, int param, const void *func, F launch,
                bool is_ref)
{
    TRY(cudaMemset(b->y, 0xff, N_ELEMS * sizeof(float)));
    float ms = probe_time(&b->timer, launch, 3, 15, true);
    probe_attr a = probe_attributes(func);
    if (ms <= 0) {
        printf("l13\t%s\t%s\t%d\tFAIL\t-\t-\tFAIL\t%d\n", kernel, mode_name[mode], param, a.regs);
        fflush(stdout);
        return;
    }
    if (mode == M_GLOBAL)
        b->global_ms = ms;
    char check[32] = "ok";
    float *dst = is_ref ? b->ref : b->got;
    if (!TRY(cudaMemcpy(dst, b->y, N_ELEMS * sizeof(float), cudaMemcpyDeviceToHost))) {
        strcpy(check, "NOCOPY");
    } else if (!is_ref) {
        double worst = 0.0;
        for (size_t i = 0; i < N_ELEMS; i++) {
            double d = fabs((double)b->got[i] - (double)b->ref[i]);
            if (!(d <= worst))
                worst = isnan(d) ? INFINITY : d;
        }
        if (worst > 1e-5)
            snprintf(check, sizeof check, "BAD(%.2g)", worst);
    } else {
        strcpy(check, "ref");
    }
    printf("l13\t%s\t%s\t%d\t%.4f\t%.3f\t%.1f\t%s\t%d\n", kernel, mode_name[mode], param, ms,
           b->global_ms > 0 ? b->global_ms / ms : 0.0, 8.0 * N_ELEMS / ms * 1e-6, check, a.regs);
    fflush(stdout);
}

template <bool UNROLL>
static void run_horner(bench *b)
{
    const char *name = UNROLL ? "horner_unrolled" : "horner_rolled";
    const unsigned grid = (unsigned)((N_ELEMS + 255) / 256);
    const float *g = b->coef, *x = b->x;
    float *y = b->y;
    const size_t n = N_ELEMS;
    b->global_ms = 0;
    /* global first: the speedup column is relative to it */
    row(b, name, M_GLOBAL, NCOEF, (const void *)horner<M_GLOBAL, UNROLL>,
        [=] { horner<M_GLOBAL, UNROLL><<<grid, 256>>>(g, x, y, n); }, true);
    row(b, name, M_CONST, NCOEF, (const void *)horner<M_CONST, UNROLL>,
        [=] { horner<M_CONST, UNROLL><<<grid, 256>>>(g, x, y, n); }, false);
    row(b, name, M_RESTRICT, NCOEF, (const void *)horner_restrict<UNROLL>,
        [=] { horner_restrict<UNROLL><<<grid, 256>>>(g, x, y, n); }, false);
    row(b, name, M_LDG, NCOEF, (const void *)horner<M_LDG, UNROLL>,
        [=] { horner<M_LDG, UNROLL><<<grid, 256>>>(g, x, y, n); }, false);
    row(b, name, M_SMEM, NCOEF, (const void *)horner<M_SMEM, UNROLL>,
        [=] { horner<M_SMEM, UNROLL><<<grid, 256>>>(g, x, y, n); }, false);
}

static void run_lookup(bench *b, int d)
{
    const unsigned grid = (unsigned)((N_ELEMS + 255) / 256);
    const float *g = b->tab, *x = b->x;
    float *y = b->y;
    const size_t n = N_ELEMS;
    b->global_ms = 0;
    row(b, "lookup", M_GLOBAL, d, (const void *)lookup<M_GLOBAL>,
        [=] { lookup<M_GLOBAL><<<grid, 256>>>(g, x, y, n, d); }, true);
    row(b, "lookup", M_CONST, d, (const void *)lookup<M_CONST>,
        [=] { lookup<M_CONST><<<grid, 256>>>(g, x, y, n, d); }, false);
    row(b, "lookup", M_RESTRICT, d, (const void *)lookup_restrict,
        [=] { lookup_restrict<<<grid, 256>>>(g, x, y, n, d); }, false);
    row(b, "lookup", M_LDG, d, (const void *)lookup<M_LDG>,
        [=] { lookup<M_LDG><<<grid, 256>>>(g, x, y, n, d); }, false);
    row(b, "lookup", M_SMEM, d, (const void *)lookup<M_SMEM>,
        [=] { lookup<M_SMEM><<<grid, 256>>>(g, x, y, n, d); }, false);
}

int main()
{
    bench b;
    b.dev = probe_open("l13_constant",
                       "a table every thread reads: __constant__, global, restrict, __ldg, smem");
    printf("# columns: probe kernel mode param ms speedup(vs global, same kernel and param) "
           "GBps(8 bytes per element / time) check(vs the global mode's output) regs\n");
    printf("# %zu floats, one per thread, 256 threads per block; param: coefficients "
           "(horner) or distinct entries per warp (lookup); medians of 15 after 3, L2 flushed\n",
           (size_t)N_ELEMS);
    printf("probe\tkernel\tmode\tparam\tms\tspeedup\tGBps\tcheck\tregs\n");
    b.ref = (float *)malloc(N_ELEMS * sizeof(float));
    b.got = (float *)malloc(N_ELEMS * sizeof(float));
    float *hx = (float *)malloc(N_ELEMS * sizeof(float));
    if (!b.ref || !b.got || !hx) {
        fprintf(stderr, "l13: out of host memory\n");
        return 1;
    }
    float hcoef[NCOEF], htab[NTAB];
    for (int k = 0; k < NCOEF; k++)   /* a well-behaved series on [0, 1) */
        hcoef[k] = 1.0f / (float)((k + 1) * (k + 1));
    for (int k = 0; k < NTAB; k++)
        htab[k] = (float)((k * 97) % NTAB) / NTAB;
    for (size_t i = 0; i < N_ELEMS; i++)
        hx[i] = (float)((i * 2654435761u) & 0xffffff) / 16777216.0f;
    if (!probe_timer_init(&b.timer, &b.dev) || !TRY(cudaMalloc(&b.x, N_ELEMS * sizeof(float))) ||
        !TRY(cudaMalloc(&b.y, N_ELEMS * sizeof(float))) ||
        !TRY(cudaMalloc(&b.coef, sizeof hcoef)) || !TRY(cudaMalloc(&b.tab, sizeof htab)) ||
        !TRY(cudaMemcpy(b.x, hx, N_ELEMS * sizeof(float), cudaMemcpyHostToDevice)) ||
        !TRY(cudaMemcpy(b.coef, hcoef, sizeof hcoef, cudaMemcpyHostToDevice)) ||
        !TRY(cudaMemcpy(b.tab, htab, sizeof htab, cudaMemcpyHostToDevice)) ||
        !TRY(cudaMemcpyToSymbol(c_coef, hcoef, sizeof hcoef)) ||
        !TRY(cudaMemcpyToSymbol(c_tab, htab, sizeof htab)))
        return 1;
    run_horner<true>(&b);
    run_horner<false>(&b);
    const int ds[] = {1, 2, 4, 8, 32};
    for (int d : ds)
        run_lookup(&b, d);
    fprintf(stderr, "l13: %d failed CUDA calls\n", probe_failures);
    return probe_failures ? 1 : 0;
}
