/* test_nogpu.c: make check without a GPU. For lessons 1, 3, 7, 9 and 12, a
 * right file, a wrong-mechanism file and the untouched stub each get their
 * verdict, with the check that decides it named; every solution is CHECKED
 * and every stub compiles. The student files are the fixtures in
 * tests/unit/fixtures/nogpu/ (its README says what each one is), the stubs
 * (exercises/) and the solutions (solutions/). */
#include <string.h>
#include "knobs.h"
#include "nogpu.h"
#include "suites.h"

#define FIX "tests/unit/fixtures/nogpu/"

static const exercise *find_exercise(int lesson, const char *name)
{
    for (const exercise *const *e = lesson_exercises[lesson]; *e; e++)
        if (!strcmp((*e)->name, name))
            return *e;
    ck_abort_msg("no exercise lesson%d/%s", lesson, name);
    return NULL;
}

typedef struct verdict_case {
    int lesson;
    const char *name;
    const char *dir;          /* STUDENT_DIR */
    const char *set;          /* a knob setting, or NULL */
    enum outcome want;
    const char *text;         /* in the message, the detail or a check's words */
    int check;                /* -1, or a check that must have state `state` */
    enum check_state state;
} verdict_case;

static const verdict_case cases[] = {
    /* lesson 1: occupancy worked out on the CPU, registers, local memory */
    {1, "shared_hog", "exercises", NULL, OUT_MECHANISM,
     "theoretical occupancy is 25%; this exercise asks for at least 75%", 0, CS_FAILS},
    {1, "shared_hog", "solutions", NULL, OUT_CHECKED, "theoretical occupancy is 100%", 0,
     CS_HOLDS},
    {1, "register_hog", "exercises", NULL, OUT_MECHANISM, "registers per thread; at most 40",
     1, CS_FAILS},
    {1, "register_hog", "solutions", NULL, OUT_CHECKED, "its 2 mechanism checks hold", 1,
     CS_HOLDS},
    {1, "register_hog", FIX "wrong_mechanism", NULL, OUT_MECHANISM,
     "bytes of local memory per thread", 1, CS_HOLDS},
    /* lesson 3: shared memory; bank conflicts themselves need a GPU */
    {3, "bank_conflicts", "exercises", NULL, OUT_CHECKED, "That is not a pass", 0, CS_HOLDS},
    {3, "bank_conflicts", "solutions", NULL, OUT_CHECKED, "the PTX has 'ld.shared'", 0,
     CS_HOLDS},
    {3, "bank_conflicts", FIX "right", NULL, OUT_CHECKED, "the PTX has 'ld.shared'", 0,
     CS_HOLDS},
    {3, "bank_conflicts", FIX "wrong_tile", NULL, OUT_CHECKED, "needs an NVIDIA GPU", 0,
     CS_HOLDS},
    {3, "bank_conflicts", FIX "wrong_mechanism", NULL, OUT_MECHANISM,
     "the PTX has no 'ld.shared' instruction", 0, CS_FAILS},
    {3, "matmul", "exercises", NULL, OUT_MECHANISM, "the PTX has no 'ld.shared' instruction",
     0, CS_FAILS},
    {3, "matmul", "solutions", NULL, OUT_CHECKED, "the PTX has 'ld.shared'", 0, CS_HOLDS},
    {3, "matmul", "solutions", "TILE=32", OUT_CHECKED, "compiles for sm_90", 0, CS_HOLDS},
    {3, "matmul", FIX "wrong_mechanism", NULL, OUT_MECHANISM,
     "the PTX has no 'ld.shared' instruction", 0, CS_FAILS},
    {3, "matmul", FIX "compile_error", NULL, OUT_COMPILE_ERROR,
     "compile_error/lesson3/matmul.cu(9): error", -1, CS_NOT_EVALUATED},
    {3, "matmul", FIX "resources", "TILE=32", OUT_RESOURCES, "1024 threads x", -1,
     CS_NOT_EVALUATED},
    {3, "matmul", FIX "missing", NULL, OUT_MISSING, "cannot read", -1, CS_NOT_EVALUATED},
    /* lesson 7: the ring in registers, not local memory */
    {7, "rolling_regs", "exercises", NULL, OUT_MECHANISM, "bytes of local memory per thread",
     0, CS_FAILS},
    {7, "rolling_regs", "solutions", NULL, OUT_CHECKED, "the PTX has no 'ld.local'", 1,
     CS_HOLDS},
    {7, "rolling_regs", FIX "wrong_mechanism", NULL, OUT_MECHANISM, "the PTX contains "
     "'ld.local'", 1, CS_FAILS},
    {7, "rolling_direct", "exercises", NULL, OUT_MECHANISM, "local memory", 0, CS_FAILS},
    /* lesson 9: asynchronous copies */
    {9, "rolling_async", "exercises", NULL, OUT_MECHANISM,
     "the PTX has no 'cp.async' instruction", 0, CS_FAILS},
    {9, "rolling_async", "solutions", NULL, OUT_CHECKED, "the PTX has 'cp.async'", 0,
     CS_HOLDS},
    {9, "rolling_async", FIX "wrong_mechanism", NULL, OUT_MECHANISM,
     "bytes of local memory per thread", 0, CS_HOLDS},
    /* The ring refilled by bulk copies (cp.async.bulk, lesson 12's TMA):
     * asynchronous copies too (issue 25); the GPU suite runs its knock-out. */
    {9, "rolling_async", "tests/gpu/accepted/lesson9-bulk", NULL, OUT_CHECKED,
     "the PTX has 'cp.async'", 0, CS_HOLDS},
    {12, "bulk_ring", "tests/gpu/accepted/lesson12-one-asm", NULL, OUT_CHECKED,
     "the PTX has 'cp.async.bulk.shared'", 0, CS_HOLDS},
};

