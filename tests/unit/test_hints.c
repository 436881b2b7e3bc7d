/* test_hints.c: hints that diagnose, and details that read (issue 15).
 *
 *   - each pattern diagnose.c knows is found in real NVRTC PTX of a kernel
 *     that has it (tests/gpu/faulty/: the shift register at several PDIST,
 *     libcu++'s consumer_wait(), an mbarrier ring, an L2 prefetch L2DIST
 *     elements ahead), and never in a kernel of the course that passes or
 *     that the grader accepts;
 *   - a slow kernel's report names the pattern before the exercise's hint;
 *     a hang of a kernel that waits on an mbarrier names the phase, in the
 *     message and in the "Try:" line;
 *   - no hint contradicts an answer the grader accepts (lesson 9's libcu++),
 *     and lesson 11's hint names the prefetch offset's unit;
 *   - detail lines wrap at word boundaries to the report's width. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compile.h"
#include "diagnose.h"
#include "fileio.h"
#include "pipeline.h"
#include "report.h"
#include "suites.h"

/* ---- the finders, on NVRTC's PTX --------------------------------------- */

/* The exercise of lesson `lesson` named `name`. */
static const exercise *find_exercise(int lesson, const char *name)
{
    for (const exercise *const *e = lesson_exercises[lesson]; e && *e; e++)
        if (!strcmp((*e)->name, name))
            return *e;
    ck_abort_msg("no lesson%d/%s", lesson, name);
    return NULL;
}

/* Diagnoses of `path` compiled for sm_90 as ex's student file, with the
 * defaults, knob `knob` (if any) set to `value`. */
static unsigned diags_of(const exercise *ex, const char *path, const char *kernel,
                         const char *knob, int value)
{
    int knobs[MAX_KNOBS] = {0};
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        knobs[k] = knob && !strcmp(ex->knobs[k].name, knob) ? value : ex->knobs[k].def;
    compiled c;
    compile_file(path, ex, kernel, knobs, 90, &c);
    ck_assert_msg(c.ok, "%s: %s", path, c.error);
    unsigned d = diagnose_exercise(ex, c.ptx);
    compiled_free(&c);
    return d;
}

START_TEST(shift_register_is_found)
{
    static const int pdist[] = {2, 4, 8, 16};
    const exercise *ex = find_exercise(7, "rolling_regs");
    unsigned d = diags_of(ex, "tests/gpu/faulty/shift_register/lesson7/rolling_regs.cu",
                          ex->kernel, "PDIST", pdist[_i]);
    ck_assert_msg(d & DIAG_COPY_OF_LOAD, "PDIST %d: %u", pdist[_i], d);
}
END_TEST

START_TEST(run_time_wait_depth_is_found)
{
    const exercise *ex = find_exercise(9, "rolling_async");
    unsigned d = diags_of(ex, "tests/gpu/faulty/consumer_wait/lesson9/rolling_async.cu",
                          ex->kernel, NULL, 0);
    ck_assert_uint_eq(d, DIAG_WAIT_DEPTH_SWITCH);
    d = diags_of(ex, "tests/gpu/accepted/lesson9-libcuxx/lesson9/rolling_async.cu", ex->kernel,
                 NULL, 0);
    ck_assert_uint_eq(d, 0);
}
END_TEST

/* chunk[i + L2DIST] at every L2DIST the knob allows is found; the
 * solution's chunk[i + L2DIST * BLOCKDIMX] never is, from 1 up. */
START_TEST(l2_prefetch_within_the_step_is_found)
{
    static const int l2dist[] = {1, 4, 16, 64};
    const exercise *ex = find_exercise(11, "l2_prefetch");
    unsigned d = diags_of(ex, "tests/gpu/faulty/l2dist_elements/lesson11/l2_prefetch.cu",
                          ex->kernel, "L2DIST", l2dist[_i]);
    ck_assert_msg(d == DIAG_L2_PREFETCH_IN_STEP, "L2DIST %d: %u", l2dist[_i], d);
    d = diags_of(ex, "solutions/lesson11/l2_prefetch.cu", ex->kernel, "L2DIST", l2dist[_i]);
    ck_assert_msg(d == 0, "solution at L2DIST %d: %u", l2dist[_i], d);
}
END_TEST

