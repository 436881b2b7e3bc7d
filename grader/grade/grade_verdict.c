/* grade_verdict.c: the physical floor, and the one verdict (verdict.h):
 * decided from the facts in a result, then said in words. */
#include <stdio.h>
#include "grade_internal.h"
#include "nogpu_words.h"
#include "stats.h"
#include "verdict.h"

void check_physical_floor(grade_ctx *g, double bytes, double ms)
{
    double floor = physical_floor_ms(bytes, g->r->copy_gbps);
    if (!(ms < floor))
        return;
    child_fail(OUT_TOO_FAST, NULL, "Your kernel was timed at %.4g ms, faster than the memory "
               "can deliver its inputs: it must move at least %.4g MB (every input read "
               "once, every output written once), and at this GPU's measured copy bandwidth "
               "(%.0f GB/s, with a margin of %.1fx) that takes at least %.4g ms. A kernel "
               "this fast is not doing the work it is timed on: it skips part of it, or "
               "reuses results from an earlier launch.", ms, bytes / 1e6, g->r->copy_gbps,
               FLOOR_MARGIN, floor);
}

int verdict_failed_check(const exercise *ex, const result *r)
{
    for (int i = 0; i < MAX_CHECKS && ex->checks[i].kind != CHECK_NONE; i++)
        if (r->checks[i].state == CS_FAILS)
            return i;
    return -1;
}

int verdict_ncu_conflicts(const exercise *ex, const result *r)
{
    const double *c = r->ncu.conflicts;
    if (!ex->ncu_no_bank_conflicts || !r->ncu.read || c[V_STUDENT] < 0 || c[V_SOLUTION] < 0)
        return 0;
    return c[V_STUDENT] > 2 * c[V_SOLUTION] + 1000;
}

enum outcome verdict_decide(const exercise *ex, const result *r)
{
    int mechanism = verdict_failed_check(ex, r) >= 0;
    if (r->stopped != OUT_NOT_RUN)
        return r->stopped;
    if (r->no_gpu)
        return mechanism ? OUT_MECHANISM : r->simulated && r->correct ? OUT_CORRECT
                                                                      : OUT_CHECKED;
    if (!r->correct)
        return OUT_INTERNAL;
    if (mechanism || verdict_ncu_conflicts(ex, r))
        return OUT_MECHANISM;
    if (r->ref_stand_in[0] || !r->timed || !r->ref_clears_bar)
        return OUT_PASS_UNTIMED;
    return r->clears_bar ? OUT_PASS : OUT_SLOW;
}

/* The speed part of the verdict as one clause, without "Correct": the
 * caller puts it after "Correct, and", "Correct, but" or a missing
 * mechanism. */
static void speed_clause(const exercise *ex, const result *r, char *buf, size_t len)
{
    int ungraded = !r->ref_clears_bar;
    if (!r->timed) {
        snprintf(buf, len, "speed not measured in this mode.");
        return;
    }
    switch (ex->bar) {
    case BAR_SPEEDUP:
    case BAR_NONE:
        if (ungraded)
            snprintf(buf, len, "the speed part cannot be graded on this GPU: the reference "
                     "solution itself only reached %.2fx the baseline's speed, under the "
                     "least gain that counts (%.2fx). Your kernel reached %.2fx.",
                     r->ref_speedup, ex->bar_floor, r->speedup);
        else
            snprintf(buf, len, "your kernel ran at %.2fx the baseline's speed; the bar was "
                     "%.2fx: %.0f%% of the gain the reference solution reached on this GPU "
                     "in the same run (%.2fx), and never under %.2fx.", r->speedup, r->bar,
                     100 * ex->bar_share, r->ref_speedup, ex->bar_floor);
        return;
    case BAR_BANDWIDTH:
        if (ungraded)
            snprintf(buf, len, "the speed part cannot be graded on this GPU: even the "
                     "reference solution reached only %.0f GB/s, under the bar of %.0f GB/s "
                     "(%.0f%% of the copy bandwidth). Your kernel: %.0f GB/s.",
                     r->time[V_SOLUTION].gbps, r->bar, 100 * ex->bar_share, r->measure);
        else
            snprintf(buf, len, "your kernel moved %.0f GB/s, %.0f%% of this GPU's copy "
                     "bandwidth (%.0f GB/s); the bar was %.0f%%, and the reference solution "
                     "reached %.0f GB/s.", r->measure, 100 * r->measure / r->copy_gbps,
                     r->copy_gbps, 100 * ex->bar_share, r->time[V_SOLUTION].gbps);
        return;
    case BAR_MATCH_SOLUTION:
        snprintf(buf, len, "your kernel took %.2fx the time of the reference solution; up "
                 "to %.2fx is allowed.", r->measure, r->bar);
        return;
    }
}

