/* A kernel whose assert holds at the small sizes and fails at the largest
 * correctness size, after the first launch whose output the report shows:
 * the assert's line must still be caught (kernel_output.c's sink) and give
 * the condition, the file and the line as the reason.
 *
 *   build/grader check lesson0 --student-dir tests/gpu/faulty/assert_late
 */
#include <cassert>

extern "C" __global__ void saxpy(const float *__restrict__ x,
                                 const float *__restrict__ y,
                                 float *__restrict__ z, float a, int n)
{
    assert(n <= 4097);
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n;
         i += stride)
        z[i] = fmaf(a, x[i], y[i]);
}
