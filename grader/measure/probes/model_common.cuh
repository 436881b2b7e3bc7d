/* model_common.cuh: the prefetch lessons' model loop (grader/specs/
 * prefetch_model.h) for the standalone probes, and the row every model probe
 * prints.
 *
 * Block b owns `imax` consecutive doubles of arr; thread t visits chunk
 * elements t, t + BDX, t + 2*BDX, ... and writes the sum of exp() over them to
 * out[b*BDX + t]. Blocks: BPS per SM, BDX = 128 threads each. The data is
 * 32 Mi doubles (256 MiB, five times an H100's L2), as in the grader; every
 * thread's iteration count is a multiple of 96, so any PDIST in
 * {1,2,4,6,8,12,16} and any bulk stage of 4 iterations times PDIST 8 divide it.
 *
 * Every variant's output is compared with the plain loop's (same order of
 * additions, so equal to the last bit unless the variant is wrong): the
 * `check` column says ok, or the largest relative difference. */
#ifndef MODEL_COMMON_CUH
#define MODEL_COMMON_CUH

#include "probe_common.cuh"
#include <math.h>

#define BDX 128
#define MODEL_ELEMS ((size_t)32 << 20)
#define MODEL_ITER_MULTIPLE 96

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

/* Values in [-1, 1), a hash of the index: the same data in every probe. */
__global__ void model_fill(double *a, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long z = i * 0x9E3779B97F4A7C15ull + 0x1234567ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        a[i] = (double)(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
    }
}

/* The plain loop: one load per iteration, used at once (lesson 9's
 * baseline). */
__global__ void model_plain(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BDX)
        acc += work(chunk[i]);
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

struct model {
    probe_device dev;
    probe_timer timer;
    double *arr, *out;       /* device: MODEL_ELEMS inputs, outputs for 16 blocks/SM */
    double *ref, *got;       /* host: the plain loop's output, a variant's output */
    size_t out_cap;
    /* The current configuration (model_config). */
    int bps, grid, imax;
    size_t threads;
    float plain_ms;
};

/* Allocates and fills the data; prints the header and the column names. */
static bool model_init(model *m, const char *probe_name, const char *about)
{
    m->dev = probe_open(probe_name, about);
    printf("# columns: probe variant bps pdist dist ms speedup(vs plain, same bps) "
           "GBps(input bytes / time) check regs local_bytes static_smem_bytes\n");
    printf("# BDX %d, %zu doubles, iterations per thread a multiple of %d; times are medians "
           "of 15 launches after 3, L2 flushed before each\n",
           BDX, (size_t)MODEL_ELEMS, MODEL_ITER_MULTIPLE);
    printf("probe\tvariant\tbps\tpdist\tdist\tms\tspeedup\tGBps\tcheck\tregs\tlocal\tsmem\n");
    m->out_cap = (size_t)m->dev.sms * 16 * BDX;
    if (!probe_timer_init(&m->timer, &m->dev) ||
        !TRY(cudaMalloc(&m->arr, MODEL_ELEMS * sizeof(double))) ||
        !TRY(cudaMalloc(&m->out, m->out_cap * sizeof(double))))
        return false;
    m->ref = (double *)malloc(m->out_cap * sizeof(double));
    m->got = (double *)malloc(m->out_cap * sizeof(double));
    if (!m->ref || !m->got) {
        fprintf(stderr, "%s: out of host memory\n", probe_name);
        return false;
    }
    model_fill<<<(unsigned)((MODEL_ELEMS + 255) / 256), 256>>>(m->arr, MODEL_ELEMS);
    return TRY_LAUNCH();
}

/* Sets blocks per SM and derives grid and imax; times the plain loop and
 * keeps its output as the reference. Returns false when the plain loop
 * failed (the configuration's rows are then skipped). */
static bool model_config(model *m, int bps)
{
    m->bps = bps;
    m->grid = m->dev.sms * bps;
    m->threads = (size_t)m->grid * BDX;
    size_t iters = MODEL_ELEMS / m->threads;
    iters -= iters % MODEL_ITER_MULTIPLE;
    if (iters < MODEL_ITER_MULTIPLE)
        iters = MODEL_ITER_MULTIPLE;
    m->imax = (int)(iters * BDX);
    const int grid = m->grid, imax = m->imax;
    double *arr = m->arr, *out = m->out;
    m->plain_ms = probe_time(&m->timer, [=] { model_plain<<<grid, BDX>>>(arr, out, imax); },
                             3, 15, true);
    if (m->plain_ms <= 0 ||
        !TRY(cudaMemcpy(m->ref, m->out, m->threads * sizeof(double), cudaMemcpyDeviceToHost)))
        return false;
    probe_attr a = probe_attributes((const void *)model_plain);
    printf("model\tplain\t%d\t0\t0\t%.4f\t1.000\t%.1f\tok\t%d\t%zu\t%zu\n", bps, m->plain_ms,
           8.0 * grid * (double)imax / m->plain_ms * 1e-6, a.regs, a.local_bytes, a.smem_bytes);
    fflush(stdout);
    return true;
}

/* Times one variant in the current configuration and prints its row. `launch`
 * enqueues it with (grid, BDX) and the model's arguments; `func` is the
 * kernel, for its attributes. */
template <class F>
static void model_row(model *m, const char *probe, const char *variant, int pdist, int dist,
                      const void *func, F launch)
{
    TRY(cudaMemset(m->out, 0xff, m->threads * sizeof(double)));   /* NaN: unwritten shows */
    float ms = probe_time(&m->timer, launch, 3, 15, true);
    probe_attr a = probe_attributes(func);
    if (ms <= 0) {
        printf("%s\t%s\t%d\t%d\t%d\tFAIL\t-\t-\tFAIL\t%d\t%zu\t%zu\n", probe, variant, m->bps,
               pdist, dist, a.regs, a.local_bytes, a.smem_bytes);
        fflush(stdout);
        return;
    }
    char check[32] = "ok";
    if (!TRY(cudaMemcpy(m->got, m->out, m->threads * sizeof(double), cudaMemcpyDeviceToHost))) {
        strcpy(check, "NOCOPY");
    } else {
        double worst = 0.0;
        for (size_t i = 0; i < m->threads; i++) {
            double d = fabs(m->got[i] - m->ref[i]) / fmax(fabs(m->ref[i]), 1e-300);
            if (!(d <= worst))   /* NaN counts as the worst */
                worst = isnan(d) ? INFINITY : d;
        }
        if (worst > 1e-12)
            snprintf(check, sizeof check, "BAD(%.2g)", worst);
    }
    printf("%s\t%s\t%d\t%d\t%d\t%.4f\t%.3f\t%.1f\t%s\t%d\t%zu\t%zu\n", probe, variant, m->bps,
           pdist, dist, ms, m->plain_ms / ms, 8.0 * m->grid * (double)m->imax / ms * 1e-6, check,
           a.regs, a.local_bytes, a.smem_bytes);
    fflush(stdout);
}

/* A row for a kernel taking (arr, out, imax) with static shared memory only. */
typedef void (*model_kernel)(const double *__restrict__, double *__restrict__, int);

static void model_run(model *m, const char *probe, const char *variant, int pdist, int dist,
                      model_kernel k)
{
    const int grid = m->grid, imax = m->imax;
    const double *arr = m->arr;
    double *out = m->out;
    model_row(m, probe, variant, pdist, dist, (const void *)k,
              [=] { k<<<grid, BDX>>>(arr, out, imax); });
}

#endif
