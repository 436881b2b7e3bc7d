/* test_class_text.c: the text every class output is made of, byte for byte
 * (class_text.c): CSV fields (RFC 4180 quoting, the formula guard), XML 1.0
 * text (escapes; characters XML forbids, even as references, as one '?'),
 * HTML text, Markdown code spans, UTF-8 scrubbing of logs, the bounded
 * replace, the summary's reason of a verdict, which outcomes count as
 * failures, and the whole-or-nothing file writes; and how an entry's name
 * is shown (printable_name, submission.c). Each rule at its boundaries:
 * every lead byte range of UTF-8, the first and last code points allowed.
 *
 *   CK_RUN_SUITE=class_text build/tests/unit_tests
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "class.h"
#include "hand_in.h"
#include "submission.h"
#include "suites.h"

typedef struct pair {
    const char *in, *out;
} pair;

/* What fn writes for `in`, as a malloc'd string. */
static char *emit(void (*fn)(FILE *, const char *), const char *in)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    fn(f, in);
    fclose(f);
    return buf;
}

static void each(void (*fn)(FILE *, const char *), const pair *t, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        char *got = emit(fn, t[i].in);
        ck_assert_msg(!strcmp(got, t[i].out), "%s, case %zu: got \"%s\", want \"%s\"", what, i,
                      got, t[i].out);
        free(got);
    }
}

#define EACH(fn, t) each(fn, t, sizeof t / sizeof *t, #fn)

START_TEST(csv_quotes_only_what_needs_it)
{
    static const pair t[] = {
        {"", ""}, {"plain", "plain"}, {"a b", "a b"}, {"a=b", "a=b"}, {"1-2", "1-2"},
        {"x-", "x-"}, {"5", "5"},
        /* Quoted: a separator, a quote, a line break, or a space at either end. */
        {"a,b", "\"a,b\""}, {"a\"b", "\"a\"\"b\""}, {"\"", "\"\"\"\""},
        {"a\rb", "\"a\rb\""}, {"a\nb", "\"a\nb\""}, {" a", "\" a\""}, {"a ", "\"a \""},
        {"ab ", "\"ab \""}, {" ", "\" \""},
        /* A formula a spreadsheet would run: behind a quote, inside quotes. */
        {"=", "\"'=\""}, {"=1+2", "\"'=1+2\""}, {"+1", "\"'+1\""}, {"@SUM(A1)", "\"'@SUM(A1)\""},
        {"-x", "\"'-x\""}, {"-", "\"'-\""}, {"=a\"b", "\"'=a\"\"b\""},
        /* A negative number is a number. */
        {"-1", "-1"}, {"-0.5", "-0.5"}, {"-.5", "-.5"}, {"-3,5", "\"-3,5\""},
    };
    EACH(csv_field, t);
}
END_TEST

/* XML 1.0 allows tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD and
 * U+10000..U+10FFFF; anything else is one '?' per character (a lead byte
 * with its continuation bytes), or per stray byte. Each valid case is
 * followed by "Z", so that a sequence read as too long or too short shows. */
