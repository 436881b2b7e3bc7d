/* test_progress.c: the progress file (latest and best per exercise and GPU,
 * kept apart per GPU and for runs without one) and the course map made from
 * it. Files go to /tmp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "fileio.h"
#include "progress.h"
#include "suites.h"

#define H100 "NVIDIA H100 80GB HBM3"
#define RTX "NVIDIA GeForce RTX 4090"

static const exercise *ex_of(int lesson, const char *name)
{
    for (const exercise *const *e = lesson_exercises[lesson]; *e; e++)
        if (!strcmp((*e)->name, name))
            return *e;
    ck_abort_msg("no lesson%d/%s", lesson, name);
    return NULL;
}

/* One graded exercise: on `gpu` (NULL: without a GPU). */
static graded one(int lesson, const char *name, enum outcome o, double speedup,
                  const char *gpu)
{
    graded g;
    memset(&g, 0, sizeof g);
    g.ex = ex_of(lesson, name);
    g.r.outcome = o;
    if (gpu)
        snprintf(g.r.gpu, sizeof g.r.gpu, "%s", gpu);
    else
        g.r.no_gpu = 1;
    g.r.timed = speedup > 0;
    g.r.speedup = speedup;
    for (int k = 0; k < MAX_KNOBS && g.ex->knobs[k].name; k++)
        g.r.knobs[k] = g.ex->knobs[k].def;
    return g;
}

static const progress_entry *get(const progress *p, const char *id, const char *gpu, int best)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->e[i].id, id) && !strcmp(p->e[i].gpu, gpu) && p->e[i].best == best)
            return &p->e[i];
    return NULL;
}

static time_t day(int d)
{
    return (time_t)1795000000 + d * 86400;   /* a fixed date, in UTC */
}

static void setup(void)
{
    setenv("TZ", "UTC", 1);
    tzset();
}

START_TEST(latest_and_best)
{
    progress p = {0};
    graded g = one(3, "bank_conflicts", OUT_SLOW, 1.20, H100);
    ck_assert_int_eq(progress_update(&p, &g, 1, day(0)), 1);
    g = one(3, "bank_conflicts", OUT_PASS, 3.10, H100);
    progress_update(&p, &g, 1, day(1));
    g = one(3, "bank_conflicts", OUT_SLOW, 1.50, H100);
    progress_update(&p, &g, 1, day(2));
    const progress_entry *best = get(&p, "lesson3/bank_conflicts", H100, 1);
    const progress_entry *latest = get(&p, "lesson3/bank_conflicts", H100, 0);
    ck_assert_ptr_nonnull(best);
    ck_assert_ptr_nonnull(latest);
    ck_assert_str_eq(best->verdict, "PASS");
    ck_assert_double_eq_tol(best->speedup, 3.10, 1e-9);
    ck_assert_str_eq(latest->verdict, "SLOW");
    ck_assert_double_eq_tol(latest->speedup, 1.50, 1e-9);
    /* A pass at a lower speedup does not replace a faster pass... */
    g = one(3, "bank_conflicts", OUT_PASS, 2.9, H100);
    progress_update(&p, &g, 1, day(3));
    ck_assert_double_eq_tol(get(&p, "lesson3/bank_conflicts", H100, 1)->speedup, 3.10, 1e-9);
    /* ... and a faster SLOW does not replace a PASS. */
    g = one(3, "bank_conflicts", OUT_SLOW, 4.0, H100);
    progress_update(&p, &g, 1, day(4));
    ck_assert_str_eq(get(&p, "lesson3/bank_conflicts", H100, 1)->verdict, "PASS");
    ck_assert_int_eq(p.n, 2);
    progress_free(&p);
}
END_TEST

START_TEST(gpus_kept_apart)
{
    progress p = {0};
    graded g[3] = {one(3, "matmul", OUT_PASS, 1.5, H100), one(3, "matmul", OUT_SLOW, 1.1, RTX),
                   one(3, "matmul", OUT_CHECKED, 0, NULL)};
    progress_update(&p, &g[0], 1, day(0));
    progress_update(&p, &g[1], 1, day(1));
    progress_update(&p, &g[2], 1, day(2));
    ck_assert_str_eq(get(&p, "lesson3/matmul", H100, 1)->verdict, "PASS");
    ck_assert_str_eq(get(&p, "lesson3/matmul", RTX, 1)->verdict, "SLOW");
    ck_assert_str_eq(get(&p, "lesson3/matmul", PROGRESS_NO_GPU, 1)->verdict, "CHECKED");
    ck_assert_int_eq(p.n, 6);
    progress_free(&p);
}
END_TEST

START_TEST(what_is_not_recorded)
{
    progress p = {0};
    graded g[5] = {
        one(7, "rolling_direct", OUT_MECHANISM, 0.98, H100),   /* a demo */
        one(3, "matmul", OUT_INTERNAL, 0, H100),               /* the course's fault */
        one(3, "matmul", OUT_NO_GPU, 0, H100),
        one(9, "rolling_async", OUT_UNSUPPORTED, 0, "Tesla T4"),
        one(3, "matmul", OUT_CRASH, 0, ""),                    /* no GPU name to key it */
    };
    g[4].r.no_gpu = 0;
    ck_assert_int_eq(progress_update(&p, g, 5, day(0)), 0);
    ck_assert_int_eq(p.n, 0);
    progress_free(&p);
}
END_TEST

