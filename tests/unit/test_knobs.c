/* test_knobs.c: knob settings from the command line are checked before
 * anything is graded, and each refusal names the knob and says what was
 * meant. Uses the real registry: lesson 3 (TILE on matmul), lesson 0 (no
 * knobs), the prefetch lessons (PDIST). */
#include <stdio.h>
#include <string.h>
#include "knobs.h"
#include "suggest.h"
#include "suites.h"

/* The error for settings `a` (and `b`, may be NULL) on lesson `lesson`'s
 * exercises; "" when they are accepted. */
static const char *verdict(int lesson, const char *a, const char *b)
{
    static char err[2048];
    knob_settings ks = {.n = 0};
    char e[256];
    ck_assert_int_eq(knob_settings_add(&ks, a, e, sizeof e), 0);
    if (b)
        ck_assert_int_eq(knob_settings_add(&ks, b, e, sizeof e), 0);
    const exercise *sel[16];
    int n = 0;
    for (const exercise *const *x = lesson_exercises[lesson]; *x && n < 16; x++)
        sel[n++] = *x;
    err[0] = 0;
    if (knob_settings_check(&ks, sel, n, err, sizeof err) == 0)
        ck_assert_str_eq(err, "");
    return err;
}

#define SAYS(text, part) ck_assert_msg(strstr(text, part) != NULL, "'%s' lacks '%s'", text, part)

START_TEST(accepted)
{
    ck_assert_str_eq(verdict(3, "TILE=32", NULL), "");
    ck_assert_str_eq(verdict(3, "TILE=8", "TILE=16"), "");   /* the later one wins */
    ck_assert_str_eq(verdict(9, "PDIST=4", "BLOCKDIMX=64"), "");
}
END_TEST

START_TEST(wrong_case)
{
    const char *e = verdict(3, "tile=32", NULL);
    SAYS(e, "tile=32: knob names are upper case: TILE=32.");
    e = verdict(3, "only=matmul", NULL);
    SAYS(e, "make's options are upper case: ONLY=matmul.");
}
END_TEST

START_TEST(not_a_knob_of_this_lesson)
{
    const char *e = verdict(3, "PDIST=4", NULL);
    SAYS(e, "PDIST is not a knob of lesson3, whose knobs are TILE (matmul).");
    SAYS(e, "PDIST is a knob of lessons");
    SAYS(e, "make check lessonN PDIST=4");
    e = verdict(0, "TILE=16", NULL);
    SAYS(e, "lesson0 has no knobs.");
    SAYS(e, "TILE is a knob of lesson3: make check lesson3 TILE=16.");
    /* In the wrong case too. */
    e = verdict(0, "tile=16", NULL);
    SAYS(e, "make check lesson3 TILE=16");
}
END_TEST

START_TEST(misspelt_or_unknown)
{
    const char *e = verdict(3, "TILES=16", NULL);
    SAYS(e, "TILES is not a knob of lesson3");
    SAYS(e, "Did you mean TILE=16?");
    e = verdict(3, "FROB=1", NULL);
    SAYS(e, "FROB is not a knob of lesson3");
    SAYS(e, "Nor is it an option of make check");
}
END_TEST

START_TEST(bad_values_name_the_knob)
{
    const char *e = verdict(3, "TILE=abc", NULL);
    SAYS(e, "TILE=abc: TILE takes a whole number; for lesson3/matmul, a power of two from 8 "
            "to 32");
    e = verdict(3, "TILE=", NULL);
    SAYS(e, "TILE takes a whole number");
    e = verdict(3, "TILE=7", NULL);
    SAYS(e, "TILE=7 is not allowed for lesson3/matmul: TILE must be a power of two from 8 to "
            "32");
    SAYS(e, "Nothing was graded.");
    e = verdict(3, "TILE=64", NULL);
    SAYS(e, "TILE=64 is not allowed");
    e = verdict(9, "PDIST=99999999999999", NULL);
    SAYS(e, "PDIST takes a whole number");
}
END_TEST

