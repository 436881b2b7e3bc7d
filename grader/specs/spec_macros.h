/* spec_macros.h: how a spec file writes its mechanism checks, so that each
 * row of an exercise's .checks table says what it checks by name.
 *
 * Invariants:
 * - Each macro expands to a named initializer of grader/spec.h's
 *   mech_check; the fields a macro does not name are zero (text NULL,
 *   value 0, expect NULL, knock KNOCK_NONE), as the positional rows were.
 * - A .checks table ends at its first CHECK_NONE row: CHECKS_END, or the
 *   zeroed rows after the last one written.
 * - For spec files only (grader/specs/lessonN.c): the names are short
 *   because a table of them should read like one. grader/device's
 *   launch_limits.h has an object-like MAX_LOCAL_BYTES, so the two must
 *   never meet in one file (the #error below says so if they do).
 *
 * Knobs need no macro: write them with named fields, indexed by the
 * lesson's knob enum so that build functions read knobs[K_NAME]:
 *     [K_TILE] = { .name = "TILE", .def = 16, .min = 8, .max = 32,
 *                  .power_of_two = 1, .what = "..." },
 */
#ifndef SPEC_MACROS_H
#define SPEC_MACROS_H

#include "../spec.h"

#ifdef MAX_LOCAL_BYTES
#error "spec_macros.h and launch_limits.h both define MAX_LOCAL_BYTES"
#endif

/* The PTX contains `text_`; knock_ (KNOCK_NONE or a knock_kind) says how a
 * GPU run shows the instruction is on the data path. */
#define PTX_HAS(text_, knock_, why_) \
    { .kind = CHECK_PTX_HAS, .text = (text_), .knock = (knock_), .why = (why_) }

/* The PTX does not contain `text_`. */
#define PTX_LACKS(text_, why_) \
    { .kind = CHECK_PTX_LACKS, .text = (text_), .why = (why_) }

/* One global load instruction of the PTX brings n_ bytes per thread or more
 * (ld.global.v4.f32: 16); the student reads the width the PTX has. */
#define MIN_LOAD_BYTES(n_, knock_, why_) \
    { .kind = CHECK_MIN_LOAD_BYTES, .value = (n_), .knock = (knock_), .why = (why_) }

/* Registers per thread <= n_. */
#define MAX_REGS(n_, why_) \
    { .kind = CHECK_MAX_REGS, .value = (n_), .why = (why_) }

/* Stack frame + spills <= n_ bytes. */
#define MAX_LOCAL_BYTES(n_, why_) \
    { .kind = CHECK_MAX_LOCAL_BYTES, .value = (n_), .why = (why_) }

/* Static + dynamic shared memory == fn_(knobs) bytes. */
#define SMEM_BYTES(fn_, knock_, why_) \
    { .kind = CHECK_SMEM_BYTES, .expect = (fn_), .knock = (knock_), .why = (why_) }

/* As PTX_HAS and SMEM_BYTES, for a ring or a batch in shared memory: the
 * values must also wait there at least wait_(knobs) iterations, the rule said
 * as wait_what_ ("PDIST - 1"; rules/watch_rules.h). */
#define PTX_HAS_RING(text_, knock_, wait_, wait_what_, why_) \
    { .kind = CHECK_PTX_HAS, .text = (text_), .knock = (knock_), .min_wait = (wait_), \
      .min_wait_what = (wait_what_), .why = (why_) }
#define SMEM_BYTES_RING(fn_, knock_, wait_, wait_what_, why_) \
    { .kind = CHECK_SMEM_BYTES, .expect = (fn_), .knock = (knock_), .min_wait = (wait_), \
      .min_wait_what = (wait_what_), .why = (why_) }

/* Theoretical occupancy >= pct_ percent; needs a GPU. */
#define MIN_OCCUPANCY(pct_, why_) \
    { .kind = CHECK_MIN_OCCUPANCY, .value = (pct_), .why = (why_) }

/* The end of a .checks table written before MAX_CHECKS rows. */
#define CHECKS_END { .kind = CHECK_NONE }

#endif
