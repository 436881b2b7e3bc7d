/* device_host.c: the device interface on the CPU (see device_host.h). */
#include <cuda_runtime_api.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "calibration.h"
#include "child_fail.h"
#include "cuda_check.h"
#include "device_host.h"
#include "unlike.h"
#include "launch_limits.h"

static host_module modules[HOST_MAX_MODULES];
static int nmodules;
static device_facts host_dev;
static int have_dev;
static double host_gbps;
static double host_latency;
static char crash_stage[96];
static int l2_flushed;      /* since the last launch */
host_counts host_count;
/* The sample the launches run (device.h's sample), and the work done. */
static unsigned host_sampled[4096];
static unsigned host_nsampled;
static unsigned long long host_insns;


void host_reset(void)
{
    memset(modules, 0, sizeof modules);
    nmodules = 0;
    memset(&host_count, 0, sizeof host_count);
    host_nsampled = 0;
    host_insns = 0;
    calibration_device(&host_dev);
    snprintf(host_dev.name, sizeof host_dev.name, "host backend (CPU tests)");
    have_dev = 1;
    host_gbps = 1000;
    host_latency = HOST_LATENCY_NS;
    crash_stage[0] = 0;
}

void host_crash_in(const char *stage)
{
    snprintf(crash_stage, sizeof crash_stage, "%s", stage ? stage : "");
}

/* Every operation of the backend: die here when grading is at the stage
 * host_crash_in names. */
static void at_work(void)
{
    if (crash_stage[0] && g_result && !strcmp(g_result->stage, crash_stage))
        raise(SIGSEGV);
}

int host_add(const host_module *m)
{
    for (int i = 0; i < nmodules; i++)
        if (!strcmp(modules[i].path, m->path)) {
            modules[i] = *m;
            return 0;
        }
    if (nmodules == HOST_MAX_MODULES)
        return -1;
    modules[nmodules++] = *m;
    return 0;
}

void host_set_device(const device_facts *dev, double copy_gbps)
{
    have_dev = dev != NULL;
    if (dev)
        host_dev = *dev;
    host_gbps = copy_gbps;
}

void host_set_latency(double ns)
{
    host_latency = ns;
}

static int host_probe(device_facts *dev, char *why, size_t len)
{
    at_work();
    if (!have_dev) {
        snprintf(why, len, "%s (%s). This means %s", cudaGetErrorName(cudaErrorNoDevice),
                 cudaGetErrorString(cudaErrorNoDevice), cuda_error_meaning(cudaErrorNoDevice));
        return OUT_NO_GPU;
    }
    *dev = host_dev;
    return 0;
}

/* A file on disk that no module stands for: compile.c itself, with every
 * rule it applies (folder, includes, size, state, resources), so a test can
 * hand grading a real hostile file. Nothing compiled this way can run on
 * the host: a file that passes every rule is the grader's fault here. */
static void host_compile_file(const compile_job *job, const char *name, compiled *out)
{
    compile_files(job, 1, out);
    if (!out->ok)
        return;
    compiled_free(out);
    out->outcome = OUT_INTERNAL;
    snprintf(out->error, sizeof out->error, "%s compiled, but the host backend runs only the "
             "modules a test registers", name);
}

/* One "compile": the registered module at the job's path, with the outcome
 * and the sentence compile.c would give. */
static void host_compile_one(const compile_job *job, compiled *out)
{
    const char *path = job->path, *name = job->name ? job->name : job->path;
    struct stat st;
    memset(out, 0, sizeof *out);
    snprintf(out->target, sizeof out->target, "sm_%d", job->cc);
    int i = 0;
    while (i < nmodules && strcmp(modules[i].path, path))
        i++;
    if (i == nmodules && lstat(path, &st) == 0) {
        host_compile_file(job, name, out);
        return;
    }
    if (i == nmodules) {
        out->missing = 1;
        out->outcome = OUT_MISSING;
        snprintf(out->error, sizeof out->error, "cannot read %s", name);
        return;
    }
    const host_module *m = &modules[i];
    if (m->compile_log) {
        out->log = strdup(m->compile_log);
        out->outcome = OUT_COMPILE_ERROR;
        snprintf(out->error, sizeof out->error, "%s does not compile. The compiler's messages "
                 "below name the file and line (file(line): error: ...); fix the first one "
                 "first, later ones often follow from it.", name);
        return;
    }
    if (strcmp(m->kernel, job->kernel)) {
        out->missing = 1;
        out->outcome = OUT_MISSING;
        snprintf(out->error, sizeof out->error,
                 "%s compiles but has no kernel named '%s': declare it as "
                 "extern \"C\" __global__ void %s(...)", name, job->kernel, job->kernel);
        return;
    }
    out->ptx = strdup(m->ptx ? m->ptx : "");
    out->ptx_size = strlen(out->ptx);
    /* The "machine code" is the module's place in the table. */
    out->cubin = malloc(sizeof(int));
    if (!out->ptx || !out->cubin)
        child_fail(OUT_INTERNAL, NULL, "The host backend had no memory for %s's module.", name);
    memcpy(out->cubin, &i, sizeof i);
    out->cubin_size = sizeof i;
    out->res = m->res;
    out->res.known = 1;
    out->ok = 1;
}

