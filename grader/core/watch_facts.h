/* watch_facts.h: what the PTX simulator saw a kernel do with its data
 * (issue 28: mechanisms judged by watching the data).
 *
 * Invariants: every figure is measured on one simulated launch (the timed
 * launch's sizes, grid, knobs and inputs where there is a GPU; the largest
 * sim size where there is none), over the blocks that launch ran (all, or
 * a sample: blocks_run of blocks_total). "Input bytes" are bytes a thread
 * brought into the SM from global or constant memory, each counted once per
 * block and per instruction that brought it (sixteen threads reading one
 * tile element with one load are one element the block computes with): a
 * direct load's where it loads, a cp.async's or bulk copy's where an
 * ld.shared first reads them. "Live" ones are those whose values reached,
 * through registers (arithmetic, selects, shuffles), shared and local
 * memory, a value or an address the kernel stored or sent to an atomic in
 * global memory (control flow alone does not count). A figure that does
 * not apply (no shared memory read, no prefetch) is negative.
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
                                     memory before use: the live cp.async and bulk bytes
                                     (counted at their first ld.shared already), plus the
                                     bytes a thread stored there from a direct load's
                                     value, counted at their first ld.shared against the
                                     reading site (not again as input: the load counted
                                     them); capped at 100; -1: none staged */
    double wait_fetches;          /* median, over live bytes at their first read from
                                     shared memory, of the iterations they waited there:
                                     their writer's uses (ld.shared instructions that
                                     first read input bytes, one per element its loop
                                     consumes) between the write and the read. A ring of
                                     distance PDIST waits PDIST - 1 however the loop is
                                     unrolled and however many slots one copy fills (the
                                     name is kept from an earlier count); -1: none read */
    double smem_live_pct;         /* % of the block's shared memory (static + dynamic)
                                     read at least once while carrying live input bytes;
                                     -1: no shared memory */
    double prefetch_served_pct;   /* % of the 128-byte lines of live global loads and
                                     copies (one per lane and load) that an earlier
                                     prefetch.global.L2 of the block had asked for; -1:
                                     no prefetch ran */
    double prefetch_lead;         /* median, over those served, of the loading thread's
                                     fetches minus the prefetching thread's when it
                                     prefetched; -1: none served */
    double live_uniform_bytes;    /* live global-load bytes read by every lane of the
                                     warp at one address (what the constant cache
                                     broadcasts): the table's reads not by WP_CONST */
} watch_facts;

#endif
