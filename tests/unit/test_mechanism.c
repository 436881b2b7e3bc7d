/* test_mechanism.c: first_failed_check on hand-made compiler output, one
 * check kind at a time, and the message a student reads when one fails;
 * each check without a resource report, at its bound, and all MAX_CHECKS
 * at once.
 *
 *   CK_RUN_SUITE=mechanism build/tests/unit_tests */
#include <stdio.h>
#include <string.h>
#include "mechanism.h"
#include "suites.h"

static const char ptx_async[] =
    ".visible .entry k()\n{\n"
    "\tcp.async.ca.shared.global [%r1], [%rd2], 8;\n"
    "\tcp.async.commit_group;\n"
    "\tld.shared.f64 %fd1, [%r1];\n}\n";

static compiled with_ptx(const char *ptx)
{
    compiled c;
    memset(&c, 0, sizeof c);
    c.ok = 1;
    c.ptx = (char *)ptx;
    return c;
}

static resources known_res(int regs, int stack, int spills, int smem_static, int smem_dyn)
{
    resources r = {.known = 1, .regs = regs, .stack_bytes = stack, .spill_stores = spills,
                   .spill_loads = spills, .smem_static = smem_static,
                   .smem_dynamic = smem_dyn, .occupancy_pct = -1};
    return r;
}

/* An exercise with a single check. */
static exercise one_check(mech_check m)
{
    exercise ex = {.lesson = 0, .name = "mech", .kernel = "k"};
    ex.checks[0] = m;
    return ex;
}

START_TEST(ptx_has)
{
    char what[256];
    compiled c = with_ptx(ptx_async);
    resources r = known_res(20, 0, 0, 0, 0);
    exercise ex = one_check((mech_check){CHECK_PTX_HAS, "cp.async", 0, NULL, "why"});
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), -1);
    ck_assert_str_eq(what, "");

    ex = one_check((mech_check){CHECK_PTX_HAS, "ld.global.nc", 0, NULL, "why"});
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 0);
    ck_assert_str_eq(what, "the PTX has no 'ld.global.nc' instruction");

    /* No PTX at all cannot have anything. */
    c.ptx = NULL;
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 0);
}
END_TEST

/* The load width: the widest global load's bytes per thread, read from
 * its opcode (vector count times type size), whatever its qualifiers; a
 * load in a comment, of another space or glued to a word is no load. */
START_TEST(min_load_bytes)
{
    static const struct {
        const char *ptx;
        long want;
        enum check_state state;
        const char *what;
    } cases[] = {
        {"\tld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd1];\n", 16, CS_HOLDS,
         "(ld.global.nc.v4.f32) brings 16 bytes per thread; this exercise asks for at least 16"},
        {"\tld.global.nc.v2.f32 \t{%f1, %f2}, [%rd1];\n", 16, CS_FAILS,
         "(ld.global.nc.v2.f32) brings 8 bytes per thread; this exercise asks for 16 in one"},
        {"\tld.global.f32 %f1, [%rd1];\n\tld.global.v2.f64 {%fd1, %fd2}, [%rd2];\n", 16,
         CS_HOLDS, "(ld.global.v2.f64) brings 16 bytes"},
        {"\tld.global.L1::evict_last.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n", 16, CS_HOLDS,
         "brings 16 bytes"},
        {"\t@%p1 ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n", 16, CS_HOLDS,
         "brings 16 bytes"},
        {"\tld.global.v4.f16 {%h1, %h2, %h3, %h4}, [%rd1];\n", 16, CS_FAILS,
         "(ld.global.v4.f16) brings 8 bytes"},
        {"\tld.global.u8 %rs1, [%rd1];\n", 1, CS_HOLDS, "brings 1 bytes"},
        {"\tld.global.f32 %f1, [%rd1];\n\t// ld.global.v4.f32 {%f1}, [%rd1];\n", 16, CS_FAILS,
         "(ld.global.f32) brings 4 bytes"},
        {"\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r1];\n", 16, CS_FAILS,
         "the PTX has no load from global memory"},
        {"\txld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n", 16, CS_FAILS,
         "the PTX has no load from global memory"},
        {"", 4, CS_FAILS, "the PTX has no load from global memory; this exercise asks for "
         "loads of 4 bytes per thread"},
    };
    resources r = known_res(20, 0, 0, 0, 0);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char what[sizeof ((check_result *)0)->what];
        compiled c = with_ptx(cases[k].ptx);
        exercise ex = one_check((mech_check){.kind = CHECK_MIN_LOAD_BYTES,
                                             .value = cases[k].want, .why = "why"});
        check_result out[MAX_CHECKS];
        evaluate_checks(&ex, &c, &r, NULL, out);
        snprintf(what, sizeof what, "%s", out[0].what);
        ck_assert_msg(out[0].state == cases[k].state, "%s: state %d", cases[k].ptx,
                      out[0].state);
        ck_assert_msg(strstr(what, cases[k].what), "%s: %s", cases[k].ptx, what);
    }
}
END_TEST

