// Lesson 2, transpose: out (cols x rows) = transpose of in (rows x cols),
// row-major floats.
//
// Launch (fixed by the grader): blocks of 32 x 8 threads, one block per
// 32 x 32 tile of `in`; each thread handles four elements of its column of
// the tile, 8 rows apart.
//
// TODO (lessons/lesson2-coalescing.md, section "Staging a tile"): the reads
// below are coalesced, the writes are not: consecutive
// threads store `rows` floats apart. Stage the tile in shared memory instead:
//   1. each block reads its 32 x 32 tile of `in` row by row (threadIdx.x
//      along a row, as now) into a __shared__ array;
//   2. __syncthreads(), so the whole tile has arrived;
//   3. each block writes the tile to its transposed place in `out`, again
//      with threadIdx.x walking along a row, this time a row of `out`, and
//      reads the matching column of the shared tile.
// Both global sides then move whole 128-byte rows per warp. Keep the bounds
// checks: rows and cols need not be multiples of 32. (Lesson 3 explains why
// the shared array is best declared [32][33] rather than [32][32].)
//
// Check with: make check lesson2 ONLY=transpose
//
// Graded on sizes 1, 31, 100, 257, 1000; timed at 4096 (rows: the matrix is rows x (rows + rows/4)).

#define TDIM 32      // tile side
#define TROWS 8      // blockDim.y: each thread does TDIM / TROWS rows

extern "C" __global__ void transpose(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * TDIM + threadIdx.x;  // column of `in`
    int y = blockIdx.y * TDIM + threadIdx.y;  // first row of `in`

    for (int dy = 0; dy < TDIM; dy += TROWS)
        if (x < cols && y + dy < rows)
            out[(size_t)x * rows + (y + dy)] = in[(size_t)(y + dy) * cols + x];
}
