/* Lesson 13, reference solution of 13a: the coefficients from constant
 * memory.
 *
 *   make check lesson13 ONLY=coefficients
 *
 * Every warp reads coefficient k at the same moment, one address for all 32
 * threads: the constant cache serves it as a broadcast. With the loop
 * unrolled the index is known when the kernel is compiled, and an
 * arithmetic instruction can take such an operand straight from the
 * constant bank (c[0x3][...] in the machine code): no load instruction, no
 * register to hold it. Through a pointer to global memory the compiler must
 * load all 32 coefficients into registers first (the grader's report on
 * an H100, 2026-11-23: 32 registers for the baseline, 8 for this kernel;
 * grader/calibration/h100-2026-11-23-c/repeat/).
 *
 * coef_g still arrives as an argument; this kernel does not read it.
 */
#define NCOEF 32

__constant__ float coef[NCOEF];

extern "C" __global__ void
coefficients(const float *coef_g, const float *x, float *y, int n)
{
    (void)coef_g;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float v = x[i];
    float acc = coef[NCOEF - 1];
#pragma unroll
    for (int k = NCOEF - 2; k >= 0; k--)
        acc = fmaf(acc, v, coef[k]);
    y[i] = acc;
}
