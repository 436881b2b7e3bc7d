/* toolkit.h: what the CUDA toolkit gives every compile: the include
 * directories NVRTC searches (the only ones a kernel file may include from),
 * the architecture to build for, and ptxas's resource report. Pure: calls
 * nothing of the grader. */
#ifndef GRADER_TOOLKIT_H
#define GRADER_TOOLKIT_H

#include <stddef.h>
#include "result.h"

/* The newest architecture NVRTC can build machine code for that a GPU of
 * compute capability `cc` runs: cc itself when supported. Writes e.g. "sm_90"
 * or "compute_120" and returns 1 for machine code, 0 for PTX only, -1 when the
 * GPU is older than every architecture NVRTC knows. */
int nvrtc_target_for(int cc, char *target, size_t len);

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
