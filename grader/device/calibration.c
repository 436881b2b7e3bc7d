/* calibration.c: the device facts of an H100, the GPU the course's figures
 * are measured on (calibration.h). */
#include <stdio.h>
#include <string.h>
#include "calibration.h"

void calibration_device(device_facts *dev)
{
    memset(dev, 0, sizeof *dev);
    snprintf(dev->name, sizeof dev->name, "NVIDIA H100 80GB HBM3 (assumed, no GPU here)");
    dev->cc = 90;
    dev->sm_count = 132;
    dev->max_threads_per_sm = 2048;
    dev->max_blocks_per_sm = 32;
    dev->regs_per_sm = 65536;
    dev->smem_per_sm = 233472;
    dev->smem_per_block_optin = 232448;
    dev->l2_bytes = 50u << 20;
    dev->global_mem_bytes = 80ull << 30;
}
