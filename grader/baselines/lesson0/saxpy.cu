// Lesson 0 baseline: z = a*x + y, each thread taking one contiguous chunk.
//
//   make check lesson0 ONLY=saxpy   (times your kernel against this one)
//
// The grader launches a fixed grid (eight 256-thread blocks per SM), so each
// thread must handle several elements. This baseline splits the array the
// way one would for CPU threads: thread t takes elements [t*chunk,
// (t+1)*chunk). It is correct, and slow on a GPU: at every step the 32
// threads of a warp touch 32 addresses `chunk` floats apart, so each warp
// request pulls in 32 separate memory segments to use 4 bytes of each.
// Lesson 2 explains why; lesson 0 only asks for a kernel that is faster.
extern "C" __global__ void saxpy(const float *x, const float *y, float *z,
                                 float a, int n)
{
    long long threads = (long long)gridDim.x * blockDim.x;
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long chunk = (n + threads - 1) / threads;
    long long end = (t + 1) * chunk < n ? (t + 1) * chunk : n;
    for (long long i = t * chunk; i < end; i++)
        z[i] = a * x[i] + y[i];
}
