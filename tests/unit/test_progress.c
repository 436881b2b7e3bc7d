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

/* A verdict the PTX simulator gave (result.simulated) is kept under its
 * own key, apart from a no-GPU run that ran nothing, and the map says where
 * it came from; CORRECT counts as CHECKED does (done without a GPU). */
static char *map_at(const progress *p, int color, int width);

START_TEST(simulated_marked)
{
    static const struct {
        enum outcome o;
        int simulated;
        const char *key, *line;
    } cases[] = {
        {OUT_CORRECT, 1, PROGRESS_SIMULATED,
         "  tried      matmul          CORRECT on the PTX simulator (no GPU), "},
        {OUT_RACE, 1, PROGRESS_SIMULATED,
         "  tried      matmul          RACE on the PTX simulator (no GPU), "},
        {OUT_WRONG, 1, PROGRESS_SIMULATED,
         "  tried      matmul          WRONG on the PTX simulator (no GPU), "},
        {OUT_CHECKED, 0, PROGRESS_NO_GPU, "  tried      matmul          CHECKED without a GPU, "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        progress p = {0};
        graded g = one(3, "matmul", cases[i].o, 0, NULL);
        g.r.simulated = cases[i].simulated;
        ck_assert_int_eq(progress_update(&p, &g, 1, day(0)), 1);
        ck_assert_str_eq(get(&p, "lesson3/matmul", cases[i].key, 1)->verdict,
                         outcome_word(cases[i].o));
        char *m = map_at(&p, 0, 100);
        ck_assert_msg(strstr(m, cases[i].line), "no '%s' in:\n%s", cases[i].line, m);
        int done = cases[i].o == OUT_CORRECT || cases[i].o == OUT_CHECKED;
        ck_assert_msg(!strstr(m, "1 of the tried ones CHECKED or CORRECT") == !done, "%s", m);
        free(m);
        progress_free(&p);
    }
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
    SAYS(m, "1 of the tried ones CHECKED or CORRECT without a GPU");
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
    SAYS(m, "Every exercise is at least CHECKED or CORRECT without a GPU. Next, on a machine with an "
            "NVIDIA GPU:\nNext: lesson0/saxpy");
    free(m);
    progress_free(&p);
}
END_TEST


/* ---- the file, exactly -------------------------------------------------- */

/* The file a student may read and edit: the header, then one line a
 * record, tab-separated, "-" for no speedup, two decimals otherwise. */
START_TEST(file_exact_text)
{
    char path[] = "/tmp/grader-progress-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    progress p = {0};
    graded g[3] = {one(3, "matmul", OUT_SLOW, 1.256, H100), one(1, "shared_hog", OUT_CHECKED,
                                                                0, NULL),
                   one(0, "saxpy", OUT_SLOW, 0.5, H100)};
    g[0].r.knobs[0] = 32;
    ck_assert_int_eq(progress_update(&p, g, 3, day(0)), 3);
    ck_assert_int_eq(progress_save(path, &p), 0);
    char *text = read_text_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text,
                     "# Your progress in the course: written by make check, shown by make "
                     "progress.\n"
                     "# One line per exercise, GPU, and latest or best result. Delete this "
                     "file to start over.\n"
                     "lesson3/matmul\t" H100 "\tlatest\tSLOW\t1.26\t2026-11-18 11:06\t"
                     "TILE=32 (default 16)\n"
                     "lesson3/matmul\t" H100 "\tbest\tSLOW\t1.26\t2026-11-18 11:06\t"
                     "TILE=32 (default 16)\n"
                     "lesson1/shared_hog\tno GPU\tlatest\tCHECKED\t-\t2026-11-18 11:06\t"
                     "BLOCKDIMX=128\n"
                     "lesson1/shared_hog\tno GPU\tbest\tCHECKED\t-\t2026-11-18 11:06\t"
                     "BLOCKDIMX=128\n"
                     "lesson0/saxpy\t" H100 "\tlatest\tSLOW\t0.50\t2026-11-18 11:06\t\n"
                     "lesson0/saxpy\t" H100 "\tbest\tSLOW\t0.50\t2026-11-18 11:06\t\n");
    free(text);
    /* No temporary file is left beside it. */
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    ck_assert_int_ne(access(tmp, F_OK), 0);
    progress_free(&p);
    ck_assert_ptr_null(p.e);
    ck_assert_int_eq(p.n, 0);
    unlink(path);
}
END_TEST

