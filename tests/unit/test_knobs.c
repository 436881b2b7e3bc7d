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

/* Knobs each in range can still ask, together, for more shared memory than
 * a block may declare (48 KB): refused before grading, with the knobs as
 * typed and the bytes (issue 26: lesson 12 took BLOCKDIMX=256 STAGES=8
 * STAGE_ITERS=4 and reported COMPILE). The spec's own size (lesson 12's
 * knob_smem) or its shared-memory check's (lesson 10a). */
START_TEST(combinations_that_do_not_fit)
{
    static const struct {
        int lesson;
        const char *set, *says;     /* says: "" when accepted */
    } cases[] = {
        {12, "BLOCKDIMX=256 STAGES=8 STAGE_ITERS=4", "BLOCKDIMX=256 STAGES=8 STAGE_ITERS=4 "
         "together are not allowed for lesson12/bulk_ring: they make a block declare 65600 "
         "bytes of shared memory (STAGES * STAGE_ITERS * BLOCKDIMX * 8 bytes of ring"},
        {12, "STAGES=8 STAGE_ITERS=8", "more than the 48 KB (49152 bytes)"},
        {12, "BLOCKDIMX=256 STAGES=6 STAGE_ITERS=4", "49200 bytes"},   /* the barriers too */
        {12, "BLOCKDIMX=256 STAGES=5 STAGE_ITERS=4", ""},
        {12, "STAGES=8 STAGE_ITERS=4", ""},
        {10, "PADDING=16 PDIST=16 BLOCKDIMX=256", "PADDING=16 PDIST=16 BLOCKDIMX=256 together "
         "are not allowed for lesson10/padded: they make a block declare 65536 bytes"},
        {10, "PADDING=8 PDIST=16 BLOCKDIMX=256", ""},                  /* 49152: just fits */
        {3, "TILE=32", ""},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        knob_settings ks = {.n = 0};
        char set[128], e[256], err[2048] = "";
        snprintf(set, sizeof set, "%s", cases[c].set);
        for (char *t = strtok(set, " "); t; t = strtok(NULL, " "))
            ck_assert_int_eq(knob_settings_add(&ks, t, e, sizeof e), 0);
        const exercise *sel[16];
        int n = 0;
        for (const exercise *const *x = lesson_exercises[cases[c].lesson]; *x && n < 16; x++)
            sel[n++] = *x;
        int rc = knob_settings_check(&ks, sel, n, err, sizeof err);
        ck_assert_msg(rc == (cases[c].says[0] ? -1 : 0), "%s: %d %s", cases[c].set, rc, err);
        ck_assert_msg(strstr(err, cases[c].says), "%s: '%s' lacks '%s'", cases[c].set, err,
                      cases[c].says);
        if (rc)
            SAYS(err, "Nothing was graded.");
        /* The one-exercise path (a sweep) refuses the same. */
        int knobs[MAX_KNOBS];
        err[0] = 0;
        rc = knob_values_checked(sel[0], &ks, knobs, err, sizeof err);
        ck_assert_msg(rc == (cases[c].says[0] ? -1 : 0), "%s: %d %s", cases[c].set, rc, err);
        ck_assert_msg(strstr(err, cases[c].says), "%s: '%s'", cases[c].set, err);
    }
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

/* The error for setting `a` on the exercises of lessons[] (ended by -1). */
static const char *verdict_on(const int *lessons, const char *a)
{
    static char err[2048];
    knob_settings ks = {.n = 0};
    char e[256];
    ck_assert_int_eq(knob_settings_add(&ks, a, e, sizeof e), 0);
    const exercise *sel[128];
    int n = 0;
    for (const int *l = lessons; *l >= 0; l++)
        for (const exercise *const *x = lesson_exercises[*l]; *x && n < 128; x++)
            sel[n++] = *x;
    err[0] = 0;
    if (knob_settings_check(&ks, sel, n, err, sizeof err) == 0)
        ck_assert_str_eq(err, "");
    return err;
}

/* What is being graded, as the refusal names it: one lesson, a run of more
 * than two, or a list ("3 and 4", "0, 3 and 9"); each knob once, with the
 * exercises that have it. */
START_TEST(the_refusal_names_the_lessons)
{
    ck_assert_str_eq(verdict_on((int[]){3, 4, -1}, "FROB=1"),
        "FROB=1: FROB is not a knob of lessons 3 and 4, whose knobs are TILE (matmul), "
        "UNROLL (unroll). Nor is it an option of make check (make help lists them).");
    ck_assert_str_eq(verdict_on((int[]){3, 4, 5, -1}, "FROB=1"),
        "FROB=1: FROB is not a knob of lessons 3 to 5, whose knobs are TILE (matmul), "
        "UNROLL (unroll), BLOCKDIMX (batched_regs), BLOCKS_PER_SM (batched_regs). Nor is it "
        "an option of make check (make help lists them).");
    ck_assert_str_eq(verdict_on((int[]){0, 3, 9, -1}, "FROB=1"),
        "FROB=1: FROB is not a knob of lessons 0, 3 and 9, whose knobs are TILE (matmul), "
        "BLOCKDIMX (rolling_async), PDIST (rolling_async), BLOCKS_PER_SM (rolling_async). Nor "
        "is it an option of make check (make help lists them).");
    ck_assert_str_eq(verdict_on((int[]){9, 3, -1}, "FROB=1"),
        "FROB=1: FROB is not a knob of lessons 3 and 9, whose knobs are BLOCKDIMX "
        "(rolling_async), PDIST (rolling_async), BLOCKS_PER_SM (rolling_async), TILE (matmul). "
        "Nor is it an option of make check (make help lists them).");
    ck_assert_str_eq(verdict_on((int[]){0, -1}, "FROB=1"),
        "FROB=1: lesson0 has no knobs. Nor is it an option of make check (make help lists "
        "them).");
    ck_assert_str_eq(verdict_on((int[]){10, -1}, "FROB=1"),
        "FROB=1: FROB is not a knob of lesson10, whose knobs are BLOCKDIMX (padded, "
        "index_major), PDIST (padded, index_major), PADDING (padded), BLOCKS_PER_SM (padded, "
        "index_major). Nor is it an option of make check (make help lists them).");
    /* Every lesson: the list of knobs is cut at its 511 bytes. */
    const char *all = verdict_on((int[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                         -1}, "FROB=1");
    SAYS(all, "FROB is not a knob of lessons 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 and "
              "15, whose knobs are BLOCKDIMX (shared_hog, batched_regs, ");
    const char *from = strstr(all, "whose knobs are ") + strlen("whose knobs are ");
    const char *to = strstr(all, ". Nor is it");
    ck_assert_int_eq((int)(to - from), 511);
    SAYS(all, "PDIST (batched_smem, rolling_direct, rolling_regs, rolling_smem, rolling_async, "
              "padded, index_major, sho. Nor is it");
}
END_TEST

/* Where the name belongs: one lesson, several, a near name of these
 * exercises, a near make option, in any case. */
START_TEST(the_refusal_says_what_was_meant)
{
    ck_assert_str_eq(verdict_on((int[]){0, -1}, "L2DIST=3"),
        "L2DIST=3: lesson0 has no knobs. L2DIST is a knob of lesson11: make check lesson11 "
        "L2DIST=3.");
    ck_assert_str_eq(verdict_on((int[]){0, -1}, "pdist=3"),
        "pdist=3: lesson0 has no knobs. PDIST is a knob of lessons 6, 7, 8, 9, 10 and 11: make "
        "check lessonN PDIST=3 with one of them.");
    ck_assert_str_eq(verdict_on((int[]){0, -1}, "STAGES=3"),
        "STAGES=3: lesson0 has no knobs. STAGES is a knob of lesson12: make check lesson12 "
        "STAGES=3.");
    ck_assert_str_eq(verdict_on((int[]){0, -1}, "CH=3"),
        "CH=3: lesson0 has no knobs. CH is a knob of lesson1: make check lesson1 CH=3.");
    ck_assert_str_eq(verdict_on((int[]){0, -1}, "L2DISTS=3"),
        "L2DISTS=3: lesson0 has no knobs. Nor is it an option of make check (make help lists "
        "them).");
    ck_assert_str_eq(verdict_on((int[]){0, -1}, "SEEDS=4"),
        "SEEDS=4: lesson0 has no knobs. Did you mean SEED=4?");
    ck_assert_str_eq(verdict_on((int[]){0, -1}, "seed=4"),
        "seed=4: make's options are upper case: SEED=4.");
    ck_assert_str_eq(verdict_on((int[]){11, -1}, "L2DISTT=4"),
        "L2DISTT=4: L2DISTT is not a knob of lesson11, whose knobs are BLOCKDIMX (l2_prefetch, "
        "short_ring), L2DIST (l2_prefetch, short_ring), BLOCKS_PER_SM (l2_prefetch, "
        "short_ring), PDIST (short_ring). Did you mean L2DIST=4?");
    ck_assert_str_eq(verdict_on((int[]){11, -1}, "l2dist=4"),
        "l2dist=4: knob names are upper case: L2DIST=4.");
    /* A knob name of these exercises comes before a make option. */
    ck_assert_str_eq(verdict_on((int[]){3, -1}, "TIMEOU=4"),
        "TIMEOU=4: TIMEOU is not a knob of lesson3, whose knobs are TILE (matmul). Did you "
        "mean TIMEOUT=4?");
}
END_TEST

/* Each knob's range, at its ends: min and max allowed, one past refused;
 * a whole number only, within a billion either way. */
START_TEST(values_at_the_ends_of_the_range)
{
    int l4[] = {4, -1};
    ck_assert_str_eq(verdict_on(l4, "UNROLL=1"), "");
    ck_assert_str_eq(verdict_on(l4, "UNROLL=32"), "");
    ck_assert_str_eq(verdict_on(l4, "UNROLL=0"),
        "UNROLL=0 is not allowed for lesson4/unroll: UNROLL must be a power of two from 1 to "
        "32 (loads each thread issues before using the first (1..32)). Nothing was graded.");
    SAYS(verdict_on(l4, "UNROLL=64"), "UNROLL=64 is not allowed for lesson4/unroll");
    SAYS(verdict_on(l4, "UNROLL=33"), "UNROLL=33 is not allowed");
    SAYS(verdict_on(l4, "UNROLL=6"), "UNROLL=6 is not allowed");
    SAYS(verdict_on(l4, "UNROLL=-4"), "UNROLL=-4 is not allowed");
    ck_assert_str_eq(verdict_on(l4, "UNROLL=-1000000001"),
        "UNROLL=-1000000001: UNROLL takes a whole number; for lesson4/unroll, a power of two "
        "from 1 to 32 (loads each thread issues before using the first (1..32)).");
    SAYS(verdict_on(l4, "UNROLL=-1000000000"), "UNROLL=-1000000000 is not allowed");
    SAYS(verdict_on(l4, "UNROLL=1000000000"), "UNROLL=1000000000 is not allowed");
    SAYS(verdict_on(l4, "UNROLL=1000000001"), "UNROLL takes a whole number");
    SAYS(verdict_on(l4, "UNROLL=4x"), "UNROLL takes a whole number");
    /* Not a power of two: any whole number in the range. */
    int l1[] = {1, -1};
    ck_assert_str_eq(verdict_on(l1, "CH=1"), "");
    ck_assert_str_eq(verdict_on(l1, "CH=63"), "");
    ck_assert_str_eq(verdict_on(l1, "CH=64"), "");
    ck_assert_str_eq(verdict_on(l1, "CH=65"),
        "CH=65 is not allowed for lesson1/register_hog: CH must be a whole number from 1 to 64 "
        "(channels per image, a compile-time constant). Nothing was graded.");
    SAYS(verdict_on(l1, "SMEM_PAD_KB=0"), "");
    SAYS(verdict_on(l1, "SMEM_PAD_KB=-1"), "SMEM_PAD_KB=-1 is not allowed");
    /* Every exercise that has the knob must allow the value. */
    int l10[] = {10, -1};
    ck_assert_str_eq(verdict_on(l10, "PADDING=0"), "");
    ck_assert_str_eq(verdict_on(l10, "PDIST=16"), "");
    SAYS(verdict_on(l10, "PDIST=17"), "PDIST=17 is not allowed for lesson10/padded");
}
END_TEST

/* NAME=VALUE within 31 bytes each; a later setting of the same whole name
 * replaces the earlier one, a longer or shorter name is another knob. */
START_TEST(add_at_its_bounds)
{
    knob_settings ks = {.n = 0};
    char err[256] = "";
    ck_assert_int_eq(knob_settings_add(&ks, "ABCDEFGHIJKLMNOPQRSTUVWXYZ01234=1", err, sizeof err),
                     0);
    ck_assert_str_eq(ks.set[0].name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ01234");
    ck_assert_int_eq(knob_settings_add(&ks, "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345=1", err,
                                       sizeof err), -1);
    ck_assert_str_eq(err, "a knob is set as NAME=VALUE (e.g. TILE=16); got "
                          "'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345=1'");
    ck_assert_int_eq(knob_settings_add(&ks, "V=1234567890123456789012345678901", err, sizeof err),
                     0);
    ck_assert_str_eq(ks.set[1].value, "1234567890123456789012345678901");
    ck_assert_int_eq(knob_settings_add(&ks, "V=12345678901234567890123456789012", err,
                                       sizeof err), -1);
    ck_assert_str_eq(ks.set[1].value, "1234567890123456789012345678901");
    ck_assert_int_eq(knob_settings_add(&ks, "V=", err, sizeof err), 0);     /* empty: checked later */
    ck_assert_str_eq(ks.set[1].value, "");
    ck_assert_int_eq(ks.n, 2);
    ck_assert_int_eq(knob_settings_add(&ks, "K1=1", err, sizeof err), 0);
    ck_assert_int_eq(knob_settings_add(&ks, "K10=2", err, sizeof err), 0);
    ck_assert_int_eq(knob_settings_add(&ks, "K=3", err, sizeof err), 0);
    ck_assert_int_eq(knob_settings_add(&ks, "K1=4", err, sizeof err), 0);
    ck_assert_int_eq(ks.n, 5);
    ck_assert_str_eq(ks.set[2].name, "K1");
    ck_assert_str_eq(ks.set[2].value, "4");
    ck_assert_str_eq(ks.set[3].name, "K10");
    ck_assert_str_eq(ks.set[3].value, "2");
    ck_assert_str_eq(ks.set[4].name, "K");
    ck_assert_int_eq(knob_settings_add(&ks, "A=1=2", err, sizeof err), 0);   /* the first '=' */
    ck_assert_str_eq(ks.set[5].name, "A");
    ck_assert_str_eq(ks.set[5].value, "1=2");
    for (int i = ks.n; i < MAX_SETS; i++) {
        char s[32];
        snprintf(s, sizeof s, "Z%d=1", i);
        ck_assert_int_eq(knob_settings_add(&ks, s, err, sizeof err), 0);
    }
    ck_assert_int_eq(knob_settings_add(&ks, "ONE_MORE=1", err, sizeof err), -1);
    ck_assert_str_eq(err, "more than 16 knobs set");
    ck_assert_int_eq(ks.n, MAX_SETS);
}
END_TEST

/* The texts of an exercise's knob values: every knob, the defaults named
 * where a value differs; "(none)" in a reference's header for an exercise
 * without knobs; never past the buffer. */
START_TEST(knob_texts_of_every_knob)
{
    const exercise *padded = lesson_exercises[10][0];
    ck_assert_str_eq(padded->name, "padded");
    int k[MAX_KNOBS];
    char t[256];
    for (int i = 0; i < MAX_KNOBS; i++)
        k[i] = -7;
    knob_defaults(padded, k);
    ck_assert_int_eq(k[0], 128);
    ck_assert_int_eq(k[1], 8);
    ck_assert_int_eq(k[2], 1);
    ck_assert_int_eq(k[3], 4);
    knob_list_text(padded, k, t, sizeof t);
    ck_assert_str_eq(t, "BLOCKDIMX=128 PDIST=8 PADDING=1 BLOCKS_PER_SM=4");
    knob_text(padded, k, t, sizeof t);
    ck_assert_str_eq(t, "BLOCKDIMX=128 PDIST=8 PADDING=1 BLOCKS_PER_SM=4");
    k[1] = 4;
    k[3] = 2;
    knob_text(padded, k, t, sizeof t);
    ck_assert_str_eq(t, "BLOCKDIMX=128 PDIST=4 (default 8) PADDING=1 BLOCKS_PER_SM=2 (default 4)");
    knob_list_text(padded, k, t, sizeof t);
    ck_assert_str_eq(t, "BLOCKDIMX=128 PDIST=4 PADDING=1 BLOCKS_PER_SM=2");
    knob_list_text(padded, k, t, 10);
    ck_assert_str_eq(t, "BLOCKDIMX");
    knob_text(padded, k, t, 10);
    ck_assert_str_eq(t, "BLOCKDIMX");
    const exercise *saxpy = lesson_exercises[0][0];
    knob_defaults(saxpy, k);
    for (int i = 0; i < MAX_KNOBS; i++)
        ck_assert_int_eq(k[i], 0);
    knob_list_text(saxpy, k, t, sizeof t);
    ck_assert_str_eq(t, "(none)");
    /* Values: the defaults, and the settings that name this exercise's knobs. */
    knob_settings ks = {.n = 0};
    char err[256];
    ck_assert_int_eq(knob_settings_add(&ks, "TILE=8", err, sizeof err), 0);
    ck_assert_int_eq(knob_settings_add(&ks, "PADDING=3", err, sizeof err), 0);
    ck_assert_int_eq(knob_settings_add(&ks, "BLOCKDIMX=64", err, sizeof err), 0);
    knob_values_for(padded, &ks, k);
    ck_assert_int_eq(k[0], 64);
    ck_assert_int_eq(k[1], 8);
    ck_assert_int_eq(k[2], 3);
    ck_assert_int_eq(k[3], 4);
    ck_assert_int_eq(knob_values_checked(padded, &ks, k, err, sizeof err), 0);
    ck_assert_int_eq(k[0], 64);
    ck_assert_int_eq(k[2], 3);
    knob_values_for(saxpy, &ks, k);
    ck_assert_int_eq(k[0], 0);
    /* Three knobs: the fourth place is 0, whatever it held. */
    const exercise *ring = lesson_exercises[9][0];
    ck_assert_str_eq(ring->name, "rolling_async");
    k[3] = -7;
    knob_values_for(ring, &ks, k);
    ck_assert_int_eq(k[0], 64);
    ck_assert_int_eq(k[3], 0);
    k[3] = -7;
    knob_defaults(ring, k);
    ck_assert_int_eq(k[0], 128);
    ck_assert_int_eq(k[3], 0);
}
END_TEST

/* The distance names are compared by: edits, case ignored, capped at 9,
 * and 9 for names of 64 bytes or more. A suggestion is at most 2 edits
 * away and fewer than half the typed name; the first of equals wins. */
START_TEST(near_names_at_their_bounds)
{
    ck_assert_int_eq(name_distance("", ""), 0);
    ck_assert_int_eq(name_distance("abc", ""), 3);
    ck_assert_int_eq(name_distance("", "abcd"), 4);
    ck_assert_int_eq(name_distance("abc", "abd"), 1);
    ck_assert_int_eq(name_distance("abc", "xabc"), 1);
    ck_assert_int_eq(name_distance("abcd", "abc"), 1);
    ck_assert_int_eq(name_distance("ab", "ba"), 2);
    ck_assert_int_eq(name_distance("abcdefgh", ""), 8);
    ck_assert_int_eq(name_distance("abcdefghi", ""), 9);
    ck_assert_int_eq(name_distance("abcdefghijk", ""), 9);
    char a63[64], a64[65], b63[64];
    memset(a63, 'a', 63);
    a63[63] = 0;
    memset(b63, 'a', 63);
    b63[63] = 0;
    b63[0] = 'b';
    memset(a64, 'a', 64);
    a64[64] = 0;
    ck_assert_int_eq(name_distance(a63, a63), 0);
    ck_assert_int_eq(name_distance(a63, b63), 1);
    ck_assert_int_eq(name_distance(a64, a64), 9);
    ck_assert_int_eq(name_distance(a63, a64), 9);
    ck_assert_int_eq(name_distance(a64, a63), 9);

    static const char *const c[] = {"abcde", "abcdf", "vwxyz", NULL};
    ck_assert_str_eq(closest_name("abcdx", c), "abcde");      /* 1 edit from two: the first */
    ck_assert_str_eq(closest_name("abcxx", c), "abcde");      /* 2 edits of 5 */
    ck_assert_ptr_null(closest_name("abxxx", c));             /* 3 edits */
    ck_assert_str_eq(closest_name("vwxyz", c), "vwxyz");
    static const char *const d[] = {"abcd", "ab", "a", NULL};
    ck_assert_ptr_null(closest_name("abxx", d));              /* 2 edits of 4: too many */
    ck_assert_str_eq(closest_name("abcx", d), "abcd");        /* 1 of 4 */
    ck_assert_ptr_null(closest_name("ax", d));                /* 1 of 2: too many */
    ck_assert_str_eq(closest_name("A", d), "a");              /* the same, but for case */
    ck_assert_str_eq(closest_name("abcdd", d), "abcd");
    static const char *const far[] = {"abcdefg", NULL};
    ck_assert_ptr_null(closest_name("abcdxyz", far));    /* 3 edits, long as it is */
    ck_assert_str_eq(closest_name("abcdexy", far), "abcdefg");
    static const char *const e[] = {"xyzzy", "abcdd", "abcde", NULL};
    ck_assert_str_eq(closest_name("abcde", e), "abcde");      /* the nearer, though later */
    static const char *const none[] = {NULL};
    ck_assert_ptr_null(closest_name("abc", none));
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
    tcase_add_test(tc, combinations_that_do_not_fit);
    tcase_add_test(tc, add_rejects_malformed);
    tcase_add_test(tc, values_and_text);
    tcase_add_test(tc, near_names);
    tcase_add_test(tc, the_refusal_names_the_lessons);
    tcase_add_test(tc, the_refusal_says_what_was_meant);
    tcase_add_test(tc, values_at_the_ends_of_the_range);
    tcase_add_test(tc, add_at_its_bounds);
    tcase_add_test(tc, knob_texts_of_every_knob);
    tcase_add_test(tc, near_names_at_their_bounds);
    suite_add_tcase(s, tc);
    return s;
}
