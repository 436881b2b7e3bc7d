/* mem_counts.h: memory counts by line, what the PTX simulator counted of one
 * launch of the student's kernel (issue 28 item 3), for the report.
 *
 * One row per PTX instruction and space, with its source line (the .loc
 * NVRTC keeps): for a global access, requests (warp-level executions with
 * at least one active lane) and the 32-byte sectors they touched (lesson 2:
 * 4 a request for 32 consecutive floats, 32 for a stride of 32 floats); for
 * a shared one, requests and wavefronts (lessons 3 and 10: one per phase
 * without bank conflicts, n for an n-way conflict). `ideal`: the sectors
 * the bytes asked for would fill, or one wavefront per phase. sim/sim.h
 * says the model and its sources; Nsight Compute's l1tex__ counters are
 * what it is checked against (tests/gpu/ncu-counts-run.sh).
 *
 * Layering: plain numbers in core/, so device/device_sim.c fills it, the
 * grade layer carries it in result (result.h) and report/ prints it,
 * without any of them calling another. */
#ifndef GRADER_MEM_COUNTS_H
#define GRADER_MEM_COUNTS_H

#include <stddef.h>

/* One prefix: MS_. The same values as sim.h's sim_count_space. */
enum mem_space { MS_GLOBAL = 1, MS_SHARED = 2 };

#define MEM_COUNT_ROWS 128

typedef struct mem_count_row {
    unsigned line;            /* the source line, 0 unknown */
    int space;                /* enum mem_space */
    char op[48];              /* the PTX opcode, e.g. "ld.global.nc.v4.f32" */
    double requests;
    double units;             /* sectors (global) or wavefronts (shared) */
    double ideal;             /* the fewest sectors for those bytes; one wavefront a phase */
} mem_count_row;

typedef struct mem_counts {
    int counted;              /* 1: a simulated launch filled the rest */
    size_t size;              /* that launch's problem size */
    unsigned blocks_run;      /* the blocks it ran ... */
    unsigned blocks_total;    /* ... of its grid */
    int n;                    /* rows, in the kernel's instruction order */
    int dropped;              /* counted instructions past MEM_COUNT_ROWS, not listed */
    mem_count_row row[MEM_COUNT_ROWS];
} mem_counts;

#endif
