/* test_ptx_reader.c: the PTX reader (grader/ptx/ptx.h), on hand-written
 * PTX shaped like NVRTC's and like students' inline assembly: statements
 * cut at ';' not at lines (two instructions on one line), braces as scopes
 * with their own registers and labels, guard predicates inside them,
 * comments and strings, .loc carried to every instruction, every operand
 * kind, declarations with their sizes, function headers, and statements
 * written back. Each table row is one form; removing the rule that reads
 * it fails its row.
 *
 *   CK_RUN_SUITE=ptx_reader build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ptx.h"
#include "suites.h"

/* The instructions of `p`, in order, as their opcodes joined by " | ". */
static void opcodes(const ptx_prog *p, char *out, size_t len)
{
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < p->n && at < len; i++)
        if (p->stmt[i].kind == PS_INSN)
            at += (size_t)snprintf(out + at, len - at, "%s%s", at ? " | " : "",
                                   p->stmt[i].insn.opcode);
}

/* The index of the k-th instruction (from 0), or -1. */
static int nth_insn(const ptx_prog *p, int k)
{
    for (int i = 0; i < p->n; i++)
        if (p->stmt[i].kind == PS_INSN && k-- == 0)
            return i;
    return -1;
}

START_TEST(statements_not_lines)
{
    static const struct {
        const char *what, *ptx, *want;
    } cases[] = {
        {"two instructions on one line (lesson 12's inline asm)",
         "\tmbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r3], %r4; "
         "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r5], [%rd2], "
         "%r4, [%r3];\n",
         "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 | "
         "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"},
        {"one instruction over two lines", "\tadd.s32 %r1,\n\t\t%r2, 4;\n", "add.s32"},
        {"a comment between instructions on one line",
         "\tmov.u32 %r1, 1; /* ; cp.async.ca.shared.global [%r1], [%rd1], 4; */ ret;\n",
         "mov.u32 | ret"},
        {"a line comment hides the rest of its line only",
         "\tmov.u32 %r1, 1; // bra L; ret;\n\texit;\n", "mov.u32 | exit"},
        {"a ';' inside a string ends nothing", "\t.pragma \"a;b\";\n\tret;\n", "ret"},
        {"'//' inside a string is no comment",
         "\t.file 1 \"//x.cu\"\n\tmov.u32 %r1, 2;\n", "mov.u32"},
        {"a label on the line of its instruction", "L1: bra L1;\n", "bra"},
        {"a braced block of its own", "{\n.reg .pred p;\nsetp.ne.b32 p, %r1, 0;\n@p bra D;\n"
         "D:\n}\nret;\n", "setp.ne.b32 | bra | ret"},
        {"a block on one line", "{ .reg .pred p; setp.ne.b32 p, %r1, 0; @p bra D; D: } ret;",
         "setp.ne.b32 | bra | ret"},
        {"a .loc ends at its line", "\t.loc 1 5 3\n\tret;\n", "ret"},
        {"an unbalanced bracket spoils only its own statement",
         "\tmov.u32 %r1, [%r2;\n\tret;\n", "mov.u32 | ret"},
    };
    char got[512];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ptx_prog *p = ptx_read(cases[i].ptx);
        ck_assert_ptr_nonnull(p);
        opcodes(p, got, sizeof got);
        ck_assert_msg(!strcmp(got, cases[i].want), "%s: got '%s', want '%s'", cases[i].what,
                      got, cases[i].want);
        ptx_free(p);
    }
}
END_TEST

