/* Lesson 4's exercises: unrolling and instruction-level parallelism.
 *
 *   unroll        a latency-bound sum (one block of 256 threads per SM) whose
 *                 loop issues one load at a time: unroll it so UNROLL
 *                 independent loads are in flight per thread.
 *   vector_loads  the same sum read with float4 loads: four times the bytes
 *                 per load instruction.
 *
 * Both exercises share the problem: sums[b] = sum over the floats of chunk
 * b, in double, one block per chunk and one chunk per SM.
 *
 * Graded by `make check lesson4` (build/grader check lesson4).
 */
#include "../spec.h"
#include "spec_macros.h"

enum { SUM_BLOCK = 256, SUM_ALIGN = 64 };

/* The launch is what makes the kernel latency-bound: one block of 256
 * threads per SM (8 warps of the 64 an SM can hold), so few loads are in
 * flight unless each thread issues several. The grid follows the GPU it
 * runs on: dev->sm_count blocks (132 on an H100).
 *
 * chunk = the elements per block, rounded up to a multiple of 64 floats, so
 * every chunk starts 256-byte aligned (a float4 view of it is legal). The
 * last blocks may get a short chunk or none at all (they write 0).
 *
 * Time size: 64 Mi floats, 256 MiB, five times the L2; the baseline takes
 * about a millisecond if it runs at the ~300 GB/s a one-load-at-a-time loop
 * reached in the H100 probe. The CPU reference is one pass (0.05 s). */
static void build_sums(instance *I, size_t size, const int *knobs, const device_facts *dev)
{
    (void)knobs;
    int n = (int)size;
    int blocks = dev->sm_count > 0 ? dev->sm_count : 1;
    int chunk = (n + blocks - 1) / blocks;
    chunk = (chunk + SUM_ALIGN - 1) / SUM_ALIGN * SUM_ALIGN;
    if (chunk == 0)
        chunk = SUM_ALIGN;

    float *x = inst_input(I, (size_t)n, ELEM_F32);
    double *sums = inst_output(I, (size_t)blocks, ELEM_F64);
    inst_arg_int(I, n);
    inst_arg_int(I, chunk);

    for (int e = 0; e < n; e++)
        x[e] = (float)inst_uniform(I, -1.0, 1.0);
    for (int b = 0; b < blocks; b++) {
        long begin = (long)b * chunk, end = begin + chunk < n ? begin + chunk : n;
        double s = 0.0;
        for (long e = begin; e < end; e++)
            s += x[e];
        sums[b] = s;
    }

    inst_launch(I, (unsigned)blocks, 1, 1, SUM_BLOCK, 1, 1, 0);
    inst_bytes_moved(I, 4.0 * n + 8.0 * blocks);
}

/* Correctness sizes: 1 (one block busy, the rest empty), 1000 (chunks of
 * 64, most blocks empty), 100003 and 1234567 (chunks that end mid-way through a
 * float4 and a round of UNROLL). Sums of floats in [-1, 1) accumulated in
 * double differ from the reference only by rounding (1e-10 or so), while a
 * value lost or counted twice moves a sum by about 0.5. */
#define SUM_SIZES {1, 1000, 100003, 1234567}
#define SUM_TIME ((size_t)64 << 20)

enum { UR_UNROLL }; /* a compile-time constant only: build_sums reads none */

static const exercise ex_unroll = {
    .lesson = 4,
    .name = "unroll",
    .title = "Unroll a latency-bound loop so several loads are in flight",
    .file = "lesson4/unroll.cu",
    .kernel = "block_sums",
    .explained_in = "lessons/lesson4-unrolling.md, sections \"One load at a time\" and \"Unrolling\"",
    .knobs = {
        [UR_UNROLL] = { .name = "UNROLL", .def = 8, .min = 1, .max = 32, .power_of_two = 1,
          .what = "loads each thread issues before using the first (1..32)" },
    },
    .check_sizes = SUM_SIZES,
    .size_means = "n, the length of x",
    .time_size = SUM_TIME,
    .build = build_sums,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-9,
    .atol = 1e-6,
    /* Roughly proportional to the loads in flight until the bandwidth is
     * reached. On the H100 (2026-11-23, grader/calibration/): 1.83x at UNROLL 2, 3.09x at 4, 4.80x at 8
     * (the default), 6.36x at 16; the bar came to 3.28x, so unrolling by 4
     * falls just short and the hint pushes further. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.6,
    .bar_floor = 2.0,
    .checks = {
        MAX_LOCAL_BYTES(0,
            "A per-thread array indexed by a value the compiler cannot resolve at "
            "compile time is placed in local memory, which lives in DRAM like global "
            "memory: every access is another slow load. Index such arrays only inside "
            "loops marked #pragma unroll with compile-time bounds, so each element "
            "becomes a register (lesson 4, \"Arrays that leave the registers\")."),
    },
};

static const exercise ex_vector_loads = {
    .lesson = 4,
    .name = "vector_loads",
    .title = "Read the same data with float4 loads",
    .file = "lesson4/vector_loads.cu",
    .kernel = "block_sums",
    .explained_in = "lessons/lesson4-unrolling.md, section \"Wider loads\"",
    .check_sizes = SUM_SIZES,
    .size_means = "n, the length of x",
    /* Without a GPU the largest size is the one whose data is watched
     * (rules/watch_rules.h): at 1234567 a block's chunk is 9 whole rounds of
     * float4 (9408 floats), at 100003 less than one (768), where a kernel
     * that reads whole rounds as float4 and the rest as scalars (as it may)
     * would read everything as scalars. */
    .sim_sizes = {1, 1000, 100003, 1234567, 0},
    .time_size = SUM_TIME,
    .build = build_sums,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-9,
    .atol = 1e-6,
    /* Four times the bytes per load in flight. On the H100 (2026-11-23, grader/calibration/): 3.21x,
     * bar 2.10x. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.8,
    .checks = {
        MIN_LOAD_BYTES(16, KNOCK_VECTOR,
            "This exercise asks for 4-wide loads of floats, 16 bytes per thread in one "
            "instruction (ld.global.v4.f32 or ld.global.nc.v4.f32 in the PTX): each load "
            "then keeps four times the bytes of a plain float load in flight (a float2 "
            "brings 8, twice). Read the data through a const float4 pointer "
            "(reinterpret_cast<const float4 *>(x + begin), which is 16-byte aligned here) "
            "(lesson 4, \"Wider loads\")."),
        MAX_LOCAL_BYTES(0,
            "The kernel uses local memory (a stack frame or spills): some per-thread "
            "data lives in DRAM. Keep the float4 in a plain local variable and index "
            "no array at run time (lesson 4, \"Arrays that leave the registers\")."),
    },
};

const exercise *const lesson4_exercises[] = { &ex_unroll, &ex_vector_loads, NULL };
