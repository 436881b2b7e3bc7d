// saxpy through a warp shuffle called in two branches: lanes 0-15 and
// 16-31 each compute their value, then swap it with the lane 16 away
// (__shfl_xor_sync with the full mask) in a branch of their own, with
// different work around the call, so the two halves of the warp reach two
// different shfl.sync instructions. On sm_70 and later the lanes of the
// mask meet there and exchange (PTX ISA: every non-exited thread of the
// mask executes a shfl.sync with the same qualifiers and mask): right.
extern "C" __global__ void saxpy(const float *__restrict__ x,
                                 const float *__restrict__ y,
                                 float *__restrict__ z, float a, int n)
{
    const unsigned lane = threadIdx.x % 32;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    // base is the warp's first index: the same for its 32 lanes, so every
    // lane runs the loop as often and none has exited at the shuffle
    for (size_t base = (size_t)blockIdx.x * blockDim.x + threadIdx.x - lane; base < (size_t)n;
         base += stride) {
        size_t i = base + lane, j = base + (lane ^ 16);
        float v = i < (size_t)n ? fmaf(a, x[i], y[i]) : 0.0f;
        if (lane < 16) {
            float got = __shfl_xor_sync(0xffffffffu, 2.0f * v, 16);
            if (j < (size_t)n)
                z[j] = got;           // lane j sent v, its own
        } else {
            float got = __shfl_xor_sync(0xffffffffu, v, 16);
            if (j < (size_t)n)
                z[j] = 0.5f * got;    // lane j sent 2v
        }
    }
}
