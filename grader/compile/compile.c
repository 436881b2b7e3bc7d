/* compile.c: a kernel file to PTX and machine code, and what the result
 * means for the student. The file is compiled at run time so the grader
 * needs no rebuild per exercise, and errors point at the student's own file
 * and line.
 *
 * compile_files is the one path: read the file and check its includes (in
 * this process), compile it in a child (compile_child.c, nvrtc_compile.c)
 * that is confined to the toolkit's headers and sends back log, PTX, cubin
 * and resources through a pipe, then check the resources against the
 * hardware's limits and the PTX for writable device globals. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "compile.h"
#include "compile_child.h"
#include "fileio.h"
#include "nvrtc_compile.h"
#include "ptx_rules.h"
#include "resource_limits.h"
#include "source_rules.h"

/* Far more than any kernel file of the course (a few KB); a bigger file is
 * refused before the compiler spends time on it. */
#define MAX_SOURCE_BYTES (4L << 20)
#define MAX_DIRS MAX_INCLUDE_DIRS

static double time_limit_s;
static size_t memory_limit = (size_t)2 << 30;

void compile_set_limits(double seconds, size_t bytes)
{
    time_limit_s = seconds;
    memory_limit = bytes;
}

double compile_time_limit(void)
{
    if (time_limit_s > 0)
        return time_limit_s;
    const char *e = getenv("GRADER_COMPILE_TIMEOUT");
    return e && atof(e) > 0 ? atof(e) : 30;
}

/* The child is gone: what it sent, or why it sent nothing. */
static void collect(const compile_child *ch, const char *name, compiled *out)
{
    char refused[512] = "";
    double limit = compile_time_limit();
    if (ch->timed_out || (WIFSIGNALED(ch->status) && WTERMSIG(ch->status) == SIGXCPU)) {
        out->outcome = OUT_COMPILE_ERROR;
        snprintf(out->error, sizeof out->error, "%s did not compile within %g s, the limit "
                 "for one compile, so the compiler was stopped. A long loop unrolled in full "
                 "(#pragma unroll on a loop of thousands of iterations) or a very large file "
                 "can take the compiler that long: unroll by a small factor (#pragma unroll "
                 "4) or make the file smaller.", name, limit);
        return;
    }
    if (ch->too_much || !WIFEXITED(ch->status) || WEXITSTATUS(ch->status) != 0 ||
        nvrtc_unpack(ch->out, ch->len, out, refused, sizeof refused) != 0) {
        char why[96] = "";
        if (WIFSIGNALED(ch->status))
            snprintf(why, sizeof why, " (signal %d, %s)", WTERMSIG(ch->status),
                     strsignal(WTERMSIG(ch->status)));
        out->outcome = OUT_COMPILE_ERROR;
        snprintf(out->error, sizeof out->error, "The compiler stopped without a result while "
                 "compiling %s%s. It may have needed more than the %.0f GB of memory one "
                 "compile may take: a loop unrolled thousands of times, or a very large "
                 "array or file, can make it do that.", name, why,
                 (double)memory_limit / (1 << 30));
        return;
    }
    if (!refused[0])
        return;
    /* Nothing NVRTC said is kept: it may be about the file it was denied. */
    char *keep[] = {out->log, out->ptx, out->cubin};
    for (int k = 0; k < 3; k++)
        free(keep[k]);
    out->log = out->ptx = out->cubin = NULL;
    out->ptx_size = out->cubin_size = 0;
    out->ok = 0;
    out->outcome = OUT_REFUSED;
    snprintf(out->error, sizeof out->error, "%s is refused: while compiling it, the compiler "
             "tried to open %s, which is not one of the CUDA toolkit's headers; a kernel file "
             "may include only the CUDA toolkit's headers, and the grader never reads another "
             "file for it.", name, refused);
}

/* The rules that need the compiled kernel. */
static void check_compiled(const compile_job *job, const char *name, compiled *out)
{
    char msg[900];
    if ((out->ok || out->outcome == OUT_COMPILE_ERROR) && resource_overflow(out, msg, sizeof msg)) {
        out->ok = 0;
        out->outcome = OUT_RESOURCES;
        snprintf(out->error, sizeof out->error, "%s", msg);
        return;
    }
    if (out->ok && ptx_check_device_globals(out->ptx, msg, sizeof msg) != 0) {
        out->ok = 0;
        out->outcome = OUT_REFUSED;
        snprintf(out->error, sizeof out->error, "%s is refused before running: its kernel %s",
                 name, msg);
        return;
    }
    if (out->ok && ptx_check_special_registers(out->ptx, job->ex ? job->ex->special_registers
                                               : NULL, msg, sizeof msg) != 0) {
        out->ok = 0;
        out->outcome = OUT_REFUSED;
        snprintf(out->error, sizeof out->error, "%s is refused before running: its kernel %s",
                 name, msg);
    }
}

