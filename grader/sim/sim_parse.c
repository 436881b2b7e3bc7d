/* sim_parse.c: the statements of the grader's PTX reader (ptx.h) into a
 * module of decoded kernels.
 *
 * The reader has cut the text into statements (at ';', braces and labels,
 * never at line ends), typed the operands and put the .loc line on every
 * instruction. Here registers get dense indices per kernel, scoped as the
 * braces say; every immediate, symbol address and special register gets a
 * register filled when a warp starts (sim_insn.h), so the engine reads only
 * registers; labels become instruction indices. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx.h"
#include "sim_module.h"

#define MAX_DECLS 256
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
    const ptx_prog *p;
    char *err;
    size_t len;
    /* the kernel being read */
    sim_kernel_code *k;
    decl decls[MAX_DECLS];
    int ndecls, depth;
    label *labels;
    int nlabels, caplabels;
    int capinsn, capinit;
    int sink;                /* the register '_' writes to */
    /* The kernel's own file (that of its first .loc) and the last line of
     * it seen: an instruction inlined from a header is placed at the line
     * of the kernel's file that called it, which is the line the student
     * can act on. */
    int main_file, main_line;
} pctx;

static int fail(pctx *c, int line, const char *what, const char *text)
{
    snprintf(c->err, c->len, "PTX line %d: %s: %.80s", line, what, text ? text : "");
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


/* ---- declarations ---- */

/* .reg .b32 %r<92>; .reg .pred p, q; */
static int declare_regs(pctx *c, const ptx_stmt *s)
{
    const ptx_decl *d = &s->dir.decl;
    for (int i = 0; i < d->nvars; i++) {
        if (c->ndecls == MAX_DECLS)
            return fail(c, s->line, "too many register declarations", s->text);
        decl *x = &c->decls[c->ndecls++];
        snprintf(x->prefix, sizeof x->prefix, "%s", d->var[i].name);
        x->count = d->var[i].count;
        x->depth = c->depth;
        x->base = c->k->nregs;
        c->k->nregs += x->count > 0 ? x->count : 1;
    }
    return 0;
}

/* The initializer "{1, 2, 3}" or "5" of a .global/.const variable, each
 * value of the element's size. */
static int initialise(pctx *c, const ptx_stmt *s, sim_var *v, size_t elem, const char *init)
{
    char buf[8192];
    snprintf(buf, sizeof buf, "%s", init);
    char *save = NULL;
    size_t i = 0, count = elem ? v->bytes / elem : 0;
    for (char *t = strtok_r(buf, "{}, \t\n", &save); t && i < count;
         t = strtok_r(NULL, "{}, \t\n", &save), i++) {
        uint64_t val;
        if (number(t, &val) != 0)
            return fail(c, s->line, "an initializer the simulator cannot read", t);
        if (elem == 4 && strchr(t, '.') && t[1] != 'f') {
            double d;
            memcpy(&d, &val, 8);
            float f = (float)d;
            memcpy(&val, &f, 4);
        }
        memcpy(v->data + i * elem, &val, elem);
    }
    return 0;
}

/* A .shared, .global or .const variable, at module scope or in a body. */
static int variable(pctx *c, const ptx_stmt *s, int space)
{
    const ptx_decl *d = &s->dir.decl;
    size_t elem = (size_t)(d->elem_bytes > 0 ? d->elem_bytes : 1) * (size_t)(d->vec > 0 ? d->vec : 1);
    for (int i = 0; i < d->nvars; i++) {
        const ptx_var *pv = &d->var[i];
        sim_var *vars = realloc(c->m->vars, (size_t)(c->m->nvars + 1) * sizeof *vars);
        if (!vars)
            return fail(c, s->line, "out of memory", s->text);
        c->m->vars = vars;
        sim_var *v = &vars[c->m->nvars++];
        memset(v, 0, sizeof *v);
        snprintf(v->name, sizeof v->name, "%s", pv->name);
        v->space = space;
        v->is_extern = d->is_extern || pv->bytes < 0;
        v->bytes = pv->bytes > 0 ? (size_t)pv->bytes : 0;
        v->align = d->align > 0 ? (size_t)d->align : elem;
        v->owner = c->k ? (int)(c->k - c->m->k) : -1;
        if (space == SS_SHARED)
            continue;
        v->data = calloc(1, v->bytes ? v->bytes : 1);
        if (!v->data || sim_mem_add(v->data, v->bytes ? v->bytes : 1) != 0)
            return fail(c, s->line, "no room for a module variable", pv->name);
        if (pv->init && initialise(c, s, v, elem, pv->init) != 0)
            return -1;
    }
    return 0;
}

static int space_of(const char *space)
{
    if (!strcmp(space, "shared")) return SS_SHARED;
    if (!strcmp(space, "global")) return SS_GLOBAL;
    if (!strcmp(space, "const")) return SS_CONST;
    return -1;
}

/* ---- operands ---- */

static int operand(pctx *c, const ptx_operand *po, sim_operand *o)
{
    memset(o, 0, sizeof *o);
    o->kind = SK_REG;
    o->n = 1;
    switch (po->kind) {
    case PO_REG:
        o->reg[0] = po->neg ? -1 : value_reg(c, po->name);
        break;
    case PO_SINK:
        o->reg[0] = c->sink;
        break;
    case PO_IMM:
        o->reg[0] = add_init(c, SI_CONST, (uint64_t)po->imm);
        break;
    case PO_FIMM: {
        uint64_t bits = po->fbits;
        if (!bits && po->fimm != 0.0)
            memcpy(&bits, &po->fimm, 8);
        o->reg[0] = add_init(c, SI_CONST, bits);
        break;
    }
    case PO_SYM:
        o->reg[0] = symbol_reg(c, po->name);
        break;
    case PO_LABEL:
        o->kind = SK_LABEL;
        o->off = label_number(c, po->name);
        return 0;
    case PO_VEC:
    case PO_PAIR:
        if (po->nelem < 1 || po->nelem > 4)
            return -1;
        o->kind = po->kind == PO_VEC ? SK_VEC : SK_PAIR;
        o->n = po->nelem;
        for (int i = 0; i < po->nelem; i++) {
            sim_operand e;
            if (operand(c, &po->elem[i], &e) != 0 || e.kind != SK_REG)
                return -1;
            o->reg[i] = e.reg[0];
        }
        return 0;
    case PO_ADDR:
        if (po->nelem)
            return -1;       /* a tensor or texture address */
        o->kind = SK_ADDR;
        o->off = po->base == PB_IMM ? 0 : po->imm;
        o->reg[0] = po->base == PB_IMM ? add_init(c, SI_CONST, (uint64_t)po->imm)
                  : po->base == PB_SYM ? symbol_reg(c, po->name) : value_reg(c, po->name);
        break;
    default:
        return -1;
    }
    return o->reg[0] < 0 ? -1 : 0;
}

/* The register of a call's argument or result ("param0", "retval0",
 * declared .param in the call's braces) that the address operand names
 * with no offset; -1 otherwise. */
static int call_param(pctx *c, const ptx_operand *o)
{
    if (o->kind != PO_ADDR || o->base != PB_SYM || o->imm != 0 || !o->name)
        return -1;
    return lookup_reg(c, o->name);
}

/* A call's pieces as register moves and one SO_PRINTF: st.param into an
 * argument and ld.param of the result are moves; a call of vprintf is
 * SO_PRINTF (a: the format's address, b: the arguments' buffer, d[0]: the
 * result). 1 when `pi` was one of them (decoded into in), else 0. */
static int call_piece(pctx *c, const ptx_insn *pi, sim_insn *in)
{
    char mov[32];
    const char *type = pi->part[pi->nparts - 1];
    snprintf(mov, sizeof mov, "mov.%s", type);
    sim_operand o[2];
    /* st.param [param0], v: param is operand 0; ld.param v, [retval0]: 1 */
    int at = ptx_insn_is(pi, "st.param") ? 0 : ptx_insn_is(pi, "ld.param") ? 1 : -1;
    int r = at >= 0 && pi->nops == 2 ? call_param(c, &pi->op[at]) : -1;
    if (r >= 0) {
        if (operand(c, &pi->op[1 - at], &o[1 - at]) != 0)
            return 0;
        o[at] = (sim_operand){.kind = SK_REG, .n = 1, .reg = {r}};
        sim_decode_op(mov, o, 2, in);
        return 1;
    }
    if (!ptx_insn_is(pi, "call") || pi->nops != 3 || pi->op[1].kind != PO_SYM ||
        strcmp(pi->op[1].name, "vprintf") || pi->op[0].kind != PO_LIST ||
        pi->op[0].nelem != 1 || pi->op[2].kind != PO_LIST || pi->op[2].nelem != 2)
        return 0;
    int ret = lookup_reg(c, pi->op[0].elem[0].name ? pi->op[0].elem[0].name : "");
    int fmt = lookup_reg(c, pi->op[2].elem[0].name ? pi->op[2].elem[0].name : "");
    int args = lookup_reg(c, pi->op[2].elem[1].name ? pi->op[2].elem[1].name : "");
    if (ret < 0 || fmt < 0 || args < 0)
        return 0;
    in->op = SO_PRINTF;
    in->d[0] = ret;
    in->a = fmt;
    in->b = args;
    return 1;
}

/* One instruction: its guard, opcode and operands into the next sim_insn. */
static int instruction(pctx *c, const ptx_stmt *s)
{
    const ptx_insn *pi = &s->insn;
    sim_kernel_code *k = c->k;
    k->insn = grow(k->insn, &c->capinsn, k->ninsn + 1, sizeof *k->insn);
    sim_insn *in = &k->insn[k->ninsn++];
    memset(in, 0, sizeof *in);
    in->guard = SIM_NO_REG;
    if (pi->loc_line > 0 && !c->main_file)
        c->main_file = pi->loc_file;
    if (pi->loc_file == c->main_file)
        c->main_line = pi->loc_line;
    uint32_t line = (uint32_t)(c->main_line > 0 ? c->main_line : 0);
    uint32_t text = sim_keep_name(c->m, pi->opcode);
    int32_t guard = SIM_NO_REG;
    if (pi->pred) {
        guard = value_reg(c, pi->pred);
        if (guard < 0)
            return fail(c, s->line, "an unknown predicate", pi->pred);
    }
    sim_operand o[MAX_OPS];
    int n = pi->nops <= MAX_OPS ? pi->nops : -1;
    for (int i = 0; i < n; i++)
        if (operand(c, &pi->op[i], &o[i]) != 0)
            n = -1;
    if (call_piece(c, pi, in))
        ;                    /* a move of a call's argument or result, or printf */
    else if (ptx_insn_is(pi, "call") && strstr(s->text, "__assertfail"))
        in->op = SO_TRAP;    /* assert()'s failure path: the kernel stops itself */
    else if (n < 0 && ptx_insn_is(pi, "st.param"))
        in->op = SO_NOP;     /* a call's argument: the call itself stops or traps */
    else if (n < 0)
        in->op = SO_UNSUPPORTED;
    else
        sim_decode_op(pi->opcode, o, n, in);
    in->text = text;
    in->line = line;
    in->guard = guard;
    in->guard_neg = pi->pred_neg;
    return 0;
}

/* ---- kernels ---- */

static size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* Lay out the shared variables a kernel can name: the module's and its
 * own; the extern (dynamic) array after them all. */
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
        at = align_up(at, v->align ? v->align : 1);
        v->data = (uint8_t *)(uintptr_t)at;   /* shared: the offset */
        at += v->bytes;
    }
    k->smem_static = at;
    k->dyn_base = align_up(at, ext_align);
    for (int i = 0; i < k->ninit; i++)
        if (k->init[i].kind == SI_SHARED_SYM) {
            const sim_var *v = &m->vars[k->init[i].value];
            k->init[i].kind = SI_CONST;
            k->init[i].value = v->is_extern ? k->dyn_base : (uint64_t)(uintptr_t)v->data;
        }
}

