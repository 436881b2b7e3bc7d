// A fast softmax that forgets the row's maximum: coalesced (a warp per row,
// the row in registers), right for small logits, and wrong for the rows the
// grader shifts by up to +-100, where expf overflows to inf or underflows to
// 0 and the quotient becomes NaN or inf. Lesson 15's rule "correct on every
// shape" must catch it, however fast it is.
//   build/grader check lesson15 --student-dir tests/gpu/faulty/softmax_no_max

#define PER_LANE 16

extern "C" __global__ void softmax(const float *__restrict__ x, float *__restrict__ y,
                                   int rows, int cols)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int first = blockIdx.x * 256, last = min(first + 256, rows);
    for (int r = first + warp; r < last; r += 8) {
        float v[PER_LANE], s = 0.0f;
        #pragma unroll
        for (int k = 0; k < PER_LANE; ++k) {
            int j = k * 32 + lane;
            v[k] = j < cols ? expf(x[(size_t)r * cols + j]) : 0.0f;
            s += v[k];
        }
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1)
            s += __shfl_xor_sync(0xffffffffu, s, o);
        #pragma unroll
        for (int k = 0; k < PER_LANE; ++k) {
            int j = k * 32 + lane;
            if (j < cols)
                y[(size_t)r * cols + j] = v[k] / s;
        }
    }
}
