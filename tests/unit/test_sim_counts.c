/* test_sim_counts.c: the simulator's memory counts (sim.h's sim_counts,
 * sim_counts.c), one access pattern a case, with the answer lesson 2 and 3
 * (and Nsight Compute) give: global sectors per request and shared-memory
 * wavefronts. Each case's body makes exactly one counted access, from
 * %r1 = %tid.x, %rd1 = a 256-aligned global buffer, %r10 = the shared
 * array's address. Part of the `sim` suite:
 *
 *   CK_RUN_SUITE=sim build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "suites.h"

typedef struct count_case {
    const char *name;
    const char *body;
    unsigned threads;
    int space;               /* enum sim_count_space */
    uint64_t requests, units, ideal;
} count_case;

static const char head[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry t(.param .u64 t_param_0)\n{\n"
    ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n.reg .f32 %f<16>;\n"
    ".shared .align 16 .b8 sh[8192];\n"
    "ld.param.u64 %rd1, [t_param_0];\nmov.u32 %r1, %tid.x;\nmov.u32 %r10, sh;\n";

/* %rd4 = %rd1 + tid * STRIDE bytes */
#define G(stride) "mul.wide.u32 %rd3, %r1, " #stride ";\nadd.s64 %rd4, %rd1, %rd3;\n"
/* %r12 = sh + tid * STRIDE bytes */
#define S(stride) "mul.lo.s32 %r11, %r1, " #stride ";\nadd.s32 %r12, %r10, %r11;\n"

static const count_case cases[] = {
    /* global: sectors per request (lesson 2) */
    {"coalesced floats: 4 sectors", G(4) "ld.global.f32 %f1, [%rd4];", 32, SIM_COUNT_GLOBAL,
     1, 4, 4},
    {"a stride of 32 floats: 32 sectors", G(128) "ld.global.f32 %f1, [%rd4];", 32,
     SIM_COUNT_GLOBAL, 1, 32, 4},
    {"a stride of 2 floats: 8 sectors", G(8) "ld.global.f32 %f1, [%rd4];", 32,
     SIM_COUNT_GLOBAL, 1, 8, 4},
    {"misaligned by one float: 5 sectors", G(4) "ld.global.f32 %f1, [%rd4+4];", 32,
     SIM_COUNT_GLOBAL, 1, 5, 4},
    {"a partial warp of 20 lanes: 3 sectors", G(4) "ld.global.f32 %f1, [%rd4];", 20,
     SIM_COUNT_GLOBAL, 1, 3, 3},
    {"float2 coalesced: 8 sectors", G(8) "ld.global.v2.f32 {%f1, %f2}, [%rd4];", 32,
     SIM_COUNT_GLOBAL, 1, 8, 8},
    {"float4 coalesced: 16 sectors", G(16) "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];",
     32, SIM_COUNT_GLOBAL, 1, 16, 16},
    {"float2 at a stride of 4 floats: 16 sectors for 8 of data",
     G(16) "ld.global.v2.f32 {%f1, %f2}, [%rd4+8];", 32, SIM_COUNT_GLOBAL, 1, 16, 8},
    {"one address for every lane: 1 sector", "ld.global.f32 %f1, [%rd1];", 32,
     SIM_COUNT_GLOBAL, 1, 1, 1},
    {"two warps: 2 requests", G(4) "st.global.f32 [%rd4], %f1;", 64, SIM_COUNT_GLOBAL, 2, 8,
     8},
    {"a store with a stride of 32 floats", G(128) "st.global.u32 [%rd4], %r1;", 32,
     SIM_COUNT_GLOBAL, 1, 32, 4},
    {"atom.global.add coalesced", G(4) "atom.global.add.u32 %r3, [%rd4], 1;", 32,
     SIM_COUNT_GLOBAL, 1, 4, 4},
    {"a generic load that lands in global memory", G(4) "ld.f32 %f1, [%rd4];", 32,
     SIM_COUNT_GLOBAL, 1, 4, 4},
    {"cp.async of 16 bytes a lane: its global side",
     G(16) S(16) "cp.async.cg.shared.global [%r12], [%rd4], 16;\ncp.async.wait_all;", 32,
     SIM_COUNT_GLOBAL, 1, 16, 16},
    {"a predicated-off warp makes no request", G(4) "setp.gt.u32 %p1, %r1, 40;\n"
     "@%p1 ld.global.f32 %f1, [%rd4];", 64, SIM_COUNT_GLOBAL, 1, 3, 3},
    /* shared: wavefronts, one per phase without conflicts (lessons 3, 10) */
    {"consecutive words: no conflict", S(4) "st.shared.u32 [%r12], %r1;", 32,
     SIM_COUNT_SHARED, 1, 1, 1},
    {"one word for every lane: a broadcast", "ld.shared.u32 %r3, [%r10];", 32,
     SIM_COUNT_SHARED, 1, 1, 1},
    {"a stride of 2 words: 2-way", S(8) "st.shared.u32 [%r12], %r1;", 32, SIM_COUNT_SHARED, 1,
     2, 1},
    {"a stride of 32 words: 32-way", S(128) "st.shared.f32 [%r12], %f1;", 32,
     SIM_COUNT_SHARED, 1, 32, 1},
    {"padded to 33 words: no conflict", S(132) "st.shared.f32 [%r12], %f1;", 32,
     SIM_COUNT_SHARED, 1, 1, 1},
    {"bytes of consecutive lanes: no conflict", S(1) "st.shared.u8 [%r12], %r1;", 32,
     SIM_COUNT_SHARED, 1, 1, 1},
    {"8 bytes consecutive: two half-warp phases", S(8) "st.shared.v2.f32 [%r12], {%f1, %f2};",
     32, SIM_COUNT_SHARED, 1, 2, 2},
    {"8 bytes with a stride of 16: 2-way in each half-warp",
     S(16) "st.shared.v2.f32 [%r12], {%f1, %f2};", 32, SIM_COUNT_SHARED, 1, 4, 2},
    {"8 bytes, half a warp: one phase", S(8) "st.shared.u64 [%r12], %rd1;", 16,
     SIM_COUNT_SHARED, 1, 1, 1},
    {"16 bytes consecutive: four quarter-warp phases",
     S(16) "st.shared.v4.f32 [%r12], {%f1, %f2, %f3, %f4};", 32, SIM_COUNT_SHARED, 1, 4, 4},
    {"16 bytes with a stride of 32: 2-way in each quarter-warp",
     S(32) "st.shared.v4.f32 [%r12], {%f1, %f2, %f3, %f4};", 32, SIM_COUNT_SHARED, 1, 8, 4},
    /* the uniform fast path of 16-byte loads: lanes paired on one address
     * take half-warp phases (lesson 3's broadcast LDS.128: 2 wavefronts on
     * the H200, 2026-11-29); stores keep their four */
    {"16-byte load, one address for every lane: two phases",
     "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r10];", 32, SIM_COUNT_SHARED, 1, 2, 2},
    {"16-byte load, lanes l and l^1 on one address: two phases",
     "shr.u32 %r13, %r1, 1;\nmul.lo.s32 %r11, %r13, 16;\nadd.s32 %r12, %r10, %r11;\n"
     "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r12];", 32, SIM_COUNT_SHARED, 1, 2, 2},
    {"16-byte load, lanes l and l^2 on one address: two phases",
     "shr.u32 %r13, %r1, 2;\nshl.b32 %r13, %r13, 1;\nand.b32 %r14, %r1, 1;\n"
     "add.s32 %r13, %r13, %r14;\nmul.lo.s32 %r11, %r13, 16;\nadd.s32 %r12, %r10, %r11;\n"
     "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r12];", 32, SIM_COUNT_SHARED, 1, 2, 2},
    {"16-byte store, one address for every lane: four phases",
     "st.shared.v4.f32 [%r10], {%f1, %f2, %f3, %f4};", 32, SIM_COUNT_SHARED, 1, 4, 4},
    {"16-byte load, no pairs: four phases",
     S(16) "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r12];", 32, SIM_COUNT_SHARED, 1, 4, 4},
    {"atom.shared.add, consecutive words", S(4) "atom.shared.add.u32 %r3, [%r12], 1;", 32,
     SIM_COUNT_SHARED, 1, 1, 1},
    {"a generic store that lands in shared memory", S(128) "cvt.u64.u32 %rd5, %r12;\n"
     "cvta.shared.u64 %rd6, %rd5;\nst.f32 [%rd6], %f1;", 32, SIM_COUNT_SHARED, 1, 32, 1},
};

static char ptx[16384];

START_TEST(one_count)
{
    const count_case *c = &cases[_i];
    snprintf(ptx, sizeof ptx, "%s.loc 1 5 1\n%s\nret;\n}\n", head, c->body);
    char err[256];
    sim_module *m = sim_load(ptx, err, sizeof err);
    ck_assert_msg(m, "%s: %s", c->name, err);
    uint8_t *buf = aligned_alloc(256, 16384);
    memset(buf, 0, 16384);
    ck_assert_int_eq(sim_mem_add(buf, 16384), 0);
    void *args[1] = {&buf};
    static sim_counts counts;
    memset(&counts, 0, sizeof counts);
    sim_launch L = {.grid = {1, 1, 1}, .block = {c->threads, 1, 1}, .argp = args,
                    .timeout_s = 5, .counts = &counts};
    sim_report rep;
    enum sim_status s = sim_run(m, sim_kernel(m, "t"), &L, &rep);
    ck_assert_msg(s == SIM_OK, "%s: %s", c->name, rep.message);
    ck_assert_msg(counts.n == 1, "%s: %d rows counted, want 1", c->name, counts.n);
    const sim_count_row *r = &counts.row[0];
    ck_assert_msg(r->space == c->space && r->line == 5, "%s: space %d line %u", c->name,
                  r->space, r->line);
    ck_assert_msg(r->requests == c->requests && r->units == c->units && r->ideal == c->ideal,
                  "%s (%s): %llu requests, %llu %s, ideal %llu; want %llu, %llu, %llu",
                  c->name, r->op, (unsigned long long)r->requests,
                  (unsigned long long)r->units, c->space == SIM_COUNT_GLOBAL ? "sectors"
                  : "wavefronts", (unsigned long long)r->ideal,
                  (unsigned long long)c->requests, (unsigned long long)c->units,
                  (unsigned long long)c->ideal);
    sim_mem_remove(buf);
    free(buf);
    sim_free(m);
}
END_TEST

/* Not asked, nothing counted; asked twice, the launches add up. */
START_TEST(counts_only_when_asked)
{
    snprintf(ptx, sizeof ptx, "%s%s\nret;\n}\n", head, G(4) "ld.global.f32 %f1, [%rd4];");
    char err[256];
    sim_module *m = sim_load(ptx, err, sizeof err);
    ck_assert_msg(m, "%s", err);
    uint8_t *buf = aligned_alloc(256, 16384);
    ck_assert_int_eq(sim_mem_add(buf, 16384), 0);
    void *args[1] = {&buf};
    static sim_counts counts;
    memset(&counts, 0, sizeof counts);
    sim_launch L = {.grid = {3, 1, 1}, .block = {32, 1, 1}, .argp = args};
    sim_report rep;
    ck_assert_int_eq(sim_run(m, 0, &L, &rep), SIM_OK);
    ck_assert_int_eq(counts.n, 0);
    L.counts = &counts;
    ck_assert_int_eq(sim_run(m, 0, &L, &rep), SIM_OK);
    ck_assert_int_eq(sim_run(m, 0, &L, &rep), SIM_OK);
    ck_assert_int_eq(counts.n, 1);
    ck_assert_uint_eq(counts.row[0].requests, 6);
    ck_assert_uint_eq(counts.row[0].units, 24);
    ck_assert_str_eq(counts.row[0].op, "ld.global.f32");
    sim_mem_remove(buf);
    free(buf);
    sim_free(m);
}
END_TEST

/* More counted instructions than rows (an unrolled loop): a row per line,
 * space and opcode, the line's totals whole, nothing dropped. */
START_TEST(many_instructions_fold_by_line)
{
    int at = snprintf(ptx, sizeof ptx, "%s%s.loc 1 5 1\n", head, G(4));
    for (int k = 0; k < SIM_COUNT_ROWS + 2; k++)
        at += snprintf(ptx + at, sizeof ptx - (size_t)at, "ld.global.f32 %%f1, [%%rd4+%d];\n",
                       4 * (k % 8));
    snprintf(ptx + at, sizeof ptx - (size_t)at, ".loc 1 6 1\nst.global.f32 [%%rd4], %%f1;\n"
             "ret;\n}\n");
    char err[256];
    sim_module *m = sim_load(ptx, err, sizeof err);
    ck_assert_msg(m, "%s", err);
    uint8_t *buf = aligned_alloc(256, 16384);
    ck_assert_int_eq(sim_mem_add(buf, 16384), 0);
    void *args[1] = {&buf};
    static sim_counts counts;
    memset(&counts, 0, sizeof counts);
    sim_launch L = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .argp = args, .counts = &counts};
    sim_report rep;
    ck_assert_int_eq(sim_run(m, 0, &L, &rep), SIM_OK);
    ck_assert_int_eq(counts.n, 2);
    ck_assert_int_eq(counts.dropped, 0);
    ck_assert_uint_eq(counts.row[0].line, 5);
    ck_assert_uint_eq(counts.row[0].requests, SIM_COUNT_ROWS + 2);
    ck_assert_uint_eq(counts.row[1].line, 6);
    ck_assert_uint_eq(counts.row[1].requests, 1);
    sim_mem_remove(buf);
    free(buf);
    sim_free(m);
}
END_TEST

TCase *sim_counts_tcase(void)
{
    TCase *tc = tcase_create("memory counts");
    tcase_add_loop_test(tc, one_count, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, counts_only_when_asked);
    tcase_add_test(tc, many_instructions_fold_by_line);
    return tc;
}
