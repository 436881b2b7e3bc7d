/* test_sim_sample.c: with a GPU, the launch that is timed runs again on the
 * simulator for a sample of its blocks (sim_sample.h); what it sees there
 * (a read of memory the launch never wrote, a race, a fault, a hang) is the
 * verdict, naming the blocks. On the host backend: the "GPU" is
 * device_host, the "simulator" device_host again, whose unwritten() and
 * race() report what the PTX simulator's would, and whose kernels can tell
 * a sampled launch (host_call.sample) to fault or hang only there.
 *
 *   CK_RUN_SUITE=sim_sample build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "calibration.h"
#include "pipeline.h"
#include "sim_note.h"
#include "sim_sample.h"
#include "suites.h"

#define UNWRITTEN "thread (3,0,0) of block (0,0,0) read local memory at line 12 (ld.local.f32) " \
    "that it had not written in this launch"
#define RACE "thread (0,0,0) of block (0,0,0) read shared memory at line 9 (ld.shared.f32) " \
    "that thread (32,0,0) wrote at line 8, with no __syncthreads()"
#define SEEN "Seen on the PTX simulator, which ran the launch that was timed (timing input " \
    "set 1 of size 4096: its grid, block, knobs and input values) for blocks 0"

static const char *sees_unwritten(void) { return UNWRITTEN; }
static const char *sees_a_race(void) { return RACE; }
static const char *sees_nothing(void) { return ""; }

static void right(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.010;
}

static void wrong(host_call *c)
{
    axpy_args A = axpy_of(c);
    for (int i = 0; i < A.n; i++)
        A.z[i] = A.a * A.x[i] - A.y[i];
    c->ms = 0.010;
}

/* Right, but it faults, or never ends, in a sampled launch only. */
static void faults_sampled(host_call *c)
{
    right(c);
    if (c->sample)
        c->fault = 700;   /* cudaErrorIllegalAddress */
}

static void hangs_sampled(host_call *c)
{
    right(c);
    if (c->sample)
        c->ms = 1e9;
}

/* A block's work so large that the sample holds the first, the last and
 * two more of the 16 blocks (SAMPLE_WORK / 6 a block). */
static void costly(host_call *c)
{
    right(c);
    c->insns = SAMPLE_WORK / 6 / 256;
}

static int refuses_load(const compiled *c, const char *name, kernel *k, char *log, size_t len)
{
    (void)c, (void)name, (void)k;
    snprintf(log, len, "an instruction it does not run: tex.2d at line 7");
    return OUT_INTERNAL;
}

/* The simulator's compile, noting whether it ran in the grading process. */
static pid_t grading_pid;
static int compiled_here;
static char compiled_mark[64];   /* a file a compile in a child leaves */
static void noting_compile(const compile_job *jobs, int n, compiled *out)
{
    if (getpid() == grading_pid)
        compiled_here = 1;
    else if (compiled_mark[0])
        fclose(fopen(compiled_mark, "w"));
    device_host.compile(jobs, n, out);
}

enum sim_kind { NO_SIM, SIM_CLEAN, SIM_UNWRITTEN, SIM_RACY, SIM_NO_SAMPLE, SIM_NO_LOAD };

typedef struct sample_case {
    const char *name;
    host_fn student;
    enum sim_kind sim;
    enum outcome want;
    const char *words[3];      /* each in the message, in r.sim_note for words[2] */
    int sampled;               /* 1: r.sampled names the blocks; 0: it stays empty */
} sample_case;

