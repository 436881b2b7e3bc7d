/* test_main.c: runs every suite of the CPU test suite (make test-cpu).
 * Exit status 0 only when every test passed. */
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
    srunner_add_suite(sr, source_rules_suite());
    srunner_add_suite(sr, ptx_rules_suite());
    srunner_add_suite(sr, compile_limits_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
