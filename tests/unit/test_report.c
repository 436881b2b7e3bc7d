/* test_report.c: the JSON report tools read, and the table, explanations
 * and summary a person reads. Everything is written to temporary files. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fileio.h"
#include "report.h"
#include "stats.h"
#include "suites.h"

/* Everything written to f so far, NUL-terminated; free() it. */
static char *contents(FILE *f)
{
    fflush(f);
    long n = ftell(f);
    char *s = calloc((size_t)n + 1, 1);
    ck_assert_ptr_nonnull(s);
    rewind(f);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    return s;
}

static char *escaped(const char *in)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    json_escape(f, in);
    char *s = contents(f);
    fclose(f);
    return s;
}

START_TEST(escape_specials)
{
    char *s = escaped("say \"hi\" C:\\dir");
    ck_assert_str_eq(s, "\"say \\\"hi\\\" C:\\\\dir\"");
    free(s);
    s = escaped("line1\nline2\tend");
    ck_assert_str_eq(s, "\"line1\\nline2\\tend\"");
    free(s);
}
END_TEST

START_TEST(escape_control_chars)
{
    /* A compile log can hold any byte; JSON forbids raw control characters. */
    char *s = escaped("a\x01" "b\x1b[31mc\r");
    ck_assert_str_eq(s, "\"a\\u0001b\\u001b[31mc\\u000d\"");
    free(s);
    s = escaped(NULL);
    ck_assert_str_eq(s, "\"\"");
    free(s);
}
END_TEST

/* Two exercises and their results: one timed (with a NaN among its numbers),
 * one that failed before timing. */
static const exercise ex_fast = {
    .lesson = 0, .name = "x", .title = "A \"quoted\" title", .file = "lesson0/x.cu",
    .kernel = "x", .explained_in = "lessons/lesson0-measuring.md, section 2",
    .knobs = {{"TILE", 32, 8, 64, 1, "tile width"}, {"PDIST", 4, 1, 16, 0, "distance"}},
    .bar = BAR_SPEEDUP, .bar_share = 0.6, .bar_floor = 1.3,
};
static const exercise ex_wrong = {
    .lesson = 0, .name = "y", .title = "Second", .file = "lesson0/y.cu", .kernel = "y",
    .explained_in = "lessons/lesson0-measuring.md", .bar = BAR_BANDWIDTH, .bar_share = 0.5,
};

static void two_records(graded g[2])
{
    memset(g, 0, 2 * sizeof *g);
    g[0].ex = &ex_fast;
    result *r = &g[0].r;
    r->outcome = OUT_SLOW;
    snprintf(r->message, sizeof r->message, "Correct, but not fast enough.");
    snprintf(r->gpu, sizeof r->gpu, "NVIDIA H100 80GB HBM3");
    r->cc = 90;
    r->seed = 12345;
    r->knobs[0] = 16, r->knobs[1] = 6;
    r->timed = 1;
    r->time[V_BASELINE].ms = 2.0;
    r->time[V_STUDENT].ms = NAN;            /* must become null, not nan */
    r->time[V_SOLUTION].ms = 1.0;
    r->speedup = 1.1, r->ref_speedup = 2.0, r->bar = 1.6, r->measure = 1.1;
    r->copy_gbps = INFINITY;                /* neither is JSON */
    r->res[V_STUDENT] = (resources){.known = 1, .regs = 30, .occupancy_pct = -1};

    g[1].ex = &ex_wrong;
    r = &g[1].r;
    r->outcome = OUT_WRONG;
    snprintf(r->message, sizeof r->message, "The kernel computed 3 of 10 values wrong.");
    snprintf(r->detail, sizeof r->detail, "  index 3: expected 1, got 2\n\tand \\ more");
}

