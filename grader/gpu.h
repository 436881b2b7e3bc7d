/* gpu.h: the GPU side of grading: the device, compiled modules, buffers with
 * guard regions, launches with a watchdog, and timing with events. Only the
 * child process that grades one exercise calls these. */
#ifndef GRADER_GPU_H
#define GRADER_GPU_H

#include <cuda_runtime_api.h>
#include "compile.h"
#include "instance.h"

/* Fill `dev` for device 0. Returns cudaSuccess or the error that says why
 * there is no usable GPU. */
cudaError_t gpu_probe(device_facts *dev);

/* Device-to-device copy bandwidth in GB/s, counting bytes read plus bytes
 * written: the ceiling effective bandwidths are compared with. */
double gpu_copy_bandwidth(const device_facts *dev);

/* Evict the L2 so every timed launch starts from device memory: write a
 * buffer twice the L2's size. */
void gpu_flush_l2(const device_facts *dev);

/* A loaded kernel. */
typedef struct kernel {
    cudaLibrary_t lib;
    cudaKernel_t fn;
} kernel;

void gpu_load(const compiled *c, const char *name, kernel *k);
void gpu_unload(kernel *k);

/* Fill registers, local memory, static shared memory and occupancy for a
 * launch of `I`'s geometry. Keeps the ptxas spill counts already in `res`. */
void gpu_resources(const kernel *k, const instance *I, const device_facts *dev,
                   resources *res);

/* One kernel version's device copy of an instance's buffers. Outputs sit
 * between two guard regions holding a known pattern. */
typedef struct dev_buffers {
    void *base[MAX_BUFS];    /* what cudaMalloc returned */
    void *ptr[MAX_BUFS];     /* what the kernel gets */
    size_t bytes[MAX_BUFS];
} dev_buffers;

#define GUARD_BYTES (64 * 1024)

void dev_buffers_upload(dev_buffers *d, const instance *I);
void dev_buffers_free(dev_buffers *d);
/* Fill every output with the poison pattern and the guards with theirs. */
void dev_buffers_poison(dev_buffers *d, const instance *I);
/* Copy outputs back into I's host arrays. Returns the number of guard bytes
 * that changed (an out-of-bounds write) and where the first one was. */
size_t dev_buffers_download(dev_buffers *d, instance *I, int *bad_buf, long *bad_offset);

/* Launch k on I with d's buffers; optionally time it with events. Waits for
 * the launch at most `timeout_s` seconds: past that the child reports a hang
 * and exits. Returns the kernel's time in ms when `timed`, else 0. */
double gpu_launch(const kernel *k, const instance *I, dev_buffers *d, int timed,
                  double timeout_s);

#endif
