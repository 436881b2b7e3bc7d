/* test_verdict.c: the one verdict (grader/grade/verdict.h), as a table: each row
 * is a set of facts a result can hold (what stopped grading, no GPU,
 * correctness, the mechanism check's state, speed against the bar, the
 * reference's availability, Nsight Compute's counts) and the outcome and
 * words they must earn. Every outcome verdict_decide can return has a row;
 * so has each precedence the order promises (a stop before everything,
 * MECHANISM before SLOW and before PASS*, a check before ncu's counts).
 * The pipeline tests (test_pipeline.c) reach the same function through
 * grading itself. */
#include <stdio.h>
#include <string.h>
#include "pipeline.h"
#include "suites.h"
#include "verdict.h"

/* Without a GPU, what the PTX simulator did (sim_correctness.h). */
enum sim_fact { SIM_NONE, SIM_RIGHT, SIM_CANNOT };

enum ncu_fact { NCU_NONE, NCU_UNDER, NCU_OVER, NCU_OVER_NOT_READ, NCU_OVER_REF_UNKNOWN };

typedef struct row {
    const char *name;
    enum outcome stopped;
    /* Each 0 by default: a correct kernel, timed, clearing the bar, the
     * reference timed and clearing it too. */
    int no_gpu, incorrect, untimed, slow, ref_slow, stand_in;
    enum check_state check;    /* the exercise's one mechanism check (0: it holds) */
    enum ncu_fact ncu;
    enum sim_fact sim;
    int ncu_exercise;          /* 1: the exercise asks for no bank conflicts */
    enum outcome want;
    const char *text;          /* the message must contain it */
} row;

#define STOP "What stopped grading, in its own words."

