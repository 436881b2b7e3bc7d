/* ptx_query.c: questions about read statements, and statements written
 * back as text (ptx.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

int ptx_insn_is(const ptx_insn *in, const char *prefix)
{
    int i = 0;
    for (const char *p = prefix; *p; i++) {
        size_t k = strcspn(p, ".");
        if (i >= in->nparts || strlen(in->part[i]) != k || strncmp(in->part[i], p, k))
            return 0;
        p += k;
        if (*p == '.')
            p++;
    }
    return i > 0;
}

int ptx_insn_has(const ptx_insn *in, const char *part)
{
    for (int i = 1; i < in->nparts; i++)
        if (!strcmp(in->part[i], part))
            return 1;
    return 0;
}

int ptx_insn_has_prefix(const ptx_insn *in, const char *start)
{
    size_t k = strlen(start);
    for (int i = 1; i < in->nparts; i++)
        if (!strncmp(in->part[i], start, k))
            return 1;
    return 0;
}

static void regs_of(const ptx_operand *o, const char **out, int max, int *n)
{
    if (o->kind == PO_REG) {
        if (*n < max)
            out[*n] = o->name;
        (*n)++;
        return;
    }
    if (o->kind == PO_ADDR && o->base == PB_REG && o->name) {
        if (*n < max)
            out[*n] = o->name;
        (*n)++;
    }
    for (int i = 0; i < o->nelem; i++)
        regs_of(&o->elem[i], out, max, n);
}

int ptx_operand_regs(const ptx_operand *o, const char **out, int max)
{
    int n = 0;
    regs_of(o, out, max, &n);
    return n;
}

/* Does the register `reg` fall under `v` ("%r<5>" holds %r0..%r4)? */
static int names_reg(const ptx_var *v, const char *reg)
{
    if (v->count < 0)
        return !strcmp(v->name, reg);
    size_t k = strlen(v->name);
    if (strncmp(v->name, reg, k) || !reg[k] || strlen(reg + k) > 9)
        return 0;
    for (const char *p = reg + k; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    return atol(reg + k) < v->count;
}

/* Is scope `inner` `outer` or inside it? */
static int within(const ptx_prog *p, int inner, int outer)
{
    for (int s = inner; s >= 0; s = p->scopes[s].parent)
        if (s == outer)
            return 1;
    return 0;
}

/* How deep scope s is (the file: 0). */
static int depth_of(const ptx_prog *p, int s)
{
    int d = 0;
    for (; s > 0; s = p->scopes[s].parent)
        d++;
    return d;
}

const ptx_decl *ptx_find_reg(const ptx_prog *p, int at, const char *reg, const ptx_var **var)
{
    if (at < 0 || at >= p->n || !reg)
        return NULL;
    int from = p->stmt[at].scope, best_depth = -1;
    const ptx_decl *best = NULL;
    /* The innermost declaration among the scopes around `at`; a function's
     * parameters (.reg ones of a .func) count as its body's. */
    for (int k = 0; k < p->nreg_at; k++) {
        const ptx_stmt *s = &p->stmt[p->reg_at[k]];
        if (!within(p, from, s->scope))
            continue;
        for (int v = 0; v < s->dir.decl.nvars; v++)
            if (names_reg(&s->dir.decl.var[v], reg) && depth_of(p, s->scope) > best_depth) {
                best = &s->dir.decl;
                best_depth = depth_of(p, s->scope);
                if (var)
                    *var = &s->dir.decl.var[v];
            }
    }
    return best;
}

int ptx_find_label(const ptx_prog *p, int at, const char *name)
{
    if (at < 0 || at >= p->n || !name)
        return -1;
    int from = p->stmt[at].scope, best = -1, best_depth = -1;
    for (int k = 0; k < p->nlabel_at; k++) {
        int i = p->label_at[k];
        const ptx_stmt *s = &p->stmt[i];
        if ( !strcmp(s->label, name) && s->func == p->stmt[at].func &&
            within(p, from, s->scope) && depth_of(p, s->scope) > best_depth) {
            best = i;
            best_depth = depth_of(p, s->scope);
        }
    }
    return best;
}

int ptx_stmt_text(const ptx_stmt *s, char *out, size_t len)
{
    if (s->kind == PS_LABEL)
        return snprintf(out, len, "%s:", s->label);
    return snprintf(out, len, "%s%s", s->text, s->semi ? ";" : "");
}

int ptx_insn_text(const ptx_insn *in, char *out, size_t len)
{
    size_t at = 0;
    int need = 0;
#define ADD(...)                                                                   \
    do {                                                                           \
        int k_ = snprintf(out + (at < len ? at : len), at < len ? len - at : 0,    \
                          __VA_ARGS__);                                            \
        need += k_;                                                                \
        at += (size_t)k_;                                                          \
    } while (0)
    if (in->pred)
        ADD("@%s%s ", in->pred_neg ? "!" : "", in->pred);
    ADD("%s", in->opcode);
    for (int i = 0; i < in->nops; i++)
        ADD("%s%s", i ? ", " : " ", in->op[i].text);
    ADD(";");
#undef ADD
    return need;
}
