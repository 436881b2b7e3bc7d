/* test_instance.c: instance_build with small exercises defined here, so the
 * inst_* contract that every spec relies on is pinned down without a GPU:
 * arguments, buffers and launch shape in order and per axis, the random
 * numbers (splitmix64), every spec error at its bound (MAX_ARGS, MAX_BUFS,
 * MAX_CONSTS, a constant's name and size, a zero axis, memory the host
 * cannot give) with the first error kept, and instance_free giving back
 * all it holds.
 *
 *   CK_RUN_SUITE=instance build/tests/unit_tests */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
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

/* All MAX_BUFS buffers inputs, and a constant with a long name after
 * them: still no output. */
static void full_inputs_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    for (int b = 0; b < MAX_BUFS; b++)
        inst_input(I, n, ELEM_F32);
    static const int one = 1;
    inst_constant(I, "a_constant_with_a_name_of_forty_chars__", &one, sizeof one);
    inst_launch(I, 1, 1, 1, 32, 1, 1, 0);
}

START_TEST(no_output_fails)
{
    expect_spec_error(no_output_build, "no output");
    expect_spec_error(full_inputs_build, "no output");
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

/* ---- the inst_* calls at their edges ----------------------------------- */

START_TEST(element_types_named)
{
    ck_assert_str_eq(elem_name(ELEM_F64), "double");
    ck_assert_str_eq(elem_name(ELEM_F32), "float");
    ck_assert_str_eq(elem_name(ELEM_I32), "int");
}
END_TEST

/* splitmix64, as published: the values below (the high 32 bits of each
 * output) come from an independent implementation, checked against the
 * well-known first output of state 0, 0xe220a8397b1dcdaf; so a seed replays
 * the same inputs on every machine and build. Seed 0 stands for the seed
 * 0x9E3779B97F4A7C15. */
START_TEST(random_numbers_are_splitmix64)
{
    instance I;
    instance_init(&I, 1234567);
    ck_assert_uint_eq(inst_u32(&I), 0x599ed017u);
    ck_assert_uint_eq(inst_u32(&I), 0x2c73f084u);
    ck_assert_uint_eq(inst_u32(&I), 0x883ebce5u);
    instance_init(&I, 0);
    ck_assert_uint_eq(inst_u32(&I), 0x6e789e6au);
    /* u32 0x6e789e6a / 2^32 of the way from lo to hi. */
    instance_init(&I, 0);
    ck_assert_double_eq(inst_uniform(&I, 1.0, 3.0), 1.0 + 2.0 * (0x6e789e6a / 4294967296.0));
}
END_TEST

/* A build that never calls inst_launch launches one thread. */
static void no_launch_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    inst_output(I, n, ELEM_F32);
}

START_TEST(launch_shape_per_axis)
{
    exercise ex = toy;
    ex.build = no_launch_build;
    instance I;
    ck_assert_int_eq(instance_build(&I, &ex, 4, NULL, &dev, 1), 0);
    for (int d = 0; d < 3; d++) {
        ck_assert_uint_eq(I.grid[d], 1);
        ck_assert_uint_eq(I.block[d], 1);
    }
    ck_assert_uint_eq(I.dyn_smem, 0);
    inst_launch(&I, 2, 3, 4, 5, 6, 7, 8);
    ck_assert_uint_eq(I.grid[0], 2);
    ck_assert_uint_eq(I.grid[1], 3);
    ck_assert_uint_eq(I.grid[2], 4);
    ck_assert_uint_eq(I.block[0], 5);
    ck_assert_uint_eq(I.block[1], 6);
    ck_assert_uint_eq(I.block[2], 7);
    ck_assert_uint_eq(I.dyn_smem, 8);
    instance_free(&I);
}
END_TEST

/* A zero in any axis of the grid or the block is a spec bug. */
static unsigned zero_axis;

static void zero_axis_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    inst_output(I, n, ELEM_F32);
    unsigned s[6] = {2, 2, 2, 2, 2, 2};
    s[zero_axis] = 0;
    inst_launch(I, s[0], s[1], s[2], s[3], s[4], s[5], 0);
}

START_TEST(zero_in_any_axis_fails)
{
    for (zero_axis = 0; zero_axis < 6; zero_axis++)
        expect_spec_error(zero_axis_build, "zero grid or block");
}
END_TEST

/* instance_free gives back every buffer and constant and leaves nothing
 * behind, also for an instance that holds the most of both. */
