// Cheat fixture (tests/gpu/cheats/README.md): reads %envreg0, the driver's environment register 0.
// A kernel that can tell a launch on the PTX simulator, or a launch the
// grader judges, from the launch that is timed could keep a replay cache
// only where it is not watched. This one computes the right answer and
// only branches on the register where the branch never runs: reading it
// is what the rule refuses (issue 28 item 2), whatever the branch does,
// and a branch that never runs is still in the PTX.
extern "C" __global__ void saxpy(const float *__restrict__ x, const float *__restrict__ y,
                                 float *__restrict__ z, float a, int n)
{
    unsigned tell;
    asm volatile("mov.b32 %0, %%envreg0;" : "=r"(tell));
    if (tell == (unsigned)-1)
        return;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += stride)
        z[i] = fmaf(a, x[i], y[i]);
}
