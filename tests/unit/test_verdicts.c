/* test_verdicts.c: the verdict rules the README promises, each pinned so
 * that a one-token change to it fails here (tests/mutate/ measures that):
 * the order of the verdicts, every bar kind's pass, fail and ungraded case,
 * the noise band and the remeasuring rule in both directions, the launch
 * order's rotation, the floor's margin as a number, the tolerance's rtol
 * and atol each, the unwritten / wrong / out-of-bounds messages, every
 * output's poison and guards (t_pair: two outputs, first and in the
 * middle, float and double), inputs past the 8 MiB check chunk, and
 * correctness-only mode. All on the host backend, through grade_in_child. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pipeline.h"
#include "stats.h"
#include "suites.h"

/* ---- kernels whose simulated time the test sets ------------------------ */

/* Times of several milliseconds make the number of timing rounds exact:
 * one round costs more than the 0.02 s budget, so there are 20 (the
 * least), whatever the machine's speed. */
#define BIG_BASE 4.0
#define BIG_REF 1.0     /* the reference: 4x; the speedup bar 2.5x */

static double t_base = BIG_BASE, t_ref = BIG_REF, t_stu;
static int stu_timed;   /* the student's timed launches so far (in the child) */
/* The student's k-th timed launch (0: the warm-up's) takes stu_time(k). */
static double (*stu_time)(int k);

static void base_k(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = t_base;
}

static void ref_k(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = t_ref;
}

static void stu_k(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = stu_time && c->timed ? stu_time(stu_timed) : t_stu;
    stu_timed += c->timed;
}

static void grade_three(const exercise *ex, double base, double ref, double stu, result *r)
{
    t_base = base, t_ref = ref, t_stu = stu;
    stu_timed = 0;
    use_three(ex, base_k, ref_k, stu_k);
    grade_host(ex, 0, r);
    stu_time = NULL;
}

/* ---- the order of the verdicts ----------------------------------------- */

static exercise with_check(void)
{
    exercise ex = t_axpy;
    ex.checks[0] = (mech_check){.kind = CHECK_PTX_HAS, .text = "ld.global.v4",
                                .why = "Load four at once."};
    return ex;
}

/* A missing mechanism is the reason, whatever the speed: slow, fast or
 * ungraded, the verdict is MECHANISM, with the speed after it. */
START_TEST(mechanism_comes_before_the_speed)
{
    exercise ex = with_check();
    result r;
    grade_three(&ex, BIG_BASE, BIG_REF, 3.0, &r);             /* 1.33x: slow */
    expect(&r, OUT_MECHANISM, "Correct, but the PTX has no 'ld.global.v4' instruction");
    ck_assert_ptr_nonnull(strstr(r.message, "Speed: your kernel ran at 1.33x"));
    grade_three(&ex, BIG_BASE, 3.5, 1.0, &r);                 /* ungraded */
    expect(&r, OUT_MECHANISM, "Speed: the speed part cannot be graded");
    grade_three(&ex, BIG_BASE, BIG_REF, 1.0, &r);             /* fast */
    expect(&r, OUT_MECHANISM, "Speed: your kernel ran at 4.00x");
}
END_TEST

/* The report lists every check, holding or not, whatever the verdict. */
START_TEST(every_check_is_listed_in_the_result)
{
    exercise ex = with_check();
    ex.checks[1] = (mech_check){.kind = CHECK_PTX_HAS, .text = "ld.global.f32",
                                .why = "Load floats."};
    result r;
    grade_three(&ex, BIG_BASE, BIG_REF, 1.0, &r);
    expect(&r, OUT_MECHANISM, NULL);
    ck_assert_int_eq(r.checks[0].state, CS_FAILS);
    ck_assert_int_eq(r.checks[1].state, CS_HOLDS);
    ck_assert_str_eq(r.failed_check, "Load four at once.");
}
END_TEST

/* Where grading was when a kernel faulted: the timing stage and set. */
static void faults_when_timed(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 1.0;
    if (c->timed && ++stu_timed > 3)
        c->fault = 700;   /* cudaErrorIllegalAddress */
}

