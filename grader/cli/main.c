/* main.c: the grader's command line.
 *
 *   grader check <lesson>... [options]   grade exercises (make check lessonN)
 *   grader watch <lesson>... [options]   grade again on every save (make watch lessonN)
 *   grader static <lesson>...            compile every version with NVRTC and
 *                                        check mechanisms: no GPU
 *   grader list                          every exercise, with its files
 *   grader progress --progress FILE      the course map (make progress)
 *   grader class SUBMISSIONS [lesson...] a whole class (class/class.h)
 *   grader references --out DIR|--verify a student copy's references (references.h)
 *
 * A lesson is written lesson3, 3 or all. Each exercise is graded in its own
 * child process (child.c), so a crash or a hang costs one exercise, not the
 * run. Without a GPU, `check` still compiles each file and runs every
 * mechanism check (nogpu.c). The grader reads course files and writes only
 * its JSON report and, when asked to, the student's progress file.
 *
 * Exit status of check (make check maps 3 to 0, and README.md says so):
 *   0  every graded exercise passed (demos and exercises this GPU is too
 *      old for do not count)
 *   1  an exercise failed; without a GPU: a compile error or a mechanism
 *      check that does not hold
 *   2  the command line was wrong (an unknown knob or exercise, a value out
 *      of range): nothing was graded
 *   3  no GPU, and everything that can be checked without one holds
 *      (every exercise CHECKED): correctness and speed were not judged
 *
 * Error rule (cli/): a bad command line is refused before anything is
 * graded, with one line on stderr saying what was wrong (and what was
 * meant), and status 2; what the layers below find is in the report, and
 * the status says whether everything passed. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "child.h"
#include "class.h"
#include "compile.h"
#include "knobs.h"
#include "lesson_name.h"
#include "mechanism.h"
#include "nogpu.h"
#include "profile.h"
#include "progress.h"
#include "references.h"
#include "report.h"
#include "static_check.h"
#include "stats.h"
#include "suggest.h"
#include "watch.h"

#define MAX_SELECTED 128
#define MAX_SWEEP 16

enum exit_status { EXIT_PASSED = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_CHECKED = 3 };

typedef struct options {
    grade_opts g;
    const char *cmd;
    int lessons[N_LESSONS];      /* 1: selected */
    const char *only;            /* one exercise name */
    const char *json;
    double timeout_s;
    knob_settings ks;
    char sweep_name[32];
    int sweep_values[MAX_SWEEP];
    int nsweep;
    int seed_given;
    int ncu;                     /* also show Nsight Compute counters */
    int no_gpu;                  /* check without running, even on a GPU */
    const char *progress;        /* the student's progress file, or NULL */
    watch_opts watch;
    const char *self;            /* argv[0] */
} options;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: grader check|watch|static|list|progress [lesson...] [options]\n"
        "       grader class SUBMISSIONS [lesson...] [options]  a whole class (grader class --help)\n"
        "       grader references --out DIR | --verify [--root DIR]\n"
        "                           a student copy's compiled references (make release)\n"
        "  lesson: lesson3, 3 or all\n"
        "options:\n"
        "  --root DIR          the course's top folder (default: .)\n"
        "  --solutions         grade solutions/ instead of exercises/\n"
        "  --student-dir DIR   grade the files under DIR instead of exercises/\n"
        "  --only NAME         only the exercise called NAME\n"
        "  --seed N            replay the inputs of an earlier run\n"
        "  --set NAME=VALUE    set a knob (e.g. TILE=16, PDIST=8); a name that is no knob\n"
        "                      of the lessons graded is refused, with what was meant\n"
        "  --sweep NAME=a,b,.. grade at each value of a knob; print a TSV table\n"
        "  --json FILE         where to write the JSON report (default build/report.json)\n"
        "  --timeout S         seconds one exercise may take (default 120)\n"
        "  --correctness-only  check results, skip timing (used with compute-sanitizer)\n"
        "  --ncu               also show Nsight Compute counters (bank conflicts, DRAM\n"
        "                      throughput, stalls) for each exercise, where ncu works; read\n"
        "                      before grading it (lesson 10 grades its bank conflicts)\n"
        "  --no-gpu            check without running, as on a machine without a GPU:\n"
        "                      compile, resources, occupancy, mechanism checks\n"
        "  --progress FILE     record the results of grading exercises/ in FILE (make\n"
        "                      check passes .progress); with `progress`, the file to show\n"
        "exit status of check: 0 all passed, 1 something failed, 2 bad command line,\n"
        "  3 no GPU and everything checkable holds (correctness and speed not judged)\n");
}

