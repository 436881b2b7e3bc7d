/* device_host.h: the device interface on the CPU, for the test suite.
 *
 * A "kernel file" is a host_module registered under the path grading would
 * read (variant_path: "solutions/t/scale.cu"); compiling it yields the PTX
 * text and resources the test gives (so mechanism checks run), or its
 * compile log; launching it calls a C function with the kernel's arguments
 * exactly as cudaLaunchKernel gets them. Device memory is host memory. The
 * function sets its own simulated time, may "fault" with a cudaError_t, and
 * may run past the launch limit, so every path of grading is reachable
 * without a GPU: the judgement code above the backend is the real one.
 * A file on disk that no module stands for is compiled by compile.c itself
 * (NVRTC needs no GPU), so a hostile file meets every rule it would meet on
 * a GPU; one that passes them all cannot run here (INTERNAL). */
#ifndef GRADER_DEVICE_HOST_H
#define GRADER_DEVICE_HOST_H

#include "device.h"

typedef struct host_call {
    void **args;               /* args[i] points at argument i's value */
    unsigned grid[3], block[3];
    size_t dyn_smem;
    int timed;
    double ms;                 /* the kernel sets its simulated time (default 0.01) */
    int fault;                 /* a cudaError_t the "kernel" raised; 0 none */
    long long delta;           /* a knock-out copy (knockout.h): set B's inputs lie this
                                  many bytes after A's; 0 for the kernel itself */
    unsigned *span;            /* KNOCK_SHARED's counters (lowest, highest shared
                                  address written with data); NULL otherwise */
    int max_regs;              /* a knock-out copy: the register cap load_ptx was given
                                  (0: none); 0 for the kernel itself */
    int flushed;               /* 1: the L2 was flushed since the launch before this one,
                                  and no bytes were copied or filled after the flush */
    const unsigned *sample;    /* the blocks this launch runs (device.h's sample), in
                                  order; NULL: every block. A C kernel may honour it or
                                  compute everything, as tests need */
    unsigned nsample;
    double insns;              /* thread-instructions per thread this launch ran, for the
                                  work the backend reports (device.h's work); the kernel
                                  may set it (default HOST_INSNS_PER_THREAD) */
} host_call;

typedef void (*host_fn)(host_call *c);

/* A __constant__ variable of the module: where the kernel reads it. */
typedef struct host_global {
    const char *symbol;
    void *at;
    size_t bytes;
} host_global;

typedef struct host_module {
    const char *path;          /* the file it stands for */
    const char *kernel;        /* its entry point */
    host_fn fn;
    host_fn knocked;           /* the kernel as knockout.h rewrites it (its mechanism
                                  reads at +delta); NULL: the rewrite changes nothing,
                                  as for a mechanism off the data path */
    const char *ptx;           /* what the mechanism checks read */
    resources res;             /* what ptxas would have reported */
    int max_threads;           /* __launch_bounds__; 0: the GPU's 1024 */
    const char *compile_log;   /* set: the file does not compile, NVRTC said this */
    const char *load_log;      /* set: loading fails, the loader said this */
    const char *knocked_log;   /* set: loading its knock-out copy (load_ptx) fails, the
                                  loader said this; the module itself loads */
    int refused;               /* 1: every launch is refused (out of resources) although
                                  the limits allow it, as a GPU may refuse for a reason
                                  its limits do not show */
    host_global globals[MAX_CONSTS];
} host_module;

#define HOST_MAX_MODULES 16

/* The device-memory latency the host backend reports until told otherwise. */
#define HOST_LATENCY_NS 600.0

/* Forget every module and reset the device to the calibration GPU (an
 * H100) with a copy bandwidth of 1000 GB/s and a latency of
 * HOST_LATENCY_NS. */
void host_reset(void);
/* Add a module; one for the same path replaces it. 0, or -1 when full. */
int host_add(const host_module *m);
/* The device probe reports; NULL: no GPU (probe fails with OUT_NO_GPU). */
void host_set_device(const device_facts *dev, double copy_gbps);
/* The latency the backend reports, in ns (0: could not be measured). */
void host_set_latency(double ns);
/* Die (SIGSEGV) in the first operation of the backend made while grading
 * is at `stage` (result.stage, as set_stage wrote it); NULL or "": never.
 * So a test can see which stage a crash is placed in. */
void host_crash_in(const char *stage);

/* The work the backend reports (device.h's work): per launch, its
 * threads per block times the blocks it runs (the sample's, or the grid's)
 * times host_call.insns, by default this many. */
#define HOST_INSNS_PER_THREAD 100

/* What the backend was asked to do, for tests that count. */
typedef struct host_counts {
    long launches, timed, fills, flushes;
} host_counts;
extern host_counts host_count;

extern const device_ops device_host;

#endif
