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

/* The instruction of the statement that starts at `p`: after labels
 * ("name:") and a guard predicate ("@%p1", "@!%p1"). */
static const char *opcode_of(const char *p)
{
    for (;;) {
        p = skip_space(p);
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
} found;

/* The first use of a declared .global name that is not a load; 1 if any. */
static int first_writable(const char *t, names *ns, found *f)
{
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
            if (strncmp(op, "ld.", 3) != 0 && strncmp(op, "ldu.", 4) != 0) {
                snprintf(f->name, sizeof f->name, "%.*s", (int)d->n, d->s);
                size_t k = 0;
                while (k + 1 < sizeof f->opcode && op[k] && !isspace((unsigned char)op[k]) &&
                       !is_boundary(op[k]))
                    k++;
                snprintf(f->opcode, sizeof f->opcode, "%.*s", (int)k, op);
                return 1;
            }
        }
        p = q - 1;
    }
    return 0;
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

    static const char why[] =
        "Device memory that outlives a launch lets a kernel compute its answer once and "
        "replay it on every later launch instead of computing it, and the grader times many "
        "launches; so it refuses any __device__ variable the kernel can write (also "
        "__managed__ ones and static variables inside functions).";
    if (!strncmp(g.name, "$str", 4)) {
        snprintf(msg, len, "calls printf or assert: NVRTC keeps their text in a __device__ "
                 "variable ('%s') whose address the kernel passes on (%s), so the kernel could "
                 "write it. %s Remove printf and assert before grading (a graded kernel runs "
                 "hundreds of times, so its output would flood the report anyway).",
                 g.name, g.opcode, why);
        return -1;
    }
    char shown[256], in[128];
    ptx_readable_name(g.name, strlen(g.name), shown, sizeof shown, in, sizeof in);
    const char *how = !strncmp(g.opcode, "st.", 3) ? "writes it"
                      : !strncmp(g.opcode, "atom", 4) || !strncmp(g.opcode, "red", 3)
                      ? "updates it atomically"
                      : !strncmp(g.opcode, "mov", 3) || !strncmp(g.opcode, "cvta", 4)
                      ? "takes its address, so it can write it through a pointer"
                      : g.opcode[0] == '.'
                      ? "puts its address into another variable, so it can write it through "
                        "a pointer"
                      : "uses it other than by loading it";
    snprintf(msg, len, "keeps a __device__ variable, '%s'%s%s%s, and %s (%s in the PTX). %s "
             "Keep what one launch needs in registers or shared memory; a read-only table "
             "can be __constant__.", shown, in[0] ? " (a static variable inside " : "", in,
             in[0] ? ")" : "", how, g.opcode, why);
    return -1;
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
