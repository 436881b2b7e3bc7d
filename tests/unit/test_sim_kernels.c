/* test_sim_kernels.c: the course's kernels on the PTX simulator, as `make
 * check` without a GPU runs them (nogpu.c, sim_correctness.h): every
 * solution and baseline is correct, the stubs and the tests/gpu kernels get the verdict
 * their correctness deserves, with the words that say why.
 *
 *   CK_RUN_SUITE=sim_kernels build/tests/unit_tests */
#include <stdint.h>
#include <string.h>
#include "device_sim.h"
#include "knobs.h"
#include "nogpu.h"
#include "sim_correctness.h"
#include "fixture.h"
#include "sim_note.h"
#include "suites.h"

typedef struct kernel_case {
    int lesson;
    const char *name;
    const char *dir;          /* the student directory */
    enum outcome want;        /* CORRECT, or MECHANISM when a check fails: correct on the
                                 simulator */
    const char *text;         /* in the message */
    const char *printed;      /* in what the first launch printed; NULL: nothing */
    const char *also;         /* also in the message or a check's words; NULL: nothing more */
} kernel_case;

#define OK "Correct on the PTX simulator"
#define GPU "tests/gpu/"
#define BASE "grader/baselines"
#define FIX "tests/unit/fixtures/nogpu/"

