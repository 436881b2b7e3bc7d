/* l14_transfers.cu: host-device transfers: pageable against pinned memory,
 * mapped (zero-copy) reads, and copies overlapped with kernels in streams
 * (the design question of lesson 14).
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -o build/probes/l14 grader/measure/probes/l14_transfers.cu
 *   build/probes/l14 > l14.tsv
 * (run by grader/measure/probe-new-lessons.sh; any GPU.)
 *
 * Rows (tab-separated, after the "# " header lines):
 *   l14 bw DIR MEM BYTES - ms GBps -
 *       cudaMemcpy of BYTES host<->device, DIR H2D or D2H, MEM pageable
 *       (malloc, pages touched first), pinned (cudaMallocHost) or registered
 *       (malloc + cudaHostRegister); wall-clock median, the copy synchronous
 * l14 zerocopy read mapped BYTES - ms GBps -
 *       a kernel summing BYTES of mapped pinned host memory over the bus
 * l14 kernel alone - W - ms GBps -
 *       the overlap experiment's kernel on device-resident data (W dependent
 *       FMAs per element; W = 1 is a copy, the second W is chosen so the
 *       kernel takes about as long as the input's host-to-device copy)
 * l14 overlap CONFIG MEM W STREAMS ms GBps check
 *       256 MiB of floats in, kernel, 256 MiB out: CONFIG "serial" (one
 *       cudaMemcpy, kernel, cudaMemcpy) or "streams" (the data cut into
 *       4*STREAMS chunks, chunk c on stream c % STREAMS: cudaMemcpyAsync in,
 *       kernel, cudaMemcpyAsync out); GBps counts the bytes in and out; check
 *       compares the output with the serial pinned run's. */
#include "probe_common.cuh"

#define BIG ((size_t)256 << 20)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median wall-clock ms of `reps` runs of f (each ends synchronised), after
 * one untimed run; negative when a run failed. */
template <class F>
static double wall_median(F f, int reps)
{
    double t[32];
    if (reps > 32)
        reps = 32;
    if (!f())
        return -1;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        if (!f())
            return -1;
        t[r] = now_ms() - t0;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2];
}

__global__ void work_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n, int w)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int k = 0; k < w; k++)
            v = fmaf(v, 0.999f, 0.001f);
        y[i] = v;
    }
}

/* Sums n floats read straight from mapped host memory; one atomic per block. */
__global__ void zerocopy_sum(const float4 *__restrict__ x, size_t n4, float *sum)
{
    float acc = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = x[i];
        acc += v.x + v.y + v.z + v.w;
    }
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(sum, acc);
}

static void bw_row(const char *dir, const char *mem, size_t bytes, void *dst, const void *src,
                   cudaMemcpyKind kind)
{
    const int reps = bytes >= ((size_t)64 << 20) ? 5 : 20;
    double ms = wall_median([=] { return TRY(cudaMemcpy(dst, src, bytes, kind)) &&
                                         TRY(cudaDeviceSynchronize()); },
                            reps);
    if (ms < 0)
        printf("l14\tbw\t%s\t%s\t%zu\t-\tFAIL\t-\t-\n", dir, mem, bytes);
    else
        printf("l14\tbw\t%s\t%s\t%zu\t-\t%.4f\t%.2f\t-\n", dir, mem, bytes, ms,
               bytes / ms * 1e-6);
    fflush(stdout);
}

struct overlap {
    float *d_in, *d_out;
    float *pin_in, *pin_out, *page_in, *page_out, *ref;
    cudaStream_t streams[16];
    size_t n;
};

/* One in-kernel-out pass over all n floats; `streams` 0 means the serial
 * form. Returns false when a call failed. */