START_TEST(xml_text_escapes_and_forbids)
{
    static const pair t[] = {
        {"plain", "plain"}, {"&<>\"'", "&amp;&lt;&gt;&quot;&apos;"},
        {"\t\n\r", "&#9;&#10;&#13;"}, {"a\x01" "b", "a?b"}, {"\x08\x0b\x0c\x1f", "????"},
        {" !~\x7f" "Z", " !~\x7f" "Z"}, {"\x80" "Z", "?Z"}, {"\xbf\x80", "??"},
        /* Two bytes: C0 and C1 are overlong; U+0080 (C2 80) to U+07FF (DF BF). */
        {"\xc0\x80" "Z", "?Z"}, {"\xc1\xbf" "Z", "?Z"}, {"\xc2\x80" "Z", "\xc2\x80" "Z"},
        {"\xc2\x9f" "Z", "\xc2\x9f" "Z"}, {"\xdf\xbf" "Z", "\xdf\xbf" "Z"},
        {"\xc3\xa9" "Z", "\xc3\xa9" "Z"}, {"\xc3" "A", "?A"}, {"\xc3\xc3\xa9", "?\xc3\xa9"},
        {"\xc3\xc0", "??"}, {"\xc0\xbf" "Z", "?Z"}, {"\xc0\xc3\xa9", "?\xc3\xa9"},
        /* Three bytes: E0 below A0 is overlong, ED from A0 a surrogate, U+FFFE and U+FFFF. */
        {"\xe0\xa0\x80" "Z", "\xe0\xa0\x80" "Z"}, {"\xe0\x9f\xbf" "Z", "?Z"},
        {"\xe1\x80\x80" "Z", "\xe1\x80\x80" "Z"}, {"\xec\xa0\x80" "Z", "\xec\xa0\x80" "Z"},
        {"\xec\xbf\xbf" "Z", "\xec\xbf\xbf" "Z"}, {"\xed\x9f\xbf" "Z", "\xed\x9f\xbf" "Z"},
        {"\xed\xa0\x80" "Z", "?Z"}, {"\xed\xbf\xbf" "Z", "?Z"},
        {"\xee\x80\x80" "Z", "\xee\x80\x80" "Z"}, {"\xee\xa0\x80" "Z", "\xee\xa0\x80" "Z"},
        {"\xee\xbf\xbe" "Z", "\xee\xbf\xbe" "Z"}, {"\xef\xbe\xbf" "Z", "\xef\xbe\xbf" "Z"},
        {"\xef\xbf\xbd" "Z", "\xef\xbf\xbd" "Z"}, {"\xef\xbf\xbe" "Z", "?Z"},
        {"\xef\xbf\xbf" "Z", "?Z"}, {"\xe6\x9d" "Z", "?Z"},
        /* Four bytes: F0 below 90 is overlong, F4 from 90 past U+10FFFF, F5 up never. */
        {"\xf0\x90\x80\x80" "Z", "\xf0\x90\x80\x80" "Z"}, {"\xf0\x8f\xbf\xbf" "Z", "?Z"},
        {"\xf1\x80\x80\x80" "Z", "\xf1\x80\x80\x80" "Z"},
        {"\xf1\x8f\x80\x80" "Z", "\xf1\x8f\x80\x80" "Z"},
        {"\xf3\x90\x80\x80" "Z", "\xf3\x90\x80\x80" "Z"},
        {"\xf3\xbf\xbf\xbf" "Z", "\xf3\xbf\xbf\xbf" "Z"},
        {"\xf4\x8f\xbf\xbf" "Z", "\xf4\x8f\xbf\xbf" "Z"}, {"\xf4\x90\x80\x80" "Z", "?Z"},
        {"\xf5\x80\x80\x80" "Z", "?Z"}, {"\xf8\x80\x80\x80\x80" "Z", "??Z"},
    };
    EACH(xml_text, t);
    char *none = emit(xml_text, NULL);
    ck_assert_str_eq(none, "");
    free(none);
}
END_TEST

START_TEST(html_text_escapes)
{
    static const pair t[] = {
        {"", ""}, {"<b>&\"x\"'y'</b>", "&lt;b&gt;&amp;&quot;x&quot;&#39;y&#39;&lt;/b&gt;"},
        {"caf\xc3\xa9 \xff\x01", "caf\xc3\xa9 \xff\x01"},
    };
    EACH(html_text, t);
    char *none = emit(html_text, NULL);
    ck_assert_str_eq(none, "");
    free(none);
}
END_TEST

static void md_plain(FILE *f, const char *s) { md_code(f, s, 0); }
static void md_cell(FILE *f, const char *s) { md_code(f, s, 1); }

/* CommonMark: a fence one longer than the longest run of backquotes inside;
 * a space pads a name that starts or ends with a backquote or starts with a
 * space; in a table cell '|' is escaped; a line break is a space. */