static const row rows[] = {
    /* 1. A stop comes first, whatever else is known; its words stand. */
    {.name = "wrong beats a missing mechanism", .stopped = OUT_WRONG,
     .check = CS_FAILS, .want = OUT_WRONG, .text = STOP},
    {.name = "too fast beats a missing mechanism", .stopped = OUT_TOO_FAST,
     .check = CS_FAILS, .ncu = NCU_OVER, .ncu_exercise = 1, .want = OUT_TOO_FAST, .text = STOP},
    {.name = "crash", .stopped = OUT_CRASH, .check = CS_FAILS, .want = OUT_CRASH, .text = STOP},
    {.name = "hang", .stopped = OUT_HANG, .want = OUT_HANG, .text = STOP},
    {.name = "compile error", .stopped = OUT_COMPILE_ERROR, .want = OUT_COMPILE_ERROR,
     .text = STOP},
    {.name = "refused", .stopped = OUT_REFUSED, .no_gpu = 1, .want = OUT_REFUSED, .text = STOP},
    {.name = "missing", .stopped = OUT_MISSING, .want = OUT_MISSING, .text = STOP},
    {.name = "resources", .stopped = OUT_RESOURCES, .want = OUT_RESOURCES, .text = STOP},
    {.name = "no gpu", .stopped = OUT_NO_GPU, .want = OUT_NO_GPU, .text = STOP},
    {.name = "old gpu", .stopped = OUT_UNSUPPORTED, .want = OUT_UNSUPPORTED, .text = STOP},
    {.name = "the course at fault", .stopped = OUT_INTERNAL, .want = OUT_INTERNAL,
     .text = STOP},
    {.name = "a race the simulator saw", .stopped = OUT_RACE, .no_gpu = 1, .sim = SIM_RIGHT,
     .check = CS_FAILS, .want = OUT_RACE, .text = STOP},
    /* 2. Without a GPU: the checks alone. */
    {.name = "no gpu, checks hold", .no_gpu = 1, .check = CS_HOLDS, .want = OUT_CHECKED,
     .text = "its mechanism check holds (listed below). That is not a pass"},
    {.name = "no gpu, check unknown", .no_gpu = 1, .check = CS_UNKNOWN, .want = OUT_CHECKED,
     .text = "That is not a pass"},
    {.name = "no gpu, check fails", .no_gpu = 1, .check = CS_FAILS, .want = OUT_MECHANISM,
     .text = "Your kernel compiles, but the PTX has no 'ld.shared' instruction. Correctness "
             "and speed were not checked"},
    /* ... and the simulator: right is CORRECT, unless a check fails */
    {.name = "no gpu, right on the simulator", .no_gpu = 1, .sim = SIM_RIGHT,
     .want = OUT_CORRECT, .text = "Correct on the PTX simulator (2 sizes). Your kernel "
     "compiles for sm_90, and its mechanism check holds (listed below). That is not a pass: "
     "speed needs an NVIDIA GPU"},
    {.name = "no gpu, right on the simulator, check fails", .no_gpu = 1, .sim = SIM_RIGHT,
     .check = CS_FAILS, .want = OUT_MECHANISM, .text = "Your kernel compiles, but the PTX has "
     "no 'ld.shared' instruction. Correct on the PTX simulator (2 sizes). Speed was not "
     "judged"},
    {.name = "no gpu, the simulator could not run it", .no_gpu = 1, .sim = SIM_CANNOT,
     .want = OUT_CHECKED, .text = "the simulator could not judge it: whether it is right and "
     "fast needs an NVIDIA GPU. Correctness needs a GPU: the simulator stopped at tex."},
    /* 3. Never a pass without correctness. */
    {.name = "correctness unknown", .incorrect = 1, .want = OUT_INTERNAL,
     .text = "bug in the grader"},
    /* 4. MECHANISM before any speed verdict, with the speed after it. */
    {.name = "mechanism, fast", .check = CS_FAILS, .want = OUT_MECHANISM,
     .text = "Correct, but the PTX has no 'ld.shared' instruction. Speed: your kernel ran at "
             "3.00x"},
    {.name = "mechanism before slow", .slow = 1, .check = CS_FAILS, .want = OUT_MECHANISM,
     .text = "Speed: your kernel ran at 3.00x the baseline's speed; the bar was 4.00x"},
    {.name = "mechanism, untimed", .untimed = 1, .check = CS_FAILS, .want = OUT_MECHANISM,
     .text = "Speed: speed not measured in this mode."},
    {.name = "mechanism, ungraded", .ref_slow = 1, .check = CS_FAILS,
     .want = OUT_MECHANISM, .text = "Speed: the speed part cannot be graded on this GPU"},
    {.name = "mechanism, reference stood in", .stand_in = 1, .check = CS_FAILS,
     .want = OUT_MECHANISM, .text = "instruction. Speed: not graded, because the baseline "
     "stood in. Your kernel ran at 3.00x the baseline's speed."},
    /* 5. The speed verdicts. */
    {.name = "pass", .want = OUT_PASS, .text = "Correct, and fast enough: your kernel ran "
     "at 3.00x the baseline's speed; the bar was 4.00x"},
    {.name = "unknown check is not a failure", .check = CS_UNKNOWN, .want = OUT_PASS,
     .text = "Correct, and fast enough"},
    {.name = "slow", .slow = 1, .want = OUT_SLOW, .text = "Correct, but not fast enough: "
     "your kernel ran at 3.00x"},
    {.name = "untimed", .untimed = 1, .want = OUT_PASS_UNTIMED,
     .text = "Correct on every size checked (speed not measured in this mode)."},
    {.name = "ungraded, slow", .slow = 1, .ref_slow = 1, .want = OUT_PASS_UNTIMED,
     .text = "Correct; the speed part cannot be graded on this GPU: the reference solution "
             "itself only reached 2.00x"},
    {.name = "ungraded, fast", .ref_slow = 1, .want = OUT_PASS_UNTIMED,
     .text = "cannot be graded"},
    {.name = "reference stood in, slow", .slow = 1, .stand_in = 1,
     .want = OUT_PASS_UNTIMED, .text = "Correct; the speed part was not graded: the baseline "
     "stood in. Your kernel ran at 3.00x the baseline's speed. Grade at the default knobs"},
    {.name = "reference stood in, untimed", .untimed = 1, .stand_in = 1,
     .want = OUT_PASS_UNTIMED, .text = "not graded: the baseline stood in. Grade at"},
    /* 6. Nsight Compute's evidence: a mechanism, where the exercise asks. */
    {.name = "ncu conflicts", .ncu = NCU_OVER, .ncu_exercise = 1, .want = OUT_MECHANISM,
     .text = "Correct, but Nsight Compute counted 5000 shared-load bank conflicts in your "
             "kernel, against 100 in the reference: the conflicts are not gone. Speed: your "
             "kernel ran at 3.00x"},
    {.name = "ncu conflicts before slow", .slow = 1, .ncu = NCU_OVER, .ncu_exercise = 1,
     .want = OUT_MECHANISM, .text = "the conflicts are not gone. Speed:"},
    {.name = "ncu conflicts before ungraded", .ref_slow = 1, .ncu = NCU_OVER,
     .ncu_exercise = 1, .want = OUT_MECHANISM, .text = "the conflicts are not gone"},
    {.name = "a failing check is named before ncu", .check = CS_FAILS, .ncu = NCU_OVER,
     .ncu_exercise = 1, .want = OUT_MECHANISM, .text = "Correct, but the PTX has no"},
    {.name = "ncu conflicts gone", .ncu = NCU_UNDER, .ncu_exercise = 1, .want = OUT_PASS,
     .text = "fast enough"},
    {.name = "ncu counters not read", .ncu = NCU_OVER_NOT_READ, .ncu_exercise = 1,
     .want = OUT_PASS, .text = "fast enough"},
    {.name = "ncu reference not counted", .ncu = NCU_OVER_REF_UNKNOWN, .ncu_exercise = 1,
     .want = OUT_PASS, .text = "fast enough"},
    {.name = "ncu not asked for", .ncu = NCU_OVER, .want = OUT_PASS, .text = "fast enough"},
};

