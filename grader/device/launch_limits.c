/* launch_limits.c: launch resources against the GPU's and the kernel's limits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "launch_limits.h"

long block_registers(int regs, unsigned threads)
{
    long per_warp = ((long)regs * 32 + 255) / 256 * 256;
    long warps = ((long)threads + 31) / 32;
    return per_warp * warps;
}

int launch_limit_broken(const kernel_limits *kl, unsigned threads, size_t dyn_smem,
                        const device_facts *dev, char *why, size_t len)
{
    size_t smem = kl->smem_static + dyn_smem;
    long regs = block_registers(kl->regs, threads);
    if (threads > MAX_THREADS_PER_BLOCK) {
        snprintf(why, len, "Threads: the launch has %u threads per block; no NVIDIA GPU "
                 "runs more than %d in one block.", threads, MAX_THREADS_PER_BLOCK);
        return 1;
    }
    if (dev->smem_per_block_optin && smem > dev->smem_per_block_optin) {
        snprintf(why, len, "Shared memory: %zu bytes of __shared__ arrays plus %zu bytes "
                 "of dynamic shared memory make %zu bytes per block, more than the %zu "
                 "bytes one block may have on this GPU. Use smaller tiles or buffers.",
                 kl->smem_static, dyn_smem, smem, dev->smem_per_block_optin);
        return 1;
    }
    if (dev->regs_per_sm && regs > dev->regs_per_sm) {
        snprintf(why, len, "Registers: %d per thread x %u threads take %ld registers per "
                 "block (allocated per warp, in units of 256), more than the %d of an "
                 "SM's register file. Use fewer registers per thread: "
                 "__launch_bounds__(%u) makes the compiler fit a block of %u.",
                 kl->regs, threads, regs, dev->regs_per_sm, threads, threads);
        return 1;
    }
    if (kl->max_threads > 0 && threads > (unsigned)kl->max_threads) {
        snprintf(why, len, "Threads: the launch has %u threads per block, but this kernel "
                 "can run at most %d: its __launch_bounds__ allows fewer threads than the "
                 "exercise launches. Raise the first number of __launch_bounds__ to at "
                 "least %u.", threads, kl->max_threads, threads);
        return 1;
    }
    if (kl->local_bytes > MAX_LOCAL_BYTES) {
        snprintf(why, len, "Local memory: the kernel's stack frame is %zu bytes per thread, "
                 "more than the %d a thread may have. A large local array is the usual "
                 "cause: keep it in shared memory or make it smaller.", kl->local_bytes,
                 MAX_LOCAL_BYTES);
        return 1;
    }
    return 0;
}

/* "(0x12c000 bytes, 0xc000 max)" after `at`: the two numbers. */
static int two_numbers(const char *at, unsigned long *used, unsigned long *max)
{
    const char *p = strchr(at, '(');
    if (!p)
        return 0;
    char *end;
    *used = strtoul(p + 1, &end, 0);
    if (end == p + 1 || strncmp(end, " bytes, ", 8) != 0)
        return 0;
    const char *q = end + 8;
    *max = strtoul(q, &end, 0);
    return end != q;
}

int load_log_limit(const char *log, const device_facts *dev, char *why, size_t len)
{
    static const struct {
        const char *text;
        const char *resource;
        const char *advice;
    } known[] = {
        {"too much shared data", "Shared memory",
         "Use smaller __shared__ arrays, or dynamic shared memory sized at launch."},
        {"too much local data", "Local memory",
         "A large local array is the usual cause: make it smaller or keep it in shared "
         "memory."},
        {"too many resources", "Registers",
         "Use fewer registers per thread, or fewer threads per block."},
        {"too much parameter space", "Kernel parameters",
         "Pass large data through a device array, not by value."},
    };
    if (!log)
        return 0;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        const char *at = strstr(log, known[i].text);
        if (!at)
            continue;
        unsigned long used, max;
        if (two_numbers(at, &used, &max))
            snprintf(why, len, "%s: the kernel needs %lu bytes, and at most %lu are allowed "
                     "(%s). %s", known[i].resource, used, max, known[i].text,
                     known[i].advice);
        else if (!strcmp(known[i].resource, "Shared memory") && dev->smem_per_block_optin)
            snprintf(why, len, "%s: the kernel asks for more than this GPU allows (%s); "
                     "a block may have at most %zu bytes, and __shared__ arrays at most "
                     "49152 of them. %s", known[i].resource, known[i].text,
                     dev->smem_per_block_optin, known[i].advice);
        else
            snprintf(why, len, "%s: the kernel asks for more than this GPU allows (%s). %s",
                     known[i].resource, known[i].text, known[i].advice);
        return 1;
    }
    return 0;
}

int blocks_per_sm_model(const kernel_limits *kl, unsigned threads, size_t dyn_smem,
                        const device_facts *dev)
{
    if (!threads)
        return 0;
    long warps = ((long)threads + 31) / 32;
    long blocks = dev->max_blocks_per_sm;
    long by_threads = dev->max_threads_per_sm / (warps * 32);
    if (by_threads < blocks)
        blocks = by_threads;
    long regs = block_registers(kl->regs, threads);
    if (regs > 0 && dev->regs_per_sm / regs < blocks)
        blocks = dev->regs_per_sm / regs;
    size_t smem = kl->smem_static + dyn_smem;
    if (smem > 0 && (long)(dev->smem_per_sm / smem) < blocks)
        blocks = (long)(dev->smem_per_sm / smem);
    return blocks < 0 ? 0 : (int)blocks;
}
