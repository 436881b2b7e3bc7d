/* test_gpu.c: the GPU half of the test suite (make test-gpu).
 *
 * It drives the real grader binary, as a student would through make, and
 * reads its JSON report (one exercise per line). It says "skipped: no GPU"
 * and exits 0 only where there is no GPU or no driver (CI runs on CPU-only
 * machines); any other CUDA error while looking for the GPU fails it.
 *
 *   every reference solution passes (PASS, not PASS*), every untouched stub
 *   fails, the baseline handed in as an answer is under the speed bar;
 *   every fixture of tests/gpu/{faulty,cheats,races,accepted,gaming}/ gets exactly the
 *   outcome and message its expect file names (tests/gpu/fixture.h), and no
 *   line of a file it tried to include shows in the report;
 *   SANITIZE=1 names a bad write; SANITIZE=race reports the racy lesson 3
 *   and 9 kernels and clears the solutions.
 *
 * Every test runs in a child of its own with a time limit (Check enforces
 * limits only then); the grader is given shorter limits of its own, so it
 * ends its children before Check ends the test. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fixture.h"
#include "gpu.h"
#include "result.h"
#include "cuda_check.h"

#define GRADER "build/grader"
#define OUTDIR "build/tests"
/* Seconds one exercise may take in the grader (its --timeout): far more
 * than any takes on a working GPU (about a second; 10 s for a fixture that
 * runs into the compile limit), far less than the test's own limit. */
#define EXERCISE_LIMIT "120"

/* One exercise's record, as far as these tests need it. */
typedef struct record {
    int lesson;
    char name[64];
    char outcome[32];
    char bar_kind[32];
    int demo;
    int passed;
    int cc;
    double measure, bar;
    int timed;
    double latency_ns;      /* the device-memory latency, where measured */
    int has_latency;
    char message[1024];
    char diagnoses[256];    /* the JSON's "diagnoses" list, as written */
    char sim_note[1024];    /* the PTX simulator's note on a WRONG or a hang; "": none */
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
        char c = *p++;
        if (c == '\\' && *p) {
            c = *p++;
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
        out[n++] = c;
    }
    out[n] = 0;
    return 1;
}

static double json_num(const char *line, const char *key, int *found)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *p = strstr(line, k);
    *found = p && p[strlen(k)] != 'n';   /* null: not measured */
    return p ? atof(p + strlen(k)) : 0;
}

/* Read the records of a grader JSON report; returns how many, -1 when
 * there is no report. */
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
        json_str(line, "sim_note", r->sim_note, sizeof r->sim_note);
        r->demo = strstr(line, "\"demo\": true") != NULL;
        r->passed = strstr(line, "\"passed\": true") != NULL;
        int found;
        r->cc = (int)json_num(line, "compute_capability", &found);
        r->measure = json_num(line, "measure", &r->timed);
        r->bar = json_num(line, "bar", &found);
        r->timed &= found;
        r->latency_ns = json_num(line, "latency_ns", &r->has_latency);
        const char *dg = strstr(line, "\"diagnoses\": [");
        if (dg)
            snprintf(r->diagnoses, sizeof r->diagnoses, "%.*s",
                     (int)strcspn(dg + 14, "]"), dg + 14);
    }
    fclose(f);
    return n;
}

/* A whole file as a string (static: one at a time); "" when unreadable. */
static const char *slurp(const char *path)
{
    static char text[1 << 21];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = 0;
    return text;
}

/* Run the grader with `args`, its report going to OUTDIR/<tag>.json and its
 * terminal output to OUTDIR/<tag>.txt. Returns the exit status, -1 when it
 * did not exit. */
static int run_grader(const char *tag, const char *env, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "rm -f %s/%s.json; NO_COLOR=1 %s %s check %s --timeout %s --json %s/%s.json "
             "> %s/%s.txt 2>&1", OUTDIR, tag, env ? env : "", GRADER, args, EXERCISE_LIMIT,
             OUTDIR, tag, OUTDIR, tag);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run a make command line as a student types it; its output goes to
 * OUTDIR/<tag>.txt. Returns the exit status, -1 when it did not exit. */
static int run_make(const char *tag, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "NO_COLOR=1 make -s check %s > %s/%s.txt 2>&1", args, OUTDIR,
             tag);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define MAX_RECS 128
static record recs[MAX_RECS];

static const exercise *find_exercise(int lesson, const char *name)
{
    if (lesson < 0 || lesson >= N_LESSONS)
        return NULL;
    for (const exercise *const *e = lesson_exercises[lesson]; e && *e; e++)
        if (!strcmp((*e)->name, name))
            return *e;
    return NULL;
}