/* A text check reads instructions, as the PTX reader cuts them: each of
 * several on one line, those inside a braced block, never a comment, a
 * string or a declaration that only names the instruction. */
START_TEST(ptx_checks_read_instructions)
{
    static const struct {
        const char *what, *ptx, *text;
        int has;
    } cases[] = {
        {"the second of two on one line",
         "\tmbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r3], %r4; "
         "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r5], [%rd2], %r4, "
         "[%r3];\n", "cp.async.bulk.shared", 1},
        {"a bulk copy is an asynchronous copy (lesson 9)",
         "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r5], [%rd2], "
         "%r4, [%r3];\n", "cp.async", 1},
        {"inside a braced block with a guard",
         "\t{ .reg .pred p; setp.ne.b32 p, %r1, 0; @p cp.async.ca.shared.global [%r1], [%rd1], "
         "8; }\n", "cp.async", 1},
        {"after a comment on the same line",
         "\tmov.u32 %r1, 0; /* first */ ld.shared.f32 %f1, [%r1];\n", "ld.shared", 1},
        {"named only in a line comment", "\tret; // cp.async.ca.shared.global\n", "cp.async", 0},
        {"named only in a block comment", "/* ld.shared.f32 %f1, [%r1]; */\n\tret;\n",
         "ld.shared", 0},
        {"named only in a string", "\t.pragma \"cp.async\";\n\tret;\n", "cp.async", 0},
        {"named only as a label", "cp_async:\n\tret;\n", "cp", 0},
    };
    char what[256];
    resources r = known_res(20, 0, 0, 0, 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        compiled c = with_ptx(cases[i].ptx);
        exercise has = one_check((mech_check){CHECK_PTX_HAS, cases[i].text, 0, NULL, "why"});
        exercise lacks = one_check((mech_check){CHECK_PTX_LACKS, cases[i].text, 0, NULL, "why"});
        ck_assert_msg(first_failed_check(&has, &c, &r, NULL, what, sizeof what) ==
                      (cases[i].has ? -1 : 0), "%s: PTX_HAS('%s') %s", cases[i].what,
                      cases[i].text, what);
        ck_assert_msg(first_failed_check(&lacks, &c, &r, NULL, what, sizeof what) ==
                      (cases[i].has ? 0 : -1), "%s: PTX_LACKS('%s') %s", cases[i].what,
                      cases[i].text, what);
    }
}
END_TEST

START_TEST(ptx_lacks)
{
    char what[256];
    compiled c = with_ptx(ptx_async);
    resources r = known_res(20, 0, 0, 0, 0);
    exercise ex = one_check((mech_check){CHECK_PTX_LACKS, "ld.local", 0, NULL, "why"});
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), -1);

    ex = one_check((mech_check){CHECK_PTX_LACKS, "ld.shared", 0, NULL, "why"});
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 0);
    ck_assert_str_eq(what, "the PTX contains 'ld.shared'");
}
END_TEST

START_TEST(max_local_bytes)
{
    /* Local memory = stack frame + spill stores: 16 + 8 = 24 bytes. */
    char what[256];
    compiled c = with_ptx(ptx_async);
    resources r = known_res(20, 16, 8, 0, 0);
    exercise ex = one_check((mech_check){CHECK_MAX_LOCAL_BYTES, NULL, 24, NULL, "why"});
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), -1);

    ex.checks[0].value = 20;
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 0);
    ck_assert_str_eq(what, "the kernel uses 24 bytes of local memory per thread "
                           "(stack frame 16, spill stores 8); at most 20 allowed");

    /* Spills alone count too. */
    r = known_res(255, 0, 4, 0, 0);
    ex.checks[0].value = 0;
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 0);
}
END_TEST

/* Shared memory a kernel must use: TILE x (TILE + PAD) doubles. */
static long tile_bytes(const int *knobs)
{
    return 8L * knobs[0] * (knobs[0] + knobs[1]);
}