START_TEST(add_rejects_malformed)
{
    knob_settings ks = {.n = 0};
    char err[256];
    ck_assert_int_eq(knob_settings_add(&ks, "TILE", err, sizeof err), -1);
    SAYS(err, "NAME=VALUE");
    ck_assert_int_eq(knob_settings_add(&ks, "=3", err, sizeof err), -1);
    for (int i = 0; i < MAX_SETS; i++) {
        char s[32];
        snprintf(s, sizeof s, "K%d=1", i);
        ck_assert_int_eq(knob_settings_add(&ks, s, err, sizeof err), 0);
    }
    ck_assert_int_eq(knob_settings_add(&ks, "ONE_MORE=1", err, sizeof err), -1);
    /* Setting a name again replaces it, even when full. */
    ck_assert_int_eq(knob_settings_add(&ks, "K3=2", err, sizeof err), 0);
    ck_assert_int_eq(ks.n, MAX_SETS);
    ck_assert_str_eq(ks.set[3].value, "2");
}
END_TEST

START_TEST(values_and_text)
{
    const exercise *mm = lesson_exercises[3][1];
    ck_assert_str_eq(mm->name, "matmul");
    knob_settings ks = {.n = 0};
    char err[256], text[128];
    int knobs[MAX_KNOBS];
    knob_values_for(mm, &ks, knobs);
    ck_assert_int_eq(knobs[0], 16);
    knob_text(mm, knobs, text, sizeof text);
    ck_assert_str_eq(text, "TILE=16");
    ck_assert_int_eq(knob_settings_add(&ks, "TILE=32", err, sizeof err), 0);
    knob_values_for(mm, &ks, knobs);
    ck_assert_int_eq(knobs[0], 32);
    knob_text(mm, knobs, text, sizeof text);
    ck_assert_str_eq(text, "TILE=32 (default 16)");
    knob_text(lesson_exercises[0][0], knobs, text, sizeof text);
    ck_assert_str_eq(text, "");
    /* One exercise of a sweep: another lesson's knob is left alone, a bad
     * value of its own is not. */
    ck_assert_int_eq(knob_settings_add(&ks, "PDIST=4", err, sizeof err), 0);
    ck_assert_int_eq(knob_values_checked(mm, &ks, knobs, err, sizeof err), 0);
    ck_assert_int_eq(knobs[0], 32);
    ck_assert_int_eq(knob_settings_add(&ks, "TILE=12", err, sizeof err), 0);
    ck_assert_int_eq(knob_values_checked(mm, &ks, knobs, err, sizeof err), -1);
    SAYS(err, "TILE=12 is not allowed");
}
END_TEST

START_TEST(near_names)
{
    static const char *const names[] = {"bank_conflicts", "matmul", NULL};
    ck_assert_str_eq(closest_name("matmull", names), "matmul");
    ck_assert_str_eq(closest_name("MATMUL", names), "matmul");
    ck_assert_str_eq(closest_name("bank_conflict", names), "bank_conflicts");
    ck_assert_ptr_null(closest_name("transpose", names));
    ck_assert_ptr_null(closest_name("m", names));
    ck_assert_int_eq(name_distance("kitten", "sitting"), 3);
    ck_assert_int_eq(name_distance("TILE", "tile"), 0);
}
END_TEST

Suite *knobs_suite(void)
{
    Suite *s = suite_create("knobs");
    TCase *tc = tcase_create("settings");
    tcase_add_test(tc, accepted);
    tcase_add_test(tc, wrong_case);
    tcase_add_test(tc, not_a_knob_of_this_lesson);
    tcase_add_test(tc, misspelt_or_unknown);
    tcase_add_test(tc, bad_values_name_the_knob);
    tcase_add_test(tc, add_rejects_malformed);
    tcase_add_test(tc, values_and_text);
    tcase_add_test(tc, near_names);
    suite_add_tcase(s, tc);
    return s;
}
