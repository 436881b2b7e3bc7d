/* compile_sandbox.h: while NVRTC compiles a student's file, it may open only
 * files inside the CUDA toolkit's include directories.
 *
 * source_rules.c refuses every include form we know of, with a message; this
 * is the guarantee behind it. NVRTC reads headers through the C library's
 * open and fopen; the grader defines those functions itself (the dynamic
 * linker then binds NVRTC's calls to them), forwards every call unchanged
 * until sandbox_enter, and afterwards refuses to open anything else: a
 * refused open fails with ENOENT, and the path is kept so the compile can be
 * refused. sandbox_enter is for the compile child only (compile.c): the child
 * stays confined until NVRTC is done and exits right after. */
#ifndef GRADER_COMPILE_SANDBOX_H
#define GRADER_COMPILE_SANDBOX_H

/* From now on, this process may open only regular files under `dirs` (after
 * resolving symbolic links and ".."), for reading. Returns 0, or -1 when no
 * directory could be resolved (then nothing may be opened at all). */
int sandbox_enter(const char *const *dirs, int ndirs);

/* The compile is over: from now on this process may open anything again.
 * The compile child calls it after sending its result, just before it exits,
 * when nothing is opened for NVRTC any more: an instrumented build (gcc
 * --coverage, as make mutate's coverage run) can then write its counts
 * there. A test that entered the sandbox in a child of its own does the same. */
void sandbox_leave(void);

/* The first path the sandbox refused to open, or NULL. */
const char *sandbox_refused(void);

/* 1 when this binary's open and fopen are the sandbox's (always, once
 * compile_sandbox.o is linked); a test can check that the guard is there. */
int sandbox_linked(void);

#endif
