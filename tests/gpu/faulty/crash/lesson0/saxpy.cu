// Writes through a null pointer read at run time (so the compiler cannot
// drop the store): an illegal address the GPU itself reports, which must
// become a CRASH with the SANITIZE=1 advice.
__device__ float *volatile nowhere;

extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        nowhere[i] = a * x[i] + y[i];
}
