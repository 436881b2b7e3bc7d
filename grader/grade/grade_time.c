/* grade_time.c: timing the three versions and judging the student's speed.
 *
 * Timed launches rotate between N_SETS input sets of the timing size, with
 * different contents and at different device addresses, so a kernel that
 * replays an answer it kept from an earlier launch is wrong on the other
 * set. Every timed launch starts from a poisoned output (outside the timed
 * events), so one that skips work when the output already holds an answer
 * is timed doing the work. After every launch every guard byte of the
 * sets' one allocation is checked (buffers.h: nothing may be kept beside
 * the arrays); afterwards the inputs of every set and the last output of
 * every version on every set are checked. The baseline, the
 * student's kernel and the reference get the same treatment, so their
 * comparison stays fair. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "clock.h"
#include "grade_internal.h"
#include "launch_occupancy.h"
#include "stats.h"

#define EXTRA_MEASURES 2
/* The seeds of the timing sets: apart from the correctness sizes'. */
#define TIMING_SEED 1000

/* What the medians of some rounds say. */
typedef struct measured {
    double ms[N_VARIANTS];
    double measure;            /* speedup, GB/s or time ratio, by the bar kind */
    double bar;
    double ref;                /* the reference solution's `measure` */
} measured;

void timing_sets_build(grade_ctx *g, timing_sets *T)
{
    memset(T, 0, sizeof *T);
    for (int s = 0; s < N_SETS; s++)
        build_instance(g, &T->I[s], g->ex->time_size, g->r->seed + TIMING_SEED + (unsigned)s);
    /* The occ column reports the launch that is timed. */
    for (int v = 0; v < N_VARIANTS; v++)
        launch_occupancy_set(&g->r->res[v], &T->I[0], &g->dev);
    set_stage("copying the timing input sets to the GPU");
    T->half = dev_sets_carve(g->D, &T->d[0][0], T->I, N_SETS, N_VARIANTS);
}

void timing_sets_free(grade_ctx *g, timing_sets *T)
{
    /* Set 0 of version 0 holds the allocation: the others are views. */
    for (int s = 0; s < N_SETS; s++)
        for (int v = 0; v < N_VARIANTS; v++)
            dev_set_free(g->D, &T->d[v][s]);
    for (int s = 0; s < N_SETS; s++)
        instance_free(&T->I[s]);
}

/* Every guard byte of the timing allocation after a launch of v on set s:
 * that set's regions first, then every other region once. Checked after
 * every launch, not only at the end: a kernel that keeps an answer beside
 * the arrays and wipes it when it replays it would leave nothing behind
 * for a final check. About 2 * GUARD_BYTES per array and the rest of the
 * allocation's last page are read back (a few MiB, through pinned memory
 * on a GPU), outside the timed events. */
static double launch_checked(grade_ctx *g, enum variant v, timing_sets *T, int s, int timed)
{
    char when[128];
    double ms = run_launch(g, v, &T->I[s], &T->d[v][s], timed);
    int at = s, owner = (int)v;
    guard_damage dmg = dev_set_guards(g->D, &T->d[v][s], &T->I[s]);
    for (int i = 0; i < N_VARIANTS * N_SETS && !dmg.bytes; i++) {
        at = i % N_SETS;
        owner = i / N_SETS;
        if (owner != (int)v || at != s)     /* that one was read just above */
            dmg = dev_set_owned_guards(g->D, &T->d[owner][at], &T->I[at]);
    }
    if (dmg.bytes) {
        snprintf(when, sizeof when, "timing input set %d of %d, checked after a launch on "
                 "set %d", at + 1, N_SETS, s + 1);
        guards_broken(v, &T->I[at], dmg, when, owner);
    }
    return ms;
}

double timing_launch(grade_ctx *g, enum variant v, timing_sets *T, int s)
{
    return launch_checked(g, v, T, s, 1);
}

/* Warm every version up on every set, and size the rounds from what one
 * round really costs (poison, L2 flush and launch of all three): enough to
 * fill the budget within sane limits; a very slow kernel gets fewer (at
 * least 5), so grading it stays well inside the per-exercise time limit
 * instead of looking like a hang. */
static int warm_up(grade_ctx *g, timing_sets *T)
{
    double round_s = 0;
    for (int v = 0; v < N_VARIANTS; v++) {
        set_stage("warming up %s", variant_name(v));
        for (int s = 0; s < N_SETS; s++)
            launch_checked(g, v, T, s, 0);
        double t0 = now_s();
        double ms = timing_launch(g, v, T, 0);
        double wall = now_s() - t0;
        round_s += wall > ms * 1e-3 ? wall : ms * 1e-3;
    }
    int rounds = (int)(g->o->time_budget_s / round_s);
    int least = 20 * round_s > 20 ? 5 : 20;
    return rounds < least ? least : rounds > 120 ? 120 : rounds;
}

static void time_rounds(grade_ctx *g, timing_sets *T, int rounds)
{
    samples *S = &T->S;
    for (int i = 0; i < rounds && S->n < MAX_ROUNDS; i++, S->n++) {
        int s = S->n % N_SETS;
        for (int j = 0; j < N_VARIANTS; j++) {
            /* Rotate the order so no version always runs right after another. */
            enum variant v = (enum variant)((j + S->n) % N_VARIANTS);
            set_stage("timing %s (input set %d)", variant_name(v), s + 1);
            S->t[v][S->n] = timing_launch(g, v, T, s);
        }
    }
}

