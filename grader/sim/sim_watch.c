/* sim_watch.c: the data watch (issue 28), on when a launch asks for it
 * (sim_launch.watch); it fills sim_report.watch (core/watch_facts.h).
 *
 * Sites: every instruction that brings bytes into the SM or reads shared
 * memory (ld of global, const, generic or shared space, cp.async, bulk
 * copies) is a site, numbered in program order, its bit (number mod 64) in
 * a 64-bit mask. Every register lane carries a mask: after each instruction
 * its destinations get the OR of its sources' masks (one generic step from
 * the decoded operands, no per-opcode code but for memory and cross-lane
 * instructions); a load adds its own site. Shared and local memory carry a
 * mask per byte (a shadow): a store writes the register's mask, a copy its
 * site's bit, a load ORs its bytes' masks. A site whose bit reaches a
 * global store or atomic (value or address) is live.
 *
 * Bytes are counted once, where they enter the kernel's work: a direct
 * load's at the load (WP_LOAD, WP_LOAD_V16 at 16 bytes per thread or more,
 * WP_CONST for ld.const), a copy's when an ld.shared first reads them
 * (against that ld.shared's site). A thread's store to shared memory of a
 * value with a direct load's bit marks its bytes "staged" until first read
 * (counted then, at the reading site, as staged bytes: not input bytes
 * again). Each thread counts its uses (ld.shared instructions that first
 * read input bytes: the elements its loop consumes); a shared byte keeps its
 * writer and the writer's count when written; a first read records how many
 * uses the writer made since (the wait: a ring of PDIST slots refilled after
 * each use is read PDIST - 1 uses later, however the loop is unrolled and
 * however many slots one copy fills). Prefetched 128-byte lines are kept per block with the
 * prefetching thread's count; a later global load of the line is served,
 * its lead the loader's count minus that.
 *
 * Only a watched launch pays for any of this: sim_exec.c calls
 * sim_watch_step only when c->watch is set. */
#include <stdlib.h>
#include <string.h>
#include "sim_engine.h"
#include "sim_value.h"

#define WS 64                /* site bits */
#define WB 256               /* wait and lead buckets (the last: that many or more) */
#define PF_BITS 16           /* the block's prefetched-line table: 2^16 entries */

enum fresh { FR_NONE, FR_STORE, FR_ASYNC, FR_BULK };

struct pf_line { uint64_t line; uint32_t at, gen; };
struct word_seen { uint64_t word; uint32_t gen; };

struct sim_watch {
    int8_t *site;            /* per instruction: its site, -1 none */
    uint64_t direct;         /* sites of direct global loads */
    uint64_t **M;            /* per warp: a mask per register lane (R's layout) */
    uint8_t **nz;            /* per warp and register: 0 when no lane's mask can be
                                nonzero (address arithmetic then costs nothing) */
    uint64_t **lm;           /* per warp: a mask per local byte of its 32 frames */
    uint64_t *sm;            /* per shared byte: the mask it holds */
    uint64_t *seen;          /* per shared byte: masks read from it, every block */
    uint32_t *stamp;         /* per shared byte: its writer's use count then */
    uint16_t *writer;        /* per shared byte: the writing thread */
    uint8_t *fresh;          /* per shared byte: enum fresh, until first read */
    uint64_t *src;           /* per shared byte: the global address a copy brought it from */
    struct word_seen *seen_words;   /* global words the block counted, tagged with gen */
    uint32_t nseen, capseen;
    uint32_t *F;             /* per thread: fetches issued in this block */
    uint32_t *U;             /* per thread: its uses, ld.shared instructions that first
                                read input bytes: its own loop's elements */
    struct pf_line *pf;      /* prefetched lines, tagged with the block's gen */
    uint32_t gen, npf;
    uint64_t live;
    double bytes[WS][WP_N], staged[WS], uniform[WS];
    double wait[WS][WB];
    double lines[WS], served[WS], lead[WS][WB];
    double prefetches;
    unsigned blocks;
};

#define MK(w, r, l) wt->M[(w) - c->w][(size_t)(r) * 32 + (size_t)(l)]
#define NZ(w, r) wt->nz[(w) - c->w][r]
#define VAL(r, l) w->R[(size_t)(r) * 32 + (size_t)(l)]

