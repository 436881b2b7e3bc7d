/* test_knockout_run.c: the knock-out run itself (grader/grade/knockout_run.c)
 * on the host backend, at its thresholds: a data mechanism holds when at
 * least 90% of the outputs come through it; a prefetch when it covers at
 * least 20% of the input's lines and at least half of the lines both
 * prefetched and loaded are prefetched ahead; a shared buffer when at
 * least half of its asked bytes receive data. And what else it decides: a
 * second input set of another shape is not judged, a copy that cannot be
 * loaded is the grader's fault, the copy's register cap, one run per kind
 * for several checks, the words the check then says. The rewrite itself
 * (rules/knockout*.c) is test_knockout.c's; this suite needs no NVRTC.
 *
 *   CK_RUN_SUITE=knockout_run build/tests/unit_tests */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include "child.h"
#include "knockout.h"
#include "pipeline.h"
#include "suites.h"

#define ENTRY ".visible .entry k(\n)\n{\n\t.reg .f32 \t%f<9>;\n\t.reg .b32 \t%r<9>;\n" \
              "\t.reg .b64 \t%rd<9>;\n"

static const char async_ptx[] = ENTRY "\tcp.async.ca.shared.global [%r1], [%rd2], 4, 4;\n"
                                      "\tret;\n}\n";
static const char prefetch_ptx[] = ENTRY "\tprefetch.global.L2 [%rd2];\n\tret;\n}\n";
static const char staged_ptx[] = ENTRY "\tld.global.f32 \t%f1, [%rd1];\n"
                                       "\tst.shared.f32 \t[%rd2], %f1;\n\tret;\n}\n";

/* What the instance's shape differs in between set A and set B (the
 * third build at the largest size: the correctness run's, A's, B's). */
enum shape_diff { SAME, D_GRID, D_BLOCK, D_SMEM, D_NARGS, D_ARG_I, D_ARG_F, D_ARG_D, D_COUNT,
                  D_TYPE, D_NBUFS, D_FIRST_COUNT };
static enum shape_diff differ;
static int builds_at_largest;
static unsigned block = 256;

/* z = 2x + y over n floats, with a double argument the kernel ignores. */
static void fixed_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    int b = n == 1000 && ++builds_at_largest == 3 ? 1 : 0;   /* set B */
    enum shape_diff d = b ? differ : SAME;
    float *x = inst_input(I, n + (d == D_FIRST_COUNT), ELEM_F32);
    float *y = inst_input(I, n, ELEM_F32);
    double *z = inst_output(I, n, ELEM_F32);
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)((int)(inst_u32(I) % 2000) - 1000) / 1024.0f;
        y[i] = (float)((int)(inst_u32(I) % 2000) - 1000) / 1024.0f;
        z[i] = 2.0 * x[i] + y[i];
    }
    inst_arg_float(I, d == D_ARG_F ? 2.5f : 2.0f);
    inst_arg_int(I, (int)n + (d == D_ARG_I));
    if (d == D_COUNT)
        inst_input(I, 8, ELEM_F32);
    else if (d == D_TYPE)
        inst_input(I, 7, ELEM_I32);
    else if (d != D_NBUFS)
        inst_input(I, 7, ELEM_F32);
    inst_arg_double(I, d == D_ARG_D ? 0.5 : 0.25);
    if (d == D_NARGS)
        inst_arg_int(I, 0);
    if (block == 320)       /* a block of 8 x 4 x 10 */
        inst_launch(I, (unsigned)((n + block - 1) / block), 1, 1, 8, 4, 10, 0);
    else
        inst_launch(I, (unsigned)((n + block - 1) / block) + (d == D_GRID), 1, 1,
                    d == D_BLOCK ? block / 2 : block, d == D_BLOCK ? 2 : 1, 1,
                    d == D_SMEM ? 16 : 0);
    inst_bytes_moved(I, 12.0 * (double)n);
}

