/* suites.h: the CPU test suite's units, one Check Suite each. test_main.c
 * runs them all; none of them needs a GPU (NVRTC does not, and nothing here
 * initialises the CUDA runtime). */
#ifndef TESTS_UNIT_SUITES_H
#define TESTS_UNIT_SUITES_H

#include <check.h>
#include "spec.h"

Suite *stats_suite(void);
Suite *verify_suite(void);
Suite *instance_suite(void);
Suite *compile_suite(void);
Suite *mechanism_suite(void);
Suite *report_suite(void);
Suite *specs_suite(void);
Suite *static_suite(void);
Suite *limits_suite(void);
Suite *pipeline_suite(void);
Suite *cheats_suite(void);
Suite *occupancy_suite(void);
Suite *nogpu_suite(void);
Suite *knobs_suite(void);
Suite *progress_suite(void);
Suite *fixtures_suite(void);
Suite *class_suite(void);
Suite *reference_suite(void);
Suite *source_rules_suite(void);
Suite *ptx_rules_suite(void);
Suite *compile_limits_suite(void);
Suite *verdict_suite(void);
Suite *compile_path_suite(void);
Suite *printf_suite(void);
Suite *hints_suite(void);
Suite *knockout_suite(void);
Suite *verdicts_suite(void);
Suite *rules_bounds_suite(void);
Suite *options_suite(void);
Suite *folders_suite(void);
Suite *report_lines_suite(void);
Suite *grade_parts_suite(void);
Suite *grade_words_suite(void);
Suite *knockout_run_suite(void);
Suite *grade_timing_suite(void);
Suite *reference_parts_suite(void);
Suite *nogpu_parts_suite(void);

/* Every exercise of the registry in lesson order (defined in test_specs.c,
 * shared with test_static.c), so loop tests cover exercises added later.
 * Returns how many; at most `max` are stored. */
#define MAX_REGISTERED 256
int registered_exercises(const exercise **out, int max);

#endif
