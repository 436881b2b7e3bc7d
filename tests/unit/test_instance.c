/* test_instance.c: instance_build with small exercises defined here, so the
 * inst_* contract that every spec relies on is pinned down without a GPU. */
#include <stdint.h>
#include <string.h>
#include "instance.h"
#include "static_check.h"
#include "suites.h"

/* A toy kernel's instance: y[i] = a*x[i] + b, with an index array to show
 * the int type. Arguments: x, idx, y, n, a, b. */
static void toy_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    float *x = inst_input(I, n, ELEM_F32);
    int32_t *idx = inst_input(I, n, ELEM_I32);
    double *y = inst_output(I, n, ELEM_F64);
    inst_arg_int(I, (int)n);
    inst_arg_float(I, 2.5f);
    inst_arg_double(I, -1.25);
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)inst_uniform(I, -1.0, 1.0);
        idx[i] = (int32_t)(inst_u32(I) % n);
        y[i] = 2.5 * x[i] - 1.25;
    }
    inst_launch(I, (unsigned)(n + 127) / 128, 1, 1, 128, 1, 1, 64);
    inst_bytes_moved(I, n * (4.0 + 4.0 + 8.0));
}

static const exercise toy = {.lesson = 0, .name = "toy", .kernel = "toy", .build = toy_build};

static device_facts dev;

static void setup(void)
{
    calibration_device(&dev);
}

START_TEST(args_in_order)
{
    instance I;
    ck_assert_int_eq(instance_build(&I, &toy, 1000, NULL, &dev, 42), 0);
    ck_assert_str_eq(I.error, "");
    ck_assert_int_eq(I.nargs, 6);
    static const enum arg_kind kinds[] = {ARG_INPUT, ARG_INPUT, ARG_OUTPUT,
                                          ARG_INT, ARG_FLOAT, ARG_DOUBLE};
    for (int a = 0; a < 6; a++)
        ck_assert_msg(I.args[a].kind == kinds[a], "argument %d has kind %d, not %d", a,
                      I.args[a].kind, kinds[a]);
    ck_assert_int_eq(I.args[0].buf, 0);
    ck_assert_int_eq(I.args[1].buf, 1);
    ck_assert_int_eq(I.args[2].buf, 2);
    ck_assert_int_eq(I.args[3].i, 1000);
    ck_assert_float_eq(I.args[4].f, 2.5f);
    ck_assert_double_eq(I.args[5].d, -1.25);
    instance_free(&I);
}
END_TEST

START_TEST(buffers_typed_and_sized)
{
    instance I;
    ck_assert_int_eq(instance_build(&I, &toy, 1000, NULL, &dev, 42), 0);
    ck_assert_int_eq(I.nbufs, 3);
    static const enum elem_type types[] = {ELEM_F32, ELEM_I32, ELEM_F64};
    for (int b = 0; b < 3; b++) {
        ck_assert_int_eq(I.bufs[b].type, types[b]);
        ck_assert_uint_eq(I.bufs[b].count, 1000);
        ck_assert_ptr_nonnull(I.bufs[b].host);
        ck_assert_int_eq(I.bufs[b].is_output, b == 2);
    }
    /* Expected values exist for outputs only, and hold what build() wrote. */
    ck_assert_ptr_null(I.bufs[0].want);
    ck_assert_ptr_nonnull(I.bufs[2].want);
    const float *x = I.bufs[0].host;
    ck_assert_double_eq_tol(I.bufs[2].want[7], 2.5 * x[7] - 1.25, 1e-12);
    ck_assert_uint_eq(elem_size(ELEM_F64), 8);
    ck_assert_uint_eq(elem_size(ELEM_F32), 4);
    ck_assert_uint_eq(elem_size(ELEM_I32), 4);
    instance_free(&I);
}
END_TEST

START_TEST(geometry_and_bytes)
{
    instance I;
    ck_assert_int_eq(instance_build(&I, &toy, 1000, NULL, &dev, 42), 0);
    ck_assert_uint_eq(I.grid[0], 8);
    ck_assert_uint_eq(I.grid[1], 1);
    ck_assert_uint_eq(I.grid[2], 1);
    ck_assert_uint_eq(I.block[0], 128);
    ck_assert_uint_eq(I.block[1], 1);
    ck_assert_uint_eq(I.block[2], 1);
    ck_assert_uint_eq(I.dyn_smem, 64);
    ck_assert_double_eq(I.bytes_moved, 16000.0);
    instance_free(&I);
}
END_TEST

