/* test_verify.c: a kernel's outputs against the CPU reference. The instance
 * is made by hand: inst_output gives the expected values, and the buffer's
 * host array plays the part of what the GPU wrote back. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "instance.h"
#include "suites.h"
#include "verify.h"

/* Occurrences of `needle` in `hay`. */
static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

START_TEST(exact_match_float)
{
    instance I;
    instance_init(&I, 1);
    double *want = inst_output(&I, 4, ELEM_F32);
    float *got = I.bufs[0].host;
    for (int i = 0; i < 4; i++)
        want[i] = got[i] = 0.5f * i - 1.0f;
    mismatch_report rep;
    ck_assert_uint_eq(verify_outputs(&I, 0, 0, &rep), 0);
    ck_assert_uint_eq(rep.checked, 4);
    ck_assert_uint_eq(rep.wrong, 0);
    ck_assert_str_eq(rep.text, "");
    instance_free(&I);
}
END_TEST

START_TEST(exact_match_int_and_double)
{
    instance I;
    instance_init(&I, 1);
    double *wi = inst_output(&I, 3, ELEM_I32);
    double *wd = inst_output(&I, 3, ELEM_F64);
    int32_t *gi = I.bufs[0].host;
    double *gd = I.bufs[1].host;
    for (int i = 0; i < 3; i++) {
        wi[i] = gi[i] = 1000 * i - 7;
        wd[i] = gd[i] = 1.0 / (i + 3);
    }
    mismatch_report rep;
    ck_assert_uint_eq(verify_outputs(&I, 0, 0, &rep), 0);
    ck_assert_uint_eq(rep.checked, 6);
    instance_free(&I);
}
END_TEST

START_TEST(inputs_are_not_checked)
{
    instance I;
    instance_init(&I, 1);
    float *in = inst_input(&I, 5, ELEM_F32);
    double *want = inst_output(&I, 2, ELEM_F64);
    memset(in, 0xff, 5 * sizeof *in);   /* would be poison in an output */
    want[0] = want[1] = 3.0;
    ((double *)I.bufs[1].host)[0] = ((double *)I.bufs[1].host)[1] = 3.0;
    mismatch_report rep;
    ck_assert_uint_eq(verify_outputs(&I, 0, 0, &rep), 0);
    ck_assert_uint_eq(rep.checked, 2);
    instance_free(&I);
}
END_TEST

/* One double output holding want = 100 and got = 100 + d. */
static size_t one_off(double d, double rtol, double atol, mismatch_report *rep)
{
    instance I;
    instance_init(&I, 1);
    double *want = inst_output(&I, 1, ELEM_F64);
    want[0] = 100.0;
    ((double *)I.bufs[0].host)[0] = 100.0 + d;
    size_t wrong = verify_outputs(&I, rtol, atol, rep);
    instance_free(&I);
    return wrong;
}

START_TEST(tolerance_inside)
{
    /* Allowed: atol + rtol*|want| = 0.01 + 1e-3*100 = 0.11. */
    mismatch_report rep;
    ck_assert_uint_eq(one_off(0.109, 1e-3, 0.01, &rep), 0);
    ck_assert_uint_eq(one_off(-0.109, 1e-3, 0.01, &rep), 0);
    /* Each term alone counts too. */
    ck_assert_uint_eq(one_off(0.099, 1e-3, 0, &rep), 0);
    ck_assert_uint_eq(one_off(0.0099, 0, 0.01, &rep), 0);
}
END_TEST

START_TEST(tolerance_just_outside)
{
    mismatch_report rep;
    ck_assert_uint_eq(one_off(0.111, 1e-3, 0.01, &rep), 1);
    ck_assert_uint_eq(rep.unwritten, 0);
    ck_assert_ptr_nonnull(strstr(rep.text, "index 0: expected 100, got 100.111"));
    ck_assert_uint_eq(one_off(-0.111, 1e-3, 0.01, &rep), 1);
}
END_TEST

START_TEST(nan_never_passes)
{
    mismatch_report rep;
    ck_assert_uint_eq(one_off(NAN, 1.0, 1e300, &rep), 1);
    ck_assert_uint_eq(rep.unwritten, 0);   /* a NaN the kernel wrote is not poison */

    instance I;
    instance_init(&I, 1);
    double *want = inst_output(&I, 1, ELEM_F32);
    want[0] = 1.0;
    ((float *)I.bufs[0].host)[0] = NAN;
    ck_assert_uint_eq(verify_outputs(&I, 1.0, 1e30, &rep), 1);
    instance_free(&I);
}
END_TEST

START_TEST(poison_is_unwritten)
{
    /* The grader fills outputs with all-ones bytes before each launch. */
    static const enum elem_type types[] = {ELEM_F32, ELEM_F64, ELEM_I32};
    for (int t = 0; t < 3; t++) {
        instance I;
        instance_init(&I, 1);
        double *want = inst_output(&I, 4, types[t]);
        buffer *B = &I.bufs[0];
        memset(B->host, 0xff, 4 * elem_size(types[t]));
        for (int i = 0; i < 4; i++)
            want[i] = 2.0;
        memset((char *)B->host + 2 * elem_size(types[t]), 0, elem_size(types[t]));
        want[2] = 0.0;                     /* element 2 was written, correctly */
        mismatch_report rep;
        ck_assert_uint_eq(verify_outputs(&I, 1e-6, 0, &rep), 3);
        ck_assert_msg(rep.unwritten == 3, "%s: %zu unwritten", elem_name(types[t]),
                      rep.unwritten);
        ck_assert_ptr_nonnull(strstr(rep.text, "index 3: expected 2, never written"));
        ck_assert_int_eq(count_of(rep.text, "never written"), 3);
        ck_assert_ptr_null(strstr(rep.text, "index 2:"));
        instance_free(&I);
    }
}
END_TEST

