/* cuda_check.h: every CUDA runtime call goes through CUDA_CHECK. A failure
 * is recorded in the child's result (which call, where, what it means for
 * the student) and the child exits: after most kernel faults the CUDA
 * context is unusable, so there is nothing sensible left to do in it. */
#ifndef GRADER_CUDA_CHECK_H
#define GRADER_CUDA_CHECK_H

#include <cuda_runtime_api.h>
#include "result.h"

/* The result the current child reports into (set by grade_exercise). */
extern result *g_result;

/* What a CUDA error means for a student, in a sentence or two. */
const char *cuda_error_meaning(cudaError_t e);

/* The outcome class of an error: crash, resources, no GPU... */
enum outcome cuda_error_outcome(cudaError_t e);

_Noreturn void cuda_fail(cudaError_t e, const char *call, const char *file, int line);

/* Set what the child is doing, so a crash or hang can be placed. */
void set_stage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define CUDA_CHECK(call)                                        \
    do {                                                        \
        cudaError_t e_ = (call);                                \
        if (e_ != cudaSuccess)                                  \
            cuda_fail(e_, #call, __FILE__, __LINE__);           \
    } while (0)

#endif
