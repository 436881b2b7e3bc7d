// Compiles, but the entry point has another name (and C++ linkage), so the
// grader cannot find `saxpy` in it.
__global__ void my_saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = a * x[i] + y[i];
}
