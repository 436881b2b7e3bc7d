/* shim_headers.h: the four C library headers a kernel file may include
 * although the CUDA toolkit ships none of them: <cstdio>, <stdio.h>,
 * <cassert> and <assert.h>, for printf and assert, the first tools a CUDA
 * student reaches for.
 *
 * NVRTC already declares printf and __assertfail and defines assert itself
 * (libnvrtc-builtins, CUDA 13.0); what it lacks are the header files, so
 * `#include <cstdio>` fails with "cannot open source file". The grader hands
 * NVRTC these headers in memory (nvrtcCreateProgram's headers), so no file
 * is read for them: the include rule (source_rules.c) lets exactly these
 * names through, and the sandbox (compile_sandbox.c) still opens nothing
 * outside the toolkit. Their text only re-declares what NVRTC has:
 *   <cstdio>, <stdio.h>    printf (and std::printf for <cstdio>);
 *   <cassert>, <assert.h>  assert, redefined on each include from NDEBUG as
 *                          the C standard says (NVRTC's own assert looks at
 *                          NDEBUG once, before the student's file). */
#ifndef GRADER_SHIM_HEADERS_H
#define GRADER_SHIM_HEADERS_H

/* How many shim headers there are; *names and *sources point at that many
 * include names and texts, as nvrtcCreateProgram takes them. */
int shim_headers(const char *const **sources, const char *const **names);

/* 1 when `hdr` (as written between <> or "") is one of the shim headers. */
int shim_header_is(const char *hdr);

#endif
