// Lesson 2, thread mapping: C = A * B for a "thin" product, A is M x P,
// B is P x N, C is M x N, all row-major floats, P small (8).
//
//   make check-solutions lesson2 ONLY=mapping   (grades this reference solution)
//
// Reference solution: the index space is N x M, the column index j varies
// fastest. A warp now stores 32 neighbouring floats of one row of C (four
// sectors, the minimum), reads 32 neighbouring floats of each row of B, and
// reads one element of A that all its threads share.

extern "C" __global__ void thin_matmul(const float *A, const float *B, float *C,
                                       int M, int N, int P)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (unsigned)M * (unsigned)N)
        return;

    unsigned j = t % (unsigned)N;  // fastest across the warp: walks along a row
    unsigned i = t / (unsigned)N;

    float acc = 0.0f;
    for (int k = 0; k < P; ++k)
        acc += A[(size_t)i * P + k] * B[(size_t)k * N + j];
    C[(size_t)i * N + j] = acc;
}
