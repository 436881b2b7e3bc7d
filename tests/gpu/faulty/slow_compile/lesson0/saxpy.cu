// A loop of 65536 iterations unrolled in full: the compiler works for tens of
// seconds. With GRADER_COMPILE_TIMEOUT=2 the grader must stop it: COMPILE,
// "did not compile within 2 s".
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 65536; k++)
        acc = acc * x[k] + x[k + threadIdx.x];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = a * x[i] + y[i] + 0.0f * acc;
}
