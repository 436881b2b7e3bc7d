/* sim_engine.h: a running block, what the engine's files share.
 *
 *   sim_exec.c   the dispatch loop: one decoded instruction over the lanes
 *                of a warp that share its program counter
 *   sim_warp_ops.c  loads, stores, atomics
 *   sim_collective.c  shfl, vote, redux, bar.warp.sync: lanes meet there
 *   sim_arith.c  arithmetic beyond one C operator (sim_arith.h)
 *   sim_block.c  a launch: blocks one at a time, their warps in turn,
 *                divergence and reconvergence, bar.sync, hangs
 *   sim_async.c  cp.async groups, mbarrier phases, bulk copies
 *   sim_mem.c    global memory (registered ranges) and address spaces
 *
 * A warp's registers are laid out register-major (R[reg * 32 + lane]), so
 * one instruction walks contiguous slots. Lanes are in one of the lane_wait
 * states; the lanes READY at the warp's pc form its active group, which runs
 * until it diverges, blocks or exits; then the READY lanes at the lowest pc
 * form the next group (they reconverge where their pcs meet). */
#ifndef GRADER_SIM_ENGINE_H
#define GRADER_SIM_ENGINE_H

#include "sim_module.h"

/* Generic addresses of shared and local memory: windows no host pointer
 * reaches (user space ends below 2^47). */
#define SIM_SHARED_WIN (1ull << 52)
#define SIM_LOCAL_WIN (1ull << 53)
#define SIM_WIN_SIZE (1ull << 32)

/* for every lane l of mask m: LANES(m) ... END */
#define LANES(m) for (uint32_t mm_ = (m); mm_; mm_ &= mm_ - 1) { int l = __builtin_ctz(mm_);
#define END }

#define SIM_MAX_MBAR 64
#define SIM_MAX_BARS 16

/* LW_COLL: at a warp collective, waiting for the other lanes of its member
 * mask (sim_collective.c) */
enum lane_wait { LW_READY, LW_BAR, LW_MBAR, LW_EXITED, LW_COLL };

typedef struct sim_warp {
    uint64_t *R;
    uint8_t *local;          /* 32 frames of local_bytes */
    uint8_t *local_set;      /* per byte of local: written in this launch */
    uint32_t pc, active, ready, live;
    uint32_t other_min;      /* the lowest pc of READY lanes outside active */
    uint32_t lane_pc[32];    /* valid for lanes outside active */
    uint8_t wait[32];        /* enum lane_wait */
    int32_t wait_on[32];     /* a barrier or an mbarrier's index */
    uint64_t wait_arg[32];   /* the phase token or parity waited for */
    unsigned first_tid;      /* linear thread index of lane 0 */
    /* Lanes of one warp that ran apart (sim_race.c): each lane's group
     * stamp, and the count of groups formed of lanes that had been apart
     * (a reconvergence or a warp collective orders them). */
    uint32_t stamp, joins, gid[32];
} sim_warp;

typedef struct sim_mbar {
    uint32_t addr;           /* its shared offset */
    uint32_t expected, pending;
    int64_t tx;              /* bytes expected and not yet landed */
    uint64_t phase;          /* completed phases */
    int bulk;                /* first in-flight bulk copy, -1 none */
    int async_copies;        /* cp.async copies whose completion arrives, -1 none */
    uint32_t async_arrivals; /* arrivals those copies still owe */
    uint32_t init_line;
} sim_mbar;

/* An asynchronous copy in flight: landed (its bytes written) as late as
 * the memory model allows. */
typedef struct sim_copy {
    uint32_t dst;            /* shared offset */
    uint32_t bytes, fill;    /* bytes copied from src, then zeros up to fill */
    const uint8_t *src;
    uint32_t group;          /* cp.async: the thread's group number */
    uint32_t line;
    int next;
} sim_copy;

/* What shared-memory race finding remembers of one 4-byte word
 * (sim_race.c): its last writer and its readers, with their barrier
 * interval. */
typedef struct sim_word {
    uint32_t writer, write_epoch, write_line;
    uint32_t reader, read_epoch, read_line;
    uint32_t readers_apart;  /* readers of the interval in more than one warp */
    /* the last plain writer's lane group and its warp's joins then, the
     * bytes of the word it wrote, its barrier interval (bar_epoch); the
     * last atomic's thread, line and barrier interval */
    uint32_t write_group, write_joins, write_bar;
    uint32_t atom_thread, atom_line, atom_bar;
    uint8_t write_bytes;
} sim_word;

typedef struct sim_cta {
    const sim_module *m;
    const sim_kernel_code *k;
    const sim_launch *L;
    sim_report *rep;
    uint8_t *smem;
    size_t smem_bytes;
    uint8_t *param;
    sim_warp *w;
    int nwarps;
    unsigned nthreads, live_threads;
    unsigned ctaid[3];
    unsigned bar_arrived[SIM_MAX_BARS], bar_expected[SIM_MAX_BARS];
    sim_mbar mb[SIM_MAX_MBAR];
    int nmb;
    sim_copy *copies;
    int ncopies, capcopies, free_copy;
    int *q_head, *q_tail;    /* per thread: its cp.async copies, oldest first */
    uint32_t *group;         /* per thread: the open cp.async group's number */
    int stop;                /* set when the run must end (rep says why) */
    /* global memory: the last range hit */
    uint64_t hit_lo, hit_hi;
    /* shared words a copy in flight will write: its line + 1 (0: none);
     * looked at only while `inflight` copies are pending */
    uint32_t *pend;
    int inflight;
    uint8_t *smem_set;       /* per shared byte: written in this launch */
    sim_word *words;         /* per shared word; epoch: the barrier interval, from 1 */
    uint32_t epoch;
    double deadline;
    /* memory counts (sim_counts.c): per instruction and space, NULL when
     * the launch did not ask for them */
    struct sim_count_acc *counts;
    struct sim_watch *watch; /* the data watch (sim_watch.c); NULL: not watching */
    /* barrier intervals only (bar.sync, mbarrier phases): what an atomic
     * and a plain store race in (sim_race.c) */
    uint32_t bar_epoch;
} sim_cta;