#define CHECK(KIND, TEXT, VALUE, K) {KIND, TEXT, VALUE, NULL, "teach", .knock = K}

static exercise exercise_of(mech_check c)
{
    exercise ex = {
        .lesson = 0, .name = "t_knock", .title = "test: a mechanism on the data path",
        .file = "t/axpy.cu", .kernel = "axpy", .check_sizes = {1, 100, 1000, 0},
        .time_size = 4096, .build = fixed_build, .rtol = 1e-5, .atol = 1e-6,
        .bar = BAR_SPEEDUP, .bar_share = 0.5, .bar_floor = 1.2,
        .checks = {c},
    };
    return ex;
}

/* The arguments: x, y, z, a, n, a 7-float input, d. Every buffer, in the
 * arena as anywhere, is aligned for a 16-byte vector load: one that is not
 * gets no results. */
static void run(host_call *c, int carried)
{
    axpy_args A = axpy_of(c);
    const void *bufs[4] = {A.x, A.y, A.z, *(float **)c->args[5]};
    for (int b = 0; b < 4; b++)
        if ((uintptr_t)bufs[b] % 16)
            return;
    for (int i = 0; i < A.n; i++) {
        long long d = i < carried ? c->delta : 0;
        A.z[i] = A.a * *(float *)((char *)&A.x[i] + d) + *(float *)((char *)&A.y[i] + d);
    }
    c->ms = 0.010;
}

static void plain(host_call *c) { run(c, 0); }
static int carried;
static void carries_some(host_call *c) { run(c, carried); }
static void carries_all(host_call *c) { run(c, 1 << 30); }

static int smem_static = 1024;

static void grade_with(const exercise *ex, const char *ptx, host_fn knocked, result *r)
{
    use_kernels(ex, plain);
    host_module m = student_module(ex, plain);
    m.ptx = ptx;
    m.knocked = knocked;
    m.res.smem_static = smem_static;
    ck_assert_int_eq(host_add(&m), 0);
    builds_at_largest = 0;
    grade_host(ex, 0, r);
}

static void check_says(const result *r, enum outcome o, enum check_state st, const char *what)
{
    ck_assert_msg(r->outcome == o, "expected %s, got %s: %s", outcome_word(o),
                  outcome_word(r->outcome), r->message);
    ck_assert_int_eq(r->checks[0].state, st);
    ck_assert_str_eq(r->checks[0].what, what);
}

/* ---- data: 90% of the outputs -------------------------------------------- */

START_TEST(data_through_the_mechanism)
{
    exercise ex = exercise_of((mech_check)CHECK(CHECK_PTX_HAS, "cp.async", 0, KNOCK_ASYNC));
    result r;
    grade_with(&ex, async_ptx, carries_all, &r);
    check_says(&r, OUT_PASS, CS_HOLDS, "the PTX has 'cp.async'; the results come through its "
               "asynchronous copies (cp.async): fed other inputs only that way, the kernel "
               "returned their results (1000 of 1000)");
    carried = 900;
    grade_with(&ex, async_ptx, carries_some, &r);
    check_says(&r, OUT_PASS, CS_HOLDS, "the PTX has 'cp.async'; the results come through its "
               "asynchronous copies (cp.async): fed other inputs only that way, the kernel "
               "returned their results (900 of 1000)");
    carried = 899;
    grade_with(&ex, async_ptx, carries_some, &r);
    check_says(&r, OUT_MECHANISM, CS_FAILS, "the PTX has 'cp.async', but the results do not "
               "come through its asynchronous copies (cp.async): fed other inputs only that way, "
               "the kernel returned their results on 899 of 1000 outputs");
    ck_assert_str_eq(r.failed_check, "teach");
    /* Nothing in the PTX that the rewrite can redirect: a cp.async that
     * copies nothing (a comment naming one fails the text check first). */
    grade_with(&ex, ENTRY "\tcp.async.commit_group;\n\tret;\n}\n", carries_all, &r);
    check_says(&r, OUT_MECHANISM, CS_FAILS, "the PTX has 'cp.async', but no instruction in "
               "its PTX moves data from device memory through its asynchronous copies "
               "(cp.async)");
}
END_TEST

