/* nvrtc_compile.h: the compile child's side of compile.c (internal). */
#ifndef GRADER_NVRTC_COMPILE_H
#define GRADER_NVRTC_COMPILE_H

#include "compiled.h"

#define MAX_INCLUDE_DIRS 4

/* What one compile child is given. */
typedef struct child_task {
    const char *src;
    const compile_job *job;
    int native;
    compiled c;             /* target set by the parent */
} child_task;

/* Start NVRTC up once in this process (about 30 ms: it loads its built-in
 * headers), so every compile child forked afterwards inherits it ready
 * instead of paying for it again. NVRTC leaves no thread behind, so the
 * state forks safely. */
void nvrtc_warm_up(void);

/* The compile child's work: confine itself to the toolkit's headers, run
 * NVRTC on task->src and write the result to fd. `arg` is a child_task. */
void nvrtc_child_body(void *arg, int fd);

/* Rebuild `out` from the `len` bytes a child wrote; `refused` gets the first
 * file the sandbox kept NVRTC from opening ("" if none). -1 when the bytes
 * are not a whole result. */
int nvrtc_unpack(const char *buf, size_t len, compiled *out, char *refused, size_t rlen);

#endif
