/* test_references_paths.c: `grader references --verify` (reference_verify)
 * on odd but legal student copies, without compiling the header checks: a
 * damaged header's kernel name is kept to 127 characters, the FAIL line's
 * reason to 1199, and the PTX that ptxas assembles is the one named by a
 * path of up to 1023 characters, as the reference was read (a --root padded
 * with "/." reaches those lengths). ptxas is a script of the test's own
 * (CUDA_HOME) that fails on a missing file; a timer signalling while it
 * runs changes no verdict.
 *
 *   CK_RUN_SUITE=references_paths build/tests/unit_tests */
#include <sys/time.h>
#include "commands_fixture.h"

#define PTX_TAIL "/grader/references/lesson0/saxpy.ptx"

/* The course folder, padded with "/." (one "/" more for an odd count) to
 * `len` characters; the caller frees it. */
static char *padded_course(size_t len)
{
    size_t n = strlen(course);
    ck_assert_uint_ge(len, n);
    char *p = malloc(len + 1);
    ck_assert_ptr_nonnull(p);
    memcpy(p, course, n);
    if ((len - n) % 2)
        p[n++] = '/';
    while (n < len)
        p[n++] = '/', p[n++] = '.';
    p[n] = 0;
    return p;
}

/* reference_verify of lesson0/saxpy with --root `root`; what it printed. */
static char *verify_at(const char *root, int *status)
{
    grade_opts g;
    grade_opts_defaults(&g);
    g.root = root;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    *status = reference_verify(lesson_exercises[0][0], &g, f);
    fclose(f);
    return text;
}

static void put_reference(const char *rel, const char *kernel, int with_entry)
{
    char p[1700], text[1200];
    snprintf(p, sizeof p, "%s/%s", course, rel);
    snprintf(text, sizeof text, "// Reference.\n// kernel: %s\n// knobs: (none)\n"
             "// target: sm_75\n%s%s%s", kernel, with_entry ? ".entry " : "",
             with_entry ? kernel : "", with_entry ? "(\n)\n" : "");
    put_file(p, text);
}

/* A 128-character kernel name in a damaged header: its first 127 named. */
START_TEST(damaged_header_names_127)
{
    in_scratch(course, sizeof course, "course");
    char name[129], want[400];
    memset(name, 'k', 128);
    name[128] = 0;
    put_reference(PTX_TAIL + 1, name, 0);
    int st;
    char *t = verify_at(course, &st);
    ck_assert_int_eq(st, -1);
    snprintf(want, sizeof want, "its header or its entry point '%.127s' is missing\n", name);
    ENDS(t, want);
    free(t);
}
END_TEST

/* The reason of a FAIL line is cut at 1199 characters: a path of 1016 and
 * a name of 127 make 1199, one more path character 1200. */
START_TEST(damaged_reason_cut_at_1199)
{
    in_scratch(course, sizeof course, "course");
    char name[128];
    memset(name, 'k', 127);
    name[127] = 0;
    put_reference(PTX_TAIL + 1, name, 0);
    for (size_t plen = 1015; plen <= 1018; plen++) {
        char *root = padded_course(plen - strlen(PTX_TAIL));
        char reason[1400], want[1500];
        int n = snprintf(reason, sizeof reason, "%s" PTX_TAIL " is damaged: its header or its "
                         "entry point '%s' is missing", root, name);
        ck_assert_int_eq(n, (int)plen + 127 + 56);
        snprintf(want, sizeof want, "FAIL  lesson0/saxpy: %.1199s\n", reason);
        int st;
        char *t = verify_at(root, &st);
        ck_assert_int_eq(st, -1);
        ck_assert_str_eq(t, want);
        free(t);
        free(root);
    }
}
END_TEST

/* ptxas gets the path the reference was read from: 1023 characters whole,
 * 1024 cut to 1023 (saxpy.pt, read and assembled alike). */
START_TEST(assembled_as_read)
{
    lesson0_course();
    char tk[800], p[900];
    in_scratch(tk, sizeof tk, "toolkit");
    snprintf(p, sizeof p, "%s/bin/ptxas", tk);
    put_file(p, "#!/bin/sh\nfor a; do f=$a; done\ntest -f \"$f\"\n");
    chmod(p, 0755);
    setenv("CUDA_HOME", tk, 1);
    /* Only the file the reference is read from is there: saxpy.ptx up to
     * 1023 characters, then saxpy.pt. */
    char cut[900];
    snprintf(cut, sizeof cut, "%.*s", (int)strlen(PTX_TAIL + 1) - 1, PTX_TAIL + 1);
    snprintf(p, sizeof p, "%s" PTX_TAIL, course);
    for (size_t plen = 1022; plen <= 1024; plen++) {
        put_reference(plen < 1024 ? PTX_TAIL + 1 : cut, "saxpy", 1);
        if (plen == 1024)
            ck_assert_int_eq(unlink(p), 0);
        char *root = padded_course(plen - strlen(PTX_TAIL));
        int st;
        char *t = verify_at(root, &st);
        ck_assert_msg(st == 0, "%zu: %s", plen, t);
        STARTS(t, "ok    lesson0/saxpy                reference PTX for (none), assembles; "
                  "exercise and baseline compile\n");
        free(t);
        free(root);
    }
    unsetenv("CUDA_HOME");
}
END_TEST

static void tick(int sig)
{
    (void)sig;
}

/* A signal while ptxas runs (watch's timer, a terminal resize) interrupts
 * the wait, not the verdict: with a timer ticking every 5 ms, a ptxas of
 * 0.2 s that succeeds still assembles, and one that fails still fails. */
START_TEST(assembled_through_signals)
{
    lesson0_course();
    char tk[800], p[900];
    in_scratch(tk, sizeof tk, "toolkit");
    snprintf(p, sizeof p, "%s/bin/ptxas", tk);
    setenv("CUDA_HOME", tk, 1);
    put_reference(PTX_TAIL + 1, "saxpy", 1);
    struct sigaction sa = {.sa_handler = tick}, old;   /* no SA_RESTART */
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGALRM, &sa, &old), 0);
    struct itimerval every = {.it_interval = {.tv_usec = 5000}, .it_value = {.tv_usec = 5000}};
    for (int fails = 0; fails < 2; fails++) {
        put_file(p, fails ? "#!/bin/sh\nsleep 0.2\nexit 1\n" : "#!/bin/sh\nsleep 0.2\n");
        chmod(p, 0755);
        ck_assert_int_eq(setitimer(ITIMER_REAL, &every, NULL), 0);
        int st;
        char *t = verify_at(course, &st);
        struct itimerval off = {{0, 0}, {0, 0}};
        setitimer(ITIMER_REAL, &off, NULL);
        ck_assert_msg(st == (fails ? -1 : 0), "%s", t);
        if (fails)
            HAS(t, "does not assemble with ptxas -arch=sm_");
        else
            STARTS(t, "ok    lesson0/saxpy                reference PTX for (none), assembles; ");
        free(t);
    }
    sigaction(SIGALRM, &old, NULL);
    unsetenv("CUDA_HOME");
}
END_TEST

Suite *references_paths_suite(void)
{
    Suite *s = suite_create("references_paths");
    TCase *tc = tcase_create("verify_paths");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, damaged_header_names_127);
    tcase_add_test(tc, damaged_reason_cut_at_1199);
    tcase_add_test(tc, assembled_as_read);
    tcase_add_test(tc, assembled_through_signals);
    suite_add_tcase(s, tc);
    return s;
}
