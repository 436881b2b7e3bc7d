// Lesson 1 exercise register_hog: per-channel affine transform of an NCHW
// tensor, as in batch-norm inference:
//   y[n][c][q] = x[n][c][q] * scale[c] + shift[c]
// for n images, CH channels (a knob, default 64) and hw pixels per channel,
// element (n, c, q) at (n * CH + c) * hw + q.
//
// One thread owns one pixel (n, q) and walks its CH channels; neighbouring
// threads take neighbouring pixels, so a warp reads and writes whole lines.
//
// The kernel is correct but slow. Run `make check lesson1` and look at the
// regs and occ columns; `nvcc -arch=sm_90 -c -o /dev/null
// -Xptxas -v exercises/lesson1/register_hog.cu` prints the same count.
//
// Launch: ceil(pixels / 256) blocks of 256 threads.
//
// Graded on sizes 64, 64000, 262336, 4194560; timed at 33554432 (floats of x, in whole pixels of CH channels).
#ifndef CH
#define CH 64
#endif

extern "C" __global__ void bn_infer(const float *x, const float *scale,
                                    const float *shift, float *y,
                                    int hw, int pixels)
{
    // TODO (lesson 1, "What holds registers"): these two arrays are indexed
    // only by constants after unrolling, so they live in registers, and every
    // one of the 2 x CH values stays live until the last channel is done. That
    // is what pushes the kernel past 128 registers per thread and leaves room
    // for a single 256-thread block per SM. Each thread uses each value once:
    // delete the arrays and read scale[c] and shift[c] inside the channel loop.
    // (Capping registers with __launch_bounds__ alone does not help here: the
    // values are still live, so ptxas spills them to local memory.)
    float s[CH], t[CH];
#pragma unroll
    for (int c = 0; c < CH; c++) {
        s[c] = scale[c];
        t[c] = shift[c];
    }

    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= pixels)
        return;
    size_t img = (size_t)(p / hw), q = (size_t)(p % hw);
    size_t base = img * CH * hw + q;

#pragma unroll
    for (int c = 0; c < CH; c++) {
        size_t k = base + (size_t)c * hw;
        y[k] = x[k] * s[c] + t[c];
    }
}
