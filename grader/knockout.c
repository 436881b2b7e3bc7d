/* knockout.c: the PTX rewrite of knockout.h. NVRTC writes one instruction
 * per line: "\t[@[!]%p] opcode operand, operand, ...;". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "knockout.h"

#define MAX_OPS 8
#define OP_LEN 128

/* One instruction line, split. */
typedef struct insn {
    char pred[32];              /* "@%p1", "@!%p3" or "" */
    char op[96];                /* "cp.async.ca.shared.global" */
    char ops[MAX_OPS][OP_LEN];  /* operands, braces kept: "{%f1, %f2}" */
    int nops;
} insn;

/* A growing string. */
typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        b->cap = b->cap * 2 + (size_t)(n > 0 ? n : 0) + 256;
        if (!(b->s = realloc(b->s, b->cap)))
            abort();
    }
}

/* Split one line; 0 when it is no instruction (directive, label, brace). */
static int parse_insn(const char *line, insn *in)
{
    memset(in, 0, sizeof *in);
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line == '@') {
        size_t n = strcspn(line, " \t");
        snprintf(in->pred, sizeof in->pred, "%.*s", (int)n, line);
        line += n;
        while (*line == ' ' || *line == '\t')
            line++;
    }
    if (!(*line >= 'a' && *line <= 'z') || !strchr(line, ';'))
        return 0;
    size_t n = strcspn(line, " \t;");
    snprintf(in->op, sizeof in->op, "%.*s", (int)n, line);
    line += n;
    /* Operands: split at commas outside braces and brackets. */
    int depth = 0;
    const char *start = line;
    for (const char *p = line;; p++) {
        if (*p == '{' || *p == '[')
            depth++;
        if (*p == '}' || *p == ']')
            depth--;
        if ((*p == ',' && depth == 0) || *p == ';' || !*p) {
            while (*start == ' ' || *start == '\t')
                start++;
            size_t len = (size_t)(p - start);
            while (len && (start[len - 1] == ' ' || start[len - 1] == '\t'))
                len--;
            if (len && in->nops < MAX_OPS)
                snprintf(in->ops[in->nops++], OP_LEN, "%.*s", (int)len, start);
            if (*p != ',')
                break;
            start = p + 1;
        }
    }
    return 1;
}

static int starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

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
    return starts(op, "ld.global") && strstr(op, ".v4.");
}

/* Which operand of op is a global source address to move, or -1. */
static int redirected_operand(enum knock_kind k, const char *op)
{
    switch (k) {
    case KNOCK_ASYNC: return is_async_copy(op) ? 1 : -1;
    case KNOCK_BULK: return is_bulk_copy(op) ? 1 : -1;
    case KNOCK_VECTOR: return is_vector_load(op) ? 1 : -1;
    case KNOCK_SHARED: return is_async_copy(op) || is_bulk_copy(op) ? 1 : -1;
    default: return -1;
    }
}

/* "[%rd5+8]" -> reg "%rd5", rest "+8". 0 when the address is no register. */
static int split_address(const char *a, char *reg, char *rest)
{
    if (a[0] != '[' || a[1] != '%')
        return 0;
    size_t n = strcspn(a + 1, "+]");
    snprintf(reg, OP_LEN, "%.*s", (int)n, a + 1);
    snprintf(rest, OP_LEN, "%.*s", (int)(strlen(a + 1 + n) - 1), a + 1 + n);
    return 1;
}

static void emit_insn(sbuf *b, const insn *in)
{
    sb_add(b, "\t%s%s%s", in->pred, in->pred[0] ? " " : "", in->op);
    for (int i = 0; i < in->nops; i++)
        sb_add(b, "%s%s", i ? ", " : " ", in->ops[i]);
    sb_add(b, ";\n");
}

/* Registers named inside an operand: "{%f1, %f2}" or "%f1". An operand of
 * more than 4 (never in PTX) is cut to 4. */
static int operand_regs(const char *o, char regs[4][32])
{
    int n = 0;
    for (const char *p = o; (p = strchr(p, '%')) && n < 4;) {
        size_t len = strcspn(p, ",} |]+");
        snprintf(regs[n++], 32, "%.*s", (int)(len < 31 ? len : 31), p);
        p += len;
    }
    return n;
}

/* ---- KNOCK_SHARED's loads: which registers a st.shared stores that one
 * ld.global (and nothing else) defines ------------------------------------ */

#define MAX_STAGED 256
typedef struct staged {
    char reg[MAX_STAGED][32];   /* a value stored to shared memory */
    int by_load[MAX_STAGED];    /* 1: one of them is an ld.global */
    char bank[MAX_STAGED];      /* its twin's register bank: v 64, w 32, x 16 bits */
    int n;
} staged;

static int staged_find(const staged *s, const char *reg)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->reg[i], reg))
            return i;
    return -1;
}

static int writes_operand0(const char *op)
{
    static const char *const not_a_def[] = {"st.", "cp.", "prefetch", "bar", "membar",
                                            "fence", "red.", "ret", "bra", "call",
                                            "mbarrier.init", "mbarrier.arrive.noComplete"};
    for (size_t i = 0; i < sizeof not_a_def / sizeof *not_a_def; i++)
        if (starts(op, not_a_def[i]))
            return 0;
    return 1;
}

