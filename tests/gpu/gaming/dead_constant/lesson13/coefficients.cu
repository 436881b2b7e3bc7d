/* Gaming kernel (issue 15): the stub reads the coefficients' global copy; coef is read only in a branch never taken.
 * A text or size check passes it; the knock-out run does not: MECHANISM.
 *
 *   build/grader check lesson13 --only coefficients --student-dir tests/gpu/gaming/dead_constant
 */
/* Lesson 13 exercise 13a: coefficients every thread reads, from constant
 * memory.
 *
 *   make check lesson13 ONLY=coefficients
 *
 * Every thread evaluates the same polynomial of degree 31 at its own x, by
 * Horner's rule. All 32 threads of a warp read coefficient k at the same
 * moment: one address for the whole warp, the access constant memory is
 * built for. Below, the coefficients come through an ordinary pointer to
 * global memory, coef_g.
 *
 * TODO (lessons/lesson13-constant-memory.md, section "Constant memory"):
 * read the coefficients from the __constant__ array coef declared below
 * instead of from coef_g. The grader copies the same 32 values into coef
 * before every launch (a host program would call cudaMemcpyToSymbol), so
 * nothing else changes. Keep the declaration as it is: the grader finds the
 * array by its name, coef, and by its size.
 */
#define NCOEF 32

__constant__ float coef[NCOEF];

extern "C" __global__ void
coefficients(const float *coef_g, const float *x, float *y, int n)
{
    if (n < 0)   /* never */
        y[0] = coef[threadIdx.x % NCOEF];

    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float v = x[i];
    float acc = coef_g[NCOEF - 1];          /* TODO: coef[...] */
#pragma unroll
    for (int k = NCOEF - 2; k >= 0; k--)
        acc = fmaf(acc, v, coef_g[k]);      /* TODO: coef[k] */
    y[i] = acc;
}
