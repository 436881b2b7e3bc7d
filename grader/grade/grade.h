/* grade.h: grading one exercise, start to end. Runs in a child process (see
 * child.h); everything it learns goes into a `result`. */
#ifndef GRADER_GRADE_H
#define GRADER_GRADE_H

#include "versions.h"

/* Grade `ex` with knob values `knobs` into `r`. Runs in the child: returns
 * with the verdict in `r`, or ends the child through child_fail (a wrong
 * answer, a CUDA error, a hang) and the parent reads `r`. */
void grade_exercise(const exercise *ex, const int *knobs, const grade_opts *o, result *r);

#endif
