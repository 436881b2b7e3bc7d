/* test_knockout_text.c: the knock-out rewrite (knockout.c, knockout_ptx.c,
 * knockout_staged.c) on hand-written PTX, no compiler and no GPU:
 *
 *   - whole rewrites, compared line by line with the files of
 *     tests/unit/fixtures/knockout/ (NAME.ptx rewritten for a kind is
 *     NAME.KIND.txt). Each expected file was read against knockout.h's
 *     contract: which instructions are redirected and how, the span
 *     counters after each write of loaded data into shared memory, the
 *     twins of the values stored there, the line marks and load counts of
 *     KNOCK_PREFETCH, the registers declared at the top of every function;
 *     a change to the rewrite shows here as the first line that differs;
 *   - the PTX line reader and writer (knockout_ptx.h) at its edges: what is
 *     an instruction, how operands split, how long each part may be;
 *   - the staged registers (knockout_staged.h): which values reach a store
 *     to shared memory, through how many steps, and the limits of the set.
 * The slow suite test_knockout.c assembles rewrites of real kernels with
 * ptxas and runs the knock-out on the host backend.
 *
 *   CK_RUN_SUITE=knockout_text build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fileio.h"
#include "knockout.h"
#include "knockout_ptx.h"
#include "knockout_staged.h"
#include "suites.h"

#define DIR "tests/unit/fixtures/knockout/"

static const knock_layout LAYOUT = {.delta = 4096, .lo = 0x10000, .hi = 0x20000,
                                    .span = 0x30000};

static char *fixture(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, DIR "%s", name);
    char *s = read_text_file(path, NULL);
    ck_assert_msg(s != NULL, "cannot read %s", path);
    return s;
}

/* `got` is `want` line for line; else the first line that differs. */
static void same_text(const char *who, const char *got, const char *want)
{
    int line = 1;
    const char *g = got, *w = want;
    while (*g && *w) {
        size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");
        ck_assert_msg(gl == wl && !strncmp(g, w, gl), "%s: line %d is\n  %.*s\nnot\n  %.*s",
                      who, line, (int)gl, g, (int)wl, w);
        g += gl + (g[gl] == '\n');
        w += wl + (w[wl] == '\n');
        line++;
    }
    ck_assert_msg(!*g && !*w, "%s: %s at line %d", who, *g ? "more lines" : "lines missing", line);
}

/* ---- whole rewrites ---------------------------------------------------- */

