// latency_probe.cu: the device-memory latency, measured several ways, to
// check the one figure the grader measures (device_cuda.c, cuda_latency_ns)
// and to show how the latency grows when the memory is busy.
//
//   nvcc -O3 -arch=native -o build/latency_probe grader/measure/latency_probe.cu
//   build/latency_probe > build/latency_probe.tsv
//
// A chase is one thread following pointers: each load's address is the value
// the previous load returned, so no two loads overlap and the time per hop is
// one load's latency. Lines are visited once each after the L2 is flushed
// (a write of twice its size), so every hop misses L1 and L2.
//
//   idle  the grader's pattern: 48 hops in a 2 MB page (lines in a scattered
//         order), then the next page, over 4x the L2; and variants: 16x the
//         L2, one hop per page (a TLB miss on most hops), and a buffer that
//         fits in L2, read once before (the L2 hit latency)
//   busy  the same chase while the other blocks of the same launch stream
//         through another buffer (float4 loads, UNROLL 4 per thread), with
//         1, 2 or 4 blocks of 256 threads per SM: the latency a load sees
//         when the memory is as busy as a fast kernel makes it. The chase
//         thread times itself with %globaltimer; the streaming blocks stop
//         when it is done (or after 200 ms, whatever happens)
//
// Output: one TSV line per case (case, stream GB/s, ns per hop), then a
// SUMMARY line.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

static const size_t PAGE = 2u << 20, LINES = PAGE / 128;

__device__ __forceinline__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ uint64_t hop(uint64_t p)
{
    uint64_t q;
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(q) : "l"(p) : "memory");
    return q;
}

__device__ unsigned long long chase(uint64_t p, int hops, uint64_t *out)
{
    unsigned long long t0 = now_ns();
    for (int i = 0; i < hops; i++)
        p = hop(p);
    unsigned long long t1 = now_ns();
    *out = p;
    return t1 - t0;
}

// Block 0, thread 0 chases; every other block streams until it is done.
__global__ void chase_under_load(uint64_t start, int hops, uint64_t *out,
                                 unsigned long long *ns, const float4 *stream, size_t n4,
                                 volatile int *stop, unsigned long long *streamed,
                                 float *sink)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) {
            *ns = chase(start, hops, out);
            __threadfence();
            *stop = 1;
        }
        return;
    }
    const unsigned long long t0 = now_ns();
    const size_t threads = (size_t)(gridDim.x - 1) * blockDim.x;
    const size_t me = (size_t)(blockIdx.x - 1) * blockDim.x + threadIdx.x;
    float acc = 0;
    unsigned long long bytes = 0;
    // n4 is far more than 4 * threads, so one subtraction wraps an index.
    for (size_t base = 0; !*stop && now_ns() - t0 < 200000000ull;) {
        float4 v[4];
#pragma unroll
        for (int u = 0; u < 4; u++) {
            size_t i = base + me + u * threads;
            v[u] = stream[i < n4 ? i : i - n4];
        }
#pragma unroll
        for (int u = 0; u < 4; u++)
            acc += v[u].x + v[u].y + v[u].z + v[u].w;
        bytes += 4 * sizeof(float4);
        base += 4 * threads;
        if (base >= n4)
            base -= n4;
    }
    atomicAdd(streamed, bytes);
    if (acc == 12345.678f)
        *sink = acc;
}

// Hop k's place in the chain, as the grader lays it out: `per_page` hops in
// one page in a scattered order of lines, then the next page.
static size_t offset_of(size_t k, size_t per_page)
{
    size_t page = k / per_page, j = k % per_page;
    size_t line = (j * 40503 + page * 97) % LINES;
    return page * PAGE + line * 128;
}

struct chain {
    char *buf;
    size_t hops;
};

// The chain over `pages` pages with `per_page` hops in each, built on the
// host and uploaded page by page.
static chain build_chain(size_t pages, size_t per_page)
{
    chain c;
    c.hops = pages * per_page;
    CHECK(cudaMalloc(&c.buf, pages * PAGE));
    std::vector<char> page(PAGE, 0);
    for (size_t p = 0; p < pages; p++) {
        std::fill(page.begin(), page.end(), 0);
        for (size_t j = 0; j < per_page; j++) {
            size_t k = p * per_page + j;
            uint64_t next = (uint64_t)(uintptr_t)(c.buf + offset_of((k + 1) % c.hops, per_page));
            *(uint64_t *)&page[offset_of(k, per_page) - p * PAGE] = next;
        }
        CHECK(cudaMemcpy(c.buf + p * PAGE, page.data(), PAGE, cudaMemcpyHostToDevice));
    }
    return c;
}

static void *flush_buf;
static size_t flush_bytes;

static void flush_l2()
{
    static int v;
    CHECK(cudaMemset(flush_buf, ++v & 0xff, flush_bytes));
}

