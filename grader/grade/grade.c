/* grade.c: one exercise, start to end, as stages in order.
 *
 * Order matters for the student: a kernel that does not compile, or gives
 * wrong answers, is told so before anything about speed. Speed is still
 * measured when a mechanism check fails, so the report can show what the
 * missing mechanism costs. Each stage returns only when grading can go on;
 * otherwise it ends the child through child_fail (child.h). */
#include <stdio.h>
#include <string.h>
#include "compile_jobs.h"
#include "diagnose.h"
#include "grade.h"
#include "grade_internal.h"
#include "kernel_output.h"
#include "launch_limits.h"
#include "launch_occupancy.h"
#include "mechanism.h"
#include "reference.h"
#include "verdict.h"

static void find_device(grade_ctx *g)
{
    char why[768];
    set_stage("looking for a GPU");
    int o = g->D->probe(&g->dev, why, sizeof why);
    if (o)
        child_fail((enum outcome)o, NULL, "No usable GPU: %s", why);
    snprintf(g->r->gpu, sizeof g->r->gpu, "%s", g->dev.name);
    g->r->cc = g->dev.cc;
    g->r->sm_count = g->dev.sm_count;
    if (g->ex->min_cc && g->dev.cc < g->ex->min_cc)
        child_fail(OUT_UNSUPPORTED, NULL, "This exercise needs a GPU of compute capability "
                   "%d.%d or newer; this one (%s) is %d.%d, so it cannot be graded here. The "
                   "lesson says which hardware feature it relies on.", g->ex->min_cc / 10,
                   g->ex->min_cc % 10, g->dev.name, g->dev.cc / 10, g->dev.cc % 10);
}

/* A version that did not compile: the one place where what compile.c
 * found (compile error, missing, refused by a rule, a resource over its
 * limit) becomes the exercise's outcome. */
_Noreturn static void compile_failed(enum variant v, const compiled *c, const char *path)
{
    if (v != V_STUDENT)
        child_fail(OUT_INTERNAL, c->log, "The course's own copy of %s (%s) did not build: "
                   "%s This is a bug in the course, not in your kernel; please report it.",
                   variant_name(v), path, c->error);
    enum outcome o = c->outcome ? c->outcome : c->missing ? OUT_MISSING : OUT_COMPILE_ERROR;
    child_fail(o, c->log, "%s", c->error);
}

/* Compile the three versions at once (each in its own bounded child), or
 * read the reference's PTX in a student copy (compile_jobs.h: the path
 * every command takes); stop at the first failure. */
static void compile_all(grade_ctx *g, compiled c[N_VARIANTS])
{
    const char *kernel[N_VARIANTS];
    char path[1024];
    set_stage("compiling the three versions");
    int v = exercise_compile(g->ex, g->knobs, g->o, g->dev.cc, g->D->compile, JOB_ALL, c,
                             kernel, g->ref_note, sizeof g->ref_note);
    g->ref_kernel = kernel[V_SOLUTION];
    if (v < 0)
        return;
    if (v == V_SOLUTION)
        reference_source(g->ex, g->o, path, sizeof path);
    else
        variant_path(g->ex, v, g->o, path, sizeof path);
    compile_failed(v, &c[v], shown_path(path, g->o));
}

static void load_all(grade_ctx *g, const compiled c[N_VARIANTS])
{
    for (int v = 0; v < N_VARIANTS; v++) {
        static char log[8192];
        char why[768];
        set_stage("loading %s onto the GPU", variant_name(v));
        const char *name = v == V_SOLUTION && g->ref_kernel ? g->ref_kernel
                         : variant_kernel(g->ex, v);
        int o = g->D->load(&c[v], name, &g->k[v], log, sizeof log);
        if (!o)
            continue;
        if (load_log_limit(log, &g->dev, why, sizeof why))
            child_fail(OUT_RESOURCES, log, "%s cannot be loaded onto this GPU (%s): it asks "
                       "for more than the GPU has. %s", variant_name(v), g->dev.name, why);
        /* The first line of the log is the error and what it means. */
        int first = (int)strcspn(log, "\n");
        child_fail(v == V_STUDENT ? (enum outcome)o : OUT_INTERNAL, log,
                   "While %s: the GPU would not load the compiled kernel: %.*s",
                   g->r->stage, first, log);
    }
}

