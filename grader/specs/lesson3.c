/* Lesson 3's exercises: shared memory and bank conflicts.
 *
 *   bank_conflicts  G = A*A^T with 32 x 32 tiles in shared memory; the
 *                   column-wise read of a [32][32] tile is a 32-way bank
 *                   conflict, to be removed by a conflict-free layout.
 *   matmul          C = A*B reusing tiles of A and B from shared memory,
 *                   with the tile size as a knob (TILE = 8, 16, 32).
 *
 * Graded by `make check lesson3` (build/grader check lesson3).
 */
#include "../spec.h"
#include "spec_macros.h"

/* ---- bank_conflicts ----------------------------------------------------- */

enum { GRAM_T = 32, GRAM_TIME_M = 2048, GRAM_TIME_W = 64 };

/* size = M. W = 64 (two 32-wide slices) where M is a multiple of 32, and 45
 * elsewhere, so the correctness sizes also cover a partial last slice.
 *
 * Why the time size is M = 2048: the kernel reads every staged value 32
 * times from shared memory, so it is bound by shared memory, not DRAM, and
 * its data need not be larger than the L2 (A is 512 KiB, G is 16 MiB). The
 * CPU reference is M*M*W/2 multiply-adds using the symmetry of G: 134 M at
 * M = 2048, about 0.05 s on 2 cores. M = 4096 would cost 8 times that, and
 * 128 MiB of expected values. On an H100 the conflicted version needs about
 * 32 (or, if ptxas merges four reads into one 128-bit read, 8) shared-memory
 * passes per read where the padded one needs 1: tenths of a millisecond
 * against a few hundredths. */
static void gram_dims(size_t size, int *M, int *W)
{
    *M = (int)size;
    *W = size % GRAM_T == 0 ? GRAM_TIME_W : 45;
}

static void build_gram(instance *I, size_t size, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    int M, W;
    gram_dims(size, &M, &W);

    float *A = inst_input(I, (size_t)M * W, ELEM_F32);
    double *G = inst_output(I, (size_t)M * M, ELEM_F32);
    inst_arg_int(I, M);
    inst_arg_int(I, W);

    for (size_t e = 0; e < (size_t)M * W; e++)
        A[e] = (float)inst_uniform(I, -1.0, 1.0);

    /* G is symmetric: compute the lower triangle, mirror it. */
    double row[256];
    for (int i = 0; i < M; i++) {
        for (int k = 0; k < W; k++)
            row[k] = A[(size_t)i * W + k];
        for (int j = 0; j <= i; j++) {
            const float *a = A + (size_t)j * W;
            double s = 0.0;
            for (int k = 0; k < W; k++)
                s += row[k] * (double)a[k];
            G[(size_t)i * M + j] = s;
            G[(size_t)j * M + i] = s;
        }
    }

    unsigned tiles = (unsigned)((M + GRAM_T - 1) / GRAM_T);
    inst_launch(I, tiles, tiles, 1, GRAM_T, GRAM_T, 1, 0);
    inst_bytes_moved(I, 4.0 * ((double)M * W + (double)M * M));
}

