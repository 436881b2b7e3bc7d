/* cuda_check.c: turning CUDA errors into messages a student can act on. */
#include <stdio.h>
#include <string.h>
#include "cuda_check.h"
#include "kernel_output.h"

const char *cuda_error_meaning(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorInvalidAddressSpace:
        return "a kernel read or wrote memory it does not own: usually an index "
               "past the end of an array, a missing bounds check (if (i < n)), or a "
               "wrong shared-memory index.";
    case cudaErrorMisalignedAddress:
        return "a load or store used an address that is not a multiple of its size: "
               "a float4 or double2 access needs a 16-byte aligned address (check "
               "the index you cast from).";
    case cudaErrorLaunchOutOfResources:
        return "the launch needs more registers than one SM holds for a block: "
               "registers per thread x threads per block must fit in 65536. Use fewer "
               "registers (__launch_bounds__) or check what raised the count.";
    case cudaErrorInvalidConfiguration:
        return "the launch's block or grid shape is not allowed (too many threads "
               "per block, or more shared memory than a block may have).";
    case cudaErrorIllegalInstruction:
        return "the kernel executed an illegal instruction; often a __syncthreads() "
               "that not every thread of the block reaches, or a corrupted stack.";
    case cudaErrorHardwareStackError:
        return "the kernel overflowed its stack: deep recursion or a very large "
               "local array.";
    case cudaErrorAssert:
        return "an assert() in device code failed.";
    case cudaErrorLaunchFailure:
        return "the kernel faulted while running (an unspecified launch failure).";
    case cudaErrorLaunchTimeout:
        return "the kernel ran longer than the display driver allows.";
    case cudaErrorNoDevice:
        return "no CUDA GPU is visible. On a machine with an NVIDIA GPU check that "
               "nvidia-smi lists it and that CUDA_VISIBLE_DEVICES does not hide it.";
    case cudaErrorInsufficientDriver:
        return "no NVIDIA driver is loaded, or it is older than this CUDA toolkit. "
               "Check nvidia-smi; on a machine without a GPU, make check compiles "
               "your kernels and runs the checks that need no GPU.";
    case cudaErrorMemoryAllocation:
        return "the GPU ran out of memory; another program may be holding it "
               "(see nvidia-smi).";
    case cudaErrorInvalidPtx:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorNoKernelImageForDevice:
        return "the driver cannot load the compiled kernel: the driver may be older "
               "than the CUDA toolkit used to build it (update the driver, or use the "
               "toolkit that matches it via CUDA_HOME).";
    default:
        return "the CUDA runtime reported an error; the failing call is named below.";
    }
}

enum outcome cuda_error_outcome(cudaError_t e)
{
    switch (e) {
    case cudaErrorLaunchOutOfResources:
    case cudaErrorInvalidConfiguration:
        return OUT_RESOURCES;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
        return OUT_NO_GPU;
    case cudaErrorMemoryAllocation:
    case cudaErrorInvalidPtx:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorNoKernelImageForDevice:
        return OUT_INTERNAL;
    default:
        return OUT_CRASH;
    }
}

void cuda_fail(cudaError_t e, const char *call, const char *file, int line)
{
    char detail[512], assertion[700];
    snprintf(detail, sizeof detail, "failing call: %s\n at %s:%d", call, file, line);
    /* The reason a student needs: which assert, where (kernel_output.h). */
    if (e == cudaErrorAssert && kout_assertion(assertion, sizeof assertion))
        child_fail(OUT_CRASH, detail, "While %s: an assert in the kernel failed: %s. The "
                   "launch stopped there (%s): the condition was false at this size, so "
                   "check what it assumes about n, the grid and the block.",
                   g_result && g_result->stage[0] ? g_result->stage : "starting", assertion,
                   cudaGetErrorName(e));
    child_fail(cuda_error_outcome(e), detail, "While %s: %s (%s). This means %s",
               g_result && g_result->stage[0] ? g_result->stage : "starting",
               cudaGetErrorName(e), cudaGetErrorString(e), cuda_error_meaning(e));
}
