/* Lesson 11's exercises: prefetching into L2 (lessons/lesson11-l2-prefetch.md).
 *
 *   make check lesson11                  both exercises
 *   make check lesson11 ONLY=short_ring  one of them
 *
 *   l2_prefetch  11a: the plain model loop plus prefetch.global.L2, L2DIST
 *                iterations ahead: no register, no shared memory
 *   short_ring   11b: lesson 10b's asynchronous ring cut to PDIST = 2 slots
 *                (all the shared memory the kernel affords), plus the same
 *                prefetch further ahead: the case NVIDIA (2022) name, shared
 *                memory too small for the data worth prefetching
 *
 * Both run the model loop of lessons 5-10 (prefetch_model.h) at one block of
 * 128 threads per SM. prefetch.global.L2 exists on every GPU the course
 * supports; 11b's ring uses cp.async, compute capability 8.0.
 */
#include "../spec.h"
#include "spec_macros.h"
#include "prefetch_model.h"

#define L2_KNOB_L2DIST(def_)                                                           \
    { .name = "L2DIST", .def = (def_), .min = 1, .max = 64,                            \
      .what = "L2 prefetch distance: iterations (BLOCKDIMX doubles of the block) ahead" }

enum { LP_BLOCKDIMX, LP_L2DIST, LP_BLOCKS_PER_SM }; /* 11a */

static void build_l2_prefetch(instance *I, size_t size, const int *knobs,
                              const device_facts *dev)
{
    prefetch_model_build(I, size, knobs[LP_BLOCKDIMX], 1, knobs[LP_BLOCKS_PER_SM], dev);
}

static long no_smem(const int *knobs)
{
    (void)knobs;
    return 0;
}

#define PF_WHY                                                                         \
    "The exercise is the prefetch into L2: the PTX instruction prefetch.global.L2 "    \
    "for the element L2DIST iterations ahead, from inline assembly (asm volatile("    \
    "\"prefetch.global.L2 [%0];\" :: \"l\"(__cvta_generic_to_global(p)))) or from "   \
    "libcu++ (cuda::apply_access_property(p, 128, cuda::access_property::normal{}) "  \
    "from <cuda/annotated_ptr>, which emits prefetch.global.L2::evict_normal per "    \
    "128-byte line on compute capability 8.0 and newer, and nothing on older GPUs; "  \
    "not access_property::persisting, whose evict_last asks L2 to keep lines this "  \
    "loop reads only once). It must run for the stream, and ahead: the thread "       \
    "must issue other loads between a line's prefetch and its first load (in 11b, "      \
    "the ring's copies load PDIST iterations ahead, so L2DIST must exceed PDIST + 1)."

static const exercise l2_prefetch = {
    .lesson = 11,
    .name = "l2_prefetch",
    .title = "11a: prefetch into L2 with no register and no shared memory",
    .file = "lesson11/l2_prefetch.cu",
    .kernel = "l2_prefetch",
    .explained_in = "lessons/lesson11-l2-prefetch.md, sections \"Prefetching into L2\" and "
                    "\"One prefetch per line\"",
    .knobs = {
        [LP_BLOCKDIMX] = PM_KNOB_BLOCKDIMX,
        [LP_L2DIST] = L2_KNOB_L2DIST(4),
        [LP_BLOCKS_PER_SM] = PM_KNOB_BLOCKS_PER_SM(1),
    },
    .check_sizes = PM_CHECK_SIZES,
    .size_means = "doubles asked for, in whole rounds per block",
    .sim_sizes = PM_SIM_SIZES,
    .time_size = PM_TIME_SIZE,
    .build = build_l2_prefetch,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-11,
    .atol = 1e-12,
    /* Calibration: ten gradings on an NVIDIA H100 80GB HBM3, 2026-11-23
     * (grader/calibration/h100-2026-11-23-c.md, raw reports in
     * h100-2026-11-23-c/repeat/). The plain loop (the baseline) 0.905-0.908
     * ms; the reference, one line prefetch per 16 threads at L2DIST 4,
     * 0.577-0.580 ms, 1.57x in all ten; the bar 1.34x; the untouched stub
     * 1.00x and MECHANISM 10 of 10 (no prefetch.global.L2). The probe that
     * chose the share (h100-2026-11-23-b/lessons/l11.tsv) measured the same
     * prefetch at 1.585x at L2DIST 2 and 4, 1.569x at 32: the bar stays well
     * under the reference at any short distance. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.6,
    .bar_floor = 1.25,
    .checks = {
        /* The knock-out run (knockout_run.c) asks that the prefetches cover
         * a fifth of the input's lines and that at least half of the lines
         * they cover be prefetched before the thread's load count reaches
         * the line's first load: distance 0, behind, or L2DIST elements
         * ahead (tests/gpu/gaming/prefetch_now, prefetch_behind,
         * tests/gpu/faulty/l2dist_elements) get MECHANISM. */
        PTX_HAS("prefetch.global.L2", KNOCK_PREFETCH, PF_WHY),
        SMEM_BYTES(no_smem, KNOCK_NONE,
            "This exercise keeps the data out of shared memory: the prefetch into L2 is the "
            "one that needs none. A ring in shared memory is lessons 8-10 (and exercise 11b)."),
        MAX_REGS(32,
            "The prefetch into L2 costs almost no register: the plain loop needs 20, the "
            "reference with the prefetch 24 on an H100. More than 32 means values are being "
            "held in registers, a ring or an unrolled batch (lessons 5 and 7), which is not "
            "what this exercise measures."),
        MAX_LOCAL_BYTES(0,
            "The kernel uses local memory (device memory): keep the loop as it was and only "
            "add the prefetch."),
    },
};