/* --sweep NAME=a,b,c: the knob and its values into o. 0, or -1 after saying
 * what is wrong. */
static int parse_sweep(options *o, const char *a, const char *val)
{
    const char *eq = strchr(val, '=');
    if (!eq || eq == val || eq - val >= 32) {
        fprintf(stderr, "grader: %s takes NAME=VALUE, got '%s'\n", a, val);
        return -1;
    }
    snprintf(o->sweep_name, 32, "%.*s", (int)(eq - val), val);
    const char *p = eq + 1;
    while (*p && o->nsweep < MAX_SWEEP) {
        char *end;
        o->sweep_values[o->nsweep++] = (int)strtol(p, &end, 10);
        if (end == p) {
            fprintf(stderr, "grader: bad --sweep list '%s'\n", eq + 1);
            return -1;
        }
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* The options that take a value (the next argument). */
static const char *const valued[] = {
    "--root", "--student-dir", "--only", "--json", "--progress", "--watch-rounds", "--seed",
    "--timeout", "--set", "--sweep", NULL,
};

/* One option `a`, with the argument after it (`val`, NULL at the end).
 * Returns how many arguments it took besides itself (0 or 1), or -1 after
 * saying on stderr what is wrong. --help prints the usage and exits. */
static int parse_option(options *o, const char *a, const char *val)
{
    int takes = 0;
    for (int k = 0; valued[k]; k++)
        takes |= !strcmp(a, valued[k]);
    if (takes && !val) {
        fprintf(stderr, "grader: %s needs a value\n", a);
        return -1;
    }
    char err[256];
    if (!strcmp(a, "--root")) o->g.root = val;
    else if (!strcmp(a, "--solutions")) o->g.student_dir = "solutions";
    else if (!strcmp(a, "--student-dir")) o->g.student_dir = val;
    else if (!strcmp(a, "--only")) o->only = val;
    else if (!strcmp(a, "--json")) o->json = val;
    else if (!strcmp(a, "--correctness-only")) o->g.correctness_only = 1;
    else if (!strcmp(a, "--ncu")) o->ncu = 1;
    else if (!strcmp(a, "--no-gpu")) o->no_gpu = 1;
    else if (!strcmp(a, "--progress")) o->progress = val;
    /* For the tests: stop watching after N gradings; poll, not inotify. */
    else if (!strcmp(a, "--watch-rounds")) o->watch.rounds = atoi(val);
    else if (!strcmp(a, "--watch-poll")) o->watch.poll = 1;
    else if (!strcmp(a, "--seed")) {
        o->g.seed = strtoull(val, NULL, 10);
        o->seed_given = 1;
    } else if (!strcmp(a, "--timeout")) {
        o->timeout_s = atof(val);
        if (o->timeout_s <= 0) {
            fprintf(stderr, "grader: --timeout needs seconds > 0\n");
            return -1;
        }
    } else if (!strcmp(a, "--set")) {
        if (knob_settings_add(&o->ks, val, err, sizeof err) != 0) {
            fprintf(stderr, "grader: %s\n", err);
            return -1;
        }
    } else if (!strcmp(a, "--sweep")) {
        if (parse_sweep(o, a, val) != 0)
            return -1;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
        usage(stdout);
        exit(0);
    } else {
        fprintf(stderr, "grader: unknown option %s\n", a);
        return -1;
    }
    return takes;
}

/* A word that is no option: the command first, then lessons ("all",
 * "lesson3", "3"). 0, or -1 after saying what is wrong. */
static int parse_word(options *o, const char *a, int *any_lesson)
{
    if (!o->cmd) {
        o->cmd = a;
        return 0;
    }
    if (!strcmp(a, "all")) {
        for (int l = 0; l < N_LESSONS; l++)
            o->lessons[l] = 1;
        *any_lesson = 1;
        return 0;
    }
    int l = lesson_from_name(a);
    if (l < 0) {
        fprintf(stderr, "grader: '%s' is not a lesson (lesson0 .. lesson%d, or all)\n", a,
                N_LESSONS - 1);
        return -1;
    }
    o->lessons[l] = 1;
    *any_lesson = 1;
    return 0;
}

/* The command line into o, from the defaults every command shares
 * (grade_opts_defaults). 0, or -1 after saying on stderr what is wrong. */
static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    grade_opts_defaults(&o->g);
    o->timeout_s = GRADE_TIMEOUT_S;
    o->json = "build/report.json";
    int any_lesson = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int took = a[0] == '-' ? parse_option(o, a, i + 1 < argc ? argv[i + 1] : NULL)
                               : parse_word(o, a, &any_lesson);
        if (took < 0)
            return -1;
        i += took;
    }
    if (!o->cmd) { usage(stderr); return -1; }
    if (!any_lesson)
        for (int l = 0; l < N_LESSONS; l++) o->lessons[l] = 1;
    return 0;
}

