// Lesson 15 answered by a transposed tile with a conflict-free layout: an
// accepted answer (tests/gpu/accepted/README.md), not the reference. Grade
// it with:
//   build/grader check lesson15 --student-dir tests/gpu/accepted/lesson15-transposed-tile
//
// It keeps the naive mapping, one thread per row, and coalesces through
// shared memory as lesson 2's transpose does. Each warp owns 32 rows and a
// [32][32 + PAD] tile; for each chunk of 32 columns the warp loads row i's
// 32 floats as one coalesced request per row, then lane l reads its own row
// down column c of the tile: banks (l*(32+PAD) + c) mod 32, distinct when
// PAD = 1 (lesson 3). The maximum and sum are found in one pass (online
// softmax); a second pass reads x again and writes y through the tile,
// coalesced. x is read twice, so it is slower than the routes that read it
// once (7.3x against 11.4x on the H100, grader/calibration/
// h100-2026-11-25-capstone.md), and still clears the bar; without the
// padding (tests/gpu/probes/lesson15/transposed-tile-unpadded) it does not.
#ifndef PAD
#define PAD 1
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