/* Lesson 11b's prefetch at the top of the loop, before the wait, at the
 * ring depths and prefetch distances the lesson tries; the reference,
 * which prefetches after its copy and commit, never. */
START_TEST(l2_prefetch_before_the_wait_is_found)
{
    static const struct { const char *knob; int value; } sets[] = {
        {"PDIST", 2}, {"PDIST", 4}, {"L2DIST", 8}, {"L2DIST", 16},
    };
    const exercise *ex = find_exercise(11, "short_ring");
    unsigned d = diags_of(ex, "tests/gpu/faulty/prefetch_before_wait/lesson11/short_ring.cu",
                          ex->kernel, sets[_i].knob, sets[_i].value);
    ck_assert_msg(d == DIAG_L2_PREFETCH_BEFORE_WAIT, "%s=%d: %u", sets[_i].knob,
                  sets[_i].value, d);
    d = diags_of(ex, "solutions/lesson11/short_ring.cu", ex->kernel, sets[_i].knob,
                 sets[_i].value);
    ck_assert_msg(d == 0, "solution at %s=%d: %u", sets[_i].knob, sets[_i].value, d);
}
END_TEST

/* Lesson 10's thread-major ring (the stubs of 10a and 10b) at the PDIST
 * the lesson tries; the index-major answer never, nor the padded one at
 * an odd stride; PADDING 2 at PDIST 8 (10 doubles apart) conflicts too. */
START_TEST(thread_major_ring_is_found)
{
    static const int pdist[] = {2, 4, 8, 16};
    const exercise *ex = find_exercise(10, "index_major");
    unsigned d = diags_of(ex, "exercises/lesson10/index_major.cu", ex->kernel, "PDIST",
                          pdist[_i]);
    ck_assert_msg(d == DIAG_THREAD_MAJOR_RING, "stub at PDIST %d: %u", pdist[_i], d);
    d = diags_of(ex, "solutions/lesson10/index_major.cu", ex->kernel, "PDIST", pdist[_i]);
    ck_assert_msg(d == 0, "solution at PDIST %d: %u", pdist[_i], d);
    const exercise *padded = find_exercise(10, "padded");
    d = diags_of(padded, "solutions/lesson10/padded.cu", padded->kernel, "PADDING", 2);
    ck_assert_msg(d == DIAG_THREAD_MAJOR_RING, "PDIST 8 PADDING 2: %u", d);
    d = diags_of(padded, "solutions/lesson10/padded.cu", padded->kernel, "PADDING", 3);
    ck_assert_msg(d == 0, "PDIST 8 PADDING 3: %u", d);
}
END_TEST

START_TEST(mbarrier_waits_are_found)
{
    const exercise *ex = find_exercise(12, "bulk_ring");
    unsigned d = diags_of(ex, "tests/gpu/faulty/phase_never_completes/lesson12/bulk_ring.cu",
                          ex->kernel, NULL, 0);
    ck_assert_uint_eq(d, DIAG_MBARRIER_WAIT);
    d = diags_of(ex, "tests/gpu/accepted/lesson12-libcuxx/lesson12/bulk_ring.cu", ex->kernel,
                 NULL, 0);
    ck_assert_uint_eq(d, DIAG_MBARRIER_WAIT);
}
END_TEST

/* No solution and no stub of the course shows a pattern that explains a
 * slow kernel: a diagnosis there would send a student after a fault that
 * is not there. (A wait on an mbarrier is no fault: it only words a hang.)
 * The one exception is the fault an exercise is about: lesson 10's stubs
 * are the thread-major ring both its exercises fix, and must show it. */