__global__ void chase_alone(uint64_t start, int hops, uint64_t *out, unsigned long long *ns)
{
    *ns = chase(start, hops, out);
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// ns per hop, median of 5 (after one warm-up), L2 flushed before each
// unless `warm` (then the chain is walked once before each timed walk).
static double idle_ns(const chain &c, uint64_t *out, unsigned long long *ns, bool warm)
{
    std::vector<double> t;
    for (int r = -1; r < 5; r++) {
        flush_l2();
        if (warm)
            chase_alone<<<1, 1>>>((uint64_t)(uintptr_t)c.buf, (int)c.hops, out, ns);
        chase_alone<<<1, 1>>>((uint64_t)(uintptr_t)c.buf, (int)c.hops, out, ns);
        CHECK(cudaGetLastError());
        unsigned long long h;
        CHECK(cudaMemcpy(&h, ns, sizeof h, cudaMemcpyDeviceToHost));
        if (r >= 0)
            t.push_back((double)h / c.hops);
    }
    return median(t);
}

int main()
{
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    size_t l2 = (size_t)p.l2CacheSize;
    int sms = p.multiProcessorCount;
    printf("# %s, %d SMs, L2 %zu MB\n", p.name, sms, l2 >> 20);
    flush_bytes = 2 * l2;
    CHECK(cudaMalloc(&flush_buf, flush_bytes));
    uint64_t *out;
    unsigned long long *ns, *streamed;
    int *stop;
    float *sink;
    CHECK(cudaMalloc(&out, 8));
    CHECK(cudaMalloc(&ns, 8));
    CHECK(cudaMalloc(&streamed, 8));
    CHECK(cudaMalloc(&stop, 4));
    CHECK(cudaMalloc(&sink, 4));

    size_t pages4 = (4 * l2 + PAGE - 1) / PAGE;
    chain grader = build_chain(pages4, 48);
    double grader_ns = idle_ns(grader, out, ns, false);
    printf("case\tstream_GBps\tns_per_hop\n");
    printf("idle: grader's chase (4x L2, 48 hops per 2 MB page)\t0\t%.0f\n", grader_ns);
    {
        chain c = build_chain(4 * pages4, 12);
        printf("idle: 16x L2, 12 hops per page\t0\t%.0f\n", idle_ns(c, out, ns, false));
        CHECK(cudaFree(c.buf));
        c = build_chain(pages4, 1);
        printf("idle: 4x L2, 1 hop per page (TLB misses)\t0\t%.0f\n",
               idle_ns(c, out, ns, false));
        CHECK(cudaFree(c.buf));
        c = build_chain(std::max<size_t>(1, l2 / 4 / PAGE), 256);
        printf("idle: L2 hit (a quarter of L2, walked once before)\t0\t%.0f\n",
               idle_ns(c, out, ns, true));
        CHECK(cudaFree(c.buf));
    }

    // The stream: 4x the L2 of float4, any contents.
    size_t n4 = 4 * l2 / sizeof(float4);
    float4 *stream;
    CHECK(cudaMalloc(&stream, n4 * sizeof(float4)));
    CHECK(cudaMemset(stream, 0, n4 * sizeof(float4)));
    double busiest_ns = 0, busiest_gbps = 0;
    for (int per_sm : {1, 2, 4}) {
        std::vector<double> t, g;
        for (int r = -1; r < 3; r++) {
            flush_l2();
            CHECK(cudaMemset(stop, 0, 4));
            CHECK(cudaMemset(streamed, 0, 8));
            // Every block must be resident at once (block 0 among them):
            // at most 4 blocks of 256 threads per SM always fit.
            chase_under_load<<<1 + per_sm * sms, 256>>>((uint64_t)(uintptr_t)grader.buf,
                                                       (int)grader.hops, out, ns, stream, n4,
                                                       stop, streamed, sink);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            unsigned long long h, b;
            CHECK(cudaMemcpy(&h, ns, sizeof h, cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(&b, streamed, sizeof b, cudaMemcpyDeviceToHost));
            if (r >= 0) {
                t.push_back((double)h / grader.hops);
                g.push_back((double)b / (double)h);   // bytes per ns = GB/s (approx.:
                                                      // streaming runs about as long)
            }
        }
        double tn = median(t), gb = median(g);
        printf("busy: chase with %d streaming block(s) of 256 per SM\t%.0f\t%.0f\n", per_sm, gb,
               tn);
        if (gb > busiest_gbps)
            busiest_gbps = gb, busiest_ns = tn;
    }
    printf("SUMMARY idle latency %.0f ns (grader's chase); at %.0f GB/s of streaming reads, "
           "%.0f ns\n", grader_ns, busiest_gbps, busiest_ns);
    return 0;
}