START_TEST(markdown_code_spans)
{
    static const pair plain[] = {
        {"", "``"}, {"a", "`a`"}, {"a`b", "``a`b``"}, {"a``b`c", "```a``b`c```"},
        {"`a", "`` `a ``"}, {"a`", "`` a` ``"}, {"a`b``", "``` a`b`` ```"},
        {" a", "`  a `"}, {"a ", "`a `"}, {"x|y", "`x|y`"}, {"a\nb\rc", "`a b c`"},
        {"``", "``` `` ```"},
    };
    static const pair cell[] = {
        {"x|y", "`x\\|y`"}, {"|", "`\\|`"}, {"a`|", "``a`\\|``"},
    };
    EACH(md_plain, plain);
    EACH(md_cell, cell);
}
END_TEST

static void scrub_each(const pair *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", t[i].in);
        utf8_scrub(buf);
        ck_assert_msg(!strcmp(buf, t[i].out), "utf8_scrub, case %zu: got \"%s\", want \"%s\"",
                      i, buf, t[i].out);
    }
}

/* Valid UTF-8 stays; a byte that is not part of a valid character, and
 * every byte of a control character (C0 but tab and newline, DEL, C1), is
 * '?', so the length never changes. */
START_TEST(utf8_scrub_keeps_only_valid_text)
{
    static const pair t[] = {
        {"ok", "ok"}, {"\t\n", "\t\n"}, {"\r", "?"}, {"\x01\x1f", "??"}, {" ~", " ~"},
        {"\x7e\x7f\x80" "Z", "~??Z"}, {"\x1b[2J", "?[2J"},
        {"\xc2\x80" "Z", "??Z"}, {"\xc2\x9f" "Z", "??Z"}, {"\xc2\xa0" "Z", "\xc2\xa0" "Z"},
        {"\xc3\x80" "Z", "\xc3\x80" "Z"}, {"\xc3\x9f" "Z", "\xc3\x9f" "Z"},
        {"\xc1\xbf" "Z", "??Z"}, {"\xc0\x80" "Z", "??Z"}, {"\xdf\xbf" "Z", "\xdf\xbf" "Z"},
        {"\xc3" "A", "?A"}, {"\xc3\xc0", "??"},
        {"\xe0\xa0\x80" "Z", "\xe0\xa0\x80" "Z"}, {"\xe0\x9f\xbf" "Z", "???Z"},
        {"\xe1\x80\x80" "Z", "\xe1\x80\x80" "Z"}, {"\xec\xa0\x80" "Z", "\xec\xa0\x80" "Z"},
        {"\xed\x9f\xbf" "Z", "\xed\x9f\xbf" "Z"}, {"\xed\xa0\x80" "Z", "???Z"},
        {"\xee\xa0\x80" "Z", "\xee\xa0\x80" "Z"}, {"\xef\xbf\xbf" "Z", "\xef\xbf\xbf" "Z"},
        {"\xe6\x9d" "Z", "??Z"},
        {"\xf0\x90\x80\x80" "Z", "\xf0\x90\x80\x80" "Z"}, {"\xf0\x8f\xbf\xbf" "Z", "????Z"},
        {"\xf1\x8f\x80\x80" "Z", "\xf1\x8f\x80\x80" "Z"},
        {"\xf3\x90\x80\x80" "Z", "\xf3\x90\x80\x80" "Z"},
        {"\xf4\x8f\xbf\xbf" "Z", "\xf4\x8f\xbf\xbf" "Z"},
        {"\xf4\x8f\x90\x80" "Z", "\xf4\x8f\x90\x80" "Z"}, {"\xf4\x90\x80\x80" "Z", "????Z"},
        {"\xf5\x80\x80\x80" "Z", "????Z"}, {"\xf5\x80\x80" "Z", "???Z"},
        {"\xf6\x80\x80" "Z", "???Z"}, {"\xff" "Z", "?Z"},
    };
    scrub_each(t, sizeof t / sizeof *t);
}
END_TEST

