/* Lesson 2's exercises: coalescing.
 *
 *   mapping    C = A*B with a small inner dimension, one thread per element
 *              of C: choose the index space so that the fastest-varying
 *              thread index walks contiguous memory.
 *   transpose  a transpose coalesced on both sides through a shared tile.
 *
 * Graded by `make check lesson2` (build/grader check lesson2).
 */
#include "../spec.h"
#include "spec_macros.h"

/* ---- mapping ------------------------------------------------------------ */

/* P, the inner dimension, is small on purpose: with 8 multiply-adds per
 * element the kernel is dominated by its memory accesses (the store of C
 * above all), so the index space decides its speed. */
enum { MAPPING_P = 8, MAPPING_BLOCK = 256 };

/* size = M; N = M + M/4 + 3 so that M != N (a kernel that swaps them
 * fails) and N is odd. With one thread per element of C in a 1-D launch,
 * an odd N costs the good mapping nothing: thread t stores C[t]. */
static void mapping_dims(size_t size, int *M, int *N)
{
    *M = (int)size;
    *N = (int)(size + size / 4 + 3);
}

static void build_mapping(instance *I, size_t size, const int *knobs,
                          const device_facts *dev)
{
    (void)knobs, (void)dev;
    int M, N, P = MAPPING_P;
    mapping_dims(size, &M, &N);

    float *A = inst_input(I, (size_t)M * P, ELEM_F32);
    float *B = inst_input(I, (size_t)P * N, ELEM_F32);
    double *C = inst_output(I, (size_t)M * N, ELEM_F32);
    inst_arg_int(I, M);
    inst_arg_int(I, N);
    inst_arg_int(I, P);

    for (size_t e = 0; e < (size_t)M * P; e++)
        A[e] = (float)inst_uniform(I, -1.0, 1.0);
    for (size_t e = 0; e < (size_t)P * N; e++)
        B[e] = (float)inst_uniform(I, -1.0, 1.0);

    /* i-k-j order: the inner loop runs along a row of B and C, which the CPU
     * streams and vectorises (about 0.1 s at the time size on 2 cores). */
    for (int i = 0; i < M; i++) {
        double *c = C + (size_t)i * N;
        for (int k = 0; k < P; k++) {
            double a = A[(size_t)i * P + k];
            const float *b = B + (size_t)k * N;
            for (int j = 0; j < N; j++)
                c[j] += a * (double)b[j];
        }
    }

    size_t threads = (size_t)M * N;
    inst_launch(I, (unsigned)((threads + MAPPING_BLOCK - 1) / MAPPING_BLOCK), 1, 1,
                MAPPING_BLOCK, 1, 1, 0);
    inst_bytes_moved(I, 4.0 * ((double)M * P + (double)P * N + (double)M * N));
}

static const exercise ex_mapping = {
    .lesson = 2,
    .name = "mapping",
    .title = "Thread mapping: let the fastest thread index walk a row",
    .file = "lesson2/mapping.cu",
    .kernel = "thin_matmul",
    .explained_in = "lessons/lesson2-coalescing.md, section \"Which index varies fastest\"",
    /* 1 and 33 leave most of a block idle; 100 and 777 are ragged in both
     * dimensions. Time: M = 4096, N = 5123, C is 80 MiB of floats written
     * once (more than the 50 MB L2, which the grader also flushes before
     * every launch); A and B are 128 and 160 KiB. */
    .check_sizes = {1, 33, 100, 777},
    .size_means = "M: C is M x (M + M/4 + 3)",
    .time_size = 4096,
    .build = build_mapping,
    .rtol = 1e-5,
    .atol = 1e-5,
    /* The baseline's stores touch 32 sectors per warp instead of 4. On the H100 (2026-11-23, grader/calibration/):
     * baseline 0.390 ms, solution 0.096 ms (4.05x, about 30% of the copy
     * bandwidth: its cached loads of A still cost); the bar came to 2.53x. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.5,
};

/* ---- transpose ---------------------------------------------------------- */

enum { TDIM = 32, TROWS = 8 };

/* size = rows; cols = rows + rows/4, so the matrix is not square (a kernel
 * that mixes up rows and cols fails) and, at the check sizes, neither side
 * is a multiple of the tile. Time: 4096 x 5120 floats, 80 MiB read and
 * 80 MiB written. */
static void build_transpose(instance *I, size_t size, const int *knobs,
                            const device_facts *dev)
{
    (void)knobs, (void)dev;
    int rows = (int)size, cols = (int)(size + size / 4);
    size_t n = (size_t)rows * cols;

    float *in = inst_input(I, n, ELEM_F32);
    double *out = inst_output(I, n, ELEM_F32);
    inst_arg_int(I, rows);
    inst_arg_int(I, cols);

    for (size_t e = 0; e < n; e++)
        in[e] = (float)inst_uniform(I, -1.0, 1.0);
    /* In 64 x 64 blocks: the CPU has the same problem as the GPU, one side
     * of a transpose is strided, and blocking keeps both sides in cache. */
    for (int r0 = 0; r0 < rows; r0 += 64)
        for (int c0 = 0; c0 < cols; c0 += 64)
            for (int r = r0; r < rows && r < r0 + 64; r++)
                for (int c = c0; c < cols && c < c0 + 64; c++)
                    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];

    inst_launch(I, (unsigned)((cols + TDIM - 1) / TDIM), (unsigned)((rows + TDIM - 1) / TDIM), 1,
                TDIM, TROWS, 1, 0);
    inst_bytes_moved(I, 2.0 * 4.0 * (double)n);
}

static const exercise ex_transpose = {
    .lesson = 2,
    .name = "transpose",
    .title = "Transpose, coalesced on both sides through a shared-memory tile",
    .file = "lesson2/transpose.cu",
    .kernel = "transpose",
    .explained_in = "lessons/lesson2-coalescing.md, sections \"A transpose through shared memory\" and \"Staging a tile\"",
    .check_sizes = {1, 31, 100, 257, 1000},
    .size_means = "rows: the matrix is rows x (rows + rows/4)",
    .time_size = 4096,
    .build = build_transpose,
    .rtol = 0.0,   /* a transpose moves values, it computes nothing */
    .atol = 0.0,
    /* A transpose moves exactly what a copy moves. On the H100 (2026-11-23, grader/calibration/):
     * staged through shared memory it reached 91-93% of the copy bandwidth,
     * the direct one 14%. */
    .bar = BAR_BANDWIDTH,
    .bar_share = 0.70,
    .checks = {
        PTX_HAS("ld.shared", KNOCK_SHARED,
            "A transpose reads one side along rows and the other along columns. Only "
            "a tile in shared memory lets both global sides be read and written along "
            "rows: load the tile along rows of the input, __syncthreads(), then write "
            "it along rows of the output, reading the tile column-wise (lesson 2, "
            "\"A transpose through shared memory\")."),
    },
};

const exercise *const lesson2_exercises[] = { &ex_mapping, &ex_transpose, NULL };