static const kernel_case cases[] = {
    /* every solution: correct */
    {0, "saxpy", "solutions", OUT_CORRECT, OK},
    {1, "shared_hog", "solutions", OUT_CORRECT, OK},
    {1, "register_hog", "solutions", OUT_CORRECT, OK},
    {2, "mapping", "solutions", OUT_CORRECT, OK},
    {2, "transpose", "solutions", OUT_CORRECT, OK},
    {3, "bank_conflicts", "solutions", OUT_CORRECT, OK},
    {3, "matmul", "solutions", OUT_CORRECT, OK},
    {4, "unroll", "solutions", OUT_CORRECT, OK},
    {4, "vector_loads", "solutions", OUT_CORRECT, OK},
    {5, "batched_regs", "solutions", OUT_CORRECT, OK},
    {6, "batched_smem", "solutions", OUT_CORRECT, OK},
    {7, "rolling_regs", "solutions", OUT_CORRECT, OK},
    {8, "rolling_smem", "solutions", OUT_CORRECT, OK},
    {9, "rolling_async", "solutions", OUT_CORRECT, OK},
    {10, "padded", "solutions", OUT_CORRECT, OK},
    {10, "index_major", "solutions", OUT_CORRECT, OK},
    {11, "l2_prefetch", "solutions", OUT_CORRECT, OK},
    {11, "short_ring", "solutions", OUT_CORRECT, OK},
    {12, "bulk_ring", "solutions", OUT_CORRECT, OK},
    {13, "coefficients", "solutions", OUT_CORRECT, OK},
    {13, "lookup", "solutions", OUT_CORRECT, OK},
    {15, "softmax", "solutions", OUT_CORRECT, OK},
    /* stubs: lesson 0's computes nothing; the others are slow but right,
     * some without their mechanism (MECHANISM), all correct. Baselines:
     * correct (they are the speed bar's trusted kernels). */
    {0, "saxpy", "exercises", OUT_WRONG, "left 1 of 1 output values unwritten"},
    {0, "saxpy", BASE, OUT_CORRECT, OK},
    {1, "shared_hog", "exercises", OUT_MECHANISM, OK},
    {1, "register_hog", "exercises", OUT_MECHANISM, OK},
    {1, "shared_hog", BASE, OUT_MECHANISM, OK},
    {1, "register_hog", BASE, OUT_MECHANISM, OK},
    {2, "mapping", "exercises", OUT_CORRECT, OK},
    {2, "transpose", "exercises", OUT_MECHANISM, OK},
    {2, "mapping", BASE, OUT_CORRECT, OK},
    {2, "transpose", BASE, OUT_MECHANISM, OK},
    {3, "bank_conflicts", "exercises", OUT_CORRECT, OK},
    {3, "matmul", "exercises", OUT_MECHANISM, OK},
    {3, "bank_conflicts", BASE, OUT_CORRECT, OK},
    {3, "matmul", BASE, OUT_MECHANISM, OK},
    {4, "unroll", "exercises", OUT_CORRECT, OK},
    {4, "vector_loads", "exercises", OUT_MECHANISM, OK},
    {4, "unroll", BASE, OUT_CORRECT, OK},
    {4, "vector_loads", BASE, OUT_MECHANISM, OK},
    {5, "batched_regs", "exercises", OUT_CORRECT, OK},
    {5, "batched_regs", BASE, OUT_CORRECT, OK},
    {6, "batched_smem", "exercises", OUT_MECHANISM, OK},
    {6, "batched_smem", BASE, OUT_MECHANISM, OK},
    {7, "rolling_regs", "exercises", OUT_MECHANISM, OK},
    {7, "rolling_regs", BASE, OUT_CORRECT, OK},
    {8, "rolling_smem", "exercises", OUT_MECHANISM, OK},
    {8, "rolling_smem", BASE, OUT_MECHANISM, OK},
    {9, "rolling_async", "exercises", OUT_MECHANISM, OK},
    {9, "rolling_async", BASE, OUT_MECHANISM, OK},
    {10, "padded", "exercises", OUT_MECHANISM, OK},
    {10, "index_major", "exercises", OUT_CORRECT, OK},
    {10, "padded", BASE, OUT_MECHANISM, OK},
    {10, "index_major", BASE, OUT_MECHANISM, OK},
    {11, "l2_prefetch", "exercises", OUT_MECHANISM, OK},
    {11, "short_ring", "exercises", OUT_MECHANISM, OK},
    {11, "l2_prefetch", BASE, OUT_MECHANISM, OK},
    {11, "short_ring", BASE, OUT_MECHANISM, OK},
    {12, "bulk_ring", "exercises", OUT_MECHANISM, OK},
    {12, "bulk_ring", BASE, OUT_MECHANISM, OK},
    {13, "coefficients", "exercises", OUT_MECHANISM, OK},
    {13, "lookup", "exercises", OUT_MECHANISM, OK},
    {13, "coefficients", BASE, OUT_MECHANISM, OK},
    {13, "lookup", BASE, OUT_MECHANISM, OK},
    {15, "softmax", "exercises", OUT_CORRECT, OK},
    {15, "softmax", BASE, OUT_CORRECT, OK},
    /* tests/gpu: races are RACE on every run, their values right or not;
     * hangs and faults named */
    {3, "matmul", GPU "races/matmul_no_first_sync", OUT_RACE,
     "thread (0,2,0) of block (0,0,0) wrote shared memory at line 28 "
     "(st.shared.f32) that thread (0,0,0) read at line 33, with no __syncthreads()"},
    {3, "matmul", GPU "races/matmul_no_second_sync", OUT_RACE,
     "read shared memory at line 34 (ld.shared.f32) that thread (0,14,0) wrote at line 29, "
     "with no __syncthreads()", NULL, "Here it computed 10700 of 10700 values wrong"},
    /* a race whose values come out right is a RACE all the same */
    {0, "saxpy", FIX "race_right_values", OUT_RACE,
     "wrote shared memory at line 15 (st.shared.f32) that thread (0,0,0) read at line 16",
     NULL, "Its results were right here"},
    /* a replay cache in shared memory: a read no thread of the block wrote in
     * this launch is WRONG, its values right or not (issue 27) */
    {0, "saxpy", FIX "unwritten_shared", OUT_WRONG,
     "read shared memory at line 13 (ld.shared.f32) that no thread of its block wrote in this "
     "launch: on a GPU those bytes hold whatever an earlier kernel left there"},
    /* two writers of one word with different values, an atomic against a
     * plain store, an atomic on a never-written word (issue 27) */
    {0, "saxpy", FIX "race_two_writers", OUT_RACE,
     "thread (32,0,0) of block (0,0,0) wrote shared memory at line 12 (st.shared.u32) that "
     "thread (0,0,0) wrote at line 12, a different value", NULL, "Its results were right here"},
    {0, "saxpy", FIX "race_atomic_store", OUT_RACE,
     "wrote shared memory at line 14 (atom.shared.add.u32) atomically, and thread (0,0,0) "
     "wrote it with a plain store at line 13"},
    {0, "saxpy", FIX "unset_atomic", OUT_WRONG,
     "read shared memory at line 13 (atom.shared.add.u32) that no thread of its block wrote "
     "in this launch"},
    /* a missing wait, and lesson 12's refill of the stage being read (issue 27) */
    {9, "rolling_async", FIX "race_missing_wait", OUT_RACE,
     "read shared memory at line 65 (ld.shared.f64) that an asynchronous copy issued at line 55"},
    {12, "bulk_ring", FIX "race_refill_read_stage", OUT_RACE,
     "read shared memory at line 161 (ld.shared.f64) that an asynchronous copy issued at line 99"},
    {9, "rolling_async", GPU "races/async_commit_if_copy", OUT_RACE,
     "read shared memory at line 38 (ld.shared.f64) that an asynchronous copy issued at line 28"},
    {9, "rolling_async", GPU "races/async_wait_prior_pdist", OUT_RACE,
     "read shared memory at line 38 (ld.shared.f64) that an asynchronous copy issued at line 28"},
    {9, "rolling_async", GPU "races/async_wait_group_pdist", OUT_RACE,
     "read shared memory at line 37 (ld.shared.f64) that an asynchronous copy issued at line 26"},
    {0, "saxpy", GPU "faulty/resources", OUT_RESOURCES, "__launch_bounds__"},
    {12, "bulk_ring", GPU "faulty/phase_never_completes", OUT_HANG,
     "8 transaction bytes that no thread or copy will bring. Of the block's 128 threads, 0 wait "
     "at a barrier, 128 on an mbarrier phase and 0 have exited"},
    {0, "saxpy", GPU "faulty/crash", OUT_CRASH, "outside every buffer"},
    {0, "saxpy", GPU "faulty/hang", OUT_HANG,
     "did not finish within the time limit; this thread was running line 7"},
    {0, "saxpy", GPU "faulty/oob", OUT_WRONG, "wrote outside its output array"},
    {0, "saxpy", GPU "faulty/unwritten", OUT_WRONG, "unwritten"},
    /* right, but printing a line per thread: a GPU runs past its launch
     * limit there (HANG on the H200), so CORRECT says why */
    {0, "saxpy", GPU "faulty/printf_flood", OUT_CORRECT, OK, "i=0 x=",
     "At size 1048576 your kernel printed 1048576 lines in one launch"},
    /* replay caches the H200 keeps on chip between launches (issue 25,
     * issue 28 item 1): WRONG here, and with a GPU through the timed
     * launch's sampled blocks (grade/sim_sample.h) */
    {0, "saxpy", GPU "cheats/onchip_replay", OUT_WRONG,
     "Your kernel depends on memory it never wrote: thread (0,0,0) of block (0,0,0) read "
     "local memory at line 28 (ld.local.u64) that its thread did not write in this launch"},
    {0, "saxpy", GPU "cheats/onchip_replay_shared", OUT_WRONG,
     "read shared memory at line 24 (ld.volatile.shared.u64) that no thread of its block "
     "wrote in this launch"},
    {0, "saxpy", GPU "faulty/assert_late", OUT_CRASH,
     "line 14: the kernel stopped itself (a failed assert, or a trap): assert(n <= 4097) at"},
    {15, "softmax", GPU "faulty/softmax_no_max", OUT_WRONG, "values wrong"},
    /* issue 28: every gaming kernel's mechanism, judged by the data watch
     * (rules/watch_rules.h): MECHANISM, the failing figure named */
#define GAME GPU "gaming/"
#define SIM "Your kernel compiles, but on the PTX simulator "
#define NOT_SHARED "only 0% of the live input bytes reached their use through shared memory"
    {9, "rolling_async", GAME "dead_async", OUT_MECHANISM, OK, NULL,
     SIM "only 0% of the live input bytes arrived by cp.async or bulk copies (at least 90%)"},
    {6, "batched_smem", GAME "dead_batch", OUT_MECHANISM, OK, NULL, SIM NOT_SHARED},
    {12, "bulk_ring", GAME "dead_bulk", OUT_MECHANISM, OK, NULL,
     SIM "only 0% of the live input bytes arrived by bulk copies"},
    {13, "coefficients", GAME "dead_constant", OUT_MECHANISM, OK, NULL,
     SIM "only 0% of the live reads that every lane of a warp makes at one address (the "
     "table) came from the constant bank"},
    {4, "vector_loads", GAME "dead_float4", OUT_MECHANISM, OK, NULL,
     SIM "only 0% of the live bytes loaded from global memory came by 16-byte vector loads"},
    {10, "index_major", GAME "dead_index_async", OUT_MECHANISM, OK, NULL, SIM NOT_SHARED},
    {11, "l2_prefetch", GAME "dead_l2_prefetch", OUT_MECHANISM, OK, NULL,
     SIM "no prefetch.global.L2 ran"},
    {10, "padded", GAME "dead_padded_async", OUT_MECHANISM, OK, NULL, SIM NOT_SHARED},
    {8, "rolling_smem", GAME "dead_ring", OUT_MECHANISM, OK, NULL, SIM NOT_SHARED},
    {11, "short_ring", GAME "dead_short_ring", OUT_MECHANISM, OK, NULL,
     SIM "no prefetch.global.L2 ran"},
    {3, "bank_conflicts", GAME "dead_tile_gram", OUT_MECHANISM, OK, NULL, SIM NOT_SHARED},
    {3, "matmul", GAME "dead_tile_matmul", OUT_MECHANISM, OK, NULL, SIM NOT_SHARED},
    {2, "transpose", GAME "dead_tile_transpose", OUT_MECHANISM, OK, NULL, SIM NOT_SHARED},
    {11, "l2_prefetch", GAME "prefetch_behind", OUT_MECHANISM, OK, NULL,
     SIM "only 0% of the live loads found their line prefetched (at least 50%)"},
    {11, "l2_prefetch", GAME "prefetch_now", OUT_MECHANISM, OK, NULL,
     SIM "the prefetches ran a median of 0 fetches ahead of the loads they served (at least 1)"},
    {8, "rolling_smem", GAME "ring_read_back", OUT_MECHANISM, OK, NULL,
     SIM "values waited a median of 0 iterations in shared memory (at least PDIST - 1 = 7); 100% "
     "of the live input bytes reached their use through shared memory"},
    {8, "rolling_smem", GAME "small_ring", OUT_MECHANISM, OK, NULL,
     "12% of the block's shared memory carried live data (at least 50%)"},
    {8, "rolling_smem", GAME "sparse_ring", OUT_MECHANISM, OK, NULL,
     "12% of the block's shared memory carried live data (at least 50%)"},
    /* tell_grid reads %nsmid: refused before it runs (ptx_rules.h). tell_size
     * sees the simulated launch as a judged one (a size within the check
     * sizes): there it uses the ring, so without a GPU it is CORRECT; on a
     * GPU the watch runs on a sample of the timed launch's own blocks. */
    {9, "rolling_async", GAME "tell_grid", OUT_REFUSED, "reads %nsmid"},
    {9, "rolling_async", GAME "tell_guard_words", OUT_MECHANISM, OK, NULL,
     SIM "only 0% of the live input bytes arrived by cp.async or bulk copies"},
    {9, "rolling_async", GAME "tell_size", OUT_CORRECT, OK},
    {9, "rolling_async", GAME "token_async", OUT_MECHANISM, OK, NULL,
     SIM "only 1% of the live input bytes arrived by cp.async or bulk copies"},
    {11, "l2_prefetch", GAME "token_prefetch", OUT_MECHANISM, OK, NULL,
     SIM "only 1% of the live loads found their line prefetched"},
    {8, "rolling_smem", GAME "token_ring", OUT_MECHANISM, OK, NULL,
     SIM "only 1% of the live input bytes reached their use through shared memory"},
    /* issue 28's hybrids: the mechanism carries 90% of the bytes or more */
    {4, "vector_loads", GPU "accepted/lesson4-whole-rounds", OUT_CORRECT, OK, NULL,
     "98% of the live bytes loaded from global memory came by 16-byte vector loads"},
    {9, "rolling_async", GPU "accepted/lesson9-sync-fill", OUT_CORRECT, OK, NULL,
     "93% of the live input bytes arrived by cp.async or bulk copies (at least 90%); values "
     "waited a median of 7 iterations"},
    {3, "matmul", GPU "accepted/lesson3-ragged-direct", OUT_CORRECT, OK, NULL,
     "91% of the live input bytes reached their use through shared memory"},
    {9, "rolling_async", GPU "accepted/lesson9-libcuxx", OUT_CORRECT, OK},
    /* a bulk copy fills several slots at once: the values still wait their
     * iterations (the writer's uses, not its copies) */
    {9, "rolling_async", GPU "accepted/lesson9-bulk", OUT_CORRECT, OK, NULL,
     "100% of the live input bytes arrived by cp.async or bulk copies (at least 90%); values "
     "waited a median of 14 iterations in shared memory (at least PDIST - 1 = 7)"},
    {12, "bulk_ring", GPU "accepted/lesson12-one-asm", OUT_CORRECT, OK, NULL,
     "values waited a median of 14 iterations in shared memory (at least (STAGES - 1) * "
     "STAGE_ITERS = 12)"},
    {11, "l2_prefetch", GPU "accepted/lesson11-libcuxx", OUT_CORRECT, OK, NULL,
     "97% of the live loads found their line prefetched (at least 50%)"},
    {12, "bulk_ring", GPU "accepted/lesson12-libcuxx", OUT_CORRECT, OK},
    {15, "softmax", GPU "accepted/lesson15-shared-tile", OUT_CORRECT, OK},
    /* device printf, shown as a GPU run shows it; a failed assert named */
    /* a shuffle whose other lanes wait at a barrier: HANG naming both (issue 27) */
    {0, "saxpy", FIX "collective_never_met", OUT_HANG,
     "lanes of its warp wait at shfl.sync.bfly.b32 (line 13) for lanes 0xffff0000 of its member "
     "mask 0xffffffff, which never reach a shfl.sync.bfly.b32 with that mask (lane 16 waits at "
     "barrier 0 (line 15))"},
    /* a shuffle in each of two branches: the halves of the warp meet (issue 27) */
    {0, "saxpy", GPU "accepted/lesson0-split-shuffle", OUT_CORRECT, OK},
    {0, "saxpy", GPU "accepted/lesson0-printf", OUT_CORRECT, OK,
     " grid=1056 block=256\n"},
    {0, "saxpy", GPU "faulty/assert_fails", OUT_CRASH,
     "stopped itself (a failed assert, or a trap): assert(n % blockDim.x == 0) at"},
};

