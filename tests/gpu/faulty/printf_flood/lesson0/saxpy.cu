/* Lesson 0 answered right, with a debugging line left in every thread: each
 * element prints its index and result. At the check size of 1M elements
 * that is a million printf calls in one launch, and the launch runs past
 * the time limit although the arithmetic is done in microseconds. The
 * grader must say that printing took the time (how many lines the earlier
 * launches printed, and what to do), not suggest a loop that never ends.
 *
 * Grade it (a test fixture, not an exercise file):
 *   GRADER_LAUNCH_TIMEOUT=3 build/grader check lesson0 --student-dir tests/gpu/faulty/printf_flood
 */
#include <cstdio>

extern "C" __global__ void saxpy(const float *__restrict__ x,
                                 const float *__restrict__ y,
                                 float *__restrict__ z, float a, int n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n;
         i += stride) {
        z[i] = fmaf(a, x[i], y[i]);
        printf("i=%llu x=%g y=%g z=%g\n", (unsigned long long)i, x[i], y[i], z[i]);
    }
}
