/* onchip_state.cu: does anything a kernel leaves in shared memory or in its
 * local memory (stack) survive to the next launch of it, with other kernels
 * and a memset in between, as in the grader's timing rounds? If it does, a
 * replay cache needs no device memory at all, and the guard checks of
 * issue 25 cannot see it (a question raised by r5-guard; unmeasured).
 *
 *   nvcc -O2 -arch=sm_90 -o build/onchip_state tests/gpu/probes/r5/onchip_state.cu
 *   build/onchip_state
 *
 * One block of 256 threads per SM, as lesson 4 launches. `keeper` first
 * reads what its block finds in a 32 KiB __shared__ array and in a 4 KiB
 * local array (never written before being read in this launch), counts the
 * blocks that find the tag a launch before left (the launch number and
 * the block's index), then writes this launch's tag. Between two keeper
 * launches: `other`, a kernel using 1 KiB of shared memory (the reference
 * solution's footprint), and a 120 MiB cudaMemset (the L2 flush). Printed:
 * per launch, how many blocks found last launch's tag in shared memory and
 * in local memory, out of how many. */
#include <cuda_runtime.h>
#include <stdio.h>

#define SMEM_WORDS (32 * 1024 / 4)
#define LOCAL_WORDS 1024

__global__ void keeper(unsigned launch, unsigned *found_smem, unsigned *found_local)
{
    __shared__ volatile unsigned s[SMEM_WORDS];
    volatile unsigned l[LOCAL_WORDS];
    unsigned want = ((launch - 1) << 16) | blockIdx.x;
    unsigned t = threadIdx.x;
    /* What is there before this launch writes anything. */
    int smem_hit = s[SMEM_WORDS - 1 - t] == want;
    int local_hit = l[LOCAL_WORDS - 1 - (t % 8)] == want;
    __syncthreads();
    if (smem_hit && t == 0)
        atomicAdd(found_smem, 1u);
    if (local_hit && t == 0)
        atomicAdd(found_local, 1u);
    unsigned tag = (launch << 16) | blockIdx.x;
    s[SMEM_WORDS - 1 - t] = tag;
    for (int k = 0; k < LOCAL_WORDS; k += 97)
        l[k] = tag;
    l[LOCAL_WORDS - 1 - (t % 8)] = tag;
}

__global__ void other(float *out)
{
    __shared__ float w[256];
    w[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = w[255 - threadIdx.x];
}

int main(void)
{
    int dev = 0, sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    unsigned *found;
    float *out;
    void *flush;
    size_t flush_bytes = (size_t)120 << 20;
    if (cudaMalloc(&found, 2 * sizeof(unsigned)) || cudaMalloc(&out, (size_t)sms * 256 * 4) ||
        cudaMalloc(&flush, flush_bytes)) {
        printf("cudaMalloc failed\n");
        return 1;
    }
    printf("SMs %d, blocks per launch %d\n", sms, sms);
    for (int between = 0; between < 2; between++) {
        for (unsigned launch = 1; launch <= 6; launch++) {
            cudaMemset(found, 0, 2 * sizeof(unsigned));
            keeper<<<sms, 256>>>(launch, found, found + 1);
            unsigned got[2];
            cudaMemcpy(got, found, sizeof got, cudaMemcpyDeviceToHost);
            cudaError_t e = cudaGetLastError();
            printf("%s launch %u: last launch's tag found in shared memory by %u of %d "
                   "blocks, in local memory by %u (%s)\n",
                   between ? "with other kernels between:" : "back to back:", launch, got[0],
                   sms, got[1], cudaGetErrorString(e));
            if (between) {
                other<<<sms, 256>>>(out);
                cudaMemsetAsync(flush, launch & 0xff, flush_bytes);
                cudaDeviceSynchronize();
            }
        }
    }
    printf("SUMMARY: a nonzero count after launch 1 means state survives on the chip\n");
    return 0;
}
