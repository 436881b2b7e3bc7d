/* knockout_run.c: is each mechanism on the data path? One knock-out run per
 * kind of mechanism the exercise's checks name (knockout.h), on the largest
 * correctness size, after the correctness runs.
 *
 * Two input sets, A (the run's seed) and B (another seed), lie in one
 * allocation with the same layout, B `half` bytes after A, so one constant
 * moves any address of A to the same element of B. The rewritten kernel
 * runs on A; only its mechanism reads B. Its output must then be B's
 * expected output on at least 90% of the elements: a copy that never runs, or
 * that carries a token element, leaves A's results (or a mix) behind. For an
 * L2 prefetch, which carries no data, the prefetched and the loaded lines of
 * A are marked in B's half with each thread's count of loads so far
 * (knockout.h): at least a fifth of the input's lines must be prefetched,
 * and at least half of the lines both prefetched and loaded must be
 * prefetched ahead, with the thread's count below the line's first load's.
 * The counts are the threads' own order, not a clock, so the verdict does
 * not depend on how warps happen to interleave: a prefetch issued right
 * before its own load (distance 0), behind it, or L2DIST elements ahead
 * (the line the warp loads in the same iteration) has the same count as
 * the load, or a higher one. Where no load of a prefetched line is seen
 * (loads the rewrite does not know), coverage alone decides. For the
 * __constant__ table, the kernel runs on B's inputs with B's table in
 * constant memory while the table's copy in global memory stays A's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grade_internal.h"
#include "knockout.h"
#include "verify.h"
#include "child_fail.h"

#define KNOCK_SEED_SALT 0x6b6e6f636bull   /* "knock": set B's seed */
/* A dead or token mechanism scores near 0 on both; a real one 100 (data)
 * or 1 - distance/iterations (prefetch: the first lines of each thread's
 * run are loaded before any prefetch reaches them; lesson 11b's largest
 * distance at the stress size still covers 27%). The data rule leaves room
 * for a few outputs with a tail loaded otherwise (lesson 4's last block).
 * Ahead: the solutions prefetch every line they prefetch ahead (100%); a
 * prefetch at distance 0, behind, or within the iteration none (0%); half
 * leaves room for a kernel that prefetches some lines twice. */
#define PREFETCH_MIN_PCT 20
#define AHEAD_MIN_PCT 50
#define DATA_MIN_PCT 90
/* The data written to shared memory must span at least this share of a
 * size check's bytes: a real ring spans all of them but the last thread's
 * padding; a one-slot ring of eight spans an eighth. */
#define SPAN_MIN_PCT 50

typedef struct arena {
    void *base;
    size_t half;
    dev_set d;          /* A's buffers; B's inputs at +half; the span counters
                           (knock_layout) at +2*half */
} arena;

#define SPAN_BYTES 256

static void *span_at(const arena *ar)
{
    return (char *)ar->base + 2 * ar->half;
}

static size_t round256(size_t x)
{
    return (x + 255) & ~(size_t)255;
}

static size_t bytes_of(const buffer *B)
{
    return B->count * elem_size(B->type);
}

/* Lay out I's buffers twice; upload A's inputs, and B's unless `b_inputs`
 * is 0 (the prefetch marks: knock_once fills B's half). */
static void arena_make(const device_ops *D, arena *ar, const instance *A, const instance *B,
                       int b_inputs)
{
    size_t off[MAX_BUFS];
    memset(ar, 0, sizeof *ar);
    for (int b = 0; b < A->nbufs; b++) {
        off[b] = ar->half + GUARD_BYTES;
        ar->half += round256(2 * GUARD_BYTES + bytes_of(&A->bufs[b]));
    }
    ar->base = D->alloc(2 * ar->half + SPAN_BYTES);
    D->fill(ar->base, 0, 2 * ar->half);
    unsigned span[2] = {0xFFFFFFFFu, 0};   /* min, max: nothing written yet */
    D->upload(span_at(ar), span, sizeof span);
    for (int b = 0; b < A->nbufs; b++) {
        dev_array *a = &ar->d.a[b];
        a->ptr = (char *)ar->base + off[b];
        a->base = (char *)a->ptr - GUARD_BYTES;
        a->bytes = bytes_of(&A->bufs[b]);
        if (A->bufs[b].is_output)
            continue;
        D->upload(a->ptr, A->bufs[b].host, a->bytes);
        if (b_inputs)
            D->upload((char *)a->ptr + ar->half, B->bufs[b].host, a->bytes);
    }
}