/* Whether `text` is anywhere the student reads it for r. */
static int says(const result *r, const char *text)
{
    if (strstr(r->message, text) || strstr(r->detail, text))
        return 1;
    for (int i = 0; i < MAX_CHECKS; i++)
        if (strstr(r->checks[i].what, text))
            return 1;
    return 0;
}

static void check_case(const verdict_case *c, result *r)
{
    const exercise *ex = find_exercise(c->lesson, c->name);
    knob_settings ks = {.n = 0};
    char err[512];
    if (c->set)
        ck_assert_int_eq(knob_settings_add(&ks, c->set, err, sizeof err), 0);
    int knobs[MAX_KNOBS];
    knob_values_for(ex, &ks, knobs);
    grade_opts o = {.root = ".", .student_dir = c->dir, .seed = 1};
    check_without_gpu(ex, knobs, &o, r);
}

START_TEST(verdicts_without_gpu)
{
    const verdict_case *c = &cases[_i];
    static result r;
    check_case(c, &r);
    ck_assert_msg(r.outcome == c->want, "lesson%d/%s from %s: %s, expected %s: %s", c->lesson,
                  c->name, c->dir, outcome_word(r.outcome), outcome_word(c->want), r.message);
    ck_assert_msg(says(&r, c->text), "lesson%d/%s from %s: '%s' not said: %s", c->lesson,
                  c->name, c->dir, c->text, r.message);
    if (c->check >= 0)
        ck_assert_msg(r.checks[c->check].state == c->state, "lesson%d/%s from %s: check %d "
                      "is %d, expected %d (%s)", c->lesson, c->name, c->dir, c->check,
                      r.checks[c->check].state, c->state, r.checks[c->check].what);
    /* Nothing ran: no GPU, no timing; and it says so. */
    ck_assert_int_eq(r.no_gpu, 1);
    ck_assert_int_eq(r.timed, 0);
    ck_assert_str_eq(r.gpu, "");
    if (r.outcome == OUT_MECHANISM) {
        ck_assert_ptr_nonnull(strstr(r.message, "not checked: that needs an NVIDIA GPU"));
        ck_assert_msg(r.failed_check[0], "a failed check says why it matters");
    }
    if (r.outcome == OUT_CHECKED || r.outcome == OUT_MECHANISM) {
        ck_assert_int_eq(r.res[V_STUDENT].known, 1);
        ck_assert_int_ge(r.res[V_STUDENT].occupancy_pct, 1);
    }
}
END_TEST

/* Every reference solution is CHECKED without a GPU, occupancy included,
 * and every untouched stub compiles and is either CHECKED or fails a
 * mechanism check: nothing else is right for a course file. */
START_TEST(solutions_checked_stubs_compile)
{
    const exercise *all[MAX_REGISTERED];
    registered_exercises(all, MAX_REGISTERED);
    const exercise *ex = all[_i];
    int knobs[MAX_KNOBS];
    knob_settings none = {.n = 0};
    knob_values_for(ex, &none, knobs);
    static result r;
    grade_opts o = {.root = ".", .student_dir = "exercises", .seed = 1};
    check_without_gpu(ex, knobs, &o, &r);
    ck_assert_msg(r.outcome == OUT_CHECKED || r.outcome == OUT_MECHANISM,
                  "lesson%d/%s stub: %s: %s", ex->lesson, ex->name, outcome_word(r.outcome),
                  r.message);
    if (ex->demo)
        return;
    o.student_dir = "solutions";
    check_without_gpu(ex, knobs, &o, &r);
    ck_assert_msg(r.outcome == OUT_CHECKED, "lesson%d/%s solution: %s: %s", ex->lesson,
                  ex->name, outcome_word(r.outcome), r.message);
}
END_TEST

Suite *nogpu_suite(void)
{
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED);
    Suite *s = suite_create("nogpu");
    TCase *tc = tcase_create("verdicts");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, verdicts_without_gpu, 0, (int)(sizeof cases / sizeof *cases));
    suite_add_tcase(s, tc);
    tc = tcase_create("course_files");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, solutions_checked_stubs_compile, 0, n < MAX_REGISTERED ? n :
                        MAX_REGISTERED);
    suite_add_tcase(s, tc);
    return s;
}
