/* test_gpu.c: the GPU half of the test suite.
 *
 * It drives the real grader binary, as a student would through make, and
 * reads its JSON report (one exercise per line). Where there is no usable
 * GPU it says "skipped: no GPU" and exits 0: CI runs on CPU-only machines.
 *
 *   every reference solution passes; every untouched stub fails;
 *   the baseline handed in as an answer fails the speed rule;
 *   each kind of broken kernel gets its own clear outcome and message.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gpu.h"

#define GRADER "build/grader"
#define OUTDIR "build/tests"

/* One exercise's record, as far as these tests need it. */
typedef struct record {
    int lesson;
    char name[64];
    char outcome[32];
    char bar_kind[32];
    int demo;
    int passed;
    char message[1024];
} record;

static int json_str(const char *line, const char *key, char *out, size_t len)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\": \"", key);
    const char *p = strstr(line, k);
    if (!p)
        return 0;
    p += strlen(k);
    size_t n = 0;
    while (*p && *p != '"' && n + 1 < len) {
        if (*p == '\\' && p[1])
            p++;
        out[n++] = *p++;
    }
    out[n] = 0;
    return 1;
}

/* Read the records of a grader JSON report; returns how many. */
static int read_report(const char *path, record *recs, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    static char line[1 << 16];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        const char *l = strstr(line, "{\"lesson\": ");
        if (!l)
            continue;
        record *r = &recs[n++];
        memset(r, 0, sizeof *r);
        r->lesson = atoi(l + strlen("{\"lesson\": "));
        json_str(line, "name", r->name, sizeof r->name);
        json_str(line, "outcome", r->outcome, sizeof r->outcome);
        json_str(line, "bar_kind", r->bar_kind, sizeof r->bar_kind);
        json_str(line, "message", r->message, sizeof r->message);
        r->demo = strstr(line, "\"demo\": true") != NULL;
        r->passed = strstr(line, "\"passed\": true") != NULL;
    }
    fclose(f);
    return n;
}

/* Run the grader with `args`, its report going to OUTDIR/<tag>.json and its
 * terminal output to OUTDIR/<tag>.txt. Returns the exit status. */
static int run_grader(const char *tag, const char *env, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "NO_COLOR=1 %s %s check %s --json %s/%s.json > %s/%s.txt 2>&1", env ? env : "",
             GRADER, args, OUTDIR, tag, OUTDIR, tag);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define MAX_RECS 128
static record recs[MAX_RECS];

START_TEST(solutions_all_pass)
{
    int st = run_grader("solutions", NULL, "all --solutions");
    int n = read_report(OUTDIR "/solutions.json", recs, MAX_RECS);
    ck_assert_msg(n > 0, "no report from grading the solutions (see %s/solutions.txt)", OUTDIR);
    for (int i = 0; i < n; i++) {
        if (recs[i].demo)
            ck_assert_msg(!recs[i].passed, "demo lesson%d/%s should fail but passed",
                          recs[i].lesson, recs[i].name);
        else
            ck_assert_msg(recs[i].passed, "solution of lesson%d/%s: %s: %s", recs[i].lesson,
                          recs[i].name, recs[i].outcome, recs[i].message);
    }
    ck_assert_int_eq(st, 0);
}
END_TEST

START_TEST(untouched_stubs_fail)
{
    int st = run_grader("stubs", NULL, "all");
    int n = read_report(OUTDIR "/stubs.json", recs, MAX_RECS);
    ck_assert_msg(n > 0, "no report from grading the stubs (see %s/stubs.txt)", OUTDIR);
    for (int i = 0; i < n; i++)
        if (!recs[i].demo)
            ck_assert_msg(!recs[i].passed, "the untouched stub of lesson%d/%s passes: %s",
                          recs[i].lesson, recs[i].name, recs[i].message);
    ck_assert_int_eq(st, 1);
}
END_TEST

START_TEST(baseline_as_answer_is_too_slow)
{
    run_grader("baselines", NULL, "all --student-dir grader/baselines");
    int n = read_report(OUTDIR "/baselines.json", recs, MAX_RECS);
    ck_assert_msg(n > 0, "no report from grading the baselines (see %s/baselines.txt)", OUTDIR);
    for (int i = 0; i < n; i++) {
        if (recs[i].demo || !strcmp(recs[i].bar_kind, "none"))
            continue;
        ck_assert_msg(!strcmp(recs[i].outcome, "SLOW") || !strcmp(recs[i].outcome, "MECHANISM"),
                      "the baseline of lesson%d/%s handed in as an answer gave %s, not SLOW: %s",
                      recs[i].lesson, recs[i].name, recs[i].outcome, recs[i].message);
    }
}
END_TEST