/* Same buffers, same scalars, same launch: one delta fits, one launch
 * serves both sets. */
static int same_shape(const instance *A, const instance *B)
{
    if (A->nbufs != B->nbufs || A->nargs != B->nargs || A->dyn_smem != B->dyn_smem ||
        memcmp(A->grid, B->grid, sizeof A->grid) || memcmp(A->block, B->block, sizeof A->block))
        return 0;
    for (int b = 0; b < A->nbufs; b++)
        if (A->bufs[b].count != B->bufs[b].count || A->bufs[b].type != B->bufs[b].type)
            return 0;
    for (int a = 0; a < A->nargs; a++)
        if (A->args[a].kind != B->args[a].kind || A->args[a].i != B->args[a].i ||
            A->args[a].f != B->args[a].f || A->args[a].d != B->args[a].d)
            return 0;
    return 1;
}

/* The inputs' 128-byte lines (aligned, as the rewrite marks them), read
 * in pieces of CHUNK bytes (an input may be hundreds of MiB). */
#define CHUNK ((size_t)8 << 20)
typedef struct line_census {
    size_t lines, prefetched, both, ahead;
} line_census;

static void census_line(line_census *c, const unsigned char *slot)
{
    unsigned loaded, fetched;
    memcpy(&loaded, slot + KNOCK_LOADED_AT, sizeof loaded);
    memcpy(&fetched, slot + KNOCK_PREFETCHED_AT, sizeof fetched);
    c->lines++;
    c->prefetched += fetched != 0xFFFFFFFFu;
    c->both += fetched != 0xFFFFFFFFu && loaded != 0xFFFFFFFFu;
    c->ahead += fetched != 0xFFFFFFFFu && loaded != 0xFFFFFFFFu && fetched < loaded;
}

static void census(const device_ops *D, const arena *ar, const instance *A, line_census *c)
{
    static unsigned char *got;
    if (!got && !(got = malloc(CHUNK + KNOCK_LINE)))
        child_fail(OUT_INTERNAL, NULL, "The grader ran out of memory for the knock-out run's census of prefetched lines.");
    memset(c, 0, sizeof *c);
    for (int b = 0; b < A->nbufs; b++) {
        if (A->bufs[b].is_output)
            continue;
        /* From the line that holds the first byte (it starts in the guard,
         * inside the arena), whole lines. */
        uintptr_t first = (uintptr_t)ar->d.a[b].ptr & ~(uintptr_t)(KNOCK_LINE - 1);
        size_t bytes = (uintptr_t)ar->d.a[b].ptr + ar->d.a[b].bytes - first;
        bytes = (bytes + KNOCK_LINE - 1) & ~(size_t)(KNOCK_LINE - 1);
        const char *at = (const char *)first + ar->half;
        for (size_t off = 0; off < bytes; off += CHUNK) {
            size_t n = bytes - off < CHUNK ? bytes - off : CHUNK;
            D->download(got, at + off, n);
            for (size_t l = 0; l < n; l += KNOCK_LINE)
                census_line(c, got + l);
        }
    }
}

/* The table's copies in global memory keep A's values; every other input
 * is B's. */
static void const_args(dev_set *d, const arena *ar, const instance *A)
{
    *d = ar->d;
    for (int b = 0; b < A->nbufs; b++) {
        int is_table = 0;
        for (int c = 0; c < A->nconsts; c++)
            is_table |= A->consts[c].bytes == bytes_of(&A->bufs[b]) &&
                        !memcmp(A->consts[c].data, A->bufs[b].host, A->consts[c].bytes);
        if (!A->bufs[b].is_output && !is_table)
            d->a[b].ptr = (char *)d->a[b].ptr + ar->half;
    }
}

/* Load the rewritten kernel in the student's place. 0, or -1 with `clause`
 * saying that nothing in the PTX is the mechanism; a copy that does not
 * load ends the child (INTERNAL). */
