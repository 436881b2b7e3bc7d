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

/* Every allocation of the grader's is whole 2 MiB pages, its own ones
 * too: smaller ones share a page with others (cudaMalloc packs them at
 * 512-byte steps, H200, 2026-11-29), which may stay mapped after they are
 * freed, memory a kernel could reach and keep something in. */
#define PAGE ((size_t)2 << 20)

static size_t whole_pages(size_t bytes)
{
    return (bytes + PAGE - 1) / PAGE * PAGE;
}

static void *flush_buf;
static size_t flush_bytes;
static uint64_t flush_state;

/* A byte no kernel can predict: a kernel that finds the flush buffer
 * (memory next to its own can be) must not learn from its value how many
 * launches came before (the knock-out is the first timed one). */
static int flush_byte(void)
{
    if (!flush_state)
        flush_state = ((uint64_t)(now_s() * 1e9) ^ (uint64_t)getpid() << 32) | 1;
    flush_state ^= flush_state << 13;
    flush_state ^= flush_state >> 7;
    flush_state ^= flush_state << 17;
    return (int)(flush_state >> 56);
}

static void cuda_flush_l2(const device_facts *dev)
{
    if (!flush_buf) {
        flush_bytes = whole_pages(2 * (dev->l2_bytes ? dev->l2_bytes : (64u << 20)));
        CUDA_CHECK(cudaMalloc(&flush_buf, flush_bytes));
    }
    CUDA_CHECK(cudaMemsetAsync(flush_buf, flush_byte(), flush_bytes, 0));
}

