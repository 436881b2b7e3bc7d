/* test_commands.c: the learner's commands as main.c runs them (cli/), on
 * the CPU, without compiling anything: the command line read into options
 * (args.c: defaults, every option, --sweep and --set read whole, lessons,
 * help); choosing exercises (select.c: lessons, --only and what to say
 * when it matches nothing, a measured lesson); list and progress; check's
 * exit statuses, report and progress file, graded on the host backend
 * (device_host.h); --sweep's table; waiting for saves (watch.c) and
 * stopping on a signal; `grader references`' command line (references.c).
 * What compiles with NVRTC is test_commands_compile.c.
 *
 *   CK_RUN_SUITE=commands build/tests/unit_tests */
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "commands_fixture.h"
#include "few_fds.h"
#include "progress.h"

/* ---- the command line (args.c) ---- */

START_TEST(defaults_and_every_option)
{
    ck_assert_int_eq(args("check", NULL), OPTIONS_OK);
    ck_assert_str_eq(o.cmd, "check");
    ck_assert_str_eq(o.g.root, ".");
    ck_assert_str_eq(o.g.student_dir, "exercises");
    ck_assert_str_eq(o.json, "build/report.json");
    ck_assert(o.timeout_s == GRADE_TIMEOUT_S);
    ck_assert(o.g.launch_timeout_s > 0 && o.g.time_budget_s > 0);
    ck_assert_int_eq(o.any_lesson, 0);
    for (int l = 0; l < N_LESSONS; l++)
        ck_assert_int_eq(o.lessons[l], 1);
    ck_assert(o.only == NULL && o.progress == NULL && !o.seed_given && !o.ncu && !o.no_gpu &&
              !o.g.correctness_only && o.ks.n == 0 && o.nsweep == 0 && !o.watch.rounds &&
              !o.watch.poll);
    ck_assert_str_eq(said_out, "");
    ck_assert_str_eq(said_err, "");

    ck_assert_int_eq(args("watch", "lesson3", "--root", "R", "--student-dir", "S", "--only", "mm",
                          "--seed", "7", "--set", "TILE=8", "--json", "J", "--timeout", "2.5",
                          "--correctness-only", "--ncu", "--no-gpu", "--progress", "P",
                          "--watch-rounds", "3", "--watch-poll", "12", NULL), OPTIONS_OK);
    ck_assert_str_eq(o.cmd, "watch");
    ck_assert_str_eq(o.g.root, "R");
    ck_assert_str_eq(o.g.student_dir, "S");
    ck_assert_str_eq(o.only, "mm");
    ck_assert(o.g.seed == 7 && o.seed_given);
    ck_assert_int_eq(o.ks.n, 1);
    ck_assert_str_eq(o.ks.set[0].name, "TILE");
    ck_assert_str_eq(o.json, "J");
    ck_assert(o.timeout_s == 2.5);
    ck_assert(o.g.correctness_only && o.ncu && o.no_gpu);
    ck_assert_str_eq(o.progress, "P");
    ck_assert_int_eq(o.watch.rounds, 3);
    ck_assert_int_eq(o.watch.poll, 1);
    ck_assert_int_eq(o.any_lesson, 1);
    only_lessons((int[N_LESSONS]){[3] = 1, [12] = 1});
    ck_assert_int_eq(args("check", "--solutions", NULL), OPTIONS_OK);
    ck_assert_str_eq(o.g.student_dir, "solutions");
    /* Each parse starts afresh. */
    ck_assert_int_eq(args("list", NULL), OPTIONS_OK);
    ck_assert(o.ks.n == 0 && !o.no_gpu && o.only == NULL && !o.seed_given);
    ck_assert_int_eq(args("list", "all", NULL), OPTIONS_OK);
    ck_assert_int_eq(o.any_lesson, 1);
    for (int l = 0; l < N_LESSONS; l++)
        ck_assert_int_eq(o.lessons[l], 1);
}
END_TEST

START_TEST(help_and_refusals)
{
    ck_assert_int_eq(args("--help", NULL), OPTIONS_HELP);
    STARTS(said_out, "usage: grader check|watch|static|list|progress [lesson...] [options]\n"
                     "       grader class SUBMISSIONS");
    HAS(said_out, "  lesson: lesson3, 3 or all\noptions:\n  --root DIR          the course's top "
                  "folder (default: .)\n  --solutions         grade solutions/");
    HAS(said_out, "  --sweep NAME=a,b,.. grade at each value of a knob; print a TSV table\n");
    HAS(said_out, "  --timeout S         seconds one exercise may take (default 120)\n");
    HAS(said_out, "  --progress FILE     record the results");
    LACKS(said_out, "--watch-rounds");
    LACKS(said_out, "--watch-poll");
    ENDS(said_out, "\nexit status of check: 0 all passed, 1 something failed, 2 bad command "
                   "line,\n  3 no GPU and everything checkable holds (correctness and speed not "
                   "judged)\n");
    ck_assert_str_eq(said_err, "");
    ck_assert_int_eq(args("check", "-h", "--frob", NULL), OPTIONS_HELP);
    /* No command: the help on stderr. */
    ck_assert_int_eq(args(NULL), OPTIONS_BAD);
    ck_assert_str_eq(said_out, "");
    HAS(said_err, "usage: grader check|watch");
    ck_assert_int_eq(args("--no-gpu", NULL), OPTIONS_BAD);
    HAS(said_err, "usage: grader check|watch");
    ck_assert_int_eq(args("check", "--frob", NULL), OPTIONS_BAD);
    ck_assert_str_eq(said_err, "grader: unknown option --frob\n");
    ck_assert_int_eq(args("check", "lesson16", NULL), OPTIONS_BAD);
    ck_assert_str_eq(said_err, "grader: 'lesson16' is not a lesson (lesson0 .. lesson15, or "
                               "all)\n");
    ck_assert_int_eq(args("check", "--set", "TILE", NULL), OPTIONS_BAD);
    ck_assert_str_eq(said_err, "grader: a knob is set as NAME=VALUE (e.g. TILE=16); got 'TILE'\n");
    ck_assert_int_eq(args("check", "--watch-rounds", "-1", NULL), OPTIONS_BAD);
    ck_assert_int_eq(args("check", "--watch-rounds", "0", NULL), OPTIONS_OK);
}
END_TEST

