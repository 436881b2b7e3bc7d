/* test_stats.c: medians, the noise band and the speed bar. A wrong number
 * here passes a slow kernel or fails a fast one, on every GPU. */
#include <math.h>
#include <string.h>
#include "stats.h"
#include "suites.h"

START_TEST(median_odd)
{
    const double v[] = {3.0, 1.0, 2.0};
    ck_assert_double_eq(median(v, 3), 2.0);
}
END_TEST

START_TEST(median_even)
{
    /* The mean of the two middle values. */
    const double v[] = {4.0, 1.0, 3.0, 2.0};
    ck_assert_double_eq(median(v, 4), 2.5);
}
END_TEST

START_TEST(median_leaves_input_alone)
{
    /* The grader takes medians of slices of its samples: sorting them in
     * place would mix the first and second halves used for the noise. */
    double v[] = {5.0, -1.0, 9.0, 0.5, 2.0};
    double copy[5];
    memcpy(copy, v, sizeof v);
    ck_assert_double_eq(median(v, 5), 2.0);
    ck_assert_mem_eq(v, copy, sizeof v);
}
END_TEST

START_TEST(median_single)
{
    const double v[] = {7.25};
    ck_assert_double_eq(median(v, 1), 7.25);
}
END_TEST

START_TEST(median_empty_is_nan)
{
    ck_assert(isnan(median(NULL, 0)));
}
END_TEST

START_TEST(half_spread_values)
{
    ck_assert_double_eq_tol(half_spread(1.0, 1.2), 0.2 / 2.2, 1e-12);
    ck_assert_double_eq_tol(half_spread(1.2, 1.0), 0.2 / 2.2, 1e-12);
    ck_assert_double_eq(half_spread(2.0, 2.0), 0.0);
}
END_TEST

START_TEST(half_spread_nonsense_is_total)
{
    /* A half with no valid ratio must never look steady. */
    ck_assert_double_eq(half_spread(0.0, 1.0), 1.0);
    ck_assert_double_eq(half_spread(1.0, -1.0), 1.0);
    ck_assert_double_eq(half_spread(NAN, 1.0), 1.0);
}
END_TEST

START_TEST(bar_floor_wins)
{
    /* The reference gained little: 1 + 0.6*0.4 = 1.24 is under the floor. */
    ck_assert_double_eq_tol(speedup_bar(0.6, 1.3, 1.4), 1.3, 1e-12);
}
END_TEST

START_TEST(bar_share_wins)
{
    ck_assert_double_eq_tol(speedup_bar(0.6, 1.3, 3.0), 2.2, 1e-12);
}
END_TEST

START_TEST(bar_reference_slower_than_baseline)
{
    /* The share term drops under 1; the floor still holds. */
    ck_assert_double_eq_tol(speedup_bar(0.6, 1.3, 0.8), 1.3, 1e-12);
}
END_TEST

START_TEST(judge_above_below_close)
{
    ck_assert_int_eq(judge(1.10, 1.0, 0.03, 1), 1);
    ck_assert_int_eq(judge(0.90, 1.0, 0.03, 1), -1);
    ck_assert_int_eq(judge(1.01, 1.0, 0.03, 1), 0);
    ck_assert_int_eq(judge(0.99, 1.0, 0.03, 1), 0);
}
END_TEST

START_TEST(judge_noise_floor)
{
    /* Perfectly steady timings still leave a band of NOISE_FLOOR. */
    ck_assert_int_eq(judge(1.0 + NOISE_FLOOR / 2, 1.0, 0.0, 1), 0);
    ck_assert_int_eq(judge(1.0 - NOISE_FLOOR / 2, 1.0, 0.0, 1), 0);
    ck_assert_int_eq(judge(1.0 + 2 * NOISE_FLOOR, 1.0, 0.0, 1), 1);
    /* A wider measured band is used as is. */
    ck_assert_int_eq(judge(1.0 + 2 * NOISE_FLOOR, 1.0, 3 * NOISE_FLOOR, 1), 0);
}
END_TEST

START_TEST(judge_lower_is_better)
{
    /* A time ratio under the bar (1.1 = "at most 10% slower") is good. */
    ck_assert_int_eq(judge(0.90, 1.1, 0.03, 0), 1);
    ck_assert_int_eq(judge(1.05, 1.1, 0.02, 0), 1);   /* 1.1/1.05 - 1 = 4.8% */
    ck_assert_int_eq(judge(1.30, 1.1, 0.03, 0), -1);
    ck_assert_int_eq(judge(1.11, 1.1, 0.03, 0), 0);
}
END_TEST

START_TEST(judge_invalid_is_below)
{
    ck_assert_int_eq(judge(0.0, 1.0, 0.03, 1), -1);
    ck_assert_int_eq(judge(NAN, 1.0, 0.03, 1), -1);
    ck_assert_int_eq(judge(NAN, 1.0, 0.03, 0), -1);
    ck_assert_int_eq(judge(-2.0, 1.0, 0.03, 0), -1);
    ck_assert_int_eq(judge(1.5, 0.0, 0.03, 1), -1);
}
END_TEST

Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("median");
    tcase_add_test(tc, median_odd);
    tcase_add_test(tc, median_even);
    tcase_add_test(tc, median_leaves_input_alone);
    tcase_add_test(tc, median_single);
    tcase_add_test(tc, median_empty_is_nan);
    suite_add_tcase(s, tc);

    tc = tcase_create("half_spread");
    tcase_add_test(tc, half_spread_values);
    tcase_add_test(tc, half_spread_nonsense_is_total);
    suite_add_tcase(s, tc);

    tc = tcase_create("speedup_bar");
    tcase_add_test(tc, bar_floor_wins);
    tcase_add_test(tc, bar_share_wins);
    tcase_add_test(tc, bar_reference_slower_than_baseline);
    suite_add_tcase(s, tc);

    tc = tcase_create("judge");
    tcase_add_test(tc, judge_above_below_close);
    tcase_add_test(tc, judge_noise_floor);
    tcase_add_test(tc, judge_lower_is_better);
    tcase_add_test(tc, judge_invalid_is_below);
    suite_add_tcase(s, tc);
    return s;
}
