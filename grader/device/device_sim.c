/* device_sim.c: the device interface on the PTX simulator (device_sim.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calibration.h"
#include "child_fail.h"
#include "device_sim.h"
#include "kernel_output.h"
#include "sim.h"
#include "unlike.h"

static unsigned long long thread_insns;
static int count_asked;          /* count the next launch */
static sim_counts last_counts;   /* what the last counted launch found */
static unsigned counted_blocks;  /* its grid's blocks (all of them ran) */
static int have_counts;
static char first_race[400];
static char first_unwritten[400];
static int watch_asked;           /* watch the next launch's data */
static watch_facts last_watch;

/* device_ops.watch_next: the next launch watches its data (sim_watch.c). */
static void sim_watch_next(void)
{
    watch_asked = 1;
}

/* device_ops.watch: the last launch's facts (watched 0 when it was not
 * watched). */
static void sim_watch_facts(watch_facts *out)
{
    *out = last_watch;
}

const char *device_sim_unwritten(void)
{
    return first_unwritten;
}

const char *device_sim_race(void)
{
    return first_race;
}

unsigned long long device_sim_thread_insns(void)
{
    return thread_insns;
}

static int sim_probe(device_facts *dev, char *why, size_t len)
{
    (void)why;
    (void)len;
    calibration_device(dev);
    snprintf(dev->name, sizeof dev->name, "PTX simulator (no GPU)");
    return 0;
}

static int sim_load_text(const char *ptx, const char *name, kernel *k, char *log, size_t len)
{
    sim_module *m = sim_load(ptx, log, len);
    if (!m)
        return OUT_INTERNAL;
    int i = sim_kernel(m, name);
    if (i < 0) {
        snprintf(log, len, "the PTX has no kernel named %s", name);
        sim_free(m);
        return OUT_MISSING;
    }
    k->lib = m;
    k->fn = (void *)(intptr_t)(i + 1);
    return 0;
}

static int sim_dev_load(const compiled *c, const char *name, kernel *k, char *log, size_t len)
{
    return sim_load_text(c->ptx, name, k, log, len);
}

static int sim_dev_load_ptx(const compiled *c, const char *ptx, int max_regs, const char *name,
                            kernel *k, char *log, size_t len)
{
    (void)c;
    (void)max_regs;
    return sim_load_text(ptx, name, k, log, len);
}

static void sim_unload(kernel *k)
{
    sim_free(k->lib);
    k->lib = k->fn = NULL;
}

static void sim_limits(const kernel *k, kernel_limits *kl)
{
    sim_kernel_facts f;
    sim_kernel_facts_of(k->lib, (int)(intptr_t)k->fn - 1, &f);
    *kl = (kernel_limits){.regs = f.regs, .smem_static = f.smem_static,
                          .local_bytes = f.local_bytes, .max_threads = f.max_threads};
}

/* The compile's ptxas figures stand: the simulator has no registers to
 * count. */
static void sim_resources(const kernel *k, const instance *I, const device_facts *dev,
                          resources *res)
{
    (void)k;
    (void)I;
    (void)dev;
    (void)res;
}

static double sim_copy_gbps(const device_facts *dev) { (void)dev; return 0; }
static double sim_latency_ns(const device_facts *dev) { (void)dev; return 0; }
static void sim_flush_l2(const device_facts *dev) { (void)dev; }

/* Whole 2 MiB pages start on a 2 MiB boundary, as the GPU's allocations
 * do (buffers.h's ALLOC_GRAIN): a kernel run on the simulator with the
 * timed launch's arguments sees its pointers at the same offsets within a
 * page as on the GPU (grade/sim_sample.h). Smaller ones get cudaMalloc's
 * alignment: "any address ... returned by one of the memory allocation
 * routines from the driver or runtime API is always aligned to at least
 * 256 bytes" (CUDA C++ Programming Guide, Device Memory Accesses); malloc's
 * 16 put a buffer mid-sector, so the simulator counted a sector more per
 * warp request than Nsight Compute (H200, 2026-11-29: lesson 0's baseline
 * 17 sectors a request against 16). */
#define SIM_PAGE_ALIGN ((size_t)2 << 20)
#define SIM_ALLOC_ALIGN 256

static void *sim_alloc(size_t bytes)
{
    void *p = NULL;
    size_t align = bytes >= SIM_PAGE_ALIGN ? SIM_PAGE_ALIGN : SIM_ALLOC_ALIGN;
    if (posix_memalign(&p, align, bytes ? bytes : 1) != 0)
        p = NULL;
    if (!p || sim_mem_add(p, bytes) != 0)
        child_fail(OUT_INTERNAL, NULL, "The simulator could not allocate %zu bytes.", bytes);
    return p;
}

static void sim_release(void *p)
{
    sim_mem_remove(p);
    free(p);
}

static void sim_copy(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }
static void sim_fill(void *dst, int byte, size_t bytes) { memset(dst, byte, bytes); }

static int sim_constant_slot(const kernel *k, const char *symbol, void **at, size_t *bytes)
{
    return sim_symbol(k->lib, symbol, at, bytes);
}