/* --sweep NAME=a,b,c: the name (under 32 bytes) and up to 16 values. */
START_TEST(sweep_values)
{
    ck_assert_int_eq(args("check", "--sweep", "TILE=8,16,32", NULL), OPTIONS_OK);
    ck_assert_str_eq(o.sweep_name, "TILE");
    ck_assert_int_eq(o.nsweep, 3);
    ck_assert_int_eq(o.sweep_values[0], 8);
    ck_assert_int_eq(o.sweep_values[1], 16);
    ck_assert_int_eq(o.sweep_values[2], 32);
    ck_assert_int_eq(args("check", "--sweep", "P=-3", NULL), OPTIONS_OK);
    ck_assert_int_eq(o.nsweep, 1);
    ck_assert_int_eq(o.sweep_values[0], -3);
    ck_assert_int_eq(args("check", "--sweep", "P=1,", NULL), OPTIONS_OK);
    ck_assert_int_eq(o.nsweep, 1);
    char many[200] = "K=";
    for (int v = 1; v <= 17; v++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "%s%d", v > 1 ? "," : "", v);
    ck_assert_int_eq(args("check", "--sweep", many, NULL), OPTIONS_OK);
    ck_assert_int_eq(o.nsweep, 16);
    ck_assert_int_eq(o.sweep_values[15], 16);
    ck_assert_int_eq(args("check", "--sweep", "ABCDEFGHIJKLMNOPQRSTUVWXYZ01234=1", NULL),
                     OPTIONS_OK);
    ck_assert_str_eq(o.sweep_name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ01234");
    const char *bad[][2] = {
        {"TILE", "grader: --sweep takes NAME=VALUE, got 'TILE'\n"},
        {"=8", "grader: --sweep takes NAME=VALUE, got '=8'\n"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZ012345=1",
         "grader: --sweep takes NAME=VALUE, got 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345=1'\n"},
        {"TILE=a", "grader: bad --sweep list 'a'\n"},
        {"TILE=8,x", "grader: bad --sweep list '8,x'\n"},
        {"TILE=8;9", "grader: bad --sweep list '8;9'\n"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(args("check", "--sweep", bad[i][0], NULL), OPTIONS_BAD);
        ck_assert_str_eq(said_err, bad[i][1]);
    }
}
END_TEST

/* ---- choosing exercises (select.c) ---- */

START_TEST(selection_and_its_refusals)
{
    const exercise *sel[MAX_SELECTED];
    char *e;
    ck_assert_int_eq(args("check", "7", "3", NULL), OPTIONS_OK);
    ck_assert_int_eq(select_exercises(&o, sel), 4);
    ck_assert_str_eq(sel[0]->name, "bank_conflicts");
    ck_assert_str_eq(sel[1]->name, "matmul");
    ck_assert_str_eq(sel[2]->name, "rolling_direct");     /* demos are selected */
    ck_assert_str_eq(sel[3]->name, "rolling_regs");
    ck_assert_int_eq(args("check", "--only", "matmul", NULL), OPTIONS_OK);
    ck_assert_int_eq(select_exercises(&o, sel), 1);
    ck_assert_ptr_eq(sel[0], lesson_exercises[3][1]);
    ck_assert_int_eq(args("check", NULL), OPTIONS_OK);
    int n = 0;
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; *e; e++)
            n++;
    ck_assert_int_eq(select_exercises(&o, sel), n);

    /* --only that matches nothing: the exercises, and the near one. */
    ck_assert_int_eq(args("check", "lesson3", "--only", "matmull", NULL), OPTIONS_OK);
    capture c;
    capture_start(&c, "sel");
    ck_assert_int_eq(select_checked(&o, sel), -1);
    capture_end(&c, NULL, &e);
    ck_assert_str_eq(e, "grader: lesson3 has no exercise 'matmull'; its exercises are: "
                               "bank_conflicts, matmul. Did you mean ONLY=matmul?\n");
    free(e);
    ck_assert_int_eq(args("check", "3", "4", "--only", "zzz", NULL), OPTIONS_OK);
    capture_start(&c, "sel");
    ck_assert_int_eq(select_checked(&o, sel), -1);
    capture_end(&c, NULL, &e);
    ck_assert_str_eq(e, "grader: no lesson graded here has an exercise 'zzz'; theirs are: "
                               "bank_conflicts, matmul, unroll, vector_loads.\n");
    free(e);
    ck_assert_int_eq(args("check", "14", "--only", "zzz", NULL), OPTIONS_OK);
    capture_start(&c, "sel");
    ck_assert_int_eq(select_checked(&o, sel), -1);
    capture_end(&c, NULL, &e);
    ck_assert_str_eq(e, "grader: lesson14 has no exercise 'zzz'; its exercises are:.\n");
    free(e);
    /* The first lesson's exercises are listed like any other's. */
    ck_assert_int_eq(args("check", "0", "--only", "saxpi", NULL), OPTIONS_OK);
    capture_start(&c, "sel");
    ck_assert_int_eq(select_checked(&o, sel), -1);
    capture_end(&c, NULL, &e);
    ck_assert_str_eq(e, "grader: lesson0 has no exercise 'saxpi'; its exercises are: saxpy. "
                        "Did you mean ONLY=saxpy?\n");
    free(e);
    /* Nothing in the lessons at all. */
    ck_assert_int_eq(args("check", "14", NULL), OPTIONS_OK);
    capture_start(&c, "sel");
    ck_assert_int_eq(select_checked(&o, sel), -1);
    capture_end(&c, NULL, &e);
    ck_assert_str_eq(e, "grader: no exercise selected\n");
    free(e);
    /* Knobs checked against the selection before anything runs. */
    ck_assert_int_eq(args("check", "3", "--set", "TILE=12", NULL), OPTIONS_OK);
    capture_start(&c, "sel");
    ck_assert_int_eq(select_checked(&o, sel), -1);
    capture_end(&c, NULL, &e);
    HAS(e, "grader: TILE=12 is not allowed for lesson3/matmul");
    free(e);
    ck_assert_int_eq(args("check", "3", "--set", "TILE=8", NULL), OPTIONS_OK);
    capture_start(&c, "sel");
    ck_assert_int_eq(select_checked(&o, sel), 2);
    capture_end(&c, NULL, &e);
    ck_assert_str_eq(e, "");
    free(e);
}
END_TEST

/* A lesson that is measured, not graded: what to run instead. */
START_TEST(measured_lessons)
{
    ck_assert_int_eq(args("check", "14", NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_check), EXIT_PASSED);
    ck_assert_str_eq(said_out, "lesson14 has no graded exercise: it is measured on your GPU "
                               "instead (make measure lesson14; the lesson text says what to "
                               "look for).\n");
    capture c;
    capture_start(&c, "measured");
    ck_assert_int_eq(only_measured_lessons(&o), 1);
    capture_end(&c, NULL, NULL);
    ck_assert_int_eq(args("check", "14", "3", "--only", "nothing", NULL), OPTIONS_OK);
    ck_assert_int_eq(only_measured_lessons(&o), 0);
    ck_assert_int_eq(args("check", "14", "--only", "x", NULL), OPTIONS_OK);
    ck_assert_int_eq(only_measured_lessons(&o), 0);
    ck_assert_int_eq(args("check", "14", "0", NULL), OPTIONS_OK);
    ck_assert_int_eq(only_measured_lessons(&o), 0);
    ck_assert_int_eq(args("check", NULL), OPTIONS_OK);
    ck_assert_int_eq(only_measured_lessons(&o), 0);
    /* How the graded folder is named to the student. */
    ck_assert_str_eq(mode_name(&o), "your exercises");
    ck_assert_int_eq(args("check", "--solutions", NULL), OPTIONS_OK);
    ck_assert_str_eq(mode_name(&o), "solutions");
    ck_assert_int_eq(args("check", "--student-dir", "exercises/", NULL), OPTIONS_OK);
    ck_assert_str_eq(mode_name(&o), "exercises/");
}
END_TEST

/* ---- list, progress ---- */

START_TEST(list_names_every_file)
{
    ck_assert_int_eq(args("list", "lesson7", "lesson3", "--student-dir", "mine", NULL),
                     OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_list), 0);
    ck_assert_str_eq(said_out,
        "lesson3/bank_conflicts       Remove the bank conflicts of a shared-memory tile read "
        "down its columns\n"
        "    edit:     mine/lesson3/bank_conflicts.cu\n"
        "    lesson:   lessons/lesson3-shared-memory.md, sections \"Banks\" and \"Padding\"\n"
        "lesson3/matmul               Tiled C = AB: reuse tiles of A and B from shared memory\n"
        "    edit:     mine/lesson3/matmul.cu\n"
        "    lesson:   lessons/lesson3-shared-memory.md, sections \"Tiled C = AB\" and "
        "\"Reusing tiles\"\n"
        "    knob:     TILE=16 (8..32) tile side and block side (TILE x TILE threads): 8, 16 "
        "or 32\n"
        "lesson7/rolling_direct       demo: the direct rolling prefetch into a register array "
        "(local memory)\n"
        "    demo:     grader/demos/lesson7/rolling_direct.cu (shown for what it teaches; not "
        "graded, nothing to edit)\n"
        "    lesson:   lessons/lesson7-rolling-registers.md, section \"Where the ring really "
        "lives\"\n"
        "    knob:     BLOCKDIMX=128 (32..256) threads per block (blockDim.x), a compile-time "
        "constant\n"
        "    knob:     PDIST=8 (1..16) prefetch distance: elements each thread has in flight or "
        "buffered\n"
        "    knob:     BLOCKS_PER_SM=1 (1..16) blocks launched per SM (grid = SMs x this)\n"
        "lesson7/rolling_regs         a rolling prefetch into registers, unrolled so it stays "
        "in registers\n"
        "    edit:     mine/lesson7/rolling_regs.cu\n"
        "    lesson:   lessons/lesson7-rolling-registers.md, section \"Unroll by PDIST\"\n"
        "    knob:     BLOCKDIMX=128 (32..256) threads per block (blockDim.x), a compile-time "
        "constant\n"
        "    knob:     PDIST=8 (1..16) prefetch distance: elements each thread has in flight or "
        "buffered\n"
        "    knob:     BLOCKS_PER_SM=1 (1..16) blocks launched per SM (grid = SMs x this)\n");
    ck_assert_int_eq(args("list", "3", "--only", "matmull", NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_list), EXIT_USAGE);
    ck_assert_str_eq(said_out, "");
    HAS(said_err, "Did you mean ONLY=matmul?");
    ck_assert_int_eq(args("list", "14", NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_list), 0);
    ck_assert_str_eq(said_out, "");
    /* An exercise with all MAX_KNOBS knobs: each listed, and nothing past
     * the last (the knobs array ends there, not at a NULL name). */
    ck_assert_int_eq(MAX_KNOBS, 4);
    ck_assert_int_eq(args("list", "6", "--only", "batched_smem", "--student-dir", "mine", NULL),
                     OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_list), 0);
    ck_assert_str_eq(said_out,
        "lesson6/batched_smem         prefetch PDIST elements at a time into shared memory\n"
        "    edit:     mine/lesson6/batched_smem.cu\n"
        "    lesson:   lessons/lesson6-batched-shared.md, section \"A batch in shared memory\"\n"
        "    knob:     BLOCKDIMX=128 (32..256) threads per block (blockDim.x), a compile-time "
        "constant\n"
        "    knob:     PDIST=8 (1..16) prefetch distance: elements each thread has in flight or "
        "buffered\n"
        "    knob:     BLOCKS_PER_SM=1 (1..16) blocks launched per SM (grid = SMs x this)\n"
        "    knob:     PADDING=0 (0..16) unused doubles after each thread's PDIST slots\n");
}
END_TEST

