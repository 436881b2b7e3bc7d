// Lesson 1 baseline for register_hog: per-channel affine transform of an NCHW
// tensor, as in batch-norm inference:
//   y[n][c][q] = x[n][c][q] * scale[c] + shift[c]
// for n images, CH channels (a knob, default 64) and hw pixels per channel,
// stored image by image, channel by channel (element (n, c, q) at
// (n * CH + c) * hw + q).
//
//   make check lesson1 ONLY=register_hog   (times your kernel against this one)
//
// One thread owns one pixel (n, q) and walks its CH channels; neighbouring
// threads take neighbouring pixels, so every load and store of a warp is one
// contiguous 128-byte line.
//
// Trusted and deliberately wasteful: it first copies all CH scales and CH
// shifts into per-thread arrays. Both loops are fully unrolled, so the arrays
// live in registers, and all 2 x CH values stay live until the last channel:
// about 146 registers per thread on sm_90. A 256-thread block then needs more
// than half of an SM's 65,536 registers, so one block per SM: 12.5% occupancy.
//
// Launch: ceil(pixels / 256) blocks of 256 threads.
#ifndef CH
#define CH 64
#endif

extern "C" __global__ void bn_infer(const float *x, const float *scale,
                                    const float *shift, float *y,
                                    int hw, int pixels)
{
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
