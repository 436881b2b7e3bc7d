/* source_rules.c: the include rules, on the file's text.
 *
 * The scan reads the file the way NVRTC's preprocessor does (measured on
 * NVRTC 13.0, see tests/unit/test_rules.c), because an attacker hides a
 * directive where a naive scan does not look:
 *   - a backslash, any number of carriage returns and a newline splice two
 *     lines, anywhere (also inside "#inc\<newline>lude");
 *   - a comment is whitespace, and a block comment may span lines, so
 *     "/" "* ... *" "/ #include" on the line after a comment's start is a directive;
 *   - a raw string R"x( ... )x" may hold quotes and comment openers;
 *   - 1'0 is a number (C++14 digit separator), not the start of a character;
 *   - "%:" is "#" (a digraph);
 *   - the text ends at the first NUL byte (NVRTC takes a C string).
 * Every directive is checked wherever it is, also inside #if 0: a refused
 * line is refused even where it would be skipped. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "shim_headers.h"
#include "source_rules.h"

typedef struct cursor {
    const char *s;
    size_t i;
    int line;
} cursor;

typedef struct scan {
    cursor c;
    const char *name;
    const char *const *dirs;
    int ndirs;
    char *msg;
    size_t len;
    int refused;
    int includes;           /* #include and __has_include seen so far */
} scan;

/* A kernel file includes a handful of headers; each one is looked up on
 * disk, so a file of a million #include lines must not cost a million. */
#define MAX_INCLUDES 100

/* Skip line splices at the cursor: backslash, carriage returns, newline. */
static void skip_splices(cursor *c)
{
    while (c->s[c->i] == '\\') {
        size_t j = c->i + 1;
        while (c->s[j] == '\r')
            j++;
        if (c->s[j] != '\n')
            return;
        c->i = j + 1;
        c->line++;
    }
}

static int peek(cursor *c)
{
    skip_splices(c);
    return (unsigned char)c->s[c->i];
}

static void advance(cursor *c)
{
    skip_splices(c);
    if (!c->s[c->i])
        return;
    if (c->s[c->i] == '\n')
        c->line++;
    c->i++;
}

/* The character after the current one, splices skipped. */
static int peek2(const cursor *c)
{
    cursor d = *c;
    advance(&d);
    return peek(&d);
}

static int is_hspace(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f' || ch == '\r';
}

static int is_ident(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '$' || ch >= 0x80;
}