START_TEST(progress_command)
{
    char p[700];
    ck_assert_int_eq(args("progress", NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_progress), EXIT_USAGE);
    ck_assert_str_eq(said_err, "grader: progress needs --progress FILE (make progress passes "
                               "it)\n");
    ck_assert_str_eq(said_out, "");
    in_scratch(p, sizeof p, "none");
    ck_assert_int_eq(args("progress", "--progress", p, "--student-dir", "mine", NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_progress), EXIT_PASSED);
    HAS(said_out, "Course map: 0 of ");
    HAS(said_out, "  Edit mine/lesson0/saxpy.cu, then: make check lesson0 ONLY=saxpy\n");
    char want[900];
    snprintf(want, sizeof want, "\nNothing recorded in %s yet: every make check of your "
             "exercises adds to it.\n", p);
    HAS(said_out, want);
    ck_assert_int_eq(args("progress", "--progress", scratch_dir, NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_progress), EXIT_FAILED);
    snprintf(want, sizeof want, "grader: could not read %s: Is a directory\n", scratch_dir);
    ck_assert_str_eq(said_err, want);
    ck_assert_str_eq(said_out, "");
}
END_TEST

/* ---- static ---- */



/* ---- check: grading on the host backend ---- */

START_TEST(check_statuses)
{
    host_reset();
    use_kernels(&t_axpy, good_axpy);
    host_check("--seed", "5", NULL);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    ck_assert(o.g.seed == 5);
    ck_assert_str_eq(said_err, "grading lesson0/t_axpy ...\n\n");
    HAS(said_out, "t_axpy");
    HAS(said_out, "PASS");
    char want[900];
    snprintf(want, sizeof want, "\nReport for tools: %s\n", json_path);
    HAS(said_out, want);
    char *js = slurp_file(json_path);
    HAS(js, "\"name\": \"t_axpy\"");
    HAS(js, "\"outcome\": \"PASS\"");
    HAS(js, "\"seed\": 5,");
    HAS(js, "\"knobs\": {\"BLOCK\": 256}");
    free(js);

    use_kernels(&t_axpy, wrong_axpy);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_FAILED);
    HAS(said_out, "WRONG");
    /* A knob setting reaches the grading. */
    host_check("--seed", "5", "--set", "BLOCK=64", NULL);
    use_kernels(&t_axpy, good_axpy);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    js = slurp_file(json_path);
    HAS(js, "\"knobs\": {\"BLOCK\": 64}");
    free(js);
    /* A demo's failure does not fail the run. */
    static exercise demo;
    demo = t_axpy;
    demo.demo = 1;
    use_kernels(&demo, wrong_axpy);
    ck_assert_int_eq(check_one(&demo), EXIT_PASSED);
    /* Nor does an exercise this GPU is too old for. */
    static exercise newer;
    newer = t_axpy;
    newer.min_cc = 200;
    use_kernels(&newer, wrong_axpy);
    ck_assert_int_eq(check_one(&newer), EXIT_PASSED);
    HAS(said_out, "SKIPPED");
}
END_TEST

