/* nogpu.c: compile and mechanism checks of the student's file, no GPU. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "compile.h"
#include "instance.h"
#include "mechanism.h"
#include "nogpu.h"
#include "occupancy.h"
#include "static_check.h"

static void say(result *r, enum outcome o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(result *r, enum outcome o, const char *fmt, ...)
{
    va_list ap;
    r->outcome = o;
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
    say(r, o, "%s", c->error);
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
    say(r, OUT_RESOURCES, "Not one block of your kernel fits on an SM of an H100: %s. On a "
        "GPU the launch would be refused. (Nothing was run: there is no GPU here.)",
        occ.why);
    return -1;
}

static void say_checks(const exercise *ex, result *r, int failed)
{
    int n = 0;
    while (n < MAX_CHECKS && ex->checks[n].kind != CHECK_NONE)
        n++;
    if (failed >= 0) {
        say(r, OUT_MECHANISM, "Your kernel compiles, but %s. Correctness and speed were "
            "not checked: that needs an NVIDIA GPU.", r->checks[failed].what);
        snprintf(r->failed_check, sizeof r->failed_check, "%s", ex->checks[failed].why);
    } else if (n == 0) {
        say(r, OUT_CHECKED, "Your kernel compiles for sm_90. This exercise has no "
            "mechanism check; whether it is right and fast needs an NVIDIA GPU.");
    } else {
        char what[64];
        snprintf(what, sizeof what, n == 1 ? "mechanism check holds" :
                 "%d mechanism checks hold", n);
        say(r, OUT_CHECKED, "Your kernel compiles for sm_90, and its %s (listed below). "
            "That is not a pass: whether it is right and fast needs an NVIDIA GPU.", what);
    }
}

void check_without_gpu(const exercise *ex, const int *knobs, const grade_opts *o, result *r)
{
    memset(r, 0, sizeof *r);
    r->no_gpu = 1;
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
        say(r, OUT_INTERNAL, "The exercise's spec is broken: %s", I.error);
        instance_free(&I);
        return;
    }

    char path[1024];
    variant_path(ex, V_STUDENT, o, path, sizeof path);
    /* The file must really lie in the graded folder, as on a GPU. */
    char folder[1024];
    student_folder(ex, path, folder, sizeof folder);
    compile_job job = {.path = path, .name = shown_path(path, o),
                       .within = folder[0] ? folder : NULL, .ex = ex,
                       .kernel = variant_kernel(ex, V_STUDENT), .knobs = knobs,
                       .cc = NO_GPU_CC};
    compiled c;
    compile_files(&job, 1, &c);
    if (!c.ok) {
        say_not_compiled(r, &c);
    } else {
        resources *res = &r->res[V_STUDENT];
        *res = c.res;
        res->smem_dynamic = (int)I.dyn_smem;
        if (fill_occupancy(&I, &dev, res, r) == 0) {
            int failed = evaluate_checks(ex, &c, res, knobs, r->checks);
            /* The data-path half of a check is a run (knockout.h). */
            for (int i = 0; i < MAX_CHECKS && ex->checks[i].kind != CHECK_NONE; i++)
                if (ex->checks[i].knock != KNOCK_NONE && r->checks[i].state == CS_HOLDS)
                    snprintf(r->checks[i].what + strlen(r->checks[i].what),
                             sizeof r->checks[i].what - strlen(r->checks[i].what),
                             " (whether it carries the data needs a GPU: not judged)");
            say_checks(ex, r, failed);
        }
    }
    compiled_free(&c);
    instance_free(&I);
}
