/* Lesson 1's exercises: occupancy (lessons/lesson1-occupancy.md).
 *
 * Graded by `make check lesson1` (build/grader check lesson1). */
#include "../spec.h"
#include "spec_macros.h"

/* A float in [lo, lo + 2*half) from 24 random bits. */
static float rnd_f(instance *I, float lo, float half)
{
    return lo + half * (float)(inst_u32(I) >> 8) / 8388608.0f;
}

/* ---- shared_hog: three-point smoothing through an oversized tile ---------- */

enum { SH_BLOCKDIMX };

static void shared_hog_build(instance *I, size_t n, const int *knobs,
                             const device_facts *dev)
{
    (void)dev;
    unsigned block = (unsigned)knobs[SH_BLOCKDIMX];
    float *x = inst_input(I, n, ELEM_F32);
    double *y = inst_output(I, n, ELEM_F32);

    for (size_t i = 0; i < n; i++)
        x[i] = rnd_f(I, -1.0f, 1.0f);
    for (size_t i = 0; i < n; i++) {
        double l = x[i > 0 ? i - 1 : 0];
        double r = x[i + 1 < n ? i + 1 : n - 1];
        y[i] = 0.25 * l + 0.5 * x[i] + 0.25 * r;
    }
    inst_arg_int(I, (int)n);

    inst_launch(I, (unsigned)((n + block - 1) / block), 1, 1, block, 1, 1, 0);
    inst_bytes_moved(I, 8.0 * (double)n); /* read x once, write y once */
}

