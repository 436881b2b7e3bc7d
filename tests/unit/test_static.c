/* test_static.c: CI's "compile everything" step. Every exercise's stub,
 * baseline and solution must compile with NVRTC, and the solution must have
 * the mechanisms its exercise asks for, on the calibration GPU (sm_90) and on
 * the oldest generation the exercise allows. One loop iteration per
 * exercise, so a failure names it. */
#include <stdio.h>
#include <string.h>
#include "static_check.h"
#include "suites.h"

static void check_at(int i, int cc)
{
    const exercise *all[MAX_REGISTERED];
    registered_exercises(all, MAX_REGISTERED);
    const exercise *ex = all[i];
    int knobs[MAX_KNOBS] = {0};
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        knobs[k] = ex->knobs[k].def;
    grade_opts o = {.root = ".", .student_dir = "exercises"};
    /* Check's failure messages travel through a pipe of limited size. */
    static char msg[6000];
    int r = static_check_exercise(ex, knobs, &o, cc, msg, sizeof msg, NULL);
    ck_assert_msg(r == 0, "lesson%d/%s at sm_%d:\n%.3000s", ex->lesson, ex->name, cc, msg);
}

START_TEST(compiles_for_calibration_gpu)
{
    check_at(_i, 90);
}
END_TEST

START_TEST(compiles_for_oldest_gpu)
{
    const exercise *all[MAX_REGISTERED];
    registered_exercises(all, MAX_REGISTERED);
    int cc = all[_i]->min_cc > 75 ? all[_i]->min_cc : 75;
    check_at(_i, cc);
}
END_TEST

Suite *static_suite(void)
{
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED);
    if (n > MAX_REGISTERED)
        n = MAX_REGISTERED;

    Suite *s = suite_create("static");
    /* Three NVRTC compiles per test: seconds each on a small CI machine. */
    TCase *tc = tcase_create("sm_90");
    tcase_set_timeout(tc, 180);
    tcase_add_loop_test(tc, compiles_for_calibration_gpu, 0, n);
    suite_add_tcase(s, tc);

    tc = tcase_create("oldest_cc");
    tcase_set_timeout(tc, 180);
    tcase_add_loop_test(tc, compiles_for_oldest_gpu, 0, n);
    suite_add_tcase(s, tc);
    return s;
}
