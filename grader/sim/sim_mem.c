/* sim_mem.c: global memory as the registered ranges, and every address
 * space's translation to host bytes, with the fault that ends a run. */
#include <stdio.h>
#include <string.h>
#include "sim_engine.h"

#define MAX_RANGES 4096

/* Sorted by base; no two overlap (they are distinct allocations). */
static struct range { uint64_t lo, hi; } ranges[MAX_RANGES];
static int nranges;

int sim_mem_add(void *p, size_t bytes)
{
    uint64_t lo = (uint64_t)(uintptr_t)p;
    if (nranges == MAX_RANGES)
        return -1;
    int i = nranges;
    while (i > 0 && ranges[i - 1].lo > lo) {
        ranges[i] = ranges[i - 1];
        i--;
    }
    ranges[i] = (struct range){lo, lo + bytes};
    nranges++;
    return 0;
}

void sim_mem_remove(void *p)
{
    uint64_t lo = (uint64_t)(uintptr_t)p;
    for (int i = 0; i < nranges; i++)
        if (ranges[i].lo == lo) {
            memmove(&ranges[i], &ranges[i + 1], (size_t)(nranges - i - 1) * sizeof *ranges);
            nranges--;
            return;
        }
}

int sim_mem_has(uint64_t p, size_t n, uint64_t *lo, uint64_t *hi)
{
    int a = 0, b = nranges - 1;
    while (a <= b) {
        int mid = (a + b) / 2;
        if (p < ranges[mid].lo) {
            b = mid - 1;
        } else if (p >= ranges[mid].hi) {
            a = mid + 1;
        } else {
            *lo = ranges[mid].lo;
            *hi = ranges[mid].hi;
            return p + n <= ranges[mid].hi;
        }
    }
    return 0;
}

void sim_mem_nearest(uint64_t addr, uint64_t *base, size_t *bytes)
{
    uint64_t best = UINT64_MAX;
    *base = 0;
    *bytes = 0;
    for (int i = 0; i < nranges; i++) {
        uint64_t d = addr < ranges[i].lo ? ranges[i].lo - addr
                   : addr >= ranges[i].hi ? addr - ranges[i].hi + 1 : 0;
        if (d < best) {
            best = d;
            *base = ranges[i].lo;
            *bytes = ranges[i].hi - ranges[i].lo;
        }
    }
}

static const char *const space_names[] = {"generic", "global", "shared", "local", "param",
                                          "const"};

static uint8_t *fault(sim_cta *c, sim_warp *w, int l, int space, uint64_t addr, size_t bytes,
                      const sim_insn *in, int write, const char *where)
{
    sim_stop(c, w, l, in, SIM_FAULT, "%s %zu bytes at %s address 0x%llx, %s (%s)",
             write ? "wrote" : "read", bytes, space_names[space], (unsigned long long)addr,
             where, c->m->names + in->text);
    return NULL;
}

static uint8_t *global(sim_cta *c, sim_warp *w, int l, int space, uint64_t addr, size_t bytes,
                       const sim_insn *in, int write)
{
    if (addr >= c->hit_lo && addr + bytes <= c->hit_hi && addr + bytes >= addr)
        return (uint8_t *)(uintptr_t)addr;
    uint64_t lo, hi;
    if (sim_mem_has(addr, bytes, &lo, &hi)) {
        c->hit_lo = lo;
        c->hit_hi = hi;
        return (uint8_t *)(uintptr_t)addr;
    }
    uint64_t base;
    size_t n;
    char where[160];
    sim_mem_nearest(addr, &base, &n);
    if (n && addr >= base)
        snprintf(where, sizeof where, "outside every buffer: %llu bytes past the end of the "
                 "nearest one (%zu bytes)", (unsigned long long)(addr - base - n), n);
    else if (n)
        snprintf(where, sizeof where, "outside every buffer: %llu bytes before the start of "
                 "the nearest one (%zu bytes)", (unsigned long long)(base - addr), n);
    else
        snprintf(where, sizeof where, "outside every buffer");
    return fault(c, w, l, space, addr, bytes, in, write, where);
}