static const sample_case cases[] = {
    {"nothing seen: the GPU's pass", right, SIM_CLEAN, OUT_PASS, {NULL}, 1},
    {"an unwritten read: WRONG on the timed launch", right, SIM_UNWRITTEN, OUT_WRONG,
     {"Your kernel depends on memory it never wrote: " UNWRITTEN ". Seen on the PTX", SEEN},
     1},
    {"a race: RACE with both lines", right, SIM_RACY, OUT_RACE,
     {"Your kernel has a race: " RACE ". On a GPU which of the two", SEEN}, 1},
    {"a fault: CRASH", faults_sampled, SIM_CLEAN, OUT_CRASH, {"cudaErrorIllegalAddress", SEEN},
     1},
    {"a hang: HANG", hangs_sampled, SIM_CLEAN, OUT_HANG, {"did not finish", SEEN}, 1},
    {"wrong on the GPU: nothing runs on the simulator", wrong, SIM_RACY, OUT_WRONG, {NULL}, 0},
    {"no simulator: nothing runs", right, NO_SIM, OUT_PASS, {NULL}, 0},
    {"a device that cannot sample: nothing runs", right, SIM_NO_SAMPLE, OUT_PASS, {NULL}, 0},
    {"the simulator cannot run it: a note, no verdict", right, SIM_NO_LOAD, OUT_PASS,
     {NULL, NULL, "The PTX simulator could not run the timed launch's blocks"}, 0},
};

static void sim_for(enum sim_kind k, device_ops *sim)
{
    *sim = device_host;
    sim->compile = noting_compile;
    sim->unwritten = k == SIM_UNWRITTEN ? sees_unwritten : sees_nothing;
    sim->race = k == SIM_RACY ? sees_a_race : sees_nothing;
    if (k == SIM_NO_SAMPLE)
        sim->sample = NULL;
    if (k == SIM_NO_LOAD)
        sim->load = refuses_load;
}

START_TEST(sample_by_case)
{
    const sample_case *c = &cases[_i];
    static device_ops sim;
    sim_for(c->sim, &sim);
    grading_pid = getpid();
    compiled_here = 0;
    grade_opts o = host_opts();
    o.launch_timeout_s = 1;
    o.simulator = c->sim == NO_SIM ? NULL : &sim;
    use_kernels(&t_axpy, c->student);
    static result r;
    grade_host_opts(&t_axpy, &o, &r);
    ck_assert_msg(!compiled_here, "%s: the simulator's compile ran in the grading process",
                  c->name);
    ck_assert_msg(r.outcome == c->want, "%s: %s, want %s: %s", c->name, outcome_word(r.outcome),
                  outcome_word(c->want), r.message);
    for (int w = 0; w < 2; w++)
        if (c->words[w])
            ck_assert_msg(strstr(r.message, c->words[w]), "%s: '%s' not in '%s'", c->name,
                          c->words[w], r.message);
    if (c->words[2])
        ck_assert_msg(strstr(r.sim_note, c->words[2]), "%s: '%s' not in the note '%s'",
                      c->name, c->words[2], r.sim_note);
    else
        ck_assert_msg(!r.sim_note[0], "%s: a note: %s", c->name, r.sim_note);
    if (c->sampled)
        ck_assert_msg(strstr(r.sampled, "blocks 0") && strstr(r.sampled, " of 16"),
                      "%s: sampled '%s'", c->name, r.sampled);
    else
        ck_assert_msg(!r.sampled[0], "%s: sampled '%s'", c->name, r.sampled);
    if (c->want == OUT_RACE)
        ck_assert_str_eq(r.race, RACE);
}
END_TEST

/* The sample: first and last always, the rest drawn from the seed, the
 * same for the same seed, others for others, as many as the work allows. */
START_TEST(sample_by_seed)
{
    static device_ops sim;
    sim_for(SIM_CLEAN, &sim);
    grade_opts o = host_opts();
    o.simulator = &sim;
    use_kernels(&t_axpy, costly);
    static result r;
    char first[320] = "";
    int differ = 0;
    for (unsigned long long seed = 1; seed <= 6; seed++) {
        o.seed = seed;
        grade_host_opts(&t_axpy, &o, &r);
        ck_assert_msg(r.outcome == OUT_PASS, "%s", r.message);
        /* 4 of 16: 0, two drawn, 15 */
        unsigned b[4];
        int end = 0;
        ck_assert_msg(sscanf(r.sampled, "blocks 0, %u, %u and %u of 16%n", &b[1], &b[2], &b[3],
                             &end) == 3 && end == (int)strlen(r.sampled),
                      "seed %llu: '%s'", seed, r.sampled);
        ck_assert_msg(0 < b[1] && b[1] < b[2] && b[2] < 15 && b[3] == 15, "seed %llu: '%s'", seed,
                      r.sampled);
        if (seed == 1)
            snprintf(first, sizeof first, "%s", r.sampled);
        else
            differ += strcmp(first, r.sampled) != 0;
    }
    ck_assert_msg(differ >= 3, "only %d of 5 other seeds drew other blocks than '%s'", differ,
                  first);
    o.seed = 1;
    grade_host_opts(&t_axpy, &o, &r);
    ck_assert_str_eq(r.sampled, first);
}
END_TEST

