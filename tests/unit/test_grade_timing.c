/* test_grade_timing.c: how many timing rounds grading runs (grade_time.c's
 * warm-up sizes them from what one round costs: the budget over the round,
 * at least 20, or 5 for a round over a second, at most 120) and what it
 * records from them (each version's time and bandwidth, the speedups, the
 * measure and the bar, whether the reference clears it, exactly at the
 * line included). The host backend's times are simulated, so a round of
 * a second costs no second. test_verdicts.c holds the verdicts they lead to.
 * And the other facts grade.c records: the knobs, Nsight Compute's counts,
 * the resources (read at the smallest size), each version's entry point.
 *
 *   CK_RUN_SUITE=grade_timing build/tests/unit_tests */
#include <math.h>
#include <string.h>
#include <time.h>
#include "child.h"
#include "pipeline.h"
#include "suites.h"

static double ms_of[N_VARIANTS];

static void run_at(host_call *c, enum variant v)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = ms_of[v];
}
static void base_k(host_call *c) { run_at(c, V_BASELINE); }
static void stu_k(host_call *c) { run_at(c, V_STUDENT); }
static void ref_k(host_call *c) { run_at(c, V_SOLUTION); }

static void timed(const exercise *ex, double base, double stu, double ref, double budget,
                  result *r)
{
    ms_of[V_BASELINE] = base, ms_of[V_STUDENT] = stu, ms_of[V_SOLUTION] = ref;
    use_three(ex, base_k, ref_k, stu_k);
    grade_opts o = host_opts();
    o.time_budget_s = budget;
    grade_host_opts(ex, &o, r);
    ck_assert_msg(r->timed, "%s: %s", outcome_word(r->outcome), r->message);
}

/* Rounds: the budget over one round's cost (the three launches' times),
 * within [20, 120]; a round over a second: at least 5. */
START_TEST(rounds_fill_the_budget)
{
    static const struct { double base, stu, ref, budget; int rounds; } t[] = {
        {200, 100, 50, 20.0, 57},       /* 0.35 s a round */
        {200, 100, 50, 0.0, 20},        /* none fit: the least */
        {0.04, 0.02, 0.01, 1.5, 120},   /* thousands fit: the most */
        {600, 300, 150, 1.5, 5},        /* over a second a round */
        {600, 300, 150, 14.0, 13},
        {500, 250, 250, 1.5, 20},       /* exactly a second: still 20 */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        result r;
        timed(&t_axpy, t[i].base, t[i].stu, t[i].ref, t[i].budget, &r);
        ck_assert_int_eq(r.remeasured, 0);
        for (int v = 0; v < N_VARIANTS; v++)
            ck_assert_msg(r.time[v].reps == t[i].rounds, "%g/%g/%g ms, %g s: %d rounds, not %d",
                          t[i].base, t[i].stu, t[i].ref, t[i].budget, r.time[v].reps,
                          t[i].rounds);
    }
}
END_TEST

/* What is recorded: each version's median time and bandwidth over the
 * bytes the problem moves, both speedups, the measure and the bar. */
