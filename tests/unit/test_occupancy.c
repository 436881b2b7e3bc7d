/* test_occupancy.c: the CPU occupancy calculator against known figures.
 *
 * "measured": what cudaOccupancyMaxActiveBlocksPerMultiprocessor said on the
 * NVIDIA H100 80GB HBM3 on 2026-11-23 for the course's kernels (the
 * resources records of the JSON reports in
 * grader/calibration/h100-2026-11-23/verify/).
 * "lesson 1": the figures lessons/lesson1-occupancy.md works out from the
 * H100's limits (its CH and SMEM_PAD_KB tables).
 * At the edges: the most threads and registers a block may have, the
 * shared memory each generation reserves per block, why a block does not
 * fit, in the calculator's own figures.
 *
 *   CK_RUN_SUITE=occupancy build/tests/unit_tests */
#include <string.h>
#include "occupancy.h"
#include "static_check.h"
#include "suites.h"

typedef struct known {
    const char *what;
    int threads, regs;
    size_t smem_static, smem_dynamic;
    int blocks, pct;
    enum occ_bound bound;
} known;

static const known figures[] = {
    /* measured */
    {"lesson1/shared_hog stub: a 48 KB tile", 128, 14, 49152, 0, 4, 25, BOUND_SHARED},
    {"lesson1/shared_hog solution", 128, 14, 520, 0, 16, 100, BOUND_THREADS},
    {"lesson1/register_hog stub: 146 registers", 256, 146, 0, 0, 1, 12, BOUND_REGISTERS},
    {"lesson1/register_hog solution", 256, 26, 0, 0, 8, 100, BOUND_THREADS},
    {"lesson3/bank_conflicts baseline", 1024, 38, 8192, 0, 1, 50, BOUND_REGISTERS},
    {"lesson3/bank_conflicts solution", 1024, 32, 8320, 0, 2, 100, BOUND_THREADS},
    {"lesson2/transpose solution", 256, 30, 4224, 0, 8, 100, BOUND_THREADS},
    {"lesson7/rolling_regs solution: 92 registers", 128, 92, 0, 0, 5, 31, BOUND_REGISTERS},
    {"lesson10/index_major solution", 128, 32, 9216, 0, 16, 100, BOUND_THREADS},
    {"lesson0/saxpy", 256, 14, 0, 0, 8, 100, BOUND_THREADS},
    /* lesson 1, CH table (256-thread blocks) */
    {"CH=16: 40 registers", 256, 40, 0, 0, 6, 75, BOUND_REGISTERS},
    {"CH=32: 72 registers", 256, 72, 0, 0, 3, 37, BOUND_REGISTERS},
    {"CH=48: 114 registers", 256, 114, 0, 0, 2, 25, BOUND_REGISTERS},
    {"CH=8: 32 registers", 256, 32, 0, 0, 8, 100, BOUND_THREADS},
    /* lesson 1, SMEM_PAD_KB table (26 registers, 256 threads) */
    {"SMEM_PAD_KB=28", 256, 26, 0, 28 << 10, 7, 87, BOUND_SHARED},
    {"SMEM_PAD_KB=32", 256, 26, 0, 32 << 10, 6, 75, BOUND_SHARED},
    {"SMEM_PAD_KB=40", 256, 26, 0, 40 << 10, 5, 62, BOUND_SHARED},
    {"SMEM_PAD_KB=48", 256, 26, 0, 48 << 10, 4, 50, BOUND_SHARED},
    {"SMEM_PAD_KB=64 (opted in above 48 KB)", 256, 26, 0, 64 << 10, 3, 37, BOUND_SHARED},
    {"SMEM_PAD_KB=100", 256, 26, 0, 100 << 10, 2, 25, BOUND_SHARED},
    {"SMEM_PAD_KB=120", 256, 26, 0, 120 << 10, 1, 12, BOUND_SHARED},
};

START_TEST(known_figures_on_h100)
{
    device_facts h100;
    calibration_device(&h100);
    const known *k = &figures[_i];
    occupancy o;
    ck_assert_int_eq(occupancy_compute(&h100, k->threads, k->regs, k->smem_static,
                                       k->smem_dynamic, &o), 0);
    ck_assert_msg(o.blocks_per_sm == k->blocks && o.pct == k->pct,
                  "%s: %d blocks (%d%%), expected %d (%d%%)", k->what, o.blocks_per_sm, o.pct,
                  k->blocks, k->pct);
    ck_assert_msg(o.bound == k->bound, "%s: bound by %s, expected %s", k->what,
                  occ_bound_name(o.bound), occ_bound_name(k->bound));
}
END_TEST

