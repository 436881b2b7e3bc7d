/* cmd_check.c: `grader check` (make check lessonN): grade the selected
 * exercises, each in its own child (grade/child.c), print the table and the
 * explanations, write the JSON report, fold the run into the student's
 * progress file; and --sweep, the same grading at each value of a knob.
 * Without a GPU (or with --no-gpu) every exercise is checked without a GPU:
 * compiled, its mechanism checks, and its correctness on the PTX simulator
 * (grade/nogpu.c, grade/sim_correctness.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "child.h"
#include "cli.h"
#include "device_sim.h"
#include "nogpu.h"
#include "profile.h"
#include "progress.h"
#include "sim_note.h"

unsigned long long fresh_seed_from(const char *entropy)
{
    FILE *f = fopen(entropy, "rb");
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
        snprintf(why->message, sizeof why->message, "(--no-gpu: checked without a GPU, "
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
            /* a WRONG or a hang also run on the simulator, for its note */
            grade_with_sim_note(sel[i], knobs, &go, o->timeout_s, &g[i].r);
            if (g[i].r.outcome != OUT_NO_GPU)
                continue;
            no_gpu = 1;
            *why = g[i].r;
        }
        check_without_gpu(sel[i], knobs, &o->g, &g[i].r);
    }
    return no_gpu;
}

void grade_as_check(const exercise *ex, const int *knobs, const grade_opts *g,
                           double timeout_s, result *r)
{
    /* as check does: a WRONG or a hang also run on the simulator, for its
     * note; on a GPU the timed launch's blocks on it too (sim_sample.h);
     * without a GPU, correctness on it (CORRECT, WRONG, RACE, ...) */
    grade_opts go = *g;
    if (!go.simulator)
        go.simulator = &device_sim;
    grade_with_sim_note(ex, knobs, &go, timeout_s, r);
    if (r->outcome == OUT_NO_GPU)
        check_without_gpu(ex, knobs, &go, r);
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

int check_selection(options *o, const exercise **sel, int n)
{
    static graded g[MAX_SELECTED];
    static result why;
    if (!o->seed_given)
        o->g.seed = fresh_seed_from("/dev/urandom");
    /* without a GPU, correctness on the PTX simulator (sim_correctness.h);
     * with one, its note on a WRONG or a hang (sim_note.h) */
    o->g.simulator = &device_sim;
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
                  g[i].r.outcome != OUT_UNSUPPORTED && !outcome_holds_without_gpu(g[i].r.outcome);
    return failed ? EXIT_FAILED : no_gpu ? EXIT_CHECKED : EXIT_PASSED;
}

int cmd_check(options *o)
{
    if (only_measured_lessons(o))
        return EXIT_PASSED;
    const exercise *sel[MAX_SELECTED];
    int n = select_checked(o, sel);
    return n < 0 ? EXIT_USAGE : check_selection(o, sel, n);
}

/* ---- watch ------------------------------------------------------------- */

/* Grade at each value of one knob and print speedups as a TSV table, for
 * plots: knob value, exercise, outcome, speedup of the graded kernel and of
 * the reference solution over the baseline, and the three times. */
int cmd_sweep(options *o)
{
    const exercise *sel[MAX_SELECTED];
    int n = select_exercises(o, sel);
    if (!o->seed_given)
        o->g.seed = fresh_seed_from("/dev/urandom");
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
