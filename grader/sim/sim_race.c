/* sim_race.c: races in shared memory, found on every run and named by the
 * lines of both accesses (sim_report.race; the first one only).
 *
 * Two kinds:
 *   - an access to bytes an asynchronous copy in flight will write (a
 *     cp.async before the wait that covers its group, a bulk copy before
 *     its mbarrier phase completes): every word a copy will write holds
 *     the copy's line until it lands;
 *   - two threads of different warps touching a word in the same barrier
 *     interval, one writing (ld/st only; atomics are not races): every
 *     word remembers its last writer and its readers with the interval
 *     (`epoch`) they were in. The epoch advances whenever a barrier or an
 *     mbarrier phase completes, whichever threads it orders, so a race is
 *     never reported where some synchronisation stood between the two;
 *     threads of one warp are never reported (they run in lockstep here,
 *     and __syncwarp orders them on a GPU). Writes of two threads to one
 *     word are not reported either (a benign "everyone sets the flag").
 *     Whatever may synchronise threads without a barrier also ends the
 *     interval, for everyone: a fence, an atomic, an access with .volatile,
 *     .relaxed, .acquire or .release (a flag spun on), which is itself
 *     never reported. Races are missed that way, never invented. */
#include <stdio.h>
#include "sim_engine.h"

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

void sim_race_shared(sim_cta *c, sim_warp *w, int l, uint32_t addr, uint32_t bytes,
                     const sim_insn *in, int write)
{
    unsigned t = w->first_tid + (unsigned)l, warp = t / 32;
    char what[300], other[40];
    for (uint32_t wd = addr / 4; wd < (addr + bytes + 3) / 4; wd++) {
        if (c->inflight && c->pend[wd]) {
            snprintf(what, sizeof what, "that an asynchronous copy issued at line %u had not "
                     "yet written: nothing between them (a cp.async.wait_group or "
                     "__pipeline_wait_prior that covers it, or the wait on its mbarrier phase) "
                     "made the thread wait for that copy", c->pend[wd] - 1);
            say(c, t, in, write, c->pend[wd] - 1, what);
            return;
        }
        sim_word *s = &c->words[wd];
        if (write) {
            if (s->read_epoch == c->epoch && (s->readers_apart || s->reader / 32 != warp)) {
                thread_xyz(c, s->reader, other, sizeof other);
                snprintf(what, sizeof what, "that thread %s%s read at line %u, with no "
                         "__syncthreads() (or other barrier) between the two: which comes "
                         "first depends on timing", other,
                         s->readers_apart ? " and others" : "", s->read_line);
                say(c, t, in, write, s->read_line, what);
                return;
            }
            s->writer = t;
            s->write_epoch = c->epoch;
            s->write_line = in->line;
        } else {
            if (s->write_epoch == c->epoch && s->writer / 32 != warp) {
                thread_xyz(c, s->writer, other, sizeof other);
                snprintf(what, sizeof what, "that thread %s wrote at line %u, with no "
                         "__syncthreads() (or other barrier) between the two: which comes "
                         "first depends on timing", other, s->write_line);
                say(c, t, in, write, s->write_line, what);
                return;
            }
            if (s->read_epoch != c->epoch) {
                s->read_epoch = c->epoch;
                s->reader = t;
                s->read_line = in->line;
                s->readers_apart = 0;
            } else if (s->reader / 32 != warp) {
                s->readers_apart = 1;
            }
        }
    }
}