/* A file written by hand: six fields are enough (no knobs); fewer than six, a comment, a kind that is
 * neither best nor latest, are skipped; "-" is no speedup; the last line
 * needs no newline. A seventh field ends at the next tab: what follows it
 * is dropped. */
START_TEST(file_read_by_fields)
{
    char path[] = "/tmp/grader-progress-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *text =
        "# a comment\tx\tbest\tPASS\t1\td\tk\n"
        "\n"
        "lesson0/saxpy\tG\tbest\tPASS\t-\tD1\n"
        "lesson0/saxpy\tG\tlatest\tSLOW\t0.5\tD2\tTILE=8\textra\n"
        "lesson0/five\tG\tbest\tPASS\t1.5\n"
        "lesson0/kind\tG\tBest\tPASS\t1.5\tD\tK\n"
        "lesson1/last\tH\tlatest\tWRONG\t2.25\tD3\tK=1";
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
    progress p;
    ck_assert_int_eq(progress_load(path, &p), 0);
    ck_assert_int_eq(p.n, 3);
    ck_assert_str_eq(p.e[0].id, "lesson0/saxpy");
    ck_assert_str_eq(p.e[0].gpu, "G");
    ck_assert_int_eq(p.e[0].best, 1);
    ck_assert_str_eq(p.e[0].verdict, "PASS");
    ck_assert_double_eq(p.e[0].speedup, 0);
    ck_assert_str_eq(p.e[0].date, "D1");
    ck_assert_str_eq(p.e[0].knobs, "");
    ck_assert_int_eq(p.e[1].best, 0);
    ck_assert_str_eq(p.e[1].verdict, "SLOW");
    ck_assert_double_eq(p.e[1].speedup, 0.5);
    ck_assert_str_eq(p.e[1].date, "D2");
    ck_assert_str_eq(p.e[1].knobs, "TILE=8");
    ck_assert_str_eq(p.e[2].id, "lesson1/last");
    ck_assert_double_eq(p.e[2].speedup, 2.25);
    ck_assert_str_eq(p.e[2].knobs, "K=1");
    progress_free(&p);
    unlink(path);
    /* A file that is there but cannot be read: an error, not empty progress. */
    ck_assert_int_eq(progress_load("/tmp", &p), -1);
    /* One that cannot be written: an error, and nothing left behind. */
    ck_assert_int_eq(progress_save("/nonexistent-dir/.progress", &p), -1);
}
END_TEST

/* Many records: the list grows past its first allocation. */
START_TEST(many_records)
{
    progress p = {0};
    char gpu[32];
    for (int i = 0; i < 150; i++) {
        snprintf(gpu, sizeof gpu, "GPU %d", i);
        graded g = one(0, "saxpy", OUT_PASS, 1.0 + i, gpu);
        ck_assert_int_eq(progress_update(&p, &g, 1, day(0)), 1);
    }
    ck_assert_int_eq(p.n, 300);
    for (int i = 0; i < 150; i++) {
        snprintf(gpu, sizeof gpu, "GPU %d", i);
        const progress_entry *e = get(&p, "lesson0/saxpy", gpu, 1);
        ck_assert_ptr_nonnull(e);
        ck_assert_double_eq_tol(e->speedup, 1.0 + i, 1e-9);
        ck_assert_ptr_nonnull(get(&p, "lesson0/saxpy", gpu, 0));
    }
    progress_free(&p);
}
END_TEST

/* Better: a higher verdict in the course's order, then a higher speedup;
 * an equal one keeps the record it has (its date and knobs). */
