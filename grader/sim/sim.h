/* sim.h: a PTX simulator, the GPU the grader has when there is none.
 *
 * It runs the PTX that NVRTC produced for sm_90 (the text a Hopper GPU
 * runs) on one CPU core: a module is decoded once into an instruction array
 * (sim_decode.c), then a launch runs its grid one block at a time, a block's
 * warps in turn, a warp's lanes in lockstep while they share a program
 * counter and apart where they diverge (sim_exec.c, sim_block.c).
 *
 * What it models, and how (the PTX ISA manual is the specification):
 *   - arithmetic with the GPU's rounding: .rn by default, fma as one
 *     rounding, .rz/.rm/.rp, .ftz, .sat; the .approx instructions by the
 *     C library's correctly rounded or nearly so functions, which lie
 *     within their documented error;
 *   - every state space: global (the allocations registered here, any other
 *     address is a fault with the line), shared (per block), local (per
 *     thread), param (per launch), const (the module's variables), generic
 *     addresses over all of them;
 *   - independent thread scheduling: per-lane program counters, the lanes
 *     at the lowest one run together;
 *   - bar.sync / barrier.sync (named, with counts), atomics, warp
 *     collectives (shfl, vote, redux, bar.warp.sync) over their member
 *     mask: as on sm_70 and later, lanes that reach one wait for every
 *     non-exited lane of the mask to reach one of the same kind and mask,
 *     the same instruction or not (lanes split across branches each call
 *     __shfl_sync in their own); lanes that never come are a hang naming
 *     them (undefined on a GPU: a hang or garbage);
 *   - asynchronous copies land as late as the memory model allows: a
 *     cp.async at the cp.async.wait_group that covers its group, a bulk
 *     copy when the mbarrier phase it signals is about to complete; a read
 *     before that sees the old bytes, so a race gives a wrong result on
 *     every run, never only sometimes; and any access to bytes a copy in
 *     flight will write is reported as a race (sim_report.race) with the
 *     line of the access and of the copy;
 *   - races in shared memory between threads, with both lines
 *     (sim_report.race): a read and a write of a word by two warps with no
 *     barrier between; two plain stores of the same bytes by two warps, or
 *     by lanes of one warp that ran apart, when their values differ (every
 *     writer storing the same value, as in "every thread sets the flag to
 *     1", leaves the same bytes in any order, so it is not reported); an
 *     atomic and a plain store of one word in one barrier interval (two
 *     atomics are not a race);
 *   - mbarrier init / arrive / expect_tx / try_wait with phases and parity;
 *     a try_wait that cannot succeed blocks the thread; when no thread can
 *     go on, the run stops as a hang naming what each one waits for.
 * What it cannot judge: speed, caches, anything timed (%clock reads 0).
 *
 * An instruction it does not know stops the run as SIM_UNSUPPORTED with its
 * name and line: the caller says "needs a GPU", never a verdict.
 *
 * Error rule (sim/): nothing here prints or exits; every failure is a
 * status and a message in the caller's buffer. */
#ifndef GRADER_SIM_H
#define GRADER_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "watch_facts.h"

typedef struct sim_module sim_module;

/* Decode PTX text. Returns the module, or NULL with `err` saying what could
 * not be read (the statement and its line in the PTX). */
sim_module *sim_load(const char *ptx, char *err, size_t len);
void sim_free(sim_module *m);

/* The index of entry point `name`, or -1. */
int sim_kernel(const sim_module *m, const char *name);

/* A kernel's static shared bytes, local bytes per thread and registers. */
typedef struct sim_kernel_facts {
    size_t smem_static;
    size_t local_bytes;
    int regs;
    int max_threads;         /* .maxntid / .reqntid, 0 none */
} sim_kernel_facts;
void sim_kernel_facts_of(const sim_module *m, int k, sim_kernel_facts *f);

/* The module's .const or .global variable `name`: its host storage and
 * size. Returns 0, or -1 when there is none. */
int sim_symbol(sim_module *m, const char *name, void **at, size_t *bytes);

/* Global memory: only registered ranges may be read or written by a kernel
 * (the device backend registers what it allocates). */
int sim_mem_add(void *p, size_t bytes);    /* 0, or -1 when the table is full */
void sim_mem_remove(void *p);

enum sim_status {
    SIM_OK,
    SIM_FAULT,               /* an access outside every buffer */
    SIM_HANG,                /* no thread can go on, or over the time limit */
    SIM_UNSUPPORTED,         /* an instruction or form it does not run */
    SIM_BAD_LAUNCH,          /* a launch the GPU would refuse */
    SIM_TRAP                 /* a failed assert() or a trap: the kernel stopped itself */
};

