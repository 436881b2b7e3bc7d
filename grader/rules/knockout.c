/* knockout.c: the PTX rewrite of knockout.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "knockout.h"
#include "knockout_staged.h"
#include "child_fail.h"

static int is_async_copy(const char *op)
{
    return starts(op, "cp.async.ca.shared") || starts(op, "cp.async.cg.shared");
}

static int is_bulk_copy(const char *op)
{
    return starts(op, "cp.async.bulk.shared") && strstr(op, ".global");
}

static int is_vector_load(const char *op)
{
    return is_global_load(op) && strstr(op, ".v4.");
}

/* Which operand of op is a global source address to move, or -1. */
static int redirected_operand(enum knock_kind k, const char *op)
{
    switch (k) {
    /* Every asynchronous copy from device memory into shared memory is
     * one: a bulk copy (lesson 12's TMA, libcu++'s cuda::memcpy_async at
     * compute capability 9.0) carries data without a register as
     * cp.async.ca/.cg do. */
    case KNOCK_ASYNC: return is_async_copy(op) || is_bulk_copy(op) ? 1 : -1;
    case KNOCK_BULK: return is_bulk_copy(op) ? 1 : -1;
    case KNOCK_VECTOR: return is_vector_load(op) ? 1 : -1;
    case KNOCK_SHARED: return is_async_copy(op) || is_bulk_copy(op) ? 1 : -1;
    default: return -1;
    }
}

/* A load with no state space ("ld.f64", "ld.volatile.v2.u32"): its address
 * is generic. */
static int is_generic_load(const char *op)
{
    static const char *const spaces[] = {".global", ".shared", ".local", ".const", ".param"};
    if (!starts(op, "ld."))
        return 0;
    for (size_t i = 0; i < sizeof spaces / sizeof *spaces; i++)
        if (strstr(op, spaces[i]))
            return 0;
    return 1;
}

/* Which operand of op reads set A for the prefetch judgement (a load or a
 * copy's source), or -1; *generic says whether the address is generic. */
static int prefetch_load_operand(const char *op, int *generic)
{
    *generic = is_generic_load(op);
    if (*generic || is_global_load(op))
        return 1;
    return is_async_copy(op) || is_bulk_copy(op) ? 1 : -1;
}

/* For KNOCK_PREFETCH: when the address `in->ops[o]` lies in set A, the
 * thread's load count %kon0 goes, by red.min, into the u32 at `slot` of
 * its 128-byte line's place in set B (knockout.h), under the instruction's
 * own predicate; a load (`counts`) then adds one to %kon0. */
static void emit_line_mark(sbuf *b, const insn *in, int o, int generic, int slot, int counts,
                           const knock_layout *L, int *next)
{
    char reg[KO_OP_LEN], rest[KO_OP_LEN];
    int a = (*next)++, lo = (*next)++, hi = (*next)++;
    split_address(in->ops[o], reg, rest);
    sb_add(b, "\tadd.s64 %%koa%d, %s, %s;\n", a, reg, rest[0] == '+' ? rest + 1 : "0");
    /* The bounds are allocation (generic) addresses; a prefetch's, a
     * copy's or an ld.global's is in the global space. */
    sb_add(b, "\t%s %%koa%d, %llu;\n", generic ? "mov.u64" : "cvta.to.global.u64", lo, L->lo);
    sb_add(b, "\t%s %%koa%d, %llu;\n", generic ? "mov.u64" : "cvta.to.global.u64", hi, L->hi);
    sb_add(b, "\tsetp.ge.u64 %%kop%d, %%koa%d, %%koa%d;\n", a, a, lo);
    sb_add(b, "\tsetp.lt.and.u64 %%kop%d, %%koa%d, %%koa%d, %%kop%d;\n", a, a, hi, a);
    if (in->pred[0])
        sb_add(b, "\tand.pred %%kop%d, %%kop%d, %s;\n", a, a, in->pred + 1);
    if (generic)
        sb_add(b, "\tcvta.to.global.u64 %%koa%d, %%koa%d;\n", a, a);
    sb_add(b, "\tand.b64 %%koa%d, %%koa%d, %d;\n", a, a, -KNOCK_LINE);
    sb_add(b, "\tadd.s64 %%koa%d, %%koa%d, %lld;\n", a, a, L->delta);
    sb_add(b, "\t@%%kop%d red.global.min.u32 [%%koa%d+%d], %%kon0;\n", a, a, slot);
    if (counts)
        sb_add(b, "\t@%%kop%d add.u32 %%kon0, %%kon0, 1;\n", a);
}

