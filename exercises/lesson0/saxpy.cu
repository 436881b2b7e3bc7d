// Lesson 0 exercise: saxpy, z[i] = a * x[i] + y[i] for 0 <= i < n.
//
// Read lessons/lesson0-measuring.md first, then run `make check lesson0`.
//
// The grader launches a FIXED grid: eight blocks of 256 threads per SM of
// your GPU, whatever n is. So for large n every thread must handle several
// elements, and for small n most threads have nothing to do.
//
// TODO (lesson 0, section "When it fails"): the body below is empty, so
// the kernel writes nothing. Run `make check lesson0` once as it is: the
// grader fills z with a poison value before every launch and reports every
// element still holding it as "unwritten". Then write the body as a
// grid-stride loop (section "Exercises"):
//   - start at this thread's global index (blockIdx.x, blockDim.x,
//     threadIdx.x) and step by the number of threads in the whole grid
//     (gridDim.x * blockDim.x), while the index is below n;
//   - store a * x[i] + y[i] into z[i] at each step.
// Neighbouring threads then touch neighbouring floats at every step. A kernel
// of this kind moves 12 bytes per element; the bar is half of the copy
// bandwidth the grader measures on your GPU (section "Two floors").
//
// Graded on sizes 1, 1000, 4097, 1048576; timed at 33554432 (n, the length of x, y and z).
extern "C" __global__ void saxpy(const float *x, const float *y, float *z,
                                 float a, int n)
{
    // TODO: your code here.
}
