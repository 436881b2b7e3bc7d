/* child.h: grading in a child process. The CUDA context, the student's
 * kernel and any crash or hang stay in the child; the parent only reads the
 * result the child left in shared memory and goes on to the next exercise.
 *
 * The child ends in one of two ways: grading returns normally with the
 * verdict in its result, or something ends it early (a wrong answer, a CUDA
 * error, a refused launch, a hang) through child_fail. There is no third. */
#ifndef GRADER_CHILD_H
#define GRADER_CHILD_H

#include "grade.h"

/* Grade ex in a child; wait at most `timeout_s` for it (it also watches each
 * launch itself). `r` is filled in every case: after a crash or a timeout
 * it says what happened and what the child was doing. */
void grade_in_child(const exercise *ex, const int *knobs, const grade_opts *o,
                    double timeout_s, result *r);

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
