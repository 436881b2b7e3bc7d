// Writes far outside any allocation: an illegal address the GPU itself
// reports, which must become a CRASH with the SANITIZE=1 advice.
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i + (1 << 30)] = a * x[i] + y[i];
}