/* The register bank for an instruction's type, its last suffix: ".f64" v,
 * ".f32" w, ".u16" or ".u8" x. */
static char type_bank(const char *op)
{
    const char *t = strrchr(op, '.');
    int bits = t ? atoi(t + 2) : 32;
    return bits > 32 ? 'v' : bits > 16 ? 'w' : 'x';
}

static void collect_staged(char **lines, int n, staged *s)
{
    insn in;
    char regs[4][32];
    memset(s, 0, sizeof *s);
    for (int i = 0; i < n; i++)
        if (parse_insn(lines[i], &in) && starts(in.op, "st.shared"))
            for (int o = 1; o < in.nops; o++)
                for (int r = 0, m = operand_regs(in.ops[o], regs); r < m; r++)
                    if (staged_find(s, regs[r]) < 0 && s->n < MAX_STAGED)
                        snprintf(s->reg[s->n++], 32, "%.31s", regs[r]);
    for (int i = 0; i < n; i++) {
        if (!parse_insn(lines[i], &in) || !in.nops || !writes_operand0(in.op))
            continue;
        for (int r = 0, m = operand_regs(in.ops[0], regs); r < m; r++) {
            int at = staged_find(s, regs[r]);
            if (at < 0)
                continue;
            if (starts(in.op, "ld.global")) {
                s->by_load[at] = 1;
                s->bank[at] = type_bank(in.op);
            }
        }
    }
}

/* The register that holds reg's value from set B, or NULL. */
static const char *twin(const staged *s, const char *reg)
{
    int at = staged_find(s, reg);
    static char name[MAX_STAGED][32];
    if (at < 0 || !s->by_load[at])
        return NULL;
    snprintf(name[at], sizeof name[at], "%%kot%c%d", s->bank[at], at);
    return name[at];
}

/* After an ld.global whose value a st.shared stores: the same load from set
 * B into twin registers. Returns 1 when it added one. */
static int emit_twin_load(sbuf *b, const insn *ld, const staged *s, long long delta,
                          int *next)
{
    char regs[4][32], reg[OP_LEN], rest[OP_LEN];
    int m = operand_regs(ld->ops[0], regs), any = 0;
    for (int r = 0; r < m; r++)
        any |= twin(s, regs[r]) != NULL;
    if (!any || ld->nops < 2 || !split_address(ld->ops[1], reg, rest))
        return 0;
    insn dup = *ld;
    int a = (*next)++;
    sb_add(b, "\tadd.s64 %%koa%d, %s, %lld;\n", a, reg, delta);
    snprintf(dup.ops[1], OP_LEN, "[%%koa%d%.100s]", a, rest);
    /* Every destination gets a twin; unstaged ones a scratch register. */
    char *d = dup.ops[0];
    d[0] = 0;
    for (int r = 0; r < m; r++) {
        const char *t = twin(s, regs[r]);
        char scratch[32];
        if (!t) {
            snprintf(scratch, sizeof scratch, "%%kos%c%d", type_bank(ld->op), (*next)++);
            t = scratch;
        }
        snprintf(d + strlen(d), OP_LEN - strlen(d), "%s%s", r ? ", " : "", t);
    }
    if (m > 1) {
        char wrapped[OP_LEN];
        snprintf(wrapped, sizeof wrapped, "{%.120s}", d);
        snprintf(d, OP_LEN, "%s", wrapped);
    }
    emit_insn(b, &dup);
    return 1;
}

/* After any other instruction that writes a staged register (a 0 for an
 * element out of range, a value carried round a loop): the twin follows,
 * so it differs from the register only where a load filled it. */
static void emit_twin_copy(sbuf *b, const insn *in, const staged *s)
{
    char regs[4][32];
    for (int r = 0, m = operand_regs(in->ops[0], regs); r < m; r++) {
        const char *t = twin(s, regs[r]);
        if (t)
            sb_add(b, "\t%s%smov.b%s %s, %s;\n", in->pred, in->pred[0] ? " " : "",
                   t[4] == 'v' ? "64" : t[4] == 'w' ? "32" : "16", t, regs[r]);
    }
}

/* A st.shared storing twins instead of the loaded values. */
static void emit_twin_store(sbuf *b, insn *st, const staged *s)
{
    for (int o = 1; o < st->nops; o++) {
        char regs[4][32], out[OP_LEN] = "";
        int m = operand_regs(st->ops[o], regs);
        if (!m)
            continue;
        for (int r = 0; r < m; r++) {
            const char *t = twin(s, regs[r]);
            snprintf(out + strlen(out), sizeof out - strlen(out), "%s%.31s", r ? ", " : "",
                     t ? t : regs[r]);
        }
        if (st->ops[o][0] == '{')
            snprintf(st->ops[o], OP_LEN, "{%.120s}", out);
        else
            snprintf(st->ops[o], OP_LEN, "%s", out);
    }
    emit_insn(b, st);
}

/* ---- the rewrite ------------------------------------------------------- */

