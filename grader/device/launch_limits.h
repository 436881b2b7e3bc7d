/* launch_limits.h: what a launch asks for against what the GPU and the kernel
 * allow: whether it fits and, when it does not, which resource and which
 * limit, in words a student can act on. Pure functions, unit-tested; both
 * device backends explain a refused launch or module with them. */
#ifndef GRADER_LIMITS_H
#define GRADER_LIMITS_H

#include <stddef.h>
#include "device.h"

/* No NVIDIA GPU since Fermi runs more threads than this in one block. */
#define MAX_THREADS_PER_BLOCK 1024
/* The most local memory (stack) one thread may have. */
#define MAX_LOCAL_BYTES (512 * 1024)

/* Registers a block of `threads` threads takes from the SM's register file:
 * the hardware allocates per warp, in units of 256 registers. */
long block_registers(int regs, unsigned threads);

/* 0 when a launch of `threads` threads with `dyn_smem` bytes of dynamic
 * shared memory fits the device and the kernel; else 1, and `why` names the
 * resource, what the launch asks for and the limit, and what to change. */
int launch_limit_broken(const kernel_limits *kl, unsigned threads, size_t dyn_smem,
                        const device_facts *dev, char *why, size_t len);

/* A loader's or ptxas's log that reports a resource limit ("uses too much
 * shared data (0x12c000 bytes, 0xc000 max)"): 1 with `why` saying which
 * resource and the numbers in decimal; 0 when the log names no limit. */
int load_log_limit(const char *log, const device_facts *dev, char *why, size_t len);

/* Blocks of this launch one SM holds at once, from the limits alone
 * (threads, blocks, registers, shared memory): the host backend's
 * occupancy. The CUDA backend asks the driver instead. */
int blocks_per_sm_model(const kernel_limits *kl, unsigned threads, size_t dyn_smem,
                        const device_facts *dev);

#endif