START_TEST(better_by_rank_then_speedup)
{
    static const enum outcome up[] = {OUT_COMPILE_ERROR, OUT_MISSING, OUT_REFUSED, OUT_CRASH,
                                      OUT_HANG, OUT_RACE, OUT_RESOURCES, OUT_WRONG,
                                      OUT_TOO_FAST, OUT_MECHANISM, OUT_SLOW, OUT_CHECKED,
                                      OUT_CORRECT, OUT_PASS_UNTIMED, OUT_PASS};
    progress p = {0};
    for (size_t i = 0; i < sizeof up / sizeof up[0]; i++) {
        graded g = one(3, "matmul", up[i], 0, H100);
        progress_update(&p, &g, 1, day((int)i));
        ck_assert_str_eq(get(&p, "lesson3/matmul", H100, 1)->verdict, outcome_word(up[i]));
        /* Each worse one after it leaves the best alone. */
        for (size_t j = 0; j < i; j++) {
            graded w = one(3, "matmul", up[j], 99, H100);
            progress_update(&p, &w, 1, day(40));
            ck_assert_str_eq(get(&p, "lesson3/matmul", H100, 1)->verdict, outcome_word(up[i]));
            ck_assert_str_eq(get(&p, "lesson3/matmul", H100, 0)->verdict, outcome_word(up[j]));
        }
    }
    ck_assert_int_eq(p.n, 2);
    progress_free(&p);

    graded g = one(3, "matmul", OUT_SLOW, 2.0, H100);
    progress_update(&p, &g, 1, day(0));
    g.r.knobs[0] = 8;
    progress_update(&p, &g, 1, day(1));
    const progress_entry *best = get(&p, "lesson3/matmul", H100, 1);
    ck_assert_str_eq(best->date, "2026-11-18 11:06");
    ck_assert_str_eq(best->knobs, "TILE=16");
    ck_assert_str_eq(get(&p, "lesson3/matmul", H100, 0)->date, "2026-11-19 11:06");
    g.r.speedup = 2.01;
    progress_update(&p, &g, 1, day(2));
    ck_assert_str_eq(get(&p, "lesson3/matmul", H100, 1)->knobs, "TILE=8 (default 16)");
    progress_free(&p);
}
END_TEST

/* A speedup that is not a number, or not measured, is kept as none. */
START_TEST(speedup_kept_only_when_measured)
{
    progress p = {0};
    graded g[2] = {one(0, "saxpy", OUT_SLOW, 1.5, H100), one(3, "matmul", OUT_PASS, 0, H100)};
    g[0].r.speedup = 0.0 / 0.0;
    g[1].r.speedup = 3.0;    /* not timed: a stale figure */
    ck_assert_int_eq(progress_update(&p, g, 2, day(0)), 2);
    ck_assert_double_eq(get(&p, "lesson0/saxpy", H100, 1)->speedup, 0);
    ck_assert_double_eq(get(&p, "lesson3/matmul", H100, 1)->speedup, 0);
    /* Recorded counts only the exercises kept. */
    graded h[3] = {one(0, "saxpy", OUT_PASS, 2, H100), one(0, "saxpy", OUT_NOT_RUN, 0, H100),
                   one(3, "matmul", OUT_SLOW, 1, RTX)};
    ck_assert_int_eq(progress_update(&p, h, 3, day(1)), 2);
    progress_free(&p);
}
END_TEST

/* ---- the map, line by line ---------------------------------------------- */

/* The whole line `line` is in text (it starts the text or follows a
 * newline, and ends with one). */
static void has_line(const char *text, const char *line)
{
    char want[512];
    snprintf(want, sizeof want, "\n%s\n", line);
    ck_assert_msg(!strncmp(text, want + 1, strlen(want + 1)) || strstr(text, want),
                  "the map lacks the line '%s':\n%s", line, text);
}
#define LINE has_line

static char *map_at(const progress *p, int color, int width)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    progress_print(f, p, "mine", color, width);
    fclose(f);
    return buf;
}

static int course_size(void)
{
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED), total = 0;
    for (int i = 0; i < n; i++)
        total += !all[i]->demo;
    return total;
}

/* Names are padded to the longest (bank_conflicts, 14), the results of
 * each GPU start in one column, a second GPU on a line of its own; knobs
 * only where the best used other values than the defaults. */
