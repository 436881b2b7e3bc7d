/* ptx_directive.c: directives decoded: declarations with their sizes,
 * function headers with their parameters, .loc and .file (ptx.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

static int type_bytes(const char *t, size_t n)
{
    static const struct { const char *name; int bytes; } types[] = {
        {"b8", 1}, {"u8", 1}, {"s8", 1}, {"pred", 1},
        {"b16", 2}, {"u16", 2}, {"s16", 2}, {"f16", 2}, {"bf16", 2},
        {"b32", 4}, {"u32", 4}, {"s32", 4}, {"f32", 4}, {"f16x2", 4}, {"bf16x2", 4},
        {"tf32", 4}, {"b64", 8}, {"u64", 8}, {"s64", 8}, {"f64", 8}, {"b128", 16},
        {"texref", 8}, {"samplerref", 8}, {"surfref", 8},
    };
    for (size_t k = 0; k < sizeof types / sizeof *types; k++)
        if (strlen(types[k].name) == n && !strncmp(t, types[k].name, n))
            return types[k].bytes;
    return 0;
}

static int word_is(const char *w, size_t n, const char *what)
{
    return strlen(what) == n && !strncmp(w, what, n);
}

static int is_space_word(const char *w, size_t n)
{
    static const char *const spaces[] = {".reg", ".shared", ".global", ".const", ".local",
                                         ".param", ".tex"};
    for (size_t k = 0; k < sizeof spaces / sizeof *spaces; k++)
        if (word_is(w, n, spaces[k]))
            return 1;
    return 0;
}

static size_t word_len(const char *s, size_t n)
{
    size_t k = 1;
    while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '$'))
        k++;
    return k;
}

/* One qualifier ".xxx" at s (k its length) into d; returns how far it read
 * (the qualifier and its argument). */
static size_t decl_qualifier(ptx_arena *a, const char *s, size_t n, size_t k, ptx_decl *d)
{
    if (word_is(s, k, ".align")) {
        size_t j = k;
        while (j < n && isspace((unsigned char)s[j]))
            j++;
        d->align = atoi(s + j);
        while (j < n && isdigit((unsigned char)s[j]))
            j++;
        return j;
    }
    if (word_is(s, k, ".attribute")) {
        size_t j = k;
        while (j < n && s[j] != ')')
            j++;
        const char *in = memchr(s, '(', j);
        if (in)
            d->attribute = arena_strndup(a, in + 1, (size_t)(s + j - in - 1));
        return j < n ? j + 1 : j;
    }
    if (!d->space && is_space_word(s, k))
        d->space = arena_strndup(a, s + 1, k - 1);
    else if (k >= 3 && s[1] == 'v' && isdigit((unsigned char)s[2]))
        d->vec = atoi(s + 2);
    else if (word_is(s, k, ".extern"))
        d->is_extern = 1;
    else if (word_is(s, k, ".visible"))
        d->is_visible = 1;
    else if (word_is(s, k, ".weak"))
        d->is_weak = 1;
    else if (word_is(s, k, ".ptr"))
        d->is_ptr = 1;
    else if (!d->type && type_bytes(s + 1, k - 1)) {
        d->type = arena_strndup(a, s + 1, k - 1);
        d->elem_bytes = type_bytes(s + 1, k - 1);
    }
    return k;
}

/* One name with its "<N>", "[a][b]" and "= init", from s[0..n). */
static void decode_var(ptx_arena *a, const char *s, size_t n, const ptx_decl *d, ptx_var *v)
{
    s = ptx_trim(s, &n);
    size_t eq = ptx_find_top(s, n, '=');
    if (eq < n) {
        size_t in = n - eq - 1;
        const char *i = ptx_trim(s + eq + 1, &in);
        v->init = arena_strndup(a, i, in);
        n = eq;
        s = ptx_trim(s, &n);
    }
    size_t k = 0;
    while (k < n && s[k] != '<' && s[k] != '[' && !isspace((unsigned char)s[k]))
        k++;
    v->name = arena_strndup(a, s, k);
    v->count = -1;
    v->bytes = (long long)d->elem_bytes * d->vec;
    for (size_t j = k; j < n; j++) {
        if (s[j] == '<')
            v->count = atoi(s + j + 1);
        if (s[j] != '[' || v->ndims == 4)
            continue;
        size_t e = j + 1;
        while (e < n && isspace((unsigned char)s[e]))
            e++;
        long long dim = s[e] == ']' ? -1 : atoll(s + e);
        v->dim[v->ndims++] = dim;
        v->bytes = dim < 0 || v->bytes < 0 ? -1 : v->bytes * dim;
    }
}

void ptx_decode_decl(ptx_arena *a, const char *s, size_t n, ptx_decl *d)
{
    memset(d, 0, sizeof *d);
    d->vec = 1;
    s = ptx_trim(s, &n);
    size_t at = 0;
    while (at < n) {
        while (at < n && isspace((unsigned char)s[at]))
            at++;
        if (at >= n || s[at] != '.')
            break;
        at += decl_qualifier(a, s + at, n - at, word_len(s + at, n - at), d);
    }
    /* The names: separated by top-level commas. */
    int count = 0;
    for (size_t j = at; j < n; j += ptx_find_top(s + j, n - j, ',') + 1)
        count++;
    ptx_var *v = count ? arena_alloc(a, sizeof *v * (size_t)count) : NULL;
    if (!v)
        return;
    for (size_t j = at; j < n && d->nvars < count;) {
        size_t k = ptx_find_top(s + j, n - j, ',');
        decode_var(a, s + j, k, d, &v[d->nvars++]);
        j += k + 1;
    }
    d->var = v;
}