/* The selected lessons' exercises (only o->only's, when given). */
static int select_exercises(const options *o, const exercise **sel)
{
    int n = 0;
    for (int l = 0; l < N_LESSONS; l++) {
        if (!o->lessons[l])
            continue;
        for (const exercise *const *e = lesson_exercises[l]; *e && n < MAX_SELECTED; e++)
            if (!o->only || !strcmp(o->only, (*e)->name))
                sel[n++] = *e;
    }
    return n;
}

/* ONLY=matmull: say which exercises the lessons have, and the near one. */
static void no_such_exercise(const options *o)
{
    const char *names[MAX_SELECTED + 1];
    int n = 0, lessons = 0, last = -1;
    for (int l = 0; l < N_LESSONS; l++)
        if (o->lessons[l]) {
            lessons++;
            last = l;
            for (const exercise *const *e = lesson_exercises[l]; *e && n < MAX_SELECTED; e++)
                names[n++] = (*e)->name;
        }
    names[n] = NULL;
    if (lessons == 1)
        fprintf(stderr, "grader: lesson%d has no exercise '%s'; its exercises are:", last,
                o->only);
    else
        fprintf(stderr, "grader: no lesson graded here has an exercise '%s'; theirs are:",
                o->only);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s %s", i ? "," : "", names[i]);
    const char *near = closest_name(o->only, names);
    fprintf(stderr, ".%s%s%s\n", near ? " Did you mean ONLY=" : "", near ? near : "",
            near ? "?" : "");
}

/* The selection, with its knob settings checked before anything runs.
 * Returns how many, or -1 after saying what is wrong. */
static int select_checked(const options *o, const exercise **sel)
{
    int n = select_exercises(o, sel);
    if (n == 0) {
        if (o->only)
            no_such_exercise(o);
        else
            fprintf(stderr, "grader: no exercise selected\n");
        return -1;
    }
    char err[2048];
    if (knob_settings_check(&o->ks, sel, n, err, sizeof err) != 0) {
        fprintf(stderr, "grader: %s\n", err);
        return -1;
    }
    return n;
}

/* How the graded folder is named to the student: "your exercises" for
 * exercises/, else the folder as given. */
static const char *mode_name(const options *o)
{
    return !strcmp(o->g.student_dir, "exercises") ? "your exercises" : o->g.student_dir;
}