static int registered(void)
{
    int n = 0;
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; e && *e; e++)
            n++;
    return n;
}

/* Is this record's exercise one the GPU it ran on cannot grade? Then
 * SKIPPED is the one right outcome for it, and nothing else is. */
static int too_old(const record *r)
{
    const exercise *ex = find_exercise(r->lesson, r->name);
    ck_assert_msg(ex != NULL, "the report names lesson%d/%s, which the registry lacks",
                  r->lesson, r->name);
    return ex->min_cc && r->cc && r->cc < ex->min_cc;
}

/* Grade every exercise of the course from `args`; its records, one per
 * registered exercise, in recs. */
static int grade_all(const char *tag, const char *args, int *status)
{
    char path[128];
    *status = run_grader(tag, NULL, args);
    snprintf(path, sizeof path, OUTDIR "/%s.json", tag);
    int n = read_report(path, recs, MAX_RECS);
    ck_assert_msg(n == registered(), "grading %s: %d records in %s, but the registry has %d "
                  "exercises (see %s/%s.txt)", args, n, path, registered(), OUTDIR, tag);
    return n;
}

START_TEST(solutions_all_pass)
{
    int st, n = grade_all("solutions", "all --solutions", &st);
    for (int i = 0; i < n; i++) {
        const record *r = &recs[i];
        if (r->demo)
            ck_assert_msg(!r->passed, "demo lesson%d/%s should fail but passed", r->lesson,
                          r->name);
        else if (too_old(r))
            ck_assert_msg(!strcmp(r->outcome, "SKIPPED"), "lesson%d/%s on a GPU too old for "
                          "it: %s, not SKIPPED", r->lesson, r->name, r->outcome);
        else
            /* PASS* means the speed could not be judged: the exercise's bar
             * means nothing on this GPU, which is a failure of the course. */
            ck_assert_msg(!strcmp(r->outcome, "PASS"), "solution of lesson%d/%s: %s, not "
                          "PASS: %s", r->lesson, r->name, r->outcome, r->message);
        /* Little's law in the report: a latency-bound exercise that was
         * timed has the device-memory latency, and a plausible one (an
         * H100's is several hundred ns; an L2 hit, or a chase that overlaps
         * its loads, would be far under 100). */
        const exercise *ex = find_exercise(r->lesson, r->name);
        if (ex && ex->latency_bound && r->timed)
            ck_assert_msg(r->has_latency && r->latency_ns > 100 && r->latency_ns < 5000,
                          "lesson%d/%s: device-memory latency %s%.0f ns, not measured or "
                          "implausible", r->lesson, r->name, r->has_latency ? "" : "(none) ",
                          r->latency_ns);
    }
    ck_assert_int_eq(st, 0);
}
END_TEST

START_TEST(untouched_stubs_fail)
{
    int st, n = grade_all("stubs", "all", &st);
    for (int i = 0; i < n; i++) {
        const record *r = &recs[i];
        if (r->demo || too_old(r))
            continue;
        ck_assert_msg(!r->passed && strcmp(r->outcome, "SKIPPED"),
                      "the untouched stub of lesson%d/%s: %s: %s", r->lesson, r->name,
                      r->outcome, r->message);
        /* Failing for its own reason: lesson 0's computes nothing, the
         * others are right but slow (tests/unit/test_sim_kernels.c says the
         * same of each on the simulator). A CRASH or "No usable GPU" here is
         * the grader breaking between exercises (2026-11-29: every stub
         * after lesson 0's WRONG read "No usable GPU"). */
        const char *want = r->lesson == 0 ? "WRONG" : NULL;
        ck_assert_msg(want ? !strcmp(r->outcome, want)
                           : !strcmp(r->outcome, "SLOW") || !strcmp(r->outcome, "MECHANISM"),
                      "the untouched stub of lesson%d/%s: %s, not %s: %s", r->lesson, r->name,
                      r->outcome, want ? want : "SLOW or MECHANISM", r->message);
    }
    ck_assert_int_eq(st, 1);
}
END_TEST

