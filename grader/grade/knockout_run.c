/* knockout_run.c: is each mechanism on the data path? One knock-out run per
 * kind of mechanism the exercise's checks name (knockout.h), made as a
 * timed launch of the student's kernel on timing set 1, before the timing.
 *
 * No kernel can tell the knock-out from a graded launch: it runs on the
 * timing problem's own allocation (grade_time.c), where timing set 2 lies
 * `half` bytes after set 1 with every array at the same place, so one
 * constant moves any address of set 1 (A) to the same element of set 2
 * (B). The kernel gets set 1's pointers, with the same guard bytes around
 * them, the same size, grid, block, shared memory and knobs, the same
 * alignment, inputs drawn the same way, and the L2 flushed, as every timed
 * launch on set 1: whatever it looks at (the words next to its pointers,
 * n, gridDim, the input values) is a timed launch's. Only the rewritten
 * mechanism reads B. Its output must then be B's expected output on at
 * least 90% of the elements: a copy that never runs, or that carries a
 * token element, leaves A's results (or a mix) behind. For an L2 prefetch,
 * which carries no data, the prefetched and the loaded lines of A are
 * marked in a separate allocation laid out like A (delta: from A to it)
 * with each thread's count of loads so far (knockout.h): at least a fifth
 * of the input's lines must be prefetched, and at least half of the lines
 * both prefetched and loaded must be prefetched ahead, with the thread's
 * count below the line's first load's. The counts are the threads' own
 * order, not a clock, so the verdict does not depend on how warps happen
 * to interleave: a prefetch issued right before its own load (distance 0),
 * behind it, or L2DIST elements ahead (the line the warp loads in the same
 * iteration) has the same count as the load, or a higher one. Where no
 * load of a prefetched line is seen (loads the rewrite does not know),
 * coverage alone decides. For the __constant__ table, the kernel itself
 * runs on set 2 with B's table in constant memory while the table's copy
 * in global memory holds A's values for that launch (the one difference a
 * kernel could see: it would have to compare the two copies). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grade_internal.h"
#include "knockout.h"
#include "verify.h"
#include "child_fail.h"

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

/* Where the knock-out's data lives. Set A is timing set 1 (version
 * V_STUDENT's view: its own outputs), set B timing set 2 at `delta`, or,
 * for the prefetch marks, a separate allocation laid out like set 1; the
 * span counters in an allocation of their own (ALLOC_GRAIN bytes: the
 * counters, then guard bytes, checked after the run). */
typedef struct arena {
    char *lo, *hi;      /* set 1's part of the timing allocation */
    long long delta;    /* from A to B (or to the marks) */
    char *marks;        /* KNOCK_PREFETCH: the marks' allocation; else NULL */
    char *span;         /* the span counters' allocation */
} arena;

static size_t bytes_of(const buffer *B)
{
    return B->count * elem_size(B->type);
}

static void arena_make(const device_ops *D, arena *ar, timing_sets *T, enum knock_kind k)
{
    ar->lo = T->d[0][0].alloc;
    ar->hi = ar->lo + T->half;
    ar->delta = (long long)T->half;
    ar->marks = NULL;
    if (k == KNOCK_PREFETCH) {
        size_t bytes = (T->half + ALLOC_GRAIN - 1) / ALLOC_GRAIN * ALLOC_GRAIN;
        ar->marks = D->alloc(bytes);
        /* The marks are minima: none yet is all ones. */
        D->fill(ar->marks, 0xFF, bytes);
        ar->delta = (long long)(ar->marks - ar->lo);
    }
    ar->span = D->alloc(ALLOC_GRAIN);
    D->fill(ar->span, GUARD_BYTE, ALLOC_GRAIN);
    unsigned span[2] = {0xFFFFFFFFu, 0};   /* min, max: nothing written yet */
    D->upload(ar->span, span, sizeof span);
}