static int params(pctx *c, const ptx_stmt *s)
{
    sim_kernel_code *k = c->k;
    size_t at = 0;
    for (int i = 0; i < s->dir.nparams; i++) {
        const ptx_decl *d = &s->dir.params[i];
        if (k->nparams == SIM_MAX_PARAMS || d->nvars != 1 || d->var[0].bytes <= 0)
            return fail(c, s->line, "a parameter the simulator cannot read", s->text);
        size_t align = d->align > 0 ? (size_t)d->align : (size_t)d->elem_bytes;
        at = align_up(at, align ? align : 1);
        k->param_off[k->nparams] = at;
        k->param_size[k->nparams++] = (size_t)d->var[0].bytes;
        at += (size_t)d->var[0].bytes;
    }
    k->param_bytes = at;
    const char *mx = strstr(s->text, ".maxntid");
    if (!mx)
        mx = strstr(s->text, ".reqntid");
    if (mx) {
        int x = 1, y = 1, z = 1;
        sscanf(mx + 8, "%d , %d , %d", &x, &y, &z);
        k->max_threads = x * y * z;
    }
    return 0;
}

static int resolve_labels(pctx *c, int line)
{
    sim_kernel_code *k = c->k;
    for (int i = 0; i < k->ninsn; i++) {
        sim_insn *in = &k->insn[i];
        if (in->op != SO_BRA)
            continue;
        int at = c->labels[in->target].at;
        if (at < 0)
            return fail(c, line, "a branch to a label that is not there",
                        c->labels[in->target].name);
        in->target = at;
    }
    return 0;
}

