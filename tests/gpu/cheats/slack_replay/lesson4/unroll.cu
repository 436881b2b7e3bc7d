/* Cheat (issue 25 item 1): a replay cache with no __device__ variable.
 * cudaMalloc hands out large buffers in whole 2 MiB pages, so memory past
 * an array's end is mapped, lives as long as the array, and (before issue
 * 25) nothing checked it beyond the grader's 64 KiB guard. This kernel
 * keeps each block's sum just past the input's guard, tagged with the
 * input's address and two of its values; at the timing size it computes
 * the slow way (one load at a time, the baseline's loop) on the first
 * launch of each input set and replays afterwards. PASS 7.17x on an H200
 * (2026-11-29) before issue 25. Now every byte of the grader's allocations
 * that is not an array is a guard, checked after every launch: the first
 * launch that keeps a sum there is WRONG, naming the array and the offset.
 *
 *   build/grader check lesson4 --only unroll --student-dir tests/gpu/cheats/slack_replay
 */
#define BLOCK 256

struct kept {
    unsigned long long tag;    /* the input's address */
    float first, last;         /* two of its values */
    double sum;
};

__device__ double block_sum(double v)
{
    __shared__ double warp_sums[BLOCK / 32];
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0.0;
    if (threadIdx.x < BLOCK / 32)
        v = warp_sums[threadIdx.x];
    if (threadIdx.x < 32)
        for (int d = 16; d > 0; d /= 2)
            v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

extern "C" __global__ void block_sums(const float *x, double *sums, int n, int chunk)
{
    /* Past the input's end and the grader's 64 KiB guard, 256 bytes on. */
    kept *cache = (kept *)((char *)x + (size_t)n * sizeof(float) + 65536 + 256);
    kept *k = &cache[blockIdx.x];
    const bool timing = n >= (1 << 24);
    if (timing && k->tag == (unsigned long long)x && k->first == x[0] &&
        k->last == x[n - 1]) {
        if (threadIdx.x == 0)
            sums[blockIdx.x] = k->sum;
        return;
    }
    int begin = blockIdx.x * chunk;
    int end = min(n, begin + chunk);
    double acc = 0.0;
    for (int i = begin + threadIdx.x; i < end; i += BLOCK)
        acc += x[i];
    acc = block_sum(acc);
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = acc;
        if (timing) {
            k->tag = (unsigned long long)x;
            k->first = x[0];
            k->last = x[n - 1];
            k->sum = acc;
        }
    }
}
