// Cheat (tests/gpu/cheats/README.md): include a file of the machine the
// grader runs on. NVRTC would read it, fail on it, and quote it in the
// compile log the report shows.
//
//   build/grader check lesson0 --student-dir tests/gpu/cheats/include_etc_passwd
#include "/etc/passwd"

extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = a * x[i] + y[i];
}
