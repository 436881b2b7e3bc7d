/* watch_facts.h: what the PTX simulator saw a kernel do with its data
 * (issue 28: mechanisms judged by watching the data).
 *
 * Invariants: every figure is measured on one simulated launch (the timed
 * launch's sizes, grid, knobs and inputs where there is a GPU; the largest
 * sim size where there is none), over the blocks that launch ran (all, or
 * a sample: blocks_run of blocks_total). "Input bytes" are bytes a thread
 * brought into the SM from global or constant memory; "live" ones are those
 * whose values reached, through registers and shared memory, a value the
 * kernel stored to global memory. A figure that does not apply (no shared
 * memory read, no prefetch) is negative.
 *
 * Layering: a plain struct of numbers, in core/ so that sim/ (via
 * device/device_sim.c), grade/, rules/ and report/ all read it without any
 * of them calling another. The simulator fills it (sim.h's watch), the
 * mechanism rules judge it (rules/), the report prints it. */
#ifndef GRADER_WATCH_FACTS_H
#define GRADER_WATCH_FACTS_H

/* The path by which input bytes came into the SM. One prefix: WP_. */
enum watch_path {
    WP_LOAD,        /* a global load narrower than 16 bytes per thread */
    WP_LOAD_V16,    /* a 16-byte global load (ld.global.v4.f32, .v2.f64, ...) */
    WP_ASYNC,       /* cp.async.ca / .cg into shared memory */
    WP_BULK,        /* cp.async.bulk into shared memory */
    WP_CONST,       /* ld.const: the constant bank */
    WP_N
};

typedef struct watch_facts {
    int watched;                  /* 1 when a simulated launch filled the rest */
    unsigned blocks_run;          /* blocks the launch ran ... */
    unsigned blocks_total;        /* ... of its grid */
    double live_bytes[WP_N];      /* live input bytes, by path */
    double dead_bytes[WP_N];      /* input bytes brought that no output depends on */
    double staged_pct;            /* % of live input bytes that were read from shared
                                     memory (copied there by cp.async, a bulk copy, or
                                     stored by a thread) before use; -1: none staged */
    double wait_fetches;          /* median, over live bytes read from shared memory, of
                                     the reading thread's own fetches (loads and copies it
                                     issued) between the bytes' arrival and the read */
    double smem_live_pct;         /* % of the block's shared memory that carried live
                                     input bytes at least once; -1: no shared memory */
    double prefetch_served_pct;   /* % of the lines of live global loads that an earlier
                                     prefetch.global.L2 of the same thread covered; -1:
                                     no prefetch ran */
    double prefetch_lead;         /* median fetches between such a prefetch and the
                                     load it served */
    double live_uniform_bytes;    /* live global-load bytes read by every lane of the
                                     warp at one address (what the constant cache
                                     broadcasts): the table's reads not by WP_CONST */
} watch_facts;

#endif