static int cmd_list(const options *o)
{
    const exercise *sel[MAX_SELECTED];
    int n = select_exercises(o, sel);
    if (n == 0 && o->only) {
        no_such_exercise(o);
        return EXIT_USAGE;
    }
    for (int i = 0; i < n; i++) {
        const exercise *ex = sel[i];
        printf("lesson%d/%-20s %s\n", ex->lesson, ex->name, ex->title);
        if (ex->demo)
            printf("    demo:     grader/demos/%s (shown for what it teaches; not graded, "
                   "nothing to edit)\n", ex->file);
        else
            printf("    edit:     %s/%s\n", o->g.student_dir, ex->file);
        printf("    lesson:   %s\n", ex->explained_in ? ex->explained_in : "-");
        for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
            printf("    knob:     %s=%d (%d..%d) %s\n", ex->knobs[k].name, ex->knobs[k].def,
                   ex->knobs[k].min, ex->knobs[k].max, ex->knobs[k].what);
    }
    return 0;
}

/* "14 regs, 0 B local, 48.0 KB smem, 25% occupancy" */
static void resources_text(const resources *r, char *buf, size_t len)
{
    char smem[16], local[16];
    human_bytes(smem, sizeof smem, r->smem_static + r->smem_dynamic);
    human_bytes(local, sizeof local, r->stack_bytes + r->spill_stores);
    int at = snprintf(buf, len, "%d regs, %s local, %s smem", r->regs, local, smem);
    if (r->occupancy_pct >= 0 && at > 0 && (size_t)at < len)
        snprintf(buf + at, len - (size_t)at, ", %d%% occupancy", r->occupancy_pct);
}

/* static: the course's own files must compile and the solutions hold their
 * mechanisms (that decides the exit status); the graded folder's files are
 * shown with the verdict they get without a GPU, labelled as whose they are. */
static int cmd_static(const options *o)
{
    const exercise *sel[MAX_SELECTED];
    int n = select_checked(o, sel), bad = 0, theirs_failed = 0;
    if (n < 0)
        return EXIT_USAGE;
    int color = want_color(stdout);
    const char *whose = !strcmp(o->g.student_dir, "exercises") ? "yours"
                      : !strcmp(o->g.student_dir, "solutions") ? "solutions"
                      : o->g.student_dir;
    for (int i = 0; i < n; i++) {
        const exercise *ex = sel[i];
        int knobs[MAX_KNOBS];
        char msg[8192], res_text[128];
        knob_values_for(ex, &o->ks, knobs);
        /* The calibration GPU, and the oldest generation the exercise allows. */
        int ccs[2] = {NO_GPU_CC, ex->min_cc > 75 ? ex->min_cc : 75};
        for (int c = 0; c < 2; c++) {
            resources res = {0};
            int r = static_check_exercise(ex, knobs, &o->g, ccs[c], msg, sizeof msg, &res);
            printf("%s%-5s%s lesson%d/%-24s sm_%d", color ? (r ? "\033[31m" : "\033[32m") : "",
                   r ? "FAIL" : "ok", color ? "\033[0m" : "", ex->lesson, ex->name, ccs[c]);
            const char *label = ex->demo ? "demo" : whose;
            if (c == 0) {
                result v;
                check_without_gpu(ex, knobs, &o->g, &v);
                resources_text(&v.res[V_STUDENT], res_text, sizeof res_text);
                printf("  %s: %s", label, outcome_word(v.outcome));
                if (v.res[V_STUDENT].known)
                    printf(" (%s)", res_text);
                int f = -1;
                for (int k = 0; k < MAX_CHECKS && f < 0; k++)
                    f = v.checks[k].state == CS_FAILS ? k : -1;
                if (f >= 0)
                    printf("\n      %s", v.checks[f].what);
                theirs_failed += !ex->demo && v.outcome != OUT_CHECKED;
            } else if (res.known) {
                res.occupancy_pct = -1;
                resources_text(&res, res_text, sizeof res_text);
                printf("  %s: %s", label, res_text);
            }
            printf("\n");
            if (r) {
                printf("%s", msg);
                bad++;
            }
        }
    }
    printf("%d passed, %d failed (the course's files: every version compiles, every solution "
           "holds its mechanisms)\n", 2 * n - bad, bad);
    if (theirs_failed)
        printf("%d of %s files not CHECKED without a GPU (shown, not counted: an untouched "
               "stub is expected to fail its mechanism checks)\n", theirs_failed,
               !strcmp(whose, "yours") ? "your" : whose);
    return bad ? 1 : 0;
}

