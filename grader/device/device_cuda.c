/* device_cuda.c: the device interface on a real GPU: NVRTC to compile, the
 * CUDA runtime for the rest. Every call is checked: a failure the student
 * can only read about ends the child through CUDA_CHECK (which call, where,
 * what it means); a refused or endless launch and a module that will not
 * load are returned, for grading to explain. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "cuda_check.h"
#include "device.h"
#include "gpu.h"
#include "launch_limits.h"
#include "stats.h"

cudaError_t gpu_probe(device_facts *dev)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess)
        return e;
    if (n == 0)
        return cudaErrorNoDevice;
    struct cudaDeviceProp p;
    e = cudaGetDeviceProperties(&p, 0);
    if (e != cudaSuccess)
        return e;
    memset(dev, 0, sizeof *dev);
    snprintf(dev->name, sizeof dev->name, "%.127s", p.name);
    dev->cc = p.major * 10 + p.minor;
    dev->sm_count = p.multiProcessorCount;
    dev->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    dev->max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
    dev->regs_per_sm = p.regsPerMultiprocessor;
    dev->smem_per_sm = p.sharedMemPerMultiprocessor;
    dev->smem_per_block_optin = p.sharedMemPerBlockOptin;
    dev->l2_bytes = (size_t)p.l2CacheSize;
    dev->global_mem_bytes = p.totalGlobalMem;
    return cudaSetDevice(0);
}

static int cuda_probe(device_facts *dev, char *why, size_t len)
{
    cudaError_t e = gpu_probe(dev);
    if (e == cudaSuccess)
        return 0;
    snprintf(why, len, "%s (%s). This means %s", cudaGetErrorName(e), cudaGetErrorString(e),
             cuda_error_meaning(e));
    return cuda_error_outcome(e) == OUT_NO_GPU ? OUT_NO_GPU : OUT_CRASH;
}

static void *flush_buf;
static size_t flush_bytes;
static int flush_val;

static void cuda_flush_l2(const device_facts *dev)
{
    if (!flush_buf) {
        flush_bytes = 2 * (dev->l2_bytes ? dev->l2_bytes : (64u << 20));
        CUDA_CHECK(cudaMalloc(&flush_buf, flush_bytes));
    }
    CUDA_CHECK(cudaMemsetAsync(flush_buf, ++flush_val & 0xff, flush_bytes, 0));
}

static double cuda_copy_gbps(const device_facts *dev)
{
    /* Four times the L2 each way, so the copy streams from device memory. */
    size_t bytes = 4 * (dev->l2_bytes ? dev->l2_bytes : (64u << 20));
    void *a, *b;
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    CUDA_CHECK(cudaMemset(a, 1, bytes));
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    enum { REPS = 15 };
    double ms[REPS];
    for (int r = -2; r < REPS; r++) {
        CUDA_CHECK(cudaEventRecord(e0, 0));
        CUDA_CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0));
        CUDA_CHECK(cudaEventRecord(e1, 0));
        CUDA_CHECK(cudaEventSynchronize(e1));
        float t;
        CUDA_CHECK(cudaEventElapsedTime(&t, e0, e1));
        if (r >= 0)
            ms[r] = t;
    }
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    return 2.0 * (double)bytes / (median(ms, REPS) * 1e-3) / 1e9;
}

/* A failed load: the call and error on the first line, then what the JIT
 * said (its "too much shared data" lines name the limit). */
static int load_failed(cudaError_t e, const char *call, const char *jit, char *log, size_t len)
{
    snprintf(log, len, "%s: %s (%s). This means %s\n%s", call, cudaGetErrorName(e),
             cudaGetErrorString(e), cuda_error_meaning(e), jit);
    (void)cudaGetLastError();
    return cuda_error_outcome(e);
}

static int cuda_load(const compiled *c, const char *name, kernel *k, char *log, size_t len)
{
    static char jit[8192];
    jit[0] = 0;
    enum cudaJitOption opt[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes};
    void *val[] = {jit, (void *)(uintptr_t)sizeof jit};
    const void *image = c->cubin ? (const void *)c->cubin : (const void *)c->ptx;
    cudaLibrary_t lib = NULL;
    cudaKernel_t fn = NULL;
    memset(k, 0, sizeof *k);
    cudaError_t e = cudaLibraryLoadData(&lib, image, opt, val, 2, NULL, NULL, 0);
    if (e != cudaSuccess)
        return load_failed(e, "cudaLibraryLoadData", jit, log, len);
    /* Loading may be lazy: a module the GPU cannot hold fails here. */
    e = cudaLibraryGetKernel(&fn, lib, name);
    if (e != cudaSuccess) {
        (void)cudaLibraryUnload(lib);
        return load_failed(e, "cudaLibraryGetKernel", jit, log, len);
    }
    k->lib = lib;
    k->fn = fn;
    return 0;
}

static void cuda_unload(kernel *k)
{
    if (k->lib)
        CUDA_CHECK(cudaLibraryUnload((cudaLibrary_t)k->lib));
    memset(k, 0, sizeof *k);
}

static void cuda_limits(const kernel *k, kernel_limits *kl)
{
    struct cudaFuncAttributes a;
    CUDA_CHECK(cudaFuncGetAttributes(&a, k->fn));
    kl->regs = a.numRegs;
    kl->smem_static = a.sharedSizeBytes;
    kl->local_bytes = a.localSizeBytes;
    kl->max_threads = a.maxThreadsPerBlock;
}