START_TEST(blocks_that_do_not_fit)
{
    device_facts h100;
    calibration_device(&h100);
    occupancy o;
    /* More threads than a block may have. */
    ck_assert_int_eq(occupancy_compute(&h100, 2048, 16, 0, 0, &o), 0);
    ck_assert_int_eq(o.blocks_per_sm, 0);
    ck_assert_int_eq(o.bound, BOUND_NO_FIT);
    ck_assert_ptr_nonnull(strstr(o.why, "2048 threads"));
    /* 1024 threads x 128 registers = 131072 > 65536. */
    ck_assert_int_eq(occupancy_compute(&h100, 1024, 128, 0, 0, &o), 0);
    ck_assert_int_eq(o.bound, BOUND_NO_FIT);
    ck_assert_ptr_nonnull(strstr(o.why, "registers"));
    /* Dynamic shared memory over the opt-in maximum (227 KB on an H100). */
    ck_assert_int_eq(occupancy_compute(&h100, 128, 16, 0, 228 << 10, &o), 0);
    ck_assert_int_eq(o.bound, BOUND_NO_FIT);
    ck_assert_ptr_nonnull(strstr(o.why, "shared memory"));
    /* Static 40 KB plus 16 KB dynamic: over the 48 KB a block gets without
     * opting in, which the grader does only for dynamic memory over 48 KB. */
    ck_assert_int_eq(occupancy_compute(&h100, 128, 16, 40 << 10, 16 << 10, &o), 0);
    ck_assert_int_eq(o.blocks_per_sm, 0);
    /* Exactly the opt-in maximum fits, once. */
    ck_assert_int_eq(occupancy_compute(&h100, 128, 16, 0, h100.smem_per_block_optin, &o), 0);
    ck_assert_int_eq(o.blocks_per_sm, 1);
}
END_TEST

START_TEST(unknown_generation)
{
    device_facts dev;
    calibration_device(&dev);
    dev.cc = 20;   /* Fermi: not a generation the calculator knows */
    occupancy o;
    ck_assert_int_eq(occupancy_compute(&dev, 128, 16, 0, 0, &o), -1);
    ck_assert_int_eq(o.blocks_per_sm, 0);
}
END_TEST

/* The facts of two other generations, as cudaGetDeviceProperties gives
 * them: an A100 (8.0, where the driver starts to reserve 1 KB of shared
 * memory per block) and a T4 (7.5, which reserves none). */
static device_facts a100(void)
{
    device_facts d;
    calibration_device(&d);
    d.cc = 80;
    d.sm_count = 108;
    d.smem_per_sm = 167936;
    d.smem_per_block_optin = 166912;
    return d;
}

static device_facts t4(void)
{
    device_facts d;
    calibration_device(&d);
    d.cc = 75;
    d.sm_count = 40;
    d.max_threads_per_sm = 1024;
    d.max_blocks_per_sm = 16;
    d.smem_per_sm = 65536;
    d.smem_per_block_optin = 65536;
    return d;
}

static const known edges[] = {
    {"1024 threads: a block's most", 1024, 16, 0, 0, 2, 100, BOUND_THREADS},
    {"1 thread", 1, 16, 0, 0, 32, 50, BOUND_BLOCKS},
    {"32 threads: the SM's 32 blocks bind", 32, 16, 0, 0, 32, 50, BOUND_BLOCKS},
    {"65 threads: 3 warps a block", 65, 16, 0, 0, 21, 98, BOUND_THREADS},
    {"255 x 256 fills a block's 65536 registers", 256, 255, 0, 0, 1, 12, BOUND_REGISTERS},
    {"64 x 1024 fills them too", 1024, 64, 0, 0, 1, 50, BOUND_REGISTERS},
    {"48 KB of __shared__ arrays", 128, 16, 49152, 0, 4, 25, BOUND_SHARED},
    {"48 KB dynamic, not opted in", 128, 16, 0, 49152, 4, 25, BOUND_SHARED},
    {"56 KB dynamic and 1 KB reserved: 4 in 228 KB", 128, 16, 0, 57344, 4, 25, BOUND_SHARED},
    {"a byte more: 3", 128, 16, 0, 57345, 3, 18, BOUND_SHARED},
    {"the opt-in maximum less 1 KB", 128, 16, 0, 232448 - 1024, 1, 6, BOUND_SHARED},
};

START_TEST(figures_at_the_edges_on_h100)
{
    device_facts h100;
    calibration_device(&h100);
    const known *k = &edges[_i];
    occupancy o;
    memset(&o, 0x5a, sizeof o);
    ck_assert_int_eq(occupancy_compute(&h100, k->threads, k->regs, k->smem_static,
                                       k->smem_dynamic, &o), 0);
    ck_assert_msg(o.blocks_per_sm == k->blocks && o.pct == k->pct && o.bound == k->bound,
                  "%s: %d blocks (%d%%) bound by %s, expected %d (%d%%) by %s", k->what,
                  o.blocks_per_sm, o.pct, occ_bound_name(o.bound), k->blocks, k->pct,
                  occ_bound_name(k->bound));
    ck_assert_str_eq(o.why, "");
}
END_TEST