static const exercise shared_hog = {
    .lesson = 1,
    .name = "shared_hog",
    .title = "a smoothing filter whose 48 KB tile leaves room for four blocks",
    .file = "lesson1/shared_hog.cu",
    .kernel = "smooth3",
    .explained_in = "lessons/lesson1-occupancy.md, section \"Shared memory\"",
    .min_cc = 0,
    .demo = 0,
    .knobs = {
        [SH_BLOCKDIMX] = { .name = "BLOCKDIMX", .def = 128, .min = 64, .max = 1024,
          .power_of_two = 1, .what = "threads per block (blockDim.x), a compile-time constant" },
    },
    /* 1: both halos clamp into one element; 127, 1000, 4097: partial last
     * blocks; 1 << 20: many blocks. */
    .check_sizes = { 1, 127, 1000, 4097, (size_t)1 << 20, 0 },
    .size_means = "n, the length of x and y",
    .time_size = (size_t)1 << 25, /* 32M floats: 256 MiB read + written */
    .build = shared_hog_build,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-5,
    .atol = 1e-6,
    /* One 4-byte load in flight per thread, so bandwidth grows with resident
     * warps until Little's law is met. On the H100 (2026-11-23,
     * grader/calibration/h100-2026-11-23-c.md): the stub at 25% occupancy
     * took 0.360 ms, the solution at 100% 0.162 ms (2.22-2.23x); the bar
     * came to 1.61x. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.5,
    .checks = {
        MIN_OCCUPANCY(75,
            "An SM reserves the whole declared size of a __shared__ array for "
            "every resident block (plus 1 KB the system keeps per block from "
            "compute capability 8.0 on), used "
            "or not. A 48 KB tile lets four blocks share an H100 SM's 228 KB: 4 "
            "x 128 threads = 512 of 2048 thread slots, 25%. One block of this "
            "kernel reads BLOCKDIMX + 2 floats; declared at that size (520 "
            "bytes), 16 blocks fit and the thread limit, not shared memory, sets"
            " occupancy (100%). Each thread has one 4-byte load in flight, so "
            "fewer resident warps means fewer bytes in flight and less "
            "bandwidth."),
        CHECKS_END,
    },
};

/* ---- register_hog: per-channel affine transform, parameters staged ------- */

enum { RH_CH, RH_SMEM_PAD_KB };

/* size = elements in the tensor. pixels = images x hw; the pixels are split
 * into four images where that divides, so image boundaries fall inside a
 * block and the index arithmetic is tested. */
static void register_hog_build(instance *I, size_t size, const int *knobs,
                               const device_facts *dev)
{
    (void)dev;
    size_t ch = (size_t)knobs[RH_CH];
    size_t pixels = size / ch > 0 ? size / ch : 1;
    size_t hw = (pixels >= 8 && pixels % 4 == 0) ? pixels / 4 : pixels;
    size_t n = pixels * ch;

    float *x = inst_input(I, n, ELEM_F32);
    float *scale = inst_input(I, ch, ELEM_F32);
    float *shift = inst_input(I, ch, ELEM_F32);
    double *y = inst_output(I, n, ELEM_F32);

    for (size_t c = 0; c < ch; c++) {
        scale[c] = rnd_f(I, 0.5f, 0.75f); /* [0.5, 2) */
        shift[c] = rnd_f(I, -1.0f, 1.0f);
    }
    /* Element (img, c, q) sits at (img * ch + c) * hw + q: walk it in order. */
    size_t k = 0;
    for (size_t img = 0; img < pixels / hw; img++)
        for (size_t c = 0; c < ch; c++)
            for (size_t q = 0; q < hw; q++, k++) {
                x[k] = rnd_f(I, -4.0f, 4.0f);
                y[k] = (double)x[k] * scale[c] + shift[c];
            }
    inst_arg_int(I, (int)hw);
    inst_arg_int(I, (int)pixels);

    /* SMEM_PAD_KB: dynamic shared memory the kernel never touches, there
     * only to lower occupancy for the lesson's plateau experiment. */
    inst_launch(I, (unsigned)((pixels + 255) / 256), 1, 1, 256, 1, 1,
                (size_t)knobs[RH_SMEM_PAD_KB] * 1024);
    inst_bytes_moved(I, 8.0 * (double)n + 8.0 * (double)ch);
}

static const exercise register_hog = {
    .lesson = 1,
    .name = "register_hog",
    .title = "batch-norm inference whose staged parameters take 146 registers",
    .file = "lesson1/register_hog.cu",
    .kernel = "bn_infer",
    .explained_in = "lessons/lesson1-occupancy.md, sections \"Registers\" and "
                    "\"What holds registers\"",
    .min_cc = 0,
    .demo = 0,
    .knobs = {
        [RH_CH] = { .name = "CH", .def = 64, .min = 1, .max = 64,
          .what = "channels per image, a compile-time constant" },
        [RH_SMEM_PAD_KB] = { .name = "SMEM_PAD_KB", .def = 0, .min = 0, .max = 200,
          .what = "unused dynamic shared memory per block (KB), to lower occupancy" },
    },
    /* In elements, at CH = 64: 1 pixel; 1000 pixels as 4 images of 250;
     * 4099 pixels (one image, partial last block); 65540 pixels as 4 images
     * of 16385. */
    .check_sizes = { 64, 64 * 1000, 64 * 4099, 64 * 65540, 0 },
    .size_means = "floats of x, in whole pixels of CH channels",
    .time_size = (size_t)1 << 25, /* 32M floats: 256 MiB read + written */
    .build = register_hog_build,
    .latency_bound = 1,     /* Little's law: the report shows bytes in flight per SM */
    .rtol = 1e-5,
    .atol = 1e-6,
    /* Each thread has one 4-byte load in flight (a store may alias the next
     * load), so the stub at 12.5% occupancy has 1 KB in flight per SM
     * against 8 KB for the solution at 100%. On the H100 (2026-11-23,
     * grader/calibration/h100-2026-11-23-c.md): 0.445 ms against 0.115 ms
     * (3.87-3.88x); the bar came to 2.44x. */
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.5,
    .checks = {
        /* Local memory first: a kernel capped with __launch_bounds__ while its
         * values are still live fails both, and the spill is the lesson. */
        MAX_LOCAL_BYTES(0,
            "Capping registers with __launch_bounds__ or -maxrregcount while the"
            " values are still live makes ptxas spill them: each spilled value "
            "is a store and a load through the cache hierarchy. Shorten the live"
            " ranges instead, so the registers fall without spilling."),
        MAX_REGS(40,
            "The SM's 65,536 registers are shared by all resident threads: at "
            "146 registers (what ptxas gives the stub for sm_90) a 256-thread "
            "block takes more than half of them, so one block fits per SM, 12.5%"
            " occupancy. At 40 or fewer, six blocks fit (75%); at 32 or fewer, "
            "all eight (100%). The stub keeps 2 x CH scale and shift values live"
            " in registers for the whole thread although each is used once; the "
            "reference reads them where they are used and needs about 26 (sm_90,"
            " CUDA 13.0)."),
        CHECKS_END,
    },
};

const exercise *const lesson1_exercises[] = { &shared_hog, &register_hog, NULL };
