/* knockout_staged.c: twin registers for the values stored to shared memory
 * (knockout_staged.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "knockout_staged.h"
#include "child_fail.h"

static int find_reg(const staged *s, const char *reg)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->reg[i], reg))
            return i;
    return -1;
}

/* The declared type of a register ("f32"), from its prefix; NULL unknown. */
static const char *type_of(const staged *s, const char *reg)
{
    size_t n = strlen(reg);
    while (n && isdigit((unsigned char)reg[n - 1]))
        n--;
    for (int i = 0; i < s->nprefix; i++)
        if (strlen(s->prefix[i]) == n && !strncmp(s->prefix[i], reg, n))
            return s->type[i];
    return NULL;
}

static int add_reg(staged *s, const char *reg)
{
    const char *t = type_of(s, reg);
    if (!t || !strcmp(t, "pred") || find_reg(s, reg) >= 0 || s->n == MAX_STAGED)
        return 0;
    snprintf(s->reg[s->n++], KO_REG_LEN, "%s", reg);
    return 1;
}

/* Operations without side effects whose result the twin can recompute. */
static int is_pure(const insn *in)
{
    static const char *const pure[] = {"mov.", "cvt.", "add.", "sub.", "mul.", "mad.",
                                       "fma.", "div.", "rcp.", "sqrt.", "rsqrt.", "neg.",
                                       "abs.", "min.", "max.", "selp.", "and.b", "or.b",
                                       "xor.b", "not.b", "shl.", "shr.", "ex2.", "lg2.",
                                       "copysign."};
    /* One destination; sources may be a vector ("mov.b64 %rd1, {%r1, %r2}"),
     * not memory. */
    if (!in->nops || strchr(in->ops[0], '{'))
        return 0;
    for (int o = 0; o < in->nops; o++)
        if (strchr(in->ops[o], '['))
            return 0;
    for (size_t i = 0; i < sizeof pure / sizeof *pure; i++)
        if (starts(in->op, pure[i]))
            return in->nops >= 2;
    return 0;
}

/* The staged register an instruction defines (its one destination), or -1. */
static int defined(const staged *s, const insn *in)
{
    char regs[4][KO_REG_LEN];
    if (!in->nops || !writes_operand0(in->op) || operand_regs(in->ops[0], regs) != 1)
        return -1;
    return find_reg(s, regs[0]);
}

/* One pass of growing the set backwards through pure operations, and of
 * marking the registers a load reaches. Returns 1 when something changed. */
static int grow(staged *s, const insn *code, int n)
{
    int changed = 0;
    char regs[4][KO_REG_LEN];
    for (int i = 0; i < n; i++) {
        const insn *in = &code[i];
        int r = defined(s, in), pure = is_pure(in);
        if (r < 0 && is_global_load(in->op) && in->nops) {
            for (int k = 0, m = operand_regs(in->ops[0], regs); k < m; k++) {
                int at = find_reg(s, regs[k]);
                if (at >= 0 && !s->has_load[at])
                    changed = s->has_load[at] = 1;
            }
            continue;
        }
        if (r < 0)
            continue;
        if (is_global_load(in->op) && !s->has_load[r])
            changed = s->has_load[r] = 1;
        for (int o = 1; pure && o < in->nops; o++)
            for (int k = 0, m = operand_regs(in->ops[o], regs); k < m; k++) {
                changed |= add_reg(s, regs[k]);
                int at = find_reg(s, regs[k]);
                if (at >= 0 && s->has_load[at] && !s->has_load[r])
                    changed = s->has_load[r] = 1;
            }
    }
    return changed;
}

void staged_collect(const ptx_prog *p, staged *s)
{
    memset(s, 0, sizeof *s);
    int n = p->n;
    insn *code = malloc(sizeof *code * (size_t)(n + 1));
    int m = 0;
    char type[16], prefix[KO_REG_LEN], regs[4][KO_REG_LEN];
    int count;
    if (!code)
        child_fail(OUT_INTERNAL, NULL, "The grader ran out of memory while following the values the kernel stores to shared memory (%d PTX statements).", n);
    for (int i = 0; i < n; i++) {
        for (int v = 0; v < reg_names(&p->stmt[i]); v++)
            if (reg_decl_of(&p->stmt[i], v, type, prefix, &count) && s->nprefix < MAX_PREFIX) {
                strcpy(s->type[s->nprefix], type);
                strcpy(s->prefix[s->nprefix++], prefix);
            }
        if (p->stmt[i].kind == PS_INSN)
            insn_from(&p->stmt[i].insn, &code[m++]);
    }
    for (int i = 0; i < m; i++)
        if (is_shared_store(code[i].op))
            for (int o = 1; o < code[i].nops; o++)
                for (int k = 0, r = operand_regs(code[i].ops[o], regs); k < r; k++)
                    add_reg(s, regs[k]);
    while (grow(s, code, m))
        ;
    free(code);
}