static const exercise *find(int lesson, const char *name)
{
    for (const exercise *const *e = lesson_exercises[lesson]; *e; e++)
        if (!strcmp((*e)->name, name))
            return *e;
    ck_abort_msg("no exercise lesson%d/%s", lesson, name);
    return NULL;
}

/* lessonN/name in student folder `dir` at its default knobs, seed 7, on
 * the simulator: the exercise, its knobs and the options. */
static const exercise *on_sim(int lesson, const char *name, const char *dir,
                              int knobs[MAX_KNOBS], grade_opts *o)
{
    const exercise *ex = find(lesson, name);
    knob_defaults(ex, knobs);
    grade_opts_defaults(o);
    o->student_dir = dir;
    o->seed = 7;
    o->simulator = &device_sim;
    return ex;
}

START_TEST(kernel_verdict)
{
    const kernel_case *c = &cases[_i];
    int knobs[MAX_KNOBS];
    grade_opts o;
    const exercise *ex = on_sim(c->lesson, c->name, c->dir, knobs, &o);
    o.launch_timeout_s = 4;   /* the endless loop's HANG; every other launch takes < 1 s alone,
                                 the watched one up to 2x that on a busy machine */
    static result r;
    check_without_gpu(ex, knobs, &o, &r);
    ck_assert_msg(r.outcome == c->want, "lesson%d/%s in %s: %s, want %s: %s", c->lesson,
                  c->name, c->dir, outcome_word(r.outcome), outcome_word(c->want), r.message);
    ck_assert_msg(strstr(r.message, c->text), "lesson%d/%s in %s: '%s' not in: %s", c->lesson,
                  c->name, c->dir, c->text, r.message);
    /* simulated unless it needs a GPU, or was refused before any run */
    ck_assert_int_eq(r.simulated, strstr(c->text, "needs a GPU") == NULL &&
                                  c->want != OUT_REFUSED);
    ck_assert_int_eq(r.correct, !strcmp(c->text, OK));
    int also = !c->also || strstr(r.message, c->also);
    for (int i = 0; i < MAX_CHECKS && !also; i++)
        also = strstr(r.checks[i].what, c->also) != NULL;
    ck_assert_msg(also, "lesson%d/%s in %s: '%s' not in: %s (checks: %s | %s)", c->lesson,
                  c->name, c->dir, c->also, r.message, r.checks[0].what, r.checks[1].what);
    if (c->printed)
        ck_assert_msg(strstr(r.printed, c->printed), "lesson%d/%s in %s printed: %s", c->lesson,
                      c->name, c->dir, r.printed);
    else
        ck_assert_msg(!r.printed[0], "lesson%d/%s in %s printed: %s", c->lesson, c->name, c->dir,
                      r.printed);
}
END_TEST

