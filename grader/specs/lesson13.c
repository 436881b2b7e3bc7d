/* Lesson 13's exercises: constant memory and the read-only path
 * (lessons/lesson13-constant-memory.md).
 *
 *   make check lesson13                    both exercises
 *   make check lesson13 ONLY=coefficients  one of them
 *
 *   coefficients  13a: a polynomial of degree 31 whose coefficients every
 *                 lane reads at once: move them to constant memory
 *   lookup        13b: eight lookups per element into a 256-entry table
 *                 where every lane reads its own entry: take the table out of
 *                 constant memory
 *
 * Both files declare a __constant__ array (coef, table) that the grader
 * fills before every launch with inst_constant(), as a host program would
 * with cudaMemcpyToSymbol; the same values also arrive in global memory as
 * the first kernel argument, so each version reads the copy it wants. One
 * element per thread, 256 threads per block, 16 Mi elements for timing
 * (64 MiB in, 64 MiB out, larger than the L2 together). Any GPU.
 */
#include "../spec.h"
#include "spec_macros.h"

enum { C_NCOEF = 32, C_NTAB = 256, C_LOOKUPS = 8, C_BLOCK = 256, C_XTAB = 65536 };

#define C_TIME_SIZE ((size_t)16 << 20)
/* 1: one thread; 1000 and 4097: partial blocks and warps; 2^20: many warps. */
#define C_CHECK_SIZES {1, 1000, 4097, (size_t)1 << 20, 0}

static void launch_elementwise(instance *I, size_t n)
{
    inst_arg_int(I, (int)n);
    inst_launch(I, (unsigned)((n + C_BLOCK - 1) / C_BLOCK), 1, 1, C_BLOCK, 1, 1, 0);
    inst_bytes_moved(I, 8.0 * (double)n);   /* x read, y written; the table is tiny */
}

/* ---- 13a: coefficients ---------------------------------------------------
 *
 * Coefficients uniform in [-1, 1) / (k + 1), x in [-1, 1): |y| < 4.1. The
 * GPU evaluates in float with fmaf, the reference in double; 31 roundings
 * of a few units give errors near 1e-6, while a wrong or missing
 * coefficient moves y by far more than atol. The x values come from a table
 * of 65536 draws whose polynomial is computed once, so the timing instance
 * costs O(n), not 31 n. */
static void build_coefficients(instance *I, size_t n, const int *knobs,
                               const device_facts *dev)
{
    (void)knobs, (void)dev;
    float c[C_NCOEF];
    for (int k = 0; k < C_NCOEF; k++)
        c[k] = (float)(inst_uniform(I, -1.0, 1.0) / (k + 1));
    float *cg = inst_input(I, C_NCOEF, ELEM_F32);
    for (int k = 0; k < C_NCOEF; k++)
        cg[k] = c[k];
    inst_constant(I, "coef", c, sizeof c);
    float *x = inst_input(I, n, ELEM_F32);
    double *y = inst_output(I, n, ELEM_F32);

    static float xs[C_XTAB];
    static double ys[C_XTAB];
    for (int t = 0; t < C_XTAB; t++) {
        xs[t] = (float)inst_uniform(I, -1.0, 1.0);
        double acc = c[C_NCOEF - 1];
        for (int k = C_NCOEF - 2; k >= 0; k--)
            acc = acc * xs[t] + c[k];
        ys[t] = acc;
    }
    for (size_t i = 0; i < n; i += 2) {
        uint32_t r = inst_u32(I);
        for (size_t j = i; j < i + 2 && j < n; j++, r >>= 16) {
            x[j] = xs[r & (C_XTAB - 1)];
            y[j] = ys[r & (C_XTAB - 1)];
        }
    }
    launch_elementwise(I, n);
}

