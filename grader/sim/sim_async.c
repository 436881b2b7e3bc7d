/* sim_async.c: asynchronous copies and mbarriers, landing as late as the
 * PTX memory model allows.
 *
 *   cp.async          queued per thread with the number of its open group;
 *                     cp.async.commit_group closes the group;
 *                     cp.async.wait_group N lands the thread's copies of
 *                     every group but the N newest, wait_all all of them.
 *                     Until then the destination holds its old bytes.
 *   mbarrier          expected arrivals, pending arrivals, transaction
 *                     bytes (tx) and the number of completed phases. A
 *                     phase completes when no arrival is pending and tx is
 *                     0; the bulk copies that signal it land just before,
 *                     only when their bytes are needed to bring tx to 0.
 *   try_wait          a thread whose phase is not complete blocks until it
 *                     is (a legal schedule: try_wait may suspend).
 *
 * The copies' pool grows by doubling (rarely, never per instruction). */
#include <stdlib.h>
#include <string.h>
#include "sim_engine.h"

#define X(r) w->R[(size_t)(r) * 32 + (size_t)l]

static int new_copy(sim_cta *c)
{
    if (c->free_copy >= 0) {
        int i = c->free_copy;
        c->free_copy = c->copies[i].next;
        return i;
    }
    if (c->ncopies == c->capcopies) {
        int cap = c->capcopies ? c->capcopies * 2 : 1024;
        sim_copy *p = realloc(c->copies, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        c->copies = p;
        c->capcopies = cap;
    }
    return c->ncopies++;
}

static void land(sim_cta *c, int i)
{
    sim_copy *k = &c->copies[i];
    sim_pending_clear(c, k->dst, k->fill);
    memcpy(c->smem + k->dst, k->src, k->bytes);
    if (k->fill > k->bytes)
        memset(c->smem + k->dst + k->bytes, 0, k->fill - k->bytes);
    k->next = c->free_copy;
    c->free_copy = i;
}

void sim_cp_async(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    if (c->counts)
        sim_count_access(c, w, m, in);
    LANES(m)
        uint32_t size = (uint32_t)X(in->b);
        uint32_t src_size = (in->flags & SF_HAS_C) ? (uint32_t)X(in->c) : size;
        uint64_t dst = X(in->d[0]) + (uint64_t)in->off;
        uint64_t src = X(in->a) + (uint64_t)(int64_t)in->target;
        if (src_size > size)
            src_size = size;
        uint8_t *d = sim_addr(c, w, l, SS_SHARED, dst, size, in, 1);
        const uint8_t *s = src_size ? sim_addr(c, w, l, SS_GLOBAL, src, src_size, in, 0) : NULL;
        if (!d || (src_size && !s))
            return;
        int i = new_copy(c);
        if (i < 0) {
            sim_stop(c, w, l, in, SIM_UNSUPPORTED, "out of host memory for copies in flight");
            return;
        }
        unsigned t = w->first_tid + (unsigned)l;
        c->copies[i] = (sim_copy){.dst = (uint32_t)dst, .bytes = src_size, .fill = size,
                                  .src = s, .group = c->group[t], .line = in->line, .next = -1};
        sim_pending_mark(c, (uint32_t)dst, size, in->line);
        if (c->q_tail[t] >= 0)
            c->copies[c->q_tail[t]].next = i;
        else
            c->q_head[t] = i;
        c->q_tail[t] = i;
    END
}

void sim_cp_commit(sim_cta *c, sim_warp *w, uint32_t m)
{
    LANES(m)
        c->group[w->first_tid + (unsigned)l]++;
    END
}

void sim_cp_wait(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in, int all)
{
    LANES(m)
        unsigned t = w->first_tid + (unsigned)l;
        if (all)
            c->group[t]++;   /* wait_all: commit, then wait for every group */
        uint32_t keep = all ? 0 : (uint32_t)X(in->a);
        /* land the groups older than the `keep` newest committed ones */
        while (c->q_head[t] >= 0) {
            int i = c->q_head[t];
            if (c->copies[i].group + keep >= c->group[t])
                break;
            c->q_head[t] = c->copies[i].next;
            if (c->q_head[t] < 0)
                c->q_tail[t] = -1;
            land(c, i);
        }
    END
}

static sim_mbar *find_mbar(sim_cta *c, sim_warp *w, int l, const sim_insn *in, uint64_t addr,
                           int create)
{
    if (!sim_addr(c, w, l, SS_SHARED, addr, 8, in, 1))
        return NULL;
    for (int i = 0; i < c->nmb; i++)
        if (c->mb[i].addr == addr)
            return &c->mb[i];
    if (!create) {
        sim_stop(c, w, l, in, SIM_UNSUPPORTED, "%s on shared offset %llu, where no mbarrier "
                 "was initialised (mbarrier.init)", c->m->names + in->text,
                 (unsigned long long)addr);
        return NULL;
    }
    if (c->nmb == SIM_MAX_MBAR) {
        sim_stop(c, w, l, in, SIM_UNSUPPORTED, "more than %d mbarriers in one block",
                 SIM_MAX_MBAR);
        return NULL;
    }
    sim_mbar *mb = &c->mb[c->nmb++];
    memset(mb, 0, sizeof *mb);
    mb->addr = (uint32_t)addr;
    mb->bulk = mb->async_copies = -1;
    return mb;
}

static int phase_done(const sim_mbar *mb, const sim_insn *in, uint64_t arg)
{
    if (in->flags & SF_PARITY)
        return (mb->phase & 1) != (arg & 1);
    return mb->phase != arg;
}

/* Threads blocked on mb's phase: it completed, so their try_wait is true. */
static void wake(sim_cta *c, int idx)
{
    for (int i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->w[i];
        uint32_t freed = 0;
        for (uint32_t b = w->live & ~w->ready; b; b &= b - 1) {
            int l = __builtin_ctz(b);
            if (w->wait[l] != LW_MBAR || w->wait_on[l] != idx)
                continue;
            const sim_insn *in = &c->k->insn[w->lane_pc[l] - 1];
            X(in->d[0]) = 1;
            w->wait[l] = LW_READY;
            freed |= 1u << l;
        }
        if (freed) {
            w->ready |= freed;
            sim_regroup(w);
        }
    }
}

/* Complete mb's phase if nothing is pending, landing its bulk copies only
 * as far as their bytes are needed. */
static void try_complete(sim_cta *c, sim_mbar *mb)
{
    /* the copies whose completion arrives land when only their arrivals
     * are missing: as late as the phase allows */
    if (mb->async_arrivals && mb->pending == mb->async_arrivals) {
        while (mb->async_copies >= 0) {
            int i = mb->async_copies;
            mb->async_copies = c->copies[i].next;
            land(c, i);
        }
        mb->pending -= mb->async_arrivals;
        mb->async_arrivals = 0;
    }
    if (mb->pending)
        return;
    while (mb->tx > 0 && mb->bulk >= 0) {
        int i = mb->bulk;
        mb->bulk = c->copies[i].next;
        mb->tx -= c->copies[i].bytes;
        land(c, i);
    }
    if (mb->tx > 0)
        return;
    mb->tx = 0;
    mb->phase++;
    c->epoch++;              /* the phase orders its threads (sim_race.c) */
    c->bar_epoch++;
    mb->pending = mb->expected;
    wake(c, (int)(mb - c->mb));
}

void sim_mbar_op(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint32_t blocked = 0;
    LANES(m)
        uint64_t addr = X(in->a) + (uint64_t)in->off;
        sim_mbar *mb = find_mbar(c, w, l, in, addr, in->op == SO_MB_INIT);
        if (!mb)
            return;
        switch (in->op) {
        case SO_MB_INIT:
            mb->expected = mb->pending = (uint32_t)X(in->b);
            mb->tx = 0;
            mb->phase = 0;
            mb->bulk = mb->async_copies = -1;
            mb->async_arrivals = 0;
            mb->init_line = in->line;
            break;
        case SO_MB_ARRIVE: {
            uint64_t token = mb->phase;
            uint32_t n = 1;
            if (in->flags & SF_EXPECT_TX)
                mb->tx += (int64_t)X(in->b);
            else if (in->b >= 0)
                n = (uint32_t)X(in->b);
            if (n > mb->pending) {
                sim_stop(c, w, l, in, SIM_UNSUPPORTED, "an mbarrier arrival beyond the "
                         "count it was initialised with (line %u): undefined on a GPU",
                         mb->init_line);
                return;
            }
            mb->pending -= n;
            if (in->d[0] >= 0)
                X(in->d[0]) = token;
            try_complete(c, mb);
            break;
        }
        case SO_MB_EXPECT_TX:
            mb->tx += (int64_t)X(in->b);
            break;
        case SO_MB_COMPLETE_TX:
            mb->tx -= (int64_t)X(in->b);
            try_complete(c, mb);
            break;
        case SO_MB_TEST_WAIT:
            X(in->d[0]) = (uint64_t)phase_done(mb, in, X(in->b));
            break;
        case SO_MB_TRY_WAIT:
            if (phase_done(mb, in, X(in->b))) {
                X(in->d[0]) = 1;
            } else {
                blocked |= 1u << l;
                w->wait_on[l] = (int)(mb - c->mb);
            }
            break;
        case SO_MB_INVAL:
            *mb = c->mb[--c->nmb];
            break;
        }
    END
    if (in->op != SO_MB_TRY_WAIT)
        return;
    LANES(blocked)
        int on = w->wait_on[l];
        sim_block_lanes(w, 1u << l, LW_MBAR, on, 0);
    END
    w->pc++;
    if (!w->active)
        sim_regroup(w);
}

void sim_cp_mbar_arrive(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    LANES(m)
        sim_mbar *mb = find_mbar(c, w, l, in, X(in->a) + (uint64_t)in->off, 0);
        if (!mb)
            return;
        /* every cp.async the thread issued before now arrives when it lands;
         * without .noinc the arrival was added to the phase's count first */
        unsigned t = w->first_tid + (unsigned)l;
        if (!(in->flags & SF_NOINC))
            mb->pending++;
        mb->async_arrivals++;
        if (c->q_head[t] >= 0) {
            c->copies[c->q_tail[t]].next = mb->async_copies;
            mb->async_copies = c->q_head[t];
            c->q_head[t] = c->q_tail[t] = -1;
        }
        try_complete(c, mb);
    END
}

void sim_bulk_copy(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    LANES(m)
        uint64_t dst = X(in->d[0]) + (uint64_t)in->off;
        uint64_t src = X(in->a) + (uint64_t)(int64_t)in->target;
        uint32_t size = (uint32_t)X(in->b);
        uint64_t bar = X(in->c) + (uint64_t)(int64_t)in->e;
        uint8_t *d = sim_addr(c, w, l, SS_SHARED, dst, size, in, 1);
        const uint8_t *s = d ? sim_addr(c, w, l, SS_GLOBAL, src, size, in, 0) : NULL;
        sim_mbar *mb = s ? find_mbar(c, w, l, in, bar, 0) : NULL;
        if (!mb)
            return;
        int i = new_copy(c);
        if (i < 0) {
            sim_stop(c, w, l, in, SIM_UNSUPPORTED, "out of host memory for copies in flight");
            return;
        }
        c->copies[i] = (sim_copy){.dst = (uint32_t)dst, .bytes = size, .fill = size, .src = s,
                                  .line = in->line, .next = -1};
        sim_pending_mark(c, (uint32_t)dst, size, in->line);
        /* append: copies land in the order they were issued */
        int *at = &mb->bulk;
        while (*at >= 0)
            at = &c->copies[*at].next;
        *at = i;
        try_complete(c, mb);
    END
}

void sim_async_drain(sim_cta *c)
{
    /* Shared memory dies with the block: what is still in flight only
     * returns its slots. */
    c->ncopies = 0;
    c->free_copy = -1;
    c->inflight = 0;
    memset(c->pend, 0, (c->smem_bytes + 3) / 4 * sizeof *c->pend);
    for (unsigned t = 0; t < c->nthreads; t++)
        c->q_head[t] = c->q_tail[t] = -1;
    c->nmb = 0;
}