START_TEST(map_lines)
{
    progress p = {0};
    graded g[6] = {one(0, "saxpy", OUT_PASS, 23.3, H100), one(0, "saxpy", OUT_SLOW, 1.1, RTX),
                   one(3, "matmul", OUT_MECHANISM, 0.9, H100),
                   one(1, "shared_hog", OUT_CHECKED, 0, NULL),
                   one(1, "register_hog", OUT_WRONG, 0, H100),
                   one(1, "register_hog", OUT_CRASH, 0, RTX)};
    g[2].r.knobs[0] = 32;
    progress_update(&p, g, 6, day(0));
    graded later = one(0, "saxpy", OUT_SLOW, 1.05, RTX);
    progress_update(&p, &later, 1, day(1));
    char *m = map_at(&p, 0, 120);
    char head[128];
    int total = course_size();
    snprintf(head, sizeof head, "Course map: 1 of %d exercises passed, 3 tried, %d not tried.",
             total, total - 4);
    ck_assert_msg(!strncmp(m, head, strlen(head)) && m[strlen(head)] == '\n', "%s", m);
    LINE(m, "1 of the tried ones CHECKED or CORRECT without a GPU (speed needs a GPU).");
    LINE(m, "lesson0  measuring");
    LINE(m, "  passed     saxpy           PASS 23.30x on " H100 ", 2026-11-18 11:06");
    LINE(m, "                             best SLOW 1.10x, latest SLOW 1.05x, on " RTX
            ", 2026-11-19 11:06");
    LINE(m, "lesson1  occupancy");
    LINE(m, "  tried      shared_hog      CHECKED without a GPU, 2026-11-18 11:06");
    LINE(m, "  tried      register_hog    WRONG on " H100 ", 2026-11-18 11:06");
    LINE(m, "                             CRASH on " RTX ", 2026-11-18 11:06");
    LINE(m, "lesson3  shared memory");
    LINE(m, "  not tried  bank_conflicts");
    LINE(m, "  tried      matmul          MECHANISM 0.90x on " H100 ", 2026-11-18 11:06; best "
            "with TILE=32 (default 16)");
    /* Next: the first neither passed nor CHECKED, in course order. */
    const exercise *next = ex_of(1, "register_hog");
    char line[512];
    snprintf(line, sizeof line, "Next: lesson1/register_hog, %s.", next->title);
    LINE(m, line);
    snprintf(line, sizeof line, "  Read %s.", next->explained_in);
    LINE(m, line);
    LINE(m, "  Edit mine/lesson1/register_hog.cu, then: make check lesson1 ONLY=register_hog");
    LINE(m, "  (or make watch lesson1, which grades it again on every save).");
    free(m);
    progress_free(&p);
}
END_TEST

/* A narrow map cuts each result to the room left of the width (never
 * under 20 columns); in colour, passed is green, tried yellow, the
 * headings bold. */
START_TEST(map_width_and_colour)
{
    progress p = {0};
    graded g[2] = {one(0, "saxpy", OUT_PASS, 23.3, H100), one(1, "shared_hog", OUT_SLOW, 1.1,
                                                              H100)};
    progress_update(&p, g, 2, day(0));
    char *m = map_at(&p, 0, 60);
    LINE(m, "  passed     saxpy           PASS 23.30x on NVIDIA H100 80GB");
    free(m);
    m = map_at(&p, 0, 50);
    LINE(m, "  passed     saxpy           PASS 23.30x on NVIDIA");
    free(m);
    m = map_at(&p, 0, 40);
    LINE(m, "  passed     saxpy           PASS 23.30x on NVIDI");
    free(m);
    m = map_at(&p, 1, 100);
    char head[128];
    snprintf(head, sizeof head, "\033[1mCourse map: 1 of %d exercises passed, 1 tried, %d not "
             "tried.\033[0m\n\n", course_size(), course_size() - 2);
    ck_assert_msg(!strncmp(m, head, strlen(head)), "%s", m);
    LINE(m, "\033[1mlesson0  measuring\033[0m");
    LINE(m, "  \033[32mpassed   \033[0m  saxpy           PASS 23.30x on " H100
            ", 2026-11-18 11:06");
    LINE(m, "  \033[33mtried    \033[0m  shared_hog      SLOW 1.10x on " H100
            ", 2026-11-18 11:06");
    LINE(m, "  not tried  register_hog");
    free(m);
    progress_free(&p);
}
END_TEST

/* A progress file written by hand, loaded. */
static void load_text(progress *p, const char *text)
{
    char path[] = "/tmp/grader-progress-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
    ck_assert_int_eq(progress_load(path, p), 0);
    unlink(path);
}

