/* nogpu.c: compile and mechanism checks of the student's file, no GPU. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "compile_jobs.h"
#include "diagnose.h"
#include "instance.h"
#include "launch_occupancy.h"
#include "mechanism.h"
#include "nogpu.h"
#include "occupancy.h"
#include "sim_correctness.h"
#include "static_check.h"
#include "verdict.h"
#include "watch_checks.h"

/* Checking stopped before the checks: `o` is a fact verdict_decide returns
 * first (verdict.h), and this is its message. */
static void stop(result *r, enum outcome o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void stop(result *r, enum outcome o, const char *fmt, ...)
{
    va_list ap;
    r->outcome = r->stopped = o;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
}

/* A compile that produced nothing to check: compile.c's outcome and
 * sentence (compile error, missing, refused by a rule, a resource over its
 * limit), as grade.c reports them on a GPU. */
static void say_not_compiled(result *r, const compiled *c)
{
    enum outcome o = c->outcome ? c->outcome : c->missing ? OUT_MISSING : OUT_COMPILE_ERROR;
    stop(r, o, "%s", c->error);
    snprintf(r->detail, sizeof r->detail, "%s", c->log ? c->log : "");
}

/* Occupancy on the calibration GPU from the ptxas figures and the launch
 * the spec makes. 0, or -1 when not one block fits (r says why). */
static int fill_occupancy(const instance *I, const device_facts *dev, resources *res,
                          result *r)
{
    occupancy occ;
    int threads = (int)(I->block[0] * I->block[1] * I->block[2]);
    res->occupancy_pct = -1;
    if (!res->known ||
        occupancy_compute(dev, threads, res->regs, (size_t)res->smem_static,
                          (size_t)res->smem_dynamic, &occ) != 0)
        return 0;
    res->occupancy_pct = occ.pct;
    res->blocks_per_sm = occ.blocks_per_sm;
    if (occ.bound != BOUND_NO_FIT)
        return 0;
    stop(r, OUT_RESOURCES, "Not one block of your kernel fits on an SM of an H100: %s. On a "
        "GPU the launch would be refused. (Nothing was run: there is no GPU here.)",
        occ.why);
    return -1;
}

/* The occupancy of the launch a GPU would time: its grid is the timed
 * problem's (the checks' sizes are far smaller: lesson 1's shared_hog
 * checks 1 block, times 262144). Left unknown if that cannot be built. */
static void timed_launch_occupancy(const exercise *ex, const int *knobs,
                                   const device_facts *dev, unsigned long long seed,
                                   resources *res)
{
    instance T;
    if (instance_build(&T, ex, ex->time_size, knobs, dev, seed) == 0)
        launch_occupancy_set(res, &T, dev);
    instance_free(&T);
}

void check_without_gpu(const exercise *ex, const int *knobs, const grade_opts *o, result *r)
{
    memset(r, 0, sizeof *r);
    r->no_gpu = 1;
    r->sim_on = o->simulator != NULL;
    r->seed = o->seed;
    r->cc = NO_GPU_CC;
    for (int k = 0; k < MAX_KNOBS; k++)
        r->knobs[k] = knobs[k];
    for (int v = 0; v < N_VARIANTS; v++)
        r->res[v].occupancy_pct = -1;

    device_facts dev;
    calibration_device(&dev);
    instance I;
    if (instance_build(&I, ex, ex->check_sizes[0], knobs, &dev, o->seed) != 0) {
        stop(r, OUT_INTERNAL, "The exercise's spec is broken: %s", I.error);
        instance_free(&I);
        return;
    }

    /* The student's file, by the rules every command applies. */
    exercise_jobs J;
    exercise_jobs_make(&J, ex, knobs, o, NO_GPU_CC, JOB_STUDENT);
    compiled c;
    compile_files(J.job, J.n, &c);
    if (!c.ok) {
        say_not_compiled(r, &c);
    } else {
        resources *res = &r->res[V_STUDENT];
        *res = c.res;
        res->smem_dynamic = (int)I.dyn_smem;
        /* What the PTX shows needs no GPU: the same diagnoses as a graded run. */
        r->diags = diagnose_exercise(ex, c.ptx);
        if (fill_occupancy(&I, &dev, res, r) == 0) {
            timed_launch_occupancy(ex, knobs, &dev, o->seed, res);
            evaluate_checks(ex, &c, res, knobs, r->checks);
            simulate_correctness(ex, knobs, o, &c, r);
            /* The data-path half of a check: what the simulator watched
             * the data do (watch_checks.h), or not judged. */
            watch_judge_checks(ex, knobs, r);
            verdict_say(ex, r);
        }
    }
    compiled_free(&c);
    instance_free(&I);
}
