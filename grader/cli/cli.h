/* cli.h: what the learner's commands share (check, watch, static, list,
 * progress): the options main.c reads, the exit statuses, choosing the
 * exercises, and each command. `grader class` and `grader references` have
 * options of their own (class.h, references.h) and the same parser
 * (core/options.h).
 *
 * Invariants
 * - Every command starts from the options main.c parsed: grade_opts from
 *   grade_opts_defaults, the knob settings already read (not yet checked
 *   against the exercises: select_checked does that, before anything runs).
 * - A command returns its exit status (enum exit_status); only main.c exits.
 *
 * Error rule (cli/): a bad command line is refused before anything is
 * graded, with one line on stderr saying what was wrong (and what was
 * meant), and EXIT_USAGE; what the layers below find is in the report, and
 * the status says whether everything passed. */
#ifndef GRADER_CLI_H
#define GRADER_CLI_H

#include "knobs.h"
#include "options.h"
#include "report.h"
#include "spec.h"
#include "versions.h"
#include "watch.h"

#define MAX_SELECTED 128
#define MAX_SWEEP 16

/* Exit status of check (make check maps 3 to 0, and README.md says so). */
enum exit_status {
    EXIT_PASSED = 0,   /* every graded exercise passed (demos, and exercises this GPU is
                          too old for, do not count) */
    EXIT_FAILED = 1,   /* an exercise failed; without a GPU: a compile error or a
                          mechanism check that does not hold */
    EXIT_USAGE = 2,    /* the command line was wrong: nothing was graded */
    EXIT_CHECKED = 3,  /* no GPU, and everything checkable without one holds (every
                          exercise CHECKED or CORRECT): speed was not judged */
};

typedef struct options {
    grade_opts g;
    const char *cmd;
    int lessons[N_LESSONS];      /* 1: selected */
    int any_lesson;              /* a lesson was named (else: all) */
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

/* ---- the command line (args.c) ---- */

/* argv into o, from the defaults every command shares (grade_opts_defaults;
 * every lesson when none is named). OPTIONS_OK, OPTIONS_HELP after printing
 * the help on stdout, or OPTIONS_BAD after saying on stderr what is wrong
 * (the help, when no command was given). */
int cli_parse_args(int argc, char **argv, options *o);

/* ---- choosing exercises (select.c) ---- */

/* The selected lessons' exercises in lesson order (only o->only's, when
 * given), at most MAX_SELECTED: how many. */
int select_exercises(const options *o, const exercise **sel);

/* The selection, with its knob settings checked before anything runs: how
 * many, or -1 after saying on stderr what is wrong (ONLY=matmull names the
 * lessons' exercises and the near one). */
int select_checked(const options *o, const exercise **sel);

/* ONLY=name matched nothing: say on stderr which exercises there are, and
 * the one most like it. */
void no_such_exercise(const options *o);

/* 1 when every selected lesson is measured, not graded (lesson 14), after
 * saying what to run instead; 0 otherwise. */
int only_measured_lessons(const options *o);

/* How the graded folder is named to the student: "your exercises" for
 * exercises/, else the folder as given. */
const char *mode_name(const options *o);

/* ---- the commands: each returns its exit status ---- */

int cmd_check(options *o);           /* cmd_check.c: grade, report, record progress */
int cmd_sweep(options *o);           /* cmd_check.c: --sweep, a TSV of speedups */
int cmd_watch(options *o);           /* cmd_watch.c: grade again on every save */
int cmd_static(const options *o);    /* cmd_static.c: compile and check, no GPU */
int cmd_list(const options *o);      /* cmd_static.c: every exercise and its files */
int cmd_progress(const options *o);  /* cmd_progress.c: the course map */

/* Grade and report sel[0..n) as check does (cmd_check.c; watch grades each
 * round with it): the exit status. */
int check_selection(options *o, const exercise **sel, int n);

/* A new seed, 1 to 10^9 (short enough to type; 0 means none given), from
 * the first 8 bytes of `entropy` (cmd_check.c; /dev/urandom, a file in the
 * tests): 1 when they cannot be read. */
unsigned long long fresh_seed_from(const char *entropy);

/* `grader class` grades each exercise as check does (class.h's hook). */
void grade_as_check(const exercise *ex, const int *knobs, const grade_opts *g,
                    double timeout_s, result *r);

#endif