static int load_knocked(grade_ctx *g, const compiled *c, enum knock_kind k, const arena *ar,
                        const instance *A, kernel *kk, char *clause, size_t len)
{
    knock_layout L = {.delta = (long long)ar->half, .lo = (unsigned long long)(size_t)ar->base,
                      .hi = (unsigned long long)(size_t)ar->base + ar->half,
                      .span = (unsigned long long)(size_t)span_at(ar)};
    int found;
    char *ptx = knockout_ptx(c->ptx, k, &L, &found);
    if (!ptx) {
        snprintf(clause, len, "no instruction in its PTX moves data from device memory "
                 "through %s", knock_name(k));
        return -1;
    }
    /* The copy's extra loads take registers: cap them at what one block of
     * the launch may have, so it launches wherever the kernel itself does. */
    static char log[4096];
    unsigned threads = A->block[0] * A->block[1] * A->block[2];
    int budget = (g->dev.regs_per_sm > 0 ? g->dev.regs_per_sm : 65536) /
                 (int)(((threads + 31) / 32) * 32);
    budget = budget / 8 * 8 > 255 ? 255 : budget / 8 * 8;
    int o = g->D->load_ptx(c, ptx, budget, variant_kernel(g->ex, V_STUDENT), kk, log,
                           sizeof log);
    free(ptx);
    /* Not the student's fault, and not a pass: the mechanism cannot be
     * judged, so neither can the exercise. */
    if (o)
        child_fail(OUT_INTERNAL, log, "Your kernel is correct, but the grader could not load "
                   "the copy of it that checks whether the results come through %s (%.*s). This "
                   "is a bug in the grader, not in your kernel; please report it.", knock_name(k),
                   (int)strcspn(log, "\n"), log);
    return 0;
}

/* Launch the knock-out of kind k on the arena: the student's kernel on B's
 * inputs with A's table copies (KNOCK_CONST), else the rewritten kernel on
 * A. `d` gets the buffers the outputs are in. 0, or -1 with `clause`
 * saying why it could not run. */
static int run_knocked(grade_ctx *g, const compiled *c, enum knock_kind k, const arena *ar,
                       const instance *A, const instance *B, dev_set *d, char *clause,
                       size_t len)
{
    kernel kk, own = g->k[V_STUDENT];
    set_stage("running a copy of student whose %s read other inputs", knock_name(k));
    if (k == KNOCK_CONST) {
        const_args(d, ar, A);
        run_launch(g, V_STUDENT, B, d, 0);
        return 0;
    }
    if (load_knocked(g, c, k, ar, A, &kk, clause, len) < 0)
        return -1;
    g->k[V_STUDENT] = kk;
    *d = ar->d;
    run_launch(g, V_STUDENT, A, d, 0);
    g->k[V_STUDENT] = own;
    g->D->unload(&kk);
    return 0;
}

static enum check_state judge_prefetch(grade_ctx *g, const arena *ar, const instance *A,
                                       char *clause, size_t len)
{
    line_census c;
    census(g->D, ar, A, &c);
    int pct = c.lines ? (int)(100 * c.prefetched / c.lines) : 0;
    int ahead = c.both ? (int)(100 * c.ahead / c.both) : 0;
    if (pct < PREFETCH_MIN_PCT) {
        snprintf(clause, len, "its prefetches ran for only %d%% of the input's 128-byte lines "
                 "(at least %d%%): a prefetch that is never taken, or for a few elements, hides "
                 "nothing", pct, PREFETCH_MIN_PCT);
        return CS_FAILS;
    }
    if (!c.both) {
        snprintf(clause, len, "its prefetches cover %d%% of the input's 128-byte lines (no "
                 "load of those lines was seen, so whether they run ahead was not judged)", pct);
        return CS_HOLDS;
    }
    if (ahead < AHEAD_MIN_PCT) {
        snprintf(clause, len, "only %d%% of its prefetches run ahead of their line's first "
                 "load (at least %d%%): prefetch L2DIST * BLOCKDIMX elements ahead, past what is "
                 "loaded now", ahead, AHEAD_MIN_PCT);
        return CS_FAILS;
    }
    snprintf(clause, len, "its prefetches cover %d%% of the input's 128-byte lines, %d%% of "
             "them ahead of their load", pct, ahead);
    return CS_HOLDS;
}

static enum check_state judge_outputs(grade_ctx *g, enum knock_kind k, const dev_set *d,
                                      instance *B, char *clause, size_t len)
{
    mismatch_report rep;
    dev_set_download(g->D, d, B);
    size_t wrong = verify_outputs(B, g->ex->rtol, g->ex->atol, &rep);
    size_t right = rep.checked - wrong;
    enum check_state st = right * 100 >= DATA_MIN_PCT * rep.checked ? CS_HOLDS : CS_FAILS;
    snprintf(clause, len, st == CS_HOLDS ? "the results come through %s: fed other inputs "
             "only that way, the kernel returned their results (%zu of %zu)" : "the results "
             "do not come through %s: fed other inputs only that way, the kernel returned "
             "their results on %zu of %zu outputs", knock_name(k), right, rep.checked);
    return st;
}