/* On a GPU other than sm_90 the GPU's PTX is not the simulator's: the
 * student's file is compiled again for sm_90, in the sample's child, never
 * in the grading process (sim_note.h says why). */
START_TEST(compiled_in_the_child)
{
    static device_ops sim;
    sim_for(SIM_UNWRITTEN, &sim);
    device_facts dev;
    calibration_device(&dev);
    dev.cc = 80;
    grade_opts o = host_opts();
    o.simulator = &sim;
    use_kernels(&t_axpy, right);
    host_set_device(&dev, 1000);
    grading_pid = getpid();
    compiled_here = 0;
    snprintf(compiled_mark, sizeof compiled_mark, "/tmp/sim-sample-compiled-%d", (int)getpid());
    unlink(compiled_mark);
    static result r;
    grade_host_opts(&t_axpy, &o, &r);
    ck_assert_msg(!compiled_here, "the simulator's compile ran in the grading process");
    ck_assert_msg(access(compiled_mark, F_OK) == 0, "not compiled for sm_90 in a child");
    unlink(compiled_mark);
    compiled_mark[0] = 0;
    ck_assert_msg(r.outcome == OUT_WRONG, "%s", r.message);
    ck_assert_msg(strstr(r.message, SEEN), "%s", r.message);
    host_reset();
}
END_TEST

/* What the simulator watched on the sample reaches the result, for the
 * mechanism rules, with the blocks it covers. */
static void watches(watch_facts *out)
{
    memset(out, 0, sizeof *out);
    out->watched = 1;
    out->staged_pct = 92;
}

START_TEST(watched_into_the_result)
{
    static device_ops sim;
    sim_for(SIM_CLEAN, &sim);
    sim.watch = watches;
    grade_opts o = host_opts();
    o.simulator = &sim;
    use_kernels(&t_axpy, costly);
    static result r;
    grade_host_opts(&t_axpy, &o, &r);
    ck_assert_msg(r.outcome == OUT_PASS, "%s", r.message);
    ck_assert_int_eq(r.watch.watched, 1);
    ck_assert_double_eq(r.watch.staged_pct, 92);
    ck_assert_uint_eq(r.watch.blocks_run, 4);
    ck_assert_uint_eq(r.watch.blocks_total, 16);
}
END_TEST

/* On a GPU the mechanism checks with a knock kind are judged on what the
 * sampled blocks did with their data (watch_checks.h), not by the
 * knock-out: 95% of the live bytes by 16-byte loads holds, 50% fails with
 * its figure; unwatched (a simulator that cannot watch), the knock-out
 * judges as before. */
static double v16_share;
static void watches_v16(watch_facts *out)
{
    memset(out, 0, sizeof *out);
    out->watched = 1;
    out->live_bytes[WP_LOAD_V16] = v16_share;
    out->live_bytes[WP_LOAD] = 100 - v16_share;
}