START_TEST(json_report_is_valid)
{
    graded g[2];
    two_records(g);
    char path[] = "/tmp/grader-report-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(write_json_report(path, g, 2, "your \"exercises\""), 0);
    char *text = read_text_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "\"outcome\": \"SLOW\""));
    ck_assert_ptr_nonnull(strstr(text, "\"outcome\": \"WRONG\""));
    ck_assert_ptr_nonnull(strstr(text, "\"knobs\": {\"TILE\": 16, \"PDIST\": 6}"));
    ck_assert_ptr_nonnull(strstr(text, "\"student_ms\": null"));
    ck_assert_ptr_nonnull(strstr(text, "\"copy_gbps\": null"));
    ck_assert_ptr_nonnull(strstr(text, "\"baseline_ms\": 2,"));
    ck_assert_ptr_null(strstr(text, "nan"));
    ck_assert_ptr_null(strstr(text, "inf"));
    /* The untimed record has no timing fields: only the first has any. */
    ck_assert_ptr_null(strstr(strstr(text, "baseline_ms") + 1, "baseline_ms"));
    free(text);

    if (system("command -v python3 >/dev/null 2>&1") != 0) {
        fprintf(stderr, "json_report_is_valid: no python3, JSON syntax not checked\n");
    } else {
        /* Strict: Python's parser accepts NaN and Infinity unless told not to. */
        char cmd[512];
        snprintf(cmd, sizeof cmd,
                 "python3 -c 'import json,sys\n"
                 "def bad(c):\n    raise ValueError(c)\n"
                 "d = json.load(open(sys.argv[1]), parse_constant=bad)\n"
                 "assert len(d[\"exercises\"]) == 2\n"
                 "assert d[\"exercises\"][0][\"student_ms\"] is None\n"
                 "assert \"baseline_ms\" not in d[\"exercises\"][1]' %s",
                 path);
        ck_assert_msg(system(cmd) == 0, "%s is not the JSON expected", path);
    }
    unlink(path);
}
END_TEST

/* Little's law in the report, with figures chosen so every number is
 * exact: 1320 GB/s x 600 ns / 132 SMs = 6000 B per SM sustained, 3300 GB/s
 * needs 15000 B; the share is 40%. */
static const exercise ex_ring = {
    .lesson = 9, .name = "ring", .title = "A ring", .file = "lesson9/ring.cu",
    .kernel = "ring", .latency_bound = 1, .bar = BAR_SPEEDUP, .bar_share = 0.5,
    .bar_floor = 1.5,
};

static void ring_record(graded *g, double latency_ns)
{
    memset(g, 0, sizeof *g);
    g->ex = &ex_ring;
    result *r = &g->r;
    r->outcome = OUT_SLOW;
    snprintf(r->message, sizeof r->message, "Correct, but not fast enough.");
    snprintf(r->gpu, sizeof r->gpu, "NVIDIA H100 80GB HBM3");
    r->cc = 90;
    r->timed = 1;
    r->time[V_BASELINE].ms = 2.0;
    r->time[V_STUDENT].ms = 1.0;
    r->time[V_STUDENT].gbps = 1320;
    r->time[V_SOLUTION].ms = 0.5;
    r->speedup = 2.0, r->ref_speedup = 4.0, r->bar = 2.5, r->measure = 2.0;
    r->copy_gbps = 3300;
    r->latency_ns = latency_ns;
    r->sm_count = 132;
}

/* The report as a wide terminal would show it: every column. */
static char *report_text(const graded *g, int n)
{
    setenv("COLUMNS", "160", 1);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    print_run_header(f, g, n, "x");
    print_table(f, g, n, 0);
    print_explanations(f, g, n, 0, "/nonexistent");
    char *s = contents(f);
    fclose(f);
    unsetenv("COLUMNS");
    return s;
}

static char *json_text(const graded *g, int n)
{
    char path[] = "/tmp/grader-report-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(write_json_report(path, g, n, "x"), 0);
    char *text = read_text_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    unlink(path);
    return text;
}

