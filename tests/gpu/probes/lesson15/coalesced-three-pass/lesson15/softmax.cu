// Probe (tests/gpu/capstone-run.sh): coalescing alone. A warp per row, but
// the naive kernel's three passes over global memory are kept: the second
// and third reads of a row come from L1 or L2, not from registers. What is
// the re-read worth once the loads are coalesced?
//   build/grader check lesson15 --student-dir tests/gpu/probes/lesson15/coalesced-three-pass

__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

extern "C" __global__ void softmax(const float *x, float *y, int rows, int cols)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int first = blockIdx.x * 256, last = min(first + 256, rows);
    for (int r = first + warp; r < last; r += blockDim.x >> 5) {
        const float *xr = x + (size_t)r * cols;
        float *yr = y + (size_t)r * cols;
        float m = -3.402823466e38f;
        for (int j = lane; j < cols; j += 32)
            m = fmaxf(m, xr[j]);
        m = warp_max(m);
        float s = 0.0f;
        for (int j = lane; j < cols; j += 32)
            s += expf(xr[j] - m);
        float inv = 1.0f / warp_sum(s);
        for (int j = lane; j < cols; j += 32)
            yr[j] = expf(xr[j] - m) * inv;
    }
}
