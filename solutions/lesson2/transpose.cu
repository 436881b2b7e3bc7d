// Lesson 2, transpose: out (cols x rows) = transpose of in (rows x cols),
// row-major floats.
//
//   make check-solutions lesson2 ONLY=transpose   (grades this reference solution)
//
// Reference solution: the 32 x 32 tile goes through shared memory. Rows of
// `in` are read with threadIdx.x along the row, rows of `out` are written
// with threadIdx.x along the row; the transposition itself happens in shared
// memory, where a column read is cheap. The +1 column keeps that column read
// free of bank conflicts (lesson 3).

#define TDIM 32      // tile side
#define TROWS 8      // blockDim.y: each thread does TDIM / TROWS rows

extern "C" __global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TDIM][TDIM + 1];

    int x = blockIdx.x * TDIM + threadIdx.x;  // column of `in`
    int y = blockIdx.y * TDIM + threadIdx.y;  // first row of `in`
    for (int dy = 0; dy < TDIM; dy += TROWS)
        if (x < cols && y + dy < rows)
            tile[threadIdx.y + dy][threadIdx.x] = in[(size_t)(y + dy) * cols + x];

    __syncthreads();

    // The block's tile lands at rows blockIdx.x*TDIM.. and columns
    // blockIdx.y*TDIM.. of `out`; threadIdx.x walks along a row of `out`,
    // which is a column of the tile.
    int ox = blockIdx.y * TDIM + threadIdx.x;  // column of `out` = row of `in`
    int oy = blockIdx.x * TDIM + threadIdx.y;  // first row of `out` = column of `in`
    for (int dy = 0; dy < TDIM; dy += TROWS)
        if (ox < rows && oy + dy < cols)
            out[(size_t)(oy + dy) * rows + ox] = tile[threadIdx.x][threadIdx.y + dy];
}