/* --ncu: Nsight Compute runs this grader's profile-one on the exercise,
 * with the same course, folder and knob settings, before it is graded; its
 * text follows the report, unless there was no GPU to count on. */
START_TEST(check_with_ncu)
{
    char tk[700], bin[800], argsf[800], script[1200];
    in_scratch(tk, sizeof tk, "toolkit");
    snprintf(bin, sizeof bin, "%s/bin/ncu", tk);
    in_scratch(argsf, sizeof argsf, "ncu.args");
    snprintf(script, sizeof script, "#!/bin/sh\necho \"$@\" >> '%s'\n", argsf);
    put_file(bin, script);
    chmod(bin, 0755);
    setenv("CUDA_HOME", tk, 1);
    setenv("PATH", "/usr/bin:/bin", 1);
    if (system("command -v ncu >/dev/null 2>&1") == 0)
        return;                /* a real ncu on the PATH would be used instead */
    host_reset();
    use_kernels(&t_axpy, good_axpy);
    host_check("--seed", "5", "--ncu", "--set", "BLOCK=64", "--set", "X=1", NULL);
    o.self = "SELF";
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    STARTS(said_err, "profiling lesson0/t_axpy with Nsight Compute ...\ngrading lesson0/t_axpy "
                     "...\n");
    char *a = slurp_file(argsf);
    STARTS(a, "--clock-control none --csv --metrics ");
    HAS(a, " SELF profile-one lesson0 --only t_axpy --root . --student-dir student --set "
           "BLOCK=64 --set X=1\n");
    free(a);
    HAS(said_out, "\nlesson0/t_axpy:\n   Nsight Compute could not read the counters for "
                  "lesson0/t_axpy.");
    /* No GPU after all: ncu had nothing to count, and its text is not shown. */
    unlink(argsf);
    host_set_device(NULL, 0);
    char none[700];
    in_scratch(none, sizeof none, "none");     /* nothing to compile: quick */
    host_check("--seed", "5", "--ncu", "--student-dir", none, "--json", "", NULL);
    o.self = "SELF";
    one[0] = lesson_exercises[0][0];
    capture c;
    capture_start(&c, "ncu");
    check_selection(&o, one, 1);
    capture_end(&c, &a, NULL);
    LACKS(a, "Nsight Compute");
    LACKS(a, "lesson0/saxpy:\n");
    free(a);
    a = slurp_file(argsf);
    char want[900];
    snprintf(want, sizeof want, " SELF profile-one lesson0 --only saxpy --root . --student-dir "
             "%s\n", none);
    HAS(a, want);
    free(a);
}
END_TEST

/* Without a seed, a new one short enough to type; without a report path,
 * no report; a report that cannot be written is said. */
START_TEST(check_seed_and_report)
{
    host_reset();
    use_kernels(&t_axpy, good_axpy);
    host_check(NULL);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    ck_assert(o.g.seed >= 1 && o.g.seed <= 1000000000ull);
    unsigned long long first = o.g.seed;
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    ck_assert(o.g.seed >= 1 && o.g.seed <= 1000000000ull && o.g.seed != first);
    host_check("--json", "", NULL);
    unlink(json_path);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    LACKS(said_out, "Report for tools");
    ck_assert(!exists(json_path));
    char bad[800];
    in_scratch(bad, sizeof bad, "missing/report.json");
    host_check("--json", bad, NULL);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    LACKS(said_out, "Report for tools");
    char want[1000];
    snprintf(want, sizeof want, "grader: could not write the report %s: No such file or "
             "directory\n", bad);
    HAS(said_err, want);
}
END_TEST


