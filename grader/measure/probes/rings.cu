/* rings.cu: two questions about lessons 6-10's rings.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -o build/probes/rings grader/measure/probes/rings.cu
 *   build/probes/rings serial > serial.tsv
 *   build/probes/rings padded > padded.tsv
 * (run by grader/measure/probe-new-lessons.sh; cp.async needs 8.0.)
 *
 * serial: how much of lesson 7's lead (the register ring, unrolled by PDIST)
 * over lesson 9's async ring comes from registers, and how much from the
 * unrolled loop interleaving the exp() chains of PDIST elements? Each ring
 * comes in three forms:
 *   interleaved  as the lesson writes it
 *   serial       the element's value passes through fma(acc, 0.0, x) before
 *                exp(): the same value (acc is a finite positive sum), but
 *                each exp() now waits for the previous element's sum, so no
 *                two chains overlap, whatever the compiler schedules
 *   control      fma(c, 0.0, x) with c loop-invariant: the same extra
 *                instruction, off the chain (what the fma alone costs)
 * Rings: regs7 (lesson 7), async9 (lesson 9, thread-major, rolled loop),
 * async10b (index-major, rolled), async10b_unrolled (index-major, the loop
 * unrolled by PDIST like lesson 7's, so slots are compile-time). PDIST 4, 8,
 * 16; 1 and 4 blocks of 128 threads per SM.
 *
 * padded: lessons 6 and 8 with the blog's padding, as lesson 10a pads lesson
 * 9: thread t's slot k is buf[k + (PDIST + PADDING) * t]. batched6, rolling8
 * and async9 (= 10a) at PDIST 2, 4, 6, 8, 12, 16 with PADDING 0 and 1, and the
 * blog's rule (PDIST + PADDING = 2^k + 1) where it differs from 1 (PDIST 6 ->
 * 3, 12 -> 5); 4 and 1 blocks per SM. "dist" is PADDING.
 * Columns: see model_common.cuh. */
#include "model_common.cuh"
#include <cuda_pipeline.h>

enum { FORM_INTERLEAVED, FORM_SERIAL, FORM_CONTROL };

/* The value handed to work(): x itself, or x through an fma whose other
 * operand is the running sum (serial) or a loop-invariant value (control).
 * acc * 0.0 cannot be folded away (acc could be inf or NaN), so the
 * dependency is real; its value is +0.0, so the result is unchanged. */
template <int FORM>
__device__ __forceinline__ double chained(double x, double acc, double c)
{
    if (FORM == FORM_SERIAL)
        return __fma_rn(acc, 0.0, x);
    if (FORM == FORM_CONTROL)
        return __fma_rn(c, 0.0, x);
    return x;
}

template <int P, int FORM>
__global__ void regs7(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const double c = (double)threadIdx.x;
    double acc = 0.0;
    double ring[P];
#pragma unroll
    for (int k = 0; k < P; k++)
        ring[k] = chunk[threadIdx.x + k * BDX];
    const int last = imax - P * BDX;
#pragma unroll 1
    for (int base = threadIdx.x; base < imax; base += P * BDX) {
#pragma unroll
        for (int k = 0; k < P; k++) {
            const int i = base + k * BDX;
            const double x = ring[k];
            if (i < last)
                ring[k] = chunk[i + P * BDX];
            acc += work(chained<FORM>(x, acc, c));
        }
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

/* Lesson 9's rolled ring; INDEX_MAJOR picks 10b's layout. */
template <int P, bool INDEX_MAJOR, int FORM>
__global__ void async_rolled(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[P * BDX];
#define RSLOT(k) buf[INDEX_MAJOR ? (k) * BDX + threadIdx.x : (k) + P * threadIdx.x]
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const double c = (double)threadIdx.x;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < P; k++) {
        __pipeline_memcpy_async(&RSLOT(k), &chunk[threadIdx.x + k * BDX], sizeof(double));
        __pipeline_commit();
    }
    const int last = imax - P * BDX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BDX, ctr++) {
        const int k = ctr % P;
        __pipeline_wait_prior(P - 1);
        const double x = RSLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&RSLOT(k), &chunk[i + P * BDX], sizeof(double));
        __pipeline_commit();
        acc += work(chained<FORM>(x, acc, c));
    }
#undef RSLOT
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