static void facts_of(const row *w, exercise *ex, result *r)
{
    *ex = t_axpy;
    memset(ex->checks, 0, sizeof ex->checks);
    ex->checks[0] = (mech_check){.kind = CHECK_PTX_HAS, .text = "ld.shared",
                                 .why = "Stage the tile in shared memory."};
    ex->ncu_no_bank_conflicts = w->ncu_exercise;
    memset(r, 0, sizeof *r);
    snprintf(r->message, sizeof r->message, STOP);
    r->stopped = w->stopped;
    r->no_gpu = w->no_gpu;
    r->correct = !w->incorrect;
    r->sim_on = w->sim != SIM_NONE;
    r->simulated = w->sim == SIM_RIGHT;
    if (w->sim)
        snprintf(r->sim_said, sizeof r->sim_said, "%s", w->sim == SIM_RIGHT
                 ? "Correct on the PTX simulator (2 sizes)."
                 : "Correctness needs a GPU: the simulator stopped at tex.");
    r->timed = !w->untimed;
    r->clears_bar = r->timed && !w->slow;
    r->ref_clears_bar = r->timed && !w->ref_slow;
    if (w->stand_in)
        snprintf(r->ref_stand_in, sizeof r->ref_stand_in, "the baseline stood in");
    r->speedup = 3.0;
    r->ref_speedup = 2.0;
    r->bar = 4.0;
    r->checks[0].state = w->check ? w->check : CS_HOLDS;
    snprintf(r->checks[0].what, sizeof r->checks[0].what,
             w->check == CS_FAILS ? "the PTX has no 'ld.shared' instruction"
                                  : "the PTX has 'ld.shared'");
    double over[N_VARIANTS] = {300, 5000, 100};
    r->ncu.read = w->ncu != NCU_NONE && w->ncu != NCU_OVER_NOT_READ;
    for (int v = 0; v < N_VARIANTS; v++)
        r->ncu.conflicts[v] = w->ncu == NCU_UNDER ? 100 : over[v];
    if (w->ncu == NCU_OVER_REF_UNKNOWN)
        r->ncu.conflicts[V_SOLUTION] = -1;
}

