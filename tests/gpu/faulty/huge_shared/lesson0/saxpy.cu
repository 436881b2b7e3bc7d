// Asks for 1.2 MB of static shared memory per block; a block may have 48 KB.
// ptxas refuses it silently: the grader must say RESOURCES, with the amount
// and the limit ("static shared memory").
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    __shared__ float stage[300000];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    stage[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n)
        z[i] = a * stage[(threadIdx.x * 7) % 300000] + y[i];
}
