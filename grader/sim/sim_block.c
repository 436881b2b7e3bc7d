/* sim_block.c: a launch. Blocks run one after another (a block's result
 * cannot depend on another block's without a grid-wide wait, which the
 * course does not use); in a block, each warp runs until all its lanes wait
 * or exit, or a slice is spent, then the next. When no warp can go on and
 * some threads have not exited, the block hangs: the message says what
 * each waits for. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim_engine.h"

#define SLICE 4096           /* warp-instructions before the next warp runs */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void sim_stop(sim_cta *c, const sim_warp *w, int l, const sim_insn *in, enum sim_status status,
              const char *fmt, ...)
{
    if (c->stop)
        return;
    c->stop = 1;
    unsigned t = w ? w->first_tid + (unsigned)l : 0;
    unsigned bx = c->L->block[0], by = c->L->block[1];
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    c->rep->status = status;
    c->rep->line = in ? in->line : 0;
    char line[32] = "";
    if (in && in->line)
        snprintf(line, sizeof line, " at line %u", in->line);
    snprintf(c->rep->message, sizeof c->rep->message,
             "thread (%u,%u,%u) of block (%u,%u,%u)%s: %s", t % bx, t / bx % by, t / bx / by,
             c->ctaid[0], c->ctaid[1], c->ctaid[2], line, what);
}

void sim_regroup(sim_warp *w)
{
    for (uint32_t m = w->active; m; m &= m - 1)
        w->lane_pc[__builtin_ctz(m)] = w->pc;
    uint32_t lo = UINT32_MAX, second = UINT32_MAX, act = 0;
    for (uint32_t m = w->ready; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint32_t pc = w->lane_pc[l];
        if (pc < lo) {
            second = lo;
            lo = pc;
            act = 1u << l;
        } else if (pc == lo) {
            act |= 1u << l;
        } else if (pc < second) {
            second = pc;
        }
    }
    sim_race_regroup(w, act);
    w->active = act;
    w->pc = act ? lo : 0;
    w->other_min = second;
}

void sim_block_lanes(sim_warp *w, uint32_t m, int how, int on, uint64_t arg)
{
    for (uint32_t b = m; b; b &= b - 1) {
        int l = __builtin_ctz(b);
        w->wait[l] = (uint8_t)how;
        w->wait_on[l] = on;
        w->wait_arg[l] = arg;
        w->lane_pc[l] = w->pc + 1;
    }
    w->active &= ~m;
    w->ready &= ~m;
}

static void release(sim_cta *c, int how, int on)
{
    for (int i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->w[i];
        uint32_t freed = 0;
        for (uint32_t b = w->live & ~w->ready; b; b &= b - 1) {
            int l = __builtin_ctz(b);
            if (w->wait[l] == how && w->wait_on[l] == on) {
                w->wait[l] = LW_READY;
                freed |= 1u << l;
            }
        }
        if (freed) {
            w->ready |= freed;
            sim_regroup(w);
        }
    }
}

static void bar_check(sim_cta *c, unsigned b)
{
    unsigned want = c->bar_expected[b] ? c->bar_expected[b] : c->live_threads;
    if (c->bar_arrived[b] && c->bar_arrived[b] >= want) {
        c->bar_arrived[b] = 0;
        c->bar_expected[b] = 0;
        c->epoch++;          /* a new barrier interval (sim_race.c) */
        c->bar_epoch++;
        release(c, LW_BAR, (int)b);
    }
}

void sim_bar_arrive(sim_cta *c, sim_warp *w, uint32_t m, unsigned b, unsigned count, int wait)
{
    if (wait)
        sim_block_lanes(w, m, LW_BAR, (int)b, 0);
    w->pc++;
    if (!w->active)
        sim_regroup(w);
    c->bar_arrived[b] += (unsigned)__builtin_popcount(m);
    if (count)
        c->bar_expected[b] = count;
    bar_check(c, b);
}

void sim_bar_recheck(sim_cta *c)
{
    for (unsigned b = 0; b < SIM_MAX_BARS; b++)
        bar_check(c, b);
}