/* The exercise's measure and bar from the medians of rounds [lo, hi). */
static measured measure_range(const exercise *ex, const samples *S, int lo, int hi,
                              double bytes, double copy_gbps)
{
    measured m;
    for (int v = 0; v < N_VARIANTS; v++)
        m.ms[v] = median(S->t[v] + lo, (size_t)(hi - lo));
    switch (ex->bar) {
    case BAR_BANDWIDTH:
        m.measure = bytes / (m.ms[V_STUDENT] * 1e-3) / 1e9;
        m.ref = bytes / (m.ms[V_SOLUTION] * 1e-3) / 1e9;
        m.bar = ex->bar_share * copy_gbps;
        break;
    case BAR_MATCH_SOLUTION:
        m.measure = m.ms[V_STUDENT] / m.ms[V_SOLUTION];
        m.ref = 1.0;
        m.bar = 1.0 + ex->bar_share;
        break;
    case BAR_SPEEDUP:
    case BAR_NONE:
    default:
        m.measure = m.ms[V_BASELINE] / m.ms[V_STUDENT];
        m.ref = m.ms[V_BASELINE] / m.ms[V_SOLUTION];
        m.bar = speedup_bar(ex->bar_share, ex->bar_floor, m.ref);
        break;
    }
    return m;
}

static int higher_is_better(const exercise *ex)
{
    return ex->bar != BAR_MATCH_SOLUTION;
}

/* Judge all rounds; while the result is within the noise of the bar, time
 * more rounds (at most EXTRA_MEASURES times), then fall back on the plain
 * comparison. Returns 1 when the measure clears the bar, with the final
 * medians in `m`. */
static int judge_rounds(grade_ctx *g, timing_sets *T, int rounds, measured *m)
{
    const exercise *ex = g->ex;
    samples *S = &T->S;
    double bytes = T->I[0].bytes_moved;
    int v;
    for (;;) {
        *m = measure_range(ex, S, 0, S->n, bytes, g->r->copy_gbps);
        measured a = measure_range(ex, S, 0, S->n / 2, bytes, g->r->copy_gbps);
        measured b = measure_range(ex, S, S->n / 2, S->n, bytes, g->r->copy_gbps);
        g->r->noise = 2 * half_spread(a.measure, b.measure);
        v = judge(m->measure, m->bar, g->r->noise, higher_is_better(ex));
        if (v != 0 || g->r->remeasured >= EXTRA_MEASURES || S->n >= MAX_ROUNDS)
            break;
        g->r->remeasured++;
        time_rounds(g, T, rounds);
    }
    if (v == 0)   /* still on the line after measuring again: the plain rule */
        return higher_is_better(ex) ? m->measure >= m->bar : m->measure <= m->bar;
    return v > 0;
}

static void record(result *r, const measured *m, double bytes, int reps)
{
    for (int x = 0; x < N_VARIANTS; x++) {
        r->time[x].ms = m->ms[x];
        r->time[x].gbps = bytes / (m->ms[x] * 1e-3) / 1e9;
        r->time[x].reps = reps;
    }
    r->speedup = m->ms[V_BASELINE] / m->ms[V_STUDENT];
    r->ref_speedup = m->ms[V_BASELINE] / m->ms[V_SOLUTION];
    r->measure = m->measure;
    r->bar = m->bar;
    r->timed = 1;
}

/* Right only once is not right: after all the timed launches every set's
 * inputs must be intact, and every version's last output on every set
 * right. The inputs are shared, and the course's versions left them intact
 * in the correctness runs, so a change is the student's. */
static void verify_sets(grade_ctx *g, timing_sets *T)
{
    static const enum variant order[N_VARIANTS] = {V_STUDENT, V_SOLUTION, V_BASELINE};
    static const char again[] =
        " It was right on the earlier checks: a kernel must give the same answer on every "
        "launch and for every input, so it may not keep or replay anything between "
        "launches (a counter, an answer from an earlier launch, the output's old contents).";
    char when[N_SETS][96];
    for (int s = 0; s < N_SETS; s++) {
        snprintf(when[s], sizeof when[s], "timing input set %d of %d, after %d timed launches",
                 s + 1, N_SETS, T->S.n);
        set_stage("checking the inputs of timing input set %d", s + 1);
        check_inputs(g, V_STUDENT, &T->I[s], &T->d[V_STUDENT][s], when[s]);
    }
    /* The student's guards first: they include the shared inputs'. */
    for (int j = 0; j < N_VARIANTS; j++)
        for (int s = 0; s < N_SETS; s++) {
            enum variant v = order[j];
            set_stage("checking %s after timing (input set %d)", variant_name(v), s + 1);
            check_guards(g, v, &T->I[s], &T->d[v][s], when[s]);
            check_outputs(g, v, &T->I[s], &T->d[v][s], when[s], v == V_STUDENT ? again : NULL);
        }
}

/* Does the reference solution itself clear the bar on this GPU? If not, the
 * technique does not pay here and the speed part cannot be graded. */
static int reference_clears(const exercise *ex, const measured *m)
{
    switch (ex->bar) {
    case BAR_SPEEDUP:
    case BAR_BANDWIDTH: return m->ref >= m->bar;
    case BAR_MATCH_SOLUTION:
    case BAR_NONE: return 1;
    }
    return 1;
}

void time_and_judge(grade_ctx *g, timing_sets *T)
{
    int rounds = warm_up(g, T);
    time_rounds(g, T, rounds);
    measured m;
    int clears = judge_rounds(g, T, rounds, &m);
    double bytes = T->I[0].bytes_moved;
    record(g->r, &m, bytes, T->S.n);
    verify_sets(g, T);
    check_physical_floor(g, bytes, m.ms[V_STUDENT]);
    /* Facts for the verdict (verdict.h); with no bar, any speed passes. */
    g->r->ref_clears_bar = reference_clears(g->ex, &m);
    g->r->clears_bar = g->ex->bar == BAR_NONE || clears;
}