START_TEST(a_fault_in_timing_names_the_stage)
{
    result r;
    stu_timed = 0;
    t_base = BIG_BASE, t_ref = BIG_REF;
    use_three(&t_axpy, base_k, ref_k, faults_when_timed);
    grade_host(&t_axpy, 0, &r);
    /* Its 4th timed launch: the warm-up's, then rounds 0 (set 1), 1 (set 2), 2 (set 1). */
    expect(&r, OUT_CRASH, "While timing your kernel (input set 1):");
}
END_TEST

/* The folder a student's file must lie in, and the path as shown. */
START_TEST(student_folder_and_shown_path)
{
    char dir[256];
    student_folder(&t_axpy, "/x/student/t/axpy.cu", dir, sizeof dir);
    ck_assert_str_eq(dir, "/x/student");
    student_folder(&t_axpy, "t/axpy.cu", dir, sizeof dir);
    ck_assert_str_eq(dir, "");
    exercise demo = t_axpy;
    demo.demo = 1;
    student_folder(&demo, "/x/student/t/axpy.cu", dir, sizeof dir);
    ck_assert_str_eq(dir, "");
}
END_TEST

/* Every outcome the speed alone can earn, with its words. */
START_TEST(speed_outcomes_have_their_words)
{
    result r;
    grade_three(&t_axpy, BIG_BASE, BIG_REF, 1.0, &r);
    expect(&r, OUT_PASS, "Correct, and fast enough: your kernel ran at 4.00x the baseline's "
           "speed; the bar was 2.50x: 50% of the gain the reference solution reached on "
           "this GPU in the same run (4.00x), and never under 1.20x.");
    ck_assert_double_eq_tol(r.bar, 2.5, 1e-9);
    ck_assert_double_eq_tol(r.ref_speedup, 4.0, 1e-9);
    ck_assert_double_eq_tol(r.time[V_BASELINE].ms, BIG_BASE, 1e-12);
    ck_assert_double_eq_tol(r.time[V_SOLUTION].ms, BIG_REF, 1e-12);
    ck_assert_double_eq_tol(r.time[V_STUDENT].ms, 1.0, 1e-12);
    ck_assert_int_eq(r.time[V_STUDENT].reps, 20);
    ck_assert_int_eq(r.time[V_BASELINE].reps, 20);
    ck_assert_double_eq_tol(r.time[V_STUDENT].gbps, 12.0 * 4096 / 1e-3 / 1e9, 1e-9);

    grade_three(&t_axpy, BIG_BASE, BIG_REF, 2.0, &r);
    expect(&r, OUT_SLOW, "Correct, but not fast enough: your kernel ran at 2.00x");

    /* The reference at 1.14x, under the least gain that counts (1.2x). */
    grade_three(&t_axpy, BIG_BASE, 3.5, 1.0, &r);
    expect(&r, OUT_PASS_UNTIMED, "Correct; the speed part cannot be graded on this GPU: the "
           "reference solution itself only reached 1.14x the baseline's speed, under the "
           "least gain that counts (1.20x). Your kernel reached 4.00x.");
    /* At the floor exactly, the reference clears it: graded. */
    grade_three(&t_axpy, 1.2, 1.0, 1.1, &r);
    expect(&r, OUT_SLOW, "the bar was 1.20x");
}
END_TEST

/* Without a bar, correct is enough: any speed passes. */
START_TEST(no_bar_passes_at_any_speed)
{
    exercise ex = t_axpy;
    ex.bar = BAR_NONE;
    result r;
    grade_three(&ex, BIG_BASE, BIG_REF, 8.0, &r);   /* half the baseline's speed */
    expect(&r, OUT_PASS, "Correct, and fast enough: your kernel ran at 0.50x");
    /* Not even a reference under the floor makes it ungraded. */
    grade_three(&ex, BIG_BASE, 3.9, 8.0, &r);
    expect(&r, OUT_PASS, NULL);
}
END_TEST

/* ---- the bandwidth bar: a share of the copy bandwidth ------------------ */

/* A time in ms for `gbps` GB/s over axpy's 12 bytes per element at 4096. */
static double ms_at_gbps(double gbps)
{
    return 12.0 * 4096 / (gbps * 1e9) * 1e3;
}

