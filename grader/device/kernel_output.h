/* kernel_output.h: what the student's kernel prints (printf, a failed
 * assert), caught in the grading child.
 *
 * Device printf reaches the process's stdout, and a failed assert's line its
 * stderr, when the host synchronises with the GPU; host-backend kernels
 * print directly. The child points both descriptors at files of its own:
 *   - around the student's FIRST correctness launch and the synchronisation
 *     after it: the report shows that output, bounded (first lines, and how
 *     much was cut);
 *   - from then on: a sink that is emptied before each launch once it grows,
 *     so the timed launches' output is never shown and never fills a disk,
 *     but a failed assert's line is still there to be read.
 * Only the child calls these; the parent's descriptors are never touched. */
#ifndef GRADER_KERNEL_OUTPUT_H
#define GRADER_KERNEL_OUTPUT_H

#include <stddef.h>
#include "result.h"

/* Lines and bytes of the first launch's output the report shows at most. */
#define KOUT_SHOW_LINES 20

/* Before the student's first correctness launch: stdout and stderr go to
 * the capture from now on. Returns 0, or -1 when no capture file could be
 * made (then output goes where it went, and nothing is shown). */
int kout_first_begin(void);

/* After that launch and a synchronisation: keep what it printed in r
 * (printed, printed_lines, printed_bytes); send later output to the sink
 * with `keep_catching`, else back where it went before (under
 * compute-sanitizer, SANITIZE=1, whose reports must reach the student). */
void kout_first_end(result *r, int keep_catching);

/* Before every launch: empty the sink when it has grown past a bound
 * (its lines are counted first, for kout_lines). */
void kout_trim(void);

/* Every line the kernels have printed so far that has reached the
 * process (on a GPU: up to the last synchronisation): the first launch's
 * and the sink's, emptied or not. 0 before the first launch's capture. */
long kout_lines(void);

/* A failed assert's own line, as CUDA prints it ("file:line: function:
 * block: [..], thread: [..] Assertion `cond` failed."), turned into
 * "assert(cond) failed at file:line (function; block [..], thread [..])".
 * 1 and the text in buf when one was printed, or else when the PTX told
 * (kout_know_asserts); 0 when neither did. */
int kout_assertion(char *buf, size_t len);

/* What the student's PTX says of its asserts, kept for kout_assertion when
 * CUDA printed no line (one assert: its condition, file and line; several:
 * all of them). Called after compiling; NULL forgets. */
void kout_know_asserts(const char *ptx);

/* The pure part, for tests: every __assertfail call of NVRTC's PTX as
 * "assert(cond) at file:line", joined by "; " into buf; returns how many. */
int kout_describe_asserts(const char *ptx, char *buf, size_t len);

/* The pure part, for tests: find the assertion line in `text`. */
int kout_parse_assertion(const char *text, char *buf, size_t len);

/* The pure part, for tests: the first KOUT_SHOW_LINES lines of `text` (n
 * bytes), control characters made visible, into r. */
void kout_keep(const char *text, size_t n, result *r);

#endif
