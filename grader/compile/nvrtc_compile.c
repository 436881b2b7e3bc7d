/* nvrtc_compile.c: NVRTC itself, as the compile child runs it (compile.c
 * decides what to compile and what the result means; toolkit.c knows the
 * include directories, the targets and the ptxas report): the options, the
 * log, PTX and cubin; and the wire that carries the result back to the parent. */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "compile_child.h"
#include "compile_sandbox.h"
#include "nvrtc_compile.h"
#include "ptx.h"
#include "shim_headers.h"
#include "toolkit.h"

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

/* PTX, also after ptxas failed (the front end's output is still there). */
static void keep_ptx(nvrtcProgram prog, compiled *out)
{
    size_t n = 0;
    if (nvrtcGetPTXSize(prog, &n) != NVRTC_SUCCESS || n == 0 || !(out->ptx = malloc(n + 1)))
        return;
    if (nvrtcGetPTX(prog, out->ptx) != NVRTC_SUCCESS) {
        free(out->ptx);
        out->ptx = NULL;
        return;
    }
    out->ptx[n] = 0;
    out->ptx_size = n;
}

/* Every NVRTC call is checked: 1 when `r` is success; else 0, with the
 * call, the place and NVRTC's reason in out->error and OUT_INTERNAL (the
 * student's file was not at fault). Called through NVRTC_CHECK, which only
 * adds the call's text and place. */
static int nvrtc_check(nvrtcResult r, const char *call, const char *file, int line,
                       compiled *out)
{
    if (r == NVRTC_SUCCESS)
        return 1;
    snprintf(out->error, sizeof out->error, "%s failed (%s:%d): %s", call, file, line,
             nvrtcGetErrorString(r));
    out->outcome = OUT_INTERNAL;
    return 0;
}
#define NVRTC_CHECK(call, out) nvrtc_check((call), #call, __FILE__, __LINE__, (out))

/* NVRTC's options for one job: the target, C++17, line info, the toolkit's
 * include folders, ptxas's report for a native target, and each knob as
 * -DNAME=VALUE. The strings live in `o`. */
typedef struct nvrtc_options {
    const char *opt[16 + MAX_INCLUDE_DIRS + MAX_KNOBS];
    int n;
    char arch[32], inc[MAX_INCLUDE_DIRS][1100], defs[MAX_KNOBS][80];
} nvrtc_options;

static void nvrtc_options_for(const compile_job *job, int native, const char *target,
                              nvrtc_options *o)
{
    const char *dirs[MAX_INCLUDE_DIRS];
    int ndirs = compile_include_dirs(dirs, MAX_INCLUDE_DIRS);
    o->n = 0;
    snprintf(o->arch, sizeof o->arch, "-arch=%s", target);
    o->opt[o->n++] = o->arch;
    o->opt[o->n++] = "-std=c++17";
    o->opt[o->n++] = "-lineinfo";
    /* No --no-source-include: the toolkit's own headers need their folder
     * searched (cooperative_groups/details/driver_abi.h includes "info.h").
     * A quoted include of the student's is refused by the scan, and a file
     * next to the student's is never opened (compile_sandbox.c). */
    for (int d = 0; d < ndirs; d++) {
        snprintf(o->inc[d], sizeof o->inc[d], "-I%s", dirs[d]);
        o->opt[o->n++] = o->inc[d];
    }
    if (native) {
        o->opt[o->n++] = "-Xptxas";
        o->opt[o->n++] = "-v";
    }
    for (int k = 0; k < MAX_KNOBS && job->ex->knobs[k].name; k++) {
        snprintf(o->defs[k], sizeof o->defs[k], "-D%s=%d", job->ex->knobs[k].name,
                 job->knobs[k]);
        o->opt[o->n++] = o->defs[k];
    }
}

/* After a successful compile: the PTX, the cubin for a native target, and
 * the entry point the job names. 1 when all are there; else 0 with the
 * outcome and error set. */
static int nvrtc_outputs(nvrtcProgram prog, const compile_job *job, const char *name,
                         int native, compiled *out)
{
    keep_ptx(prog, out);
    if (!out->ptx) {
        snprintf(out->error, sizeof out->error, "NVRTC returned no PTX for %s", name);
        out->outcome = OUT_INTERNAL;
        return 0;
    }
    if (native) {
        if (!NVRTC_CHECK(nvrtcGetCUBINSize(prog, &out->cubin_size), out))
            return 0;
        out->cubin = malloc(out->cubin_size);
        if (!out->cubin) {
            snprintf(out->error, sizeof out->error, "no memory for the %zu bytes of machine "
                     "code NVRTC made of %s", out->cubin_size, name);
            out->outcome = OUT_INTERNAL;
            return 0;
        }
        if (!NVRTC_CHECK(nvrtcGetCUBIN(prog, out->cubin), out))
            return 0;
    }
    /* The kernel's own .entry, read as PTX: a comment an inline-assembly
     * string leaves in the PTX, naming it, is no kernel. */
    ptx_prog *p = ptx_read(out->ptx);
    int has = p && ptx_find_entry(p, job->kernel) >= 0;
    ptx_free(p);
    if (!p) {
        snprintf(out->error, sizeof out->error, "no memory to read the PTX NVRTC made of %s",
                 name);
        out->outcome = OUT_INTERNAL;
        return 0;
    }
    if (!has) {
        out->missing = 1;
        out->outcome = OUT_MISSING;
        snprintf(out->error, sizeof out->error,
                 "%s compiles but has no kernel named '%s': declare it as "
                 "extern \"C\" __global__ void %s(...)",
                 name, job->kernel, job->kernel);
        return 0;
    }
    return 1;
}