enum { SR_BLOCKDIMX, SR_PDIST, SR_L2DIST, SR_BLOCKS_PER_SM }; /* 11b */
_Static_assert((int)SR_BLOCKDIMX == (int)PM_K_BLOCKDIMX && (int)SR_PDIST == (int)PM_K_PDIST,
               "pm_smem_pdist_blockdimx reads BLOCKDIMX and PDIST first");

static void build_short_ring(instance *I, size_t size, const int *knobs,
                             const device_facts *dev)
{
    prefetch_ring_build(I, size, knobs[SR_BLOCKDIMX], knobs[SR_PDIST], knobs[SR_BLOCKS_PER_SM],
                        dev);
}

static const exercise short_ring = {
    .lesson = 11,
    .name = "short_ring",
    .title = "11b: a two-slot ring in shared memory, fed from L2",
    .file = "lesson11/short_ring.cu",
    .kernel = "short_ring",
    .explained_in = "lessons/lesson11-l2-prefetch.md, section \"Two levels\"",
    .min_cc = 80,
    .knobs = {
        [SR_BLOCKDIMX] = PM_KNOB_BLOCKDIMX,
        [SR_PDIST] = { .name = "PDIST", .def = 2, .min = 1, .max = 16,
          .what = "slots per thread in the shared-memory ring: as many as the kernel affords" },
        [SR_L2DIST] = L2_KNOB_L2DIST(8),
        [SR_BLOCKS_PER_SM] = PM_KNOB_BLOCKS_PER_SM(1),
    },
    .check_sizes = PM_RING_CHECK_SIZES,
    .size_means = "doubles asked for, in whole rounds per block",
    .sim_sizes = PM_SIM_SIZES,
    .time_size = PM_TIME_SIZE,
    .build = build_short_ring,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-11,
    .atol = 1e-12,
    /* Calibration: ten gradings on an NVIDIA H100 80GB HBM3, 2026-11-23
     * (grader/calibration/h100-2026-11-23-c.md, raw reports in
     * h100-2026-11-23-c/repeat/). The PDIST 2 ring (the baseline) 0.411-0.412
     * ms; the reference, the same ring plus a line prefetch 8 ahead,
     * 0.246-0.248 ms, 1.66-1.67x; the bar 1.40x; the untouched stub 1.00x
     * and MECHANISM 10 of 10 (no prefetch.global.L2). The probe that chose
     * the share (h100-2026-11-23-b/lessons/l11.tsv) measured 1.64x at
     * L2DIST 8 and 16, 1.62x at 32, and about the same with 192 KiB of the
     * SM's shared memory taken by a launch argument the kernel never
     * touched: 2.19x the plain loop for the ring, 3.57x with the prefetch
     * at L2DIST 32. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.6,
    .bar_floor = 1.25,
    .checks = {
        /* As 11a's; here the line's first load is the ring's cp.async, so
         * the prefetch is ahead only when L2DIST > PDIST + 1 (the copy of
         * iteration j + 1 comes right after the prefetch of iteration j). */
        PTX_HAS("prefetch.global.L2", KNOCK_PREFETCH, PF_WHY),
        SMEM_BYTES_RING(pm_smem_pdist_blockdimx, KNOCK_SHARED, pm_wait_ring, "PDIST - 1",
            "The ring must stay PDIST * BLOCKDIMX doubles: in this exercise the rest of the "
            "shared memory belongs to other data. A longer ring would be faster, and that is "
            "lesson 10; here the distance beyond PDIST has to come from L2."),
        PTX_HAS("cp.async", KNOCK_ASYNC,
            "Keep the ring's asynchronous copies (__pipeline_memcpy_async): the prefetch into "
            "L2 feeds them, it does not replace them."),
        MAX_LOCAL_BYTES(0,
            "The kernel uses local memory (device memory): keep the ring in the shared array."),
    },
};

const exercise *const lesson11_exercises[] = { &l2_prefetch, &short_ring, NULL };
