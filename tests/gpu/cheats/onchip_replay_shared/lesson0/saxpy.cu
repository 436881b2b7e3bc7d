// Cheat fixture (tests/gpu/cheats/README.md): a replay cache in shared
// memory. On the H200 a block's shared memory keeps its bytes from one
// launch to the next when the next block on that SM finds them
// (tests/gpu/probes/r5/onchip_state.cu: 124 of 132 blocks, 2026-11-29).
// Each block keeps the results its threads computed, tagged with the
// inputs' address, n, a and the block's index; a launch that finds its tag
// replays them. Every value it writes is right; the first read of the tag,
// bytes this launch never wrote, is what the simulator sees: WRONG, with
// a GPU (the timed launch's sampled blocks) and without one.
// It keeps only PER results a thread, so it is no faster than the work:
// the physical floor (TOO FAST) does not stop it before the sampled run.
#define PER 4

extern "C" __global__ void saxpy(const float *__restrict__ x, const float *__restrict__ y,
                                 float *__restrict__ z, float a, int n)
{
    __shared__ volatile unsigned long long tag;
    __shared__ volatile float kept[PER * 256];
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long want = (unsigned long long)x ^ ((unsigned long long)n << 40) ^
                              ((unsigned long long)__float_as_uint(a) << 8) ^
                              (blockIdx.x * 0x9e3779b97f4a7c15ull);
    int hit = tag == want;
    __syncthreads();
    int k = 0;
    for (size_t i = first; i < (size_t)n; i += stride, k++) {
        unsigned at = k * blockDim.x + threadIdx.x;
        if (hit && at < PER * 256) {
            z[i] = kept[at];
        } else {
            float v = fmaf(a, x[i], y[i]);
            z[i] = v;
            if (at < PER * 256)
                kept[at] = v;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0)
        tag = want;
}