START_TEST(smem_bytes_from_knobs)
{
    char what[256];
    compiled c = with_ptx(ptx_async);
    int knobs[MAX_KNOBS] = {32, 1};             /* 8 * 32 * 33 = 8448 */
    exercise ex = one_check((mech_check){CHECK_SMEM_BYTES, NULL, 0, tile_bytes, "why"});
    resources r = known_res(20, 0, 0, 8448, 0);
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, knobs, what, sizeof what), -1);

    /* Static and dynamic shared memory add up. */
    r = known_res(20, 0, 0, 8192, 256);
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, knobs, what, sizeof what), -1);

    /* The unpadded tile: 8192 bytes, not the 8448 asked for. */
    r = known_res(20, 0, 0, 8192, 0);
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, knobs, what, sizeof what), 0);
    ck_assert_str_eq(what, "the kernel uses 8192 bytes of shared memory per block; "
                           "this exercise asks for exactly 8448");

    /* expect() follows the knobs: with PAD = 0 the same kernel is right. */
    knobs[1] = 0;
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, knobs, what, sizeof what), -1);
}
END_TEST

START_TEST(smem_bytes_fixed_value)
{
    char what[256];
    compiled c = with_ptx(ptx_async);
    exercise ex = one_check((mech_check){CHECK_SMEM_BYTES, NULL, 4096, NULL, "why"});
    resources r = known_res(20, 0, 0, 4096, 0);
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), -1);
    r.smem_dynamic = 4;
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 0);
}
END_TEST

START_TEST(max_regs)
{
    char what[256];
    compiled c = with_ptx(ptx_async);
    exercise ex = one_check((mech_check){CHECK_MAX_REGS, NULL, 64, NULL, "why"});
    resources r = known_res(64, 0, 0, 0, 0);
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), -1);
    r.regs = 65;
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 0);
    ck_assert_str_eq(what, "the kernel uses 65 registers per thread; at most 64 allowed");
}
END_TEST

START_TEST(min_occupancy)
{
    char what[256];
    compiled c = with_ptx(ptx_async);
    exercise ex = one_check((mech_check){CHECK_MIN_OCCUPANCY, NULL, 50, NULL, "why"});
    resources r = known_res(32, 0, 0, 0, 0);
    r.occupancy_pct = 25;
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 0);
    ck_assert_str_eq(what, "theoretical occupancy is 25%; this exercise asks for at least 50%");
    r.occupancy_pct = 50;
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), -1);
}
END_TEST

START_TEST(min_occupancy_unknown_is_skipped)
{
    /* Without a GPU there is no occupancy to read: the check cannot fail. */
    char what[256];
    compiled c = with_ptx(ptx_async);
    exercise ex = one_check((mech_check){CHECK_MIN_OCCUPANCY, NULL, 50, NULL, "why"});
    resources r = known_res(32, 0, 0, 0, 0);
    r.occupancy_pct = -1;
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), -1);
}
END_TEST

START_TEST(first_failure_is_reported)
{
    char what[256];
    compiled c = with_ptx(ptx_async);
    resources r = known_res(96, 0, 0, 0, 0);
    exercise ex = {.lesson = 0, .name = "mech", .kernel = "k"};
    ex.checks[0] = (mech_check){CHECK_PTX_HAS, "cp.async", 0, NULL, "holds"};
    ex.checks[1] = (mech_check){CHECK_MAX_REGS, NULL, 64, NULL, "fails first"};
    ex.checks[2] = (mech_check){CHECK_PTX_LACKS, "ld.shared", 0, NULL, "fails too"};
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 1);
    ck_assert_ptr_nonnull(strstr(what, "96 registers"));

    /* The very first check failing is the one reported. */
    ex.checks[0].text = "cp.async.bulk";
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 0);
    ck_assert_str_eq(what, "the PTX has no 'cp.async.bulk' instruction");
    ex.checks[0].text = "cp.async";

    /* Fix the first failure and the next one is reported. */
    r.regs = 40;
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), 2);
    ck_assert_str_eq(what, "the PTX contains 'ld.shared'");
}
END_TEST

START_TEST(no_checks_pass)
{
    char what[64] = "stale";
    compiled c = with_ptx(ptx_async);
    resources r = known_res(255, 512, 512, 0, 0);
    exercise ex = {.lesson = 0, .name = "mech", .kernel = "k"};
    ck_assert_int_eq(first_failed_check(&ex, &c, &r, NULL, what, sizeof what), -1);
    ck_assert_str_eq(what, "");
}
END_TEST