START_TEST(in_flight_figures)
{
    ck_assert_double_eq_tol(bytes_in_flight_per_sm(1320, 600, 132), 6000, 1e-9);
    ck_assert_double_eq_tol(bytes_in_flight_per_sm(3300, 600, 132), 15000, 1e-9);
    ck_assert_double_eq(bytes_in_flight_per_sm(1320, 0, 132), 0);
    ck_assert_double_eq(bytes_in_flight_per_sm(0, 600, 132), 0);
    ck_assert_double_eq(bytes_in_flight_per_sm(1320, 600, 0), 0);
    ck_assert_double_eq(bytes_in_flight_per_sm(NAN, 600, 132), 0);

    graded g;
    ring_record(&g, 600);
    char *s = report_text(&g, 1);
    ck_assert_msg(strstr(s, "memory latency 600 ns"), "%s", s);
    ck_assert_msg(strstr(s, "flight/SM"), "%s", s);
    ck_assert_msg(strstr(s, "5.9/14.6 KB"), "%s", s);
    ck_assert_msg(strstr(s, "to 5.9 KB per SM in flight (1320 GB/s x 600 ns / 132 SMs)"), "%s", s);
    ck_assert_msg(strstr(s, "bandwidth to 14.6 KB per SM, so yours is"), "%s", s);
    ck_assert_msg(strstr(s, "Under load the latency is longer"), "%s", s);
    ck_assert_msg(strstr(s, "so yours is 40% of that (Little's law,"), "%s", s);
    free(s);

    s = json_text(&g, 1);
    ck_assert_msg(strstr(s, "\"latency_ns\": 600, \"sm_count\": 132, "
                            "\"in_flight_bytes_per_sm\": 6000, "
                            "\"in_flight_needed_per_sm\": 15000, \"in_flight_share\": 0.4,"),
                  "%s", s);
    free(s);
}
END_TEST

/* No latency (not measured): no figures, and null in the JSON, never 0. */
START_TEST(in_flight_unknown_latency)
{
    graded g;
    ring_record(&g, 0);
    char *s = report_text(&g, 1);
    ck_assert_ptr_null(strstr(s, "memory latency"));
    ck_assert_ptr_null(strstr(s, "In flight"));
    ck_assert_ptr_null(strstr(s, " KB"));
    free(s);
    s = json_text(&g, 1);
    ck_assert_msg(strstr(s, "\"latency_ns\": null, \"sm_count\": 132, "
                            "\"in_flight_bytes_per_sm\": null, "
                            "\"in_flight_needed_per_sm\": null, \"in_flight_share\": null,"),
                  "%s", s);
    free(s);
}
END_TEST

/* An exercise not bound by latency shows none of it, whatever was measured. */
START_TEST(in_flight_only_where_latency_bound)
{
    graded g;
    ring_record(&g, 600);
    exercise plain = ex_ring;
    plain.latency_bound = 0;
    g.ex = &plain;
    char *s = report_text(&g, 1);
    ck_assert_ptr_null(strstr(s, "In flight"));
    ck_assert_ptr_null(strstr(s, "14.6"));
    free(s);
    s = json_text(&g, 1);
    ck_assert_ptr_null(strstr(s, "in_flight"));
    free(s);
}
END_TEST

START_TEST(json_report_bad_path)
{
    graded g[2];
    two_records(g);
    ck_assert_int_eq(write_json_report("/nonexistent-dir/report.json", g, 2, "x"), -1);
}
END_TEST

START_TEST(plain_text_without_color)
{
    graded g[2];
    two_records(g);
    g[0].r.outcome = OUT_PASS;
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    print_table(f, g, 2, 0);
    print_explanations(f, g, 2, 0, "/nonexistent");
    print_summary(f, g, 2, 0);
    char *s = contents(f);
    fclose(f);
    ck_assert_ptr_null(strchr(s, '\033'));
    ck_assert_ptr_nonnull(strstr(s, "1 passed, 1 failed"));
    ck_assert_ptr_nonnull(strstr(s, "lesson0/x"));
    ck_assert_ptr_nonnull(strstr(s, "WRONG"));
    /* The failed one says where it is explained; the detail is indented. */
    ck_assert_ptr_nonnull(strstr(s, "Explained in lessons/lesson0-measuring.md."));
    ck_assert_ptr_nonnull(strstr(s, "     |   index 3: expected 1, got 2"));
    free(s);
}
END_TEST

