// Lesson 2, thread mapping: C = A * B for a "thin" product, A is M x P,
// B is P x N, C is M x N, all row-major floats, P small (8).
//
// The launch is fixed by the grader: one-dimensional, one thread per element
// of C. What you choose is which element thread t owns.
//
// TODO (lessons/lesson2-coalescing.md, section "Which index varies fastest"):
// as written, the row index i varies fastest across the threads of a warp,
// so the 32 stores of one warp land N floats apart: 32 sectors for 128 useful
// bytes. Remap t so that the column index j varies fastest (the N x M index
// space). Then a warp writes 32 neighbouring floats of one row of C, reads
// 32 neighbouring floats of each row of B, and all its threads read the same
// element of A (one broadcast). Only the two lines that compute i and j
// need to change.
//
// Check with: make check lesson2 ONLY=mapping
//
// Graded on sizes 1, 33, 100, 777; timed at 4096 (M: C is M x (M + M/4 + 3)).

extern "C" __global__ void thin_matmul(const float *A, const float *B, float *C,
                                       int M, int N, int P)
{
    // M * N < 2^32 for every size the grader uses; 32-bit division is cheaper.
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (unsigned)M * (unsigned)N)
        return;

    unsigned i = t % (unsigned)M;  // TODO: the fastest-varying index should be j
    unsigned j = t / (unsigned)M;

    float acc = 0.0f;
    for (int k = 0; k < P; ++k)
        acc += A[(size_t)i * P + k] * B[(size_t)k * N + j];
    C[(size_t)i * N + j] = acc;
}