/* Passed only with a best pass on a GPU; CHECKED only with a best CHECKED
 * (a latest one is only tried); tried otherwise. */
START_TEST(map_status_rules)
{
    progress p;
    load_text(&p, "lesson0/saxpy\tno GPU\tbest\tPASS\t-\tD\t\n"
                  "lesson1/shared_hog\tno GPU\tlatest\tCHECKED\t-\tD\t\n"
                  "lesson1/shared_hog\tno GPU\tbest\tMECHANISM\t-\tD\t\n"
                  "lesson1/register_hog\tG\tlatest\tPASS\t2\tD\t\n"
                  "lesson1/register_hog\tG\tbest\tSLOW\t1\tD\t\n"
                  "lesson2/mapping\tno GPU\tbest\tCHECKED\t-\tD\t\n"
                  "lesson2/mapping\tG\tbest\tWRONG\t-\tD\t\n"
                  "lesson2/transpose\tG\tbest\tPASS*\t-\tD\t\n");
    char *m = map_at(&p, 0, 100);
    char head[256];
    snprintf(head, sizeof head, "Course map: 1 of %d exercises passed, 4 tried, %d not tried.\n"
             "1 of the tried ones CHECKED or CORRECT without a GPU (speed needs a GPU).\n",
             course_size(), course_size() - 5);
    ck_assert_msg(!strncmp(m, head, strlen(head)), "%s", m);
    LINE(m, "  tried      saxpy           PASS without a GPU, D");
    LINE(m, "  tried      shared_hog      best MECHANISM, latest CHECKED, without a GPU, D");
    LINE(m, "  tried      register_hog    best SLOW 1.00x, latest PASS 2.00x, on G, D");
    LINE(m, "  tried      mapping         CHECKED without a GPU, D");
    LINE(m, "  passed     transpose       PASS* on G, D");
    /* Next: the first that is neither passed nor CHECKED. */
    ck_assert_ptr_nonnull(strstr(m, "\nNext: lesson0/saxpy, "));
    free(m);
    m = NULL;
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    progress_line(f, &p);
    fclose(f);
    char want[256];
    snprintf(want, sizeof want, "Course progress: 1 of %d exercises passed, 4 more tried (1 "
             "CHECKED or CORRECT\nwithout a GPU); make progress shows the map.\n", course_size());
    ck_assert_str_eq(buf, want);
    free(buf);
    progress_free(&p);

    /* Nothing CHECKED: not said. */
    load_text(&p, "lesson2/mapping\tG\tbest\tWRONG\t-\tD\t\n");
    f = open_memstream(&buf, &len);
    progress_line(f, &p);
    fclose(f);
    snprintf(want, sizeof want, "Course progress: 0 of %d exercises passed, 1 more tried; make "
             "progress shows\nthe map.\n", course_size());
    ck_assert_str_eq(buf, want);
    free(buf);
    progress_free(&p);
}
END_TEST

/* Every exercise passed but some only CHECKED: the first CHECKED one is
 * next, to grade on a GPU. */
START_TEST(map_next_checked_after_passes)
{
    progress p = {0};
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED), k = 0;
    const exercise *first = NULL, *second = NULL;
    for (int i = 0; i < n; i++) {
        if (all[i]->demo)
            continue;
        /* The fourth and the sixth exercise only CHECKED, the rest passed. */
        int checked = k == 3 || k == 5;
        k++;
        if (checked && !first)
            first = all[i];
        else if (checked)
            second = all[i];
        graded g = one(all[i]->lesson, all[i]->name, checked ? OUT_CHECKED : OUT_PASS, 2,
                       checked ? NULL : H100);
        progress_update(&p, &g, 1, day(0));
    }
    ck_assert_ptr_nonnull(second);
    char *m = map_at(&p, 0, 100);
    char line[256];
    snprintf(line, sizeof line, "Every exercise is at least CHECKED or CORRECT without a GPU. "
             "Next, on a machine with an NVIDIA GPU:\nNext: lesson%d/%s, %s.\n", first->lesson, first->name,
             first->title);
    ck_assert_msg(strstr(m, line) != NULL, "%s", m);
    free(m);
    progress_free(&p);
}
END_TEST

