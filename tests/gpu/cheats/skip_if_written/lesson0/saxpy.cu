// Cheat (tests/gpu/cheats/README.md): do the work only when the output
// still holds the grader's poison (all-ones bytes), which it writes before
// a launch it checks; when the output already holds values (those of this
// kernel's previous launch), skip it. Each thread looks at the first element
// of its share: one load instead of its whole share. Before issue 7 the
// timed launches started from the last launch's output, so the timing saw
// only the skip. The work itself is the slow baseline loop (a contiguous
// chunk per thread, uncoalesced): timed doing it, the kernel is SLOW.
//
//   build/grader check lesson0 --student-dir tests/gpu/cheats/skip_if_written
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    long long threads = (long long)gridDim.x * blockDim.x;
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long chunk = (n + threads - 1) / threads;
    long long end = (t + 1) * chunk < n ? (t + 1) * chunk : n;
    if (t * chunk < end && __float_as_uint(z[t * chunk]) != 0xffffffffu)
        return;   // already written: assume the answer is still there
    for (long long i = t * chunk; i < end; i++)
        z[i] = a * x[i] + y[i];
}
