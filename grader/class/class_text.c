/* class_text.c: text as each output format needs it (CSV, XML, HTML), and
 * the whole-or-nothing file writes every class output goes through. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "class.h"

void csv_field(FILE *f, const char *s)
{
    /* RFC 4180: quote when needed, double the quotes. A leading = + - @ would
     * make a spreadsheet run the cell as a formula: quote it behind a '. */
    int formula = s[0] && strchr("=+-@", s[0]) &&
                  !(s[0] == '-' && (isdigit((unsigned char)s[1]) || s[1] == '.'));
    int quote = formula || strpbrk(s, ",\"\r\n") != NULL ||
                (s[0] && (s[0] == ' ' || s[strlen(s) - 1] == ' '));
    if (!quote) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    if (formula)
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Length of the UTF-8 sequence at p when it is a character XML 1.0 allows
 * (tab, newline, CR, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF), else 0. */
static int xml_char(const unsigned char *p)
{
    if (p[0] < 0x80)
        return p[0] >= 0x20 || p[0] == '\t' || p[0] == '\n' || p[0] == '\r';
    int n = p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : p[0] >= 0xe0 && p[0] < 0xf0 ? 3
          : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((n == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
                    (p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe))) ||
        (n == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))))
        return 0;
    return n;
}

void xml_text(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (p && *p) {
        int n = xml_char(p);
        switch (n ? *p : 0) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\t': fputs("&#9;", f); break;
        case '\r': fputs("&#13;", f); break;
        case 0:
            /* Not allowed in XML 1.0, not even as a reference (ESC, U+FFFF,
             * a byte that is not UTF-8): shown as '?'. */
            fputc('?', f);
            n = 1;             /* one '?' for a whole character, if it is one */
            while (p[0] >= 0xc0 && n < 4 && (p[n] & 0xc0) == 0x80)
                n++;
            break;
        default:
            fwrite(p, 1, (size_t)n, f);
        }
        p += n;
    }
}

void md_code(FILE *f, const char *s, int in_table)
{
    /* CommonMark: a span opened by N backquotes ends at the next run of
     * exactly N, so N is one more than the longest run inside; a space pads
     * a name that starts or ends with one (and is stripped by readers). */
    int longest = 0, run = 0;
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    size_t n = strlen(s);
    int pad = n && (s[0] == '`' || s[n - 1] == '`' || s[0] == ' ');
    for (int i = 0; i <= longest; i++)
        fputc('`', f);
    if (pad)
        fputc(' ', f);
    for (const char *p = s; *p; p++) {
        if (in_table && *p == '|')
            fputc('\\', f);  /* GFM: a table cell's pipe, even in code */
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
    }
    if (pad)
        fputc(' ', f);
    for (int i = 0; i <= longest; i++)
        fputc('`', f);
}

void html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Length of the valid UTF-8 sequence at p, or 0. */
static int utf8_len(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    int n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
    if (p[0] >= 0xf5)
        n = 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    /* No overlong forms, no surrogates, nothing past U+10FFFF. */
    if (n == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0)))
        return 0;
    if (n == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90)))
        return 0;
    return n;
}

void utf8_scrub(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int n = utf8_len(p);
        /* Control characters too (C0 but tab and newline, DEL, C1): a compile
         * log quotes the student's bytes, and an instructor reads it in a
         * terminal, where ESC [ ... would be obeyed. */
        int control = (n == 1 && ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)) ||
                      (n == 2 && p[0] == 0xc2 && p[1] < 0xa0);
        if (n == 0 || control) {
            for (int i = 0; i < (n ? n : 1); i++)
                *p++ = '?';
            continue;
        }
        p += n;
    }
}

void replace_all(char *s, size_t cap, const char *from, const char *to)
{
    size_t fl = strlen(from), tl = strlen(to);
    if (!fl)
        return;
    char *p = s;
    while ((p = strstr(p, from)) != NULL) {
        size_t rest = strlen(p + fl);
        size_t at = (size_t)(p - s);
        if (at + tl + rest + 1 > cap) {
            /* No room to grow: drop the tail rather than keep the old text. */
            rest = cap > at + tl + 1 ? cap - at - tl - 1 : 0;
            if (at + tl + 1 > cap)
                tl = cap - at - 1;
        }
        memmove(p + tl, p + fl, rest);
        memcpy(p, to, tl);
        p[tl + rest] = 0;
        p += tl;
    }
}

void reason_of(const result *r, char *out, size_t len)
{
    const char *m = r->message;
    /* The first clause: up to ": ", ". " or "; " outside parentheses. */
    size_t cut = 0;
    for (int depth = 0; m[cut]; cut++) {
        depth += m[cut] == '(' ? 1 : m[cut] == ')' && depth > 0 ? -1 : 0;
        if (!depth && strchr(":.;", m[cut]) && m[cut + 1] == ' ')
            break;
    }
    /* at most 110 characters of it as written here, numbers already N, so
     * the cut falls in the same place whatever the numbers were (a time,
     * the simulator's rate) */
    size_t o = (size_t)snprintf(out, len, "%s: ", outcome_word(r->outcome));
    const size_t most = o + 110;
    for (size_t i = 0; i < cut && o + 2 < len && o < most; i++) {
        /* A number, not part of a name like lesson3 or sm_90. */
        int in_name = i > 0 && (isalnum((unsigned char)m[i - 1]) || m[i - 1] == '_');
        if (isdigit((unsigned char)m[i]) && !in_name) {
            out[o++] = 'N';
            while (i + 1 < cut && (isdigit((unsigned char)m[i + 1]) ||
                   (m[i + 1] == '.' && i + 2 < cut && isdigit((unsigned char)m[i + 2]))))
                i++;
        } else
            out[o++] = m[i];
    }
    while (o > 0 && (out[o - 1] == '.' || out[o - 1] == ' '))
        o--;
    out[o < len ? o : len - 1] = 0;
}

int class_counts_as_failure(enum outcome o)
{
    return !outcome_is_pass(o) && !outcome_holds_without_gpu(o) && o != OUT_NO_GPU &&
           o != OUT_UNSUPPORTED;
}

/* The temporary file of each open output: a unique name beside it, so that
 * two writers (GPU workers, Slurm tasks) never share one. */
static struct { FILE *f; char tmp[4200]; } pending[16];

FILE *out_open(const char *path)
{
    for (size_t i = 0; i < sizeof pending / sizeof *pending; i++) {
        if (pending[i].f)
            continue;
        snprintf(pending[i].tmp, sizeof pending[i].tmp, "%s.tmp.XXXXXX", path);
        int fd = mkstemp(pending[i].tmp);
        if (fd < 0)
            return NULL;
        fchmod(fd, 0644);
        pending[i].f = fdopen(fd, "w");
        if (!pending[i].f) {
            close(fd);
            unlink(pending[i].tmp);
        }
        return pending[i].f;
    }
    errno = EMFILE;
    return NULL;
}

int out_commit(FILE *f, const char *path)
{
    for (size_t i = 0; i < sizeof pending / sizeof *pending; i++) {
        if (pending[i].f != f)
            continue;
        pending[i].f = NULL;
        int bad = ferror(f) || fflush(f) != 0;
        if (fclose(f) != 0 || bad) {
            unlink(pending[i].tmp);
            return -1;
        }
        if (rename(pending[i].tmp, path) != 0) {
            int e = errno;
            unlink(pending[i].tmp);
            errno = e;
            return -1;
        }
        return 0;
    }
    errno = EINVAL;
    return -1;
}

int mkdir_p(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0755) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}
