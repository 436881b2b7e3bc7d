/* Lesson 15's exercise: the capstone (lessons/lesson15-capstone.md).
 *
 *   make check lesson15                  grade your exercises/lesson15/softmax.cu
 *   make check lesson15 STUDENT_DIR=dir  grade dir/lesson15/softmax.cu
 *
 *   softmax  y = softmax of every row of x (rows x cols floats, row-major):
 *            y[r][j] = exp(x[r][j] - max_r) / sum_k exp(x[r][k] - max_r).
 *            The file handed over is a correct, naive kernel (one thread per
 *            row, three passes over its row) and no recipe: the student
 *            measures it and chooses what to change.
 *
 * The naive kernel is slow for two reasons the course taught: the 32 lanes
 * of a warp read 32 different rows, so every load instruction touches 32
 * cache lines (lesson 2), and each row is read three times (lesson 3: data
 * re-read instead of reused). Several routes fix them; the course keeps
 * three that are not the reference among its accepted answers
 * (tests/gpu/accepted/lesson15-*): a tile of whole rows staged in shared
 * memory, a warp per row with the next row prefetched into registers, and
 * one thread per row behind a padded transposed tile. Measured, the
 * uncoalesced access is nearly all of the cost (calibration below).
 * No mechanism check: any route that is right and fast enough passes.
 */
#include <math.h>
#include "../spec.h"
#include "spec_macros.h"

/* The launch is fixed, and the same for every version: blocks of SM_BLOCK
 * threads, block b owning rows [SM_BLOCK*b, SM_BLOCK*b + SM_BLOCK). One
 * thread per row is the naive mapping; a kernel may map the block's threads
 * onto its rows any other way. SM_MAX_COLS bounds the row length, as fused
 * softmax kernels in libraries do, so a row can live in registers. */
enum { SM_BLOCK = 256, SM_MAX_COLS = 512, SM_TIME_ROWS = 131072, SM_TIME_COLS = 256 };

/* size = rows. The timing shape is 131072 x 256: 32 Mi floats, 128 MiB in
 * and 128 MiB out, five times the H100's L2, and 512 blocks (about four per
 * SM, so any kernel of up to 64 registers per thread has every block
 * resident at once). The other sizes vary the row length: one element, the
 * longest row allowed, a row shorter than a warp and not a multiple of 32,
 * a row between 256 and 512, and a partial last block. */
static int sm_cols(size_t rows)
{
    switch (rows) {
    case 1:    return 1;
    case 33:   return SM_MAX_COLS;
    case 300:  return 37;
    case 1000: return 333;
    default:   return SM_TIME_COLS;
    }
}

/* Logits are not small: each row is shifted by up to +-100, so exp(x)
 * overflows or underflows a float unless the row's maximum is subtracted
 * first, as every real softmax does. The CPU reference is in double. */
static void softmax_reference(const float *x, double *y, int cols)
{
    double m = x[0], s = 0.0;
    for (int j = 1; j < cols; j++)
        m = x[j] > m ? x[j] : m;
    for (int j = 0; j < cols; j++)
        s += y[j] = exp((double)x[j] - m);   /* one exp per element: 32 Mi at the timing size */
    for (int j = 0; j < cols; j++)
        y[j] /= s;
}

static void build_softmax(instance *I, size_t size, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    int rows = (int)size, cols = sm_cols(size);
    size_t n = (size_t)rows * cols;

    float *x = inst_input(I, n, ELEM_F32);
    double *y = inst_output(I, n, ELEM_F32);
    inst_arg_int(I, rows);
    inst_arg_int(I, cols);

    for (int r = 0; r < rows; r++) {
        float *xr = x + (size_t)r * cols;
        double shift = inst_uniform(I, -100.0, 100.0);
        for (int j = 0; j < cols; j++)
            xr[j] = (float)(shift + inst_uniform(I, -8.0, 8.0));
        softmax_reference(xr, y + (size_t)r * cols, cols);
    }

    inst_launch(I, (unsigned)((rows + SM_BLOCK - 1) / SM_BLOCK), 1, 1, SM_BLOCK, 1, 1, 0);
    inst_bytes_moved(I, 8.0 * (double)n); /* read x once, write y once */
    inst_note(I, "x is %d rows of %d columns (blocks of %d threads, block b owns rows "
              "%d*b to %d*b+%d)", rows, cols, SM_BLOCK, SM_BLOCK, SM_BLOCK, SM_BLOCK - 1);
}

static const exercise ex_softmax = {
    .lesson = 15,
    .name = "softmax",
    .title = "Row-wise softmax: measure the naive kernel, choose the fix",
    .file = "lesson15/softmax.cu",
    .kernel = "softmax",
    .explained_in = "lessons/lesson15-capstone.md, sections \"Measure first\" and "
                    "\"Choosing a route\"",
    .check_sizes = {1, 33, 300, 1000, 4097},
    .size_means = "rows, of 1 to 512 columns (256 when timed)",
    .time_size = SM_TIME_ROWS,
    .build = build_softmax,
    /* Outputs lie in (0, 1] and sum to 1 per row; expf and a float sum of
     * up to 512 terms stay well inside 1e-4 relative, and __expf (about 2
     * ulp plus 1.2 ulp per unit of |x - max| <= 16) too. */
    .rtol = 1e-4,
    .atol = 1e-7,
    /* Half the reference's gain over the naive kernel, measured in the same
     * run, as for most exercises; and never less than 1.5x. The floor comes
     * from counting, not from a measurement: the naive kernel moves 16 bytes
     * per element where 8 suffice (three reads and a write), so reading once
     * alone is worth up to 2x even before coalescing, and the floor asks for
     * half of that. Set before the first GPU run and not changed after it.
     * On the H100 (2026-11-25, grader/calibration/h100-2026-11-25-capstone.md):
     * naive 1.17 ms, reference 0.103 ms (11.33-11.39x), bar 6.16-6.19x; the
     * three accepted routes 10.2x, 11.3x and 7.3x (PASS 3/3, 3/3, 1/1), the
     * stub 0.99x (SLOW 3/3). */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.5,
    .checks = { CHECKS_END },
};

const exercise *const lesson15_exercises[] = {&ex_softmax, NULL};