START_TEST(rewrites_as_expected)
{
    static const struct {
        const char *ptx, *expected;
        enum knock_kind k;
        int found;
    } cases[] = {
        {"copies.ptx", "copies.async.txt", KNOCK_ASYNC, 4},
        {"copies.ptx", "copies.bulk.txt", KNOCK_BULK, 1},
        {"copies.ptx", "copies.shared.txt", KNOCK_SHARED, 4},
        {"copies.ptx", "copies.vector.txt", KNOCK_VECTOR, 1},
        {"staged.ptx", "staged.shared.txt", KNOCK_SHARED, 5},
        {"prefetch.ptx", "prefetch.prefetch.txt", KNOCK_PREFETCH, 3},
        /* Lesson 12's expect_tx and bulk copy in one inline-asm string (one
         * PTX line), then a braced wait block: the copy, second on its
         * line, is redirected, for the bulk check and for lesson 9's
         * asynchronous-copy check alike; the block keeps its braces. */
        {"one_line.ptx", "one_line.bulk.txt", KNOCK_BULK, 1},
        {"one_line.ptx", "one_line.async.txt", KNOCK_ASYNC, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char *ptx = fixture(cases[k].ptx), *want = fixture(cases[k].expected);
        int found = -1;
        char *got = knockout_ptx(ptx, cases[k].k, &LAYOUT, &found);
        ck_assert_msg(got != NULL, "%s: nothing rewritten", cases[k].expected);
        ck_assert_msg(found == cases[k].found, "%s: %d knocked, not %d", cases[k].expected,
                      found, cases[k].found);
        same_text(cases[k].expected, got, want);
        free(got);
        free(want);
        free(ptx);
    }
}
END_TEST

START_TEST(nothing_to_rewrite)
{
    char *staged = fixture("staged.ptx"), *copies = fixture("copies.ptx");
    int found = 7;
    /* Loads and no prefetch: nothing to judge a prefetch by. */
    ck_assert_ptr_null(knockout_ptx(staged, KNOCK_PREFETCH, &LAYOUT, &found));
    ck_assert_int_eq(found, 0);
    found = 7;
    ck_assert_ptr_null(knockout_ptx(staged, KNOCK_ASYNC, &LAYOUT, &found));
    ck_assert_int_eq(found, 0);
    found = 7;
    ck_assert_ptr_null(knockout_ptx(copies, KNOCK_CONST, &LAYOUT, &found));
    ck_assert_int_eq(found, 0);
    found = 7;
    ck_assert_ptr_null(knockout_ptx(copies, KNOCK_NONE, &LAYOUT, &found));
    ck_assert_int_eq(found, 0);
    found = 7;
    ck_assert_ptr_null(knockout_ptx(NULL, KNOCK_ASYNC, &LAYOUT, &found));
    ck_assert_int_eq(found, 0);
    free(staged);
    free(copies);
}
END_TEST

START_TEST(first_line_and_declarations)
{
    static const char ptx[] = ".visible .entry k()\n{\n"
                              "\tcp.async.ca.shared.global [%r1], [%rd2], 4;\n\tret;\n}\n";
    knock_layout L = {.delta = -4096, .span = 0};
    int found;
    char *out = knockout_ptx(ptx, KNOCK_ASYNC, &L, &found);
    ck_assert_int_eq(found, 1);
    same_text("one copy, delta -4096, no span", out,
              "// knockout 1 delta -4096 span 0\n"
              ".visible .entry k()\n{\n"
              "\t.reg .b64 %koa<2>;\n\t.reg .pred %kop<2>;\n\t.reg .b16 %koh<2>;\n"
              "\t.reg .b32 %kow<2>;\n\t.reg .b32 %kon<1>;\n\tmov.u32 %kon0, 0;\n"
              "\tadd.s64 %koa0, %rd2, -4096;\n"
              "\tcp.async.ca.shared.global [%r1], [%koa0], 4;\n\tret;\n}\n");
    free(out);
    /* KNOCK_SHARED without a span address: the copy is redirected and
     * nothing is counted. */
    out = knockout_ptx(ptx, KNOCK_SHARED, &L, &found);
    ck_assert_int_eq(found, 1);
    ck_assert_ptr_null(strstr(out, "red.global.m"));
    ck_assert_ptr_nonnull(strstr(out, "// knockout 3 delta -4096 span 0\n"));
    free(out);
    /* A "{" that opens no function gets no declarations; a .func's does. */
    static const char two[] = "{\n}\n.func f()\n{\n\tcp.async.cg.shared.global [%r1], [%rd2], 16;\n"
                              "}\n";
    out = knockout_ptx(two, KNOCK_ASYNC, &LAYOUT, &found);
    ck_assert_int_eq(found, 1);
    same_text("a .func", out,
              "// knockout 1 delta 4096 span 196608\n{\n}\n.func f()\n{\n"
              "\t.reg .b64 %koa<2>;\n\t.reg .pred %kop<2>;\n\t.reg .b16 %koh<2>;\n"
              "\t.reg .b32 %kow<2>;\n\t.reg .b32 %kon<1>;\n\tmov.u32 %kon0, 0;\n"
              "\tadd.s64 %koa0, %rd2, 4096;\n"
              "\tcp.async.cg.shared.global [%r1], [%koa0], 16;\n}\n");
    free(out);
}
END_TEST

START_TEST(what_is_redirected)
{
    static const struct {
        const char *line;
        enum knock_kind k;
        int knocked;
    } lines[] = {
        {"cp.async.ca.shared.global [%r1], [%rd2], 4;", KNOCK_ASYNC, 1},
        {"cp.async.cg.shared.global [%r1], [%rd2], 16;", KNOCK_ASYNC, 1},
        {"cp.async.ca.shared.global [%r1];", KNOCK_ASYNC, 0},
        {"cp.async.ca.shared.global [%r1], %rd2, 4;", KNOCK_ASYNC, 0},
        /* A bulk copy is an asynchronous copy (lesson 9's checks count it). */
        {"cp.async.bulk.shared::cluster.global [%r1], [%rd2], 64, [%r2];", KNOCK_ASYNC, 1},
        {"cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%r1], [%rd2], 64, "
         "[%r2];", KNOCK_ASYNC, 1},
        /* A tensor copy's source is a tensor map, not an address to move; a
         * reduction and a store go to device memory; a prefetch moves
         * nothing into shared memory. */
        {"cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
         "[%r1], [%rd2, {%r3}], [%r2];", KNOCK_ASYNC, 0},
        {"cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd1], [%r2], 64;",
         KNOCK_ASYNC, 0},
        {"cp.async.bulk.prefetch.L2.global [%rd2], 64;", KNOCK_ASYNC, 0},
        {"cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r2], 64;", KNOCK_ASYNC, 0},
        /* Several instructions on one line, a braced block, comments between:
         * each instruction is read. */
        {"mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r2], 64; "
         "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd2], "
         "64, [%r2];", KNOCK_BULK, 1},
        {"mov.u32 %r1, 0; /* then */ cp.async.ca.shared.global [%r1], [%rd2], 4; // x",
         KNOCK_ASYNC, 1},
        {"{ .reg .pred p; setp.ne.b32 p, %r3, 0; @p cp.async.ca.shared.global [%r1], "
         "[%rd2], 4; }", KNOCK_ASYNC, 1},
        {"cp.async.bulk.shared::cluster.global [%r1], [%rd2], 64, [%r2];", KNOCK_BULK, 1},
        {"cp.async.bulk.shared::cta.shared::cluster [%r1], [%r3], 64, [%r2];", KNOCK_BULK, 0},
        {"cp.async.bulk.global.shared::cta [%rd1], [%r2], 64;", KNOCK_BULK, 0},
        {"cp.async.ca.shared.global [%r1], [%rd2], 4;", KNOCK_BULK, 0},
        {"ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];", KNOCK_VECTOR, 1},
        {"ld.global.nc.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2+16];", KNOCK_VECTOR, 1},
        {"ld.global.v2.f64 {%fd1, %fd2}, [%rd2];", KNOCK_VECTOR, 0},
        {"ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r2];", KNOCK_VECTOR, 0},
        {"ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];", KNOCK_ASYNC, 0},
        {"cp.async.ca.shared.global [%r1], [%rd2], 4;", KNOCK_SHARED, 1},
        {"cp.async.bulk.shared::cluster.global [%r1], [%rd2], 64, [%r2];", KNOCK_SHARED, 1},
        {"ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];", KNOCK_SHARED, 0},
        {"prefetch.global.L2 [%rd2];", KNOCK_PREFETCH, 1},
        {"prefetch.global.L2 [%rd2], [%rd3];", KNOCK_PREFETCH, 0},
        {"prefetch.global.L2 [x];", KNOCK_PREFETCH, 0},
        {"prefetch.global.L1 [%rd2];", KNOCK_PREFETCH, 0},
        {"prefetch.global.L2 [%rd2];", KNOCK_ASYNC, 0},
    };
    char ptx[512];
    for (size_t k = 0; k < sizeof lines / sizeof *lines; k++) {
        snprintf(ptx, sizeof ptx, ".visible .entry k()\n{\n\t.reg .b32 %%r<4>;\n\t%s\n}\n",
                 lines[k].line);
        int found;
        char *out = knockout_ptx(ptx, lines[k].k, &LAYOUT, &found);
        ck_assert_msg(found == lines[k].knocked && !out == !lines[k].knocked,
                      "%s as %s: %d knocked, not %d", lines[k].line, knock_name(lines[k].k),
                      found, lines[k].knocked);
        free(out);
    }
}
END_TEST

START_TEST(names_of_the_kinds)
{
    ck_assert_str_eq(knock_name(KNOCK_ASYNC), "its asynchronous copies (cp.async)");
    ck_assert_str_eq(knock_name(KNOCK_BULK), "its bulk copies (cp.async.bulk)");
    ck_assert_str_eq(knock_name(KNOCK_SHARED), "what it stages in shared memory");
    ck_assert_str_eq(knock_name(KNOCK_VECTOR), "its vector loads (ld.global.v4)");
    ck_assert_str_eq(knock_name(KNOCK_PREFETCH), "its L2 prefetches");
    ck_assert_str_eq(knock_name(KNOCK_CONST), "its __constant__ table");
    ck_assert_str_eq(knock_name(KNOCK_NONE), "the mechanism");
}
END_TEST

/* ---- writes into shared memory: their sizes and addresses --------------- */

/* The span lines after `store` (a store of a loaded %f1, or a copy). */
static char *stored(const char *regs, const char *store)
{
    char ptx[1024];
    snprintf(ptx, sizeof ptx, ".visible .entry k()\n{\n\t.reg .f32 %%f<4>;\n%s"
             "\tld.global.f32 %%f1, [%%rd1];\n\t%s\n\tret;\n}\n", regs, store);
    int found;
    char *out = knockout_ptx(ptx, KNOCK_SHARED, &LAYOUT, &found);
    ck_assert_msg(out != NULL, "%s: nothing rewritten", store);
    return out;
}

/* The store's address keeps its own registers, even one that also holds
 * a loaded value with a twin; after an instruction that defines a vector
 * of registers, only the ones it defines are copied to their twins. */
START_TEST(twins_only_where_values_go)
{
    static const char ptx[] = ".visible .entry k()\n{\n\t.reg .f32 %f<9>;\n\t.reg .b32 %r<9>;\n"
                              "\t.reg .b64 %rd<9>;\n"
                              "\tld.global.u32 %r5, [%rd1];\n\tst.shared.u32 [%r5], %r5;\n"
                              "\tld.global.f32 %f2, [%rd1];\n\tld.global.f32 %f1, [%rd1];\n"
                              "\tmov.b64 {%f1, %f2}, %rd3;\n\tld.shared.f32 %f3, [%r1];\n"
                              "\tst.shared.f32 [%r1], %f1;\n\tst.shared.f32 [%r1], %f2;\n"
                              "\tst.shared.f32 [%r1], %f3;\n\tret;\n}\n";
    int found;
    char *out = knockout_ptx(ptx, KNOCK_SHARED, &LAYOUT, &found);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(strstr(out, "\tst.shared.u32 [%r5], %kotr5;\n"), "%s", out);
    ck_assert_msg(strstr(out, "\tmov.b64 \t{%f1, %f2}, %rd3;\n") ||
                  strstr(out, "\tmov.b64 {%f1, %f2}, %rd3;\n"), "%s", out);
    ck_assert_msg(strstr(out, "mov.f32 %kotf1, %f1;\n\tmov.f32 %kotf2, %f2;\n"
                              "\tld.shared.f32 %f3, [%r1];\n\tst.shared"), "%s", out);
    free(out);
}
END_TEST

/* A store's operand is rewritten whole up to the operand's own bound (127
 * characters): four registers of 22 characters (inline assembly names its
 * own) make a vector of 96, 108 with their twins' names. */
START_TEST(long_operands_twinned_whole)
{
    static const char ptx[] = ".visible .entry k()\n{\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<9>;\n"
                              "\t.reg .f32 %a_long_register_name_<4>;\n"
                              "\tld.global.v4.f32 {%a_long_register_name_0, %a_long_register_name_1, "
                              "%a_long_register_name_2, %a_long_register_name_3}, [%rd1];\n"
                              "\tst.shared.v4.f32 [%r1], {%a_long_register_name_0, "
                              "%a_long_register_name_1, %a_long_register_name_2, "
                              "%a_long_register_name_3};\n\tret;\n}\n";
    int found;
    char *out = knockout_ptx(ptx, KNOCK_SHARED, &LAYOUT, &found);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(strstr(out, "[%r1], {%kota_long_register_name_0, %kota_long_register_name_1, "
                              "%kota_long_register_name_2, %kota_long_register_name_3};"),
                  "%s", out);
    free(out);
}
END_TEST

/* A stored operand is rewritten whole up to its bound, KO_OP_LEN - 1
 * characters (twin_operand): a twin's name that ends on the last of them
 * is kept, one that would end one past it is cut with what follows it.
 * Registers of 27 characters, twins of 30 ("%kot" and the 26 after '%'). */
static staged T;

static const char *store_twinned(const char *value)
{
    static insn st;
    memset(&st, 0, sizeof st);
    snprintf(st.op, sizeof st.op, "st.shared.v4.f32");
    snprintf(st.ops[0], KO_OP_LEN, "[%%r1]");
    snprintf(st.ops[1], KO_OP_LEN, "%s", value);
    st.nops = 2;
    sbuf b = {0};
    ck_assert_int_eq(staged_store(&b, &st, &T), 1);
    free(b.s);
    return st.ops[1];
}

START_TEST(twinned_operand_bound)
{
    char r[4][KO_REG_LEN], t[4][KO_REG_LEN + 8], value[2 * KO_OP_LEN], want[2 * KO_OP_LEN];
    memset(&T, 0, sizeof T);
    for (int i = 0; i < 4; i++) {
        snprintf(r[i], sizeof r[i], "%%abcdefghijklmnopqrstuvwxy%d", i);
        snprintf(t[i], sizeof t[i], "%%kot%s", r[i] + 1);
        ck_assert_uint_eq(strlen(r[i]), 27);
        ck_assert_uint_eq(strlen(t[i]), 30);
        snprintf(T.reg[T.n], KO_REG_LEN, "%s", r[i]);
        T.has_load[T.n++] = 1;
    }
    /* 1 + 4 * 30 + 3 * 2 = 127: the last twin ends on the bound, the brace
     * after it is cut. */
    snprintf(value, sizeof value, "{%s, %s, %s, %s}", r[0], r[1], r[2], r[3]);
    snprintf(want, sizeof want, "{%s, %s, %s, %s", t[0], t[1], t[2], t[3]);
    ck_assert_uint_eq(strlen(want), KO_OP_LEN - 1);
    ck_assert_str_eq(store_twinned(value), want);
    /* A last register one character shorter: its twin ends at 126, and
     * the closing brace is the 127th character, kept. */
    snprintf(T.reg[T.n], KO_REG_LEN, "%%abcdefghijklmnopqrstuvwx9");
    T.has_load[T.n++] = 1;
    snprintf(value, sizeof value, "{%s, %s, %s, %%abcdefghijklmnopqrstuvwx9}", r[0], r[1], r[2]);
    snprintf(want, sizeof want, "{%s, %s, %s, %%kotabcdefghijklmnopqrstuvwx9}", t[0], t[1], t[2]);
    ck_assert_uint_eq(strlen(want), KO_OP_LEN - 1);
    ck_assert_str_eq(store_twinned(value), want);
    /* One blank more: the last twin would end at 128, so it is left out
     * with the brace, and the operand ends before it. */
    snprintf(value, sizeof value, "{%s,  %s, %s, %s}", r[0], r[1], r[2], r[3]);
    snprintf(want, sizeof want, "{%s,  %s, %s, ", t[0], t[1], t[2]);
    ck_assert_str_eq(store_twinned(value), want);
    /* A name past a register's bound (31 characters) is known by its first
     * 31, as operand_regs gives them to the staged set; its twin keeps the
     * first 26 after the '%'. */
    const char *tall = "%abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN";
    memset(&T, 0, sizeof T);
    snprintf(T.reg[0], KO_REG_LEN, "%.31s", tall);
    T.has_load[0] = 1;
    T.n = 1;
    ck_assert_str_eq(store_twinned(tall), "%kotabcdefghijklmnopqrstuvwxyz");
    snprintf(value, sizeof value, "{%s, %s}", tall, tall);
    ck_assert_str_eq(store_twinned(value),
                     "{%kotabcdefghijklmnopqrstuvwxyz, %kotabcdefghijklmnopqrstuvwxyz}");
}
END_TEST

START_TEST(span_of_each_write)
{
    static const struct {
        const char *store, *bytes;
    } sizes[] = {
        {"st.shared.f32 [%rd2], %f1;", "4"},
        {"st.shared.b8 [%rd2], %f1;", "1"},
        {"st.shared.u16 [%rd2], %f1;", "2"},
        {"st.shared.f64 [%rd2], %f1;", "8"},
        {"st.shared.v2.f32 [%rd2], {%f1, %f1};", "8"},
        {"st.shared.v4.f32 [%rd2], {%f1, %f1, %f1, %f1};", "16"},
        {"st.shared.v2.u64 [%rd2], {%f1, %f1};", "16"},
        {"st.volatile.shared.f32 [%rd2], %f1;", "4"},
        {"cp.async.ca.shared.global [%rd2], [%rd3], 8, 8;", "8"},
        {"cp.async.cg.shared.global [%rd2], [%rd3], %r9;", "%r9"},
    };
    char want[128];
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        char *out = stored("\t.reg .b64 %rd<4>;\n", sizes[k].store);
        snprintf(want, sizeof want, "add.u32 %%kow1, %%kow1, %s;\n", sizes[k].bytes);
        ck_assert_msg(strstr(out, want), "%s: no '%s' in\n%s", sizes[k].store, want, out);
        ck_assert_msg(strstr(out, "mov.b64 %koa"), "%s: a 64-bit address not copied:\n%s",
                      sizes[k].store, out);
        free(out);
    }
    /* The address: 32-bit registers widened, symbols taken, offsets added;
     * a register of no declared width is not counted. */
    char *out = stored("\t.reg .b32 %r<4>;\n", "st.shared.f32 [%r2+12], %f1;");
    ck_assert_msg(strstr(out, "cvt.u64.u32 %koa1, %r2;\n\tadd.s64 %koa1, %koa1, 12;\n"
                              "\tcvt.u32.u64 %kow1, %koa1;\n"), "%s", out);
    free(out);
    out = stored("", "st.shared.f32 [tile], %f1;");
    ck_assert_msg(strstr(out, "mov.u64 %koa1, tile;\n\tcvt.u32.u64 %kow1, %koa1;\n"), "%s", out);
    free(out);
    out = stored("", "st.shared.f32 [tile_$2+8], %f1;");
    ck_assert_msg(strstr(out, "mov.u64 %koa1, tile_$2;\n\tadd.s64 %koa1, %koa1, 8;\n"), "%s",
                  out);
    free(out);
    out = stored("", "st.shared.f32 [%q2], %f1;");
    ck_assert_msg(strstr(out, "st.shared.f32 [%q2], %kotf1;") && !strstr(out, "red.global.m"),
                  "%s", out);
    free(out);
    out = stored("", "st.shared.f32 [-4], %f1;");
    ck_assert_msg(strstr(out, "st.shared.f32 [-4], %kotf1;") && !strstr(out, "red.global.m"),
                  "%s", out);
    free(out);
}
END_TEST