START_TEST(int_minus_one_is_a_value)
{
    /* -1 is all-ones bytes too: an int kernel that correctly writes -1 must
     * not be told its output was never written. */
    instance I;
    instance_init(&I, 1);
    double *want = inst_output(&I, 2, ELEM_I32);
    int32_t *got = I.bufs[0].host;
    want[0] = got[0] = -1;
    want[1] = 5;
    got[1] = -1;                           /* unwritten where 5 was due */
    mismatch_report rep;
    ck_assert_uint_eq(verify_outputs(&I, 0, 0, &rep), 1);
    ck_assert_uint_eq(rep.unwritten, 1);
    ck_assert_ptr_nonnull(strstr(rep.text, "index 1: expected 5, never written"));
    instance_free(&I);
}
END_TEST

START_TEST(text_lists_at_most_eight)
{
    instance I;
    instance_init(&I, 1);
    double *want = inst_output(&I, 100, ELEM_F32);
    float *got = I.bufs[0].host;
    for (int i = 0; i < 100; i++) {
        want[i] = 1.0;
        got[i] = i % 5 == 3 ? 2.0f : 1.0f;   /* 20 wrong: 3, 8, 13, ... */
    }
    mismatch_report rep;
    ck_assert_uint_eq(verify_outputs(&I, 0, 0, &rep), 20);
    ck_assert_uint_eq(rep.checked, 100);
    ck_assert_int_eq(count_of(rep.text, "index "), 8);
    ck_assert_ptr_nonnull(strstr(rep.text, "index 3: expected 1, got 2\n"));
    ck_assert_ptr_nonnull(strstr(rep.text, "index 38: expected 1, got 2\n"));
    ck_assert_ptr_null(strstr(rep.text, "index 43:"));
    /* With a single output there is no buffer number to show. */
    ck_assert_ptr_null(strstr(rep.text, "output "));
    instance_free(&I);
}
END_TEST

START_TEST(several_outputs_are_named)
{
    instance I;
    instance_init(&I, 1);
    inst_input(&I, 3, ELEM_F32);                 /* inputs do not count */
    double *w0 = inst_output(&I, 3, ELEM_F32);
    double *w1 = inst_output(&I, 3, ELEM_F64);
    float *g0 = I.bufs[1].host;
    double *g1 = I.bufs[2].host;
    for (int i = 0; i < 3; i++)
        w0[i] = g0[i] = w1[i] = g1[i] = i;
    g1[2] = 7.0;
    mismatch_report rep;
    ck_assert_uint_eq(verify_outputs(&I, 0, 0, &rep), 1);
    ck_assert_ptr_nonnull(strstr(rep.text, "output 1 index 2: expected 2, got 7"));
    ck_assert_ptr_null(strstr(rep.text, "output 0"));
    instance_free(&I);
}
END_TEST

/* An instance the spec launched unlike its knobs says so before the
 * mismatches: it is how the student reproduces the failure. */
START_TEST(note_comes_first)
{
    instance I;
    instance_init(&I, 1);
    inst_note(&I, "launched with %d blocks per SM", 4);
    double *want = inst_output(&I, 2, ELEM_F64);
    double *got = I.bufs[0].host;
    want[0] = got[0] = 1.0;
    want[1] = 2.0;
    got[1] = 3.0;
    mismatch_report rep;
    ck_assert_uint_eq(verify_outputs(&I, 0, 0, &rep), 1);
    ck_assert_str_eq(rep.text, "  launched with 4 blocks per SM\n  index 1: expected 2, got 3\n");
    instance_free(&I);
}
END_TEST

Suite *verify_suite(void)
{
    Suite *s = suite_create("verify");
    TCase *tc = tcase_create("exact");
    tcase_add_test(tc, exact_match_float);
    tcase_add_test(tc, exact_match_int_and_double);
    tcase_add_test(tc, inputs_are_not_checked);
    suite_add_tcase(s, tc);

    tc = tcase_create("tolerance");
    tcase_add_test(tc, tolerance_inside);
    tcase_add_test(tc, tolerance_just_outside);
    tcase_add_test(tc, nan_never_passes);
    suite_add_tcase(s, tc);

    tc = tcase_create("poison");
    tcase_add_test(tc, poison_is_unwritten);
    tcase_add_test(tc, int_minus_one_is_a_value);
    suite_add_tcase(s, tc);

    tc = tcase_create("mismatch_text");
    tcase_add_test(tc, text_lists_at_most_eight);
    tcase_add_test(tc, several_outputs_are_named);
    tcase_add_test(tc, note_comes_first);
    suite_add_tcase(s, tc);
    return s;
}