/* Recording progress keeps no memory: watch grades again on every save,
 * so a run that left its progress records allocated would grow without
 * bound. Five more runs after a first may hold no more than one run's
 * records (64 of them) would. */
START_TEST(check_progress_keeps_no_memory)
{
    host_reset();
    use_kernels(&t_axpy, good_axpy);
    host_module m = student_module(&t_axpy, good_axpy);
    m.path = "exercises/t/axpy.cu";
    host_add(&m);
    char prog[800];
    in_scratch(prog, sizeof prog, "progress");
    size_t held = 0;
    for (int run = 0; run < 6; run++) {
        host_check("--seed", "5", "--progress", prog, "--student-dir", "exercises", NULL);
        ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
        HAS(said_out, "\nCourse progress: ");
        if (run == 0)
            held = mallinfo2().uordblks;
    }
    size_t now = mallinfo2().uordblks;
    ck_assert_msg(now < held + 64 * sizeof(progress_entry),
                  "%zu bytes more held after five more runs", now - held);
}
END_TEST

/* The progress file: written for the student's own exercises/, said when
 * not, or when it cannot be read or saved. */
START_TEST(check_records_progress)
{
    host_reset();
    use_kernels(&t_axpy, good_axpy);
    host_module m = student_module(&t_axpy, good_axpy);
    m.path = "exercises/t/axpy.cu";
    host_add(&m);
    char prog[800], want[1200];
    in_scratch(prog, sizeof prog, "progress");
    host_check("--seed", "5", "--progress", prog, "--student-dir", "exercises", NULL);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    HAS(said_out, "\nCourse progress: ");
    char *t = slurp_file(prog);
    HAS(t, "t_axpy");
    free(t);
    /* Written at an absolute path of exercises/ too. */
    unlink(prog);
    char *abs = realpath("exercises", NULL);
    ck_assert_ptr_nonnull(abs);
    host_check("--seed", "5", "--progress", prog, "--student-dir", abs, NULL);
    char mod[1200];
    snprintf(mod, sizeof mod, "%s/t/axpy.cu", abs);
    m.path = strdup(mod);
    host_add(&m);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    free(abs);                 /* o holds it until here */
    HAS(said_out, "\nCourse progress: ");
    ck_assert(exists(prog));
    /* Another folder, and a correctness-only run: not recorded, and said. */
    unlink(prog);
    host_check("--seed", "5", "--progress", prog, NULL);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    HAS(said_out, "Progress not recorded: these are not your exercises/.\n");
    ck_assert(!exists(prog));
    host_check("--seed", "5", "--progress", prog, "--student-dir", "exercises",
               "--correctness-only", NULL);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    HAS(said_out, "Progress not recorded: a correctness-only run (SANITIZE) says nothing about "
                  "speed.\n");
    ck_assert(!exists(prog));
    /* A file that cannot be read, or saved. */
    host_check("--seed", "5", "--progress", scratch_dir, "--student-dir", "exercises", NULL);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    snprintf(want, sizeof want, "grader: could not read %s (Is a directory); progress not "
             "recorded\n", scratch_dir);
    HAS(said_err, want);
    in_scratch(prog, sizeof prog, "missing/progress");
    host_check("--seed", "5", "--progress", prog, "--student-dir", "exercises", NULL);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    snprintf(want, sizeof want, "grader: could not save progress to %s: ", prog);
    HAS(said_err, want);
    LACKS(said_out, "Course progress");
    /* Without --progress, nothing. */
    host_check("--seed", "5", "--student-dir", "exercises", NULL);
    ck_assert_int_eq(check_one(&t_axpy), EXIT_PASSED);
    LACKS(said_out, "rogress");
}
END_TEST

/* How `grader class` grades one exercise: as check does, in its child,
 * and without a GPU checked without one. */
START_TEST(grade_as_check_falls_back)
{
    host_reset();
    use_kernels(&t_axpy, good_axpy);
    grade_opts g = host_opts();
    int knobs[MAX_KNOBS] = {256};
    result r;
    grade_as_check(&t_axpy, knobs, &g, 20, &r);
    ck_assert_int_eq(r.outcome, OUT_PASS);
    host_set_device(NULL, 0);
    char none[700];
    in_scratch(none, sizeof none, "none");
    g.student_dir = none;
    grade_as_check(lesson_exercises[0][0], knobs, &g, 20, &r);
    ck_assert_int_eq(r.outcome, OUT_MISSING);      /* checked without a GPU: not there */
    ck_assert_int_eq(r.no_gpu, 1);
}
END_TEST

/* cmd_check: the selection and its refusals before anything runs. */
START_TEST(check_command)
{
    host_reset();
    host_set_device(NULL, 0);
    char none[800];
    in_scratch(none, sizeof none, "none");
    host_check("0", "--student-dir", none, NULL);
    ck_assert_int_eq(run_cmd(do_check), EXIT_FAILED);
    HAS(said_out, "MISSING");
    HAS(said_err, "grading lesson0/saxpy ...\n");
    host_check("3", "--only", "matmull", NULL);
    ck_assert_int_eq(run_cmd(do_check), EXIT_USAGE);
    ck_assert_str_eq(said_out, "");
    HAS(said_err, "Did you mean ONLY=matmul?");
}
END_TEST

/* ---- --sweep: a TSV row per value and exercise with the knob ---- */