/* ---- the PTX line reader and writer ------------------------------------ */

static void parsed(const char *line, const char *pred, const char *op, int nops,
                   const char *const *ops)
{
    insn in;
    ck_assert_msg(parse_insn(line, &in) == 1, "'%s' is no instruction", line);
    ck_assert_msg(!strcmp(in.pred, pred) && !strcmp(in.op, op), "'%s': '%s' '%s'", line,
                  in.pred, in.op);
    ck_assert_msg(in.nops == nops, "'%s': %d operands, not %d", line, in.nops, nops);
    for (int i = 0; i < nops; i++)
        ck_assert_msg(!strcmp(in.ops[i], ops[i]), "'%s': operand %d is '%s', not '%s'", line,
                      i, in.ops[i], ops[i]);
}

START_TEST(instructions_split)
{
    parsed("\tld.global.f32 \t%f1, [%rd1];", "", "ld.global.f32", 2,
           (const char *[]){"%f1", "[%rd1]"});
    parsed("\t@%p1 bra \tL1;", "@%p1", "bra", 1, (const char *[]){"L1"});
    parsed("  @!%p2\tst.shared.v2.f32 [%r1+8], {%f1, %f2};", "@!%p2", "st.shared.v2.f32", 2,
           (const char *[]){"[%r1+8]", "{%f1, %f2}"});
    parsed("\tret;", "", "ret", 0, NULL);
    parsed("ret ;", "", "ret", 0, NULL);
    parsed("add.s32 %r1 , %r2\t, 3 ; // x, y", "", "add.s32", 3,
           (const char *[]){"%r1", "%r2", "3"});
    parsed("op a,,b;", "", "op", 2, (const char *[]){"a", "b"});
    parsed("op [a, b], {c, [d, e]}, f;", "", "op", 3,
           (const char *[]){"[a, b]", "{c, [d, e]}", "f"});
    parsed("abs.f32 %f1, %f2;", "", "abs.f32", 2, (const char *[]){"%f1", "%f2"});
    parsed("zz;", "", "zz", 0, NULL);
    /* At most KO_MAX_OPS operands are kept. */
    parsed("op a, b, c, d, e, f, g, h;", "", "op", 8,
           (const char *[]){"a", "b", "c", "d", "e", "f", "g", "h"});
    parsed("op a, b, c, d, e, f, g, h, i;", "", "op", 8,
           (const char *[]){"a", "b", "c", "d", "e", "f", "g", "h"});
    /* An operand is cut to KO_OP_LEN - 1 characters. */
    char line[300], want[KO_OP_LEN];
    memset(want, 'x', sizeof want);
    want[KO_OP_LEN - 1] = 0;
    snprintf(line, sizeof line, "op %sxyz, b;", want);
    parsed(line, "", "op", 2, (const char *[]){want, "b"});
    /* Not instructions: labels, directives, braces, comments, a line with
     * no ';', a first character outside a..z. */
    static const char *const not_insn[] = {
        "L1:", "$L__BB0_1:", "\t.reg .f32 %f<3>;", "}", "{", "// ld.global.f32 %f1, [%rd1];",
        "ld.global.f32 %f1, [%rd1]", "", "\t", "`x;", "{x;", "Abs.f32 %f1, %f2;", "@%p1",
        "@%p1 ;",
    };
    insn in;
    for (size_t k = 0; k < sizeof not_insn / sizeof *not_insn; k++)
        ck_assert_msg(parse_insn(not_insn[k], &in) == 0, "'%s' taken for an instruction",
                      not_insn[k]);
}
END_TEST