/* Every tests/gpu fixture whose expect file names a sim_note: the note the
 * GPU suite will look for is the one the simulator gives here (sim_note.h),
 * so a GPU run checks the GPU's part and not our guess of the words. */
static fixture fx[FIXTURE_MAX];
static int nfx;

START_TEST(fixture_sim_notes)
{
    nfx = fixtures_list(fx, FIXTURE_MAX);
    int named = 0;
    for (int i = 0; i < nfx; i++) {
        const fixture *f = &fx[i];
        if (!f->sim_note[0])
            continue;
        named++;
        ck_assert_msg(!f->set[0], "%s: a sim_note with knobs set is not checked here", f->id);
        int knobs[MAX_KNOBS];
        grade_opts o;
        const exercise *ex = on_sim(f->lesson, f->exercise, f->dir, knobs, &o);
        static result r;
        memset(&r, 0, sizeof r);
        sim_note_add(ex, knobs, &o, &r);
        ck_assert_msg(strstr(r.sim_note, f->sim_note), "%s: '%s' not in the note: '%s'", f->id,
                      f->sim_note, r.sim_note);
    }
    ck_assert_int_ge(named, 6);   /* the five races and the phase that never completes */
}
END_TEST

/* Every fixture whose expect file says MECHANISM: the words the GPU suite
 * looks for are the simulator's, since on a GPU too the watch on the timed
 * launch's sampled blocks judges the check (sim_sample.h, watch_checks.h).
 * So an expect file still holding another judge's words fails here, not
 * first on a GPU (faulty/l2dist_elements did, H200 2026-11-29). One
 * fixture differs by design: tell_size takes the simulated sizes for
 * judged ones and uses its ring there; only the timed size shows it. */