static void host_compile(const compile_job *jobs, int n, compiled *out)
{
    at_work();
    for (int i = 0; i < n; i++)
        host_compile_one(&jobs[i], &out[i]);
}

static int host_load(const compiled *c, const char *name, kernel *k, char *log, size_t len)
{
    at_work();
    int i;
    memcpy(&i, c->cubin, sizeof i);
    memset(k, 0, sizeof *k);
    if (modules[i].load_log) {
        snprintf(log, len, "cudaLibraryLoadData: %s (%s). This means %s\n%s",
                 cudaGetErrorName(cudaErrorInvalidPtx), cudaGetErrorString(cudaErrorInvalidPtx),
                 cuda_error_meaning(cudaErrorInvalidPtx), modules[i].load_log);
        return cuda_error_outcome(cudaErrorInvalidPtx);
    }
    /* The entry point asked for must be the module's, as for
     * cudaLibraryGetKernel. */
    if (strcmp(name, modules[i].kernel)) {
        snprintf(log, len, "cudaLibraryGetKernel: %s (%s). This means %s\n",
                 cudaGetErrorName(cudaErrorSymbolNotFound),
                 cudaGetErrorString(cudaErrorSymbolNotFound),
                 cuda_error_meaning(cudaErrorSymbolNotFound));
        return cuda_error_outcome(cudaErrorSymbolNotFound);
    }
    k->lib = &modules[i];
    k->fn = &modules[i];
    return 0;
}

/* A knocked copy: the module's `knocked` function, with the delta and
 * bounds the rewrite's first line carries ("// knockout K delta D"). */
static struct knocked_kernel {
    const host_module *m;
    long long delta;
    unsigned long long span;
    int max_regs;
} knocked[HOST_MAX_MODULES];

static int host_load_ptx(const compiled *c, const char *ptx, int max_regs, const char *name,
                         kernel *k, char *log, size_t len)
{
    at_work();
    int o = host_load(c, name, k, log, len), i, kind;
    if (o)
        return o;
    memcpy(&i, c->cubin, sizeof i);
    if (modules[i].knocked_log) {
        snprintf(log, len, "cudaLibraryLoadData: %s (%s). This means %s\n%s",
                 cudaGetErrorName(cudaErrorInvalidPtx), cudaGetErrorString(cudaErrorInvalidPtx),
                 cuda_error_meaning(cudaErrorInvalidPtx), modules[i].knocked_log);
        return cuda_error_outcome(cudaErrorInvalidPtx);
    }
    knocked[i].m = &modules[i];
    knocked[i].max_regs = max_regs;
    if (sscanf(ptx, "// knockout %d delta %lld span %llu", &kind, &knocked[i].delta,
               &knocked[i].span) != 3)
        knocked[i].delta = 0, knocked[i].span = 0;
    k->fn = &knocked[i];
    return 0;
}

static void host_unload(kernel *k)
{
    memset(k, 0, sizeof *k);
}

static void host_limits(const kernel *k, kernel_limits *kl)
{
    const host_module *m = k->lib;
    kl->regs = m->res.regs;
    kl->smem_static = (size_t)m->res.smem_static;
    kl->local_bytes = (size_t)m->res.stack_bytes;
    kl->max_threads = m->max_threads ? m->max_threads : MAX_THREADS_PER_BLOCK;
}

static void host_resources(const kernel *k, const instance *I, const device_facts *dev,
                           resources *res)
{
    at_work();
    kernel_limits kl;
    host_limits(k, &kl);
    unsigned threads = I->block[0] * I->block[1] * I->block[2];
    res->known = 1;
    res->regs = kl.regs;
    res->stack_bytes = (int)kl.local_bytes;
    res->smem_static = (int)kl.smem_static;
    res->smem_dynamic = (int)I->dyn_smem;
    res->blocks_per_sm = blocks_per_sm_model(&kl, threads, I->dyn_smem, dev);
    int warps = (int)(threads + 31) / 32, max_warps = dev->max_threads_per_sm / 32;
    res->occupancy_pct = max_warps ? 100 * res->blocks_per_sm * warps / max_warps : -1;
}

static double host_copy_gbps(const device_facts *dev)
{
    at_work();
    (void)dev;
    return host_gbps;
}

static double host_latency_ns(const device_facts *dev)
{
    at_work();
    (void)dev;
    return host_latency;
}

static void host_flush_l2(const device_facts *dev)
{
    at_work();
    (void)dev;
    host_count.flushes++;
    l2_flushed = 1;
}

