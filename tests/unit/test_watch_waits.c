/* test_watch_waits.c: how long watch_files waits after a save (watch.c),
 * noted through its sleep_ms option instead of slept: with inotify, the
 * settling wait (150 ms) comes once, after the event; polling, a tick
 * (500 ms), then the settling wait. Descriptor 0 is a valid inotify
 * descriptor: with stdin closed (grader watch <&-) it is the one inotify
 * gets, and the waits are those of inotify. The real sleep ends however
 * errno stood when it began.
 *
 *   CK_RUN_SUITE=watch_waits build/tests/unit_tests */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "suites.h"
#include "watch.h"

static int waits[16], nwaits, fd0_open;
static char dir[64], file[128];

static void note_wait(int ms)
{
    ck_assert_int_lt(nwaits, 16);
    waits[nwaits++] = ms;
    fd0_open = fcntl(0, F_GETFD) != -1;
}

static void put(const char *text)
{
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Round 1 saves the file (a new size); round 2 ends the watch. */
static void grade(void *ctx, const int *changed)
{
    int *round = ctx;
    ck_assert_int_eq(changed[0], 1);
    if (++*round == 1)
        put("saved again, longer\n");
}

/* The waits of one save, watched as `o` says. */
static void one_save(int poll)
{
    snprintf(dir, sizeof dir, "/tmp/grader-watch-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/a.cu", dir);
    put("first\n");
    nwaits = 0;
    int round = 0;
    const char *paths[] = {file};
    watch_opts o = {.rounds = 2, .poll = poll, .sleep_ms = note_wait};
    ck_assert_int_eq(watch_files(paths, 1, &o, grade, &round), 0);
    ck_assert_int_eq(round, 2);
    unlink(file);
    rmdir(dir);
}

START_TEST(inotify_settles_once)
{
    one_save(0);
    ck_assert_int_eq(nwaits, 2);
    ck_assert_int_eq(waits[0], 150);
    ck_assert_int_eq(waits[1], 0);
}
END_TEST

START_TEST(inotify_on_descriptor_0)
{
    close(0);        /* Check runs each test in a child of its own */
    one_save(0);
    ck_assert_int_eq(fd0_open, 1);   /* inotify's descriptor, while it waited */
    ck_assert_int_eq(nwaits, 2);
    ck_assert_int_eq(waits[0], 150);
    ck_assert_int_eq(waits[1], 0);
}
END_TEST

START_TEST(polling_ticks_then_settles)
{
    one_save(1);
    ck_assert_int_eq(nwaits, 2);
    ck_assert_int_eq(waits[0], 500);
    ck_assert_int_eq(waits[1], 150);
}
END_TEST

/* Round 1 saves the file and leaves errno at EINTR, as an interrupted
 * call of the grading may; round 2 ends the watch. */
static void grade_leaving_eintr(void *ctx, const int *changed)
{
    grade(ctx, changed);
    errno = EINTR;
}

START_TEST(a_real_sleep_ignores_a_stale_eintr)
{
    /* With nanosleep (no sleep_ms option): the settling wait after the
     * save (150 ms) ends although errno was EINTR when it began; a sleep
     * that took that for an interruption would start again forever. */
    snprintf(dir, sizeof dir, "/tmp/grader-watch-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/a.cu", dir);
    put("first\n");
    int round = 0;
    const char *paths[] = {file};
    watch_opts o = {.rounds = 2};
    ck_assert_int_eq(watch_files(paths, 1, &o, grade_leaving_eintr, &round), 0);
    ck_assert_int_eq(round, 2);
    unlink(file);
    rmdir(dir);
}
END_TEST

Suite *watch_waits_suite(void)
{
    Suite *s = suite_create("watch_waits");
    TCase *tc = tcase_create("waits");
    tcase_add_test(tc, inotify_settles_once);
    tcase_add_test(tc, inotify_on_descriptor_0);
    tcase_add_test(tc, polling_ticks_then_settles);
    tcase_add_test(tc, a_real_sleep_ignores_a_stale_eintr);
    suite_add_tcase(s, tc);
    return s;
}
