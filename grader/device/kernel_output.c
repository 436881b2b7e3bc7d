/* kernel_output.c: catching what the student's kernel prints (see
 * kernel_output.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kernel_output.h"
#include "ptx.h"

/* The sink is emptied once it holds more than this before a launch. */
#define SINK_BOUND (1 << 20)

static int first_fd = -1, sink_fd = -1;
static int saved_out = -1, saved_err = -1;     /* where output went before */
static char known_asserts[700];                /* kout_know_asserts */

/* An anonymous file: nothing on disk to clean up, nothing another process
 * can open. */
static int anon_file(const char *name)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) {
        FILE *f = tmpfile();
        fd = f ? dup(fileno(f)) : -1;
        if (f)
            fclose(f);
    }
    return fd;
}

static void point_output_at(int fd)
{
    fflush(NULL);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
}

int kout_first_begin(void)
{
    if (first_fd >= 0)
        return 0;
    first_fd = anon_file("kernel-output");
    sink_fd = anon_file("kernel-output-sink");
    if (first_fd < 0 || sink_fd < 0)
        return -1;
    fflush(NULL);
    saved_out = dup(STDOUT_FILENO);
    saved_err = dup(STDERR_FILENO);
    point_output_at(first_fd);
    return 0;
}

/* All of `fd`'s bytes, NUL-terminated (at most `max`); *n their count. */
static char *read_all(int fd, size_t max, size_t *n)
{
    struct stat st;
    *n = 0;
    if (fd < 0 || fstat(fd, &st) != 0)
        return NULL;
    size_t want = (size_t)st.st_size < max ? (size_t)st.st_size : max;
    char *buf = malloc(want + 1);
    if (!buf)
        return NULL;
    ssize_t got = pread(fd, buf, want, 0);
    *n = got > 0 ? (size_t)got : 0;
    buf[*n] = 0;
    return buf;
}

void kout_keep(const char *text, size_t n, result *r)
{
    size_t at = 0, shown = 0;
    long lines = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)text[i];
        int end = ch == '\n' || i + 1 == n;
        if (lines < KOUT_SHOW_LINES && at + 5 < sizeof r->printed) {
            /* A kernel's bytes go to a terminal: no escape sequences. */
            r->printed[at++] = ch == '\n' || ch == '\t' || (ch >= 32 && ch != 127) ? (char)ch
                                                                                  : '?';
            shown = i + 1;
        }
        lines += end;
    }
    if (at && r->printed[at - 1] != '\n' && shown < n)
        r->printed[at++] = '\n';    /* cut inside a line: end it */
    r->printed[at] = 0;
    r->printed_lines = lines;
    r->printed_bytes = (long)n;
}

void kout_first_end(result *r, int keep_catching)
{
    if (first_fd < 0 || sink_fd < 0)
        return;
    fflush(NULL);
    struct stat st;
    size_t n;
    char *text = read_all(first_fd, sizeof r->printed * 4, &n);
    if (text) {
        kout_keep(text, n, r);
        if (fstat(first_fd, &st) == 0)
            r->printed_bytes = (long)st.st_size;
        free(text);
    }
    if (keep_catching || saved_out < 0 || saved_err < 0) {
        point_output_at(sink_fd);
        return;
    }
    fflush(NULL);
    dup2(saved_out, STDOUT_FILENO);
    dup2(saved_err, STDERR_FILENO);
}

void kout_trim(void)
{
    struct stat st;
    if (sink_fd < 0)
        return;
    fflush(NULL);
    if (fstat(sink_fd, &st) == 0 && st.st_size > SINK_BOUND) {
        if (ftruncate(sink_fd, 0) == 0)
            lseek(sink_fd, 0, SEEK_SET);
    }
}

int kout_parse_assertion(const char *text, char *buf, size_t len)
{
    const char *a = text ? strstr(text, "Assertion `") : NULL;
    if (!a)
        return 0;
    const char *cond = a + strlen("Assertion `");
    const char *cend = strstr(cond, "` failed");
    if (!cend)
        return 0;
    const char *line = a;
    while (line > text && line[-1] != '\n')
        line--;
    /* "file:line: function: block: [..], thread: [..] " before it: the
     * location ends at the first ": ", the rest says where it ran. */
    const char *where_end = a;
    while (where_end > line && where_end[-1] == ' ')
        where_end--;
    const char *first = strstr(line, ": ");
    if (!first || first > where_end)
        first = where_end;
    const char *rest = first < where_end ? first + 2 : where_end;
    snprintf(buf, len, "assert(%.*s) failed at %.*s%s%.*s%s", (int)(cend - cond), cond,
             (int)(first - line), line, rest < where_end ? " (in " : "",
             (int)(where_end - rest), rest, rest < where_end ? ")" : "");
    return 1;
}

int kout_assertion(char *buf, size_t len)
{
    int fds[2] = {sink_fd, first_fd}, found = 0;
    fflush(NULL);
    for (int k = 0; k < 2 && !found; k++) {
        size_t n;
        char *text = read_all(fds[k], 8 << 20, &n);
        found = kout_parse_assertion(text, buf, len);
        free(text);
    }
    if (!found && known_asserts[0]) {
        snprintf(buf, len, "%s", known_asserts);
        found = 1;
    }
    return found;
}