START_TEST(baseline_as_answer_is_too_slow)
{
    int st, n = grade_all("baselines", "all --student-dir grader/baselines", &st);
    for (int i = 0; i < n; i++) {
        const record *r = &recs[i];
        if (r->demo || !strcmp(r->bar_kind, "none") || too_old(r))
            continue;
        /* Correct, and under the bar: SLOW, or MECHANISM where the baseline
         * also lacks what the exercise requires; the numbers must agree. */
        ck_assert_msg(!strcmp(r->outcome, "SLOW") || !strcmp(r->outcome, "MECHANISM"),
                      "the baseline of lesson%d/%s handed in as an answer gave %s: %s",
                      r->lesson, r->name, r->outcome, r->message);
        ck_assert_msg(r->timed, "the baseline of lesson%d/%s was not timed", r->lesson,
                      r->name);
        int higher_better = strcmp(r->bar_kind, "match_solution") != 0;
        ck_assert_msg(higher_better ? r->measure < r->bar : r->measure > r->bar,
                      "the baseline of lesson%d/%s measured %.3g against a bar of %.3g: it "
                      "clears the speed rule", r->lesson, r->name, r->measure, r->bar);
    }
    ck_assert_int_eq(st, 1);
}
END_TEST

/* ---- the fixtures: faulty, cheating and racy kernels -------------------- */

static fixture fx[FIXTURE_MAX];
static int n_fx;

START_TEST(fixtures_found)
{
    ck_assert_msg(n_fx > 0 && n_fx <= FIXTURE_MAX, "%d fixtures under " FIXTURE_ROOT, n_fx);
}
END_TEST

START_TEST(fixture_gets_its_verdict)
{
    const fixture *f = &fx[_i];
    ck_assert_msg(!f->error[0], "%s", f->error);
    const exercise *ex = find_exercise(f->lesson, f->exercise);
    ck_assert_msg(ex != NULL, "%s: no exercise lesson%d/%s", f->id, f->lesson, f->exercise);

    char args[1024], tag[160], path[200];
    int n = snprintf(args, sizeof args, "lesson%d --only %s --student-dir %s", f->lesson,
                     f->exercise, f->dir);
    char sets[sizeof f->set];
    snprintf(sets, sizeof sets, "%s", f->set);
    for (char *w = strtok(sets, " \t"); w; w = strtok(NULL, " \t"))
        n += snprintf(args + n, sizeof args - (size_t)n, " --set %s", w);
    snprintf(tag, sizeof tag, "fixture-%s", f->id);
    for (char *p = tag; *p; p++)
        if (*p == '/')
            *p = '-';
    int st = run_grader(tag, f->env, args);
    snprintf(path, sizeof path, OUTDIR "/%s.json", tag);
    int got = read_report(path, recs, MAX_RECS);
    ck_assert_msg(got == 1, "%s: expected one record in %s, got %d (see %s/%s.txt)", f->id,
                  path, got, OUTDIR, tag);
    const record *r = &recs[0];
    ck_assert_msg(r->lesson == f->lesson && !strcmp(r->name, f->exercise),
                  "%s: the report is about lesson%d/%s", f->id, r->lesson, r->name);
    const char *want = too_old(r) ? "SKIPPED" : f->outcome;
    ck_assert_msg(!strcmp(r->outcome, want), "%s: expected %s, got %s: %s%s%s", f->id, want,
                  r->outcome, r->message, f->rule[0] ? "\n  (decided by " : "",
                  f->rule[0] ? f->rule : "");
    if (!strcmp(want, f->outcome))
        ck_assert_msg(strstr(r->message, f->message) != NULL, "%s: message lacks '%s': %s",
                      f->id, f->message, r->message);
    if (!strcmp(want, f->outcome) && f->sim_note[0])
        ck_assert_msg(strstr(r->sim_note, f->sim_note) != NULL, "%s: the simulator's note "
                      "lacks '%s': '%s'", f->id, f->sim_note, r->sim_note);
    if (!strcmp(want, f->outcome) && f->diagnosis[0]) {
        char quoted[80];
        snprintf(quoted, sizeof quoted, "\"%s\"", f->diagnosis);
        ck_assert_msg(strstr(r->diagnoses, quoted) != NULL, "%s: the report names no %s "
                      "(diagnoses: [%s])", f->id, f->diagnosis, r->diagnoses);
    }
    /* The grader's exit status: 0 when nothing failed (an accepted answer's
     * PASS, or SKIPPED on a GPU too old), 1 for any failing verdict. */
    int passes = !strcmp(want, "SKIPPED") || !strcmp(want, "PASS");
    ck_assert_int_eq(st, passes ? 0 : 1);

    if (f->secret[0]) {
        /* Nothing of the file the kernel tried to include, anywhere in what
         * the grader printed or wrote. */
        const char *outs[2] = {".txt", ".json"};
        for (int o = 0; o < 2; o++) {
            char out[220], line[256];
            int checked = 0;
            snprintf(out, sizeof out, OUTDIR "/%s%s", tag, outs[o]);
            int hit = contains_line_of(slurp(out), f->secret, 20, &checked, line, sizeof line);
            ck_assert_msg(hit == 0, "%s: %s holds a line of %s: '%s'", f->id, out, f->secret,
                          hit > 0 ? line : "(cannot read the secret)");
            ck_assert_msg(checked > 0, "%s: %s has no line to look for", f->id, f->secret);
        }
    }
}
END_TEST

