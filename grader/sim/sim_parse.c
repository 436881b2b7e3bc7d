/* sim_parse.c: PTX text into a module of decoded kernels.
 *
 * Statements end at ';' (not at line ends), braces open scopes whose .reg
 * declarations are local, `.loc` sets the source line of what follows,
 * labels end with ':'. Registers get dense indices per kernel; every
 * immediate, symbol address and special register gets a register filled
 * when a warp starts (sim_insn.h), so the engine reads only registers. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_module.h"

#define MAX_DECLS 256
#define MAX_DEPTH 16
#define MAX_OPS 8

typedef struct decl {
    char prefix[48];
    int count;               /* %r<92>: 92 names %r0..%r91; -1: one name */
    int base;
    int depth;
} decl;

typedef struct label { char name[64]; int at; } label;

typedef struct pctx {
    sim_module *m;
    const char *p;           /* the text being read */
    int line;                /* of the PTX, for errors */
    char *err;
    size_t len;
    /* the kernel being read */
    sim_kernel_code *k;
    decl decls[MAX_DECLS];
    int ndecls, depth;
    label *labels;
    int nlabels, caplabels;
    int capinsn, capinit;
    uint32_t src_line;
    int sink;                /* the register '_' writes to */
} pctx;

static int fail(pctx *c, const char *what, const char *at)
{
    int n = (int)strcspn(at, ";\n");
    snprintf(c->err, c->len, "PTX line %d: %s: %.*s", c->line, what, n > 80 ? 80 : n, at);
    return -1;
}

static void *grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    int n = *cap ? *cap * 2 : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(p, (size_t)n * size);
    if (!q)
        abort();             /* decode-time only: a few megabytes at most */
    *cap = n;
    return q;
}

uint32_t sim_keep_name(sim_module *m, const char *s)
{
    for (size_t at = 0; at < m->names_len; at += strlen(m->names + at) + 1)
        if (!strcmp(m->names + at, s))
            return (uint32_t)at;
    size_t n = strlen(s) + 1;
    if (m->names_len + n > m->names_cap) {
        m->names_cap = (m->names_len + n) * 2 + 256;
        m->names = realloc(m->names, m->names_cap);
        if (!m->names)
            abort();
    }
    memcpy(m->names + m->names_len, s, n);
    m->names_len += n;
    return (uint32_t)(m->names_len - n);
}

/* Skip blanks and comments, counting lines. */
static void skip(pctx *c)
{
    for (;;) {
        while (isspace((unsigned char)*c->p)) {
            if (*c->p == '\n')
                c->line++;
            c->p++;
        }
        if (c->p[0] == '/' && c->p[1] == '/') {
            while (*c->p && *c->p != '\n')
                c->p++;
        } else if (c->p[0] == '/' && c->p[1] == '*') {
            const char *e = strstr(c->p + 2, "*/");
            for (const char *q = c->p; q < (e ? e : c->p + strlen(c->p)); q++)
                c->line += *q == '\n';
            c->p = e ? e + 2 : c->p + strlen(c->p);
        } else {
            return;
        }
    }
}

/* Copy the statement up to ';' (not included) into buf; newlines become
 * spaces. Returns its length, or -1 when too long. */
static int statement(pctx *c, char *buf, size_t size)
{
    size_t n = 0;
    while (*c->p && *c->p != ';') {
        if (c->p[0] == '/' && c->p[1] == '/') {
            skip(c);
            continue;
        }
        char ch = *c->p++;
        if (ch == '\n') {
            c->line++;
            ch = ' ';
        }
        if (n + 1 >= size)
            return -1;
        buf[n++] = ch;
    }
    if (*c->p == ';')
        c->p++;
    buf[n] = 0;
    return (int)n;
}

static void rest_of_line(pctx *c, char *buf, size_t size)
{
    size_t n = 0;
    while (*c->p && *c->p != '\n') {
        if (n + 1 < size)
            buf[n++] = *c->p;
        c->p++;
    }
    buf[n] = 0;
}

