/* test_stub_lines.c: what the course's kernel files say about their
 * exercise agrees with its spec (issue 26), for every exercise of the
 * registry:
 *   - the student's file (the stub, or a demo's file) has one header line
 *     "Graded on sizes A, B, C; timed at T (what a size is)." with exactly
 *     the spec's correctness sizes, timing size and size_means;
 *   - every knob a kernel file (stub, solution, reference, baseline, demo)
 *     uses in its code has a default there, "#ifndef K / #define K V", and
 *     V is the spec's default, so `nvcc -Xptxas -v file.cu` compiles the
 *     file alone as the grader compiles it by default.
 *
 *   CK_RUN_SUITE=stub_lines build/tests/unit_tests */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fileio.h"
#include "suites.h"

static const exercise *nth(int i)
{
    static const exercise *all[MAX_REGISTERED];
    registered_exercises(all, MAX_REGISTERED);
    return all[i];
}

/* The file's text with comments blanked (strings are left: kernels of the
 * course have none that name a knob). */
static char *code_of(const char *text)
{
    char *c = strdup(text);
    for (char *p = c; *p; p++) {
        if (p[0] == '/' && p[1] == '*') {
            char *e = strstr(p + 2, "*/");
            char *stop = e ? e + 2 : p + strlen(p);
            memset(p, ' ', (size_t)(stop - p));
            p = stop - 1;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
            if (!*p)
                break;
        }
    }
    return c;
}

/* Does `text` use the word `w` (not as part of a longer name)? */
static int uses_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = text; (p = strstr(p, w)) != NULL; p += n) {
        int before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* The default `text` gives knob `k` ("#ifndef K\n#define K V"): 1 and *v,
 * or 0 when it gives none. */
static int default_of(const char *text, const char *k, long *v)
{
    char pat[96];
    snprintf(pat, sizeof pat, "#ifndef %s\n#define %s ", k, k);
    const char *p = strstr(text, pat);
    if (!p)
        return 0;
    *v = strtol(p + strlen(pat), NULL, 10);
    return 1;
}

/* Every knob of ex that `path` uses has its spec default there. */
static void knob_defaults_agree(const exercise *ex, const char *path)
{
    char *text = read_text_file(path, NULL);
    ck_assert_msg(text, "cannot read %s", path);
    char *code = code_of(text);
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++) {
        long v;
        int has = default_of(text, ex->knobs[k].name, &v);
        ck_assert_msg(has || !uses_word(code, ex->knobs[k].name),
                      "%s uses %s with no default (#ifndef %s / #define %s %d / #endif): "
                      "nvcc cannot compile it alone", path, ex->knobs[k].name,
                      ex->knobs[k].name, ex->knobs[k].name, ex->knobs[k].def);
        ck_assert_msg(!has || v == ex->knobs[k].def, "%s: #define %s %ld, but lesson%d/%s's "
                      "default is %d", path, ex->knobs[k].name, v, ex->lesson, ex->name,
                      ex->knobs[k].def);
    }
    free(code);
    free(text);
}

START_TEST(knob_defaults_match_the_spec)
{
    const exercise *ex = nth(_i);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", ex->demo ? "grader/demos" : "exercises", ex->file);
    knob_defaults_agree(ex, path);
    snprintf(path, sizeof path, "grader/baselines/%s", ex->file);
    knob_defaults_agree(ex, path);
    if (!ex->demo) {
        snprintf(path, sizeof path, "solutions/%s", ex->file);
        knob_defaults_agree(ex, path);
    }
    if (ex->reference) {
        snprintf(path, sizeof path, "solutions/%s", ex->reference);
        knob_defaults_agree(ex, path);
    }
}
END_TEST

START_TEST(stub_names_its_sizes)
{
    const exercise *ex = nth(_i);
    char path[512], want[512];
    snprintf(path, sizeof path, "%s/%s", ex->demo ? "grader/demos" : "exercises", ex->file);
    ck_assert_msg(ex->size_means && ex->size_means[0], "lesson%d/%s: no size_means",
                  ex->lesson, ex->name);
    int at = snprintf(want, sizeof want, "Graded on sizes ");
    for (int k = 0; k < MAX_SIZES && ex->check_sizes[k]; k++)
        at += snprintf(want + at, sizeof want - (size_t)at, "%s%zu", k ? ", " : "",
                       ex->check_sizes[k]);
    snprintf(want + at, sizeof want - (size_t)at, "; timed at %zu (%s).\n", ex->time_size,
             ex->size_means);
    char *text = read_text_file(path, NULL);
    ck_assert_msg(text, "cannot read %s", path);
    const char *line = strstr(text, "Graded on sizes");
    ck_assert_msg(line, "%s has no line '%s'", path, want);
    ck_assert_msg(!strncmp(line, want, strlen(want)), "%s says\n  %.*s\nbut its spec grades "
                  "it on\n  %s", path, (int)strcspn(line, "\n"), line, want);
    ck_assert_msg(!strstr(line + 1, "Graded on sizes"), "%s: two sizes lines", path);
    /* In the header: before the first line of code. */
    const char *code = strstr(text, "extern \"C\"");
    ck_assert_msg(!code || line < code, "%s: the sizes line is not in the header", path);
    free(text);
}
END_TEST

Suite *stub_lines_suite(void)
{
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED);
    n = n < MAX_REGISTERED ? n : MAX_REGISTERED;
    Suite *s = suite_create("stub_lines");
    TCase *tc = tcase_create("files");
    tcase_add_loop_test(tc, knob_defaults_match_the_spec, 0, n);
    tcase_add_loop_test(tc, stub_names_its_sizes, 0, n);
    suite_add_tcase(s, tc);
    return s;
}
