/* main.c: the grader's command line.
 *
 *   grader check <lesson>... [options]   grade exercises (make check lessonN)
 *   grader static <lesson>...            compile every version with NVRTC and
 *                                        check the solutions' mechanisms: no GPU
 *   grader list                          every exercise, with its files
 *
 * A lesson is written lesson3, 3 or all. Each exercise is graded in its own
 * child process (child.c), so a crash or a hang costs one exercise, not the
 * run. The grader reads course files and writes only its JSON report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "child.h"
#include "compile.h"
#include "mechanism.h"
#include "profile.h"
#include "report.h"
#include "static_check.h"
#include "stats.h"

#define MAX_SELECTED 128
#define MAX_SETS 8
#define MAX_SWEEP 16

typedef struct options {
    grade_opts g;
    const char *cmd;
    int lessons[N_LESSONS];      /* 1: selected */
    const char *only;            /* one exercise name */
    const char *json;
    double timeout_s;
    struct { char name[32]; int value; } sets[MAX_SETS];
    int nsets;
    char sweep_name[32];
    int sweep_values[MAX_SWEEP];
    int nsweep;
    int seed_given;
    int ncu;                     /* also show Nsight Compute counters */
    const char *self;            /* argv[0] */
} options;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: grader check|static|list [lesson...] [options]\n"
        "  lesson: lesson3, 3 or all\n"
        "options:\n"
        "  --root DIR          the course's top folder (default: .)\n"
        "  --solutions         grade solutions/ instead of exercises/\n"
        "  --student-dir DIR   grade the files under DIR instead of exercises/\n"
        "  --only NAME         only the exercise called NAME\n"
        "  --seed N            replay the inputs of an earlier run\n"
        "  --set NAME=VALUE    set a knob (e.g. TILE=16, PDIST=8)\n"
        "  --sweep NAME=a,b,.. grade at each value of a knob; print a TSV table\n"
        "  --json FILE         where to write the JSON report (default build/report.json)\n"
        "  --timeout S         seconds one exercise may take (default 120)\n"
        "  --correctness-only  check results, skip timing (used with compute-sanitizer)\n"
        "  --ncu               after grading, show Nsight Compute counters (bank conflicts,\n"
        "                      DRAM throughput, stalls) for each exercise, where ncu works\n");
}

static int parse_lesson(const char *s)
{
    if (strncmp(s, "lesson", 6) == 0)
        s += 6;
    char *end;
    long n = strtol(s, &end, 10);
    if (*s == 0 || *end != 0 || n < 0 || n >= N_LESSONS)
        return -1;
    return (int)n;
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->g.root = ".";
    o->g.student_dir = "exercises";
    o->g.launch_timeout_s = 10;
    o->g.time_budget_s = 1.5;
    o->timeout_s = 120;
    o->json = "build/report.json";
    int any_lesson = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE() do { if (!val) { fprintf(stderr, "grader: %s needs a value\n", a); return -1; } i++; } while (0)
        if (!strcmp(a, "--root")) { NEED_VALUE(); o->g.root = val; }
        else if (!strcmp(a, "--solutions")) o->g.student_dir = "solutions";
        else if (!strcmp(a, "--student-dir")) { NEED_VALUE(); o->g.student_dir = val; }
        else if (!strcmp(a, "--only")) { NEED_VALUE(); o->only = val; }
        else if (!strcmp(a, "--json")) { NEED_VALUE(); o->json = val; }
        else if (!strcmp(a, "--correctness-only")) o->g.correctness_only = 1;
        else if (!strcmp(a, "--ncu")) o->ncu = 1;
        else if (!strcmp(a, "--seed")) {
            NEED_VALUE();
            o->g.seed = strtoull(val, NULL, 10);
            o->seed_given = 1;
        } else if (!strcmp(a, "--timeout")) {
            NEED_VALUE();
            o->timeout_s = atof(val);
            if (o->timeout_s <= 0) { fprintf(stderr, "grader: --timeout needs seconds > 0\n"); return -1; }
        } else if (!strcmp(a, "--set") || !strcmp(a, "--sweep")) {
            NEED_VALUE();
            const char *eq = strchr(val, '=');
            if (!eq || eq == val || eq - val >= 32) {
                fprintf(stderr, "grader: %s takes NAME=VALUE, got '%s'\n", a, val);
                return -1;
            }
            if (!strcmp(a, "--set")) {
                if (o->nsets == MAX_SETS) { fprintf(stderr, "grader: too many --set\n"); return -1; }
                snprintf(o->sets[o->nsets].name, 32, "%.*s", (int)(eq - val), val);
                char *end;
                o->sets[o->nsets].value = (int)strtol(eq + 1, &end, 10);
                if (*end || end == eq + 1) { fprintf(stderr, "grader: '%s' is not a whole number\n", eq + 1); return -1; }
                o->nsets++;
            } else {
                snprintf(o->sweep_name, 32, "%.*s", (int)(eq - val), val);
                const char *p = eq + 1;
                while (*p && o->nsweep < MAX_SWEEP) {
                    char *end;
                    o->sweep_values[o->nsweep++] = (int)strtol(p, &end, 10);
                    if (end == p) { fprintf(stderr, "grader: bad --sweep list '%s'\n", eq + 1); return -1; }
                    p = *end == ',' ? end + 1 : end;
                }
            }
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (a[0] == '-') {
            fprintf(stderr, "grader: unknown option %s\n", a);
            return -1;
        } else if (!o->cmd) {
            o->cmd = a;
        } else if (!strcmp(a, "all")) {
            for (int l = 0; l < N_LESSONS; l++) o->lessons[l] = 1;
            any_lesson = 1;
        } else {
            int l = parse_lesson(a);
            if (l < 0) {
                fprintf(stderr, "grader: '%s' is not a lesson (lesson0 .. lesson%d, or all)\n", a, N_LESSONS - 1);
                return -1;
            }
            o->lessons[l] = 1;
            any_lesson = 1;
        }
#undef NEED_VALUE
    }
    if (!o->cmd) { usage(stderr); return -1; }
    if (!any_lesson)
        for (int l = 0; l < N_LESSONS; l++) o->lessons[l] = 1;
    return 0;
}