/* ---- registers and the registers filled at warp start ---- */

static int new_reg(pctx *c)
{
    return c->k->nregs++;
}

static int add_init(pctx *c, int kind, uint64_t value)
{
    sim_kernel_code *k = c->k;
    for (int i = 0; i < k->ninit; i++)
        if (k->init[i].kind == kind && k->init[i].value == value)
            return k->init[i].reg;
    k->init = grow(k->init, &c->capinit, k->ninit + 1, sizeof *k->init);
    k->init[k->ninit] = (sim_init){.reg = new_reg(c), .kind = kind, .value = value};
    return k->init[k->ninit++].reg;
}

/* ".reg .b32 %r<92>" or ".reg .pred p, q" */
static int declare_regs(pctx *c, char *s)
{
    char *save = NULL;
    strtok_r(s, " \t", &save);                 /* .reg */
    char *rest = save;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    if (*rest == '.')                          /* the type */
        rest += strcspn(rest, " \t");
    for (char *name = strtok_r(rest, ", \t", &save); name; name = strtok_r(NULL, ", \t", &save)) {
        if (c->ndecls == MAX_DECLS)
            return fail(c, "too many register declarations", s);
        decl *d = &c->decls[c->ndecls++];
        char *lt = strchr(name, '<');
        int count = lt ? atoi(lt + 1) : -1;
        if (lt)
            *lt = 0;
        snprintf(d->prefix, sizeof d->prefix, "%s", name);
        d->count = count;
        d->depth = c->depth;
        d->base = c->k->nregs;
        c->k->nregs += count > 0 ? count : 1;
    }
    return 0;
}

static int lookup_reg(pctx *c, const char *name)
{
    for (int i = c->ndecls - 1; i >= 0; i--) {
        const decl *d = &c->decls[i];
        size_t n = strlen(d->prefix);
        if (strncmp(name, d->prefix, n))
            continue;
        if (d->count < 0) {
            if (!name[n])
                return d->base;
            continue;
        }
        const char *num = name + n;
        if (!*num || strspn(num, "0123456789") != strlen(num))
            continue;
        int i2 = atoi(num);
        if (i2 < d->count)
            return d->base + i2;
    }
    return -1;
}

static const struct { const char *name; int kind; } sregs[] = {
    {"%tid.x", SI_TID_X}, {"%tid.y", SI_TID_Y}, {"%tid.z", SI_TID_Z},
    {"%ntid.x", SI_NTID_X}, {"%ntid.y", SI_NTID_Y}, {"%ntid.z", SI_NTID_Z},
    {"%ctaid.x", SI_CTAID_X}, {"%ctaid.y", SI_CTAID_Y}, {"%ctaid.z", SI_CTAID_Z},
    {"%nctaid.x", SI_NCTAID_X}, {"%nctaid.y", SI_NCTAID_Y}, {"%nctaid.z", SI_NCTAID_Z},
    {"%laneid", SI_LANEID}, {"%warpid", SI_WARPID}, {"%nwarpid", SI_NWARPID},
    {"%smid", SI_SMID}, {"%nsmid", SI_NSMID}, {"%clock", SI_CLOCK}, {"%clock64", SI_CLOCK},
    {"%clock_hi", SI_CLOCK}, {"%globaltimer", SI_CLOCK}, {"%globaltimer_lo", SI_CLOCK},
    {"%globaltimer_hi", SI_CLOCK},
    {"%lanemask_lt", SI_LANEMASK_LT}, {"%lanemask_le", SI_LANEMASK_LE},
    {"%lanemask_eq", SI_LANEMASK_EQ}, {"%lanemask_ge", SI_LANEMASK_GE},
    {"%lanemask_gt", SI_LANEMASK_GT},
};

/* A symbol's address register: a parameter, a shared, global or const
 * variable, the local depot. -1 when the name is none of them. */