static int is_prefetch(const sim_cta *c, const sim_insn *in)
{
    return in->op == SO_NOP && in->a >= 0 && !strncmp(c->m->names + in->text, "prefetch", 8);
}

static int has_site(const sim_cta *c, const sim_insn *in)
{
    if (in->op == SO_LD)
        return in->space != SS_LOCAL && in->space != SS_PARAM;
    return in->op == SO_CP_ASYNC || in->op == SO_BULK_CP || is_prefetch(c, in);
}

int sim_watch_new(sim_cta *c)
{
    struct sim_watch *wt = calloc(1, sizeof *wt);
    size_t sb = c->smem_bytes + 16, lb = 32 * c->k->local_bytes + 8;
    if (!wt)
        return -1;
    c->watch = wt;
    wt->site = malloc((size_t)c->k->ninsn + 1);
    wt->M = calloc((size_t)c->nwarps, sizeof *wt->M);
    wt->nz = calloc((size_t)c->nwarps, sizeof *wt->nz);
    wt->lm = calloc((size_t)c->nwarps, sizeof *wt->lm);
    wt->sm = calloc(sb, sizeof *wt->sm);
    wt->seen = calloc(sb, sizeof *wt->seen);
    wt->stamp = calloc(sb, sizeof *wt->stamp);
    wt->writer = calloc(sb, sizeof *wt->writer);
    wt->fresh = calloc(sb, 1);
    wt->src = calloc(sb, sizeof *wt->src);
    wt->F = calloc(c->nthreads, sizeof *wt->F);
    wt->U = calloc(c->nthreads, sizeof *wt->U);
    if (!wt->site || !wt->M || !wt->nz || !wt->lm || !wt->sm || !wt->seen || !wt->stamp ||
        !wt->writer || !wt->fresh || !wt->src || !wt->F || !wt->U)
        return -1;
    for (int i = 0; i < c->nwarps; i++) {
        wt->M[i] = calloc((size_t)c->k->nregs * 32 + 32, sizeof(uint64_t));
        wt->lm[i] = calloc(lb, sizeof(uint64_t));
        wt->nz[i] = calloc((size_t)c->k->nregs + 1, 1);
        if (!wt->M[i] || !wt->lm[i] || !wt->nz[i])
            return -1;
    }
    int n = 0;
    for (int i = 0; i < c->k->ninsn; i++) {
        const sim_insn *in = &c->k->insn[i];
        wt->site[i] = has_site(c, in) ? (int8_t)(n++ % WS) : -1;
        if (in->op == SO_LD && (in->space == SS_GLOBAL || in->space == SS_GENERIC))
            wt->direct |= 1ull << wt->site[i];
        if (is_prefetch(c, in) && !wt->pf) {
            wt->pf = calloc((size_t)1 << PF_BITS, sizeof *wt->pf);
            if (!wt->pf)
                return -1;
        }
    }
    return 0;
}

void sim_watch_block(sim_cta *c)
{
    struct sim_watch *wt = c->watch;
    for (int i = 0; i < c->nwarps; i++) {
        memset(wt->M[i], 0, ((size_t)c->k->nregs * 32 + 32) * sizeof(uint64_t));
        memset(wt->nz[i], 0, (size_t)c->k->nregs + 1);
        memset(wt->lm[i], 0, (32 * c->k->local_bytes + 8) * sizeof(uint64_t));
    }
    memset(wt->sm, 0, c->smem_bytes * sizeof *wt->sm);
    memset(wt->fresh, 0, c->smem_bytes);
    memset(wt->F, 0, c->nthreads * sizeof *wt->F);
    memset(wt->U, 0, c->nthreads * sizeof *wt->U);
    wt->gen++;
    wt->npf = 0;
    wt->nseen = 0;
    wt->blocks++;
}

/* The space an address of `in` lands in, the address made an offset in it
 * for shared and local. */
static int resolve(const sim_insn *in, uint64_t *addr)
{
    if (in->space != SS_GENERIC)
        return in->space;
    if (*addr - SIM_SHARED_WIN < SIM_WIN_SIZE) {
        *addr -= SIM_SHARED_WIN;
        return SS_SHARED;
    }
    if (*addr - SIM_LOCAL_WIN < SIM_WIN_SIZE) {
        *addr -= SIM_LOCAL_WIN;
        return SS_LOCAL;
    }
    return SS_GLOBAL;
}