START_TEST(bandwidth_bar_is_a_share_of_the_copy_bandwidth)
{
    exercise ex = t_axpy;
    ex.bar = BAR_BANDWIDTH;
    ex.bar_share = 0.4;                     /* 400 of the backend's 1000 GB/s */
    result r;
    /* 350 GB/s: over 40% of the reference's 800, under 40% of the copy's 1000. */
    grade_three(&ex, ms_at_gbps(100), ms_at_gbps(800), ms_at_gbps(350), &r);
    expect(&r, OUT_SLOW, "your kernel moved 350 GB/s, 35% of this GPU's copy bandwidth "
           "(1000 GB/s); the bar was 40%, and the reference solution reached 800 GB/s.");
    ck_assert_double_eq_tol(r.bar, 400, 1e-6);
    ck_assert_double_eq_tol(r.measure, 350, 1e-6);
    grade_three(&ex, ms_at_gbps(100), ms_at_gbps(800), ms_at_gbps(420), &r);
    expect(&r, OUT_PASS, "42% of this GPU's copy bandwidth");
}
END_TEST

/* A reference under the bar: the speed part cannot be graded (PASS*). */
START_TEST(bandwidth_bar_ungraded_when_the_reference_is_under_it)
{
    exercise ex = t_axpy;
    ex.bar = BAR_BANDWIDTH;
    ex.bar_share = 0.4;
    result r;
    grade_three(&ex, ms_at_gbps(100), ms_at_gbps(300), ms_at_gbps(500), &r);
    expect(&r, OUT_PASS_UNTIMED, "Correct; the speed part cannot be graded on this GPU: even "
           "the reference solution reached only 300 GB/s, under the bar of 400 GB/s (40% of "
           "the copy bandwidth). Your kernel: 500 GB/s.");
    /* At the bar exactly, the reference clears it. */
    grade_three(&ex, ms_at_gbps(100), ms_at_gbps(400), ms_at_gbps(500), &r);
    expect(&r, OUT_PASS, NULL);
}
END_TEST

/* ---- the match-solution bar, and the rule after remeasuring ------------ */

/* Within the noise floor of the bar (1.1x the reference's time): measured
 * again twice, then the plain rule: a ratio at or under the bar passes
 * (lower is better here), one over it does not. */
START_TEST(match_bar_plain_rule_after_remeasuring)
{
    exercise ex = t_axpy;
    ex.bar = BAR_MATCH_SOLUTION;
    ex.bar_share = 0.1;
    result r;
    grade_three(&ex, BIG_BASE, BIG_REF, 1.095, &r);
    expect(&r, OUT_PASS, "your kernel took 1.09x the time of the reference solution; up to "
           "1.10x is allowed.");
    ck_assert_int_eq(r.remeasured, 2);
    ck_assert_double_eq_tol(r.measure, 1.095, 1e-9);
    ck_assert_double_eq_tol(r.bar, 1.1, 1e-9);
    grade_three(&ex, BIG_BASE, BIG_REF, 1.105, &r);
    expect(&r, OUT_SLOW, "1.10x the time of the reference");
    ck_assert_int_eq(r.remeasured, 2);
    /* Far from the bar either way: judged at once. */
    grade_three(&ex, BIG_BASE, BIG_REF, 1.3, &r);
    expect(&r, OUT_SLOW, NULL);
    ck_assert_int_eq(r.remeasured, 0);
    grade_three(&ex, BIG_BASE, BIG_REF, 0.9, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.remeasured, 0);
}
END_TEST

/* The speedup bar's plain rule: at the bar exactly passes. */
START_TEST(speedup_at_the_bar_exactly_passes)
{
    result r;
    grade_three(&t_axpy, BIG_BASE, BIG_REF, BIG_BASE / 2.5, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.remeasured, 2);
}
END_TEST

/* ---- the noise band ---------------------------------------------------- */

/* The student's first 10 timed rounds at 0.95 T, the next 10 at 1.05 T,
 * then T: the two halves of the first 20 rounds differ by 10%, so the noise
 * is 2 * 0.05 = 0.1 and the median is T. */
static double noise_T;
static double two_levels(int k)
{
    if (k == 0 || k > 20)
        return noise_T;
    return k <= 10 ? 0.95 * noise_T : 1.05 * noise_T;
}

