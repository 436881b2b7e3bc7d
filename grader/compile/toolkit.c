/* toolkit.c: what the CUDA toolkit gives every compile (toolkit.h): its
 * include directories, the architectures NVRTC builds for, and the numbers
 * in ptxas's report. */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "toolkit.h"

#ifndef CUDA_INCLUDE_DEFAULT
#define CUDA_INCLUDE_DEFAULT "/usr/local/cuda/include"
#endif

const char *cuda_include_dir(void)
{
    static char dir[1024];
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(dir, sizeof dir, "%s/include", home);
        return dir;
    }
    return CUDA_INCLUDE_DEFAULT;
}

int compile_include_dirs(const char **dirs, int max)
{
    static char cccl[1100];
    struct stat st;
    int n = 0;
    if (n < max)
        dirs[n++] = cuda_include_dir();
    snprintf(cccl, sizeof cccl, "%s/cccl", cuda_include_dir());
    if (n < max && stat(cccl, &st) == 0 && S_ISDIR(st.st_mode))
        dirs[n++] = cccl;
    return n;
}

int nvrtc_target_for(int cc, char *target, size_t len)
{
    int n = 0, archs[64];
    if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0 || n > 64 ||
        nvrtcGetSupportedArchs(archs) != NVRTC_SUCCESS)
        return -1;
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (archs[i] == cc) {
            snprintf(target, len, "sm_%d", cc);
            return 1;
        }
        /* Same major version and not newer: the driver runs it as is. */
        if (archs[i] < cc && archs[i] > best)
            best = archs[i];
    }
    if (best < 0)
        return -1;
    /* A GPU newer than this NVRTC: PTX, which the driver compiles at load. */
    snprintf(target, len, "compute_%d", best);
    return 0;
}

static int field_after(const char *line, const char *end, const char *word, int *val)
{
    /* Find "<number> <word>" inside [line, end). */
    size_t wl = strlen(word);
    for (const char *p = line; p + wl <= end; p++) {
        if (strncmp(p, word, wl) != 0)
            continue;
        const char *q = p;
        while (q > line && q[-1] == ' ')
            q--;
        const char *s = q;
        while (s > line && s[-1] >= '0' && s[-1] <= '9')
            s--;
        if (s == q)
            continue;
        *val = atoi(s);
        return 1;
    }
    return 0;
}

int parse_ptxas_report(const char *log, const char *kernel, resources *res)
{
    char key[300];
    snprintf(key, sizeof key, "Compiling entry function '%s'", kernel);
    const char *start = log ? strstr(log, key) : NULL;
    if (!start)
        return 0;
    const char *stop = strstr(start + 1, "Compiling entry function");
    if (!stop)
        stop = start + strlen(start);
    /* The kernel's own "Function properties" block comes first; helper
     * functions' blocks follow and must not be counted. */
    for (const char *line = start; line < stop;) {
        const char *eol = memchr(line, '\n', (size_t)(stop - line));
        if (!eol)
            eol = stop;
        int v;
        if (strstr(line, "stack frame") && strstr(line, "stack frame") < eol) {
            if (field_after(line, eol, "bytes stack frame", &v))
                res->stack_bytes = v;
            if (field_after(line, eol, "bytes spill stores", &v))
                res->spill_stores = v;
            if (field_after(line, eol, "bytes spill loads", &v))
                res->spill_loads = v;
        }
        const char *used = strstr(line, "Used ");
        if (used && used < eol) {
            if (field_after(line, eol, "registers", &v))
                res->regs = v;
            if (field_after(line, eol, "bytes smem", &v))
                res->smem_static = v;
            res->known = 1;
            break;  /* the entry's own numbers end here */
        }
        line = eol + 1;
    }
    return res->known;
}
