/* test_limits.c: which resource a refused launch or module exceeds (each at
 * its edge, each message in full), the blocks an SM holds by the limits
 * alone, the calibration GPU's facts, and the physical floor. Pure
 * functions; the device facts are the H100's.
 *
 *   CK_RUN_SUITE=limits build/tests/unit_tests */
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
    /* 249 x 32 = 7968 rounds up to 8192 per warp, not down to 7936: the
     * rounding unit is 256 exactly. */
    ck_assert_int_eq(block_registers(249, 32), 8192);
    ck_assert_int_eq(block_registers(249, 512), 16 * 8192);
}
END_TEST

START_TEST(a_refusal_counts_whole_allocation_units)
{
    device_facts d = h100();
    kernel_limits kl = {.regs = 249, .max_threads = 1024};
    char why[512];
    /* 16 warps of 8192 registers: 131072, twice the H100's 65536. */
    ck_assert_int_eq(launch_limit_broken(&kl, 512, 0, &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "249 per thread x 512 threads take 131072 registers"));
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

START_TEST(each_limit_at_its_edge)
{
    device_facts d = h100();
    kernel_limits kl = {.regs = 16, .max_threads = 1024};
    char why[600] = "";
    /* Threads: 1024 run, 1025 never. */
    ck_assert_int_eq(launch_limit_broken(&kl, 1024, 0, &d, why, sizeof why), 0);
    ck_assert_int_eq(launch_limit_broken(&kl, 1025, 0, &d, why, sizeof why), 1);
    ck_assert_str_eq(why, "Threads: the launch has 1025 threads per block; no NVIDIA GPU runs "
                          "more than 1024 in one block.");
    /* Shared memory: static and dynamic together, up to the opt-in maximum. */
    kl.smem_static = 1000;
    ck_assert_int_eq(launch_limit_broken(&kl, 128, 231448, &d, why, sizeof why), 0);
    ck_assert_int_eq(launch_limit_broken(&kl, 128, 231449, &d, why, sizeof why), 1);
    ck_assert_str_eq(why, "Shared memory: 1000 bytes of __shared__ arrays plus 231449 bytes of "
                          "dynamic shared memory make 232449 bytes per block, more than the "
                          "232448 bytes one block may have on this GPU. Use smaller tiles or "
                          "buffers.");
    kl.smem_static = 0;
    /* Registers: 64 x 1024 fill the register file, 65 do not fit. */
    kl.regs = 64;
    ck_assert_int_eq(launch_limit_broken(&kl, 1024, 0, &d, why, sizeof why), 0);
    kl.regs = 65;
    ck_assert_int_eq(launch_limit_broken(&kl, 1024, 0, &d, why, sizeof why), 1);
    ck_assert_str_eq(why, "Registers: 65 per thread x 1024 threads take 73728 registers per "
                          "block (allocated per warp, in units of 256), more than the 65536 of "
                          "an SM's register file. Use fewer registers per thread: "
                          "__launch_bounds__(1024) makes the compiler fit a block of 1024.");
    kl.regs = 16;
    /* __launch_bounds__: as many threads as it allows, not one more. */
    kl.max_threads = 256;
    ck_assert_int_eq(launch_limit_broken(&kl, 256, 0, &d, why, sizeof why), 0);
    ck_assert_int_eq(launch_limit_broken(&kl, 257, 0, &d, why, sizeof why), 1);
    ck_assert_str_eq(why, "Threads: the launch has 257 threads per block, but this kernel can "
                          "run at most 256: its __launch_bounds__ allows fewer threads than the "
                          "exercise launches. Raise the first number of __launch_bounds__ to at "
                          "least 257.");
    kl.max_threads = 1;
    ck_assert_int_eq(launch_limit_broken(&kl, 2, 0, &d, why, sizeof why), 1);
    kl.max_threads = 0;     /* not known: not a limit */
    ck_assert_int_eq(launch_limit_broken(&kl, 1024, 0, &d, why, sizeof why), 0);
    /* The stack: 512 KB a thread. */
    kl.local_bytes = 512 * 1024;
    ck_assert_int_eq(launch_limit_broken(&kl, 64, 0, &d, why, sizeof why), 0);
    kl.local_bytes++;
    ck_assert_int_eq(launch_limit_broken(&kl, 64, 0, &d, why, sizeof why), 1);
    ck_assert_str_eq(why, "Local memory: the kernel's stack frame is 524289 bytes per thread, "
                          "more than the 524288 a thread may have. A large local array is the "
                          "usual cause: keep it in shared memory or make it smaller.");
}
END_TEST

START_TEST(a_limit_the_device_does_not_give_is_not_checked)
{
    device_facts d = h100();
    d.smem_per_block_optin = 0;
    d.regs_per_sm = 0;
    kernel_limits kl = {.regs = 255, .smem_static = 48 * 1024, .max_threads = 1024};
    char why[600] = "";
    ck_assert_int_eq(launch_limit_broken(&kl, 1024, 1 << 20, &d, why, sizeof why), 0);
    /* The first limit broken is the one told. */
    d = h100();
    kl.local_bytes = 1 << 20;
    ck_assert_int_eq(launch_limit_broken(&kl, 2048, 1 << 20, &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "Threads: the launch has 2048"));
    ck_assert_int_eq(launch_limit_broken(&kl, 1024, 1 << 20, &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "Shared memory:"));
    ck_assert_int_eq(launch_limit_broken(&kl, 1024, 0, &d, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "Registers:"));
}
END_TEST

START_TEST(loader_logs_of_every_limit)
{
    device_facts d = h100();
    char why[600];
    static const struct {
        const char *log, *why;
    } logs[] = {
        {"ptxas error   : Entry function 'k' uses too much local data (0x100000 bytes, "
         "0x80000 max)",
         "Local memory: the kernel needs 1048576 bytes, and at most 524288 are allowed (too "
         "much local data). A large local array is the usual cause: make it smaller or keep it "
         "in shared memory."},
        {"too much parameter space (32784 bytes, 4096 max)",
         "Kernel parameters: the kernel needs 32784 bytes, and at most 4096 are allowed (too "
         "much parameter space). Pass large data through a device array, not by value."},
        {"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: too many resources requested for launch",
         "Registers: the kernel asks for more than this GPU allows (too many resources). Use "
         "fewer registers per thread, or fewer threads per block."},
        {"uses too much local data",
         "Local memory: the kernel asks for more than this GPU allows (too much local data). A "
         "large local array is the usual cause: make it smaller or keep it in shared memory."},
        {"uses too much shared data",
         "Shared memory: the kernel asks for more than this GPU allows (too much shared data); "
         "a block may have at most 232448 bytes, and __shared__ arrays at most 49152 of them. "
         "Use smaller __shared__ arrays, or dynamic shared memory sized at launch."},
        /* Both named: shared memory is told first. */
        {"too much local data (0x10 bytes, 0x8 max)\ntoo much shared data (0x20 bytes, 0x8 max)",
         "Shared memory: the kernel needs 32 bytes, and at most 8 are allowed (too much shared "
         "data). Use smaller __shared__ arrays, or dynamic shared memory sized at launch."},
    };
    for (size_t i = 0; i < sizeof logs / sizeof *logs; i++) {
        ck_assert_int_eq(load_log_limit(logs[i].log, &d, why, sizeof why), 1);
        ck_assert_str_eq(why, logs[i].why);
    }
    /* Without the GPU's opt-in maximum, shared memory is told plainly. */
    d.smem_per_block_optin = 0;
    ck_assert_int_eq(load_log_limit("too much shared data", &d, why, sizeof why), 1);
    ck_assert_str_eq(why, "Shared memory: the kernel asks for more than this GPU allows (too "
                          "much shared data). Use smaller __shared__ arrays, or dynamic shared "
                          "memory sized at launch.");
}
END_TEST

START_TEST(the_two_numbers_or_none)
{
    /* Only "(USED bytes, MAX max)" gives numbers; anything else is told
     * without them. */
    device_facts d = h100();
    d.smem_per_block_optin = 0;
    char why[600];
    static const char *const shapes[] = {
        "too much shared data 0x20 bytes, 0x8 max",
        "too much shared data ( bytes, 8 max)",
        "too much shared data (32 bytes; 8 max)",
        "too much shared data (32 bytes,x8 max)",
        "too much shared data (32 bytes, max)",
        "too much shared data (32 bytes,  8 max)",
        "too much shared data (32 bytes, 8 max)",
    };
    for (int i = 0; i < 7; i++) {
        ck_assert_int_eq(load_log_limit(shapes[i], &d, why, sizeof why), 1);
        int numbers = strstr(why, "needs 32 bytes, and at most 8 are allowed") != NULL;
        ck_assert_msg(numbers == (i >= 5), "\"%s\": %s", shapes[i], why);
        /* Without both numbers, no number at all (not a 0 for the missing
         * one): the text says so in words. */
        int worded = strstr(why, "asks for more than this GPU allows") != NULL;
        ck_assert_msg(worded == (i < 5), "\"%s\": %s", shapes[i], why);
    }
}
END_TEST

START_TEST(blocks_an_sm_holds_at_the_edges)
{
    device_facts d = h100();
    kernel_limits kl = {.regs = 16, .max_threads = 1024};
    ck_assert_int_eq(blocks_per_sm_model(&kl, 0, 0, &d), 0);
    ck_assert_int_eq(blocks_per_sm_model(&kl, 32, 0, &d), 32);      /* the SM's 32 blocks */
    ck_assert_int_eq(blocks_per_sm_model(&kl, 65, 0, &d), 21);      /* 3 warps a block */
    ck_assert_int_eq(blocks_per_sm_model(&kl, 1024, 0, &d), 2);
    kl.regs = 0;                                                    /* not known: no limit */
    ck_assert_int_eq(blocks_per_sm_model(&kl, 256, 0, &d), 8);
    kl.regs = 255;
    ck_assert_int_eq(blocks_per_sm_model(&kl, 256, 0, &d), 1);
    ck_assert_int_eq(blocks_per_sm_model(&kl, 512, 0, &d), 0);      /* does not fit */
    kl.regs = 16;
    kl.smem_static = 1000;
    ck_assert_int_eq(blocks_per_sm_model(&kl, 128, 232448 - 1000, &d), 1);
    ck_assert_int_eq(blocks_per_sm_model(&kl, 128, 0, &d), 16);
    /* An SM without shared memory runs no block that uses a byte of it. */
    d.smem_per_sm = 0;
    kl.smem_static = 1;
    ck_assert_int_eq(blocks_per_sm_model(&kl, 128, 0, &d), 0);
}
END_TEST

START_TEST(the_calibration_gpu_is_an_h100)
{
    /* NVIDIA's figures for the H100 SXM5 (compute capability 9.0). */
    device_facts d;
    memset(&d, 0x5a, sizeof d);
    calibration_device(&d);
    ck_assert_str_eq(d.name, "NVIDIA H100 80GB HBM3 (assumed, no GPU here)");
    ck_assert_int_eq(d.cc, 90);
    ck_assert_int_eq(d.sm_count, 132);
    ck_assert_int_eq(d.max_threads_per_sm, 2048);
    ck_assert_int_eq(d.max_blocks_per_sm, 32);
    ck_assert_int_eq(d.regs_per_sm, 65536);
    ck_assert_int_eq(d.smem_per_sm, 228 * 1024);
    ck_assert_int_eq(d.smem_per_block_optin, 227 * 1024);
    ck_assert_int_eq(d.l2_bytes, 50 * 1024 * 1024);
    ck_assert_int_eq(d.global_mem_bytes, 80ull << 30);
}
END_TEST

Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("launch and load limits");
    tcase_add_test(tc, registers_are_allocated_per_warp);
    tcase_add_test(tc, a_refusal_counts_whole_allocation_units);
    tcase_add_test(tc, a_fitting_launch_is_not_refused);
    tcase_add_test(tc, too_many_registers_names_both_numbers);
    tcase_add_test(tc, too_much_shared_memory_names_the_limit);
    tcase_add_test(tc, launch_bounds_below_the_block);
    tcase_add_test(tc, too_many_threads_and_too_much_stack);
    tcase_add_test(tc, loader_log_shared_data);
    tcase_add_test(tc, occupancy_model);
    tcase_add_test(tc, floor_is_bytes_over_bandwidth_and_margin);
    tcase_add_test(tc, each_limit_at_its_edge);
    tcase_add_test(tc, a_limit_the_device_does_not_give_is_not_checked);
    tcase_add_test(tc, loader_logs_of_every_limit);
    tcase_add_test(tc, the_two_numbers_or_none);
    tcase_add_test(tc, blocks_an_sm_holds_at_the_edges);
    tcase_add_test(tc, the_calibration_gpu_is_an_h100);
    suite_add_tcase(s, tc);
    return s;
}
