// Cheat (tests/gpu/cheats/README.md): tuned to the checks. The correctness
// sizes go up to 2^20 elements; beyond 2^22 this kernel handles only the
// first 2^22 and leaves the rest, so it moves an eighth of the timing
// problem's bytes. A grader that verified only small sizes would time the
// shortcut. Stateless, so it is wrong on every timing input set: a kernel
// that is right on one input set and wrong on the other must keep state
// between launches, which the __device__ rule and the input check stop
// first (see device_replay and input_stash).
//
//   build/grader check lesson0 --student-dir tests/gpu/cheats/right_on_small_sizes_only
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int m = n < (1 << 22) ? n : (1 << 22);
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride)
        z[i] = a * x[i] + y[i];
}