/* 7% over the bar is inside a noise of 10%: measured again (the next 20
 * rounds are steady, so then it passes). */
START_TEST(noise_band_is_twice_the_half_spread)
{
    result r;
    noise_T = BIG_BASE / (2.5 * 1.07);
    stu_time = two_levels;
    grade_three(&t_axpy, BIG_BASE, BIG_REF, noise_T, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.remeasured, 1);
    ck_assert_int_eq(r.time[V_STUDENT].reps, 40);
    ck_assert_double_eq_tol(r.speedup, 2.5 * 1.07, 1e-9);
}
END_TEST

/* 12% over the bar is outside it: judged at once, and the noise is kept. */
START_TEST(outside_the_noise_band_is_judged_at_once)
{
    result r;
    noise_T = BIG_BASE / (2.5 * 1.12);
    stu_time = two_levels;
    grade_three(&t_axpy, BIG_BASE, BIG_REF, noise_T, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.remeasured, 0);
    ck_assert_int_eq(r.time[V_STUDENT].reps, 20);
    ck_assert_double_eq_tol(r.noise, 0.1, 1e-9);
    ck_assert_double_eq_tol(r.speedup, 2.5 * 1.12, 1e-9);    /* the median of all 20 */
    /* And 12% under it is SLOW at once. */
    noise_T = BIG_BASE / (2.5 / 1.12);
    stu_time = two_levels;
    grade_three(&t_axpy, BIG_BASE, BIG_REF, noise_T, &r);
    expect(&r, OUT_SLOW, NULL);
    ck_assert_int_eq(r.remeasured, 0);
}
END_TEST

/* Steady times have no noise; the band is then the floor, 2%: 3% over the
 * bar is judged at once, 1% over it is measured again. */
START_TEST(noise_floor_is_two_percent)
{
    result r;
    grade_three(&t_axpy, BIG_BASE, BIG_REF, BIG_BASE / (2.5 * 1.03), &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.remeasured, 0);
    ck_assert_double_eq_tol(r.noise, 0, 1e-12);
    grade_three(&t_axpy, BIG_BASE, BIG_REF, BIG_BASE / (2.5 * 1.01), &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.remeasured, 2);
}
END_TEST

/* The noise and remeasuring through the public rule itself (judge: 1
 * above, 0 too close to call, -1 below; stats.h). */
enum { V_ABOVE = 1, V_TOO_CLOSE = 0, V_BELOW = -1 };
START_TEST(judge_rule_in_numbers)
{
    ck_assert_int_eq(judge(1.10, 1.0, 0.05, 1), V_ABOVE);
    ck_assert_int_eq(judge(1.04, 1.0, 0.05, 1), V_TOO_CLOSE);
    ck_assert_int_eq(judge(0.90, 1.0, 0.05, 1), V_BELOW);
    ck_assert_int_eq(judge(1.015, 1.0, 0.0, 1), V_TOO_CLOSE);   /* the 2% floor */
    ck_assert_int_eq(judge(1.025, 1.0, 0.0, 1), V_ABOVE);
    ck_assert_int_eq(judge(0.90, 1.0, 0.05, 0), V_ABOVE);       /* lower is better */
    ck_assert_int_eq(judge(1.10, 1.0, 0.05, 0), V_BELOW);
    ck_assert_int_eq(judge(0, 1.0, 0.05, 1), V_BELOW);
    ck_assert_int_eq(judge(0, 1.0, 0.05, 0), V_BELOW);          /* no time is no verdict */
    ck_assert_int_eq(judge(1.0, 0, 0.05, 1), V_BELOW);
    /* On the band's edge exactly (0.25 and 1.25 are exact in binary): too
     * close, in both directions. */
    ck_assert_int_eq(judge(1.25, 1.0, 0.25, 1), V_TOO_CLOSE);
    ck_assert_int_eq(judge(0.75, 1.0, 0.25, 1), V_TOO_CLOSE);
    ck_assert_double_eq_tol(half_spread(3, 1), 0.5, 1e-12);
    ck_assert_double_eq_tol(half_spread(0, 1), 1.0, 1e-12);
    ck_assert_double_eq_tol(half_spread(0, 0), 1.0, 1e-12);     /* not 0/0 */
    ck_assert_double_eq_tol(physical_floor_ms(1.0, 1.0), 1e3 / (1e9 * 1.3), 1e-18);
    ck_assert_double_eq_tol(speedup_bar(0.5, 1.2, 4.0), 2.5, 1e-12);
    ck_assert_double_eq_tol(speedup_bar(0.5, 1.2, 1.2), 1.2, 1e-12);
    double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
    ck_assert_double_eq_tol(median(odd, 3), 2, 1e-12);
    ck_assert_double_eq_tol(median(even, 4), 2.5, 1e-12);
    ck_assert(isnan(median(odd, 0)));
}
END_TEST

