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

const ptx_decl *ptx_find_reg(const ptx_prog *p, int at, const char *reg, const ptx_var **var)
{
    if (at < 0 || at >= p->n || !reg || !p->first_reg)
        return NULL;
    /* The innermost scope around `at` that declares it. */
    for (int sc = p->stmt[at].scope; sc >= 0; sc = p->scopes[sc].parent)
        for (int i = p->first_reg[sc]; i >= 0; i = p->next_in_scope[i]) {
            const ptx_decl *d = &p->stmt[i].dir.decl;
            for (int v = 0; v < d->nvars; v++)
                if (names_reg(&d->var[v], reg)) {
                    if (var)
                        *var = &d->var[v];
                    return d;
                }
        }
    return NULL;
}

int ptx_find_label(const ptx_prog *p, int at, const char *name)
{
    if (at < 0 || at >= p->n || !name || !p->first_label)
        return -1;
    for (int sc = p->stmt[at].scope; sc >= 0; sc = p->scopes[sc].parent)
        for (int i = p->first_label[sc]; i >= 0; i = p->next_in_scope[i])
            if (!strcmp(p->stmt[i].label, name) && p->stmt[i].func == p->stmt[at].func)
                return i;
    return -1;
}

int ptx_find_entry(const ptx_prog *p, const char *name)
{
    for (int i = 0; name && i < p->n; i++) {
        const ptx_stmt *s = &p->stmt[i];
        if (s->kind == PS_DIRECTIVE && s->dir.kind == PD_ENTRY && !s->semi &&
            !s->dir.is_extern && !strcmp(s->dir.func, name))
            return i;
    }
    return -1;
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