START_TEST(instructions_written)
{
    insn in;
    sbuf b = {0};
    parse_insn("  @!%p2\tst.shared.v2.f32 [%r1+8] , {%f1, %f2} ;", &in);
    emit_insn(&b, &in);
    parse_insn("ret;", &in);
    emit_insn(&b, &in);
    parse_insn("bra.uni L1;", &in);
    emit_insn(&b, &in);
    ck_assert_str_eq(b.s, "\t@!%p2 st.shared.v2.f32 [%r1+8], {%f1, %f2};\n\tret;\n"
                          "\tbra.uni L1;\n");
    free(b.s);
}
END_TEST

START_TEST(strings_grow)
{
    /* Pieces that end exactly at the capacity, and past it. */
    char piece[300], want[2000] = "";
    memset(piece, 'a', sizeof piece);
    piece[256] = 0;
    sbuf b = {0};
    for (int k = 0; k < 6; k++) {
        piece[0] = (char)('0' + k);
        sb_add(&b, "%s", piece + k * 40);
        strcat(want, piece + k * 40);
    }
    sb_add(&b, "%s", "");
    sb_add(&b, "%d;", 42);
    strcat(want, "42;");
    ck_assert_str_eq(b.s, want);
    ck_assert_uint_eq(b.len, strlen(want));
    ck_assert_uint_gt(b.cap, b.len);
    free(b.s);
    b = (sbuf){0};
    sb_add(&b, "%s", piece);
    sb_add(&b, "%s", piece);
    ck_assert_uint_eq(b.len, 512);
    ck_assert_uint_eq(strlen(b.s), 512);
    free(b.s);
}
END_TEST

