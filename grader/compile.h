/* compile.h: a kernel file through NVRTC, to PTX and machine code, with the
 * compiler's resource report. Needs no GPU. */
#ifndef GRADER_COMPILE_H
#define GRADER_COMPILE_H

#include <stddef.h>
#include "result.h"
#include "spec.h"

typedef struct compiled {
    int ok;                 /* 1: PTX (and, for a native target, cubin) produced */
    int missing;            /* 1: file unreadable, or no such kernel in it */
    char target[16];        /* "sm_90", or "compute_120" when only PTX could be made */
    char *log;              /* NVRTC's log: errors, warnings, the ptxas report */
    char *ptx;
    size_t ptx_size;
    char *cubin;            /* NULL when target is compute_XX */
    size_t cubin_size;
    resources res;          /* registers, stack, spills, static smem from ptxas */
    char error[512];        /* what went wrong, when !ok */
} compiled;

/* The newest architecture NVRTC can build machine code for that a GPU of
 * compute capability `cc` runs: cc itself when supported. Writes e.g. "sm_90"
 * or "compute_120" and returns 1 for machine code, 0 for PTX only, -1 when the
 * GPU is older than every architecture NVRTC knows. */
int nvrtc_target_for(int cc, char *target, size_t len);

/* Compile `path` (read from disk; also the name compile errors show) for
 * compute capability `cc`, with -D<knob>=<value> for each of ex's knobs. The
 * file must define the entry point `kernel`. Always fills `out`; free with
 * compiled_free. */
void compile_file(const char *path, const exercise *ex, const char *kernel,
                  const int *knobs, int cc, compiled *out);
void compiled_free(compiled *c);

/* Pull registers, stack frame, spills and static shared memory for `kernel`
 * out of a ptxas -v report. Returns 1 when the kernel's entry was found. */
int parse_ptxas_report(const char *log, const char *kernel, resources *res);

/* The CUDA include directory given to NVRTC ($CUDA_HOME/include, else the
 * toolkit the grader was built with). */
const char *cuda_include_dir(void);

#endif
