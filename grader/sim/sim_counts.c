/* sim_counts.c: memory counts by instruction (sim.h's sim_counts; issue 28
 * item 3): global sectors per request and shared-memory wavefronts, as
 * Nsight Compute counts them, for the launches that ask.
 *
 * Global: a warp's request touches the distinct 32-byte sectors its active
 * lanes' bytes fall in (lesson 2: 4 for 32 consecutive floats, 32 for a
 * stride of 32 floats).
 *
 * Shared: 32 banks of 4-byte words; lanes that touch the same word share it
 * (a broadcast, no conflict: CUDA C++ Programming Guide, "Shared Memory" of
 * compute capability 5.x and later, which 9.0 keeps). The shared-memory
 * pipe returns 128 bytes per cycle (NVIDIA developer forum, "Unexpected
 * shared memory bank conflict", and the Nsight Compute Profiling Guide's
 * wavefront: the unit of work that passes the pipeline in one cycle), so a
 * warp's request of 8 bytes a lane is served as two half-warp phases and
 * one of 16 bytes as four quarter-warp phases; conflicts are counted within
 * a phase. A phase takes as many wavefronts as the most distinct words one
 * bank holds in it; ideal is one per phase with an active lane. The
 * uniform-address fast paths the forum describes for LDS.64/128 (pairs of
 * lanes with one address) are not modelled: such a request counts its full
 * phases here, fewer on the GPU. Except one, measured: a 16-byte load whose
 * lanes pair up on one address (lane l and l^1, or l and l^2, as a whole
 * warp reading one address does) is served in two half-warp phases, 2
 * wavefronts and not 4 (NVIDIA developer forum, "Unexpected shared memory
 * bank conflict"; Nsight Compute on an H200, 2026-11-29: lesson 3's
 * broadcast LDS.128, grader/calibration/h200-2026-11-29/ncu-counts/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_engine.h"
#include "sim_value.h"

/* Per instruction, [0] global and [1] shared. */
typedef struct sim_count_acc {
    uint64_t requests, units, ideal;
} sim_count_acc;

void sim_counts_begin(sim_cta *c)
{
    c->counts = calloc((size_t)c->k->ninsn * 2 + 2, sizeof *c->counts);
}

/* Sort v[0..n) and drop repeats; returns how many are left. An insertion
 * sort: a warp's addresses mostly come in order, so it runs in one pass. */
static int distinct(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!k || v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

/* One global request: lanes' byte ranges [addr[i], addr[i] + bytes[i]). */
static void count_global(sim_count_acc *a, const uint64_t *addr, const uint32_t *bytes, int n)
{
    uint64_t sec[32 * 8];
    int ns = 0;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        for (uint64_t s = addr[i] >> 5; s <= (addr[i] + bytes[i] - 1) >> 5 && ns < 32 * 8; s++)
            sec[ns++] = s;
        total += bytes[i];
    }
    uint64_t touched = (uint64_t)distinct(sec, ns), ideal = (total + 31) / 32;
    a->requests++;
    a->units += touched;
    a->ideal += ideal < touched ? ideal : touched;
}

/* The common case, first: every bank holds at most one distinct word of
 * w[0..n) (no conflict), found without sorting. */
static int one_per_bank(const uint64_t *w, int n)
{
    uint64_t first[32];
    uint32_t seen = 0;
    for (int i = 0; i < n; i++) {
        uint32_t b = 1u << (w[i] & 31);
        if (!(seen & b)) {
            seen |= b;
            first[w[i] & 31] = w[i];
        } else if (first[w[i] & 31] != w[i]) {
            return 0;
        }
    }
    return 1;
}

/* Do the active lanes pair up on one address, lane l with l ^ step
 * wherever both are active? */
static int paired(const int *lane, const uint64_t *addr, int n, int step)
{
    uint64_t at[32];
    uint32_t on = 0;
    for (int i = 0; i < n; i++) {
        at[lane[i]] = addr[i];
        on |= 1u << lane[i];
    }
    for (int i = 0; i < n; i++) {
        int p = lane[i] ^ step;
        if ((on >> p & 1) && at[p] != addr[i])
            return 0;
    }
    return 1;
}

/* One shared request: lane[i]'s range [addr[i], addr[i] + bytes) (shared
 * offsets), in phases of 128 bytes' worth of lanes; a 16-byte load of
 * paired lanes in half-warp phases (the header says why). */