static void refuse(scan *sc, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* One refusal is enough: the first one is the one reported. */
static void refuse(scan *sc, int line, const char *fmt, ...)
{
    if (sc->refused)
        return;
    sc->refused = 1;
    int n = snprintf(sc->msg, sc->len, "%s:%d: ", sc->name, line);
    if (n < 0 || (size_t)n >= sc->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sc->msg + n, sc->len - (size_t)n, fmt, ap);
    va_end(ap);
}

/* A block comment from its opening slash; the caller saw the star. */
static void skip_block_comment(cursor *c)
{
    advance(c);
    advance(c);
    while (peek(c)) {
        if (peek(c) == '*' && peek2(c) == '/') {
            advance(c);
            advance(c);
            return;
        }
        advance(c);
    }
}

static void skip_line_comment(cursor *c)
{
    while (peek(c) && peek(c) != '\n')
        advance(c);
}

/* Whitespace and comments inside one logical line. */
static void skip_blanks(cursor *c)
{
    for (;;) {
        int ch = peek(c);
        if (is_hspace(ch))
            advance(c);
        else if (ch == '/' && peek2(c) == '*')
            skip_block_comment(c);
        else
            return;
    }
}

/* A quoted literal from its opening quote: ends at the same quote or the end
 * of the line (unterminated: the compiler says so; nothing is hidden). */
static void skip_quoted(cursor *c, int quote)
{
    advance(c);
    while (peek(c) && peek(c) != '\n') {
        int ch = peek(c);
        advance(c);
        if (ch == '\\' && peek(c) && peek(c) != '\n')
            advance(c);
        else if (ch == quote)
            return;
    }
}

/* A raw string from its opening quote: R"delim( ... )delim". Splices are not
 * undone inside a raw string by the standard, but NVRTC's reading is what
 * matters and a splice there only joins lines of the string. */
static void skip_raw_string(cursor *c)
{
    char delim[20];
    size_t n = 0;
    advance(c);
    while (peek(c) && peek(c) != '(' && n < sizeof delim - 1) {
        int ch = peek(c);
        if (ch == ' ' || ch == ')' || ch == '\\' || ch == '\n' || ch == '"')
            return;     /* not a raw string after all: the compiler says so */
        delim[n++] = (char)ch;
        advance(c);
    }
    if (peek(c) != '(')
        return;
    advance(c);
    while (peek(c)) {
        if (peek(c) == ')') {
            cursor d = *c;
            advance(&d);
            size_t k = 0;
            while (k < n && peek(&d) == (unsigned char)delim[k]) {
                advance(&d);
                k++;
            }
            if (k == n && peek(&d) == '"') {
                advance(&d);
                *c = d;
                return;
            }
        }
        advance(c);
    }
}

static size_t read_ident(cursor *c, char *buf, size_t len)
{
    size_t n = 0;
    while (is_ident(peek(c))) {
        if (n + 1 < len)
            buf[n++] = (char)peek(c);
        advance(c);
    }
    buf[n < len ? n : len - 1] = 0;
    return n;
}

/* A pp-number: digits, letters, dots, exponent signs, and ' before a digit or
 * letter (C++14 digit separators). */
static void skip_number(cursor *c)
{
    for (;;) {
        int ch = peek(c);
        if ((ch == 'e' || ch == 'E' || ch == 'p' || ch == 'P') &&
            (peek2(c) == '+' || peek2(c) == '-')) {
            advance(c);
            advance(c);
        } else if (ch == '\'' && is_ident(peek2(c))) {
            advance(c);
            advance(c);
        } else if (is_ident(ch) || ch == '.') {
            advance(c);
        } else {
            return;
        }
    }
}

static int is_string_prefix(const char *id, int *raw)
{
    static const char *const plain[] = {"u8", "u", "U", "L"};
    static const char *const rawp[] = {"R", "u8R", "uR", "UR", "LR"};
    for (size_t k = 0; k < sizeof rawp / sizeof *rawp; k++)
        if (!strcmp(id, rawp[k])) {
            *raw = 1;
            return 1;
        }
    for (size_t k = 0; k < sizeof plain / sizeof *plain; k++)
        if (!strcmp(id, plain[k])) {
            *raw = 0;
            return 1;
        }
    return 0;
}

/* NULL when `hdr` may be included; else why not. With `must_exist`, it must
 * be a regular file inside one of the toolkit's include directories. */
static const char *bad_header(const scan *sc, const char *hdr, int must_exist)
{
    if (!*hdr)
        return "the name is empty";
    if (hdr[0] == '/')
        return "it is an absolute path";
    if (strchr(hdr, '\\'))
        return "it contains a backslash";
    for (const char *p = hdr; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == hdr || p[-1] == '/') && (p[2] == 0 || p[2] == '/'))
            return "it climbs out of the toolkit with '..'";
    if (!must_exist || shim_header_is(hdr))
        return NULL;    /* <cstdio>, <cassert>...: the grader's, never a file */
    for (int d = 0; d < sc->ndirs; d++) {
        char path[PATH_MAX], real[PATH_MAX], root[PATH_MAX];
        struct stat st;
        if (snprintf(path, sizeof path, "%s/%s", sc->dirs[d], hdr) >= (int)sizeof path)
            continue;
        if (!realpath(path, real) || !realpath(sc->dirs[d], root) || stat(real, &st) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        size_t n = strlen(root);
        if (!strncmp(real, root, n) && real[n] == '/')
            return NULL;
    }
    return "it is not one of the toolkit's headers";
}

#define ONLY_TOOLKIT                                                                    \
    "a kernel file may include only the CUDA toolkit's headers (such as "             \
    "<cuda_pipeline.h>, <cuda/pipeline>, <cuda/barrier> or <cuda/std/...>), and "     \
    "<cstdio>, <stdio.h>, <cassert> or <assert.h> for printf and assert. The "       \
    "grader compiles your file on its own, so everything your kernel needs must be "  \
    "in it, and it never reads another file for you (so no report can show one)."

/* A header name in <> or "" at the cursor, read into `hdr`. 0 when there is
 * none (a macro, an unterminated name, or one too long to check whole). */
static int read_header_name(cursor *c, char *hdr, size_t len)
{
    int open = peek(c), close = open == '<' ? '>' : '"';
    if (open != '<' && open != '"')
        return 0;
    advance(c);
    size_t n = 0;
    int whole = 1;
    while (peek(c) && peek(c) != '\n' && peek(c) != close) {
        if (n + 1 < len)
            hdr[n++] = (char)peek(c);
        else
            whole = 0;
        advance(c);
    }
    hdr[n] = 0;
    if (peek(c) != close || !whole)
        return 0;
    advance(c);
    return 1;
}

/* 1 while the file stays under MAX_INCLUDES lookups. */
static int count_include(scan *sc, int line)
{
    if (++sc->includes <= MAX_INCLUDES)
        return 1;
    refuse(sc, line, "more than %d #include or __has_include are refused: a kernel file "
           "needs a few of the toolkit's headers; " ONLY_TOOLKIT, MAX_INCLUDES);
    return 0;
}

static void check_include(scan *sc, int line)
{
    char hdr[512], shown[540];
    if (!count_include(sc, line))
        return;
    skip_blanks(&sc->c);
    int open = peek(&sc->c);
    if (!read_header_name(&sc->c, hdr, sizeof hdr)) {
        refuse(sc, line, "#include is refused: its file is not named literally as <name> or "
               "\"name\" (a macro, a name that does not end on its line, or one of over 500 "
               "characters); " ONLY_TOOLKIT);
        return;
    }
    snprintf(shown, sizeof shown, "%c%s%c", open, hdr, open == '<' ? '>' : '"');
    const char *why = bad_header(sc, hdr, 1);
    if (why)
        refuse(sc, line, "#include %s is refused: %s; " ONLY_TOOLKIT, shown, why);
}

/* __has_include must look only where #include may: a literal toolkit name. */
static void check_has_include(scan *sc, const char *id, int line)
{
    if (!strcmp(id, "__has_include_next")) {
        refuse(sc, line, "%s is refused: it searches past the toolkit's directories; "
               ONLY_TOOLKIT, id);
        return;
    }
    char hdr[512];
    if (!count_include(sc, line))
        return;
    skip_blanks(&sc->c);
    if (peek(&sc->c) != '(') {
        refuse(sc, line, "%s is refused: it must be followed by (<name>) written out; "
               ONLY_TOOLKIT, id);
        return;
    }
    advance(&sc->c);
    skip_blanks(&sc->c);
    if (!read_header_name(&sc->c, hdr, sizeof hdr)) {
        refuse(sc, line, "%s is refused: its file is not named literally as <name> or "
               "\"name\"; " ONLY_TOOLKIT, id);
        return;
    }
    const char *why = bad_header(sc, hdr, 0);
    if (why)
        refuse(sc, line, "%s(%s) is refused: %s; " ONLY_TOOLKIT, id, hdr, why);
}

/* After the '#' (or "%:") of a directive: its name, and for #include its file. */
static void check_directive(scan *sc)
{
    static const char *const allowed[] = {
        "define", "undef", "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef",
        "else", "endif", "error", "warning", "pragma",
    };
    int line = sc->c.line;
    skip_blanks(&sc->c);
    char name[64];
    int ch = peek(&sc->c);
    if (ch == 0 || ch == '\n')
        return;     /* the null directive */
    if (!is_ident(ch) || (ch >= '0' && ch <= '9')) {
        refuse(sc, line, "# followed by %s is refused: it is not a directive a kernel file "
               "needs (a number there renames the file the compiler reports); " ONLY_TOOLKIT,
               ch >= '0' && ch <= '9' ? "a number" : "something that is not a name");
        return;
    }
    read_ident(&sc->c, name, sizeof name);
    if (!strcmp(name, "include")) {
        check_include(sc, line);
        return;
    }
    for (size_t k = 0; k < sizeof allowed / sizeof *allowed; k++)
        if (!strcmp(name, allowed[k]))
            return;
    refuse(sc, line, "#%s is refused: %s; " ONLY_TOOLKIT, name,
           !strcmp(name, "line") ? "it renames the file the compiler reports"
           : !strcmp(name, "include_next") || !strcmp(name, "import") || !strcmp(name, "embed")
           ? "it reads another file"
           : "it is not a directive a kernel file needs");
}

int source_rules_check(const char *src, const char *name, const char *const *dirs, int ndirs,
                       char *msg, size_t len)
{
    scan sc = {.c = {.s = src, .i = 0, .line = 1}, .name = name, .dirs = dirs,
               .ndirs = ndirs, .msg = msg, .len = len};
    if (len)
        msg[0] = 0;
    cursor *c = &sc.c;
    int line_start = 1;
    while (!sc.refused && peek(c)) {
        int ch = peek(c), next = peek2(c);
        if (ch == '\n') {
            advance(c);
            line_start = 1;
        } else if (is_hspace(ch)) {
            advance(c);
        } else if (ch == '/' && next == '*') {
            skip_block_comment(c);      /* a comment keeps the line's start */
        } else if (ch == '/' && next == '/') {
            skip_line_comment(c);
        } else if (line_start && (ch == '#' || (ch == '%' && next == ':'))) {
            advance(c);
            if (ch == '%')
                advance(c);
            line_start = 0;
            check_directive(&sc);
        } else {
            line_start = 0;
            if (ch == '"' || ch == '\'') {
                skip_quoted(c, ch);
            } else if ((ch >= '0' && ch <= '9') || (ch == '.' && next >= '0' && next <= '9')) {
                skip_number(c);
            } else if (is_ident(ch)) {
                char id[64];
                int at = c->line, raw = 0;
                read_ident(c, id, sizeof id);
                if ((peek(c) == '"' || peek(c) == '\'') && is_string_prefix(id, &raw)) {
                    if (raw && peek(c) == '"')
                        skip_raw_string(c);
                    else
                        skip_quoted(c, peek(c));
                } else if (!strcmp(id, "__has_include") || !strcmp(id, "__has_include_next")) {
                    check_has_include(&sc, id, at);
                }
            } else {
                advance(c);
            }
        }
    }
    return sc.refused ? -1 : 0;
}
