/* transfers.cu: host-device transfers on the GPU it runs on (lesson 14):
 * pageable against pinned host memory, and copies overlapped with a kernel
 * in streams.
 *
 * A standalone CUDA runtime program, not part of the grader:
 *   make measure lesson14
 * which runs
 *   nvcc -O2 -arch=native -o build/measure/transfers grader/measure/transfers.cu
 *   build/measure/transfers > build/measure/transfers.tsv
 * and draws the plots with grader/measure/transfers.gp.
 *
 * The lesson's figures and tables come from this program's run on the H100
 * (grader/calibration/h100-2026-11-23-c/measure/transfers.tsv). Its rows
 * are those of the earlier probe grader/measure/probes/l14_transfers.cu
 * (grader/calibration/h100-2026-11-23-b/lessons/l14.tsv), with more copy
 * sizes and without the probe's registered and zero-copy rows, so
 * transfers.gp draws either:
 *   l14 bw DIR MEM BYTES - ms GBps -
 *       cudaMemcpy of BYTES, DIR H2D or D2H, MEM pageable (malloc, every
 *       page touched first) or pinned (cudaMallocHost); wall-clock median
 *       of several copies, each synchronous
 *   l14 kernel alone - W - ms GBps -
 *       the overlap experiment's kernel alone on device-resident data: W
 *       dependent multiply-adds per element (W = 1: a copy; the second W
 *       makes the kernel about as long as the input's pinned copy)
 *   l14 overlap CONFIG MEM W STREAMS ms GBps check
 *       N MiB of floats in, kernel, N MiB out. CONFIG serial: cudaMemcpy,
 *       kernel, cudaMemcpy. CONFIG streams: the data cut into 4*STREAMS
 *       chunks, chunk c on stream c % STREAMS: cudaMemcpyAsync in, kernel,
 *       cudaMemcpyAsync out. GBps counts the bytes in and out; check says
 *       whether the output equals the serial pinned run's.
 * Header lines start with "# " (gpu, date, copy engines). Diagnostics go to
 * stderr; a failed CUDA call ends the program with its name and reason.
 *
 * Host memory: 5 buffers of N MiB (2 of them pinned), device memory 2; N is
 * 256 where the GPU has the memory, less otherwise.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        cudaError_t err_ = (call);                                             \
        if (err_ != cudaSuccess) {                                             \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, \
                    #call, cudaGetErrorString(err_), cudaGetErrorName(err_));  \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

enum { MAX_STREAMS = 16, MAX_REPS = 32 };

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

/* W dependent multiply-adds per element: W = 1 is a copy, a large W a
 * kernel that computes for a while on each element. */
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

static void launch_work(const float *x, float *y, size_t n, int w, cudaStream_t s)
{
    work_kernel<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(x, y, n, w);
    CHECK(cudaGetLastError());
}

/* One synchronous copy of `bytes`; the median of `reps` after one untimed. */
static double copy_ms(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, int reps)
{
    double t[MAX_REPS];
    CHECK(cudaMemcpy(dst, src, bytes, kind));
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        CHECK(cudaMemcpy(dst, src, bytes, kind));
        CHECK(cudaDeviceSynchronize());
        t[r] = now_ms() - t0;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2];
}

struct bufs {
    float *page_in, *page_out, *pin_in, *pin_out, *ref, *d_in, *d_out;
    size_t n;
    cudaStream_t streams[MAX_STREAMS];
};

/* In, kernel, out over all n floats, from pinned or pageable memory;
 * streams == 0 is the serial form. Ends synchronised. */