/* A broken kernel for lesson0/saxpy from tests/gpu/faulty/<kind>/: the
 * grader must give `outcome` with `text` in its message, and return. */
static void expect_fault(const char *kind, const char *env, const char *outcome,
                         const char *text)
{
    char args[512], tag[64], path[128];
    snprintf(args, sizeof args, "lesson0 --only saxpy --student-dir tests/gpu/faulty/%s", kind);
    snprintf(tag, sizeof tag, "fault-%s", kind);
    int st = run_grader(tag, env, args);
    snprintf(path, sizeof path, OUTDIR "/%s.json", tag);
    int n = read_report(path, recs, MAX_RECS);
    ck_assert_msg(n == 1, "%s: expected one record in %s, got %d", kind, path, n);
    ck_assert_msg(!strcmp(recs[0].outcome, outcome), "%s: expected %s, got %s: %s", kind,
                  outcome, recs[0].outcome, recs[0].message);
    ck_assert_msg(strstr(recs[0].message, text) != NULL, "%s: message lacks '%s': %s", kind,
                  text, recs[0].message);
    ck_assert_int_eq(st, 1);
}

START_TEST(compile_error_is_reported)
{
    expect_fault("compile_error", NULL, "COMPILE", "does not compile");
}
END_TEST

START_TEST(illegal_address_is_a_crash)
{
    expect_fault("crash", NULL, "CRASH", "memory it does not own");
}
END_TEST

START_TEST(endless_kernel_is_a_hang)
{
    expect_fault("hang", "GRADER_LAUNCH_TIMEOUT=3", "HANG", "did not finish");
}
END_TEST

START_TEST(out_of_bounds_write_is_caught)
{
    expect_fault("oob", NULL, "WRONG", "outside its output array");
}
END_TEST

START_TEST(unwritten_elements_are_caught)
{
    expect_fault("unwritten", NULL, "WRONG", "unwritten");
}
END_TEST

START_TEST(right_only_once_is_wrong)
{
    expect_fault("right_once", NULL, "WRONG", "every launch");
}
END_TEST

START_TEST(missing_kernel_is_named)
{
    expect_fault("missing_kernel", NULL, "MISSING", "extern \"C\"");
}
END_TEST

START_TEST(too_many_resources_is_explained)
{
    expect_fault("resources", NULL, "RESOURCES", "__launch_bounds__");
}
END_TEST

/* The rules checked before anything runs (tests/unit/test_*_rules.c test
 * them on CPU; here they go through the whole grading child). */
START_TEST(cached_answer_is_refused)
{
    expect_fault("cached_answer", NULL, "REFUSED", "__device__ variable");
}
END_TEST

START_TEST(include_outside_toolkit_is_refused)
{
    expect_fault("include_outside", NULL, "REFUSED", "may include only");
}
END_TEST

START_TEST(too_much_shared_memory_is_named)
{
    expect_fault("huge_shared", NULL, "RESOURCES", "48 KB (49152 bytes) of static shared memory");
}
END_TEST

START_TEST(runaway_compile_is_stopped)
{
    expect_fault("slow_compile", "GRADER_COMPILE_TIMEOUT=2", "COMPILE",
                 "did not compile within 2 s");
}
END_TEST

/* Lesson 9 answered with libcu++ (cuda::pipeline, cuda::memcpy_async) must
 * pass like the __pipeline_* reference does. */
START_TEST(libcuxx_lesson9_answer_passes)
{
    run_grader("libcuxx", NULL, "lesson9 --student-dir tests/unit/fixtures/lesson9-libcuxx");
    int n = read_report(OUTDIR "/libcuxx.json", recs, MAX_RECS);
    ck_assert_msg(n == 1, "expected one record in %s/libcuxx.json, got %d", OUTDIR, n);
    ck_assert_msg(!strcmp(recs[0].outcome, "PASS"), "the libcu++ answer to lesson 9 gave %s: %s",
                  recs[0].outcome, recs[0].message);
}
END_TEST

/* SANITIZE=1, through make as a student types it: compute-sanitizer must
 * name the bad write, and the grader must still report the crash. */
