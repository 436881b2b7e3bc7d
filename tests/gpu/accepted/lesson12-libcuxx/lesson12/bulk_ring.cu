/* An accepted answer to lesson 12 written with libcu++ (cuda::barrier and
 * cuda::memcpy_async) instead of the PTX helpers of the exercise file: the
 * form NVIDIA's documentation teaches, and the one the lesson-12 probe timed
 * (grader/calibration/h100-2026-11-23-b/lessons/l12.tsv, cccl_sync, 4.69x the
 * plain loop at 4 stages of 4 iterations).
 *
 *   build/grader check lesson12 --student-dir tests/gpu/accepted
 *
 * Expected: PASS, once the grader gives NVRTC the toolkit's CCCL include
 * directory ($CUDA_HOME/include/cccl); until then COMPILE ("cannot open
 * source file cuda/barrier"). With that directory, NVRTC (CUDA 13.0, sm_90)
 * gives it the reference solution's 29 registers and 16416 bytes of shared
 * memory, and its PTX holds cp.async.bulk.shared...mbarrier::complete_tx and
 * no cp.async.ca/cg: it passes every mechanism check.
 */
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
__device__ __forceinline__ double work(double x) { return exp(x); }
#define STAGE (STAGE_ITERS * BLOCKDIMX)
extern "C" __global__ void
bulk_ring(const double *__restrict__ arr, double *__restrict__ out, int imax)
{
    __shared__ alignas(128) double buf[STAGES][STAGE];
    __shared__ block_barrier full[STAGES];
    const double *chunk = arr + (size_t)blockIdx.x * imax;
    const int stages = imax / STAGE;
    if (threadIdx.x == 0) {
        for (int k = 0; k < STAGES; k++) init(&full[k], BLOCKDIMX);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int k = 0; k < STAGES && k < stages; k++)
            cuda::memcpy_async(buf[k], chunk + (size_t)k * STAGE, cuda::aligned_size_t<16>(STAGE * 8), full[k]);
    double acc = 0.0;
#pragma unroll 1
    for (int s = 0; s < stages; s++) {
        const int k = s % STAGES;
        full[k].arrive_and_wait();
        if (threadIdx.x == 0 && s >= 1 && s - 1 + STAGES < stages) {
            const int j = (s - 1) % STAGES;
            cuda::memcpy_async(buf[j], chunk + (size_t)(s - 1 + STAGES) * STAGE, cuda::aligned_size_t<16>(STAGE * 8), full[j]);
        }
#pragma unroll
        for (int q = 0; q < STAGE_ITERS; q++) acc += work(buf[k][q * BLOCKDIMX + threadIdx.x]);
    }
    out[(size_t)blockIdx.x * BLOCKDIMX + threadIdx.x] = acc;
}
