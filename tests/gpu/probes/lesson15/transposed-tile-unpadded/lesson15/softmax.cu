// Probe (tests/gpu/capstone-run.sh): the accepted transposed tile
// (tests/gpu/accepted/lesson15-transposed-tile) WITHOUT its padding, PAD 0:
// lane l reads its row down column c of a [32][32] tile, bank c for all 32
// lanes, a 32-way bank conflict (lesson 3). Measured: 2.92x, SLOW, against
// 7.32x padded (grader/calibration/h100-2026-11-25-capstone.md).
//   build/grader check lesson15 --student-dir tests/gpu/probes/lesson15/transposed-tile-unpadded
#ifndef PAD
#define PAD 0
#endif

extern "C" __global__ void softmax(const float *__restrict__ x, float *__restrict__ y,
                                   int rows, int cols)
{
    __shared__ float tiles[8][32][32 + PAD];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    float (*t)[32 + PAD] = tiles[warp];
    const int base = blockIdx.x * 256 + warp * 32;   // this warp's first row
    const int nrows = min(32, rows - base);           // may be <= 0
    if (nrows <= 0)
        return;   // the whole warp leaves: no __syncthreads below, only __syncwarp

    float m = -3.402823466e38f, s = 0.0f;
    for (int c0 = 0; c0 < cols; c0 += 32) {
        const int c = c0 + lane;
        #pragma unroll
        for (int i = 0; i < 32; ++i)
            t[i][lane] = (i < nrows && c < cols) ? x[(size_t)(base + i) * cols + c]
                                                 : -3.402823466e38f;
        __syncwarp();
        const int n = min(32, cols - c0);
        float cm = m;
        for (int k = 0; k < n; ++k)
            cm = fmaxf(cm, t[lane][k]);
        s *= expf(m - cm);
        for (int k = 0; k < n; ++k)
            s += expf(t[lane][k] - cm);
        m = cm;
        __syncwarp();
    }
    const float inv = 1.0f / s;
    for (int c0 = 0; c0 < cols; c0 += 32) {
        const int c = c0 + lane;
        #pragma unroll
        for (int i = 0; i < 32; ++i)
            t[i][lane] = (i < nrows && c < cols) ? x[(size_t)(base + i) * cols + c] : 0.0f;
        __syncwarp();
        const int n = min(32, cols - c0);
        for (int k = 0; k < n; ++k)
            t[lane][k] = expf(t[lane][k] - m) * inv;
        __syncwarp();
        #pragma unroll
        for (int i = 0; i < 32; ++i)
            if (i < nrows && c < cols)
                y[(size_t)(base + i) * cols + c] = t[i][lane];
        __syncwarp();
    }
}