static uint32_t hash64(uint64_t x) { return (uint32_t)(x * 0x9e3779b97f4a7c15ull >> 32); }

/* Is the 4-byte global word `word` new to this block at site s? Marks it.
 * Input bytes count once per block and site: a tile element sixteen threads
 * read directly by one instruction is sixteen loads but one element the
 * block computes with; the same word brought by two instructions counts for
 * each (one may be dead). (Out of host memory: everything counts as new.) */
static int first_touch(struct sim_watch *wt, uint64_t word, int s)
{
    word = word << 6 | (uint64_t)s;
    if (wt->nseen * 2 >= wt->capseen) {
        uint32_t cap = wt->capseen ? wt->capseen * 2 : 1u << 14;
        struct word_seen *t = calloc(cap, sizeof *t);
        if (!t)
            return 1;
        for (uint32_t i = 0; i < wt->capseen; i++) {
            if (wt->seen_words[i].gen != wt->gen)
                continue;
            uint32_t h = hash64(wt->seen_words[i].word) & (cap - 1);
            while (t[h].gen == wt->gen)
                h = (h + 1) & (cap - 1);
            t[h] = wt->seen_words[i];
        }
        free(wt->seen_words);
        wt->seen_words = t;
        wt->capseen = cap;
    }
    for (uint32_t h = hash64(word) & (wt->capseen - 1);; h = (h + 1) & (wt->capseen - 1)) {
        struct word_seen *e = &wt->seen_words[h];
        if (e->gen != wt->gen) {
            *e = (struct word_seen){.word = word, .gen = wt->gen};
            wt->nseen++;
            return 1;
        }
        if (e->word == word)
            return 0;
    }
}

/* Of n bytes at global address a read at site s, those whose words are new
 * to the block at s. */
static double distinct(struct sim_watch *wt, uint64_t a, uint32_t n, int s)
{
    double fresh = 0;
    for (uint64_t w = a >> 2; w <= (a + n - 1) >> 2; w++)
        fresh += first_touch(wt, w, s) ? 4 : 0;
    return fresh < n ? fresh : n;
}

static uint32_t bucket(int64_t v) { return v < 0 ? 0 : v >= WB ? WB - 1 : (uint32_t)v; }

static struct pf_line *pf_find(struct sim_watch *wt, uint64_t line, int insert)
{
    if (!wt->pf)
        return NULL;
    const uint32_t mask = (1u << PF_BITS) - 1;
    for (uint32_t h = (uint32_t)(line * 0x9e3779b97f4a7c15ull >> 40) & mask;; h = (h + 1) & mask) {
        struct pf_line *p = &wt->pf[h];
        if (p->gen != wt->gen) {
            if (!insert || wt->npf >= mask / 2)
                return NULL;
            wt->npf++;
            *p = (struct pf_line){.line = line, .gen = wt->gen};
            return p;
        }
        if (p->line == line)
            return p;
    }
}

/* A global load by thread t of [a, a + n) at site s: its lines served by
 * a prefetch of the block, and how far ahead. */
static void served(struct sim_watch *wt, int s, unsigned t, uint64_t a, uint32_t n)
{
    if (!wt->pf)
        return;
    for (uint64_t line = a >> 7; line <= (a + n - 1) >> 7; line++) {
        struct pf_line *p = pf_find(wt, line, 0);
        wt->lines[s]++;
        if (p) {
            wt->served[s]++;
            wt->lead[s][bucket((int64_t)wt->F[t] - p->at)]++;
        }
    }
}

/* Shared bytes [o, o + n) read at site s into a mask; first reads of fresh
 * bytes are counted here, with how many uses their writer made since it
 * wrote them (*used: some were). */
static uint64_t shared_read(sim_cta *c, int s, uint64_t o, uint32_t n, int *used)
{
    struct sim_watch *wt = c->watch;
    uint64_t mk = 0;
    if (o + n > c->smem_bytes)
        return 0;
    for (uint64_t b = o; b < o + n; b++) {
        mk |= wt->sm[b];
        wt->seen[b] |= wt->sm[b];
        if (!wt->fresh[b])
            continue;
        if (wt->fresh[b] == FR_STORE)
            wt->staged[s]++;
        else if (!(wt->src[b] & 3) && first_touch(wt, wt->src[b] >> 2, s))
            wt->bytes[s][wt->fresh[b] == FR_ASYNC ? WP_ASYNC : WP_BULK] += 4;
        wt->wait[s][bucket((int64_t)wt->U[wt->writer[b]] - wt->stamp[b])]++;
        wt->fresh[b] = FR_NONE;
        *used = 1;
    }
    return mk;
}

