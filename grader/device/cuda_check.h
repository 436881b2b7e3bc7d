/* cuda_check.h: every CUDA runtime call goes through CUDA_CHECK. A failure
 * goes the child's one way out, child_fail: the result says which call,
 * where, and what it means for the student, and the child exits; after most
 * kernel faults the CUDA context is unusable, so there is nothing sensible
 * left to do in it. */
#ifndef GRADER_CUDA_CHECK_H
#define GRADER_CUDA_CHECK_H

#include <cuda_runtime_api.h>
#include "child_fail.h"

/* What a CUDA error means for a student, in a sentence or two. */
const char *cuda_error_meaning(cudaError_t e);

/* The outcome class of an error: crash, resources, no GPU... */
enum outcome cuda_error_outcome(cudaError_t e);

/* Fail the child with CUDA error `e` from `call` at file:line. */
_Noreturn void cuda_fail(cudaError_t e, const char *call, const char *file, int line);

#define CUDA_CHECK(call)                                        \
    do {                                                        \
        cudaError_t e_ = (call);                                \
        if (e_ != cudaSuccess)                                  \
            cuda_fail(e_, #call, __FILE__, __LINE__);           \
    } while (0)

#endif