/* One knock-out run of kind k, on the largest correctness size. Returns
 * the state; `clause` says what it showed, to follow the check's own
 * finding. */
static enum check_state knock_once(grade_ctx *g, const compiled *c, enum knock_kind k,
                                   char *clause, size_t len, long *span)
{
    *span = -1;
    size_t size = 0;
    for (int s = 0; s < MAX_SIZES && g->ex->check_sizes[s]; s++)
        size = g->ex->check_sizes[s];
    instance A, B;
    build_instance(g, &A, size, g->r->seed);
    build_instance(g, &B, size, g->r->seed ^ KNOCK_SEED_SALT);
    enum check_state st = CS_UNKNOWN;
    snprintf(clause, len, "whether it carries the data could not be judged: a second input "
             "set differs in shape");
    if (same_shape(&A, &B)) {
        arena ar;
        dev_set d;
        arena_make(g->D, &ar, &A, &B, k != KNOCK_PREFETCH);
        /* The prefetch marks are minima: none yet is all ones. */
        if (k == KNOCK_PREFETCH)
            g->D->fill((char *)ar.base + ar.half, 0xFF, ar.half);
        if (run_knocked(g, c, k, &ar, &A, &B, &d, clause, len) < 0)
            st = CS_FAILS;
        else if (k == KNOCK_PREFETCH)
            st = judge_prefetch(g, &ar, &A, clause, len);
        else
            st = judge_outputs(g, k, &d, &B, clause, len);
        unsigned got[2];
        g->D->download(got, span_at(&ar), sizeof got);
        /* Untouched counters: no write was counted (an address register of
         * unknown width), so the span is not known. */
        if (k == KNOCK_SHARED && got[0] != 0xFFFFFFFFu)
            *span = got[1] > got[0] ? (long)(got[1] - got[0]) : 0;
        g->D->release(ar.base);
    }
    instance_free(&A);
    instance_free(&B);
    return st;
}

/* A size check whose buffer carries the data must also have most of its
 * bytes written with it: a small ring that does the work beside an unused
 * array that makes up the asked size is not the asked buffer. */
static enum check_state judge_span(grade_ctx *g, const mech_check *m, long span, char *clause,
                                   size_t len)
{
    long want = m->expect ? m->expect(g->knobs) : m->value;
    if (m->kind != CHECK_SMEM_BYTES || span < 0 || span * 100 >= SPAN_MIN_PCT * want)
        return CS_HOLDS;
    snprintf(clause, len, "only %ld of those bytes receive loaded data (lowest to highest "
             "address written): the rest of the buffer carries nothing", span);
    return CS_FAILS;
}

void judge_data_path(grade_ctx *g, const compiled *c)
{
    enum check_state done[KNOCK_CONST + 1] = {0};
    char clause[KNOCK_CONST + 1][sizeof g->r->checks[0].what];
    long span[KNOCK_CONST + 1];
    for (int i = 0; i < MAX_CHECKS && g->ex->checks[i].kind != CHECK_NONE; i++) {
        enum knock_kind k = g->ex->checks[i].knock;
        check_result *cr = &g->r->checks[i];
        if (k == KNOCK_NONE || cr->state != CS_HOLDS)
            continue;
        if (done[k] == CS_NOT_EVALUATED)
            done[k] = knock_once(g, c, k, clause[k], sizeof clause[k], &span[k]);
        enum check_state st = done[k];
        char own[sizeof cr->what];
        snprintf(own, sizeof own, "%s", clause[k]);
        if (st == CS_HOLDS)
            st = judge_span(g, &g->ex->checks[i], span[k], own, sizeof own);
        /* The check's own finding (the text, the size), then the run's. */
        char found[sizeof cr->what];
        snprintf(found, sizeof found, "%.*s", (int)strcspn(cr->what, "("), cr->what);
        size_t n = strlen(found);
        while (n && found[n - 1] == ' ')
            found[--n] = 0;
        snprintf(cr->what, sizeof cr->what, "%.90s%s %.158s", found,
                 st == CS_HOLDS ? ";" : ", but", own);
        cr->state = st;
    }
}