/* The report lists every check: one that holds says so, in words. */
START_TEST(every_check_is_reported)
{
    compiled c = with_ptx(ptx_async);
    resources r = known_res(40, 0, 0, 8192, 0);
    r.occupancy_pct = 100;
    exercise ex = {.lesson = 0, .name = "mech", .kernel = "k"};
    ex.checks[0] = (mech_check){CHECK_PTX_HAS, "cp.async", 0, NULL, "why"};
    ex.checks[1] = (mech_check){CHECK_PTX_LACKS, "ld.local", 0, NULL, "why"};
    ex.checks[2] = (mech_check){CHECK_MAX_LOCAL_BYTES, NULL, 0, NULL, "why"};
    ex.checks[3] = (mech_check){CHECK_SMEM_BYTES, NULL, 8192, NULL, "why"};
    ex.checks[4] = (mech_check){CHECK_MAX_REGS, NULL, 32, NULL, "why"};
    ex.checks[5] = (mech_check){CHECK_MIN_OCCUPANCY, NULL, 75, NULL, "why"};
    check_result out[MAX_CHECKS];
    ck_assert_int_eq(evaluate_checks(&ex, &c, &r, NULL, out), 4);
    ck_assert_int_eq(out[0].state, CS_HOLDS);
    ck_assert_str_eq(out[0].what, "the PTX has 'cp.async'");
    ck_assert_int_eq(out[1].state, CS_HOLDS);
    ck_assert_str_eq(out[1].what, "the PTX has no 'ld.local'");
    ck_assert_int_eq(out[2].state, CS_HOLDS);
    ck_assert_str_eq(out[2].what, "the kernel uses 0 bytes of local memory per thread; at "
                                  "most 0 allowed");
    ck_assert_int_eq(out[3].state, CS_HOLDS);
    ck_assert_str_eq(out[3].what, "the kernel uses 8192 bytes of shared memory per block, "
                                  "as this exercise asks (8192)");
    ck_assert_int_eq(out[4].state, CS_FAILS);
    ck_assert_str_eq(out[4].what, "the kernel uses 40 registers per thread; at most 32 allowed");
    ck_assert_int_eq(out[5].state, CS_HOLDS);
    ck_assert_str_eq(out[5].what, "theoretical occupancy is 100%; this exercise asks for at "
                                  "least 75%");
}
END_TEST

START_TEST(unknown_is_neither)
{
    /* A GPU newer than NVRTC gets PTX only: no ptxas report, and no
     * occupancy. Those checks are neither passed nor failed. */
    compiled c = with_ptx(ptx_async);
    resources r = {.known = 0, .occupancy_pct = -1};
    exercise ex = {.lesson = 0, .name = "mech", .kernel = "k"};
    ex.checks[0] = (mech_check){CHECK_MAX_REGS, NULL, 32, NULL, "why"};
    ex.checks[1] = (mech_check){CHECK_MIN_OCCUPANCY, NULL, 75, NULL, "why"};
    check_result out[MAX_CHECKS];
    ck_assert_int_eq(evaluate_checks(&ex, &c, &r, NULL, out), -1);
    ck_assert_int_eq(out[0].state, CS_UNKNOWN);
    ck_assert_ptr_nonnull(strstr(out[0].what, "not checked"));
    ck_assert_int_eq(out[1].state, CS_UNKNOWN);
    ck_assert_int_eq(out[2].state, CS_NOT_EVALUATED);
}
END_TEST

/* Every resource check without a ptxas report, occupancy 0 (known, not
 * unknown), all MAX_CHECKS checks at once, and the caller's buffers. */