/* The blocks the launches run (device.h's sample); none: every block. */
static unsigned *sampled;
static unsigned nsampled;

static void sim_sample(const unsigned *blocks, unsigned n)
{
    free(sampled);
    sampled = NULL;
    nsampled = 0;
    if (!n || !(sampled = malloc(n * sizeof *sampled)))
        return;
    memcpy(sampled, blocks, n * sizeof *sampled);
    nsampled = n;
}

static launch_result simdev_launch(const kernel *k, const instance *I, void **argp, int timed,
                                   double timeout_s)
{
    (void)timed;
    sim_launch L = {.dyn_smem = I->dyn_smem, .argp = argp, .timeout_s = timeout_s,
                    .blocks = sampled, .nblocks = nsampled,
                    .watch = watch_asked};
    watch_asked = 0;
    memcpy(L.grid, I->grid, sizeof L.grid);
    memcpy(L.block, I->block, sizeof L.block);
    if (count_asked) {
        memset(&last_counts, 0, sizeof last_counts);
        L.counts = &last_counts;
        counted_blocks = nsampled ? nsampled : I->grid[0] * I->grid[1] * I->grid[2];
        have_counts = 1;
        count_asked = 0;
    }
    sim_report rep;
    enum sim_status s = sim_run(k->lib, (int)(intptr_t)k->fn - 1, &L, &rep);
    fflush(stdout);          /* device printf, before anyone reads the capture */
    thread_insns += rep.thread_insns;
    last_watch = rep.watch;
    if (rep.race[0] && !first_race[0])
        snprintf(first_race, sizeof first_race, "%s", rep.race);
    if (rep.unwritten[0] && !first_unwritten[0])
        snprintf(first_unwritten, sizeof first_unwritten, "%s", rep.unwritten);
    const char *stage = g_result ? g_result->stage : "running";
    switch (s) {
    case SIM_OK:
        break;
    case SIM_FAULT:
        child_fail(OUT_CRASH, NULL, "While %s: %s. On a GPU this is an "
                   "illegal memory access; check the index and the bounds test on that line.",
                   stage, rep.message);
    case SIM_TRAP: {
        char what[400];
        if (kout_assertion(what, sizeof what))
            child_fail(OUT_CRASH, NULL, "While %s: %s: %s. On a GPU the launch fails with "
                       "cudaErrorAssert.", stage, rep.message, what);
        child_fail(OUT_CRASH, NULL, "While %s: %s. On a GPU the launch fails with "
                   "cudaErrorAssert (or an illegal instruction for a trap).", stage, rep.message);
    }
    case SIM_HANG:
        child_fail(OUT_HANG, NULL, "While %s: %s.", stage, rep.message);
    case SIM_UNSUPPORTED:
        child_fail(OUT_CHECKED, NULL, "Correctness needs a GPU: the simulator stopped at %s.",
                   rep.message);
    case SIM_BAD_LAUNCH:
        return (launch_result){.status = LAUNCH_REFUSED, .error = "simulator: bad launch"};
    }
    return (launch_result){.status = LAUNCH_OK};
}

_Static_assert((int)MS_GLOBAL == (int)SIM_COUNT_GLOBAL && (int)MS_SHARED == (int)SIM_COUNT_SHARED,
               "mem_counts.h's spaces are sim.h's");

static void sim_count_next(void)
{
    count_asked = 1;
}

static void sim_counts_read(mem_counts *out)
{
    memset(out, 0, sizeof *out);
    if (!have_counts)
        return;
    *out = (mem_counts){.counted = 1, .blocks_run = counted_blocks,
                        .blocks_total = counted_blocks, .dropped = last_counts.dropped};
    for (int i = 0; i < last_counts.n; i++) {
        const sim_count_row *r = &last_counts.row[i];
        if (out->n == MEM_COUNT_ROWS) {
            out->dropped++;
            continue;
        }
        mem_count_row *o = &out->row[out->n++];
        *o = (mem_count_row){.line = r->line, .space = r->space, .requests = (double)r->requests,
                             .units = (double)r->units, .ideal = (double)r->ideal};
        snprintf(o->op, sizeof o->op, "%s", r->op);
    }
}

const device_ops device_sim = {
    .name = "sim",
    .probe = sim_probe,
    .compile = compile_files,
    .load = sim_dev_load,
    .load_ptx = sim_dev_load_ptx,
    .unload = sim_unload,
    .limits = sim_limits,
    .resources = sim_resources,
    .copy_gbps = sim_copy_gbps,
    .latency_ns = sim_latency_ns,
    .flush_l2 = sim_flush_l2,
    .alloc = sim_alloc,
    .release = sim_release,
    .upload = sim_copy,
    .download = sim_copy,
    .fill = sim_fill,
    .unlike = host_memory_unlike,
    .constant_slot = sim_constant_slot,
    .launch = simdev_launch,
    .race = device_sim_race,
    .unwritten = device_sim_unwritten,
    .count_next = sim_count_next,
    .counts = sim_counts_read,
    .sample = sim_sample,
    .work = device_sim_thread_insns,
    .watch = sim_watch_facts,
    .watch_next = sim_watch_next,
};