/* A second input set of another shape: one delta cannot serve both, so
 * the data path is not judged (and not failed). */
START_TEST(other_shape_is_not_judged)
{
    exercise ex = exercise_of((mech_check)CHECK(CHECK_PTX_HAS, "cp.async", 0, KNOCK_ASYNC));
    static const enum shape_diff diffs[] = {D_GRID, D_BLOCK, D_SMEM, D_NARGS, D_ARG_I, D_ARG_F,
                                            D_ARG_D, D_COUNT, D_TYPE, D_NBUFS, D_FIRST_COUNT};
    for (size_t i = 0; i < sizeof diffs / sizeof diffs[0]; i++) {
        differ = diffs[i];
        result r;
        grade_with(&ex, async_ptx, carries_all, &r);
        ck_assert_msg(r.checks[0].state == CS_UNKNOWN, "shape difference %d: state %d (%s)",
                      (int)differ, r.checks[0].state, r.checks[0].what);
        ck_assert_str_eq(r.checks[0].what, "the PTX has 'cp.async', but whether it carries the "
                         "data could not be judged: a second input set differs in shape");
        ck_assert_int_eq(r.outcome, OUT_PASS);
    }
    differ = SAME;
}
END_TEST

/* A copy the device will not load: not the student's fault, not a pass. */
START_TEST(copy_that_does_not_load_is_internal)
{
    exercise ex = exercise_of((mech_check)CHECK(CHECK_PTX_HAS, "cp.async", 0, KNOCK_ASYNC));
    use_kernels(&ex, plain);
    host_module m = student_module(&ex, plain);
    m.ptx = async_ptx;
    m.knocked = carries_all;
    m.knocked_log = "ptxas fatal : the rewritten copy\nmore of the log";
    ck_assert_int_eq(host_add(&m), 0);
    result r;
    builds_at_largest = 0;
    grade_host(&ex, 0, &r);
    ck_assert_int_eq(r.outcome, OUT_INTERNAL);
    ck_assert_str_eq(r.message, "Your kernel is correct, but the grader could not load the "
                     "copy of it that checks whether the results come through its asynchronous "
                     "copies (cp.async) (cudaLibraryLoadData: cudaErrorInvalidPtx (a PTX JIT "
                     "compilation failed). This means the driver cannot load the compiled "
                     "kernel: the driver may be older than the CUDA toolkit used to build it "
                     "(update the driver, or use the toolkit that matches it via CUDA_HOME).). "
                     "This is a bug in the grader, not in your kernel; please report it.");
    ck_assert_ptr_nonnull(strstr(r.detail, "more of the log"));
}
END_TEST

/* The copy's extra loads take registers: it is capped at what one block
 * of the launch may have (the SM's registers over the block's threads,
 * rounded up to whole warps; a block of 320 is 8 x 4 x 10), in steps of
 * 8, at most 255. */
static int want_regs;
static void carries_if_capped(host_call *c) { run(c, c->max_regs == want_regs ? 1 << 30 : 0); }

static void block_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    block = knobs[0] ? (unsigned)knobs[0] : 256;
    fixed_build(I, n, knobs, dev);
    block = 256;
}

