/* resource_limits.c: which resource, how much, and the limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_rules.h"
#include "resource_limits.h"

void format_bytes(long bytes, char *out, size_t len)
{
    if (bytes < 1024)
        snprintf(out, len, "%ld bytes", bytes);
    else if (bytes < 1024 * 1024)
        snprintf(out, len, bytes % 1024 ? "%.1f KB" : "%.0f KB", bytes / 1024.0);
    else
        snprintf(out, len, "%.1f MB", bytes / (1024.0 * 1024.0));
}

/* "Formal parameter space overflowed (36008 bytes required, max 32764 bytes
 * allowed)": NVRTC's own words, when the parameters are too large. */
static int params_overflow(const char *log, long *need, long *max)
{
    const char *p = log ? strstr(log, "parameter space overflowed (") : NULL;
    return p && sscanf(strchr(p, '(') + 1, "%ld bytes required, max %ld", need, max) == 2;
}

/* "Your kernel <verb> <amount> <what>; <who> may have at most <limit> <what2>
 * on any GPU. <advice>" */
static void say_over(char *msg, size_t len, const char *verb, long have, const char *what,
                     const char *who, long limit, const char *what2, const char *advice)
{
    char h[32], l[32];
    format_bytes(have, h, sizeof h);
    format_bytes(limit, l, sizeof l);
    snprintf(msg, len, "Your kernel %s %s (%ld bytes) %s; %s may have at most %s (%ld bytes) "
             "%s on any GPU. %s", verb, h, have, what, who, l, limit, what2, advice);
}

int resource_overflow(const compiled *c, char *msg, size_t len)
{
    long shared = 0, constant = 0, need, max;
    ptx_declared_bytes(c->ptx, &shared, &constant);
    if (c->res.smem_static > shared)
        shared = c->res.smem_static;
    if (params_overflow(c->log, &need, &max)) {
        say_over(msg, len, "takes", need, "of parameters", "a kernel", max, "of parameters",
                 "Pass large data through a pointer to device memory instead of by value.");
        return 1;
    }
    if (shared > LIMIT_STATIC_SMEM) {
        say_over(msg, len, "declares", shared, "of static shared memory (__shared__ arrays)",
                 "a block", LIMIT_STATIC_SMEM, "of static shared memory",
                 "Make the arrays smaller: a smaller tile, or fewer elements per block.");
        return 1;
    }
    if (constant > LIMIT_CONSTANT) {
        say_over(msg, len, "declares", constant, "of __constant__ data", "a module",
                 LIMIT_CONSTANT, "of __constant__ data",
                 "Keep only small read-only tables in __constant__ memory; larger data "
                 "belongs in device memory, passed through a pointer.");
        return 1;
    }
    if (c->res.known && c->res.stack_bytes > LIMIT_LOCAL) {
        say_over(msg, len, "needs", c->res.stack_bytes,
                 "of local memory per thread (its stack frame: local arrays and spilled "
                 "registers)", "a thread", LIMIT_LOCAL, "of local memory",
                 "A large array indexed at run time lives in local memory; make it smaller, "
                 "or share it in shared memory across the block.");
        return 1;
    }
    return 0;
}
