/* test_options.c: the one command-line parser (core/options.h) reads every
 * kind of value whole, refuses with a sentence that names the option and
 * what it got, stops at --help, hands words to the command in order, and
 * prints help made from the same table, within 80 columns. The commands'
 * own tables are tested through the binary (tests/cli/run.sh). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lesson_name.h"
#include "options.h"
#include "suites.h"

typedef struct fixture {
    int flag, integer, ngiven_seed, nwords, calls;
    const char *string, *constant_dest;
    unsigned long long seed;
    double seconds;
    const char *words[8];
    char called_with[64];
} fixture;

static int take_word(void *ctx, const char *w, char *err, size_t len)
{
    fixture *f = ctx;
    if (!strcmp(w, "bad")) {
        snprintf(err, len, "'%s' is no word of mine", w);
        return -1;
    }
    f->words[f->nwords++] = w;
    return 0;
}

static int take_call(void *ctx, const char *v, char *err, size_t len)
{
    fixture *f = ctx;
    f->calls++;
    snprintf(f->called_with, sizeof f->called_with, "%s", v ? v : "(none)");
    if (v && !strcmp(v, "no")) {
        snprintf(err, len, "call refused '%s'", v);
        return -1;
    }
    return 0;
}

static int take_flag_call(void *ctx, const char *v, char *err, size_t len)
{
    (void)err; (void)len;
    fixture *f = ctx;
    f->calls += 10;
    snprintf(f->called_with, sizeof f->called_with, "%s", v ? v : "(none)");
    return 0;
}

static fixture F;
static char err[256];

#define TABLE { \
    {.name = "--flag", .kind = OPTION_FLAG, .flag = &F.flag, .help = "a flag"}, \
    {.heading = "A heading:"}, \
    {.name = "--string", .kind = OPTION_STRING, .arg = "S", .string = &F.string, \
     .help = "a string\nover two lines"}, \
    {.name = "--const", .kind = OPTION_CONST, .string = &F.constant_dest, .constant = "fixed", \
     .help = "a constant"}, \
    {.name = "--int", .kind = OPTION_INT, .arg = "N", .integer = &F.integer, .min = 1, \
     .help = "an integer >= 1"}, \
    {.name = "--seed", .kind = OPTION_ULL, .arg = "N", .ull = &F.seed, .given = &F.ngiven_seed, \
     .help = "a seed"}, \
    {.name = "--secs", .kind = OPTION_SECONDS, .arg = "S", .seconds = &F.seconds, \
     .help = "seconds"}, \
    {.name = "--call", .kind = OPTION_CALL, .arg = "V", .call = take_call, .help = "a call"}, \
    {.name = "--callflag", .kind = OPTION_CALL, .call = take_flag_call, .help = "a call, no value"}, \
    {.name = "--hidden", .kind = OPTION_FLAG, .flag = &F.flag}, \
    {.name = "--a-very-long-option-name", .kind = OPTION_FLAG, .flag = &F.flag, .help = "long"}, \
    {0}, \
}

/* Parse the words (NULL-ended) after a program name. */
static int parse(const char *first, ...)
{
    static const option_spec opts[] = TABLE;
    static char *argv[32];
    int argc = 0;
    argv[argc++] = "prog";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    memset(&F, 0, sizeof F);
    err[0] = 0;
    option_command c = {.opts = opts, .word = take_word, .ctx = &F, .synopsis = "usage: prog\n",
                        .epilogue = "the end\n"};
    return options_parse(&c, argc, argv, err, sizeof err);
}

#define SAYS(text, part) ck_assert_msg(strstr(text, part) != NULL, "'%s' lacks '%s'", text, part)

