/* ptx_rules.c: device-global variables and declared sizes, read from PTX.
 *
 * The PTX is read as text after blanking comments (string-aware, so a
 * comment opener inside an inline-assembly string hides nothing). A
 * declaration is found by its state-space keyword standing alone: ".global"
 * in a declaration follows whitespace or a brace, while in an instruction it
 * is glued to the opcode (ld.global, cvta.to.global). Inline assembly may
 * declare a variable inside a function; that is found the same way. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_rules.h"

static int ident_char(int ch)
{
    return isalnum(ch) || ch == '_' || ch == '$';
}

/* A copy of `ptx` with comments and the insides of strings replaced by
 * spaces (newlines kept), so offsets are the same in both and a name inside a
 * .file directive's path is not taken for a use of a variable. */
static char *blank_comments(const char *ptx)
{
    size_t n = strlen(ptx);
    char *t = malloc(n + 1);
    if (!t)
        return NULL;
    memcpy(t, ptx, n + 1);
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '"') {
            for (i++; i < n && t[i] != '"' && t[i] != '\n'; i++) {
                if (t[i] == '\\' && i + 1 < n && t[i + 1] != '\n')
                    t[i++] = ' ';
                t[i] = ' ';
            }
        } else if (t[i] == '/' && t[i + 1] == '/') {
            for (; i < n && t[i] != '\n'; i++)
                t[i] = ' ';
        } else if (t[i] == '/' && t[i + 1] == '*') {
            size_t j = i;
            for (; j < n && !(t[j] == '*' && t[j + 1] == '/'); j++)
                if (t[j] != '\n')
                    t[j] = ' ';
            if (j < n)
                t[j] = t[j + 1] = ' ';
            i = j + 1;
        }
    }
    return t;
}

static int is_boundary(int ch)
{
    return ch == ';' || ch == '{' || ch == '}';
}

static size_t statement_start(const char *t, size_t at)
{
    while (at > 0 && !is_boundary(t[at - 1]))
        at--;
    return at;
}