START_TEST(copy_register_cap)
{
    static const struct { int block, regs_per_sm, want; } t[] = {
        {256, 65536, 255}, {1024, 65536, 64}, {320, 65536, 200}, {300, 65536, 200},
        {289, 65536, 200}, {320, 32768, 96}, {512, 0, 128},
    };
    exercise ex = exercise_of((mech_check)CHECK(CHECK_PTX_HAS, "cp.async", 0, KNOCK_ASYNC));
    ex.build = block_build;
    ex.knobs[0] = (knob){"BLOCK", 256, 32, 1024, 0, "threads per block"};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        use_kernels(&ex, plain);
        host_module m = student_module(&ex, plain);
        m.ptx = async_ptx;
        m.knocked = carries_if_capped;
        ck_assert_int_eq(host_add(&m), 0);
        device_facts dev;
        char why[64];
        ck_assert_int_eq(device_host.probe(&dev, why, sizeof why), 0);
        dev.regs_per_sm = t[i].regs_per_sm;
        host_set_device(&dev, 1000);
        want_regs = t[i].want;
        builds_at_largest = 0;
        result r;
        int knobs[MAX_KNOBS] = {t[i].block};
        grade_opts o = host_opts();
        grade_in_child(&ex, knobs, &o, 20, &r);
        ck_assert_msg(r.checks[0].state == CS_HOLDS, "block %d, %d registers per SM: not "
                      "capped at %d (%s)", t[i].block, t[i].regs_per_sm, t[i].want,
                      r.checks[0].what);
    }
}
END_TEST

/* ---- shared memory: half the asked bytes ---------------------------------- */

static unsigned span_lo = 64, span_bytes;
static int span_written = 1;
static void staged(host_call *c)
{
    carries_all(c);
    if (c->span && span_written) {
        c->span[0] = span_lo;
        c->span[1] = span_lo + span_bytes;
    }
}

static long twice_tile(const int *knobs)
{
    (void)knobs;
    return 2048;
}

START_TEST(shared_buffer_span)
{
    exercise ex = exercise_of((mech_check)CHECK(CHECK_SMEM_BYTES, NULL, 1024, KNOCK_SHARED));
    result r;
    span_bytes = 512;
    grade_with(&ex, staged_ptx, staged, &r);
    ck_assert_int_eq(r.checks[0].state, CS_HOLDS);
    ck_assert_ptr_nonnull(strstr(r.checks[0].what, "; the results come through what it stages "
                                                   "in shared memory: fed other inputs only "
                                                   "that way, the kernel returned their "
                                                   "results (1000 of 1000)"));
    span_bytes = 511;
    grade_with(&ex, staged_ptx, staged, &r);
    ck_assert_int_eq(r.checks[0].state, CS_FAILS);
    ck_assert_ptr_nonnull(strstr(r.checks[0].what, ", but only 511 of those bytes receive "
                                                   "loaded data (lowest to highest address "
                                                   "written): the rest of the buffer carries "
                                                   "nothing"));
    ck_assert_int_eq(r.outcome, OUT_MECHANISM);
    /* Highest under lowest: nothing spanned. */
    span_lo = 900, span_bytes = (unsigned)-100;
    grade_with(&ex, staged_ptx, staged, &r);
    ck_assert_ptr_nonnull(strstr(r.checks[0].what, "only 0 of those bytes"));
    span_lo = 64;
    /* The counters untouched: the span is not known, the data decides. */
    span_written = 0;
    grade_with(&ex, staged_ptx, staged, &r);
    ck_assert_int_eq(r.checks[0].state, CS_HOLDS);
    span_written = 1;
    /* The asked size from the knobs, when the check computes it. */
    ex.checks[0].expect = twice_tile;
    smem_static = 2048;
    span_bytes = 1024;
    grade_with(&ex, staged_ptx, staged, &r);
    ck_assert_int_eq(r.checks[0].state, CS_HOLDS);
    span_bytes = 1023;
    grade_with(&ex, staged_ptx, staged, &r);
    ck_assert_int_eq(r.checks[0].state, CS_FAILS);
    smem_static = 1024;
}
END_TEST

/* ---- prefetch: 20% of the lines, half of them ahead ---------------------- */

/* The 128-byte lines of the inputs x, y and the 7-float one, as the
 * census counts them: from the line of each one's first byte to the line
 * of its last. */
typedef struct lines {
    uintptr_t first[3];
    int count[3], total;
} lines;