/* "(a, b)" at s: each parameter declared, into a new array. */
static int decode_params(ptx_arena *a, const char *s, size_t n, const ptx_decl **out)
{
    size_t k = n;
    s = ptx_trim(s, &k);
    if (!k)
        return 0;
    int count = 0;
    for (size_t j = 0; j <= k; j += ptx_find_top(s + j, k - j, ',') + 1)
        count++;
    ptx_decl *v = arena_alloc(a, sizeof *v * (size_t)count);
    if (!v)
        return 0;
    int i = 0;
    for (size_t j = 0; j <= k && i < count;) {
        size_t m = ptx_find_top(s + j, k - j, ',');
        ptx_decode_decl(a, s + j, m, &v[i++]);
        j += m + 1;
    }
    *out = v;
    return count;
}

/* The text between the '(' at s[open] and its ')': its end (the ')'). */
static size_t close_paren(const char *s, size_t open)
{
    return open + 1 + ptx_find_top(s + open + 1, strlen(s + open + 1), ')');
}

/* ".visible .entry k(params) .maxntid ..." or
 * ".func (rets) f(params)": name, parameters and linkage. */
static void decode_header(ptx_arena *a, const char *t, ptx_dir *d)
{
    const char *kw = strstr(t, d->kind == PD_ENTRY ? ".entry" : ".func");
    d->is_extern = strstr(t, ".extern") && strstr(t, ".extern") < kw;
    d->is_visible = strstr(t, ".visible") && strstr(t, ".visible") < kw;
    d->is_weak = strstr(t, ".weak") && strstr(t, ".weak") < kw;
    size_t at = (size_t)(kw - t) + (d->kind == PD_ENTRY ? 6 : 5);
    while (isspace((unsigned char)t[at]))
        at++;
    if (d->kind == PD_FUNC && t[at] == '(') {
        size_t c = close_paren(t, at);
        d->nrets = decode_params(a, t + at + 1, c - at - 1, &d->rets);
        at = t[c] ? c + 1 : c;
        while (isspace((unsigned char)t[at]))
            at++;
    }
    size_t k = 0;
    while (t[at + k] && !isspace((unsigned char)t[at + k]) && t[at + k] != '(')
        k++;
    d->func = arena_strndup(a, t + at, k);
    at += k;
    while (isspace((unsigned char)t[at]))
        at++;
    if (t[at] == '(') {
        size_t c = close_paren(t, at);
        d->nparams = decode_params(a, t + at + 1, c - at - 1, &d->params);
    }
}

/* Which header keyword, if any, stands as a word before the first '('. */
static enum ptx_dir_kind header_kind(const char *t)
{
    for (const char *p = t; *p && *p != '('; ) {
        while (isspace((unsigned char)*p))
            p++;
        size_t k = strcspn(p, " \t\r\n(");
        if (word_is(p, k, ".entry"))
            return PD_ENTRY;
        if (word_is(p, k, ".func"))
            return PD_FUNC;
        p += k;
    }
    return PD_OTHER;
}

void ptx_decode_directive(ptx_arena *a, const char *t, ptx_dir *d)
{
    size_t k = strcspn(t, " \t\r\n(");
    d->name = arena_strndup(a, t, k);
    size_t rest = strlen(t + k);
    const char *args = ptx_trim(t + k, &rest);
    d->args = arena_strndup(a, args, rest);
    enum ptx_dir_kind h = header_kind(t);
    if (h != PD_OTHER) {
        d->kind = h;
        decode_header(a, t, d);
    } else if (word_is(t, k, ".version")) {
        d->kind = PD_VERSION;
    } else if (word_is(t, k, ".target")) {
        d->kind = PD_TARGET;
    } else if (word_is(t, k, ".address_size")) {
        d->kind = PD_ADDRESS_SIZE;
    } else if (word_is(t, k, ".loc")) {
        char *end;
        d->kind = PD_LOC;
        d->loc_file = (int)strtol(args, &end, 10);
        d->loc_line = (int)strtol(end, &end, 10);
        d->loc_col = (int)strtol(end, &end, 10);
    } else if (word_is(t, k, ".file")) {
        char *end;
        d->kind = PD_FILE;
        d->loc_file = (int)strtol(args, &end, 10);
        const char *q = strchr(end, '"');
        const char *e = q ? strchr(q + 1, '"') : NULL;
        d->path = q && e ? arena_strndup(a, q + 1, (size_t)(e - q - 1)) : NULL;
    } else {
        /* A declaration: its space stands among the first words. */
        for (const char *p = t; *p == '.';) {
            size_t w = word_len(p, strlen(p));
            if (is_space_word(p, w)) {
                d->kind = PD_VAR;
                ptx_decode_decl(a, t, strlen(t), &d->decl);
                break;
            }
            if (!word_is(p, w, ".extern") && !word_is(p, w, ".visible") &&
                !word_is(p, w, ".weak") && !word_is(p, w, ".common"))
                break;
            p += w;
            while (isspace((unsigned char)*p))
                p++;
        }
    }
}
