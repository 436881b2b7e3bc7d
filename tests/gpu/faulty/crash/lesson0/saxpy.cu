// Writes a terabyte past the end of its output, where no allocation lives:
// the GPU itself reports the illegal address, which must become a CRASH
// with the SANITIZE=1 advice (and compute-sanitizer's memcheck must name the
// write). The address comes from the kernel's argument, so the compiler
// cannot prove the store invalid and drop it; and there is no __device__
// variable, which would be refused before the kernel ever ran.
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float *nowhere = (float *)((char *)z + (1ull << 40));
    if (i < n)
        nowhere[i] = a * x[i] + y[i];
}