/* The twin of reg ("%kotf12"), or NULL when it has none. */
static const char *twin(const staged *s, const char *reg, char *name)
{
    int at = find_reg(s, reg);
    if (at < 0 || !s->has_load[at])
        return NULL;
    snprintf(name, KO_REG_LEN, "%%kot%.26s", reg + 1);
    return name;
}

/* An operand with every register that has a twin replaced by it, whole up
 * to the operand's bound (KO_OP_LEN - 1); a name that does not fit is cut
 * with what follows it. */
static void twin_operand(const staged *s, char *o)
{
    char out[KO_OP_LEN] = "", name[KO_REG_LEN], reg[KO_REG_LEN];
    size_t len = 0;
    for (const char *p = o; *p && len + 1 < sizeof out;) {
        if (*p != '%') {
            out[len++] = *p++;
            continue;
        }
        size_t n = 1;
        while (isalnum((unsigned char)p[n]) || p[n] == '_')
            n++;
        snprintf(reg, sizeof reg, "%.*s", (int)(n < KO_REG_LEN ? n : KO_REG_LEN - 1), p);
        const char *t = twin(s, reg, name);
        size_t k = strlen(t ? t : reg);
        if (len + k >= sizeof out)
            break;              /* no room for the whole name: cut before it */
        memcpy(out + len, t ? t : reg, k);
        len += k;
        p += n;
    }
    out[len] = 0;
    memcpy(o, out, len + 1);
}

/* After an ld.global: the same load from set B into the twins, scratch
 * registers for lanes without one. */
static int twin_load(sbuf *b, const insn *ld, const staged *s, long long delta, int *next)
{
    char regs[4][KO_REG_LEN], reg[KO_OP_LEN], rest[KO_OP_LEN], name[KO_REG_LEN];
    int m = operand_regs(ld->ops[0], regs), any = 0;
    for (int r = 0; r < m; r++)
        any |= twin(s, regs[r], name) != NULL;
    if (!any || ld->nops < 2 || !split_address(ld->ops[1], reg, rest))
        return 0;
    insn dup = *ld;
    int a = (*next)++;
    sb_add(b, "\tadd.s64 %%koa%d, %s, %lld;\n", a, reg, delta);
    snprintf(dup.ops[1], KO_OP_LEN, "[%%koa%d%.100s]", a, rest);
    char *d = dup.ops[0];
    size_t len = (size_t)snprintf(d, KO_OP_LEN, "%s", m > 1 ? "{" : "");
    for (int r = 0; r < m; r++) {
        const char *t = twin(s, regs[r], name);
        if (!t) {
            snprintf(name, sizeof name, "%%kos%.26s", regs[r] + 1);
            t = name;
        }
        len += (size_t)snprintf(d + len, KO_OP_LEN - len, "%s%s", r ? ", " : "", t);
    }
    if (m > 1)
        snprintf(d + len, KO_OP_LEN - len, "}");
    emit_insn(b, &dup);
    return 1;
}

static void twin_declarations(sbuf *b, const ptx_stmt *st)
{
    char type[16], prefix[KO_REG_LEN];
    int count;
    for (int v = 0; v < reg_names(st); v++)
        if (reg_decl_of(st, v, type, prefix, &count) && strcmp(type, "pred"))
            sb_add(b, "\t.reg .%s %%kot%s<%d>;\n\t.reg .%s %%kos%s<%d>;\n", type,
                   prefix + 1, count, type, prefix + 1, count);
}

int staged_follow(sbuf *b, const ptx_stmt *st, const insn *in, const staged *s,
                  long long delta, int *next)
{
    char regs[4][KO_REG_LEN], name[KO_REG_LEN];
    if (!in) {
        twin_declarations(b, st);
        return 0;
    }
    if (is_global_load(in->op))
        return twin_load(b, in, s, delta, next);
    int r = defined(s, in);
    if (r >= 0 && is_pure(in) && twin(s, s->reg[r], name)) {
        insn dup = *in;
        for (int o = 0; o < dup.nops; o++)
            twin_operand(s, dup.ops[o]);
        emit_insn(b, &dup);
        return 0;
    }
    if (!in->nops || !writes_operand0(in->op) || starts(in->op, "st."))
        return 0;
    for (int k = 0, m = operand_regs(in->ops[0], regs); k < m; k++)
        if (twin(s, regs[k], name))
            sb_add(b, "\t%s%smov.%s %s, %s;\n", in->pred, in->pred[0] ? " " : "",
                   type_of(s, regs[k]), name, regs[k]);
    return 0;
}

int staged_store(sbuf *b, insn *st, const staged *s)
{
    int carries = 0;
    for (int o = 1; o < st->nops; o++) {
        twin_operand(s, st->ops[o]);
        carries |= strstr(st->ops[o], "%kot") != NULL;
    }
    emit_insn(b, st);
    return carries;
}

int staged_reg_bits(const staged *s, const char *reg)
{
    const char *t = type_of(s, reg);
    return t ? atoi(t + 1) : 0;
}