/* ---- the launch order rotates ------------------------------------------ */

/* Which kernel ran the last timed launch, and how often the student's
 * timed launch came right after the reference's. */
enum { K_NONE, K_BASE, K_REF, K_STU };
static int last_timed, after_ref, stu_launches;

static void base_tag(host_call *c)
{
    base_k(c);
    if (c->timed)
        last_timed = K_BASE;
}

static void ref_tag(host_call *c)
{
    ref_k(c);
    if (c->timed)
        last_timed = K_REF;
}

/* A probe, not a student: if after 6 timed launches it never followed the
 * reference, the versions ran in one fixed order, and it says so by
 * writing a wrong value (which the checks after timing find). */
static void stu_probe(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 1.0;
    if (!c->timed)
        return;
    after_ref += last_timed == K_REF;
    last_timed = K_STU;
    if (++stu_launches >= 6 && !after_ref)
        A.z[0] += 1;
}

START_TEST(launch_order_rotates)
{
    result r;
    last_timed = K_NONE, after_ref = 0, stu_launches = 0;
    t_base = BIG_BASE, t_ref = BIG_REF;
    use_three(&t_axpy, base_tag, ref_tag, stu_probe);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_PASS, NULL);
}
END_TEST

/* ---- the floor's margin, as a number ----------------------------------- */

/* 49152 bytes at 1000 GB/s with the margin of 1.3: 3.78e-5 ms. */
static double floor_ms;
static void at_floor_time(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = floor_ms;
}

START_TEST(floor_margin_is_1_3)
{
    ck_assert_double_eq_tol(FLOOR_MARGIN, 1.3, 1e-12);
    ck_assert_double_eq_tol(physical_floor_ms(1.3e9, 1.0), 1000, 1e-6);
    ck_assert_double_eq_tol(physical_floor_ms(0, 1.0), 0, 1e-12);
    ck_assert_double_eq_tol(physical_floor_ms(1.0, 0), 0, 1e-12);
    result r;
    floor_ms = 12.0 * 4096 / (1000e9 * 1.36) * 1e3;    /* 1.36x the copy speed */
    use_kernels(&t_axpy, at_floor_time);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_TOO_FAST, "with a margin of 1.3x");
    floor_ms = 12.0 * 4096 / (1000e9 * 1.24) * 1e3;    /* 1.24x: possible */
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_PASS, NULL);
}
END_TEST

/* ---- the tolerance: rtol and atol each --------------------------------- */

static void off_relative(host_call *c)     /* 0.5% off every value */
{
    axpy_args A = axpy_of(c);
    for (int i = 0; i < A.n; i++)
        A.z[i] = (A.a * A.x[i] + A.y[i]) * 1.005f;
    c->ms = 0.012;
}

static void off_absolute(host_call *c)     /* 0.005 off every value */
{
    axpy_args A = axpy_of(c);
    for (int i = 0; i < A.n; i++)
        A.z[i] = A.a * A.x[i] + A.y[i] + 0.005f;
    c->ms = 0.012;
}

START_TEST(tolerance_is_atol_plus_rtol_times_expected)
{
    exercise ex = t_axpy;
    ex.rtol = 1e-2;
    ex.atol = 1e-6;
    result r;
    use_kernels(&ex, off_relative);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_PASS, NULL);
    use_kernels(&ex, off_absolute);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_WRONG, "Tolerance: |got - expected| <= 1e-06 + 0.01*|expected|");

    ex.rtol = 1e-6;
    ex.atol = 1e-2;
    use_kernels(&ex, off_relative);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_WRONG, "Tolerance: |got - expected| <= 0.01 + 1e-06*|expected|");
    use_kernels(&ex, off_absolute);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_PASS, NULL);
}
END_TEST

