/* A kernel whose assert fails: it assumes n is a multiple of the block
 * size, which the grader's sizes are not. The report must give the
 * condition, the file and the line as the reason.
 *
 *   build/grader check lesson0 --student-dir tests/gpu/faulty/assert_fails
 */
#include <assert.h>

extern "C" __global__ void saxpy(const float *__restrict__ x,
                                 const float *__restrict__ y,
                                 float *__restrict__ z, float a, int n)
{
    assert(n % blockDim.x == 0);
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n;
         i += stride)
        z[i] = fmaf(a, x[i], y[i]);
}
