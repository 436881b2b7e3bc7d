/* test_watch_rules.c: the mechanism checks judged on the data watch
 * (grader/rules/watch_rules.h): figures in, verdict and words out, one case
 * per rule and per side of each threshold; and grade/watch_checks.h, which
 * applies them to an exercise's checks.
 *
 *   CK_RUN_SUITE=watch_rules build/tests/unit_tests */
#include <string.h>
#include "suites.h"
#include "watch_checks.h"
#include "watch_rules.h"

static long pdist_minus_1(const int *knobs) { return knobs[0] - 1; }

typedef struct rule_case {
    const char *name;
    mech_check check;
    watch_facts facts;
    int fails;               /* watch_rule's answer */
    const char *says;        /* in its words */
} rule_case;

/* Watched facts: live bytes by path (load, 16-byte load, cp.async, bulk,
 * const), dead cp.async bytes, uniform bytes, then staged %, wait, shared
 * memory used %, prefetch served % and lead (-1: does not apply). */
#define FACTS(ld, v16, as, bu, co, dead_as, uni, st, wa, sm, se, le) \
    {.watched = 1, .live_bytes = {ld, v16, as, bu, co}, .dead_bytes = {0, 0, dead_as, 0, 0}, \
     .live_uniform_bytes = uni, .staged_pct = st, .wait_fetches = wa, .smem_live_pct = sm, \
     .prefetch_served_pct = se, .prefetch_lead = le}
#define BYTES(ld, v16, as, bu, co) FACTS(ld, v16, as, bu, co, 0, 0, -1, -1, -1, -1, -1)
#define NOTHING BYTES(0, 0, 0, 0, 0)
#define STAGED(st, wa, sm) FACTS(0, 0, 0, 0, 0, 0, 0, st, wa, sm, -1, -1)
#define PREFETCH(se, le) FACTS(0, 0, 0, 0, 0, 0, 0, -1, -1, -1, se, le)
#define HAS(knock_) {.kind = CHECK_PTX_HAS, .text = "x", .knock = (knock_)}
#define RING(knock_) {.kind = CHECK_SMEM_BYTES, .knock = (knock_), .min_wait = pdist_minus_1, \
    .min_wait_what = "PDIST - 1"}

static const rule_case cases[] = {
    {"ASYNC: 90% by copies holds", HAS(KNOCK_ASYNC),
     BYTES(10, 0, 60, 30, 0), 0,
     "90% of the live input bytes arrived by cp.async or bulk copies (at least 90%)"},
    {"ASYNC: 89% fails", HAS(KNOCK_ASYNC),
     BYTES(11, 0, 89, 0, 0), 1,
     "only 89% of the live input bytes arrived by cp.async or bulk copies"},
    {"ASYNC: dead copies do not count", HAS(KNOCK_ASYNC),
     FACTS(100, 0, 0, 0, 0, 1000, 0, -1, -1, -1, -1, -1), 1,
     "only 0% of the live input bytes"},
    {"BULK: cp.async is not a bulk copy", HAS(KNOCK_BULK),
     BYTES(0, 0, 100, 0, 0), 1,
     "only 0% of the live input bytes arrived by bulk copies"},
    {"BULK: all by bulk copies", HAS(KNOCK_BULK), BYTES(0, 0, 0, 100, 0),
     0, "100% of the live input bytes arrived by bulk copies"},
    {"VECTOR: 98% by 16-byte loads holds", HAS(KNOCK_VECTOR),
     BYTES(2, 98, 0, 0, 0), 0,
     "98% of the live bytes loaded from global memory came by 16-byte vector loads"},
    {"VECTOR: only what global loads brought counts", HAS(KNOCK_VECTOR),
     BYTES(20, 80, 1000, 0, 0), 1,
     "only 80% of the live bytes loaded from global memory"},
    {"CONST: the table from the constant bank", HAS(KNOCK_CONST),
     BYTES(4, 0, 0, 0, 128), 0,
     "100% of the live reads that every lane of a warp makes at one address"},
    {"CONST: the table's global copy fails", HAS(KNOCK_CONST),
     FACTS(132, 0, 0, 0, 0, 0, 128, -1, -1, -1, -1, -1), 1,
     "only 0% of the live reads that every lane of a warp makes at one address (the table) "
     "came from the constant bank (ld.const) (at least 90%)"},
    {"CONST: one coefficient of ten from the bank fails", HAS(KNOCK_CONST),
     FACTS(94, 0, 0, 0, 10, 0, 90, -1, -1, -1, -1, -1), 1,
     "only 10% of the live reads that every lane of a warp makes at one address"},
    {"SHARED: staged 91% holds", HAS(KNOCK_SHARED), STAGED(91.4, -1, -1), 0,
     "91% of the live input bytes reached their use through shared memory"},
    {"SHARED: nothing staged fails", HAS(KNOCK_SHARED), NOTHING, 1,
     "only 0% of the live input bytes reached their use through shared memory"},
    {"PREFETCH: none ran", HAS(KNOCK_PREFETCH), NOTHING, 1, "no prefetch.global.L2 ran"},
    {"PREFETCH: half the loads served, one fetch ahead", HAS(KNOCK_PREFETCH),
     PREFETCH(50, 1), 0,
     "50% of the live loads found their line prefetched (at least 50%); the prefetches ran "
     "a median of 1 fetches ahead"},
    {"PREFETCH: a token covers too few", HAS(KNOCK_PREFETCH),
     PREFETCH(1, 4), 1,
     "only 1% of the live loads found their line prefetched (at least 50%)"},
    {"PREFETCH: at distance 0 it leads by nothing", HAS(KNOCK_PREFETCH),
     PREFETCH(95, 0), 1,
     "the prefetches ran a median of 0 fetches ahead of the loads they served (at least 1); "
     "95% of the live loads"},
    {"ring: waits PDIST - 1, fills the buffer", RING(KNOCK_SHARED),
     STAGED(100, 7, 100), 0,
     "100% of the live input bytes reached their use through shared memory (at least 90%); "
     "values waited a median of 7 iterations in shared memory (at least PDIST - 1 = 7); 100% of "
     "the block's shared memory carried live data (at least 50%)"},
    {"ring: read back at once waits 0", RING(KNOCK_SHARED),
     STAGED(100, 0, 100), 1,
     "values waited a median of 0 iterations in shared memory (at least PDIST - 1 = 7); 100%"},
    {"ring: one slot in eight", RING(KNOCK_SHARED),
     STAGED(100, 7, 12.5), 1,
     "12% of the block's shared memory carried live data (at least 50%); values waited"},
    {"ring: half the buffer is enough", RING(KNOCK_SHARED),
     STAGED(100, 7, 50), 0,
     "50% of the block's shared memory carried live data"},
    {"ring: nothing waited at all", RING(KNOCK_SHARED),
     STAGED(-1, -1, 0), 1,
     "only 0% of the live input bytes reached their use through shared memory"},
    {"no knock kind: nothing to judge", {.kind = CHECK_PTX_HAS, .text = "x"}, NOTHING, 0, ""},
};

