/* sim_race.c: races in shared memory, found on every run and named by the
 * lines of both accesses (sim_report.race; the first one only).
 *
 * Four kinds:
 *   - an access to bytes an asynchronous copy in flight will write (a
 *     cp.async before the wait that covers its group, a bulk copy before
 *     its mbarrier phase completes): every word a copy will write holds
 *     the copy's line until it lands;
 *   - a read and a write of a word by threads of different warps in the
 *     same barrier interval: every word remembers its last writer and its
 *     readers with the interval (`epoch`) they were in. The epoch advances
 *     whenever a barrier or an mbarrier phase completes, whichever threads
 *     it orders, so a race is never reported where some synchronisation
 *     stood between the two; a read and a write of one warp are not
 *     reported (its lanes run in lockstep here, and __syncwarp orders them
 *     on a GPU). Whatever may synchronise threads without a barrier also
 *     ends the interval, for everyone: a fence, an atomic, an access with
 *     .volatile, .relaxed, .acquire or .release (a flag spun on), which is
 *     itself never reported. Races are missed that way, never invented;
 *   - two plain stores of the same bytes in one interval by threads of
 *     different warps, or by lanes of one warp that ran apart (in different
 *     groups, with no reconvergence or warp collective between), when they
 *     write different values: which value stays depends on timing. Every
 *     writer storing the same value ("everyone sets the flag to 1") leaves
 *     the same bytes in any order, and is not reported; nor are lanes of
 *     one store instruction (one group: the CUDA guide leaves which lane's
 *     value stays undefined, and no course kernel relies on it);
 *   - an atomic and a plain store to one word by threads of different
 *     warps in one barrier interval (here only bar.sync and mbarrier
 *     phases end it: an atomic does not order a plain store of another
 *     thread). Two atomics are never a race. */
#include <stdio.h>
#include "sim_engine.h"
#include "sim_value.h"

void sim_pending_mark(sim_cta *c, uint32_t dst, uint32_t bytes, uint32_t line)
{
    for (uint32_t w = dst / 4; w < (dst + bytes + 3) / 4; w++)
        c->pend[w] = line + 1;
    c->inflight++;
}

void sim_pending_clear(sim_cta *c, uint32_t dst, uint32_t bytes)
{
    for (uint32_t w = dst / 4; w < (dst + bytes + 3) / 4; w++)
        c->pend[w] = 0;
    c->inflight--;
}

void sim_race_regroup(sim_warp *w, uint32_t act)
{
    if (!act)
        return;
    uint32_t first = w->gid[__builtin_ctz(act)], joined = 0;
    w->stamp++;
    LANES(act)
        joined |= w->gid[l] != first;
        w->gid[l] = w->stamp;
    END
    w->joins += joined;
}

static void thread_xyz(const sim_cta *c, unsigned t, char *out, size_t len)
{
    unsigned bx = c->L->block[0], by = c->L->block[1];
    snprintf(out, len, "(%u,%u,%u)", t % bx, t / bx % by, t / bx / by);
}

static void say(sim_cta *c, unsigned t, const sim_insn *in, int write, uint32_t other_line,
                const char *what)
{
    char me[40];
    thread_xyz(c, t, me, sizeof me);
    c->rep->race_line = in->line;
    c->rep->race_copy_line = other_line;
    snprintf(c->rep->race, sizeof c->rep->race, "thread %s of block (%u,%u,%u) %s shared "
             "memory at line %u (%s) %s", me, c->ctaid[0], c->ctaid[1], c->ctaid[2],
             write ? "wrote" : "read", in->line, c->m->names + in->text, what);
}

/* Thread `other`, which ran with the lanes `group` of its warp when that
 * warp had `joins`, and lane l of w now: unordered? (other warps: yes) */
static int apart(const sim_warp *w, int l, uint32_t other, uint32_t group, uint32_t joins)
{
    if (other / 32 != w->first_tid / 32)
        return 1;
    return !(group >> l & 1) && joins == w->joins;
}

/* The store `in` of lane l at shared [addr, addr + bytes): of word wd's
 * bytes it writes (a mask), do any differ from what the word holds? */
static int store_differs(const sim_cta *c, const sim_warp *w, int l, uint32_t addr,
                         uint32_t bytes, const sim_insn *in, uint32_t wd, uint8_t *mine)
{
    uint8_t buf[64] = {0};
    const int size = tsize(in->type);
    for (int v = 0; v < in->vec && (v + 1) * size <= (int)sizeof buf; v++) {
        uint64_t x = w->R[(size_t)in->d[v] * 32 + (size_t)l];
        memcpy(buf + v * size, &x, (size_t)size);
    }
    int differs = 0;
    *mine = 0;
    for (uint32_t b = wd * 4; b < wd * 4 + 4; b++)
        if (b >= addr && b < addr + bytes) {
            *mine |= (uint8_t)(1u << (b - wd * 4));
            differs |= buf[b - addr] != c->smem[b];
        }
    return differs;
}