static lines lines_of(const host_call *c)
{
    axpy_args A = axpy_of(c);
    const float *in[3] = {A.x, A.y, *(float **)c->args[5]};
    int n[3] = {A.n, A.n, 7};
    lines L = {.total = 0};
    for (int k = 0; k < 3; k++) {
        uintptr_t lo = (uintptr_t)in[k] & ~(uintptr_t)(KNOCK_LINE - 1);
        uintptr_t hi = ((uintptr_t)(in[k] + n[k]) + KNOCK_LINE - 1) &
                       ~(uintptr_t)(KNOCK_LINE - 1);
        L.first[k] = lo;
        L.count[k] = (int)((hi - lo) / KNOCK_LINE);
        L.total += L.count[k];
    }
    return L;
}

/* Line j of the inputs, in that order, in set B's half. */
static unsigned *slot(const host_call *c, const lines *L, int j, int at)
{
    int k = 0;
    while (j >= L->count[k])
        j -= L->count[k++];
    uintptr_t line = L->first[k] + (uintptr_t)j * KNOCK_LINE;
    return (unsigned *)(line + (uintptr_t)c->delta + (uintptr_t)at);
}

/* How many lines are prefetched (-1: a fifth, rounded up; -2: one fewer;
 * at most all), how many of those are loaded too, and how many of these
 * ahead; the last line, when not prefetched, is loaded. */
static int fetch_lines, load_lines, ahead_lines;

static void marks(host_call *c)
{
    plain(c);
    if (!c->delta)
        return;
    lines L = lines_of(c);
    int p = fetch_lines >= 0 ? fetch_lines : (L.total + 4) / 5 - (fetch_lines == -2);
    p = p < L.total ? p : L.total;
    for (int j = 0; j < p; j++) {
        *slot(c, &L, j, KNOCK_PREFETCHED_AT) = 5;
        if (j < load_lines)
            *slot(c, &L, j, KNOCK_LOADED_AT) = j < ahead_lines ? 6 : 5;
    }
    /* A line loaded but never prefetched counts for neither. */
    if (p < L.total)
        *slot(c, &L, L.total - 1, KNOCK_LOADED_AT) = 9;
}

static void prefetch_case(int fetch, int load, int ahead, result *r)
{
    fetch_lines = fetch, load_lines = load, ahead_lines = ahead;
    exercise ex = exercise_of((mech_check)CHECK(CHECK_PTX_HAS, "prefetch.global.L2", 0,
                                                KNOCK_PREFETCH));
    grade_with(&ex, prefetch_ptx, marks, r);
}

START_TEST(prefetch_thresholds)
{
    result r;
    /* A fifth of the lines, none loaded: coverage alone decides. */
    prefetch_case(-1, 0, 0, &r);
    ck_assert_int_eq(r.checks[0].state, CS_HOLDS);
    ck_assert_ptr_nonnull(strstr(r.checks[0].what, "the PTX has 'prefetch.global.L2'; its "
                                                   "prefetches cover 2"));
    ck_assert_ptr_nonnull(strstr(r.checks[0].what, "% of the input's 128-byte lines (no load "
                                                   "of those lines was seen, so whether they "
                                                   "run ahead was not judged)"));
    prefetch_case(-2, 0, 0, &r);
    ck_assert_int_eq(r.checks[0].state, CS_FAILS);
    ck_assert_ptr_nonnull(strstr(r.checks[0].what, "the PTX has 'prefetch.global.L2', but its "
                                                   "prefetches ran for only 1"));
    ck_assert_ptr_nonnull(strstr(r.checks[0].what, "% of the input's 128-byte lines (at least "
                                                   "20%): a prefetch that is never taken, or "
                                                   "for a few elements, hides nothing"));
    /* Every line prefetched; of the 10 also loaded, half ahead. */
    prefetch_case(1000, 10, 5, &r);
    check_says(&r, OUT_PASS, CS_HOLDS, "the PTX has 'prefetch.global.L2'; its prefetches cover "
               "100% of the input's 128-byte lines, 50% of them ahead of their load");
    prefetch_case(1000, 10, 4, &r);
    check_says(&r, OUT_MECHANISM, CS_FAILS, "the PTX has 'prefetch.global.L2', but only 40% of "
               "its prefetches run ahead of their line's first load (at least 50%): prefetch "
               "L2DIST * BLOCKDIMX elements ahead, past what is loaded now");
    /* Prefetched at the load's own count is not ahead of it. */
    prefetch_case(1000, 10, 0, &r);
    ck_assert_ptr_nonnull(strstr(r.checks[0].what, "but only 0% of its prefetches run ahead"));
}
END_TEST