/* The text and a guard after it, to see a write past the cap. */
typedef struct capped {
    char s[16];
    char guard[16];
} capped;

static void replace_in(capped *c, const char *s, const char *from, const char *to)
{
    memset(c, 0, sizeof *c);
    memset(c->guard, 'G', sizeof c->guard - 1);
    snprintf(c->s, sizeof c->s, "%s", s);
    replace_all(c->s, sizeof c->s, from, to);
    ck_assert_msg(!strcmp(c->guard, "GGGGGGGGGGGGGGG"), "replace_all wrote past its cap: %s",
                  c->s);
}

/* Every occurrence, left to right, never the replacement itself again;
 * what does not fit in the cap is cut off (never the old text kept). */
START_TEST(replace_all_within_its_cap)
{
    capped c;
    replace_in(&c, "aXbXc", "X", "--");
    ck_assert_str_eq(c.s, "a--b--c");
    replace_in(&c, "a--b--c", "--", "");
    ck_assert_str_eq(c.s, "abc");
    replace_in(&c, "aaa", "a", "aa");
    ck_assert_str_eq(c.s, "aaaaaa");
    replace_in(&c, "abc", "", "zz");
    ck_assert_str_eq(c.s, "abc");
    replace_in(&c, "abc", "x", "yy");
    ck_assert_str_eq(c.s, "abc");
    /* Exactly fills the 16 bytes. */
    replace_in(&c, "aXbcd", "X", "0123456789a");
    ck_assert_str_eq(c.s, "a0123456789abcd");
    /* One byte more than fits: the tail loses a byte. */
    replace_in(&c, "aXbcd", "X", "0123456789ab");
    ck_assert_str_eq(c.s, "a0123456789abbc");
    /* The replacement alone is cut. */
    replace_in(&c, "aXb", "X", "0123456789abcdef");
    ck_assert_str_eq(c.s, "a0123456789abcd");
    replace_in(&c, "aXb", "X", "0123456789abcde");
    ck_assert_str_eq(c.s, "a0123456789abcd");
    replace_in(&c, "aXb", "X", "0123456789abcd");
    ck_assert_str_eq(c.s, "a0123456789abcd");
    replace_in(&c, "XX", "X", "0123456789");
    ck_assert_str_eq(c.s, "012345678901234");
}
END_TEST

static const char *reason(enum outcome o, const char *msg, size_t len)
{
    static result r;
    static char out[200];
    memset(&r, 0, sizeof r);
    r.outcome = o;
    snprintf(r.message, sizeof r.message, "%s", msg);
    memset(out, 'X', sizeof out);
    reason_of(&r, out, len);
    return out;
}

/* The summary counts reasons: the message's first clause (up to ": ", ". "
 * or "; " outside parentheses, at most 110 bytes as written), numbers as N, names
 * such as lesson3 or sm_90 kept, no trailing dots or spaces. */