static const exercise ex_bank_conflicts = {
    .lesson = 3,
    .name = "bank_conflicts",
    .title = "Remove the bank conflicts of a shared-memory tile read down its columns",
    .file = "lesson3/bank_conflicts.cu",
    .kernel = "gram",
    .explained_in = "lessons/lesson3-shared-memory.md, sections \"Banks\" and \"Padding\"",
    .check_sizes = {1, 33, 100, 256, 300},
    .size_means = "M: A is M x W, G is M x M",
    .time_size = GRAM_TIME_M,
    .build = build_gram,
    .rtol = 1e-5,
    .atol = 1e-4,   /* 64 float products in [-1, 1): sums of a few units */
    /* On the H100 (2026-11-23, grader/calibration/): 0.314 ms conflicted, 0.070 ms padded (4.51x; Nsight
     * Compute counted 5.9e7 shared-load conflicts against 2.1e5); the bar
     * came to 2.76x. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.5,
    .checks = {
        PTX_HAS("ld.shared", KNOCK_SHARED,
            "This exercise is about the layout of the tiles in shared memory: keep "
            "staging the rows of A in __shared__ arrays and reading them from there, "
            "and change only how a tile is laid out (lesson 3, \"Padding\")."),
    },
};

/* ---- matmul ------------------------------------------------------------- */

enum { MM_TIME = 1536, MM_TIME_W = 256 };

/* Time size: M = N = 1536, W = 256, 604 M multiply-adds. The issue that
 * asked for this exercise suggested M = N = 2048 with W = 256, but that is
 * 1.07 G multiply-adds, the same as 1024^3: about 0.35 s on 2 cores when
 * the compiler vectorises the reference and more when it does not, and the
 * grader builds the timing instance twice. 1536^2 * 256 costs about 0.2 s
 * even unvectorised (3 G multiply-adds/s measured at -O2 without
 * vectorisation), keeps W long enough that each element of A and B is
 * reused 1536 times, and gives 2304 blocks at TILE = 32 and 36864 at
 * TILE = 8, enough to fill 132 SMs many times. Data: A and B 1.5 MiB each,
 * C 9 MiB; like any matrix product the kernel is bound by how often it
 * re-reads A and B, not by DRAM.
 *
 * Correctness sizes: M = size, N = size + 7, W = size/3 + 5, so M != N and
 * none of them is a multiple of the tile (W = 16 at size 33 is a multiple
 * of 8 and 16 but not 32). */
static void mm_dims(size_t size, int *M, int *N, int *W)
{
    if (size == MM_TIME) {
        *M = *N = MM_TIME;
        *W = MM_TIME_W;
        return;
    }
    *M = (int)size;
    *N = (int)size + 7;
    *W = (int)size / 3 + 5;
}

enum { MT_TILE };

static void build_matmul(instance *I, size_t size, const int *knobs, const device_facts *dev)
{
    (void)dev;
    int tile = knobs[MT_TILE];
    int M, N, W;
    mm_dims(size, &M, &N, &W);

    float *A = inst_input(I, (size_t)M * W, ELEM_F32);
    float *B = inst_input(I, (size_t)W * N, ELEM_F32);
    double *C = inst_output(I, (size_t)M * N, ELEM_F32);
    inst_arg_int(I, M);
    inst_arg_int(I, N);
    inst_arg_int(I, W);

    for (size_t e = 0; e < (size_t)M * W; e++)
        A[e] = (float)inst_uniform(I, -1.0, 1.0);
    for (size_t e = 0; e < (size_t)W * N; e++)
        B[e] = (float)inst_uniform(I, -1.0, 1.0);

    /* i-k-j order: the inner loop streams a row of B into a row of C. */
    for (int i = 0; i < M; i++) {
        double *c = C + (size_t)i * N;
        for (int k = 0; k < W; k++) {
            double a = A[(size_t)i * W + k];
            const float *b = B + (size_t)k * N;
            for (int j = 0; j < N; j++)
                c[j] += a * (double)b[j];
        }
    }

    inst_launch(I, (unsigned)((N + tile - 1) / tile), (unsigned)((M + tile - 1) / tile), 1,
                (unsigned)tile, (unsigned)tile, 1, 0);
    inst_bytes_moved(I, 4.0 * ((double)M * W + (double)W * N + (double)M * N));
}

static const exercise ex_matmul = {
    .lesson = 3,
    .name = "matmul",
    .title = "Tiled C = AB: reuse tiles of A and B from shared memory",
    .file = "lesson3/matmul.cu",
    .kernel = "matmul",
    .explained_in = "lessons/lesson3-shared-memory.md, sections \"Tiled C = AB\" and \"Reusing tiles\"",
    .knobs = {
        [MT_TILE] = { .name = "TILE", .def = 16, .min = 8, .max = 32, .power_of_two = 1,
          .what = "tile side and block side (TILE x TILE threads): 8, 16 or 32" },
    },
    .check_sizes = {1, 33, 100, 300},
    .size_means = "M: C is M x (M + 7), 1536 x 1536 when timed",
    .time_size = MM_TIME,
    .build = build_matmul,
    .rtol = 1e-4,
    .atol = 1e-4,   /* up to 256 float products in [-1, 1) summed in float */
    /* A modest gain (the naive version is well served by L1), hence a low
     * floor. On the H100 (2026-11-23, grader/calibration/): 1.52x at TILE 16, bar 1.26x. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.2,
    .checks = {
        PTX_HAS("ld.shared", KNOCK_SHARED,
            "The kernel reads nothing from shared memory, so every value still comes "
            "from global memory, once per thread that needs it. Stage tiles of A and B "
            "in __shared__ arrays and read them from there (lesson 3, \"Tiled C = AB\")."),
    },
};

const exercise *const lesson3_exercises[] = { &ex_bank_conflicts, &ex_matmul, NULL };
