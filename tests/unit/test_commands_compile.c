/* test_commands_compile.c: the learner's commands where they compile with
 * NVRTC (no GPU needed): static (the course's files at both targets, the
 * graded folder's files labelled as whose, the oldest target an exercise
 * allows), check without a GPU (each file compiled and checked; --no-gpu
 * tries nothing), watch grading again what was saved, and `grader
 * references` writing PTX with its header and verifying a student copy
 * (ptxas found, given the target, and its failure said).
 *
 *   CK_RUN_SUITE=commands_compile build/tests/unit_tests */
#include "commands_fixture.h"
#include "toolkit.h"

START_TEST(static_compiles_the_course)
{
    lesson0_course();
    ck_assert_int_eq(args("static", "0", "--root", course, NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_static), 0);
    ck_assert_str_eq(said_out,
        "ok    lesson0/saxpy                    sm_90  yours: CHECKED (4 regs, 0 B local, 0 B "
        "smem, 100% occupancy)\n"
        "ok    lesson0/saxpy                    sm_75  yours: 4 regs, 0 B local, 0 B smem\n"
        "2 passed, 0 failed (the course's files: every version compiles, every solution holds "
        "its mechanisms)\n");
    /* The student's file broken: it fails too, labelled as whose it is. */
    char p[900];
    snprintf(p, sizeof p, "%s/mine/lesson0/saxpy.cu", course);
    put_file(p, "this is not CUDA\n");
    ck_assert_int_eq(args("static", "0", "--root", course, "--student-dir", "mine", NULL),
                     OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_static), 1);
    STARTS(said_out, "FAIL  lesson0/saxpy                    sm_90  mine: COMPILE\n");
    /* A file that did not compile has no registers or memory to show. */
    HAS(said_out, "\nFAIL  lesson0/saxpy                    sm_75\n");
    HAS(said_out, "\n0 passed, 2 failed (");
    ENDS(said_out, "\n1 of mine files not CHECKED without a GPU (shown, not counted: an "
                   "untouched stub is expected to fail its mechanism checks)\n");
    ck_assert_int_eq(args("static", "0", "--root", course, "--solutions", NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_static), 0);
    HAS(said_out, "sm_90  solutions: CHECKED (");
    /* The course's own solution broken: both targets fail, and say why. */
    snprintf(p, sizeof p, "%s/solutions/lesson0/saxpy.cu", course);
    put_file(p, "this is not CUDA either\n");
    ck_assert_int_eq(args("static", "0", "--root", course, NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_static), 1);
    STARTS(said_out, "FAIL  lesson0/saxpy                    sm_90  yours: CHECKED (4 regs");
    HAS(said_out, "\nFAIL  lesson0/saxpy                    sm_75  yours: 4 regs");
    HAS(said_out, "solutions/lesson0/saxpy.cu");
    HAS(said_out, "\n0 passed, 2 failed (the course's files:");
    /* A knob refused before anything is compiled. */
    ck_assert_int_eq(args("static", "0", "--root", course, "--set", "TILE=8", NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_static), EXIT_USAGE);
    ck_assert_str_eq(said_out, "");
    HAS(said_err, "grader: TILE=8: lesson0 has no knobs.");
}
END_TEST

/* The second target is the oldest the exercise allows (sm_75 at least). */
START_TEST(static_targets_the_oldest_allowed)
{
    ck_assert_int_eq(args("static", "9", "--solutions", NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_static), 0);
    HAS(said_out, "ok    lesson9/rolling_async            sm_90  solutions: CHECKED (");
    HAS(said_out, "\nok    lesson9/rolling_async            sm_80  solutions: ");
    ENDS(said_out, "\n2 passed, 0 failed (the course's files: every version compiles, every "
                   "solution holds its mechanisms)\n");
    /* A demo is labelled as one, and a failing mechanism shows its check. */
    ck_assert_int_eq(args("static", "7", "--only", "rolling_direct", NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_static), 0);
    HAS(said_out, "ok    lesson7/rolling_direct           sm_90  demo: MECHANISM (30 regs, 64 B "
                  "local, 0 B smem, 100% occupancy)\n      the kernel uses 64 bytes of local "
                  "memory per thread");
    LACKS(said_out, "not CHECKED");
    /* An untouched stub fails its mechanism check: shown, not counted. */
    ck_assert_int_eq(args("static", "7", "--only", "rolling_regs", NULL), OPTIONS_OK);
    ck_assert_int_eq(run_cmd(do_static), 0);
    HAS(said_out, "sm_90  yours: MECHANISM (");
    ENDS(said_out, "\n2 passed, 0 failed (the course's files: every version compiles, every "
                   "solution holds its mechanisms)\n1 of your files not CHECKED without a GPU "
                   "(shown, not counted: an untouched stub is expected to fail its mechanism "
                   "checks)\n");
}
END_TEST