static void shared_write(sim_cta *c, unsigned t, uint64_t o, uint32_t n, uint64_t mk, int fresh)
{
    struct sim_watch *wt = c->watch;
    if (o + n > c->smem_bytes)
        return;
    for (uint64_t b = o; b < o + n; b++) {
        wt->sm[b] = mk;
        wt->fresh[b] = (uint8_t)fresh;
        wt->stamp[b] = wt->U[t];
        wt->writer[b] = (uint16_t)t;
    }
}

static void watch_load(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    struct sim_watch *wt = c->watch;
    const uint32_t size = (uint32_t)tsize(in->type), n = size * in->vec;
    const int s = wt->site[w->pc];
    const uint64_t bit = s >= 0 ? 1ull << s : 0;
    int uniform = 1;
    uint64_t first = VAL(in->a, __builtin_ctz(m)) + (uint64_t)in->off;
    LANES(m)
        uniform &= VAL(in->a, l) + (uint64_t)in->off == first;
    END
    for (int v = 0; v < in->vec; v++)
        NZ(w, in->d[v]) = 1;     /* may be: a load from global brings its site's bit */
    LANES(m)
        uint64_t a = VAL(in->a, l) + (uint64_t)in->off;
        unsigned t = w->first_tid + (unsigned)l;
        uint64_t mk = MK(w, in->a, l);
        switch (resolve(in, &a)) {
        case SS_SHARED: {
            int used = 0;
            for (int v = 0; v < in->vec; v++)
                MK(w, in->d[v], l) = mk | bit | shared_read(c, s, a + v * size, size, &used);
            wt->U[t] += (uint32_t)used;
            continue;
        }
        case SS_LOCAL: {
            const uint64_t *lm = wt->lm[w - c->w] + (size_t)l * c->k->local_bytes;
            for (int v = 0; v < in->vec; v++) {
                uint64_t x = mk;
                for (uint64_t b = a + v * size; b < a + (v + 1) * size && b < c->k->local_bytes; b++)
                    x |= lm[b];
                MK(w, in->d[v], l) = x;
            }
            continue;
        }
        case SS_PARAM:
            break;
        case SS_CONST:
            wt->bytes[s][WP_CONST] += distinct(wt, a, n, s);
            mk |= bit;
            break;
        default: {
            double nb = distinct(wt, a, n, s);
            wt->bytes[s][n >= 16 ? WP_LOAD_V16 : WP_LOAD] += nb;
            if (uniform)
                wt->uniform[s] += nb;
            served(wt, s, t, a, n);
            wt->F[t]++;
            mk |= bit;
            break;
        }
        }
        for (int v = 0; v < in->vec; v++)
            MK(w, in->d[v], l) = mk;
    END
}

static void watch_store(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    struct sim_watch *wt = c->watch;
    const uint32_t size = (uint32_t)tsize(in->type);
    LANES(m)
        uint64_t a = VAL(in->a, l) + (uint64_t)in->off;
        unsigned t = w->first_tid + (unsigned)l;
        int sp = resolve(in, &a);
        for (int v = 0; v < in->vec; v++) {
            uint64_t mk = MK(w, in->d[v], l) | MK(w, in->a, l);
            uint64_t o = a + v * size;
            if (sp == SS_SHARED) {
                shared_write(c, t, o, size, mk, mk & wt->direct ? FR_STORE : FR_NONE);
            } else if (sp == SS_LOCAL) {
                uint64_t *lm = wt->lm[w - c->w] + (size_t)l * c->k->local_bytes;
                for (uint64_t b = o; b < o + size && b < c->k->local_bytes; b++)
                    lm[b] = mk;
            } else {
                wt->live |= mk;
            }
        }
    END
}

