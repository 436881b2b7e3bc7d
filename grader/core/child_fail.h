/* child_fail.h: the grading child's failure channel. Every layer that runs
 * inside the child (the device's CUDA_CHECK, every stage of grading) reports
 * through these calls into the result the parent reads (child.h forks the
 * child and reads it); they call nothing above them, so any layer may use
 * them.
 *
 * Error rule (core/): a function in core/ returns its status (0 or -1, a
 * count, or NULL) and, where a person reads why, one sentence in the
 * caller's buffer; none prints or exits, except child_fail: whatever ends
 * grading of an exercise calls it, and it records the outcome and a
 * sentence for the student and exits the child; it never returns. */
#ifndef GRADER_CHILD_FAIL_H
#define GRADER_CHILD_FAIL_H

#include "result.h"

/* The result the current child reports into (set by grade_exercise). */
extern result *g_result;

/* Set what the child is doing, so a crash or hang can be placed. */
void set_stage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Put outcome `o` and a message in `r`; a message that starts with a
 * variant's name ("your kernel ...") gets a capital. */
void result_say(result *r, enum outcome o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The child's one way to stop early: record outcome `o`, the message and
 * `detail` (compile log, first mismatches, failing call; may be NULL) in
 * g_result, and exit. Without a child (g_result NULL) it prints to stderr
 * and exits. */
_Noreturn void child_fail(enum outcome o, const char *detail, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The exit status of a child that stopped through child_fail. */
#define CHILD_FAILED 2

#endif
