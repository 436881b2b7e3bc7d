/* test_cheats.c: kernels that are half right, or try to get past a rule,
 * graded through the whole pipeline on the host backend. Each names the
 * rule it tests; together they fail if any of these is removed: the poison
 * before every launch, the guard scans (to the byte), the input checks
 * after correctness runs and after timing, the rotation of timing sets, the
 * verification of every set, and the physical floor. */
#include <stdlib.h>
#include <string.h>
#include "buffers.h"
#include "pipeline.h"
#include "stats.h"
#include "suites.h"

#define T_HONEST 0.030     /* honest, and SLOW: 1.33x against a bar of 2.5x */
#define T_CHEAT 0.005      /* what skipping the work would be timed at: 8x */

static void graded(host_fn student, result *r)
{
    use_kernels(&t_axpy, student);
    grade_host(&t_axpy, 0, r);
}

/* ---- wrong answers ----------------------------------------------------- */

static void skips_last(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n - 1);
}

/* The poison makes an unwritten element visible as such. */
START_TEST(unwritten_element_is_named)
{
    result r;
    graded(skips_last, &r);
    expect(&r, OUT_WRONG, "left 1 of 1 output values unwritten (size 1)");
    ck_assert_ptr_nonnull(strstr(r.detail, "index 0: expected"));
    ck_assert_ptr_nonnull(strstr(r.detail, "never written"));
}
END_TEST

static void subtracts(host_call *c)
{
    axpy_args A = axpy_of(c);
    for (int i = 0; i < A.n; i++)
        A.z[i] = A.a * A.x[i] - A.y[i];
}

START_TEST(wrong_values_are_counted)
{
    result r;
    graded(subtracts, &r);
    expect(&r, OUT_WRONG, "computed 1 of 1 values wrong (size 1; 0 never written)");
    ck_assert_ptr_nonnull(strstr(r.message, "SEED=42"));
}
END_TEST

/* ---- out of bounds: one byte either side is enough --------------------- */

static void one_byte_after(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    ((unsigned char *)A.z)[4 * (size_t)A.n] = 0;
}

static void one_byte_before(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    ((unsigned char *)A.z)[-1] = 0;
}

static void far_after(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    ((unsigned char *)A.z)[4 * (size_t)A.n + 65535] = 0;   /* the guard's last byte */
}

static void past_an_input(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    ((unsigned char *)A.y)[4 * (size_t)A.n] = 0;
}

/* In bounds on the correctness runs, one byte past the output later on. */
static void past_the_output_later(host_call *c)
{
    static int launches;
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.012;
    if (++launches > 3)
        ((unsigned char *)A.z)[4 * (size_t)A.n] = 0;
}

START_TEST(write_just_after_the_output)
{
    result r;
    graded(one_byte_after, &r);
    expect(&r, OUT_WRONG, "wrote outside its output array (argument 3; size 1): 1 guard "
           "bytes changed, the first at element 1 of an array of 1 floats");
}
END_TEST

START_TEST(write_just_before_the_output)
{
    result r;
    graded(one_byte_before, &r);
    expect(&r, OUT_WRONG, "wrote outside its output array (argument 3; size 1): 1 guard "
           "bytes changed, the first at element -1 of an array of 1 floats");
}
END_TEST

START_TEST(write_at_the_end_of_the_guard)
{
    result r;
    graded(far_after, &r);
    expect(&r, OUT_WRONG, "the first at element 16384 of an array of 1 floats");
}
END_TEST

START_TEST(write_past_an_input)
{
    result r;
    graded(past_an_input, &r);
    expect(&r, OUT_WRONG, "wrote outside its input array (argument 2; size 1)");
}
END_TEST

/* ---- a replay cache in the memory past the guards (issue 25 item 1) ------ */

/* Keeps each set's answer beside its output, past the output's guard, in
 * memory the driver maps because it hands out whole 2 MiB pages: tagged
 * with the input's address, computed at the timing size's first launch of
 * a set, replayed after. `erase`: the replay puts the guard bytes back, so
 * nothing is left for a check made only at the end. */
static int erase;

static void slack_cache(host_call *c)
{
    axpy_args A = axpy_of(c);
    char *slack = (char *)A.z + (size_t)A.n * sizeof(float) + GUARD_BYTES + 256;
    const float **tag = (const float **)slack;
    float *kept = (float *)(slack + 64);
    if (A.n >= 4096 && *tag == A.x) {
        memcpy(A.z, kept, sizeof(float) * (size_t)A.n);
        if (erase)
            memset(slack, GUARD_BYTE, 64 + sizeof(float) * (size_t)A.n);
        c->ms = T_CHEAT;
        return;
    }
    axpy_range(A, 0, A.n);
    if (A.n >= 4096) {
        *tag = A.x;
        memcpy(kept, A.z, sizeof(float) * (size_t)A.n);
    }
    c->ms = T_HONEST;
}

