/* test_pipeline.c: every verdict of the grading pipeline, on the host
 * backend (no GPU): PASS, PASS*, SLOW (and remeasuring near the bar),
 * MECHANISM, each bar kind, constants, and the ways grading stops early:
 * CRASH, HANG, RESOURCES, INTERNAL, MISSING, COMPILE, NO GPU, SKIPPED.
 * Kernels that try to get past a rule are in test_cheats.c. */
#include <cuda_runtime_api.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "child.h"
#include "pipeline.h"
#include "static_check.h"
#include "suites.h"

/* ---- honest kernels: the speed verdicts -------------------------------- */

static double t_student;

static void axpy_timed(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = t_student;
}

static void grade_axpy_at(double ms, result *r)
{
    t_student = ms;
    use_kernels(&t_axpy, axpy_timed);
    grade_host(&t_axpy, 0, r);
}

START_TEST(fast_enough_passes)
{
    result r;
    grade_axpy_at(0.012, &r);   /* 3.33x against a bar of 2.5x */
    expect(&r, OUT_PASS, "Correct, and fast enough");
    ck_assert_int_eq(r.timed, 1);
    ck_assert_double_eq_tol(r.speedup, T_BASE / 0.012, 1e-9);
    ck_assert_double_eq_tol(r.bar, 2.5, 1e-9);
    ck_assert_double_eq_tol(r.copy_gbps, 1000, 1e-9);
    ck_assert_int_eq(r.remeasured, 0);
    ck_assert_int_ge(r.time[V_STUDENT].reps, 20);
}
END_TEST

START_TEST(slow_is_slow)
{
    result r;
    grade_axpy_at(0.030, &r);   /* 1.33x */
    expect(&r, OUT_SLOW, "not fast enough");
    ck_assert_double_eq_tol(r.speedup, T_BASE / 0.030, 1e-9);
}
END_TEST

/* Within the noise band of the bar: measured again twice, then the plain
 * rule decides: at or over the bar passes, under it does not. */
START_TEST(just_over_the_bar_passes_after_remeasuring)
{
    result r;
    grade_axpy_at(T_BASE / 2.51, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.remeasured, 2);
}
END_TEST

START_TEST(just_under_the_bar_is_slow_after_remeasuring)
{
    result r;
    grade_axpy_at(T_BASE / 2.49, &r);
    expect(&r, OUT_SLOW, NULL);
    ck_assert_int_eq(r.remeasured, 2);
}
END_TEST

START_TEST(reference_under_the_floor_is_ungraded)
{
    result r;
    t_solution = 0.035;         /* 1.14x: the technique does not pay here */
    grade_axpy_at(0.030, &r);
    t_solution = 0.010;
    expect(&r, OUT_PASS_UNTIMED, "cannot be graded on this GPU");
}
END_TEST

START_TEST(bandwidth_bar)
{
    exercise ex = t_axpy;
    ex.bar = BAR_BANDWIDTH;
    ex.bar_share = 0.4;         /* 400 of the backend's 1000 GB/s */
    result r;
    t_solution = 12.0 * 4096 / 800e9 * 1e3;  /* the reference: 800 GB/s */
    t_student = 12.0 * 4096 / 500e9 * 1e3;   /* 500 GB/s */
    use_kernels(&ex, axpy_timed);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_PASS, "50% of this GPU's copy bandwidth");
    t_student = 12.0 * 4096 / 300e9 * 1e3;   /* 300 GB/s */
    grade_host(&ex, 0, &r);
    t_solution = 0.010;
    expect(&r, OUT_SLOW, "30% of this GPU's copy bandwidth");
}
END_TEST

/* The latency is measured for a latency-bound exercise only, and reaches
 * the result with the SM count the report divides by. */
START_TEST(latency_measured_where_latency_bound)
{
    result r;
    t_student = 0.012;
    use_kernels(&t_axpy, axpy_timed);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_double_eq(r.latency_ns, 0);
    ck_assert_int_eq(r.sm_count, 132);

    exercise ex = t_axpy;
    ex.latency_bound = 1;
    use_kernels(&ex, axpy_timed);
    ck_assert_double_eq_tol(r.copy_gbps, 1000, 1e-9);
    host_set_latency(480);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_double_eq_tol(r.latency_ns, 480, 1e-9);
    ck_assert_int_eq(r.sm_count, 132);
    /* 12 bytes per element at the timing size 4096, in 0.012 ms. */
    ck_assert_double_eq_tol(r.time[V_STUDENT].gbps, 12.0 * 4096 / 0.012e-3 / 1e9, 1e-9);

    use_kernels(&ex, axpy_timed);
    ck_assert_double_eq(HOST_LATENCY_NS, 600);
    grade_host(&ex, 0, &r);
    ck_assert_double_eq_tol(r.latency_ns, 600, 1e-9);
}
END_TEST

