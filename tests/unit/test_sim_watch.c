/* test_sim_watch.c: the simulator's data watch (grader/sim/sim_watch.c,
 * core/watch_facts.h), one figure at a time, on hand-written PTX: each case
 * is a kernel body after a head in which every thread loads its word of
 * `in` (%r2, 4 bytes, the first site) and before a tail that stores %r3 to
 * its word of `out`, with the figures a launch of one block must give.
 * Part of the `sim` suite.
 *
 *   CK_RUN_SUITE=sim build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "suites.h"

#define NONE (-1)

typedef struct watch_case {
    const char *name;
    const char *body;
    unsigned threads;
    double live[WP_N], dead[WP_N];
    double uniform, staged, wait, smem, served, lead;
} watch_case;

static const char head[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".const .align 4 .u32 tab[4];\n"
    ".visible .entry t(.param .u64 t_param_0, .param .u64 t_param_1)\n{\n"
    ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n"
    ".shared .align 16 .b8 sh[1024];\n.local .align 4 .b8 __local_depot0[4];\n"
    "ld.param.u64 %rd1, [t_param_0];\nld.param.u64 %rd2, [t_param_1];\n"
    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\n"
    "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
    "ld.global.u32 %r2, [%rd5];\nmov.u32 %r3, 0;\nshl.b32 %r9, %r1, 2;\n";
static const char tail[] = "st.global.u32 [%rd4], %r3;\nret;\n}\n";

/* live and dead bytes by path: load, load_v16, async, bulk, const */
#define B(load, v16, async, cnst) {load, v16, async, 0, cnst}