/* Memory counts by instruction (issue 28 item 3; sim_counts.c), what
 * Nsight Compute counts per SASS instruction, here per PTX instruction and
 * so per source line:
 *   global  (ld/st/atom/red .global, generic ones that land in global
 *           memory, cp.async's global side): requests, warp-level
 *           executions with at least one active lane; sectors, the distinct
 *           32-byte aligned segments the active lanes touch, per request,
 *           summed; ideal, the sectors the bytes asked for would fill
 *           (ceil(lanes x bytes / 32), at most the sectors touched);
 *   shared  (ld/st/atom .shared, generic ones that land in shared memory):
 *           requests; wavefronts, by the model of 32 banks of 4 bytes,
 *           lanes that touch the same word not conflicting (broadcast), a
 *           warp's request split into phases of 128 bytes (all 32 lanes for
 *           accesses of 4 bytes or less, half-warps for 8 bytes, quarter-
 *           warps for 16), each phase taking as many wavefronts as the most
 *           distinct words any one bank holds in it; ideal, one wavefront
 *           per phase with an active lane. Conflicts = wavefronts - ideal,
 *           as l1tex__data_bank_conflicts_pipe_lsu_mem_shared counts them.
 * A launch with more counted instructions than SIM_COUNT_ROWS gets a row
 * per line, space and opcode instead (an unrolled loop's copies summed;
 * insn: the first), so its lines' totals stay whole; past that, rows are
 * counted in `dropped`. */
enum sim_count_space { SIM_COUNT_GLOBAL = 1, SIM_COUNT_SHARED = 2 };
#define SIM_COUNT_ROWS 128
typedef struct sim_count_row {
    uint32_t insn;           /* the instruction's index in the kernel */
    uint32_t line;           /* its .loc line, 0 unknown */
    int space;               /* enum sim_count_space */
    char op[48];             /* the PTX opcode, e.g. "ld.global.nc.v4.f32" */
    uint64_t requests, units, ideal;   /* units: sectors (global), wavefronts (shared) */
} sim_count_row;
typedef struct sim_counts {
    int n, dropped;
    sim_count_row row[SIM_COUNT_ROWS];
} sim_counts;

typedef struct sim_launch {
    unsigned grid[3], block[3];
    size_t dyn_smem;
    void **argp;             /* argp[i] points at argument i's value */
    double timeout_s;        /* wall-clock limit; 0: none */
    /* Non-NULL: the run adds its memory counts to *counts (the caller zeroes
     * it first; launches accumulate). NULL: nothing counted, full speed. */
    sim_counts *counts;
    /* A sample of the grid: run only these blocks (linear indices,
     * x + grid[0] * (y + grid[1] * z), ascending), in this order, each as it
     * runs in the whole launch (its %ctaid, the whole grid's %nctaid).
     * Blocks share nothing but global memory, so everything judged per
     * block (races, unwritten reads, faults, hangs within a block) holds
     * for a sample; what other blocks would have written is not there.
     * NULL or nblocks 0: every block. */
    const unsigned *blocks;
    unsigned nblocks;
    int watch;               /* 1: watch the data (sim_watch.c), into sim_report.watch */
} sim_launch;

typedef struct sim_report {
    enum sim_status status;
    uint32_t line;           /* the source line where it stopped, 0 unknown */
    char message[768];       /* what stopped it, for a student */
    uint64_t thread_insns;   /* instructions executed, summed over threads */
    /* The first race seen, whatever the status: a thread read or wrote
     * shared bytes that an asynchronous copy still in flight will write
     * (its result is undefined on a GPU), or that another thread wrote or
     * read with nothing ordering the two (see above). Empty: none. */
    char race[400];
    uint32_t race_line, race_copy_line;
    uint64_t warp_insns;     /* warp-instructions issued */
    /* The first read of shared bytes no thread of the block, or of local
     * bytes its own thread, wrote in this launch (on a GPU they hold what an
     * earlier kernel left there), whatever the status; an atomic other than
     * an exchange reads its bytes first, so an atomicAdd on a counter no
     * thread cleared is one. Empty: none. */
    char unwritten[400];
    uint32_t unwritten_line;
    /* What the launch did with its data (core/watch_facts.h), when
     * sim_launch.watch asked for it; watch.watched 0 otherwise. */
    watch_facts watch;
} sim_report;

/* Run kernel k. Returns rep->status. */
enum sim_status sim_run(const sim_module *m, int k, const sim_launch *L, sim_report *rep);

#endif
