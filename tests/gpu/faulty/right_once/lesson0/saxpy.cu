// Right on its first few launches only: a device-side counter changes its
// behaviour later. Checking the output after the timed launches catches it.
__device__ unsigned launches;

extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    unsigned seen = launches;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        atomicAdd(&launches, 1u);
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        z[i] = seen < 6 ? a * x[i] + y[i] : 0.0f;
}
