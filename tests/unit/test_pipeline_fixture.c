/* test_pipeline_fixture.c: the exercises and honest kernels the pipeline
 * tests grade on the host backend (see pipeline.h). No tests of its own. */
#include <stdio.h>
#include <string.h>
#include "child.h"
#include "pipeline.h"
#include "suites.h"

double t_solution = 0.010;

/* Exactly representable inputs in [-1, 1), as lesson 0's saxpy builds them. */
static float half_word(uint32_t u16)
{
    return (float)((int)(u16 & 0xffffu) - 32768) / 32768.0f;
}

void axpy_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)dev;
    unsigned block = knobs[0] ? (unsigned)knobs[0] : 256;
    float *x = inst_input(I, n, ELEM_F32);
    float *y = inst_input(I, n, ELEM_F32);
    double *z = inst_output(I, n, ELEM_F32);
    float a = (float)inst_uniform(I, 0.5, 2.5);
    for (size_t i = 0; i < n; i++) {
        uint32_t u = inst_u32(I);
        x[i] = half_word(u);
        y[i] = half_word(u >> 16);
        z[i] = (double)a * x[i] + y[i];
    }
    inst_arg_float(I, a);
    inst_arg_int(I, (int)n);
    inst_launch(I, (unsigned)((n + block - 1) / block), 1, 1, block, 1, 1, 0);
    inst_bytes_moved(I, 12.0 * (double)n);
}

const exercise t_axpy = {
    .lesson = 0,
    .name = "t_axpy",
    .title = "test: z = a*x + y",
    .file = "t/axpy.cu",
    .kernel = "axpy",
    .knobs = {{"BLOCK", 256, 32, 1024, 1, "threads per block"}},
    .check_sizes = {1, 100, 1000, 0},
    .time_size = 4096,
    .build = axpy_build,
    .rtol = 1e-5,
    .atol = 1e-6,
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.2,
};

static void table_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    float coef[TABLE];
    for (int k = 0; k < TABLE; k++)
        coef[k] = half_word(inst_u32(I));
    float *x = inst_input(I, n, ELEM_F32);
    double *z = inst_output(I, n, ELEM_F32);
    for (size_t i = 0; i < n; i++) {
        x[i] = half_word(inst_u32(I));
        z[i] = (double)coef[i % TABLE] * x[i];
    }
    inst_constant(I, "coef", coef, sizeof coef);
    inst_arg_int(I, (int)n);
    inst_launch(I, (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1, 0);
    inst_bytes_moved(I, 8.0 * (double)n);
}

const exercise t_table = {
    .lesson = 0,
    .name = "t_table",
    .title = "test: a table in constant memory",
    .file = "t/table.cu",
    .kernel = "table",
    .check_sizes = {1, 100, 1000, 0},
    .time_size = 4096,
    .build = table_build,
    .rtol = 1e-6,
    .atol = 1e-7,
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.2,
};

static void pair_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    double *a = inst_output(I, n, ELEM_F32);
    float *x = inst_input(I, n, ELEM_F32);
    double *b = inst_output(I, n, ELEM_F64);
    float *y = inst_input(I, n, ELEM_F32);
    for (size_t i = 0; i < n; i++) {
        uint32_t u = inst_u32(I);
        x[i] = half_word(u);
        y[i] = half_word(u >> 16);
        a[i] = (double)(x[i] + y[i]);
        b[i] = (double)x[i] * y[i];
    }
    inst_arg_int(I, (int)n);
    inst_launch(I, (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1, 0);
    inst_bytes_moved(I, 20.0 * (double)n);
}

const exercise t_pair = {
    .lesson = 0,
    .name = "t_pair",
    .title = "test: two outputs, first and in the middle",
    .file = "t/pair.cu",
    .kernel = "pair",
    .check_sizes = {1, 100, 1000, 0},
    .time_size = 4096,
    .build = pair_build,
    .rtol = 1e-6,
    .atol = 1e-7,
    .bar = BAR_SPEEDUP,
    .bar_share = 0.5,
    .bar_floor = 1.2,
};

pair_args pair_of(const host_call *c)
{
    pair_args P = {
        .a = *(float **)c->args[0],
        .x = *(float **)c->args[1],
        .b = *(double **)c->args[2],
        .y = *(float **)c->args[3],
        .n = *(const int *)c->args[4],
    };
    return P;
}

void pair_range(pair_args P, int from, int to)
{
    for (int i = from; i < to; i++) {
        P.a[i] = P.x[i] + P.y[i];
        P.b[i] = (double)P.x[i] * P.y[i];
    }
}

static void pair_baseline(host_call *c)
{
    pair_args P = pair_of(c);
    pair_range(P, 0, P.n);
    c->ms = T_BASE;
}

