/* source_rules.h: what a kernel file may include, checked on its text before
 * NVRTC sees it.
 *
 * A kernel file may include the CUDA toolkit's headers (cuda_pipeline.h,
 * cooperative_groups.h, cuda/pipeline, cuda/barrier, cuda/std/...), the
 * grader's own <cstdio>, <stdio.h>, <cassert> and <assert.h> (shim_headers.h:
 * printf and assert, given to NVRTC in memory), and nothing else: no absolute path, no "..", no file of the student's or the
 * course's, no #include whose name comes from a macro, and no directive that
 * names or reads another file (#include_next, #line, #embed, #import, ...).
 * The grader compiles the file on its own and must never show another file's
 * text in a report. This scan gives the student a clear message with a line
 * number; compile_sandbox.c is what guarantees it, whatever the scan misses. */
#ifndef GRADER_SOURCE_RULES_H
#define GRADER_SOURCE_RULES_H

#include <stddef.h>

/* Scan `src` (NUL-terminated, as NVRTC reads it) for includes and directives.
 * `name` is the file as the student knows it (for the message); `dirs` are
 * the `ndirs` include directories NVRTC searches. Returns 0 when every rule
 * holds; else -1, with one message in `msg` that names the line, contains
 * "may include only" and says why. */
int source_rules_check(const char *src, const char *name, const char *const *dirs, int ndirs,
                       char *msg, size_t len);

#endif
