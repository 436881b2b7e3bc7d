/* static_check.c: NVRTC and the mechanism checks, with no GPU. */
#include <stdio.h>
#include <string.h>
#include "compile.h"
#include "instance.h"
#include "mechanism.h"
#include "reference.h"
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

    /* What gets compiled: the baseline, the student's file (or the demo),
     * the kernel the speed rule compares with, and, when that is not the
     * exercise's own solution, the solution too: it must hold every
     * mechanism check (a demo is expected to fail them). */
    grade_opts as_solution = *o;
    as_solution.student_dir = "solutions";
    struct { enum variant v; const grade_opts *opts; int own_solution; } jobs[4] = {
        {V_BASELINE, o, 0}, {V_STUDENT, o, 0}, {V_SOLUTION, o, !ex->reference}, {V_STUDENT, &as_solution, 1},
    };
    int njobs = ex->reference && !ex->demo ? 4 : 3;
    /* A student copy carries the references compiled; `grader references
     * --verify` checks those. */
    if (reference_is_compiled(o))
        njobs = 2;
    char path[4][1024];
    compile_job cj[4];
    compiled cs[4];
    for (int j = 0; j < njobs; j++) {
        enum variant v = jobs[j].v;
        variant_path(ex, v, jobs[j].opts, path[j], sizeof path[j]);
        cj[j] = (compile_job){.path = path[j], .ex = ex, .kernel = variant_kernel(ex, v),
                              .knobs = knobs, .cc = cc};
    }
    /* The student's file may not be a link out of the student's folder. */
    char folder[1024];
    student_folder(ex, path[1], folder, sizeof folder);
    cj[1].within = folder[0] ? folder : NULL;
    compile_files(cj, njobs, cs);   /* at once, each in its own process */
    for (int j = 0; j < njobs; j++) {
        enum variant v = jobs[j].v;
        compiled c = cs[j];
        c.res.smem_dynamic = (int)dyn;
        c.res.occupancy_pct = -1;
        if (!c.ok) {
            if (at < len)
                at += snprintf(msg + at, len - at, "%s (sm_%d): %s\n%s", path[j], cc, c.error,
                               c.log ? c.log : "");
            bad = 1;
        } else if (jobs[j].own_solution && !ex->demo) {
            char what[512];
            int f = first_failed_check(ex, &c, &c.res, knobs, what, sizeof what);
            if (f >= 0 && at < len)
                at += snprintf(msg + at, len - at,
                               "%s (sm_%d) fails its own mechanism check: %s\n", path[j], cc, what);
            bad |= f >= 0;
        } else if (v == V_STUDENT && jobs[j].opts == o && student_res) {
            *student_res = c.res;
        }
        compiled_free(&cs[j]);
        if (at > len)
            at = len;
    }
    return bad ? -1 : 0;
}
