/* ptx_rules.c: device-global variables and declared sizes, read from the
 * PTX reader's statements (ptx.h).
 *
 * Every statement counts: several on one line, those in braced blocks
 * (inline assembly may declare a variable inside a function), and never a
 * comment or a string. A declaration is a .global/.shared/.const directive
 * of its own, not the state space glued to an opcode (ld.global,
 * cvta.to.global) nor a parameter's .ptr .global attribute. A name is used
 * where an operand names it (a symbol, an address's base, a token of an
 * operand the reader keeps as text) or where a directive's text does (an
 * initializer's generic(x)). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_rules.h"
#include "ptx.h"

static int ident_char(int ch)
{
    return isalnum(ch) || ch == '_' || ch == '$';
}

/* Each name token of `t` (strings skipped): a letter, '_', '$' or '%'
 * first, not right after a name character, '.' or '%'. fn gets its start
 * and length; it returns nonzero to stop, and that value is returned. */
typedef int (*token_fn)(void *ctx, const char *s, size_t n);

static int each_token(const char *t, token_fn fn, void *ctx)
{
    for (const char *p = t; *p; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                return 0;
            continue;
        }
        if (!(ident_char((unsigned char)*p) || *p == '%') || isdigit((unsigned char)*p) ||
            (p > t && (ident_char((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '%')))
            continue;
        const char *q = p + 1;
        while (ident_char((unsigned char)*q))
            q++;
        int r = fn(ctx, p, (size_t)(q - p));
        if (r)
            return r;
        p = q - 1;
    }
    return 0;
}

/* ---- declared sizes --------------------------------------------------- */

static int is_decl(const ptx_stmt *s, const char *space)
{
    return s->kind == PS_DIRECTIVE && s->dir.kind == PD_VAR && s->dir.decl.space &&
           !strcmp(s->dir.decl.space, space);
}

/* A name a declaration may introduce: a letter, '_', '$' or '%' first. */
static int valid_name(const char *n)
{
    return n[0] && (isalpha((unsigned char)n[0]) || n[0] == '_' || n[0] == '$' || n[0] == '%');
}

void ptx_declared_bytes(const char *ptx, long *shared, long *constant)
{
    *shared = *constant = 0;
    ptx_prog *p = ptx ? ptx_read(ptx) : NULL;
    for (int i = 0; p && i < p->n; i++) {
        const ptx_stmt *s = &p->stmt[i];
        long *sum = is_decl(s, "shared") ? shared : is_decl(s, "const") ? constant : NULL;
        for (int v = 0; sum && v < s->dir.decl.nvars; v++)
            if (s->dir.decl.var[v].bytes > 0 && valid_name(s->dir.decl.var[v].name))
                *sum += (long)s->dir.decl.var[v].bytes;
    }
    ptx_free(p);
}

void ptx_readable_name(const char *sym, size_t n, char *out, size_t len, char *local_in,
                       size_t local_len)
{
    if (local_len)
        local_in[0] = 0;
    if (n < 3 || strncmp(sym, "_Z", 2) != 0) {
        snprintf(out, len, "%.*s", (int)n, sym);
        return;
    }
    /* Length-prefixed parts; numbers right after L<type> are literals. */
    char parts[8][64];
    int np = 0;
    for (size_t i = 2; i < n;) {
        if (!isdigit((unsigned char)sym[i])) {
            i++;
            continue;
        }
        int literal = i >= 2 && sym[i - 2] == 'L';
        size_t k = 0;
        while (i < n && isdigit((unsigned char)sym[i]))
            k = k * 10 + (size_t)(sym[i++] - '0');
        if (literal || k == 0 || i + k > n)
            continue;
        if (np < 8)
            snprintf(parts[np++], sizeof parts[0], "%.*s", (int)k, sym + i);
        i += k;
    }
    if (np == 0) {
        snprintf(out, len, "%.*s", (int)n, sym);
        return;
    }
    int local = sym[2] == 'Z' && np >= 2;
    size_t at = 0;
    out[0] = 0;
    for (int k = local ? np - 1 : 0; k < np && at < len; k++)
        at += (size_t)snprintf(out + at, len - at, "%s%s", at ? "::" : "", parts[k]);
    if (local) {
        size_t lt = 0;
        for (int k = 0; k < np - 1 && lt < local_len; k++)
            lt += (size_t)snprintf(local_in + lt, local_len - lt, "%s%s", lt ? "::" : "",
                                   parts[k]);
    }
}

/* ---- the uses of a name ------------------------------------------------ */

/* The declared .global names, sorted, so each name in the PTX is looked up
 * once: the check stays linear in the PTX's size however many variables a
 * hostile file declares. */
typedef struct names {
    const char **v;
    size_t n;
} names;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int collect_globals(const ptx_prog *p, names *ns)
{
    size_t cap = 0;
    for (int i = 0; i < p->n; i++)
        cap += is_decl(&p->stmt[i], "global") ? (size_t)p->stmt[i].dir.decl.nvars : 0;
    ns->n = 0;
    ns->v = malloc((cap ? cap : 1) * sizeof *ns->v);
    if (!ns->v)
        return -1;
    for (int i = 0; i < p->n; i++)
        for (int v = 0; is_decl(&p->stmt[i], "global") && v < p->stmt[i].dir.decl.nvars; v++)
            if (valid_name(p->stmt[i].dir.decl.var[v].name))
                ns->v[ns->n++] = p->stmt[i].dir.decl.var[v].name;
    qsort(ns->v, ns->n, sizeof *ns->v, cmp_str);
    return 0;
}

static const char *declared(const names *ns, const char *s, size_t n)
{
    char key[256];
    if (!ns->n || n >= sizeof key)
        return NULL;
    memcpy(key, s, n);
    key[n] = 0;
    const char *k = key, *const *hit = bsearch(&k, ns->v, ns->n, sizeof *ns->v, cmp_str);
    return hit ? *hit : NULL;
}

typedef struct found {
    char name[256];
    char opcode[64];
    int through;            /* 1: the use is of a register holding its address */
} found;

static void set_found(found *f, const char *name, const char *op, int through)
{
    snprintf(f->name, sizeof f->name, "%s", name);
    snprintf(f->opcode, sizeof f->opcode, "%.*s", (int)strcspn(op, " \t"), op);
    f->through = through;
}

/* Registers that hold the address of a .global variable, each with the
 * variable it came from and the statement where it was first copied. A
 * kernel that keeps more of them than this is refused rather than
 * followed. */
#define MAX_ADDRESS_REGS 1024
typedef struct reg_ref {
    const char *reg, *origin;
    int at;
} reg_ref;
typedef struct regset {
    reg_ref v[MAX_ADDRESS_REGS];
    size_t n;
} regset;

/* 1 when `reg` is in the set, or was added now; 0 when full. */
static int regset_add(regset *rs, const char *reg, const char *origin, int at)
{
    for (size_t k = 0; k < rs->n; k++)
        if (!strcmp(rs->v[k].reg, reg))
            return 1;
    if (rs->n == MAX_ADDRESS_REGS)
        return 0;
    rs->v[rs->n++] = (reg_ref){.reg = reg, .origin = origin, .at = at};
    return 1;
}

static int starts(const char *op, const char *word)
{
    return !strncmp(op, word, strlen(word));
}

/* The destination register of an instruction (its first operand, a plain
 * register, with more operands after it); NULL when it has none. */
static const char *dest_register(const ptx_insn *in)
{
    return in->nops >= 2 && in->op[0].kind == PO_REG && !in->op[0].neg ? in->op[0].name : NULL;
}

/* One place a name stands: statement, operand (-1: a directive's text),
 * inside an address's brackets or not. */
typedef struct use {
    int at, operand, inside;
} use;

typedef int (*use_fn)(void *ctx, const char *s, size_t n, const use *u);

typedef struct token_walk {
    use_fn fn;
    void *ctx;
    use u;
} token_walk;

static int token_use(void *ctx, const char *s, size_t n)
{
    token_walk *w = ctx;
    return w->fn(w->ctx, s, n, &w->u);
}

/* Every name an operand holds, through vectors, lists and addresses. */
static int operand_names(const ptx_operand *o, use u, use_fn fn, void *ctx)
{
    int r = 0;
    if ((o->kind == PO_SYM || o->kind == PO_LABEL || o->kind == PO_REG) && o->name)
        r = fn(ctx, o->name, strlen(o->name), &u);
    else if (o->kind == PO_ADDR && o->name)
        r = fn(ctx, o->name, strlen(o->name), &(use){u.at, u.operand, 1});
    else if (o->kind == PO_OTHER) {
        token_walk w = {.fn = fn, .ctx = ctx, .u = u};
        w.u.inside = u.inside || o->text[0] == '[';
        r = each_token(o->text, token_use, &w);
    }
    if (o->kind == PO_ADDR)
        u.inside = 1;
    for (int k = 0; !r && k < o->nelem; k++)
        r = operand_names(&o->elem[k], u, fn, ctx);
    return r;
}

/* Every name statement i holds: an instruction's operands, a directive's
 * text (a .global's initializer; a declaration's own names, the .reg
 * declarations, .loc, .file and function headers name nothing). */
static int statement_names(const ptx_prog *p, int i, use_fn fn, void *ctx)
{
    const ptx_stmt *s = &p->stmt[i];
    if (s->kind == PS_INSN) {
        for (int k = 0; k < s->insn.nops; k++) {
            int r = operand_names(&s->insn.op[k], (use){i, k, 0}, fn, ctx);
            if (r)
                return r;
        }
        return 0;
    }
    if (s->kind != PS_DIRECTIVE)
        return 0;
    token_walk w = {.fn = fn, .ctx = ctx, .u = {i, -1, 0}};
    switch (s->dir.kind) {
    case PD_VAR:
        if (!strcmp(s->dir.decl.space, "reg"))
            return 0;
        for (int v = 0; v < s->dir.decl.nvars; v++) {
            int r = s->dir.decl.var[v].init ? each_token(s->dir.decl.var[v].init, token_use, &w)
                                            : 0;
            if (r)
                return r;
        }
        return 0;
    case PD_OTHER:
        return each_token(s->text, token_use, &w);
    default:
        return 0;
    }
}

/* The opcode (or a directive's first word) of statement i, for messages. */
static const char *what_uses(const ptx_prog *p, int i)
{
    const ptx_stmt *s = &p->stmt[i];
    return s->kind == PS_INSN ? s->insn.opcode : s->text;
}

/* ---- vprintf and __assertfail ------------------------------------------ */

typedef struct callees {
    int vprintf, assertfail;    /* 1: not defined in the file, so trusted */
} callees;

/* vprintf and __assertfail only read the strings they get. Trusted when the
 * PTX does not define them itself (a file that brings its own vprintf is
 * not trusted). */
static callees trusted_callees(const ptx_prog *p)
{
    callees cs = {1, 1};
    for (int i = 0; i < p->n; i++) {
        const ptx_dir *d = &p->stmt[i].dir;
        if (p->stmt[i].kind != PS_DIRECTIVE || (d->kind != PD_FUNC && d->kind != PD_ENTRY) ||
            !d->has_body)
            continue;
        cs.vprintf &= strcmp(d->func, "vprintf") != 0;
        cs.assertfail &= strcmp(d->func, "__assertfail") != 0;
    }
    return cs;
}

/* Is instruction `in` "call[.uni] [(retval),] name, (...)" of a trusted
 * function? */
static int trusted_call(const ptx_insn *in, const callees *cs)
{
    int k = in->nops && in->op[0].kind == PO_LIST ? 1 : 0;
    if (k >= in->nops || (in->op[k].kind != PO_SYM && in->op[k].kind != PO_LABEL))
        return 0;
    return (!strcmp(in->op[k].name, "vprintf") && cs->vprintf) ||
           (!strcmp(in->op[k].name, "__assertfail") && cs->assertfail);
}

/* Is scope `sc` NVRTC's call sequence for vprintf or __assertfail: a
 * closed block of its own, no block inside it, holding only parameter
 * declarations, stores into them, the one call, and loads of its return
 * value? Then a value stored there reaches only that function. */
static int trusted_call_block(const ptx_prog *p, int sc, const callees *cs)
{
    if (sc <= 0 || p->scopes[sc].close < 0)
        return 0;
    int calls = 0;
    for (int i = p->scopes[sc].open + 1; i < p->scopes[sc].close; i++) {
        const ptx_stmt *s = &p->stmt[i];
        if (s->kind == PS_OPEN)
            return 0;
        if (s->kind == PS_LABEL)
            continue;
        if (s->kind == PS_DIRECTIVE) {
            if (s->dir.kind == PD_LOC || s->dir.kind == PD_FILE ||
                (s->dir.kind == PD_VAR && (!strcmp(s->dir.decl.space, "reg") ||
                                           !strcmp(s->dir.decl.space, "param"))))
                continue;
            return 0;
        }
        const ptx_insn *in = &s->insn;
        if (starts(in->opcode, "call")) {
            if (!trusted_call(in, cs))
                return 0;
            calls++;
        } else if (starts(in->opcode, "ld.param")) {
            /* Reading a parameter back would launder the address. */
            if (in->nops < 2 || in->op[1].kind != PO_ADDR || !in->op[1].name ||
                strncmp(in->op[1].name, "retval", 6))
                return 0;
        } else if (!starts(in->opcode, "st.param")) {
            return 0;
        }
    }
    return calls == 1;
}

/* ---- following the registers that hold an address --------------------- */

/* The top-level block (a function's body) that holds statement i; 0
 * outside every one. */
static int body_of(const ptx_prog *p, int i)
{
    int sc = p->stmt[i].scope;
    while (sc > 0 && p->scopes[sc].parent > 0)
        sc = p->scopes[sc].parent;
    return sc;
}

/* Every register name the statements use, sorted by name then place, so
 * each address register's uses are looked up, not searched for. */
typedef struct reg_use {
    const char *name;
    size_t len;
    use u;
} reg_use;

typedef struct reg_uses {
    reg_use *v;
    size_t n, cap;
    int failed;
} reg_uses;

static int add_reg_use(void *ctx, const char *s, size_t n, const use *u)
{
    reg_uses *ru = ctx;
    if (*s != '%' && !(u->operand >= 0))
        return 0;
    if (ru->n == ru->cap) {
        size_t cap = ru->cap ? 2 * ru->cap : 256;
        reg_use *v = realloc(ru->v, cap * sizeof *v);
        if (!v) {
            ru->failed = 1;
            return 1;
        }
        ru->v = v;
        ru->cap = cap;
    }
    ru->v[ru->n++] = (reg_use){.name = s, .len = n, .u = *u};
    return 0;
}

static int cmp_reg_use(const void *a, const void *b)
{
    const reg_use *x = a, *y = b;
    int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
    if (c || x->len != y->len)
        return c ? c : (x->len > y->len) - (x->len < y->len);
    return (x->u.at > y->u.at) - (x->u.at < y->u.at);
}

/* What one use of an address register does: 0 harmless (a load through
 * it, a copy into another register that is then followed, an argument of
 * vprintf or __assertfail, its own declaration), -1 anything else. */
static int judge_use(const ptx_prog *p, const reg_use *ru, const reg_ref *r, regset *rs,
                     const callees *cs)
{
    const ptx_stmt *s = &p->stmt[ru->u.at];
    if (s->kind != PS_INSN)
        return -1;      /* a directive that names it: nothing reads it back */
    const ptx_insn *in = &s->insn;
    const char *dest = dest_register(in);
    if (dest && ru->u.operand == 0 && !ru->u.inside)
        return 0;       /* the register is written here, not used */
    const char *op = in->opcode;
    if (starts(op, "ld.") || starts(op, "ldu.") || starts(op, "prefetch"))
        return ru->u.inside ? 0 : -1;
    if (!ru->u.inside && dest &&
        (starts(op, "mov.") || starts(op, "cvta.") || starts(op, "add.") || starts(op, "sub.")))
        return regset_add(rs, dest, r->origin, ru->u.at) ? 0 : -1;
    if (!ru->u.inside && starts(op, "st.param") && trusted_call_block(p, s->scope, cs))
        return 0;
    return -1;
}

/* Follow each address register to its uses within its function's body,
 * and the registers it is copied into to theirs; 1 (and `f`) when one of
 * them lets the address reach anything but a load or a trusted call. */
static int address_escapes(const ptx_prog *p, regset *rs, found *f)
{
    if (!rs->n)
        return 0;
    reg_uses ru = {0};
    for (int i = 0; i < p->n && !ru.failed; i++)
        statement_names(p, i, add_reg_use, &ru);
    if (ru.failed) {
        free(ru.v);
        set_found(f, "?", "(out of memory)", 1);
        return 1;
    }
    qsort(ru.v, ru.n, sizeof *ru.v, cmp_reg_use);
    callees cs = trusted_callees(p);
    int bad = 0;
    for (size_t k = 0; !bad && k < rs->n; k++) {
        reg_ref r = rs->v[k];
        reg_use key = {.name = r.reg, .len = strlen(r.reg), .u = {.at = -1}};
        size_t lo = 0, hi = ru.n;
        while (lo < hi) {     /* the first use of the name */
            size_t mid = (lo + hi) / 2;
            if (cmp_reg_use(&ru.v[mid], &key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t j = lo; !bad && j < ru.n && ru.v[j].len == key.len &&
                            !memcmp(ru.v[j].name, key.name, key.len); j++)
            if (body_of(p, ru.v[j].u.at) == body_of(p, r.at) &&
                judge_use(p, &ru.v[j], &r, rs, &cs) != 0) {
                set_found(f, r.origin, what_uses(p, ru.v[j].u.at), 1);
                bad = 1;
            }
    }
    free(ru.v);
    return bad;
}

/* ---- the uses of each declared name ------------------------------------ */

typedef struct by_name {
    const ptx_prog *p;
    const names *ns;
    regset *rs;
    found *f;
} by_name;

/* One use of a name: a load, or a copy of its address into a register
 * (followed later), is fine; anything else is a write, or may be. */
static int judge_name(void *ctx, const char *s, size_t n, const use *u)
{
    by_name *b = ctx;
    const char *g = declared(b->ns, s, n);
    if (!g)
        return 0;
    const ptx_stmt *st = &b->p->stmt[u->at];
    if (st->kind == PS_INSN) {
        const char *op = st->insn.opcode, *dest = dest_register(&st->insn);
        if (starts(op, "ld.") || starts(op, "ldu."))
            return 0;
        if (dest && u->operand >= 1 && !u->inside && (starts(op, "mov.") || starts(op, "cvta.")) &&
            regset_add(b->rs, dest, g, u->at))
            return 0;
    }
    set_found(b->f, g, what_uses(b->p, u->at), 0);
    return 1;
}

/* The first use of a declared .global name that is not a load; 1 if any.
 * A copy of its address into a register (mov, cvta) is not judged by
 * itself: what the kernel does with that register is (address_escapes).
 * That is how NVRTC passes printf's format and assert's condition to
 * vprintf and __assertfail, which only read them. */
static int first_writable(const ptx_prog *p, const names *ns, found *f)
{
    static regset rs;
    rs.n = 0;
    by_name b = {.p = p, .ns = ns, .rs = &rs, .f = f};
    for (int i = 0; ns->n && i < p->n; i++)
        if (statement_names(p, i, judge_name, &b))
            return 1;
    return address_escapes(p, &rs, f);
}

/* How the kernel reaches a writable __device__ variable, from the
 * instruction that uses it, in the student's words. */
static const char *write_how(const found *g)
{
    int writes = !strncmp(g->opcode, "st.", 3), updates = !strncmp(g->opcode, "atom", 4) ||
                                                          !strncmp(g->opcode, "red", 3);
    if (g->through)
        return writes || updates ? "takes its address and writes through it"
                                 : "takes its address and passes it on, so it can write it "
                                   "through a pointer";
    if (writes)
        return "writes it";
    if (updates)
        return "updates it atomically";
    if (!strncmp(g->opcode, "mov", 3) || !strncmp(g->opcode, "cvta", 4))
        return "takes its address, so it can write it through a pointer";
    if (g->opcode[0] == '.')
        return "puts its address into another variable, so it can write it through a "
               "pointer";
    return "uses it other than by loading it";
}

/* The refusal of a writable __device__ variable (or a string literal passed
 * where it could be written): -1, with the sentence in msg. */
static int say_writable(const found *g, char *msg, size_t len)
{
    static const char why[] =
        "Device memory that outlives a launch lets a kernel compute its answer once and "
        "replay it on every later launch instead of computing it, and the grader times many "
        "launches; so it refuses any __device__ variable the kernel can write (also "
        "__managed__ ones and static variables inside functions).";
    if (!strncmp(g->name, "$str", 4)) {
        snprintf(msg, len, "passes the address of a string literal ('%s' in the PTX, a "
                 "__device__ variable there) on to something other than printf or assert "
                 "(%s), so the kernel could write it. %s printf(\"...\", ...) and assert(...) "
                 "are fine; a string passed as an argument (printf(\"%%s\", \"text\")) is not.",
                 g->name, g->opcode, why);
        return -1;
    }
    char shown[256], in[128];
    ptx_readable_name(g->name, strlen(g->name), shown, sizeof shown, in, sizeof in);
    snprintf(msg, len, "keeps a __device__ variable, '%s'%s%s%s, and %s (%s in the PTX). %s "
             "Keep what one launch needs in registers or shared memory; a read-only table "
             "can be __constant__.", shown, in[0] ? " (a static variable inside " : "", in,
             in[0] ? ")" : "", write_how(g), g->opcode, why);
    return -1;
}

/* Does a name token equal to `word` stand anywhere in the statements? */
typedef struct word_hunt {
    const char *word;
} word_hunt;

static int is_word(void *ctx, const char *s, size_t n)
{
    const char *w = ((word_hunt *)ctx)->word;
    return strlen(w) == n && !strncmp(s, w, n);
}

static int has_name(const ptx_prog *p, const char *word)
{
    word_hunt h = {.word = word};
    for (int i = 0; i < p->n; i++)
        if (p->stmt[i].kind != PS_LABEL && each_token(p->stmt[i].text, is_word, &h))
            return 1;
    return 0;
}

int ptx_check_device_globals(const char *ptx, char *msg, size_t len)
{
    if (len)
        msg[0] = 0;
    if (!ptx)
        return 0;
    ptx_prog *p = ptx_read(ptx);
    names ns = {0};
    if (!p || collect_globals(p, &ns) != 0) {
        ptx_free(p);
        snprintf(msg, len, "could not check the PTX for __device__ variables (out of memory)");
        return -1;
    }
    found g = {0};
    int writable = first_writable(p, &ns, &g);
    free(ns.v);
    /* The device heap is device memory that outlives a launch too. */
    int heap = has_name(p, "malloc") || has_name(p, "__nv_aligned_device_malloc");
    ptx_free(p);
    if (!writable && heap) {
        snprintf(msg, len, "allocates device memory with malloc or new: the device heap "
                 "outlives a launch, and so does what a block left in it, so a kernel could "
                 "find an answer it computed on an earlier launch there instead of computing "
                 "it. The grader times many launches, so it refuses device-side allocation "
                 "as it refuses any __device__ variable the kernel can write. Keep what one "
                 "launch needs in registers or shared memory.");
        return -1;
    }
    if (!writable)
        return 0;
    return say_writable(&g, msg, len);
}

/* ---- special registers that tell launches apart ------------------------- */

/* The families ptx_rules.h lists: a name matches when it equals `name`, or
 * for a family with digits (pm, envreg), `name` then decimal digits, and
 * for %pm an optional "_64". */
static const struct {
    const char *name;
    int digits;                 /* 1: followed by a number */
    const char *what;
} telling[] = {
    {"%clock", 0, "the SM's clock"},
    {"%clock_hi", 0, "the SM's clock"},
    {"%clock64", 0, "the SM's clock"},
    {"%globaltimer", 0, "the GPU's global timer"},
    {"%globaltimer_lo", 0, "the GPU's global timer"},
    {"%globaltimer_hi", 0, "the GPU's global timer"},
    {"%smid", 0, "which SM the block runs on"},
    {"%nsmid", 0, "how many SMs the GPU has"},
    {"%warpid", 0, "which warp slot of its SM the warp runs in"},
    {"%nwarpid", 0, "how many warp slots an SM has"},
    {"%gridid", 0, "the launch's number among the GPU's launches"},
    {"%pm", 1, "a performance counter"},
    {"%envreg", 1, "the driver's environment"},
    {"%reserved_smem_offset_begin", 0, "the driver's shared-memory layout"},
    {"%reserved_smem_offset_end", 0, "the driver's shared-memory layout"},
    {"%reserved_smem_offset_cap", 0, "the driver's shared-memory layout"},
    {"%reserved_smem_offset_", 1, "the driver's shared-memory layout"},
    {"%total_smem_size", 0, "the driver's shared-memory layout"},
    {"%aggr_smem_size", 0, "the driver's shared-memory layout"},
};

/* What `reg` tells, when it is one of the families; NULL otherwise. */
static const char *tells(const char *reg)
{
    size_t n = strcspn(reg, ".");   /* "%tid.x": the register is "%tid" */
    for (size_t i = 0; i < sizeof telling / sizeof *telling; i++) {
        size_t k = strlen(telling[i].name);
        if (n < k || strncmp(reg, telling[i].name, k) != 0)
            continue;
        if (!telling[i].digits && n == k)
            return telling[i].what;
        size_t d = k;
        while (telling[i].digits && d < n && isdigit((unsigned char)reg[d]))
            d++;
        if (telling[i].digits && d > k && (d == n || (n - d == 3 && !strncmp(reg + d, "_64", 3))))
            return telling[i].what;
    }
    return NULL;
}

/* 1 when `allowed` (space-separated) names reg. */
static int allowed_by(const char *allowed, const char *reg)
{
    size_t n = strcspn(reg, ".");
    for (const char *a = allowed; a && *a;) {
        a += strspn(a, " ");
        size_t k = strcspn(a, " ");
        if (k == n && !strncmp(a, reg, n))
            return 1;
        a += k;
    }
    return 0;
}

/* The first telling register among `op` and its parts. */
static const char *telling_in(const ptx_operand *op)
{
    if ((op->kind == PO_REG || (op->kind == PO_ADDR && op->base == PB_REG)) && op->name &&
        tells(op->name))
        return op->name;
    for (int e = 0; e < op->nelem; e++) {
        const char *r = telling_in(&op->elem[e]);
        if (r)
            return r;
    }
    return NULL;
}

/* The path of .file `num` ("" when none): the directives come last. */
static const char *file_path(const ptx_prog *p, int num)
{
    for (int i = p->n - 1; i >= 0; i--)
        if (p->stmt[i].kind == PS_DIRECTIVE && p->stmt[i].dir.kind == PD_FILE &&
            p->stmt[i].dir.loc_file == num && p->stmt[i].dir.path)
            return p->stmt[i].dir.path;
    return "";
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

/* libcu++'s wait with backoff (cuda::barrier's wait, arrive_and_wait;
 * cuda::std::__libcpp_thread_poll_with_backoff) reads %globaltimer only
 * to decide how long to sleep between polls; what it returns never
 * depends on it. Lessons 9 and 12 teach cuda::barrier, so that read, and
 * only it, is let through: the .loc in force at statement i is libcu++'s
 * chrono.h inlined at its threading_support.h (NVRTC's -lineinfo). A read
 * of the clock anywhere else, cuda::std::chrono's own included, is not. */
static int libcuxx_backoff(const ptx_prog *p, int i)
{
    int at = i;
    while (at >= 0 && !(p->stmt[at].kind == PS_DIRECTIVE && p->stmt[at].dir.kind == PD_LOC))
        at--;
    if (at < 0 || !ends_with(file_path(p, p->stmt[at].dir.loc_file), "cuda/std/__cuda/chrono.h"))
        return 0;
    const char *in = p->stmt[at].dir.args ? strstr(p->stmt[at].dir.args, "inlined_at ") : NULL;
    return in && ends_with(file_path(p, atoi(in + strlen("inlined_at "))),
                           "cuda/std/__thread/threading_support.h");
}

int ptx_check_special_registers(const char *ptx, const char *allowed, char *msg, size_t len)
{
    ptx_prog *p = ptx ? ptx_read(ptx) : NULL;
    int bad = 0;
    for (int i = 0; p && i < p->n && !bad; i++) {
        const ptx_stmt *s = &p->stmt[i];
        for (int o = 0; s->kind == PS_INSN && o < s->insn.nops && !bad; o++) {
            const char *reg = telling_in(&s->insn.op[o]);
            if (!reg || allowed_by(allowed, reg))
                continue;
            if (!strncmp(reg, "%globaltimer", 12) && libcuxx_backoff(p, i))
                continue;
            bad = 1;
            char where[64] = "";
            if (s->insn.loc_line > 0)
                snprintf(where, sizeof where, " at line %d", s->insn.loc_line);
            snprintf(msg, len, "reads %.*s (%s)%s, in `%.80s`: it could tell a simulated "
                     "launch from a real one, or a judged launch from a timed one, and "
                     "compute only when it is judged. No exercise needs it: compute the "
                     "answer from the kernel's arguments, %%tid, %%ctaid and their sizes.",
                     (int)strcspn(reg, "."), reg, tells(reg), where, s->text);
        }
    }
    ptx_free(p);
    return bad ? -1 : 0;
}