static void full_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    static const char name[] = "a_constant_with_a_name_of_forty_chars__";
    for (int b = 0; b < MAX_BUFS; b++)
        inst_output(I, n, ELEM_F64);
    static double table[1024];
    for (int c = 0; c < MAX_CONSTS; c++)
        inst_constant(I, name, table, sizeof table);
    /* A long note: whatever lies past the last constant is not zero. */
    inst_note(I, "%0440d", 1);
    inst_launch(I, 1u << 30, 1u << 30, 1u << 30, 1u << 30, 1u << 30, 1u << 30, 1);
}

START_TEST(free_gives_everything_back)
{
    exercise ex = toy;
    ex.build = full_build;
    instance I;
    struct mallinfo2 before = mallinfo2();
    ck_assert_int_eq(instance_build(&I, &ex, 1 << 16, NULL, &dev, 1), 0);
    ck_assert_int_eq(I.nbufs, MAX_BUFS);
    ck_assert_int_eq(I.nconsts, MAX_CONSTS);
    instance_free(&I);
    struct mallinfo2 after = mallinfo2();
    ck_assert_uint_eq(after.uordblks + after.hblkhd, before.uordblks + before.hblkhd);
    static const instance zero;
    ck_assert_mem_eq(&I, &zero, sizeof I);
}
END_TEST

/* The first spec error is the one reported. */
static void two_errors_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    inst_output(I, n, ELEM_F32);
    inst_constant(I, "c", NULL, 0);
    for (int a = 0; a < MAX_ARGS + 1; a++)
        inst_arg_int(I, a);
}

START_TEST(first_error_kept)
{
    exercise ex = toy;
    ex.build = two_errors_build;
    instance I;
    ck_assert_int_eq(instance_build(&I, &ex, 4, NULL, &dev, 1), -1);
    ck_assert_str_eq(I.error, "inst_constant: bad symbol name or size (1 byte .. 64 KB)");
    instance_free(&I);
}
END_TEST

/* Past MAX_BUFS a build still gets writable memory of the size it asked
 * for (and something for 0 elements), and the instance is not grown. */
START_TEST(buffers_past_the_limit_are_scratch)
{
    instance I;
    instance_init(&I, 1);
    for (int b = 0; b < MAX_BUFS; b++)
        inst_input(&I, 4, ELEM_F32);
    ck_assert_str_eq(I.error, "");
    double *none = inst_input(&I, 0, ELEM_F64);
    ck_assert_ptr_nonnull(none);
    none[0] = 1.0;
    ck_assert_str_eq(I.error, "more buffers than MAX_BUFS");
    for (size_t n = 100; n <= 100000; n *= 10) {
        double *in = inst_input(&I, n, ELEM_F64), *want = inst_output(&I, n, ELEM_F64);
        ck_assert_ptr_nonnull(in);
        ck_assert_ptr_nonnull(want);
        for (size_t i = 0; i < n; i++)
            in[i] = want[i] = (double)i;
    }
    ck_assert_int_eq(I.nbufs, MAX_BUFS);
    ck_assert_int_eq(I.nargs, MAX_BUFS);
    instance_free(&I);
}
END_TEST

/* A buffer the host cannot hold is a spec error, not a crash, and is not
 * counted. */
START_TEST(buffer_too_large_for_the_host)
{
    size_t huge = (size_t)1 << 61;
    instance I;
    instance_init(&I, 1);
    inst_input(&I, huge, ELEM_F32);
    ck_assert_str_eq(I.error, "out of host memory for a buffer");
    ck_assert_int_eq(I.nbufs, 0);
    ck_assert_int_eq(I.nargs, 0);
    instance_free(&I);
    instance_init(&I, 1);
    inst_output(&I, huge, ELEM_F32);
    ck_assert_str_eq(I.error, "out of host memory for a buffer");
    ck_assert_int_eq(I.nbufs, 0);
    instance_free(&I);
    instance_init(&I, 1);
    double *ok = inst_output(&I, 16, ELEM_F64);
    ck_assert_ptr_nonnull(ok);
    ck_assert_str_eq(I.error, "");
    ck_assert_int_eq(I.nbufs, 1);
    instance_free(&I);
}
END_TEST

