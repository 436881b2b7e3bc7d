// Lesson 1 baseline for shared_hog: a three-point smoothing filter,
//   y[i] = 0.25 x[i-1] + 0.5 x[i] + 0.25 x[i+1],
// ends clamped (x[-1] = x[0], x[n] = x[n-1]), staged through a shared-memory
// tile with a one-element halo on each side.
//
//   make check lesson1 ONLY=shared_hog   (times your kernel against this one)
//
// Trusted and deliberately wasteful: the tile is declared at the 48 KB static
// limit although a block uses only BLOCKDIMX + 2 floats of it. The declared
// size, not the part used, is what the SM reserves for every resident block,
// so only four blocks fit in an H100 SM's 228 KB: 4 x 128 threads = 25%
// occupancy.
//
// Launch: ceil(n / BLOCKDIMX) blocks of BLOCKDIMX threads (a knob, default 128).
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif

#define SCRATCH_FLOATS 12288 /* 48 KB */

extern "C" __global__ void smooth3(const float *x, float *y, int n)
{
    __shared__ float tile[SCRATCH_FLOATS];

    int t = threadIdx.x;
    int i = blockIdx.x * BLOCKDIMX + t;
    int last = n - 1;

    // Threads past the end load a clamped copy, so the tile is always full.
    tile[t + 1] = x[min(i, last)];
    if (t == 0)
        tile[0] = x[max(i - 1, 0)];
    if (t == BLOCKDIMX - 1)
        tile[BLOCKDIMX + 1] = x[min(i + 1, last)];
    __syncthreads();

    if (i < n)
        y[i] = 0.25f * tile[t] + 0.5f * tile[t + 1] + 0.25f * tile[t + 2];
}
