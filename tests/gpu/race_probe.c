/* race_probe.c: how often one kernel file gives a wrong answer, launch by
 * launch, through the grader's own compile, buffers and verification.
 *
 * Normal grading verifies a student's kernel on a handful of launches (one
 * per correctness size, one after timing). A racy kernel that is wrong on
 * one launch in a hundred passes most gradings; this tool measures that rate
 * so a grading condition can be chosen that catches it (more launches, more
 * blocks per SM, another PDIST). It compiles the file once, builds each size
 * once, then repeats: poison the output, launch, download, compare.
 *
 *   build/tests/race_probe --lesson 9 --only rolling_async \
 *       --file tests/gpu/races/async_commit_if_copy/lesson9/rolling_async.cu \
 *       --set PDIST=2 --sizes check,time --launches 200 --seconds 3 --tag commit_if_copy
 *
 * Prints one TSV line per size:
 *   tag  exercise  knobs  size  launches  wrong_launches  first_wrong_launch  seconds  first failure
 * A CUDA error or a hang ends the probe with a line saying so (exit 2).
 * Used by tests/gpu/race-experiment.sh; needs a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "buffers.h"
#include "child.h"
#include "compile.h"
#include "cuda_check.h"
#include "device.h"
#include "verify.h"

#define MAX_PROBE_SIZES 12

typedef struct probe_opts {
    int lesson;
    const char *only, *file, *tag;
    char sets[MAX_KNOBS][32];
    int set_values[MAX_KNOBS], nsets;
    const char *sizes;          /* "check", "time", or numbers, comma-separated */
    int launches;
    double seconds;             /* per size: stop early past this */
    unsigned long long seed;
} probe_opts;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const exercise *find_exercise(int lesson, const char *name)
{
    if (lesson < 0 || lesson >= N_LESSONS)
        return NULL;
    for (const exercise *const *e = lesson_exercises[lesson]; *e; e++)
        if (!name || !strcmp((*e)->name, name))
            return *e;
    return NULL;
}

/* Knob values: the exercise's defaults, then --set. 0, or -1 for a --set
 * the exercise does not have. */
static int knob_values(const exercise *ex, const probe_opts *o, int *knobs, char *desc,
                       size_t len)
{
    desc[0] = 0;
    for (int s = 0; s < o->nsets; s++) {
        int found = 0;
        for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
            found |= !strcmp(ex->knobs[k].name, o->sets[s]);
        if (!found) {
            fprintf(stderr, "race_probe: lesson%d/%s has no knob %s\n", ex->lesson, ex->name,
                    o->sets[s]);
            return -1;
        }
    }
    for (int k = 0; k < MAX_KNOBS; k++) {
        knobs[k] = 0;
        if (!ex->knobs[k].name)
            continue;
        knobs[k] = ex->knobs[k].def;
        for (int s = 0; s < o->nsets; s++)
            if (!strcmp(ex->knobs[k].name, o->sets[s]))
                knobs[k] = o->set_values[s];
        size_t n = strlen(desc);
        snprintf(desc + n, len - n, "%s%s=%d", n ? "," : "", ex->knobs[k].name, knobs[k]);
    }
    return 0;
}

static int parse_sizes(const exercise *ex, const char *spec, size_t *out)
{
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *t = strtok(buf, ","); t && n < MAX_PROBE_SIZES; t = strtok(NULL, ",")) {
        if (!strcmp(t, "check")) {
            for (int s = 0; s < MAX_SIZES && ex->check_sizes[s] && n < MAX_PROBE_SIZES; s++)
                out[n++] = ex->check_sizes[s];
        } else if (!strcmp(t, "time")) {
            out[n++] = ex->time_size;
        } else {
            out[n++] = (size_t)strtoull(t, NULL, 10);
        }
    }
    return n;
}

/* One size: launch repeatedly and count the launches with any wrong value. */
static void probe_size(const device_ops *D, const exercise *ex, const kernel *k,
                       const int *knobs, const char *desc, const device_facts *dev,
                       size_t size, const probe_opts *o)
{
    instance I;
    set_stage("building the inputs of size %zu", size);
    if (instance_build(&I, ex, size, knobs, dev, o->seed) != 0) {
        printf("%s\tlesson%d/%s\t%s\t%zu\t0\t0\t-\t0\tspec error: %s\n", o->tag, ex->lesson,
               ex->name, desc, size, I.error);
        return;
    }
    dev_set d;
    dev_set_upload(D, &d, &I);
    int wrong = 0, first = -1, n = 0;
    char first_msg[256] = "-";
    double t0 = now_s();
    for (; n < o->launches && (n < 2 || now_s() - t0 < o->seconds); n++) {
        set_stage("launch %d at size %zu", n, size);
        void *argp[MAX_ARGS];
        dev_set_poison(D, &d, &I);
        dev_set_args(&d, &I, argp);
        launch_result L = D->launch(k, &I, argp, 0, 10.0);
        if (L.status != LAUNCH_OK)
            child_fail(L.status == LAUNCH_HUNG ? OUT_HANG : OUT_RESOURCES, NULL,
                       "launch %d at size %zu %s", n, size,
                       L.status == LAUNCH_HUNG ? "did not finish" : "was refused");
        guard_damage gd = dev_set_guards(D, &d, &I);
        dev_set_download(D, &d, &I);
        mismatch_report rep;
        size_t bad = verify_outputs(&I, ex->rtol, ex->atol, &rep);
        if (!gd.bytes && !bad)
            continue;
        if (wrong++ == 0) {
            first = n;
            if (gd.bytes)
                snprintf(first_msg, sizeof first_msg, "%zu guard bytes changed", gd.bytes);
            else
                snprintf(first_msg, sizeof first_msg, "%zu of %zu values wrong (%zu unwritten)",
                         rep.wrong, rep.checked, rep.unwritten);
        }
    }
    printf("%s\tlesson%d/%s\t%s\t%zu\t%d\t%d\t%d\t%.2f\t%s\n", o->tag, ex->lesson, ex->name,
           desc, size, n, wrong, first, now_s() - t0, first_msg);
    fflush(stdout);
    dev_set_free(D, &d);
    instance_free(&I);
}

