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

/* The sink is emptied once it holds more than this before a launch. */
#define SINK_BOUND (1 << 20)

static int first_fd = -1, sink_fd = -1;
static long first_lines;                       /* all the first launch printed */
static long sink_lines;                        /* counted in the sink, trims included */
static off_t sink_counted;                     /* the sink's bytes counted so far */
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

/* The newlines of fd's bytes [from, its end); *end gets its size. */
static long count_lines(int fd, off_t from, off_t *end)
{
    static char buf[1 << 16];
    struct stat st;
    long lines = 0;
    *end = from;
    if (fd < 0 || fstat(fd, &st) != 0)
        return 0;
    while (from < st.st_size) {
        ssize_t got = pread(fd, buf, sizeof buf, from);
        if (got <= 0)
            break;
        for (ssize_t i = 0; i < got; i++)
            lines += buf[i] == '\n';
        from += got;
    }
    *end = from;
    return lines;
}

/* Count what reached the sink since the last count. */
static void count_sink(void)
{
    fflush(NULL);
    sink_lines += count_lines(sink_fd, sink_counted, &sink_counted);
}

long kout_lines(void)
{
    count_sink();
    return first_lines + sink_lines;
}

void kout_first_end(result *r, int keep_catching)
{
    if (first_fd < 0 || sink_fd < 0)
        return;
    fflush(NULL);
    struct stat st;
    size_t n;
    off_t end;
    char *text = read_all(first_fd, sizeof r->printed * 4, &n);
    if (text) {
        kout_keep(text, n, r);
        if (fstat(first_fd, &st) == 0)
            r->printed_bytes = (long)st.st_size;
        free(text);
    }
    /* Every line, not only those of the part read for the report. */
    first_lines = count_lines(first_fd, 0, &end);
    if (first_lines > r->printed_lines)
        r->printed_lines = first_lines;
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
    count_sink();
    if (fstat(sink_fd, &st) == 0 && st.st_size > SINK_BOUND) {
        if (ftruncate(sink_fd, 0) == 0) {
            lseek(sink_fd, 0, SEEK_SET);
            sink_counted = 0;
        }
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


/* The statement (one line of NVRTC's PTX) before `at` whose first operand
 * is `reg`: its second operand, copied to `src`. 0 when there is none. */
static int defined_from(const char *ptx, const char *at, const char *reg, char *src,
                        size_t len)
{
    size_t rn = strlen(reg);
    for (const char *p = at; p > ptx; p--) {
        if (p[-1] != '\n')
            continue;
        const char *q = p + strspn(p, " \t");
        q += strcspn(q, " \t\n");                   /* the opcode */
        q += strspn(q, " \t");
        if (strncmp(q, reg, rn) != 0 || q[rn] != ',')
            continue;
        q += rn + 1;
        q += strspn(q, " \t");
        size_t n = strcspn(q, ";\n");
        snprintf(src, len, "%.*s", (int)n, q);
        return 1;
    }
    return 0;
}

/* The text of .global byte array `name` ("= {110, 62, ...}"), into out. */
static int global_text(const char *ptx, const char *name, char *out, size_t len)
{
    char key[80];
    snprintf(key, sizeof key, " %s[", name);
    const char *d = strstr(ptx, key);
    const char *b = d ? strchr(d, '{') : NULL;
    if (!b || memchr(d, '\n', (size_t)(b - d)))
        return 0;
    size_t n = 0;
    for (const char *p = b + 1; *p && *p != '}' && n + 1 < len;) {
        long v = strtol(p, (char **)&p, 10);
        if (v <= 0 || v > 255)
            break;
        out[n++] = v >= 32 && v != 127 ? (char)v : '?';
        p += strspn(p, ", \t");
    }
    out[n] = 0;
    return n > 0;
}

/* Parameter k of the __assertfail call whose block ends at `call`, as the
 * text it points to (k = 0 condition, 1 file), or its number (k = 2 line). */
static int assert_param(const char *ptx, const char *call, int k, char *out, size_t len)
{
    char key[40], reg[80], src[80];
    snprintf(key, sizeof key, "[param%d+0], ", k);
    const char *block = call;
    while (block > ptx && *block != '{')
        block--;
    const char *st = strstr(block, key);
    if (!st || st > call)
        return 0;
    st += strlen(key);
    snprintf(reg, sizeof reg, "%.*s", (int)strcspn(st, ";\n"), st);
    if (k == 2) {
        snprintf(out, len, "%s", reg);
        return reg[0] >= '0' && reg[0] <= '9';
    }
    for (int hops = 0; hops < 4 && reg[0] == '%'; hops++) {
        if (!defined_from(ptx, block, reg, src, sizeof src))
            return 0;
        snprintf(reg, sizeof reg, "%s", src);
    }
    return reg[0] != '%' && global_text(ptx, reg, out, len);
}

int kout_describe_asserts(const char *ptx, char *buf, size_t len)
{
    int sites = 0;
    size_t at = 0;
    buf[0] = 0;
    for (const char *p = ptx; p && (p = strstr(p, "__assertfail,")) != NULL; p++) {
        char cond[200], file[200], line[16];
        /* Each site is looked up backwards: a few are described, the rest
         * only counted, so a file of a thousand asserts costs no time. */
        if (sites >= 8) {
            sites++;
            continue;
        }
        if (!assert_param(ptx, p, 0, cond, sizeof cond) ||
            !assert_param(ptx, p, 1, file, sizeof file) ||
            !assert_param(ptx, p, 2, line, sizeof line))
            continue;
        if (at < len)
            at += (size_t)snprintf(buf + at, len - at, "%sassert(%s) at %s:%s",
                                   sites ? "; " : "", cond, file, line);
        sites++;
    }
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
