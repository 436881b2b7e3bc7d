/* Lesson 10's exercises: bank conflicts in the prefetch buffer of lesson 9.
 * Launched with 4 blocks per SM, where the thread-major buffer's conflicts
 * cost real time. 10a pads the buffer; 10b changes the index scheme and keeps
 * the buffer at exactly PDIST * BLOCKDIMX doubles.
 *
 * Graded by `make check lesson10` (build/grader check lesson10).
 */
#include "../spec.h"
#include "spec_macros.h"
#include "prefetch_model.h"

/* Both use lesson 9's asynchronous ring, so both check at the stress
 * instance (prefetch_model.h). At the default 4 blocks per SM it is the
 * plain instance; it matters when a student sets BLOCKS_PER_SM lower. */

enum { PD_BLOCKDIMX, PD_PDIST, PD_PADDING, PD_BLOCKS_PER_SM }; /* 10a */
_Static_assert((int)PD_PDIST == (int)PM_K_PDIST, "pm_wait_ring reads PDIST second");

static void build_padded(instance *I, size_t size, const int *knobs, const device_facts *dev)
{
    prefetch_ring_build(I, size, knobs[PD_BLOCKDIMX], knobs[PD_PDIST], knobs[PD_BLOCKS_PER_SM],
                        dev);
}

static long smem_padded(const int *knobs)
{
    return 8L * knobs[PD_BLOCKDIMX] * (knobs[PD_PDIST] + knobs[PD_PADDING]);
}

enum { IM_BLOCKDIMX, IM_PDIST, IM_BLOCKS_PER_SM }; /* 10b */
_Static_assert((int)IM_BLOCKDIMX == (int)PM_K_BLOCKDIMX && (int)IM_PDIST == (int)PM_K_PDIST,
               "pm_smem_pdist_blockdimx reads BLOCKDIMX and PDIST first");

static void build_index_major(instance *I, size_t size, const int *knobs,
                              const device_facts *dev)
{
    prefetch_ring_build(I, size, knobs[IM_BLOCKDIMX], knobs[IM_PDIST], knobs[IM_BLOCKS_PER_SM],
                        dev);
}

#define CP_ASYNC_WHY                                                                   \
    "Keep lesson 9's asynchronous copies (__pipeline_memcpy_async, cp.async in PTX): "  \
    "this lesson changes only where each slot lives in shared memory."

static const exercise padded = {
    .lesson = 10,
    .name = "padded",
    .title = "10a: pad the thread-major prefetch buffer against bank conflicts",
    .file = "lesson10/padded.cu",
    .kernel = "rolling_async",
    .explained_in = "lessons/lesson10-bank-conflicts.md, section \"Fix 1: padding\"",
    .min_cc = 80,
    .knobs = {
        [PD_BLOCKDIMX] = PM_KNOB_BLOCKDIMX,
        [PD_PDIST] = PM_KNOB_PDIST,
        [PD_PADDING] = PM_KNOB_PADDING(1),
        [PD_BLOCKS_PER_SM] = PM_KNOB_BLOCKS_PER_SM(4),
    },
    .check_sizes = PM_RING_CHECK_SIZES,
    .size_means = "doubles asked for, in whole rounds per block",
    .sim_sizes = PM_SIM_SIZES,
    .time_size = PM_TIME_SIZE,
    .build = build_padded,
    .ncu_no_bank_conflicts = 1,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-11,
    .atol = 1e-12,
    /* On the H100 at 4 blocks/SM, PDIST 8 (2026-11-23): the unpadded buffer
     * (the stub) reached about 1.6x, the padded solution about 2.3x. A share
     * of 0.7 puts the bar near 1.9x, clear of both. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.7,
    .bar_floor = 1.4,
    .checks = {
        SMEM_BYTES_RING(smem_padded, KNOCK_SHARED, pm_wait_ring, "PDIST - 1",
            "Each thread gets PDIST + PADDING slots and uses the first PDIST, so the buffer "
            "is (PDIST + PADDING) * BLOCKDIMX doubles. The unused slots push each thread's "
            "slots onto other banks: with PDIST = 8 and PADDING = 1 the threads of a warp are "
            "9 doubles apart, an odd stride, so 16 threads reach 16 different pairs of banks."),
        PTX_HAS("cp.async", KNOCK_ASYNC, CP_ASYNC_WHY),
    },
};

static const exercise index_major = {
    .lesson = 10,
    .name = "index_major",
    .title = "10b: the padded speed without padding, by changing the index scheme",
    .file = "lesson10/index_major.cu",
    .kernel = "rolling_async",
    .explained_in = "lessons/lesson10-bank-conflicts.md, section \"Fix 2: change the index scheme\"",
    .min_cc = 80,
    .knobs = {
        [IM_BLOCKDIMX] = PM_KNOB_BLOCKDIMX,
        [IM_PDIST] = PM_KNOB_PDIST,
        [IM_BLOCKS_PER_SM] = PM_KNOB_BLOCKS_PER_SM(4),
    },
    .check_sizes = PM_RING_CHECK_SIZES,
    .size_means = "doubles asked for, in whole rounds per block",
    .sim_sizes = PM_SIM_SIZES,
    .time_size = PM_TIME_SIZE,
    .build = build_index_major,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-11,
    .atol = 1e-12,
    /* "As fast as the padded buffer, within noise": timed against 10a's
     * padded solution, not against the index-major answer. The untouched stub
     * is the unpadded buffer; on the H100 (2026-11-23) it took about 1.4x the
     * padded kernel's time, the index-major answer about 0.97x. */
    .reference = "lesson10/padded.cu",
    .ncu_no_bank_conflicts = 1,
    .bar = BAR_MATCH_SOLUTION,
    .bar_share = 0.1,
    .bar_floor = 0.0,
    .checks = {
        SMEM_BYTES_RING(pm_smem_pdist_blockdimx, KNOCK_SHARED, pm_wait_ring, "PDIST - 1",
            "The point of 10b is to need no padding: the buffer must be exactly PDIST * "
            "BLOCKDIMX doubles. Change where slot k of a thread lives instead, so that the "
            "threads of a warp reading their slot k touch consecutive doubles."),
        PTX_HAS("cp.async", KNOCK_ASYNC, CP_ASYNC_WHY),
    },
};

const exercise *const lesson10_exercises[] = { &padded, &index_major, NULL };