static const char *skip_space(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

/* A directive that ends at its line, without ';': ".loc 1 5 3" (-lineinfo)
 * and ".file 1 "name"" stand before many instructions. */
static int line_directive(const char *p)
{
    return (!strncmp(p, ".loc", 4) || !strncmp(p, ".file", 5)) &&
           isspace((unsigned char)p[p[2] == 'o' ? 4 : 5]);
}

/* The instruction of the statement that starts at `p`: after labels
 * ("name:"), a guard predicate ("@%p1", "@!%p1") and line directives. */
static const char *opcode_of(const char *p)
{
    for (;;) {
        p = skip_space(p);
        if (line_directive(p)) {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        const char *q = p;
        if (*q == '@') {
            for (q++; *q && !isspace((unsigned char)*q); q++)
                ;
            p = q;
            continue;
        }
        while (ident_char((unsigned char)*q) || *q == '%')
            q++;
        if (q > p && *skip_space(q) == ':') {
            p = skip_space(q) + 1;
            continue;
        }
        return p;
    }
}

static long type_bytes(const char *tok, size_t n)
{
    static const struct { const char *name; long bytes; } types[] = {
        {".b8", 1}, {".u8", 1}, {".s8", 1}, {".pred", 1},
        {".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2}, {".bf16", 2},
        {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4}, {".f16x2", 4}, {".bf16x2", 4},
        {".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8}, {".b128", 16},
        {".texref", 8}, {".samplerref", 8}, {".surfref", 8},
    };
    for (size_t k = 0; k < sizeof types / sizeof *types; k++)
        if (strlen(types[k].name) == n && !strncmp(tok, types[k].name, n))
            return types[k].bytes;
    return 0;
}

typedef struct decl {
    size_t name_at, name_len;
    long bytes;             /* -1: unsized (extern __shared__) */
} decl;

typedef void (*decl_fn)(void *ctx, const char *t, const decl *d);

/* The names one declaration introduces, from just after its state space. */
static void parse_decl(const char *t, const char *p, decl_fn fn, void *ctx)
{
    long elem = 0, vec = 1;
    for (;;) {
        p = skip_space(p);
        if (*p != '.')
            break;
        const char *q = p + 1;
        while (ident_char((unsigned char)*q))
            q++;
        size_t n = (size_t)(q - p);
        if (n == 6 && !strncmp(p, ".align", 6)) {
            q = skip_space(q);
            while (isdigit((unsigned char)*q))
                q++;
        } else if (n == 10 && !strncmp(p, ".attribute", 10)) {
            q = skip_space(q);
            if (*q == '(')
                while (*q && *q != ')' && !is_boundary(*q))
                    q++;
            if (*q == ')')
                q++;
        } else if (n >= 3 && p[1] == 'v' && isdigit((unsigned char)p[2])) {
            vec = atol(p + 2);
        } else if (type_bytes(p, n)) {
            elem = type_bytes(p, n);
        }
        p = q;
    }
    for (;;) {
        if (!(ident_char((unsigned char)*p) || *p == '%') || isdigit((unsigned char)*p))
            return;
        decl d = {.name_at = (size_t)(p - t)};
        while (ident_char((unsigned char)*p) || *p == '%')
            p++;
        d.name_len = (size_t)(p - t) - d.name_at;
        d.bytes = elem * vec;
        for (p = skip_space(p); *p == '['; p = skip_space(p)) {
            p = skip_space(p + 1);
            if (*p == ']')
                d.bytes = -1;
            else if (d.bytes >= 0)
                d.bytes *= atol(p);
            while (*p && *p != ']' && !is_boundary(*p))
                p++;
            if (*p == ']')
                p++;
        }
        fn(ctx, t, &d);
        if (*p == '=') {
            /* Skip the initializer, braces and all, to the next name or the end. */
            int depth = 0;
            for (p++; *p && (depth > 0 || (*p != ',' && *p != ';')); p++)
                depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
        }
        if (*p != ',')
            return;
        p = skip_space(p + 1);
    }
}

/* Every declaration in state space `space` (".global", ".shared", ".const"). */
static void walk_decls(const char *t, const char *space, decl_fn fn, void *ctx)
{
    size_t sl = strlen(space);
    for (const char *p = t; (p = strstr(p, space)) != NULL; p += sl) {
        if ((p > t && (ident_char((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '%')) ||
            ident_char((unsigned char)p[sl]))
            continue;   /* part of an instruction or another word */
        const char *b = p;
        while (b > t && isspace((unsigned char)b[-1]))
            b--;
        if (b - t >= 4 && !strncmp(b - 4, ".ptr", 4))
            continue;   /* a kernel parameter's attribute: .param .u64 .ptr .global p */
        parse_decl(t, p + sl, fn, ctx);
    }
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

/* The declared .global names, sorted, so each name in the PTX is looked up
 * once: the check stays linear in the PTX's size however many variables a
 * hostile file declares. */
typedef struct name_ref {
    const char *s;
    size_t n, at;           /* length; offset of its declaration */
} name_ref;

typedef struct names {
    name_ref *v;
    size_t n, cap;
    int failed;             /* out of memory: refuse rather than pass */
} names;

static void add_name(void *ctx, const char *t, const decl *d)
{
    names *ns = ctx;
    if (ns->n == ns->cap) {
        size_t cap = ns->cap ? 2 * ns->cap : 64;
        name_ref *v = realloc(ns->v, cap * sizeof *v);
        if (!v) {
            ns->failed = 1;
            return;
        }
        ns->v = v;
        ns->cap = cap;
    }
    ns->v[ns->n++] = (name_ref){.s = t + d->name_at, .n = d->name_len, .at = d->name_at};
}

static int cmp_name(const void *a, const void *b)
{
    const name_ref *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

typedef struct found {
    char name[256];
    char opcode[64];
    int through;            /* 1: the use is of a register holding its address */
} found;

static void set_found(found *f, const char *name, size_t n, const char *op)
{
    snprintf(f->name, sizeof f->name, "%.*s", (int)n, name);
    size_t k = 0;
    while (k + 1 < sizeof f->opcode && op[k] && !isspace((unsigned char)op[k]) &&
           !is_boundary(op[k]))
        k++;
    snprintf(f->opcode, sizeof f->opcode, "%.*s", (int)k, op);
}

/* Registers that hold the address of a .global variable, each with the
 * variable it came from. A kernel that keeps more of them than this is
 * refused rather than followed. */
#define MAX_ADDRESS_REGS 1024
typedef struct reg_ref {
    name_ref reg, origin;
} reg_ref;
typedef struct regset {
    reg_ref v[MAX_ADDRESS_REGS];
    size_t n;
} regset;

/* 1 when `reg` is in the set, or was added now (from `origin`); 0 when full. */
static int regset_add(regset *rs, const char *s, size_t n, name_ref origin)
{
    for (size_t k = 0; k < rs->n; k++)
        if (rs->v[k].reg.n == n && !memcmp(rs->v[k].reg.s, s, n))
            return 1;
    if (rs->n == MAX_ADDRESS_REGS)
        return 0;
    rs->v[rs->n++] = (reg_ref){.reg = {.s = s, .n = n}, .origin = origin};
    return 1;
}

/* The first operand of the instruction `op` when it is a plain register
 * (the destination of mov, cvta, add...): its start, and its length in *n. */
static const char *dest_register(const char *op, size_t *n)
{
    const char *p = op;
    while (*p && !isspace((unsigned char)*p) && !is_boundary(*p))
        p++;
    p = skip_space(p);
    if (*p != '%')
        return NULL;
    const char *q = p + 1;
    while (ident_char((unsigned char)*q))
        q++;
    *n = (size_t)(q - p);
    return *skip_space(q) == ',' ? p : NULL;
}

/* Is offset `at` inside [ ] of the statement that starts at `s`? */
static int in_brackets(const char *t, size_t s, size_t at)
{
    int depth = 0;
    for (size_t i = s; i < at; i++)
        depth += t[i] == '[' ? 1 : t[i] == ']' ? -1 : 0;
    return depth > 0;
}

static int starts(const char *op, const char *word)
{
    return !strncmp(op, word, strlen(word));
}

/* vprintf and __assertfail only read the strings they get. Trusted when the
 * PTX does not define them itself: no "name (params) {" anywhere (a file
 * that brings its own vprintf is not trusted). */
static int trusted_callee(const char *t, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = t; (p = strstr(p, name)) != NULL; p += n) {
        if ((p > t && (ident_char((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '%')) ||
            ident_char((unsigned char)p[n]))
            continue;
        const char *q = skip_space(p + n);
        if (*q == '(') {
            while (*q && *q != ')' && !is_boundary(*q))
                q++;
            q = skip_space(*q == ')' ? q + 1 : q);
        }
        if (*q == '{')
            return 0;
    }
    return 1;
}

typedef struct callees {
    int known, vprintf, assertfail;   /* trusted_callee, worked out once */
} callees;

/* The callee of "call[.uni] [(retval),] name, (...)", or 0 when not one of
 * the two trusted ones. */
static int trusted_call(const char *t, const char *op, callees *cs)
{
    if (!cs->known) {
        cs->vprintf = trusted_callee(t, "vprintf");
        cs->assertfail = trusted_callee(t, "__assertfail");
        cs->known = 1;
    }
    const char *p = op;
    while (*p && !isspace((unsigned char)*p))
        p++;
    p = skip_space(p);
    if (*p == '(') {
        while (*p && *p != ')' && !is_boundary(*p))
            p++;
        p = skip_space(*p == ')' ? p + 1 : p);
        if (*p != ',')
            return 0;
        p = skip_space(p + 1);
    }
    const char *q = p;
    while (ident_char((unsigned char)*q))
        q++;
    size_t n = (size_t)(q - p);
    return (n == 7 && !strncmp(p, "vprintf", 7) && cs->vprintf) ||
           (n == 12 && !strncmp(p, "__assertfail", 12) && cs->assertfail);
}

/* Is the statement at `s` (an st.param) inside NVRTC's call sequence for
 * vprintf or __assertfail: a block of its own that holds only parameter
 * declarations, stores into them, the one call, and loads of its return
 * value? Then the value stored reaches only that function. */
static int in_trusted_call_block(const char *t, size_t s, callees *cs)
{
    size_t open = s, close;
    int depth = 0;
    while (open > 0) {
        char ch = t[--open];
        if (ch == '}')
            depth++;
        else if (ch == '{' && depth-- == 0)
            break;
    }
    if (t[open] != '{')
        return 0;
    for (close = open + 1; t[close] && t[close] != '}'; close++)
        if (t[close] == '{')
            return 0;
    if (t[close] != '}')
        return 0;
    int calls = 0;
    for (size_t i = open + 1; i < close;) {
        const char *op = opcode_of(t + i);
        size_t end = i;
        while (end < close && t[end] != ';')
            end++;
        if ((size_t)(op - t) < end) {
            if (starts(op, "call")) {
                if (!trusted_call(t, op, cs))
                    return 0;
                calls++;
            } else if (starts(op, "ld.param")) {
                const char *b = memchr(op, '[', end - (size_t)(op - t));
                if (!b || strncmp(skip_space(b + 1), "retval", 6) != 0)
                    return 0;   /* reading a parameter back would launder the address */
            } else if (!starts(op, ".reg") && !starts(op, ".param") && !starts(op, "st.param")) {
                return 0;
            }
        }
        i = end + 1;
    }
    return calls == 1;
}

/* What one use of an address register does: 0 harmless (a load through
 * it, a copy into another register that is then followed, an argument of
 * vprintf or __assertfail), -1 anything else. */
static int judge_use(const char *t, size_t at, const reg_ref *r, regset *rs, callees *cs)
{
    size_t s = statement_start(t, at);
    const char *op = opcode_of(t + s);
    size_t dn;
    const char *dest = dest_register(op, &dn);
    if (dest == t + at)
        return 0;       /* the register is written here, not used */
    int inside = in_brackets(t, s, at);
    if (starts(op, "ld.") || starts(op, "ldu.") || starts(op, "prefetch"))
        return inside ? 0 : -1;
    if (starts(op, ".reg"))
        return 0;
    if (!inside && dest && (starts(op, "mov.") || starts(op, "cvta.") || starts(op, "add.") ||
                            starts(op, "sub.")))
        return regset_add(rs, dest, dn, r->origin) ? 0 : -1;
    if (!inside && starts(op, "st.param") && in_trusted_call_block(t, s, cs))
        return 0;
    return -1;
}

/* Registers are named per function: the top-level blocks (function
 * bodies) of the PTX, in order, so a register's uses are looked for only in
 * the body where it holds the address. */
typedef struct bodies {
    size_t *open, *close, n;
} bodies;

static int find_bodies(const char *t, bodies *b)
{
    size_t cap = 0;
    int depth = 0;
    b->n = 0;
    b->open = b->close = NULL;
    for (size_t i = 0; t[i]; i++) {
        if (t[i] == '{' && depth++ == 0) {
            if (b->n == cap) {
                cap = cap ? 2 * cap : 16;
                size_t *o = realloc(b->open, cap * sizeof *o), *c;
                if (o)
                    b->open = o;
                c = o ? realloc(b->close, cap * sizeof *c) : NULL;
                if (!c)
                    return -1;
                b->close = c;
            }
            b->open[b->n] = i;
            b->close[b->n++] = (size_t)-1;
        } else if (t[i] == '}' && depth > 0 && --depth == 0) {
            b->close[b->n - 1] = i;
        }
    }
    return 0;
}

/* Which body offset `at` lies in; -1 outside every one. */
static long body_of(const bodies *b, size_t at)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (b->open[mid] <= at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && at < b->close[lo - 1] ? (long)lo - 1 : -1;
}

/* Every register token in `t`, sorted by name, so each address register's
 * uses are looked up, not searched for. */
static int collect_registers(const char *t, names *regs)
{
    for (const char *p = t; (p = strchr(p, '%')) != NULL;) {
        const char *q = p + 1;
        while (ident_char((unsigned char)*q))
            q++;
        if (q > p + 1 && !(p > t && ident_char((unsigned char)p[-1]))) {
            decl d = {.name_at = (size_t)(p - t), .name_len = (size_t)(q - p)};
            add_name(regs, t, &d);
        }
        p = q;
    }
    if (regs->failed)
        return -1;
    qsort(regs->v, regs->n, sizeof *regs->v, cmp_name);
    return 0;
}

/* Follow each address register to its uses, and the registers it is copied
 * into to theirs; 1 (and `f`) when one of them lets the address reach
 * anything but a load or a trusted call. */
static int address_escapes(const char *t, regset *rs, found *f)
{
    names regs = {0};
    callees cs = {0};
    bodies fb = {0};
    int bad = rs->n && (collect_registers(t, &regs) != 0 || find_bodies(t, &fb) != 0);
    if (bad)
        set_found(f, "?", 1, "(out of memory)");
    for (size_t k = 0; !bad && k < rs->n; k++) {
        reg_ref r = rs->v[k];
        name_ref key = r.reg;
        name_ref *hit = bsearch(&key, regs.v, regs.n, sizeof *regs.v, cmp_name);
        if (!hit)
            continue;
        while (hit > regs.v && !cmp_name(hit - 1, &key))
            hit--;
        for (; hit < regs.v + regs.n && !cmp_name(hit, &key) && !bad; hit++)
            if (body_of(&fb, (size_t)(r.reg.s - t)) == body_of(&fb, hit->at) && judge_use(t, hit->at, &r, rs, &cs) != 0) {
                set_found(f, r.origin.s, r.origin.n,
                          opcode_of(t + statement_start(t, hit->at)));
                f->through = 1;
                bad = 1;
            }
    }
    free(regs.v);
    free(fb.open);
    free(fb.close);
    return bad;
}

/* The first use of a declared .global name that is not a load; 1 if any.
 * A copy of its address into a register (mov, cvta) is not judged by
 * itself: what the kernel does with that register is (address_escapes).
 * That is how NVRTC passes printf's format and assert's condition to
 * vprintf and __assertfail, which only read them. */
static int first_writable(const char *t, names *ns, found *f)
{
    static regset rs;
    rs.n = 0;
    qsort(ns->v, ns->n, sizeof *ns->v, cmp_name);
    for (const char *p = t; *p; p++) {
        if (!(ident_char((unsigned char)*p) || *p == '%') || isdigit((unsigned char)*p) ||
            (p > t && (ident_char((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '%')))
            continue;
        const char *q = p + 1;
        while (ident_char((unsigned char)*q))
            q++;
        name_ref key = {.s = p, .n = (size_t)(q - p)};
        const name_ref *d = ns->n ? bsearch(&key, ns->v, ns->n, sizeof *ns->v, cmp_name) : NULL;
        size_t at = (size_t)(p - t);
        if (d && at != d->at) {
            const char *op = opcode_of(t + statement_start(t, at));
            size_t dn;
            const char *dest = dest_register(op, &dn);
            int copied = dest && dest < p && (starts(op, "mov.") || starts(op, "cvta.")) &&
                         !in_brackets(t, statement_start(t, at), at);
            if (copied && regset_add(&rs, dest, dn, *d)) {
                p = q - 1;
                continue;
            }
            if (strncmp(op, "ld.", 3) != 0 && strncmp(op, "ldu.", 4) != 0) {
                set_found(f, d->s, d->n, op);
                return 1;
            }
        }
        p = q - 1;
    }
    return address_escapes(t, &rs, f);
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

/* Is `word` used as a name anywhere in `t`? */
static int has_name(const char *t, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = t; (p = strstr(p, word)) != NULL; p += n)
        if ((p == t || !(ident_char((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '%')) &&
            !ident_char((unsigned char)p[n]))
            return 1;
    return 0;
}

int ptx_check_device_globals(const char *ptx, char *msg, size_t len)
{
    if (len)
        msg[0] = 0;
    if (!ptx)
        return 0;
    char *t = blank_comments(ptx);
    if (!t) {
        snprintf(msg, len, "could not check the PTX for __device__ variables (out of memory)");
        return -1;
    }
    names ns = {0};
    found g = {0};
    walk_decls(t, ".global", add_name, &ns);
    int writable = ns.failed || first_writable(t, &ns, &g);
    if (ns.failed)
        snprintf(g.name, sizeof g.name, "?");
    free(ns.v);
    /* The device heap is device memory that outlives a launch too. */
    int heap = has_name(t, "malloc") || has_name(t, "__nv_aligned_device_malloc");
    free(t);
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

typedef struct sum {
    long bytes;
} sum;

static void add_bytes(void *ctx, const char *t, const decl *d)
{
    (void)t;
    if (d->bytes > 0)
        ((sum *)ctx)->bytes += d->bytes;
}

void ptx_declared_bytes(const char *ptx, long *shared, long *constant)
{
    *shared = *constant = 0;
    char *t = ptx ? blank_comments(ptx) : NULL;
    if (!t)
        return;
    sum s = {0}, c = {0};
    walk_decls(t, ".shared", add_bytes, &s);
    walk_decls(t, ".const", add_bytes, &c);
    free(t);
    *shared = s.bytes;
    *constant = c.bytes;
}