START_TEST(file_round_trip)
{
    char path[] = "/tmp/grader-progress-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    unlink(path);
    progress p;
    ck_assert_int_eq(progress_load(path, &p), 0);   /* absent: empty */
    ck_assert_int_eq(p.n, 0);
    graded g[2] = {one(3, "matmul", OUT_PASS, 1.52, H100), one(1, "shared_hog", OUT_MECHANISM,
                                                                  0, NULL)};
    g[0].r.knobs[0] = 32;
    progress_update(&p, g, 2, day(0));
    ck_assert_int_eq(progress_save(path, &p), 0);
    progress_free(&p);

    /* A line someone broke by hand is skipped, the rest still read. */
    FILE *f = fopen(path, "a");
    ck_assert_ptr_nonnull(f);
    fputs("garbage without tabs\nlesson3/x\tGPU\tneither\tPASS\t1\tdate\t\n", f);
    fclose(f);
    ck_assert_int_eq(progress_load(path, &p), 0);
    ck_assert_int_eq(p.n, 4);
    const progress_entry *e = get(&p, "lesson3/matmul", H100, 1);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->verdict, "PASS");
    ck_assert_double_eq_tol(e->speedup, 1.52, 1e-9);
    ck_assert_str_eq(e->knobs, "TILE=32 (default 16)");
    ck_assert_str_eq(e->date, "2026-11-18 11:06");
    e = get(&p, "lesson1/shared_hog", PROGRESS_NO_GPU, 0);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->verdict, "MECHANISM");
    ck_assert_double_eq_tol(e->speedup, 0, 1e-9);
    char *text = read_text_file(path, NULL);
    ck_assert_ptr_nonnull(strstr(text, "# Your progress in the course"));
    free(text);
    progress_free(&p);
    unlink(path);
}
END_TEST

static char *map_of(const progress *p)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    progress_print(f, p, "exercises", 0, 100);
    progress_line(f, p);
    fclose(f);
    return buf;
}

#define SAYS(text, part) ck_assert_msg(strstr(text, part) != NULL, "map lacks '%s':\n%s", part, text)

START_TEST(course_map)
{
    progress p = {0};
    graded g[4] = {one(0, "saxpy", OUT_PASS, 23.3, H100), one(1, "shared_hog", OUT_SLOW, 1.2, H100),
                   one(1, "shared_hog", OUT_WRONG, 0, RTX),
                   one(1, "register_hog", OUT_CHECKED, 0, NULL)};
    progress_update(&p, g, 4, day(0));
    char *m = map_of(&p);
    SAYS(m, "Course map: 1 of ");
    SAYS(m, "2 tried");
    SAYS(m, "lesson0  measuring\n");
    SAYS(m, "  passed     saxpy");
    SAYS(m, "PASS 23.30x on " H100 ", 2026-11-18 11:06");
    SAYS(m, "  tried      shared_hog");
    SAYS(m, "SLOW 1.20x on " H100);
    SAYS(m, "WRONG on " RTX);
    SAYS(m, "  tried      register_hog");
    SAYS(m, "CHECKED without a GPU");
    SAYS(m, "  not tried  mapping\n");
    SAYS(m, "1 of the tried ones CHECKED without a GPU");
    /* Next: the first neither passed nor CHECKED. */
    SAYS(m, "Next: lesson1/shared_hog, ");
    SAYS(m, "Edit exercises/lesson1/shared_hog.cu, then: make check lesson1 ONLY=shared_hog");
    SAYS(m, "Course progress: 1 of ");
    SAYS(m, "exercises passed, 2 more tried (1 CHECKED");
    for (char *line = m; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        ck_assert_int_le((int)strcspn(line, "\n"), 100);
    free(m);

    /* Latest differs from best: both are shown. */
    graded again = one(0, "saxpy", OUT_WRONG, 0, H100);
    progress_update(&p, &again, 1, day(1));
    m = map_of(&p);
    SAYS(m, "best PASS 23.30x, latest WRONG, on " H100 ", 2026-11-19");
    free(m);
    progress_free(&p);
}
END_TEST

START_TEST(map_when_nothing_or_everything)
{
    progress p = {0};
    char *m = map_of(&p);
    SAYS(m, "0 tried");
    SAYS(m, "Next: lesson0/saxpy");
    free(m);
    /* Every exercise passed on some GPU. */
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED);
    for (int i = 0; i < n; i++)
        if (!all[i]->demo) {
            graded g = one(all[i]->lesson, all[i]->name, OUT_PASS_UNTIMED, 0,
                           i % 2 ? H100 : RTX);
            progress_update(&p, &g, 1, day(0));
        }
    m = map_of(&p);
    SAYS(m, "Every exercise has passed.");
    free(m);
    progress_free(&p);
}
END_TEST

START_TEST(only_checked_points_to_a_gpu)
{
    /* Someone without a GPU who has every exercise CHECKED. */
    progress p = {0};
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED);
    for (int i = 0; i < n; i++)
        if (!all[i]->demo) {
            graded g = one(all[i]->lesson, all[i]->name, OUT_CHECKED, 0, NULL);
            progress_update(&p, &g, 1, day(0));
        }
    char *m = map_of(&p);
    SAYS(m, "Course map: 0 of ");
    SAYS(m, "Every exercise is at least CHECKED without a GPU. Next, on a machine with an "
            "NVIDIA GPU:\nNext: lesson0/saxpy");
    free(m);
    progress_free(&p);
}
END_TEST

Suite *progress_suite(void)
{
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("records");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, latest_and_best);
    tcase_add_test(tc, gpus_kept_apart);
    tcase_add_test(tc, what_is_not_recorded);
    tcase_add_test(tc, file_round_trip);
    suite_add_tcase(s, tc);
    tc = tcase_create("map");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, course_map);
    tcase_add_test(tc, map_when_nothing_or_everything);
    tcase_add_test(tc, only_checked_points_to_a_gpu);
    suite_add_tcase(s, tc);
    return s;
}