/* Knob values for ex: defaults, then --set. An unknown name is fine (it may
 * belong to another lesson); a value out of range is an error. */
static int knob_values(const exercise *ex, const options *o, int *knobs, char *err, size_t len)
{
    for (int k = 0; k < MAX_KNOBS; k++) {
        const knob *kn = &ex->knobs[k];
        knobs[k] = 0;
        if (!kn->name)
            break;
        knobs[k] = kn->def;
        for (int s = 0; s < o->nsets; s++)
            if (!strcmp(o->sets[s].name, kn->name))
                knobs[k] = o->sets[s].value;
        int v = knobs[k];
        if (v < kn->min || v > kn->max || (kn->power_of_two && (v & (v - 1)))) {
            snprintf(err, len, "%s=%d is not allowed for lesson%d/%s: %s must be %s from %d "
                     "to %d (%s)", kn->name, v, ex->lesson, ex->name, kn->name,
                     kn->power_of_two ? "a power of two" : "a whole number", kn->min,
                     kn->max, kn->what);
            return -1;
        }
    }
    return 0;
}

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

static int cmd_list(const options *o)
{
    const exercise *sel[MAX_SELECTED];
    int n = select_exercises(o, sel);
    for (int i = 0; i < n; i++) {
        const exercise *ex = sel[i];
        printf("lesson%d/%-20s %s\n", ex->lesson, ex->name, ex->title);
        printf("    edit:     %s/%s\n", ex->demo ? "grader/demos" : "exercises", ex->file);
        printf("    lesson:   %s\n", ex->explained_in ? ex->explained_in : "-");
        for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
            printf("    knob:     %s=%d (%d..%d) %s\n", ex->knobs[k].name, ex->knobs[k].def,
                   ex->knobs[k].min, ex->knobs[k].max, ex->knobs[k].what);
    }
    return 0;
}

