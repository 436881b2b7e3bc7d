/* test_knockout_arena.c: the memory a knock-out copy runs in
 * (grader/grade/knockout_run.c), as a kernel sees it: each buffer sits
 * between two guards of GUARD_BYTES and the next one starts 256-aligned
 * after both, the second input set (set B) lies `delta` bytes further, one
 * half later; guards and output slots of both halves hold zeros; and set
 * B's inputs are the ones --seed XOR "knock" builds, so a grading is
 * reproducible from its seed. On the host backend: the knocked kernel
 * carries the data only when all that holds, so the check's state says.
 *
 *   CK_RUN_SUITE=knockout_arena build/tests/unit_tests */
#include <stdint.h>
#include <string.h>
#include "buffers.h"
#include "child.h"
#include "knockout.h"
#include "pipeline.h"
#include "suites.h"

#define N 1000
#define SEED 42

/* z = 2x + y over n floats: the argument `a` fixed, so that sets A and B
 * share their shape and one launch serves both. */
static void fixed_axpy_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    float *x = inst_input(I, n, ELEM_F32);
    float *y = inst_input(I, n, ELEM_F32);
    double *z = inst_output(I, n, ELEM_F32);
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)((int)(inst_u32(I) % 2000) - 1000) / 1024.0f;
        y[i] = (float)((int)(inst_u32(I) % 2000) - 1000) / 1024.0f;
        z[i] = 2.0 * x[i] + y[i];
    }
    inst_arg_float(I, 2.0f);
    inst_arg_int(I, (int)n);
    inst_launch(I, (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1, 0);
    inst_bytes_moved(I, 12.0 * (double)n);
}

static const exercise ex = {
    .lesson = 0, .name = "t_arena", .title = "test: the knock-out arena", .file = "t/axpy.cu",
    .kernel = "axpy", .check_sizes = {1, 100, N, 0}, .time_size = 4096,
    .build = fixed_axpy_build, .rtol = 1e-5, .atol = 1e-6, .bar = BAR_SPEEDUP,
    .bar_share = 0.5, .bar_floor = 1.2,
    .checks = {{CHECK_PTX_HAS, "cp.async", 0, NULL, "teach", .knock = KNOCK_ASYNC}},
};

static const char async_ptx[] = ".visible .entry k(\n)\n{\n\t.reg .b32 \t%r<9>;\n"
                                "\t.reg .b64 \t%rd<9>;\n"
                                "\tcp.async.ca.shared.global [%r1], [%rd2], 4, 4;\n\tret;\n}\n";

static float want_bx[N], want_by[N];   /* set B's inputs, built here */

static int zeros(const char *p, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        if (p[i])
            return 0;
    return 1;
}

/* The slot of a buffer of N floats: guard, data rounded up, guard. */
#define SLOT ((2 * GUARD_BYTES + N * sizeof(float) + 255) / 256 * 256)

static int arena_as_promised(const host_call *c, axpy_args A)
{
    const char *x = (const char *)A.x, *y = (const char *)A.y, *z = (const char *)A.z;
    long long d = c->delta;
    if (A.n != N || y - x != (long long)SLOT || z - y != (long long)SLOT || d != 3 * (long long)SLOT)
        return 0;
    /* Every guard, in both halves, and set B's output slot: zeros (A's
     * output the launch itself prepares). */
    for (long long h = 0; h <= d; h += d) {
        if (!zeros(x + h - GUARD_BYTES, GUARD_BYTES) ||
            !zeros(z + h + N * sizeof(float), SLOT - GUARD_BYTES - N * sizeof(float)))
            return 0;
        for (const char *b = x; b < z; b += SLOT)
            if (!zeros(b + h + N * sizeof(float), SLOT - N * sizeof(float)))
                return 0;
    }
    if (!zeros(z + d, N * sizeof(float)))
        return 0;
    return !memcmp(x + d, want_bx, sizeof want_bx) && !memcmp(y + d, want_by, sizeof want_by);
}

/* The knocked copy: through the mechanism (set B's inputs) only when the
 * arena is as promised. */
static void knocked(host_call *c)
{
    axpy_args A = axpy_of(c);
    long long d = arena_as_promised(c, A) ? c->delta : 0;
    for (int i = 0; i < A.n; i++)
        A.z[i] = A.a * *(float *)((char *)&A.x[i] + d) + *(float *)((char *)&A.y[i] + d);
    c->ms = 0.010;
}

static void plain(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.010;
}

START_TEST(knocked_copy_sees_the_promised_arena)
{
    use_kernels(&ex, plain);
    host_module m = student_module(&ex, plain);
    m.ptx = async_ptx;
    m.knocked = knocked;
    ck_assert_int_eq(host_add(&m), 0);
    instance B;
    int knobs[MAX_KNOBS] = {0};
    device_facts dev;
    char why[64];
    ck_assert_int_eq(device_host.probe(&dev, why, sizeof why), 0);
    ck_assert_int_eq(instance_build(&B, &ex, N, knobs, &dev, SEED ^ 0x6b6e6f636bull), 0);
    memcpy(want_bx, B.bufs[0].host, sizeof want_bx);
    memcpy(want_by, B.bufs[1].host, sizeof want_by);
    instance_free(&B);

    grade_opts o = host_opts();
    o.seed = SEED;
    result r;
    grade_in_child(&ex, knobs, &o, 20, &r);
    ck_assert_msg(r.checks[0].state == CS_HOLDS, "%s: %s", r.checks[0].what, r.message);
}
END_TEST

Suite *knockout_arena_suite(void)
{
    Suite *s = suite_create("knockout_arena");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, knocked_copy_sees_the_promised_arena);
    suite_add_tcase(s, tc);
    return s;
}