/* The next exercise is still graded after a fault: a crash in the first of
 * two exercises must not take the second one with it. */
START_TEST(grading_goes_on_after_a_crash)
{
    run_grader("fault-then-more", NULL, "lesson0 lesson1 --student-dir tests/gpu/faulty/crash");
    int n = read_report(OUTDIR "/fault-then-more.json", recs, MAX_RECS);
    ck_assert_msg(n >= 2, "expected lesson0 and lesson1 records, got %d", n);
    ck_assert_str_eq(recs[0].outcome, "CRASH");
    for (int i = 1; i < n; i++)
        /* lesson1 has no files under the crash fixture: MISSING, graded. */
        ck_assert_msg(!strcmp(recs[i].outcome, "MISSING"), "lesson%d/%s after the crash: %s: "
                      "%s", recs[i].lesson, recs[i].name, recs[i].outcome, recs[i].message);
}
END_TEST

/* ---- compute-sanitizer through make, as a student types it -------------- */

/* SANITIZE=1: memcheck must name the bad write, and the grader must still
 * report the crash. */
START_TEST(sanitizer_names_the_bad_access)
{
    int st = run_make("sanitize", "lesson0 ONLY=saxpy SANITIZE=1 "
                      "STUDENT_DIR=tests/gpu/faulty/crash");
    ck_assert_msg(st != 0, "make check SANITIZE=1 passed a crash");
    const char *text = slurp(OUTDIR "/sanitize.txt");
    ck_assert_msg(strstr(text, "Invalid __global__ write") != NULL,
                  "compute-sanitizer did not name the bad write (see %s/sanitize.txt)", OUTDIR);
    ck_assert_msg(strstr(text, "CRASH") != NULL, "the grader's report lacks CRASH");
}
END_TEST

/* SANITIZE=race on a racy kernel: racecheck must report it (lesson 9's as
 * warnings, which count), naming the kernel file's line, and make fails. */
static void race_reported(const char *tag, int lesson, const char *ex, const char *dir,
                          const char *file)
{
    char args[512], said[128], where[128];
    snprintf(args, sizeof args, "lesson%d ONLY=%s SANITIZE=race STUDENT_DIR=%s", lesson, ex,
             dir);
    snprintf(where, sizeof where, OUTDIR "/%s.txt", tag);
    int st = run_make(tag, args);
    const char *text = slurp(where);
    snprintf(said, sizeof said, "lesson%d/%s: RACE", lesson, ex);
    ck_assert_msg(strstr(text, said) != NULL, "make check %s did not say '%s' (see %s)", args,
                  said, where);
    /* The line is named in the student's own file, as the student knows it. */
    char line[256];
    snprintf(line, sizeof line, "%s/lesson%d/%s:", dir, lesson, file);
    ck_assert_msg(strstr(text, line) != NULL, "make check %s named no line of %s (see %s)",
                  args, line, where);
    ck_assert_msg(st != 0, "make check %s exited 0 after finding a race", args);
}

START_TEST(race_sanitizer_reports_lesson9_commit_if_copy)
{
    race_reported("race-l9", 9, "rolling_async", "tests/gpu/races/async_commit_if_copy",
                  "rolling_async.cu");
}
END_TEST

START_TEST(race_sanitizer_reports_lesson3_missing_sync)
{
    race_reported("race-l3", 3, "matmul", "tests/gpu/races/matmul_no_second_sync", "matmul.cu");
}
END_TEST

/* The reference solutions are race-free: no hazard may be reported. */
START_TEST(race_sanitizer_clears_solutions)
{
    const char *args = "lesson3 lesson9 SANITIZE=race STUDENT_DIR=solutions";
    int st = run_make("race-solutions", args);
    const char *text = slurp(OUTDIR "/race-solutions.txt");
    const char *clean[] = {"lesson3/matmul: no race found", "lesson3/bank_conflicts: no race "
                           "found", "lesson9/rolling_async: no race found"};
    for (int i = 0; i < 3; i++)
        ck_assert_msg(strstr(text, clean[i]) != NULL, "make check %s did not say '%s' (see "
                      "%s/race-solutions.txt)", args, clean[i], OUTDIR);
    ck_assert_msg(strstr(text, ": RACE") == NULL, "make check %s reported a race in a "
                  "solution (see %s/race-solutions.txt)", args, OUTDIR);
    ck_assert_int_eq(st, 0);
}
END_TEST

