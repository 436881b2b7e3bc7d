/* test_knockout_arena.c: no kernel can tell the knock-out from a graded
 * launch (grader/grade/knockout_run.c, issue 25 item 2). The knocked copy
 * is launched as a timed launch on timing set 1: the same pointers, the
 * same bytes around them (the 0xA5 guards), the same n, grid, block and
 * shared memory, the L2 flushed; and the data it reads through the
 * mechanism (at +delta) is timing set 2's, where the student's timed
 * launches on set 2 find it. On the host backend both the kernel and its
 * knocked copy write down what a kernel can see; the test compares.
 *
 *   CK_RUN_SUITE=knockout_arena build/tests/unit_tests */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include "buffers.h"
#include "child.h"
#include "knockout.h"
#include "pipeline.h"
#include "suites.h"

#define N 4096
#define SEED 42
#define NEAR 256          /* bytes seen either side of each array */
#define MAX_SEEN 1024

/* z = 2x + y over n floats: the argument `a` fixed, so that the two
 * timing sets share their shape and one launch serves both. */
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
    .lesson = 0, .name = "t_arena", .title = "test: the knock-out's launch", .file = "t/axpy.cu",
    .kernel = "axpy", .check_sizes = {1, 100, 1000, 0}, .time_size = N,
    .build = fixed_axpy_build, .rtol = 1e-5, .atol = 1e-6, .bar = BAR_SPEEDUP,
    .bar_share = 0.5, .bar_floor = 1.2,
    .checks = {{CHECK_PTX_HAS, "cp.async", 0, NULL, "teach", .knock = KNOCK_ASYNC}},
};

static const char async_ptx[] = ".visible .entry k(\n)\n{\n\t.reg .b32 \t%r<9>;\n"
                                "\t.reg .b64 \t%rd<9>;\n"
                                "\tcp.async.ca.shared.global [%r1], [%rd2], 4, 4;\n\tret;\n}\n";

/* Everything a kernel can look at before it computes. */
typedef struct seen {
    const void *ptr[3];
    int n;
    float a;
    unsigned grid[3], block[3];
    size_t dyn_smem;
    int flushed;
    unsigned char near[3][2][NEAR];    /* before and after each array */
} seen;

/* Written in the grading child, read in the test: shared memory. */
typedef struct record {
    int n;
    seen timed[MAX_SEEN];              /* the student's timed launches */
    seen knocked;
    int knocked_runs;
    long long delta;
} record;
static record *rec;

static void look(const host_call *c, seen *s)
{
    axpy_args A = axpy_of(c);
    memset(s, 0, sizeof *s);
    const char *p[3] = {(const char *)A.x, (const char *)A.y, (const char *)A.z};
    for (int b = 0; b < 3; b++) {
        s->ptr[b] = p[b];
        memcpy(s->near[b][0], p[b] - NEAR, NEAR);
        memcpy(s->near[b][1], p[b] + (size_t)A.n * sizeof(float), NEAR);
    }
    s->n = A.n;
    s->a = A.a;
    memcpy(s->grid, c->grid, sizeof s->grid);
    memcpy(s->block, c->block, sizeof s->block);
    s->dyn_smem = c->dyn_smem;
    s->flushed = c->flushed;
}

static void plain(host_call *c)
{
    if (c->timed && rec->n < MAX_SEEN)
        look(c, &rec->timed[rec->n++]);
    axpy_range(axpy_of(c), 0, axpy_of(c).n);
    c->ms = 0.010;
}

static void knocked(host_call *c)
{
    axpy_args A = axpy_of(c);
    look(c, &rec->knocked);
    rec->knocked_runs++;
    rec->delta = c->delta;
    for (int i = 0; i < A.n; i++)
        A.z[i] = A.a * *(float *)((char *)&A.x[i] + c->delta) +
                 *(float *)((char *)&A.y[i] + c->delta);
    c->ms = 0.010;
}

START_TEST(knocked_copy_sees_a_timed_launch)
{
    rec = mmap(NULL, sizeof *rec, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(rec, MAP_FAILED);
    memset(rec, 0, sizeof *rec);
    use_kernels(&ex, plain);
    host_module m = student_module(&ex, plain);
    m.ptx = async_ptx;
    m.knocked = knocked;
    ck_assert_int_eq(host_add(&m), 0);
    int knobs[MAX_KNOBS] = {0};
    grade_opts o = host_opts();
    o.seed = SEED;
    result r;
    grade_in_child(&ex, knobs, &o, 20, &r);
    ck_assert_msg(r.outcome == OUT_PASS && r.checks[0].state == CS_HOLDS, "%s: %s",
                  r.checks[0].what, r.message);
    ck_assert_int_eq(rec->knocked_runs, 1);
    ck_assert_int_gt(rec->n, 10);
    /* The knocked launch is, to the kernel, one of its timed launches on
     * set 1 (the first timed launch is on set 1): pointers, the guard
     * bytes around them, n, a, grid, block, shared memory, the flush. */
    const seen *k = &rec->knocked;
    ck_assert_int_eq(k->n, N);
    ck_assert_int_eq(k->flushed, 1);
    ck_assert_mem_eq(k, &rec->timed[0], sizeof *k);
    for (int b = 0; b < 3; b++)
        for (int i = 0; i < NEAR; i++)
            ck_assert(k->near[b][0][i] == GUARD_BYTE && k->near[b][1][i] == GUARD_BYTE);
    /* What it reads through the mechanism is set 2's inputs, where the
     * timed launches on set 2 read them. */
    int found = 0;
    for (int i = 0; i < rec->n; i++)
        found |= rec->timed[i].ptr[0] == (const char *)k->ptr[0] + rec->delta &&
                 rec->timed[i].ptr[1] == (const char *)k->ptr[1] + rec->delta;
    ck_assert_msg(found, "no timed launch reads its inputs at +delta (%lld)", rec->delta);
    munmap(rec, sizeof *rec);
}
END_TEST

Suite *knockout_arena_suite(void)
{
    Suite *s = suite_create("knockout_arena");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, knocked_copy_sees_a_timed_launch);
    suite_add_tcase(s, tc);
    return s;
}
