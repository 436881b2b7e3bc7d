/* compile.h: a kernel file through NVRTC, to PTX and machine code, with the
 * compiler's resource report. Needs no GPU.
 *
 * Every compile is checked before and after: the file may include only the
 * toolkit's headers (source_rules.h), NVRTC runs in a child process with a
 * time and memory limit that may open only the toolkit's headers
 * (compile_child.h, compile_sandbox.h), the PTX may declare no device-global
 * variable the kernel can write (ptx_rules.h), and a resource the kernel asks
 * for beyond what any launch may have is named (resource_limits.h). */
#ifndef GRADER_COMPILE_H
#define GRADER_COMPILE_H

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

/* The newest architecture NVRTC can build machine code for that a GPU of
 * compute capability `cc` runs: cc itself when supported. Writes e.g. "sm_90"
 * or "compute_120" and returns 1 for machine code, 0 for PTX only, -1 when the
 * GPU is older than every architecture NVRTC knows. */
int nvrtc_target_for(int cc, char *target, size_t len);

/* Compile `path` (read from disk; also the name compile errors show) for
 * compute capability `cc`, with -D<knob>=<value> for each of ex's knobs. The
 * file must define the entry point `kernel`. Always fills `out`; free with
 * compiled_free. For one file outside an exercise's versions (the tests,
 * tools): an exercise's files are compiled through compile_jobs.h, which
 * holds the student's file to its folder. */
void compile_file(const char *path, const exercise *ex, const char *kernel,
                  const int *knobs, int cc, compiled *out);

/* Compile n files at once, each in its own child process (so the three
 * versions of an exercise cost about the time of the slowest). Fills out[i]
 * for jobs[i], exactly as compile_file would. */
void compile_files(const compile_job *jobs, int n, compiled *out);
void compiled_free(compiled *c);

/* How kernel files are compiled: compile_files's contract, or a device
 * backend's stand-in for it in the CPU tests (device.h). */
typedef void (*compile_fn)(const compile_job *jobs, int n, compiled *out);

/* How long one compile may take (default 30 s, or $GRADER_COMPILE_TIMEOUT)
 * and how much address space it may add (default 2 GiB). A compile over the
 * time ends with OUT_COMPILE_ERROR and a message saying "did not compile
 * within" the limit. Tests set short limits. */
void compile_set_limits(double seconds, size_t bytes);
double compile_time_limit(void);

/* Pull registers, stack frame, spills and static shared memory for `kernel`
 * out of a ptxas -v report. Returns 1 when the kernel's entry was found. */
int parse_ptxas_report(const char *log, const char *kernel, resources *res);

/* The CUDA include directory given to NVRTC ($CUDA_HOME/include, else the
 * toolkit the grader was built with). */
const char *cuda_include_dir(void);

/* Every directory NVRTC searches for headers, the only ones a kernel file may
 * include from: cuda_include_dir() and its cccl/ (libcu++, CUB, Thrust), when
 * there. Returns how many (at most `max`); the strings stay valid. */
int compile_include_dirs(const char **dirs, int max);

#endif