static void pass(struct bufs *b, int pinned, int w, int streams)
{
    float *in = pinned ? b->pin_in : b->page_in, *out = pinned ? b->pin_out : b->page_out;
    const size_t n = b->n;
    if (streams == 0) {
        CHECK(cudaMemcpy(b->d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
        launch_work(b->d_in, b->d_out, n, w, 0);
        CHECK(cudaMemcpy(out, b->d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
        CHECK(cudaDeviceSynchronize());
        return;
    }
    const int chunks = 4 * streams;
    const size_t per = (n + chunks - 1) / chunks;
    for (int c = 0; c < chunks; c++) {
        const size_t off = (size_t)c * per;
        if (off >= n)
            break;
        const size_t len = off + per <= n ? per : n - off;
        cudaStream_t s = b->streams[c % streams];
        CHECK(cudaMemcpyAsync(b->d_in + off, in + off, len * sizeof(float),
                              cudaMemcpyHostToDevice, s));
        launch_work(b->d_in + off, b->d_out + off, len, w, s);
        CHECK(cudaMemcpyAsync(out + off, b->d_out + off, len * sizeof(float),
                              cudaMemcpyDeviceToHost, s));
    }
    CHECK(cudaDeviceSynchronize());
}

static double pass_ms(struct bufs *b, int pinned, int w, int streams)
{
    double t[5];
    pass(b, pinned, w, streams);
    for (int r = 0; r < 5; r++) {
        double t0 = now_ms();
        pass(b, pinned, w, streams);
        t[r] = now_ms() - t0;
    }
    qsort(t, 5, sizeof t[0], cmp_double);
    return t[2];
}

static void overlap_row(struct bufs *b, int pinned, int w, int streams, int keep_ref)
{
    double ms = pass_ms(b, pinned, w, streams);
    const float *out = pinned ? b->pin_out : b->page_out;
    const char *check = "ok";
    if (keep_ref) {
        memcpy(b->ref, out, b->n * sizeof(float));
        check = "ref";
    } else if (memcmp(b->ref, out, b->n * sizeof(float)) != 0) {
        check = "BAD";
    }
    printf("l14\toverlap\t%s\t%s\t%d\t%d\t%.4f\t%.2f\t%s\n", streams ? "streams" : "serial",
           pinned ? "pinned" : "pageable", w, streams, ms,
           2.0 * b->n * sizeof(float) / ms * 1e-6, check);
    fflush(stdout);
}

static double kernel_ms(struct bufs *b, int w)
{
    double t[5];
    for (int r = -1; r < 5; r++) {
        double t0 = now_ms();
        launch_work(b->d_in, b->d_out, b->n, w, 0);
        CHECK(cudaDeviceSynchronize());
        if (r >= 0)
            t[r] = now_ms() - t0;
    }
    qsort(t, 5, sizeof t[0], cmp_double);
    return t[2];
}

static void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "out of host memory (%zu MiB)\n", bytes >> 20);
        exit(1);
    }
    memset(p, 0, bytes);   /* touch every page: no first-touch faults in the timing */
    return p;
}

int main(void)
{
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    if (count < 1) {
        fprintf(stderr, "no CUDA device found\n");
        return 1;
    }
    cudaDeviceProp prop;
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDeviceProperties(&prop, 0));
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));

    /* 256 MiB per buffer where two fit in half the free device memory. */
    size_t big = (size_t)256 << 20;
    while (big > ((size_t)16 << 20) && 2 * big > free_b / 2)
        big /= 2;

    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    printf("# probe: transfers (make measure lesson14)\n# gpu: %s\n# date: %s\n", prop.name, date);
    printf("# copy engines: %d  (2 or more: a host-to-device and a device-to-host copy can "
           "run at once)  integrated: %d\n", prop.asyncEngineCount, prop.integrated);
    printf("# buffers of %zu MiB; copy times are wall-clock medians, 1 GB = 1e9 bytes\n",
           big >> 20);
    printf("probe\tkind\twhat\tmem\tbytes\tstreams\tms\tGBps\tcheck\n");

    struct bufs b;
    b.n = big / sizeof(float);
    b.page_in = (float *)host_alloc(big);
    b.page_out = (float *)host_alloc(big);
    b.ref = (float *)host_alloc(big);
    CHECK(cudaMallocHost(&b.pin_in, big));
    CHECK(cudaMallocHost(&b.pin_out, big));
    memset(b.pin_out, 0, big);
    CHECK(cudaMalloc(&b.d_in, big));
    CHECK(cudaMalloc(&b.d_out, big));
    for (size_t i = 0; i < b.n; i++)
        b.pin_in[i] = b.page_in[i] = (float)(i & 1023) / 1024.0f;
    for (int s = 0; s < MAX_STREAMS; s++)
        CHECK(cudaStreamCreateWithFlags(&b.streams[s], cudaStreamNonBlocking));

    /* Copy bandwidth from 4 KiB to the buffer size, by factors of 4. */
    for (size_t bytes = (size_t)4 << 10; bytes <= big; bytes *= 4) {
        const int reps = bytes >= ((size_t)64 << 20) ? 5 : 20;
        const struct { const char *dir, *mem; void *dst; const void *src; cudaMemcpyKind k; } c[4] = {
            {"H2D", "pageable", b.d_in, b.page_in, cudaMemcpyHostToDevice},
            {"H2D", "pinned", b.d_in, b.pin_in, cudaMemcpyHostToDevice},
            {"D2H", "pageable", b.page_out, b.d_out, cudaMemcpyDeviceToHost},
            {"D2H", "pinned", b.pin_out, b.d_out, cudaMemcpyDeviceToHost},
        };
        for (int i = 0; i < 4; i++) {
            double ms = copy_ms(c[i].dst, c[i].src, bytes, c[i].k, reps);
            printf("l14\tbw\t%s\t%s\t%zu\t-\t%.4f\t%.2f\t-\n", c[i].dir, c[i].mem, bytes, ms,
                   bytes / ms * 1e-6);
            fflush(stdout);
        }
    }

    /* Overlap, with a kernel as short as a copy (W = 1) and one about as long
     * as the input's pinned copy. */
    double h2d = copy_ms(b.d_in, b.pin_in, big, cudaMemcpyHostToDevice, 5);
    double k256 = kernel_ms(&b, 256);
    int heavy = (int)(256.0 * h2d / k256);
    heavy = heavy < 16 ? 16 : heavy > 65536 ? 65536 : heavy;
    const int ws[2] = {1, heavy};
    const int ss[4] = {2, 4, 8, 16};
    for (int wi = 0; wi < 2; wi++) {
        int w = ws[wi];
        double k = kernel_ms(&b, w);
        printf("l14\tkernel\talone\t-\t%d\t-\t%.4f\t%.2f\t-\n", w, k, 2.0 * big / k * 1e-6);
        overlap_row(&b, 1, w, 0, 1);
        overlap_row(&b, 0, w, 0, 0);
        for (int i = 0; i < 4; i++)
            overlap_row(&b, 1, w, ss[i], 0);
        overlap_row(&b, 0, w, 4, 0);
    }
    return 0;
}