/* Fill a warp's start registers (sim_insn.h: constants, special registers,
 * symbol addresses). */
static void init_warp(sim_cta *c, sim_warp *w, int index)
{
    const sim_kernel_code *k = c->k;
    const sim_launch *L = c->L;
    uint64_t *R = w->R;
    unsigned bx = L->block[0], by = L->block[1];
    for (int i = 0; i < k->ninit; i++) {
        const sim_init *s = &k->init[i];
        uint64_t *r = R + (size_t)s->reg * 32;
        for (int l = 0; l < 32; l++) {
            unsigned t = w->first_tid + (unsigned)l;
            uint64_t v = 0;
            switch (s->kind) {
            case SI_CONST: case SI_PARAM_SYM: case SI_LOCAL_DEPOT: v = s->value; break;
            case SI_GLOBAL_SYM: v = (uint64_t)(uintptr_t)c->m->vars[s->value].data; break;
            case SI_TID_X: v = t % bx; break;
            case SI_TID_Y: v = t / bx % by; break;
            case SI_TID_Z: v = t / bx / by; break;
            case SI_NTID_X: v = L->block[0]; break;
            case SI_NTID_Y: v = L->block[1]; break;
            case SI_NTID_Z: v = L->block[2]; break;
            case SI_CTAID_X: v = c->ctaid[0]; break;
            case SI_CTAID_Y: v = c->ctaid[1]; break;
            case SI_CTAID_Z: v = c->ctaid[2]; break;
            case SI_NCTAID_X: v = L->grid[0]; break;
            case SI_NCTAID_Y: v = L->grid[1]; break;
            case SI_NCTAID_Z: v = L->grid[2]; break;
            case SI_LANEID: v = (uint64_t)l; break;
            case SI_WARPID: v = (uint64_t)index; break;
            case SI_NWARPID: v = (uint64_t)c->nwarps; break;
            case SI_SMID: v = 0; break;
            case SI_NSMID: v = 1; break;
            case SI_CLOCK: v = 0; break;
            case SI_LANEMASK_LT: v = (1ull << l) - 1; break;
            case SI_LANEMASK_LE: v = (2ull << l) - 1; break;
            case SI_LANEMASK_EQ: v = 1ull << l; break;
            case SI_LANEMASK_GE: v = ~((1ull << l) - 1) & 0xffffffffu; break;
            case SI_LANEMASK_GT: v = ~((2ull << l) - 1) & 0xffffffffu; break;
            }
            r[l] = v;
        }
    }
    unsigned n = c->nthreads - w->first_tid;
    w->live = n >= 32 ? 0xffffffffu : (1u << n) - 1;
    w->ready = w->active = w->live;
    w->pc = 0;
    w->other_min = UINT32_MAX;
    memset(w->wait, LW_READY, sizeof w->wait);
    for (int l = 0; l < 32; l++)
        if (!(w->live >> l & 1))
            w->wait[l] = LW_EXITED;
}

/* A hung block: what its first waiting thread waits for, and where all
 * the others are. */
static void say_hang(sim_cta *c)
{
    if (sim_collective_hang(c))
        return;
    unsigned at_bar = 0, at_mbar = 0;
    sim_warp *fw = NULL;
    int fl = 0;
    for (int i = 0; i < c->nwarps; i++)
        for (uint32_t b = c->w[i].live; b; b &= b - 1) {
            int l = __builtin_ctz(b);
            at_bar += c->w[i].wait[l] == LW_BAR;
            at_mbar += c->w[i].wait[l] == LW_MBAR;
            if (!fw) {
                fw = &c->w[i];
                fl = l;
            }
        }
    if (!fw)
        return;
    const sim_insn *in = &c->k->insn[fw->lane_pc[fl] - 1];
    int on = fw->wait_on[fl];
    char what[400];
    if (fw->wait[fl] == LW_BAR)
        snprintf(what, sizeof what, "it waits at barrier %d (line %u), where %u of the %u "
                 "threads it waits for arrived", on, in->line, c->bar_arrived[on],
                 c->bar_expected[on] ? c->bar_expected[on] : c->live_threads);
    else
        snprintf(what, sizeof what, "it waits on the mbarrier at shared offset %u (line %u) "
                 "for phase %llu to complete; that phase still expects %u arrivals and %lld "
                 "transaction bytes that no thread or copy will bring", c->mb[on].addr,
                 in->line, (unsigned long long)c->mb[on].phase, c->mb[on].pending,
                 (long long)c->mb[on].tx);
    sim_stop(c, fw, fl, in, SIM_HANG, "no thread of the block can go on: %s. Of the block's "
             "%u threads, %u wait at a barrier, %u on an mbarrier phase and %u have exited",
             what, c->nthreads, at_bar, at_mbar, c->nthreads - c->live_threads);
}