START_TEST(the_shared_memory_each_generation_reserves)
{
    occupancy o;
    /* An A100 reserves 1 KB a block: 167936 / (33536 + 1024) = 4.86. */
    device_facts d = a100();
    ck_assert_int_eq(occupancy_compute(&d, 128, 16, 0, 33536, &o), 0);
    ck_assert_int_eq(o.blocks_per_sm, 4);
    ck_assert_int_eq(occupancy_compute(&d, 128, 16, 0, 32512, &o), 0);
    ck_assert_int_eq(o.blocks_per_sm, 5);
    /* A T4 none: 64 KB hold four blocks of 16 KB. */
    d = t4();
    ck_assert_int_eq(occupancy_compute(&d, 128, 16, 16384, 0, &o), 0);
    ck_assert_int_eq(o.blocks_per_sm, 4);
    ck_assert_int_eq(o.pct, 50);
    ck_assert_int_eq(o.bound, BOUND_SHARED);
    ck_assert_int_eq(occupancy_compute(&d, 256, 16, 0, 0, &o), 0);
    ck_assert_int_eq(o.blocks_per_sm, 4);
    ck_assert_int_eq(o.pct, 100);
}
END_TEST

START_TEST(a_block_uses_one_barrier)
{
    /* From Hopper on, the calculator counts the block barriers a block
     * uses (__syncthreads: one); on a 12.0 GPU (an RTX 5090) there are as
     * many as resident blocks, so one each leaves its 24 blocks. */
    device_facts d;
    calibration_device(&d);
    d.cc = 120;
    d.sm_count = 170;
    d.max_threads_per_sm = 1536;
    d.smem_per_sm = 102400;
    d.smem_per_block_optin = 101376;
    occupancy o;
    ck_assert_int_eq(occupancy_compute(&d, 32, 16, 0, 0, &o), 0);
    ck_assert_int_eq(o.blocks_per_sm, 24);
    ck_assert_int_eq(o.pct, 50);
    ck_assert_int_eq(o.bound, BOUND_BLOCKS);
    ck_assert_int_eq(occupancy_compute(&d, 64, 16, 0, 0, &o), 0);
    ck_assert_int_eq(o.blocks_per_sm, 24);
    ck_assert_int_eq(o.pct, 100);
}
END_TEST

START_TEST(why_a_block_does_not_fit)
{
    device_facts h100;
    calibration_device(&h100);
    occupancy o;
    ck_assert_int_eq(occupancy_compute(&h100, 1025, 16, 0, 0, &o), 0);
    ck_assert_int_eq(o.bound, BOUND_NO_FIT);
    ck_assert_int_eq(o.blocks_per_sm, 0);
    ck_assert_int_eq(o.pct, 0);
    ck_assert_str_eq(o.why, "a block of 1025 threads is more than the 1024 a block may have");
    ck_assert_int_eq(occupancy_compute(&h100, 1024, 65, 0, 0, &o), 0);
    ck_assert_str_eq(o.why, "1024 threads x 65 registers is more than the 65536 registers a "
                            "block may have");
    /* Without opting in (dynamic memory up to 48 KB), 48 KB a block. */
    ck_assert_int_eq(occupancy_compute(&h100, 128, 16, 1024, 49152, &o), 0);
    ck_assert_int_eq(o.bound, BOUND_NO_FIT);
    ck_assert_str_eq(o.why, "a block asks for 50176 bytes of shared memory; a block may have "
                            "at most 49152");
    ck_assert_int_eq(occupancy_compute(&h100, 128, 16, 49153, 0, &o), 0);
    ck_assert_str_eq(o.why, "a block asks for 49153 bytes of shared memory; a block may have "
                            "at most 49152");
    /* Opted in: the GPU's maximum. */
    ck_assert_int_eq(occupancy_compute(&h100, 128, 16, 0, 228 << 10, &o), 0);
    ck_assert_str_eq(o.why, "a block asks for 233472 bytes of shared memory; a block may have "
                            "at most 232448");
    /* A GPU whose SM holds fewer threads than the block has. */
    device_facts small = h100;
    small.max_threads_per_sm = 512;
    ck_assert_int_eq(occupancy_compute(&small, 1024, 16, 0, 0, &o), 0);
    ck_assert_int_eq(o.bound, BOUND_NO_FIT);
    ck_assert_str_eq(o.why, "no block fits on an SM");
}
END_TEST

