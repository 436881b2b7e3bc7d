/* sim_sample.c: the timed launch's blocks on the PTX simulator
 * (sim_sample.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "child.h"
#include "compile_jobs.h"
#include "grade_internal.h"
#include "kernel_output.h"
#include "nogpu.h"
#include "sim_correctness.h"
#include "sim_sample.h"
#include "watch_checks.h"

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int ascending(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

static int holds(const unsigned *v, unsigned n, unsigned b)
{
    for (unsigned i = 0; i < n; i++)
        if (v[i] == b)
            return 1;
    return 0;
}

unsigned sample_blocks(unsigned long long seed, unsigned total, unsigned want, unsigned *out)
{
    if (!total)
        return 0;
    want = want < 2 ? 2 : want > SAMPLE_MAX_BLOCKS ? SAMPLE_MAX_BLOCKS : want;
    if (want >= total) {   /* the whole grid fits */
        for (unsigned b = 0; b < total; b++)
            out[b] = b;
        return total;
    }
    unsigned n = 0;
    out[n++] = 0;
    out[n++] = total - 1;
    /* Drawn among 1 .. total-2, of which want-2 < total-2 are taken: the
     * loop ends. The seed's own stream, apart from the inputs'. */
    uint64_t s = seed ^ 0x73616d706c65ull;
    while (n < want) {
        unsigned b = 1 + (unsigned)(splitmix(&s) % (total - 2));
        if (!holds(out, n, b))
            out[n++] = b;
    }
    qsort(out, n, sizeof *out, ascending);
    return n;
}

void blocks_text(const unsigned *b, unsigned n, unsigned total, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "block%s", n > 1 ? "s" : "");
    enum { SHOWN = 12 };
    for (unsigned i = 0; i < n && i < SHOWN && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%u",
                               i == 0 ? " " : i + 1 == n ? " and " : ", ", b[i]);
    if (n > SHOWN && at < len)
        at += (size_t)snprintf(buf + at, len - at, " and %u more", n - SHOWN);
    if (at < len)
        snprintf(buf + at, len - at, " of %u", total);
}

struct sample_job {
    const grade_ctx *g;
    const compiled *c;
    timing_sets *T;
};

/* The student's PTX for sm_90: the GPU's own when it was compiled for
 * sm_90, else compiled here (in the sample's child: never in the grading
 * parent). NULL with own->error set when it does not compile. */
static const compiled *sm90_ptx(const struct sample_job *j, compiled *own)
{
    const grade_ctx *g = j->g;
    if (g->dev.cc == NO_GPU_CC && j->c->ok && j->c->ptx)
        return j->c;
    exercise_jobs J;
    exercise_jobs_make(&J, g->ex, g->knobs, g->o, NO_GPU_CC, JOB_STUDENT);
    g->o->simulator->compile(J.job, J.n, own);
    return own->ok ? own : NULL;
}

/* End the sample's child with no verdict: the simulator could not run it. */
static void cannot_run(result *sr, const char *fmt, const char *why)
{
    sr->outcome = OUT_CHECKED;
    snprintf(sr->message, sizeof sr->message, fmt, why);
}

/* Launch the sample `b` of n blocks on s's device (timing set 1, as timed),
 * the blocks named in sr->sampled first, so a stop names them. */
static void launch_sample(grade_ctx *s, const unsigned *b, unsigned n, unsigned total,
                          const instance *I, dev_set *d)
{
    blocks_text(b, n, total, s->r->sampled, sizeof s->r->sampled);
    s->D->sample(b, n);
    if (s->D->count_next && s->D->counts)   /* memory counts by line, for the report */
        s->D->count_next();
    if (s->D->watch_next && knockout_needed(s->ex))   /* the data, where a check needs it */
        s->D->watch_next();
    run_launch(s, V_STUDENT, I, d, 1);
    if (s->D->count_next && s->D->counts) {
        s->D->counts(&s->r->counts);
        s->r->counts.size = s->ex->time_size;   /* timing set 1: the timed size */
    }
}