/* ---- wrong, unwritten, and both ---------------------------------------- */

/* From size 2 on: element 0 wrong, element 1 never written. */
static void wrong_and_unwritten(host_call *c)
{
    axpy_args A = axpy_of(c);
    if (A.n < 2) {
        axpy_range(A, 0, A.n);
        return;
    }
    axpy_range(A, 2, A.n);
    A.z[0] = 7.0f;
}

static void none_written(host_call *c) { (void)c; }

START_TEST(wrong_and_unwritten_are_told_apart)
{
    result r;
    use_kernels(&t_axpy, wrong_and_unwritten);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_WRONG, "Your kernel computed 2 of 100 values wrong (size 100; 1 never "
           "written).");
    ck_assert_ptr_nonnull(strstr(r.detail, "index 0: expected"));
    ck_assert_ptr_nonnull(strstr(r.detail, "got 7\n"));
    ck_assert_ptr_nonnull(strstr(r.detail, "index 1: expected"));
    ck_assert_ptr_nonnull(strstr(r.detail, "never written"));
    ck_assert_ptr_null(strstr(r.detail, "output 0"));     /* one output: no number */

    use_kernels(&t_axpy, none_written);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_WRONG, "Your kernel left 1 of 1 output values unwritten (size 1).");
}
END_TEST

/* At most 8 differences are listed; all are counted. */
static void all_wrong(host_call *c)
{
    axpy_args A = axpy_of(c);
    for (int i = 0; i < A.n; i++)
        A.z[i] = 9.0f;
}

START_TEST(differences_listed_up_to_eight)
{
    exercise ex = t_axpy;
    ex.check_sizes[0] = 100;
    result r;
    use_kernels(&ex, all_wrong);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_WRONG, "computed 100 of 100 values wrong");
    ck_assert_ptr_nonnull(strstr(r.detail, "index 7: expected"));
    ck_assert_ptr_null(strstr(r.detail, "index 8: expected"));
}
END_TEST

/* ---- two outputs: each poisoned, each guarded, each checked ------------ */

static void pair_honest(host_call *c)
{
    pair_args P = pair_of(c);
    pair_range(P, 0, P.n);
    c->ms = 0.012;
}