START_TEST(strings_grow_geometrically)
{
    /* The rewritten PTX is built a line at a time: the buffer at least
     * doubles each time it grows, or a large kernel's rewrite takes time
     * quadratic in its length. */
    sbuf b = {0};
    int grew = 0;
    for (int i = 0; i < 20000; i++) {
        size_t before = b.cap;
        sb_add(&b, "\tmov.u32 %%r%d, %d;\n", i, i);
        if (b.cap != before) {
            ck_assert_uint_ge(b.cap, 2 * before);
            grew++;
        }
    }
    ck_assert_int_ge(grew, 5);
    ck_assert_uint_eq(b.len, strlen(b.s));
    free(b.s);
}
END_TEST

/* reg_decl_of on the first name of the one statement of `text`. */
static int reg_decl(const char *text, char *type, char *prefix, int *count)
{
    ptx_prog *p = ptx_read(text);
    ck_assert_ptr_nonnull(p);
    int r = p->n == 1 && reg_decl_of(&p->stmt[0], 0, type, prefix, count);
    ptx_free(p);
    return r;
}

START_TEST(operands_read)
{
    char regs[4][KO_REG_LEN];
    ck_assert_int_eq(operand_regs("{%f1, %f2}", regs), 2);
    ck_assert_str_eq(regs[0], "%f1");
    ck_assert_str_eq(regs[1], "%f2");
    ck_assert_int_eq(operand_regs("[%rd2+8]", regs), 1);
    ck_assert_str_eq(regs[0], "%rd2");
    ck_assert_int_eq(operand_regs("%r1|%p2", regs), 2);
    ck_assert_str_eq(regs[0], "%r1");
    ck_assert_str_eq(regs[1], "%p2");
    ck_assert_int_eq(operand_regs("0f3F800000", regs), 0);
    ck_assert_int_eq(operand_regs("{%r1, %r2, %r3, %r4, %r5}", regs), 4);
    ck_assert_str_eq(regs[3], "%r4");
    static const char *const ends[] = {"%a,", "%a}", "%a |", "%a|", "%a]", "%a+4", "%a;"};
    for (size_t k = 0; k < sizeof ends / sizeof *ends; k++) {
        ck_assert_int_eq(operand_regs(ends[k], regs), 1);
        ck_assert_msg(!strcmp(regs[0], "%a"), "'%s' gives '%s'", ends[k], regs[0]);
    }
    char longreg[64], want[KO_REG_LEN];
    memset(longreg, 'r', sizeof longreg);
    longreg[0] = '%';
    longreg[40] = 0;
    memcpy(want, longreg, KO_REG_LEN - 1);
    want[KO_REG_LEN - 1] = 0;
    ck_assert_int_eq(operand_regs(longreg, regs), 1);
    ck_assert_str_eq(regs[0], want);

    char reg[KO_OP_LEN], rest[KO_OP_LEN];
    ck_assert_int_eq(split_address("[%rd5+8]", reg, rest), 1);
    ck_assert_str_eq(reg, "%rd5");
    ck_assert_str_eq(rest, "+8");
    ck_assert_int_eq(split_address("[%rd5]", reg, rest), 1);
    ck_assert_str_eq(reg, "%rd5");
    ck_assert_str_eq(rest, "");
    ck_assert_int_eq(split_address("[x]", reg, rest), 0);
    ck_assert_int_eq(split_address("[x+%r1]", reg, rest), 0);
    ck_assert_int_eq(split_address("%rd5", reg, rest), 0);

    char type[16], prefix[KO_REG_LEN];
    int count;
    ck_assert_int_eq(reg_decl("\t.reg .f32 \t%f<111>;", type, prefix, &count), 1);
    ck_assert_str_eq(type, "f32");
    ck_assert_str_eq(prefix, "%f");
    ck_assert_int_eq(count, 111);
    ck_assert_int_eq(reg_decl(".reg .pred %p<3>;", type, prefix, &count), 1);
    ck_assert_str_eq(type, "pred");
    ck_assert_int_eq(reg_decl(".reg .b32 r<3>;", type, prefix, &count), 0);
    ck_assert_int_eq(reg_decl(".reg .b32 %r;", type, prefix, &count), 0);
    ck_assert_int_eq(reg_decl(".param .b32 %r<3>;", type, prefix, &count), 0);
    /* Every name of a declaration of several. */
    ptx_prog *p = ptx_read(".reg .b32 %a, %q<7>;");
    ck_assert_int_eq(reg_names(&p->stmt[0]), 2);
    ck_assert_int_eq(reg_decl_of(&p->stmt[0], 0, type, prefix, &count), 0);
    ck_assert_int_eq(reg_decl_of(&p->stmt[0], 1, type, prefix, &count), 1);
    ck_assert_str_eq(prefix, "%q");
    ck_assert_int_eq(count, 7);
    ck_assert_int_eq(reg_decl_of(&p->stmt[0], 2, type, prefix, &count), 0);
    ptx_free(p);
}
END_TEST

