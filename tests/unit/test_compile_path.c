/* test_compile_path.c: one compile path (grader/grade/compile_jobs.h). Every
 * command that compiles a student's file refuses the same hostile files,
 * each through the command's own entry point, on the CPU:
 *
 *   check       grade_in_child on the host backend (the GPU path: an
 *               unregistered file goes through compile.c's rules)
 *   --no-gpu    check_without_gpu
 *   static      static_check_exercise
 *   profile     profile_launch_once (what `ncu` runs), in a child
 *   references  reference_verify (`grader references --verify`)
 *
 *   class       class_main, grading each student as `check` does without a
 *               GPU; a link and an oversized file are refused while the
 *               hand-in is read (submission.c), before anything compiles
 *
 * The hostile files: a link out of the student's folder, an include of
 * /etc/passwd, a writable __device__ variable, a file over 4 MB. Each must be
 * refused with the same words by every command; removing a rule from the
 * job builder, or a command's use of it, fails here. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "child.h"
#include "class.h"
#include "compile_jobs.h"
#include "fileio.h"
#include "nogpu.h"
#include "pipeline.h"
#include "profile.h"
#include "reference.h"
#include "references.h"
#include "static_check.h"
#include "suites.h"

#define GOOD_KERNEL                                                                  \
    "extern \"C\" __global__ void axpy(const float *x, const float *y, float *z, "  \
    "float a, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"      \
    "    if (i < n)\n        z[i] = a * x[i] + y[i];\n}\n"

typedef struct hostile {
    const char *name;
    enum outcome outcome;
    const char *words;         /* every command's message has them */
} hostile;

static const hostile cases[] = {
    {.name = "a link out of the folder", .outcome = OUT_REFUSED,
     .words = "that leads out of"},
    {.name = "an include of /etc/passwd", .outcome = OUT_REFUSED,
     .words = "may include only the CUDA toolkit's headers"},
    {.name = "a writable __device__ variable", .outcome = OUT_REFUSED,
     .words = "keeps a __device__ variable, 'launches'"},
    {.name = "a file over 4 MB", .outcome = OUT_COMPILE_ERROR,
     .words = "a kernel file may be at most 4 MB"},
};
#define N_CASES (int)(sizeof cases / sizeof cases[0])

static char root[512];
static char student_file[700], solution_file[700], baseline_file[700];

