/* test_occupancy.c: the CPU occupancy calculator against known figures.
 *
 * "measured": what cudaOccupancyMaxActiveBlocksPerMultiprocessor said on the
 * NVIDIA H100 80GB HBM3 on 2026-11-23 for the course's kernels (the
 * resources records of the JSON reports in
 * grader/calibration/h100-2026-11-23/verify/).
 * "lesson 1": the figures lessons/lesson1-occupancy.md works out from the
 * H100's limits (its CH and SMEM_PAD_KB tables). */
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

Suite *occupancy_suite(void)
{
    Suite *s = suite_create("occupancy");
    TCase *tc = tcase_create("h100");
    tcase_add_loop_test(tc, known_figures_on_h100, 0, (int)(sizeof figures / sizeof *figures));
    tcase_add_test(tc, blocks_that_do_not_fit);
    tcase_add_test(tc, unknown_generation);
    suite_add_tcase(s, tc);
    return s;
}