START_TEST(course_kernels_show_no_slow_pattern)
{
    const exercise *all[MAX_REGISTERED];
    registered_exercises(all, MAX_REGISTERED);
    const exercise *ex = all[_i];
    const char *dirs[2] = {"solutions", ex->demo ? "grader/demos" : "exercises"};
    for (int d = 0; d < 2; d++) {
        if (d == 0 && ex->demo)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dirs[d],
                 d == 0 && ex->reference ? ex->reference : ex->file);
        const char *kernel = d == 0 && ex->reference_kernel ? ex->reference_kernel : ex->kernel;
        unsigned got = diags_of(ex, path, kernel, NULL, 0);
        if (d == 1 && ex->lesson == 10) {
            ck_assert_msg(got & DIAG_THREAD_MAJOR_RING, "%s: %u", path, got);
            got &= ~(unsigned)DIAG_THREAD_MAJOR_RING;
        }
        ck_assert_msg(!(got & (DIAG_COPY_OF_LOAD | DIAG_WAIT_DEPTH_SWITCH |
                               DIAG_L2_PREFETCH_IN_STEP | DIAG_L2_PREFETCH_BEFORE_WAIT |
                               DIAG_THREAD_MAJOR_RING)),
                      "%s: %u", path, got);
    }
}
END_TEST

/* ---- what the report says ---------------------------------------------- */

static char *explained(const exercise *ex, const result *r, const char *root)
{
    graded g = {.ex = ex, .r = *r};
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    print_explanations(f, &g, 1, 0, root);
    fclose(f);
    return s;
}

static void axpy_slow(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.030;
}

/* The shift register's loop as NVVM writes it (lesson 7, CUDA 13.0). */
static const char shift_ptx[] =
    ".visible .entry axpy()\n{\n"
    "\tld.global.nc.f64 \t%fd65, [%rd13+1024];\n"
    "\tld.global.nc.f64 \t%fd66, [%rd13];\n"
    "$L__BB0_2:\n"
    "\t.pragma \"nounroll\";\n"
    "\t.loc\t1 31 9\n"
    "\tmov.f64 \t%fd16, %fd66;\n"
    "\tmov.f64 \t%fd66, %fd65;\n"
    "\t@%p2 bra \t$L__BB0_4;\n"
    "\tld.global.nc.f64 \t%fd65, [%rd25];\n"
    "$L__BB0_4:\n"
    "\tadd.f64 \t%fd76, %fd76, %fd16;\n"
    "\t@%p6 bra \t$L__BB0_2;\n"
    "\tret;\n}\n";

START_TEST(slow_report_names_the_pattern)
{
    result r;
    /* The pattern means something in a prefetch ring (lessons 5-12) only:
     * the same exercise as lesson 7's. */
    static exercise ring;
    ring = t_axpy;
    ring.lesson = 7;
    use_kernels(&ring, axpy_slow);
    host_module m = student_module(&ring, axpy_slow);
    m.ptx = shift_ptx;
    ck_assert_int_eq(host_add(&m), 0);
    grade_host(&ring, 0, &r);
    expect(&r, OUT_SLOW, NULL);
    ck_assert_uint_eq(r.diags, DIAG_COPY_OF_LOAD);
    char *s = explained(&ring, &r, "/nonexistent");
    ck_assert_msg(strstr(s, "Diagnosis: a register copied from a pending load"), "%s", s);
    free(s);
    /* And the report for tools names it. */
    char path[] = "/tmp/grader-hints-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    graded g = {.ex = &ring, .r = r};
    ck_assert_int_eq(write_json_report(path, &g, 1, "check"), 0);
    s = read_text_file(path, NULL);
    unlink(path);
    ck_assert_msg(s && strstr(s, "\"diagnoses\": [\"copy_of_pending_load\"]"), "%s", s);
    free(s);
    /* The same kernel without the copy between slots: no diagnosis. */
    use_kernels(&ring, axpy_slow);
    grade_host(&ring, 0, &r);
    expect(&r, OUT_SLOW, NULL);
    s = explained(&ring, &r, "/nonexistent");
    ck_assert_msg(!strstr(s, "Diagnosis"), "%s", s);
    free(s);
    /* Outside the ring lessons the same copy is no fault: not named. */
    host_module m0 = student_module(&t_axpy, axpy_slow);
    m0.ptx = shift_ptx;
    ck_assert_int_eq(host_add(&m0), 0);
    grade_host(&t_axpy, 0, &r);
    ck_assert_uint_eq(r.diags & DIAG_COPY_OF_LOAD, 0);
}
END_TEST

