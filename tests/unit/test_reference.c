/* test_reference.c: the student copy's compiled references, without a GPU.
 * `grader references` writes the PTX from solutions/; a course folder with
 * no solutions/ reads it back at the default knobs, stands the baseline in
 * at other knobs (and says so in the verdict), and refuses a missing or
 * damaged file. The stand-in is also graded through the whole pipeline on
 * the host backend (pipeline.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "child.h"
#include "fileio.h"
#include "pipeline.h"
#include "compile_jobs.h"
#include "reference.h"
#include "references.h"
#include "verdict.h"
#include "suites.h"

static char copy[512];         /* a course folder with no solutions/ */
static char written[512];      /* every reference, written once for the tests' copies */
static char write_error[800];  /* why they could not be written */

/* `grader references` into a folder whose baselines are the course's own,
 * once for the tests of "student copy": in a child, so that the runner's
 * process stays as it was (a later suite's test depends on where its
 * allocations land). Unchecked: an error is kept for make_copy to report. */
static void write_references(void)
{
    const char *tmp = getenv("TMPDIR");
    write_error[0] = 0;
    snprintf(written, sizeof written, "%s/test-reference-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(written)) {
        snprintf(write_error, sizeof write_error, "mkdtemp %s failed", written);
        written[0] = 0;
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        char dir[600], cwd[512], link[1100];
        snprintf(dir, sizeof dir, "%s/grader", written);
        if (mkdir(dir, 0755) != 0 || !getcwd(cwd, sizeof cwd))
            _exit(10);
        snprintf(link, sizeof link, "%s/grader/baselines", cwd);
        snprintf(dir, sizeof dir, "%s/grader/baselines", written);
        if (symlink(link, dir) != 0)
            _exit(11);
        snprintf(dir, sizeof dir, "%s/grader/references", written);
        char *argv[] = {"references", "--out", dir, NULL};
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        _exit(references_main(3, argv) == 0 ? 0 : 12);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        snprintf(write_error, sizeof write_error, "writing the references into %s failed "
                 "(status %d)", written, status);
}

static void remove_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (dir[0] && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

static void remove_references(void)
{
    remove_tree(written);
}

/* Each test's own copy of them: a test may damage its references. */
static void make_copy(void)
{
    ck_assert_msg(!write_error[0], "%s", write_error);
    const char *tmp = getenv("TMPDIR");
    snprintf(copy, sizeof copy, "%s/test-reference-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(copy));
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cp -a '%s/.' '%s/'", written, copy);
    ck_assert_int_eq(system(cmd), 0);
}

static void remove_copy(void)
{
    remove_tree(copy);
}

static const exercise *matmul(void)
{
    for (const exercise *const *e = lesson_exercises[3]; *e; e++)
        if (!strcmp((*e)->name, "matmul"))
            return *e;
    ck_abort_msg("no lesson3/matmul");
    return NULL;
}

static void defaults(const exercise *ex, int *knobs)
{
    for (int k = 0; k < MAX_KNOBS; k++)
        knobs[k] = ex->knobs[k].name ? ex->knobs[k].def : 0;
}

START_TEST(full_course_compiles_solutions)
{
    grade_opts full = {.root = ".", .student_dir = "exercises"};
    ck_assert_int_eq(reference_is_compiled(&full), 0);
    char path[1024];
    reference_source(matmul(), &full, path, sizeof path);
    ck_assert_str_eq(path, "solutions/lesson3/matmul.cu");
}
END_TEST

START_TEST(copy_loads_the_ptx_at_default_knobs)
{
    grade_opts o = {.root = copy, .student_dir = "exercises"};
    ck_assert_int_eq(reference_is_compiled(&o), 1);
    const exercise *ex = matmul();
    char path[1024], expect[1100];
    reference_source(ex, &o, path, sizeof path);
    snprintf(expect, sizeof expect, "%s/grader/references/lesson3/matmul.ptx", copy);
    ck_assert_str_eq(path, expect);
    size_t n;
    char *ptx = read_text_file(path, &n);
    ck_assert_ptr_nonnull(ptx);
    ck_assert_msg(strstr(ptx, "// knobs: TILE=16\n") && strstr(ptx, "// target: sm_75\n") &&
                  strstr(ptx, ".target sm_75"), "%.300s", ptx);
    ck_assert_uint_eq(strlen(ptx), n);  /* no NUL inside: ptxas stops at one */
    free(ptx);

    int knobs[MAX_KNOBS];
    defaults(ex, knobs);
    compiled c;
    const char *kernel = NULL;
    char note[400];
    ck_assert_int_eq(reference_load(ex, knobs, &o, &c, &kernel, note, sizeof note), 0);
    ck_assert_int_eq(c.ok, 1);
    ck_assert_ptr_null(c.cubin);      /* the driver compiles the PTX for its GPU */
    ck_assert_str_eq(kernel, "matmul");
    ck_assert_msg(strstr(c.ptx, ".entry matmul("), "no entry point");
    ck_assert_str_eq(note, "");
    compiled_free(&c);

    /* Every exercise of the registry has its reference, lesson 9's for sm_80. */
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; *e; e++) {
            defaults(*e, knobs);
            ck_assert_msg(reference_load(*e, knobs, &o, &c, &kernel, note, sizeof note) == 0,
                          "lesson%d/%s: %s", l, (*e)->name, c.error);
            ck_assert_str_eq(kernel, variant_kernel(*e, V_SOLUTION));
            if ((*e)->min_cc == 80)
                ck_assert_msg(strstr(c.ptx, ".target sm_80"), "lesson%d/%s", l, (*e)->name);
            compiled_free(&c);
        }
}
END_TEST

START_TEST(copy_stands_the_baseline_in_at_other_knobs)
{
    grade_opts o = {.root = copy, .student_dir = "exercises"};
    const exercise *ex = matmul();
    int knobs[MAX_KNOBS];
    defaults(ex, knobs);
    knobs[0] = 32;
    compiled c[N_VARIANTS];
    const char *kernel[N_VARIANTS];
    char note[400];
    /* The one compile path (compile_jobs.h) compiles the baseline in the
     * reference's place. */
    ck_assert_int_eq(exercise_compile(ex, knobs, &o, 90, compile_files, JOB_SOLUTION, c, kernel,
                                      note, sizeof note), -1);
    ck_assert_int_eq(c[V_SOLUTION].ok, 1);
    ck_assert_str_eq(kernel[V_SOLUTION], ex->kernel);
    ck_assert_msg(strstr(note, "only at the default knobs (TILE=16), not at TILE=32") &&
                  strstr(note, "baseline was timed in its place"), "%s", note);
    compiled_free(&c[V_SOLUTION]);

    /* What the verdict then says (verdict.h reads the note as a fact). */
    exercise plain = *ex;
    memset(plain.checks, 0, sizeof plain.checks);
    result r;
    memset(&r, 0, sizeof r);
    r.correct = r.timed = r.clears_bar = r.ref_clears_bar = 1;
    r.speedup = 1.48;
    snprintf(r.ref_stand_in, sizeof r.ref_stand_in, "%s", note);
    verdict_say(&plain, &r);
    ck_assert_int_eq(r.outcome, OUT_PASS_UNTIMED);
    ck_assert_msg(strstr(r.message, "Correct; the speed part was not graded: this student copy") &&
                  strstr(r.message, "Your kernel ran at 1.48x the baseline's speed."), "%s",
                  r.message);
    r.clears_bar = 0;
    verdict_say(&plain, &r);
    ck_assert_int_eq(r.outcome, OUT_PASS_UNTIMED);
    plain.checks[0] = (mech_check){.kind = CHECK_PTX_HAS, .text = "ld.shared", .why = "Stage it."};
    r.checks[0] = (check_result){.state = CS_FAILS,
                                 .what = "the PTX has no 'ld.shared' instruction"};
    verdict_say(&plain, &r);
    ck_assert_int_eq(r.outcome, OUT_MECHANISM);
    ck_assert_msg(strstr(r.message, "'ld.shared' instruction. Speed: not graded, because this "
                  "student copy"), "%s", r.message);
    r.stopped = OUT_WRONG;
    snprintf(r.message, sizeof r.message, "Your kernel computed 3 of 9 values wrong.");
    verdict_say(&plain, &r);
    ck_assert_int_eq(r.outcome, OUT_WRONG);
    ck_assert_str_eq(r.message, "Your kernel computed 3 of 9 values wrong.");
}
END_TEST

START_TEST(copy_refuses_a_missing_or_damaged_reference)
{
    grade_opts o = {.root = copy, .student_dir = "exercises"};
    const exercise *ex = matmul();
    int knobs[MAX_KNOBS];
    defaults(ex, knobs);
    char path[1024];
    reference_source(ex, &o, path, sizeof path);
    compiled c;
    const char *kernel = NULL;
    char note[400];

    /* The header gone: not trusted. */
    char *ptx = read_text_file(path, NULL);
    FILE *f = fopen(path, "w");
    fputs(strstr(ptx, "//\n// Generated"), f);
    fclose(f);
    free(ptx);
    ck_assert_int_eq(reference_load(ex, knobs, &o, &c, &kernel, note, sizeof note), -1);
    ck_assert_msg(strstr(c.error, "is damaged"), "%s", c.error);
    compiled_free(&c);

    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(reference_load(ex, knobs, &o, &c, &kernel, note, sizeof note), -1);
    ck_assert_int_eq(c.missing, 1);
    ck_assert_msg(strstr(c.error, "lacks the compiled reference of lesson3/matmul"), "%s",
                  c.error);
    compiled_free(&c);
}
END_TEST

/* ---- the whole pipeline, on the host backend ---- */

static void axpy_student(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.012;              /* 3.33x the baseline */
}

static void axpy_base(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = T_BASE;
}

static host_module module_in(const char *root, const char *dir, host_fn fn, char *path,
                             size_t len)
{
    snprintf(path, len, "%s/%s/%s", root, dir, t_axpy.file);
    return (host_module){.path = path, .kernel = t_axpy.kernel, .fn = fn,
                         .ptx = "ld.global.f32", .res = {.known = 1, .regs = 32}};
}

/* A student copy graded as make check grades, at a knob it has no
 * reference for: the baseline stands in, and the verdict says so. */
START_TEST(pipeline_stands_the_baseline_in)
{
    const char *tmp = getenv("TMPDIR");
    static char root[512], ptx[800], base_path[900], student_path[900];
    char cmd[1200];
    snprintf(root, sizeof root, "%s/test-reference-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(root));
    snprintf(ptx, sizeof ptx, "%s/grader/references/lesson%d", root, t_axpy.lesson);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", ptx);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(ptx + strlen(ptx), sizeof ptx - strlen(ptx), "/%s.ptx", t_axpy.name);
    FILE *f = fopen(ptx, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "// Reference solution of a test.\n// kernel: %s\n// knobs: BLOCK=256\n"
            "// target: sm_75\n.entry %s(\n", t_axpy.kernel, t_axpy.kernel);
    fclose(f);

    host_reset();
    host_module base = module_in(root, "grader/baselines", axpy_base, base_path,
                                 sizeof base_path);
    host_module stu = module_in(root, "student", axpy_student, student_path,
                                sizeof student_path);
    ck_assert_int_eq(host_add(&base), 0);
    ck_assert_int_eq(host_add(&stu), 0);
    int knobs[MAX_KNOBS] = {128};
    grade_opts o = {.root = root, .student_dir = "student", .seed = 42,
                    .launch_timeout_s = 5, .time_budget_s = 0.02, .device = &device_host};
    result r;
    grade_in_child(&t_axpy, knobs, &o, 20, &r);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
    expect(&r, OUT_PASS_UNTIMED, "Correct; the speed part was not graded: this student copy "
           "of the course carries the reference solution compiled only at the default knobs "
           "(BLOCK=256), not at BLOCK=128, so the baseline was timed in its place.");
    ck_assert_msg(strstr(r.message, "Your kernel ran at 3.33x the baseline's speed."), "%s",
                  r.message);
}
END_TEST

Suite *reference_suite(void)
{
    Suite *s = suite_create("reference");
    TCase *tc = tcase_create("full course");
    tcase_add_test(tc, full_course_compiles_solutions);
    suite_add_tcase(s, tc);
    tc = tcase_create("pipeline");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, pipeline_stands_the_baseline_in);
    suite_add_tcase(s, tc);
    tc = tcase_create("student copy");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, write_references, remove_references);
    tcase_add_checked_fixture(tc, make_copy, remove_copy);
    tcase_add_test(tc, copy_loads_the_ptx_at_default_knobs);
    tcase_add_test(tc, copy_stands_the_baseline_in_at_other_knobs);
    tcase_add_test(tc, copy_refuses_a_missing_or_damaged_reference);
    suite_add_tcase(s, tc);
    return s;
}
