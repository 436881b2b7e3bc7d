// Hostile (tests/gpu/cheats/README.md): five nested macros expand one line
// into 100000 statements, a source of several megabytes after
// preprocessing, from a file of about a kilobyte. On a 2-core CPU NVRTC was
// still compiling it after half a minute.
//
//   build/grader check lesson0 --student-dir tests/gpu/cheats/huge_source
#define S1 acc = acc * 0.999f + x[(i + 7) % n];
#define S10 S1 S1 S1 S1 S1 S1 S1 S1 S1 S1
#define S100 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10
#define S1K S100 S100 S100 S100 S100 S100 S100 S100 S100 S100
#define S10K S1K S1K S1K S1K S1K S1K S1K S1K S1K S1K
#define S100K S10K S10K S10K S10K S10K S10K S10K S10K S10K S10K

extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = y[i];
    S100K
    z[i] = a * acc;
}