START_TEST(replay_cache_past_the_guard_is_caught)
{
    for (erase = 0; erase < 2; erase++) {
        result r;
        graded(slack_cache, &r);
        /* At the first timed launch that keeps an answer there: the output
         * of 4096 floats (16384 bytes), its guard, then 256 bytes on. */
        expect(&r, OUT_WRONG, "wrote outside its output array (argument 3; timing input set 1 "
               "of 2, checked after a launch on set 1)");
        ck_assert_msg(strstr(r.message, "the first at element 20544 of an array of 4096 "
                             "floats. That byte (byte offset 82176) is 65792 bytes past the "
                             "array's end, beyond its guard, in memory no array uses"),
                      "%s", r.message);
        ck_assert_ptr_nonnull(strstr(r.message, "2 MiB pages"));
    }
    erase = 0;
}
END_TEST

/* At the timing size, one byte into the guard before the next array of
 * the timing sets' allocation: the reference solution's copy of the
 * output (each version has its own). Named as memory beside the kernel's
 * arrays, with the array whose guard it is. */
static void writes_beside(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    size_t bytes = (size_t)A.n * sizeof(float);
    size_t next = (2 * (size_t)GUARD_BYTES + bytes + REGION_ALIGN - 1) / REGION_ALIGN *
                  REGION_ALIGN - GUARD_BYTES;
    if (A.n >= 4096)
        ((char *)A.z)[next + 100] = 1;
    c->ms = T_HONEST;
}

START_TEST(write_beside_its_arrays_during_timing)
{
    result r;
    graded(writes_beside, &r);
    expect(&r, OUT_WRONG, "wrote into memory beside its arrays (timing input set 1 of 2, "
           "checked after a launch on set 1): 1 guard bytes changed, the first 65436 bytes "
           "before the output array that the reference solution gets as argument 3");
    ck_assert_ptr_nonnull(strstr(r.message, "may keep nothing there"));
}
END_TEST

START_TEST(write_out_of_bounds_during_timing)
{
    result r;
    graded(past_the_output_later, &r);
    expect(&r, OUT_WRONG, "wrote outside its output array (argument 3; timing input set 1 "
           "of 2");
}
END_TEST

/* ---- inputs are the inputs --------------------------------------------- */

/* Right answer, then it hides something in the input it has read. */
static void scribbles_on_input(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    A.x[A.n / 2] += 1.0f;
}

START_TEST(changed_input_after_a_correctness_run)
{
    result r;
    graded(scribbles_on_input, &r);
    expect(&r, OUT_WRONG, "changed its input: the array passed as argument 1 (1 floats)");
    ck_assert_ptr_nonnull(strstr(r.message, "(size 1). 1 elements differ, the first at "
                                            "element 0"));
}
END_TEST

/* Honest on the correctness runs; from the warm-up on, it changes an input
 * on every launch while its own answers stay right. */
static void scribbles_later(host_call *c)
{
    static int launches;
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.012;
    if (++launches > 3)
        A.y[A.n - 1] = 0.5f * A.y[A.n - 1] + 1.0f;
}

START_TEST(changed_input_during_timing)
{
    result r;
    graded(scribbles_later, &r);
    expect(&r, OUT_WRONG, "changed its input: the array passed as argument 2 (4096 floats)");
    ck_assert_ptr_nonnull(strstr(r.message, "timing input set 1 of 2"));
    ck_assert_ptr_nonnull(strstr(r.message, "element 4095"));
}
END_TEST

/* ---- fresh data while timing ------------------------------------------- */

/* Computes an answer once per problem size and replays it afterwards: right
 * on every correctness size, right on the first timing set, wrong on the
 * second. */
static void replays_by_size(host_call *c)
{
    static float *cache;
    static int cached_n;
    axpy_args A = axpy_of(c);
    if (A.n == cached_n) {
        memcpy(A.z, cache, sizeof(float) * (size_t)A.n);
        c->ms = T_CHEAT;
        return;
    }
    axpy_range(A, 0, A.n);
    free(cache);
    cache = malloc(sizeof(float) * (size_t)A.n);
    memcpy(cache, A.z, sizeof(float) * (size_t)A.n);
    cached_n = A.n;
    c->ms = T_HONEST;
}

START_TEST(cached_answer_is_wrong_on_the_other_set)
{
    result r;
    graded(replays_by_size, &r);
    expect(&r, OUT_WRONG, "timing input set 2 of 2");
    ck_assert_ptr_nonnull(strstr(r.message, "It was right on the earlier checks"));
}
END_TEST