/* No GPU: each exercise checked without one (compiled from its file) and
 * run on the PTX simulator, the header says why; with --no-gpu no GPU is
 * even tried. The untouched stub writes nothing: WRONG, as on a GPU. */
START_TEST(check_without_a_gpu)
{
    const exercise *saxpy = lesson_exercises[0][0];
    host_reset();
    host_set_device(NULL, 0);
    host_check("--seed", "5", "--student-dir", "exercises", "--no-gpu", NULL);
    ck_assert_int_eq(check_one(saxpy), EXIT_FAILED);
    HAS(said_out, "WRONG");
    HAS(said_out, "unwritten (size 1, simulated)");
    host_reset();
    host_set_device(NULL, 0);
    host_check("--seed", "5", "--student-dir", "solutions", NULL);
    ck_assert_int_eq(check_one(saxpy), EXIT_CHECKED);
    STARTS(said_out, "No GPU, so nothing was timed.");
    HAS(said_out, "cudaErrorNoDevice");
    HAS(said_out, "CHECKED");
    ck_assert_str_eq(said_err, "grading lesson0/saxpy ...\n\n");
    host_reset();
    host_check("--seed", "5", "--student-dir", "solutions", "--no-gpu", NULL);
    host_count.launches = 0;
    ck_assert_int_eq(check_one(saxpy), EXIT_CHECKED);
    ck_assert_int_eq(host_count.launches, 0);
    HAS(said_out, "  (--no-gpu: checked without a GPU, whatever GPU this machine has.)\n");
    LACKS(said_out, "cudaErrorNoDevice");
    ck_assert_str_eq(said_err, "");
    /* A file that does not compile fails, GPU or not. */
    char mine[800], p[900];
    in_scratch(mine, sizeof mine, "mine");
    snprintf(p, sizeof p, "%s/lesson0/saxpy.cu", mine);
    put_file(p, "this is not CUDA\n");
    host_check("--seed", "5", "--student-dir", mine, "--no-gpu", NULL);
    ck_assert_int_eq(check_one(saxpy), EXIT_FAILED);
    HAS(said_out, "COMPILE");
}
END_TEST

/* watch: the first round grades the selection, then only the saved
 * files; the student's files are watched, never a demo's. */
START_TEST(watch_command)
{
    host_reset();
    host_set_device(NULL, 0);
    char mine[800], want[4000];
    in_scratch(mine, sizeof mine, "mine");
    /* One file; a demo is not watched. */
    host_check("7", "--student-dir", mine, "--watch-rounds", "1", "--watch-poll", "--json", "",
               NULL);
    ck_assert_int_eq(run_cmd(do_watch), EXIT_PASSED);
    HAS(said_out, ": grading lesson7/rolling_direct, lesson7/rolling_regs\n\n");
    snprintf(want, sizeof want, "Watching 1 file (%s/lesson7/rolling_regs.cu). Save one", mine);
    char *flat = unwrapped(said_out);
    HAS(flat, want);
    free(flat);

    /* Two rounds: the second grades the saved file only. */
    char saved[900];
    snprintf(saved, sizeof saved, "%s/lesson0/saxpy.cu", mine);
    fflush(NULL);
    pid_t toucher = fork();
    if (toucher == 0) {
        for (int i = 0; i < 200; i++) {
            usleep(300 * 1000);
            char text[64];
            snprintf(text, sizeof text, "// save %d\n", i);
            put_file(saved, text);
        }
        _exit(0);
    }
    host_check("0", "--student-dir", mine, "--watch-rounds", "2", "--watch-poll", "--json", "",
               NULL);
    ck_assert_int_eq(run_cmd(do_watch), EXIT_PASSED);
    kill(toucher, SIGKILL);
    waitpid(toucher, NULL, 0);
    HAS(said_out, ": grading lesson0/saxpy\n\n");
    HAS(said_out, ": grading lesson0/saxpy (saved)\n\n");
    snprintf(want, sizeof want, "Watching 1 file (%s/lesson0/saxpy.cu).", mine);
    flat = unwrapped(said_out);
    HAS(flat, want);
    free(flat);
    LACKS(said_out, "\033[");          /* the screen is cleared on a terminal only */
}
END_TEST