static Suite *gpu_suite(void)
{
    Suite *s = suite_create("gpu");
    /* Whole-course gradings: 17 exercises at about a second each. */
    TCase *course = tcase_create("solutions pass, stubs and baselines fail");
    tcase_add_test(course, solutions_all_pass);
    tcase_add_test(course, untouched_stubs_fail);
    tcase_add_test(course, baseline_as_answer_is_too_slow);
    tcase_set_timeout(course, 600);
    suite_add_tcase(s, course);

    n_fx = fixtures_list(fx, FIXTURE_MAX);
    int n = n_fx < 0 ? 0 : n_fx > FIXTURE_MAX ? FIXTURE_MAX : n_fx;
    TCase *fixtures = tcase_create("each fixture gets its verdict");
    tcase_add_test(fixtures, fixtures_found);
    tcase_add_loop_test(fixtures, fixture_gets_its_verdict, 0, n);
    tcase_add_test(fixtures, grading_goes_on_after_a_crash);
    tcase_set_timeout(fixtures, 300);
    suite_add_tcase(s, fixtures);

    /* compute-sanitizer slows kernels tens of times. */
    TCase *sanitize = tcase_create("compute-sanitizer");
    tcase_add_test(sanitize, sanitizer_names_the_bad_access);
    tcase_add_test(sanitize, race_sanitizer_reports_lesson9_commit_if_copy);
    tcase_add_test(sanitize, race_sanitizer_reports_lesson3_missing_sync);
    tcase_add_test(sanitize, race_sanitizer_clears_solutions);
    tcase_set_timeout(sanitize, 600);
    suite_add_tcase(s, sanitize);
    return s;
}

enum gpu_state { GPU_USABLE, GPU_ABSENT, GPU_BROKEN };

/* In a child, so this process never holds a CUDA context. `why` gets the
 * GPU's name, or the CUDA error that says why there is none. */
static enum gpu_state probe_gpu(char *why, size_t len)
{
    int fd[2];
    if (pipe(fd) != 0) {
        snprintf(why, len, "pipe failed");
        return GPU_BROKEN;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, len, "fork failed");
        return GPU_BROKEN;
    }
    if (pid == 0) {
        close(fd[0]);
        device_facts dev;
        cudaError_t e = gpu_probe(&dev);
        char msg[256];
        int n = snprintf(msg, sizeof msg, "%s", e == cudaSuccess ? dev.name
                         : cudaGetErrorName(e));
        if (write(fd[1], msg, (size_t)n) < 0)
            _exit(3);
        _exit(e == cudaSuccess ? 0 : cuda_error_outcome(e) == OUT_NO_GPU ? 1 : 2);
    }
    close(fd[1]);
    ssize_t n = read(fd[0], why, len - 1);
    why[n > 0 ? n : 0] = 0;
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st)) {
        snprintf(why, len, "the probe died from signal %d", WTERMSIG(st));
        return GPU_BROKEN;
    }
    return WEXITSTATUS(st) == 0 ? GPU_USABLE : WEXITSTATUS(st) == 1 ? GPU_ABSENT : GPU_BROKEN;
}

int main(void)
{
    char why[256];
    switch (probe_gpu(why, sizeof why)) {
    case GPU_ABSENT:
        printf("GPU test suite: skipped: no GPU (%s). The CPU suite above still ran.\n", why);
        return 0;
    case GPU_BROKEN:
        printf("GPU test suite: FAILED before it started: looking for the GPU gave %s, which "
               "is not 'no GPU' or 'no driver': the GPU or the driver is broken.\n", why);
        return 1;
    case GPU_USABLE:
        break;
    }
    printf("GPU test suite on %s (reports in %s/)\n", why, OUTDIR);
    if (system("mkdir -p " OUTDIR) != 0 || access(GRADER, X_OK) != 0) {
        printf("GPU test suite: no %s to test (make builds it)\n", GRADER);
        return 1;
    }
    SRunner *sr = srunner_create(gpu_suite());
    /* Each test in a child: Check enforces the time limits only then. The
     * children hold no CUDA context; the grader is a process of its own. */
    srunner_set_fork_status(sr, CK_FORK);
    srunner_set_log(sr, OUTDIR "/gpu-suite.log");
    srunner_run_all(sr, CK_VERBOSE);
    int failed = srunner_ntests_failed(sr), ran = srunner_ntests_run(sr);
    srunner_free(sr);
    if (ran == 0) {
        printf("GPU test suite: no test ran (CK_RUN_SUITE / CK_RUN_CASE select none)\n");
        return 1;
    }
    return failed ? 1 : 0;
}
