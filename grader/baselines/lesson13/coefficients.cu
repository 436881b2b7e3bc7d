/* Baseline of lesson 13 (coefficients): a polynomial of degree 31 in every
 * element, y = c[0] + c[1] x + ... + c[31] x^31 by Horner's rule, with the
 * coefficients read through an ordinary pointer to global memory. The
 * grader times your kernel against this one. Do not edit.
 *
 *   make check lesson13 ONLY=coefficients
 *
 * The grader also copies the same 32 coefficients into the __constant__
 * array coef before every launch; this kernel ignores it.
 */
#define NCOEF 32

__constant__ float coef[NCOEF];

extern "C" __global__ void
coefficients(const float *coef_g, const float *x, float *y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float v = x[i];
    float acc = coef_g[NCOEF - 1];
#pragma unroll
    for (int k = NCOEF - 2; k >= 0; k--)
        acc = fmaf(acc, v, coef_g[k]);
    y[i] = acc;
}
