/* compile_child.h: a compile in a child process, with a time and a memory
 * limit, its result coming back through a pipe.
 *
 * NVRTC cannot be interrupted once nvrtcCompileProgram runs, and a runaway
 * `#pragma unroll` or a huge file can keep it busy for minutes and take
 * gigabytes; in a child it can be killed. The child also confines NVRTC
 * (compile_sandbox.h) while NVRTC runs, so the grader's own process is
 * never confined. The child must not call CUDA: the grading process that
 * forks it may hold a CUDA context, and a context does not survive fork. */
#ifndef GRADER_COMPILE_CHILD_H
#define GRADER_COMPILE_CHILD_H

#include <stddef.h>
#include <sys/types.h>
#include "fileio.h"

typedef struct compile_child {
    pid_t pid;              /* 0: never started */
    int fd;                 /* the pipe's read end; -1 once closed */
    char *out;              /* everything the child wrote (malloc'd) */
    size_t len, cap;
    int status;             /* from waitpid */
    int timed_out;          /* 1: killed at the time limit */
    int too_much;           /* 1: killed for writing more than max_out */
    size_t max_out;         /* the most output kept (256 MB from compile_child_start;
                               a test may lower it, to reach the bound cheaply) */
    char error[160];        /* why it could not be started, when pid is 0 */
} compile_child;

/* Fork a child that sets its limits (`mem_bytes` of address space on top
 * of what it inherits, CPU time a little over `limit_s`, no core file), then
 * runs body(arg, fd) with fd the pipe's write end, and exits. Returns 0, or
 * -1 with c->error set. A child that writes more than c->max_out bytes (256
 * MB, more than any PTX and cubin) is stopped. */
int compile_child_start(compile_child *c, void (*body)(void *arg, int fd), void *arg,
                        double limit_s, size_t mem_bytes);

/* Collect the output of n started children at once, killing any still
 * running `limit_s` seconds after this call. Every child is reaped. */
void compile_children_wait(compile_child *c, int n, double limit_s);

/* The timeout of one of compile_children_wait's polls, `left_s` seconds
 * (> 0) before its deadline: the whole milliseconds just past it, so the
 * poll never ends before the deadline (the round after it kills), never
 * asks for 0 (a busy loop in the last millisecond), and the kill comes at
 * most 1 ms late. */
int compile_poll_ms(double left_s);


#endif
