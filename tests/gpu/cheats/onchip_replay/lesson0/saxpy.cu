// Cheat fixture (tests/gpu/cheats/README.md): a replay cache in local
// memory. On the H200 a thread's local memory (its stack) keeps its bytes
// from one launch to the next, other kernels and memsets in between
// (tests/gpu/probes/r5/onchip_state.cu, 2026-11-29), and no guard the
// grader checks lies there. Each thread keeps the results it computed,
// tagged with the inputs' address, n, a and its own index, one slot per
// timing input set; a launch that finds its tag replays them instead of
// reading x and y. Every value it writes is right, so the GPU's checks
// pass; what gives it away is the first read of its stack, of bytes this
// launch never wrote: WRONG on the PTX simulator, with a GPU (the timed
// launch's sampled blocks, grade/sim_sample.h) and without one.
// It keeps only its first PER results a set: replaying more would read
// fewer bytes than the data holds, and the physical floor would stop it as
// TOO FAST before the sampled run (what this fixture is for) is reached.
#define PER 8

extern "C" __global__ void saxpy(const float *__restrict__ x, const float *__restrict__ y,
                                 float *__restrict__ z, float a, int n)
{
    volatile unsigned long long tag[2];
    volatile float kept[2][PER];
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long want = (unsigned long long)x ^ ((unsigned long long)n << 40) ^
                              ((unsigned long long)__float_as_uint(a) << 8) ^
                              (first * 0x9e3779b97f4a7c15ull);
    int slot = (int)(((unsigned long long)x >> 21) & 1);
    int hit = tag[slot] == want;
    int k = 0;
    for (size_t i = first; i < (size_t)n; i += stride, k++) {
        if (hit && k < PER) {
            z[i] = kept[slot][k];
        } else {
            float v = fmaf(a, x[i], y[i]);
            z[i] = v;
            if (k < PER)
                kept[slot][k] = v;
        }
    }
    tag[slot] = want;
}
