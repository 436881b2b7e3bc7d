/* watch_checks.h: an exercise's mechanism checks with a knock kind (spec.h)
 * judged on what the PTX simulator saw the data do (r->watch, filled by the
 * simulated run: without a GPU, sim_correctness.c; on a GPU, a sample of the
 * timed launch's blocks), by the rules of rules/watch_rules.h. */
#ifndef GRADER_WATCH_CHECKS_H
#define GRADER_WATCH_CHECKS_H

#include "result.h"

/* For every check of ex with a knock kind that holds on the text
 * (r->checks[i].state CS_HOLDS): when r->watch was watched, judge it on the
 * figures (CS_FAILS with the failing figure as its `what`, or CS_HOLDS with
 * the figures added); when not, add that whether it carries the data was
 * not judged. Checks that already fail, or have no knock kind, stay. */
void watch_judge_checks(const exercise *ex, const int *knobs, result *r);

#endif