START_TEST(match_solution_bar)
{
    exercise ex = t_axpy;
    ex.bar = BAR_MATCH_SOLUTION;
    ex.bar_share = 0.1;         /* up to 1.1x the reference's time */
    result r;
    t_student = 0.0105;
    use_kernels(&ex, axpy_timed);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_PASS, "1.05x the time of the reference");
    t_student = 0.013;
    grade_host(&ex, 0, &r);
    expect(&r, OUT_SLOW, "1.30x the time of the reference");
}
END_TEST

/* ---- mechanisms: the fake compile's PTX and resources ------------------ */

START_TEST(missing_mechanism_is_named_with_the_speed)
{
    exercise ex = t_axpy;
    ex.checks[0] = (mech_check){CHECK_PTX_HAS, "ld.global.v4", 0, 0, "Load four at once."};
    ex.checks[1] = (mech_check){CHECK_MAX_REGS, NULL, 40, 0, "Keep registers low."};
    result r;
    t_student = 0.012;
    use_kernels(&ex, axpy_timed);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_MECHANISM, "the PTX has no 'ld.global.v4' instruction");
    ck_assert_ptr_nonnull(strstr(r.message, "Speed: your kernel ran at 3.33x"));
    ck_assert_str_eq(r.failed_check, "Load four at once.");

    host_module m = student_module(&ex, axpy_timed);
    m.ptx = "ld.global.v4.f32";
    m.res.regs = 64;
    host_add(&m);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_MECHANISM, "64 registers per thread; at most 40");

    m.res.regs = 40;
    host_add(&m);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.res[V_STUDENT].regs, 40);
    ck_assert_int_eq(r.res[V_STUDENT].occupancy_pct, 75);  /* 6 blocks of 256 */
    /* The occ column: the timed launch's 16 blocks on 132 SMs, one per SM. */
    ck_assert_int_eq(r.res[V_STUDENT].launch_blocks_per_sm, 1);
    ck_assert_int_eq(r.res[V_STUDENT].launch_occupancy_pct, 12);
}
END_TEST

/* The occ column reports the launch that is timed, not the small ones
 * that check correctness: 396 blocks of 256 on 132 SMs are 3 per SM
 * (37%), where the checks' single block is 1. */
START_TEST(occupancy_of_the_timed_launch)
{
    exercise ex = t_axpy;
    ex.time_size = 256 * 132 * 3;
    result r;
    t_student = 0.012;
    use_kernels(&ex, axpy_timed);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.res[V_STUDENT].launch_blocks_per_sm, 3);
    ck_assert_int_eq(r.res[V_STUDENT].launch_occupancy_pct, 37);
    ck_assert_int_eq(r.res[V_BASELINE].launch_blocks_per_sm, 3);
}
END_TEST

/* ---- constant memory --------------------------------------------------- */

static void table_student(host_call *c) { table_range(c, student_coef, 0.012); }

START_TEST(constants_reach_every_launch)
{
    /* Every instance has its own table: a copy made once would be wrong
     * from the second size on. */
    result r;
    use_kernels(&t_table, table_student);
    grade_host(&t_table, 0, &r);
    expect(&r, OUT_PASS, NULL);
}
END_TEST

START_TEST(missing_constant_is_named)
{
    result r;
    use_kernels(&t_table, table_student);
    host_module m = student_module(&t_table, table_student);
    m.globals[0].symbol = "coefs";
    host_add(&m);
    grade_host(&t_table, 0, &r);
    expect(&r, OUT_MISSING, "no __constant__ variable named 'coef'");

    m.globals[0] = (host_global){.symbol = "coef", .at = student_coef, .bytes = 32};
    host_add(&m);
    grade_host(&t_table, 0, &r);
    expect(&r, OUT_WRONG, "declares the __constant__ variable 'coef' with 32 bytes");

    use_kernels(&t_table, table_student);
    host_module s = solution_module(&t_table, table_solution);
    s.globals[0].symbol = NULL;
    host_add(&s);
    grade_host(&t_table, 0, &r);
    expect(&r, OUT_INTERNAL, "bug in the course");
}
END_TEST

/* ---- grading stops early ----------------------------------------------- */

