/* coalescing.cu: effective bandwidth of a copy against a misalignment offset
 * and against a stride, on the GPU it runs on (lesson 2).
 *
 * A standalone CUDA runtime program, not part of the grader:
 *   nvcc -O2 -arch=native -o build/measure/coalescing grader/measure/coalescing.cu
 *   (or -arch=sm_75 where -arch=native is not available)
 *   build/measure/coalescing > build/measure/coalescing.tsv
 * then grader/measure/coalescing.gp draws the two plots.
 *
 * Output (tab-separated, to stdout):
 *   # gpu: <device name>
 *   # date: <YYYY-MM-DD, UTC>
 *   # ... (how it was measured)
 *   kind    offset_or_stride    GBps
 *   offset  0 .. 32             useful bytes / median time
 *   stride  1 .. 32             useful bytes / median time
 * Diagnostics go to stderr.
 *
 * "Useful bytes" counts every element that is read and written once: 8 bytes
 * per thread (one float in, one float out), whatever the hardware actually
 * moved. The gap between this and the copy at offset 0 / stride 1 is the
 * bandwidth spent on bytes nobody asked for.
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

/* After a launch: a bad configuration shows up at once, a fault in the kernel
 * only at the next synchronisation; check both. */
#define CHECK_LAUNCH()                                                         \
    do {                                                                       \
        CHECK(cudaGetLastError());                                             \
        CHECK(cudaDeviceSynchronize());                                        \
    } while (0)

enum { BLOCK = 256, MAX_SHIFT = 32, WARMUP = 3, REPS = 25 };

/* Every thread copies one float. Shifting both arrays by `offset` elements
 * moves where each warp's 128-byte window starts relative to the 32-byte
 * sectors (and 128-byte lines) of memory. */
__global__ void offset_copy(const float *src, float *dst, size_t n, int offset)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        dst[t + offset] = src[t + offset];
}

/* Every thread copies one float, `stride` elements apart from its
 * neighbour's: a warp's 32 floats are spread over 32*stride*4 bytes. */
__global__ void stride_copy(const float *src, float *dst, size_t n, int stride)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        dst[t * stride] = src[t * stride];
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median time in ms of REPS launches after WARMUP, each timed with its own
 * pair of events so that one slow launch cannot hide in an average. */
static float time_copy(int is_stride, const float *src, float *dst, size_t n,
                       int param)
{
    cudaEvent_t start, stop;
    float ms[REPS];
    unsigned grid = (unsigned)((n + BLOCK - 1) / BLOCK);

    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int r = -WARMUP; r < REPS; r++) {
        CHECK(cudaEventRecord(start));
        if (is_stride)
            stride_copy<<<grid, BLOCK>>>(src, dst, n, param);
        else
            offset_copy<<<grid, BLOCK>>>(src, dst, n, param);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        if (r >= 0)
            CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    qsort(ms, REPS, sizeof ms[0], cmp_float);
    return ms[REPS / 2];
}

/* Spot-check that the copy did copy: a handful of positions, copied back. */
static void spot_check(const float *dsrc, const float *ddst, size_t n, int step,
                       int offset)
{
    size_t probe[4] = {0, n / 3, n / 2, n - 1};
    for (int p = 0; p < 4; p++) {
        size_t at = probe[p] * (size_t)step + (size_t)offset;
        float a, b;
        CHECK(cudaMemcpy(&a, dsrc + at, sizeof a, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&b, ddst + at, sizeof b, cudaMemcpyDeviceToHost));
        if (a != b) {
            fprintf(stderr, "copy check failed at element %zu: %g != %g\n", at,
                    (double)a, (double)b);
            exit(1);
        }
    }
}

/* Fills the source with something that is not zero, so the spot check
 * means something. */
__global__ void fill(float *a, size_t n)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; t < n; t += (size_t)gridDim.x * blockDim.x)
        a[t] = (float)(t % 1000003) + 0.5f;
}

int main(void)
{
    int dev = 0, count = 0, l2 = 0;
    cudaDeviceProp prop;
    size_t free_b = 0, total_b = 0;
    char date[32];
    time_t now = time(NULL);

    CHECK(cudaGetDeviceCount(&count));
    if (count < 1) {
        fprintf(stderr, "no CUDA device found\n");
        return 1;
    }
    CHECK(cudaSetDevice(dev));
    CHECK(cudaGetDeviceProperties(&prop, dev));
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));

    /* Two arrays of `elems` floats each (plus the shift). 256M floats (1 GiB
     * per array) where memory allows: at stride 32 the copy still touches
     * elems/32 separate sectors per array, 256 MiB of sectors, far more than
     * any L2. Smaller GPUs get less, down to what fits in 60% of free memory. */
    size_t elems = (size_t)256 << 20;
    size_t budget = free_b / 10 * 6;
    while (elems > ((size_t)1 << 20) && 2 * (elems + MAX_SHIFT) * sizeof(float) > budget)
        elems /= 2;
    if (2 * (elems + MAX_SHIFT) * sizeof(float) > budget) {
        fprintf(stderr, "not enough free device memory (%zu MiB free)\n", free_b >> 20);
        return 1;
    }
    if ((elems / 32) * 32 * 2 < (size_t)l2 * 4)
        fprintf(stderr, "warning: at stride 32 the footprint (%zu MiB) is under "
                "4x the L2 (%d MiB); large strides may read partly from L2\n",
                ((elems / 32) * 32 * 2) >> 20, l2 >> 20);

    float *src, *dst;
    CHECK(cudaMalloc(&src, (elems + MAX_SHIFT) * sizeof(float)));
    CHECK(cudaMalloc(&dst, (elems + MAX_SHIFT) * sizeof(float)));
    fill<<<1024, BLOCK>>>(src, elems + MAX_SHIFT);
    CHECK_LAUNCH();
    CHECK(cudaMemset(dst, 0, (elems + MAX_SHIFT) * sizeof(float)));

    printf("# gpu: %s\n", prop.name);
    printf("# date: %s\n", date);
    printf("# cc %d.%d, %d SMs, L2 %d MiB, %zu MiB per array, block %d, "
           "median of %d launches after %d warm-up\n",
           prop.major, prop.minor, prop.multiProcessorCount, l2 >> 20,
           (elems * sizeof(float)) >> 20, BLOCK, REPS, WARMUP);
    printf("# GBps = 8 bytes per copied float (4 read + 4 written) / time, 1 GB = 1e9 bytes\n");
    printf("kind\toffset_or_stride\tGBps\n");

    /* Offset: elems threads, both arrays shifted by 0..32 floats. */
    for (int off = 0; off <= MAX_SHIFT; off++) {
        float ms = time_copy(0, src, dst, elems, off);
        spot_check(src, dst, elems, 1, off);
        printf("offset\t%d\t%.1f\n", off, 8.0 * (double)elems / (ms * 1e-3) / 1e9);
        fflush(stdout);
    }

    /* Stride: elems/stride threads over the same arrays, so the footprint
     * stays the same size and the run time stays bounded. */
    for (int s = 1; s <= 32; s++) {
        size_t n = elems / (size_t)s;
        float ms = time_copy(1, src, dst, n, s);
        spot_check(src, dst, n, s, 0);
        printf("stride\t%d\t%.1f\n", s, 8.0 * (double)n / (ms * 1e-3) / 1e9);
        fflush(stdout);
    }

    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    return 0;
}
