// Lesson 1 exercise shared_hog: a three-point smoothing filter,
//   y[i] = 0.25 x[i-1] + 0.5 x[i] + 0.25 x[i+1],
// ends clamped (x[-1] = x[0], x[n] = x[n-1]), staged through a shared-memory
// tile with a one-element halo on each side.
//
// The kernel is correct but slow. Run `make check lesson1` and look at the
// smem and occ columns of the report.
//
// Launch: ceil(n / BLOCKDIMX) blocks of BLOCKDIMX threads (a knob, default 128).
//
// Graded on sizes 1, 127, 1000, 4097, 1048576; timed at 33554432 (n, the length of x and y).
#ifndef BLOCKDIMX
#define BLOCKDIMX 128
#endif

// TODO (lesson 1, section "Shared memory"): the SM reserves the declared size
// of a __shared__ array for every resident block, whatever part of it the
// code touches. 48 KB per block lets only four blocks share an H100 SM, and
// four blocks of 128 threads are a quarter of the SM's 2048 thread slots.
// Work out how many floats one block really reads (its own BLOCKDIMX values
// and the two halo values) and declare the tile with exactly that size.
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