/* Lane l of w touches [addr, addr + bytes) of a space whose byte map is
 * `set`: a write marks the bytes; a read of one unmarked is reported, the
 * first only (sim_report.unwritten). */
static void track_written(sim_cta *c, sim_warp *w, int l, uint8_t *set, uint64_t addr,
                          size_t bytes, const sim_insn *in, int write, int shared)
{
    if (write) {
        memset(set + addr, 1, bytes);
        return;
    }
    if (c->rep->unwritten[0] || !memchr(set + addr, 0, bytes))
        return;
    unsigned t = w->first_tid + (unsigned)l, bx = c->L->block[0], by = c->L->block[1];
    c->rep->unwritten_line = in->line;
    snprintf(c->rep->unwritten, sizeof c->rep->unwritten, "thread (%u,%u,%u) of block "
             "(%u,%u,%u) read %s memory at line %u (%s) that %s in this launch: on a GPU "
             "those bytes hold whatever an earlier kernel left there, so the result depends "
             "on what ran before; write (or copy) every byte before reading it",
             t % bx, t / bx % by, t / bx / by, c->ctaid[0], c->ctaid[1], c->ctaid[2],
             shared ? "shared" : "local", in->line, c->m->names + in->text,
             shared ? "no thread of its block wrote" : "its thread did not write");
}

/* An atomic reads its bytes before it writes them, except an exchange
 * (its new value ignores the old): an add to a never-written word adds to
 * what an earlier kernel left. */
static int atom_reads(const sim_insn *in)
{
    return in->op == SO_ATOM && in->mod != SA_EXCH;
}

uint8_t *sim_addr(sim_cta *c, sim_warp *w, int l, int space, uint64_t addr, size_t bytes,
                  const sim_insn *in, int write)
{
    if (space == SS_GENERIC) {
        if (addr - SIM_SHARED_WIN < SIM_WIN_SIZE) {
            space = SS_SHARED;
            addr -= SIM_SHARED_WIN;
        } else if (addr - SIM_LOCAL_WIN < SIM_WIN_SIZE) {
            space = SS_LOCAL;
            addr -= SIM_LOCAL_WIN;
        } else {
            return global(c, w, l, SS_GLOBAL, addr, bytes, in, write);
        }
    }
    switch (space) {
    case SS_SHARED:
        if (addr + bytes > c->smem_bytes || addr + bytes < addr)
            return fault(c, w, l, space, addr, bytes, in, write,
                         "past the end of the block's shared memory");
        if (!c->rep->race[0] && (in->op == SO_ATOM || ((in->op == SO_LD || in->op == SO_ST) &&
                                                        !(in->flags & SF_ORDERED))))
            sim_race_shared(c, w, l, (uint32_t)addr, (uint32_t)bytes, in, write);
        if (atom_reads(in))
            track_written(c, w, l, c->smem_set, addr, bytes, in, 0, 1);
        track_written(c, w, l, c->smem_set, addr, bytes, in, write, 1);
        return c->smem + addr;
    case SS_LOCAL:
        if (addr + bytes > c->k->local_bytes || addr + bytes < addr)
            return fault(c, w, l, space, addr, bytes, in, write,
                         "past the end of the thread's local memory");
        if (atom_reads(in))
            track_written(c, w, l, w->local_set + (size_t)l * c->k->local_bytes, addr, bytes,
                          in, 0, 0);
        track_written(c, w, l, w->local_set + (size_t)l * c->k->local_bytes, addr, bytes, in,
                      write, 0);
        return w->local + (size_t)l * c->k->local_bytes + addr;
    case SS_PARAM:
        if (write || addr + bytes > c->k->param_bytes)
            return fault(c, w, l, space, addr, bytes, in, write, "outside the parameters");
        return c->param + addr;
    default:
        return global(c, w, l, space, addr, bytes, in, write);
    }
}
