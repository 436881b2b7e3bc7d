/* verdict.h: the one place an exercise's outcome is decided.
 *
 * Invariants: every outcome a report shows comes from verdict_decide, a pure
 * function of the facts in a `result` (result.h) and the exercise; no
 * verdict is rewritten after it was said, and no message text is read back.
 * The order, first match wins:
 *
 *   1. grading stopped (r->stopped): the kernel did not compile, was refused
 *      or missing, gave a wrong answer, crashed, hung, asked for too much, was
 *      TOO FAST; the GPU was missing or too old; the course was at fault
 *   2. no GPU (r->no_gpu): MECHANISM when a check fails, else CORRECT when
 *      the PTX simulator ran the kernel and found it right (r->simulated,
 *      r->correct), else CHECKED. The simulator's WRONG, CRASH, HANG and
 *      RACE are stops (1.)
 *   3. correctness not established: INTERNAL (a grader bug, never a pass)
 *   4. a mechanism missing: a check in r->checks[] in state CS_FAILS, or
 *      Nsight Compute's bank conflicts over the reference's (exercises with
 *      ncu_no_bank_conflicts, when the counters were read): MECHANISM,
 *      whatever the speed
 *   5. PASS*: the baseline stood in for the reference, the speed was not
 *      measured (correctness-only mode), or the reference itself does not
 *      clear the bar on this GPU
 *   6. PASS when the measure clears the bar, else SLOW
 *
 * grade.c fills the facts as grading goes and calls verdict_say once;
 * nogpu.c does the same without a GPU, after the simulator's run
 * (sim_correctness.h) has filled its facts. */
#ifndef GRADER_VERDICT_H
#define GRADER_VERDICT_H

#include "result.h"

/* The outcome the facts in `r` earn for `ex` (the order above). */
enum outcome verdict_decide(const exercise *ex, const result *r);

/* The index of the mechanism check that fails (the first in CS_FAILS), or
 * -1 when none does. */
int verdict_failed_check(const exercise *ex, const result *r);

/* 1 when Nsight Compute's counts show the bank conflicts ex asks to remove
 * are still there: more than twice the reference's, plus 1000 (a few from
 * the problem's edges are not the pattern the lesson is about). */
int verdict_ncu_conflicts(const exercise *ex, const result *r);

/* Decide, and say it: r->outcome, and for an outcome reached after grading
 * ran to its end, r->message (and r->failed_check for MECHANISM) in the words
 * a student reads. A stopped result keeps the message its stop wrote. */
void verdict_say(const exercise *ex, result *r);

#endif