static void watch_atom(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    struct sim_watch *wt = c->watch;
    const uint32_t size = (uint32_t)tsize(in->type);
    LANES(m)
        uint64_t a = VAL(in->a, l) + (uint64_t)in->off;
        uint64_t mk = MK(w, in->a, l) | MK(w, in->b, l) | (in->c >= 0 ? MK(w, in->c, l) : 0);
        uint64_t old = 0;
        if (resolve(in, &a) == SS_SHARED) {
            if (a + size <= c->smem_bytes)
                for (uint64_t b = a; b < a + size; b++) {
                    old |= wt->sm[b];
                    wt->sm[b] |= mk;
                }
        } else {
            wt->live |= mk;
        }
        if (in->d[0] >= 0)
            MK(w, in->d[0], l) = old | MK(w, in->a, l);
    END
    if (in->d[0] >= 0)
        NZ(w, in->d[0]) = 1;
}

/* cp.async and bulk copies: the bytes they will land carry the copy's bit. */
static void watch_copy(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    struct sim_watch *wt = c->watch;
    const int s = wt->site[w->pc];
    LANES(m)
        unsigned t = w->first_tid + (unsigned)l;
        uint64_t dst = VAL(in->d[0], l) + (uint64_t)in->off;
        uint32_t size = (uint32_t)VAL(in->b, l), src_size = size;
        if (in->op == SO_CP_ASYNC && (in->flags & SF_HAS_C))
            src_size = (uint32_t)VAL(in->c, l) < size ? (uint32_t)VAL(in->c, l) : size;
        if (src_size)
            served(wt, s, t, VAL(in->a, l) + (uint64_t)(int64_t)in->target, src_size);
        wt->F[t]++;
        uint64_t src = VAL(in->a, l) + (uint64_t)(int64_t)in->target;
        shared_write(c, t, dst, src_size, 1ull << s, in->op == SO_BULK_CP ? FR_BULK : FR_ASYNC);
        for (uint32_t i = 0; i < src_size && dst + i < c->smem_bytes; i++)
            wt->src[dst + i] = src + i;
        if (size > src_size)
            shared_write(c, t, dst + src_size, size - src_size, 0, FR_NONE);
    END
}

static void watch_prefetch(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    struct sim_watch *wt = c->watch;
    LANES(m)
        uint64_t a = VAL(in->a, l) + (uint64_t)in->off;
        if (resolve(in, &a) != SS_GLOBAL)
            continue;
        struct pf_line *p = pf_find(wt, a >> 7, 1);
        wt->prefetches++;
        if (p)
            p->at = wt->F[w->first_tid + (unsigned)l];
    END
}

/* shfl, vote, redux: a value from other lanes; every member's mask. */
static void watch_across(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    struct sim_watch *wt = c->watch;
    uint64_t all = 0;
    LANES(m)
        all |= MK(w, in->a, l);
    END
    LANES(m)
        for (int i = 0; i < 4; i++)
            if (in->d[i] >= 0)
                MK(w, in->d[i], l) = all;
    END
    for (int i = 0; i < 4; i++)
        if (in->d[i] >= 0)
            NZ(w, in->d[i]) |= all != 0;
}

/* Every other instruction: its destinations get its sources' masks (over
 * whole rows of 32 lanes, which the compiler vectorises). */
static void watch_generic(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    struct sim_watch *wt = c->watch;
    uint64_t *M = wt->M[w - c->w], mk[32] = {0};
    const int32_t src[4] = {in->a, in->b, in->c, in->e};
    int any = 0, dest_nz = 0;
    for (int i = 0; i < 4; i++) {
        any |= src[i] >= 0 && NZ(w, src[i]);
        dest_nz |= in->d[i] >= 0 && NZ(w, in->d[i]);
    }
    if (!any && !dest_nz)
        return;              /* zeros into zeros: most address arithmetic */
    uint64_t or = 0;
    for (int i = 0; i < 4 && any; i++)
        if (src[i] >= 0 && NZ(w, src[i])) {
            const uint64_t *r = M + (size_t)src[i] * 32;
            for (int l = 0; l < 32; l++)
                mk[l] |= r[l];
        }
    for (int l = 0; l < 32; l++)
        or |= mk[l];
    for (int i = 0; i < 4; i++) {
        if (in->d[i] < 0)
            continue;
        uint64_t *r = M + (size_t)in->d[i] * 32;
        if (m == 0xffffffffu) {
            memcpy(r, mk, sizeof mk);
            NZ(w, in->d[i]) = or != 0;
        } else {
            LANES(m) r[l] = mk[l]; END
            NZ(w, in->d[i]) |= or != 0;
        }
    }
}