START_TEST(watch_judges_the_mechanism)
{
    static exercise ex;
    ex = t_axpy;
    ex.checks[0] = (mech_check){.kind = CHECK_MAX_LOCAL_BYTES, .value = 1 << 20,
                                .why = "teach", .knock = KNOCK_VECTOR};
    ex.checks[1] = (mech_check){.kind = CHECK_NONE};
    static const struct {
        double share;
        enum outcome want;
        enum check_state state;
        const char *what;
    } rows[] = {
        {95, OUT_PASS, CS_HOLDS, "95% of the live bytes loaded from global memory came by "
         "16-byte vector loads"},
        {50, OUT_MECHANISM, CS_FAILS, "only 50% of the live bytes loaded from global memory "
         "came by 16-byte vector loads (at least 90%)"},
    };
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        static device_ops sim;
        sim_for(SIM_CLEAN, &sim);
        sim.watch = watches_v16;
        v16_share = rows[i].share;
        grade_opts o = host_opts();
        o.simulator = &sim;
        use_kernels(&ex, costly);
        static result r;
        grade_host_opts(&ex, &o, &r);
        ck_assert_msg(r.outcome == rows[i].want, "%.0f%%: %s, want %s: %s", rows[i].share,
                      outcome_word(r.outcome), outcome_word(rows[i].want), r.message);
        ck_assert_int_eq(r.checks[0].state, rows[i].state);
        ck_assert_msg(strstr(r.checks[0].what, rows[i].what), "%.0f%%: '%s' not in '%s'",
                      rows[i].share, rows[i].what, r.checks[0].what);
        ck_assert_msg(!strstr(r.checks[0].what, "fed other inputs"), "the knock-out judged "
                      "a watched check: %s", r.checks[0].what);
    }
    /* Not watched: the knock-out's words, as before the simulator watched. */
    static device_ops blind;
    sim_for(SIM_CLEAN, &blind);
    blind.watch = NULL;
    grade_opts o = host_opts();
    o.simulator = &blind;
    use_kernels(&ex, costly);
    static result r;
    grade_host_opts(&ex, &o, &r);
    ck_assert_int_eq(r.watch.watched, 0);
    ck_assert_msg(!strstr(r.checks[0].what, "16-byte vector loads"), "watched without a "
                  "watch: %s", r.checks[0].what);
}
END_TEST

/* blocks_text alone: how the report names a sample. */
START_TEST(blocks_named)
{
    static const unsigned b[14] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 19};
    static const struct {
        unsigned n, total;
        const char *text;
    } t[] = {{1, 1, "block 0 of 1"},
             {2, 4, "blocks 0 and 1 of 4"},
             {3, 4, "blocks 0, 1 and 2 of 4"},
             {12, 20, "blocks 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 11 of 20"},
             {14, 20, "blocks 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 2 more of 20"}};
    for (unsigned i = 0; i < sizeof t / sizeof *t; i++) {
        char buf[320];
        blocks_text(b, t[i].n, t[i].total, buf, sizeof buf);
        ck_assert_str_eq(buf, t[i].text);
    }
}
END_TEST

/* sample_blocks alone: a table of grids and asks. */
START_TEST(blocks_drawn)
{
    static const struct {
        unsigned total, want, n;
    } t[] = {{1, 2, 1}, {2, 2, 2}, {3, 5, 3}, {16, 2, 2}, {16, 16, 16}, {1000, 10, 10},
             {100000, 100000, SAMPLE_MAX_BLOCKS}, {7, 0, 2}};
    for (unsigned i = 0; i < sizeof t / sizeof *t; i++) {
        unsigned b[SAMPLE_MAX_BLOCKS];
        unsigned n = sample_blocks(42, t[i].total, t[i].want, b);
        ck_assert_msg(n == t[i].n, "grid %u, want %u: %u blocks", t[i].total, t[i].want, n);
        ck_assert_uint_eq(b[0], 0);
        ck_assert_uint_eq(b[n - 1], t[i].total - 1);
        for (unsigned k = 1; k < n; k++)
            ck_assert_msg(b[k - 1] < b[k], "grid %u: not ascending at %u", t[i].total, k);
    }
}
END_TEST

Suite *sim_sample_suite(void)
{
    Suite *s = suite_create("sim_sample");
    TCase *tc = tcase_create("sampled");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, sample_by_case, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, sample_by_seed);
    tcase_add_test(tc, blocks_drawn);
    tcase_add_test(tc, blocks_named);
    tcase_add_test(tc, watched_into_the_result);
    tcase_add_test(tc, watch_judges_the_mechanism);
    tcase_add_test(tc, compiled_in_the_child);
    suite_add_tcase(s, tc);
    return s;
}