static int symbol_reg(pctx *c, const char *name)
{
    sim_kernel_code *k = c->k;
    char pname[SIM_NAME + 32];
    for (int i = 0; i < k->nparams; i++) {
        snprintf(pname, sizeof pname, "%s_param_%d", k->name, i);
        if (!strcmp(name, pname))
            return add_init(c, SI_PARAM_SYM, k->param_off[i]);
    }
    if (!strncmp(name, "__local_depot", 13))
        return add_init(c, SI_LOCAL_DEPOT, 0);
    for (int i = c->m->nvars - 1; i >= 0; i--) {
        const sim_var *v = &c->m->vars[i];
        if (strcmp(v->name, name))
            continue;
        if (v->space == SS_SHARED)   /* the index; its offset once laid out */
            return add_init(c, SI_SHARED_SYM, (uint64_t)i);
        return add_init(c, SI_GLOBAL_SYM, (uint64_t)i);
    }
    return -1;
}

/* A number: decimal or 0x hex integers, 0fXXXXXXXX (f32 bits), 0dX..X
 * (f64 bits), or a decimal float (as f64 bits). */
static int number(const char *s, uint64_t *v)
{
    char *end;
    if ((s[0] == '0') && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
        *v = strtoull(s + 2, &end, 16);
        return *end ? -1 : 0;
    }
    if (!isdigit((unsigned char)s[0]) && !(s[0] == '-' && isdigit((unsigned char)s[1])))
        return -1;
    if (strpbrk(s, ".eE") && !strpbrk(s, "xX")) {
        double d = strtod(s, &end);
        memcpy(v, &d, 8);
        return *end ? -1 : 0;
    }
    *v = s[0] == '-' ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
    if (*end == 'U')
        end++;
    return *end ? -1 : 0;
}