START_TEST(braces_are_scopes)
{
    const char *ptx = ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
                      "\t.reg .b32 %r<4>;\n"
                      "\t{\n\t.reg .pred p;\n\tW:\n"
                      "\tmbarrier.try_wait.parity.shared::cta.b64 p, [%r1], %r2;\n"
                      "\t@!p bra W;\n\t}\n"
                      "\t{\n\t.reg .pred p;\n\tW:\n\t@p bra W;\n\t}\n"
                      "\tret;\n}\n";
    ptx_prog *p = ptx_read(ptx);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->nscopes, 4);
    int wait = nth_insn(p, 0), bra1 = nth_insn(p, 1), bra2 = nth_insn(p, 2),
        ret = nth_insn(p, 3);
    const ptx_stmt *s = p->stmt;
    /* Each block is a scope of its own inside the body. */
    ck_assert_int_ne(s[bra1].scope, s[bra2].scope);
    ck_assert_int_eq(p->scopes[s[bra1].scope].parent, s[ret].scope);
    ck_assert_int_eq(s[ret].func, 0);
    ck_assert_int_eq(s[bra2].func, 0);
    /* The guard and the operand p are the block's own predicate. */
    ck_assert_str_eq(s[bra1].insn.pred, "p");
    ck_assert_int_eq(s[bra1].insn.pred_neg, 1);
    ck_assert_int_eq(s[bra2].insn.pred_neg, 0);
    ck_assert_int_eq(s[wait].insn.op[0].kind, PO_REG);
    const ptx_decl *d1 = ptx_find_reg(p, bra1, "p", NULL), *d2 = ptx_find_reg(p, bra2, "p", NULL);
    ck_assert_ptr_nonnull(d1);
    ck_assert_ptr_nonnull(d2);
    ck_assert_ptr_ne(d1, d2);
    ck_assert_str_eq(d1->type, "pred");
    ck_assert_ptr_null(ptx_find_reg(p, ret, "p", NULL));
    /* The outer registers are seen from inside; a number past <N> is not. */
    const ptx_var *v;
    ck_assert_ptr_nonnull(ptx_find_reg(p, bra1, "%r3", &v));
    ck_assert_int_eq(v->count, 4);
    ck_assert_ptr_null(ptx_find_reg(p, bra1, "%r4", NULL));
    ck_assert_ptr_null(ptx_find_reg(p, bra1, "%rd1", NULL));
    /* Each branch goes to the label of its own block. */
    ck_assert_int_eq(s[bra1].insn.op[0].kind, PO_LABEL);
    int l1 = ptx_find_label(p, bra1, "W"), l2 = ptx_find_label(p, bra2, "W");
    ck_assert_int_eq(s[l1].scope, s[bra1].scope);
    ck_assert_int_eq(s[l2].scope, s[bra2].scope);
    ck_assert_int_eq(ptx_find_label(p, ret, "W"), -1);
    ptx_free(p);
}
END_TEST

