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

static const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Operands: split at commas outside braces and brackets. */
static void split_operands(const char *line, insn *in)
{
    int depth = 0;
    const char *start = line;
    for (const char *p = line;; p++) {
        depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
        if ((*p != ',' || depth) && *p != ';' && *p)
            continue;
        start = skip_blanks(start);
        size_t len = (size_t)(p - start);
        while (len && (start[len - 1] == ' ' || start[len - 1] == '\t'))
            len--;
        if (len && in->nops < KO_MAX_OPS)
            snprintf(in->ops[in->nops++], KO_OP_LEN, "%.*s", (int)len, start);
        if (*p != ',')
            return;
        start = p + 1;
    }
}

int parse_insn(const char *line, insn *in)
{
    memset(in, 0, sizeof *in);
    line = skip_blanks(line);
    if (*line == '@') {
        size_t n = strcspn(line, " \t");
        snprintf(in->pred, sizeof in->pred, "%.*s", (int)n, line);
        line = skip_blanks(line + n);
    }
    if (!(*line >= 'a' && *line <= 'z') || !strchr(line, ';'))
        return 0;
    size_t n = strcspn(line, " \t;");
    snprintf(in->op, sizeof in->op, "%.*s", (int)n, line);
    split_operands(line + n, in);
    return 1;
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

int parse_reg_decl(const char *line, char *type, char *prefix, int *count)
{
    char t[16], p[KO_REG_LEN];
    if (sscanf(line, " .reg .%15s %31[^<]<%d>;", t, p, count) != 3 || p[0] != '%')
        return 0;
    strcpy(type, t);
    strcpy(prefix, p);
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