static void pair_solution(host_call *c)
{
    pair_args P = pair_of(c);
    pair_range(P, 0, P.n);
    c->ms = t_solution;
}

axpy_args axpy_of(const host_call *c)
{
    axpy_args A = {
        .x = *(float **)c->args[0],
        .y = *(float **)c->args[1],
        .z = *(float **)c->args[2],
        .a = *(const float *)c->args[3],
        .n = *(const int *)c->args[4],
    };
    return A;
}

void axpy_range(axpy_args A, int from, int to)
{
    for (int i = from; i < to; i++)
        A.z[i] = A.a * A.x[i] + A.y[i];
}

static void axpy_baseline(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = T_BASE;
}

static void axpy_solution(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = t_solution;
}

/* The table kernels read their own __constant__ copy, as on a GPU. */
static float base_coef[TABLE], sol_coef[TABLE];
float student_coef[TABLE];

void table_range(host_call *c, const float *coef, double ms)
{
    const float *x = *(float **)c->args[0];
    float *z = *(float **)c->args[1];
    int n = *(const int *)c->args[2];
    for (int i = 0; i < n; i++)
        z[i] = coef[i % TABLE] * x[i];
    c->ms = ms;
}

static void table_baseline(host_call *c) { table_range(c, base_coef, T_BASE); }
void table_solution(host_call *c) { table_range(c, sol_coef, t_solution); }

static host_module module_at(const char *dir, const exercise *ex, host_fn fn, double regs)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", dir, ex->file);
    char *path = strdup(buf);   /* the registry keeps the pointer; tests are short */
    ck_assert_ptr_nonnull(path);
    host_module m = {
        .path = path,
        .kernel = ex->kernel,
        .fn = fn,
        .ptx = "ld.global.f32",
        .res = {.known = 1, .regs = (int)regs},
    };
    return m;
}

host_module student_module(const exercise *ex, host_fn fn)
{
    host_module m = module_at("student", ex, fn, 32);
    if (ex->build == table_build)
        m.globals[0] = (host_global){.symbol = "coef", .at = student_coef, .bytes = sizeof student_coef};
    return m;
}

host_module solution_module(const exercise *ex, host_fn fn)
{
    host_module m = module_at("solutions", ex, fn, 32);
    if (ex->build == table_build)
        m.globals[0] = (host_global){.symbol = "coef", .at = sol_coef, .bytes = sizeof sol_coef};
    return m;
}

host_module baseline_module(const exercise *ex, host_fn fn)
{
    host_module m = module_at("grader/baselines", ex, fn, 16);
    if (ex->build == table_build)
        m.globals[0] = (host_global){.symbol = "coef", .at = base_coef, .bytes = sizeof base_coef};
    return m;
}

void use_three(const exercise *ex, host_fn baseline, host_fn solution, host_fn student)
{
    host_reset();
    host_module base = baseline_module(ex, baseline);
    host_module sol = solution_module(ex, solution);
    host_module stu = student_module(ex, student);
    ck_assert_int_eq(host_add(&base), 0);
    ck_assert_int_eq(host_add(&sol), 0);
    ck_assert_int_eq(host_add(&stu), 0);
}

/* An exercise made from t_pair (a copy with other bars or tolerances)
 * gets the pair kernels: its build says which it is. */
void use_kernels(const exercise *ex, host_fn student)
{
    if (ex->build == table_build)
        use_three(ex, table_baseline, table_solution, student);
    else if (ex->build == pair_build)
        use_three(ex, pair_baseline, pair_solution, student);
    else
        use_three(ex, axpy_baseline, axpy_solution, student);
}

grade_opts host_opts(void)
{
    grade_opts o = {
        .root = ".",
        .student_dir = "student",
        .seed = 42,
        .launch_timeout_s = 5,
        .time_budget_s = 0.02,
        .device = &device_host,
    };
    return o;
}

void grade_host(const exercise *ex, int block, result *r)
{
    int knobs[MAX_KNOBS] = {block};
    grade_opts o = host_opts();
    grade_in_child(ex, knobs, &o, 20, r);
}

void grade_host_opts(const exercise *ex, const grade_opts *o, result *r)
{
    int knobs[MAX_KNOBS] = {0};
    grade_in_child(ex, knobs, o, 20, r);
}

void expect(const result *r, enum outcome o, const char *text)
{
    ck_assert_msg(r->outcome == o, "expected %s, got %s: %s", outcome_word(o),
                  outcome_word(r->outcome), r->message);
    if (text)
        ck_assert_msg(strstr(r->message, text) != NULL, "the message lacks '%s': %s", text,
                      r->message);
}