/* 10b's ring with the loop unrolled by P, as lesson 7 unrolls its ring. */
template <int P, int FORM>
__global__ void async_unrolled(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[P * BDX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const double c = (double)threadIdx.x;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < P; k++) {
        __pipeline_memcpy_async(&buf[k * BDX + threadIdx.x], &chunk[threadIdx.x + k * BDX],
                                sizeof(double));
        __pipeline_commit();
    }
    const int last = imax - P * BDX;
#pragma unroll 1
    for (int base = threadIdx.x; base < imax; base += P * BDX) {
#pragma unroll
        for (int k = 0; k < P; k++) {
            const int i = base + k * BDX;
            __pipeline_wait_prior(P - 1);
            const double x = buf[k * BDX + threadIdx.x];
            if (i < last)
                __pipeline_memcpy_async(&buf[k * BDX + threadIdx.x], &chunk[i + P * BDX],
                                        sizeof(double));
            __pipeline_commit();
            acc += work(chained<FORM>(x, acc, c));
        }
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

/* ---- padded forms of lessons 6, 8 and 9 ---- */
#define PSLOT(k) buf[(k) + (P + PAD) * threadIdx.x]

template <int P, int PAD>
__global__ void batched6(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[(P + PAD) * BDX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BDX, ctr++) {
        const int k = ctr % P;
        if (k == 0) {
#pragma unroll
            for (int j = 0; j < P; j++)
                PSLOT(j) = chunk[i + j * BDX];
        }
        acc += work(PSLOT(k));
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

template <int P, int PAD>
__global__ void rolling8(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[(P + PAD) * BDX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < P; k++)
        PSLOT(k) = chunk[threadIdx.x + k * BDX];
    const int last = imax - P * BDX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BDX, ctr++) {
        const int k = ctr % P;
        const double x = PSLOT(k);
        if (i < last)
            PSLOT(k) = chunk[i + P * BDX];
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

template <int P, int PAD>
__global__ void async9(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ double buf[(P + PAD) * BDX];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < P; k++) {
        __pipeline_memcpy_async(&PSLOT(k), &chunk[threadIdx.x + k * BDX], sizeof(double));
        __pipeline_commit();
    }
    const int last = imax - P * BDX;
    int ctr = 0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BDX, ctr++) {
        const int k = ctr % P;
        __pipeline_wait_prior(P - 1);
        const double x = PSLOT(k);
        if (i < last)
            __pipeline_memcpy_async(&PSLOT(k), &chunk[i + P * BDX], sizeof(double));
        __pipeline_commit();
        acc += work(x);
    }
    out[(size_t)blockIdx.x * BDX + threadIdx.x] = acc;
}

static const char *const PS = "serial";
static const char *const PP = "padded";

template <int P>
static void run_serial(model *m)
{
    model_run(m, PS, "regs7_interleaved", P, 0, regs7<P, FORM_INTERLEAVED>);
    model_run(m, PS, "regs7_serial", P, 0, regs7<P, FORM_SERIAL>);
    model_run(m, PS, "regs7_control", P, 0, regs7<P, FORM_CONTROL>);
    model_run(m, PS, "async9", P, 0, async_rolled<P, false, FORM_INTERLEAVED>);
    model_run(m, PS, "async9_serial", P, 0, async_rolled<P, false, FORM_SERIAL>);
    model_run(m, PS, "async10b", P, 0, async_rolled<P, true, FORM_INTERLEAVED>);
    model_run(m, PS, "async10b_serial", P, 0, async_rolled<P, true, FORM_SERIAL>);
    model_run(m, PS, "async10b_control", P, 0, async_rolled<P, true, FORM_CONTROL>);
    model_run(m, PS, "async10b_unrolled", P, 0, async_unrolled<P, FORM_INTERLEAVED>);
    model_run(m, PS, "async10b_unrolled_serial", P, 0, async_unrolled<P, FORM_SERIAL>);
}

template <int P, int PAD>
static void run_padded(model *m)
{
    model_run(m, PP, "batched6", P, PAD, batched6<P, PAD>);
    model_run(m, PP, "rolling8", P, PAD, rolling8<P, PAD>);
    model_run(m, PP, "async9", P, PAD, async9<P, PAD>);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "serial";
    const bool serial = !strcmp(what, "serial");
    if (!serial && strcmp(what, "padded")) {
        fprintf(stderr, "usage: %s serial|padded\n", argv[0]);
        return 2;
    }
    model m;
    if (!model_init(&m, serial ? "rings_serial" : "rings_padded",
                    serial ? "register vs async ring, exp chains interleaved vs kept serial"
                           : "lessons 6, 8, 9 with and without the blog's padding"))
        return 1;
    const int serial_bps[] = {1, 4}, padded_bps[] = {4, 1};
    for (int b = 0; b < 2; b++) {
        if (!model_config(&m, serial ? serial_bps[b] : padded_bps[b]))
            continue;
        if (serial) {
            run_serial<4>(&m);
            run_serial<8>(&m);
            run_serial<16>(&m);
        } else {
            run_padded<2, 0>(&m);
            run_padded<2, 1>(&m);
            run_padded<4, 0>(&m);
            run_padded<4, 1>(&m);
            run_padded<6, 0>(&m);
            run_padded<6, 1>(&m);
            run_padded<6, 3>(&m);
            run_padded<8, 0>(&m);
            run_padded<8, 1>(&m);
            run_padded<12, 0>(&m);
            run_padded<12, 1>(&m);
            run_padded<12, 5>(&m);
            run_padded<16, 0>(&m);
            run_padded<16, 1>(&m);
        }
    }
    fprintf(stderr, "rings %s: %d failed CUDA calls\n", what, probe_failures);
    return probe_failures ? 1 : 0;
}
