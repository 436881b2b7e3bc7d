/* grade.c: correctness, mechanism and speed for one exercise.
 *
 * Order matters for the student: a kernel that does not compile, or gives
 * wrong answers, is told so before anything about speed. Speed is still
 * measured when a mechanism check fails, so the report can show what the
 * missing mechanism costs. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_check.h"
#include "gpu.h"
#include "grade.h"
#include "mechanism.h"
#include "stats.h"
#include "verify.h"

#define MAX_ROUNDS 400
#define EXTRA_MEASURES 2

void variant_path(const exercise *ex, enum variant v, const grade_opts *o,
                  char *path, size_t len)
{
    const char *dir = v == V_BASELINE ? "grader/baselines"
                    : v == V_SOLUTION ? "solutions"
                    : ex->demo ? "grader/demos"
                    : o->student_dir;
    const char *file = v == V_SOLUTION && ex->reference ? ex->reference : ex->file;
    /* Relative to the course's top, as the student knows the file. */
    if (!strcmp(o->root, "."))
        snprintf(path, len, "%s/%s", dir, file);
    else
        snprintf(path, len, "%s/%s/%s", o->root, dir, file);
}

const char *variant_kernel(const exercise *ex, enum variant v)
{
    return v == V_SOLUTION && ex->reference_kernel ? ex->reference_kernel : ex->kernel;
}

/* The path as the student should see it: relative to the course's top. */
static const char *shown(const char *path, const grade_opts *o)
{
    size_t n = strlen(o->root);
    if (strncmp(path, o->root, n) == 0 && path[n] == '/')
        return path + n + 1;
    return path;
}