static const char *const gpu_only_mechanism[] = {"gaming/tell_size"};

START_TEST(fixture_mechanism_words)
{
    nfx = fixtures_list(fx, FIXTURE_MAX);
    int judged = 0;
    for (int i = 0; i < nfx; i++) {
        const fixture *f = &fx[i];
        int skip = strcmp(f->outcome, "MECHANISM") || f->set[0] || f->env[0];
        for (size_t k = 0; k < sizeof gpu_only_mechanism / sizeof *gpu_only_mechanism; k++)
            skip |= !strcmp(f->id, gpu_only_mechanism[k]);
        if (skip)
            continue;
        judged++;
        int knobs[MAX_KNOBS];
        grade_opts o;
        const exercise *ex = on_sim(f->lesson, f->exercise, f->dir, knobs, &o);
        o.launch_timeout_s = 4;
        static result r;
        check_without_gpu(ex, knobs, &o, &r);
        ck_assert_msg(r.outcome == OUT_MECHANISM, "%s: %s on the simulator, MECHANISM in its "
                      "expect file: %s", f->id, outcome_word(r.outcome), r.message);
        ck_assert_msg(strstr(r.message, f->message), "%s: its expect file's '%s' not in the "
                      "simulator's message: %s", f->id, f->message, r.message);
    }
    ck_assert_int_ge(judged, 20);   /* tests/gpu/gaming and faulty's data-path ones */
}
END_TEST