static double cuda_copy_gbps(const device_facts *dev)
{
    /* Four times the L2 each way, so the copy streams from device memory. */
    size_t bytes = whole_pages(4 * (dev->l2_bytes ? dev->l2_bytes : (64u << 20)));
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

/* The pointer chase: one thread follows `hops` pointers, each load's
 * address being the value the previous load returned, so no two loads
 * overlap and the time per hop is the latency of one load. ld.global.cg
 * caches in L2 only: every line is visited once, after the L2 was flushed,
 * so every hop misses both caches. Written in PTX so the driver compiles it
 * without NVRTC (sm_75 is the oldest GPU the course runs on). */
static const char chase_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry latency_chase(.param .u64 start, .param .u32 hops, .param .u64 out)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [start];\n"
    "    ld.param.u32 %r1, [hops];\n"
    "    ld.param.u64 %rd2, [out];\n"
    "    mov.u32 %r2, 0;\n"
    "$L_hop:\n"
    "    ld.global.cg.u64 %rd1, [%rd1];\n"
    "    add.u32 %r2, %r2, 1;\n"
    "    setp.lt.u32 %p1, %r2, %r1;\n"
    "    @%p1 bra $L_hop;\n"
    "    st.global.u64 [%rd2], %rd1;\n"
    "    ret;\n"
    "}\n";

enum {
    CHASE_PAGE = 2 << 20,      /* the GPU's large page: hops stay in one for a while */
    CHASE_LINES = CHASE_PAGE / 128,
    CHASE_PER_PAGE = 48,       /* hops in one page before the next: TLB misses rare */
    CHASE_REPS = 7
};

/* Hop k's line: pages in order, and within a page lines in a scattered
 * order (an odd multiplier permutes the 16384 lines), so no two hops share
 * a line, a DRAM row or a stride a prefetcher could follow. */
static size_t chase_offset(size_t k)
{
    size_t page = k / CHASE_PER_PAGE, j = k % CHASE_PER_PAGE;
    size_t line = (j * 40503 + page * 97) % CHASE_LINES;
    return page * (size_t)CHASE_PAGE + line * 128;
}

/* Write the chain into `buf`: hop k holds the address of hop k+1, the last
 * the first. One small copy per hop, from pinned memory so that they queue
 * without waiting for each other. */
static void chase_build(char *buf, size_t hops)
{
    uint64_t *next;
    CUDA_CHECK(cudaMallocHost((void **)&next, hops * sizeof *next));
    for (size_t k = 0; k < hops; k++) {
        next[k] = (uint64_t)(uintptr_t)(buf + chase_offset((k + 1) % hops));
        CUDA_CHECK(cudaMemcpyAsync(buf + chase_offset(k), &next[k], sizeof next[k],
                                   cudaMemcpyHostToDevice, 0));
    }
    CUDA_CHECK(cudaStreamSynchronize(0));
    CUDA_CHECK(cudaFreeHost(next));
}

/* Time the chase; 0 when the chase module does not load or launch (the
 * grader's own kernel: the student's grade must not depend on it). */
static double chase_ns(const device_facts *dev, char *buf, size_t hops, void *out)
{
    cudaLibrary_t lib = NULL;
    cudaKernel_t fn = NULL;
    if (cudaLibraryLoadData(&lib, chase_ptx, NULL, NULL, 0, NULL, NULL, 0) != cudaSuccess ||
        cudaLibraryGetKernel(&fn, lib, "latency_chase") != cudaSuccess) {
        (void)cudaGetLastError();
        if (lib)
            (void)cudaLibraryUnload(lib);
        return 0;
    }
    void *start = buf;
    unsigned n = (unsigned)hops;
    void *args[] = {&start, &n, &out};
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    double ms[CHASE_REPS];
    int ok = 1;
    for (int r = -1; r < CHASE_REPS && ok; r++) {
        cuda_flush_l2(dev);
        CUDA_CHECK(cudaEventRecord(e0, 0));
        ok = cudaLaunchKernel((const void *)fn, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, 0,
                              0) == cudaSuccess;
        CUDA_CHECK(cudaEventRecord(e1, 0));
        CUDA_CHECK(cudaEventSynchronize(e1));
        float t;
        CUDA_CHECK(cudaEventElapsedTime(&t, e0, e1));
        if (r >= 0)
            ms[r] = t;
    }
    (void)cudaGetLastError();
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    CUDA_CHECK(cudaLibraryUnload(lib));
    return ok ? median(ms, CHASE_REPS) * 1e6 / (double)hops : 0;
}

static double cuda_latency_ns(const device_facts *dev)
{
    static double cached = -1;
    if (cached >= 0)
        return cached;
    /* Four times the L2, in whole pages, so no hop can still be cached. */
    size_t l2 = dev->l2_bytes ? dev->l2_bytes : (64u << 20);
    size_t pages = (4 * l2 + CHASE_PAGE - 1) / CHASE_PAGE;
    size_t hops = pages * CHASE_PER_PAGE;
    char *buf;
    void *out;
    CUDA_CHECK(cudaMalloc((void **)&buf, pages * (size_t)CHASE_PAGE));
    CUDA_CHECK(cudaMalloc(&out, PAGE));
    chase_build(buf, hops);
    cached = chase_ns(dev, buf, hops, out);
    CUDA_CHECK(cudaFree(buf));
    CUDA_CHECK(cudaFree(out));
    return cached;
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

/* Load a cubin, or PTX the driver compiles for this GPU, with at most
 * max_regs registers per thread (0: as the image says). */
static int load_image(const void *image, unsigned max_regs, const char *name, kernel *k,
                      char *log, size_t len)
{
    static char jit[8192];
    jit[0] = 0;
    enum cudaJitOption opt[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes,
                                cudaJitMaxRegisters};
    void *val[] = {jit, (void *)(uintptr_t)sizeof jit, (void *)(uintptr_t)max_regs};
    cudaLibrary_t lib = NULL;
    cudaKernel_t fn = NULL;
    memset(k, 0, sizeof *k);
    cudaError_t e = cudaLibraryLoadData(&lib, image, opt, val, max_regs ? 3 : 2, NULL, NULL, 0);
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

static int cuda_load(const compiled *c, const char *name, kernel *k, char *log, size_t len)
{
    return load_image(c->cubin ? (const void *)c->cubin : (const void *)c->ptx, 0, name, k,
                      log, len);
}

static int cuda_load_ptx(const compiled *c, const char *ptx, int max_regs, const char *name,
                         kernel *k, char *log, size_t len)
{
    (void)c;
    return load_image(ptx, max_regs > 0 ? (unsigned)max_regs : 0, name, k, log, len);
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

/* Read back through a pinned buffer (several times faster than pageable
 * memory) and compare 8 bytes at a time: the guard checks after every
 * timed launch read a few MiB. */
#define UNLIKE_CHUNK ((size_t)4 << 20)

static size_t unlike_bytes(const unsigned char *p, size_t n, int byte, size_t at,
                           size_t *first, size_t found)
{
    uint64_t want;
    memset(&want, byte, sizeof want);
    size_t i = 0;
    for (; i < n; i += 8) {
        uint64_t w;
        if (n - i >= 8) {
            memcpy(&w, p + i, 8);
            if (w == want)
                continue;
        }
        for (size_t j = i; j < n && j < i + 8; j++)
            if (p[j] != (unsigned char)byte && !found++)
                *first = at + j;
    }
    return found;
}

static size_t cuda_unlike(const void *src, int byte, size_t bytes, size_t *first)
{
    static unsigned char *stage;
    if (!stage)
        CUDA_CHECK(cudaMallocHost((void **)&stage, UNLIKE_CHUNK));
    size_t found = 0;
    for (size_t off = 0; off < bytes; off += UNLIKE_CHUNK) {
        size_t n = bytes - off < UNLIKE_CHUNK ? bytes - off : UNLIKE_CHUNK;
        CUDA_CHECK(cudaMemcpy(stage, (const char *)src + off, n, cudaMemcpyDeviceToHost));
        found = unlike_bytes(stage, n, byte, off, first, found);
    }
    return found;
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
        if (e == cudaErrorAssert)
            (void)cudaDeviceSynchronize();   /* delivers the assert's own line */
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

static void cuda_sync(void)
{
    CUDA_CHECK(cudaDeviceSynchronize());
}

const device_ops device_cuda = {
    .name = "cuda",
    .probe = cuda_probe,
    .compile = compile_files,
    .load = cuda_load,
    .load_ptx = cuda_load_ptx,
    .unload = cuda_unload,
    .limits = cuda_limits,
    .resources = cuda_resources,
    .copy_gbps = cuda_copy_gbps,
    .latency_ns = cuda_latency_ns,
    .flush_l2 = cuda_flush_l2,
    .alloc = cuda_alloc,
    .release = cuda_release,
    .upload = cuda_upload,
    .download = cuda_download,
    .fill = cuda_fill,
    .unlike = cuda_unlike,
    .constant_slot = cuda_constant_slot,
    .launch = cuda_launch,
    .sync = cuda_sync,
};
