/* test_class_keys.c: what names and keys a class run by: students'
 * identifiers (class_id.c: as given where safe, else made safe with the
 * entry's hash; unique even where names meet, ignoring case, or where two
 * hashes share their first 8 hex digits), SHA-256 (sha256.c: the FIPS
 * vectors around every padding boundary, updates in any pieces, strings
 * with their NUL, whole files), and the resume cache (class_cache.c: the
 * cells come back only for the same key, from an intact file). The
 * expected hash digits were computed independently (Python's hashlib).
 *
 *   CK_RUN_SUITE=class_keys build/tests/unit_tests
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "class.h"
#include "sha256.h"
#include "suites.h"

/* ---- identifiers ---- */

typedef struct idcase {
    const char *entry;
    int dir;
    const char *want;
} idcase;

static void assign(const idcase *t, int n, class_student *st)
{
    static class_run run;
    char *entries[32];
    int dir[32];
    memset(&run, 0, sizeof run);
    memset(st, 0, sizeof *st * (size_t)n);
    for (int i = 0; i < n; i++) {
        entries[i] = (char *)t[i].entry;
        dir[i] = t[i].dir;
    }
    run.st = st;
    run.nst = n;
    class_assign_ids(&run, entries, dir);
}

static void expect_ids(const idcase *t, int n)
{
    static class_student st[32];
    assign(t, n, st);
    for (int i = 0; i < n; i++)
        ck_assert_msg(!strcmp(st[i].name, t[i].want), "entry %d: got \"%s\", want \"%s\"", i,
                      st[i].name, t[i].want);
}

static char *repeat(const char *unit, int times, const char *tail)
{
    size_t u = strlen(unit);
    char *s = malloc(u * (size_t)times + strlen(tail) + 1);
    for (int i = 0; i < times; i++)
        memcpy(s + u * (size_t)i, unit, u);
    strcpy(s + u * (size_t)times, tail);
    return s;
}

/* The entry as given, less its archive ending; made safe (and given the
 * entry's hash) only where it is not a good file name as it is. */
START_TEST(identifiers_as_given_or_made_safe)
{
    char *x200 = repeat("x", 200, ""), *x201 = repeat("x", 201, "");
    char *e100 = repeat("\xc3\xa9", 100, ""), *e101 = repeat("\xc3\xa9", 101, "");
    char *x191 = repeat("x", 191, "-570cfd5a"), *e95 = repeat("\xc3\xa9", 95, "-cf18366f");
    char *y260 = repeat("y", 260, ""), *y191 = repeat("y", 191, "-d1f1f41e");
    const idcase t[] = {
        {.entry = "ada", .dir = 1, .want = "ada"},
        {.entry = "bo.tar.gz", .dir = 0, .want = "bo"},
        {.entry = "cy.TGZ", .dir = 0, .want = "cy"},
        {.entry = "dee.zip", .dir = 1, .want = "dee.zip"},      /* a folder keeps its name */
        {.entry = ".tar", .dir = 0, .want = "_tar-f4f096bf"},   /* all ending: not cut */
        {.entry = "-x", .dir = 1, .want = "_x-ff37d97d"},
        {.entry = "-", .dir = 1, .want = "_-24ea1ebd"},          /* one character made safe */
        {.entry = "-bo.zip", .dir = 0, .want = "_bo-78875ca6"},  /* the hash of the entry */
        {.entry = "", .dir = 1, .want = "student-6e340b9c"},
        {.entry = "a/b", .dir = 1, .want = "a_b-c85bed17"},
        {.entry = "bad\xffname", .dir = 1, .want = "bad_name-f066e922"},
        {.entry = x200, .dir = 1, .want = x200},               /* 200 bytes: as it is */
        {.entry = x201, .dir = 1, .want = x191},               /* 201: cut to fit the hash */
        {.entry = e100, .dir = 1, .want = e100},
        {.entry = e101, .dir = 1, .want = e95},                /* cut at a character */
        {.entry = "Zo\xc3\xab", .dir = 1, .want = "Zo\xc3\xab"},
        {.entry = y260, .dir = 1, .want = y191},               /* longer than an identifier */
    };
    expect_ids(t, (int)(sizeof t / sizeof *t));
    free(x200);
    free(x201);
    free(e100);
    free(e101);
    free(x191);
    free(e95);
    free(y260);
    free(y191);
}
END_TEST