START_TEST(sweep_table)
{
    host_reset();
    host_set_device(NULL, 0);
    host_check("10", "--sweep", "PDIST=4,17,2", "--seed", "9", "--set", "BLOCKDIMX=64", NULL);
    ck_assert_int_eq(run_cmd(do_sweep), 0);
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    char want[2000];
    snprintf(want, sizeof want,
             "# PDIST sweep, seed 9\n# date: %s\n"
             "PDIST\texercise\toutcome\tspeedup\tsolution_speedup\tbaseline_ms\tkernel_ms\t"
             "solution_ms\tgpu\n"
             "4\tlesson10/padded\tNO GPU\t0.0000\t0.0000\t0.00000\t0.00000\t0.00000\t\n"
             "4\tlesson10/index_major\tNO GPU\t0.0000\t0.0000\t0.00000\t0.00000\t0.00000\t\n"
             "2\tlesson10/padded\tNO GPU\t0.0000\t0.0000\t0.00000\t0.00000\t0.00000\t\n"
             "2\tlesson10/index_major\tNO GPU\t0.0000\t0.0000\t0.00000\t0.00000\t0.00000\t\n",
             date);
    ck_assert_str_eq(said_out, want);
    ck_assert_str_eq(said_err, "sweep PDIST=4 lesson10/padded ...\n"
                               "sweep PDIST=4 lesson10/index_major ...\n"
                               "sweep PDIST=2 lesson10/padded ...\n"
                               "sweep PDIST=2 lesson10/index_major ...\n");
    /* Only the exercises that have the knob. */
    host_check("10", "--sweep", "PADDING=0", "--seed", "9", NULL);
    ck_assert_int_eq(run_cmd(do_sweep), 0);
    ENDS(said_out, "\tgpu\n0\tlesson10/padded\tNO GPU\t0.0000\t0.0000\t0.00000\t0.00000\t"
                   "0.00000\t\n");               /* one value, one row */
    LACKS(said_out, "index_major");
    /* A setting no exercise has: refused. */
    host_check("10", "--sweep", "PDIST=4", "--set", "TILE=8", NULL);
    ck_assert_int_eq(run_cmd(do_sweep), EXIT_USAGE);
    HAS(said_err, "grader: TILE=8: TILE is not a knob of lesson10");
    LACKS(said_out, "\n4\t");
    ck_assert(o.g.seed >= 1 && o.g.seed <= 1000000000ull);
}
END_TEST

/* A new seed from 8 bytes of entropy: their value mod 10^9, plus 1, so 1 to
 * 10^9 and never 0 (none given); 1 when there are not 8 bytes to read. */
START_TEST(seed_from_entropy)
{
    char p[800];
    in_scratch(p, sizeof p, "entropy");
    const unsigned long long raw[] = {0, 1, 999999999ull, 1000000000ull, 1000000001ull,
                                      ULLONG_MAX};
    const unsigned long long want[] = {1, 2, 1000000000ull, 1, 2, 709551616ull};
    for (int i = 0; i < 6; i++) {
        FILE *f = fopen(p, "wb");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(fwrite(&raw[i], sizeof raw[i], 1, f), 1);
        fclose(f);
        ck_assert_msg(fresh_seed_from(p) == want[i], "%llu: %llu", raw[i], fresh_seed_from(p));
    }
    put_file(p, "\x7f\x7f\x7f\x7f\x7f\x7f\x7f");   /* 7 bytes: not a seed's worth */
    ck_assert(fresh_seed_from(p) == 1);
    in_scratch(p, sizeof p, "none");
    ck_assert(fresh_seed_from(p) == 1);
}
END_TEST

/* No /dev/urandom to read (here: no descriptor left to open it with): the
 * seed is 1, the same on every such run, never 0 (which means none given)
 * nor whatever the stack held. The sweep below is refused after its seed
 * is chosen, before anything else needs a descriptor. */
START_TEST(seed_without_randomness)
{
    host_reset();
    host_set_device(NULL, 0);
    host_check("10", "--sweep", "PDIST=4", "--set", "TILE=8", NULL);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (leave_few_descriptors(0) != 0 || open("/dev/null", O_RDONLY) >= 0)
            _exit(100);
        int rc = cmd_sweep(&o);
        fflush(NULL);
        _exit(rc != EXIT_USAGE ? 101 : o.g.seed < 100 ? (int)o.g.seed : 99);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 1);
}
END_TEST

/* ---- watch ---- */

static int rounds_seen, changed_seen[4][3];
static const char *watched[3];

static void on_round(void *ctx, const int *changed)
{
    (void)ctx;
    for (int i = 0; i < 3; i++)
        changed_seen[rounds_seen][i] = changed[i];
    rounds_seen++;
    if (rounds_seen == 1) {
        /* A save during grading: graded next. */
        FILE *f = fopen(watched[1], "a");
        fputs("// saved\n", f);
        fclose(f);
    } else if (rounds_seen == 2) {
        put_file(watched[2], "// a new file\n");
    } else if (rounds_seen == 3) {
        char tmp[900];
        snprintf(tmp, sizeof tmp, "%s.new", watched[0]);
        put_file(tmp, "// same size\n");
        ck_assert_int_eq(rename(tmp, watched[0]), 0);
    }
}

static void watch_three(int poll)
{
    static char a[800], b[800], c[800];
    in_scratch(a, sizeof a, "w/a.cu");
    in_scratch(b, sizeof b, "w/b.cu");
    in_scratch(c, sizeof c, "w/c.cu");
    put_file(a, "// same size\n");
    put_file(b, "// b\n");
    unlink(c);
    watched[0] = a;
    watched[1] = b;
    watched[2] = c;
    rounds_seen = 0;
    memset(changed_seen, 0, sizeof changed_seen);
    watch_opts w = {.rounds = 4, .poll = poll};
    ck_assert_int_eq(watch_files(watched, 3, &w, on_round, NULL), 0);
    ck_assert_int_eq(rounds_seen, 4);
    int want[4][3] = {{1, 1, 1}, {0, 1, 0}, {0, 0, 1}, {1, 0, 0}};
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < 3; i++)
            ck_assert_msg(changed_seen[r][i] == want[r][i], "%s: round %d file %d: %d",
                          poll ? "poll" : "inotify", r, i, changed_seen[r][i]);
}

START_TEST(watch_sees_each_save)
{
    watch_three(1);
    watch_three(0);
    /* Nothing to watch, or too much. */
    watch_opts w = {.rounds = 1, .poll = 1};
    ck_assert_int_eq(watch_files(watched, 0, &w, on_round, NULL), -1);
    static const char *many[65];
    for (int i = 0; i < 65; i++)
        many[i] = watched[0];
    ck_assert_int_eq(watch_files(many, 65, &w, on_round, NULL), -1);
    rounds_seen = 0;
    ck_assert_int_eq(watch_files(many, 64, &w, on_round, NULL), 0);
    ck_assert_int_eq(rounds_seen, 1);
}
END_TEST