/* Memory counts by line (mem_counts.h) of course kernels with known
 * answers: the worst instruction of a space and kind, as sectors a request
 * (global) or ways (shared: wavefronts over the conflict-free number). */
typedef struct count_case {
    int lesson;
    const char *name, *dir;
    int space;                /* enum mem_space */
    const char *op;           /* the opcode's first word: "ld", "st" */
    double worst;
} count_case;

static const count_case count_cases[] = {
    /* lesson 2: a lane per row, a warp's 32 stores in 32 rows */
    {2, "mapping", "exercises", MS_GLOBAL, "st", 32},
    /* lesson 3: a [32][32] float tile read down a column: 32-way; padded, none */
    {3, "bank_conflicts", "exercises", MS_SHARED, "ld", 32},
    {3, "bank_conflicts", "solutions", MS_SHARED, "ld", 1},
    {2, "transpose", "solutions", MS_SHARED, "ld", 1},
    /* lessons 6 and 10: doubles thread-major at PDIST 8, gcd(8, 16) = 8 a
     * half-warp; index-major or padded, none */
    {6, "batched_smem", "solutions", MS_SHARED, "ld", 8},
    {10, "padded", "exercises", MS_SHARED, "ld", 8},
    {10, "index_major", "exercises", MS_SHARED, "ld", 8},
    {10, "padded", "solutions", MS_SHARED, "ld", 1},
    {10, "index_major", "solutions", MS_SHARED, "ld", 1},
    /* lesson 0's baseline: a chunk of 4 floats a thread, so a warp's request
     * spans 512 bytes: 16 sectors (Nsight Compute on the H200, 2026-11-29),
     * 17 when the buffer starts mid-sector (malloc's 16-byte alignment) */
    {0, "saxpy", "grader/baselines", MS_GLOBAL, "ld", 16},
    {0, "saxpy", "grader/baselines", MS_GLOBAL, "st", 16},
};

