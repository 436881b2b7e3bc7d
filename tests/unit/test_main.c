/* test_main.c: runs every suite of the CPU test suite (make test-cpu).
 * Exit status 0 only when every test passed.
 *
 *   unit_tests            every suite, one after another
 *   unit_tests --list     the suites' names, one a line: tests/cpu-suite.sh
 *                         runs each as a part of its own (CK_RUN_SUITE=name),
 *                         several at a time */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "suites.h"

/* The name is the one the suite gives suite_create (what CK_RUN_SUITE
 * matches): a name that differs runs nothing, and main says so and fails. */
static const struct {
    const char *name;
    Suite *(*make)(void);
} suites[] = {
    {.name = "stats", .make = stats_suite},
    {.name = "verify", .make = verify_suite},
    {.name = "instance", .make = instance_suite},
    {.name = "compile", .make = compile_suite},
    {.name = "mechanism", .make = mechanism_suite},
    {.name = "report", .make = report_suite},
    {.name = "specs", .make = specs_suite},
    {.name = "static", .make = static_suite},
    {.name = "limits", .make = limits_suite},
    {.name = "pipeline", .make = pipeline_suite},
    {.name = "sim_note", .make = sim_note_suite},
    {.name = "sim_sample", .make = sim_sample_suite},
    {.name = "grade_child", .make = grade_child_suite},
    {.name = "knockout_arena", .make = knockout_arena_suite},
    {.name = "compile_vm", .make = compile_vm_suite},
    {.name = "compile_warm", .make = compile_warm_suite},
    {.name = "cheats", .make = cheats_suite},
    {.name = "occupancy", .make = occupancy_suite},
    {.name = "nogpu", .make = nogpu_suite},
    {.name = "stub_lines", .make = stub_lines_suite},
    {.name = "knobs", .make = knobs_suite},
    {.name = "progress", .make = progress_suite},
    {.name = "fixtures", .make = fixtures_suite},
    {.name = "class", .make = class_suite},
    {.name = "reference", .make = reference_suite},
    {.name = "source_rules", .make = source_rules_suite},
    {.name = "ptx_rules", .make = ptx_rules_suite},
    {.name = "compile_limits", .make = compile_limits_suite},
    {.name = "verdict", .make = verdict_suite},
    {.name = "compile_path", .make = compile_path_suite},
    {.name = "printf", .make = printf_suite},
    {.name = "hints", .make = hints_suite},
    {.name = "knockout", .make = knockout_suite},
    {.name = "verdicts", .make = verdicts_suite},
    {.name = "rules_bounds", .make = rules_bounds_suite},
    {.name = "options", .make = options_suite},
    {.name = "folders", .make = folders_suite},
    {.name = "class_text", .make = class_text_suite},
    {.name = "class_keys", .make = class_keys_suite},
    {.name = "class_outputs", .make = class_outputs_suite},
    {.name = "class_archive", .make = class_archive_suite},
    {.name = "class_submission", .make = class_submission_suite},
    {.name = "class_slurm", .make = class_slurm_suite},
    {.name = "class_guard", .make = class_guard_suite},
    {.name = "class_run", .make = class_run_suite},
    {.name = "class_workers", .make = class_workers_suite},
    {.name = "class_edges", .make = class_edges_suite},
    {.name = "commands", .make = commands_suite},
    {.name = "commands_compile", .make = commands_compile_suite},
    {.name = "source_scan", .make = source_scan_suite},
    {.name = "ptx_text", .make = ptx_text_suite},
    {.name = "knockout_text", .make = knockout_text_suite},
    {.name = "diagnose_text", .make = diagnose_text_suite},
    {.name = "compile_child", .make = compile_child_suite},
    {.name = "sandbox", .make = sandbox_suite},
    {.name = "compile_faults", .make = compile_faults_suite},
    {.name = "kernel_output", .make = kernel_output_suite},
    {.name = "cuda_check", .make = cuda_check_suite},
    {.name = "report_lines", .make = report_lines_suite},
    {.name = "grade_parts", .make = grade_parts_suite},
    {.name = "grade_words", .make = grade_words_suite},
    {.name = "knockout_run", .make = knockout_run_suite},
    {.name = "grade_timing", .make = grade_timing_suite},
    {.name = "reference_parts", .make = reference_parts_suite},
    {.name = "nogpu_parts", .make = nogpu_parts_suite},
    {.name = "ptx_reader", .make = ptx_reader_suite},
    {.name = "sim", .make = sim_suite},
    {.name = "watch_rules", .make = watch_rules_suite},
    {.name = "sim_kernels", .make = sim_kernels_suite},
    {.name = "progress_hand", .make = progress_hand_suite},
    {.name = "commands_paths", .make = commands_paths_suite},
    {.name = "references_paths", .make = references_paths_suite},
    {.name = "watch_waits", .make = watch_waits_suite},
};
#define N_SUITES (sizeof suites / sizeof suites[0])

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < N_SUITES; i++)
            printf("%s\n", suites[i].name);
        return EXIT_SUCCESS;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: %s [--list]   (CK_RUN_SUITE=name runs one suite)\n", argv[0]);
        return 2;
    }
    SRunner *sr = srunner_create(suites[0].make());
    for (size_t i = 1; i < N_SUITES; i++)
        srunner_add_suite(sr, suites[i].make());
    /* Each test in a child of its own, always: Check enforces a test's
     * timeout only then, and CK_FORK=no in the environment must not turn a
     * hang into a suite that never ends. */
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr), ran = srunner_ntests_run(sr);
    srunner_free(sr);
    if (ran == 0) {
        /* CK_RUN_SUITE or CK_RUN_CASE naming nothing: not a pass. */
        fprintf(stderr, "no test ran: check CK_RUN_SUITE / CK_RUN_CASE\n");
        return EXIT_FAILURE;
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
