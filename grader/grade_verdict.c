/* grade_verdict.c: the physical floor, and the verdict in words. */
#include <stdio.h>
#include "grade_internal.h"
#include "stats.h"

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

/* The speed part of the verdict as one clause, without "Correct": the
 * caller puts it after "Correct, and", "Correct, but" or a missing
 * mechanism. Returns the outcome the speed alone earns. */
static enum outcome speed_clause(const exercise *ex, const result *r, enum speed s,
                                 char *buf, size_t len)
{
    switch (ex->bar) {
    case BAR_SPEEDUP:
    case BAR_NONE:
        if (s == SPEED_UNGRADED) {
            snprintf(buf, len, "the speed part cannot be graded on this GPU: the reference "
                     "solution itself only reached %.2fx the baseline's speed, under the "
                     "least gain that counts (%.2fx). Your kernel reached %.2fx.",
                     r->ref_speedup, ex->bar_floor, r->speedup);
            return OUT_PASS_UNTIMED;
        }
        snprintf(buf, len, "your kernel ran at %.2fx the baseline's speed; the bar was %.2fx: "
                 "%.0f%% of the gain the reference solution reached on this GPU in the same "
                 "run (%.2fx), and never under %.2fx.", r->speedup, r->bar,
                 100 * ex->bar_share, r->ref_speedup, ex->bar_floor);
        return s == SPEED_PASS ? OUT_PASS : OUT_SLOW;
    case BAR_BANDWIDTH:
        if (s == SPEED_UNGRADED) {
            snprintf(buf, len, "the speed part cannot be graded on this GPU: even the "
                     "reference solution reached only %.0f GB/s, under the bar of %.0f GB/s "
                     "(%.0f%% of the copy bandwidth). Your kernel: %.0f GB/s.",
                     r->time[V_SOLUTION].gbps, r->bar, 100 * ex->bar_share, r->measure);
            return OUT_PASS_UNTIMED;
        }
        snprintf(buf, len, "your kernel moved %.0f GB/s, %.0f%% of this GPU's copy bandwidth "
                 "(%.0f GB/s); the bar was %.0f%%, and the reference solution reached "
                 "%.0f GB/s.", r->measure, 100 * r->measure / r->copy_gbps, r->copy_gbps,
                 100 * ex->bar_share, r->time[V_SOLUTION].gbps);
        return s == SPEED_PASS ? OUT_PASS : OUT_SLOW;
    case BAR_MATCH_SOLUTION:
        snprintf(buf, len, "your kernel took %.2fx the time of the reference solution; up "
                 "to %.2fx is allowed.", r->measure, r->bar);
        return s == SPEED_PASS ? OUT_PASS : OUT_SLOW;
    }
    return OUT_INTERNAL;
}

void say_verdict(grade_ctx *g, enum speed s, int failed, const char *what)
{
    result *r = g->r;
    char clause[sizeof r->message - 64] = "speed not measured in this mode.";
    enum outcome o = OUT_PASS_UNTIMED;
    if (r->timed)
        o = speed_clause(g->ex, r, s, clause, sizeof clause);
    if (failed >= 0) {
        /* The mechanism first: it is the reason; the speed shows its cost. */
        result_say(r, OUT_MECHANISM, "Correct, but %s. Speed: %s", what, clause);
        snprintf(r->failed_check, sizeof r->failed_check, "%s", g->ex->checks[failed].why);
    } else if (!r->timed) {
        result_say(r, OUT_PASS_UNTIMED, "Correct on every size checked (speed not measured "
                   "in this mode).");
    } else if (o == OUT_SLOW) {
        result_say(r, o, "Correct, but not fast enough: %s", clause);
    } else if (o == OUT_PASS_UNTIMED) {
        result_say(r, o, "Correct; %s", clause);
    } else {
        result_say(r, o, "Correct, and fast enough: %s", clause);
    }
}
