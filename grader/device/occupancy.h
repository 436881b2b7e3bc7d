/* occupancy.h: theoretical occupancy computed on the CPU, from a kernel's
 * resources and a GPU's device facts, for when there is no GPU to ask
 * (make check without a GPU uses the calibration H100's facts).
 *
 * The rules are NVIDIA's own: the toolkit's header-only occupancy calculator
 * (cuda_occupancy.h, the logic behind cudaOccupancyMaxActiveBlocksPerMultiprocessor),
 * so the CPU figure is the one the GPU's API gives for the same kernel. This
 * file only maps the course's structs onto it and says which limit binds. */
#ifndef GRADER_OCCUPANCY_H
#define GRADER_OCCUPANCY_H

#include <stddef.h>
#include "spec.h"

/* What binds. (cuda_occupancy.h already owns the OCC_LIMIT_ prefix.) */
enum occ_bound {
    BOUND_UNKNOWN = 0,      /* not computed */
    BOUND_THREADS,          /* the SM's thread (warp) slots */
    BOUND_BLOCKS,           /* the SM's most resident blocks */
    BOUND_REGISTERS,
    BOUND_SHARED,           /* shared memory */
    BOUND_NO_FIT            /* not even one block fits: the launch fails */
};

typedef struct occupancy {
    int blocks_per_sm;      /* resident blocks of this kernel per SM */
    int pct;                /* resident warps / the SM's most warps, percent, rounded down */
    enum occ_bound bound;   /* what binds (of equal limits: threads, blocks, registers, shared) */
    char why[256];          /* BOUND_NO_FIT: which resource, in a sentence */
} occupancy;

/* Occupancy of a kernel using `regs` registers per thread and
 * `smem_static` + `smem_dynamic` bytes of shared memory per block, launched
 * with `threads` threads per block, on the GPU `dev` describes (compute
 * capability 7.5 or newer). Dynamic shared memory above 48 KB counts as
 * opted into, as the grader does on a GPU. Returns 0, or -1 when the
 * calculator does not know dev's generation (out is then zeroed). */
int occupancy_compute(const device_facts *dev, int threads, int regs, size_t smem_static,
                      size_t smem_dynamic, occupancy *out);

/* The occupancy of one launch, not what the resources allow: its `blocks`
 * blocks of `threads` threads spread evenly over dev->sm_count SMs, at most
 * `allowed` (the resources' blocks_per_sm) resident on one at a time. Blocks
 * per SM = min(allowed, blocks / SMs rounded up) into *blocks_per_sm;
 * returns the percent of the SM's warp slots they fill (rounded down), or
 * -1 when a figure is missing (no SMs, no threads, allowed < 0). A launch of
 * one 128-thread block per SM fills 4 of 64 warp slots: 6%, however many
 * the resources would allow. */
int occupancy_of_launch(const device_facts *dev, long blocks, int threads, int allowed,
                        int *blocks_per_sm);

/* "shared memory", "registers", ...: what binds, for sentences. */
const char *occ_bound_name(enum occ_bound b);

#endif