START_TEST(one_rule)
{
    const rule_case *c = &cases[_i];
    int knobs[MAX_KNOBS] = {8};
    char what[512];
    int got = watch_rule(&c->check, knobs, &c->facts, what, sizeof what);
    ck_assert_msg(got == c->fails, "%s: %d, want %d (%s)", c->name, got, c->fails, what);
    ck_assert_msg(strstr(what, c->says) && (c->says[0] || !what[0]), "%s: '%s' not in '%s'",
                  c->name, c->says, what);
}
END_TEST

/* The exercise level: a check with a knock kind that holds on the text is
 * judged on the figures when watched, said not judged when not; one
 * without a knock kind, or already failing, stays as it was. */
START_TEST(checks_of_an_exercise)
{
    exercise ex = {.checks = {HAS(KNOCK_ASYNC), {.kind = CHECK_PTX_LACKS, .text = "y"},
                              HAS(KNOCK_VECTOR)}};
    int knobs[MAX_KNOBS] = {8};
    static result r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 3; i++) {
        r.checks[i].state = i == 2 ? CS_FAILS : CS_HOLDS;
        strcpy(r.checks[i].what, "text");
    }
    r.watch = (watch_facts)BYTES(100, 0, 0, 0, 0);
    watch_judge_checks(&ex, knobs, &r);
    ck_assert_int_eq(r.checks[0].state, CS_FAILS);
    ck_assert_str_eq(r.checks[0].what, "on the PTX simulator only 0% of the live input bytes "
                     "arrived by cp.async or bulk copies (at least 90%)");
    ck_assert_int_eq(r.checks[1].state, CS_HOLDS);
    ck_assert_str_eq(r.checks[1].what, "text");
    ck_assert_int_eq(r.checks[2].state, CS_FAILS);
    ck_assert_str_eq(r.checks[2].what, "text");

    r.checks[0].state = CS_HOLDS;
    strcpy(r.checks[0].what, "text");
    r.watch.live_bytes[WP_ASYNC] = 900;
    watch_judge_checks(&ex, knobs, &r);
    ck_assert_int_eq(r.checks[0].state, CS_HOLDS);
    ck_assert_str_eq(r.checks[0].what, "text, and on the PTX simulator 90% of the live input "
                     "bytes arrived by cp.async or bulk copies (at least 90%)");

    strcpy(r.checks[0].what, "text");
    r.watch.watched = 0;
    watch_judge_checks(&ex, knobs, &r);
    ck_assert_int_eq(r.checks[0].state, CS_HOLDS);
    ck_assert_str_eq(r.checks[0].what, "text (whether it carries the data needs a GPU: not "
                     "judged)");
}
END_TEST

Suite *watch_rules_suite(void)
{
    Suite *s = suite_create("watch_rules");
    TCase *tc = tcase_create("rules");
    tcase_add_loop_test(tc, one_rule, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, checks_of_an_exercise);
    suite_add_tcase(s, tc);
    return s;
}