void sim_watch_step(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    if (!m)
        return;
    switch ((enum sim_op)in->op) {
    case SO_LD: watch_load(c, w, m, in); return;
    case SO_ST: watch_store(c, w, m, in); return;
    case SO_ATOM: watch_atom(c, w, m, in); return;
    case SO_CP_ASYNC: case SO_BULK_CP: watch_copy(c, w, m, in); return;
    case SO_SHFL: case SO_VOTE: case SO_REDUX: watch_across(c, w, m, in); return;
    case SO_NOP:
        if (c->watch->site[w->pc] >= 0)
            watch_prefetch(c, w, m, in);
        return;
    case SO_BRA: case SO_EXIT: case SO_BAR: case SO_BAR_ARRIVE: case SO_BAR_WARP:
    case SO_PRINTF: case SO_TRAP: case SO_FENCE: case SO_CP_COMMIT: case SO_CP_WAIT:
    case SO_CP_WAIT_ALL: case SO_CP_MB_ARRIVE: case SO_UNSUPPORTED: case SO_COUNT:
        return;
    default:
        watch_generic(c, w, m, in);
        return;
    }
}

/* The median of a histogram summed over the live sites; -1 when empty. */
static double median(const double (*h)[WB], uint64_t live)
{
    double sum[WB] = {0}, total = 0;
    for (int s = 0; s < WS; s++)
        if (live >> s & 1)
            for (int b = 0; b < WB; b++) {
                sum[b] += h[s][b];
                total += h[s][b];
            }
    if (total <= 0)
        return -1;
    double run = 0;
    for (int b = 0; b < WB; b++) {
        run += sum[b];
        if (run * 2 >= total)
            return b;
    }
    return WB - 1;
}

static void facts(const sim_cta *c, const struct sim_watch *wt, watch_facts *f)
{
    double live_total = 0, staged = 0, lines = 0, served_lines = 0;
    memset(f, 0, sizeof *f);
    f->watched = 1;
    f->blocks_run = wt->blocks;
    f->blocks_total = c->L->grid[0] * c->L->grid[1] * c->L->grid[2];
    for (int s = 0; s < WS; s++) {
        int live = (int)(wt->live >> s & 1);
        for (int p = 0; p < WP_N; p++)
            (live ? f->live_bytes : f->dead_bytes)[p] += wt->bytes[s][p];
        if (!live)
            continue;
        staged += wt->staged[s];
        f->live_uniform_bytes += wt->uniform[s];
        lines += wt->lines[s];
        served_lines += wt->served[s];
    }
    for (int p = 0; p < WP_N; p++)
        live_total += f->live_bytes[p];
    staged += f->live_bytes[WP_ASYNC] + f->live_bytes[WP_BULK];
    f->staged_pct = live_total > 0 && staged > 0
                  ? (staged >= live_total ? 100 : 100 * staged / live_total) : -1;
    f->wait_fetches = median(wt->wait, wt->live);
    f->smem_live_pct = -1;
    if (c->smem_bytes) {
        size_t used = 0;
        for (size_t b = 0; b < c->smem_bytes; b++)
            used += (wt->seen[b] & wt->live) != 0;
        f->smem_live_pct = 100.0 * (double)used / (double)c->smem_bytes;
    }
    f->prefetch_served_pct = f->prefetch_lead = -1;
    if (wt->prefetches > 0) {
        f->prefetch_served_pct = lines > 0 ? 100 * served_lines / lines : 0;
        f->prefetch_lead = median(wt->lead, wt->live);
    }
}

void sim_watch_end(sim_cta *c)
{
    struct sim_watch *wt = c->watch;
    if (!wt)
        return;
    if (wt->site && wt->M && wt->F && wt->blocks)
        facts(c, wt, &c->rep->watch);
    for (int i = 0; i < c->nwarps && wt->M; i++) {
        free(wt->M[i]);
        free(wt->lm ? wt->lm[i] : NULL);
        free(wt->nz ? wt->nz[i] : NULL);
    }
    free(wt->M);
    free(wt->nz);
    free(wt->lm);
    free(wt->site);
    free(wt->sm);
    free(wt->seen);
    free(wt->stamp);
    free(wt->writer);
    free(wt->fresh);
    free(wt->src);
    free(wt->seen_words);
    free(wt->F);
    free(wt->U);
    free(wt->pf);
    free(wt);
    c->watch = NULL;
}