/* One statement of a kernel's body. */
static int body_statement(pctx *c, const ptx_stmt *s)
{
    switch (s->kind) {
    case PS_OPEN:
        c->depth++;
        return 0;
    case PS_CLOSE:
        while (c->ndecls && c->decls[c->ndecls - 1].depth == c->depth)
            c->ndecls--;
        c->depth--;
        return 0;
    case PS_LABEL:
    {
        /* label_number may move c->labels: index after the call */
        int i = label_number(c, s->label);
        c->labels[i].at = c->k->ninsn;
        return 0;
    }
    case PS_INSN:
        return instruction(c, s);
    case PS_DIRECTIVE:
        break;
    }
    if (s->dir.kind != PD_VAR)
        return 0;            /* .loc (already on each instruction), .pragma */
    const char *space = s->dir.decl.space;
    if (!strcmp(space, "reg"))
        return declare_regs(c, s);
    if (!strcmp(space, "local")) {
        for (int i = 0; i < s->dir.decl.nvars; i++)
            c->k->local_bytes += (size_t)(s->dir.decl.var[i].bytes > 0 ? s->dir.decl.var[i].bytes : 0);
        return 0;
    }
    if (!strcmp(space, "param"))
        return declare_regs(c, s);   /* a call's arguments and result: registers here */
    int sp = space_of(space);
    if (sp < 0)
        return fail(c, s->line, "a declaration the simulator does not know", s->text);
    return variable(c, s, sp);
}

