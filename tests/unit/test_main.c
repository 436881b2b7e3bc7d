/* test_main.c: runs every suite of the CPU test suite (make test-cpu).
 * Exit status 0 only when every test passed. */
#include <stdio.h>
#include <stdlib.h>
#include "suites.h"

int main(void)
{
    SRunner *sr = srunner_create(stats_suite());
    srunner_add_suite(sr, verify_suite());
    srunner_add_suite(sr, instance_suite());
    srunner_add_suite(sr, compile_suite());
    srunner_add_suite(sr, mechanism_suite());
    srunner_add_suite(sr, report_suite());
    srunner_add_suite(sr, specs_suite());
    srunner_add_suite(sr, static_suite());
    srunner_add_suite(sr, limits_suite());
    srunner_add_suite(sr, pipeline_suite());
    srunner_add_suite(sr, cheats_suite());
    srunner_add_suite(sr, occupancy_suite());
    srunner_add_suite(sr, nogpu_suite());
    srunner_add_suite(sr, knobs_suite());
    srunner_add_suite(sr, progress_suite());
    srunner_add_suite(sr, fixtures_suite());
    srunner_add_suite(sr, class_suite());
    srunner_add_suite(sr, reference_suite());
    srunner_add_suite(sr, source_rules_suite());
    srunner_add_suite(sr, ptx_rules_suite());
    srunner_add_suite(sr, compile_limits_suite());
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
