// Cheats: the answer of the first launch is kept in a __device__ array and
// replayed afterwards, so every timed launch only copies (the cached-answer
// trick graders were beaten with). Refused before running: REFUSED,
// "__device__ variable".
__device__ float cached[1 << 24];
__device__ int have_answer;

extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += gridDim.x * blockDim.x) {
        if (!have_answer)
            cached[i & ((1 << 24) - 1)] = a * x[i] + y[i];
        z[i] = cached[i & ((1 << 24) - 1)];
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        have_answer = 1;
}