static const exercise coefficients = {
    .lesson = 13,
    .name = "coefficients",
    .title = "13a: coefficients every lane reads at once, from constant memory",
    .file = "lesson13/coefficients.cu",
    .kernel = "coefficients",
    .explained_in = "lessons/lesson13-constant-memory.md, section \"Constant memory\"",
    .check_sizes = C_CHECK_SIZES,
    .size_means = "n, the length of x",
    .time_size = C_TIME_SIZE,
    .build = build_coefficients,
    .rtol = 1e-5,
    .atol = 1e-4,
    /* Calibration: ten gradings on an NVIDIA H100 80GB HBM3, 2026-11-23
     * (grader/calibration/h100-2026-11-23-c.md, raw reports in
     * h100-2026-11-23-c/repeat/). Coefficients through a global pointer (the
     * baseline) 0.085-0.086 ms; the reference, from constant memory, 0.066
     * ms, 1.30-1.31x, with 8 registers against the baseline's 32; the bar
     * 1.15x; the untouched stub 1.00x and MECHANISM 10 of 10 (no ld.const).
     * The probe of the same kernel (h100-2026-11-23-b/lessons/l13.tsv)
     * measured const __restrict__ and __ldg at 1.00x, under the bar, and the
     * coefficients staged in shared memory at 1.16x, level with it: the
     * ld.const check, not the speed, is what tells that version apart. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.1,
    .checks = {
        PTX_HAS("ld.const", KNOCK_CONST,
            "Read the coefficients from the __constant__ array coef (ld.const in the PTX): "
            "every lane of a warp reads the same coefficient at the same moment, which the "
            "constant cache serves as one broadcast, and with the index known at compile time "
            "the arithmetic in the machine code (SASS) takes it straight from the constant "
            "bank, the ld.const folded away. The grader has already copied the coefficients "
            "into coef."),
        MAX_LOCAL_BYTES(0,
            "The kernel uses local memory (device memory): read the coefficients where they "
            "are, no per-thread array is needed."),
    },
};

/* ---- 13b: lookup ---------------------------------------------------------
 *
 * The kernel's index function, on the CPU: per-warp base from a hash, plus
 * 37 entries per lane (37 is odd, so the 32 lanes get 32 different
 * entries). The table is 256 values in [0, 1), new every run. */
static uint32_t c_mix(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

static void build_lookup(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    float t[C_NTAB];
    for (int k = 0; k < C_NTAB; k++)
        t[k] = (float)inst_uniform(I, 0.0, 1.0);
    float *tg = inst_input(I, C_NTAB, ELEM_F32);
    for (int k = 0; k < C_NTAB; k++)
        tg[k] = t[k];
    inst_constant(I, "table", t, sizeof t);
    float *x = inst_input(I, n, ELEM_F32);
    double *y = inst_output(I, n, ELEM_F32);
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)inst_uniform(I, -1.0, 1.0);
        const uint32_t warp = (uint32_t)i >> 5, lane = (uint32_t)i & 31;
        double acc = x[i];
        for (int r = 0; r < C_LOOKUPS; r++)
            acc = acc * 0.5 + t[(c_mix(warp * C_LOOKUPS + (uint32_t)r) + lane * 37u) &
                                (C_NTAB - 1)];
        y[i] = acc;
    }
    launch_elementwise(I, n);
}

static const exercise lookup = {
    .lesson = 13,
    .name = "lookup",
    .title = "13b: a table every lane reads differently, out of constant memory",
    .file = "lesson13/lookup.cu",
    .kernel = "lookup",
    .explained_in = "lessons/lesson13-constant-memory.md, section \"When constant memory is "
                    "slow\"",
    .check_sizes = C_CHECK_SIZES,
    .size_means = "n, the length of x",
    .time_size = C_TIME_SIZE,
    .build = build_lookup,
    .rtol = 1e-5,
    .atol = 1e-6,
    /* Calibration: ten gradings on an NVIDIA H100 80GB HBM3, 2026-11-23
     * (grader/calibration/h100-2026-11-23-c.md, raw reports in
     * h100-2026-11-23-c/repeat/). 32 different entries per warp from
     * constant memory (the baseline) 1.070-1.078 ms; the reference, through
     * the global copy, 0.093 ms, 11.5x; the bar 6.26-6.28x; the untouched
     * stub 1.00x and MECHANISM 10 of 10 (ld.const left). The probe of the
     * same kernel (h100-2026-11-23-b/lessons/l13.tsv) measured
     * const __restrict__ and __ldg the same as a plain pointer, so any of
     * the three reads through global memory clears the bar with room to
     * spare, and the stub stays far under it. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 3.0,
    .checks = {
        PTX_LACKS("ld.const",
            "The kernel still reads the table from constant memory (ld.const in the PTX). "
            "The constant cache serves one address per warp at a time, so 32 lanes reading "
            "32 different entries are served one after another. Read table_g, the global "
            "copy, through a const __restrict__ pointer or __ldg(): the L1 cache serves a "
            "warp's load in one pass per distinct 128-byte line, at most the table's eight "
            "lines here."),
    },
};

const exercise *const lesson13_exercises[] = { &coefficients, &lookup, NULL };