static int cmd_static(const options *o)
{
    const exercise *sel[MAX_SELECTED];
    int n = select_exercises(o, sel), bad = 0;
    int color = want_color(stdout);
    for (int i = 0; i < n; i++) {
        const exercise *ex = sel[i];
        int knobs[MAX_KNOBS];
        char msg[8192];
        if (knob_values(ex, o, knobs, msg, sizeof msg) != 0) {
            fprintf(stderr, "grader: %s\n", msg);
            return 2;
        }
        /* The calibration GPU, and the oldest generation the exercise allows. */
        int ccs[2] = {90, ex->min_cc > 75 ? ex->min_cc : 75};
        for (int c = 0; c < 2; c++) {
            resources res = {0};
            int r = static_check_exercise(ex, knobs, &o->g, ccs[c], msg, sizeof msg, &res);
            printf("%s%-5s%s lesson%d/%-24s sm_%d", color ? (r ? "\033[31m" : "\033[32m") : "",
                   r ? "FAIL" : "ok", color ? "\033[0m" : "", ex->lesson, ex->name, ccs[c]);
            if (res.known)
                printf("  stub: %d regs, %d B stack, %d B smem", res.regs, res.stack_bytes,
                       res.smem_static);
            printf("\n");
            if (r) {
                printf("%s", msg);
                bad++;
            }
        }
    }
    printf("%d passed, %d failed\n", 2 * n - bad, bad);
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

/* Nsight Compute for every graded exercise, before the report is printed,
 * since an exercise may require its bank conflicts to be gone. */
static void profile_all(const options *o, const exercise **sel, graded *g, int n, char **text)
{
    char sets[512] = "";
    for (int s = 0; s < o->nsets; s++)
        snprintf(sets + strlen(sets), sizeof sets - strlen(sets), " --set %s=%d",
                 o->sets[s].name, o->sets[s].value);
    options_for_profile p = {o->self, o->g.root, o->g.student_dir, sets};
    for (int i = 0; i < n; i++) {
        size_t len;
        FILE *f = open_memstream(&text[i], &len);
        if (!f)
            continue;
        fprintf(stderr, "profiling lesson%d/%s with Nsight Compute ...\n", sel[i]->lesson,
                sel[i]->name);
        ncu_counts c;
        int ok = profile_exercise(sel[i], &p, f, &c) == 0;
        fclose(f);
        result *r = &g[i].r;
        if (!ok || !sel[i]->ncu_no_bank_conflicts || !outcome_is_pass(r->outcome) ||
            c.conflicts[V_STUDENT] < 0 || c.conflicts[V_SOLUTION] < 0)
            continue;
        /* A little slack over the reference: a few conflicts from the
         * bounds of the problem are not the pattern the lesson is about. */
        double allowed = 2 * c.conflicts[V_SOLUTION] + 1000;
        if (c.conflicts[V_STUDENT] > allowed) {
            char speed[sizeof r->message];
            snprintf(speed, sizeof speed, "%s", r->message);
            r->outcome = OUT_MECHANISM;
            snprintf(r->message, sizeof r->message, "Correct, but Nsight Compute counted %.0f "
                     "shared-load bank conflicts in your kernel, against %.0f in the "
                     "reference: the conflicts are not gone. %.600s", c.conflicts[V_STUDENT],
                     c.conflicts[V_SOLUTION], speed);
        }
    }
}

/* With no GPU the grade cannot run, but the student still learns whether the
 * file compiles and has the mechanisms the exercise asks for. */
static void compile_without_gpu(const exercise *ex, const int *knobs, const grade_opts *g,
                                const result *why, result *r)
{
    *r = *why;
    r->detail[0] = 0;
    r->failed_check[0] = 0;
    char path[1024];
    variant_path(ex, V_STUDENT, g, path, sizeof path);
    compiled c;
    compile_file(path, ex, ex->kernel, knobs, 90, &c);
    c.res.occupancy_pct = -1;   /* needs the GPU's occupancy API */
    r->res[V_STUDENT] = c.res;
    r->res[V_STUDENT].occupancy_pct = -1;
    if (!c.ok) {
        r->outcome = c.outcome;
        snprintf(r->message, sizeof r->message, "%s", c.error);
        snprintf(r->detail, sizeof r->detail, "%s", c.log ? c.log : "");
    } else {
        char what[512];
        int f = first_failed_check(ex, &c, &c.res, knobs, what, sizeof what);
        snprintf(r->message, sizeof r->message, "No GPU, so not graded; your file compiles "
                 "for sm_90%s%s.", f >= 0 ? ", but " : "", f >= 0 ? what : "");
        if (f >= 0)
            snprintf(r->failed_check, sizeof r->failed_check, "%s", ex->checks[f].why);
    }
    compiled_free(&c);
}

static int cmd_check(options *o)
{
    const exercise *sel[MAX_SELECTED];
    int n = select_exercises(o, sel);
    if (n == 0) {
        fprintf(stderr, "grader: no exercise matches%s%s\n", o->only ? " --only " : "",
                o->only ? o->only : "");
        return 2;
    }
    if (!o->seed_given)
        o->g.seed = fresh_seed();
    static graded g[MAX_SELECTED];
    static result no_gpu_why;
    int no_gpu = 0;
    for (int i = 0; i < n; i++) {
        int knobs[MAX_KNOBS];
        char err[512];
        g[i].ex = sel[i];
        if (knob_values(sel[i], o, knobs, err, sizeof err) != 0) {
            fprintf(stderr, "grader: %s\n", err);
            return 2;
        }
        if (no_gpu) {
            compile_without_gpu(sel[i], knobs, &o->g, &no_gpu_why, &g[i].r);
            continue;
        }
        fprintf(stderr, "grading lesson%d/%s ...\n", sel[i]->lesson, sel[i]->name);
        grade_in_child(sel[i], knobs, &o->g, o->timeout_s, &g[i].r);
        if (g[i].r.outcome == OUT_NO_GPU) {
            no_gpu = i + 1;
            no_gpu_why = g[i].r;
            compile_without_gpu(sel[i], knobs, &o->g, &no_gpu_why, &g[i].r);
        }
    }
    static char *ncu_text[MAX_SELECTED];
    if (o->ncu && !no_gpu)
        profile_all(o, sel, g, n, ncu_text);
    const char *mode = !strcmp(o->g.student_dir, "exercises") ? "your exercises"
                       : o->g.student_dir;
    int color = want_color(stdout);
    fprintf(stderr, "\n");
    if (no_gpu)
        printf("No GPU could be used, so nothing was run or timed; only compiled.\n%s\n\n",
               no_gpu_why.message);
    print_run_header(stdout, g, n, mode);
    print_table(stdout, g, n, color);
    print_explanations(stdout, g, n, color, o->g.root);
    for (int i = 0; i < n; i++)
        if (ncu_text[i]) {
            printf("lesson%d/%s:\n%s", sel[i]->lesson, sel[i]->name, ncu_text[i]);
            free(ncu_text[i]);
        }
    if (o->json && *o->json) {
        if (write_json_report(o->json, g, n, mode) != 0)
            fprintf(stderr, "grader: could not write the report %s: %s\n", o->json,
                    strerror(errno));
        else
            printf("Report for tools: %s\n", o->json);
    }
    print_summary(stdout, g, n, color);
    if (no_gpu)
        return 3;
    for (int i = 0; i < n; i++)
        if (!sel[i]->demo && !outcome_is_pass(g[i].r.outcome) &&
            g[i].r.outcome != OUT_UNSUPPORTED)
            return 1;
    return 0;
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
    int base_sets = o->nsets;
    for (int s = 0; s < o->nsweep; s++) {
        o->nsets = base_sets;
        snprintf(o->sets[o->nsets].name, 32, "%s", o->sweep_name);
        o->sets[o->nsets++].value = o->sweep_values[s];
        for (int i = 0; i < n; i++) {
            int knobs[MAX_KNOBS], has = 0;
            char err[512];
            for (int k = 0; k < MAX_KNOBS && sel[i]->knobs[k].name; k++)
                has |= !strcmp(sel[i]->knobs[k].name, o->sweep_name);
            if (!has || knob_values(sel[i], o, knobs, err, sizeof err) != 0)
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
    options o;
    if (parse_args(argc, argv, &o) != 0)
        return 2;
    const char *t = getenv("GRADER_LAUNCH_TIMEOUT");
    if (t && atof(t) > 0)
        o.g.launch_timeout_s = atof(t);
    o.self = argv[0];
    if (!strcmp(o.cmd, "profile-one")) {
        /* Internal: what ncu watches (see profile.c). */
        const exercise *sel[MAX_SELECTED];
        int knobs[MAX_KNOBS];
        char err[512];
        if (select_exercises(&o, sel) != 1 || knob_values(sel[0], &o, knobs, err, sizeof err)) {
            fprintf(stderr, "grader: profile-one needs exactly one exercise\n");
            return 2;
        }
        profile_launch_once(sel[0], knobs, &o.g);
    }
    if (!strcmp(o.cmd, "list"))
        return cmd_list(&o);
    if (!strcmp(o.cmd, "static"))
        return cmd_static(&o);
    if (!strcmp(o.cmd, "check"))
        return o.nsweep ? cmd_sweep(&o) : cmd_check(&o);
    fprintf(stderr, "grader: unknown command '%s'\n", o.cmd);
    usage(stderr);
    return 2;
}
