/* test_fixtures.c: the GPU suite's fixtures (tests/gpu/{faulty,cheats,races,accepted}/,
 * see tests/gpu/fixture.h), checked without a GPU: every folder has a
 * well-formed expect file naming a real exercise, a kernel file where the
 * grader will look for it, knobs the exercise has, a secret file that can
 * be looked for; and NVRTC alone compiles the kernel, rejects it, or is
 * still busy with it after FIXTURE_RUNAWAY_S seconds of CPU, as the file
 * says. So a fixture whose verdict comes from a rule cannot pass on the GPU for
 * another reason (a typo that makes it a compile error, say). */
#include <nvrtc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "compile.h"
#include "diagnose.h"
#include "fixture.h"
#include "result.h"
#include "shim_headers.h"
#include "suites.h"

static fixture all[FIXTURE_MAX];
static int n_all;

static const exercise *find_exercise(int lesson, const char *name)
{
    if (lesson < 0 || lesson >= N_LESSONS)
        return NULL;
    for (const exercise *const *e = lesson_exercises[lesson]; e && *e; e++)
        if (!strcmp((*e)->name, name))
            return *e;
    return NULL;
}

static int known_outcome(const char *word)
{
    for (int o = OUT_NOT_RUN; o <= OUT_CHECKED; o++)
        if (!strcmp(outcome_word((enum outcome)o), word))
            return 1;
    return 0;
}

/* The knob values the grader would use: defaults, then the fixture's set:
 * line. 0, or -1 with `why` naming the knob that is not the exercise's or
 * out of its range. */
static int fixture_knobs(const fixture *f, const exercise *ex, int *knobs, char *why,
                         size_t len)
{
    for (int k = 0; k < MAX_KNOBS; k++)
        knobs[k] = ex->knobs[k].name ? ex->knobs[k].def : 0;
    char buf[sizeof f->set];
    snprintf(buf, sizeof buf, "%s", f->set);
    for (char *w = strtok(buf, " \t"); w; w = strtok(NULL, " \t")) {
        char *eq = strchr(w, '=');
        *eq = 0;
        int k = 0, v = atoi(eq + 1);
        while (k < MAX_KNOBS && ex->knobs[k].name && strcmp(ex->knobs[k].name, w))
            k++;
        if (k == MAX_KNOBS || !ex->knobs[k].name) {
            snprintf(why, len, "set: lesson%d/%s has no knob %s", ex->lesson, ex->name, w);
            return -1;
        }
        if (v < ex->knobs[k].min || v > ex->knobs[k].max) {
            snprintf(why, len, "set: %s=%d is outside %d..%d", w, v, ex->knobs[k].min,
                     ex->knobs[k].max);
            return -1;
        }
        knobs[k] = v;
    }
    return 0;
}

START_TEST(fixtures_exist)
{
    /* Every group holds fixtures: an empty or missing folder would make the
     * GPU suite's fixture tests pass by testing nothing. */
    ck_assert_msg(n_all >= 0, "cannot read the fixture folders under " FIXTURE_ROOT);
    ck_assert_msg(n_all <= FIXTURE_MAX, "%d fixtures, more than FIXTURE_MAX (%d)", n_all,
                  FIXTURE_MAX);
    const char *groups[] = {"faulty/", "cheats/", "races/", "accepted/", "gaming/"};
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++) {
        int n = 0;
        for (int i = 0; i < n_all; i++)
            n += !strncmp(all[i].id, groups[g], strlen(groups[g]));
        ck_assert_msg(n > 0, "no fixture under " FIXTURE_ROOT "/%s", groups[g]);
    }
}
END_TEST

