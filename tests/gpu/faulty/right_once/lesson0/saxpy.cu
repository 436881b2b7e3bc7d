// Right on its first few launches only: a device-side counter changes its
// behaviour later. Checking the output after the timed launches catches it.
__device__ unsigned launches;

extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned seen = launches;
    __syncthreads();
    if (i == 0)
        atomicAdd(&launches, 1u);
    if (i < n)
        z[i] = seen < 6 ? a * x[i] + y[i] : 0.0f;
}