START_TEST(kinds_of_instruction)
{
    static const struct {
        const char *op;
        int global_load, shared_store, writes;
    } ops[] = {
        {"ld.global.f32", 1, 0, 1},
        {"ld.volatile.global.u32", 1, 0, 1},
        {"ld.relaxed.gpu.global.u32", 1, 0, 1},
        {"ld.shared.f32", 0, 0, 1},
        {"ldu.global.f32", 0, 0, 1},
        {"st.shared.f32", 0, 1, 0},
        {"st.volatile.shared.u32", 0, 1, 0},
        {"st.global.f32", 0, 0, 0},
        {"cp.async.ca.shared.global", 0, 0, 0},
        {"prefetch.global.L2", 0, 0, 0},
        {"bar.sync", 0, 0, 0},
        {"barrier.sync", 0, 0, 0},
        {"membar.gl", 0, 0, 0},
        {"fence.proxy.async", 0, 0, 0},
        {"red.global.add.u32", 0, 0, 0},
        {"ret", 0, 0, 0},
        {"bra.uni", 0, 0, 0},
        {"call.uni", 0, 0, 0},
        {"exit", 0, 0, 0},
        {"mbarrier.init.shared.b64", 0, 0, 0},
        {"mbarrier.arrive.noComplete.shared.b64", 0, 0, 0},
        {"mbarrier.arrive.shared.b64", 0, 0, 1},
        {"redux.sync.add.u32", 0, 0, 1},
        {"rem.s32", 0, 0, 1},
        {"brev.b32", 0, 0, 1},
        {"mov.u32", 0, 0, 1},
        {"setp.lt.s32", 0, 0, 1},
        {"atom.global.add.u32", 0, 0, 1},
    };
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        ck_assert_msg(!is_global_load(ops[k].op) == !ops[k].global_load, "%s", ops[k].op);
        ck_assert_msg(!is_shared_store(ops[k].op) == !ops[k].shared_store, "%s", ops[k].op);
        ck_assert_msg(!writes_operand0(ops[k].op) == !ops[k].writes, "%s", ops[k].op);
    }
    ck_assert(starts("abc", "ab") && starts("abc", "") && !starts("ab", "abc"));
}
END_TEST

/* ---- staged registers -------------------------------------------------- */

/* The staged set of `body`, read by the PTX reader. */
static staged S;

static void collect(const char *body)
{
    ptx_prog *p = ptx_read(body);
    ck_assert_ptr_nonnull(p);
    staged_collect(p, &S);
    ptx_free(p);
}

