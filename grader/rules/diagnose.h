/* diagnose.h: patterns the course knows, read from what the compiler made
 * of the student's kernel, so a message can name the cause and its fix
 * instead of giving general advice.
 *
 * Each pattern is found in the PTX only where it is unambiguous (the CPU
 * suite runs every finder on real NVRTC PTX of kernels with and without
 * it, and on every solution of the course: a solution never shows one):
 *   DIAG_COPY_OF_LOAD     a loop copies a register that a global load in the
 *                         same loop fills: a ring kept as a shift register
 *                         (r[k] = r[k+1]); the copy waits for the load, so
 *                         the prefetch stops hiding anything (lesson 7);
 *   DIAG_WAIT_DEPTH_SWITCH  one loop waits on cp.async groups at several
 *                         depths: libcu++'s pipe.consumer_wait() picks the
 *                         depth at run time through a switch (lesson 9);
 *   DIAG_MBARRIER_WAIT    the kernel waits on an mbarrier phase: a hang is
 *                         then most likely a phase that never completes
 *                         (lesson 12);
 *   DIAG_L2_PREFETCH_IN_STEP  a loop prefetches into L2 a constant distance
 *                         ahead of its load but less than the load's step
 *                         per iteration: chunk[i + L2DIST] where
 *                         chunk[i + L2DIST * BLOCKDIMX] was meant (lesson
 *                         11). Addresses are compared as linear forms of
 *                         the registers they are built from; where they
 *                         cannot be, nothing is said;
 *   DIAG_L2_PREFETCH_BEFORE_WAIT  a loop prefetches into L2 before its
 *                         first cp.async.wait_group, counted from the loop's
 *                         head: the prefetch is placed ahead of the wait of
 *                         the same iteration (lesson 11b). ptxas then moved
 *                         the ring's refill below the work (SASS), 1.34x-
 *                         1.39x against 1.60x-1.65x on an H200; a prefetch
 *                         at the end of the body, before the next
 *                         iteration's wait, costs nothing
 *                         (grader/calibration/h200-2026-11-29);
 *   DIAG_THREAD_MAJOR_RING  a loop reads shared memory at addresses an even
 *                         number of elements apart from thread to thread
 *                         (threadIdx.x's coefficient in the address): a
 *                         thread-major ring whose reads conflict on the
 *                         banks (lessons 10 and 11; lessons 8, 9 and 12's
 *                         stub keep theirs thread-major on purpose).
 * What is shown: diagnose_hints for a correct but slow (or mechanism-
 * failing) kernel, before the exercise's own hint; diagnose_hang for a
 * launch that does not finish. */
#ifndef GRADER_DIAGNOSE_H
#define GRADER_DIAGNOSE_H

#include <stddef.h>
#include "spec.h"

enum diag {
    DIAG_COPY_OF_LOAD = 1u << 0,
    DIAG_WAIT_DEPTH_SWITCH = 1u << 1,
    DIAG_MBARRIER_WAIT = 1u << 2,
    DIAG_L2_PREFETCH_IN_STEP = 1u << 3,
    DIAG_L2_PREFETCH_BEFORE_WAIT = 1u << 4,
    DIAG_THREAD_MAJOR_RING = 1u << 5,
};

/* The patterns (enum diag bits) in `ptx`; 0 for none or no PTX. */
unsigned diagnose_ptx(const char *ptx);

/* The patterns of diagnose_ptx that mean something for exercise `ex`: a
 * register copied from a pending load is a fault only in a prefetch ring
 * (lessons 5-12); elsewhere (lesson 15's softmax, say) `v = ok ? x[j] :
 * -inf` compiles to the same copy and costs nothing. What grading uses. */
unsigned diagnose_exercise(const exercise *ex, const char *ptx);

/* A pattern's name for tools ("copy_of_pending_load", ...); NULL for a
 * value that is not one pattern's bit. */
const char *diagnose_name(unsigned diag);

/* Up to `max` paragraphs, one per pattern in `diags` that explains a slow
 * kernel: what the compiler shows, why it costs, the fix, the lesson's
 * section. Returns how many. */
int diagnose_hints(unsigned diags, const char **out, int max);

/* What to say about a launch that did not finish, given the patterns: the
 * mbarrier phase for a kernel that waits on one, else loops and
 * __syncthreads(). One or two sentences. */
const char *diagnose_hang(unsigned diags);

/* The report's "Try:" line for such a hang (a format with one %d, the
 * lesson), or NULL to keep the general one. */
const char *diagnose_hang_try(unsigned diags);

#endif
