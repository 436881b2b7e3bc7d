/* child.h: grading in a child process. The CUDA context, the student's
 * kernel and any crash or hang stay in the child; the parent only reads the
 * result the child left in shared memory and goes on to the next exercise.
 *
 * The child ends in one of two ways: grading returns normally with the
 * verdict in its result, or something ends it early (a wrong answer, a CUDA
 * error, a refused launch, a hang) through child_fail. There is no third. */
#ifndef GRADER_CHILD_H
#define GRADER_CHILD_H

#include "child_fail.h"
#include "grade.h"

/* Grade ex in a child; wait at most `timeout_s` for it (it also watches each
 * launch itself). `r` is filled in every case: after a crash or a timeout
 * it says what happened and what the child was doing. */
void grade_in_child(const exercise *ex, const int *knobs, const grade_opts *o,
                    double timeout_s, result *r);

/* The same for any grading `body`: it runs in a child with r to report
 * into, ends through child_fail or by returning; out is filled as above. */
void run_in_child(void (*body)(void *arg, result *r), void *arg, double timeout_s,
                  result *out);

#endif