START_TEST(what_is_recorded)
{
    result r;
    timed(&t_axpy, 0.04, 0.02, 0.008, 0.02, &r);
    double bytes = 12.0 * 4096;
    static const double ms[N_VARIANTS] = {0.04, 0.02, 0.008};
    for (int v = 0; v < N_VARIANTS; v++) {
        ck_assert_double_eq_tol(r.time[v].ms, ms[v], 1e-12);
        ck_assert_double_eq_tol(r.time[v].gbps, bytes / (ms[v] * 1e-3) / 1e9, 1e-9);
    }
    ck_assert_double_eq_tol(r.speedup, 2.0, 1e-12);
    ck_assert_double_eq_tol(r.ref_speedup, 5.0, 1e-12);
    ck_assert_double_eq_tol(r.measure, 2.0, 1e-12);
    ck_assert_double_eq_tol(r.bar, 3.0, 1e-12);      /* 1 + 0.5 * (5 - 1) */
    ck_assert_int_eq(r.outcome, OUT_SLOW);
    ck_assert_int_eq(r.ref_clears_bar, 1);
    ck_assert_int_eq(r.clears_bar, 0);

    exercise ex = t_axpy;
    ex.bar = BAR_MATCH_SOLUTION;
    ex.bar_share = 0.25;
    timed(&ex, 0.04, 0.02, 0.016, 0.02, &r);
    ck_assert_double_eq_tol(r.measure, 1.25, 1e-12);
    ck_assert_double_eq_tol(r.bar, 1.25, 1e-12);
    ck_assert_int_eq(r.outcome, OUT_PASS);
    ck_assert_int_eq(r.remeasured, 2);      /* on the line: measured again, then <= */
    ck_assert_int_eq(r.ref_clears_bar, 1);
    timed(&ex, 0.04, 0.024, 0.016, 0.02, &r);
    ck_assert_double_eq_tol(r.measure, 1.5, 1e-12);
    ck_assert_int_eq(r.outcome, OUT_SLOW);
    ck_assert_int_eq(r.remeasured, 0);

    ex.bar = BAR_BANDWIDTH;
    ex.bar_share = 0.5;                     /* half of the backend's 1000 GB/s */
    timed(&ex, 0.4, 12.0 * 4096 / 600e9 * 1e3, 12.0 * 4096 / 800e9 * 1e3, 0.02, &r);
    ck_assert_double_eq_tol(r.measure, 600, 1e-6);
    ck_assert_double_eq_tol(r.bar, 500, 1e-9);
    ck_assert_double_eq_tol(r.time[V_SOLUTION].gbps, 800, 1e-6);
    ck_assert_int_eq(r.outcome, OUT_PASS);
}
END_TEST

/* The reference at exactly the bar clears it; under it, not. */
START_TEST(reference_exactly_at_the_bar)
{
    exercise ex = t_axpy;
    ex.bar = BAR_BANDWIDTH;
    ex.bar_share = 0.5;
    double ref_ms = 0.125, ref_gbps = 12.0 * 4096 / (ref_ms * 1e-3) / 1e9;
    device_facts dev;
    char why[64];
    result r;
    for (int under = 0; under < 2; under++) {
        host_reset();
        ck_assert_int_eq(device_host.probe(&dev, why, sizeof why), 0);
        ms_of[V_BASELINE] = 1.0, ms_of[V_STUDENT] = 0.1, ms_of[V_SOLUTION] = ref_ms;
        use_three(&ex, base_k, ref_k, stu_k);
        /* The bar: half the copy bandwidth, so twice the reference's. */
        host_set_device(&dev, 2 * ref_gbps * (under ? 1.01 : 1.0));
        grade_opts o = host_opts();
        grade_host_opts(&ex, &o, &r);
        ck_assert_int_eq(r.ref_clears_bar, !under);
        ck_assert_int_eq(r.outcome, under ? OUT_PASS_UNTIMED : OUT_PASS);
    }
    /* No bar: nothing to clear, any speed passes. */
    ex.bar = BAR_NONE;
    timed(&ex, 0.01, 0.04, 0.02, 0.02, &r);
    ck_assert_int_eq(r.ref_clears_bar, 1);
    ck_assert_int_eq(r.clears_bar, 1);
    ck_assert_int_eq(r.outcome, OUT_PASS);
}
END_TEST

/* ---- the other facts ---------------------------------------------------- */

/* Blocks of 32 threads at the smallest size, of the knob's elsewhere. */
static void shaped_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    axpy_build(I, n, knobs, dev);
    if (n == 1)
        inst_launch(I, 1, 1, 1, 32, 1, 1, 0);
}