/* Replays its last answer when launched on the same input as last time:
 * right every time, and fast if the same set comes twice in a row. With the
 * sets alternating it must compute every time, and is timed doing so. */
static void replays_same_address(host_call *c)
{
    static const float *last_x;
    static int last_n;
    static float *cache;
    axpy_args A = axpy_of(c);
    /* The address and the size: a later correctness size may be given
     * the memory an earlier one was freed from. */
    if (A.x == last_x && A.n == last_n) {
        memcpy(A.z, cache, sizeof(float) * (size_t)A.n);
        c->ms = T_CHEAT;
        return;
    }
    axpy_range(A, 0, A.n);
    free(cache);
    cache = malloc(sizeof(float) * (size_t)A.n);
    memcpy(cache, A.z, sizeof(float) * (size_t)A.n);
    last_x = A.x;
    last_n = A.n;
    c->ms = T_HONEST;
}

START_TEST(replay_on_the_same_address_is_timed_computing)
{
    result r;
    graded(replays_same_address, &r);
    expect(&r, OUT_SLOW, "1.33x the baseline's speed");
}
END_TEST

/* Skips the work when the output already holds the answer (from the
 * previous launch on the same set). The poison before every timed launch
 * means it never does. */
static void skips_if_written(host_call *c)
{
    axpy_args A = axpy_of(c);
    int done = 1;
    for (int i = 0; i < A.n && done; i++)
        done = A.z[i] == A.a * A.x[i] + A.y[i];
    if (done) {
        c->ms = T_CHEAT;
        return;
    }
    axpy_range(A, 0, A.n);
    c->ms = T_HONEST;
}

START_TEST(skip_if_already_written_is_timed_computing)
{
    result r;
    graded(skips_if_written, &r);
    expect(&r, OUT_SLOW, "1.33x the baseline's speed");
}
END_TEST

/* ---- the physical floor ------------------------------------------------ */

/* Right answers, timed faster than 49 KB can cross a 1000 GB/s memory. */
static void impossibly_fast(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 1e-5;
}

START_TEST(faster_than_memory_is_too_fast)
{
    result r;
    graded(impossibly_fast, &r);
    expect(&r, OUT_TOO_FAST, "faster than the memory can deliver");
    ck_assert_ptr_nonnull(strstr(r.message, "0.04915 MB"));
    ck_assert_int_eq(r.timed, 1);
}
END_TEST

/* Just above the floor is physically possible: a pass. */
static void nearly_as_fast_as_memory(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 12.0 * 4096 / (1000e9 * FLOOR_MARGIN * 0.95) * 1e3;  /* 5% under the floor's speed */
}

/* Just past the floor is not: the margin is the whole allowance. */
static void just_faster_than_the_floor(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 12.0 * 4096 / (1000e9 * FLOOR_MARGIN * 1.05) * 1e3;
}

START_TEST(just_past_the_floor_is_too_fast)
{
    result r;
    graded(just_faster_than_the_floor, &r);
    expect(&r, OUT_TOO_FAST, "faster than the memory can deliver");
}
END_TEST

START_TEST(just_above_the_floor_passes)
{
    result r;
    graded(nearly_as_fast_as_memory, &r);
    expect(&r, OUT_PASS, NULL);
}
END_TEST

Suite *cheats_suite(void)
{
    Suite *s = suite_create("cheats");
    TCase *tc = tcase_create("wrong answers and bounds");
    tcase_add_test(tc, unwritten_element_is_named);
    tcase_add_test(tc, wrong_values_are_counted);
    tcase_add_test(tc, write_just_after_the_output);
    tcase_add_test(tc, write_just_before_the_output);
    tcase_add_test(tc, write_at_the_end_of_the_guard);
    tcase_add_test(tc, write_past_an_input);
    tcase_add_test(tc, write_out_of_bounds_during_timing);
    tcase_add_test(tc, replay_cache_past_the_guard_is_caught);
    tcase_add_test(tc, write_beside_its_arrays_during_timing);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("inputs, rotation, poison, floor");
    tcase_add_test(tc, changed_input_after_a_correctness_run);
    tcase_add_test(tc, changed_input_during_timing);
    tcase_add_test(tc, cached_answer_is_wrong_on_the_other_set);
    tcase_add_test(tc, replay_on_the_same_address_is_timed_computing);
    tcase_add_test(tc, skip_if_already_written_is_timed_computing);
    tcase_add_test(tc, faster_than_memory_is_too_fast);
    tcase_add_test(tc, just_above_the_floor_passes);
    tcase_add_test(tc, just_past_the_floor_is_too_fast);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
