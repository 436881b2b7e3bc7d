/* Lesson 6's exercises: prefetching in batches into shared memory.
 *
 * Graded by `make check lesson6` (build/grader check lesson6). */
#include "../spec.h"
#include "spec_macros.h"
#include "prefetch_model.h"

static const exercise batched_smem = {
    .lesson = 6,
    .name = "batched_smem",
    .title = "prefetch PDIST elements at a time into shared memory",
    .file = "lesson6/batched_smem.cu",
    .kernel = "batched_smem",
    .explained_in = "lessons/lesson6-batched-shared.md, section \"A batch in shared memory\"",
    .knobs = PM_KNOBS_PADDED_BUFFER,
    .check_sizes = PM_CHECK_SIZES,
    .size_means = "doubles asked for, in whole rounds per block",
    .sim_sizes = PM_SIM_SIZES,
    .time_size = PM_TIME_SIZE,
    .build = pm_build_padded_buffer,   /* prefetch_model.h: shared with lesson 8 */
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-11,
    .atol = 1e-12,
    /* On the H100 (2026-11-23, grader/calibration/): solution 2.12x at PDIST 8, bar 1.67x; the untouched
     * stub is the baseline. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.6,
    .bar_floor = 1.3,
    .checks = {
        SMEM_BYTES_RING(pm_smem_padded_last, KNOCK_SHARED, pm_wait_batch, "(PDIST - 1) / 2",
            "The batch belongs in shared memory: PDIST doubles for each of the BLOCKDIMX "
            "threads, plus PADDING unused ones (0 unless you set the knob; lesson 10), "
            "__shared__ double buf[(PDIST + PADDING) * BLOCKDIMX]. An array in shared memory "
            "can be indexed at run time (slot ctr % PDIST), which is what lets PDIST be a knob "
            "instead of lines of code."),
        MAX_LOCAL_BYTES(0,
            "The kernel uses local memory: per-thread device memory, as slow as the array you "
            "are prefetching from. Keep the batch in the shared array, not in a per-thread "
            "array."),
    },
};

const exercise *const lesson6_exercises[] = { &batched_smem, NULL };