START_TEST(facts_grading_records)
{
    exercise ex = t_axpy;
    ex.build = shaped_build;
    ms_of[V_BASELINE] = 0.04, ms_of[V_STUDENT] = 0.01, ms_of[V_SOLUTION] = 0.01;
    use_three(&ex, base_k, ref_k, stu_k);
    int knobs[MAX_KNOBS] = {128, 0, 0, 0};
    grade_opts o = host_opts();
    result r;
    grade_in_child(&ex, knobs, &o, 20, &r);
    ck_assert_int_eq(r.outcome, OUT_PASS);
    ck_assert_int_eq(r.knobs[0], 128);
    ck_assert_uint_eq(r.seed, 42);
    /* Resources at the smallest size: one warp a block, so 32 blocks (the
     * most an SM holds) of 1 warp of 64: 50%. At 128 threads it would be
     * 100%. */
    ck_assert_int_eq(r.res[V_STUDENT].blocks_per_sm, 32);
    ck_assert_int_eq(r.res[V_STUDENT].occupancy_pct, 50);
    ck_assert_int_eq(r.res[V_BASELINE].regs, 16);
    ck_assert_int_eq(r.res[V_SOLUTION].regs, 32);

    /* Nsight Compute's counts reach the verdict. */
    ex = t_axpy;
    ex.ncu_no_bank_conflicts = 1;
    use_three(&ex, base_k, ref_k, stu_k);
    ncu_evidence ncu = {.read = 1, .conflicts = {0, 90000, 100}};
    o.ncu = &ncu;
    grade_in_child(&ex, knobs, &o, 20, &r);
    ck_assert_int_eq(r.outcome, OUT_MECHANISM);
    ck_assert_int_eq(r.ncu.read, 1);
    ck_assert_double_eq(r.ncu.conflicts[V_STUDENT], 90000);
    o.ncu = NULL;
    grade_in_child(&ex, knobs, &o, 20, &r);
    ck_assert_int_eq(r.outcome, OUT_PASS);
    ck_assert_int_eq(r.ncu.read, 0);
}
END_TEST

/* The reference's own entry point, where it has one; the others keep the
 * exercise's. */
START_TEST(each_version_loads_its_entry_point)
{
    exercise ex = t_axpy;
    ex.reference_kernel = "axpy_ref";
    ms_of[V_BASELINE] = 0.04, ms_of[V_STUDENT] = 0.01, ms_of[V_SOLUTION] = 0.01;
    use_three(&ex, base_k, ref_k, stu_k);
    host_module m = solution_module(&ex, ref_k);
    m.kernel = "axpy_ref";
    ck_assert_int_eq(host_add(&m), 0);
    result r;
    grade_host(&ex, 0, &r);
    ck_assert_msg(r.outcome == OUT_PASS, "%s: %s", outcome_word(r.outcome), r.message);
}
END_TEST

/* Every timed launch starts from a flushed L2 (the kernel is timed
 * reading from device memory); a kernel that finds its L2 warm when timed
 * gives a wrong answer here, so the grader would see it. */
static void needs_a_cold_l2(host_call *c)
{
    run_at(c, V_STUDENT);
    if (c->timed && !c->flushed)
        axpy_of(c).z[0] += 1;
}

START_TEST(timed_launches_start_cold)
{
    ms_of[V_BASELINE] = 0.04, ms_of[V_STUDENT] = 0.01, ms_of[V_SOLUTION] = 0.01;
    use_three(&t_axpy, base_k, ref_k, needs_a_cold_l2);
    result r;
    grade_host(&t_axpy, 0, &r);
    ck_assert_msg(r.outcome == OUT_PASS, "%s: %s", outcome_word(r.outcome), r.message);
}
END_TEST

/* A launch whose wall time is longer than the kernel's own time costs its
 * wall time (on a GPU: the poison, the flush, the launch around the
 * kernel): the student's warm-up launch takes 35 ms of wall time for a
 * kernel time of 25 ms, so a round costs 0.335 s or more, and a budget of
 * 33 s holds fewer than 100 rounds (at 0.325 s it would hold 101). */