START_TEST(every_kind_is_stored)
{
    ck_assert_int_eq(parse("--flag", "--string", "s1", "--const", "--int", "7", "--seed", "123",
                           "--secs", "2.5", "--call", "v", "--callflag", NULL), OPTIONS_OK);
    ck_assert_int_eq(F.flag, 1);
    ck_assert_str_eq(F.string, "s1");
    ck_assert_str_eq(F.constant_dest, "fixed");
    ck_assert_int_eq(F.integer, 7);
    ck_assert(F.seed == 123ull);
    ck_assert_int_eq(F.ngiven_seed, 1);
    ck_assert(F.seconds == 2.5);
    ck_assert_int_eq(F.calls, 11);                 /* --call once, --callflag once */
    ck_assert_str_eq(F.called_with, "(none)");     /* the flag call took no value */
    ck_assert_int_eq(F.nwords, 0);
}
END_TEST

START_TEST(nothing_given_changes_nothing)
{
    ck_assert_int_eq(parse(NULL), OPTIONS_OK);
    ck_assert_int_eq(F.flag, 0);
    ck_assert_ptr_null(F.string);
    ck_assert_int_eq(F.ngiven_seed, 0);
    ck_assert_int_eq(F.calls, 0);
}
END_TEST

START_TEST(words_go_to_the_command_in_order)
{
    ck_assert_int_eq(parse("one", "--string", "two", "three", "4", NULL), OPTIONS_OK);
    ck_assert_int_eq(F.nwords, 3);
    ck_assert_str_eq(F.words[0], "one");
    ck_assert_str_eq(F.words[1], "three");
    ck_assert_str_eq(F.words[2], "4");
    ck_assert_str_eq(F.string, "two");             /* a value is no word */
    ck_assert_int_eq(parse("one", "bad", "two", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "'bad' is no word of mine");
    ck_assert_int_eq(F.nwords, 1);                 /* stopped at the refusal */
}
END_TEST

START_TEST(values_are_read_whole)
{
    struct { const char *opt, *val, *says; } bad[] = {
        {"--int", "0", "--int needs a whole number >= 1, got '0'"},
        {"--int", "5x", "--int needs a whole number >= 1, got '5x'"},
        {"--int", "", "--int needs a whole number >= 1, got ''"},
        {"--int", "99999999999", "--int needs a whole number >= 1, got '99999999999'"},
        {"--seed", "-3", "--seed needs a whole number >= 0, got '-3'"},
        {"--seed", "12ab", "--seed needs a whole number >= 0, got '12ab'"},
        {"--seed", "", "--seed needs a whole number >= 0, got ''"},
        {"--seed", "99999999999999999999999", "--seed needs a whole number >= 0"},
        {"--secs", "0", "--secs needs seconds > 0, got '0'"},
        {"--secs", "-1", "--secs needs seconds > 0, got '-1'"},
        {"--secs", "5x", "--secs needs seconds > 0, got '5x'"},
        {"--secs", "nan", "--secs needs seconds > 0, got 'nan'"},
        {"--secs", "inf", "--secs needs seconds > 0, got 'inf'"},
        {"--secs", "", "--secs needs seconds > 0, got ''"},
        {"--call", "no", "call refused 'no'"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        ck_assert_msg(parse(bad[k].opt, bad[k].val, NULL) == OPTIONS_BAD, "%s %s accepted",
                      bad[k].opt, bad[k].val);
        SAYS(err, bad[k].says);
    }
    ck_assert_int_eq(parse("--int", "1", "--seed", "0", "--secs", "1e-3", NULL), OPTIONS_OK);
    ck_assert_int_eq(F.integer, 1);                /* the bound itself is allowed */
    ck_assert(F.seed == 0);
    ck_assert_int_eq(F.ngiven_seed, 1);            /* 0 given is still given */
    ck_assert(F.seconds == 1e-3);
    ck_assert_int_eq(parse("--seed", "18446744073709551615", NULL), OPTIONS_OK);
    ck_assert(F.seed == 18446744073709551615ull);
}
END_TEST

START_TEST(a_refused_value_is_not_marked_given)
{
    ck_assert_int_eq(parse("--seed", "x", NULL), OPTIONS_BAD);
    ck_assert_int_eq(F.ngiven_seed, 0);
}
END_TEST

START_TEST(missing_values_and_unknown_options)
{
    ck_assert_int_eq(parse("--string", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "--string needs a value");
    ck_assert_int_eq(parse("--call", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "--call needs a value");
    ck_assert_int_eq(F.calls, 0);
    ck_assert_int_eq(parse("--flag", "--frob", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "unknown option --frob");
    ck_assert_int_eq(parse("--fla", NULL), OPTIONS_BAD);       /* no prefixes */
    ck_assert_int_eq(parse("-", NULL), OPTIONS_BAD);
    /* The value is the next argument, whatever it looks like. */
    ck_assert_int_eq(parse("--string", "--flag", NULL), OPTIONS_OK);
    ck_assert_str_eq(F.string, "--flag");
    ck_assert_int_eq(F.flag, 0);
}
END_TEST

START_TEST(help_stops_reading)
{
    ck_assert_int_eq(parse("--help", "--frob", NULL), OPTIONS_HELP);
    ck_assert_int_eq(parse("one", "-h", "bad", NULL), OPTIONS_HELP);
    ck_assert_int_eq(F.nwords, 1);
    ck_assert_int_eq(parse("--frob", "--help", NULL), OPTIONS_BAD);   /* in order */
}
END_TEST

START_TEST(without_a_word_call_words_are_refused)
{
    static const option_spec opts[] = TABLE;
    char *argv[] = {"prog", "--flag", "stray", NULL};
    option_command c = {.opts = opts, .ctx = &F, .synopsis = ""};
    memset(&F, 0, sizeof F);
    ck_assert_int_eq(options_parse(&c, 3, argv, err, sizeof err), OPTIONS_BAD);
    SAYS(err, "'stray'");
}
END_TEST

START_TEST(help_is_the_table)
{
    static const option_spec opts[] = TABLE;
    option_command c = {.opts = opts, .synopsis = "usage: prog\n", .epilogue = "the end\n"};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    options_help(&c, f);
    fclose(f);
    ck_assert_str_eq(text,
        "usage: prog\n"
        "options:\n"
        "  --flag              a flag\n"
        "A heading:\n"
        "  --string S          a string\n"
        "                      over two lines\n"
        "  --const             a constant\n"
        "  --int N             an integer >= 1\n"
        "  --seed N            a seed\n"
        "  --secs S            seconds\n"
        "  --call V            a call\n"
        "  --callflag          a call, no value\n"
        "  --a-very-long-option-name\n"
        "                      long\n"
        "the end\n");
    free(text);
    /* Another column. */
    c.width = 12;
    c.epilogue = NULL;
    f = open_memstream(&text, &len);
    options_help(&c, f);
    fclose(f);
    SAYS(text, "\n  --flag    a flag\n");
    SAYS(text, "\n  --string S\n            a string\n            over two lines\n");
    ck_assert_msg(strstr(text, "the end") == NULL, "no epilogue was asked for");
    free(text);
}
END_TEST

START_TEST(lesson_words)
{
    int l[N_LESSONS] = {0};
    char e[128] = "";
    ck_assert_int_eq(lesson_mark("lesson3", l, e, sizeof e), 0);
    ck_assert_int_eq(lesson_mark("12", l, e, sizeof e), 0);
    for (int k = 0; k < N_LESSONS; k++)
        ck_assert_int_eq(l[k], k == 3 || k == 12);
    ck_assert_int_eq(lesson_mark("lesson0", l, e, sizeof e), 0);
    ck_assert_int_eq(l[0], 1);
    char last[32];
    snprintf(last, sizeof last, "lesson%d", N_LESSONS - 1);
    ck_assert_int_eq(lesson_mark(last, l, e, sizeof e), 0);
    ck_assert_int_eq(l[N_LESSONS - 1], 1);
    const char *bad[] = {"lesson99", "lesson", "", "-1", "3x", "lesson-2", "ALL"};
    snprintf(last, sizeof last, "%d", N_LESSONS);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_msg(lesson_mark(bad[i], l, e, sizeof e) == -1, "'%s' taken", bad[i]);
        ck_assert_msg(strstr(e, "is not a lesson (lesson0 .. lesson") != NULL, "%s", e);
    }
    ck_assert_int_eq(lesson_mark(last, l, e, sizeof e), -1);     /* one past the last */
    char want[96];
    snprintf(want, sizeof want, "'lesson99' is not a lesson (lesson0 .. lesson%d, or all)",
             N_LESSONS - 1);
    lesson_mark("lesson99", l, e, sizeof e);
    ck_assert_str_eq(e, want);
    /* The number itself, or -1 as the contract says. */
    ck_assert_int_eq(lesson_from_name("lesson3"), 3);
    ck_assert_int_eq(lesson_from_name("15"), 15);
    ck_assert_int_eq(lesson_from_name("lesson0"), 0);
    ck_assert_int_eq(lesson_from_name("lesson16"), -1);
    ck_assert_int_eq(lesson_from_name("all"), -1);
    ck_assert_int_eq(lesson_from_name(""), -1);
    ck_assert_int_eq(lesson_from_name("-1"), -1);
    int m[N_LESSONS] = {0};
    ck_assert_int_eq(lesson_mark("all", m, e, sizeof e), 0);
    for (int k = 0; k < N_LESSONS; k++)
        ck_assert_int_eq(m[k], 1);
}
END_TEST

/* The bounds of each kind: an int up to INT_MAX, seconds up to 1e9, a seed
 * up to the largest unsigned long long; one past each is refused. */
START_TEST(values_at_their_bounds)
{
    ck_assert_int_eq(parse("--int", "2147483647", NULL), OPTIONS_OK);
    ck_assert_int_eq(F.integer, 2147483647);
    ck_assert_int_eq(parse("--int", "2147483648", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "--int needs a whole number >= 1, got '2147483648'");
    ck_assert_int_eq(parse("--int", "-5", NULL), OPTIONS_BAD);
    ck_assert_int_eq(parse("--int", "+7", NULL), OPTIONS_OK);
    ck_assert_int_eq(F.integer, 7);
    ck_assert_int_eq(parse("--secs", "1e9", NULL), OPTIONS_OK);
    ck_assert(F.seconds == 1e9);
    ck_assert_int_eq(parse("--secs", "1000000001", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "--secs needs seconds > 0, got '1000000001'");
    ck_assert_int_eq(parse("--seed", "18446744073709551616", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "--seed needs a whole number >= 0, got '18446744073709551616'");
    /* A refused value leaves the place as it was. */
    ck_assert_int_eq(parse("--int", "3", "--int", "0", NULL), OPTIONS_BAD);
    ck_assert_int_eq(F.integer, 3);
    ck_assert_int_eq(parse("--secs", "2", "--secs", "x", NULL), OPTIONS_BAD);
    ck_assert(F.seconds == 2);
    ck_assert_int_eq(parse("--seed", "5", "--seed", "-1", NULL), OPTIONS_BAD);
    ck_assert(F.seed == 5);
}
END_TEST

/* A value is the next argument only: the last argument cannot be one, and
 * what follows a value is read again as an option or a word. */
START_TEST(a_value_takes_one_argument)
{
    ck_assert_int_eq(parse("w1", "--int", "4", "w2", "--flag", NULL), OPTIONS_OK);
    ck_assert_int_eq(F.integer, 4);
    ck_assert_int_eq(F.nwords, 2);
    ck_assert_str_eq(F.words[1], "w2");
    ck_assert_int_eq(F.flag, 1);
    ck_assert_int_eq(parse("--flag", "--int", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "--int needs a value");
    ck_assert_int_eq(parse("--secs", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "--secs needs a value");
    ck_assert_int_eq(parse("--seed", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "--seed needs a value");
    ck_assert_int_eq(F.ngiven_seed, 0);
    /* Options without a value take none, even when a word follows. */
    ck_assert_int_eq(parse("--const", "w", "--callflag", "v", NULL), OPTIONS_OK);
    ck_assert_str_eq(F.constant_dest, "fixed");
    ck_assert_int_eq(F.nwords, 2);
    ck_assert_int_eq(F.calls, 10);
    /* An unknown option is named whole, and nothing after it is read. */
    ck_assert_int_eq(parse("--frob", "--flag", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "unknown option --frob");
    ck_assert_int_eq(F.flag, 0);
    ck_assert_int_eq(parse("-x", NULL), OPTIONS_BAD);
    ck_assert_str_eq(err, "unknown option -x");
    ck_assert_int_eq(parse("-help", NULL), OPTIONS_BAD);
    ck_assert_int_eq(parse("stray", "--help", NULL), OPTIONS_HELP);
}
END_TEST

/* Without a word call, the refusal is one sentence naming the word. */
START_TEST(a_stray_word_is_named)
{
    static const option_spec opts[] = TABLE;
    char *argv[] = {"prog", "stray", NULL};
    option_command c = {.opts = opts, .ctx = &F, .synopsis = ""};
    memset(&F, 0, sizeof F);
    ck_assert_int_eq(options_parse(&c, 2, argv, err, sizeof err), OPTIONS_BAD);
    ck_assert_str_eq(err, "unexpected 'stray' (options start with --)");
    /* An empty table refuses every option. */
    static const option_spec none[] = {{0}};
    char *argv2[] = {"prog", "--flag", NULL};
    option_command e = {.opts = none, .synopsis = ""};
    ck_assert_int_eq(options_parse(&e, 2, argv2, err, sizeof err), OPTIONS_BAD);
    ck_assert_str_eq(err, "unknown option --flag");
}
END_TEST

/* The help's first column: a name that leaves at least one space before the
 * help column shares its line; one that does not gets a line of its own. */
START_TEST(help_column_boundary)
{
    static int x;
    static const option_spec opts[] = {
        {.name = "--nineteen-chars-x", .kind = OPTION_FLAG, .flag = &x, .help = "fits"},
        {.name = "--twenty-characters", .kind = OPTION_FLAG, .flag = &x, .help = "fits too"},
        {.name = "--twenty-one-chars-x", .kind = OPTION_FLAG, .flag = &x, .help = "own line"},
        {.name = "--v", .kind = OPTION_STRING, .arg = "LONG-VALUE-NAMES", .help = "a\nb"},
        {0},
    };
    option_command c = {.opts = opts, .synopsis = "S\n"};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    options_help(&c, f);
    fclose(f);
    ck_assert_str_eq(text,
        "S\n"
        "options:\n"
        "  --nineteen-chars-x  fits\n"
        "  --twenty-characters fits too\n"
        "  --twenty-one-chars-x\n"
        "                      own line\n"
        "  --v LONG-VALUE-NAMES\n"
        "                      a\n"
        "                      b\n");
    free(text);
}
END_TEST

Suite *options_suite(void)
{
    Suite *s = suite_create("options");
    TCase *t = tcase_create("options");
    tcase_add_test(t, every_kind_is_stored);
    tcase_add_test(t, nothing_given_changes_nothing);
    tcase_add_test(t, words_go_to_the_command_in_order);
    tcase_add_test(t, values_are_read_whole);
    tcase_add_test(t, a_refused_value_is_not_marked_given);
    tcase_add_test(t, missing_values_and_unknown_options);
    tcase_add_test(t, help_stops_reading);
    tcase_add_test(t, without_a_word_call_words_are_refused);
    tcase_add_test(t, help_is_the_table);
    tcase_add_test(t, lesson_words);
    tcase_add_test(t, values_at_their_bounds);
    tcase_add_test(t, a_value_takes_one_argument);
    tcase_add_test(t, a_stray_word_is_named);
    tcase_add_test(t, help_column_boundary);
    suite_add_tcase(s, t);
    return s;
}
