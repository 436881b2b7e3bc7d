// Probe (tests/gpu/capstone-run.sh): fewer passes alone. Still one thread
// per row (uncoalesced), but the maximum and the sum are found in one pass
// (the "online" softmax: when the maximum grows, the sum so far is rescaled
// by exp(old - new)), so a row is read twice, not three times.
//   build/grader check lesson15 --student-dir tests/gpu/probes/lesson15/online-one-thread-per-row

extern "C" __global__ void softmax(const float *x, float *y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *xr = x + (size_t)r * cols;
    float *yr = y + (size_t)r * cols;
    float m = xr[0], s = 1.0f;
    for (int j = 1; j < cols; ++j) {
        float v = xr[j];
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
        } else {
            s += expf(v - m);
        }
    }
    float inv = 1.0f / s;
    for (int j = 0; j < cols; ++j)
        yr[j] = expf(xr[j] - m) * inv;
}
