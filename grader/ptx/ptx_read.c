/* ptx_read.c: PTX text cut into statements (ptx.h's invariants): ';',
 * scope braces and labels end a statement, a line's end only for the
 * line directives; comments skipped, strings kept whole. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

/* What the cutting keeps between statements. */
typedef struct reader {
    ptx_arena *a;
    ptx_stmt *stmt;
    int n, cap;
    ptx_scope *scopes;
    int nscopes, scap;
    int scope;                  /* the scope statements go into now */
    int pending_func;           /* a header with a body was just read: its index */
    int loc_file, loc_line, loc_col;
    char *cur;                  /* the statement being read, comments left out */
    size_t len, ccap;
    int cur_line, depth;
    int broken;                 /* the statement holds a string its line cut */
    int failed;
} reader;

static void *grow(void *v, int *cap, int need, size_t size, int *failed)
{
    if (need <= *cap)
        return v;
    int c = *cap ? *cap * 2 : 256;
    while (c < need)
        c *= 2;
    void *w = realloc(v, (size_t)c * size);
    if (!w) {
        *failed = 1;
        return v;
    }
    *cap = c;
    return w;
}

static ptx_stmt *new_stmt(reader *r, enum ptx_stmt_kind kind, int line)
{
    r->stmt = grow(r->stmt, &r->cap, r->n + 1, sizeof *r->stmt, &r->failed);
    if (r->failed)
        return NULL;
    ptx_stmt *s = &r->stmt[r->n++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->line = line;
    s->scope = r->scope;
    s->func = r->scopes[r->scope].func;
    return s;
}

static void add_char(reader *r, char c, int line)
{
    if (r->len + 2 > r->ccap) {
        size_t cap = r->ccap ? r->ccap * 2 : 1024;
        char *p = realloc(r->cur, cap);
        if (!p) {
            r->failed = 1;
            return;
        }
        r->cur = p;
        r->ccap = cap;
    }
    if (!r->len)
        r->cur_line = line;
    r->cur[r->len++] = c;
    r->cur[r->len] = 0;
}

/* Blanks are never the first characters kept, so nothing kept is empty. */
static int cur_empty(const reader *r)
{
    return r->len == 0;
}

/* The trimmed statement text, or NULL when there is none. */
static const char *cur_text(reader *r, size_t *n)
{
    *n = r->len;
    const char *t = ptx_trim(r->cur ? r->cur : "", n);
    return *n ? t : NULL;
}

static void open_scope(reader *r, int line)
{
    ptx_stmt *s = new_stmt(r, PS_OPEN, line);
    r->scopes = grow(r->scopes, &r->scap, r->nscopes + 1, sizeof *r->scopes, &r->failed);
    if (!s || r->failed)
        return;
    s->text = "{";
    int func = r->pending_func >= 0 ? r->pending_func : r->scopes[r->scope].func;
    r->scopes[r->nscopes] = (ptx_scope){.parent = r->scope, .open = r->n - 1, .close = -1,
                                        .func = func};
    r->scope = r->nscopes++;
    r->pending_func = -1;
}

static void close_scope(reader *r, int line)
{
    ptx_stmt *s = new_stmt(r, PS_CLOSE, line);
    if (!s)
        return;
    s->text = "}";
    if (r->scope > 0) {
        r->scopes[r->scope].close = r->n - 1;
        r->scope = r->scopes[r->scope].parent;
    }
}

/* The statement read so far, finished: `semi` when a ';' ended it. */
static void finish(reader *r, int semi)
{
    size_t n;
    const char *t = cur_text(r, &n);
    int line = r->cur_line;
    r->len = 0;
    r->depth = 0;
    r->broken = 0;
    if (!t)
        return;
    char *text = arena_strndup(r->a, t, n);
    int is_insn = *text == '@' || isalpha((unsigned char)*text) || *text == '_';
    ptx_stmt *s = new_stmt(r, is_insn ? PS_INSN : PS_DIRECTIVE, line);
    if (!s)
        return;
    s->text = text;
    s->semi = semi;
    if (is_insn) {
        ptx_decode_insn(r->a, text, &s->insn);
        s->insn.loc_file = r->loc_file;
        s->insn.loc_line = r->loc_line;
        s->insn.loc_col = r->loc_col;
        return;
    }
    ptx_decode_directive(r->a, text, &s->dir);
    if (s->dir.kind == PD_LOC) {
        r->loc_file = s->dir.loc_file;
        r->loc_line = s->dir.loc_line;
        r->loc_col = s->dir.loc_col;
    }
}

static void label(reader *r, int line)
{
    size_t n;
    const char *t = cur_text(r, &n);
    ptx_stmt *s = new_stmt(r, PS_LABEL, line);
    r->len = 0;
    if (!s)
        return;
    s->label = arena_strndup(r->a, t, n);
    s->text = s->label;
}

static int in_section(const reader *r)
{
    int s = r->scope;
    return s > 0 && r->scopes[s].open > 0 && r->stmt[r->scopes[s].open - 1].kind ==
           PS_DIRECTIVE && !strcmp(r->stmt[r->scopes[s].open - 1].dir.name, ".section");
}

/* A statement that ends at its line's end (ptx.h). */
static int line_statement(reader *r)
{
    static const char *const words[] = {".version", ".target", ".address_size", ".file",
                                        ".loc", ".section"};
    size_t n;
    const char *t = cur_text(r, &n);
    if (!t)
        return 0;
    if (in_section(r) && *t == '.')
        return 1;
    /* Stray text (a string, a number, a ':' where a statement begins) is
     * no PTX statement: it ends at its line, and hides nothing after it. */
    if (!(*t == '.' || *t == '@' || *t == '_' || *t == '$' || *t == '%' ||
          isalpha((unsigned char)*t)))
        return 1;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        size_t k = strlen(words[i]);
        if (n >= k && !strncmp(t, words[i], k) && (n == k || isspace((unsigned char)t[k])))
            return 1;
    }
    return 0;
}