/* Each part of a file's signature is a save on its own: its size, its
 * modification time (seconds or nanoseconds), its inode, its being there;
 * a bare name is watched in the current folder, a file in a folder that is
 * not there yet by polling. */
static int sig_rounds, sig_changed[8];
static char sig_a[800], sig_b[800];
static const char *sig_files[3];

static void set_mtime(const char *path, const struct timespec *t)
{
    struct timespec ts[2] = {*t, *t};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static int hold_a_pipe;

static void signature_round(void *ctx, const int *changed)
{
    (void)ctx;
    static int held[2];
    if (hold_a_pipe && !held[0])
        ck_assert_int_eq(pipe(held), 0);       /* open, never written, until the test ends */
    struct stat st;
    sig_changed[sig_rounds] = changed[0] | changed[1] << 1 | changed[2] << 2;
    sig_rounds++;
    struct timespec t = {0, 0};
    if (stat(sig_a, &st) == 0)
        t = st.st_mtim;
    switch (sig_rounds) {
    case 1:                    /* the size alone: same time afterwards */
        put_file(sig_a, "// three\n");
        set_mtime(sig_a, &t);
        break;
    case 2:                    /* the seconds alone */
        t.tv_sec -= 100;
        set_mtime(sig_a, &t);
        break;
    case 3:                    /* the nanoseconds alone */
        t.tv_nsec = (t.tv_nsec + 1) % 1000000000L;
        set_mtime(sig_a, &t);
        break;
    case 4: {                  /* the inode alone: same size, same time */
        char tmp[900];
        snprintf(tmp, sizeof tmp, "%s.new", sig_a);
        put_file(tmp, "// other\n");    /* as long as "// three\n" */
        set_mtime(tmp, &t);
        ck_assert_int_eq(rename(tmp, sig_a), 0);
        break;
    }
    case 5:                    /* gone */
        ck_assert_int_eq(unlink(sig_a), 0);
        break;
    case 6:                    /* a bare name, and a folder that was not there */
        put_file("./bare.cu", "// bare\n");
        put_file(sig_b, "// b\n");
        break;
    }
}

START_TEST(watch_signature_parts)
{
    char here[700], later[800], cmd[900];
    in_scratch(here, sizeof here, "cwd");
    ck_assert_int_eq(mkdir_p(here), 0);
    ck_assert_int_eq(chdir(here), 0);
    in_scratch(sig_a, sizeof sig_a, "w/a.cu");
    in_scratch(sig_b, sizeof sig_b, "later/b.cu");
    in_scratch(later, sizeof later, "later");
    ck_assert_int_eq(mkdir_p(later), 0);
    put_file(sig_a, "// one\n");
    sig_files[0] = sig_a;
    sig_files[1] = "bare.cu";
    sig_files[2] = sig_b;
    sig_rounds = 0;
    watch_opts w = {.rounds = 7, .poll = 0};
    ck_assert_int_eq(watch_files(sig_files, 3, &w, signature_round, NULL), 0);
    int want[7] = {7, 1, 1, 1, 1, 1, 6};
    for (int r = 0; r < 7; r++)
        ck_assert_msg(sig_changed[r] == want[r], "round %d: %d, not %d", r, sig_changed[r],
                      want[r]);
    /* A folder inotify cannot watch yet: polled instead, and still seen. */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", later);
    ck_assert_int_eq(system(cmd), 0);
    sig_rounds = 5;            /* the next round makes bare.cu again and later/b.cu */
    unlink("bare.cu");
    w.rounds = 2;
    hold_a_pipe = 1;           /* grading opens files: none may be taken for inotify's */
    ck_assert_int_eq(watch_files(sig_files, 3, &w, signature_round, NULL), 0);
    ck_assert_int_eq(sig_rounds, 7);
    ck_assert_int_eq(sig_changed[6], 6);
}
END_TEST

static int go[2];

static void signal_round(void *ctx, const int *changed)
{
    (void)ctx, (void)changed;
    ssize_t w = write(go[1], "g", 1);
    (void)w;
}

/* Ctrl-C or SIGTERM: "Stopped watching." and status 0, at once. */
START_TEST(watch_stops_on_a_signal)
{
    int sigs[] = {SIGINT, SIGTERM};
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(pipe(go), 0);
        char log[800];
        in_scratch(log, sizeof log, "watch.out");
        static char a[800];
        in_scratch(a, sizeof a, "w/a.cu");
        static const char *files[1];
        files[0] = a;
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(fd, 1);
            watch_opts w = {.rounds = 0, .poll = 1};
            watch_files(files, 1, &w, signal_round, NULL);
            _exit(3);
        }
        char c;
        ck_assert_int_eq(read(go[0], &c, 1), 1);
        kill(pid, sigs[k]);
        int st;
        ck_assert_int_eq(waitpid(pid, &st, 0), pid);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %x", st);
        char *t = slurp_file(log);
        ck_assert_str_eq(t, "\nStopped watching.\n");
        free(t);
        close(go[0]);
        close(go[1]);
    }
}
END_TEST


/* watch refuses before grading anything: a selection that fails, or one
 * with no file of the student's (a demo is the course's). */
START_TEST(watch_refusals)
{
    host_check("7", "--only", "rolling_direct", "--watch-rounds", "1", NULL);
    ck_assert_int_eq(run_cmd(do_watch), EXIT_USAGE);
    ck_assert_str_eq(said_err, "grader: nothing to watch: no exercise file among those selected "
                               "(at most 64)\n");
    ck_assert_str_eq(said_out, "");
    host_check("3", "--only", "nope", NULL);
    ck_assert_int_eq(run_cmd(do_watch), EXIT_USAGE);
    ck_assert_str_eq(said_err, "grader: lesson3 has no exercise 'nope'; its exercises are: "
                               "bank_conflicts, matmul.\n");
    ck_assert_str_eq(said_out, "");
}
END_TEST

/* What watch prints around each grading: what it grades, and then which
 * files it watches (three named, then "..."); on a terminal the screen is
 * cleared first. The files are missing: nothing to compile. */