static bool overlap_pass(overlap *o, bool pinned, int w, int streams)
{
    float *in = pinned ? o->pin_in : o->page_in, *out = pinned ? o->pin_out : o->page_out;
    const size_t n = o->n;
    if (streams == 0) {
        bool ok = TRY(cudaMemcpy(o->d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
        work_kernel<<<(unsigned)((n + 255) / 256), 256>>>(o->d_in, o->d_out, n, w);
        return ok && TRY(cudaGetLastError()) &&
               TRY(cudaMemcpy(out, o->d_out, n * sizeof(float), cudaMemcpyDeviceToHost)) &&
               TRY(cudaDeviceSynchronize());
    }
    const int chunks = 4 * streams;
    const size_t per = (n + chunks - 1) / chunks;
    for (int c = 0; c < chunks; c++) {
        const size_t off = (size_t)c * per;
        if (off >= n)
            break;
        const size_t len = off + per <= n ? per : n - off;
        cudaStream_t s = o->streams[c % streams];
        if (!TRY(cudaMemcpyAsync(o->d_in + off, in + off, len * sizeof(float),
                                 cudaMemcpyHostToDevice, s)))
            return false;
        work_kernel<<<(unsigned)((len + 255) / 256), 256, 0, s>>>(o->d_in + off, o->d_out + off,
                                                                len, w);
        if (!TRY(cudaGetLastError()) ||
            !TRY(cudaMemcpyAsync(out + off, o->d_out + off, len * sizeof(float),
                                 cudaMemcpyDeviceToHost, s)))
            return false;
    }
    return TRY(cudaDeviceSynchronize());
}

static void overlap_row(overlap *o, bool pinned, int w, int streams, bool keep_ref)
{
    double ms = wall_median([=] { return overlap_pass(o, pinned, w, streams); }, 5);
    const char *config = streams ? "streams" : "serial";
    const char *mem = pinned ? "pinned" : "pageable";
    if (ms < 0) {
        printf("l14\toverlap\t%s\t%s\t%d\t%d\tFAIL\t-\tFAIL\n", config, mem, w, streams);
        fflush(stdout);
        return;
    }
    const float *out = pinned ? o->pin_out : o->page_out;
    const char *check = "ok";
    if (keep_ref)
        memcpy(o->ref, out, o->n * sizeof(float)), check = "ref";
    else if (memcmp(o->ref, out, o->n * sizeof(float)))
        check = "BAD";
    printf("l14\toverlap\t%s\t%s\t%d\t%d\t%.4f\t%.2f\t%s\n", config, mem, w, streams, ms,
           2.0 * o->n * sizeof(float) / ms * 1e-6, check);
    fflush(stdout);
}

int main()
{
    probe_device dev = probe_open("l14_transfers",
                                  "pageable vs pinned copies, zero-copy, copy/kernel overlap");
    printf("# columns: probe kind what mem bytes_or_W streams ms GBps check\n");
    printf("# copy engines: %d  (2 or more: a host-to-device and a device-to-host copy can "
           "run at once)  canMapHostMemory: %d  integrated: %d\n",
           dev.prop.asyncEngineCount, dev.prop.canMapHostMemory, dev.prop.integrated);
    printf("probe\tkind\twhat\tmem\tbytes\tstreams\tms\tGBps\tcheck\n");

    float *page = (float *)malloc(BIG), *pin = NULL, *dev_buf = NULL;
    if (!page || !TRY(cudaMallocHost(&pin, BIG)) || !TRY(cudaMalloc(&dev_buf, BIG))) {
        fprintf(stderr, "l14: cannot allocate the 256 MiB buffers\n");
        return 1;
    }
    memset(page, 1, BIG);   /* touch every page: no first-touch faults in the timing */
    memset(pin, 1, BIG);
    const size_t sizes[] = {(size_t)64 << 10, (size_t)1 << 20, (size_t)16 << 20, BIG};
    for (size_t bytes : sizes) {
        bw_row("H2D", "pageable", bytes, dev_buf, page, cudaMemcpyHostToDevice);
        bw_row("H2D", "pinned", bytes, dev_buf, pin, cudaMemcpyHostToDevice);
        bw_row("D2H", "pageable", bytes, page, dev_buf, cudaMemcpyDeviceToHost);
        bw_row("D2H", "pinned", bytes, pin, dev_buf, cudaMemcpyDeviceToHost);
    }
    /* Pinning an existing allocation in place. */
    if (TRY(cudaHostRegister(page, BIG, cudaHostRegisterDefault))) {
        bw_row("H2D", "registered", BIG, dev_buf, page, cudaMemcpyHostToDevice);
        bw_row("D2H", "registered", BIG, page, dev_buf, cudaMemcpyDeviceToHost);
        TRY(cudaHostUnregister(page));
    }

    /* Zero-copy: the kernel reads host memory over the bus. */
    float *mapped = NULL, *d_mapped = NULL, *d_sum = NULL;
    if (dev.prop.canMapHostMemory && TRY(cudaHostAlloc(&mapped, BIG, cudaHostAllocMapped)) &&
        TRY(cudaHostGetDevicePointer(&d_mapped, mapped, 0)) && TRY(cudaMalloc(&d_sum, 4))) {
        memset(mapped, 0, BIG);
        const unsigned grid = (unsigned)dev.sms * 8;
        double ms = wall_median([=] {
            zerocopy_sum<<<grid, 256>>>((const float4 *)d_mapped, BIG / 16, d_sum);
            return TRY_LAUNCH();
        }, 5);
        if (ms < 0)
            printf("l14\tzerocopy\tread\tmapped\t%zu\t-\tFAIL\t-\t-\n", BIG);
        else
            printf("l14\tzerocopy\tread\tmapped\t%zu\t-\t%.4f\t%.2f\t-\n", BIG, ms,
                   BIG / ms * 1e-6);
        fflush(stdout);
        TRY(cudaFreeHost(mapped));
    }

    /* Overlap. */
    overlap o;
    o.n = BIG / sizeof(float);
    o.page_in = page;
    o.pin_in = pin;
    o.page_out = (float *)malloc(BIG);
    o.ref = (float *)malloc(BIG);
    o.d_in = dev_buf;
    if (!o.page_out || !o.ref || !TRY(cudaMallocHost(&o.pin_out, BIG)) ||
        !TRY(cudaMalloc(&o.d_out, BIG))) {
        fprintf(stderr, "l14: cannot allocate the overlap buffers\n");
        return 1;
    }
    memset(o.page_out, 0, BIG);
    memset(o.pin_out, 0, BIG);
    for (size_t i = 0; i < o.n; i++)
        o.pin_in[i] = o.page_in[i] = (float)(i & 1023) / 1024.0f;
    for (int s = 0; s < 16; s++)
        if (!TRY(cudaStreamCreateWithFlags(&o.streams[s], cudaStreamNonBlocking)))
            return 1;

    /* W for a kernel about as long as the input's pinned copy. */
    const unsigned grid = (unsigned)((o.n + 255) / 256);
    auto kernel_ms = [&](int w) {
        return wall_median([&] {
            work_kernel<<<grid, 256>>>(o.d_in, o.d_out, o.n, w);
            return TRY_LAUNCH();
        }, 5);
    };
    double h2d = wall_median([&] {
        return TRY(cudaMemcpy(o.d_in, o.pin_in, BIG, cudaMemcpyHostToDevice)) &&
               TRY(cudaDeviceSynchronize());
    }, 5);
    double k256 = kernel_ms(256);
    int heavy = 2048;
    if (h2d > 0 && k256 > 0) {
        double w = 256.0 * h2d / k256;
        heavy = w < 16 ? 16 : w > 65536 ? 65536 : (int)w;
    }
    const int ws[] = {1, heavy};
    for (int w : ws) {
        double k = kernel_ms(w);
        if (k < 0)
            printf("l14\tkernel\talone\t-\t%d\t-\tFAIL\t-\t-\n", w);
        else
            printf("l14\tkernel\talone\t-\t%d\t-\t%.4f\t%.2f\t-\n", w, k,
                   2.0 * BIG / k * 1e-6);
        fflush(stdout);
        overlap_row(&o, true, w, 0, true);
        overlap_row(&o, false, w, 0, false);
        const int ss[] = {2, 4, 8, 16};
        for (int s : ss)
            overlap_row(&o, true, w, s, false);
        overlap_row(&o, false, w, 4, false);
    }
    fprintf(stderr, "l14: %d failed CUDA calls\n", probe_failures);
    return probe_failures ? 1 : 0;
}
