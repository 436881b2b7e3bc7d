/* compiled.h: what a compile is asked (compile_job) and what it gives
 * (compiled), the types the compile layer (compile.h) shares with the rules
 * that judge its output (rules/) and the device that loads it (device.h).
 * Types only: the calls are in compile.h. */
#ifndef GRADER_COMPILED_H
#define GRADER_COMPILED_H

#include <stddef.h>
#include "result.h"
#include "spec.h"

typedef struct compiled {
    int ok;                 /* 1: PTX (and, for a native target, cubin) produced, and
                               every rule holds */
    int missing;            /* 1: file unreadable, or no such kernel in it */
    enum outcome outcome;   /* when !ok, what it means for a student's file:
                               OUT_COMPILE_ERROR, OUT_MISSING, OUT_REFUSED (a rule
                               checked before running) or OUT_RESOURCES */
    char target[16];        /* "sm_90", or "compute_120" when only PTX could be made */
    char *log;              /* NVRTC's log: errors, warnings, the ptxas report; NULL
                               when the file was refused or the compiler stopped */
    char *ptx;              /* also kept when ptxas failed, for its sizes */
    size_t ptx_size;
    char *cubin;            /* NULL when target is compute_XX */
    size_t cubin_size;
    resources res;          /* registers, stack, spills, static smem from ptxas */
    char error[1024];       /* when !ok: what went wrong, a sentence for the student */
} compiled;

/* One file to compile. */
typedef struct compile_job {
    const char *path;       /* the file to read */
    const char *name;       /* the file as the student knows it, for every message
                               (NULL: path) */
    const char *within;     /* the folder the file must really lie in, symbolic links
                               resolved (a student's file may not lead outside the
                               submission); NULL: anywhere */
    const exercise *ex;     /* its knobs become -D<knob>=<value> */
    const char *kernel;     /* the entry point the file must define */
    const int *knobs;
    int cc;                 /* compute capability to build for */
} compile_job;

/* How kernel files are compiled: compile_files's contract, or a device
 * backend's stand-in for it in the CPU tests (device.h). */
typedef void (*compile_fn)(const compile_job *jobs, int n, compiled *out);

#endif