static unsigned long long fresh_seed(void)
{
    FILE *f = fopen("/dev/urandom", "rb");
    unsigned long long s = 0;
    if (f) {
        if (fread(&s, sizeof s, 1, f) != 1)
            s = 0;
        fclose(f);
    }
    /* Short enough to type. */
    return s % 1000000000ull + 1;
}

/* " --set A=1 --set B=2": the knob settings, for a grader run under ncu. */
static void settings_args(const knob_settings *ks, char *buf, size_t len)
{
    buf[0] = 0;
    for (int s = 0; s < ks->n; s++)
        snprintf(buf + strlen(buf), len - strlen(buf), " --set %s=%s", ks->set[s].name,
                 ks->set[s].value);
}

/* Nsight Compute for one exercise, before it is graded: its counts are
 * evidence the verdict reads (an exercise may require its bank conflicts to
 * be gone), and its table goes into *text for the report. */
static void profile_before_grading(const options *o, const exercise *ex, ncu_evidence *ev,
                                   char **text)
{
    char sets[512];
    size_t len;
    settings_args(&o->ks, sets, sizeof sets);
    options_for_profile p = {o->self, o->g.root, o->g.student_dir, sets};
    memset(ev, 0, sizeof *ev);
    FILE *f = open_memstream(text, &len);
    if (!f)
        return;
    fprintf(stderr, "profiling lesson%d/%s with Nsight Compute ...\n", ex->lesson, ex->name);
    profile_exercise(ex, &p, f, ev);
    fclose(f);
}

/* Grade sel[0..n) into g; with no GPU (or --no-gpu), check each without
 * one. Returns 1 when nothing could run, with *why the probe's result. */
static int grade_all(options *o, const exercise **sel, int n, graded *g, result *why,
                     char **ncu_text)
{
    int no_gpu = o->no_gpu;
    memset(why, 0, sizeof *why);
    if (no_gpu)
        snprintf(why->message, sizeof why->message, "(--no-gpu: checked without running, "
                 "whatever GPU this machine has.)");
    for (int i = 0; i < n; i++) {
        int knobs[MAX_KNOBS];
        g[i].ex = sel[i];
        knob_values_for(sel[i], &o->ks, knobs);
        if (!no_gpu) {
            grade_opts go = o->g;
            ncu_evidence ev;
            if (o->ncu) {
                profile_before_grading(o, sel[i], &ev, &ncu_text[i]);
                go.ncu = &ev;
            }
            fprintf(stderr, "grading lesson%d/%s ...\n", sel[i]->lesson, sel[i]->name);
            grade_in_child(sel[i], knobs, &go, o->timeout_s, &g[i].r);
            if (g[i].r.outcome != OUT_NO_GPU)
                continue;
            no_gpu = 1;
            *why = g[i].r;
        }
        check_without_gpu(sel[i], knobs, &o->g, &g[i].r);
    }
    return no_gpu;
}

/* `grader class` grades each exercise as `check` does (class.c). */
static void grade_as_check(const exercise *ex, const int *knobs, const grade_opts *g,
                           double timeout_s, result *r)
{
    grade_in_child(ex, knobs, g, timeout_s, r);
    if (r->outcome == OUT_NO_GPU)
        check_without_gpu(ex, knobs, g, r);
}