static void faults(host_call *c) { c->fault = cudaErrorIllegalAddress; }
static void segfaults(host_call *c) { (void)c; raise(SIGSEGV); }
static void never_ends(host_call *c) { c->ms = 1e9; }

START_TEST(device_fault_is_a_crash)
{
    result r;
    use_kernels(&t_axpy, faults);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_CRASH, "memory it does not own");
    ck_assert_ptr_nonnull(strstr(r.message, "While running your kernel at size 1"));
    ck_assert_ptr_nonnull(strstr(r.detail, "failing call"));
}
END_TEST

START_TEST(dying_child_is_a_crash)
{
    result r;
    use_kernels(&t_axpy, segfaults);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_CRASH, "died from signal 11");
    ck_assert_ptr_nonnull(strstr(r.message, "running your kernel at size 1"));
}
END_TEST

START_TEST(endless_launch_is_a_hang)
{
    result r;
    use_kernels(&t_axpy, never_ends);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_HANG, "the launch did not finish within 5 s");
}
END_TEST

static void stuck(host_call *c)
{
    (void)c;
    for (;;)
        pause();
}

START_TEST(stuck_child_is_a_hang)
{
    result r;
    int knobs[MAX_KNOBS] = {0};
    grade_opts o = {.root = ".", .student_dir = "student", .seed = 1, .launch_timeout_s = 5,
                    .time_budget_s = 0.02, .device = &device_host};
    use_kernels(&t_axpy, stuck);
    grade_in_child(&t_axpy, knobs, &o, 1, &r);
    expect(&r, OUT_HANG, "Grading did not finish within 1 s");
    ck_assert_ptr_nonnull(strstr(r.message, "running your kernel at size 1"));
}
END_TEST

START_TEST(refused_launches_name_the_resource)
{
    result r;
    use_kernels(&t_axpy, axpy_timed);
    host_module m = student_module(&t_axpy, axpy_timed);
    m.max_threads = 32;
    host_add(&m);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_RESOURCES, "the GPU refused the launch");
    ck_assert_ptr_nonnull(strstr(r.message, "__launch_bounds__"));

    m.max_threads = 0;
    m.res.regs = 128;
    host_add(&m);
    grade_host(&t_axpy, 1024, &r);
    expect(&r, OUT_RESOURCES, "Registers: 128 per thread x 1024 threads");

    m.res.regs = 32;
    m.res.smem_static = 300000;
    host_add(&m);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_RESOURCES, "Shared memory: 300000 bytes");
}
END_TEST

START_TEST(unloadable_module_names_the_resource)
{
    result r;
    use_kernels(&t_axpy, axpy_timed);
    host_module m = student_module(&t_axpy, axpy_timed);
    m.load_log = "ptxas error   : Entry function 'axpy' uses too much shared data "
                 "(0x12c000 bytes, 0xc000 max)";
    host_add(&m);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_RESOURCES, "Shared memory: the kernel needs 1228800 bytes");

    m.load_log = "something the loader did not like";
    host_add(&m);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_INTERNAL, "would not load the compiled kernel");
    ck_assert_ptr_nonnull(strstr(r.detail, "something the loader did not like"));
}
END_TEST

static void axpy_wrong(host_call *c)
{
    axpy_args A = axpy_of(c);
    for (int i = 0; i < A.n; i++)
        A.z[i] = A.a * A.x[i] - A.y[i];
}

START_TEST(broken_reference_is_internal)
{
    result r;
    use_kernels(&t_axpy, axpy_timed);
    host_module s = solution_module(&t_axpy, axpy_wrong);
    host_add(&s);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_INTERNAL, "The reference solution computed");
    ck_assert_ptr_nonnull(strstr(r.message, "bug in the course"));
}
END_TEST

static int spec_broken;

static void broken_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    axpy_build(I, n, knobs, dev);
    if (spec_broken && n == 4096)
        inst_launch(I, 0, 1, 1, 256, 1, 1, 0);
}

START_TEST(broken_spec_is_internal)
{
    exercise ex = t_axpy;
    ex.build = broken_build;
    result r;
    spec_broken = 1;
    use_kernels(&ex, axpy_timed);
    grade_host(&ex, 0, &r);
    spec_broken = 0;
    expect(&r, OUT_INTERNAL, "The exercise's spec is broken: build() set a zero grid");
}
END_TEST