/* Bytes one st.shared writes: its type's size times its vector length. */
static const char *store_bytes(const char *op, char *buf, size_t len)
{
    const char *t = strrchr(op, '.');
    int bits = t ? atoi(t + 2) : 32, lanes = strstr(op, ".v4.") ? 4 : strstr(op, ".v2.") ? 2 : 1;
    snprintf(buf, len, "%d", (bits > 0 ? bits : 32) / 8 * lanes);
    return buf;
}

/* After a write of data into shared memory at in->ops[0] (`bytes` long: an
 * immediate or a register): the lowest and highest address written, into
 * the span counters, under the write's own predicate. */
static void emit_span(sbuf *b, const insn *in, const char *bytes, const knock_layout *L,
                      const staged *s, int *next)
{
    char reg[KO_OP_LEN], rest[KO_OP_LEN], sym[KO_OP_LEN];
    if (!L->span || !in->nops)
        return;
    int a = (*next)++, c = (*next)++;
    if (split_address(in->ops[0], reg, rest)) {
        int bits = staged_reg_bits(s, reg);
        if (bits == 32)
            sb_add(b, "\tcvt.u64.u32 %%koa%d, %s;\n", a, reg);
        else if (bits == 64)
            sb_add(b, "\tmov.b64 %%koa%d, %s;\n", a, reg);
        else
            return;   /* a register of unknown width: this write is not counted */
    } else if (sscanf(in->ops[0], "[%127[A-Za-z0-9_$]%127[^]]", sym, rest) >= 1) {
        sb_add(b, "\tmov.u64 %%koa%d, %s;\n", a, sym);
    } else {
        return;
    }
    if (rest[0] == '+')
        sb_add(b, "\tadd.s64 %%koa%d, %%koa%d, %s;\n", a, a, rest + 1);
    const char *p = in->pred[0] ? in->pred : "", *sp = in->pred[0] ? " " : "";
    sb_add(b, "\tcvt.u32.u64 %%kow%d, %%koa%d;\n", a, a);
    sb_add(b, "\tcvta.to.global.u64 %%koa%d, %llu;\n", c, L->span);
    sb_add(b, "\t%s%sred.global.min.u32 [%%koa%d], %%kow%d;\n", p, sp, c, a);
    sb_add(b, "\tadd.u32 %%kow%d, %%kow%d, %s;\n", a, a, bytes);
    sb_add(b, "\t%s%sred.global.max.u32 [%%koa%d+4], %%kow%d;\n", p, sp, c, a);
}

/* One statement of the result; returns how many instructions it knocked. */
static int rewrite_stmt(sbuf *b, const ptx_stmt *st, enum knock_kind k, const knock_layout *L,
                        const staged *s, int *next)
{
    insn in;
    char reg[KO_OP_LEN], rest[KO_OP_LEN];
    int is = st->kind == PS_INSN;
    if (is)
        insn_from(&st->insn, &in);
    int o = is ? redirected_operand(k, in.op) : -1;
    if (o >= 0 && o < in.nops && split_address(in.ops[o], reg, rest)) {
        int a = (*next)++;
        sb_add(b, "\tadd.s64 %%koa%d, %s, %lld;\n", a, reg, L->delta);
        snprintf(in.ops[o], KO_OP_LEN, "[%%koa%d%.100s]", a, rest);
        emit_insn(b, &in);
        /* A copy's size is its third operand. */
        if (k == KNOCK_SHARED && in.nops >= 3)
            emit_span(b, &in, in.ops[2], L, s, next);
        return 1;
    }
    if (k == KNOCK_SHARED && is && is_shared_store(in.op)) {
        char bytes[16];
        if (staged_store(b, &in, s))
            emit_span(b, &in, store_bytes(in.op, bytes, sizeof bytes), L, s, next);
        return 0;
    }
    int generic;
    if (k == KNOCK_PREFETCH && is && starts(in.op, "prefetch.global.L2") && in.nops == 1 &&
        split_address(in.ops[0], reg, rest)) {
        emit_line_mark(b, &in, 0, 0, KNOCK_PREFETCHED_AT, 0, L, next);
        emit_stmt(b, st);
        return 1;
    }
    o = is && k == KNOCK_PREFETCH ? prefetch_load_operand(in.op, &generic) : -1;
    if (o >= 0 && o < in.nops && split_address(in.ops[o], reg, rest))
        emit_line_mark(b, &in, o, generic, KNOCK_LOADED_AT, 1, L, next);
    emit_stmt(b, st);
    if (k == KNOCK_SHARED)
        return staged_follow(b, st, is ? &in : NULL, s, L->delta, next);
    return 0;
}

