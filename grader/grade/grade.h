/* grade.h: grading one exercise, start to end. Runs in a child process (see
 * child.h); everything it learns goes into a `result`.
 *
 * Error rule (grade/): inside the child, a stage that cannot go on ends it
 * through child_fail (child_fail.h) with the outcome and a sentence for the
 * student; the parent reads what the child left, so a crash or a hang is
 * reported too, and grading goes on to the next exercise. Stages record
 * facts; verdict_decide (verdict.h) alone turns them into the outcome.
 * Outside a child (no-GPU, static, references) a function returns -1 with
 * the sentence in the caller's buffer. */
#ifndef GRADER_GRADE_H
#define GRADER_GRADE_H

#include "versions.h"

/* Grade `ex` with knob values `knobs` into `r`. Runs in the child: returns
 * with the verdict in `r`, or ends the child through child_fail (a wrong
 * answer, a CUDA error, a hang) and the parent reads `r`. */
void grade_exercise(const exercise *ex, const int *knobs, const grade_opts *o, result *r);

#endif