/* Is the text so far one name, so that a ':' after it makes it a label? */
static int label_so_far(reader *r)
{
    size_t n;
    const char *t = cur_text(r, &n);
    if (!t || !(isalpha((unsigned char)*t) || *t == '_' || *t == '$' || *t == '%'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)t[i]) || t[i] == '_' || t[i] == '$'))
            return 0;
    return 1;
}

/* Is the text so far a function header (".entry" or ".func" before '(')? */
static int header_so_far(reader *r)
{
    size_t n;
    const char *t = cur_text(r, &n);
    if (!t || *t != '.')
        return 0;
    for (const char *p = t; p < t + n && *p != '(';) {
        while (isspace((unsigned char)*p))
            p++;
        size_t k = strcspn(p, " \t\r\n(");
        if ((k == 6 && !strncmp(p, ".entry", 6)) || (k == 5 && !strncmp(p, ".func", 5)))
            return 1;
        p += k;
    }
    return 0;
}

/* A string: copied whole, escapes and all; returns where it ends. */
static size_t copy_string(reader *r, const char *t, size_t i, int line)
{
    add_char(r, t[i++], line);
    while (t[i] && t[i] != '"' && t[i] != '\n') {
        if (t[i] == '\\' && t[i + 1] && t[i + 1] != '\n')
            add_char(r, t[i++], line);
        add_char(r, t[i++], line);
    }
    if (t[i] == '"')
        add_char(r, t[i++], line);
    else
        r->broken = 1;  /* a string cut by its line's end: the statement ends there */
    return i;
}

/* One character (or comment, or string) at t[i]; returns the next i. */
static size_t step(reader *r, const char *t, size_t i, int *line)
{
    char c = t[i];
    if (c == '"')
        return copy_string(r, t, i, *line);
    if (c == '/' && t[i + 1] == '/') {
        while (t[i] && t[i] != '\n')
            i++;
        return i;
    }
    if (c == '/' && t[i + 1] == '*') {
        int lines = 0;
        for (i += 2; t[i] && !(t[i] == '*' && t[i + 1] == '/'); i++)
            lines += t[i] == '\n';
        *line += lines;
        /* A comment over lines ends a line directive as its first line's
         * end would. */
        if (lines && line_statement(r))
            finish(r, 0);
        else if (r->len)
            add_char(r, ' ', *line);
        return t[i] ? i + 2 : i;
    }
    if (c == '\n') {
        if (r->broken || line_statement(r))
            finish(r, 0);
        else if (r->len)
            add_char(r, ' ', *line);
        (*line)++;
        return i + 1;
    }
    if (cur_empty(r) && (c == '{' || c == '}')) {
        r->len = 0;
        if (c == '{')
            open_scope(r, *line);
        else
            close_scope(r, *line);
        return i + 1;
    }
    /* A ';' ends a statement at any depth: PTX has none inside brackets,
     * so an unbalanced one in a student's inline assembly spoils only its
     * own statement. */
    if (c == ';') {
        finish(r, 1);
        return i + 1;
    }
    if (r->depth == 0 && c == '{' && header_so_far(r)) {
        int at = r->n;
        finish(r, 0);
        if (r->n > at && r->stmt[at].kind == PS_DIRECTIVE) {
            r->stmt[at].dir.has_body = 1;
            r->pending_func = at;
        }
        open_scope(r, *line);
        return i + 1;
    }
    if (r->depth == 0 && c == ':' && t[i + 1] != ':' && label_so_far(r)) {
        label(r, *line);
        return i + 1;
    }
    r->depth += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
    if (r->depth < 0)
        r->depth = 0;
    if (isspace((unsigned char)c) && cur_empty(r))
        return i + 1;
    add_char(r, c, *line);
    return i + 1;
}