static void never_ends(host_call *c)
{
    c->ms = 1e9;
}

START_TEST(mbarrier_hang_names_the_phase)
{
    result r;
    use_kernels(&t_axpy, never_ends);
    host_module m = student_module(&t_axpy, never_ends);
    m.ptx = "\tmbarrier.try_wait.shared::cta.b64 p, [%r1], %rd2;\n";
    ck_assert_int_eq(host_add(&m), 0);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_HANG, "mbarrier");
    ck_assert_msg(strstr(r.message, "phase that never completes") &&
                  !strstr(r.message, "loop whose exit condition"), "%s", r.message);
    char *s = explained(&t_axpy, &r, "/nonexistent");
    ck_assert_msg(strstr(s, "expect_tx") && !strstr(s, "every __syncthreads()"), "%s", s);
    free(s);
    /* Without an mbarrier: the general advice. */
    use_kernels(&t_axpy, never_ends);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_HANG, "loop whose exit condition");
}
END_TEST

/* No hint contradicts an answer the grader accepts: lesson 9's names the
 * libcu++ forms tests/gpu/accepted/lesson9-libcuxx uses and warns of
 * consumer_wait(); lesson 11's names the offset's unit; lesson 7's the
 * shift register. */
START_TEST(hints_fit_accepted_answers)
{
    char *h9 = read_text_file("lessons/hints/lesson9-rolling_async.txt", NULL);
    char *h11 = read_text_file("lessons/hints/lesson11-l2_prefetch.txt", NULL);
    char *h7 = read_text_file("lessons/hints/lesson7-rolling_regs.txt", NULL);
    ck_assert_ptr_nonnull(h9);
    ck_assert_ptr_nonnull(h11);
    ck_assert_ptr_nonnull(h7);
    ck_assert_msg(!strstr(h9, "must be a __pipeline_memcpy_async"), "%s", h9);
    ck_assert_msg(strstr(h9, "cuda::memcpy_async") && strstr(h9, "pipeline_consumer_wait_prior") &&
                  strstr(h9, "consumer_wait()"), "%s", h9);
    for (char *p = h11; *p; p++)
        *p = *p == '\n' ? ' ' : *p;
    ck_assert_msg(strstr(h11, "L2DIST * BLOCKDIMX elements, not L2DIST"), "%s", h11);
    ck_assert_msg(strstr(h7, "shift register"), "%s", h7);
    free(h9);
    free(h11);
    free(h7);
}
END_TEST

/* Every "(lesson N, "Section")" a diagnosis or one of these hints sends the
 * student to is a heading of that lesson: a renamed section breaks no
 * pointer silently. */
static void sections_exist(const char *text, const char *what)
{
    for (const char *p = text; (p = strstr(p, "(lesson ")) != NULL; p++) {
        int lesson = atoi(p + 8);
        const char *q = strchr(p, ',');
        const char *close = strchr(p, ')');
        if (!q || (close && close < q))
            continue;
        char pattern[64], cmd[160], *lessonfile = NULL;
        snprintf(pattern, sizeof pattern, "lessons/lesson%d-", lesson);
        snprintf(cmd, sizeof cmd, "ls %s*.md 2>/dev/null", pattern);
        FILE *ls = popen(cmd, "r");
        char path[256] = "";
        if (ls && fgets(path, sizeof path, ls))
            path[strcspn(path, "\n")] = 0;
        if (ls)
            pclose(ls);
        lessonfile = path[0] ? read_text_file(path, NULL) : NULL;
        ck_assert_msg(lessonfile, "%s: no file for lesson %d", what, lesson);
        /* Each quoted name up to the closing parenthesis. */
        for (const char *s = strchr(q, '"'); s && (!close || s < close);) {
            const char *e = strchr(s + 1, '"');
            ck_assert_ptr_nonnull(e);
            char heading[200];
            snprintf(heading, sizeof heading, "## %.*s\n", (int)(e - s - 1), s + 1);
            ck_assert_msg(strstr(lessonfile, heading), "%s: lesson %d has no section '%s'", what,
                          lesson, heading);
            s = strchr(e + 1, '"');
            close = strchr(e + 1, ')');
        }
        free(lessonfile);
    }
}

