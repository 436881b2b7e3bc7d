// Covers only the first half of the array: the poison left in the second
// half must be reported as unwritten elements.
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n / 2; i += stride)
        z[i] = a * x[i] + y[i];
}