/* Written from a course with lesson 0 only: its PTX with its header, the
 * others named as failed; then verified in that copy. */
START_TEST(references_written_and_verified)
{
    lesson0_course();
    char outd[900], want[2000], p[1000];
    snprintf(outd, sizeof outd, "%s/grader/references", course);
    ck_assert_int_eq(mkdir_p(outd), 0);          /* already there: fine */
    umask(022);
    ck_assert_int_eq(refs("--out", outd, "--root", course, NULL), 1);
    struct stat sb;
    snprintf(p, sizeof p, "%s/lesson0", outd);
    ck_assert_int_eq(stat(p, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 07777, 0755);  /* a release anyone may read */
    int n = 0;
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; *e; e++)
            n++;
    snprintf(want, sizeof want, "  %s/lesson0/saxpy.ptx (sm_75, (none))\n%d exercises, %d "
             "failed\n", outd, n, n - 1);
    ck_assert_str_eq(said_out, want);
    snprintf(want, sizeof want, "grader references: %s/solutions/lesson1/shared_hog.cu: ",
             course);
    STARTS(said_err, want);
    snprintf(p, sizeof p, "%s/lesson0/saxpy.ptx", outd);
    char *ptx = slurp_file(p);
    snprintf(want, sizeof want, "// Reference solution of lesson0/saxpy, compiled by `make "
             "release`.\n// source: %s/solutions/lesson0/saxpy.cu\n// kernel: saxpy\n// knobs: "
             "(none)\n// target: sm_75\n", course);
    STARTS(ptx, want);
    HAS(ptx, ".entry saxpy");
    free(ptx);

    ck_assert_int_eq(refs("--verify", "--root", course, NULL), 1);
    STARTS(said_out, "ok    lesson0/saxpy                reference PTX for (none)");
    HAS(said_out, "; exercise and baseline compile\nFAIL  lesson1/shared_hog: cannot read ");
    snprintf(want, sizeof want, "\n%d exercises, %d failed\n", n, n - 1);
    ENDS(said_out, want);
    /* The student's file of the copy must compile, for both targets. */
    snprintf(p, sizeof p, "%s/exercises/lesson0/saxpy.cu", course);
    put_file(p, "this is not CUDA\n");
    ck_assert_int_eq(refs("--verify", "--root", course, NULL), 1);
    snprintf(want, sizeof want, "FAIL  %s/exercises/lesson0/saxpy.cu (sm_90): ", course);
    STARTS(said_out, want);
    snprintf(want, sizeof want, "\nFAIL  %s/exercises/lesson0/saxpy.cu (sm_75): ", course);
    HAS(said_out, want);
    LACKS(said_out, "ok    lesson0/saxpy");
    snprintf(want, sizeof want, "\n%d exercises, %d failed\n", n, n);
    ENDS(said_out, want);
    /* A PTX that cannot be written: said, and counted. */
    char other[900];
    snprintf(other, sizeof other, "%s/other", scratch_dir);
    snprintf(p, sizeof p, "%s/lesson0", other);
    put_file(p, "a file where the lesson's folder goes");
    ck_assert_int_eq(refs("--out", other, "--root", course, NULL), 1);
    snprintf(want, sizeof want, "grader references: cannot write %s/lesson0/saxpy.ptx: Not a "
             "directory\n", other);
    STARTS(said_err, want);
    snprintf(want, sizeof want, "%d exercises, %d failed\n", n, n);
    ck_assert_str_eq(said_out, want);
}
END_TEST

/* ptxas: the toolkit's (CUDA_HOME's), given the target and the file; a
 * failure to assemble is a FAIL; no ptxas is said, not failed. */
