/* static_check.c: NVRTC and the mechanism checks, with no GPU. */
#include <stdio.h>
#include <string.h>
#include "compile_jobs.h"
#include "instance.h"
#include "mechanism.h"
#include "reference.h"
#include "static_check.h"

/* The dynamic shared memory ex's problem asks for at `knobs`, built for the
 * calibration GPU. 0; or -1 with "spec: why" in msg when the spec cannot
 * build its problem. */
static int spec_dyn_smem(const exercise *ex, const int *knobs, size_t *dyn, char *msg,
                         size_t len)
{
    device_facts dev;
    calibration_device(&dev);
    instance I;
    int r = 0;
    *dyn = 0;
    if (instance_build(&I, ex, ex->check_sizes[0], knobs, &dev, 1) == 0)
        *dyn = I.dyn_smem;
    else {
        snprintf(msg, len, "spec: %s\n", I.error);
        r = -1;
    }
    instance_free(&I);
    return r;
}

int static_check_exercise(const exercise *ex, const int *knobs, const grade_opts *o, int cc,
                          char *msg, size_t len, resources *student_res)
{
    size_t at = 0, dyn;
    int bad = 0;
    msg[0] = 0;
    if (spec_dyn_smem(ex, knobs, &dyn, msg, len) != 0) {
        at = strlen(msg);
        bad = 1;
    }

    /* What gets compiled: the baseline, the student's file (or the demo),
     * the kernel the speed rule compares with, and, when that is not the
     * exercise's own solution, the solution too, compiled as a student's
     * file: it must hold every mechanism check (a demo is expected to fail
     * them). A student copy carries the references compiled; `grader
     * references --verify` checks those. */
    grade_opts as_solution = *o;
    as_solution.student_dir = "solutions";
    exercise_jobs J[2];
    int compiled_ref = reference_is_compiled(o);
    exercise_jobs_make(&J[0], ex, knobs, o, cc, compiled_ref ? JOB_ALL & ~JOB_SOLUTION : JOB_ALL);
    exercise_jobs_make(&J[1], ex, knobs, &as_solution, cc,
                       ex->reference && !ex->demo && !compiled_ref ? JOB_STUDENT : 0);
    struct { int own_solution, theirs; const char *path; } jobs[4];
    compile_job cj[4];
    compiled cs[4];
    int njobs = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < J[k].n; i++, njobs++) {
            enum variant v = J[k].variant[i];
            cj[njobs] = J[k].job[i];
            jobs[njobs].path = J[k].path[i];
            jobs[njobs].own_solution = k == 1 || (v == V_SOLUTION && !ex->reference);
            jobs[njobs].theirs = k == 0 && v == V_STUDENT;
        }
    compile_files(cj, njobs, cs);   /* at once, each in its own process */
    for (int j = 0; j < njobs; j++) {
        compiled c = cs[j];
        c.res.smem_dynamic = (int)dyn;
        c.res.occupancy_pct = -1;
        if (!c.ok) {
            if (at < len)
                at += snprintf(msg + at, len - at, "%s (sm_%d): %s\n%s", jobs[j].path, cc,
                               c.error, c.log ? c.log : "");
            bad = 1;
        } else if (jobs[j].own_solution && !ex->demo) {
            char what[512];
            int f = first_failed_check(ex, &c, &c.res, knobs, what, sizeof what);
            if (f >= 0 && at < len)
                at += snprintf(msg + at, len - at,
                               "%s (sm_%d) fails its own mechanism check: %s\n", jobs[j].path, cc,
                               what);
            bad |= f >= 0;
        } else if (jobs[j].theirs && student_res) {
            *student_res = c.res;
        }
        compiled_free(&cs[j]);
        if (at > len)
            at = len;
    }
    return bad ? -1 : 0;
}