START_TEST(same_seed_same_inputs)
{
    /* A seed printed in a report must replay the exact same inputs. */
    instance A, B;
    ck_assert_int_eq(instance_build(&A, &toy, 500, NULL, &dev, 7), 0);
    ck_assert_int_eq(instance_build(&B, &toy, 500, NULL, &dev, 7), 0);
    ck_assert_mem_eq(A.bufs[0].host, B.bufs[0].host, 500 * sizeof(float));
    ck_assert_mem_eq(A.bufs[1].host, B.bufs[1].host, 500 * sizeof(int32_t));
    instance_free(&A);
    instance_free(&B);
}
END_TEST

START_TEST(other_seed_other_inputs)
{
    instance A, B;
    ck_assert_int_eq(instance_build(&A, &toy, 500, NULL, &dev, 7), 0);
    ck_assert_int_eq(instance_build(&B, &toy, 500, NULL, &dev, 8), 0);
    ck_assert(memcmp(A.bufs[0].host, B.bufs[0].host, 500 * sizeof(float)) != 0);
    ck_assert(memcmp(A.bufs[1].host, B.bufs[1].host, 500 * sizeof(int32_t)) != 0);
    instance_free(&A);
    instance_free(&B);
}
END_TEST

START_TEST(uniform_in_range)
{
    instance I;
    instance_init(&I, 3);
    double lo = 1e9, hi = -1e9;
    for (int i = 0; i < 100000; i++) {
        double u = inst_uniform(&I, -2.0, 3.0);
        ck_assert(u >= -2.0 && u < 3.0);
        lo = u < lo ? u : lo;
        hi = u > hi ? u : hi;
    }
    /* And it spreads over the range, not into a corner of it. */
    ck_assert_double_lt(lo, -1.99);
    ck_assert_double_gt(hi, 2.99);
    instance_free(&I);
}
END_TEST

/* Spec bugs that instance_build must turn into a message, not a crash. */
static void no_output_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    inst_input(I, n, ELEM_F32);
    inst_arg_int(I, (int)n);
    inst_launch(I, 1, 1, 1, 32, 1, 1, 0);
}

static void zero_grid_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    inst_output(I, n, ELEM_F32);
    inst_launch(I, 0, 1, 1, 32, 1, 1, 0);
}

static void many_args_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    inst_output(I, n, ELEM_F32);
    for (int a = 0; a < MAX_ARGS + 5; a++)
        inst_arg_int(I, a);
    inst_launch(I, 1, 1, 1, 32, 1, 1, 0);
}

static void many_bufs_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    /* Writes into every buffer it gets, as a real spec does. */
    for (int b = 0; b < MAX_BUFS + 2; b++) {
        double *want = inst_output(I, n, ELEM_F32);
        for (size_t i = 0; i < n; i++)
            want[i] = b;
    }
    inst_launch(I, 1, 1, 1, 32, 1, 1, 0);
}

static void expect_spec_error(void (*build)(instance *, size_t, const int *,
                                            const device_facts *), const char *words)
{
    exercise ex = toy;
    ex.build = build;
    instance I;
    ck_assert_int_eq(instance_build(&I, &ex, 16, NULL, &dev, 1), -1);
    ck_assert_msg(strstr(I.error, words) != NULL, "error '%s' lacks '%s'", I.error, words);
    ck_assert_int_le(I.nargs, MAX_ARGS);
    ck_assert_int_le(I.nbufs, MAX_BUFS);
    instance_free(&I);
}

START_TEST(no_output_fails)
{
    expect_spec_error(no_output_build, "no output");
}
END_TEST

START_TEST(zero_grid_fails)
{
    expect_spec_error(zero_grid_build, "zero grid");
}
END_TEST

START_TEST(too_many_args_fails)
{
    expect_spec_error(many_args_build, "MAX_ARGS");
}
END_TEST

START_TEST(too_many_buffers_fails)
{
    expect_spec_error(many_bufs_build, "MAX_BUFS");
}
END_TEST

Suite *instance_suite(void)
{
    Suite *s = suite_create("instance");
    TCase *tc = tcase_create("build");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, args_in_order);
    tcase_add_test(tc, buffers_typed_and_sized);
    tcase_add_test(tc, geometry_and_bytes);
    suite_add_tcase(s, tc);

    tc = tcase_create("random");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, same_seed_same_inputs);
    tcase_add_test(tc, other_seed_other_inputs);
    tcase_add_test(tc, uniform_in_range);
    suite_add_tcase(s, tc);

    tc = tcase_create("spec_errors");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, no_output_fails);
    tcase_add_test(tc, zero_grid_fails);
    tcase_add_test(tc, too_many_args_fails);
    tcase_add_test(tc, too_many_buffers_fails);
    suite_add_tcase(s, tc);
    return s;
}
