/* device.h: what grading needs from a device, behind one interface.
 *
 * Two implementations:
 *   device_cuda  (device_cuda.c)  NVRTC and the CUDA runtime: a real GPU
 *   device_host  (device_host.c)  the CPU test suite: "kernels" are C
 *                                 functions over host memory, registered by
 *                                 file name, with simulated times
 *
 * A backend only compiles, loads, moves bytes, launches and times. Every
 * judgement (poison, guards, changed inputs, rotated input sets, the
 * physical floor, the verdict) is made above it, in buffers.c and grade*.c,
 * so the CPU tests of the judgement test the code that runs on the GPU.
 *
 * Error rule (device/): an operation whose failure the student can do nothing about
 * but read (a CUDA error, a device fault) ends the child itself through
 * child_fail (CUDA_CHECK). Operations whose failure the grader explains
 * differently per version or per resource (load, a constant's symbol, a
 * refused or endless launch) return it. */
#ifndef GRADER_DEVICE_H
#define GRADER_DEVICE_H

#include <stddef.h>
#include "compile.h"
#include "instance.h"
#include "mem_counts.h"
#include "watch_facts.h"

/* A loaded kernel: the backend's module and entry point. */
typedef struct kernel {
    void *lib;
    void *fn;
} kernel;

/* A kernel's own limits, as the device reports them after loading: what a
 * launch is checked against when the device refuses it. */
typedef struct kernel_limits {
    int regs;                  /* registers per thread */
    size_t smem_static;        /* bytes of __shared__ arrays */
    size_t local_bytes;        /* stack frame per thread */
    int max_threads;           /* the most threads per block it can launch with
                                  (__launch_bounds__, registers); 0 unknown */
} kernel_limits;

enum launch_status {
    LAUNCH_OK,
    LAUNCH_REFUSED,            /* the device would not start it: resources */
    LAUNCH_HUNG                /* it did not finish within the time limit */
};

typedef struct launch_result {
    enum launch_status status;
    double ms;                 /* the kernel's time, when timed */
    char error[64];            /* LAUNCH_REFUSED: the device's error name */
} launch_result;

