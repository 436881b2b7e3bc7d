/* Lesson 0's exercises: setup and measuring (lessons/lesson0-measuring.md).
 *
 * Graded by `make check lesson0` (build/grader check lesson0). */
#include "../spec.h"
#include "spec_macros.h"

/* A float in [-1, 1) with 16 random bits: k / 32768 is exact in float, so the
 * inputs the GPU reads are exactly the values the reference uses. */
static float half_word(uint32_t u16)
{
    return (float)((int)(u16 & 0xffffu) - 32768) / 32768.0f;
}

/* saxpy: z = a*x + y over n floats. One random word per element feeds both
 * inputs, which keeps build() cheap at the timing size (32M elements). */
static void saxpy_build(instance *I, size_t n, const int *knobs,
                        const device_facts *dev)
{
    (void)knobs;
    float *x = inst_input(I, n, ELEM_F32);
    float *y = inst_input(I, n, ELEM_F32);
    double *z = inst_output(I, n, ELEM_F32);
    float a = (float)inst_uniform(I, 0.5, 2.5);

    for (size_t i = 0; i < n; i++) {
        uint32_t u = inst_u32(I);
        x[i] = half_word(u);
        y[i] = half_word(u >> 16);
        z[i] = (double)a * x[i] + y[i];
    }
    inst_arg_float(I, a);
    inst_arg_int(I, (int)n);

    /* A fixed grid, eight 256-thread blocks per SM (a full H100 SM), whatever
     * n is: each thread takes several elements, so how it walks them is what
     * the exercise is about. Small n leaves most threads idle. */
    unsigned blocks = (unsigned)dev->sm_count * 8;
    inst_launch(I, blocks, 1, 1, 256, 1, 1, 0);
    inst_bytes_moved(I, 12.0 * (double)n); /* read x and y, write z */
}

static const exercise saxpy = {
    .lesson = 0,
    .name = "saxpy",
    .title = "z = a*x + y: a first kernel, and the grader's report",
    .file = "lesson0/saxpy.cu",
    .kernel = "saxpy",
    .explained_in = "lessons/lesson0-measuring.md, sections \"Reading the "
                    "report\" and \"Two floors\"",
    .min_cc = 0,
    .demo = 0,
    .knobs = { { .name = NULL } }, /* none */
    /* 1 and 1000 leave most threads idle; 4097 is not a multiple of 32; 2^20
     * and the timing size need several elements per thread. */
    .check_sizes = { 1, 1000, 4097, (size_t)1 << 20, 0 },
    .size_means = "n, the length of x, y and z",
    .time_size = (size_t)1 << 25, /* 32M floats: 3 arrays, 384 MiB, 8x L2 */
    .build = saxpy_build,
    .rtol = 1e-5,
    .atol = 1e-6,
    .bar = BAR_BANDWIDTH,
    .bar_share = 0.5,
    .bar_floor = 0.0,
    .checks = { CHECKS_END },
};

const exercise *const lesson0_exercises[] = { &saxpy, NULL };
