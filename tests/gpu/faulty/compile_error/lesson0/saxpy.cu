// A kernel with a syntax error: the grader must show NVRTC's message with
// this file's name and line.
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x
    if (i < n)
        z[i] = a * x[i] + y[i];
}