static void put(const char *path, const char *text)
{
    char dir[700], cmd[800];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = 0;
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* A course at `root`: t_axpy's baseline and solution, a compiled reference
 * (for references --verify), and the student's file, hostile case k. */
static void make_course(int k)
{
    const char *tmp = getenv("TMPDIR");
    char ptx[800];
    snprintf(root, sizeof root, "%s/test-compile-path-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(root));
    snprintf(baseline_file, sizeof baseline_file, "%s/grader/baselines/%s", root, t_axpy.file);
    snprintf(solution_file, sizeof solution_file, "%s/solutions/%s", root, t_axpy.file);
    snprintf(student_file, sizeof student_file, "%s/student/%s", root, t_axpy.file);
    put(baseline_file, GOOD_KERNEL);
    put(solution_file, GOOD_KERNEL);
    snprintf(ptx, sizeof ptx, "%s/grader/references/lesson%d/%s.ptx", root, t_axpy.lesson,
             t_axpy.name);
    put(ptx, "// Reference solution of a test.\n// kernel: axpy\n// knobs: BLOCK=256\n"
             "// target: sm_75\n.version 7.0\n.target sm_75\n.address_size 64\n"
             ".visible .entry axpy(\n)\n{\n\tret;\n}\n");
    switch (k) {
    case 0:   /* the solution, through a link: not the student's file */
        put(student_file, "");
        unlink(student_file);
        ck_assert_int_eq(symlink(solution_file, student_file), 0);
        break;
    case 1:
        put(student_file, "#include \"/etc/passwd\"\n" GOOD_KERNEL);
        break;
    case 2:
        put(student_file, "__device__ int launches;\n"
            "extern \"C\" __global__ void axpy(const float *x, const float *y, float *z, "
            "float a, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n)\n        z[i] = a * x[i] + y[i] + launches;\n"
            "    if (i == 0)\n        launches++;\n}\n");
        break;
    case 3: {
        size_t big = (4u << 20) + 100;
        char *text = malloc(big + sizeof GOOD_KERNEL);
        ck_assert_ptr_nonnull(text);
        memset(text, ' ', big);
        memcpy(text, "/*", 2);
        memcpy(text + big - 3, "*/\n", 3);
        memcpy(text + big, GOOD_KERNEL, sizeof GOOD_KERNEL);
        put(student_file, text);
        free(text);
        break;
    }
    }
}

static void remove_course(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (root[0] && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
}

static grade_opts course_opts(void)
{
    return (grade_opts){.root = root, .student_dir = "student", .seed = 42,
                        .launch_timeout_s = 5, .time_budget_s = 0.02};
}

/* The course's own kernels on the host backend, at the paths grading
 * reads; the student's file is not registered, so compile.c judges it. */
static void register_course(void)
{
    host_reset();
    host_module base = student_module(&t_axpy, NULL), sol = solution_module(&t_axpy, NULL);
    base.path = baseline_file;   /* never launched: grading stops at the student's file */
    sol.path = solution_file;
    ck_assert_int_eq(host_add(&base), 0);
    ck_assert_int_eq(host_add(&sol), 0);
}

/* Nothing of /etc/passwd in what any command says. */
static void no_secret(const char *text)
{
    ck_assert_msg(!strstr(text, "root:"), "a line of /etc/passwd was shown: %s", text);
}

static void expect_refused(const hostile *h, const char *command, enum outcome o,
                           const char *text)
{
    ck_assert_msg(o == h->outcome, "%s, %s: %s, want %s: %s", command, h->name,
                  outcome_word(o), outcome_word(h->outcome), text);
    ck_assert_msg(strstr(text, h->words), "%s, %s: \"%s\" lacks \"%s\"", command, h->name,
                  text, h->words);
    no_secret(text);
}

START_TEST(check_on_a_gpu_refuses)
{
    const hostile *h = &cases[_i];
    make_course(_i);
    register_course();
    grade_opts o = course_opts();
    o.device = &device_host;
    int knobs[MAX_KNOBS] = {256};
    result r;
    grade_in_child(&t_axpy, knobs, &o, 60, &r);
    expect_refused(h, "check", r.outcome, r.message);
    no_secret(r.detail);
    /* Named as the student knows it, never by the course's full path. */
    ck_assert_msg(strstr(r.message, "student/t/axpy.cu") && !strstr(r.message, student_file),
                  "%s", r.message);
    remove_course();
}
END_TEST

START_TEST(check_without_a_gpu_refuses)
{
    const hostile *h = &cases[_i];
    make_course(_i);
    grade_opts o = course_opts();
    int knobs[MAX_KNOBS] = {256};
    result r;
    check_without_gpu(&t_axpy, knobs, &o, &r);
    expect_refused(h, "check --no-gpu", r.outcome, r.message);
    no_secret(r.detail);
    ck_assert_msg(strstr(r.message, "student/t/axpy.cu") && !strstr(r.message, student_file),
                  "%s", r.message);
    remove_course();
}
END_TEST

START_TEST(static_refuses)
{
    const hostile *h = &cases[_i];
    make_course(_i);
    grade_opts o = course_opts();
    int knobs[MAX_KNOBS] = {256};
    char msg[8192];
    int bad = static_check_exercise(&t_axpy, knobs, &o, 90, msg, sizeof msg, NULL);
    /* Only the student's file is at fault: the course's compile. */
    ck_assert_msg(bad == -1 && strstr(msg, student_file) && !strstr(msg, baseline_file) &&
                  !strstr(msg, solution_file), "static, %s: %s", h->name, msg);
    expect_refused(h, "static", h->outcome, msg);
    remove_course();
}
END_TEST

/* What `ncu` runs: it ends through child_fail, its words on stderr. */
START_TEST(profile_refuses)
{
    const hostile *h = &cases[_i];
    make_course(_i);
    register_course();
    char err[800];
    snprintf(err, sizeof err, "%s/stderr", root);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 2);
        grade_opts o = course_opts();
        o.device = &device_host;
        int knobs[MAX_KNOBS] = {256};
        profile_launch_once(&t_axpy, knobs, &o);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    char *said = read_text_file(err, NULL);
    ck_assert_ptr_nonnull(said);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == CHILD_FAILED, "profile, %s: "
                  "status %d: %s", h->name, status, said);
    expect_refused(h, "profile", h->outcome, said);
    ck_assert_msg(strstr(said, "student/t/axpy.cu") && !strstr(said, student_file), "%s",
                  said);
    free(said);
    remove_course();
}
END_TEST

START_TEST(references_verify_refuses)
{
    const hostile *h = &cases[_i];
    make_course(_i);
    grade_opts o = course_opts();
    o.student_dir = "student";
    char out[800];
    snprintf(out, sizeof out, "%s/verify.txt", root);
    FILE *f = fopen(out, "w");
    ck_assert_ptr_nonnull(f);
    int rc = reference_verify(&t_axpy, &o, f);
    fclose(f);
    char *said = read_text_file(out, NULL);
    ck_assert_ptr_nonnull(said);
    ck_assert_msg(rc == -1 && strstr(said, "FAIL  ") && strstr(said, student_file), "%s",
                  said);
    ck_assert_msg(!strstr(said, baseline_file), "the baseline failed: %s", said);
    expect_refused(h, "references --verify", h->outcome, said);
    free(said);
    remove_course();
}
END_TEST

/* `grader class` on a machine without a GPU: main.c's grading, which
 * falls back on check_without_gpu. */
static void class_grade(const exercise *ex, const int *knobs, const grade_opts *g,
                        double timeout_s, result *r)
{
    (void)timeout_s;
    check_without_gpu(ex, knobs, g, r);
}

static void class_probe(char *name, size_t len, int *cc)
{
    snprintf(name, len, "%s", "");
    *cc = 0;
}

#define SAXPY                                                                          \
    "extern \"C\" __global__ void saxpy(const float *x, const float *y, float *z, "   \
    "float a, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"        \
    "    if (i < n)\n        z[i] = a * x[i] + y[i] + launches;\n    launches = 1;\n}\n"

/* The row of `who` in the gradebook: its cell for lesson0/saxpy. */
static void expect_cell(const char *csv, const char *who, const char *cell)
{
    char row[64];
    snprintf(row, sizeof row, "\r\n%s,", who);
    const char *at = strstr(csv, row);
    ck_assert_msg(at, "no row for %s: %s", who, csv);
    const char *end = strstr(at + 2, "\r\n");
    ck_assert_msg(end && memmem(at, (size_t)(end - at), cell, strlen(cell)), "%s: want %s in "
                  "%.*s", who, cell, end ? (int)(end - at) : 80, at);
}

/* The report wraps its lines: its words with every run of blanks one space. */
static int says(const char *report, const char *words)
{
    char *flat = strdup(report);
    size_t n = 0;
    ck_assert_ptr_nonnull(flat);
    for (const char *c = report; *c; c++)
        if (!strchr(" \n", *c) || (n && flat[n - 1] != ' '))
            flat[n++] = strchr(" \n", *c) ? ' ' : *c;
    flat[n] = 0;
    int found = strstr(flat, words) != NULL;
    free(flat);
    return found;
}

START_TEST(class_refuses)
{
    const char *tmp = getenv("TMPDIR");
    char dir[512], subs[600], out[600], p[800], cwd[512];
    snprintf(dir, sizeof dir, "%s/test-compile-path-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(p, sizeof p, "%s/inc/lesson0/saxpy.cu", subs);
    put(p, "#include \"/etc/passwd\"\n__device__ const int launches = 0;\n" SAXPY);
    snprintf(p, sizeof p, "%s/dev/lesson0/saxpy.cu", subs);
    put(p, "__device__ int launches;\n" SAXPY);
    snprintf(p, sizeof p, "%s/lnk/lesson0/saxpy.cu", subs);
    put(p, "");
    unlink(p);
    char target[600];
    snprintf(target, sizeof target, "%s/solutions/lesson0/saxpy.cu", cwd);
    ck_assert_int_eq(symlink(target, p), 0);
    snprintf(p, sizeof p, "%s/big/lesson0/saxpy.cu", subs);
    char *big = calloc(1, (5u << 20) + 1);
    memset(big, ' ', 5u << 20);
    put(p, big);
    free(big);

    char *argv[] = {"class", subs, "lesson0", "--out", out, "--seed", "42", NULL};
    class_hooks hooks = {.grade = class_grade, .probe = class_probe};
    fflush(stdout);
    fflush(stderr);
    int o = dup(1), e = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    close(null);
    int rc = class_main(7, argv, &hooks);
    fflush(stdout);
    fflush(stderr);
    dup2(o, 1);
    dup2(e, 2);
    close(o);
    close(e);
    ck_assert_int_eq(rc, 0);
    snprintf(p, sizeof p, "%s/gradebook.csv", out);
    char *csv = read_text_file(p, NULL);
    ck_assert_ptr_nonnull(csv);
    expect_cell(csv, "inc", "REFUSED");
    expect_cell(csv, "dev", "REFUSED");
    /* Refused while the hand-in was read: not graded, and said so. */
    expect_cell(csv, "lnk", "MISSING");
    expect_cell(csv, "lnk", "1 entry refused");
    expect_cell(csv, "big", "MISSING");
    expect_cell(csv, "big", "1 entry refused");
    free(csv);
    snprintf(p, sizeof p, "%s/students/inc/report.txt", out);
    char *txt = read_text_file(p, NULL);
    ck_assert_ptr_nonnull(txt);
    ck_assert_msg(says(txt, cases[1].words), "%s", txt);
    no_secret(txt);
    free(txt);
    snprintf(p, sizeof p, "%s/students/dev/report.txt", out);
    txt = read_text_file(p, NULL);
    ck_assert_ptr_nonnull(txt);
    ck_assert_msg(says(txt, cases[2].words), "%s", txt);
    free(txt);
    snprintf(p, sizeof p, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(p), 0);
}
END_TEST

/* The same course with an honest student file: every command above gets
 * past the rules, so it is the hostile file each one refuses. */
START_TEST(an_honest_file_passes_every_rule)
{
    make_course(1);
    put(student_file, GOOD_KERNEL);
    grade_opts o = course_opts();
    int knobs[MAX_KNOBS] = {256};
    result r;
    check_without_gpu(&t_axpy, knobs, &o, &r);
    ck_assert_msg(r.outcome == OUT_CHECKED, "%s: %s", outcome_word(r.outcome), r.message);
    char msg[8192];
    ck_assert_msg(static_check_exercise(&t_axpy, knobs, &o, 90, msg, sizeof msg, NULL) == 0,
                  "%s", msg);
    register_course();
    o.device = &device_host;
    grade_in_child(&t_axpy, knobs, &o, 60, &r);
    /* Compiled for real, it cannot run on the host: past every rule. */
    ck_assert_msg(r.outcome == OUT_INTERNAL && strstr(r.message, "host backend runs only"),
                  "%s: %s", outcome_word(r.outcome), r.message);
    remove_course();
}
END_TEST

/* A course file that does not build is named before the student's: then
 * nothing the student does can be graded. */
START_TEST(a_broken_course_comes_first)
{
    make_course(1);
    host_reset();
    host_module base = student_module(&t_axpy, NULL);
    base.path = baseline_file;
    ck_assert_int_eq(host_add(&base), 0);
    unlink(solution_file);
    grade_opts o = course_opts();
    o.device = &device_host;
    int knobs[MAX_KNOBS] = {256};
    result r;
    grade_in_child(&t_axpy, knobs, &o, 60, &r);
    ck_assert_msg(r.outcome == OUT_INTERNAL && strstr(r.message, "The course's own copy of the "
                  "reference solution (solutions/t/axpy.cu) did not build"), "%s: %s",
                  outcome_word(r.outcome), r.message);
    remove_course();
}
END_TEST

/* The builder itself: the student's job, and only it, carries the folder
 * rule; every job is named as the student knows it. */
START_TEST(jobs_carry_the_rules)
{
    grade_opts o = {.root = "/course", .student_dir = "student"};
    int knobs[MAX_KNOBS] = {256};
    exercise_jobs J;
    ck_assert_int_eq(exercise_jobs_make(&J, &t_axpy, knobs, &o, 90, JOB_ALL), 3);
    int s = exercise_jobs_find(&J, V_STUDENT);
    ck_assert_int_eq(s, 1);
    ck_assert_str_eq(J.job[s].path, "/course/student/t/axpy.cu");
    ck_assert_str_eq(J.job[s].name, "student/t/axpy.cu");
    ck_assert_str_eq(J.job[s].within, "/course/student");
    ck_assert_ptr_null(J.job[exercise_jobs_find(&J, V_BASELINE)].within);
    ck_assert_str_eq(J.job[exercise_jobs_find(&J, V_SOLUTION)].name, "solutions/t/axpy.cu");
    ck_assert_int_eq(J.job[s].cc, 90);
    ck_assert_int_eq(exercise_jobs_make(&J, &t_axpy, knobs, &o, 75, JOB_STUDENT), 1);
    ck_assert_int_eq(exercise_jobs_find(&J, V_SOLUTION), -1);
    ck_assert_str_eq(J.job[0].within, "/course/student");
}
END_TEST

Suite *compile_path_suite(void)
{
    Suite *s = suite_create("compile_path");
    TCase *tc = tcase_create("every command refuses the same files");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, jobs_carry_the_rules);
    tcase_add_loop_test(tc, check_on_a_gpu_refuses, 0, N_CASES);
    tcase_add_loop_test(tc, check_without_a_gpu_refuses, 0, N_CASES);
    tcase_add_loop_test(tc, static_refuses, 0, N_CASES);
    tcase_add_loop_test(tc, profile_refuses, 0, N_CASES);
    tcase_add_loop_test(tc, references_verify_refuses, 0, N_CASES);
    tcase_add_test(tc, class_refuses);
    tcase_add_test(tc, an_honest_file_passes_every_rule);
    tcase_add_test(tc, a_broken_course_comes_first);
    suite_add_tcase(s, tc);
    return s;
}