static int staged_with_load(const char *reg)
{
    for (int i = 0; i < S.n; i++)
        if (!strcmp(S.reg[i], reg))
            return S.has_load[i] ? 2 : 1;
    return 0;
}

#define REGS "\t.reg .pred %p<3>;\n\t.reg .f32 %f<9>;\n\t.reg .b32 %r<9>;\n" \
             "\t.reg .b64 %rd<9>;\n\t.reg .f64 %fd<9>;\n"

START_TEST(values_that_reach_shared_memory)
{
    /* A loop-carried chain: %f3 comes from %f2, which comes from %f1, which
     * is loaded below both, so the set grows over several passes. */
    collect(REGS "$L1:\n\tmov.f32 %f3, %f2;\n\tst.shared.f32 [%r1], %f3;\n"
            "\tmov.f32 %f2, %f1;\n\tld.global.f32 %f1, [%rd1];\n\t@%p1 bra $L1;\n");
    ck_assert_int_eq(staged_with_load("%f3"), 2);
    ck_assert_int_eq(staged_with_load("%f2"), 2);
    ck_assert_int_eq(staged_with_load("%f1"), 2);
    ck_assert_int_eq(S.nprefix, 5);
    ck_assert_str_eq(S.prefix[1], "%f");
    ck_assert_str_eq(S.type[1], "f32");
    /* Every pure operation passes the load on; each of its sources is
     * staged; predicates are never staged. */
    static const char *const pure[] = {
        "mov.f32 %f2, %f1", "cvt.rn.f32.f64 %f2, %fd1", "add.f32 %f2, %f1, %f4",
        "sub.f32 %f2, %f4, %f1", "mul.f32 %f2, %f1, 0f40000000", "mad.lo.s32 %r2, %r1, 3, %r4",
        "fma.rn.f32 %f2, %f4, %f5, %f1", "div.rn.f32 %f2, %f1, %f4", "rcp.rn.f32 %f2, %f1",
        "sqrt.rn.f32 %f2, %f1", "rsqrt.approx.f32 %f2, %f1", "neg.f32 %f2, %f1",
        "abs.f32 %f2, %f1", "min.f32 %f2, %f1, %f4", "max.f32 %f2, %f4, %f1",
        "selp.f32 %f2, %f1, %f4, %p1", "and.b32 %r2, %r1, 255", "or.b32 %r2, %r1, 1",
        "xor.b32 %r2, %r1, 1", "not.b32 %r2, %r1", "shl.b32 %r2, %r1, 2", "shr.u32 %r2, %r1, 2",
        "ex2.approx.f32 %f2, %f1", "lg2.approx.f32 %f2, %f1", "copysign.f32 %f2, %f4, %f1",
    };
    char body[512];
    for (size_t k = 0; k < sizeof pure / sizeof *pure; k++) {
        int wide = strstr(pure[k], "%r2") != NULL, from_fd = strstr(pure[k], "%fd1") != NULL;
        snprintf(body, sizeof body, "%s\tld.global.%s %s1, [%%rd1];\n\t%s;\n"
                 "\tst.shared.%s [%%r3], %s2;\n", REGS, from_fd ? "f64" : wide ? "u32" : "f32",
                 from_fd ? "%fd" : wide ? "%r" : "%f", pure[k], wide ? "u32" : "f32",
                 wide ? "%r" : "%f");
        collect(body);
        ck_assert_msg(staged_with_load(wide ? "%r2" : "%f2") == 2, "%s: the load does not "
                      "reach the store", pure[k]);
        ck_assert_msg(staged_with_load(from_fd ? "%fd1" : wide ? "%r1" : "%f1") == 2, "%s",
                      pure[k]);
        ck_assert_msg(!staged_with_load("%p1"), "%s: a predicate staged", pure[k]);
    }
    /* Not pure: its result keeps its own value; a vector destination; an
     * operand in memory; one operand only. */
    static const char *const other[] = {
        "ld.shared.f32 %f2, [%r1]", "atom.shared.add.f32 %f2, [%r1], %f1",
        "mov.b64 {%f2, %f4}, %rd1", "add.f32 %f2, [%f1], 1", "mov.f32 %f2",
        "tex.1d.v4.f32.s32 %f2, [t, {%f1}]", "shfl.sync.idx.b32 %f2, %f1, 0, 31, -1",
    };
    for (size_t k = 0; k < sizeof other / sizeof *other; k++) {
        snprintf(body, sizeof body, "%s\tld.global.f32 %%f1, [%%rd1];\n\t%s;\n"
                 "\tst.shared.f32 [%%r3], %%f2;\n", REGS, other[k]);
        collect(body);
        ck_assert_msg(staged_with_load("%f2") == 1, "%s: %d", other[k], staged_with_load("%f2"));
        ck_assert_msg(staged_with_load("%f1") == 0, "%s: its source staged", other[k]);
    }
    /* An unpacking move with a sink ("_") has one destination register,
     * but a vector destination all the same: not pure, its source is not
     * staged. */
    collect(REGS "\tld.global.u64 %rd1, [%rd2];\n\tmov.b64 {%f2, _}, %rd1;\n"
            "\tst.shared.f32 [%r3], %f2;\n");
    ck_assert_int_eq(staged_with_load("%f2"), 1);
    ck_assert_int_eq(staged_with_load("%rd1"), 0);
    /* A load straight into the stored register, and into a vector of
     * them. */
    collect(REGS "\tld.global.v2.f32 {%f1, %f2}, [%rd1];\n\tst.shared.f32 [%r3], %f2;\n");
    ck_assert_int_eq(staged_with_load("%f2"), 2);
    ck_assert_int_eq(staged_with_load("%f1"), 0);
    /* Two loaded halves packed into one register: a pure move. */
    collect(REGS "\tld.global.v2.f32 {%f1, %f2}, [%rd1];\n\tmov.b64 %rd2, {%f1, %f2};\n"
            "\tst.shared.u64 [%r1], %rd2;\n");
    ck_assert_int_eq(staged_with_load("%rd2"), 2);
    ck_assert_int_eq(staged_with_load("%f1"), 2);
    ck_assert_int_eq(staged_with_load("%f2"), 2);
    /* A load's destination is its own: a vector operand read before it
     * (two registers) lends it no second one. */
    collect(REGS "\tmov.b64 %rd1, {%f1, %f2};\n\tld.global.f32 %f3, [%rd2];\n"
            "\tst.shared.f32 [%r1], %f2;\n\tst.shared.u64 [%r1], %rd1;\n");
    ck_assert_int_eq(staged_with_load("%f2"), 1);
    ck_assert_int_eq(staged_with_load("%rd1"), 1);
    ck_assert_int_eq(staged_with_load("%f3"), 0);
    /* Registers of no declared prefix are not followed. */
    collect(REGS "\tld.global.f32 %x1, [%rd1];\n\tst.shared.f32 [%r3], %x1;\n");
    ck_assert_int_eq(S.n, 0);
    ck_assert_int_eq(staged_reg_bits(&S, "%r5"), 32);
    ck_assert_int_eq(staged_reg_bits(&S, "%rd5"), 64);
    ck_assert_int_eq(staged_reg_bits(&S, "%fd12"), 64);
    ck_assert_int_eq(staged_reg_bits(&S, "%r"), 32);
    ck_assert_int_eq(staged_reg_bits(&S, "%x1"), 0);
    ck_assert_int_eq(staged_reg_bits(&S, "%rdx1"), 0);
}
END_TEST

