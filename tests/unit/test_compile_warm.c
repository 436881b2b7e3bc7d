/* test_compile_warm.c: NVRTC's start-up is done once in the grader's own
 * process, before the compile children are forked (grader/compile/compile.c,
 * nvrtc_compile.c): each child then inherits it instead of paying it inside
 * its own time and address-space limits, so a file that just fits them
 * compiles the same whichever child gets it. Seen from outside: after a
 * compile, this process has NVRTC's built-in headers library loaded (NVRTC
 * loads it at its first compile, and only the warm-up compiles here).
 *
 *   CK_RUN_SUITE=compile_warm build/tests/unit_tests */
#include <stdio.h>
#include <string.h>
#include "compile.h"
#include "suites.h"

static int builtins_loaded(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, "libnvrtc-builtins") != NULL;
    if (f)
        fclose(f);
    return found;
}

START_TEST(start_up_done_in_the_parent)
{
    exercise ex = {.name = "fixture", .kernel = "fx_scale"};
    compile_job job = {.path = "tests/unit/fixtures/good.cu", .name = "mine/good.cu",
                       .ex = &ex, .kernel = "fx_scale", .cc = 90};
    compiled c;
    compile_files(&job, 1, &c);
    ck_assert_msg(c.ok, "%s", c.error);
    compiled_free(&c);
    ck_assert_msg(builtins_loaded(), "NVRTC's start-up was not done in the grader's process");
}
END_TEST

Suite *compile_warm_suite(void)
{
    Suite *s = suite_create("compile_warm");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, start_up_done_in_the_parent);
    suite_add_tcase(s, tc);
    return s;
}
