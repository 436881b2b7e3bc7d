/* knockout.h: a copy of a kernel's PTX in which one mechanism carries
 * different data, so that a run can show whether the results come through it.
 *
 * Invariants:
 *   - The PTX is read by the one reader (ptx.h) as statements: every
 *     instruction of a line of several (inline assembly) and of a braced
 *     block is rewritten as if it stood alone, and the result keeps the
 *     blocks and their local registers.
 *   - The rewrite only redirects or adds: every instruction of the
 *     original stays, in order, so the knocked kernel computes exactly what
 *     the original does except that the mechanism's global source addresses
 *     are moved by `delta` bytes (to a second input set laid out like the
 *     first), a store to shared memory stores its value as loaded from that
 *     set (KNOCK_SHARED), and the added instructions only write counters
 *     and markers outside both sets.
 *   - A copy that never runs, or that moves only a token element, changes
 *     nothing or almost nothing in the output: the run-time judgement
 *     (knockout_run.c) then sees the old results.
 *   - New registers are named %ko... and declared at the top of every
 *     function body; the result assembles with ptxas when the input did
 *     (tests/unit/test_knockout.c checks this on every solution).
 *
 * Kinds (spec.h's enum knock_kind):
 *   KNOCK_ASYNC     every asynchronous copy's global source: cp.async.ca/.cg
 *                   and the bulk copies below (data that arrives without a
 *                   register, however it is copied)
 *   KNOCK_BULK      cp.async.bulk global->shared sources
 *   KNOCK_SHARED    every route from device memory into shared memory: the
 *                   copies above, and each st.shared of a value an ld.global
 *                   loaded (a second load from the other set is added right
 *                   after the first, and the store takes its value, so a
 *                   kernel that computes from its registers and only parks
 *                   the data in shared memory is not affected); with a span
 *                   address, each such write also counts its address range
 *   KNOCK_VECTOR    ld.global ... .v4 sources
 *   KNOCK_PREFETCH  prefetch.global.L2: kept. Each thread counts, in %kon0,
 *                   its loads that fall inside [lo, hi) (ld.global, generic
 *                   ld, and cp.async / cp.async.bulk sources); each such
 *                   load writes that count before it (red.min) into the u32
 *                   at KNOCK_LOADED_AT of its 128-byte line's place in set B
 *                   ((address & ~127) + delta), and each prefetch inside
 *                   [lo, hi) its count into KNOCK_PREFETCHED_AT: so for
 *                   every line, the earliest load and the earliest prefetch
 *                   in the threads' own order (set B starts as 0xFF bytes)
 *   KNOCK_CONST     no rewrite (knockout_run.c changes the table instead)
 */
#ifndef GRADER_KNOCKOUT_H
#define GRADER_KNOCKOUT_H

#include <stddef.h>
#include "spec.h"

/* Where the knocked kernel's data lives: delta from set A to set B, and for
 * KNOCK_PREFETCH the bounds of set A (prefetches outside it mark nothing).
 * For KNOCK_SHARED, `span` (0: none) is the address of two 32-bit counters,
 * the lowest and the highest shared-memory address data was written to (a
 * copy, or a store of a loaded value): red.min and red.max after each. */
/* KNOCK_PREFETCH's marks: per 128-byte line of set A, at its place in set
 * B, two u32 (0xFFFFFFFF: none). A prefetch runs ahead of the load it
 * serves when its count is below the line's first load's: the thread
 * issued at least one other load between the two (knockout_run.c). */
#define KNOCK_LINE 128
#define KNOCK_LOADED_AT 0
#define KNOCK_PREFETCHED_AT 4

typedef struct knock_layout {
    long long delta;
    unsigned long long lo, hi;
    unsigned long long span;
} knock_layout;

/* Rewrite `ptx` for kind `k`. Returns the new PTX (malloc'd; the caller
 * frees it) and sets *found to how many instructions were redirected or
 * marked (KNOCK_PREFETCH: the prefetches; the loads it marks too are not
 * counted, so a kernel with loads and no prefetch has nothing); returns NULL (and *found 0) when there is nothing to rewrite or
 * k is KNOCK_NONE / KNOCK_CONST. The first line of the result is a comment
 * "// knockout <kind> delta <delta> span <span>", which the host backend
 * reads. */
char *knockout_ptx(const char *ptx, enum knock_kind k, const knock_layout *L, int *found);

/* "its asynchronous copies (cp.async)", ...: what carries the data, for
 * messages. */
const char *knock_name(enum knock_kind k);

#endif
