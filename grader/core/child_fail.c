/* child_fail.c: the child's one failure path, and where it says what it is
 * doing (child_fail.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "child_fail.h"

result *g_result;

void set_stage(const char *fmt, ...)
{
    if (!g_result)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_result->stage, sizeof g_result->stage, fmt, ap);
    va_end(ap);
}

static void vsay(result *r, enum outcome o, const char *fmt, va_list ap)
{
    r->outcome = o;
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    /* A sentence gets its capital; a path it starts with stays as it is. */
    size_t word = strcspn(r->message, " ");
    if (r->message[0] >= 'a' && r->message[0] <= 'z' && !memchr(r->message, '/', word))
        r->message[0] = (char)(r->message[0] - 'a' + 'A');
}

void result_say(result *r, enum outcome o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(r, o, fmt, ap);
    va_end(ap);
}

void child_fail(enum outcome o, const char *detail, const char *fmt, ...)
{
    static result alone;   /* no child: say it on stderr */
    result *r = g_result ? g_result : &alone;
    va_list ap;
    va_start(ap, fmt);
    vsay(r, o, fmt, ap);
    va_end(ap);
    r->stopped = o;    /* a fact for verdict_decide (verdict.h) */
    if (detail) {
        snprintf(r->detail, sizeof r->detail, "%s", detail);
        size_t n = strlen(r->detail);
        if (n == sizeof r->detail - 1)
            snprintf(r->detail + n - 40, 40, "\n  ... (more in the log)\n");
    }
    if (!g_result)
        fprintf(stderr, "grader: %s\n%s%s", r->message, detail ? detail : "",
                detail ? "\n" : "");
    fflush(NULL);
    _exit(CHILD_FAILED);
}
