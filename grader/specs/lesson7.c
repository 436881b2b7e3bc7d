/* Lesson 7's exercises: rolling prefetch into registers. The demo shows the
 * direct version, whose run-time ring index sends the ring to local memory;
 * the exercise keeps it in registers by unrolling by PDIST.
 *
 * Graded by `make check lesson7` (build/grader check lesson7).
 */
#include "../spec.h"
#include "spec_macros.h"
#include "prefetch_model.h"

enum { RL_BLOCKDIMX, RL_PDIST, RL_BLOCKS_PER_SM }; /* both exercises */

static void build_rolling(instance *I, size_t size, const int *knobs, const device_facts *dev)
{
    prefetch_model_build(I, size, knobs[RL_BLOCKDIMX], knobs[RL_PDIST], knobs[RL_BLOCKS_PER_SM],
                         dev);
}

#define LOCAL_WHY                                                                      \
    "The ring must stay in registers, and registers cannot be indexed at run time: an "  \
    "instruction names its registers when it is compiled. Indexed by ctr % PDIST, the "  \
    "ring goes to local memory (device memory behind L1), and each refill becomes a "    \
    "local store that waits for its global load: a full latency per iteration, as in "   \
    "the plain loop. Unroll the loop over the slots by PDIST so every ring index is a "  \
    "constant."

static const exercise rolling_direct = {
    .lesson = 7,
    .name = "rolling_direct",
    .title = "demo: the direct rolling prefetch into a register array (local memory)",
    .file = "lesson7/rolling_direct.cu",
    .kernel = "rolling_direct",
    /* A demo has no solution of its own: its row is timed next to the fix. */
    .reference = "lesson7/rolling_regs.cu",
    .reference_kernel = "rolling_regs",
    .explained_in = "lessons/lesson7-rolling-registers.md, section \"Where the ring really lives\"",
    .demo = 1,
    .knobs = {
        [RL_BLOCKDIMX] = PM_KNOB_BLOCKDIMX,
        [RL_PDIST] = PM_KNOB_PDIST,
        [RL_BLOCKS_PER_SM] = PM_KNOB_BLOCKS_PER_SM(1),
    },
    .check_sizes = PM_CHECK_SIZES,
    .size_means = "doubles asked for, in whole rounds per block",
    .sim_sizes = PM_SIM_SIZES,
    .time_size = PM_TIME_SIZE,
    .build = build_rolling,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-11,
    .atol = 1e-12,
    /* A demo has no reference solution: the bar is the floor alone, "at least
     * as fast as the plain loop", which this kernel misses (0.98x on the
     * H100, 2026-11-23); its mechanism checks fail in any case. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.0,
    .bar_floor = 1.0,
    .checks = {
        MAX_LOCAL_BYTES(0, LOCAL_WHY),
        PTX_LACKS("ld.local", LOCAL_WHY),
    },
};

static const exercise rolling_regs = {
    .lesson = 7,
    .name = "rolling_regs",
    .title = "a rolling prefetch into registers, unrolled so it stays in registers",
    .file = "lesson7/rolling_regs.cu",
    .kernel = "rolling_regs",
    .explained_in = "lessons/lesson7-rolling-registers.md, section \"Unroll by PDIST\"",
    .knobs = {
        [RL_BLOCKDIMX] = PM_KNOB_BLOCKDIMX,
        [RL_PDIST] = PM_KNOB_PDIST,
        [RL_BLOCKS_PER_SM] = PM_KNOB_BLOCKS_PER_SM(1),
    },
    .check_sizes = PM_CHECK_SIZES,
    .size_means = "doubles asked for, in whole rounds per block",
    .sim_sizes = PM_SIM_SIZES,
    .time_size = PM_TIME_SIZE,
    .build = build_rolling,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-11,
    .atol = 1e-12,
    /* On the H100 (2026-11-23, grader/calibration/): solution 4.43x at PDIST 8, bar 3.06x; the untouched
     * stub is the direct version, 0.98x. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.6,
    .bar_floor = 1.5,
    .checks = {
        MAX_LOCAL_BYTES(0, LOCAL_WHY),
        PTX_LACKS("ld.local", LOCAL_WHY),
    },
};

/* The demo first, so the report shows the problem before the fix. */
const exercise *const lesson7_exercises[] = { &rolling_direct, &rolling_regs, NULL };
