/* Lesson 5's exercises: prefetching in batches into registers.
 *
 * Graded by `make check lesson5` (build/grader check lesson5). */
#include "../spec.h"
#include "spec_macros.h"
#include "prefetch_model.h"

enum { BR_BLOCKDIMX, BR_BLOCKS_PER_SM };

/* The batch is four named registers, so every thread's iteration count is
 * made a multiple of 4. */
static void build_batched_regs(instance *I, size_t size, const int *knobs,
                               const device_facts *dev)
{
    prefetch_model_build(I, size, knobs[BR_BLOCKDIMX], 4, knobs[BR_BLOCKS_PER_SM], dev);
}

static const exercise batched_regs = {
    .lesson = 5,
    .name = "batched_regs",
    .title = "prefetch four elements at a time into named registers",
    .file = "lesson5/batched_regs.cu",
    .kernel = "batched_regs",
    .explained_in = "lessons/lesson5-batched-registers.md, section \"Batches of four in named registers\"",
    .knobs = {
        [BR_BLOCKDIMX] = PM_KNOB_BLOCKDIMX,
        [BR_BLOCKS_PER_SM] = PM_KNOB_BLOCKS_PER_SM(1),
    },
    .check_sizes = PM_CHECK_SIZES,
    .size_means = "doubles asked for, in whole rounds per block",
    .sim_sizes = PM_SIM_SIZES,
    .time_size = PM_TIME_SIZE,
    .build = build_batched_regs,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-11,
    .atol = 1e-12,
    /* On the H100 (2026-11-23, grader/calibration/): solution 2.03x, bar 1.62x; the untouched stub is the
     * baseline (1.00x). */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.6,
    .bar_floor = 1.3,
    .checks = {
        MAX_LOCAL_BYTES(0,
            "The batch must live in registers. An array indexed by a value known only at "
            "run time (v[ctr % 4]) cannot: an instruction names its registers when it is "
            "compiled, so the compiler moves the array to local memory, which is device "
            "memory, and every use becomes a memory access again. Use four named variables "
            "and a switch on ctr % 4 (lesson 7 comes back to this)."),
    },
};

const exercise *const lesson5_exercises[] = { &batched_regs, NULL };
