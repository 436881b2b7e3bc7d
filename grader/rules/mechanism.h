/* mechanism.h: an exercise's mechanism checks against what the compiler
 * produced. These answer "why is it (not) fast" and need no GPU.
 *
 * Error rule (rules/): a rule returns whether it holds, and when it does
 * not, writes the sentence the student reads into the caller's buffer;
 * nothing in rules/ prints, exits or compiles. */
#ifndef GRADER_MECHANISM_H
#define GRADER_MECHANISM_H

#include <stddef.h>
#include "compiled.h"

/* Check every mechanism of `ex` against compiled kernel `c`, with `res` its
 * resources (occupancy_pct -1 when unknown: CHECK_MIN_OCCUPANCY is then
 * skipped) and `dyn_smem` the launch's dynamic shared memory. Returns the
 * index of the first failing check, or -1 when all hold. `what` gets one
 * line saying what was found, e.g. "the PTX has no cp.async". */
int first_failed_check(const exercise *ex, const compiled *c, const resources *res,
                       const int *knobs, char *what, size_t len);

/* Every mechanism check of `ex` at once, for the report: out[i] says
 * whether check i holds, fails or cannot be judged, and what was found, in
 * the words first_failed_check uses for a failure; entries past the last
 * check are CS_NOT_EVALUATED. Returns the index of the first failing check,
 * or -1. */
int evaluate_checks(const exercise *ex, const compiled *c, const resources *res,
                    const int *knobs, check_result out[MAX_CHECKS]);

#endif