/* Resources depend on the block shape and shared memory, not on the problem
 * size: read them on the smallest instance, so the large timing instances
 * are built only for timing. */
static void read_resources(grade_ctx *g, const compiled c[N_VARIANTS])
{
    instance I;
    build_instance(g, &I, g->ex->check_sizes[0], g->o->seed);
    for (int v = 0; v < N_VARIANTS; v++) {
        g->r->res[v] = c[v].res;
        set_stage("reading the resources of %s", variant_name(v));
        g->D->resources(&g->k[v], &I, &g->dev, &g->r->res[v]);
        launch_occupancy_set(&g->r->res[v], &I, &g->dev);   /* the timed launch's replaces it */
    }
    instance_free(&I);
}

void grade_exercise(const exercise *ex, const int *knobs, const grade_opts *o, result *r)
{
    static grade_ctx g;
    static compiled c[N_VARIANTS];
    memset(&g, 0, sizeof g);
    memset(c, 0, sizeof c);
    g.ex = ex;
    g.knobs = knobs;
    g.o = o;
    g.D = o->device ? o->device : &device_cuda;
    g.r = r;
    g.printed_by_v = -1;
    g_result = r;
    r->seed = o->seed;
    for (int k = 0; k < MAX_KNOBS; k++)
        r->knobs[k] = knobs[k];

    find_device(&g);
    compile_all(&g, c);
    r->diags = diagnose_exercise(ex, c[V_STUDENT].ptx);   /* for a hang's message and the hints */
    kout_know_asserts(c[V_STUDENT].ptx);          /* a failed assert's reason, if CUDA is mute */
    load_all(&g, c);
    read_resources(&g, c);
    /* For the report's list of checks, holding or not, whatever comes next. */
    evaluate_checks(ex, &c[V_STUDENT], &r->res[V_STUDENT], knobs, r->checks);
    if (!o->correctness_only) {
        set_stage("measuring the GPU's copy bandwidth");
        r->copy_gbps = g.D->copy_gbps(&g.dev);
        if (ex->latency_bound) {
            set_stage("measuring the GPU's device-memory latency");
            r->latency_ns = g.D->latency_ns(&g.dev);
        }
    }
    check_correctness(&g);
    r->correct = 1;
    /* The knock-out runs on the timing problem's own buffers, as a timed
     * launch (knockout_run.c): the sets are built for it too. */
    static timing_sets T;
    int timed = !o->correctness_only, knock = knockout_needed(ex);
    if (timed || knock) {
        /* The L2 flush's buffer first (the first flush allocates it): the
         * memory around the timing sets is then the same in the knock-out
         * and in every timed launch after it. */
        g.D->flush_l2(&g.dev);
        timing_sets_build(&g, &T);
    }
    /* The timed launch on the simulator, for a sample of its blocks: its
     * unwritten reads and races, and the data watch that judges the
     * mechanism checks (sim_sample.h). The knock-out stays for what the
     * simulator could not watch (an instruction it does not run). */
    if (timed || knock)
        sample_timed_launch(&g, &c[V_STUDENT], &T);
    if (knock && !r->watch.watched)
        judge_data_path(&g, &c[V_STUDENT], &T);
    if (timed)
        time_and_judge(&g, &T);
    if (timed || knock)
        timing_sets_free(&g, &T);
    /* The last facts, then the one verdict (verdict.h). */
    snprintf(r->ref_stand_in, sizeof r->ref_stand_in, "%s", g.ref_note);
    if (o->ncu)
        r->ncu = *o->ncu;
    verdict_say(ex, r);

    for (int v = 0; v < N_VARIANTS; v++) {
        g.D->unload(&g.k[v]);
        compiled_free(&c[v]);
    }
}