/* Only the body's own instructions count: a body that ends on an
 * instruction (no empty line after it) leaves the slot past its last
 * instruction as the heap block had it. `junk` is freed just before so the
 * set's scratch array reuses its block, with `plant` in that slot: a pass
 * that read one instruction too many would take it for the body's. */
static void collect_over(const char *body, int m, const insn *plant)
{
    int lines = 1;   /* m of them instructions */
    for (const char *p = body; *p; p++)
        lines += *p == '\n';
    insn *junk = malloc(sizeof *junk * (size_t)(lines + 1));
    ck_assert_ptr_nonnull(junk);
    junk[m] = *plant;
    void (*volatile release)(void *) = free;   /* or -O2 drops junk altogether */
    release(junk);
    collect(body);
}

START_TEST(staged_only_from_the_body)
{
    /* Two instructions after the declarations, none after them. */
    const char *body = REGS "\tmov.f32 %f3, %f2;\n\tst.shared.f32 [%r1], %f3;";
    insn store = {.op = "st.shared.f32", .ops = {"[%r1]", "%f7"}, .nops = 2};
    collect_over(body, 2, &store);
    ck_assert_int_eq(S.n, 2);
    ck_assert_int_eq(staged_with_load("%f3"), 1);
    ck_assert_int_eq(staged_with_load("%f2"), 1);
    ck_assert_int_eq(staged_with_load("%f7"), 0);

    insn copy = {.op = "mov.f32", .ops = {"%f2", "%f6"}, .nops = 2};
    collect_over(body, 2, &copy);
    ck_assert_int_eq(S.n, 2);
    ck_assert_int_eq(staged_with_load("%f6"), 0);
}
END_TEST

/* At most MAX_STAGED registers and MAX_PREFIX register declarations. */
START_TEST(staged_set_bounded)
{
    size_t cap = 64 * (MAX_STAGED + 2) + 256, len = 0;
    char *body = malloc(cap);
    ck_assert_ptr_nonnull(body);
    len += (size_t)snprintf(body + len, cap - len, "\t.reg .f32 %%f<%d>;\n", MAX_STAGED + 2);
    for (int i = 0; i <= MAX_STAGED; i++)
        len += (size_t)snprintf(body + len, cap - len, "\tst.shared.f32 [%%r1], %%f%d;\n", i);
    collect(body);
    ck_assert_int_eq(S.n, MAX_STAGED);
    ck_assert_str_eq(S.reg[MAX_STAGED - 1], "%f2047");
    free(body);

    char decls[4096];
    len = 0;
    for (int i = 0; i < MAX_PREFIX + 1; i++)
        len += (size_t)snprintf(decls + len, sizeof decls - len, "\t.reg .b32 %%q%c<4>;\n",
                                'a' + i % 26 + (i >= 26 ? 'A' - 'a' : 0));
    snprintf(decls + len, sizeof decls - len, "\tst.shared.u32 [%%r1], %%qF1;\n"
             "\tst.shared.u32 [%%r1], %%qG1;\n");
    collect(decls);
    ck_assert_int_eq(S.nprefix, MAX_PREFIX);
    ck_assert_int_eq(staged_with_load("%qF1"), 1);
    ck_assert_int_eq(staged_with_load("%qG1"), 0);
}
END_TEST

Suite *knockout_text_suite(void)
{
    Suite *s = suite_create("knockout_text");
    TCase *tc = tcase_create("rewrite");
    tcase_add_test(tc, rewrites_as_expected);
    tcase_add_test(tc, nothing_to_rewrite);
    tcase_add_test(tc, first_line_and_declarations);
    tcase_add_test(tc, what_is_redirected);
    tcase_add_test(tc, names_of_the_kinds);
    tcase_add_test(tc, span_of_each_write);
    tcase_add_test(tc, twins_only_where_values_go);
    tcase_add_test(tc, long_operands_twinned_whole);
    tcase_add_test(tc, twinned_operand_bound);
    suite_add_tcase(s, tc);

    tc = tcase_create("lines");
    tcase_add_test(tc, instructions_split);
    tcase_add_test(tc, instructions_written);
    tcase_add_test(tc, strings_grow);
    tcase_add_test(tc, strings_grow_geometrically);
    tcase_add_test(tc, operands_read);
    tcase_add_test(tc, kinds_of_instruction);
    suite_add_tcase(s, tc);

    tc = tcase_create("staged");
    tcase_add_test(tc, values_that_reach_shared_memory);
    tcase_add_test(tc, staged_set_bounded);
    tcase_add_test(tc, staged_only_from_the_body);
    suite_add_tcase(s, tc);
    return s;
}