START_TEST(color_when_asked)
{
    graded g[2];
    two_records(g);
    FILE *f = tmpfile();
    print_summary(f, g, 2, 1);
    char *s = contents(f);
    fclose(f);
    ck_assert_ptr_nonnull(strchr(s, '\033'));
    ck_assert_ptr_nonnull(strstr(s, "0 passed, 2 failed"));
    free(s);
}
END_TEST

/* Grading several lessons shows how far along each one is. */
START_TEST(summary_shows_progress_by_lesson)
{
    graded g[2];
    two_records(g);
    exercise other = *g[1].ex;
    other.lesson = 3;
    g[1].ex = &other;
    g[0].r.outcome = OUT_PASS;
    FILE *f = tmpfile();
    print_summary(f, g, 2, 0);
    char *s = contents(f);
    fclose(f);
    ck_assert_str_eq(s, "Progress:  lesson0 1/1  lesson3 0/1\n1 passed, 1 failed\n");
    free(s);
}
END_TEST

START_TEST(summary_counts_demos_apart)
{
    graded g[2];
    two_records(g);
    exercise demo = ex_wrong;
    demo.demo = 1;
    g[1].ex = &demo;
    FILE *f = tmpfile();
    print_summary(f, g, 2, 0);
    char *s = contents(f);
    fclose(f);
    ck_assert_str_eq(s, "0 passed, 1 failed (1 demo shown, not graded)\n");
    free(s);
}
END_TEST

START_TEST(no_color_env_and_files)
{
    FILE *f = tmpfile();
    unsetenv("NO_COLOR");
    ck_assert_int_eq(want_color(f), 0);    /* a file is not a terminal */
    fclose(f);

    /* A pseudo-terminal shows that NO_COLOR, not the missing tty, says no. */
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0) {
        fprintf(stderr, "no_color_env_and_files: no pseudo-terminal, tty case skipped\n");
        setenv("NO_COLOR", "1", 1);
        ck_assert_int_eq(want_color(stdout), 0);
        return;
    }
    FILE *tty = fopen(ptsname(m), "w");
    ck_assert_ptr_nonnull(tty);
    ck_assert_int_eq(want_color(tty), 1);
    setenv("NO_COLOR", "1", 1);
    ck_assert_int_eq(want_color(tty), 0);
    unsetenv("NO_COLOR");
    fclose(tty);
    close(m);
}
END_TEST

/* A course root in a temporary folder holding one hint file. */
static char root[64];

static void make_root(void)
{
    snprintf(root, sizeof root, "/tmp/grader-root-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    char path[160];
    snprintf(path, sizeof path, "%s/lessons", root);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/lessons/hints", root);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/lessons/hints/lesson0-x.txt", root);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("Load each value once into shared memory.\n", f);
    fclose(f);
}

static void remove_root(void)
{
    char path[160];
    snprintf(path, sizeof path, "%s/lessons/hints/lesson0-x.txt", root);
    unlink(path);
    snprintf(path, sizeof path, "%s/lessons/hints", root);
    rmdir(path);
    snprintf(path, sizeof path, "%s/lessons", root);
    rmdir(path);
    rmdir(root);
}

/* The explanation of g[0] with outcome o. */
static char *explain(enum outcome o, int demo)
{
    graded g[2];
    two_records(g);
    exercise ex = ex_fast;
    ex.demo = demo;
    g[0].ex = &ex;
    g[0].r.outcome = o;
    make_root();
    FILE *f = tmpfile();
    print_explanations(f, g, 1, 0, root);
    char *s = contents(f);
    fclose(f);
    remove_root();
    return s;
}

START_TEST(hint_for_slow)
{
    char *s = explain(OUT_SLOW, 0);
    ck_assert_ptr_nonnull(strstr(s, "Hint (lessons/hints/lesson0-x.txt):"));
    ck_assert_ptr_nonnull(strstr(s, "Load each value once into shared memory."));
    free(s);
    s = explain(OUT_MECHANISM, 0);
    ck_assert_ptr_nonnull(strstr(s, "Load each value once"));
    free(s);
}
END_TEST

