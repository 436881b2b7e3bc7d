/* test_reference_parts.c: a student copy's compiled references
 * (grade/reference.c) read from hand-written PTX files, and the one compile
 * path (grade/compile_jobs.c) with a compile function that only records
 * its jobs: which files each command compiles, under which names, in which
 * order a failure is reported, and where the reference comes from in a
 * student copy (its PTX; at other knobs the baseline; missing: refused).
 * No NVRTC: test_reference.c and test_compile_path.c compile for real.
 *
 *   CK_RUN_SUITE=reference_parts build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compile.h"
#include "compile_jobs.h"
#include "reference.h"
#include "suites.h"

static const exercise ex_m = {
    .lesson = 3, .name = "m", .title = "M", .file = "lesson3/m.cu", .kernel = "m",
    .knobs = {{"TILE", 16, 8, 32, 1, "tile"}, {"ROWS", 4, 1, 8, 0, "rows"}},
};

/* A course top in /tmp: with solutions/ (the full course) or without (a
 * student copy), and a reference PTX file for lesson3/m. */
static char root[64];

static void make_root(int full)
{
    snprintf(root, sizeof root, "/tmp/grader-refparts-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    char path[256];
    if (full) {
        snprintf(path, sizeof path, "%s/solutions", root);
        ck_assert_int_eq(mkdir(path, 0700), 0);
    }
    snprintf(path, sizeof path, "%s/grader", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/grader/references", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/grader/references/lesson3", root);
    mkdir(path, 0700);
}

static void write_ptx(const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/grader/references/lesson3/m.ptx", root);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void remove_root(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}

#define GOOD_PTX "// Reference solution of lesson3/m, compiled by `make release`.\n" \
                 "// source: solutions/lesson3/m.cu\n// kernel: m_ref\n"             \
                 "// knobs: TILE=16 ROWS=4\n// target: sm_75\n\n"                    \
                 ".visible .entry m_ref(\n)\n{\n\tret;\n}\n"

/* ---- reference.c -------------------------------------------------------- */

START_TEST(where_the_reference_is)
{
    make_root(1);
    grade_opts o = {.root = root, .student_dir = "exercises"};
    ck_assert_int_eq(reference_is_compiled(&o), 0);
    char path[1024], want[1024];
    reference_source(&ex_m, &o, path, sizeof path);
    snprintf(want, sizeof want, "%s/solutions/lesson3/m.cu", root);
    ck_assert_str_eq(path, want);
    remove_root();

    make_root(0);
    o.root = root;
    ck_assert_int_eq(reference_is_compiled(&o), 1);
    reference_source(&ex_m, &o, path, sizeof path);
    snprintf(want, sizeof want, "%s/grader/references/lesson3/m.ptx", root);
    ck_assert_str_eq(path, want);
    /* solutions as a file is no course's solutions folder. */
    snprintf(path, sizeof path, "%s/solutions", root);
    FILE *f = fopen(path, "w");
    fclose(f);
    ck_assert_int_eq(reference_is_compiled(&o), 1);
    remove_root();

    o.root = ".";
    reference_ptx_file(&ex_m, &o, path, sizeof path);
    ck_assert_str_eq(path, "grader/references/lesson3/m.ptx");
    reference_ptx_path(&ex_m, "/out", path, sizeof path);
    ck_assert_str_eq(path, "/out/lesson3/m.ptx");

    exercise ex = ex_m;
    ck_assert_int_eq(reference_oldest_cc(&ex), 75);
    ex.min_cc = 70;
    ck_assert_int_eq(reference_oldest_cc(&ex), 75);
    ex.min_cc = 80;
    ck_assert_int_eq(reference_oldest_cc(&ex), 80);
}
END_TEST

static int load(const exercise *ex, const int *knobs, compiled *c, const char **kernel,
                char *note, size_t len)
{
    grade_opts o = {.root = root, .student_dir = "exercises"};
    return reference_load(ex, knobs, &o, c, kernel, note, len);
}

/* At the knobs it was compiled for: its PTX, its entry point, the oldest
 * generation the exercise runs on. */
START_TEST(reference_at_its_knobs)
{
    make_root(0);
    write_ptx(GOOD_PTX);
    int knobs[MAX_KNOBS] = {16, 4};
    compiled c;
    const char *kernel = NULL;
    char note[400] = "stale";
    ck_assert_int_eq(load(&ex_m, knobs, &c, &kernel, note, sizeof note), 0);
    ck_assert_int_eq(c.ok, 1);
    ck_assert_int_eq(c.missing, 0);
    ck_assert_str_eq(c.ptx, GOOD_PTX);
    ck_assert_uint_eq(c.ptx_size, strlen(GOOD_PTX));
    ck_assert_str_eq(c.target, "compute_75");
    ck_assert_str_eq(kernel, "m_ref");
    ck_assert_str_eq(note, "");
    compiled_free(&c);
    exercise newer = ex_m;
    newer.min_cc = 90;
    ck_assert_int_eq(load(&newer, knobs, &c, &kernel, note, sizeof note), 0);
    ck_assert_str_eq(c.target, "compute_90");
    compiled_free(&c);
    /* The last header line may end the file. */
    write_ptx(".visible .entry m_ref(\n)\n{\n}\n// kernel: m_ref\n// knobs: TILE=16 ROWS=4");
    ck_assert_int_eq(load(&ex_m, knobs, &c, &kernel, note, sizeof note), 0);
    ck_assert_str_eq(kernel, "m_ref");
    compiled_free(&c);
    remove_root();
}
END_TEST

/* At other knobs the baseline stands in, and the note says why. */
START_TEST(reference_at_other_knobs)
{
    make_root(0);
    write_ptx(GOOD_PTX);
    int knobs[MAX_KNOBS] = {32, 4};
    compiled c;
    const char *kernel = NULL;
    char note[400];
    ck_assert_int_eq(load(&ex_m, knobs, &c, &kernel, note, sizeof note), 1);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_int_eq(c.missing, 0);
    ck_assert_ptr_null(c.ptx);
    ck_assert_str_eq(kernel, "m");
    ck_assert_str_eq(note, "this student copy of the course carries the reference solution "
                     "compiled only at the default knobs (TILE=16 ROWS=4), not at TILE=32 "
                     "ROWS=4, so the baseline was timed in its place");
    remove_root();
}
END_TEST

/* Missing, or damaged: refused, with the file named. */
START_TEST(reference_missing_or_damaged)
{
    make_root(0);
    int knobs[MAX_KNOBS] = {16, 4};
    compiled c;
    const char *kernel = NULL;
    char note[400] = "stale", want[1024];
    ck_assert_int_eq(load(&ex_m, knobs, &c, &kernel, note, sizeof note), -1);
    ck_assert_int_eq(c.missing, 1);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_str_eq(note, "");
    snprintf(want, sizeof want, "cannot read %s/grader/references/lesson3/m.ptx: this student "
             "copy lacks the compiled reference of lesson3/m", root);
    ck_assert_str_eq(c.error, want);

    static const char *const damaged[] = {
        /* no kernel line */
        "// source: x\n// knobs: TILE=16 ROWS=4\n.visible .entry m_ref(\n",
        /* no knobs line */
        "// source: x\n// kernel: m_ref\n.visible .entry m_ref(\n",
        /* the entry point is another */
        "// source: x\n// kernel: m_ref\n// knobs: TILE=16 ROWS=4\n.visible .entry other(\n",
        /* the header's first line is not read as a field */
        "// kernel: m_ref\n// knobs: TILE=16 ROWS=4\n.visible .entry m_ref(\n",
    };
    static const char *const named[] = {"", "m_ref", "m_ref", ""};
    for (int i = 0; i < 4; i++) {
        write_ptx(damaged[i]);
        ck_assert_int_eq(load(&ex_m, knobs, &c, &kernel, note, sizeof note), -1);
        ck_assert_int_eq(c.missing, 1);
        snprintf(want, sizeof want, "%s/grader/references/lesson3/m.ptx is damaged: its header "
                 "or its entry point '%s' is missing", root, named[i]);
        ck_assert_str_eq(c.error, want);
    }
    remove_root();
}
END_TEST

/* ---- compile_jobs.c ----------------------------------------------------- */

/* The compile function under test's control: every job it was given, and
 * which paths fail. */
static char asked[8][1024];
static int n_asked;
static const char *failing[3];

static void fake_compile(const compile_job *jobs, int n, compiled *out)
{
    for (int i = 0; i < n; i++) {
        snprintf(asked[n_asked++ % 8], sizeof asked[0], "%s|%s|%s|%d", jobs[i].path,
                 jobs[i].name ? jobs[i].name : "-", jobs[i].kernel, jobs[i].cc);
        memset(&out[i], 0, sizeof out[i]);
        out[i].ok = 1;
        snprintf(out[i].target, sizeof out[i].target, "sm_%d", jobs[i].cc);
        for (int f = 0; f < 3; f++)
            if (failing[f] && strstr(jobs[i].path, failing[f])) {
                out[i].ok = 0;
                snprintf(out[i].error, sizeof out[i].error, "%s failed", jobs[i].path);
            }
    }
}

static int compile_ex(const exercise *ex, unsigned which, const int *knobs, compiled c[3],
                      const char *kernel[3], char *note)
{
    grade_opts o = {.root = root, .student_dir = "mine"};
    n_asked = 0;
    return exercise_compile(ex, knobs, &o, 86, fake_compile, which, c, kernel, note, 400);
}

/* The jobs: the versions asked for, in variant order, each named as the
 * student knows it, with the entry point each must define. */
START_TEST(jobs_of_each_command)
{
    exercise ex = ex_m;
    ex.reference = "lesson3/r.cu";
    ex.reference_kernel = "r";
    grade_opts o = {.root = "/c", .student_dir = "mine"};
    int knobs[MAX_KNOBS] = {16, 4};
    exercise_jobs J;
    ck_assert_int_eq(exercise_jobs_make(&J, &ex, knobs, &o, 80, JOB_BASELINE | JOB_SOLUTION), 2);
    ck_assert_int_eq(J.variant[0], V_BASELINE);
    ck_assert_int_eq(J.variant[1], V_SOLUTION);
    ck_assert_str_eq(J.job[1].path, "/c/solutions/lesson3/r.cu");
    ck_assert_str_eq(J.job[1].name, "solutions/lesson3/r.cu");
    ck_assert_str_eq(J.job[1].kernel, "r");
    ck_assert_str_eq(J.job[0].kernel, "m");
    ck_assert_ptr_eq(J.job[0].knobs, knobs);
    ck_assert_ptr_eq(J.job[0].ex, &ex);
    ck_assert_int_eq(J.job[1].cc, 80);
    ck_assert_ptr_null(J.job[0].within);
    ck_assert_ptr_null(J.job[1].within);
    ck_assert_int_eq(exercise_jobs_find(&J, V_STUDENT), -1);
    ck_assert_int_eq(exercise_jobs_find(&J, V_SOLUTION), 1);
    ck_assert_int_eq(exercise_jobs_make(&J, &ex, knobs, &o, 80, 0), 0);
    ck_assert_int_eq(exercise_jobs_find(&J, V_BASELINE), -1);
    /* A demo's file is the course's: no folder to keep it in. */
    ex.demo = 1;
    ck_assert_int_eq(exercise_jobs_make(&J, &ex, knobs, &o, 80, JOB_STUDENT), 1);
    ck_assert_str_eq(J.job[0].path, "/c/grader/demos/lesson3/m.cu");
    ck_assert_ptr_null(J.job[0].within);
    ck_assert_str_eq(J.folder, "");
}
END_TEST

/* In the full course: every version compiled by the function given; the
 * course's failure is named before the student's, the baseline's before
 * the reference's. */
START_TEST(full_course_failures_in_order)
{
    make_root(1);
    int knobs[MAX_KNOBS] = {16, 4};
    compiled c[3];
    const char *kernel[3];
    char note[400];
    static const struct { const char *fail[3]; int want; } t[] = {
        {{NULL}, -1},
        {{"mine/"}, V_STUDENT},
        {{"mine/", "solutions/"}, V_SOLUTION},
        {{"mine/", "solutions/", "baselines/"}, V_BASELINE},
        {{"baselines/", "mine/"}, V_BASELINE},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        memcpy(failing, t[i].fail, sizeof failing);
        ck_assert_int_eq(compile_ex(&ex_m, JOB_ALL, knobs, c, kernel, note), t[i].want);
        ck_assert_int_eq(n_asked, 3);
    }
    memset(failing, 0, sizeof failing);
    char want[1200];
    snprintf(want, sizeof want, "%s/grader/baselines/lesson3/m.cu|grader/baselines/lesson3/m.cu|"
             "m|86", root);
    ck_assert_str_eq(asked[0], want);
    snprintf(want, sizeof want, "%s/mine/lesson3/m.cu|mine/lesson3/m.cu|m|86", root);
    ck_assert_str_eq(asked[1], want);
    ck_assert_str_eq(kernel[V_BASELINE], "m");
    ck_assert_str_eq(kernel[V_SOLUTION], "m");
    ck_assert_str_eq(c[V_SOLUTION].target, "sm_86");
    ck_assert_str_eq(note, "");
    /* Only the student's: the others neither compiled nor named. */
    failing[0] = "baselines/";
    ck_assert_int_eq(compile_ex(&ex_m, JOB_STUDENT, knobs, c, kernel, note), -1);
    ck_assert_int_eq(n_asked, 1);
    ck_assert_ptr_null(kernel[V_BASELINE]);
    ck_assert_ptr_null(kernel[V_SOLUTION]);
    ck_assert_str_eq(kernel[V_STUDENT], "m");
    ck_assert_int_eq(c[V_BASELINE].ok, 0);
    ck_assert_str_eq(c[V_BASELINE].target, "");
    memset(failing, 0, sizeof failing);
    remove_root();
}
END_TEST

/* A student copy: the reference is its PTX; at other knobs the baseline,
 * compiled in its place; missing, the reference is the version that did
 * not build. */
START_TEST(student_copy_reference)
{
    make_root(0);
    write_ptx(GOOD_PTX);
    int knobs[MAX_KNOBS] = {16, 4};
    compiled c[3];
    const char *kernel[3];
    char note[400];
    ck_assert_int_eq(compile_ex(&ex_m, JOB_ALL, knobs, c, kernel, note), -1);
    ck_assert_int_eq(n_asked, 2);           /* baseline and student only */
    ck_assert_str_eq(kernel[V_SOLUTION], "m_ref");
    ck_assert_str_eq(c[V_SOLUTION].ptx, GOOD_PTX);
    ck_assert_str_eq(note, "");
    compiled_free(&c[V_SOLUTION]);

    knobs[0] = 8;
    ck_assert_int_eq(compile_ex(&ex_m, JOB_ALL, knobs, c, kernel, note), -1);
    ck_assert_int_eq(n_asked, 3);           /* and the baseline again, for the reference */
    char want[1200];
    snprintf(want, sizeof want, "%s/grader/baselines/lesson3/m.cu|grader/baselines/lesson3/m.cu|"
             "m|86", root);
    ck_assert_str_eq(asked[2], want);
    ck_assert_int_eq(c[V_SOLUTION].ok, 1);
    ck_assert_str_eq(kernel[V_SOLUTION], "m");
    ck_assert_ptr_nonnull(strstr(note, "not at TILE=8 ROWS=4, so the baseline was timed"));
    /* A baseline that does not build in the reference's place: the
     * baseline is named first anyway. */
    failing[0] = "baselines/";
    ck_assert_int_eq(compile_ex(&ex_m, JOB_ALL, knobs, c, kernel, note), V_BASELINE);
    memset(failing, 0, sizeof failing);

    knobs[0] = 16;
    char path[256];
    snprintf(path, sizeof path, "%s/grader/references/lesson3/m.ptx", root);
    unlink(path);
    ck_assert_int_eq(compile_ex(&ex_m, JOB_ALL, knobs, c, kernel, note), V_SOLUTION);
    ck_assert_int_eq(c[V_SOLUTION].ok, 0);
    ck_assert_int_eq(c[V_SOLUTION].missing, 1);
    ck_assert_ptr_nonnull(strstr(c[V_SOLUTION].error, "lacks the compiled reference"));
    /* Without the reference asked for, none is looked for. */
    ck_assert_int_eq(compile_ex(&ex_m, JOB_BASELINE | JOB_STUDENT, knobs, c, kernel, note), -1);
    ck_assert_int_eq(n_asked, 2);
    ck_assert_ptr_null(kernel[V_SOLUTION]);
    remove_root();
}
END_TEST

Suite *reference_parts_suite(void)
{
    Suite *s = suite_create("reference_parts");
    TCase *tc = tcase_create("reference");
    tcase_add_test(tc, where_the_reference_is);
    tcase_add_test(tc, reference_at_its_knobs);
    tcase_add_test(tc, reference_at_other_knobs);
    tcase_add_test(tc, reference_missing_or_damaged);
    suite_add_tcase(s, tc);
    tc = tcase_create("compile_jobs");
    tcase_add_test(tc, jobs_of_each_command);
    tcase_add_test(tc, full_course_failures_in_order);
    tcase_add_test(tc, student_copy_reference);
    suite_add_tcase(s, tc);
    return s;
}