START_TEST(references_assemble_with_ptxas)
{
    lesson0_course();
    char outd[900], tk[800], p[1000], want[2000];
    snprintf(outd, sizeof outd, "%s/grader/references", course);
    ck_assert_int_eq(refs("--out", outd, "--root", course, NULL), 1);
    in_scratch(tk, sizeof tk, "toolkit");
    snprintf(p, sizeof p, "%s/bin/ptxas", tk);
    char log[900];
    in_scratch(log, sizeof log, "ptxas.log");
    char script[2000];
    snprintf(script, sizeof script, "#!/bin/sh\necho \"$@\" >> '%s'\nexit 0\n", log);
    put_file(p, script);
    chmod(p, 0755);
    setenv("CUDA_HOME", tk, 1);
    grade_opts g;
    grade_opts_defaults(&g);
    g.root = course;
    const exercise *saxpy = lesson_exercises[0][0];
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(reference_verify(saxpy, &g, f), 0);
    fclose(f);
    STARTS(text, "ok    lesson0/saxpy                reference PTX for (none), assembles; "
                 "exercise and baseline compile\n");
    free(text);
    char *args_seen = slurp_file(log);
    snprintf(want, sizeof want, "-arch=sm_75 -o /dev/null %s/grader/references/lesson0/saxpy.ptx\n",
             course);
    ck_assert_str_eq(args_seen, want);
    free(args_seen);
    snprintf(script, sizeof script, "#!/bin/sh\nexit 1\n");
    put_file(p, script);
    f = open_memstream(&text, &len);
    ck_assert_int_eq(reference_verify(saxpy, &g, f), -1);
    fclose(f);
    snprintf(want, sizeof want, "FAIL  lesson0/saxpy: %s/grader/references/lesson0/saxpy.ptx "
             "does not assemble with ptxas -arch=sm_75\n", course);
    ck_assert_str_eq(text, want);
    free(text);
    unlink(p);
    f = open_memstream(&text, &len);
    ck_assert_int_eq(reference_verify(saxpy, &g, f), 0);
    fclose(f);
    STARTS(text, "ok    lesson0/saxpy                reference PTX for (none) (not assembled: no "
                 "ptxas here); exercise and baseline compile\n");
    free(text);
    /* CUDA_HOME empty: the toolkit's, beside the headers NVRTC uses. */
    setenv("CUDA_HOME", "", 1);
    char real[1200];
    snprintf(real, sizeof real, "%s/../bin/ptxas", cuda_include_dir());
    f = open_memstream(&text, &len);
    ck_assert_int_eq(reference_verify(saxpy, &g, f), 0);
    fclose(f);
    HAS(text, access(real, X_OK) == 0 ? "reference PTX for (none), assembles;" :
              "reference PTX for (none) (not assembled: no ptxas here);");
    free(text);
    setenv("CUDA_HOME", tk, 1);
    /* A reference compiled at other knobs than the defaults. */
    snprintf(p, sizeof p, "%s/lesson0/saxpy.ptx", outd);
    char *ptx = slurp_file(p);
    char *k = strstr(ptx, "// knobs: (none)\n");
    ck_assert_ptr_nonnull(k);
    *k = 0;
    char *other = malloc(strlen(ptx) + strlen(k + 17) + 32);
    sprintf(other, "%s// knobs: X=1\n%s", ptx, k + 17);
    put_file(p, other);
    free(other);
    free(ptx);
    f = open_memstream(&text, &len);
    ck_assert_int_eq(reference_verify(saxpy, &g, f), -1);
    fclose(f);
    HAS(text, "FAIL  lesson0/saxpy: its reference was compiled at X=1, the defaults are (none)\n");
    free(text);
    unsetenv("CUDA_HOME");
}
END_TEST

Suite *commands_compile_suite(void)
{
    Suite *s = suite_create("commands_compile");
    TCase *tc = tcase_create("compile");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, static_compiles_the_course);
    tcase_add_test(tc, static_targets_the_oldest_allowed);
    tcase_add_test(tc, check_without_a_gpu);
    tcase_add_test(tc, watch_command);
    tcase_add_test(tc, references_written_and_verified);
    tcase_add_test(tc, references_assemble_with_ptxas);
    suite_add_tcase(s, tc);
    return s;
}