START_TEST(reason_is_the_first_clause_without_numbers)
{
    ck_assert_str_eq(reason(OUT_WRONG, "", 160), "WRONG:");
    ck_assert_str_eq(reason(OUT_WRONG, "Your kernel left 12 of 1000 output values unwritten "
                     "(size 1000). The grader fills", 160),
                     "WRONG: Your kernel left N of N output values unwritten (size N)");
    ck_assert_str_eq(reason(OUT_SLOW, "Correct, but not fast enough: 1.52x", 160),
                     "SLOW: Correct, but not fast enough");
    ck_assert_str_eq(reason(OUT_CRASH, "a (b: c. d; e) f; g", 160), "CRASH: a (b: c. d; e) f");
    ck_assert_str_eq(reason(OUT_CRASH, "x) y: z", 160), "CRASH: x) y");
    ck_assert_str_eq(reason(OUT_CRASH, "x)) (y: z) w. v", 160), "CRASH: x)) (y: z) w");
    ck_assert_str_eq(reason(OUT_HANG, "a:b.c;d e", 160), "HANG: a:b.c;d e");
    ck_assert_str_eq(reason(OUT_HANG, "ends with a:", 160), "HANG: ends with a:");
    ck_assert_str_eq(reason(OUT_HANG, "trailing dots...", 160), "HANG: trailing dots");
    ck_assert_str_eq(reason(OUT_HANG, "ok . then", 160), "HANG: ok");
    ck_assert_str_eq(reason(OUT_WRONG, "12 of 3.5x, v2 sm_90 lesson3 x-7 1.x 3.14.15 a_9 10",
                            160), "WRONG: N of Nx, v2 sm_90 lesson3 x-N N.x N a_9 N");
    ck_assert_str_eq(reason(OUT_WRONG, "ran 3. Then", 160), "WRONG: ran N");
    ck_assert_str_eq(reason(OUT_WRONG, "x9 sm_90 9", 160), "WRONG: x9 sm_90 N");
    /* At most 110 bytes of the message. */
    char longer[200];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    const char *r = reason(OUT_WRONG, longer, 160);
    ck_assert_uint_eq(strlen(r), strlen("WRONG: ") + 110);
    ck_assert(!strncmp(r, "WRONG: aaaa", 11));
    /* The 110 are counted as written, numbers N: a message whose numbers
     * differ in width (a time, the simulator's rate) gives one reason. */
    char one[200], two[200];
    snprintf(one, sizeof one, "%s", reason(OUT_CORRECT, "Correct on the PTX simulator (4 sizes, "
             "3.73e+07 thread-instructions in 0.25 s, 1.52e+08 a second; the CPU reference took "
             "0.01 s; 0.31 s in all): its results match", 160));
    snprintf(two, sizeof two, "%s", reason(OUT_CORRECT, "Correct on the PTX simulator (4 sizes, "
             "3.73e+07 thread-instructions in 10.25 s, 1.52e+08 a second; the CPU reference took "
             "10.01 s; 20.31 s in all): its results match", 160));
    ck_assert_str_eq(one, two);
    ck_assert_uint_le(strlen(one), strlen("CORRECT: ") + 110);
    /* A small buffer: cut, never past it. */
    ck_assert_str_eq(reason(OUT_WRONG, "abcdefghij", 10), "WRONG: a");
    ck_assert_int_eq(reason(OUT_WRONG, "abcdefghij", 10)[9], 'X');
    ck_assert_str_eq(reason(OUT_WRONG, "abcdefghij", 11), "WRONG: ab");
    ck_assert_str_eq(reason(OUT_WRONG, "1 2 3 4 5", 12), "WRONG: N N");
}
END_TEST

