/* ptx_operand.c: an instruction split into its guard, its opcode's parts
 * and its typed operands (ptx.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

const char *ptx_trim(const char *s, size_t *n)
{
    while (*n && isspace((unsigned char)*s)) {
        s++;
        (*n)--;
    }
    while (*n && isspace((unsigned char)s[*n - 1]))
        (*n)--;
    return s;
}

size_t ptx_find_top(const char *s, size_t n, char ch)
{
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ch && depth == 0)
            return i;
        depth += (s[i] == '(' || s[i] == '[' || s[i] == '{') -
                 (s[i] == ')' || s[i] == ']' || s[i] == '}');
    }
    return n;
}

static int ident_start(int c)
{
    return isalpha(c) || c == '_' || c == '$' || c == '%';
}

/* The parts of s[0..n) between top-level commas, decoded into a new array. */
static int decode_list(ptx_arena *a, const char *s, size_t n, const ptx_operand **out)
{
    int count = 0;
    size_t n0 = n;
    s = ptx_trim(s, &n0);
    if (!n0)
        return 0;
    for (size_t at = 0; at <= n0;) {
        size_t k = ptx_find_top(s + at, n0 - at, ',');
        count++;
        at += k + 1;
    }
    ptx_operand *v = arena_alloc(a, sizeof *v * (size_t)count);
    if (!v)
        return 0;
    int i = 0;
    for (size_t at = 0; at <= n0 && i < count;) {
        size_t k = ptx_find_top(s + at, n0 - at, ',');
        ptx_decode_operand(a, s + at, k, &v[i++]);
        at += k + 1;
    }
    *out = v;
    return count;
}

/* An integer as PTX writes it: decimal, 0x hex, 0 octal, 0b binary, an
 * optional 'U' after; a sign before. 1 when s[0..n) is exactly that. */