START_TEST(constants_at_their_bounds)
{
    static unsigned char data[MAX_CONST_BYTES + 1];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i * 7);
    char name[80];
    memset(name, 'n', sizeof name);
    name[63] = 0;
    instance I;
    instance_init(&I, 1);
    inst_constant(&I, name, data, MAX_CONST_BYTES);
    inst_constant(&I, "one", data + 5, 1);
    ck_assert_str_eq(I.error, "");
    ck_assert_int_eq(I.nconsts, 2);
    ck_assert_str_eq(I.consts[0].symbol, name);
    ck_assert_uint_eq(I.consts[0].bytes, MAX_CONST_BYTES);
    ck_assert_mem_eq(I.consts[0].data, data, MAX_CONST_BYTES);
    ck_assert_str_eq(I.consts[1].symbol, "one");
    ck_assert_uint_eq(I.consts[1].bytes, 1);
    ck_assert_int_eq(*(unsigned char *)I.consts[1].data, data[5]);
    /* Each bad call is refused and adds nothing. */
    name[63] = 'n';
    name[64] = 0;
    const struct {
        const char *symbol;
        size_t bytes;
    } bad[] = {{name, 4}, {NULL, 4}, {"z", 0}, {"z", MAX_CONST_BYTES + 1}};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        instance J;
        instance_init(&J, 1);
        inst_constant(&J, bad[k].symbol, data, bad[k].bytes);
        ck_assert_msg(!strcmp(J.error, "inst_constant: bad symbol name or size (1 byte .. 64 KB)"),
                      "case %zu: '%s'", k, J.error);
        ck_assert_int_eq(J.nconsts, 0);
        instance_free(&J);
    }
    inst_constant(&I, "c3", data, 4);
    inst_constant(&I, "c4", data, 4);
    ck_assert_int_eq(I.nconsts, MAX_CONSTS);
    ck_assert_str_eq(I.error, "");
    inst_constant(&I, "c5", data, 4);
    ck_assert_str_eq(I.error, "more __constant__ variables than MAX_CONSTS");
    ck_assert_int_eq(I.nconsts, MAX_CONSTS);
    instance_free(&I);
}
END_TEST

/* A constant the host has no memory for is a spec error, not a constant
 * silently left unset. The address space is capped a little above what the
 * process maps and filled with small blocks, so the constant's malloc
 * fails; then everything is given back and the cap lifted. */
START_TEST(constant_without_host_memory)
{
    static unsigned char data[MAX_CONST_BYTES];
    instance I;
    instance_init(&I, 1);
    struct rlimit was;
    ck_assert_int_eq(getrlimit(RLIMIT_AS, &was), 0);
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    struct rlimit cap = {.rlim_cur = pages * (rlim_t)sysconf(_SC_PAGESIZE) + (4u << 20),
                         .rlim_max = was.rlim_max};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &cap), 0);
    void *hog = NULL, *block;
    while ((block = malloc(4096)) != NULL) {
        *(void **)block = hog;
        hog = block;
    }
    inst_constant(&I, "c", data, sizeof data);
    while (hog) {
        block = *(void **)hog;
        free(hog);
        hog = block;
    }
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &was), 0);
    ck_assert_str_eq(I.error, "out of host memory for a constant");
    ck_assert_int_eq(I.nconsts, 0);
    /* With memory again, the same call is kept. */
    instance_free(&I);
    instance_init(&I, 1);
    inst_constant(&I, "c", data, sizeof data);
    ck_assert_str_eq(I.error, "");
    ck_assert_int_eq(I.nconsts, 1);
    instance_free(&I);
}
END_TEST

START_TEST(notes_are_formatted_and_cut)
{
    instance I;
    instance_init(&I, 1);
    ck_assert_str_eq(I.note, "");
    inst_note(&I, "%d blocks of %s", 3, "256");
    ck_assert_str_eq(I.note, "3 blocks of 256");
    char big[600];
    memset(big, 'w', sizeof big);
    big[599] = 0;
    inst_note(&I, "%s", big);
    ck_assert_uint_eq(strlen(I.note), sizeof I.note - 1);
    instance_free(&I);
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
    tcase_add_test(tc, zero_in_any_axis_fails);
    tcase_add_test(tc, first_error_kept);
    tcase_add_test(tc, buffers_past_the_limit_are_scratch);
    tcase_add_test(tc, buffer_too_large_for_the_host);
    tcase_add_test(tc, constants_at_their_bounds);
    tcase_add_test(tc, constant_without_host_memory);
    suite_add_tcase(s, tc);

    tc = tcase_create("calls");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, element_types_named);
    tcase_add_test(tc, random_numbers_are_splitmix64);
    tcase_add_test(tc, launch_shape_per_axis);
    tcase_add_test(tc, free_gives_everything_back);
    tcase_add_test(tc, notes_are_formatted_and_cut);
    suite_add_tcase(s, tc);
    return s;
}