/* Over the time limit: the first running thread and the line it is at. */
static void say_too_long(sim_cta *c)
{
    for (int i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->w[i];
        if (!w->active)
            continue;
        const sim_insn *in = &c->k->insn[w->pc];
        sim_stop(c, w, __builtin_ctz(w->active), in, SIM_HANG, "the block did not finish "
                 "within the time limit; this thread was running line %u: a loop that does "
                 "not end, or a spin on something that never comes", in->line);
        return;
    }
    sim_stop(c, NULL, 0, NULL, SIM_HANG, "the block did not finish within the time limit");
}

static int run_block(sim_cta *c)
{
    for (int i = 0; i < c->nwarps; i++) {
        init_warp(c, &c->w[i], i);
        memset(c->w[i].local_set, 0, 32 * c->k->local_bytes);
    }
    memset(c->smem_set, 0, c->smem_bytes);   /* nothing written yet (sim_mem.c) */
    memset(c->bar_arrived, 0, sizeof c->bar_arrived);
    memset(c->bar_expected, 0, sizeof c->bar_expected);
    /* Never-written shared memory reads as 0x7f bytes: huge values (3.4e38
     * as a float, 1.4e306 as a double), so a read of it gives a result
     * that is plainly wrong, and not the output's poison pattern (which
     * all-ones bytes, a NaN that arithmetic carries, would be). */
    memset(c->smem, 0x7f, c->smem_bytes);
    memset(c->words, 0, (c->smem_bytes + 3) / 4 * sizeof *c->words);
    c->epoch = 1;
    c->nmb = 0;
    if (c->watch)
        sim_watch_block(c);
    c->live_threads = c->nthreads;
    for (;;) {
        int ran = 0;
        for (int i = 0; i < c->nwarps && !c->stop; i++)
            if (c->w[i].active) {
                sim_warp_run(c, &c->w[i], SLICE);
                ran = 1;
            }
        if (c->stop)
            return -1;
        if (!c->live_threads)
            break;
        if (!ran) {
            say_hang(c);
            return -1;
        }
        if (c->deadline && now_s() > c->deadline) {
            say_too_long(c);
            return -1;
        }
    }
    sim_async_drain(c);
    return 0;
}