START_TEST(two_outputs_in_any_order_pass)
{
    result r;
    use_kernels(&t_pair, pair_honest);
    grade_host(&t_pair, 0, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_double_eq_tol(r.time[V_STUDENT].gbps, 20.0 * 4096 / 0.012e-3 / 1e9, 1e-6);
}
END_TEST

/* The second output's last element never written (from size 100). */
static void pair_skips_b(host_call *c)
{
    pair_args P = pair_of(c);
    int last = P.n > 1 ? P.n - 1 : P.n;
    for (int i = 0; i < P.n; i++) {
        P.a[i] = P.x[i] + P.y[i];
        if (i < last)
            P.b[i] = (double)P.x[i] * P.y[i];
    }
}

/* Honest on the correctness runs; in timing, the second output is written
 * only by untimed launches: it holds the answer only if nobody poisons it
 * before each timed launch. */
static void pair_b_once(host_call *c)
{
    pair_args P = pair_of(c);
    c->ms = 0.012;
    if (!c->timed) {
        pair_range(P, 0, P.n);
        return;
    }
    for (int i = 0; i < P.n; i++)
        P.a[i] = P.x[i] + P.y[i];
}

/* Leaves the second output as it found it. */
static void pair_never_b(host_call *c)
{
    pair_args P = pair_of(c);
    for (int i = 0; i < P.n; i++)
        P.a[i] = P.x[i] + P.y[i];
}

START_TEST(every_output_is_poisoned)
{
    result r;
    use_kernels(&t_pair, pair_never_b);
    grade_host(&t_pair, 0, &r);
    expect(&r, OUT_WRONG, "left 1 of 2 output values unwritten (size 1)");
    ck_assert_ptr_nonnull(strstr(r.detail, "output 1 index 0: expected"));

    use_kernels(&t_pair, pair_skips_b);
    grade_host(&t_pair, 0, &r);
    expect(&r, OUT_WRONG, "left 1 of 200 output values unwritten (size 100)");
    ck_assert_ptr_nonnull(strstr(r.detail, "output 1 index 99: expected"));

    use_kernels(&t_pair, pair_b_once);
    grade_host(&t_pair, 0, &r);
    expect(&r, OUT_WRONG, "left 4096 of 8192 output values unwritten (timing input set 1 "
           "of 2");
}
END_TEST

/* One element past the second output (a double), and one before the
 * first: each guard is scanned, and the element is counted in the array's
 * own type. */
static int oob_where;
static void pair_oob(host_call *c)
{
    pair_args P = pair_of(c);
    pair_range(P, 0, P.n);
    c->ms = 0.012;
    if (oob_where == 0) {
        P.b[P.n + 5] = 1.0;
        P.b[P.n + 2] = 1.0;
    } else if (oob_where == 1) {
        P.a[-3] = 1.0f;
        P.a[-1] = 1.0f;
    } else {
        ((unsigned char *)P.y)[4 * (size_t)P.n + 100] = 0;
    }
}

START_TEST(every_buffer_is_guarded)
{
    result r;
    oob_where = 0;
    use_kernels(&t_pair, pair_oob);
    grade_host(&t_pair, 0, &r);
    /* The element named is the one nearest the data: after the array the
     * first changed, before it the last. */
    expect(&r, OUT_WRONG, "Your kernel wrote outside its output array (argument 3; size 1): "
           "16 guard bytes changed, the first at element 3 of an array of 1 doubles.");
    oob_where = 1;
    grade_host(&t_pair, 0, &r);
    expect(&r, OUT_WRONG, "Your kernel wrote outside its output array (argument 1; size 1): "
           "8 guard bytes changed, the first at element -1 of an array of 1 floats.");
    oob_where = 2;
    grade_host(&t_pair, 0, &r);
    expect(&r, OUT_WRONG, "Your kernel wrote outside its input array (argument 4; size 1): "
           "1 guard bytes changed, the first at element 26 of an array of 1 floats.");
}
END_TEST

/* ---- inputs past the 8 MiB chunk of the input check -------------------- */

#define BIG_N 3000000                 /* 12 MB a float input: two chunks */
#define BIG_AT 2500000                /* in the second chunk */

static int big_change;
static void big_axpy(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    if (big_change && A.n > BIG_AT)
        A.y[BIG_AT] = 123.0f;
}

START_TEST(input_check_reads_every_chunk)
{
    exercise ex = t_axpy;
    memset(ex.check_sizes, 0, sizeof ex.check_sizes);
    ex.check_sizes[0] = BIG_N;
    grade_opts o = host_opts();
    o.correctness_only = 1;
    result r;
    big_change = 0;
    use_kernels(&ex, big_axpy);
    grade_host_opts(&ex, &o, &r);
    expect(&r, OUT_PASS_UNTIMED, NULL);
    big_change = 1;
    grade_host_opts(&ex, &o, &r);
    expect(&r, OUT_WRONG, "changed its input: the array passed as argument 2 (3000000 "
           "floats) no longer holds what the grader put there (size 3000000). 1 elements "
           "differ, the first at element 2500000");
    ck_assert_ptr_nonnull(strstr(r.message, "now 123)"));
}
END_TEST

/* ---- correctness-only mode --------------------------------------------- */

static void honest_k(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
}

static void wrong_k(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    A.z[A.n - 1] += 1;
}

/* Only the student's kernel runs, and it is checked; nothing is timed. */
START_TEST(correctness_only_checks_the_student)
{
    grade_opts o = host_opts();
    o.correctness_only = 1;
    result r;
    use_three(&t_axpy, wrong_k, wrong_k, honest_k);   /* the course's two are not run */
    grade_host_opts(&t_axpy, &o, &r);
    expect(&r, OUT_PASS_UNTIMED, "Correct on every size checked (speed not measured in this "
           "mode).");
    ck_assert_int_eq(r.timed, 0);
    use_three(&t_axpy, honest_k, honest_k, wrong_k);
    grade_host_opts(&t_axpy, &o, &r);
    expect(&r, OUT_WRONG, "computed 1 of 1 values wrong (size 1");

    /* A mechanism still counts without timing. */
    exercise ex = with_check();
    use_three(&ex, honest_k, honest_k, honest_k);
    grade_host_opts(&ex, &o, &r);
    expect(&r, OUT_MECHANISM, "Speed: speed not measured in this mode.");
}
END_TEST

/* In a full run, the course's versions run too, and a wrong one is the
 * course's bug. */
START_TEST(full_run_checks_the_course_versions)
{
    result r;
    use_three(&t_axpy, wrong_k, honest_k, honest_k);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_INTERNAL, "The baseline computed 1 of 1 values wrong");
}
END_TEST