/* Names that meet: first each keeps its whole entry name; where they still
 * meet (ignoring case), each gets its entry's hash. */
START_TEST(identifiers_that_meet)
{
    const idcase a[] = {
        {.entry = "x.tar", .dir = 0, .want = "x.tar"},
        {.entry = "x", .dir = 1, .want = "x"},
        {.entry = "y", .dir = 1, .want = "y"},
    };
    expect_ids(a, 3);
    const idcase b[] = {
        {.entry = "Ada", .dir = 1, .want = "Ada-291bef98"},
        {.entry = "ada", .dir = 1, .want = "ada-a88ba314"},
        {.entry = "bo", .dir = 1, .want = "bo"},
    };
    expect_ids(b, 3);
    const idcase c[] = {
        {.entry = "ada", .dir = 1, .want = "ada-a88ba314"},
        {.entry = "bo", .dir = 1, .want = "bo"},
        {.entry = "Ada", .dir = 1, .want = "Ada-291bef98"},
    };
    expect_ids(c, 3);
}
END_TEST

/* Two entries whose made-safe names are the same and whose hashes begin
 * with the same 8 hex digits (found by search): the row number tells them
 * apart, after the name, or in place of the hash where the name is long. */
START_TEST(identifiers_unique_when_hashes_meet)
{
    const idcase t[] = {
        {.entry = "c\x02\x08\x0b\x08", .dir = 1, .want = "c____-8f0de403-0"},
        {.entry = "c\x04\x18\x02\x07", .dir = 1, .want = "c____-8f0de403-1"},
        {.entry = "plain", .dir = 1, .want = "plain"},
    };
    expect_ids(t, 3);

    /* 171-byte entries: a 180-byte identifier, the row after it. */
    char *a = repeat("a", 167, "\x01\x05\x17\x0d"), *b = repeat("a", 167, "\x01\x08\x02\x0d");
    char *wa = repeat("a", 167, "____-250063b1-0"), *wb = repeat("a", 167, "____-250063b1-1");
    /* 172-byte entries: 181 bytes, the row in place of the hash. */
    char *c = repeat("a", 168, "\x02\x08\x10\x17"), *d = repeat("a", 168, "\x04\x1d\x1f\x1b");
    char *wc = repeat("a", 168, "____--2"), *wd = repeat("a", 168, "____--3");
    const idcase u[] = {
        {.entry = a, .dir = 1, .want = wa}, {.entry = b, .dir = 1, .want = wb},
        {.entry = c, .dir = 1, .want = wc}, {.entry = d, .dir = 1, .want = wd},
    };
    expect_ids(u, 4);
    free(a), free(b), free(c), free(d), free(wa), free(wb), free(wc), free(wd);
}
END_TEST

/* ---- SHA-256 ---- */

static void hex_of_a(size_t n, size_t piece, char out[65])
{
    char *m = malloc(n + 1);
    memset(m, 'a', n);
    sha256 h;
    sha256_init(&h);
    for (size_t at = 0; at < n; at += piece)
        sha256_update(&h, m + at, n - at < piece ? n - at : piece);
    sha256_hex(&h, out);
    free(m);
}

/* "a" repeated: each length around the 56-byte padding boundary and the
 * 64-byte block, fed whole and in pieces that straddle the blocks. */
