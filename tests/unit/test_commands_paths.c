/* test_commands_paths.c: check records progress only for the student's own
 * exercises/, told apart by resolving both paths (realpath) from
 * --student-dir and --root as given, of any length: a path padded with
 * "/." to 4159 characters still names exercises/, one of 4160 is cut by the
 * grader and names nothing (so nothing is recorded). Graded on the host
 * backend, as test_commands.c.
 *
 *   CK_RUN_SUITE=commands_paths build/tests/unit_tests */
#include "commands_fixture.h"

/* `base` padded with "/." (and one "/" for an odd count) to be `len`
 * characters once "/exercises" is added, and then, when `tail`, with it. */
static char *padded(const char *base, size_t len, int tail)
{
    size_t n = strlen(base), pad = len - n - strlen("/exercises");
    char *p = malloc(len + 1);
    ck_assert_ptr_nonnull(p);
    memcpy(p, base, n);
    size_t i = n;
    if (pad % 2)
        p[i++] = '/';
    while (i < len - strlen("/exercises"))
        p[i++] = '/', p[i++] = '.';
    strcpy(p + i, tail ? "/exercises" : "");
    ck_assert_uint_eq(strlen(p), tail ? len : len - strlen("/exercises"));
    return p;
}

/* check with --progress and these paths; whether it recorded. */
static int recorded(const char *root, const char *student_dir)
{
    char prog[800];
    in_scratch(prog, sizeof prog, "progress");
    unlink(prog);
    host_reset();
    use_kernels(&t_axpy, good_axpy);
    host_check("--seed", "5", "--progress", prog, "--root", root, "--student-dir",
               student_dir, NULL);
    check_one(&t_axpy);
    int yes = strstr(said_out, "\nCourse progress: ") != NULL;
    int no = strstr(said_out, "Progress not recorded: these are not your exercises/.") != NULL;
    ck_assert_msg(yes != no, "%s", said_out);
    ck_assert_int_eq(exists(prog), yes);
    return yes;
}

START_TEST(long_student_dir)
{
    char *top = realpath(".", NULL);
    ck_assert_ptr_nonnull(top);
    for (size_t len = 4158; len <= 4161; len++) {
        char *dir = padded(top, len, 1);
        ck_assert_int_eq(recorded(top, dir), len < 4160);
        free(dir);
    }
    free(top);
}
END_TEST

START_TEST(long_root)
{
    char *top = realpath(".", NULL);
    ck_assert_ptr_nonnull(top);
    char *own = realpath("exercises", NULL);
    ck_assert_ptr_nonnull(own);
    for (size_t len = 4158; len <= 4161; len++) {
        char *root = padded(top, len, 0);
        ck_assert_int_eq(recorded(root, own), len < 4160);
        free(root);
    }
    free(own);
    free(top);
}
END_TEST

Suite *commands_paths_suite(void)
{
    Suite *s = suite_create("commands_paths");
    TCase *tc = tcase_create("progress_paths");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, long_student_dir);
    tcase_add_test(tc, long_root);
    suite_add_tcase(s, tc);
    return s;
}
