// Lesson 15 answered by shared-memory tiling: an accepted answer
// (tests/gpu/accepted/README.md), not the reference. Grade it with:
//   build/grader check lesson15 --student-dir tests/gpu/accepted/lesson15-shared-tile
//
// The block walks its 256 rows in tiles of TILE_ROWS whole rows. The tile's
// rows are contiguous in x, so the block copies them into shared memory as
// one flat run of floats: thread t loads elements t, t+256, t+512, ... -
// every load instruction of a warp reads one 128-byte line (lesson 2), and
// BATCH of them are issued before the first store (lesson 4). After one
// __syncthreads() each warp reduces TILE_ROWS/8 rows out of shared memory:
// consecutive lanes read consecutive words of a row, so no bank conflicts
// (lesson 3). x is read once, y written once.

#define MAX_COLS 512
#define ROWS_PER_BLOCK 256
#define TILE_ROWS 16
#define BATCH 16

__device__ __forceinline__ float warp_max(float v)
{
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Copy n consecutive floats from src into tile, BATCH loads per thread in
// flight before their stores.
__device__ __forceinline__ void stage(float *tile, const float *__restrict__ src, int n)
{
    const int step = blockDim.x;
    for (int base = threadIdx.x; base < n; base += step * BATCH) {
        float t[BATCH];
        #pragma unroll
        for (int k = 0; k < BATCH; ++k) {
            int i = base + k * step;
            t[k] = i < n ? src[i] : 0.0f;
        }
        #pragma unroll
        for (int k = 0; k < BATCH; ++k) {
            int i = base + k * step;
            if (i < n)
                tile[i] = t[k];
        }
    }
}

// One row of the tile, by one warp: maximum, exponentials (kept in the
// tile), sum, output.
__device__ __forceinline__ void row_softmax(float *row, float *__restrict__ yr, int cols)
{
    const int lane = threadIdx.x & 31;
    float m = -3.402823466e38f;
    for (int j = lane; j < cols; j += 32)
        m = fmaxf(m, row[j]);
    m = warp_max(m);
    float s = 0.0f;
    for (int j = lane; j < cols; j += 32) {
        float e = expf(row[j] - m);
        row[j] = e;
        s += e;
    }
    float inv = 1.0f / warp_sum(s);
    for (int j = lane; j < cols; j += 32)
        yr[j] = row[j] * inv;
}

extern "C" __global__ void softmax(const float *__restrict__ x, float *__restrict__ y,
                                   int rows, int cols)
{
    __shared__ float tile[TILE_ROWS * MAX_COLS];
    const int warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const int first = blockIdx.x * ROWS_PER_BLOCK;
    const int last = min(first + ROWS_PER_BLOCK, rows);

    for (int t0 = first; t0 < last; t0 += TILE_ROWS) {
        const int nrows = min(TILE_ROWS, last - t0);
        stage(tile, x + (size_t)t0 * cols, nrows * cols);
        __syncthreads();
        for (int w = warp; w < nrows; w += warps)
            row_softmax(tile + w * cols, y + (size_t)(t0 + w) * cols, cols);
        __syncthreads();   // before the next tile overwrites this one
    }
}