static void say(result *r, enum outcome o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(result *r, enum outcome o, const char *fmt, ...)
{
    va_list ap;
    r->outcome = o;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
    /* Sentences may start with a variant's name ("your kernel ..."). */
    if (r->message[0] >= 'a' && r->message[0] <= 'z')
        r->message[0] = (char)(r->message[0] - 'a' + 'A');
}

static void keep_detail(result *r, const char *text)
{
    snprintf(r->detail, sizeof r->detail, "%s", text ? text : "");
    size_t n = strlen(r->detail);
    if (n == sizeof r->detail - 1)
        snprintf(r->detail + n - 40, 40, "\n  ... (more in the log)\n");
}

/* Compile all three versions at once; 0 when they all built. */
static int compile_all(const exercise *ex, const int *knobs, const grade_opts *o,
                       int cc, compiled c[N_VARIANTS], result *r)
{
    char path[N_VARIANTS][1024];
    compile_job jobs[N_VARIANTS];
    for (int v = 0; v < N_VARIANTS; v++) {
        variant_path(ex, v, o, path[v], sizeof path[v]);
        /* Named as the student knows the file, in every message. */
        jobs[v] = (compile_job){.path = path[v], .name = shown(path[v], o), .ex = ex,
                                .kernel = variant_kernel(ex, v), .knobs = knobs, .cc = cc};
    }
    /* The student's file may not be a link out of the student's folder. */
    char folder[1024] = "";
    if (!ex->demo)
        snprintf(folder, sizeof folder, "%.*s",
                 (int)(strlen(path[V_STUDENT]) - strlen(ex->file) - 1), path[V_STUDENT]);
    jobs[V_STUDENT].within = folder[0] ? folder : NULL;
    set_stage("compiling the three versions");
    compile_files(jobs, N_VARIANTS, c);
    for (int v = 0; v < N_VARIANTS; v++) {
        if (c[v].ok)
            continue;
        if (v != V_STUDENT) {
            say(r, OUT_INTERNAL, "The course's own copy of %s (%s) did not build: %s This is "
                "a bug in the course, not in your kernel; please report it.",
                variant_name(v), shown(path[v], o), c[v].error);
            keep_detail(r, c[v].log);
            return -1;
        }
        /* compile.c says what happened: compile error, missing, refused, resources. */
        say(r, c[v].outcome, "%s", c[v].error);
        keep_detail(r, c[v].log);
        return -1;
    }
    return 0;
}

/* Run variant v once on I from a poisoned output and compare. 0 when right. */
static int run_and_verify(const exercise *ex, const kernel *k, instance *I,
                          dev_buffers *d, enum variant v, const grade_opts *o,
                          result *r, const char *when)
{
    dev_buffers_poison(d, I);
    gpu_launch(k, I, d, 0, o->launch_timeout_s);
    int bad_buf;
    long bad_off;
    set_stage("reading back the output of %s (%s)", variant_name(v), when);
    size_t guard = dev_buffers_download(d, I, &bad_buf, &bad_off);
    enum outcome fail = v == V_STUDENT ? OUT_WRONG : OUT_INTERNAL;
    if (guard) {
        const buffer *B = &I->bufs[bad_buf];
        long es = (long)elem_size(B->type);
        say(r, fail, "%s wrote outside its output array (%s): %zu guard bytes "
            "changed, the first at element %ld of an array of %zu %ss. An index is "
            "out of range: check the bounds test (i < n) and how the index is built "
            "from blockIdx and threadIdx.",
            variant_name(v), when, guard, bad_off >= 0 ? bad_off / es : -((-bad_off + es - 1) / es),
            B->count, elem_name(B->type));
        return -1;
    }
    mismatch_report rep;
    if (verify_outputs(I, ex->rtol, ex->atol, &rep) == 0)
        return 0;
    if (rep.unwritten == rep.wrong)
        say(r, fail, "%s left %zu of %zu output values unwritten (%s). The grader "
            "fills the output with a poison pattern before every launch; these still "
            "hold it. Some threads, or some part of the index range, never store a "
            "result: check that the grid covers every element.",
            variant_name(v), rep.unwritten, rep.checked, when);
    else
        say(r, fail, "%s computed %zu of %zu values wrong (%s; %zu never written). "
            "Tolerance: |got - expected| <= %g + %g*|expected|. Replay these inputs with "
            "SEED=%llu.", variant_name(v), rep.wrong, rep.checked, when, rep.unwritten,
            ex->atol, ex->rtol, r->seed);
    keep_detail(r, rep.text);
    return -1;
}

static int check_correctness(const exercise *ex, const int *knobs, const grade_opts *o,
                             const device_facts *dev, kernel k[N_VARIANTS], result *r)
{
    /* The student's kernel first: its failure is the one to report. */
    static const enum variant order[N_VARIANTS] = {V_STUDENT, V_SOLUTION, V_BASELINE};
    for (int s = 0; s < MAX_SIZES && ex->check_sizes[s]; s++) {
        instance I;
        size_t size = ex->check_sizes[s];
        set_stage("building the inputs of size %zu", size);
        if (instance_build(&I, ex, size, knobs, dev, r->seed + (unsigned)s) != 0) {
            say(r, OUT_INTERNAL, "The exercise's spec is broken: %s", I.error);
            return -1;
        }
        for (int j = 0; j < N_VARIANTS; j++) {
            enum variant v = order[j];
            if (o->correctness_only && v != V_STUDENT)
                continue;
            char when[96];
            snprintf(when, sizeof when, "size %zu", size);
            set_stage("running %s at size %zu", variant_name(v), size);
            dev_buffers d;
            dev_buffers_upload(&d, &I);
            int bad = run_and_verify(ex, &k[v], &I, &d, v, o, r, when);
            dev_buffers_free(&d);
            if (bad) {
                instance_free(&I);
                return -1;
            }
        }
        instance_free(&I);
    }
    return 0;
}

typedef struct samples {
    double t[N_VARIANTS][MAX_ROUNDS];
    int n;
} samples;

static void time_rounds(kernel k[N_VARIANTS], const instance *I, dev_buffers d[N_VARIANTS],
                        const device_facts *dev, const grade_opts *o, samples *S, int rounds)
{
    for (int i = 0; i < rounds && S->n < MAX_ROUNDS; i++, S->n++)
        for (int j = 0; j < N_VARIANTS; j++) {
            /* Rotate the order so no version always runs right after another. */
            int v = (j + S->n) % N_VARIANTS;
            set_stage("timing %s", variant_name(v));
            gpu_flush_l2(dev);
            S->t[v][S->n] = gpu_launch(&k[v], I, &d[v], 1, o->launch_timeout_s);
        }
}

/* The exercise's measure and bar from medians of rounds [lo, hi). */
static void measure_range(const exercise *ex, const samples *S, int lo, int hi,
                          double bytes, double copy_gbps, double *measure, double *bar,
                          double *ref_measure, double ms[N_VARIANTS])
{
    for (int v = 0; v < N_VARIANTS; v++)
        ms[v] = median(S->t[v] + lo, (size_t)(hi - lo));
    double sp = ms[V_BASELINE] / ms[V_STUDENT], ref = ms[V_BASELINE] / ms[V_SOLUTION];
    switch (ex->bar) {
    case BAR_BANDWIDTH:
        *measure = bytes / (ms[V_STUDENT] * 1e-3) / 1e9;
        *ref_measure = bytes / (ms[V_SOLUTION] * 1e-3) / 1e9;
        *bar = ex->bar_share * copy_gbps;
        break;
    case BAR_MATCH_SOLUTION:
        *measure = ms[V_STUDENT] / ms[V_SOLUTION];
        *ref_measure = 1.0;
        *bar = 1.0 + ex->bar_share;
        break;
    case BAR_SPEEDUP:
    case BAR_NONE:
        *measure = sp;
        *ref_measure = ref;
        *bar = speedup_bar(ex->bar_share, ex->bar_floor, ref);
        break;
    }
}

static int higher_is_better(const exercise *ex)
{
    return ex->bar != BAR_MATCH_SOLUTION;
}

enum speed { SPEED_PASS, SPEED_FAIL, SPEED_UNGRADED, SPEED_ERROR };

/* Does the reference solution itself clear the bar on this GPU? If not, the
 * technique does not pay here and the speed part cannot be graded. */
static int reference_clears(const exercise *ex, double ref_measure, double bar)
{
    switch (ex->bar) {
    case BAR_SPEEDUP:
    case BAR_BANDWIDTH: return ref_measure >= bar;
    case BAR_MATCH_SOLUTION:
    case BAR_NONE: return 1;
    }
    return 1;
}

/* Time all three versions interleaved and judge the student's speed. */
static enum speed time_and_judge(const exercise *ex, const int *knobs, const grade_opts *o,
                                   const device_facts *dev, kernel k[N_VARIANTS], result *r)
{
    instance I;
    set_stage("building the timing inputs (size %zu)", ex->time_size);
    if (instance_build(&I, ex, ex->time_size, knobs, dev, r->seed + 1000) != 0) {
        say(r, OUT_INTERNAL, "The exercise's spec is broken: %s", I.error);
        return SPEED_ERROR;
    }
    enum speed result = SPEED_FAIL;
    dev_buffers d[N_VARIANTS];
    double slowest = 0;
    for (int v = 0; v < N_VARIANTS; v++) {
        set_stage("warming up %s", variant_name(v));
        dev_buffers_upload(&d[v], &I);
        gpu_launch(&k[v], &I, &d[v], 0, o->launch_timeout_s);
        double t = gpu_launch(&k[v], &I, &d[v], 1, o->launch_timeout_s);
        if (t > slowest)
            slowest = t;
    }
    /* Enough rounds to fill the budget, within sane limits; a very slow
     * kernel gets fewer (at least 5), so grading it stays well inside the
     * per-exercise time limit instead of looking like a hang. */
    int rounds = (int)(o->time_budget_s * 1e3 / (3 * (slowest + 0.05)));
    int least = 3 * 20 * slowest > 20e3 ? 5 : 20;
    rounds = rounds < least ? least : rounds > 120 ? 120 : rounds;
    static samples S;
    S.n = 0;
    time_rounds(k, &I, d, dev, o, &S, rounds);

    double measure, bar, ref, ms[N_VARIANTS], m1, m2, b1, b2, r1, r2, tmp[N_VARIANTS];
    enum verdict v;
    for (;;) {
        measure_range(ex, &S, 0, S.n, I.bytes_moved, r->copy_gbps, &measure, &bar, &ref, ms);
        measure_range(ex, &S, 0, S.n / 2, I.bytes_moved, r->copy_gbps, &m1, &b1, &r1, tmp);
        measure_range(ex, &S, S.n / 2, S.n, I.bytes_moved, r->copy_gbps, &m2, &b2, &r2, tmp);
        r->noise = 2 * half_spread(m1, m2);
        v = judge(measure, bar, r->noise, higher_is_better(ex));
        if (v != V_TOO_CLOSE || r->remeasured >= EXTRA_MEASURES || S.n >= MAX_ROUNDS)
            break;
        r->remeasured++;
        time_rounds(k, &I, d, dev, o, &S, rounds);
    }
    if (v == V_TOO_CLOSE)   /* still on the line after measuring again: the plain rule */
        v = (higher_is_better(ex) ? measure >= bar : measure <= bar) ? V_ABOVE : V_BELOW;

    for (int x = 0; x < N_VARIANTS; x++) {
        r->time[x].ms = ms[x];
        r->time[x].gbps = I.bytes_moved / (ms[x] * 1e-3) / 1e9;
        r->time[x].reps = S.n;
    }
    r->speedup = ms[V_BASELINE] / ms[V_STUDENT];
    r->ref_speedup = ms[V_BASELINE] / ms[V_SOLUTION];
    r->measure = measure;
    r->bar = bar;
    r->timed = 1;

    /* Right only once is not right: every version must still be correct on
     * a launch after many others, starting from a poisoned output. */
    static const enum variant order[N_VARIANTS] = {V_STUDENT, V_SOLUTION, V_BASELINE};
    for (int j = 0; j < N_VARIANTS; j++) {
        char when[128];
        snprintf(when, sizeof when, "size %zu, after %d timed launches", ex->time_size, S.n);
        set_stage("checking %s after timing", variant_name(order[j]));
        if (run_and_verify(ex, &k[order[j]], &I, &d[order[j]], order[j], o, r, when)) {
            if (order[j] == V_STUDENT && r->outcome == OUT_WRONG) {
                size_t n = strlen(r->message);
                snprintf(r->message + n, sizeof r->message - n,
                         " It was right on the earlier checks: a kernel must give the same "
                         "answer on every launch, so it may not depend on memory it "
                         "changes itself (a counter, or the output's old contents).");
            }
            result = SPEED_ERROR;
            goto out;
        }
    }
    if (ex->bar == BAR_NONE)
        result = SPEED_PASS;
    else if (!reference_clears(ex, ref, bar))
        result = SPEED_UNGRADED;
    else
        result = v == V_ABOVE ? SPEED_PASS : SPEED_FAIL;
out:
    for (int x = 0; x < N_VARIANTS; x++)
        dev_buffers_free(&d[x]);
    instance_free(&I);
    return result;
}

/* The speed part of the verdict as one clause, without "Correct": the
 * caller puts it after "Correct, and", "Correct, but" or a missing
 * mechanism. Returns the outcome the speed alone earns. */
static enum outcome speed_clause(const exercise *ex, const result *r, enum speed s,
                                 char *buf, size_t len)
{
    switch (ex->bar) {
    case BAR_SPEEDUP:
    case BAR_NONE:
        if (s == SPEED_UNGRADED) {
            snprintf(buf, len, "the speed part cannot be graded on this GPU: the reference "
                     "solution itself only reached %.2fx the baseline's speed, under the "
                     "least gain that counts (%.2fx). Your kernel reached %.2fx.",
                     r->ref_speedup, ex->bar_floor, r->speedup);
            return OUT_PASS_UNTIMED;
        }
        snprintf(buf, len, "your kernel ran at %.2fx the baseline's speed; the bar was %.2fx: "
                 "%.0f%% of the gain the reference solution reached on this GPU in the same "
                 "run (%.2fx), and never under %.2fx.", r->speedup, r->bar,
                 100 * ex->bar_share, r->ref_speedup, ex->bar_floor);
        return s == SPEED_PASS ? OUT_PASS : OUT_SLOW;
    case BAR_BANDWIDTH:
        if (s == SPEED_UNGRADED) {
            snprintf(buf, len, "the speed part cannot be graded on this GPU: even the "
                     "reference solution reached only %.0f GB/s, under the bar of %.0f GB/s "
                     "(%.0f%% of the copy bandwidth). Your kernel: %.0f GB/s.",
                     r->time[V_SOLUTION].gbps, r->bar, 100 * ex->bar_share, r->measure);
            return OUT_PASS_UNTIMED;
        }
        snprintf(buf, len, "your kernel moved %.0f GB/s, %.0f%% of this GPU's copy bandwidth "
                 "(%.0f GB/s); the bar was %.0f%%, and the reference solution reached "
                 "%.0f GB/s.", r->measure, 100 * r->measure / r->copy_gbps, r->copy_gbps,
                 100 * ex->bar_share, r->time[V_SOLUTION].gbps);
        return s == SPEED_PASS ? OUT_PASS : OUT_SLOW;
    case BAR_MATCH_SOLUTION:
        snprintf(buf, len, "your kernel took %.2fx the time of the reference solution; up "
                 "to %.2fx is allowed.", r->measure, r->bar);
        return s == SPEED_PASS ? OUT_PASS : OUT_SLOW;
    }
    return OUT_INTERNAL;
}

static void say_speed_verdict(const exercise *ex, result *r, enum speed s)
{
    char clause[sizeof r->message - 64];
    enum outcome o = speed_clause(ex, r, s, clause, sizeof clause);
    if (o == OUT_SLOW)
        say(r, o, "Correct, but not fast enough: %s", clause);
    else if (o == OUT_PASS_UNTIMED)
        say(r, o, "Correct; %s", clause);
    else
        say(r, o, "Correct, and fast enough: %s", clause);
}

void grade_exercise(const exercise *ex, const int *knobs, const grade_opts *o, result *r)
{
    g_result = r;
    r->seed = o->seed;
    for (int k = 0; k < MAX_KNOBS; k++)
        r->knobs[k] = knobs[k];

    set_stage("looking for a GPU");
    device_facts dev;
    cudaError_t e = gpu_probe(&dev);
    if (e != cudaSuccess) {
        say(r, cuda_error_outcome(e) == OUT_NO_GPU ? OUT_NO_GPU : OUT_CRASH,
            "No usable GPU: %s (%s). This means %s", cudaGetErrorName(e),
            cudaGetErrorString(e), cuda_error_meaning(e));
        return;
    }
    snprintf(r->gpu, sizeof r->gpu, "%s", dev.name);
    r->cc = dev.cc;
    if (ex->min_cc && dev.cc < ex->min_cc) {
        say(r, OUT_UNSUPPORTED, "This exercise needs a GPU of compute capability %d.%d or "
            "newer; this one (%s) is %d.%d, so it cannot be graded here. The lesson says "
            "which hardware feature it relies on.", ex->min_cc / 10, ex->min_cc % 10,
            dev.name, dev.cc / 10, dev.cc % 10);
        return;
    }

    compiled c[N_VARIANTS];
    memset(c, 0, sizeof c);
    kernel k[N_VARIANTS];
    memset(k, 0, sizeof k);
    if (compile_all(ex, knobs, o, dev.cc, c, r) != 0)
        goto done;
    for (int v = 0; v < N_VARIANTS; v++) {
        set_stage("loading %s onto the GPU", variant_name(v));
        gpu_load(&c[v], variant_kernel(ex, v), &k[v]);
    }

    /* Resources depend on the block shape and shared memory, not on the
     * problem size: read them on the smallest instance, so the large timing
     * instance is built only once. */
    {
        instance I;
        set_stage("building the inputs of size %zu", ex->check_sizes[0]);
        if (instance_build(&I, ex, ex->check_sizes[0], knobs, &dev, o->seed) != 0) {
            say(r, OUT_INTERNAL, "The exercise's spec is broken: %s", I.error);
            goto done;
        }
        for (int v = 0; v < N_VARIANTS; v++) {
            r->res[v] = c[v].res;
            set_stage("reading the resources of %s", variant_name(v));
            gpu_resources(&k[v], &I, &dev, &r->res[v]);
        }
        instance_free(&I);
    }

    if (!o->correctness_only)
        r->copy_gbps = gpu_copy_bandwidth(&dev);
    if (check_correctness(ex, knobs, o, &dev, k, r) != 0)
        goto done;

    char what[512];
    int failed = first_failed_check(ex, &c[V_STUDENT], &r->res[V_STUDENT], knobs,
                                    what, sizeof what);
    enum speed s = SPEED_UNGRADED;
    if (o->correctness_only) {
        say(r, OUT_PASS_UNTIMED, "Correct on every size checked (speed not measured in "
            "this mode).");
    } else {
        s = time_and_judge(ex, knobs, o, &dev, k, r);
        if (s == SPEED_ERROR)
            goto done;
        say_speed_verdict(ex, r, s);
    }
    if (failed >= 0) {
        /* The mechanism first: it is the reason; the speed shows its cost. */
        char speed[sizeof r->message - 64] = "speed not measured in this mode.";
        if (r->timed)
            speed_clause(ex, r, s, speed, sizeof speed);
        say(r, OUT_MECHANISM, "Correct, but %s. Speed: %s", what, speed);
        snprintf(r->failed_check, sizeof r->failed_check, "%s", ex->checks[failed].why);
    }
done:
    for (int v = 0; v < N_VARIANTS; v++) {
        if (k[v].lib)
            gpu_unload(&k[v]);
        compiled_free(&c[v]);
    }
}