START_TEST(no_hint_otherwise)
{
    /* A wrong answer needs its error, not a speed hint; a demo has none. */
    char *s = explain(OUT_WRONG, 0);
    ck_assert_ptr_null(strstr(s, "Hint"));
    free(s);
    s = explain(OUT_SLOW, 1);
    ck_assert_ptr_null(strstr(s, "Hint"));
    free(s);
}
END_TEST

/* The longest line of s. */
static int widest(const char *s)
{
    int w = 0;
    for (const char *p = s; *p;) {
        int n = (int)strcspn(p, "\n");
        w = n > w ? n : w;
        p += n + (p[n] == '\n');
    }
    return w;
}

static char *table(graded *g, int n, const char *columns)
{
    if (columns)
        setenv("COLUMNS", columns, 1);
    else
        unsetenv("COLUMNS");
    FILE *f = tmpfile();
    print_table(f, g, n, 0);
    char *s = contents(f);
    fclose(f);
    unsetenv("COLUMNS");
    return s;
}

/* Not a terminal and no COLUMNS: 100 columns; wider or narrower when told.
 * The exercise, its result and its speedup always stay. */
START_TEST(table_fits_the_width)
{
    graded g[2];
    two_records(g);
    g[0].r.time[V_STUDENT].ms = 1.8;
    char *s = table(g, 2, NULL);
    ck_assert_int_le(widest(s), 100);
    ck_assert_ptr_nonnull(strstr(s, "speedup"));
    ck_assert_ptr_nonnull(strstr(s, "1.10x"));
    ck_assert_ptr_nonnull(strstr(s, "regs"));
    free(s);
    s = table(g, 2, "200");
    ck_assert_ptr_nonnull(strstr(s, "baseline"));
    ck_assert_ptr_nonnull(strstr(s, "GB/s"));
    free(s);
    s = table(g, 2, "50");
    ck_assert_int_le(widest(s), 50);
    ck_assert_ptr_nonnull(strstr(s, "lesson0/x"));
    ck_assert_ptr_nonnull(strstr(s, "SLOW"));
    ck_assert_ptr_nonnull(strstr(s, "1.10x"));
    free(s);
}
END_TEST

START_TEST(table_shows_knobs_and_drops_empty_timing)
{
    graded g[2];
    two_records(g);
    char *s = table(g, 2, NULL);
    /* ex_fast's defaults are TILE=32 and PDIST=4; it ran with 16 and 6. */
    ck_assert_ptr_nonnull(strstr(s, "\n  knobs: TILE=16 (default 32) PDIST=6 (default 4)\n"));
    free(s);
    /* Nothing timed (as without a GPU): no timing columns at all. */
    g[0].r.timed = 0;
    s = table(g, 2, NULL);
    ck_assert_ptr_null(strstr(s, "speedup"));
    ck_assert_ptr_null(strstr(s, "baseline"));
    ck_assert_ptr_nonnull(strstr(s, "regs"));
    free(s);
}
END_TEST

/* Every check is listed, the ones that hold as holding. */
START_TEST(checks_are_listed)
{
    graded g[2];
    two_records(g);
    result *r = &g[0].r;
    r->outcome = OUT_MECHANISM;
    r->checks[0] = (check_result){CS_HOLDS, "the PTX has 'cp.async'"};
    r->checks[1] = (check_result){CS_FAILS, "the kernel uses 64 bytes of local memory per "
                                             "thread (stack frame 64, spill stores 0); at "
                                             "most 0 allowed"};
    FILE *f = tmpfile();
    print_explanations(f, g, 1, 0, "/nonexistent");
    char *s = contents(f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(s, "   Mechanism checks:\n"));
    ck_assert_ptr_nonnull(strstr(s, "     holds  the PTX has 'cp.async'\n"));
    ck_assert_ptr_nonnull(strstr(s, "     FAILS  the kernel uses 64 bytes"));
    ck_assert_ptr_nonnull(strstr(s, "   Times: baseline 2.000 ms"));
    ck_assert_int_le(widest(s), 100);
    free(s);
    /* A wrong kernel's checks are not the point: not listed. */
    r->outcome = OUT_WRONG;
    f = tmpfile();
    print_explanations(f, g, 1, 0, "/nonexistent");
    s = contents(f);
    fclose(f);
    ck_assert_ptr_null(strstr(s, "Mechanism checks"));
    free(s);
}
END_TEST