START_TEST(kernel_counts)
{
    const count_case *c = &count_cases[_i];
    int knobs[MAX_KNOBS];
    grade_opts o;
    const exercise *ex = on_sim(c->lesson, c->name, c->dir, knobs, &o);
    static result r;
    memset(&r, 0, sizeof r);
    check_without_gpu(ex, knobs, &o, &r);
    const mem_counts *mc = &r.counts;
    ck_assert_msg(mc->counted && mc->size == sim_largest_size(ex) && mc->n > 0,
                  "lesson%d/%s in %s: counted %d at size %zu, %d rows", c->lesson, c->name,
                  c->dir, mc->counted, mc->size, mc->n);
    double worst = 0;
    for (int i = 0; i < mc->n; i++) {
        const mem_count_row *w = &mc->row[i];
        if (w->space != c->space || strncmp(w->op, c->op, strlen(c->op)) || w->op[2] != '.')
            continue;
        double v = c->space == MS_SHARED ? w->units / w->ideal : w->units / w->requests;
        worst = v > worst ? v : worst;
    }
    ck_assert_msg(worst > c->worst - 0.01 && worst < c->worst + 0.01,
                  "lesson%d/%s in %s: the worst %s %s is %.3f, want %.1f", c->lesson, c->name,
                  c->dir, c->space == MS_SHARED ? "shared" : "global", c->op, worst, c->worst);
}
END_TEST

/* The simulator's device memory starts where cudaMalloc's would: on 256
 * bytes at least (CUDA C++ Programming Guide, Device Memory Accesses), so a
 * warp's sectors and banks are the GPU's. Sizes as the grader asks (whole
 * 2 MiB pages) and odd ones, several held at once. */
START_TEST(sim_alloc_aligned)
{
    static const size_t sizes[] = {1, 100, 4096, 2u << 20, 6u << 20, (2u << 20) + 16};
    enum { N = sizeof sizes / sizeof *sizes };
    void *p[N];
    for (int i = 0; i < N; i++) {
        p[i] = device_sim.alloc(sizes[i]);
        ck_assert_msg((uintptr_t)p[i] % 256 == 0, "alloc(%zu) at %p: not on 256 bytes",
                      sizes[i], p[i]);
    }
    for (int i = 0; i < N; i++)
        device_sim.release(p[i]);
}
END_TEST

Suite *sim_kernels_suite(void)
{
    Suite *s = suite_create("sim_kernels");
    TCase *tc = tcase_create("verdicts");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, kernel_verdict, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, fixture_sim_notes);
    tcase_add_test(tc, fixture_mechanism_words);
    tcase_add_loop_test(tc, kernel_counts, 0, (int)(sizeof count_cases / sizeof *count_cases));
    tcase_add_test(tc, sim_alloc_aligned);
    suite_add_tcase(s, tc);
    return s;
}