/* The knocked copy leaves the grader no memory for the census of the
 * prefetched lines: the grader's fault, said so. */
static void starves(host_call *c)
{
    marks(c);
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%lu", &pages) != 1)
        _exit(99);
    fclose(f);
    rlim_t now = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
    struct rlimit rl = {.rlim_cur = now + (1u << 20), .rlim_max = RLIM_INFINITY};
    setrlimit(RLIMIT_AS, &rl);
}

START_TEST(no_memory_for_the_census)
{
    fetch_lines = 1000, load_lines = 0, ahead_lines = 0;
    exercise ex = exercise_of((mech_check)CHECK(CHECK_PTX_HAS, "prefetch.global.L2", 0,
                                                KNOCK_PREFETCH));
    result r;
    grade_with(&ex, prefetch_ptx, starves, &r);
    ck_assert_int_eq(r.outcome, OUT_INTERNAL);
    ck_assert_str_eq(r.message, "The grader ran out of memory for the knock-out run's census "
                     "of prefetched lines.");
}
END_TEST

/* ---- several checks ------------------------------------------------------- */

/* Two checks of one kind share one run; a check that already fails, or
 * names no knock-out, is left as it was; the check's own finding keeps
 * what comes before its parenthesis. */
START_TEST(checks_share_one_run)
{
    exercise ex = exercise_of((mech_check)CHECK(CHECK_PTX_HAS, "cp.async", 0, KNOCK_ASYNC));
    ex.checks[1] = (mech_check)CHECK(CHECK_PTX_HAS, "ld.shared", 0, KNOCK_NONE);
    ex.checks[2] = (mech_check)CHECK(CHECK_SMEM_BYTES, NULL, 1024, KNOCK_ASYNC);
    ex.checks[3] = (mech_check)CHECK(CHECK_PTX_HAS, "cp.async.cg", 0, KNOCK_ASYNC);
    ex.checks[4] = (mech_check)CHECK(CHECK_PTX_HAS, "cp.async.ca", 0, KNOCK_ASYNC);
    result r;
    carried = 950;
    grade_with(&ex, ENTRY "\tcp.async.ca.shared.global [%r1], [%rd2], 4, 4;\n"
                          "\tld.shared.f32 \t%f1, [%r1];\n\tret;\n}\n", carries_some, &r);
    const char *through = "the results come through its asynchronous copies (cp.async): fed "
                          "other inputs only that way, the kernel returned their results "
                          "(950 of 1000)";
    char want[512];
    snprintf(want, sizeof want, "the PTX has 'cp.async'; %s", through);
    ck_assert_str_eq(r.checks[0].what, want);
    ck_assert_str_eq(r.checks[1].what, "the PTX has 'ld.shared'");
    /* "... as this exercise asks (1024)": cut at its parenthesis, without
     * the space before it. */
    snprintf(want, sizeof want, "the kernel uses 1024 bytes of shared memory per block, as "
             "this exercise asks; %s", through);
    ck_assert_str_eq(r.checks[2].what, want);
    ck_assert_int_eq(r.checks[3].state, CS_FAILS);
    ck_assert_str_eq(r.checks[3].what, "the PTX has no 'cp.async.cg' instruction");
    snprintf(want, sizeof want, "the PTX has 'cp.async.ca'; %s", through);
    ck_assert_str_eq(r.checks[4].what, want);
    ck_assert_int_eq(r.outcome, OUT_MECHANISM);
}
END_TEST

