/* static_check.c: NVRTC and the mechanism checks, with no GPU. */
#include <stdio.h>
#include <string.h>
#include "compile.h"
#include "instance.h"
#include "mechanism.h"
#include "static_check.h"

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

int static_check_exercise(const exercise *ex, const int *knobs, const grade_opts *o, int cc,
                          char *msg, size_t len, resources *student_res)
{
    size_t at = 0;
    int bad = 0;
    msg[0] = 0;
    device_facts dev;
    calibration_device(&dev);
    instance I;
    size_t dyn = 0;
    if (instance_build(&I, ex, ex->check_sizes[0], knobs, &dev, 1) == 0)
        dyn = I.dyn_smem;
    else {
        at += snprintf(msg + at, len - at, "spec: %s\n", I.error);
        bad = 1;
    }
    instance_free(&I);

    for (int v = 0; v < N_VARIANTS && at < len; v++) {
        char path[1024];
        variant_path(ex, v, o, path, sizeof path);
        compiled c;
        compile_file(path, ex, knobs, cc, &c);
        c.res.smem_dynamic = (int)dyn;
        c.res.occupancy_pct = -1;
        if (!c.ok) {
            at += snprintf(msg + at, len - at, "%s (sm_%d): %s\n%s", variant_name(v), cc,
                           c.error, c.log ? c.log : "");
            bad = 1;
        } else if (v == V_SOLUTION) {
            char what[512];
            int f = first_failed_check(ex, &c, &c.res, knobs, what, sizeof what);
            if (f >= 0) {
                at += snprintf(msg + at, len - at,
                               "reference solution (sm_%d) fails its own mechanism check: %s\n",
                               cc, what);
                bad = 1;
            }
        } else if (v == V_STUDENT && student_res) {
            *student_res = c.res;
        }
        compiled_free(&c);
        if (at > len)
            at = len;
    }
    return bad ? -1 : 0;
}