static _Noreturn void leave(int code)
{
    fflush(NULL);
    _exit(code);
}

static void probe(const exercise *ex, const probe_opts *o, result *r)
{
    g_result = r;
    const device_ops *D = &device_cuda;
    int knobs[MAX_KNOBS];
    char desc[128], why[768];
    if (knob_values(ex, o, knobs, desc, sizeof desc) != 0)
        leave(1);
    device_facts dev;
    if (D->probe(&dev, why, sizeof why)) {
        printf("%s\tlesson%d/%s\t%s\t-\t0\t0\t-\t0\tno GPU: %s\n", o->tag, ex->lesson,
               ex->name, desc, why);
        leave(3);
    }
    compiled c;
    set_stage("compiling %s", o->file);
    compile_job job = {.path = o->file, .ex = ex, .kernel = ex->kernel, .knobs = knobs,
                       .cc = dev.cc};
    D->compile(&job, 1, &c);
    if (!c.ok) {
        printf("%s\tlesson%d/%s\t%s\t-\t0\t0\t-\t0\tdoes not compile: %s\n", o->tag,
               ex->lesson, ex->name, desc, c.error);
        fprintf(stderr, "%s\n", c.log ? c.log : "");
        leave(1);
    }
    kernel k;
    set_stage("loading %s", o->file);
    if (D->load(&c, ex->kernel, &k, why, sizeof why))
        child_fail(OUT_CRASH, why, "%s cannot be loaded", o->file);
    size_t sizes[MAX_PROBE_SIZES];
    int ns = parse_sizes(ex, o->sizes, sizes);
    for (int s = 0; s < ns; s++)
        probe_size(D, ex, &k, knobs, desc, &dev, sizes[s], o);
    D->unload(&k);
    compiled_free(&c);
}

static int parse_args(int argc, char **argv, probe_opts *o)
{
    memset(o, 0, sizeof *o);
    o->lesson = -1;
    o->sizes = "check";
    o->launches = 100;
    o->seconds = 5;
    o->seed = 12345;
    o->tag = "probe";
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--lesson")) o->lesson = atoi(v);
        else if (!strcmp(a, "--only")) o->only = v;
        else if (!strcmp(a, "--file")) o->file = v;
        else if (!strcmp(a, "--tag")) o->tag = v;
        else if (!strcmp(a, "--sizes")) o->sizes = v;
        else if (!strcmp(a, "--launches")) o->launches = atoi(v);
        else if (!strcmp(a, "--seconds")) o->seconds = atof(v);
        else if (!strcmp(a, "--seed")) o->seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--set")) {
            const char *eq = strchr(v, '=');
            if (!eq || o->nsets == MAX_KNOBS || eq - v >= 32)
                return -1;
            snprintf(o->sets[o->nsets], 32, "%.*s", (int)(eq - v), v);
            o->set_values[o->nsets++] = atoi(eq + 1);
        } else
            return -1;
    }
    return o->lesson >= 0 && o->file && o->launches > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    probe_opts o;
    if (parse_args(argc, argv, &o) != 0) {
        fprintf(stderr, "usage: race_probe --lesson N [--only NAME] --file PATH [--set K=V]... "
                        "[--sizes check,time,N] [--launches N] [--seconds S] [--seed N] "
                        "[--tag T]\n");
        return 2;
    }
    const exercise *ex = find_exercise(o.lesson, o.only);
    if (!ex) {
        fprintf(stderr, "race_probe: no exercise lesson%d/%s\n", o.lesson, o.only ? o.only : "");
        return 2;
    }
    /* A child does the GPU work, as in the grader: a CUDA error or a hang
     * exits it, and the parent still says what happened. */
    result *r = mmap(NULL, sizeof *r, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED)
        return 2;
    memset(r, 0, sizeof *r);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        probe(ex, &o, r);
        leave(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (r->outcome != OUT_NOT_RUN)
        printf("%s\tlesson%d/%s\t-\t-\t0\t0\t-\t0\t%s: %s\n", o.tag, ex->lesson, ex->name,
               outcome_word(r->outcome), r->message);
    return 2;
}