static int set_up(sim_cta *c, const sim_module *m, int k, const sim_launch *L, sim_report *rep)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    c->k = &m->k[k];
    c->L = L;
    c->rep = rep;
    c->nthreads = L->block[0] * L->block[1] * L->block[2];
    if (!c->nthreads || c->nthreads > 1024 || !L->grid[0] || !L->grid[1] || !L->grid[2]) {
        rep->status = SIM_BAD_LAUNCH;
        snprintf(rep->message, sizeof rep->message, "a block of %u threads or an empty grid: "
                 "a GPU refuses that launch", c->nthreads);
        return -1;
    }
    if (c->k->max_threads && c->nthreads > (unsigned)c->k->max_threads) {
        rep->status = SIM_BAD_LAUNCH;
        snprintf(rep->message, sizeof rep->message, "a block of %u threads, more than the "
                 "%d its .maxntid (__launch_bounds__) allows: a GPU refuses that launch",
                 c->nthreads, c->k->max_threads);
        return -1;
    }
    c->nwarps = (int)((c->nthreads + 31) / 32);
    c->smem_bytes = c->k->dyn_base + L->dyn_smem;
    if (!L->dyn_smem)
        c->smem_bytes = c->k->smem_static > c->k->dyn_base ? c->k->smem_static : c->k->dyn_base;
    c->smem = calloc(1, c->smem_bytes + 16);
    c->pend = calloc((c->smem_bytes + 3) / 4 + 1, sizeof *c->pend);
    c->words = calloc((c->smem_bytes + 3) / 4 + 1, sizeof *c->words);
    c->smem_set = calloc(1, c->smem_bytes + 16);
    c->param = calloc(1, c->k->param_bytes + 8);
    c->w = calloc((size_t)c->nwarps, sizeof *c->w);
    c->q_head = malloc(c->nthreads * sizeof *c->q_head);
    c->q_tail = malloc(c->nthreads * sizeof *c->q_tail);
    c->group = calloc(c->nthreads, sizeof *c->group);
    if (!c->smem || !c->pend || !c->words || !c->smem_set || !c->param || !c->w || !c->q_head || !c->q_tail || !c->group)
        return -1;
    for (int i = 0; i < c->nwarps; i++) {
        c->w[i].R = calloc((size_t)c->k->nregs * 32 + 32, sizeof(uint64_t));
        c->w[i].local = calloc(32, c->k->local_bytes + 8);
        c->w[i].local_set = calloc(32, c->k->local_bytes + 8);
        c->w[i].first_tid = (unsigned)i * 32;
        if (!c->w[i].R || !c->w[i].local || !c->w[i].local_set)
            return -1;
    }
    for (int a = 0; a < c->k->nparams; a++)
        memcpy(c->param + c->k->param_off[a], L->argp[a], c->k->param_size[a]);
    c->free_copy = -1;
    c->deadline = L->timeout_s > 0 ? now_s() + L->timeout_s : 0;
    return L->watch ? sim_watch_new(c) : 0;
}

static void tear_down(sim_cta *c)
{
    sim_watch_end(c);
    for (int i = 0; c->w && i < c->nwarps; i++) {
        free(c->w[i].R);
        free(c->w[i].local);
        free(c->w[i].local_set);
    }
    free(c->w);
    free(c->smem);
    free(c->pend);
    free(c->words);
    free(c->smem_set);
    free(c->param);
    free(c->q_head);
    free(c->q_tail);
    free(c->group);
    free(c->copies);
}

enum sim_status sim_run(const sim_module *m, int k, const sim_launch *L, sim_report *rep)
{
    memset(rep, 0, sizeof *rep);
    if (k < 0 || k >= m->nk) {
        rep->status = SIM_BAD_LAUNCH;
        snprintf(rep->message, sizeof rep->message, "no such kernel");
        return rep->status;
    }
    sim_cta c;
    if (set_up(&c, m, k, L, rep) != 0) {
        if (rep->status == SIM_OK) {
            rep->status = SIM_BAD_LAUNCH;
            snprintf(rep->message, sizeof rep->message, "out of host memory");
        }
        tear_down(&c);
        return rep->status;
    }
    if (L->counts)
        sim_counts_begin(&c);
    uint64_t total = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    uint64_t n = L->blocks && L->nblocks ? L->nblocks : total;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t b = L->blocks && L->nblocks ? L->blocks[i] : i;
        if (b >= total) {
            rep->status = SIM_BAD_LAUNCH;
            snprintf(rep->message, sizeof rep->message, "block %llu of a sample, outside "
                     "the grid of %llu blocks", (unsigned long long)b,
                     (unsigned long long)total);
            break;
        }
        c.ctaid[0] = (unsigned)(b % L->grid[0]);
        c.ctaid[1] = (unsigned)(b / L->grid[0] % L->grid[1]);
        c.ctaid[2] = (unsigned)(b / L->grid[0] / L->grid[1]);
        for (unsigned t = 0; t < c.nthreads; t++) {
            c.q_head[t] = c.q_tail[t] = -1;
            c.group[t] = 0;
        }
        if (run_block(&c) != 0)
            break;
    }
    sim_counts_end(&c);
    tear_down(&c);
    return rep->status;
}
