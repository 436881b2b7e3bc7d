/* args.c: the options of check, watch, static, list and progress (cli.h):
 * a table for core/options.h, and the command's own readings of --set,
 * --sweep and the words (the command, then lessons). In the library, apart
 * from main.c, so the tests call it as main does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "grade_options.h"
#include "lesson_name.h"

static const char synopsis[] =
    "usage: grader check|watch|static|list|progress [lesson...] [options]\n"
    "       grader class SUBMISSIONS [lesson...] [options]\n"
    "                           a whole class (grader class --help)\n"
    "       grader references --out DIR | --verify [--root DIR]\n"
    "                           a student copy's compiled references (make release)\n"
    "  lesson: lesson3, 3 or all\n";

static const char epilogue[] =
    "exit status of check: 0 all passed, 1 something failed, 2 bad command line,\n"
    "  3 no GPU and everything checkable holds (correctness and speed not judged)\n";

/* --set NAME=VALUE: one knob setting, checked against the exercises later. */
static int read_set(void *ctx, const char *val, char *err, size_t len)
{
    options *o = ctx;
    return knob_settings_add(&o->ks, val, err, len);
}

/* --sweep NAME=a,b,c: the knob and its values. */
static int read_sweep(void *ctx, const char *val, char *err, size_t len)
{
    options *o = ctx;
    const char *eq = strchr(val, '=');
    if (!eq || eq == val || eq - val >= (long)sizeof o->sweep_name) {
        snprintf(err, len, "--sweep takes NAME=VALUE, got '%s'", val);
        return -1;
    }
    snprintf(o->sweep_name, sizeof o->sweep_name, "%.*s", (int)(eq - val), val);
    for (const char *p = eq + 1; *p && o->nsweep < MAX_SWEEP;) {
        char *end;
        o->sweep_values[o->nsweep++] = (int)strtol(p, &end, 10);
        if (end == p) {
            snprintf(err, len, "bad --sweep list '%s'", eq + 1);
            return -1;
        }
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* A word that is no option: the command first, then lessons ("all",
 * "lesson3", "3"). */
static int read_word(void *ctx, const char *a, char *err, size_t len)
{
    options *o = ctx;
    if (!o->cmd) {
        o->cmd = a;
        return 0;
    }
    if (lesson_mark(a, o->lessons, err, len) != 0)
        return -1;
    o->any_lesson = 1;
    return 0;
}


int cli_parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    grade_opts_defaults(&o->g);
    o->timeout_s = GRADE_TIMEOUT_S;
    o->json = "build/report.json";
    /* The options, in the order --help lists them. */
    const option_spec opts[] = {
        OPT_ROOT(&o->g.root),
        {.name = "--solutions", .kind = OPTION_CONST, .string = &o->g.student_dir,
         .constant = "solutions", .help = "grade solutions/ instead of exercises/"},
        {.name = "--student-dir", .kind = OPTION_STRING, .arg = "DIR",
         .string = &o->g.student_dir, .help = "grade the files under DIR instead of exercises/"},
        {.name = "--only", .kind = OPTION_STRING, .arg = "NAME", .string = &o->only,
         .help = "only the exercise called NAME"},
        OPT_SEED(&o->g.seed, &o->seed_given, "replay the inputs of an earlier run"),
        {.name = "--set", .kind = OPTION_CALL, .arg = "NAME=VALUE", .call = read_set,
         .help = "set a knob (e.g. TILE=16, PDIST=8); a name that is no knob\n"
                 "of the lessons graded is refused, with what was meant"},
        {.name = "--sweep", .kind = OPTION_CALL, .arg = "NAME=a,b,..", .call = read_sweep,
         .help = "grade at each value of a knob; print a TSV table"},
        {.name = "--json", .kind = OPTION_STRING, .arg = "FILE", .string = &o->json,
         .help = "where to write the JSON report (default build/report.json)"},
        OPT_TIMEOUT(&o->timeout_s),
        {.name = "--correctness-only", .kind = OPTION_FLAG, .flag = &o->g.correctness_only,
         .help = "check results, skip timing (used with compute-sanitizer)"},
        {.name = "--ncu", .kind = OPTION_FLAG, .flag = &o->ncu,
         .help = "also show Nsight Compute counters (bank conflicts,\n"
                 "DRAM throughput, stalls) for each exercise, where ncu\n"
                 "works; read before grading it (lesson 10 grades its bank\n"
                 "conflicts)"},
        {.name = "--no-gpu", .kind = OPTION_FLAG, .flag = &o->no_gpu,
         .help = "check as on a machine without a GPU: compile, resources,\n"
                 "occupancy, mechanism checks, correctness on the PTX\n"
                 "simulator"},
        {.name = "--progress", .kind = OPTION_STRING, .arg = "FILE", .string = &o->progress,
         .help = "record the results of grading exercises/ in FILE (make\n"
                 "check passes .progress); with `progress`, the file to show"},
        /* For the tests: stop watching after N gradings; poll, not inotify. */
        {.name = "--watch-rounds", .kind = OPTION_INT, .arg = "N", .integer = &o->watch.rounds},
        {.name = "--watch-poll", .kind = OPTION_FLAG, .flag = &o->watch.poll},
        /* For tests/gpu/sim-agreement-run.sh: each correctness run's output
         * bytes, GPU and simulator alike (grade_opts.dump_outputs). */
        {.name = "--dump-outputs", .kind = OPTION_STRING, .arg = "DIR",
         .string = &o->g.dump_outputs},
        /* For tests/gpu/ncu-counts-run.sh: profile-one at the largest sim
         * size (grade_opts.profile_sim_size); with --no-gpu, on the
         * simulator, printing its memory counts in Nsight Compute's terms. */
        {.name = "--profile-sim-size", .kind = OPTION_FLAG, .flag = &o->g.profile_sim_size},
        {0},
    };
    option_command c = {.opts = opts, .word = read_word, .ctx = o, .synopsis = synopsis,
                        .epilogue = epilogue};
    char err[512];
    int r = options_parse(&c, argc, argv, err, sizeof err);
    if (r == OPTIONS_HELP)
        options_help(&c, stdout);
    else if (r == OPTIONS_BAD)
        fprintf(stderr, "grader: %s\n", err);
    else if (!o->cmd) {
        options_help(&c, stderr);
        r = OPTIONS_BAD;
    }
    if (!o->any_lesson)
        for (int l = 0; l < N_LESSONS; l++)
            o->lessons[l] = 1;
    return r;
}
