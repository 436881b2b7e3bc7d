/* resource_limits.h: a kernel that needs more of a resource than any launch
 * may have, said with the resource, the amount and the limit.
 *
 * ptxas refuses too much static shared memory or __constant__ data without a
 * word in NVRTC's log (only its -v info lines remain), so the amounts are
 * read from the ptxas report and the PTX, which NVRTC still returns. Local
 * memory over the per-thread limit compiles but can never launch; it is
 * caught here too, before anything runs. Register pressure never fails a
 * compile (ptxas spills instead); a block too large for the registers fails
 * at launch, which the GPU side reports. */
#ifndef GRADER_RESOURCE_LIMITS_H
#define GRADER_RESOURCE_LIMITS_H

#include <stddef.h>
#include "compiled.h"

/* The limits every GPU the course supports has (compute capability 7.5 on). */
#define LIMIT_STATIC_SMEM 49152L     /* static __shared__ per block */
#define LIMIT_CONSTANT 65536L        /* __constant__ per module */
#define LIMIT_LOCAL 524288L          /* local memory per thread */

/* 1 when compiled kernel `c` (built or not; its log, PTX and resources are
 * read) needs more of a resource than the limit, with a message in `msg`
 * naming the resource, the amount and the limit; else 0. */
int resource_overflow(const compiled *c, char *msg, size_t len);

/* `bytes` for a person: "512 bytes", "48 KB", "1.1 MB" (1 KB = 1024 bytes). */
void format_bytes(long bytes, char *out, size_t len);

#endif