static void *host_alloc(size_t bytes)
{
    at_work();
    /* Placed as cudaMalloc places it: on a 2 MiB boundary from 2 MiB up
     * (the GPU's large page; H200, 2026-11-29, grader/calibration/
     * h200-2026-11-29/). Fresh device memory often reads as zeros: so does
     * this. */
    size_t page = (size_t)2 << 20, n = bytes ? bytes : 1;
    void *p = NULL;
    /* The device layer's rule (device.h), held here so the CPU suite fails
     * on any grading path that breaks it. */
    if (bytes % page)
        child_fail(OUT_INTERNAL, NULL, "The grader allocated %zu bytes of device memory, not "
                   "whole 2 MiB pages: the rest of the last page would be memory a kernel "
                   "could keep something in unchecked. This is a bug in the grader.", bytes);
    if (posix_memalign(&p, page, n) != 0 || !p)
        cuda_fail(cudaErrorMemoryAllocation, "posix_memalign (host backend)", __FILE__,
                  __LINE__);
    memset(p, 0, n);
    return p;
}

static void host_release(void *p)
{
    free(p);
}

/* Bytes moved after a flush go through the L2 on a GPU: the next launch
 * no longer starts from a flushed L2 (host_call.flushed). */
static void host_copy(void *dst, const void *src, size_t bytes)
{
    at_work();
    l2_flushed = 0;
    memcpy(dst, src, bytes);
}

static void host_fill(void *dst, int byte, size_t bytes)
{
    at_work();
    host_count.fills++;
    l2_flushed = 0;
    memset(dst, byte, bytes);
}

static size_t host_unlike(const void *src, int byte, size_t bytes, size_t *first)
{
    at_work();
    return host_memory_unlike(src, byte, bytes, first);
}

static int host_constant_slot(const kernel *k, const char *symbol, void **at, size_t *bytes)
{
    at_work();
    const host_module *m = k->lib;
    for (int i = 0; i < MAX_CONSTS && m->globals[i].symbol; i++)
        if (!strcmp(m->globals[i].symbol, symbol)) {
            *at = m->globals[i].at;
            *bytes = m->globals[i].bytes;
            return 0;
        }
    return -1;
}

static void host_sample(const unsigned *blocks, unsigned n)
{
    host_nsampled = n < 4096 ? n : 4096;
    memcpy(host_sampled, blocks, host_nsampled * sizeof *blocks);
}

static unsigned long long host_work(void)
{
    return host_insns;
}

static launch_result host_launch(const kernel *k, const instance *I, void **argp, int timed,
                                 double timeout_s)
{
    at_work();
    const host_module *m = k->lib;
    launch_result L = {.status = LAUNCH_OK, .ms = 0, .error = ""};
    kernel_limits kl;
    host_limits(k, &kl);
    char why[512];
    unsigned threads = I->block[0] * I->block[1] * I->block[2];
    if (m->refused ||
        launch_limit_broken(&kl, threads, I->dyn_smem, &host_dev, why, sizeof why)) {
        L.status = LAUNCH_REFUSED;
        snprintf(L.error, sizeof L.error, "%s", cudaGetErrorName(cudaErrorLaunchOutOfResources));
        return L;
    }
    host_call c = {.args = argp, .dyn_smem = I->dyn_smem, .timed = timed, .ms = 0.01,
                   .flushed = l2_flushed};
    l2_flushed = 0;
    memcpy(c.grid, I->grid, sizeof c.grid);
    memcpy(c.block, I->block, sizeof c.block);
    host_count.launches++;
    host_count.timed += timed;
    if (host_nsampled) {
        c.sample = host_sampled;
        c.nsample = host_nsampled;
    }
    c.insns = HOST_INSNS_PER_THREAD;
    host_fn fn = m->fn;
    if (k->fn != k->lib) {
        const struct knocked_kernel *kk = k->fn;
        c.delta = kk->delta;
        c.span = (unsigned *)(uintptr_t)kk->span;
        c.max_regs = kk->max_regs;
        if (m->knocked)
            fn = m->knocked;
    }
    fn(&c);
    double blocks = host_nsampled ? host_nsampled : (double)I->grid[0] * I->grid[1] * I->grid[2];
    host_insns += (unsigned long long)(blocks * threads * c.insns);
    if (c.fault)
        cuda_fail((cudaError_t)c.fault,
                  "the kernel, while it ran (the error surfaced at cudaEventQuery)",
                  __FILE__, __LINE__);
    if (c.ms > timeout_s * 1e3) {
        L.status = LAUNCH_HUNG;
        return L;
    }
    L.ms = timed ? c.ms : 0;
    return L;
}

/* A host kernel prints with stdio: its output is there once flushed. */
static void host_sync(void)
{
    fflush(NULL);
}

const device_ops device_host = {
    .name = "host",
    .probe = host_probe,
    .compile = host_compile,
    .load = host_load,
    .load_ptx = host_load_ptx,
    .unload = host_unload,
    .limits = host_limits,
    .resources = host_resources,
    .copy_gbps = host_copy_gbps,
    .latency_ns = host_latency_ns,
    .flush_l2 = host_flush_l2,
    .alloc = host_alloc,
    .release = host_release,
    .upload = host_copy,
    .download = host_copy,
    .fill = host_fill,
    .unlike = host_unlike,
    .constant_slot = host_constant_slot,
    .launch = host_launch,
    .sync = host_sync,
    .sample = host_sample,
    .work = host_work,
};
