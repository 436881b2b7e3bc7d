/* test_limits.c: which resource a refused launch or module exceeds, and the
 * physical floor. Pure functions; the device facts are the H100's. */
#include <string.h>
#include "launch_limits.h"
#include "static_check.h"
#include "stats.h"
#include "suites.h"

static device_facts h100(void)
{
    device_facts d;
    calibration_device(&d);
    return d;
}

START_TEST(registers_are_allocated_per_warp)
{
    /* 255 registers round up to 256 per thread: 8192 per warp. */
    ck_assert_int_eq(block_registers(255, 256), 8 * 8192);
    ck_assert_int_eq(block_registers(32, 1), 32 * 32);
    ck_assert_int_eq(block_registers(33, 32), 40 * 32);
    ck_assert_int_eq(block_registers(64, 33), 2 * 64 * 32);
}
END_TEST

START_TEST(a_fitting_launch_is_not_refused)
{
    device_facts d = h100();
    kernel_limits kl = {.regs = 255, .smem_static = 48 * 1024, .max_threads = 256};
    char why[512] = "";
    /* 255 x 256 threads fill the register file exactly. */
    ck_assert_int_eq(launch_limit_broken(&kl, 256, 100 * 1024, &d, why, sizeof why), 0);
}
END_TEST

START_TEST(too_many_registers_names_both_numbers)
{
    device_facts d = h100();
    kernel_limits kl = {.regs = 128, .max_threads = 1024};
    char why[512];
    ck_assert_int_eq(launch_limit_broken(&kl, 1024, 0, &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "Registers: 128 per thread x 1024 threads"));
    ck_assert_ptr_nonnull(strstr(why, "131072"));
    ck_assert_ptr_nonnull(strstr(why, "65536"));
    ck_assert_ptr_nonnull(strstr(why, "__launch_bounds__(1024)"));
}
END_TEST

START_TEST(too_much_shared_memory_names_the_limit)
{
    device_facts d = h100();
    kernel_limits kl = {.regs = 16, .smem_static = 40000, .max_threads = 1024};
    char why[512];
    ck_assert_int_eq(launch_limit_broken(&kl, 128, 200000, &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "Shared memory"));
    ck_assert_ptr_nonnull(strstr(why, "240000 bytes per block"));
    ck_assert_ptr_nonnull(strstr(why, "232448"));
}
END_TEST

START_TEST(launch_bounds_below_the_block)
{
    device_facts d = h100();
    kernel_limits kl = {.regs = 16, .max_threads = 32};
    char why[512];
    ck_assert_int_eq(launch_limit_broken(&kl, 256, 0, &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "at most 32"));
    ck_assert_ptr_nonnull(strstr(why, "__launch_bounds__"));
}
END_TEST

START_TEST(too_many_threads_and_too_much_stack)
{
    device_facts d = h100();
    kernel_limits kl = {.regs = 8, .max_threads = 1024};
    char why[512];
    ck_assert_int_eq(launch_limit_broken(&kl, 2048, 0, &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "more than 1024 in one block"));
    kl.local_bytes = 600 * 1024;
    ck_assert_int_eq(launch_limit_broken(&kl, 64, 0, &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "Local memory"));
}
END_TEST

START_TEST(loader_log_shared_data)
{
    device_facts d = h100();
    char why[512];
    const char *log = "ptxas error   : Entry function 'k' uses too much shared data "
                      "(0x12c000 bytes, 0xc000 max)\n";
    ck_assert_int_eq(load_log_limit(log, &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "Shared memory: the kernel needs 1228800 bytes, and "
                                      "at most 49152"));
    ck_assert_int_eq(load_log_limit("ptxas fatal: something else", &d, why, sizeof why), 0);
    ck_assert_int_eq(load_log_limit(NULL, &d, why, sizeof why), 0);
    ck_assert_int_eq(load_log_limit("uses too much local data", &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "Local memory"));
}
END_TEST

START_TEST(occupancy_model)
{
    device_facts d = h100();
    kernel_limits kl = {.regs = 32, .max_threads = 1024};
    /* 256 threads, 32 registers: 8 blocks fill 2048 threads. */
    ck_assert_int_eq(blocks_per_sm_model(&kl, 256, 0, &d), 8);
    /* 64 registers: the register file holds 4. */
    kl.regs = 64;
    ck_assert_int_eq(blocks_per_sm_model(&kl, 256, 0, &d), 4);
    /* 100 KB of shared memory per block: 2. */
    kl.regs = 32;
    ck_assert_int_eq(blocks_per_sm_model(&kl, 256, 100 * 1024, &d), 2);
}
END_TEST

START_TEST(floor_is_bytes_over_bandwidth_and_margin)
{
    /* 1 GB (times the margin) at 1000 GB/s: 1 ms. */
    ck_assert_double_eq_tol(physical_floor_ms(1e9 * FLOOR_MARGIN, 1000), 1.0, 1e-12);
    ck_assert_double_eq(physical_floor_ms(0, 1000), 0);
    ck_assert_double_eq(physical_floor_ms(1e9, 0), 0);
    ck_assert(FLOOR_MARGIN >= 1.0);
}
END_TEST

Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("launch and load limits");
    tcase_add_test(tc, registers_are_allocated_per_warp);
    tcase_add_test(tc, a_fitting_launch_is_not_refused);
    tcase_add_test(tc, too_many_registers_names_both_numbers);
    tcase_add_test(tc, too_much_shared_memory_names_the_limit);
    tcase_add_test(tc, launch_bounds_below_the_block);
    tcase_add_test(tc, too_many_threads_and_too_much_stack);
    tcase_add_test(tc, loader_log_shared_data);
    tcase_add_test(tc, occupancy_model);
    tcase_add_test(tc, floor_is_bytes_over_bandwidth_and_margin);
    suite_add_tcase(s, tc);
    return s;
}