START_TEST(failures_the_summary_counts)
{
    static const struct { enum outcome o; int failure; } t[] = {
        {OUT_NOT_RUN, 1}, {OUT_PASS, 0}, {OUT_PASS_UNTIMED, 0}, {OUT_SLOW, 1},
        {OUT_MECHANISM, 1}, {OUT_WRONG, 1}, {OUT_COMPILE_ERROR, 1}, {OUT_MISSING, 1},
        {OUT_CRASH, 1}, {OUT_HANG, 1}, {OUT_RESOURCES, 1}, {OUT_UNSUPPORTED, 0},
        {OUT_NO_GPU, 0}, {OUT_INTERNAL, 1}, {OUT_REFUSED, 1}, {OUT_TOO_FAST, 1},
        {OUT_CHECKED, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        ck_assert_msg(!!class_counts_as_failure(t[i].o) == t[i].failure, "%s",
                      outcome_word(t[i].o));
}
END_TEST

static void printable_each(const pair *t, size_t n, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        char out[256];
        memset(out, 'X', sizeof out);
        printable_name(t[i].in, out, len);
        ck_assert_msg(!strcmp(out, t[i].out), "printable_name (%zu bytes), case %zu: got \"%s\", "
                      "want \"%s\"", len, i, out, t[i].out);
    }
}

/* Shown as given where it is UTF-8 that may be shown; a control character
 * (C0, DEL, C1), U+FFFE, U+FFFF and every byte of an invalid sequence as
 * '?'; cut at a character, with "..." when something was left out. */
START_TEST(names_shown_as_given_where_printable)
{
    static const pair t[] = {
        {"", ""}, {"plain name", "plain name"}, {"tab\there", "tab?here"}, {"\x7f", "?"},
        {" ~", " ~"}, {"\x1f", "?"}, {"a\nb", "a?b"},
        {"\xc2\x80" "Z", "??Z"}, {"\xc2\x9f" "Z", "??Z"}, {"\xc2\xa0" "Z", "\xc2\xa0" "Z"},
        {"\xc3\x80" "Z", "\xc3\x80" "Z"}, {"\xc3\x9f" "Z", "\xc3\x9f" "Z"},
        {"\xc1\xbf" "Z", "??Z"}, {"\xdf\xbf" "Z", "\xdf\xbf" "Z"}, {"\xc3" "A", "?A"},
        {"\xe0\xa0\x80" "Z", "\xe0\xa0\x80" "Z"}, {"\xe0\x9f\xbf" "Z", "???Z"},
        {"\xed\x9f\xbf" "Z", "\xed\x9f\xbf" "Z"}, {"\xed\xa0\x80" "Z", "???Z"},
        {"\xee\xa0\x80" "Z", "\xee\xa0\x80" "Z"}, {"\xec\xa0\x80" "Z", "\xec\xa0\x80" "Z"},
        {"\xef\xbf\xbd" "Z", "\xef\xbf\xbd" "Z"}, {"\xef\xbf\xbe" "Z", "???Z"},
        {"\xef\xbf\xbf" "Z", "???Z"}, {"\xef\xbe\xbf" "Z", "\xef\xbe\xbf" "Z"},
        {"\xee\xbf\xbe" "Z", "\xee\xbf\xbe" "Z"}, {"\xe6\x9d" "Z", "??Z"},
        {"\xf0\x90\x80\x80" "Z", "\xf0\x90\x80\x80" "Z"}, {"\xf0\x8f\xbf\xbf" "Z", "????Z"},
        {"\xf1\x8f\x80\x80" "Z", "\xf1\x8f\x80\x80" "Z"},
        {"\xf3\x90\x80\x80" "Z", "\xf3\x90\x80\x80" "Z"},
        {"\xf4\x8f\xbf\xbf" "Z", "\xf4\x8f\xbf\xbf" "Z"}, {"\xf4\x90\x80\x80" "Z", "????Z"},
        {"\xf5\x80\x80\x80" "Z", "????Z"},
    };
    printable_each(t, sizeof t / sizeof *t, 64);

    /* Ten bytes: nine and the NUL fit; one more and "..." takes the end. */
    static const pair ten[] = {
        {"abcdefghi", "abcdefghi"}, {"abcdefghij", "abcdef..."}, {"abcdefghijkl", "abcdef..."},
        {"\xe6\x9d\x8e\xe6\x9d\x8e\xe6\x9d\x8e", "\xe6\x9d\x8e\xe6\x9d\x8e\xe6\x9d\x8e"},
        {"\xe6\x9d\x8e\xe6\x9d\x8e\xe6\x9d\x8e\xe6\x9d\x8e", "\xe6\x9d\x8e\xe6\x9d\x8e..."},
        {"a\xf0\x9f\x98\x80\xe6\x9d\x8e" "bc", "a\xf0\x9f\x98\x80..."},
        {"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a", "??????..."},
    };
    printable_each(ten, sizeof ten / sizeof *ten, 10);
    static const pair five[] = {{"abcd", "abcd"}, {"abcdef", "a..."}};
    printable_each(five, sizeof five / sizeof *five, 5);
    static const pair four[] = {{"abc", "abc"}, {"abcdef", "abc"}};
    printable_each(four, sizeof four / sizeof *four, 4);
}
END_TEST

/* ---- whole-or-nothing writes ---- */

static char dir[256];

static void make_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/test-class-text-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (dir[0] && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    dir[0] = 0;
}

/* How many entries the folder holds (the temporary files included). */
static int entries_in(const char *path)
{
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* Not there until committed; then whole, readable by the instructor's tools. */
START_TEST(outputs_appear_whole_or_not_at_all)
{
    make_dir();
    char path[400];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    FILE *f = out_open(path);
    ck_assert_ptr_nonnull(f);
    fputs("first line\n", f);
    ck_assert_int_ne(access(path, F_OK), 0);          /* not there until committed */
    ck_assert_int_eq(entries_in(dir), 1);
    ck_assert_int_eq(out_commit(f, path), 0);
    ck_assert_str_eq(slurp(path), "first line\n");
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);
    ck_assert_int_eq(entries_in(dir), 1);

    remove_dir();
}
END_TEST

/* A write or a rename that fails leaves the old file (if any) and no
 * temporary file; a FILE out_open did not give, or no folder, is refused. */
START_TEST(failed_outputs_leave_nothing)
{
    make_dir();
    char path[400], other[400];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    FILE *f = out_open(path);
    fputs("first line\n", f);
    ck_assert_int_eq(out_commit(f, path), 0);

    /* A write that fails leaves the old file and no temporary one. */
    f = out_open(path);
    ck_assert_ptr_nonnull(f);
    fputs("second", f);
    close(fileno(f));
    ck_assert_int_eq(out_commit(f, path), -1);
    ck_assert_str_eq(slurp(path), "first line\n");
    ck_assert_int_eq(entries_in(dir), 1);

    /* A write that runs out of room (files capped at 4 bytes): the same. */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit fsize;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &fsize), 0);
    rlim_t was = fsize.rlim_cur;
    fsize.rlim_cur = 4;
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &fsize), 0);
    f = out_open(path);
    ck_assert_ptr_nonnull(f);
    fputs("longer than four bytes", f);
    int rc = out_commit(f, path);
    fsize.rlim_cur = was;
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &fsize), 0);
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(slurp(path), "first line\n");
    ck_assert_int_eq(entries_in(dir), 1);

    /* A rename that fails (a folder is in the way): no temporary file left. */
    snprintf(other, sizeof other, "%s/taken", dir);
    ck_assert_int_eq(mkdir(other, 0755), 0);
    snprintf(path, sizeof path, "%s/taken/x", dir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    f = out_open(other);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(out_commit(f, other), -1);
    ck_assert_int_ne(errno, 0);
    ck_assert_int_eq(entries_in(dir), 2);

    /* A FILE out_open did not give. */
    FILE *mem = fopen("/dev/null", "w");
    errno = 0;
    ck_assert_int_eq(out_commit(mem, other), -1);
    ck_assert_int_eq(errno, EINVAL);
    fclose(mem);

    /* No memory for the FILE: NULL, and no temporary file left. */
    snprintf(path, sizeof path, "%s/mem.txt", dir);
    hi_take_all_memory();
    f = out_open(path);
    hi_give_back_memory();
    ck_assert_ptr_null(f);
    ck_assert_int_eq(entries_in(dir), 2);

    /* No folder to write into: NULL, errno saying so. */
    snprintf(path, sizeof path, "%s/missing/out.txt", dir);
    errno = 0;
    ck_assert_ptr_null(out_open(path));
    ck_assert_int_eq(errno, ENOENT);
    remove_dir();
}
END_TEST