/* Does `path`, links resolved, lie inside folder `dir`? */
static int lies_within(const char *path, const char *dir)
{
    char real[PATH_MAX], root[PATH_MAX];
    if (!realpath(path, real) || !realpath(dir, root))
        return 0;
    size_t n = strlen(root);
    return !strncmp(real, root, n) && real[n] == '/';
}

/* Before the compiler: the file is a regular file inside its folder, can be
 * read, is not huge, and includes only the toolkit. Returns the source, or
 * NULL with `out` filled. */
static char *read_and_scan(const compile_job *job, const char *name, compiled *out)
{
    struct stat st;
    if (stat(job->path, &st) == 0 && !S_ISREG(st.st_mode)) {
        out->outcome = OUT_REFUSED;
        snprintf(out->error, sizeof out->error, "%s is refused: it is not a regular file (a "
                 "folder, a device or a pipe); hand in the kernel file itself.", name);
        return NULL;
    }
    if (job->within && stat(job->path, &st) == 0 && !lies_within(job->path, job->within)) {
        out->outcome = OUT_REFUSED;
        snprintf(out->error, sizeof out->error, "%s is refused: it is a symbolic link, or lies "
                 "in a linked folder, that leads out of %s. Hand in the file itself: the "
                 "grader never reads a file outside your folder for you (so no report can "
                 "show one).", name, job->within);
        return NULL;
    }
    size_t len = 0;
    char *src = read_text_file(job->path, &len);
    if (!src) {
        out->missing = 1;
        out->outcome = OUT_MISSING;
        snprintf(out->error, sizeof out->error, "cannot read %s", name);
        return NULL;
    }
    if ((long)len > MAX_SOURCE_BYTES) {
        out->outcome = OUT_COMPILE_ERROR;
        snprintf(out->error, sizeof out->error, "%s is %.1f MB; a kernel file may be at most "
                 "%ld MB, so it was not compiled.", name, len / 1048576.0,
                 MAX_SOURCE_BYTES >> 20);
        free(src);
        return NULL;
    }
    const char *dirs[MAX_DIRS];
    int ndirs = compile_include_dirs(dirs, MAX_DIRS);
    char msg[900];
    if (source_rules_check(src, name, dirs, ndirs, msg, sizeof msg) != 0) {
        out->outcome = OUT_REFUSED;
        snprintf(out->error, sizeof out->error, "%s", msg);
        free(src);
        return NULL;
    }
    return src;
}

#define BATCH 8

static void compile_batch(const compile_job *jobs, int n, compiled *out)
{
    child_task task[BATCH];
    compile_child ch[BATCH];
    char *src[BATCH];
    memset(ch, 0, sizeof ch);
    nvrtc_warm_up();
    for (int i = 0; i < n; i++) {
        const compile_job *job = &jobs[i];
        const char *name = job->name ? job->name : job->path;
        memset(&out[i], 0, sizeof out[i]);
        src[i] = read_and_scan(job, name, &out[i]);
        if (!src[i])
            continue;
        int native = nvrtc_target_for(job->cc, out[i].target, sizeof out[i].target);
        if (native < 0) {
            out[i].outcome = OUT_INTERNAL;
            snprintf(out[i].error, sizeof out[i].error,
                     "this NVRTC cannot build code for compute capability %d.%d",
                     job->cc / 10, job->cc % 10);
            continue;
        }
        task[i] = (child_task){.src = src[i], .job = job, .native = native, .c = out[i]};
        if (compile_child_start(&ch[i], nvrtc_child_body, &task[i], compile_time_limit(),
                                memory_limit) != 0) {
            out[i].outcome = OUT_INTERNAL;
            snprintf(out[i].error, sizeof out[i].error, "could not start the compiler "
                     "process for %s: %s", name, ch[i].error);
        }
    }
    compile_children_wait(ch, n, compile_time_limit());
    for (int i = 0; i < n; i++) {
        const char *name = jobs[i].name ? jobs[i].name : jobs[i].path;
        if (ch[i].pid) {
            collect(&ch[i], name, &out[i]);
            check_compiled(&jobs[i], name, &out[i]);
        }
        free(ch[i].out);
        free(src[i]);
    }
}

void compile_files(const compile_job *jobs, int n, compiled *out)
{
    for (int at = 0; at < n; at += BATCH)
        compile_batch(jobs + at, n - at < BATCH ? n - at : BATCH, out + at);
}

void compile_file(const char *path, const exercise *ex, const char *kernel,
                  const int *knobs, int cc, compiled *out)
{
    compile_job job = {.path = path, .ex = ex, .kernel = kernel, .knobs = knobs, .cc = cc};
    compile_files(&job, 1, out);
}

void compiled_free(compiled *c)
{
    free(c->log);
    free(c->ptx);
    free(c->cubin);
    memset(c, 0, sizeof *c);
}