/* The kernel whose .entry is statement `at`; returns the statement after
 * its body, or -1. */
static int kernel(pctx *c, int at)
{
    const ptx_stmt *s = &c->p->stmt[at];
    sim_module *m = c->m;
    sim_kernel_code *ks = realloc(m->k, (size_t)(m->nk + 1) * sizeof *m->k);
    if (!ks)
        return fail(c, s->line, "out of memory", s->text);
    m->k = ks;
    sim_kernel_code *k = &m->k[m->nk];
    memset(k, 0, sizeof *k);
    c->k = k;
    snprintf(k->name, sizeof k->name, "%s", s->dir.func);
    if (params(c, s) != 0)
        return -1;
    c->ndecls = 0;
    c->depth = 0;
    c->nlabels = 0;
    c->capinsn = c->capinit = 0;
    c->sink = new_reg(c);
    c->main_file = c->main_line = 0;
    /* the body: its '{' (in the outer scope) and every statement inside */
    int i = at + 1;
    for (; i < c->p->n; i++) {
        const ptx_stmt *b = &c->p->stmt[i];
        if (b->func != at && !(i == at + 1 && b->kind == PS_OPEN))
            break;
        if (body_statement(c, b) != 0)
            return -1;
    }
    /* past the last instruction the threads end, whatever the text did */
    k->insn = grow(k->insn, &c->capinsn, k->ninsn + 1, sizeof *k->insn);
    k->insn[k->ninsn++] = (sim_insn){.op = SO_EXIT, .guard = SIM_NO_REG,
                                     .text = sim_keep_name(m, "exit")};
    if (resolve_labels(c, s->line) != 0)
        return -1;
    layout_shared(m, k);
    m->nk++;
    c->k = NULL;
    return i;
}

int sim_parse_module(sim_module *m, const char *ptx, char *err, size_t len)
{
    ptx_prog *p = ptx_read(ptx);
    if (!p) {
        snprintf(err, len, "out of memory reading the PTX");
        return -1;
    }
    pctx c = {.m = m, .p = p, .err = err, .len = len};
    int rc = 0;
    for (int i = 0; i < p->n && rc == 0;) {
        const ptx_stmt *s = &p->stmt[i];
        if (s->kind == PS_DIRECTIVE && s->dir.kind == PD_ENTRY && s->dir.has_body) {
            int next = kernel(&c, i);
            rc = next < 0 ? -1 : 0;
            i = next < 0 ? i + 1 : next;
            continue;
        }
        /* module-scope variables; a .func's body is read only if called,
         * and a call stops the run (needs a GPU) */
        if (s->func < 0 && s->kind == PS_DIRECTIVE && s->dir.kind == PD_VAR &&
            space_of(s->dir.decl.space) >= 0)
            rc = variable(&c, s, space_of(s->dir.decl.space));
        i++;
    }
    free(c.labels);
    ptx_free(p);
    return rc;
}