/* One name or number as a register. -1 when unknown. */
static int value_reg(pctx *c, const char *s)
{
    uint64_t v;
    if (!strcmp(s, "_"))
        return c->sink;
    if (number(s, &v) == 0)
        return add_init(c, SI_CONST, v);
    int r = lookup_reg(c, s);
    if (r >= 0)
        return r;
    for (size_t i = 0; i < sizeof sregs / sizeof *sregs; i++)
        if (!strcmp(s, sregs[i].name))
            return add_init(c, sregs[i].kind, 0);
    return symbol_reg(c, s);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

static int label_number(pctx *c, const char *name)
{
    for (int i = 0; i < c->nlabels; i++)
        if (!strcmp(c->labels[i].name, name))
            return i;
    c->labels = grow(c->labels, &c->caplabels, c->nlabels + 1, sizeof *c->labels);
    snprintf(c->labels[c->nlabels].name, sizeof c->labels[0].name, "%.63s", name);
    c->labels[c->nlabels].at = -1;
    return c->nlabels++;
}

/* "[%rd1+-8]", "[sym+4]", "[%r2]", "[16]" */
static int address(pctx *c, char *s, sim_operand *o)
{
    char *in = trim(s + 1);
    char *close = strrchr(in, ']');
    if (!close)
        return -1;
    *close = 0;
    o->kind = SK_ADDR;
    o->n = 1;
    o->off = 0;
    char *plus = strchr(in, '+');
    if (plus) {
        *plus = 0;
        uint64_t v;
        if (number(trim(plus + 1), &v) != 0)
            return -1;
        o->off = (int64_t)v;
    }
    in = trim(in);
    uint64_t v;
    if (number(in, &v) == 0) {
        o->reg[0] = add_init(c, SI_CONST, 0);
        o->off += (int64_t)v;
        return 0;
    }
    o->reg[0] = value_reg(c, in);
    return o->reg[0] < 0 ? -1 : 0;
}

static int operand(pctx *c, char *s, sim_operand *o, int is_branch)
{
    s = trim(s);
    memset(o, 0, sizeof *o);
    if (is_branch) {
        o->kind = SK_LABEL;
        o->off = label_number(c, s);
        return 0;
    }
    if (s[0] == '[')
        return address(c, s, o);
    if (s[0] == '{') {
        char *e = strrchr(s, '}');
        if (!e)
            return -1;
        *e = 0;
        o->kind = SK_VEC;
        char *save = NULL;
        for (char *t = strtok_r(s + 1, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            if (o->n == 4)
                return -1;
            int r = value_reg(c, trim(t));
            if (r < 0)
                return -1;
            o->reg[o->n++] = r;
        }
        return o->n ? 0 : -1;
    }
    char *bar = strchr(s, '|');
    if (bar) {
        *bar = 0;
        o->kind = SK_PAIR;
        o->n = 2;
        o->reg[0] = value_reg(c, trim(s));
        o->reg[1] = value_reg(c, trim(bar + 1));
        return o->reg[0] < 0 || o->reg[1] < 0 ? -1 : 0;
    }
    o->kind = SK_REG;
    o->n = 1;
    o->reg[0] = value_reg(c, s);
    return o->reg[0] < 0 ? -1 : 0;
}

/* Split operands on commas outside {} and []. */
static int split_operands(char *s, char *parts[MAX_OPS])
{
    int n = 0, depth = 0;
    char *start = s;
    if (!*trim(s))
        return 0;
    for (char *q = s;; q++) {
        if (*q == '{' || *q == '[') depth++;
        else if (*q == '}' || *q == ']') depth--;
        else if ((*q == ',' && depth == 0) || !*q) {
            int end = !*q;
            *q = 0;
            if (n == MAX_OPS)
                return -1;
            parts[n++] = start;
            start = q + 1;
            if (end)
                break;
        }
    }
    return n;
}

/* One instruction statement: [@[!]p] opcode operands */
static int instruction(pctx *c, char *s)
{
    sim_kernel_code *k = c->k;
    k->insn = grow(k->insn, &c->capinsn, k->ninsn + 1, sizeof *k->insn);
    sim_insn *in = &k->insn[k->ninsn];
    memset(in, 0, sizeof *in);
    in->guard = SIM_NO_REG;
    in->line = c->src_line;
    s = trim(s);
    if (*s == '@') {
        s++;
        if (*s == '!') {
            in->guard_neg = 1;
            s++;
        }
        char *sp = s + strcspn(s, " \t");
        *sp = 0;
        in->guard = value_reg(c, s);
        if (in->guard < 0)
            return fail(c, "unknown predicate", s);
        s = trim(sp + 1);
    }
    char *sp = s + strcspn(s, " \t");
    char op[160];
    snprintf(op, sizeof op, "%.*s", (int)(sp - s), s);
    in->text = sim_keep_name(c->m, op);
    char *parts[MAX_OPS];
    int n = split_operands(sp, parts);
    sim_operand o[MAX_OPS];
    int branch = !strncmp(op, "bra", 3) && (op[3] == 0 || op[3] == '.');
    if (!strncmp(op, "call", 4) && strstr(sp, "__assertfail")) {
        /* assert()'s failure path: the kernel stops itself (SO_TRAP) */
        in->op = SO_TRAP;
        k->ninsn++;
        return 0;
    }
    for (int i = 0; i < n; i++)
        if (operand(c, parts[i], &o[i], branch) != 0) {
            n = -1;
            break;
        }
    uint32_t text = in->text, line = in->line;
    int32_t guard = in->guard, neg = in->guard_neg;
    if (n < 0 && !strncmp(op, "st.param", 8))
        in->op = SO_NOP;     /* a call's argument: the call itself stops or traps */
    else if (n < 0)
        in->op = SO_UNSUPPORTED;
    else
        sim_decode_op(op, o, n, in);
    in->text = text;
    in->line = line;
    in->guard = guard;
    in->guard_neg = neg;
    k->ninsn++;
    return 0;
}

/* ".shared .align 8 .b8 name[16]" and the like, with an optional
 * initializer for .global/.const. */
static int variable(pctx *c, char *s, int space, int is_extern)
{
    char *eq = strchr(s, '=');
    if (eq)
        *eq = 0;
    size_t align = 1, elem = 1;
    char *name = NULL;
    char *save = NULL;
    for (char *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (!strcmp(t, ".align")) {
            char *a = strtok_r(NULL, " \t", &save);
            align = a ? (size_t)atoi(a) : 1;
        } else if (t[0] == '.') {
            int digits = atoi(t + 2);
            if (digits >= 8 && (t[1] == 'b' || t[1] == 'u' || t[1] == 's' || t[1] == 'f'))
                elem = (size_t)digits / 8;
        } else {
            name = t;
        }
    }
    if (!name)
        return fail(c, "a variable without a name", s);
    c->m->vars = realloc(c->m->vars, (size_t)(c->m->nvars + 1) * sizeof *c->m->vars);
    sim_var *v = &c->m->vars[c->m->nvars++];
    memset(v, 0, sizeof *v);
    char *br = strchr(name, '[');
    size_t count = 1;
    if (br) {
        count = (size_t)strtoull(br + 1, NULL, 10);
        *br = 0;
    }
    snprintf(v->name, sizeof v->name, "%s", name);
    v->space = space;
    v->bytes = count * elem;
    v->align = align ? align : 1;
    v->is_extern = is_extern || (br && count == 0);
    v->owner = c->k ? (int)(c->k - c->m->k) : -1;
    if (space != SS_SHARED) {
        v->data = calloc(1, v->bytes ? v->bytes : 1);
        if (!v->data || sim_mem_add(v->data, v->bytes ? v->bytes : 1) != 0)
            return fail(c, "no room for a module variable", name);
        if (eq) {
            /* {1, 2, 3} or one value, each of the element's size */
            char *save2 = NULL;
            size_t i = 0;
            for (char *t = strtok_r(eq + 1, "{}, \t", &save2); t && i < count;
                 t = strtok_r(NULL, "{}, \t", &save2), i++) {
                uint64_t val;
                if (number(t, &val) != 0)
                    return fail(c, "an initializer the simulator cannot read", t);
                if (elem == 4 && strchr(t, '.')) {
                    double d;
                    memcpy(&d, &val, 8);
                    float f = (float)d;
                    memcpy(&val, &f, 4);
                }
                memcpy(v->data + i * elem, &val, elem);
            }
        }
    }
    return 0;
}

/* Lay out the shared variables a kernel can name: the module's, then its
 * own; the extern (dynamic) array after them all. */
static size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

static void layout_shared(sim_module *m, sim_kernel_code *k)
{
    size_t at = 0, ext_align = 16;
    int self = (int)(k - m->k);
    for (int i = 0; i < m->nvars; i++) {
        sim_var *v = &m->vars[i];
        if (v->space != SS_SHARED || (v->owner >= 0 && v->owner != self))
            continue;
        if (v->is_extern) {
            ext_align = v->align > ext_align ? v->align : ext_align;
            continue;
        }
        at = align_up(at, v->align);
        v->data = (uint8_t *)(uintptr_t)at;   /* shared: the offset */
        at += v->bytes;
    }
    k->smem_static = at;
    k->dyn_base = align_up(at, ext_align);
}

/* The parameter list "( .param .u64 name_param_0, .param .align 8 .b8 x[16] )" */
static int params(pctx *c, char *list)
{
    sim_kernel_code *k = c->k;
    char *save = NULL;
    size_t at = 0;
    for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        if (k->nparams == SIM_MAX_PARAMS)
            return fail(c, "too many parameters", p);
        size_t size = 0, align = 0, count = 1;
        char *t = strstr(p, ".align");
        if (t)
            align = (size_t)atoi(t + 6);
        for (t = strchr(p, '.'); t; t = strchr(t + 1, '.')) {
            int bits = atoi(t + 2);
            if ((t[1] == 'u' || t[1] == 's' || t[1] == 'b' || t[1] == 'f') && bits >= 8)
                size = (size_t)bits / 8;
        }
        char *br = strchr(p, '[');
        if (br)
            count = (size_t)atoi(br + 1);
        if (!size)
            return fail(c, "a parameter the simulator cannot read", p);
        if (!align)
            align = size;
        at = align_up(at, align);
        k->param_off[k->nparams] = at;
        k->param_size[k->nparams++] = size * count;
        at += size * count;
    }
    k->param_bytes = at;
    return 0;
}

static int resolve_labels(pctx *c)
{
    sim_kernel_code *k = c->k;
    for (int i = 0; i < k->ninsn; i++) {
        sim_insn *in = &k->insn[i];
        if (in->op != SO_BRA)
            continue;
        int at = c->labels[in->target].at;
        if (at < 0)
            return fail(c, "a branch to a label that is not there", c->labels[in->target].name);
        in->target = at;
    }
    return 0;
}

/* The body of a kernel, from after its '{' to its '}'. */
static int body(pctx *c)
{
    char buf[4096];
    for (;;) {
        skip(c);
        if (!*c->p)
            return fail(c, "the kernel's body does not end", "");
        if (*c->p == '{') {
            c->p++;
            c->depth++;
            continue;
        }
        if (*c->p == '}') {
            c->p++;
            while (c->ndecls && c->decls[c->ndecls - 1].depth == c->depth)
                c->ndecls--;
            if (c->depth-- == 1)
                return 0;
            continue;
        }
        if (!strncmp(c->p, ".loc", 4) && isspace((unsigned char)c->p[4])) {
            rest_of_line(c, buf, sizeof buf);
            int file = 0, line = 0;
            if (sscanf(buf + 4, "%d %d", &file, &line) == 2)
                c->src_line = (uint32_t)line;
            continue;
        }
        size_t id = strspn(c->p, "$_.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                 "0123456789");
        if (id && c->p[id] == ':' && c->p[id + 1] != ':') {
            snprintf(buf, sizeof buf, "%.*s", (int)id, c->p);
            c->labels[label_number(c, buf)].at = c->k->ninsn;
            c->p += id + 1;
            continue;
        }
        if (statement(c, buf, sizeof buf) < 0)
            return fail(c, "a statement too long", c->p);
        char *s = trim(buf);
        /* labels, possibly before an instruction on the same statement */
        char *colon;
        while ((colon = strchr(s, ':')) && colon[1] != ':' && colon > s && colon[-1] != ':' &&
               strspn(s, "$_.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
               (size_t)(colon - s)) {
            *colon = 0;
            c->labels[label_number(c, s)].at = c->k->ninsn;
            s = trim(colon + 1);
        }
        if (!*s)
            continue;
        if (!strncmp(s, ".reg", 4)) {
            if (declare_regs(c, s) != 0)
                return -1;
        } else if (!strncmp(s, ".local", 6)) {
            char *br = strchr(s, '[');
            c->k->local_bytes += br ? (size_t)atoi(br + 1) : 8;
        } else if (!strncmp(s, ".shared", 7)) {
            if (variable(c, s, SS_SHARED, 0) != 0)
                return -1;
        } else if (!strncmp(s, ".pragma", 7) || !strncmp(s, ".file", 5) ||
                   !strncmp(s, ".param", 6)) {
            /* .param in a body declares a call's arguments: a call stops the
             * run (needs a GPU) only if it is executed */
            continue;
        } else if (s[0] == '.') {
            return fail(c, "a directive the simulator does not know", s);
        } else if (instruction(c, s) != 0) {
            return -1;
        }
    }
}

static int kernel(pctx *c, char *header)
{
    sim_module *m = c->m;
    m->k = realloc(m->k, (size_t)(m->nk + 1) * sizeof *m->k);
    sim_kernel_code *k = &m->k[m->nk];
    memset(k, 0, sizeof *k);
    c->k = k;
    char *e = strstr(header, ".entry");
    char *open = strchr(header, '(');
    if (!e || !open)
        return fail(c, "a kernel without a name", header);
    *open = 0;
    snprintf(k->name, sizeof k->name, "%s", trim(e + 6));
    char *close = strrchr(open + 1, ')');
    if (!close)
        return fail(c, "a kernel's parameters do not end", k->name);
    *close = 0;
    if (params(c, open + 1) != 0)
        return -1;
    char *mx = strstr(close + 1, ".maxntid");
    if (!mx)
        mx = strstr(close + 1, ".reqntid");
    if (mx) {
        int x = 1, y = 1, z = 1;
        sscanf(mx + 8, "%d , %d , %d", &x, &y, &z);
        k->max_threads = x * y * z;
    }
    c->ndecls = 0;
    c->depth = 1;
    c->nlabels = 0;
    c->capinsn = c->capinit = 0;
    c->src_line = 0;
    c->sink = new_reg(c);
    /* Shared variables declared in the body get their offsets after it is
     * read; their address registers are filled from v->data then. */
    if (body(c) != 0 || resolve_labels(c) != 0)
        return -1;
    layout_shared(m, k);
    for (int i = 0; i < k->ninit; i++)
        if (k->init[i].kind == SI_SHARED_SYM) {
            const sim_var *v = &m->vars[k->init[i].value];
            k->init[i].kind = SI_CONST;
            k->init[i].value = v->is_extern ? k->dyn_base : (uint64_t)(uintptr_t)v->data;
        }
    m->nk++;
    c->k = NULL;
    return 0;
}

/* Skip a non-entry function's body (a call to it is not supported). */
static void skip_body(pctx *c)
{
    int depth = 1;
    while (*c->p && depth) {
        if (*c->p == '{') depth++;
        else if (*c->p == '}') depth--;
        else if (*c->p == '\n') c->line++;
        c->p++;
    }
}

int sim_parse_module(sim_module *m, const char *ptx, char *err, size_t len)
{
    pctx c = {.m = m, .p = ptx, .line = 1, .err = err, .len = len};
    char buf[8192];
    for (;;) {
        skip(&c);
        if (!*c.p)
            break;
        if (!strncmp(c.p, ".version", 8) || !strncmp(c.p, ".target", 7) ||
            !strncmp(c.p, ".address_size", 13) || !strncmp(c.p, ".file", 5)) {
            rest_of_line(&c, buf, sizeof buf);
            continue;
        }
        /* a header up to its '{' or ';' */
        size_t n = 0;
        int init = 0;        /* after '=': an initializer's braces are not a body */
        while (*c.p && (init || *c.p != '{') && *c.p != ';' && n + 1 < sizeof buf) {
            init |= *c.p == '=';
            if (*c.p == '\n')
                c.line++;
            buf[n++] = *c.p == '\n' ? ' ' : *c.p;
            c.p++;
        }
        buf[n] = 0;
        char end = *c.p;
        if (end)
            c.p++;
        char *s = trim(buf);
        if (end == '{' && strstr(s, ".entry")) {
            if (kernel(&c, s) != 0)
                return -1;
        } else if (end == '{') {
            skip_body(&c);
        } else if (strstr(s, ".func")) {
            continue;
        } else if (strstr(s, ".shared")) {
            if (variable(&c, s, SS_SHARED, strstr(s, ".extern") != NULL) != 0)
                return -1;
        } else if (strstr(s, ".global") || strstr(s, ".const")) {
            if (variable(&c, s, strstr(s, ".const") ? SS_CONST : SS_GLOBAL, 0) != 0)
                return -1;
        } else if (*s) {
            return fail(&c, "a statement the simulator cannot read", s);
        }
    }
    return 0;
}