/* Without a GPU: its own summary, CHECKED in a neutral colour, and the
 * JSON says so. */
START_TEST(without_a_gpu)
{
    graded g[2];
    two_records(g);
    for (int i = 0; i < 2; i++) {
        g[i].r.no_gpu = 1;
        g[i].r.timed = 0;
        g[i].r.gpu[0] = 0;
    }
    exercise with_check = ex_fast;
    with_check.checks[0] = (mech_check){CHECK_PTX_HAS, "ld.shared", 0, NULL, "why"};
    g[0].ex = &with_check;
    g[0].r.outcome = OUT_CHECKED;
    g[0].r.checks[0] = (check_result){CS_HOLDS, "the PTX has 'ld.shared'"};
    g[1].r.outcome = OUT_MECHANISM;
    FILE *f = tmpfile();
    print_summary(f, g, 2, 0);
    char *s = contents(f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(s, "Without a GPU: 1 checked, 1 failed a check\n"));
    ck_assert_ptr_nonnull(strstr(s, "CHECKED: compiles, and every mechanism check holds."));
    ck_assert_ptr_nonnull(strstr(s, "needs an NVIDIA GPU"));
    ck_assert_ptr_null(strstr(s, "passed"));
    free(s);

    f = tmpfile();
    print_table(f, g, 2, 1);
    print_explanations(f, g, 1, 1, "/nonexistent");
    s = contents(f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(s, "\033[36mCHECKED"));   /* cyan: neither red nor green */
    ck_assert_ptr_null(strstr(s, "\033[31mCHECKED"));
    ck_assert_ptr_nonnull(strstr(s, "Mechanism checks (compiler output for sm_90):"));
    free(s);

    char path[] = "/tmp/grader-report-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    ck_assert_int_eq(write_json_report(path, g, 2, "x"), 0);
    s = read_text_file(path, NULL);
    ck_assert_ptr_nonnull(strstr(s, "\"outcome\": \"CHECKED\""));
    ck_assert_ptr_nonnull(strstr(s, "\"checked_without_gpu\": true, \"simulated\": false, \"checks\": [{\"kind\": "
                                    "\"ptx_has\", \"state\": \"holds\", \"what\": \"the PTX "
                                    "has 'ld.shared'\"}]"));
    ck_assert_ptr_nonnull(strstr(s, "\"checks\": []"));
    free(s);
    unlink(path);
}
END_TEST

Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("json_escape");
    tcase_add_test(tc, escape_specials);
    tcase_add_test(tc, escape_control_chars);
    suite_add_tcase(s, tc);

    tc = tcase_create("json_report");
    tcase_set_timeout(tc, 30);   /* starts python3 */
    tcase_add_test(tc, json_report_is_valid);
    tcase_add_test(tc, json_report_bad_path);
    tcase_add_test(tc, in_flight_figures);
    tcase_add_test(tc, in_flight_unknown_latency);
    tcase_add_test(tc, in_flight_only_where_latency_bound);
    suite_add_tcase(s, tc);

    tc = tcase_create("text");
    tcase_add_test(tc, plain_text_without_color);
    tcase_add_test(tc, color_when_asked);
    tcase_add_test(tc, summary_counts_demos_apart);
    tcase_add_test(tc, summary_shows_progress_by_lesson);
    suite_add_tcase(s, tc);

    tc = tcase_create("layout");
    tcase_add_test(tc, table_fits_the_width);
    tcase_add_test(tc, table_shows_knobs_and_drops_empty_timing);
    tcase_add_test(tc, checks_are_listed);
    tcase_add_test(tc, without_a_gpu);
    suite_add_tcase(s, tc);

    tc = tcase_create("want_color");
    tcase_add_test(tc, no_color_env_and_files);
    suite_add_tcase(s, tc);

    tc = tcase_create("hints");
    tcase_add_test(tc, hint_for_slow);
    tcase_add_test(tc, no_hint_otherwise);
    suite_add_tcase(s, tc);
    return s;
}
