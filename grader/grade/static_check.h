/* static_check.h: what can be checked about an exercise without a GPU: all
 * three versions compile with NVRTC for a given GPU generation, and the
 * reference solution has every mechanism its exercise asks for. Used by
 * `grader static` and by the CPU test suite. */
#ifndef GRADER_STATIC_CHECK_H
#define GRADER_STATIC_CHECK_H

#include <stddef.h>
#include "calibration.h"
#include "grade.h"

/* Check `ex` for compute capability `cc`. Returns 0 when everything holds,
 * else -1; `msg` gets one line per finding. `student_res` (may be NULL)
 * receives the stub's resources. */
int static_check_exercise(const exercise *ex, const int *knobs, const grade_opts *o, int cc,
                          char *msg, size_t len, resources *student_res);

#endif