static int write_races(sim_cta *c, sim_warp *w, int l, uint32_t addr, uint32_t bytes,
                       const sim_insn *in, uint32_t wd)
{
    sim_word *s = &c->words[wd];
    unsigned t = w->first_tid + (unsigned)l, warp = t / 32;
    char what[300], other[40];
    if (s->read_epoch == c->epoch && (s->readers_apart || s->reader / 32 != warp)) {
        thread_xyz(c, s->reader, other, sizeof other);
        snprintf(what, sizeof what, "that thread %s%s read at line %u, with no "
                 "__syncthreads() (or other barrier) between the two: which comes "
                 "first depends on timing", other, s->readers_apart ? " and others" : "",
                 s->read_line);
        say(c, t, in, 1, s->read_line, what);
        return 1;
    }
    uint8_t mine;
    int differs = store_differs(c, w, l, addr, bytes, in, wd, &mine);
    if (s->write_epoch == c->epoch && (s->write_bytes & mine) && differs &&
        apart(w, l, s->writer, s->write_group, s->write_joins)) {
        thread_xyz(c, s->writer, other, sizeof other);
        snprintf(what, sizeof what, "that thread %s wrote at line %u, a different value, "
                 "with no __syncthreads() (or other barrier) between the two: which value "
                 "stays depends on timing", other, s->write_line);
        say(c, t, in, 1, s->write_line, what);
        return 1;
    }
    if (s->atom_bar == c->bar_epoch + 1 && s->atom_thread / 32 != warp) {
        thread_xyz(c, s->atom_thread, other, sizeof other);
        snprintf(what, sizeof what, "that thread %s updated atomically at line %u, with no "
                 "__syncthreads() (or other barrier) between the two: an atomic does not "
                 "order a plain store, so which comes first depends on timing", other,
                 s->atom_line);
        say(c, t, in, 1, s->atom_line, what);
        return 1;
    }
    s->writer = t;
    s->write_epoch = c->epoch;
    s->write_line = in->line;
    s->write_group = w->active;
    s->write_joins = w->joins;
    s->write_bar = c->bar_epoch + 1;
    s->write_bytes = mine;
    return 0;
}

static int atom_races(sim_cta *c, sim_warp *w, int l, const sim_insn *in, uint32_t wd)
{
    sim_word *s = &c->words[wd];
    unsigned t = w->first_tid + (unsigned)l;
    char what[300], other[40];
    if (s->write_bar == c->bar_epoch + 1 && s->writer / 32 != t / 32) {
        thread_xyz(c, s->writer, other, sizeof other);
        snprintf(what, sizeof what, "atomically, and thread %s wrote it with a plain store at "
                 "line %u, with no __syncthreads() (or other barrier) between the two: an "
                 "atomic does not order a plain store, so which comes first depends on "
                 "timing", other, s->write_line);
        say(c, t, in, 1, s->write_line, what);
        return 1;
    }
    s->atom_thread = t;
    s->atom_line = in->line;
    s->atom_bar = c->bar_epoch + 1;
    return 0;
}

static int read_races(sim_cta *c, sim_warp *w, int l, const sim_insn *in, uint32_t wd)
{
    sim_word *s = &c->words[wd];
    unsigned t = w->first_tid + (unsigned)l, warp = t / 32;
    char what[300], other[40];
    if (s->write_epoch == c->epoch && s->writer / 32 != warp) {
        thread_xyz(c, s->writer, other, sizeof other);
        snprintf(what, sizeof what, "that thread %s wrote at line %u, with no "
                 "__syncthreads() (or other barrier) between the two: which comes "
                 "first depends on timing", other, s->write_line);
        say(c, t, in, 0, s->write_line, what);
        return 1;
    }
    if (s->read_epoch != c->epoch) {
        s->read_epoch = c->epoch;
        s->reader = t;
        s->read_line = in->line;
        s->readers_apart = 0;
    } else if (s->reader / 32 != warp) {
        s->readers_apart = 1;
    }
    return 0;
}

void sim_race_shared(sim_cta *c, sim_warp *w, int l, uint32_t addr, uint32_t bytes,
                     const sim_insn *in, int write)
{
    unsigned t = w->first_tid + (unsigned)l;
    char what[300];
    for (uint32_t wd = addr / 4; wd < (addr + bytes + 3) / 4; wd++) {
        if (c->inflight && c->pend[wd]) {
            snprintf(what, sizeof what, "that an asynchronous copy issued at line %u had not "
                     "yet written: nothing between them (a cp.async.wait_group or "
                     "__pipeline_wait_prior that covers it, or the wait on its mbarrier phase) "
                     "made the thread wait for that copy", c->pend[wd] - 1);
            say(c, t, in, write, c->pend[wd] - 1, what);
            return;
        }
        int raced = in->op == SO_ATOM ? atom_races(c, w, l, in, wd)
                  : write ? write_races(c, w, l, addr, bytes, in, wd)
                  : read_races(c, w, l, in, wd);
        if (raced)
            return;
    }
}