static void arena_free(const device_ops *D, arena *ar)
{
    if (ar->marks)
        D->release(ar->marks);
    D->release(ar->span);
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

static void census(const device_ops *D, const arena *ar, const dev_set *d, const instance *A,
                   line_census *c)
{
    static unsigned char *got;
    if (!got && !(got = malloc(CHUNK + KNOCK_LINE)))
        child_fail(OUT_INTERNAL, NULL, "The grader ran out of memory for the knock-out run's census of prefetched lines.");
    memset(c, 0, sizeof *c);
    for (int b = 0; b < A->nbufs; b++) {
        if (A->bufs[b].is_output)
            continue;
        /* From the line that holds the first byte (arrays are 64 KiB
         * aligned: the line starts with it), whole lines. */
        uintptr_t first = (uintptr_t)d->a[b].ptr & ~(uintptr_t)(KNOCK_LINE - 1);
        size_t bytes = (uintptr_t)d->a[b].ptr + d->a[b].bytes - first;
        bytes = (bytes + KNOCK_LINE - 1) & ~(size_t)(KNOCK_LINE - 1);
        const char *at = (const char *)first + ar->delta;
        for (size_t off = 0; off < bytes; off += CHUNK) {
            size_t n = bytes - off < CHUNK ? bytes - off : CHUNK;
            D->download(got, at + off, n);
            for (size_t l = 0; l < n; l += KNOCK_LINE)
                census_line(c, got + l);
        }
    }
}

/* Is buffer b of I a copy of one of its __constant__ tables? */
static int is_table(const instance *I, int b)
{
    for (int c = 0; c < I->nconsts; c++)
        if (!I->bufs[b].is_output && I->consts[c].bytes == bytes_of(&I->bufs[b]) &&
            !memcmp(I->consts[c].data, I->bufs[b].host, I->consts[c].bytes))
            return 1;
    return 0;
}

/* The copies of the tables in set B's global memory: `from`'s values
 * (A's for the knock-out, B's own after it). */
static void table_copies(const device_ops *D, timing_sets *T, const instance *from)
{
    const dev_set *d = &T->d[V_STUDENT][1];
    for (int b = 0; b < T->I[1].nbufs; b++)
        if (is_table(&T->I[1], b))
            D->upload(d->a[b].ptr, from->bufs[b].host, d->a[b].bytes);
}

/* Load the rewritten kernel in the student's place. 0, or -1 with `clause`
 * saying that nothing in the PTX is the mechanism; a copy that does not
 * load ends the child (INTERNAL). */
static int load_knocked(grade_ctx *g, const compiled *c, enum knock_kind k, const arena *ar,
                        const instance *A, kernel *kk, char *clause, size_t len)
{
    knock_layout L = {.delta = ar->delta, .lo = (unsigned long long)(uintptr_t)ar->lo,
                      .hi = (unsigned long long)(uintptr_t)ar->hi,
                      .span = (unsigned long long)(uintptr_t)ar->span};
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

/* Launch the knock-out of kind k as a timed launch: the student's kernel
 * on set B with A's table copies (KNOCK_CONST), else the rewritten kernel
 * on set A. `d` gets the buffers the outputs are in. 0, or -1 with
 * `clause` saying why it could not run. */
static int run_knocked(grade_ctx *g, const compiled *c, enum knock_kind k, const arena *ar,
                       timing_sets *T, const dev_set **d, char *clause, size_t len)
{
    kernel kk, own = g->k[V_STUDENT];
    set_stage("running a copy of student whose %s read other inputs", knock_name(k));
    if (k == KNOCK_CONST) {
        table_copies(g->D, T, &T->I[0]);
        timing_launch(g, V_STUDENT, T, 1);
        table_copies(g->D, T, &T->I[1]);
        *d = &T->d[V_STUDENT][1];
        return 0;
    }
    if (load_knocked(g, c, k, ar, &T->I[0], &kk, clause, len) < 0)
        return -1;
    g->k[V_STUDENT] = kk;
    timing_launch(g, V_STUDENT, T, 0);
    g->k[V_STUDENT] = own;
    g->D->unload(&kk);
    *d = &T->d[V_STUDENT][0];
    return 0;
}

static enum check_state judge_prefetch(grade_ctx *g, const arena *ar, const dev_set *d,
                                       const instance *A, char *clause, size_t len)
{
    line_census c;
    census(g->D, ar, d, A, &c);
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

/* The span counters' allocation after the run: the counters (untouched:
 * no write was counted, an address register of unknown width, so the span
 * is not known) and, after them, guard bytes no kernel may have changed. */
static long span_read(grade_ctx *g, const arena *ar, enum knock_kind k)
{
    unsigned got[2];
    size_t first = 0, rest = ALLOC_GRAIN - sizeof got;
    g->D->download(got, ar->span, sizeof got);
    if (g->D->unlike(ar->span + sizeof got, GUARD_BYTE, rest, &first))
        child_fail(OUT_WRONG, NULL, "While %s: your kernel wrote into memory the grader gave "
                   "it no pointer to (%zu bytes into an allocation of the grader's own). A "
                   "kernel may write only to its output.", g->r->stage, first + sizeof got);
    if (k != KNOCK_SHARED || got[0] == 0xFFFFFFFFu)
        return -1;
    return got[1] > got[0] ? (long)(got[1] - got[0]) : 0;
}

/* One knock-out run of kind k, on the timing sets. Returns the state;
 * `clause` says what it showed, to follow the check's own finding. */
static enum check_state knock_once(grade_ctx *g, const compiled *c, enum knock_kind k,
                                   timing_sets *T, char *clause, size_t len, long *span)
{
    *span = -1;
    snprintf(clause, len, "whether it carries the data could not be judged: a second input "
             "set differs in shape");
    if (!same_shape(&T->I[0], &T->I[1]))
        return CS_UNKNOWN;
    arena ar;
    const dev_set *d;
    enum check_state st;
    arena_make(g->D, &ar, T, k);
    if (run_knocked(g, c, k, &ar, T, &d, clause, len) < 0)
        st = CS_FAILS;
    else if (k == KNOCK_PREFETCH)
        st = judge_prefetch(g, &ar, d, &T->I[0], clause, len);
    else
        st = judge_outputs(g, k, d, &T->I[1], clause, len);
    *span = span_read(g, &ar, k);
    arena_free(g->D, &ar);
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

int knockout_needed(const exercise *ex)
{
    for (int i = 0; i < MAX_CHECKS && ex->checks[i].kind != CHECK_NONE; i++)
        if (ex->checks[i].knock != KNOCK_NONE)
            return 1;
    return 0;
}

void judge_data_path(grade_ctx *g, const compiled *c, timing_sets *T)
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
            done[k] = knock_once(g, c, k, T, clause[k], sizeof clause[k], &span[k]);
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