START_TEST(sha256_every_padding_boundary)
{
    static const struct { size_t n; const char *hex; } t[] = {
        {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
        {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
        {57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6"},
        {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
        {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
        {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
        {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
        {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
        {200, "c2a908d98f5df987ade41b5fce213067efbcc21ef2240212a41e54b5e7c28ae5"},
    };
    static const size_t pieces[] = {1000, 1, 7, 63, 64, 65};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        for (size_t p = 0; p < sizeof pieces / sizeof *pieces; p++) {
            char hex[65];
            hex_of_a(t[i].n, pieces[p], hex);
            ck_assert_msg(!strcmp(hex, t[i].hex), "%zu bytes in pieces of %zu: %s", t[i].n,
                          pieces[p], hex);
        }
}
END_TEST

/* A string with its NUL, so that "ab"+"c" and "a"+"bc" differ; a file
 * whole (more than one read's buffer), or -1 when it cannot be read. */
START_TEST(sha256_strings_and_files)
{
    sha256 h;
    char hex[65], other[65];
    sha256_init(&h);
    sha256_str(&h, "abc");
    sha256_hex(&h, hex);
    ck_assert_str_eq(hex, "dc1114cd074914bd872cc1f9a23ec910ea2203bc79779ab2e17da25782a624fc");
    sha256_init(&h);
    sha256_str(&h, "ab");
    sha256_str(&h, "c");
    sha256_hex(&h, hex);
    sha256_init(&h);
    sha256_str(&h, "a");
    sha256_str(&h, "bc");
    sha256_hex(&h, other);
    ck_assert_str_ne(hex, other);

    const char *tmp = getenv("TMPDIR");
    char dir[256], path[300];
    snprintf(dir, sizeof dir, "%s/test-class-keys-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/big", dir);
    size_t n = 3 * 65536 + 17;
    char *data = malloc(n);
    for (size_t i = 0; i < n; i++)
        data[i] = (char)(i * 7 + i / 251);
    FILE *f = fopen(path, "wb");
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    fclose(f);
    sha256_init(&h);
    sha256_str(&h, "before");
    ck_assert_int_eq(sha256_file(&h, path), 0);
    sha256_hex(&h, hex);
    sha256_init(&h);
    sha256_str(&h, "before");
    sha256_update(&h, data, n);
    sha256_hex(&h, other);
    ck_assert_str_eq(hex, other);
    free(data);

    /* Missing, or a folder: -1, and nothing added. */
    sha256_init(&h);
    snprintf(path, sizeof path, "%s/missing", dir);
    ck_assert_int_eq(sha256_file(&h, path), -1);
    ck_assert_int_eq(sha256_file(&h, dir), -1);
    sha256_hex(&h, hex);
    ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    snprintf(path, sizeof path, "%s/big", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* ---- the resume cache ---- */

static char out[256];

static void cache_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out, sizeof out, "%s/test-class-cache-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(out));
}

static void cache_dir_remove(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
    if (out[0] && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", out);
    out[0] = 0;
}

static void graded_row(class_student *st)
{
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "ada");
    snprintf(st->key, sizeof st->key, "%064d", 1);
    st->cell[0] = (class_cell){.outcome = OUT_PASS, .timed = 1, .ms = {10, 2, 1.5},
                               .speedup = 5, .seconds = 1.25, .reason = ""};
    st->cell[1] = (class_cell){.outcome = OUT_WRONG, .seconds = 0.5,
                               .reason = "WRONG: Your kernel computed N of N values wrong"};
    snprintf(st->graded_at, sizeof st->graded_at, "2026-11-25 10:00:00");
    st->passed = 1;
    st->counted = 2;
    st->seconds = 1.75;
    st->budget_hit = 1;
    snprintf(st->gpu, sizeof st->gpu, "Scripted GPU");
    st->gpu_index = 3;
}

/* A fresh row of the same student: what this run read of the submission. */
static void fresh_row(class_student *st, const char *key)
{
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "ada");
    snprintf(st->entry, sizeof st->entry, "ada.zip");
    snprintf(st->key, sizeof st->key, "%s", key);
    snprintf(st->error, sizeof st->error, "read this run");
    st->nrefused = 7;
    st->nfound = 2;
    st->gpu_index = -1;
}

static void flip_byte(const char *path, long at)
{
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ 0x20, f);
    fclose(f);
}

/* The cells, their time, and the GPU that graded them come back for the
 * same key; what the submission says was read this run stays. */
START_TEST(cache_gives_back_cells_for_the_same_key)
{
    cache_dir();
    class_run run = {.out = out};
    class_student st, again;
    graded_row(&st);
    ck_assert_int_eq(class_cache_save(&run, &st), 0);
    char path[400];
    snprintf(path, sizeof path, "%s/.cache/ada.state", out);
    ck_assert_int_eq(access(path, R_OK), 0);

    fresh_row(&again, st.key);
    ck_assert_int_eq(class_cache_load(&run, &again), 0);
    ck_assert_int_eq(again.cached, 1);
    ck_assert_mem_eq(again.cell, st.cell, sizeof st.cell);
    ck_assert_str_eq(again.graded_at, "2026-11-25 10:00:00");
    ck_assert_int_eq(again.passed, 1);
    ck_assert_int_eq(again.counted, 2);
    ck_assert_double_eq(again.seconds, 1.75);
    ck_assert_int_eq(again.budget_hit, 1);
    ck_assert_str_eq(again.gpu, "Scripted GPU");
    ck_assert_int_eq(again.gpu_index, 3);
    ck_assert_str_eq(again.entry, "ada.zip");
    ck_assert_str_eq(again.error, "read this run");
    ck_assert_int_eq(again.nrefused, 7);
    ck_assert_int_eq(again.nfound, 2);

    /* Another key: nothing comes back. */
    char other[65];
    snprintf(other, sizeof other, "%064d", 2);
    fresh_row(&again, other);
    ck_assert_int_eq(class_cache_load(&run, &again), -1);
    ck_assert_int_eq(again.cached, 0);
    ck_assert_int_eq(again.passed, 0);
    ck_assert_int_eq(again.gpu_index, -1);

    /* Another student: no file. */
    fresh_row(&again, st.key);
    snprintf(again.name, sizeof again.name, "bo");
    ck_assert_int_eq(class_cache_load(&run, &again), -1);
    ck_assert_int_eq(again.cached, 0);
    cache_dir_remove();
}
END_TEST

/* A damaged or foreign file is no cache: a wrong magic, a record of
 * another size, a cut file. */
START_TEST(cache_refuses_damaged_files)
{
    cache_dir();
    class_run run = {.out = out};
    class_student st, again;
    char path[400];
    snprintf(path, sizeof path, "%s/.cache/ada.state", out);
    /* The header: the magic (16 bytes), the record's size, the key. */
    static const long at[] = {0, 16};
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        graded_row(&st);
        ck_assert_int_eq(class_cache_save(&run, &st), 0);
        flip_byte(path, at[i]);
        fresh_row(&again, st.key);
        ck_assert_msg(class_cache_load(&run, &again) == -1, "byte %ld changed, still loaded",
                      at[i]);
        ck_assert_int_eq(again.cached, 0);
    }
    graded_row(&st);
    ck_assert_int_eq(class_cache_save(&run, &st), 0);
    struct stat s;
    ck_assert_int_eq(stat(path, &s), 0);
    ck_assert_int_eq(truncate(path, s.st_size - 1), 0);
    fresh_row(&again, st.key);
    ck_assert_int_eq(class_cache_load(&run, &again), -1);
    ck_assert_int_eq(again.cached, 0);

    /* No folder for it: the save says so. */
    char cache[400];
    snprintf(cache, sizeof cache, "%s/.cache", out);
    cache_dir_remove();
    cache_dir();
    snprintf(cache, sizeof cache, "%s/.cache", out);
    FILE *f = fopen(cache, "w");
    fclose(f);
    run.out = out;
    ck_assert_int_eq(class_cache_save(&run, &st), -1);
    cache_dir_remove();
}
END_TEST

Suite *class_keys_suite(void)
{
    Suite *s = suite_create("class_keys");
    TCase *tc = tcase_create("keys");
    tcase_add_test(tc, identifiers_as_given_or_made_safe);
    tcase_add_test(tc, identifiers_that_meet);
    tcase_add_test(tc, identifiers_unique_when_hashes_meet);
    tcase_add_test(tc, sha256_every_padding_boundary);
    tcase_add_test(tc, sha256_strings_and_files);
    tcase_add_test(tc, cache_gives_back_cells_for_the_same_key);
    tcase_add_test(tc, cache_refuses_damaged_files);
    suite_add_tcase(s, tc);
    return s;
}
