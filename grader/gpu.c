/* gpu.c: device facts, modules, buffers, launches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cuda_check.h"
#include "gpu.h"
#include "stats.h"

#define POISON_BYTE 0xFF   /* a NaN for floats and doubles, -1 for ints */
#define GUARD_BYTE 0xA5

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

static void *flush_buf;
static size_t flush_bytes;
static int flush_val;

void gpu_flush_l2(const device_facts *dev)
{
    if (!flush_buf) {
        flush_bytes = 2 * (dev->l2_bytes ? dev->l2_bytes : (64u << 20));
        CUDA_CHECK(cudaMalloc(&flush_buf, flush_bytes));
    }
    CUDA_CHECK(cudaMemsetAsync(flush_buf, ++flush_val & 0xff, flush_bytes, 0));
}

double gpu_copy_bandwidth(const device_facts *dev)
{
    /* Four times the L2 each way, so the copy streams from device memory. */
    size_t bytes = 4 * (dev->l2_bytes ? dev->l2_bytes : (64u << 20));
    void *a, *b;
    cudaEvent_t e0, e1;
    set_stage("measuring the GPU's copy bandwidth");
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

void gpu_load(const compiled *c, const char *name, kernel *k)
{
    const void *image = c->cubin ? (const void *)c->cubin : (const void *)c->ptx;
    CUDA_CHECK(cudaLibraryLoadData(&k->lib, image, NULL, NULL, 0, NULL, NULL, 0));
    CUDA_CHECK(cudaLibraryGetKernel(&k->fn, k->lib, name));
}

void gpu_unload(kernel *k)
{
    if (k->lib)
        CUDA_CHECK(cudaLibraryUnload(k->lib));
    memset(k, 0, sizeof *k);
}

void gpu_resources(const kernel *k, const instance *I, const device_facts *dev,
                   resources *res)
{
    struct cudaFuncAttributes a;
    CUDA_CHECK(cudaFuncGetAttributes(&a, (const void *)k->fn));
    res->known = 1;
    res->regs = a.numRegs;
    res->stack_bytes = (int)a.localSizeBytes;
    res->smem_static = (int)a.sharedSizeBytes;
    res->smem_dynamic = (int)I->dyn_smem;
    int threads = (int)(I->block[0] * I->block[1] * I->block[2]);
    if (I->dyn_smem > 48 * 1024)
        CUDA_CHECK(cudaFuncSetAttribute((const void *)k->fn,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)I->dyn_smem));
    int blocks = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, (const void *)k->fn, threads, I->dyn_smem);
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

void dev_buffers_upload(dev_buffers *d, const instance *I)
{
    memset(d, 0, sizeof *d);
    for (int b = 0; b < I->nbufs; b++) {
        const buffer *B = &I->bufs[b];
        size_t bytes = B->count * elem_size(B->type);
        d->bytes[b] = bytes;
        CUDA_CHECK(cudaMalloc(&d->base[b], bytes + 2 * GUARD_BYTES));
        d->ptr[b] = (char *)d->base[b] + GUARD_BYTES;
        if (!B->is_output)
            CUDA_CHECK(cudaMemcpy(d->ptr[b], B->host, bytes, cudaMemcpyHostToDevice));
    }
}

void dev_buffers_free(dev_buffers *d)
{
    for (int b = 0; b < MAX_BUFS; b++)
        if (d->base[b])
            CUDA_CHECK(cudaFree(d->base[b]));
    memset(d, 0, sizeof *d);
}

void dev_buffers_poison(dev_buffers *d, const instance *I)
{
    for (int b = 0; b < I->nbufs; b++) {
        if (!I->bufs[b].is_output)
            continue;
        CUDA_CHECK(cudaMemset(d->base[b], GUARD_BYTE, GUARD_BYTES));
        CUDA_CHECK(cudaMemset(d->ptr[b], POISON_BYTE, d->bytes[b]));
        CUDA_CHECK(cudaMemset((char *)d->ptr[b] + d->bytes[b], GUARD_BYTE, GUARD_BYTES));
    }
}

static long first_changed(const unsigned char *g, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (g[i] != GUARD_BYTE)
            return (long)i;
    return -1;
}