/* The address, predicate and marker registers, at the top of every
 * function body: more than it needs is harmless. */
static void declare_registers(sbuf *b, int n)
{
    sb_add(b, "\t.reg .b64 %%koa<%d>;\n\t.reg .pred %%kop<%d>;\n\t.reg .b16 %%koh<%d>;\n"
           "\t.reg .b32 %%kow<%d>;\n", n + 1, n + 1, n + 1, n + 1);
    /* The thread's count of loads from set A (KNOCK_PREFETCH). */
    sb_add(b, "\t.reg .b32 %%kon<1>;\n\tmov.u32 %%kon0, 0;\n");
}

/* Does statement i open a function's body? */
static int opens_body(const ptx_prog *p, int i)
{
    return p->stmt[i].kind == PS_OPEN && i > 0 && p->stmt[i - 1].kind == PS_DIRECTIVE &&
           (p->stmt[i - 1].dir.kind == PD_ENTRY || p->stmt[i - 1].dir.kind == PD_FUNC) &&
           p->stmt[i - 1].dir.has_body;
}

/* Every statement rewritten, one a line; returns how many instructions
 * were knocked. */
static int rewrite_all(sbuf *b, const ptx_prog *p, enum knock_kind k, const knock_layout *L,
                       const staged *s, int declare)
{
    int found = 0, next = 0;
    for (int i = 0; i < p->n; i++) {
        found += rewrite_stmt(b, &p->stmt[i], k, L, s, &next);
        if (opens_body(p, i))
            declare_registers(b, declare);
    }
    return declare ? found : next;
}

char *knockout_ptx(const char *ptx, enum knock_kind k, const knock_layout *L, int *found)
{
    *found = 0;
    if (!ptx || k == KNOCK_NONE || k == KNOCK_CONST)
        return NULL;
    ptx_prog *p = ptx_read(ptx);
    if (!p)
        child_fail(OUT_INTERNAL, NULL, "The grader ran out of memory while reading the kernel's PTX for the knock-out run (%zu bytes).", strlen(ptx));
    static staged s;
    if (k == KNOCK_SHARED)
        staged_collect(p, &s);
    /* Pass 1 counts the registers the rewrite needs; pass 2 declares them. */
    sbuf counted = {0}, out = {0};
    int used = rewrite_all(&counted, p, k, L, &s, 0);
    free(counted.s);
    sb_add(&out, "// knockout %d delta %lld span %llu\n", (int)k, L->delta, L->span);
    *found = rewrite_all(&out, p, k, L, &s, used > 0 ? used : 1);
    ptx_free(p);
    if (!*found) {
        free(out.s);
        return NULL;
    }
    return out.s;
}

const char *knock_name(enum knock_kind k)
{
    switch (k) {
    /* cp.async.bulk included: the name stays short, for the check's line
     * (a result's `what` holds 256 characters). */
    case KNOCK_ASYNC: return "its asynchronous copies (cp.async)";
    case KNOCK_BULK: return "its bulk copies (cp.async.bulk)";
    case KNOCK_SHARED: return "what it stages in shared memory";
    case KNOCK_VECTOR: return "its vector loads (ld.global.v4)";
    case KNOCK_PREFETCH: return "its L2 prefetches";
    case KNOCK_CONST: return "its __constant__ table";
    case KNOCK_NONE: break;
    }
    return "the mechanism";
}