/* A verdict goes into the result, not onto the terminal: grading a wrong
 * kernel prints nothing (make check prints the report from the result). */
START_TEST(a_failed_grading_prints_nothing)
{
    char path[] = "/tmp/verdicts-stderr-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    result r;
    use_three(&t_axpy, honest_k, honest_k, wrong_k);
    grade_host(&t_axpy, 0, &r);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    off_t size = lseek(fd, 0, SEEK_END);
    close(fd);
    unlink(path);
    expect(&r, OUT_WRONG, NULL);
    ck_assert_msg(size == 0, "grading printed %ld bytes on stderr", (long)size);
}
END_TEST

/* An exercise for newer GPUs: both capabilities named; at the exercise's
 * own capability exactly, it is graded. */
START_TEST(old_gpu_names_both_capabilities)
{
    exercise ex = t_axpy;
    ex.min_cc = 100;
    result r;
    use_kernels(&ex, honest_k);
    grade_host(&ex, 0, &r);
    expect(&r, OUT_UNSUPPORTED, "needs a GPU of compute capability 10.0 or newer; this one "
           "(host backend (CPU tests)) is 9.0, so it cannot be graded here.");
    ex.min_cc = 90;
    grade_host(&ex, 0, &r);
    ck_assert_msg(r.outcome != OUT_UNSUPPORTED, "%s", r.message);
}
END_TEST

Suite *verdicts_suite(void)
{
    Suite *s = suite_create("verdicts");
    TCase *tc = tcase_create("verdicts and bars");
    tcase_add_test(tc, mechanism_comes_before_the_speed);
    tcase_add_test(tc, every_check_is_listed_in_the_result);
    tcase_add_test(tc, a_fault_in_timing_names_the_stage);
    tcase_add_test(tc, student_folder_and_shown_path);
    tcase_add_test(tc, speed_outcomes_have_their_words);
    tcase_add_test(tc, no_bar_passes_at_any_speed);
    tcase_add_test(tc, bandwidth_bar_is_a_share_of_the_copy_bandwidth);
    tcase_add_test(tc, bandwidth_bar_ungraded_when_the_reference_is_under_it);
    tcase_add_test(tc, match_bar_plain_rule_after_remeasuring);
    tcase_add_test(tc, speedup_at_the_bar_exactly_passes);
    tcase_add_test(tc, noise_band_is_twice_the_half_spread);
    tcase_add_test(tc, outside_the_noise_band_is_judged_at_once);
    tcase_add_test(tc, noise_floor_is_two_percent);
    tcase_add_test(tc, judge_rule_in_numbers);
    tcase_add_test(tc, launch_order_rotates);
    tcase_add_test(tc, floor_margin_is_1_3);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("outputs, inputs, modes");
    tcase_add_test(tc, tolerance_is_atol_plus_rtol_times_expected);
    tcase_add_test(tc, wrong_and_unwritten_are_told_apart);
    tcase_add_test(tc, differences_listed_up_to_eight);
    tcase_add_test(tc, two_outputs_in_any_order_pass);
    tcase_add_test(tc, every_output_is_poisoned);
    tcase_add_test(tc, every_buffer_is_guarded);
    tcase_add_test(tc, input_check_reads_every_chunk);
    tcase_add_test(tc, correctness_only_checks_the_student);
    tcase_add_test(tc, full_run_checks_the_course_versions);
    tcase_add_test(tc, old_gpu_names_both_capabilities);
    tcase_add_test(tc, a_failed_grading_prints_nothing);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