START_TEST(no_threads_no_figure)
{
    device_facts h100;
    calibration_device(&h100);
    occupancy o;
    for (int t = -1; t <= 0; t++) {
        memset(&o, 0x5a, sizeof o);
        ck_assert_int_eq(occupancy_compute(&h100, t, 16, 0, 0, &o), -1);
        ck_assert_int_eq(o.blocks_per_sm, 0);
        ck_assert_int_eq(o.pct, 0);
        ck_assert_int_eq(o.bound, BOUND_UNKNOWN);
        ck_assert_str_eq(o.why, "");
    }
    /* A generation the calculator does not know: out is zeroed. */
    h100.cc = 20;
    memset(&o, 0x5a, sizeof o);
    ck_assert_int_eq(occupancy_compute(&h100, 128, 16, 0, 0, &o), -1);
    ck_assert_int_eq(o.bound, BOUND_UNKNOWN);
    ck_assert_int_eq(o.pct, 0);
}
END_TEST

START_TEST(what_binds_in_words)
{
    ck_assert_str_eq(occ_bound_name(BOUND_THREADS), "the SM's thread slots");
    ck_assert_str_eq(occ_bound_name(BOUND_BLOCKS), "the SM's limit on resident blocks");
    ck_assert_str_eq(occ_bound_name(BOUND_REGISTERS), "registers");
    ck_assert_str_eq(occ_bound_name(BOUND_SHARED), "shared memory");
    ck_assert_str_eq(occ_bound_name(BOUND_NO_FIT), "a block that does not fit");
    ck_assert_str_eq(occ_bound_name(BOUND_UNKNOWN), "unknown");
}
END_TEST

/* The occupancy of a launch: its blocks over the SMs, capped by what the
 * resources allow (issue 26: one block per SM read 100%, lesson 5 says
 * 6.25%). On the H100's 132 SMs and 64 warp slots. */
START_TEST(occupancy_of_a_launch)
{
    static const struct {
        long blocks;
        int threads, allowed, want_blocks, want_pct;
    } cases[] = {
        {132, 128, 16, 1, 6},           /* lesson 5: one 4-warp block per SM */
        {132, 1024, 2, 1, 50},
        {133, 128, 16, 2, 12},          /* one SM gets two: rounded up */
        {528, 128, 16, 4, 25},          /* lesson 10: 4 blocks per SM */
        {262144, 128, 4, 4, 25},        /* many blocks: the resources bind */
        {262144, 256, 8, 8, 100},
        {1, 256, 8, 1, 12},             /* fewer blocks than SMs: one on the busiest */
        {0, 256, 8, 0, 0},
        {132, 100, 16, 1, 6},           /* a partial warp takes a whole slot */
        {132, 128, 0, 0, 0},            /* nothing fits */
    };
    device_facts h100;
    calibration_device(&h100);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        int b = -7;
        int pct = occupancy_of_launch(&h100, cases[k].blocks, cases[k].threads,
                                      cases[k].allowed, &b);
        ck_assert_msg(pct == cases[k].want_pct && b == cases[k].want_blocks,
                      "%ld blocks of %d, %d allowed: %d per SM, %d%%", cases[k].blocks,
                      cases[k].threads, cases[k].allowed, b, pct);
    }
    /* Missing figures: -1, and no blocks. */
    int b = -7;
    ck_assert_int_eq(occupancy_of_launch(&h100, 132, 0, 4, &b), -1);
    ck_assert_int_eq(b, 0);
    ck_assert_int_eq(occupancy_of_launch(&h100, 132, 128, -1, &b), -1);
    device_facts none = h100;
    none.sm_count = 0;
    ck_assert_int_eq(occupancy_of_launch(&none, 132, 128, 4, &b), -1);
}
END_TEST

Suite *occupancy_suite(void)
{
    Suite *s = suite_create("occupancy");
    TCase *tc = tcase_create("h100");
    tcase_add_loop_test(tc, known_figures_on_h100, 0, (int)(sizeof figures / sizeof *figures));
    tcase_add_test(tc, blocks_that_do_not_fit);
    tcase_add_test(tc, unknown_generation);
    tcase_add_loop_test(tc, figures_at_the_edges_on_h100, 0, (int)(sizeof edges / sizeof *edges));
    tcase_add_test(tc, the_shared_memory_each_generation_reserves);
    tcase_add_test(tc, a_block_uses_one_barrier);
    tcase_add_test(tc, why_a_block_does_not_fit);
    tcase_add_test(tc, no_threads_no_figure);
    tcase_add_test(tc, what_binds_in_words);
    tcase_add_test(tc, occupancy_of_a_launch);
    suite_add_tcase(s, tc);
    return s;
}
