// Hostile (tests/gpu/cheats/README.md): a full unroll of a loop of 2^20
// iterations. NVRTC tries to unroll it: on a 2-core CPU it was still
// compiling after a minute, its memory growing by about 15 MB/s. Without a
// compile limit the grader waits as long as the compiler takes.
//
//   build/grader check lesson0 --student-dir tests/gpu/cheats/runaway_unroll
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = y[i];
#pragma unroll
    for (int k = 0; k < (1 << 20); k++)
        acc = acc * 0.999f + x[(i + k) % n];
    z[i] = a * acc;
}