static const watch_case cases[] = {
    {"a load the output uses is live", "mov.b32 %r3, %r2;", 32, B(128, 0, 0, 0), B(0, 0, 0, 0),
     0, NONE, NONE, 0, NONE, NONE},
    {"a load the output does not use is dead", "mov.u32 %r3, 5;", 32, B(0, 0, 0, 0),
     B(128, 0, 0, 0), 0, NONE, NONE, 0, NONE, NONE},
    {"arithmetic and a select carry the load", "add.s32 %r4, %r2, 1;\n"
     "setp.gt.u32 %p1, %r1, 100;\nselp.b32 %r3, 0, %r4, %p1;", 32, B(128, 0, 0, 0),
     B(0, 0, 0, 0), 0, NONE, NONE, 0, NONE, NONE},
    {"a store's address that depends on a load makes it live", "and.b32 %r4, %r2, 0;\n"
     "mul.wide.u32 %rd6, %r4, 4;\nadd.s64 %rd4, %rd4, %rd6;", 32, B(128, 0, 0, 0),
     B(0, 0, 0, 0), 0, NONE, NONE, 0, NONE, NONE},
    {"a 16-byte load is WP_LOAD_V16", "mul.wide.u32 %rd6, %r1, 16;\nadd.s64 %rd7, %rd2, %rd6;\n"
     "ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd7];\nadd.s32 %r3, %r4, %r7;", 16,
     B(0, 256, 0, 0), B(64, 0, 0, 0), 0, NONE, NONE, 0, NONE, NONE},
    {"one address for the whole warp: uniform, counted once", "ld.global.u32 %r4, [%rd2+4];\n"
     "mov.b32 %r3, %r4;", 32, B(4, 0, 0, 0), B(128, 0, 0, 0), 4, NONE, NONE, 0, NONE, NONE},
    {"ld.const is the constant bank", "ld.const.u32 %r4, [tab+4];\nadd.s32 %r3, %r4, %r2;", 32,
     B(128, 0, 0, 4), B(0, 0, 0, 0), 0, NONE, NONE, 0, NONE, NONE},
    {"stored to shared and read back at once: staged, waits 0",
     "st.shared.u32 [%r9], %r2;\nld.shared.u32 %r3, [%r9];", 32, B(128, 0, 0, 0), B(0, 0, 0, 0),
     0, 100, 0, 12.5, NONE, NONE},
    {"three words stored, read back second, third, first: they wait 0, 1, 2",
     "add.s32 %r11, %r9, 256;\nadd.s32 %r12, %r9, 512;\nst.shared.u32 [%r9], %r2;\n"
     "st.shared.u32 [%r11], %r2;\nst.shared.u32 [%r12], %r2;\nld.shared.u32 %r5, [%r11];\n"
     "ld.shared.u32 %r6, [%r12];\nld.shared.u32 %r7, [%r9];\nadd.s32 %r8, %r5, %r6;\n"
     "add.s32 %r3, %r8, %r7;", 32, B(128, 0, 0, 0), B(0, 0, 0, 0), 0, 100, 1, 37.5, NONE, NONE},
    {"fetches are not uses: loads between store and read do not make it wait",
     "st.shared.u32 [%r9], %r2;\nld.global.u32 %r5, [%rd5+128];\n"
     "ld.shared.u32 %r3, [%r9];", 32, B(128, 0, 0, 0), B(128, 0, 0, 0), 0, 100, 0, 12.5, NONE,
     NONE},
    {"a neighbour's word, after a barrier: staged", "st.shared.u32 [%r9], %r2;\nbar.sync 0;\n"
     "xor.b32 %r10, %r9, 4;\nld.shared.u32 %r3, [%r10];", 32, B(128, 0, 0, 0), B(0, 0, 0, 0),
     0, 100, 0, 12.5, NONE, NONE},
    {"a thread's own number through shared memory carries no input",
     "st.shared.u32 [%r9], %r1;\nld.shared.u32 %r3, [%r9];", 32, B(0, 0, 0, 0), B(128, 0, 0, 0),
     0, NONE, NONE, 0, NONE, NONE},
    {"cp.async bytes count at the ld.shared that reads them",
     "cp.async.ca.shared.global [%r9], [%rd5], 4;\ncp.async.commit_group;\n"
     "cp.async.wait_group 0;\nld.shared.u32 %r3, [%r9];", 32, B(0, 0, 128, 0), B(128, 0, 0, 0),
     0, 100, 0, 12.5, NONE, NONE},
    {"a copy read after its thread used the next one waited 1", "add.s32 %r11, %r9, 512;\n"
     "cp.async.ca.shared.global [%r9], [%rd5], 4;\n"
     "cp.async.ca.shared.global [%r11], [%rd5+128], 4;\ncp.async.commit_group;\n"
     "cp.async.wait_group 0;\nld.shared.u32 %r5, [%r11];\nld.shared.u32 %r3, [%r9];", 32,
     B(0, 0, 128, 0), B(128, 0, 128, 0), 0, 100, 1, 12.5, NONE, NONE},
    {"a copy nobody reads brings nothing", "cp.async.ca.shared.global [%r9], [%rd5], 4;\n"
     "cp.async.commit_group;\ncp.async.wait_group 0;\nmov.b32 %r3, %r2;", 32, B(128, 0, 0, 0),
     B(0, 0, 0, 0), 0, NONE, NONE, 0, NONE, NONE},
    {"a prefetch one fetch ahead of its load serves it", "add.s64 %rd6, %rd5, 128;\n"
     "prefetch.global.L2 [%rd6];\nld.global.u32 %r6, [%rd5];\nld.global.u32 %r3, [%rd6];",
     32, B(128, 0, 0, 0), B(256, 0, 0, 0), 0, NONE, NONE, 0, 100, 1},
    {"a prefetch right before its load leads by 0", "add.s64 %rd6, %rd5, 128;\n"
     "prefetch.global.L2 [%rd6];\nld.global.u32 %r3, [%rd6];", 32, B(128, 0, 0, 0),
     B(128, 0, 0, 0), 0, NONE, NONE, 0, 100, 0},
    {"a prefetch of a line never loaded serves nothing", "add.s64 %rd6, %rd5, 128;\n"
     "prefetch.global.L2 [%rd6];\nmov.b32 %r3, %r2;", 32, B(128, 0, 0, 0), B(0, 0, 0, 0), 0,
     NONE, NONE, 0, 0, NONE},
    {"shfl carries another lane's value", "shfl.sync.idx.b32 %r3, %r2, 0, 31, -1;", 32,
     B(128, 0, 0, 0), B(0, 0, 0, 0), 0, NONE, NONE, 0, NONE, NONE},
    {"through local memory", "mov.u64 %rd20, __local_depot0;\nst.local.u32 [%rd20], %r2;\n"
     "ld.local.u32 %r3, [%rd20];", 32,
     B(128, 0, 0, 0), B(0, 0, 0, 0), 0, NONE, NONE, 0, NONE, NONE},
    {"an atomic's value is live", "atom.global.add.u32 %r5, [%rd4], %r2;", 32,
     B(128, 0, 0, 0), B(0, 0, 0, 0), 0, NONE, NONE, 0, NONE, NONE},
};

