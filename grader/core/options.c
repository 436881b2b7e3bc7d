/* options.c: the one command-line parser (options.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"

static const option_spec *find(const option_spec *o, const char *name)
{
    for (; o->name || o->heading; o++)
        if (o->name && !strcmp(o->name, name))
            return o;
    return NULL;
}

static int takes_value(const option_spec *o)
{
    return o->kind != OPTION_FLAG && o->kind != OPTION_CONST &&
           (o->kind != OPTION_CALL || o->arg);
}

/* A whole number, all of the text: 0, or -1. */
static int whole_number(const char *s, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return *s && !*end && errno == 0 ? 0 : -1;
}

/* The value of o into its place: 0, or -1 with why in err. */
static int store(const option_spec *o, const char *val, void *ctx, char *err, size_t len)
{
    long long n;
    char *end;
    switch (o->kind) {
    case OPTION_FLAG: *o->flag = 1; return 0;
    case OPTION_CONST: *o->string = o->constant; return 0;
    case OPTION_STRING: *o->string = val; return 0;
    case OPTION_CALL: return o->call(ctx, val, err, len);
    case OPTION_INT:
        if (whole_number(val, &n) != 0 || n < o->min || n > INT_MAX) {
            snprintf(err, len, "%s needs a whole number >= %d, got '%s'", o->name, o->min, val);
            return -1;
        }
        *o->integer = (int)n;
        return 0;
    case OPTION_ULL:
        errno = 0;
        unsigned long long u = strtoull(val, &end, 10);
        if (!*val || *end || errno || strchr(val, '-')) {
            snprintf(err, len, "%s needs a whole number >= 0, got '%s'", o->name, val);
            return -1;
        }
        *o->ull = u;
        return 0;
    case OPTION_SECONDS: {
        double d = strtod(val, &end);
        if (!*val || *end || !(d > 0) || d > 1e9) {
            snprintf(err, len, "%s needs seconds > 0, got '%s'", o->name, val);
            return -1;
        }
        *o->seconds = d;
        return 0;
    }
    }
    return -1;
}

int options_parse(const option_command *c, int argc, char **argv, char *err, size_t len)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return OPTIONS_HELP;
        if (a[0] != '-') {
            if (!c->word) {
                snprintf(err, len, "unexpected '%s' (options start with --)", a);
                return OPTIONS_BAD;
            }
            if (c->word(c->ctx, a, err, len) != 0)
                return OPTIONS_BAD;
            continue;
        }
        const option_spec *o = find(c->opts, a);
        if (!o) {
            snprintf(err, len, "unknown option %s", a);
            return OPTIONS_BAD;
        }
        const char *val = NULL;
        if (takes_value(o)) {
            if (i + 1 >= argc) {
                snprintf(err, len, "%s needs a value", a);
                return OPTIONS_BAD;
            }
            val = argv[++i];
        }
        if (store(o, val, c->ctx, err, len) != 0)
            return OPTIONS_BAD;
        if (o->given)
            *o->given = 1;
    }
    return OPTIONS_OK;
}

/* One option's help: its name and value in the first column, the help's
 * lines in the second. */
static void help_row(const option_spec *o, int width, FILE *f)
{
    char left[64];
    snprintf(left, sizeof left, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    int pad = width - 2 - (int)strlen(left);
    if (pad >= 1)
        fprintf(f, "  %s%*s", left, pad, "");
    else
        fprintf(f, "  %s\n%*s", left, width, "");
    for (const char *h = o->help; *h; h++) {
        fputc(*h, f);
        if (*h == '\n')
            fprintf(f, "%*s", width, "");
    }
    fputc('\n', f);
}

void options_help(const option_command *c, FILE *f)
{
    int width = c->width ? c->width : 22;
    fputs(c->synopsis, f);
    fputs("options:\n", f);
    for (const option_spec *o = c->opts; o->name || o->heading; o++) {
        if (o->heading)
            fprintf(f, "%s\n", o->heading);
        else if (o->help)
            help_row(o, width, f);
    }
    if (c->epilogue)
        fputs(c->epilogue, f);
}