START_TEST(missing_and_uncompilable_files)
{
    result r;
    use_kernels(&t_axpy, axpy_timed);
    host_module m = student_module(&t_axpy, axpy_timed);
    m.path = "student/t/other.cu";
    host_reset();
    host_module s = solution_module(&t_axpy, axpy_timed);
    host_add(&s);
    host_add(&m);
    grade_host(&t_axpy, 0, &r);
    /* The baseline is looked for first: the course's file is missing. */
    expect(&r, OUT_INTERNAL, "did not build");

    use_kernels(&t_axpy, axpy_timed);
    m = student_module(&t_axpy, axpy_timed);
    m.path = "student/t/other.cu";
    host_add(&m);
    host_module none = student_module(&t_axpy, axpy_timed);
    none.kernel = "saxpy";
    host_add(&none);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_MISSING, "has no kernel named 'axpy'");

    none.kernel = "axpy";
    none.compile_log = "student/t/axpy.cu(3): error: identifier \"q\" is undefined";
    host_add(&none);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_COMPILE_ERROR, "student/t/axpy.cu does not compile");
    ck_assert_ptr_nonnull(strstr(r.detail, "identifier \"q\" is undefined"));
}
END_TEST

START_TEST(no_gpu_and_old_gpu)
{
    result r;
    use_kernels(&t_axpy, axpy_timed);
    host_set_device(NULL, 0);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_NO_GPU, "No usable GPU");

    exercise ex = t_axpy;
    ex.min_cc = 100;
    use_kernels(&ex, axpy_timed);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_UNSUPPORTED, "compute capability 10.0 or newer");
}
END_TEST

/* ---- the registry, for the rules that rest on it ----------------------- */

/* Rotating input sets mean something only if another seed gives other
 * inputs; the floor only if the spec says how many bytes move. */
START_TEST(every_spec_rotates_and_has_a_floor)
{
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED);
    ck_assert_int_gt(n, 0);
    device_facts dev;
    calibration_device(&dev);
    for (int e = 0; e < n; e++) {
        const exercise *ex = all[e];
        int knobs[MAX_KNOBS] = {0};
        for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
            knobs[k] = ex->knobs[k].def;
        instance a, b;
        size_t size = ex->check_sizes[0];
        ck_assert_int_eq(instance_build(&a, ex, size, knobs, &dev, 1000), 0);
        ck_assert_int_eq(instance_build(&b, ex, size, knobs, &dev, 1001), 0);
        int differ = 0;
        for (int i = 0; i < a.nbufs; i++)
            if (!a.bufs[i].is_output)
                differ |= memcmp(a.bufs[i].host, b.bufs[i].host,
                                 a.bufs[i].count * elem_size(a.bufs[i].type)) != 0;
        ck_assert_msg(differ, "lesson%d/%s: two seeds give the same inputs, so rotating "
                      "timing sets would not change them", ex->lesson, ex->name);
        ck_assert_msg(a.bytes_moved > 0, "lesson%d/%s: no inst_bytes_moved, so no "
                      "physical floor", ex->lesson, ex->name);
        instance_free(&a);
        instance_free(&b);
    }
}
END_TEST

Suite *pipeline_suite(void)
{
    Suite *s = suite_create("pipeline");
    TCase *tc = tcase_create("speed verdicts");
    tcase_add_test(tc, fast_enough_passes);
    tcase_add_test(tc, slow_is_slow);
    tcase_add_test(tc, just_over_the_bar_passes_after_remeasuring);
    tcase_add_test(tc, just_under_the_bar_is_slow_after_remeasuring);
    tcase_add_test(tc, reference_under_the_floor_is_ungraded);
    tcase_add_test(tc, bandwidth_bar);
    tcase_add_test(tc, match_solution_bar);
    tcase_add_test(tc, latency_measured_where_latency_bound);
    tcase_add_test(tc, missing_mechanism_is_named_with_the_speed);
    tcase_add_test(tc, occupancy_of_the_timed_launch);
    tcase_add_test(tc, constants_reach_every_launch);
    tcase_add_test(tc, missing_constant_is_named);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("grading stops early");
    tcase_add_test(tc, device_fault_is_a_crash);
    tcase_add_test(tc, dying_child_is_a_crash);
    tcase_add_test(tc, endless_launch_is_a_hang);
    tcase_add_test(tc, stuck_child_is_a_hang);
    tcase_add_test(tc, refused_launches_name_the_resource);
    tcase_add_test(tc, unloadable_module_names_the_resource);
    tcase_add_test(tc, broken_reference_is_internal);
    tcase_add_test(tc, broken_spec_is_internal);
    tcase_add_test(tc, missing_and_uncompilable_files);
    tcase_add_test(tc, no_gpu_and_old_gpu);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("registry");
    tcase_add_test(tc, every_spec_rotates_and_has_a_floor);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