START_TEST(guards)
{
    static const struct {
        const char *ptx, *pred;
        int neg;
    } cases[] = {
        {"@%p1 bra L;", "%p1", 0},
        {"@!%p12 st.global.u32 [%rd1], %r1;", "%p12", 1},
        {"{ .reg .pred q; @q ret; }", "q", 0},
        {"{ .reg .pred q; @!q ret; }", "q", 1},
        {"ret;", NULL, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ptx_prog *p = ptx_read(cases[i].ptx);
        const ptx_insn *in = &p->stmt[nth_insn(p, 0)].insn;
        if (cases[i].pred)
            ck_assert_msg(in->pred && !strcmp(in->pred, cases[i].pred), "%s: guard %s",
                          cases[i].ptx, in->pred ? in->pred : "(none)");
        else
            ck_assert_ptr_null(in->pred);
        ck_assert_int_eq(in->pred_neg, cases[i].neg);
        ptx_free(p);
    }
}
END_TEST

START_TEST(loc_is_attached)
{
    const char *ptx = "\tmov.u32 %r1, 0;\n\t.loc 1 71 5\n\tmov.u32 %r2, 0; add.s32 %r2, %r2, 1;"
                      "\n\t.loc 2 98 9, function_name $L__info_string0, inlined_at 1 7 3\n"
                      "\t{ ret; }\n";
    static const int want[][3] = {{0, 0, 0}, {1, 71, 5}, {1, 71, 5}, {2, 98, 9}};
    ptx_prog *p = ptx_read(ptx);
    for (int k = 0; k < 4; k++) {
        const ptx_insn *in = &p->stmt[nth_insn(p, k)].insn;
        ck_assert_msg(in->loc_file == want[k][0] && in->loc_line == want[k][1] &&
                      in->loc_col == want[k][2], "instruction %d: .loc %d %d %d", k,
                      in->loc_file, in->loc_line, in->loc_col);
    }
    ptx_free(p);
}
END_TEST

START_TEST(operands_are_typed)
{
    static const struct {
        const char *op;
        enum ptx_operand_kind kind;
        const char *name;
        long long imm;
        int base, nelem;
    } cases[] = {
        {"%r1", PO_REG, "%r1", 0, 0, 0},
        {"%tid.x", PO_REG, "%tid.x", 0, 0, 0},
        {"!%p2", PO_REG, "%p2", 0, 0, 0},
        {"-4", PO_IMM, NULL, -4, 0, 0},
        {"0x7f", PO_IMM, NULL, 127, 0, 0},
        {"017", PO_IMM, NULL, 15, 0, 0},
        {"0b101", PO_IMM, NULL, 5, 0, 0},
        {"4U", PO_IMM, NULL, 4, 0, 0},
        {"{%f1, %f2, _, %f4}", PO_VEC, NULL, 0, 0, 4},
        {"%p1|%p2", PO_PAIR, NULL, 0, 0, 2},
        {"[%rd1+8]", PO_ADDR, "%rd1", 8, PB_REG, 0},
        {"[%rd1+-8]", PO_ADDR, "%rd1", -8, PB_REG, 0},
        {"[%rd1-8]", PO_ADDR, "%rd1", -8, PB_REG, 0},
        {"[%r2]", PO_ADDR, "%r2", 0, PB_REG, 0},
        {"[smem+16]", PO_ADDR, "smem", 16, PB_SYM, 0},
        {"[smem]", PO_ADDR, "smem", 0, PB_SYM, 0},
        {"[64]", PO_ADDR, NULL, 64, PB_IMM, 0},
        {"[%rd3, {%r1, %r2}]", PO_ADDR, NULL, 0, PB_REG, 2},
        {"(param0, param1)", PO_LIST, NULL, 0, 0, 2},
        {"vprintf", PO_SYM, "vprintf", 0, 0, 0},
        {"_", PO_SINK, NULL, 0, 0, 0},
    };
    char ptx[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(ptx, sizeof ptx, "op.x %%r9, %s;", cases[i].op);
        ptx_prog *p = ptx_read(ptx);
        const ptx_insn *in = &p->stmt[nth_insn(p, 0)].insn;
        ck_assert_msg(in->nops == 2, "%s: %d operands", cases[i].op, in->nops);
        const ptx_operand *o = &in->op[1];
        ck_assert_msg(o->kind == cases[i].kind, "%s: kind %d, want %d", cases[i].op, o->kind,
                      cases[i].kind);
        ck_assert_str_eq(o->text, cases[i].op);
        if (cases[i].name)
            ck_assert_msg(o->name && !strcmp(o->name, cases[i].name), "%s: name %s",
                          cases[i].op, o->name ? o->name : "(none)");
        ck_assert_msg(o->imm == cases[i].imm, "%s: imm %lld", cases[i].op, o->imm);
        if (o->kind == PO_ADDR)
            ck_assert_msg((int)o->base == cases[i].base, "%s: base %d", cases[i].op, o->base);
        ck_assert_msg(o->nelem == cases[i].nelem, "%s: %d parts", cases[i].op, o->nelem);
        ptx_free(p);
    }
}
END_TEST

START_TEST(float_immediates)
{
    static const struct {
        const char *op;
        double value;
        unsigned long long bits;
        int width;
    } cases[] = {
        {"0f3F800000", 1.0, 0x3F800000ull, 32},
        {"0fBF000000", -0.5, 0xBF000000ull, 32},
        {"0d3FF0000000000000", 1.0, 0x3FF0000000000000ull, 64},
        {"0d4000000000000000", 2.0, 0x4000000000000000ull, 64},
        {"1.5", 1.5, 0, 64},
        {"-2.5e1", -25.0, 0, 64},
    };
    char ptx[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(ptx, sizeof ptx, "mov.f32 %%f1, %s;", cases[i].op);
        ptx_prog *p = ptx_read(ptx);
        const ptx_operand *o = &p->stmt[nth_insn(p, 0)].insn.op[1];
        ck_assert_msg(o->kind == PO_FIMM, "%s: kind %d", cases[i].op, o->kind);
        ck_assert_msg(o->fimm == cases[i].value, "%s: %g", cases[i].op, o->fimm);
        ck_assert_msg(o->fbits == cases[i].bits && o->fwidth == cases[i].width,
                      "%s: bits %llx width %d", cases[i].op, o->fbits, o->fwidth);
        ptx_free(p);
    }
}
END_TEST

START_TEST(opcode_parts)
{
    ptx_prog *p = ptx_read("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                           "[%r5], [%rd2], %r4, [%r3];");
    const ptx_insn *in = &p->stmt[0].insn;
    static const char *const want[] = {"cp", "async", "bulk", "shared::cluster", "global",
                                       "mbarrier::complete_tx::bytes"};
    ck_assert_int_eq(in->nparts, 6);
    for (int i = 0; i < 6; i++)
        ck_assert_str_eq(in->part[i], want[i]);
    ck_assert(ptx_insn_is(in, "cp.async.bulk"));
    ck_assert(ptx_insn_is(in, "cp.async"));
    ck_assert(!ptx_insn_is(in, "cp.as"));
    ck_assert(!ptx_insn_is(in, "cp.async.bulk.tensor"));
    ck_assert(ptx_insn_has(in, "global"));
    ck_assert(!ptx_insn_has(in, "shared"));
    ck_assert(ptx_insn_has_prefix(in, "shared"));
    const char *regs[8];
    ck_assert_int_eq(ptx_operand_regs(&in->op[1], regs, 8), 1);
    ck_assert_str_eq(regs[0], "%rd2");
    ptx_free(p);
}
END_TEST

START_TEST(declarations)
{
    static const struct {
        const char *ptx, *space, *type, *name;
        int align, count, vec;
        long long bytes;
    } cases[] = {
        {".reg .b32 %r<12>;", "reg", "b32", "%r", 0, 12, 1, 4},
        {".reg .pred p;", "reg", "pred", "p", 0, -1, 1, 1},
        {".shared .align 16 .b8 buf[4096];", "shared", "b8", "buf", 16, -1, 1, 4096},
        {".extern .shared .align 16 .b8 dyn[];", "shared", "b8", "dyn", 16, -1, 1, -1},
        {".global .align 4 .u32 tbl[4] = {1, 2, 3, 4};", "global", "u32", "tbl", 4, -1, 1, 16},
        {".const .align 8 .f64 coef[3][3];", "const", "f64", "coef", 8, -1, 1, 72},
        {".local .align 16 .v4 .f32 v[2];", "local", "f32", "v", 16, -1, 4, 32},
        {".visible .global .attribute(.managed) .align 4 .b32 m;", "global", "b32", "m", 4,
         -1, 1, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ptx_prog *p = ptx_read(cases[i].ptx);
        ck_assert_int_eq(p->n, 1);
        const ptx_dir *d = &p->stmt[0].dir;
        ck_assert_msg(d->kind == PD_VAR, "%s: kind %d", cases[i].ptx, d->kind);
        ck_assert_str_eq(d->decl.space, cases[i].space);
        ck_assert_str_eq(d->decl.type, cases[i].type);
        ck_assert_int_eq(d->decl.nvars, 1);
        ck_assert_str_eq(d->decl.var[0].name, cases[i].name);
        ck_assert_int_eq(d->decl.align, cases[i].align);
        ck_assert_int_eq(d->decl.var[0].count, cases[i].count);
        ck_assert_int_eq(d->decl.vec, cases[i].vec);
        ck_assert_msg(d->decl.var[0].bytes == cases[i].bytes, "%s: %lld bytes", cases[i].ptx,
                      d->decl.var[0].bytes);
        ptx_free(p);
    }
    ptx_prog *p = ptx_read(".global .align 4 .u32 a = 1, b[2] = {3, 4};");
    ck_assert_int_eq(p->stmt[0].dir.decl.nvars, 2);
    ck_assert_str_eq(p->stmt[0].dir.decl.var[1].name, "b");
    ck_assert_str_eq(p->stmt[0].dir.decl.var[1].init, "{3, 4}");
    ptx_free(p);
}
END_TEST

START_TEST(functions_and_line_directives)
{
    const char *ptx = "//\n.version 8.8\n.target sm_90\n.address_size 64\n"
                      ".extern .func  (.param .b32 func_retval0) vprintf\n(\n"
                      "\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n"
                      ".visible .entry k(\n\t.param .u64 .ptr .global .align 1 k_param_0,\n"
                      "\t.param .align 8 .b8 k_param_1[16]\n)\n.maxntid 256, 1, 1\n{\n"
                      "\t.file 1 \"/tmp/k.cu\"\n\tret;\n}\n";
    ptx_prog *p = ptx_read(ptx);
    const ptx_stmt *s = p->stmt;
    ck_assert_int_eq(s[0].dir.kind, PD_VERSION);
    ck_assert_int_eq(s[1].dir.kind, PD_TARGET);
    ck_assert_str_eq(s[1].dir.args, "sm_90");
    ck_assert_int_eq(s[2].dir.kind, PD_ADDRESS_SIZE);
    ck_assert_int_eq(s[3].dir.kind, PD_FUNC);
    ck_assert_str_eq(s[3].dir.func, "vprintf");
    ck_assert_int_eq(s[3].dir.nrets, 1);
    ck_assert_int_eq(s[3].dir.nparams, 2);
    ck_assert_int_eq(s[3].dir.is_extern, 1);
    ck_assert_int_eq(s[3].dir.has_body, 0);
    ck_assert_int_eq(s[4].dir.kind, PD_ENTRY);
    ck_assert_str_eq(s[4].dir.func, "k");
    ck_assert_int_eq(s[4].dir.is_visible, 1);
    ck_assert_int_eq(s[4].dir.has_body, 1);
    ck_assert_int_eq(s[4].dir.nparams, 2);
    ck_assert_str_eq(s[4].dir.params[0].var[0].name, "k_param_0");
    ck_assert_int_eq(s[4].dir.params[0].is_ptr, 1);
    ck_assert_str_eq(s[4].dir.params[0].space, "param");
    ck_assert_int_eq(s[4].dir.params[1].var[0].bytes, 16);
    ck_assert_int_eq(s[5].kind, PS_OPEN);
    ck_assert_int_eq(s[6].dir.kind, PD_FILE);
    ck_assert_int_eq(s[6].dir.loc_file, 1);
    ck_assert_str_eq(s[6].dir.path, "/tmp/k.cu");
    ck_assert_int_eq(s[6].func, 4);
    ck_assert_int_eq(s[6].line, 17);
    ptx_free(p);
}
END_TEST

/* Every statement written back and read again reads the same. */
START_TEST(written_back)
{
    const char *ptx = ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
                      "\t.reg .b32 %r<4>;\n\tmov.u32 %r1, 0; @%p1 bra L;\n"
                      "\t{ .reg .pred p; setp.ne.b32 p, %r1, 0; @!p bra L; }\nL:\n\tret;\n}\n";
    ptx_prog *p = ptx_read(ptx);
    char back[4096] = "", line[512];
    for (int i = 0; i < p->n; i++) {
        ptx_stmt_text(&p->stmt[i], line, sizeof line);
        strcat(back, line);
        strcat(back, "\n");
    }
    ptx_prog *q = ptx_read(back);
    ck_assert_int_eq(q->n, p->n);
    for (int i = 0; i < p->n; i++) {
        ck_assert_int_eq(q->stmt[i].kind, p->stmt[i].kind);
        ck_assert_int_eq(q->stmt[i].scope, p->stmt[i].scope);
        ck_assert_str_eq(q->stmt[i].text, p->stmt[i].text);
    }
    /* An instruction with an operand replaced is written with it. */
    int b = nth_insn(p, 1);
    ptx_insn in = p->stmt[b].insn;
    ptx_operand ops[4];
    memcpy(ops, in.op, sizeof *ops * (size_t)in.nops);
    ops[0].text = "M";
    in.op = ops;
    int need = ptx_insn_text(&in, line, sizeof line);
    ck_assert_str_eq(line, "@%p1 bra M;");
    ck_assert_int_eq(need, (int)strlen(line));
    ck_assert_int_eq(ptx_insn_text(&in, line, 4), need);
    ck_assert_str_eq(line, "@%p");
    ptx_free(q);
    ptx_free(p);
}
END_TEST

/* A hostile file of 20000 braced blocks, each with its own predicate and
 * label (an unrolled loop of inline assembly): names are looked up scope by
 * scope, never across the whole program, so reading stays linear. */
START_TEST(many_blocks_read_in_linear_time)
{
    enum { BLOCKS = 20000 };
    size_t cap = (size_t)BLOCKS * 96 + 256, n = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    n += (size_t)snprintf(t + n, cap - n, ".visible .entry k()\n{\n\t.reg .b32 %%r<4>;\n");
    for (int i = 0; i < BLOCKS; i++)
        n += (size_t)snprintf(t + n, cap - n, "\t{ .reg .pred p; W: setp.ne.b32 p, %%r1, %d; "
                              "@p bra W; }\n", i);
    snprintf(t + n, cap - n, "\tret;\n}\n");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ptx_prog *p = ptx_read(t);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->nscopes, BLOCKS + 2);
    int last = nth_insn(p, 2 * BLOCKS - 1);
    ck_assert_int_eq(p->stmt[last].insn.op[0].kind, PO_LABEL);
    ck_assert_int_eq(p->stmt[ptx_find_label(p, last, "W")].scope, p->stmt[last].scope);
    ck_assert_msg(sec < 5, "reading took %.1f s", sec);
    ptx_free(p);
    free(t);
}
END_TEST

START_TEST(entries_found)
{
    ptx_prog *p = ptx_read("// .entry k(\n.extern .entry k(.param .u64 a);\n"
                           ".visible .entry kk(\n)\n{\n\tret;\n}\n"
                           ".visible .entry k(\n\t.param .u64 a\n)\n{\n\tret;\n}\n");
    ck_assert_ptr_nonnull(p);
    int at = ptx_find_entry(p, "k");
    ck_assert_int_ge(at, 0);
    ck_assert_int_eq(p->stmt[at].dir.nparams, 1);
    ck_assert_int_eq(p->stmt[at + 1].kind, PS_OPEN);
    ck_assert_int_ge(ptx_find_entry(p, "kk"), 0);
    ck_assert_int_eq(ptx_find_entry(p, "kkk"), -1);
    ck_assert_int_eq(ptx_find_entry(p, NULL), -1);
    ptx_free(p);
    /* Named only in a comment or a prototype: none. */
    p = ptx_read("// .entry k(\n.extern .entry k(.param .u64 a);\n");
    ck_assert_int_eq(ptx_find_entry(p, "k"), -1);
    ptx_free(p);
}
END_TEST

START_TEST(nothing_refused)
{
    static const char *const odd[] = {"", "{", "}}}", "@", ";;;", "\"unterminated", "/* open",
                                      "[[[", "a: b: c:", ".weird stuff here"};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
        ptx_prog *p = ptx_read(odd[i]);
        ck_assert_msg(p != NULL, "'%s' refused", odd[i]);
        ptx_free(p);
    }
    ptx_free(NULL);
}
END_TEST

Suite *ptx_reader_suite(void)
{
    Suite *s = suite_create("ptx_reader");
    TCase *tc = tcase_create("reader");
    tcase_add_test(tc, statements_not_lines);
    tcase_add_test(tc, braces_are_scopes);
    tcase_add_test(tc, guards);
    tcase_add_test(tc, loc_is_attached);
    tcase_add_test(tc, operands_are_typed);
    tcase_add_test(tc, float_immediates);
    tcase_add_test(tc, opcode_parts);
    tcase_add_test(tc, declarations);
    tcase_add_test(tc, functions_and_line_directives);
    tcase_add_test(tc, written_back);
    tcase_add_test(tc, many_blocks_read_in_linear_time);
    tcase_add_test(tc, entries_found);
    tcase_add_test(tc, nothing_refused);
    suite_add_tcase(s, tc);
    return s;
}