/* ---- the asserts the PTX holds, for when CUDA printed nothing ----------- */

/* The value the last instruction before statement `before` that writes
 * register `reg` (its first operand) gives it: its second operand. NULL
 * when there is none. */
static const ptx_operand *defined_from(const ptx_prog *p, int before, const char *reg)
{
    for (int i = before - 1; i >= 0; i--) {
        const ptx_insn *in = &p->stmt[i].insn;
        if (p->stmt[i].kind == PS_INSN && in->nops >= 2 && in->op[0].kind == PO_REG &&
            !strcmp(in->op[0].name, reg))
            return &in->op[1];
    }
    return NULL;
}

/* The text of .global byte array `name` ("= {110, 62, ...}"), into out. */
static int global_text(const ptx_prog *p, const char *name, char *out, size_t len)
{
    const char *init = NULL;
    for (int i = 0; i < p->n && !init; i++) {
        const ptx_stmt *s = &p->stmt[i];
        if (s->kind != PS_DIRECTIVE || s->dir.kind != PD_VAR || strcmp(s->dir.decl.space, "global"))
            continue;
        for (int v = 0; v < s->dir.decl.nvars && !init; v++)
            if (!strcmp(s->dir.decl.var[v].name, name))
                init = s->dir.decl.var[v].init;
    }
    if (!init || *init != '{')
        return 0;
    size_t n = 0;
    for (const char *q = init + 1; *q && *q != '}' && n + 1 < len;) {
        long v = strtol(q, (char **)&q, 10);
        if (v <= 0 || v > 255)
            break;
        out[n++] = v >= 32 && v != 127 ? (char)v : '?';
        q += strspn(q, ", \t");
    }
    out[n] = 0;
    return n > 0;
}

/* Parameter k of the __assertfail call at statement `call`, stored in its
 * call block, as the text it points to (k = 0 condition, 1 file), or its
 * number (k = 2 line). */
static int assert_param(const ptx_prog *p, int call, int k, char *out, size_t len)
{
    char param[16];
    snprintf(param, sizeof param, "param%d", k);
    int sc = p->stmt[call].scope, block = sc > 0 ? p->scopes[sc].open : 0;
    const ptx_operand *v = NULL;
    for (int i = block; i < call && !v; i++) {
        const ptx_insn *in = &p->stmt[i].insn;
        if (p->stmt[i].kind == PS_INSN && !strncmp(in->opcode, "st.param", 8) && in->nops == 2 &&
            in->op[0].kind == PO_ADDR && in->op[0].name && !strcmp(in->op[0].name, param) &&
            in->op[0].imm == 0)
            v = &in->op[1];
    }
    if (!v)
        return 0;
    if (k == 2) {
        snprintf(out, len, "%s", v->text);
        return v->kind == PO_IMM;
    }
    for (int hops = 0; hops < 4 && v && v->kind == PO_REG; hops++)
        v = defined_from(p, block, v->name);
    return v && v->kind == PO_SYM && global_text(p, v->name, out, len);
}

/* Is statement i a call of __assertfail? */
static int assertfail_call(const ptx_prog *p, int i)
{
    const ptx_insn *in = &p->stmt[i].insn;
    if (p->stmt[i].kind != PS_INSN || strncmp(in->opcode, "call", 4))
        return 0;
    int k = in->nops && in->op[0].kind == PO_LIST ? 1 : 0;
    return k < in->nops && in->op[k].name && !strcmp(in->op[k].name, "__assertfail");
}

int kout_describe_asserts(const char *ptx, char *buf, size_t len)
{
    int sites = 0;
    size_t at = 0;
    buf[0] = 0;
    ptx_prog *p = ptx ? ptx_read(ptx) : NULL;
    for (int i = 0; p && i < p->n; i++) {
        char cond[200], file[200], line[16];
        if (!assertfail_call(p, i))
            continue;
        /* A few sites are described, the rest only counted. */
        if (sites >= 8) {
            sites++;
            continue;
        }
        if (!assert_param(p, i, 0, cond, sizeof cond) ||
            !assert_param(p, i, 1, file, sizeof file) ||
            !assert_param(p, i, 2, line, sizeof line))
            continue;
        if (at < len)
            at += (size_t)snprintf(buf + at, len - at, "%sassert(%s) at %s:%s",
                                   sites ? "; " : "", cond, file, line);
        sites++;
    }
    ptx_free(p);
    return sites;
}

void kout_know_asserts(const char *ptx)
{
    char sites[600];
    int n = kout_describe_asserts(ptx, sites, sizeof sites);
    if (n == 1)
        snprintf(known_asserts, sizeof known_asserts, "%s (the kernel's only assert; CUDA "
                 "printed no line saying where it failed)", sites);
    else if (n > 1)
        snprintf(known_asserts, sizeof known_asserts, "one of the kernel's %d asserts (CUDA "
                 "printed no line saying which): %s", n, sites);
    else
        known_asserts[0] = 0;
}