size_t dev_buffers_download(dev_buffers *d, instance *I, int *bad_buf, long *bad_offset)
{
    static unsigned char guard[GUARD_BYTES];
    size_t bad = 0;
    *bad_buf = -1;
    for (int b = 0; b < I->nbufs; b++) {
        buffer *B = &I->bufs[b];
        if (!B->is_output)
            continue;
        CUDA_CHECK(cudaMemcpy(B->host, d->ptr[b], d->bytes[b], cudaMemcpyDeviceToHost));
        /* Before the buffer: offsets count back from its first element. */
        CUDA_CHECK(cudaMemcpy(guard, d->base[b], GUARD_BYTES, cudaMemcpyDeviceToHost));
        for (long i = GUARD_BYTES - 1; i >= 0; i--)
            if (guard[i] != GUARD_BYTE) {
                if (!bad++) {
                    *bad_buf = b;
                    *bad_offset = i - GUARD_BYTES;
                }
            }
        CUDA_CHECK(cudaMemcpy(guard, (char *)d->ptr[b] + d->bytes[b], GUARD_BYTES,
                              cudaMemcpyDeviceToHost));
        long f = first_changed(guard, GUARD_BYTES);
        if (f >= 0) {
            if (!bad) {
                *bad_buf = b;
                *bad_offset = (long)d->bytes[b] + f;
            }
            for (size_t i = (size_t)f; i < GUARD_BYTES; i++)
                bad += guard[i] != GUARD_BYTE;
        }
    }
    return bad;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The GPU refused a launch before it started: say which limit, with the
 * numbers, since "invalid argument" alone teaches nothing. */
_Noreturn static void launch_refused(const kernel *k, const instance *I, cudaError_t le)
{
    (void)cudaGetLastError();
    struct cudaFuncAttributes a;
    memset(&a, 0, sizeof a);
    cudaError_t ae = cudaFuncGetAttributes(&a, (const void *)k->fn);
    unsigned threads = I->block[0] * I->block[1] * I->block[2];
    g_result->outcome = OUT_RESOURCES;
    if (ae == cudaSuccess && threads > (unsigned)a.maxThreadsPerBlock)
        snprintf(g_result->message, sizeof g_result->message,
                 "While %s: the GPU refused the launch (%s). The launch has %u threads per "
                 "block, but this kernel can run at most %d: either its __launch_bounds__ "
                 "allows fewer threads than the exercise launches, or it uses so many "
                 "registers (%d per thread) that a block of %u would need more than the SM "
                 "has. Raise the first number of __launch_bounds__ to at least %u, or use "
                 "fewer registers.", g_result->stage, cudaGetErrorName(le), threads,
                 a.maxThreadsPerBlock, a.numRegs, threads, threads);
    else
        snprintf(g_result->message, sizeof g_result->message,
                 "While %s: the GPU refused the launch (%s). The block asks for %u threads "
                 "and %zu bytes of dynamic plus %zu bytes of static shared memory: one of "
                 "these is more than this GPU or this kernel allows.",
                 g_result->stage, cudaGetErrorName(le), threads, I->dyn_smem,
                 ae == cudaSuccess ? a.sharedSizeBytes : 0);
    snprintf(g_result->detail, sizeof g_result->detail, "failing call: cudaLaunchKernel\n at %s:%d",
             __FILE__, __LINE__);
    _exit(2);
}

double gpu_launch(const kernel *k, const instance *I, dev_buffers *d, int timed,
                  double timeout_s)
{
    static cudaEvent_t e0, e1;
    if (!e0) {
        CUDA_CHECK(cudaEventCreate(&e0));
        CUDA_CHECK(cudaEventCreate(&e1));
    }
    void *argp[MAX_ARGS];
    for (int a = 0; a < I->nargs; a++) {
        const arg *A = &I->args[a];
        switch (A->kind) {
        case ARG_INPUT:
        case ARG_OUTPUT: argp[a] = &d->ptr[A->buf]; break;
        case ARG_INT: argp[a] = (void *)&A->i; break;
        case ARG_FLOAT: argp[a] = (void *)&A->f; break;
        case ARG_DOUBLE: argp[a] = (void *)&A->d; break;
        }
    }
    dim3 grid = {I->grid[0], I->grid[1], I->grid[2]};
    dim3 block = {I->block[0], I->block[1], I->block[2]};
    if (I->dyn_smem > 48 * 1024)
        CUDA_CHECK(cudaFuncSetAttribute((const void *)k->fn,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)I->dyn_smem));
    if (timed)
        CUDA_CHECK(cudaEventRecord(e0, 0));
    cudaError_t le = cudaLaunchKernel((const void *)k->fn, grid, block, argp, I->dyn_smem, 0);
    if (le == cudaErrorInvalidValue || le == cudaErrorLaunchOutOfResources ||
        le == cudaErrorInvalidConfiguration)
        launch_refused(k, I, le);
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
            g_result->outcome = OUT_HANG;
            snprintf(g_result->message, sizeof g_result->message,
                     "While %s: the launch did not finish within %.0f s. A kernel "
                     "that never ends usually has a loop whose exit condition never "
                     "becomes true (check the loop variable and its step), or a "
                     "__syncthreads() that only some threads reach.",
                     g_result->stage, timeout_s);
            _exit(3);
        }
        usleep(200);
    }
    CUDA_CHECK(cudaGetLastError());
    if (!timed)
        return 0;
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    return ms;
}
