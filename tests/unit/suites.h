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
Suite *sim_note_suite(void);
Suite *sim_sample_suite(void);
Suite *grade_child_suite(void);
Suite *knockout_arena_suite(void);
Suite *compile_vm_suite(void);
Suite *compile_warm_suite(void);
Suite *cheats_suite(void);
Suite *occupancy_suite(void);
Suite *nogpu_suite(void);
Suite *stub_lines_suite(void);
Suite *knobs_suite(void);
Suite *progress_suite(void);
Suite *progress_hand_suite(void);
Suite *commands_paths_suite(void);
Suite *references_paths_suite(void);
Suite *watch_waits_suite(void);
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
Suite *class_text_suite(void);
Suite *class_keys_suite(void);
Suite *class_outputs_suite(void);
Suite *class_archive_suite(void);
Suite *class_submission_suite(void);
Suite *class_slurm_suite(void);
Suite *class_guard_suite(void);
Suite *class_run_suite(void);
Suite *class_workers_suite(void);
Suite *class_edges_suite(void);
Suite *commands_suite(void);
Suite *commands_compile_suite(void);
Suite *source_scan_suite(void);
Suite *ptx_text_suite(void);
Suite *knockout_text_suite(void);
Suite *diagnose_text_suite(void);
Suite *compile_child_suite(void);
Suite *sandbox_suite(void);
Suite *compile_faults_suite(void);
Suite *kernel_output_suite(void);
Suite *cuda_check_suite(void);
Suite *report_lines_suite(void);
TCase *report_counts_tcase(void);   /* test_report_counts.c, in report_lines_suite */
Suite *grade_parts_suite(void);
Suite *grade_words_suite(void);
Suite *knockout_run_suite(void);
Suite *grade_timing_suite(void);
Suite *reference_parts_suite(void);
Suite *nogpu_parts_suite(void);
Suite *ptx_reader_suite(void);
Suite *sim_suite(void);
TCase *sim_counts_tcase(void);   /* test_sim_counts.c, in sim_suite */
TCase *sim_watch_tcase(void);   /* test_sim_watch.c: part of the sim suite */
Suite *sim_kernels_suite(void);
Suite *watch_rules_suite(void);

/* Every exercise of the registry in lesson order (defined in test_specs.c,
 * shared with test_static.c), so loop tests cover exercises added later.
 * Returns how many; at most `max` are stored. */
#define MAX_REGISTERED 256
int registered_exercises(const exercise **out, int max);

#endif
