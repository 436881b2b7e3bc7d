/* compile.c: NVRTC. The student's file is compiled at run time so the grader
 * needs no rebuild per exercise, and errors point at the student's own file
 * and line. */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compile.h"
#include "fileio.h"

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

static char *program_log(nvrtcProgram prog)
{
    size_t n = 0;
    if (nvrtcGetProgramLogSize(prog, &n) != NVRTC_SUCCESS)
        return strdup("");
    char *log = malloc(n + 1);
    if (!log)
        return NULL;
    if (nvrtcGetProgramLog(prog, log) != NVRTC_SUCCESS)
        log[0] = 0;
    log[n] = 0;
    return log;
}

/* Every NVRTC call is checked; a failure says which call and what it means. */
#define NVRTC_TRY(call)                                                          \
    do {                                                                         \
        nvrtcResult r_ = (call);                                                 \
        if (r_ != NVRTC_SUCCESS) {                                               \
            snprintf(out->error, sizeof out->error,                             \
                     "%s failed (%s:%d): %s", #call, __FILE__, __LINE__,         \
                     nvrtcGetErrorString(r_));                                   \
            goto done;                                                           \
        }                                                                        \
    } while (0)

void compile_file(const char *path, const exercise *ex, const char *kernel,
                  const int *knobs, int cc, compiled *out)
{
    memset(out, 0, sizeof *out);
    nvrtcProgram prog = NULL;
    char *src = read_text_file(path, NULL);
    if (!src) {
        out->missing = 1;
        snprintf(out->error, sizeof out->error, "cannot read %s", path);
        return;
    }
    int native = nvrtc_target_for(cc, out->target, sizeof out->target);
    if (native < 0) {
        snprintf(out->error, sizeof out->error,
                 "this NVRTC cannot build code for compute capability %d.%d",
                 cc / 10, cc % 10);
        free(src);
        return;
    }

    char arch[32], inc[1100], defs[MAX_KNOBS][80];
    const char *opts[16];
    int n = 0;
    snprintf(arch, sizeof arch, "-arch=%s", out->target);
    snprintf(inc, sizeof inc, "-I%s", cuda_include_dir());
    opts[n++] = arch;
    opts[n++] = "-std=c++17";
    opts[n++] = "-lineinfo";
    opts[n++] = inc;
    if (native) {
        opts[n++] = "-Xptxas";
        opts[n++] = "-v";
    }
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++) {
        snprintf(defs[k], sizeof defs[k], "-D%s=%d", ex->knobs[k].name, knobs[k]);
        opts[n++] = defs[k];
    }

    NVRTC_TRY(nvrtcCreateProgram(&prog, src, path, 0, NULL, NULL));
    nvrtcResult r = nvrtcCompileProgram(prog, n, opts);
    out->log = program_log(prog);
    if (r == NVRTC_ERROR_COMPILATION) {
        snprintf(out->error, sizeof out->error, "%s does not compile", path);
        goto done;
    }
    NVRTC_TRY(r);
    NVRTC_TRY(nvrtcGetPTXSize(prog, &out->ptx_size));
    out->ptx = malloc(out->ptx_size + 1);
    if (!out->ptx)
        goto done;
    NVRTC_TRY(nvrtcGetPTX(prog, out->ptx));
    out->ptx[out->ptx_size] = 0;
    if (native) {
        NVRTC_TRY(nvrtcGetCUBINSize(prog, &out->cubin_size));
        out->cubin = malloc(out->cubin_size);
        if (!out->cubin)
            goto done;
        NVRTC_TRY(nvrtcGetCUBIN(prog, out->cubin));
    }

    char entry[300];
    snprintf(entry, sizeof entry, ".entry %s(", kernel);
    if (!strstr(out->ptx, entry)) {
        out->missing = 1;
        snprintf(out->error, sizeof out->error,
                 "%s compiles but has no kernel named '%s': declare it as "
                 "extern \"C\" __global__ void %s(...)",
                 path, kernel, kernel);
        goto done;
    }
    if (native)
        parse_ptxas_report(out->log, kernel, &out->res);
    out->ok = 1;
done:
    if (prog)
        nvrtcDestroyProgram(&prog);
    free(src);
}

void compiled_free(compiled *c)
{
    free(c->log);
    free(c->ptx);
    free(c->cubin);
    memset(c, 0, sizeof *c);
}