START_TEST(hints_point_at_sections_that_exist)
{
    const char *diag[8];
    int n = diagnose_hints(~0u, diag, 8);
    ck_assert_int_eq(n, 5);
    for (int k = 0; k < n; k++)
        sections_exist(diag[k], "a diagnosis");
    sections_exist(diagnose_hang(DIAG_MBARRIER_WAIT), "the mbarrier hang");
    static const char *const files[] = {"lessons/hints/lesson7-rolling_regs.txt",
                                        "lessons/hints/lesson9-rolling_async.txt",
                                        "lessons/hints/lesson11-l2_prefetch.txt",
                                        "lessons/hints/lesson12-bulk_ring.txt"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char *t = read_text_file(files[k], NULL);
        ck_assert_ptr_nonnull(t);
        for (char *p = t; *p; p++)
            *p = *p == '\n' ? ' ' : *p;
        sections_exist(t, files[k]);
        free(t);
    }
}
END_TEST

/* ---- readable details -------------------------------------------------- */

START_TEST(details_wrap_at_word_boundaries)
{
    result r = {.outcome = OUT_WRONG};
    snprintf(r.message, sizeof r.message, "Wrong.");
    /* One long line: at 100 columns (not a terminal) it must break between
     * words, never inside one. */
    snprintf(r.detail, sizeof r.detail,
             "ptxas info: the ring keeps more copies in flight with more registers, and "
             "every word of this detail line must stay whole when it is wrapped to the "
             "width of the report, which is one hundred columns when not a terminal\n"
             "short line\n  indented line that is also rather long and must keep its own "
             "indent when it wraps around to the next line of the report, always whole");
    unsetenv("COLUMNS");
    char *s = explained(&t_axpy, &r, "/nonexistent");
    const char *words[] = {"copies", "registers", "detail", "wrapped", "hundred", "terminal",
                           "indented", "report,", "whole"};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        ck_assert_msg(strstr(s, words[k]), "'%s' was cut:\n%s", words[k], s);
    for (char *line = s; line && *line;) {
        char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        ck_assert_msg(len <= 99, "a line of %zu columns:\n%.*s", len, (int)len, line);
        line = eol ? eol + 1 : NULL;
    }
    ck_assert_msg(strstr(s, "     | short line\n"), "%s", s);
    ck_assert_msg(strstr(s, "     |   indented line"), "%s", s);
    free(s);
}
END_TEST

Suite *hints_suite(void)
{
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED);
    if (n > MAX_REGISTERED)
        n = MAX_REGISTERED;
    Suite *s = suite_create("hints");
    TCase *tc = tcase_create("finders");
    tcase_set_timeout(tc, 240);
    tcase_add_loop_test(tc, shift_register_is_found, 0, 4);
    tcase_add_test(tc, run_time_wait_depth_is_found);
    tcase_add_test(tc, mbarrier_waits_are_found);
    tcase_add_loop_test(tc, l2_prefetch_within_the_step_is_found, 0, 4);
    tcase_add_loop_test(tc, l2_prefetch_before_the_wait_is_found, 0, 4);
    tcase_add_loop_test(tc, thread_major_ring_is_found, 0, 4);
    tcase_add_loop_test(tc, course_kernels_show_no_slow_pattern, 0, n);
    suite_add_tcase(s, tc);

    tc = tcase_create("report");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, slow_report_names_the_pattern);
    tcase_add_test(tc, mbarrier_hang_names_the_phase);
    tcase_add_test(tc, hints_fit_accepted_answers);
    tcase_add_test(tc, hints_point_at_sections_that_exist);
    tcase_add_test(tc, details_wrap_at_word_boundaries);
    suite_add_tcase(s, tc);
    return s;
}