/* Each symbol operand that names a label of its function becomes
 * PO_LABEL; one that names a register declared without '%' ("p" of
 * ".reg .pred p;" in an inline-assembly block) becomes PO_REG. */
static void mark_names(ptx_prog *p, ptx_operand *o, int n, int at)
{
    for (int i = 0; i < n; i++) {
        if (o[i].kind == PO_SYM && ptx_find_label(p, at, o[i].name) >= 0)
            o[i].kind = PO_LABEL;
        else if (o[i].kind == PO_SYM && ptx_find_reg(p, at, o[i].name, NULL))
            o[i].kind = PO_REG;
        mark_names(p, (ptx_operand *)o[i].elem, o[i].nelem, at);
    }
}

static int is_reg_decl(const ptx_stmt *s)
{
    return s->kind == PS_DIRECTIVE && s->dir.kind == PD_VAR && s->dir.decl.space &&
           !strcmp(s->dir.decl.space, "reg");
}

/* The labels and the register declarations of each scope, chained once
 * for the lookups (ptx_find_reg, ptx_find_label). */
static void build_index(ptx_prog *p)
{
    int *fr = arena_alloc(p->arena, sizeof *fr * (size_t)p->nscopes);
    int *fl = arena_alloc(p->arena, sizeof *fl * (size_t)p->nscopes);
    int *next = arena_alloc(p->arena, sizeof *next * (size_t)(p->n + 1));
    if (!fr || !fl || !next)
        return;
    for (int s = 0; s < p->nscopes; s++)
        fr[s] = fl[s] = -1;
    /* Backwards, so each chain runs in the statements' order. */
    for (int i = p->n - 1; i >= 0; i--) {
        const ptx_stmt *s = &p->stmt[i];
        int *first = s->kind == PS_LABEL ? &fl[s->scope] : is_reg_decl(s) ? &fr[s->scope] : NULL;
        next[i] = first ? *first : -1;
        if (first)
            *first = i;
    }
    p->first_reg = fr;
    p->first_label = fl;
    p->next_in_scope = next;
}

ptx_prog *ptx_read(const char *text)
{
    reader r = {.a = arena_new(), .pending_func = -1};
    ptx_prog *p = calloc(1, sizeof *p);
    r.scopes = calloc(1, sizeof *r.scopes);
    if (!r.a || !p || !r.scopes) {
        arena_free(r.a);
        free(p);
        free(r.scopes);
        return NULL;
    }
    r.scap = r.nscopes = 1;
    r.scopes[0] = (ptx_scope){.parent = -1, .open = -1, .close = -1, .func = -1};
    int line = 1;
    for (size_t i = 0; text && text[i] && !r.failed;)
        i = step(&r, text, i, &line);
    finish(&r, 0);
    free(r.cur);
    /* The arrays move into the arena's care: copied there once, whole. */
    ptx_stmt *stmt = arena_alloc(r.a, sizeof *stmt * (size_t)(r.n ? r.n : 1));
    ptx_scope *scopes = arena_alloc(r.a, sizeof *scopes * (size_t)r.nscopes);
    if (stmt && r.n)
        memcpy(stmt, r.stmt, sizeof *stmt * (size_t)r.n);
    if (scopes)
        memcpy(scopes, r.scopes, sizeof *scopes * (size_t)r.nscopes);
    free(r.stmt);
    free(r.scopes);
    *p = (ptx_prog){.n = r.n, .stmt = stmt, .nscopes = r.nscopes, .scopes = scopes,
                    .arena = r.a};
    if (r.failed || arena_failed(r.a)) {
        ptx_free(p);
        return NULL;
    }
    build_index(p);
    if (arena_failed(r.a)) {
        ptx_free(p);
        return NULL;
    }
    for (int i = 0; i < p->n; i++)
        if (stmt[i].kind == PS_INSN)
            mark_names(p, (ptx_operand *)stmt[i].insn.op, stmt[i].insn.nops, i);
    return p;
}

void ptx_free(ptx_prog *p)
{
    if (!p)
        return;
    arena_free(p->arena);
    free(p);
}
