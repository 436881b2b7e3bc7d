/* alloc_slack.cu: how cudaMalloc rounds allocations on this GPU, and whether
 * the bytes between an array's requested end and the end of its mapping can
 * be written by a kernel without a fault (issue 25, item 1).
 *
 *   nvcc -O2 -arch=sm_90 -o build/alloc_slack tests/gpu/probes/r5/alloc_slack.cu -lcuda
 *   build/alloc_slack
 *
 * For each requested size: the pointer, its alignment, the range the driver
 * reports (cuMemGetAddressRange), the allocation granularity, and whether a
 * kernel may write the last byte of the rounded 2 MiB page, or of the next
 * 64 KiB / 4 KiB boundary, without an error. Each write probe runs in a
 * process of its own (a faulting launch kills the context). */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>

__global__ void poke(unsigned char *p) { *p = 0x5a; }

/* One write probe in a fresh process (a faulting launch poisons the
 * context, and CUDA cannot be used in a forked child): `self poke BYTES
 * OFFSET` allocates BYTES and writes the byte at OFFSET; its exit status is
 * 0 when the write went through without an error. */
static const char *self;
static int probe_write(size_t bytes, size_t offset)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s poke %zu %zu", self, bytes, offset);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 9;
}

static int poke_main(size_t bytes, size_t offset)
{
    unsigned char *d;
    if (cudaMalloc(&d, bytes) != cudaSuccess) return 3;
    poke<<<1, 1>>>(d + offset);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

int main(int argc, char **argv)
{
    self = argv[0];
    if (argc == 4) return poke_main(strtoull(argv[2], 0, 10), strtoull(argv[3], 0, 10));
    const size_t sizes[] = { 4, 1000, 65536 + 12, 1 << 20, (2 << 20) + 4, 8000000, 100000012 };
    const size_t n = sizeof sizes / sizeof *sizes;
    cuInit(0);
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t gmin = 0, grec = 0;
    cuMemGetAllocationGranularity(&gmin, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    cuMemGetAllocationGranularity(&grec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    printf("granularity minimum %zu recommended %zu\n", gmin, grec);
    printf("requested\tptr\tptr%%2MiB\trange_base\trange_size\n");
    void *keep[16];
    for (size_t i = 0; i < n; i++) {
        cudaMalloc(&keep[i], sizes[i]);
        CUdeviceptr base;
        size_t rs;
        cuMemGetAddressRange(&base, &rs, (CUdeviceptr)keep[i]);
        printf("%zu\t%p\t%zu\t%p\t%zu\n", sizes[i], keep[i], (size_t)((uintptr_t)keep[i] % (2u << 20)),
               (void *)base, rs);
    }
    for (size_t i = 0; i < n; i++) cudaFree(keep[i]);
    printf("requested\tlast+1\tend_of_4KiB\tend_of_64KiB\tend_of_2MiB\t(0 = written without error)\n");
    for (size_t i = 0; i < n; i++) {
        size_t s = sizes[i];
        size_t e4 = (s + 4095) / 4096 * 4096, e64 = (s + 65535) / 65536 * 65536,
               e2m = (s + (2u << 20) - 1) / (2u << 20) * (2u << 20);
        printf("%zu\t%d\t%d\t%d\t%d\n", s, probe_write(s, s), probe_write(s, e4 - 1), probe_write(s, e64 - 1),
               probe_write(s, e2m - 1));
    }
    return 0;
}
