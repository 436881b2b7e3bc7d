/* knockout_ptx.c: PTX lines split and written back (knockout_ptx.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "knockout_ptx.h"
#include "child_fail.h"

void sb_add(sbuf *b, const char *fmt, ...)
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
            child_fail(OUT_INTERNAL, NULL, "The grader ran out of memory while rewriting the kernel's PTX for the knock-out run (%zu bytes).", b->cap);
    }
}

void insn_from(const ptx_insn *pi, insn *in)
{
    memset(in, 0, sizeof *in);
    if (pi->pred)
        snprintf(in->pred, sizeof in->pred, "@%s%s", pi->pred_neg ? "!" : "", pi->pred);
    snprintf(in->op, sizeof in->op, "%s", pi->opcode);
    for (int i = 0; i < pi->nops && in->nops < KO_MAX_OPS; i++)
        if (pi->op[i].text[0])
            snprintf(in->ops[in->nops++], KO_OP_LEN, "%s", pi->op[i].text);
}

int parse_insn(const char *line, insn *in)
{
    memset(in, 0, sizeof *in);
    ptx_prog *p = ptx_read(line);
    if (!p)
        child_fail(OUT_INTERNAL, NULL, "The grader ran out of memory while reading one PTX instruction.");
    const ptx_stmt *s = p->n ? &p->stmt[0] : NULL;
    int is = s && s->kind == PS_INSN && s->semi && s->insn.opcode[0] >= 'a' &&
             s->insn.opcode[0] <= 'z';
    if (is)
        insn_from(&s->insn, in);
    ptx_free(p);
    return is;
}

void emit_stmt(sbuf *b, const ptx_stmt *s)
{
    char small[256];
    int need = ptx_stmt_text(s, small, sizeof small);
    int indent = s->scope > 0 && s->kind != PS_OPEN && s->kind != PS_CLOSE &&
                 s->kind != PS_LABEL;
    if ((size_t)need < sizeof small) {
        sb_add(b, "%s%s\n", indent ? "\t" : "", small);
        return;
    }
    char *big = malloc((size_t)need + 1);
    if (!big)
        child_fail(OUT_INTERNAL, NULL, "The grader ran out of memory while rewriting the kernel's PTX for the knock-out run (%d bytes).", need);
    ptx_stmt_text(s, big, (size_t)need + 1);
    sb_add(b, "%s%s\n", indent ? "\t" : "", big);
    free(big);
}

void emit_insn(sbuf *b, const insn *in)
{
    sb_add(b, "\t%s%s%s", in->pred, in->pred[0] ? " " : "", in->op);
    for (int i = 0; i < in->nops; i++)
        sb_add(b, "%s%s", i ? ", " : " ", in->ops[i]);
    sb_add(b, ";\n");
}

int starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

int operand_regs(const char *o, char regs[4][KO_REG_LEN])
{
    int n = 0;
    for (const char *p = o; (p = strchr(p, '%')) && n < 4;) {
        size_t len = strcspn(p, ",} |]+;");
        snprintf(regs[n++], KO_REG_LEN, "%.*s", (int)(len < KO_REG_LEN ? len : KO_REG_LEN - 1),
                 p);
        p += len;
    }
    return n;
}

int split_address(const char *a, char *reg, char *rest)
{
    if (a[0] != '[' || a[1] != '%')
        return 0;
    size_t n = strcspn(a + 1, "+]");
    snprintf(reg, KO_OP_LEN, "%.*s", (int)n, a + 1);
    snprintf(rest, KO_OP_LEN, "%.*s", (int)(strlen(a + 1 + n) - 1), a + 1 + n);
    return 1;
}

int reg_names(const ptx_stmt *s)
{
    return s->kind == PS_DIRECTIVE && s->dir.kind == PD_VAR && !strcmp(s->dir.decl.space, "reg")
               ? s->dir.decl.nvars : 0;
}

int reg_decl_of(const ptx_stmt *s, int v, char *type, char *prefix, int *count)
{
    if (v < 0 || v >= reg_names(s))
        return 0;
    const ptx_var *var = &s->dir.decl.var[v];
    if (!s->dir.decl.type || var->count < 0 || var->name[0] != '%' ||
        strlen(s->dir.decl.type) >= 16 || strlen(var->name) >= KO_REG_LEN)
        return 0;
    strcpy(type, s->dir.decl.type);
    strcpy(prefix, var->name);
    *count = var->count;
    return 1;
}

int is_global_load(const char *op)
{
    return starts(op, "ld.") && strstr(op, ".global") != NULL;
}

int is_shared_store(const char *op)
{
    return starts(op, "st.") && strstr(op, ".shared") != NULL;
}

int writes_operand0(const char *op)
{
    static const char *const not_a_def[] = {"st.", "cp.", "prefetch", "bar", "membar",
                                            "fence", "red.", "ret", "bra", "call", "exit",
                                            "mbarrier.init", "mbarrier.arrive.noComplete"};
    for (size_t i = 0; i < sizeof not_a_def / sizeof *not_a_def; i++)
        if (starts(op, not_a_def[i]))
            return 0;
    return 1;
}
