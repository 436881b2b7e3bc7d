/* Lesson 11a answered with libcu++ instead of inline PTX:
 * cuda::apply_access_property(p, bytes, cuda::access_property::normal{})
 * emits prefetch.global.L2::evict_normal for every 128-byte line of
 * [p, p + bytes) (the toolkit's cuda/annotated_ptr; compute capability 8.0
 * and newer, nothing on older GPUs). 128 bytes from a line's first element:
 * one prefetch, from the thread that starts the line.
 *
 *   build/grader check lesson11 --only l2_prefetch \
 *       --student-dir tests/gpu/accepted/lesson11-libcuxx
 */
#include <cuda/annotated_ptr>

__device__ __forceinline__ double work(double x)
{
    return exp(x);
}

extern "C" __global__ void
l2_prefetch(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const int last = imax - L2DIST * BLOCKDIMX;
    const bool issues = threadIdx.x % 16 == 0;   /* one thread per 128-byte line */
    double acc = 0.0;
#pragma unroll 1
    for (int i = threadIdx.x; i < imax; i += BLOCKDIMX) {
        if (issues && i < last)
            cuda::apply_access_property(&chunk[i + L2DIST * BLOCKDIMX], (size_t)128,
                                        cuda::access_property::normal{});
        acc += work(chunk[i]);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
