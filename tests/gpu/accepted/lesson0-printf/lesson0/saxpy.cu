/* Lesson 0 answered right, with a debugging line left in: one thread prints
 * the launch's shape. printf and assert are the first tools a CUDA student
 * reaches for; the grader must accept them (<cstdio> is the grader's own
 * header, printf's format string is not state) and show what the kernel
 * printed during its first correctness launch, once.
 *
 * Grade it (a test fixture, not an exercise file):
 *   build/grader check lesson0 --student-dir tests/gpu/accepted/lesson0-printf
 */
#include <cstdio>
#include <cassert>

extern "C" __global__ void saxpy(const float *__restrict__ x,
                                 const float *__restrict__ y,
                                 float *__restrict__ z, float a, int n)
{
    assert(n > 0);
    if (blockIdx.x == 0 && threadIdx.x == 0)
        printf("saxpy: n=%d a=%.3f grid=%u block=%u\n", n, a, gridDim.x, blockDim.x);
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n;
         i += stride)
        z[i] = fmaf(a, x[i], y[i]);
}
