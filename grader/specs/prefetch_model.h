/* prefetch_model.h: the problem shared by lessons 5 to 10 (prefetching).
 *
 * Every kernel of these lessons runs the same model loop: block b owns a
 * contiguous chunk of `imax` doubles (elements b*imax .. b*imax + imax - 1)
 * and thread t of the block visits chunk elements t, t + BLOCKDIMX,
 * t + 2*BLOCKDIMX, ..., adding exp(x) of each to its own sum, which it writes
 * to out[b*BLOCKDIMX + t]. The kernels take (arr, out, imax).
 *
 * The launch is deliberately thin: BLOCKS_PER_SM blocks of BLOCKDIMX threads
 * per SM (one block of 128 threads by default), so each SM has only a few
 * warps to switch between while a load is outstanding. That makes the plain
 * loop latency-bound, far from the copy bandwidth: the situation in which
 * prefetching pays.
 *
 * Sizes: imax is a multiple of BLOCKDIMX * lcm(4, PDIST), so every thread
 * runs the same number of iterations, and that number is a multiple of 4 (the
 * batch of lesson 5) and of PDIST (batches and unrolled rings of lessons 6 and
 * 7). `size` asks for a total number of elements; the instance rounds it down
 * to those multiples, and never below one multiple.
 *
 * The expected sums are computed in the kernel's order. To keep the CPU cost
 * of the large timing instance low, the inputs are drawn from a table of
 * 65536 random values whose exp() is computed once; the kernel cannot tell
 * and still reads every element from device memory. */
#ifndef PREFETCH_MODEL_H
#define PREFETCH_MODEL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "../spec.h"

#define PM_TABLE 65536
/* Total elements of the timing instance: 256 MiB of doubles, five times the
 * 50 MB L2 of an H100. The baseline takes about a millisecond at one block per
 * SM; the fastest variants a few tenths. Building it takes a fraction of a
 * second of arithmetic on one core; most of the cost is the operating system
 * handing over the 256 MiB of fresh pages. */
#define PM_TIME_SIZE ((size_t)32 << 20)
/* Correctness sizes: the smallest instance (every thread runs the minimum
 * number of iterations, so rolling prefetches never refill), and two more. */
#define PM_CHECK_SIZES {1, 2000000, 6000000, 0}