/* NVRTC itself, in the compile child: `src` as job->name, for out->target.
 * Always fills out: ok, or an outcome with its sentence in out->error. */
static void nvrtc_compile(const char *src, const compile_job *job, int native, compiled *out)
{
    nvrtcProgram prog = NULL;
    const char *name = job->name ? job->name : job->path;
    nvrtc_options o;
    nvrtc_options_for(job, native, out->target, &o);
    out->outcome = OUT_COMPILE_ERROR;
    /* <cstdio> and <cassert> for printf and assert, from memory (shim_headers.h). */
    const char *const *shim_src, *const *shim_names;
    int nshim = shim_headers(&shim_src, &shim_names);
    if (!NVRTC_CHECK(nvrtcCreateProgram(&prog, src, name, nshim, shim_src, shim_names), out))
        return;
    nvrtcResult r = nvrtcCompileProgram(prog, o.n, o.opt);
    out->log = program_log(prog);
    if (r == NVRTC_ERROR_COMPILATION) {
        keep_ptx(prog, out);
        snprintf(out->error, sizeof out->error, "%s does not compile. The compiler's messages "
                 "below name the file and line (file(line): error: ...); fix the first one "
                 "first, later ones often follow from it.", name);
        if (native)
            parse_ptxas_report(out->log, job->kernel, &out->res);
    } else if (NVRTC_CHECK(r, out) && nvrtc_outputs(prog, job, name, native, out)) {
        if (native)
            parse_ptxas_report(out->log, job->kernel, &out->res);
        out->ok = 1;
        out->outcome = OUT_NOT_RUN;
    }
    nvrtcDestroyProgram(&prog);
}

void nvrtc_warm_up(void)
{
    static int warm;
    if (warm)
        return;
    warm = 1;
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, "extern \"C\" __global__ void warm_up() {}", "warm_up.cu",
                           0, NULL, NULL) != NVRTC_SUCCESS)
        return;
    const char *opts[] = {"-arch=compute_75"};
    nvrtcCompileProgram(prog, 1, opts);   /* nothing to check: only the start-up counts */
    nvrtcDestroyProgram(&prog);
}

/* What the compile child sends back, followed by the log, PTX and cubin.
 * Parent and child are the same program, so the struct travels as bytes. */
typedef struct wire {
    compiled c;             /* its pointers mean nothing in the parent */
    size_t log_len;
    char refused[512];      /* the first file the sandbox kept NVRTC from opening */
} wire;

void nvrtc_child_body(void *arg, int fd)
{
    child_task *t = arg;
    const char *dirs[MAX_INCLUDE_DIRS];
    int ndirs = compile_include_dirs(dirs, MAX_INCLUDE_DIRS);
    wire w;
    memset(&w, 0, sizeof w);
    sandbox_enter(dirs, ndirs);
    nvrtc_compile(t->src, t->job, t->native, &t->c);
    w.c = t->c;
    w.log_len = t->c.log ? strlen(t->c.log) : 0;
    if (sandbox_refused())
        snprintf(w.refused, sizeof w.refused, "%s", sandbox_refused());
    if (write_all(fd, &w, sizeof w) == 0 && write_all(fd, t->c.log, w.log_len) == 0 &&
        write_all(fd, t->c.ptx, t->c.ptx ? t->c.ptx_size : 0) == 0)
        write_all(fd, t->c.cubin, t->c.cubin ? t->c.cubin_size : 0);
    /* Sent: nothing more is opened for NVRTC, and the child exits next. An
     * instrumented build writes its counts on the way out, which the sandbox
     * would refuse (compile_sandbox.h). */
    sandbox_leave();
}

/* n bytes and a NUL (the log and PTX are text; the cubin does not mind). */
static char *copy_bytes(const char *p, size_t n)
{
    char *q = malloc(n + 1);
    if (!q)
        return NULL;
    memcpy(q, p, n);
    q[n] = 0;
    return q;
}

int nvrtc_unpack(const char *buf, size_t len, compiled *out, char *refused, size_t rlen)
{
    wire w;
    if (len < sizeof w)
        return -1;
    memcpy(&w, buf, sizeof w);
    size_t ptx = w.c.ptx ? w.c.ptx_size : 0, cubin = w.c.cubin ? w.c.cubin_size : 0;
    if (len != sizeof w + w.log_len + ptx + cubin)
        return -1;
    const char *p = buf + sizeof w;
    *out = w.c;
    out->log = w.c.log ? copy_bytes(p, w.log_len) : NULL;
    out->ptx = ptx ? copy_bytes(p + w.log_len, ptx) : NULL;
    out->cubin = cubin ? copy_bytes(p + w.log_len + ptx, cubin) : NULL;
    snprintf(refused, rlen, "%s", w.refused);
    return 0;
}

