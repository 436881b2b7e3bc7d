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
 * child process (grade/child.c), so a crash or a hang costs one exercise,
 * not the run. Without a GPU, `check` still compiles each file and runs
 * every mechanism check (grade/nogpu.c). The grader reads course files and
 * writes only its JSON report and, when asked to, the student's progress
 * file. Exit statuses: cli.h (enum exit_status).
 *
 * This file hands the command to its file: cmd_check.c, cmd_watch.c,
 * cmd_static.c, cmd_progress.c; args.c reads the options (a table for
 * core/options.h), select.c chooses the exercises. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "class.h"
#include "cli.h"
#include "device_sim.h"
#include "profile.h"
#include "references.h"

/* Internal: the one launch ncu watches (grade/profile.c runs it); it
 * exits, after the launch, without returning. */
static int cmd_profile_one(options *o)
{
    const exercise *sel[MAX_SELECTED];
    int knobs[MAX_KNOBS];
    if (select_checked(o, sel) != 1) {
        fprintf(stderr, "grader: profile-one needs exactly one exercise\n");
        return EXIT_USAGE;
    }
    knob_values_for(sel[0], &o->ks, knobs);
    if (o->no_gpu)           /* the simulator's side of tests/gpu/ncu-counts-run.sh */
        o->g.device = &device_sim;
    profile_launch_once(sel[0], knobs, &o->g);
}

int main(int argc, char **argv)
{
    /* Instructors' commands, with options of their own. */
    if (argc > 1 && !strcmp(argv[1], "class"))
        return class_main(argc - 1, argv + 1, &(class_hooks){.grade = grade_as_check});
    if (argc > 1 && !strcmp(argv[1], "references"))
        return references_main(argc - 1, argv + 1);
    options o;
    int r = cli_parse_args(argc, argv, &o);
    if (r != OPTIONS_OK)
        return r == OPTIONS_HELP ? EXIT_PASSED : EXIT_USAGE;
    o.self = argv[0];
    if (!strcmp(o.cmd, "profile-one"))
        return cmd_profile_one(&o);
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
    fprintf(stderr, "grader: unknown command '%s' (check, watch, static, list, progress, "
            "class or references; grader --help says more)\n", o.cmd);
    return EXIT_USAGE;
}
