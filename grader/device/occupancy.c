/* occupancy.c: theoretical occupancy without a GPU, through the toolkit's
 * cuda_occupancy.h (header-only, C). */
#include <cuda_occupancy.h>
#include <stdio.h>
#include <string.h>
#include "occupancy.h"

/* What cudaGetDeviceProperties would say beyond device_facts: the same on
 * every generation the course supports (7.5 and newer), except the shared
 * memory the driver reserves per block, which starts with Ampere (8.0). */
enum { MAX_THREADS_PER_BLOCK = 1024, REGS_PER_BLOCK = 65536, SMEM_PER_BLOCK = 48 * 1024 };

static size_t reserved_smem(int cc)
{
    return cc >= 80 ? 1024 : 0;
}

static void why_no_fit(const device_facts *dev, int threads, int regs, size_t smem,
                       int optin, const cudaOccResult *res, occupancy *out)
{
    size_t limit = optin ? dev->smem_per_block_optin : SMEM_PER_BLOCK;
    if (threads > MAX_THREADS_PER_BLOCK)
        snprintf(out->why, sizeof out->why, "a block of %d threads is more than the %d a "
                 "block may have", threads, MAX_THREADS_PER_BLOCK);
    else if (res->blockLimitSharedMem == 0)
        snprintf(out->why, sizeof out->why, "a block asks for %zu bytes of shared memory; a "
                 "block may have at most %zu", smem, limit);
    else if (res->blockLimitRegs == 0)
        snprintf(out->why, sizeof out->why, "%d threads x %d registers is more than the %d "
                 "registers a block may have", threads, regs, REGS_PER_BLOCK);
    else
        snprintf(out->why, sizeof out->why, "no block fits on an SM");
}

int occupancy_compute(const device_facts *dev, int threads, int regs, size_t smem_static,
                      size_t smem_dynamic, occupancy *out)
{
    int optin = smem_dynamic > SMEM_PER_BLOCK;
    size_t smem = smem_static + smem_dynamic;
    memset(out, 0, sizeof *out);
    cudaOccDeviceProp p = {
        .computeMajor = dev->cc / 10,
        .computeMinor = dev->cc % 10,
        .maxThreadsPerBlock = MAX_THREADS_PER_BLOCK,
        .maxThreadsPerMultiprocessor = dev->max_threads_per_sm,
        .regsPerBlock = REGS_PER_BLOCK,
        .regsPerMultiprocessor = dev->regs_per_sm,
        .warpSize = 32,
        .sharedMemPerBlock = SMEM_PER_BLOCK,
        .sharedMemPerMultiprocessor = dev->smem_per_sm,
        .numSms = dev->sm_count,
        .sharedMemPerBlockOptin = dev->smem_per_block_optin,
        .reservedSharedMemPerBlock = reserved_smem(dev->cc),
    };
    /* gpu_resources() opts into more than 48 KB of dynamic shared memory
     * when the launch asks for it, and only then. */
    cudaOccFuncAttributes a = {
        .maxThreadsPerBlock = MAX_THREADS_PER_BLOCK,
        .numRegs = regs,
        .sharedSizeBytes = smem_static,
        .partitionedGCConfig = PARTITIONED_GC_OFF,
        .shmemLimitConfig = optin ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT,
        .maxDynamicSharedSizeBytes = optin ? smem_dynamic
                                     : smem_static < SMEM_PER_BLOCK ? SMEM_PER_BLOCK - smem_static : 0,
        .numBlockBarriers = 1,
    };
    cudaOccDeviceState s = {.cacheConfig = CACHE_PREFER_NONE,
                            .carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT};
    cudaOccResult res;
    memset(&res, 0, sizeof res);
    if (threads <= 0)
        return -1;
    if (threads > MAX_THREADS_PER_BLOCK) {
        out->bound = BOUND_NO_FIT;
        why_no_fit(dev, threads, regs, smem, optin, &res, out);
        return 0;
    }
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&res, &p, &a, &s, threads, smem_dynamic) !=
        CUDA_OCC_SUCCESS)
        return -1;
    out->blocks_per_sm = res.activeBlocksPerMultiprocessor;
    int warps = (threads + 31) / 32, max_warps = dev->max_threads_per_sm / 32;
    out->pct = max_warps ? 100 * out->blocks_per_sm * warps / max_warps : 0;
    unsigned f = res.limitingFactors;
    if (out->blocks_per_sm == 0) {
        out->bound = BOUND_NO_FIT;
        why_no_fit(dev, threads, regs, smem, optin, &res, out);
    } else if (f & OCC_LIMIT_WARPS)
        out->bound = BOUND_THREADS;
    else if (f & OCC_LIMIT_BLOCKS)
        out->bound = BOUND_BLOCKS;
    else if (f & OCC_LIMIT_REGISTERS)
        out->bound = BOUND_REGISTERS;
    else
        out->bound = BOUND_SHARED;
    return 0;
}

int occupancy_of_launch(const device_facts *dev, long blocks, int threads, int allowed,
                        int *blocks_per_sm)
{
    *blocks_per_sm = 0;
    if (dev->sm_count <= 0 || threads <= 0 || allowed < 0 || blocks < 0 ||
        dev->max_threads_per_sm < 32)
        return -1;
    long per_sm = (blocks + dev->sm_count - 1) / dev->sm_count;
    *blocks_per_sm = per_sm < allowed ? (int)per_sm : allowed;
    long warps = (long)*blocks_per_sm * ((threads + 31) / 32);
    return (int)(100 * warps / (dev->max_threads_per_sm / 32));
}

const char *occ_bound_name(enum occ_bound b)
{
    switch (b) {
    case BOUND_THREADS: return "the SM's thread slots";
    case BOUND_BLOCKS: return "the SM's limit on resident blocks";
    case BOUND_REGISTERS: return "registers";
    case BOUND_SHARED: return "shared memory";
    case BOUND_NO_FIT: return "a block that does not fit";
    case BOUND_UNKNOWN: break;
    }
    return "unknown";
}
