/* Lesson 8's exercises: rolling prefetch into shared memory with ordinary
 * loads. It is correct and teaches the ring, but it does not pay: the store
 * to shared memory waits for its load in the same iteration. So the exercise
 * asks for the mechanism (the ring in shared memory) and for the speed of the
 * reference, not for a gain over the baseline.
 *
 * Graded by `make check lesson8` (build/grader check lesson8).
 */
#include "../spec.h"
#include "spec_macros.h"
#include "prefetch_model.h"

static const exercise rolling_smem = {
    .lesson = 8,
    .name = "rolling_smem",
    .title = "a rolling prefetch into shared memory (synchronous loads)",
    .file = "lesson8/rolling_smem.cu",
    .kernel = "rolling_smem",
    .explained_in = "lessons/lesson8-rolling-shared.md, section \"The rolling buffer\"",
    .knobs = PM_KNOBS_PADDED_BUFFER,
    .check_sizes = PM_CHECK_SIZES,
    .size_means = "doubles asked for, in whole rounds per block",
    .sim_sizes = PM_SIM_SIZES,
    .time_size = PM_TIME_SIZE,
    .build = pm_build_padded_buffer,   /* prefetch_model.h: shared with lesson 6 */
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-11,
    .atol = 1e-12,
    /* On the H100 (2026-11-23) the reference gained only about 12% over the
     * plain loop, steadily (noise under 0.5%): ask for the reference's speed
     * within 5%, which the plain loop (1.12x the reference's time) misses. */
    .bar = BAR_MATCH_SOLUTION,
    .bar_share = 0.05,
    .bar_floor = 0.0,
    .checks = {
        SMEM_BYTES_RING(pm_smem_padded_last, KNOCK_SHARED, pm_wait_ring, "PDIST - 1",
            "The exercise is the ring in shared memory: PDIST slots for each of the BLOCKDIMX "
            "threads, plus PADDING unused ones (0 unless you set the knob; lesson 10), "
            "__shared__ double buf[(PDIST + PADDING) * BLOCKDIMX], read at slot ctr % PDIST and "
            "refilled with the element PDIST iterations ahead. Build it even though it will "
            "not be faster: lesson 9 makes the same ring pay."),
        MAX_LOCAL_BYTES(0,
            "The kernel uses local memory (device memory): keep the ring in the shared "
            "array, not in a per-thread array."),
    },
};

const exercise *const lesson8_exercises[] = { &rolling_smem, NULL };