typedef struct device_ops {
    const char *name;          /* "cuda", "host" */

    /* Facts about the device grading runs on. Returns 0, or fills `why`
     * (the error and what it means) and returns the outcome: OUT_NO_GPU,
     * or OUT_CRASH for a GPU that is there but unusable. */
    int (*probe)(device_facts *dev, char *why, size_t len);

    /* Compile n kernel files at once (compile.h's compile_files contract:
     * out[i] for jobs[i]). */
    void (*compile)(const compile_job *jobs, int n, compiled *out);

    /* Load `c` and find entry point `name`. Returns 0, or the failure's
     * outcome class with `log` holding the failing call, the error and the
     * loader's own log (a JIT "too much shared data" line, for instance). */
    int (*load)(const compiled *c, const char *name, kernel *k, char *log, size_t len);
    /* Load c with its PTX replaced by `ptx` (a rewritten copy, knockout.h),
     * compiled for this device at load time with at most max_regs registers
     * per thread (0: no limit), so the copy launches wherever c does:
     * load's contract. */
    int (*load_ptx)(const compiled *c, const char *ptx, int max_regs, const char *name,
                    kernel *k, char *log, size_t len);
    void (*unload)(kernel *k);
    void (*limits)(const kernel *k, kernel_limits *kl);

    /* Registers, stack, static shared memory and occupancy of a launch of
     * I's geometry; keeps the ptxas spill counts already in `res`. */
    void (*resources)(const kernel *k, const instance *I, const device_facts *dev,
                      resources *res);

    /* Copy bandwidth in GB/s, bytes read plus bytes written. */
    double (*copy_gbps)(const device_facts *dev);
    /* Device-memory latency in ns: the time of one load that misses L2,
     * from a dependent pointer chase (each load's address is the value the
     * previous one returned) over lines far apart in a buffer several times
     * the L2. Measured on the first call, then the same value for the rest
     * of the process, as the copy bandwidth is measured once per grading.
     * 0 when it could not be measured (the report then leaves out the
     * bytes-in-flight figures). */
    double (*latency_ns)(const device_facts *dev);
    /* Evict the L2, so a timed launch starts from device memory. */
    void (*flush_l2)(const device_facts *dev);

    /* Device memory: allocate, free, copy in and out, fill with a byte.
     * Every allocation is whole 2 MiB pages (`bytes` a multiple of 2 MiB,
     * buffers.h's ALLOC_GRAIN): the driver maps memory in such pages, and
     * the rest of a page would be memory a kernel can reach that nobody
     * checks. The host backend refuses any other size (INTERNAL). */
    void *(*alloc)(size_t bytes);
    void (*release)(void *p);
    void (*upload)(void *dst, const void *src, size_t bytes);
    void (*download)(void *dst, const void *src, size_t bytes);
    void (*fill)(void *dst, int byte, size_t bytes);
    /* How many of the `bytes` bytes at `src` differ from `byte`; *first
     * gets the offset of the first that does (unset when none). What the
     * guard checks after every launch read, so a backend may do it where
     * it is cheapest (on a GPU: copied back through pinned memory). */
    size_t (*unlike)(const void *src, int byte, size_t bytes, size_t *first);

    /* Where the module's __constant__ variable `symbol` lives and its size.
     * Returns 0, or -1 when the module has no such variable. */
    int (*constant_slot)(const kernel *k, const char *symbol, void **at, size_t *bytes);

    /* Launch k with I's geometry and arguments `argp` (argp[i] points at
     * argument i's value, as cudaLaunchKernel takes them); wait at most
     * timeout_s. Timed: the kernel alone, between events. */
    launch_result (*launch)(const kernel *k, const instance *I, void **argp, int timed,
                            double timeout_s);

    /* Wait for the device, so what kernels printed reaches stdout (device
     * printf is delivered at synchronisation points). May be NULL. */
    void (*sync)(void);

    /* The first race a launch of this process saw, as one sentence naming
     * both accesses by their lines; "" when none. NULL: the device cannot
     * see races (a GPU); the PTX simulator can (device_sim.h). */
    const char *(*race)(void);
    /* The first read of shared (or local) bytes that its block (or thread)
     * had not written in that launch, as one sentence with its line; ""
     * when none. NULL: the device cannot see it (a GPU). */
    const char *(*unwritten)(void);
    /* What the last launch did with its data (watch_facts.h): the PTX
     * simulator fills it when asked; NULL: the device cannot watch (a GPU,
     * the host backend unless a test sets it). */
    void (*watch)(watch_facts *out);
    /* The next launch watches its data (it runs about twice as slowly),
     * for watch() to read after it; later ones do not. As count_next.
     * NULL: the device cannot watch. */
    void (*watch_next)(void);
    /* Memory counts by line (mem_counts.h): count_next asks that the next
     * launch be counted (it runs slower); counts reads what the last counted
     * launch found (out->counted 0: none). NULL: the device cannot count (a
     * GPU: Nsight Compute does, NCU=1). */
    void (*count_next)(void);
    void (*counts)(mem_counts *out);
    /* Run only these blocks in the launches that follow (linear indices
     * x + gx * (y + gy * z), ascending; the array is copied), n = 0: every
     * block again. What the sampled run of the timed launch uses
     * (grade/sim_sample.h). NULL: the device runs whole grids only (a GPU). */
    void (*sample)(const unsigned *blocks, unsigned n);
    /* The work this process's launches have done so far, in
     * thread-instructions: what a sample of blocks is sized by (a count,
     * not a time, so a seed replays the same sample). NULL: not counted. */
    unsigned long long (*work)(void);
} device_ops;

extern const device_ops device_cuda;

#endif