static void emit_prefetch_mark(sbuf *b, const insn *in, const knock_layout *L, int *next)
{
    char reg[OP_LEN], rest[OP_LEN];
    int a = (*next)++;
    split_address(in->ops[0], reg, rest);
    sb_add(b, "\tadd.s64 %%koa%d, %s, %s;\n", a, reg, rest[0] == '+' ? rest + 1 : "0");
    sb_add(b, "\tsetp.ge.u64 %%kop%d, %%koa%d, %llu;\n", a, a, L->lo);
    sb_add(b, "\tsetp.lt.and.u64 %%kop%d, %%koa%d, %llu, %%kop%d;\n", a, a, L->hi, a);
    if (in->pred[0])
        sb_add(b, "\tand.pred %%kop%d, %%kop%d, %s;\n", a, a, in->pred + 1);
    sb_add(b, "\tadd.s64 %%koa%d, %%koa%d, %lld;\n", a, a, L->delta);
    sb_add(b, "\tmov.u16 %%koh%d, 1;\n", a);
    sb_add(b, "\t@%%kop%d st.global.u8 [%%koa%d], %%koh%d;\n", a, a, a);
}

/* One line of the result; returns how many instructions it knocked. */
static int rewrite_line(sbuf *b, const char *line, enum knock_kind k, const knock_layout *L,
                        const staged *s, int *next)
{
    insn in;
    char reg[OP_LEN], rest[OP_LEN];
    if (!parse_insn(line, &in)) {
        sb_add(b, "%s\n", line);
        return 0;
    }
    int o = redirected_operand(k, in.op);
    if (o >= 0 && o < in.nops && split_address(in.ops[o], reg, rest)) {
        int a = (*next)++;
        sb_add(b, "\tadd.s64 %%koa%d, %s, %lld;\n", a, reg, L->delta);
        snprintf(in.ops[o], OP_LEN, "[%%koa%d%.100s]", a, rest);
        emit_insn(b, &in);
        return 1;
    }
    if (k == KNOCK_PREFETCH && starts(in.op, "prefetch.global.L2") && in.nops == 1 &&
        split_address(in.ops[0], reg, rest)) {
        sb_add(b, "%s\n", line);
        emit_prefetch_mark(b, &in, L, next);
        return 1;
    }
    if (k == KNOCK_SHARED && starts(in.op, "st.shared")) {
        emit_twin_store(b, &in, s);
        return 0;
    }
    sb_add(b, "%s\n", line);
    if (k == KNOCK_SHARED && starts(in.op, "ld.global"))
        return emit_twin_load(b, &in, s, L->delta, next);
    if (k == KNOCK_SHARED && in.nops && writes_operand0(in.op))
        emit_twin_copy(b, &in, s);
    return 0;
}

/* The registers the rewrite uses, at the top of every function body: more
 * than it needs is harmless. */
static void declare_registers(sbuf *b, int n)
{
    sb_add(b, "\t.reg .b64 %%koa<%d>;\n\t.reg .pred %%kop<%d>;\n\t.reg .b16 %%koh<%d>;\n",
           n + 1, n + 1, n + 1);
    static const char *const bank[][2] = {{"v", "b64"}, {"w", "b32"}, {"x", "b16"}};
    for (int i = 0; i < 3; i++)
        sb_add(b, "\t.reg .%s %%kos%s<%d>;\n\t.reg .%s %%kot%s<%d>;\n", bank[i][1], bank[i][0],
               n + 1, bank[i][1], bank[i][0], MAX_STAGED);
}

static char **split_lines(char *text, int *n)
{
    int cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == '\n';
    char **lines = malloc(sizeof *lines * (size_t)cap);
    if (!lines)
        abort();
    *n = 0;
    for (char *p = text; p;) {
        lines[(*n)++] = p;
        if ((p = strchr(p, '\n')))
            *p++ = 0;
    }
    return lines;
}

char *knockout_ptx(const char *ptx, enum knock_kind k, const knock_layout *L, int *found)
{
    *found = 0;
    if (!ptx || k == KNOCK_NONE || k == KNOCK_CONST)
        return NULL;
    char *text = strdup(ptx);
    int n;
    char **lines = split_lines(text, &n);
    staged s;
    collect_staged(lines, n, &s);
    /* Pass 1 counts the new registers; pass 2 writes with them declared. */
    sbuf body = {0}, out = {0};
    int next = 0;
    for (int i = 0; i < n; i++)
        *found += rewrite_line(&body, lines[i], k, L, &s, &next);
    free(body.s);
    if (*found) {
        int used = next;
        sb_add(&out, "// knockout %d delta %lld\n", (int)k, L->delta);
        next = 0;
        for (int i = 0, in_header = 0; i < n; i++) {
            rewrite_line(&out, lines[i], k, L, &s, &next);
            if (strstr(lines[i], ".entry ") || strstr(lines[i], ".func "))
                in_header = 1;
            if (in_header && !strcmp(lines[i], "{")) {
                declare_registers(&out, used);
                in_header = 0;
            }
        }
    }
    free(lines);
    free(text);
    return *found ? out.s : NULL;
}

const char *knock_name(enum knock_kind k)
{
    switch (k) {
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