/* sim_exec.c: run warp w's active groups until none is READY, the slice of
 * `budget` warp-instructions is spent, or the run stops (c->stop). */
void sim_warp_run(sim_cta *c, sim_warp *w, long budget);

/* sim_warp_ops.c: ld, st, atom/red over lanes m. */
void sim_load_op(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);
void sim_store_op(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);
void sim_atom_op(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);

/* sim_collective.c: shfl.sync, vote.sync, redux.sync, bar.warp.sync by
 * lanes m at w->pc. Lanes of the member mask that are live but not in m
 * are waited for (LW_COLL) until they reach a collective of the same kind
 * and mask, then all run it together. Returns 1 when it moved w's pc. */
int sim_collective(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);
/* Lanes of w exited: collectives that waited only for them run. */
void sim_collective_recheck(sim_cta *c, sim_warp *w);
/* The block hangs: if a lane waits at a collective, stop the run naming
 * it and the lanes it waits for; returns 1 then. */
int sim_collective_hang(sim_cta *c);

/* sim_printf.c: device printf for lanes m (SO_PRINTF), to stdout. */
void sim_printf(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);

/* sim_block.c */
/* Settle w's active lanes' pcs and choose the next active group. */
void sim_regroup(sim_warp *w);
/* Lanes `m` of w (at w->pc) arrive at barrier b (expecting `count`
 * threads, 0 all). They block unless they complete it. */
void sim_bar_arrive(sim_cta *c, sim_warp *w, uint32_t m, unsigned b, unsigned count, int wait);
/* Lanes `m` of w block on `how` (LW_BAR, LW_MBAR) with `on` and `arg`. */
void sim_block_lanes(sim_warp *w, uint32_t m, int how, int on, uint64_t arg);
/* Threads left: barriers that now have every live thread complete. */
void sim_bar_recheck(sim_cta *c);
/* Stop the run with `status` at in's line, for the thread at lane l of w. */
void sim_stop(sim_cta *c, const sim_warp *w, int l, const sim_insn *in, enum sim_status status,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* sim_async.c */
void sim_cp_async(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);
void sim_cp_commit(sim_cta *c, sim_warp *w, uint32_t m);
void sim_cp_wait(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in, int all);
void sim_mbar_op(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);
void sim_bulk_copy(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);
/* cp.async.mbarrier.arrive[.noinc]: the thread's cp.async copies so far
 * arrive on the mbarrier when they land, as late as its phase allows. */
void sim_cp_mbar_arrive(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);
/* The block is done: land what is still in flight. */
void sim_async_drain(sim_cta *c);

/* sim_counts.c: memory counts when the launch asks for them (sim.h's
 * sim_counts). begin: set up c->counts; access: count lanes m of w
 * executing `in` (ld, st, atom/red or cp.async; other spaces ignored),
 * before it runs; end: add them to the launch's counts and free them. */
void sim_counts_begin(sim_cta *c);
void sim_count_access(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);
void sim_counts_end(sim_cta *c);

/* sim_mem.c: the bytes at `addr` of `space` for `bytes` bytes, as seen by
 * lane l of w; NULL (and the run stopped as a fault) when outside. */
uint8_t *sim_addr(sim_cta *c, sim_warp *w, int l, int space, uint64_t addr, size_t bytes,
                  const sim_insn *in, int write);
/* sim_race.c: a copy issued at `line` will write shared [dst, dst + bytes):
 * mark it; it landed: unmark it. */
void sim_pending_mark(sim_cta *c, uint32_t dst, uint32_t bytes, uint32_t line);
void sim_pending_clear(sim_cta *c, uint32_t dst, uint32_t bytes);
/* Lane l of w reads or writes shared [addr, addr + bytes) with `in` (an
 * ld, st or atom; an st before its bytes are written): record it, and
 * report the first race (sim_report.race). */
void sim_race_shared(sim_cta *c, sim_warp *w, int l, uint32_t addr, uint32_t bytes,
                     const sim_insn *in, int write);
/* sim_regroup chose `act` as w's next group: note lanes joining. */
void sim_race_regroup(sim_warp *w, uint32_t act);
/* Is [p, p + n) inside a registered global range? */
int sim_mem_has(uint64_t p, size_t n, uint64_t *lo, uint64_t *hi);
/* The registered range nearest addr, for a fault's message. */
void sim_mem_nearest(uint64_t addr, uint64_t *base, size_t *bytes);

/* sim_watch.c: the data watch, only for a launch with sim_launch.watch.
 * new: after set_up's allocations, 0 or -1 (out of memory); block: a block
 * starts; step: lanes m of w are about to run `in` (its operands still hold
 * their old values); end: fill c->rep->watch and free (NULL: nothing). */
int sim_watch_new(sim_cta *c);
void sim_watch_block(sim_cta *c);
void sim_watch_step(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in);
void sim_watch_end(sim_cta *c);

#endif