static void count_shared(sim_count_acc *a, const int *lane, const uint64_t *addr, int n,
                         uint32_t bytes, int load)
{
    int per_phase = bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
    if (bytes == 16 && load && (paired(lane, addr, n, 1) || paired(lane, addr, n, 2)))
        per_phase = 16;
    a->requests++;
    for (int ph = 0; ph < 32 / per_phase; ph++) {
        uint64_t word[32 * 4];
        int nw = 0;
        for (int i = 0; i < n; i++)
            if (lane[i] / per_phase == ph)
                for (uint64_t x = addr[i] >> 2; x <= (addr[i] + bytes - 1) >> 2 && nw < 128; x++)
                    word[nw++] = x;
        if (!nw)
            continue;
        a->ideal++;
        if (one_per_bank(word, nw)) {
            a->units++;
            continue;
        }
        nw = distinct(word, nw);
        int in_bank[32] = {0}, most = 0;
        for (int i = 0; i < nw; i++) {
            int b = (int)(word[i] & 31);
            if (++in_bank[b] > most)
                most = in_bank[b];
        }
        a->units += (uint64_t)most;
    }
}

/* The global address, and bytes, lane l of `in` reads or writes; its space
 * as written (cp.async: its source, in global memory). */
static uint64_t lane_access(const sim_warp *w, int l, const sim_insn *in, uint32_t *bytes,
                            int *space)
{
    const uint64_t *R = w->R;
    if (in->op == SO_CP_ASYNC) {
        uint32_t size = (uint32_t)R[(size_t)in->b * 32 + (size_t)l];
        uint32_t src = (in->flags & SF_HAS_C) ? (uint32_t)R[(size_t)in->c * 32 + (size_t)l]
                                              : size;
        *bytes = src < size ? src : size;
        *space = SS_GLOBAL;
        return R[(size_t)in->a * 32 + (size_t)l] + (uint64_t)(int64_t)in->target;
    }
    *bytes = (uint32_t)tsize(in->type) * (in->op == SO_ATOM ? 1u : in->vec);
    *space = in->space;
    return R[(size_t)in->a * 32 + (size_t)l] + (uint64_t)in->off;
}

void sim_count_access(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t ga[32], sa[32];
    uint32_t gb[32];
    int sl[32], ng = 0, ns = 0;
    uint32_t sbytes = 0;
    LANES(m)
        uint32_t bytes;
        int space;
        uint64_t addr = lane_access(w, l, in, &bytes, &space);
        if (!bytes)
            continue;
        if (space == SS_GENERIC) {
            if (addr - SIM_SHARED_WIN < SIM_WIN_SIZE) {
                space = SS_SHARED;
                addr -= SIM_SHARED_WIN;
            } else {
                space = addr - SIM_LOCAL_WIN < SIM_WIN_SIZE ? SS_LOCAL : SS_GLOBAL;
            }
        }
        if (space == SS_GLOBAL) {
            ga[ng] = addr;
            gb[ng++] = bytes;
        } else if (space == SS_SHARED) {
            sl[ns] = l;
            sa[ns++] = addr;
            sbytes = bytes;
        }
    END
    sim_count_acc *a = &c->counts[(size_t)(in - c->k->insn) * 2];
    if (ng)
        count_global(&a[0], ga, gb, ng);
    if (ns)
        count_shared(&a[1], sl, sa, ns, sbytes, in->op == SO_LD);
}

/* Does row r hold instruction i's counts in `space`? By its index, or
 * when folding, by its line and opcode. */
static int same_row(const sim_cta *c, const sim_count_row *r, int i, int space, int fold)
{
    const sim_insn *in = &c->k->insn[i];
    if (r->space != space)
        return 0;
    if (!fold)
        return r->insn == (uint32_t)i;
    return r->line == in->line && !strcmp(r->op, c->m->names + in->text);
}

/* Add instruction i's counts in `space` to the launch's counts. */
static void add_row(sim_cta *c, sim_counts *out, int i, int space, const sim_count_acc *a,
                    int fold)
{
    int r = 0;
    while (r < out->n && !same_row(c, &out->row[r], i, space, fold))
        r++;
    if (r == out->n) {
        if (r == SIM_COUNT_ROWS) {
            out->dropped++;
            return;
        }
        const sim_insn *in = &c->k->insn[i];
        out->row[r] = (sim_count_row){.insn = (uint32_t)i, .line = in->line, .space = space};
        snprintf(out->row[r].op, sizeof out->row[r].op, "%s", c->m->names + in->text);
        out->n++;
    }
    out->row[r].requests += a->requests;
    out->row[r].units += a->units;
    out->row[r].ideal += a->ideal;
}

void sim_counts_end(sim_cta *c)
{
    if (!c->counts)
        return;
    /* more instructions than rows: one row per line, space and opcode */
    int need = c->L->counts->n;
    for (int i = 0; i < c->k->ninsn * 2; i++)
        need += c->counts[i].requests > 0;
    int fold = need > SIM_COUNT_ROWS;
    for (int i = 0; i < c->k->ninsn; i++)
        for (int s = 0; s < 2; s++)
            if (c->counts[i * 2 + s].requests)
                add_row(c, c->L->counts, i, s ? SIM_COUNT_SHARED : SIM_COUNT_GLOBAL,
                        &c->counts[i * 2 + s], fold);
    free(c->counts);
    c->counts = NULL;
}