/* Each lesson's heading comes once, in course order, on the line just
 * before its first exercise: one heading per lesson with an exercise. */
START_TEST(map_one_heading_per_lesson)
{
    progress p = {0};
    char *m = map_at(&p, 0, 120);
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED), lessons = 0, seen[64] = {0};
    for (int i = 0; i < n; i++)
        if (!all[i]->demo && all[i]->lesson < 64 && !seen[all[i]->lesson]++)
            lessons++;
    int headings = 0, last = -1;
    for (const char *l = m; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        int lesson;
        if (sscanf(l, "lesson%d", &lesson) != 1)
            continue;
        headings++;
        ck_assert_msg(lesson > last, "lesson%d's heading again or out of order:\n%s", lesson, m);
        ck_assert_msg(lesson < 64 && seen[lesson], "a heading for lesson%d:\n%s", lesson, m);
        last = lesson;
        const char *next = strchr(l, '\n');
        ck_assert_msg(next && !strncmp(next + 1, "  not tried  ", 13),
                      "lesson%d's heading is not followed by an exercise:\n%s", lesson, m);
    }
    ck_assert_int_eq(headings, lessons);
    free(m);
}
END_TEST

/* Only the first p->n records are the progress: a record in the array's
 * spare room (left from an earlier run) is never shown as the latest. */
START_TEST(map_ignores_records_past_n)
{
    progress p = {0};
    graded g = one(0, "saxpy", OUT_PASS, 23.3, H100);
    progress_update(&p, &g, 1, day(0));
    ck_assert_int_eq(p.n, 2);
    ck_assert_int_gt(p.cap, p.n);
    p.e[p.n] = p.e[0].best ? p.e[1] : p.e[0];
    snprintf(p.e[p.n].verdict, sizeof p.e[p.n].verdict, "WRONG");
    char *m = map_at(&p, 0, 120);
    LINE(m, "  passed     saxpy           PASS 23.30x on " H100 ", 2026-11-18 11:06");
    ck_assert_msg(!strstr(m, "WRONG"), "%s", m);
    free(m);
    progress_free(&p);
}
END_TEST

/* A record read without knobs has none, whatever was read before: the
 * second file is read into the memory the first one's records left. */
START_TEST(file_record_without_knobs_after_one_with)
{
    char path[] = "/tmp/grader-progress-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    const char *with = "lesson3/matmul\tG\tbest\tSLOW\t1.5\tD1\tTILE=32 (default 16)\n";
    const char *without = "lesson3/matmul\tG\tbest\tSLOW\t1.5\tD1\n# of the same length\n";
    ck_assert_int_eq(strlen(with), strlen(without));
    for (int round = 0; round < 2; round++) {
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs(round ? without : with, f);
        fclose(f);
        progress p;
        ck_assert_int_eq(progress_load(path, &p), 0);
        ck_assert_int_eq(p.n, 1);
        ck_assert_str_eq(p.e[0].knobs, round ? "" : "TILE=32 (default 16)");
        ck_assert_str_eq(p.e[0].date, "D1");
        progress_free(&p);
    }
    unlink(path);
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
    tcase_add_test(tc, simulated_marked);
    tcase_add_test(tc, file_round_trip);
    tcase_add_test(tc, file_exact_text);
    tcase_add_test(tc, file_read_by_fields);
    tcase_add_test(tc, many_records);
    tcase_add_test(tc, better_by_rank_then_speedup);
    tcase_add_test(tc, speedup_kept_only_when_measured);
    tcase_add_test(tc, file_record_without_knobs_after_one_with);
    suite_add_tcase(s, tc);
    tc = tcase_create("map");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, course_map);
    tcase_add_test(tc, map_when_nothing_or_everything);
    tcase_add_test(tc, only_checked_points_to_a_gpu);
    tcase_add_test(tc, map_lines);
    tcase_add_test(tc, map_width_and_colour);
    tcase_add_test(tc, map_status_rules);
    tcase_add_test(tc, map_next_checked_after_passes);
    tcase_add_test(tc, map_one_heading_per_lesson);
    tcase_add_test(tc, map_ignores_records_past_n);
    suite_add_tcase(s, tc);
    return s;
}