START_TEST(each_row_earns_its_outcome)
{
    const row *w = &rows[_i];
    exercise ex;
    result r;
    facts_of(w, &ex, &r);
    ck_assert_msg(verdict_decide(&ex, &r) == w->want, "%s: decided %s, want %s", w->name,
                  outcome_word(verdict_decide(&ex, &r)), outcome_word(w->want));
    verdict_say(&ex, &r);
    ck_assert_msg(r.outcome == w->want, "%s: said %s, want %s", w->name,
                  outcome_word(r.outcome), outcome_word(w->want));
    ck_assert_msg(strstr(r.message, w->text), "%s: \"%s\" lacks \"%s\"", w->name, r.message,
                  w->text);
    /* The lesson's reason comes with a failing check, and only then. */
    int named = w->want == OUT_MECHANISM && w->check == CS_FAILS;
    ck_assert_msg(!strcmp(r.failed_check, named ? ex.checks[0].why : ""), "%s: failed_check "
                  "\"%s\"", w->name, r.failed_check);
    /* Said twice, the same: the verdict reads facts, never its own words. */
    char first[sizeof r.message];
    snprintf(first, sizeof first, "%s", r.message);
    verdict_say(&ex, &r);
    ck_assert_str_eq(r.message, first);
    ck_assert_int_eq(r.outcome, w->want);
}
END_TEST

/* Every outcome the function can return after grading ran to its end, and
 * every stop, has a row. */
START_TEST(every_outcome_has_a_row)
{
    for (enum outcome o = OUT_PASS; o <= OUT_RACE; o++) {
        int seen = 0;
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
            seen |= rows[i].want == o;
        ck_assert_msg(seen, "no row earns %s", outcome_word(o));
    }
}
END_TEST

/* The first failing check is the one named, whatever its place. */
START_TEST(first_failing_check_is_named)
{
    exercise ex = t_axpy;
    result r;
    memset(&r, 0, sizeof r);
    memset(ex.checks, 0, sizeof ex.checks);
    for (int i = 0; i < 3; i++)
        ex.checks[i] = (mech_check){.kind = CHECK_PTX_HAS, .text = "x", .why = "why"};
    r.correct = r.timed = r.clears_bar = r.ref_clears_bar = 1;
    r.checks[0].state = CS_HOLDS;
    r.checks[1].state = CS_UNKNOWN;
    r.checks[2].state = CS_FAILS;
    snprintf(r.checks[2].what, sizeof r.checks[2].what, "the third check fails");
    ck_assert_int_eq(verdict_failed_check(&ex, &r), 2);
    verdict_say(&ex, &r);
    ck_assert_int_eq(r.outcome, OUT_MECHANISM);
    ck_assert_ptr_nonnull(strstr(r.message, "Correct, but the third check fails. Speed:"));
    /* A state past the exercise's last check is not one of its checks. */
    ex.checks[2].kind = CHECK_NONE;
    ck_assert_int_eq(verdict_failed_check(&ex, &r), -1);
    ck_assert_int_eq(verdict_decide(&ex, &r), OUT_PASS);
}
END_TEST

Suite *verdict_suite(void)
{
    Suite *s = suite_create("verdict");
    TCase *tc = tcase_create("table");
    tcase_add_loop_test(tc, each_row_earns_its_outcome, 0, (int)(sizeof rows / sizeof rows[0]));
    tcase_add_test(tc, every_outcome_has_a_row);
    tcase_add_test(tc, first_failing_check_is_named);
    suite_add_tcase(s, tc);
    return s;
}