START_TEST(sanitizer_names_the_bad_access)
{
    int st = system("NO_COLOR=1 make -s check lesson0 ONLY=saxpy SANITIZE=1 "
                    "STUDENT_DIR=tests/gpu/faulty/crash > " OUTDIR "/sanitize.txt 2>&1");
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) != 0, "make check SANITIZE=1 passed a crash");
    FILE *f = fopen(OUTDIR "/sanitize.txt", "r");
    ck_assert_msg(f != NULL, "no output from make check SANITIZE=1");
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    ck_assert_msg(strstr(text, "Invalid __global__ write") != NULL,
                  "compute-sanitizer did not name the bad write (see %s/sanitize.txt)", OUTDIR);
    ck_assert_msg(strstr(text, "CRASH") != NULL, "the grader's report lacks CRASH");
}
END_TEST

/* The next exercise is still graded after a fault: a crash in the first of
 * two exercises must not take the second one with it. */
START_TEST(grading_goes_on_after_a_crash)
{
    int st = run_grader("fault-then-more", NULL,
                        "lesson0 lesson1 --student-dir tests/gpu/faulty/crash");
    (void)st;
    int n = read_report(OUTDIR "/fault-then-more.json", recs, MAX_RECS);
    ck_assert_msg(n >= 2, "expected lesson0 and lesson1 records, got %d", n);
    ck_assert_str_eq(recs[0].outcome, "CRASH");
    for (int i = 1; i < n; i++)
        ck_assert_msg(strcmp(recs[i].outcome, "NOT RUN") != 0 && strcmp(recs[i].outcome, "CRASH") != 0,
                      "lesson%d/%s after the crash: %s", recs[i].lesson, recs[i].name,
                      recs[i].outcome);
}
END_TEST

static Suite *gpu_suite(void)
{
    Suite *s = suite_create("gpu");
    TCase *sol = tcase_create("reference solutions pass");
    tcase_add_test(sol, solutions_all_pass);
    TCase *stub = tcase_create("untouched stubs fail");
    tcase_add_test(stub, untouched_stubs_fail);
    TCase *base = tcase_create("baselines fail the speed rule");
    tcase_add_test(base, baseline_as_answer_is_too_slow);
    TCase *faults = tcase_create("faulty kernels get their message");
    tcase_add_test(faults, compile_error_is_reported);
    tcase_add_test(faults, illegal_address_is_a_crash);
    tcase_add_test(faults, endless_kernel_is_a_hang);
    tcase_add_test(faults, out_of_bounds_write_is_caught);
    tcase_add_test(faults, unwritten_elements_are_caught);
    tcase_add_test(faults, right_only_once_is_wrong);
    tcase_add_test(faults, missing_kernel_is_named);
    tcase_add_test(faults, too_many_resources_is_explained);
    tcase_add_test(faults, grading_goes_on_after_a_crash);
    tcase_add_test(faults, sanitizer_names_the_bad_access);
    tcase_add_test(faults, cached_answer_is_refused);
    tcase_add_test(faults, include_outside_toolkit_is_refused);
    tcase_add_test(faults, too_much_shared_memory_is_named);
    tcase_add_test(faults, runaway_compile_is_stopped);
    tcase_add_test(sol, libcuxx_lesson9_answer_passes);
    TCase *all[] = {sol, stub, base, faults};
    for (int i = 0; i < 4; i++) {
        tcase_set_timeout(all[i], 1800);
        suite_add_tcase(s, all[i]);
    }
    return s;
}

/* In a child, so this process never holds a CUDA context. */
static int have_gpu(char *why, size_t len)
{
    int fd[2];
    if (pipe(fd) != 0)
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        device_facts dev;
        cudaError_t e = gpu_probe(&dev);
        char msg[256];
        int n = snprintf(msg, sizeof msg, "%s", e == cudaSuccess ? dev.name : cudaGetErrorName(e));
        if (write(fd[1], msg, (size_t)n) < 0)
            _exit(2);
        _exit(e == cudaSuccess ? 0 : 1);
    }
    close(fd[1]);
    ssize_t n = read(fd[0], why, len - 1);
    why[n > 0 ? n : 0] = 0;
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(void)
{
    char why[256];
    if (!have_gpu(why, sizeof why)) {
        printf("GPU test suite: skipped: no GPU (%s). The CPU suite above still ran.\n", why);
        return 0;
    }
    printf("GPU test suite on %s (reports in %s/)\n", why, OUTDIR);
    if (system("mkdir -p " OUTDIR) != 0)
        return 1;
    SRunner *sr = srunner_create(gpu_suite());
    /* No fork per test: each already runs the grader as its own process. */
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_VERBOSE);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
