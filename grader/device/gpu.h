/* gpu.h: the one CUDA backend call other code may make directly: is there a
 * usable GPU, and what is it. Grading itself goes through device.h's
 * device_cuda (device_cuda.c). */
#ifndef GRADER_GPU_H
#define GRADER_GPU_H

#include <cuda_runtime_api.h>
#include "spec.h"

/* Fill `dev` for device 0. Returns cudaSuccess or the error that says why
 * there is no usable GPU. */
cudaError_t gpu_probe(device_facts *dev);

#endif