/* Is the graded folder the course's exercises/, the student's own work? */
static int grading_own_exercises(const options *o)
{
    char a[PATH_MAX + 64], b[PATH_MAX + 64], ra[PATH_MAX], rb[PATH_MAX];
    if (o->g.student_dir[0] == '/')
        snprintf(a, sizeof a, "%s", o->g.student_dir);
    else
        snprintf(a, sizeof a, "%s/%s", o->g.root, o->g.student_dir);
    snprintf(b, sizeof b, "%s/exercises", o->g.root);
    return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

/* Fold this run into the progress file, when it is the student's own work
 * graded normally, and say how far along the course they are. */
static void record_progress(const options *o, const graded *g, int n)
{
    if (!o->progress)
        return;
    if (!grading_own_exercises(o) || o->g.correctness_only) {
        printf("Progress not recorded: %s.\n", o->g.correctness_only ? "a correctness-only "
               "run (SANITIZE) says nothing about speed" : "these are not your exercises/");
        return;
    }
    progress p;
    if (progress_load(o->progress, &p) != 0) {
        fprintf(stderr, "grader: could not read %s (%s); progress not recorded\n", o->progress,
                strerror(errno));
        return;
    }
    progress_update(&p, g, n, time(NULL));
    if (progress_save(o->progress, &p) != 0)
        fprintf(stderr, "grader: could not save progress to %s: %s\n", o->progress,
                strerror(errno));
    else
        progress_line(stdout, &p);
    progress_free(&p);
}

/* Grade and report sel[0..n); returns the exit status (see the top). */
static int check_selection(options *o, const exercise **sel, int n)
{
    static graded g[MAX_SELECTED];
    static result why;
    if (!o->seed_given)
        o->g.seed = fresh_seed();
    static char *ncu_text[MAX_SELECTED];
    int no_gpu = grade_all(o, sel, n, g, &why, ncu_text);
    int color = want_color(stdout);
    if (!o->no_gpu)
        fprintf(stderr, "\n");   /* after the "grading ..." lines */
    if (no_gpu)
        print_no_gpu_header(stdout, why.message, mode_name(o));
    else
        print_run_header(stdout, g, n, mode_name(o));
    print_table(stdout, g, n, color);
    print_explanations(stdout, g, n, color, o->g.root);
    for (int i = 0; i < n; i++)
        if (ncu_text[i]) {
            /* Without a GPU, ncu had nothing to count (and said so). */
            if (!no_gpu)
                printf("lesson%d/%s:\n%s", sel[i]->lesson, sel[i]->name, ncu_text[i]);
            free(ncu_text[i]);
            ncu_text[i] = NULL;
        }
    if (o->json && *o->json) {
        if (write_json_report(o->json, g, n, mode_name(o)) != 0)
            fprintf(stderr, "grader: could not write the report %s: %s\n", o->json,
                    strerror(errno));
        else
            printf("Report for tools: %s\n", o->json);
    }
    print_summary(stdout, g, n, color);
    record_progress(o, g, n);
    int failed = 0;
    for (int i = 0; i < n; i++)
        failed |= !sel[i]->demo && !outcome_is_pass(g[i].r.outcome) &&
                  g[i].r.outcome != OUT_UNSUPPORTED && g[i].r.outcome != OUT_CHECKED;
    return failed ? EXIT_FAILED : no_gpu ? EXIT_CHECKED : EXIT_PASSED;
}

/* Lessons with nothing to grade, such as lesson 14 (a measurement of the
 * host's side of the bus): say what to do instead. 1 when that is all the
 * selection holds. */
static int only_measured_lessons(const options *o)
{
    int measured = 0, graded = 0;
    for (int l = 0; l < N_LESSONS; l++) {
        if (!o->lessons[l])
            continue;
        measured += lesson_is_measured[l];
        graded += !lesson_is_measured[l];
    }
    if (o->only || graded || !measured)
        return 0;
    for (int l = 0; l < N_LESSONS; l++)
        if (o->lessons[l])
            printf("lesson%d has no graded exercise: it is measured on your GPU instead "
                   "(make measure lesson%d; the lesson text says what to look for).\n", l, l);
    return 1;
}

static int cmd_check(options *o)
{
    if (only_measured_lessons(o))
        return EXIT_PASSED;
    const exercise *sel[MAX_SELECTED];
    int n = select_checked(o, sel);
    return n < 0 ? EXIT_USAGE : check_selection(o, sel, n);
}

/* ---- watch ------------------------------------------------------------- */

typedef struct watch_ctx {
    options *o;
    const exercise **sel;      /* graded on the first round */
    int n;
    const exercise **watched;  /* one per watched file */
    char (*paths)[1024];
    int nwatched;
    int round;
} watch_ctx;

static void watch_round(void *arg, const int *changed)
{
    watch_ctx *w = arg;
    const exercise *now[MAX_SELECTED];
    int m = 0;
    if (w->round++ == 0) {
        memcpy(now, w->sel, (size_t)w->n * sizeof *now);
        m = w->n;
    } else {
        for (int i = 0; i < w->nwatched; i++)
            if (changed[i])
                now[m++] = w->watched[i];
    }
    if (isatty(fileno(stdout)))
        printf("\033[H\033[2J\033[3J");
    time_t t = time(NULL);
    char when[16];
    strftime(when, sizeof when, "%H:%M:%S", localtime(&t));
    printf("make watch, %s: grading ", when);
    for (int i = 0; i < m; i++)
        printf("%slesson%d/%s", i ? ", " : "", now[i]->lesson, now[i]->name);
    printf("%s\n\n", w->round == 1 ? "" : " (saved)");
    fflush(stdout);
    check_selection(w->o, now, m);
    char line[4096];
    int at = snprintf(line, sizeof line, "Watching %d file%s (", w->nwatched,
                      w->nwatched == 1 ? "" : "s");
    for (int i = 0; i < w->nwatched && i < 3 && at < (int)sizeof line; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, "%s%s", i ? ", " : "", w->paths[i]);
    if (at < (int)sizeof line)
        snprintf(line + at, sizeof line - (size_t)at, "%s). Save one to grade it again; "
                 "Ctrl-C stops.", w->nwatched > 3 ? ", ..." : "");
    printf("\n");
    print_paragraph(stdout, line, "");
}

static int cmd_watch(options *o)
{
    static const exercise *sel[MAX_SELECTED], *watched[MAX_SELECTED];
    static char paths[MAX_SELECTED][1024];
    int n = select_checked(o, sel), nw = 0;
    if (n < 0)
        return EXIT_USAGE;
    /* The student's files only: demos are the course's, and never change. */
    for (int i = 0; i < n && nw < 64; i++)
        if (!sel[i]->demo) {
            watched[nw] = sel[i];
            variant_path(sel[i], V_STUDENT, &o->g, paths[nw], sizeof paths[nw]);
            nw++;
        }
    const char *list[64];
    for (int i = 0; i < nw; i++)
        list[i] = paths[i];
    watch_ctx w = {.o = o, .sel = sel, .n = n, .watched = watched, .paths = paths,
                   .nwatched = nw};
    if (watch_files(list, nw, &o->watch, watch_round, &w) != 0) {
        fprintf(stderr, "grader: nothing to watch: no exercise file among those selected "
                "(at most 64)\n");
        return EXIT_USAGE;
    }
    return EXIT_PASSED;
}

static int cmd_progress(const options *o)
{
    if (!o->progress) {
        fprintf(stderr, "grader: progress needs --progress FILE (make progress passes it)\n");
        return EXIT_USAGE;
    }
    progress p;
    if (progress_load(o->progress, &p) != 0) {
        fprintf(stderr, "grader: could not read %s: %s\n", o->progress, strerror(errno));
        return EXIT_FAILED;
    }
    progress_print(stdout, &p, o->g.student_dir, want_color(stdout), report_width(stdout));
    if (p.n == 0)
        printf("\nNothing recorded in %s yet: every make check of your exercises adds to "
               "it.\n", o->progress);
    progress_free(&p);
    return EXIT_PASSED;
}

/* Grade at each value of one knob and print speedups as a TSV table, for
 * plots: knob value, exercise, outcome, speedup of the graded kernel and of
 * the reference solution over the baseline, and the three times. */
static int cmd_sweep(options *o)
{
    const exercise *sel[MAX_SELECTED];
    int n = select_exercises(o, sel);
    if (!o->seed_given)
        o->g.seed = fresh_seed();
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    printf("# %s sweep, seed %llu\n# date: %s\n", o->sweep_name, o->g.seed, date);
    printf("%s\texercise\toutcome\tspeedup\tsolution_speedup\tbaseline_ms\tkernel_ms\tsolution_ms\tgpu\n",
           o->sweep_name);
    char err[2048];
    if (knob_settings_check(&o->ks, sel, n, err, sizeof err) != 0) {
        fprintf(stderr, "grader: %s\n", err);
        return EXIT_USAGE;
    }
    knob_settings base = o->ks;
    for (int s = 0; s < o->nsweep; s++) {
        char set[64];
        o->ks = base;
        snprintf(set, sizeof set, "%s=%d", o->sweep_name, o->sweep_values[s]);
        if (knob_settings_add(&o->ks, set, err, sizeof err) != 0) {
            fprintf(stderr, "grader: %s\n", err);
            return EXIT_USAGE;
        }
        for (int i = 0; i < n; i++) {
            int knobs[MAX_KNOBS], has = 0;
            for (int k = 0; k < MAX_KNOBS && sel[i]->knobs[k].name; k++)
                has |= !strcmp(sel[i]->knobs[k].name, o->sweep_name);
            if (!has || knob_values_checked(sel[i], &o->ks, knobs, err, sizeof err) != 0)
                continue;
            result r;
            fprintf(stderr, "sweep %s=%d lesson%d/%s ...\n", o->sweep_name, o->sweep_values[s],
                    sel[i]->lesson, sel[i]->name);
            grade_in_child(sel[i], knobs, &o->g, o->timeout_s, &r);
            printf("%d\tlesson%d/%s\t%s\t%.4f\t%.4f\t%.5f\t%.5f\t%.5f\t%s\n", o->sweep_values[s],
                   sel[i]->lesson, sel[i]->name, outcome_word(r.outcome), r.speedup,
                   r.ref_speedup, r.time[V_BASELINE].ms, r.time[V_STUDENT].ms,
                   r.time[V_SOLUTION].ms, r.gpu);
            fflush(stdout);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    /* Instructors' commands, with options of their own. */
    if (argc > 1 && !strcmp(argv[1], "class"))
        return class_main(argc - 1, argv + 1, &(class_hooks){.grade = grade_as_check});
    if (argc > 1 && !strcmp(argv[1], "references"))
        return references_main(argc - 1, argv + 1);
    options o;
    if (parse_args(argc, argv, &o) != 0)
        return EXIT_USAGE;
    o.self = argv[0];
    if (!strcmp(o.cmd, "profile-one")) {
        /* Internal: what ncu watches (see profile.c). */
        const exercise *sel[MAX_SELECTED];
        int knobs[MAX_KNOBS];
        if (select_checked(&o, sel) != 1) {
            fprintf(stderr, "grader: profile-one needs exactly one exercise\n");
            return EXIT_USAGE;
        }
        knob_values_for(sel[0], &o.ks, knobs);
        profile_launch_once(sel[0], knobs, &o.g);
    }
    if (!strcmp(o.cmd, "list"))
        return cmd_list(&o);
    if (!strcmp(o.cmd, "static"))
        return cmd_static(&o);
    if (!strcmp(o.cmd, "progress"))
        return cmd_progress(&o);
    if (!strcmp(o.cmd, "watch"))
        return cmd_watch(&o);
    if (!strcmp(o.cmd, "check"))
        return o.nsweep ? cmd_sweep(&o) : cmd_check(&o);
    fprintf(stderr, "grader: unknown command '%s'\n", o.cmd);
    usage(stderr);
    return EXIT_USAGE;
}