static int parse_int(const char *s, size_t n, long long *v)
{
    char buf[80];
    if (!n || n >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    if (buf[n - 1] == 'U' || buf[n - 1] == 'u')
        buf[--n] = 0;
    const char *p = buf;
    int neg = 0;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    if (!isdigit((unsigned char)*p))
        return 0;
    char *end;
    unsigned long long u;
    errno = 0;
    if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
        u = strtoull(p + 2, &end, 2);
    else
        u = strtoull(p, &end, 0);
    if (*end || errno)
        return 0;
    *v = neg ? -(long long)u : (long long)u;
    return 1;
}

/* 0fXXXXXXXX (32-bit) or 0dXXXXXXXXXXXXXXXX (64-bit): the raw bits. */
static int parse_hex_float(const char *s, size_t n, ptx_operand *o)
{
    int neg = 0;
    if (n && (*s == '-' || *s == '+')) {
        neg = *s == '-';
        s++;
        n--;
    }
    if (n < 3 || s[0] != '0' || (s[1] != 'f' && s[1] != 'F' && s[1] != 'd' && s[1] != 'D'))
        return 0;
    int wide = s[1] == 'd' || s[1] == 'D';
    if (n - 2 != (size_t)(wide ? 16 : 8))
        return 0;
    unsigned long long bits = 0;
    for (size_t i = 2; i < n; i++) {
        if (!isxdigit((unsigned char)s[i]))
            return 0;
        bits = bits << 4 | (unsigned long long)(isdigit((unsigned char)s[i]) ? s[i] - '0'
                                                : (tolower((unsigned char)s[i]) - 'a' + 10));
    }
    o->kind = PO_FIMM;
    o->fwidth = wide ? 64 : 32;
    o->fbits = bits;
    if (wide) {
        double d;
        memcpy(&d, &bits, sizeof d);
        o->fimm = neg ? -d : d;
    } else {
        unsigned int b32 = (unsigned int)bits;
        float f;
        memcpy(&f, &b32, sizeof f);
        o->fimm = neg ? -(double)f : (double)f;
    }
    return 1;
}

/* A decimal float: "1.5", "-2.0e3", "1e-5". */
static int parse_decimal_float(const char *s, size_t n, ptx_operand *o)
{
    char buf[80];
    if (!n || n >= sizeof buf || (!memchr(s, '.', n) && !memchr(s, 'e', n) && !memchr(s, 'E', n)))
        return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    double d = strtod(buf, &end);
    if (*end || end == buf)
        return 0;
    o->kind = PO_FIMM;
    o->fwidth = 64;
    o->fimm = d;
    return 1;
}

/* "[...]": a base register, symbol or number and an offset, or (with a
 * top-level comma) a tensor or texture address of parts. */
static void decode_address(ptx_arena *a, const char *s, size_t n, ptx_operand *o)
{
    o->kind = PO_ADDR;
    s = ptx_trim(s, &n);
    if (ptx_find_top(s, n, ',') < n) {
        o->nelem = decode_list(a, s, n, &o->elem);
        o->base = o->nelem && o->elem[0].kind == PO_REG ? PB_REG : PB_SYM;
        return;
    }
    if (n && (isdigit((unsigned char)*s) || *s == '-' || *s == '+')) {
        o->base = PB_IMM;
        if (!parse_int(s, n, &o->imm))
            o->kind = PO_OTHER;
        return;
    }
    size_t k = 0;
    while (k < n && s[k] != '+' && s[k] != '-' && !isspace((unsigned char)s[k]))
        k++;
    o->base = *s == '%' ? PB_REG : PB_SYM;
    o->name = arena_strndup(a, s, k);
    const char *r = s + k;
    size_t rn = n - k;
    r = ptx_trim(r, &rn);
    if (!rn)
        return;
    int minus = *r == '-';
    r++;
    rn--;
    r = ptx_trim(r, &rn);
    long long v;
    if (!k || !parse_int(r, rn, &v)) {
        o->kind = PO_OTHER;
        return;
    }
    o->imm = minus ? -v : v;
}

void ptx_decode_operand(ptx_arena *a, const char *s, size_t n, ptx_operand *o)
{
    memset(o, 0, sizeof *o);
    s = ptx_trim(s, &n);
    o->text = arena_strndup(a, s, n);
    o->kind = PO_OTHER;
    if (!n)
        return;
    if (n == 1 && *s == '_') {
        o->kind = PO_SINK;
    } else if (*s == '{' && s[n - 1] == '}') {
        o->kind = PO_VEC;
        o->nelem = decode_list(a, s + 1, n - 2, &o->elem);
    } else if (*s == '[' && s[n - 1] == ']') {
        decode_address(a, s + 1, n - 2, o);
    } else if (*s == '(' && s[n - 1] == ')') {
        o->kind = PO_LIST;
        o->nelem = decode_list(a, s + 1, n - 2, &o->elem);
    } else if (ptx_find_top(s, n, '|') < n) {
        size_t k = ptx_find_top(s, n, '|');
        ptx_operand *v = arena_alloc(a, 2 * sizeof *v);
        if (!v)
            return;
        ptx_decode_operand(a, s, k, &v[0]);
        ptx_decode_operand(a, s + k + 1, n - k - 1, &v[1]);
        o->kind = PO_PAIR;
        o->nelem = 2;
        o->elem = v;
    } else if (*s == '!' && n > 1) {
        ptx_decode_operand(a, s + 1, n - 1, o);
        o->text = arena_strndup(a, s, n);
        o->neg = o->kind == PO_REG || o->kind == PO_SYM;
        if (o->kind == PO_SYM)
            o->kind = PO_REG;   /* "!p": a named predicate */
    } else if (*s == '%') {
        o->kind = PO_REG;
        o->name = o->text;
    } else if (isdigit((unsigned char)*s) || *s == '-' || *s == '+' || *s == '.') {
        if (parse_int(s, n, &o->imm))
            o->kind = PO_IMM;
        else if (!parse_hex_float(s, n, o))
            parse_decimal_float(s, n, o);
    } else if (ident_start((unsigned char)*s)) {
        size_t k = 1;
        while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '$'))
            k++;
        if (k == n) {
            o->kind = PO_SYM;
            o->name = o->text;
        }
    }
}

void ptx_decode_insn(ptx_arena *a, const char *text, ptx_insn *in)
{
    const char *p = text;
    if (*p == '@') {
        p++;
        if (*p == '!') {
            in->pred_neg = 1;
            p++;
        }
        size_t k = 0;
        while (p[k] && !isspace((unsigned char)p[k]))
            k++;
        in->pred = arena_strndup(a, p, k);
        p += k;
        while (isspace((unsigned char)*p))
            p++;
    }
    size_t k = 0;
    while (p[k] && !isspace((unsigned char)p[k]))
        k++;
    in->opcode = arena_strndup(a, p, k);
    const char *part = in->opcode;
    while (*part && in->nparts < PTX_MAX_PARTS) {
        size_t m = in->nparts == PTX_MAX_PARTS - 1 ? strlen(part) : strcspn(part, ".");
        in->part[in->nparts++] = arena_strndup(a, part, m);
        part += m;
        if (*part == '.')
            part++;
    }
    p += k;
    in->nops = decode_list(a, p, strlen(p), &in->op);
}
