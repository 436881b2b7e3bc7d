/* profile.h: Nsight Compute counters for an exercise, beside the grade. */
#ifndef GRADER_PROFILE_H
#define GRADER_PROFILE_H

#include <stdio.h>
#include "grade.h"

typedef struct options_for_profile {
    const char *self;          /* this grader's path, to run under ncu */
    const char *root;
    const char *student_dir;
    const char *sets;          /* "--set A=1 --set B=2", passed on */
} options_for_profile;

/* In the process ncu watches: launch baseline, student and solution once
 * each on the timing problem, then exit. */
_Noreturn void profile_launch_once(const exercise *ex, const int *knobs, const grade_opts *o);

/* Run ncu on profile_launch_once for `ex` and print its counters to `out`;
 * `ev` gets the evidence the verdict reads (result.h's ncu_evidence: the
 * shared-load bank conflicts of the three kernels). -1 (after saying why,
 * ev->read 0) when ncu is missing or may not read the counters. */
int profile_exercise(const exercise *ex, const options_for_profile *p, FILE *out,
                     ncu_evidence *ev);

#endif