/* The child's body: the sample, then what it saw, into sr. */
static void sample_body(void *arg, result *sr)
{
    const struct sample_job *j = arg;
    static grade_ctx s;
    s = *j->g;
    memset(s.k, 0, sizeof s.k);   /* the GPU's modules: not this child's */
    s.D = j->g->o->simulator;
    static grade_opts so;     /* the simulator's launch limit, not the GPU's */
    so = *j->g->o;
    if (so.launch_timeout_s < SAMPLE_LAUNCH_TIMEOUT_S)
        so.launch_timeout_s = SAMPLE_LAUNCH_TIMEOUT_S;
    s.o = &so;
    s.r = sr;
    g_result = sr;
    sr->seed = j->g->r->seed;
    static compiled own;
    set_stage("compiling your kernel for the PTX simulator");
    const compiled *c = sm90_ptx(j, &own);
    if (!c) {
        cannot_run(sr, "your file did not compile for sm_90 (%.400s)", own.error);
        return;
    }
    kout_know_asserts(c->ptx);
    static char log[4096];
    set_stage("loading your kernel into the PTX simulator");
    if (s.D->load(c, variant_kernel(s.ex, V_STUDENT), &s.k[V_STUDENT], log, sizeof log)) {
        cannot_run(sr, "it could not read the compiled kernel (%.400s)", log);
        return;
    }
    set_stage("copying the timing input sets to the PTX simulator");
    static dev_set d[N_VARIANTS * N_SETS];
    dev_sets_carve(s.D, d, j->T->I, N_SETS, N_VARIANTS);
    const instance *I = &j->T->I[0];
    dev_set *mine = &d[V_STUDENT * N_SETS + 0];
    unsigned long long total64 = (unsigned long long)I->grid[0] * I->grid[1] * I->grid[2];
    unsigned total = total64 > UINT32_MAX ? UINT32_MAX : (unsigned)total64;
    static unsigned b[SAMPLE_MAX_BLOCKS];
    /* The first and last blocks, which also measure what a block costs. */
    set_stage("running the timed launch's first and last blocks on the PTX simulator");
    unsigned n = sample_blocks(sr->seed, total, 2, b);
    unsigned long long w0 = s.D->work ? s.D->work() : 0;
    launch_sample(&s, b, n, total, I, mine);
    double used = s.D->work ? (double)(s.D->work() - w0) : 0;
    double per = used / n > 1 ? used / n : 1;
    double more = (SAMPLE_WORK - used) / per;
    if (more >= 3 && n < total) {   /* room for one more than the first and last */
        set_stage("running a sample of the timed launch's blocks on the PTX simulator");
        n = sample_blocks(sr->seed, total, more > SAMPLE_MAX_BLOCKS ? SAMPLE_MAX_BLOCKS
                                           : (unsigned)more, b);
        launch_sample(&s, b, n, total, I, mine);
    }
    s.D->sample(NULL, 0);
    if (s.D->race && s.D->race()[0]) {
        snprintf(sr->race, sizeof sr->race, "%s", s.D->race());
        child_fail(OUT_RACE, NULL, "Your kernel has a race: %s. On a GPU which of the two "
                   "comes first changes from launch to launch, so whatever depends on that "
                   "access is right in some launches and wrong in others. %s", sr->race,
                   RACE_FIX);
    }
    if (s.D->unwritten && s.D->unwritten()[0])
        child_fail(OUT_WRONG, NULL, UNWRITTEN_WORDS, s.D->unwritten());
    if (s.D->watch) {
        s.D->watch(&sr->watch);
        if (sr->watch.watched) {   /* the last launch: the whole sample */
            sr->watch.blocks_run = n;
            sr->watch.blocks_total = total;
        }
    }
    sr->outcome = OUT_PASS;
}

void sample_timed_launch(grade_ctx *g, const compiled *c, timing_sets *T)
{
    const device_ops *S = g->o->simulator;
    if (!S || S == g->D || !S->sample)
        return;
    struct sample_job j = {.g = g, .c = c, .T = T};
    static result sr;
    set_stage("running the timed launch's blocks on the PTX simulator");
    run_in_child(sample_body, &j, compile_time_limit() + SAMPLE_LAUNCH_TIMEOUT_S +
                 SAMPLE_TIMEOUT_S, &sr);
    snprintf(g->r->sampled, sizeof g->r->sampled, "%s", sr.sampled);
    switch (sr.outcome) {
    case OUT_PASS:
        g->r->watch = sr.watch;
        g->r->counts = sr.counts;
        /* the mechanism checks judged on what the timed launch's blocks
         * did with their data (watch_checks.h); unwatched, the knock-out
         * judges them (grade.c) */
        if (g->r->watch.watched)
            watch_judge_checks(g->ex, g->knobs, g->r);
        return;
    case OUT_WRONG:
    case OUT_RACE:
    case OUT_CRASH:
    case OUT_HANG:
        snprintf(g->r->race, sizeof g->r->race, "%s", sr.race);
        child_fail(sr.outcome, sr.detail[0] ? sr.detail : NULL, "%s Seen on the PTX "
                   "simulator, which ran the launch that was timed (timing input set 1 of "
                   "size %zu: its grid, block, knobs and input values) for %s.", sr.message,
                   g->ex->time_size, sr.sampled);
    default:   /* it could not run the kernel: no verdict, one line */
        snprintf(g->r->sim_note, sizeof g->r->sim_note, "The PTX simulator could not run "
                 "the timed launch's blocks, so their reads of memory the launch never "
                 "wrote and their races were not looked for (it said: %.700s)", sr.message);
    }
}