START_TEST(edges_of_the_checks)
{
    compiled c = with_ptx(NULL);
    resources unknown = {.known = 0, .regs = 999, .stack_bytes = 999, .smem_static = 999,
                         .occupancy_pct = 0};
    exercise ex = {.lesson = 0, .name = "mech", .kernel = "k"};
    ex.checks[0] = (mech_check){CHECK_MAX_LOCAL_BYTES, NULL, 0, NULL, "why"};
    ex.checks[1] = (mech_check){CHECK_SMEM_BYTES, NULL, 0, NULL, "why"};
    ex.checks[2] = (mech_check){CHECK_MAX_REGS, NULL, 0, NULL, "why"};
    ex.checks[3] = (mech_check){CHECK_MIN_OCCUPANCY, NULL, 1, NULL, "why"};
    ex.checks[4] = (mech_check){CHECK_PTX_LACKS, "ld.local", 0, NULL, "why"};
    ex.checks[5] = (mech_check){CHECK_PTX_HAS, "cp.async", 0, NULL, "why"};
    check_result out[MAX_CHECKS];
    memset(out, 0x5a, sizeof out);
    ck_assert_int_eq(evaluate_checks(&ex, &c, &unknown, NULL, out), 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(out[i].state, CS_UNKNOWN);
        ck_assert_str_eq(out[i].what, "not checked: the compiler gave no resource report for "
                                      "this GPU");
    }
    ck_assert_int_eq(out[3].state, CS_FAILS);
    ck_assert_str_eq(out[3].what, "theoretical occupancy is 0%; this exercise asks for at "
                                  "least 1%");
    /* No PTX: it lacks everything and has nothing. */
    ck_assert_int_eq(out[4].state, CS_HOLDS);
    ck_assert_str_eq(out[4].what, "the PTX has no 'ld.local'");
    ck_assert_int_eq(out[5].state, CS_FAILS);
    ck_assert_str_eq(out[5].what, "the PTX has no 'cp.async' instruction");

    unknown.occupancy_pct = -1;
    char what[256] = "keep";
    ck_assert_int_eq(first_failed_check(&ex, &c, &unknown, NULL, what, 0), 5);
    ck_assert_str_eq(what, "keep");
    ck_assert_int_eq(first_failed_check(&ex, &c, &unknown, NULL, what, 12), 5);
    ck_assert_str_eq(what, "the PTX has");
    ck_assert_int_eq(evaluate_checks(&ex, &c, &unknown, NULL, out), 5);
    ck_assert_int_eq(out[3].state, CS_UNKNOWN);
    ck_assert_str_eq(out[3].what, "theoretical occupancy is not known, so at least 1% could "
                                  "not be checked");

    /* Past the last check: nothing evaluated, nothing said. */
    ex.checks[2].kind = CHECK_NONE;
    memset(out, 0x5a, sizeof out);
    ck_assert_int_eq(evaluate_checks(&ex, &c, &unknown, NULL, out), -1);
    for (int i = 2; i < MAX_CHECKS; i++) {
        ck_assert_int_eq(out[i].state, CS_NOT_EVALUATED);
        ck_assert_str_eq(out[i].what, "");
    }
    /* Local memory: stack frame and spill stores at the bound and one past. */
    resources r = known_res(20, 10, 6, 0, 0);
    exercise one = one_check((mech_check){CHECK_MAX_LOCAL_BYTES, NULL, 16, NULL, "why"});
    ck_assert_int_eq(first_failed_check(&one, &c, &r, NULL, what, sizeof what), -1);
    r.spill_stores = 7;
    ck_assert_int_eq(first_failed_check(&one, &c, &r, NULL, what, sizeof what), 0);
    r = known_res(20, 17, 0, 0, 0);
    ck_assert_int_eq(first_failed_check(&one, &c, &r, NULL, what, sizeof what), 0);
}
END_TEST

Suite *mechanism_suite(void)
{
    Suite *s = suite_create("mechanism");
    TCase *tc = tcase_create("ptx_text");
    tcase_add_test(tc, ptx_has);
    tcase_add_test(tc, min_load_bytes);
    tcase_add_test(tc, ptx_lacks);
    tcase_add_test(tc, ptx_checks_read_instructions);
    suite_add_tcase(s, tc);

    tc = tcase_create("resources");
    tcase_add_test(tc, max_local_bytes);
    tcase_add_test(tc, smem_bytes_from_knobs);
    tcase_add_test(tc, smem_bytes_fixed_value);
    tcase_add_test(tc, max_regs);
    suite_add_tcase(s, tc);

    tc = tcase_create("occupancy");
    tcase_add_test(tc, min_occupancy);
    tcase_add_test(tc, min_occupancy_unknown_is_skipped);
    suite_add_tcase(s, tc);

    tc = tcase_create("order");
    tcase_add_test(tc, first_failure_is_reported);
    tcase_add_test(tc, no_checks_pass);
    tcase_add_test(tc, every_check_is_reported);
    tcase_add_test(tc, unknown_is_neither);
    tcase_add_test(tc, edges_of_the_checks);
    suite_add_tcase(s, tc);
    return s;
}
