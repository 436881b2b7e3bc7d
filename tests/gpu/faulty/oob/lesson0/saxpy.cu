// Off by one: the loop runs one step too far, so the thread that reaches
// index n writes just past the end of z, inside the grader's guard region.
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += stride)
        z[i] = i < n ? a * x[i] + y[i] : 0.0f;
}