/* ---- each copy is unloaded ---------------------------------------------- */

/* What the grading child loaded and unloaded, in memory it shares with the
 * test: the copies load_ptx gave and how many of them went back. */
static struct copies {
    int loaded, unloaded;
    void *fn[16];
} *copies;

static int counting_load_ptx(const compiled *c, const char *ptx, int max_regs,
                             const char *name, kernel *k, char *log, size_t len)
{
    int o = device_host.load_ptx(c, ptx, max_regs, name, k, log, len);
    if (o == 0 && copies->loaded < 16)
        copies->fn[copies->loaded++] = k->fn;
    return o;
}

static void counting_unload(kernel *k)
{
    for (int i = 0; i < copies->loaded; i++)
        if (k->fn && k->fn == copies->fn[i]) {
            copies->fn[i] = NULL;
            copies->unloaded++;
        }
    device_host.unload(k);
}

START_TEST(copies_are_unloaded)
{
    /* A knocked copy is a module of its own on the GPU: each one loaded is
     * unloaded once its run is judged, so many checks do not pile them up. */
    copies = mmap(NULL, sizeof *copies, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                  -1, 0);
    ck_assert_ptr_ne(copies, MAP_FAILED);
    memset(copies, 0, sizeof *copies);
    static device_ops counting;
    counting = device_host;
    counting.load_ptx = counting_load_ptx;
    counting.unload = counting_unload;
    exercise ex = exercise_of((mech_check)CHECK(CHECK_PTX_HAS, "cp.async", 0, KNOCK_ASYNC));
    use_kernels(&ex, plain);
    host_module m = student_module(&ex, plain);
    m.ptx = async_ptx;
    m.knocked = carries_all;
    ck_assert_int_eq(host_add(&m), 0);
    builds_at_largest = 0;
    grade_opts o = host_opts();
    o.device = &counting;
    result r;
    grade_host_opts(&ex, &o, &r);
    ck_assert_msg(r.outcome == OUT_PASS, "%s", r.message);
    ck_assert_int_eq(copies->loaded, 1);
    ck_assert_int_eq(copies->unloaded, 1);
    munmap(copies, sizeof *copies);
}
END_TEST

/* A stop during the knock-out run names it. */
START_TEST(knockout_stage_is_named)
{
    exercise ex = exercise_of((mech_check)CHECK(CHECK_PTX_HAS, "cp.async", 0, KNOCK_ASYNC));
    use_kernels(&ex, plain);
    host_module m = student_module(&ex, plain);
    m.ptx = async_ptx;
    m.knocked = carries_all;
    ck_assert_int_eq(host_add(&m), 0);
    host_crash_in("running a copy of student whose its asynchronous copies (cp.async) read "
                  "other inputs");
    builds_at_largest = 0;
    result r;
    grade_host(&ex, 0, &r);
    ck_assert_int_eq(r.outcome, OUT_CRASH);
    ck_assert_str_eq(r.message, "The grading process died from signal 11 (Segmentation fault) "
                     "while running a copy of student whose its asynchronous copies (cp.async) "
                     "read other inputs. Run it again with SANITIZE=1 to look for bad memory "
                     "accesses.");
}
END_TEST

Suite *knockout_run_suite(void)
{
    Suite *s = suite_create("knockout_run");
    TCase *tc = tcase_create("knockout_run");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, data_through_the_mechanism);
    tcase_add_test(tc, other_shape_is_not_judged);
    tcase_add_test(tc, copy_that_does_not_load_is_internal);
    tcase_add_test(tc, copy_register_cap);
    tcase_add_test(tc, shared_buffer_span);
    tcase_add_test(tc, prefetch_thresholds);
    tcase_add_test(tc, no_memory_for_the_census);
    tcase_add_test(tc, checks_share_one_run);
    tcase_add_test(tc, knockout_stage_is_named);
    tcase_add_test(tc, copies_are_unloaded);
    suite_add_tcase(s, tc);
    return s;
}