/* Dynamic shared memory over 48 KiB needs the kernel's consent, which the
 * runtime refuses (cudaErrorInvalidValue) when the GPU cannot give that
 * much: the launch is then refused and explained, not a crash. */
static cudaError_t allow_dynamic_smem(const kernel *k, size_t dyn_smem)
{
    if (dyn_smem <= 48 * 1024)
        return cudaSuccess;
    cudaError_t e = cudaFuncSetAttribute(k->fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)dyn_smem);
    if (e == cudaErrorInvalidValue)
        (void)cudaGetLastError();
    else
        CUDA_CHECK(e);
    return e;
}

static void cuda_resources(const kernel *k, const instance *I, const device_facts *dev,
                           resources *res)
{
    kernel_limits kl;
    cuda_limits(k, &kl);
    res->known = 1;
    res->regs = kl.regs;
    res->stack_bytes = (int)kl.local_bytes;
    res->smem_static = (int)kl.smem_static;
    res->smem_dynamic = (int)I->dyn_smem;
    int threads = (int)(I->block[0] * I->block[1] * I->block[2]);
    int blocks = 0;
    cudaError_t e = allow_dynamic_smem(k, I->dyn_smem);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k->fn, threads,
                                                          I->dyn_smem);
    if (e != cudaSuccess) {
        /* A block that cannot fit at all: the launch will say why. */
        (void)cudaGetLastError();
        blocks = 0;
    }
    int warps_per_block = (threads + 31) / 32;
    int max_warps = dev->max_threads_per_sm / 32;
    res->blocks_per_sm = blocks;
    res->occupancy_pct = max_warps ? 100 * blocks * warps_per_block / max_warps : -1;
}

static void *cuda_alloc(size_t bytes)
{
    void *p;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
}

static void cuda_release(void *p)
{
    CUDA_CHECK(cudaFree(p));
}

static void cuda_upload(void *dst, const void *src, size_t bytes)
{
    CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

static void cuda_download(void *dst, const void *src, size_t bytes)
{
    CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}

static void cuda_fill(void *dst, int byte, size_t bytes)
{
    /* On the launch stream, so it is done before the next launch starts. */
    CUDA_CHECK(cudaMemsetAsync(dst, byte, bytes, 0));
}

static int cuda_constant_slot(const kernel *k, const char *symbol, void **at, size_t *bytes)
{
    cudaError_t e = cudaLibraryGetGlobal(at, bytes, (cudaLibrary_t)k->lib, symbol);
    if (e == cudaErrorSymbolNotFound || e == cudaErrorInvalidSymbol) {
        (void)cudaGetLastError();
        return -1;
    }
    CUDA_CHECK(e);
    return 0;
}

static launch_result cuda_launch(const kernel *k, const instance *I, void **argp, int timed,
                                 double timeout_s)
{
    static cudaEvent_t e0, e1;
    launch_result L = {.status = LAUNCH_OK, .ms = 0, .error = ""};
    if (!e0) {
        CUDA_CHECK(cudaEventCreate(&e0));
        CUDA_CHECK(cudaEventCreate(&e1));
    }
    dim3 grid = {I->grid[0], I->grid[1], I->grid[2]};
    dim3 block = {I->block[0], I->block[1], I->block[2]};
    cudaError_t le = allow_dynamic_smem(k, I->dyn_smem);
    if (le == cudaSuccess) {
        if (timed)
            CUDA_CHECK(cudaEventRecord(e0, 0));
        le = cudaLaunchKernel(k->fn, grid, block, argp, I->dyn_smem, 0);
    }
    if (le == cudaErrorInvalidValue || le == cudaErrorLaunchOutOfResources ||
        le == cudaErrorInvalidConfiguration) {
        /* Refused before it started: the context is still usable. */
        (void)cudaGetLastError();
        L.status = LAUNCH_REFUSED;
        snprintf(L.error, sizeof L.error, "%s", cudaGetErrorName(le));
        return L;
    }
    CUDA_CHECK(le);
    CUDA_CHECK(cudaEventRecord(e1, 0));
    /* Poll rather than block, so a kernel that never ends is reported as a
     * hang by this process instead of freezing it. */
    double start = now_s();
    for (;;) {
        cudaError_t e = cudaEventQuery(e1);
        if (e == cudaSuccess)
            break;
        if (e != cudaErrorNotReady)
            cuda_fail(e, "the kernel, while it ran (the error surfaced at cudaEventQuery)",
                      __FILE__, __LINE__);
        if (now_s() - start > timeout_s) {
            L.status = LAUNCH_HUNG;
            return L;
        }
        usleep(200);
    }
    CUDA_CHECK(cudaGetLastError());
    if (timed) {
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        L.ms = ms;
    }
    return L;
}

const device_ops device_cuda = {
    .name = "cuda",
    .probe = cuda_probe,
    .compile = compile_files,
    .load = cuda_load,
    .unload = cuda_unload,
    .limits = cuda_limits,
    .resources = cuda_resources,
    .copy_gbps = cuda_copy_gbps,
    .flush_l2 = cuda_flush_l2,
    .alloc = cuda_alloc,
    .release = cuda_release,
    .upload = cuda_upload,
    .download = cuda_download,
    .fill = cuda_fill,
    .constant_slot = cuda_constant_slot,
    .launch = cuda_launch,
};
