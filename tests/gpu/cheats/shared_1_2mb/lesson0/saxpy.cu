// Hostile (tests/gpu/cheats/README.md): 1.2 MB of static shared memory. An
// H100 gives a block at most 227 KB; ptxas rejects the file, and NVRTC's
// log holds only its info lines, not the reason.
//
//   build/grader check lesson0 --student-dir tests/gpu/cheats/shared_1_2mb
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    __shared__ float staged[300000];   // 1.2 MB
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        staged[(threadIdx.x * 997) % 300000] = x[i];
    __syncthreads();
    if (i < n)
        z[i] = a * staged[(threadIdx.x * 997) % 300000] + y[i];
}