static char ptx[8192];

/* Run the case's kernel on one block, watched or not; the report. */
static void run(const watch_case *c, int watch, sim_report *rep)
{
    snprintf(ptx, sizeof ptx, "%s%s\n%s", head, c->body, tail);
    char err[256];
    sim_module *m = sim_load(ptx, err, sizeof err);
    ck_assert_msg(m, "%s: %s", c->name, err);
    /* 128-byte aligned, so that a warp's words share one line */
    uint32_t *in = aligned_alloc(128, 1024), *out = aligned_alloc(128, 1024);
    memset(in, 0, 1024);
    ck_assert_int_eq(sim_mem_add(in, 1024), 0);
    ck_assert_int_eq(sim_mem_add(out, 1024), 0);
    void *args[2] = {&out, &in};
    sim_launch L = {.grid = {1, 1, 1}, .block = {c->threads, 1, 1}, .argp = args,
                    .timeout_s = 5, .watch = watch};
    enum sim_status s = sim_run(m, sim_kernel(m, "t"), &L, rep);
    ck_assert_msg(s == SIM_OK, "%s: %s", c->name, rep->message);
    sim_mem_remove(in);
    sim_mem_remove(out);
    free(in);
    free(out);
    sim_free(m);
}

#define SAME(got, want, what) \
    ck_assert_msg((got) == (want), "%s: %s %g, want %g", c->name, what, (double)(got), \
                  (double)(want))

START_TEST(one_figure)
{
    const watch_case *c = &cases[_i];
    static const char *const path[WP_N] = {"load", "load_v16", "async", "bulk", "const"};
    sim_report rep;
    run(c, 1, &rep);
    const watch_facts *f = &rep.watch;
    ck_assert_int_eq(f->watched, 1);
    ck_assert_uint_eq(f->blocks_run, 1);
    ck_assert_uint_eq(f->blocks_total, 1);
    for (int p = 0; p < WP_N; p++) {
        char what[64];
        snprintf(what, sizeof what, "live %s bytes", path[p]);
        SAME(f->live_bytes[p], c->live[p], what);
        snprintf(what, sizeof what, "dead %s bytes", path[p]);
        SAME(f->dead_bytes[p], c->dead[p], what);
    }
    SAME(f->live_uniform_bytes, c->uniform, "uniform bytes");
    SAME(f->staged_pct, c->staged, "staged %");
    SAME(f->wait_fetches, c->wait, "wait");
    SAME(f->smem_live_pct, c->smem, "shared memory used %");
    SAME(f->prefetch_served_pct, c->served, "prefetch served %");
    SAME(f->prefetch_lead, c->lead, "prefetch lead");
}
END_TEST

/* Unwatched, a launch reports nothing watched (and runs at full speed). */
START_TEST(not_watched_unless_asked)
{
    const watch_case *c = &cases[0];
    sim_report rep;
    run(c, 0, &rep);
    ck_assert_int_eq(rep.watch.watched, 0);
    ck_assert(rep.watch.live_bytes[WP_LOAD] == 0);
}
END_TEST

TCase *sim_watch_tcase(void)
{
    TCase *tc = tcase_create("watch");
    tcase_add_loop_test(tc, one_figure, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, not_watched_unless_asked);
    return tc;
}
