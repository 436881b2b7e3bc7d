/* watch_rules.h: the mechanism checks judged by what the PTX simulator saw
 * the data do (issue 28; core/watch_facts.h holds the figures).
 *
 * A check with a knock kind (spec.h) asks that its mechanism carry the
 * data, not just appear in the PTX. On a simulated launch every input byte
 * the results depend on (a live byte) is followed from where it entered the
 * SM to the output, so each kind is a rule on shares of those bytes:
 *
 *   KNOCK_ASYNC     >= 90% of the live input bytes arrived by cp.async or
 *                   bulk copies (WP_ASYNC + WP_BULK)
 *   KNOCK_BULK      >= 90% by bulk copies (WP_BULK)
 *   KNOCK_VECTOR    >= 90% of the live bytes loaded from global memory by
 *                   16-byte loads (WP_LOAD_V16 of WP_LOAD + WP_LOAD_V16)
 *   KNOCK_CONST     >= 90% of the table's live reads from the constant bank:
 *                   the table's reads are the reads every lane of a warp
 *                   makes at one address (what the constant cache
 *                   broadcasts, the lesson's point), by ld.const (WP_CONST)
 *                   or by a global load (live_uniform_bytes)
 *   KNOCK_SHARED    >= 90% of the live input bytes reached their use
 *                   through shared memory (staged_pct)
 *   KNOCK_PREFETCH  >= 50% of the live loads' lines were asked for by an
 *                   earlier prefetch.global.L2 of the block, a median of at
 *                   least 1 fetch ahead of the load they served
 * and, where the spec says so (mech_check.min_wait), the ring's residency:
 * the median live byte waited in shared memory at least min_wait(knobs)
 * iterations, counted as its writer's uses (ld.shared instructions that
 * first read input bytes, one per element its loop consumes) between the
 * write and the read: PDIST - 1 for a ring, (PDIST - 1) / 2 for lesson 6's
 * batch, (STAGES - 1) * STAGE_ITERS for lesson 12's stages; and for a check on the
 * shared memory's size (CHECK_SMEM_BYTES), its footprint: >= 50% of the
 * block's shared memory carried live data at least once.
 *
 * Why these numbers: 90% is "the data comes this way", leaving room for the
 * edges a lesson itself allows (a ring's first fill done synchronously, a
 * ragged last round or tile read directly: a few percent at the sizes
 * simulated) while a mechanism used for a token share (one element per
 * thread: 1%) or not at all fails by far. A ring must hold its values for
 * the distance the lesson sets (a slot read PDIST - 1 refills after it was
 * filled); a value stored and read back at once waits 0. Half the buffer is
 * the old knock-out rule's footprint (an asked size filled by an eighth
 * fails, padding a tenth passes). A prefetch that covers half the lines
 * ahead of their loads hides half the latency; the lesson's own skips only
 * the first L2DIST rounds (92% at the simulated size), and a prefetch at
 * distance 0 or behind its load leads by 0.
 *
 * Error rule (rules/): a rule returns 0 when it holds, nonzero when not, and
 * writes the sentence the student reads into the caller's buffer. */
#ifndef GRADER_WATCH_RULES_H
#define GRADER_WATCH_RULES_H

#include <stddef.h>
#include "spec.h"
#include "watch_facts.h"

#define WATCH_MIN_PATH_PCT 90.0    /* ASYNC, BULK, VECTOR, CONST, SHARED */
#define WATCH_MIN_SMEM_PCT 50.0    /* footprint of an asked shared size */
#define WATCH_MIN_SERVED_PCT 50.0  /* PREFETCH: lines served */
#define WATCH_MIN_LEAD 1.0         /* PREFETCH: fetches ahead */

/* Judge check `ch` (its knock kind, min_wait, and the footprint for a
 * CHECK_SMEM_BYTES) on the facts `f` of a watched launch with `knobs`.
 * Returns 0 when every rule holds, and `what` then names the figures
 * ("100% of the live input bytes arrived by cp.async or bulk copies; values
 * waited 7 iterations in shared memory (at least PDIST - 1 = 7)"); 1 when one
 * fails, and `what` is a clause saying which, with the measured figure, to
 * follow "Your kernel compiles, but". A check without a knock kind holds
 * with `what` empty. */
int watch_rule(const mech_check *ch, const int *knobs, const watch_facts *f, char *what,
               size_t len);

/* The share (percent, 0 when nothing counted) the kind's rule measures;
 * -1 for KNOCK_NONE and KNOCK_PREFETCH (its figures are the facts' own). */
double watch_path_pct(enum knock_kind k, const watch_facts *f);

#endif