/* Without a GPU: what the compile, the mechanism checks and the simulator
 * (r->sim_said, "" when it did not run) showed. */
static void say_no_gpu(const exercise *ex, result *r, enum outcome o, int failed)
{
    int n = 0, sim = r->sim_on != 0;
    while (n < MAX_CHECKS && ex->checks[n].kind != CHECK_NONE)
        n++;
    const char *said = r->sim_said, *gap = said[0] ? " " : "";
    char what[64];
    snprintf(what, sizeof what, n == 1 ? "mechanism check holds" : "%d mechanism checks hold",
             n);
    if (failed >= 0) {
        result_say(r, OUT_MECHANISM, "Your kernel compiles, but %s. %s%s%s",
                   r->checks[failed].what, said, gap, NOGPU_NOT_JUDGED[sim]);
        snprintf(r->failed_check, sizeof r->failed_check, "%s", ex->checks[failed].why);
    } else if (o == OUT_CORRECT) {
        if (n == 0)
            result_say(r, o, "%s Your kernel compiles for sm_90; its exercise has no "
                       "mechanism check. %s", said, NOGPU_CORRECT);
        else
            result_say(r, o, "%s Your kernel compiles for sm_90, and its %s (listed below). "
                       "%s", said, what, NOGPU_CORRECT);
    } else if (n == 0) {
        result_say(r, o, "Your kernel compiles for sm_90. %s%s%s", NOGPU_NO_CHECKS[sim], gap,
                   said);
    } else {
        result_say(r, o, "Your kernel compiles for sm_90, and its %s (listed below). %s%s%s",
                   what, NOGPU_CHECKS_HOLD[sim], gap, said);
    }
}

/* "Correct, but <what is missing>. Speed: <clause>" */
static void say_mechanism(const exercise *ex, result *r, int failed)
{
    char speed[sizeof r->message - 64], missing[512];
    if (failed >= 0) {
        snprintf(missing, sizeof missing, "%s", r->checks[failed].what);
        snprintf(r->failed_check, sizeof r->failed_check, "%s", ex->checks[failed].why);
    } else {
        snprintf(missing, sizeof missing, "Nsight Compute counted %.0f shared-load bank "
                 "conflicts in your kernel, against %.0f in the reference: the conflicts "
                 "are not gone", r->ncu.conflicts[V_STUDENT], r->ncu.conflicts[V_SOLUTION]);
    }
    if (r->ref_stand_in[0] && r->timed)
        snprintf(speed, sizeof speed, "not graded, because %s. Your kernel ran at %.2fx the "
                 "baseline's speed.", r->ref_stand_in, r->speedup);
    else if (r->ref_stand_in[0])
        snprintf(speed, sizeof speed, "not graded, because %s.", r->ref_stand_in);
    else
        speed_clause(ex, r, speed, sizeof speed);
    result_say(r, OUT_MECHANISM, "Correct, but %s. Speed: %s", missing, speed);
}

/* PASS, PASS* or SLOW: correct, and what the speed earned. */
static void say_speed(const exercise *ex, result *r, enum outcome o)
{
    char clause[sizeof r->message - 64];
    if (r->ref_stand_in[0]) {
        char ran[96] = "";
        if (r->timed)
            snprintf(ran, sizeof ran, " Your kernel ran at %.2fx the baseline's speed.",
                     r->speedup);
        result_say(r, o, "Correct; the speed part was not graded: %s.%s Grade at the default "
                   "knobs, or in the full course, for a speed verdict.", r->ref_stand_in, ran);
        return;
    }
    if (!r->timed) {
        result_say(r, o, "Correct on every size checked (speed not measured in this mode).");
        return;
    }
    speed_clause(ex, r, clause, sizeof clause);
    if (o == OUT_SLOW)
        result_say(r, o, "Correct, but not fast enough: %s", clause);
    else if (o == OUT_PASS_UNTIMED)
        result_say(r, o, "Correct; %s", clause);
    else
        result_say(r, o, "Correct, and fast enough: %s", clause);
}

void verdict_say(const exercise *ex, result *r)
{
    enum outcome o = verdict_decide(ex, r);
    int failed = verdict_failed_check(ex, r);
    r->failed_check[0] = 0;
    if (r->stopped != OUT_NOT_RUN)
        r->outcome = o;    /* its message is the stop's own */
    else if (r->no_gpu)
        say_no_gpu(ex, r, o, failed);
    else if (o == OUT_INTERNAL)
        result_say(r, o, "Grading reached its verdict without knowing whether your kernel is "
                   "correct. This is a bug in the grader, not in your kernel; please report "
                   "it.");
    else if (o == OUT_MECHANISM)
        say_mechanism(ex, r, failed);
    else
        say_speed(ex, r, o);
}
