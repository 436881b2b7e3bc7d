// floor_margin.cu: how much faster than cudaMemcpy's copy bandwidth can a
// kernel seem to move its bytes? The answer sets FLOOR_MARGIN in
// grader/core/stats.h: the grader calls a time under
// bytes_moved / copy bandwidth / FLOOR_MARGIN "TOO FAST".
//
//   nvcc -O3 -arch=native -o build/floor_margin grader/measure/floor_margin.cu
//   build/floor_margin > build/floor_margin.tsv
//
// Buffers of 4x the L2 each; before every timed launch the L2 is flushed by
// writing a buffer twice its size, as the grader does. For each way of
// moving memory it prints the best effective bandwidth over a few launch
// shapes (bytes the kernel must move / median time) and its ratio to the
// device-to-device cudaMemcpy (read + write), which is what the grader
// measures as "copy bandwidth". FLOOR_MARGIN must exceed the largest ratio
// with room for noise (the grader compares medians of ~120 launches).
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <algorithm>
#include <vector>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t e_ = (call);                                                      \
        if (e_ != cudaSuccess) {                                                      \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,             \
                    cudaGetErrorString(e_));                                          \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

__global__ void copy4(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

// Reads everything, writes one float per thread (counted, and negligible).
__global__ void read4(const float4 *__restrict__ in, float *__restrict__ out, size_t n)
{
    float s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = in[i];
        s += v.x + v.y + v.z + v.w;
    }
    out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s;
}

__global__ void write4(float4 *__restrict__ out, size_t n, float v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = make_float4(v, v, v, v);
}

static void *flush_buf;
static size_t flush_bytes;

static void flush_l2()
{
    static int val;
    CHECK(cudaMemsetAsync(flush_buf, ++val & 0xff, flush_bytes, 0));
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

enum { REPS = 31 };

// Median ms of `launch` over REPS runs, each after an L2 flush.
template <class F> static double time_ms(F launch)
{
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<double> ms;
    for (int r = -3; r < REPS; r++) {
        flush_l2();
        CHECK(cudaEventRecord(e0, 0));
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(e1, 0));
        CHECK(cudaEventSynchronize(e1));
        float t;
        CHECK(cudaEventElapsedTime(&t, e0, e1));
        if (r >= 0)
            ms.push_back(t);
    }
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    return median(ms);
}

int main()
{
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    size_t l2 = p.l2CacheSize ? (size_t)p.l2CacheSize : (64u << 20);
    size_t bytes = 4 * l2;
    size_t n4 = bytes / sizeof(float4);
    flush_bytes = 2 * l2;
    float4 *a, *b;
    float *sums;
    CHECK(cudaMalloc(&flush_buf, flush_bytes));
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMalloc(&sums, (size_t)p.multiProcessorCount * 64 * 1024 * sizeof(float)));
    CHECK(cudaMemset(a, 1, bytes));

    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    printf("# floor_margin on %s, %s; buffers of %zu MiB, L2 flushed before each launch\n",
           p.name, date, bytes >> 20);
    printf("what\tbytes_moved\tms\tGB/s\tratio_to_memcpy\n");

    double memcpy_ms = time_ms([&] {
        CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0));
    });
    double memcpy_gbps = 2.0 * bytes / (memcpy_ms * 1e-3) / 1e9;
    printf("cudaMemcpy\t%zu\t%.5f\t%.1f\t1.000\n", 2 * bytes, memcpy_ms, memcpy_gbps);

    const int per_sm[] = {2, 4, 8, 16, 32};
    const int threads[] = {128, 256, 512, 1024};
    struct { const char *what; int kind; } ways[] = {{"copy4", 0}, {"read4", 1}, {"write4", 2}};
    double worst = 1;
    for (auto &w : ways) {
        double best_gbps = 0, best_ms = 0, best_moved = 0;
        int best_b = 0, best_t = 0;
        for (int ps : per_sm)
            for (int t : threads) {
                if (ps * t > p.maxThreadsPerMultiProcessor * 2)
                    continue;
                int blocks = p.multiProcessorCount * ps;
                double moved = w.kind == 0 ? 2.0 * bytes
                             : w.kind == 1 ? bytes + 4.0 * blocks * t
                                           : (double)bytes;
                double ms = time_ms([&] {
                    if (w.kind == 0)
                        copy4<<<blocks, t>>>(a, b, n4);
                    else if (w.kind == 1)
                        read4<<<blocks, t>>>(a, sums, n4);
                    else
                        write4<<<blocks, t>>>(b, n4, 1.0f);
                });
                double gbps = moved / (ms * 1e-3) / 1e9;
                if (gbps > best_gbps) {
                    best_gbps = gbps, best_ms = ms, best_moved = moved;
                    best_b = blocks, best_t = t;
                }
            }
        printf("%s (%d x %d)\t%.0f\t%.5f\t%.1f\t%.3f\n", w.what, best_b, best_t, best_moved,
               best_ms, best_gbps, best_gbps / memcpy_gbps);
        worst = std::max(worst, best_gbps / memcpy_gbps);
    }
    printf("# largest ratio: %.3f; FLOOR_MARGIN (grader/core/stats.h) must be above it\n", worst);
    return 0;
}
