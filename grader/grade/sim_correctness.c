/* sim_correctness.c: the student's kernel on the PTX simulator, where there
 * is no GPU (sim_correctness.h). */
#include <stdio.h>
#include <string.h>
#include "child.h"
#include "clock.h"
#include "device_sim.h"
#include "kernel_output.h"
#include "grade_internal.h"
#include "sim_correctness.h"
#include "verify.h"

struct sim_job {
    const exercise *ex;
    const int *knobs;
    const grade_opts *o;
    const compiled *c;
};

/* The sizes to simulate: the spec's, or its check sizes that fit. */
static int sim_sizes(const exercise *ex, size_t out[MAX_SIZES])
{
    int n = 0;
    for (int s = 0; s < MAX_SIZES && ex->sim_sizes[s]; s++)
        out[n++] = ex->sim_sizes[s];
    for (int s = 0; !ex->sim_sizes[0] && s < MAX_SIZES && ex->check_sizes[s]; s++)
        if (ex->check_sizes[s] <= SIM_DEFAULT_MAX_SIZE)
            out[n++] = ex->check_sizes[s];
    return n;
}

/* The largest of the n sizes: the launch whose memory counts the report
 * shows (mem_counts.h), the one nearest the timed size. */
static int largest(const size_t *sizes, int n)
{
    int k = 0;
    for (int s = 1; s < n; s++)
        if (sizes[s] > sizes[k])
            k = s;
    return k;
}

size_t sim_largest_size(const exercise *ex)
{
    size_t sizes[MAX_SIZES];
    int n = sim_sizes(ex, sizes);
    return n ? sizes[largest(sizes, n)] : ex->time_size;
}

/* The race g's device saw ("" when none, or when it cannot see races). */
static const char *race_seen(const grade_ctx *g)
{
    return g->D->race ? g->D->race() : "";
}

/* End the run as RACE: the simulator saw an access that a copy in flight
 * or another warp may still write (the device's race()), after the launch of
 * size `when`. Its values are checked too, so the message says whether the
 * race already made them wrong here; RACE either way, since on a GPU the
 * order, and so the values, change from launch to launch. */
_Noreturn static void race_found(grade_ctx *g, instance *I, const dev_set *d,
                                 const char *when)
{
    mismatch_report rep;
    snprintf(g->r->race, sizeof g->r->race, "%s", race_seen(g));
    dev_set_download(g->D, d, I);
    if (verify_outputs(I, g->ex->rtol, g->ex->atol, &rep) != 0)
        child_fail(OUT_RACE, rep.text, "Your kernel has a race (%s): %s. Here it computed "
                   "%zu of %zu values wrong (%zu never written): the access came on the wrong "
                   "side of the other. On a GPU which comes first changes from launch to "
                   "launch, so the results do too. %s", when, g->r->race, rep.wrong,
                   rep.checked, rep.unwritten, RACE_FIX);
    child_fail(OUT_RACE, NULL, "Your kernel has a race (%s): %s. Its results were right "
               "here; still, on a GPU which of the two comes first changes from launch to "
               "launch, so whatever depends on that access is right in some launches and "
               "wrong in others. %s", when,
               g->r->race, RACE_FIX);
}

/* Does ex have a check whose data path is judged (a knock kind)? */
static int data_path_checks(const exercise *ex)
{
    for (int i = 0; i < MAX_CHECKS && ex->checks[i].kind != CHECK_NONE; i++)
        if (ex->checks[i].knock != KNOCK_NONE)
            return 1;
    return 0;
}