static inline long pm_gcd(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The multiple every thread's iteration count must be: lcm(4, pdist). */
static inline long pm_iter_multiple(int pdist)
{
    if (pdist < 1)
        pdist = 1;
    return 4L * pdist / pm_gcd(4, pdist);
}

/* splitmix64, seeded from the instance so a printed seed replays the run. */
static inline uint64_t pm_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline void prefetch_model_build(instance *I, size_t size, int blockdimx, int pdist,
                                        int blocks_per_sm, const device_facts *dev)
{
    const unsigned grid = (unsigned)(dev->sm_count * blocks_per_sm);
    const size_t threads = (size_t)grid * blockdimx;
    const long m = pm_iter_multiple(pdist);
    size_t iters = size / threads;
    iters -= iters % (size_t)m;
    if (iters < (size_t)m)
        iters = (size_t)m;
    const int imax = (int)(iters * (size_t)blockdimx);
    const size_t n = (size_t)grid * (size_t)imax;

    double *arr = inst_input(I, n, ELEM_F64);
    double *want = inst_output(I, threads, ELEM_F64);
    inst_arg_int(I, imax);
    inst_launch(I, grid, 1, 1, (unsigned)blockdimx, 1, 1, 0);
    inst_bytes_moved(I, 8.0 * (double)n + 8.0 * (double)threads);

    static double xs[PM_TABLE], fx[PM_TABLE];
    for (int k = 0; k < PM_TABLE; k++) {
        xs[k] = inst_uniform(I, -1.0, 1.0);
        fx[k] = exp(xs[k]);
    }
    uint64_t s = inst_u32(I);
    s = (s << 32) | inst_u32(I);   /* two statements: a defined order */

    /* Element i of a chunk belongs to thread i % blockdimx, and a thread's
     * elements come in increasing i: summing in this order is the kernel's. */
    for (unsigned b = 0; b < grid; b++) {
        double *acc = want + (size_t)b * blockdimx;
        double *x = arr + (size_t)b * imax;
        for (int t = 0; t < blockdimx; t++)
            acc[t] = 0.0;
        /* imax and blockdimx are multiples of 4: four elements per draw. */
        for (int i = 0, t = 0; i < imax; i += 4, t += 4) {
            if (t == blockdimx)
                t = 0;
            uint64_t r = pm_next(&s);
            for (int j = 0; j < 4; j++, r >>= 16) {
                unsigned k = (unsigned)(r & (PM_TABLE - 1));
                x[i + j] = xs[k];
                acc[t + j] += fx[k];
            }
        }
    }
}

/* The stress instance of the asynchronous rings (lesson 9, lesson 10 and
 * any later exercise whose refills are cp.async copies): the correctness
 * size PM_STRESS_SIZE is launched with at least PM_STRESS_BLOCKS_PER_SM
 * blocks per SM, whatever BLOCKS_PER_SM says.
 *
 * Why: a ring whose waits do not cover the slot it reads is wrong only when
 * a copy lands later than the read, and with one block of 128 threads per
 * SM the copies nearly always land in time. Measured on the H100
 * (2026-11-23, grader/calibration/h100-2026-11-23-b/race/): the source
 * blog's ring, __pipeline_commit() only when a copy was issued, at PDIST 8
 * was wrong in 9 of 1000 launches at 6M elements and 16 of 1000 at 32M with
 * 1 block per SM, and passed 15 of 20 normal gradings; at 4 blocks per SM it
 * was wrong in 1000 of 1000 launches at 2M, 6M and 32M. At PDIST 2 and 4
 * (1 block per SM) it was wrong in 1000 of 1000 from 6M on; at 16 blocks
 * per SM, in every launch at 6M (378 of 378) but none at 2M; at PDIST 16
 * never, since CUDA 13.0's header clamps waits above 7 to 8. A wait one
 * batch short (__pipeline_wait_prior(PDIST)) was wrong in every launch from
 * 2M on at any of these settings. The reference solution was never wrong
 * (PDIST 2 at 16 blocks per SM, about 500 launches at each size).
 *
 * So 6M elements at 4 blocks per SM replaces the plain 6M check: the same
 * elements and the same cost, and it catches the race in every grading.
 * (BLOCKS_PER_SM only sizes the grid; no kernel of the course uses it in
 * its code, so a kernel is the same program at any grid.) */
#define PM_STRESS_SIZE ((size_t)6000000)
#define PM_STRESS_BLOCKS_PER_SM 4
#define PM_RING_CHECK_SIZES {1, 2000000, PM_STRESS_SIZE, 0}
/* On the PTX simulator (no GPU): ragged sizes over the whole grid (one
 * block per SM and more), a few seconds on one core. */
#define PM_SIM_SIZES {1, 4099, 2000000, 0}

/* prefetch_model_build, with the stress instance of the asynchronous rings
 * at PM_STRESS_SIZE. */
static inline void prefetch_ring_build(instance *I, size_t size, int blockdimx, int pdist,
                                       int blocks_per_sm, const device_facts *dev)
{
    if (size == PM_STRESS_SIZE && blocks_per_sm < PM_STRESS_BLOCKS_PER_SM) {
        inst_note(I, "At this size the grader launches %d blocks per SM (%d blocks), not "
                  "BLOCKS_PER_SM=%d: with more copies in flight per SM they land later, so a "
                  "ring that reads a slot before waiting for its copy (one "
                  "__pipeline_commit() per iteration, always, and __pipeline_wait_prior("
                  "PDIST - 1)) gives wrong sums here. Reproduce with BLOCKS_PER_SM=%d and "
                  "the SEED below; make check ... SANITIZE=race names the line.",
                  PM_STRESS_BLOCKS_PER_SM, dev->sm_count * PM_STRESS_BLOCKS_PER_SM,
                  blocks_per_sm, PM_STRESS_BLOCKS_PER_SM);
        blocks_per_sm = PM_STRESS_BLOCKS_PER_SM;
    }
    prefetch_model_build(I, size, blockdimx, pdist, blocks_per_sm, dev);
}

/* Knobs shared by the prefetch lessons, as named initializers. */
#define PM_KNOB_BLOCKDIMX                                                              \
    { .name = "BLOCKDIMX", .def = 128, .min = 32, .max = 256, .power_of_two = 1,       \
      .what = "threads per block (blockDim.x), a compile-time constant" }
#define PM_KNOB_PDIST                                                                  \
    { .name = "PDIST", .def = 8, .min = 1, .max = 16,                                  \
      .what = "prefetch distance: elements each thread has in flight or buffered" }
#define PM_KNOB_BLOCKS_PER_SM(def_)                                                    \
    { .name = "BLOCKS_PER_SM", .def = (def_), .min = 1, .max = 16,                    \
      .what = "blocks launched per SM (grid = SMs x this)" }
/* NVIDIA (2022) pad every shared-memory variant: thread t's slot k is
 * buf[k + (PDIST + PADDING) * t]. Lessons 6 and 8 default to 0 (their text
 * is about the buffer, lesson 10 about its banks); 10a defaults to 1. */
#define PM_KNOB_PADDING(def_)                                                          \
    { .name = "PADDING", .def = (def_), .min = 0, .max = 16,                          \
      .what = "unused doubles after each thread's PDIST slots" }

/* Where the shared smem_* functions below read their knobs. A spec that
 * uses pm_smem_pdist_blockdimx puts BLOCKDIMX and PDIST first (its own knob
 * enum asserts it); one that uses pm_smem_padded_last has exactly this
 * layout (lessons 6 and 8, which index their knobs with it). */
enum pm_knob { PM_K_BLOCKDIMX, PM_K_PDIST, PM_K_BLOCKS_PER_SM, PM_K_PADDING };

/* Shared memory of the plain thread-major or index-major buffer. */
static inline long pm_smem_pdist_blockdimx(const int *knobs)
{
    return 8L * knobs[PM_K_BLOCKDIMX] * knobs[PM_K_PDIST];
}

/* How long a value waits in shared memory, in iterations (the data watch's
 * residency rule, rules/watch_rules.h), for specs with PDIST second
 * (PM_K_PDIST). A ring (lessons 8-11) refills a slot with the element
 * PDIST iterations ahead and reads it PDIST - 1 iterations later: that
 * is the distance the lessons teach. A batch (lesson 6) loads PDIST values,
 * then uses them: the k-th waits PDIST - 1 - k, the median (PDIST - 1) / 2. */
static inline long pm_wait_ring(const int *knobs) { return knobs[PM_K_PDIST] - 1; }
static inline long pm_wait_batch(const int *knobs) { return (knobs[PM_K_PDIST] - 1) / 2; }

/* Shared memory of a padded thread-major buffer, for specs whose knobs are
 * BLOCKDIMX, PDIST, BLOCKS_PER_SM, PADDING (lessons 6 and 8). */
static inline long pm_smem_padded_last(const int *knobs)
{
    return 8L * knobs[PM_K_BLOCKDIMX] * (knobs[PM_K_PDIST] + knobs[PM_K_PADDING]);
}

/* What lessons 6 and 8 share: the knobs of a buffer in shared memory that
 * lesson 10 may pad (enum pm_knob's layout), and the build that reads them. */
#define PM_KNOBS_PADDED_BUFFER                                                  \
    {                                                                         \
        [PM_K_BLOCKDIMX] = PM_KNOB_BLOCKDIMX,                                 \
        [PM_K_PDIST] = PM_KNOB_PDIST,                                         \
        [PM_K_BLOCKS_PER_SM] = PM_KNOB_BLOCKS_PER_SM(1),                      \
        [PM_K_PADDING] = PM_KNOB_PADDING(0),                                  \
    }

static inline void pm_build_padded_buffer(instance *I, size_t size, const int *knobs,
                                          const device_facts *dev)
{
    prefetch_model_build(I, size, knobs[PM_K_BLOCKDIMX], knobs[PM_K_PDIST],
                         knobs[PM_K_BLOCKS_PER_SM], dev);
}

#endif