START_TEST(watch_lines)
{
    host_reset();
    host_set_device(NULL, 0);
    char mine[800], want[4000];
    in_scratch(mine, sizeof mine, "mine");
    host_check("10", "11", "--student-dir", mine, "--watch-rounds", "1", "--watch-poll",
               "--json", "", NULL);
    ck_assert_int_eq(run_cmd(do_watch), EXIT_PASSED);
    STARTS(said_out, "make watch, ");
    HAS(said_out, ": grading lesson10/padded, lesson10/index_major, lesson11/l2_prefetch, "
                  "lesson11/short_ring\n\n");
    snprintf(want, sizeof want, "\nWatching 4 files (%s/lesson10/padded.cu, %s/lesson10/"
             "index_major.cu, %s/lesson11/l2_prefetch.cu, ...). Save one to grade it again; "
             "Ctrl-C stops.\n", mine, mine, mine);
    char *flat = unwrapped(said_out);
    HAS(flat, want);
    free(flat);
    HAS(said_out, "MISSING");
    LACKS(said_out, "\033[");
    host_check("10", "0", "--student-dir", mine, "--watch-rounds", "1", "--watch-poll",
               "--json", "", NULL);
    ck_assert_int_eq(run_cmd(do_watch), EXIT_PASSED);
    snprintf(want, sizeof want, "\nWatching 3 files (%s/lesson0/saxpy.cu, %s/lesson10/padded.cu, "
             "%s/lesson10/index_major.cu). Save one to grade it again; Ctrl-C stops.\n", mine,
             mine, mine);
    flat = unwrapped(said_out);
    HAS(flat, want);
    free(flat);

    /* On a terminal. */
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    ck_assert_int_ge(m, 0);
    ck_assert(grantpt(m) == 0 && unlockpt(m) == 0);
    int tty = open(ptsname(m), O_RDWR | O_NOCTTY);
    ck_assert_int_ge(tty, 0);
    host_check("0", "--student-dir", mine, "--watch-rounds", "1", "--watch-poll", "--json", "",
               NULL);
    fflush(NULL);
    int o1 = dup(1), e1 = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(tty, 1);
    dup2(null, 2);
    close(null);
    int rc = cmd_watch(&o);
    fflush(NULL);
    dup2(o1, 1);
    dup2(e1, 2);
    close(o1);
    close(e1);
    close(tty);
    ck_assert_int_eq(rc, EXIT_PASSED);
    char text[16384];
    size_t n = 0;
    fcntl(m, F_SETFL, O_NONBLOCK);
    for (ssize_t r; n + 1 < sizeof text && (r = read(m, text + n, sizeof text - 1 - n)) > 0;)
        n += (size_t)r;
    text[n] = 0;
    close(m);
    STARTS(text, "\033[H\033[2J\033[3Jmake watch, ");
}
END_TEST

/* ---- grader references ---- */

START_TEST(references_command_line)
{
    ck_assert_int_eq(refs("--help", NULL), 0);
    STARTS(said_out, "usage: grader references --out DIR | --verify [--root DIR]\n"
                     "  a student copy's compiled references (make release)\noptions:\n"
                     "  --out DIR           write every exercise's reference as PTX under DIR\n"
                     "  --verify            check a student copy: its references, exercises and\n"
                     "                      baselines\n"
                     "  --root DIR          the course's top folder (default: .)\n");
    ck_assert_str_eq(said_err, "");
    ck_assert_int_eq(refs(NULL), 2);
    ck_assert_str_eq(said_out, "");
    STARTS(said_err, "usage: grader references --out DIR | --verify");
    ck_assert_int_eq(refs("--frob", NULL), 2);
    STARTS(said_err, "grader references: unknown option --frob\nusage: grader references");
    ck_assert_int_eq(refs("stray", NULL), 2);
    STARTS(said_err, "grader references: unexpected 'stray' (options start with --)\n");
    /* From a student copy (no solutions/): nothing to compile them from. */
    char copy[800], outd[800], want[2000];
    in_scratch(copy, sizeof copy, "copy");
    ck_assert_int_eq(mkdir_p(copy), 0);
    in_scratch(outd, sizeof outd, "refs");
    ck_assert_int_eq(refs("--out", outd, "--root", copy, NULL), 2);
    snprintf(want, sizeof want, "grader references: %s/solutions is missing: the references are "
             "compiled from the full course, not from a student copy\n", copy);
    ck_assert_str_eq(said_err, want);
    ck_assert(!exists(outd));
    /* An output folder that cannot be made. */
    lesson0_course();
    char deep[900];
    snprintf(deep, sizeof deep, "%s/no/such/dir", scratch_dir);
    ck_assert_int_eq(refs("--out", deep, "--root", course, NULL), 1);
    snprintf(want, sizeof want, "grader references: cannot make %s: No such file or directory\n",
             deep);
    ck_assert_str_eq(said_err, want);
}
END_TEST



Suite *commands_suite(void)
{
    Suite *s = suite_create("commands");
    TCase *tc = tcase_create("commands");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, defaults_and_every_option);
    tcase_add_test(tc, help_and_refusals);
    tcase_add_test(tc, sweep_values);
    tcase_add_test(tc, selection_and_its_refusals);
    tcase_add_test(tc, measured_lessons);
    tcase_add_test(tc, list_names_every_file);
    tcase_add_test(tc, progress_command);
    tcase_add_test(tc, check_statuses);
    tcase_add_test(tc, check_seed_and_report);
    tcase_add_test(tc, check_with_ncu);
    tcase_add_test(tc, check_records_progress);
    tcase_add_test(tc, check_progress_keeps_no_memory);
    tcase_add_test(tc, check_command);
    tcase_add_test(tc, grade_as_check_falls_back);
    tcase_add_test(tc, sweep_table);
    tcase_add_test(tc, seed_without_randomness);
    tcase_add_test(tc, seed_from_entropy);
    tcase_add_test(tc, watch_sees_each_save);
    tcase_add_test(tc, watch_signature_parts);
    tcase_add_test(tc, watch_stops_on_a_signal);
    tcase_add_test(tc, watch_refusals);
    tcase_add_test(tc, watch_lines);
    tcase_add_test(tc, references_command_line);
    suite_add_tcase(s, tc);
    return s;
}