static int wall_launches;
static void slow_to_launch(host_call *c)
{
    run_at(c, V_STUDENT);
    if (c->timed && wall_launches++ == 0) {
        struct timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        do
            clock_gettime(CLOCK_MONOTONIC, &t);
        while ((t.tv_sec - t0.tv_sec) * 1e3 + (t.tv_nsec - t0.tv_nsec) * 1e-6 < 35);
    }
}

START_TEST(a_round_costs_its_wall_time)
{
    ms_of[V_BASELINE] = 200, ms_of[V_STUDENT] = 25, ms_of[V_SOLUTION] = 100;
    wall_launches = 0;
    use_three(&t_axpy, base_k, ref_k, slow_to_launch);
    grade_opts o = host_opts();
    o.time_budget_s = 33;
    result r;
    grade_host_opts(&t_axpy, &o, &r);
    ck_assert_int_eq(r.outcome, OUT_PASS);
    ck_assert_int_eq(r.remeasured, 0);
    ck_assert_msg(r.time[V_STUDENT].reps < 100, "%d rounds: the wall time was not counted",
                  r.time[V_STUDENT].reps);
    ck_assert_int_ge(r.time[V_STUDENT].reps, 20);
}
END_TEST

/* The noise: twice the half-spread of the measure over the first and the
 * second half of the rounds. The student's time rises by 1% a round, so
 * every split of the rounds gives its own medians. */
static void rising(host_call *c)
{
    static int k;
    run_at(c, V_STUDENT);
    if (c->timed)
        c->ms = ms_of[V_STUDENT] * (1 + 0.01 * k++);
}

START_TEST(noise_from_the_two_halves)
{
    ms_of[V_BASELINE] = 0.4, ms_of[V_STUDENT] = 0.1, ms_of[V_SOLUTION] = 0.2;
    use_three(&t_axpy, base_k, ref_k, rising);
    grade_opts o = host_opts();
    o.time_budget_s = 0;             /* the least: 20 rounds after the warm-up's launch */
    result r;
    grade_host_opts(&t_axpy, &o, &r);
    ck_assert_int_eq(r.time[V_STUDENT].reps, 20);
    /* Rounds 0..9 are launches 1..10, 10..19 are 11..20: medians 1.055 T
     * and 1.155 T, speedups 4 / 1.055 and 4 / 1.155. */
    double a = 4 / 1.055, b = 4 / 1.155;
    ck_assert_double_eq_tol(r.noise, 2 * fabs(a - b) / (a + b), 1e-9);
    ck_assert_double_eq_tol(r.time[V_STUDENT].ms, 0.1 * 1.105, 1e-12);
    /* A bandwidth measure over the same rounds: bytes / 1.055 T and
     * bytes / 1.155 T, the same spread; each half is measured as the whole
     * is, in bytes moved against the GPU's copy bandwidth. */
    exercise ex = t_axpy;
    ex.bar = BAR_BANDWIDTH;
    ex.bar_share = 0.5;
    use_three(&ex, base_k, ref_k, rising);
    grade_host_opts(&ex, &o, &r);
    ck_assert_int_eq(r.time[V_STUDENT].reps, 20);
    ck_assert_double_eq_tol(r.noise, 2 * fabs(a - b) / (a + b), 1e-9);
}
END_TEST

Suite *grade_timing_suite(void)
{
    Suite *s = suite_create("grade_timing");
    TCase *tc = tcase_create("timing");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, rounds_fill_the_budget);
    tcase_add_test(tc, what_is_recorded);
    tcase_add_test(tc, reference_exactly_at_the_bar);
    tcase_add_test(tc, facts_grading_records);
    tcase_add_test(tc, each_version_loads_its_entry_point);
    tcase_add_test(tc, timed_launches_start_cold);
    tcase_add_test(tc, a_round_costs_its_wall_time);
    tcase_add_test(tc, noise_from_the_two_halves);
    suite_add_tcase(s, tc);
    return s;
}