START_TEST(expect_file_well_formed)
{
    const fixture *f = &all[_i];
    ck_assert_msg(!f->error[0], "%s", f->error);
    const exercise *ex = find_exercise(f->lesson, f->exercise);
    ck_assert_msg(ex != NULL, "%s: lesson%d has no exercise '%s'", f->id, f->lesson,
                  f->exercise);
    ck_assert_msg(known_outcome(f->outcome), "%s: '%s' is not an outcome the report uses",
                  f->id, f->outcome);
    /* A fixture that expects a pass is not testing a rule, unless it is an
     * accepted answer: a right kernel no rule may fail. */
    /* A gaming kernel (issue 15) has the mechanism only off the data path:
     * the data-path check, not speed or correctness, must stop it. */
    /* One that tells the judged launch from the timed one by a special
     * register (%nsmid: tell_grid) is refused before it runs (issue 28
     * item 2), with those words. */
    int tells = !strcmp(f->outcome, "REFUSED") &&
                strstr(f->message, "could tell a simulated launch from a real one");
    if (!strncmp(f->id, "gaming/", 7))
        ck_assert_msg(!strcmp(f->outcome, "MECHANISM") || tells, "%s: a gaming kernel must "
                      "expect MECHANISM (or REFUSED for a special register), not %s", f->id,
                      f->outcome);
    int accepted = !strncmp(f->id, "accepted/", 9);
    if (accepted)
        ck_assert_msg(!strcmp(f->outcome, "PASS"), "%s: an accepted answer must expect PASS, "
                      "not %s", f->id, f->outcome);
    else
        ck_assert_msg(strcmp(f->outcome, "PASS") && strcmp(f->outcome, "PASS*"),
                      "%s: a fixture must expect a failing outcome, not %s", f->id, f->outcome);
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", f->dir, ex->file);
    ck_assert_msg(stat(path, &st) == 0 && S_ISREG(st.st_mode),
                  "%s: no kernel file %s, where --student-dir %s makes the grader look",
                  f->id, path, f->dir);
    int knobs[MAX_KNOBS];
    char why[256];
    ck_assert_msg(fixture_knobs(f, ex, knobs, why, sizeof why) == 0, "%s: %s", f->id, why);
    if (f->env[0])
        ck_assert_msg(!strncmp(f->env, "GRADER_LAUNCH_TIMEOUT=", 22) ||
                      !strncmp(f->env, "GRADER_COMPILE_TIMEOUT=", 23),
                      "%s: env: %s is not one of the grader's limits", f->id, f->env);
    if (f->secret[0]) {
        char found[256];
        int checked = 0;
        /* Nothing matches in an empty text; what counts is that the file
         * has lines long enough for the GPU suite to look for. */
        ck_assert_msg(contains_line_of("", f->secret, 20, &checked, found, sizeof found) == 0,
                      "%s: secret: cannot read %s", f->id, f->secret);
        ck_assert_msg(checked > 0, "%s: secret: %s has no line of 20 characters or more to "
                      "look for in the report", f->id, f->secret);
    }
}
END_TEST

enum nvrtc_says { SAYS_COMPILES, SAYS_FAILS, SAYS_BUSY, SAYS_BROKEN };

static const char *said(enum nvrtc_says s)
{
    return s == SAYS_COMPILES ? "compiles" : s == SAYS_FAILS ? "fails"
         : s == SAYS_BUSY ? "runaway" : "broken (NVRTC could not be run)";
}

/* The CPU seconds process `pid` has used so far, or -1 when it cannot be read. */
static double cpu_seconds(pid_t pid)
{
    clockid_t clock;
    struct timespec t;
    if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &t) != 0)
        return -1;
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* NVRTC alone, in a child so a runaway can be stopped: the grader's options
 * (sm_90, C++17, the toolkit's headers, the knobs as -D), and the file's own
 * folder searched for quoted includes, as NVRTC does by default. SAYS_BUSY
 * once it has used cpu_s seconds of CPU, or wall_s seconds have passed,
 * without finishing. CPU time, not the clock on the wall, is what shows a
 * compile keeps NVRTC busy: it counts the same when other tests share the
 * machine (make test-cpu runs several at a time). */
static enum nvrtc_says nvrtc_alone(const char *path, const exercise *ex, const int *knobs,
                                   double cpu_s, double wall_s)
{
    pid_t pid = fork();
    if (pid < 0)
        return SAYS_BROKEN;
    if (pid == 0) {
        /* A runaway grows by megabytes a second: 2 GiB more address space
         * than the process has, as the grader's compile child allows. */
        long pages = 0;
        FILE *statm = fopen("/proc/self/statm", "r");
        if (statm && fscanf(statm, "%ld", &pages) != 1)
            pages = 0;
        if (statm)
            fclose(statm);
        rlim_t limit = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)2 << 30);
        struct rlimit as = {limit, limit};
        setrlimit(RLIMIT_AS, &as);
        FILE *in = fopen(path, "rb");
        static char src[1 << 20];
        size_t n = in ? fread(src, 1, sizeof src - 1, in) : 0;
        if (in)
            fclose(in);
        src[n] = 0;
        /* The toolkit's include directories (CCCL's too), as the grader
         * gives them: the accepted libcu++ answers need them. */
        char inc[4][1100], defs[MAX_KNOBS][80];
        const char *dirs[4], *opts[8 + MAX_KNOBS];
        int o = 0, nd = compile_include_dirs(dirs, 4);
        opts[o++] = "-arch=sm_90";
        opts[o++] = "-std=c++17";
        for (int d = 0; d < nd; d++) {
            snprintf(inc[d], sizeof inc[d], "-I%s", dirs[d]);
            opts[o++] = inc[d];
        }
        for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++) {
            snprintf(defs[k], sizeof defs[k], "-D%s=%d", ex->knobs[k].name, knobs[k]);
            opts[o++] = defs[k];
        }
        /* And the grader's <cstdio> and <cassert> (shim_headers.h). */
        const char *const *shim_src, *const *shim_names;
        int nshim = shim_headers(&shim_src, &shim_names);
        nvrtcProgram prog;
        if (!in || nvrtcCreateProgram(&prog, src, path, nshim, shim_src, shim_names) !=
                       NVRTC_SUCCESS)
            _exit(3);
        nvrtcResult r = nvrtcCompileProgram(prog, o, opts);
        _exit(r == NVRTC_SUCCESS ? 0 : r == NVRTC_ERROR_COMPILATION ? 1 : 3);
    }
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status;
    for (;;) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            break;
        clock_gettime(CLOCK_MONOTONIC, &t);
        double wall = t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) * 1e-9;
        if (cpu_seconds(pid) >= cpu_s || wall >= wall_s) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return SAYS_BUSY;
        }
        usleep(20000);
    }
    if (!WIFEXITED(status))
        return SAYS_BROKEN;
    return WEXITSTATUS(status) == 0 ? SAYS_COMPILES
         : WEXITSTATUS(status) == 1 ? SAYS_FAILS : SAYS_BROKEN;
}