static void simulate(void *arg, result *r)
{
    const struct sim_job *j = arg;
    static grade_ctx g;
    memset(&g, 0, sizeof g);
    g.ex = j->ex;
    g.knobs = j->knobs;
    g.o = j->o;
    g.D = j->o->simulator;
    g.r = r;
    g_result = r;
    r->seed = j->o->seed;
    char why[256];
    static char log[4096];
    g.D->probe(&g.dev, why, sizeof why);
    kout_know_asserts(j->c->ptx);   /* a failed assert's condition, for CRASH */
    set_stage("loading your kernel into the simulator");
    int o = g.D->load(j->c, variant_kernel(j->ex, V_STUDENT), &g.k[V_STUDENT], log, sizeof log);
    if (o)
        child_fail(OUT_CHECKED, log, "Correctness needs a GPU: the simulator could not read "
                   "the compiled kernel (%.200s).", log);
    size_t sizes[MAX_SIZES];
    int n = sim_sizes(j->ex, sizes), watched = 0;
    for (int s = 1; s < n; s++)
        if (sizes[s] > sizes[watched])
            watched = s;
    if (!data_path_checks(j->ex))
        watched = -1;        /* nothing to judge on the data: no watch, full speed */
    long flood_lines = SIM_PRINT_FLOOD_LINES;   /* the most one launch printed past it */
    size_t flood_size = 0;
    double t_ref = 0, t_sim = 0;   /* the spec's CPU reference (it builds the inputs and
                                      the expected outputs), the simulated launches */
    for (int s = 0; s < n; s++) {
        instance I;
        dev_set d;
        char when[64];
        snprintf(when, sizeof when, "size %zu, simulated", sizes[s]);
        double t0 = now_s();
        build_instance(&g, &I, sizes[s], j->o->seed + (unsigned)s);
        t_ref += now_s() - t0;
        dev_set_upload(g.D, &d, &I);
        set_stage("running your kernel at size %zu on the simulator", sizes[s]);
        t0 = now_s();
        /* what the kernel prints, from its first launch only, as on a GPU */
        int first = s == 0 && kout_first_begin() == 0;
        long printed = kout_lines();
        int count = s == largest(sizes, n) && g.D->count_next && g.D->counts;
        if (count)
            g.D->count_next();
        if (s == watched && g.D->watch_next)   /* the data watch: the largest size */
            g.D->watch_next();
        run_launch(&g, V_STUDENT, &I, &d, 0);
        if (s == watched && g.D->watch)
            g.D->watch(&r->watch);
        if (count) {
            g.D->counts(&r->counts);
            r->counts.size = sizes[s];
        }
        if (first)
            kout_first_end(r, 1);
        printed = kout_lines() - printed;
        if (printed > flood_lines) {
            flood_lines = printed;
            flood_size = sizes[s];
        }
        t_sim += now_s() - t0;
        set_stage("checking your kernel at size %zu", sizes[s]);
        check_guards(&g, V_STUDENT, &I, &d, when);
        check_inputs(&g, V_STUDENT, &I, &d, when);
        dump_outputs(&g, &I, &d, sizes[s], j->o->seed + (unsigned)s);
        if (race_seen(&g)[0])
            race_found(&g, &I, &d, when);
        check_outputs(&g, V_STUDENT, &I, &d, when, NULL);
        dev_set_free(g.D, &d);
        instance_free(&I);
    }
    /* After every size: a race or wrong values, when there are any, say
     * more; a read of bytes the launch never wrote is WRONG even when the
     * values came out right, since on a GPU they are an earlier kernel's. */
    if (g.D->unwritten && g.D->unwritten()[0]) {
        snprintf(r->unwritten, sizeof r->unwritten, "%s", g.D->unwritten());
        child_fail(OUT_WRONG, NULL, UNWRITTEN_WORDS, g.D->unwritten());
    }
    r->correct = 1;
    r->outcome = OUT_PASS;   /* ran to the end: every size correct */
    if (flood_size)
        snprintf(r->detail, sizeof r->detail, "At size %zu your kernel printed %ld lines in "
                 "one launch. Correctness does not depend on it, but time does: on a GPU "
                 "device printf formats every line on the device into a 1 MB ring (older "
                 "lines are overwritten), and a saxpy printing from every thread at that size ran "
                 "past the grader's launch limit on an H200 (a HANG). Print from one thread "
                 "(if (i == 0) printf(...)) or a few.", flood_size, flood_lines);
    double insns = (double)device_sim_thread_insns();
    snprintf(r->message, sizeof r->message, "%d sizes, %.3g thread-instructions in %.2f s, "
             "%.3g a second; the CPU reference took %.2f s", n, insns, t_sim,
             t_sim > 0 ? insns / t_sim : 0, t_ref);
}

void simulate_in_child(const exercise *ex, const int *knobs, const grade_opts *o,
                       const compiled *c, double timeout_s, result *sr)
{
    struct sim_job j = {.ex = ex, .knobs = knobs, .o = o, .c = c};
    run_in_child(simulate, &j, timeout_s, sr);
}

void simulate_correctness(const exercise *ex, const int *knobs, const grade_opts *o,
                          const compiled *c, result *r)
{
    if (!o->simulator || r->stopped != OUT_NOT_RUN)
        return;
    static result sr;
    double t0 = now_s();
    simulate_in_child(ex, knobs, o, c, 60, &sr);
    double secs = now_s() - t0;
    r->simulated = sr.outcome != OUT_CHECKED;   /* CHECKED: it could not run the kernel */
    r->watch = sr.watch;
    /* what the first launch printed, shown as a GPU run shows it */
    memcpy(r->printed, sr.printed, sizeof r->printed);
    r->printed_lines = sr.printed_lines;
    r->printed_bytes = sr.printed_bytes;
    r->counts = sr.counts;   /* memory counts by line, whatever the run found */
    if (sr.outcome == OUT_PASS) {
        r->correct = 1;
        snprintf(r->sim_said, sizeof r->sim_said, "Correct on the PTX simulator (%.300s; "
                 "%.2f s in all): its results match the reference.%s%.500s", sr.message, secs,
                 sr.detail[0] ? " " : "", sr.detail);
    } else if (sr.outcome == OUT_CHECKED) {
        snprintf(r->sim_said, sizeof r->sim_said, "%.500s", sr.message);
    } else {
        /* WRONG, CRASH, HANG, RACE, INTERNAL: a stop, in the run's own words */
        r->stopped = sr.outcome;
        snprintf(r->race, sizeof r->race, "%s", sr.race);
        snprintf(r->unwritten, sizeof r->unwritten, "%s", sr.unwritten);
        snprintf(r->message, sizeof r->message, "%s", sr.message);
        snprintf(r->detail, sizeof r->detail, "%s", sr.detail);
    }
}
