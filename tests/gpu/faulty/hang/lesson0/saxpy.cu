// Never ends: the loop's exit condition reads memory nothing changes. The
// grader's per-launch watchdog must report a HANG and go on.
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile const float *vx = x;
    while (vx[0] == vx[0] || n < 0) {
    }
    if (i < n)
        z[i] = a * x[i] + y[i];
}
