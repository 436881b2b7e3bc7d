/* probe_common.cuh: what every probe of grader/measure/probe-new-lessons.sh
 * shares: checked CUDA calls, a kernel timer with the L2 flushed before each
 * launch, and the header lines of the TSV it prints.
 *
 * These probes are experiments that decide the design of lessons 11-14 and
 * two questions of lessons 6-9; they are not graded exercises. Each probe is a
 * standalone program (nvcc -arch=sm_90) that prints tab-separated rows to
 * stdout and diagnostics to stderr.
 *
 * Failure rule: a failed CUDA call prints which call, where and why, and is
 * counted; a probe row whose kernel failed says FAIL instead of a time. An
 * error that leaves the context unusable (a fault inside a kernel) ends the
 * program with status 3 after saying so; the driver script runs every probe
 * in its own process, so the other probes still run. */
#ifndef PROBE_COMMON_CUH
#define PROBE_COMMON_CUH

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int probe_failures = 0;

/* True when the error leaves the context unusable: every later call would
 * fail with the same error, so the program cannot go on. */
static bool probe_sticky(cudaError_t e)
{
    return e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure ||
           e == cudaErrorHardwareStackError || e == cudaErrorIllegalInstruction ||
           e == cudaErrorMisalignedAddress || e == cudaErrorInvalidAddressSpace ||
           e == cudaErrorInvalidPc || e == cudaErrorAssert || e == cudaErrorLaunchTimeout ||
           e == cudaErrorECCUncorrectable || e == cudaErrorUnknown;
}

/* Checks one CUDA call: prints it and counts it when it failed, exits with
 * status 3 when the failure is sticky. Returns whether it succeeded. */
static bool probe_try(cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess)
        return true;
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, what,
            cudaGetErrorString(e), cudaGetErrorName(e));
    probe_failures++;
    if (probe_sticky(e)) {
        fprintf(stderr, "%s:%d: the CUDA context is unusable after this error; "
                        "this probe stops here (the others still run)\n", file, line);
        fflush(stdout);
        exit(3);
    }
    return false;
}
#define TRY(call) probe_try((call), #call, __FILE__, __LINE__)

/* After a launch: a bad configuration shows at once, a fault in the kernel
 * only at the next synchronisation. */
#define TRY_LAUNCH() (TRY(cudaGetLastError()) && TRY(cudaDeviceSynchronize()))

static int probe_cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Device facts every probe prints and some use. */
struct probe_device {
    cudaDeviceProp prop;
    int sms;
};

/* Opens device 0 and prints the TSV header lines: GPU, date, what the
 * columns mean is left to each probe. Exits with status 2 without a GPU. */
static probe_device probe_open(const char *probe_name, const char *about)
{
    probe_device d;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        fprintf(stderr, "%s: no usable GPU (%s)\n", probe_name,
                e != cudaSuccess ? cudaGetErrorString(e) : "no devices");
        exit(2);
    }
    if (!TRY(cudaSetDevice(0)) || !TRY(cudaGetDeviceProperties(&d.prop, 0)))
        exit(2);
    d.sms = d.prop.multiProcessorCount;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    printf("# probe: %s\n# about: %s\n# gpu: %s\n# date: %s\n", probe_name, about,
           d.prop.name, date);
    printf("# cc: %d.%d  sms: %d  l2: %d KiB  smem/sm: %zu KiB  smem/block optin: %zu KiB  "
           "driver: %d  runtime: %d\n",
           d.prop.major, d.prop.minor, d.sms, d.prop.l2CacheSize >> 10,
           d.prop.sharedMemPerMultiprocessor >> 10, d.prop.sharedMemPerBlockOptin >> 10,
           drv, rt);
    return d;
}

/* Times `launch` (a callable that enqueues one kernel on stream 0): `warm`
 * untimed launches, then `reps` timed ones, each preceded by an L2 flush
 * (a memset of twice the L2) when `flush` is set. Returns the median in ms, or
 * a negative number when a launch failed. */
struct probe_timer {
    cudaEvent_t start, stop;
    void *flush_buf;
    size_t flush_bytes;
};

static bool probe_timer_init(probe_timer *t, const probe_device *d)
{
    t->flush_bytes = 2 * (size_t)d->prop.l2CacheSize;
    if (t->flush_bytes < ((size_t)64 << 20))
        t->flush_bytes = (size_t)64 << 20;
    return TRY(cudaEventCreate(&t->start)) && TRY(cudaEventCreate(&t->stop)) &&
           TRY(cudaMalloc(&t->flush_buf, t->flush_bytes));
}

template <class F>
static float probe_time(probe_timer *t, F launch, int warm, int reps, bool flush)
{
    enum { MAXREPS = 64 };
    float ms[MAXREPS];
    if (reps > MAXREPS)
        reps = MAXREPS;
    for (int r = 0; r < warm; r++) {
        launch();
        if (!TRY_LAUNCH())
            return -1.0f;
    }
    for (int r = 0; r < reps; r++) {
        if (flush && !TRY(cudaMemsetAsync(t->flush_buf, r & 0xff, t->flush_bytes)))
            return -1.0f;
        if (!TRY(cudaEventRecord(t->start)))
            return -1.0f;
        launch();
        if (!TRY(cudaGetLastError()) || !TRY(cudaEventRecord(t->stop)) ||
            !TRY(cudaEventSynchronize(t->stop)) ||
            !TRY(cudaEventElapsedTime(&ms[r], t->start, t->stop)))
            return -1.0f;
    }
    qsort(ms, (size_t)reps, sizeof ms[0], probe_cmp_float);
    return ms[reps / 2];
}

/* Registers, local memory and static shared memory of a kernel, for the
 * rows: a spill or an unexpected local array shows here. */
struct probe_attr {
    int regs;
    size_t local_bytes, smem_bytes;
};

static probe_attr probe_attributes(const void *func)
{
    probe_attr a = {-1, 0, 0};
    cudaFuncAttributes fa;
    if (TRY(cudaFuncGetAttributes(&fa, func))) {
        a.regs = fa.numRegs;
        a.local_bytes = fa.localSizeBytes;
        a.smem_bytes = fa.sharedSizeBytes;
    }
    return a;
}

#endif