/* Sixteen outputs may be open at once, each its own temporary file; one
 * more is refused (EMFILE) until one is committed. */
START_TEST(sixteen_outputs_at_once)
{
    make_dir();
    FILE *f[17];
    char path[17][400];
    for (int i = 0; i < 17; i++)
        snprintf(path[i], sizeof path[i], "%s/f%02d", dir, i);
    for (int i = 0; i < 16; i++) {
        f[i] = out_open(path[i]);
        ck_assert_ptr_nonnull(f[i]);
        fprintf(f[i], "%d\n", i);
    }
    errno = 0;
    ck_assert_ptr_null(out_open(path[16]));
    ck_assert_int_eq(errno, EMFILE);
    for (int i = 15; i >= 0; i--)
        ck_assert_int_eq(out_commit(f[i], path[i]), 0);
    for (int i = 0; i < 16; i++) {
        char want[8];
        snprintf(want, sizeof want, "%d\n", i);
        ck_assert_str_eq(slurp(path[i]), want);
    }
    f[16] = out_open(path[16]);
    ck_assert_ptr_nonnull(f[16]);
    ck_assert_int_eq(out_commit(f[16], path[16]), 0);
    ck_assert_int_eq(entries_in(dir), 17);
    remove_dir();
}
END_TEST

START_TEST(mkdir_p_makes_every_level)
{
    make_dir();
    umask(022);
    char path[400], file[400];
    snprintf(path, sizeof path, "%s/a/b/c", dir);
    ck_assert_int_eq(mkdir_p(path), 0);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
    for (int up = 0; up < 3; up++) {           /* every level readable by all */
        ck_assert_int_eq(stat(path, &st), 0);
        ck_assert_int_eq(st.st_mode & 0777, 0755);
        *strrchr(path, '/') = 0;
    }
    snprintf(path, sizeof path, "%s/a/b/c", dir);
    ck_assert_int_eq(mkdir_p(path), 0);               /* already there */
    snprintf(path, sizeof path, "%s/a/d/", dir);
    ck_assert_int_eq(mkdir_p(path), 0);
    snprintf(path, sizeof path, "%s/a/d", dir);
    ck_assert_int_eq(stat(path, &st), 0);
    snprintf(file, sizeof file, "%s/a/file", dir);
    FILE *f = fopen(file, "w");
    fclose(f);
    snprintf(path, sizeof path, "%s/a/file/x", dir);
    ck_assert_int_eq(mkdir_p(path), -1);              /* a file in the way */
    snprintf(path, sizeof path, "%s/a/file/x/y", dir);
    ck_assert_int_eq(mkdir_p(path), -1);
    /* A relative path, from the current folder. */
    ck_assert_int_eq(chdir(dir), 0);
    errno = 0;
    ck_assert_int_eq(mkdir_p("rel/one/two"), 0);
    ck_assert_int_eq(stat("rel/one/two", &st), 0);
    ck_assert_int_eq(mkdir_p("q/r"), 0);
    ck_assert_int_eq(stat("q/r", &st), 0);
    ck_assert_int_eq(chdir("/"), 0);
    remove_dir();
}
END_TEST

Suite *class_text_suite(void)
{
    Suite *s = suite_create("class_text");
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, csv_quotes_only_what_needs_it);
    tcase_add_test(tc, xml_text_escapes_and_forbids);
    tcase_add_test(tc, html_text_escapes);
    tcase_add_test(tc, markdown_code_spans);
    tcase_add_test(tc, utf8_scrub_keeps_only_valid_text);
    tcase_add_test(tc, replace_all_within_its_cap);
    tcase_add_test(tc, reason_is_the_first_clause_without_numbers);
    tcase_add_test(tc, failures_the_summary_counts);
    tcase_add_test(tc, names_shown_as_given_where_printable);
    suite_add_tcase(s, tc);
    tc = tcase_create("files");
    tcase_add_test(tc, outputs_appear_whole_or_not_at_all);
    tcase_add_test(tc, failed_outputs_leave_nothing);
    tcase_add_test(tc, sixteen_outputs_at_once);
    tcase_add_test(tc, mkdir_p_makes_every_level);
    suite_add_tcase(s, tc);
    return s;
}