/* Fixture f's exercise, its knobs and the path of its kernel file. */
static const exercise *fixture_kernel(const fixture *f, int knobs[MAX_KNOBS], char *path,
                                      size_t len)
{
    ck_assert_msg(!f->error[0], "%s", f->error);
    const exercise *ex = find_exercise(f->lesson, f->exercise);
    ck_assert_msg(ex != NULL, "%s: no exercise lesson%d/%s", f->id, f->lesson, f->exercise);
    char why[256];
    ck_assert_msg(fixture_knobs(f, ex, knobs, why, sizeof why) == 0, "%s: %s", f->id, why);
    snprintf(path, len, "%s/%s", f->dir, ex->file);
    return ex;
}

START_TEST(nvrtc_does_what_expect_says)
{
    const fixture *f = &all[_i];
    int knobs[MAX_KNOBS];
    char path[512];
    const exercise *ex = fixture_kernel(f, knobs, path, sizeof path);
    int runaway = !strcmp(f->nvrtc, "runaway");
    /* A runaway must keep NVRTC busy for FIXTURE_RUNAWAY_S of CPU (within
     * the test's 120 s). Anything else is a small file: a minute is far
     * more than it needs. */
    enum nvrtc_says s = runaway ? nvrtc_alone(path, ex, knobs, FIXTURE_RUNAWAY_S, 100)
                                : nvrtc_alone(path, ex, knobs, 60, 60);
    ck_assert_msg(!strcmp(said(s), f->nvrtc), "%s: expect says nvrtc: %s, but NVRTC %s%s",
                  f->id, f->nvrtc, s == SAYS_BUSY ? "was still compiling after " : "",
                  s == SAYS_BUSY ? (runaway ? "the limit" : "60 s") : said(s));
}
END_TEST

/* A fixture that names a diagnosis: the grader's finder sees it in the
 * fixture's own PTX (sm_90, its knobs), so the GPU suite's check of the
 * report's "diagnoses" can fail only for the report's sake. */
START_TEST(diagnosis_is_in_the_ptx)
{
    const fixture *f = &all[_i];
    if (!f->diagnosis[0])
        return;
    int knobs[MAX_KNOBS];
    char path[512];
    const exercise *ex = fixture_kernel(f, knobs, path, sizeof path);
    compiled c;
    compile_file(path, ex, ex->kernel, knobs, 90, &c);
    ck_assert_msg(c.ok, "%s: %s", f->id, c.error);
    unsigned d = diagnose_exercise(ex, c.ptx), named = 0;
    compiled_free(&c);
    for (unsigned bit = 1; bit; bit <<= 1)
        if (diagnose_name(bit) && !strcmp(diagnose_name(bit), f->diagnosis))
            named = bit;
    ck_assert_msg(named, "%s: diagnosis: '%s' is no pattern of diagnose.h", f->id,
                  f->diagnosis);
    ck_assert_msg(d & named, "%s: the PTX does not show %s (diagnoses %u)", f->id, f->diagnosis,
                  d);
}
END_TEST

Suite *fixtures_suite(void)
{
    n_all = fixtures_list(all, FIXTURE_MAX);
    int n = n_all < 0 ? 0 : n_all > FIXTURE_MAX ? FIXTURE_MAX : n_all;
    Suite *s = suite_create("fixtures");
    TCase *tc = tcase_create("expect files");
    tcase_add_test(tc, fixtures_exist);
    tcase_add_loop_test(tc, expect_file_well_formed, 0, n);
    suite_add_tcase(s, tc);
    tc = tcase_create("nvrtc");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, nvrtc_does_what_expect_says, 0, n);
    tcase_add_loop_test(tc, diagnosis_is_in_the_ptx, 0, n);
    suite_add_tcase(s, tc);
    return s;
}
