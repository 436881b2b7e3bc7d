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

/* An access to bytes a copy in flight will write: the first is the race
 * reported, the run goes on (it reads the old bytes). */
static void check_pending(sim_cta *c, sim_warp *w, int l, uint64_t addr, size_t bytes,
                          const sim_insn *in, int write)
{
    for (uint64_t wd = addr / 4; wd < (addr + bytes + 3) / 4; wd++) {
        if (!c->pend[wd])
            continue;
        unsigned t = w->first_tid + (unsigned)l;
        unsigned bx = c->L->block[0], by = c->L->block[1];
        c->rep->race_line = in->line;
        c->rep->race_copy_line = c->pend[wd] - 1;
        snprintf(c->rep->race, sizeof c->rep->race, "thread (%u,%u,%u) of block (%u,%u,%u) "
                 "%s shared memory at line %u (%s) that an asynchronous copy issued at line "
                 "%u had not yet written: nothing between them (a cp.async.wait_group or "
                 "__pipeline_wait_prior that covers it, or the wait on its mbarrier phase) made "
                 "the thread wait for that copy", t % bx, t / bx % by, t / bx / by,
                 c->ctaid[0], c->ctaid[1], c->ctaid[2], write ? "wrote" : "read", in->line,
                 c->m->names + in->text, c->pend[wd] - 1);
        return;
    }
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
        if (c->inflight && !c->rep->race[0])
            check_pending(c, w, l, addr, bytes, in, write);
        return c->smem + addr;
    case SS_LOCAL:
        if (addr + bytes > c->k->local_bytes || addr + bytes < addr)
            return fault(c, w, l, space, addr, bytes, in, write,
                         "past the end of the thread's local memory");
        return w->local + (size_t)l * c->k->local_bytes + addr;
    case SS_PARAM:
        if (write || addr + bytes > c->k->param_bytes)
            return fault(c, w, l, space, addr, bytes, in, write, "outside the parameters");
        return c->param + addr;
    default:
        return global(c, w, l, space, addr, bytes, in, write);
    }
}
