// Off by one: every thread also writes the next element, so the last one
// lands just past the end of z, inside the grader's guard region.
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        z[i] = a * x[i] + y[i];
        if (i == n - 1)
            z[i + 1] = 0.0f;
    }
}
