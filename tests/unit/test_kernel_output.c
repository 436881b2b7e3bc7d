/* test_kernel_output.c: what a student's kernel prints, caught and told
 * (kernel_output.h), called directly and at its bounds:
 *
 *   - the first launch's text as the report shows it: at most
 *     KOUT_SHOW_LINES lines and what fits the report's field, a line cut
 *     short ended, control characters made visible, every line and byte
 *     counted;
 *   - the capture itself on the process's real stdout and stderr: begun
 *     once, ended with the output going back where it went or on into the
 *     sink, the sink emptied past its bound and written from its start;
 *   - a failed assert: its line as CUDA prints it, found in the sink or the
 *     first capture (the later one first, within 8 MB), else what the PTX
 *     says of the kernel's asserts (hand-written PTX in NVRTC's form: the
 *     strings, the registers that carry them, the call).
 *
 * Each test runs in a process of its own (Check), so the capture's state
 * starts afresh. memfd_create and tmpfile are defined here, forwarding to
 * the C library's unless a test makes them fail, to reach the capture's
 * fallbacks.
 *
 *   CK_RUN_SUITE=kernel_output build/tests/unit_tests */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kernel_output.h"
#include "suites.h"

/* ---- injected faults ---------------------------------------------------- */

/* memfd_create fails once memfd_ok calls have succeeded (-1: never), and
 * the next call only when memfd_fails_once (a transient failure). */
static int memfd_ok = -1, tmpfile_fails, memfd_fails_once;

int memfd_create(const char *name, unsigned int flags)
{
    static int (*real)(const char *, unsigned int);
    if (memfd_fails_once) {
        memfd_fails_once = 0;
        errno = EMFILE;
        return -1;
    }
    if (memfd_ok >= 0 && memfd_ok-- == 0) {
        memfd_ok = 0;
        errno = ENOSYS;
        return -1;
    }
    if (!real)
        real = (int (*)(const char *, unsigned int))dlsym(RTLD_NEXT, "memfd_create");
    return real(name, flags);
}

FILE *tmpfile(void)
{
    static FILE *(*real)(void);
    if (tmpfile_fails) {
        errno = EROFS;
        return NULL;
    }
    if (!real)
        real = (FILE * (*)(void)) dlsym(RTLD_NEXT, "tmpfile");
    return real();
}

/* ---- the first launch's text -------------------------------------------- */

static result kept(const char *text, size_t n)
{
    result r;
    memset(&r, 0x5a, sizeof r);
    kout_keep(text, n, &r);
    return r;
}

START_TEST(short_output_is_kept_as_it_is)
{
    result r = kept("", 0);
    ck_assert_str_eq(r.printed, "");
    ck_assert_int_eq(r.printed_lines, 0);
    ck_assert_int_eq(r.printed_bytes, 0);
    r = kept("a\n\nb", 4);      /* a last line without its newline counts */
    ck_assert_str_eq(r.printed, "a\n\nb");
    ck_assert_int_eq(r.printed_lines, 3);
    ck_assert_int_eq(r.printed_bytes, 4);
    r = kept("x\n", 2);
    ck_assert_str_eq(r.printed, "x\n");
    ck_assert_int_eq(r.printed_lines, 1);
}
END_TEST

START_TEST(the_first_lines_are_shown_all_are_counted)
{
    char text[4096] = "";
    for (int i = 1; i <= KOUT_SHOW_LINES; i++)
        sprintf(text + strlen(text), "line %d\n", i);
    size_t exact = strlen(text);
    result r = kept(text, exact);
    ck_assert_str_eq(r.printed, text);
    ck_assert_int_eq(r.printed_lines, KOUT_SHOW_LINES);
    /* One line more: cut at a line's end, nothing added. */
    strcat(text, "one more\nand the last");
    r = kept(text, strlen(text));
    ck_assert_int_eq(strlen(r.printed), exact);
    ck_assert(!strncmp(r.printed, text, exact));
    ck_assert_int_eq(r.printed_lines, KOUT_SHOW_LINES + 2);
    ck_assert_int_eq(r.printed_bytes, (long)strlen(text));
}
END_TEST

START_TEST(a_long_line_is_cut_to_fit_and_ended)
{
    /* The report's field holds 2048 bytes: a line is cut 5 short of it
     * and ended with a newline. */
    static char text[3000];
    memset(text, 'a', sizeof text);
    result r = kept(text, sizeof text);
    size_t shown = sizeof r.printed - 5;
    ck_assert_int_eq(strlen(r.printed), shown + 1);
    ck_assert_int_eq(r.printed[shown - 1], 'a');
    ck_assert_int_eq(r.printed[shown], '\n');
    ck_assert_int_eq(r.printed_lines, 1);
    ck_assert_int_eq(r.printed_bytes, (long)sizeof text);
    /* Cut exactly after a newline: none is added. */
    text[shown - 1] = '\n';
    r = kept(text, sizeof text);
    ck_assert_int_eq(strlen(r.printed), shown);
    ck_assert_int_eq(r.printed_lines, 2);
    /* One byte more than fits, the line cut: ended. */
    text[shown - 1] = 'a';
    r = kept(text, shown + 1);
    ck_assert_int_eq(strlen(r.printed), shown + 1);
    ck_assert_int_eq(r.printed[shown], '\n');
    text[shown - 1] = '\n';
    /* Exactly what fits, all of it: nothing to end. */
    r = kept(text, shown);
    ck_assert_int_eq(strlen(r.printed), shown);
    ck_assert_int_eq(r.printed_lines, 1);
}
END_TEST

START_TEST(control_characters_are_made_visible)
{
    static const char text[] = "a\tb\x1f" "c\x7f" "d \x80\xff\r\x1b[2J\x01\n";
    result r = kept(text, sizeof text - 1);
    ck_assert_str_eq(r.printed, "a\tb?c?d \x80\xff??[2J?\n");
    /* A NUL inside the text is a byte like others. */
    r = kept("x\0y", 3);
    ck_assert_int_eq(r.printed_bytes, 3);
    ck_assert_str_eq(r.printed, "x?y");
}
END_TEST

/* ---- the capture on real descriptors ------------------------------------ */

/* This process's address space now (VmSize). */
static size_t vm_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %zu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb * 1024;
}

/* stdout and stderr into a file of the test's: where output "went before". */
static FILE *before;

static void output_to_file(void)
{
    before = tmpfile();
    ck_assert_ptr_nonnull(before);
    fflush(NULL);
    dup2(fileno(before), STDOUT_FILENO);
    dup2(fileno(before), STDERR_FILENO);
}

static char *contents(FILE *f)
{
    static char buf[1 << 16];
    ssize_t n = pread(fileno(f), buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = 0;
    return buf;
}

static void say(int fd, const char *s)
{
    ck_assert_int_eq(write(fd, s, strlen(s)), (ssize_t)strlen(s));
}

START_TEST(the_first_launch_is_caught_once_then_output_goes_back)
{
    output_to_file();
    say(STDOUT_FILENO, "before\n");
    ck_assert_int_eq(kout_first_begin(), 0);
    say(STDERR_FILENO, "from stderr\n");
    ck_assert_int_eq(kout_first_begin(), 0);   /* a second begin changes nothing */
    say(STDOUT_FILENO, "more\n");
    printf("from stdio\n");                  /* flushed by the capture's end */
    result r;
    memset(&r, 0, sizeof r);
    kout_first_end(&r, 0);
    ck_assert_str_eq(r.printed, "from stderr\nmore\nfrom stdio\n");
    ck_assert_int_eq(r.printed_lines, 3);
    ck_assert_int_eq(r.printed_bytes, (long)strlen("from stderr\nmore\nfrom stdio\n"));
    say(STDOUT_FILENO, "after\n");
    say(STDERR_FILENO, "err after\n");
    ck_assert_str_eq(contents(before), "before\nafter\nerr after\n");
}
END_TEST

START_TEST(all_the_bytes_are_counted_past_what_is_read)
{
    output_to_file();
    ck_assert_int_eq(kout_first_begin(), 0);
    /* 7.5 KB of short lines, every one counted, then a last line of 100 KB
     * without a newline: far more than is read, all its bytes counted. */
    for (int i = 0; i < 1536; i++)
        say(STDOUT_FILENO, "abcd\n");
    static char big[100000];
    memset(big, 'z', sizeof big);
    ck_assert_int_eq(write(STDOUT_FILENO, big, sizeof big), (ssize_t)sizeof big);
    result r;
    kout_first_end(&r, 0);
    ck_assert_int_eq(r.printed_lines, 1537);
    ck_assert_int_eq(r.printed_bytes, 1536 * 5 + (long)sizeof big);
    ck_assert_int_eq(strlen(r.printed), KOUT_SHOW_LINES * 5);
}
END_TEST

/* A failed assert's line, as CUDA prints it. */
#define ASSERT_LINE(file, cond)                                                \
    file ":7: void k(int): block: [0,0,0], thread: [3,0,0] Assertion `" cond "` failed.\n"

START_TEST(later_output_goes_to_the_sink_and_keeps_the_assert)
{
    output_to_file();
    ck_assert_int_eq(kout_first_begin(), 0);
    say(STDOUT_FILENO, "first\n");
    result r;
    kout_first_end(&r, 1);
    ck_assert_str_eq(r.printed, "first\n");
    say(STDOUT_FILENO, "timed launch\n");
    say(STDERR_FILENO, ASSERT_LINE("k.cu", "n > 0"));
    ck_assert_str_eq(contents(before), "");      /* nothing reaches the student's terminal */
    char buf[300];
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(n > 0) failed at k.cu:7 (in void k(int): block: [0,0,0], "
                          "thread: [3,0,0])");
}
END_TEST

START_TEST(the_sink_is_emptied_past_its_bound)
{
    output_to_file();
    ck_assert_int_eq(kout_first_begin(), 0);
    say(STDERR_FILENO, ASSERT_LINE("first.cu", "a"));
    result r;
    kout_first_end(&r, 1);
    char buf[300];
    /* The sink's assert is found before the first launch's. */
    say(STDERR_FILENO, ASSERT_LINE("sink.cu", "b"));
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_msg(strstr(buf, "assert(b) failed at sink.cu:7"), "%s", buf);
    /* Up to 1 MB, the sink is kept. */
    static char junk[1 << 20];
    memset(junk, '.', sizeof junk);
    size_t line = strlen(ASSERT_LINE("sink.cu", "b"));
    ck_assert_int_eq(write(STDOUT_FILENO, junk, sizeof junk - line), (ssize_t)(sizeof junk - line));
    kout_trim();
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_msg(strstr(buf, "sink.cu"), "%s", buf);
    /* One byte more: emptied, and written again from its start. */
    say(STDOUT_FILENO, ".");
    kout_trim();
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_msg(strstr(buf, "first.cu"), "the sink was not emptied: %s", buf);
    say(STDERR_FILENO, ASSERT_LINE("again.cu", "c"));
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_msg(strstr(buf, "assert(c) failed at again.cu:7"), "%s", buf);
    kout_trim();    /* small again: kept */
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_msg(strstr(buf, "again.cu"), "%s", buf);
    ck_assert_str_eq(contents(before), "");
}
END_TEST

START_TEST(the_assert_is_looked_for_in_the_first_8_mb)
{
    output_to_file();
    ck_assert_int_eq(kout_first_begin(), 0);
    result r;
    kout_first_end(&r, 1);
    static char junk[8 << 20];
    memset(junk, '.', sizeof junk);
    const char *line = ASSERT_LINE("k.cu", "x");
    size_t n = strlen(line);
    /* The line ends exactly at 8 MB: found. */
    ck_assert_int_eq(write(STDOUT_FILENO, junk, sizeof junk - n), (ssize_t)(sizeof junk - n));
    say(STDERR_FILENO, line);
    char buf[300];
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    /* Its end ("` failed.\n") past 8 MB: not read, so not found. */
    kout_trim();
    ck_assert_int_eq(write(STDOUT_FILENO, junk, sizeof junk - n + 10),
                     (ssize_t)(sizeof junk - n + 10));
    say(STDERR_FILENO, line);
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 0);
}
END_TEST

START_TEST(without_a_capture_only_the_ptx_tells)
{
    char buf[400];
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 0);
    kout_know_asserts(NULL);
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 0);
}
END_TEST

/* ---- the assert's line -------------------------------------------------- */

static const char *parsed(const char *text)
{
    static char buf[512];
    strcpy(buf, "unchanged");
    if (!kout_parse_assertion(text, buf, sizeof buf))
        return NULL;
    return buf;
}

START_TEST(assertion_lines_in_every_shape)
{
    ck_assert_str_eq(parsed("k.cu:13: void k(int): block: [1,0,0], thread: [2,0,0] "
                            "Assertion `i < n` failed.\n"),
                     "assert(i < n) failed at k.cu:13 (in void k(int): block: [1,0,0], "
                     "thread: [2,0,0])");
    /* Other lines before it, and spaces before "Assertion". */
    ck_assert_str_eq(parsed("hello\nworld\nk.cu:2: f:   Assertion `p` failed.\n"),
                     "assert(p) failed at k.cu:2 (in f:)");
    /* No ": " before it: all of it is the place. */
    ck_assert_str_eq(parsed("k.cu:9 Assertion `q` failed."), "assert(q) failed at k.cu:9");
    /* A ": " only inside the condition is not the place's end. */
    ck_assert_str_eq(parsed("k.cu:4 Assertion `a ? b : c` failed."),
                     "assert(a ? b : c) failed at k.cu:4");
    /* Nothing before it at all. */
    ck_assert_str_eq(parsed("Assertion `z` failed."), "assert(z) failed at ");
    ck_assert_str_eq(parsed("x\nAssertion `z` failed."), "assert(z) failed at ");
    /* The place ends at its first ": ". */
    ck_assert_str_eq(parsed("a.cu:1: b: c Assertion `w` failed."),
                     "assert(w) failed at a.cu:1 (in b: c)");
    /* Nothing before the text is read, a space there least of all. */
    static char spaced[] = " Assertion `s` failed.";
    ck_assert_str_eq(parsed(spaced + 1), "assert(s) failed at ");
    static char spaced2[] = "  k.cu:5 Assertion `t` failed.";
    ck_assert_str_eq(parsed(spaced2 + 1), "assert(t) failed at  k.cu:5");
    ck_assert_ptr_null(parsed(NULL));
    ck_assert_ptr_null(parsed("Assertion `open"));
    ck_assert_ptr_null(parsed("no assertion here"));
    ck_assert_ptr_null(parsed("Assertion 'quoted' failed"));
}
END_TEST

/* ---- what the PTX says ---------------------------------------------------- */

/* NVRTC's PTX for asserts: the strings as byte arrays, the registers that
 * carry their addresses (`hops` moves from the string to the parameter),
 * and the call. Site i uses $str$<2i> for the condition, $str$<2i+1> for the
 * file. */
static char ptx[1 << 16];

static void bytes_of(const char *name, const char *s)
{
    char *at = ptx + strlen(ptx);
    at += sprintf(at, ".global .align 1 .b8 %s[%zu] = {", name, strlen(s) + 1);
    for (const char *c = s; *c; c++)
        at += sprintf(at, "%d, ", (unsigned char)*c);
    sprintf(at, "0};\n");
}

static void site(int i, const char *cond, const char *file, const char *line, int hops)
{
    char *at = ptx + strlen(ptx);
    int r = 100 * (i + 1);
    at += sprintf(at, "\tmov.u64 \t%%rd%d, $str$%d;\n", r, 2 * i);
    for (int h = 1; h < hops; h++)
        at += sprintf(at, "\tmov.u64 \t%%rd%d, %%rd%d;\n", r + h, r + h - 1);
    at += sprintf(at, "\tmov.u64 \t%%rd%d, $str$%d;\n", r + 50, 2 * i + 1);
    at += sprintf(at, "\tcvta.global.u64 \t%%rd%d, %%rd%d;\n", r + 51, r + 50);
    at += sprintf(at, "\t{ // callseq %d, 0\n\t.param .b64 param0;\n"
                  "\tst.param.b64 \t[param0+0], %%rd%d;\n\t.param .b64 param1;\n"
                  "\tst.param.b64 \t[param1+0], %%rd%d;\n\t.param .b32 param2;\n"
                  "\tst.param.b32 \t[param2+0], %s;\n"
                  "\tcall.uni \n\t__assertfail, \n\t(\n\tparam0, \n\tparam1, \n\tparam2\n\t);\n"
                  "\t} // callseq %d\n",
                  i, r + hops - 1, r + 51, line, i);
    (void)cond;
    (void)file;
}

/* A PTX of n sites: "c<i> > 0" in "f<i>.cu", line 10 + i, through `hops`. */
static const char *ptx_of(int n, int hops)
{
    ptx[0] = 0;
    strcat(ptx, ".version 8.0\n.target sm_90\n");
    for (int i = 0; i < n; i++) {
        char cond[32], file[32], name[32];
        snprintf(cond, sizeof cond, "c%d > 0", i);
        snprintf(file, sizeof file, "f%d.cu", i);
        snprintf(name, sizeof name, "$str$%d", 2 * i);
        bytes_of(name, cond);
        snprintf(name, sizeof name, "$str$%d", 2 * i + 1);
        bytes_of(name, file);
    }
    strcat(ptx, ".visible .entry k(\n)\n{\n");
    for (int i = 0; i < n; i++) {
        char line[16];
        snprintf(line, sizeof line, "%d", 10 + i);
        site(i, NULL, NULL, line, hops);
    }
    strcat(ptx, "\tret;\n}\n");
    return ptx;
}

START_TEST(each_assert_of_the_ptx_is_described)
{
    char buf[600];
    ck_assert_int_eq(kout_describe_asserts(ptx_of(1, 1), buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(c0 > 0) at f0.cu:10");
    ck_assert_int_eq(kout_describe_asserts(ptx_of(3, 2), buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "assert(c0 > 0) at f0.cu:10; assert(c1 > 0) at f1.cu:11; "
                          "assert(c2 > 0) at f2.cu:12");
    ck_assert_int_eq(kout_describe_asserts(NULL, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(kout_describe_asserts(".version 8.0\n", buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    /* Any line number: one starting with 9 too. */
    ptx[0] = 0;
    bytes_of("$str$0", "c");
    bytes_of("$str$1", "f.cu");
    site(0, NULL, NULL, "97", 1);
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(c) at f.cu:97");
}
END_TEST

START_TEST(a_string_reached_in_at_most_four_moves)
{
    char buf[600];
    ck_assert_int_eq(kout_describe_asserts(ptx_of(1, 4), buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(c0 > 0) at f0.cu:10");
    /* Five: not followed, the site is not described. */
    ck_assert_int_eq(kout_describe_asserts(ptx_of(1, 5), buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(eight_asserts_described_the_rest_counted)
{
    char buf[2000];
    ck_assert_int_eq(kout_describe_asserts(ptx_of(11, 1), buf, sizeof buf), 11);
    ck_assert_ptr_nonnull(strstr(buf, "assert(c7 > 0) at f7.cu:17"));
    ck_assert_ptr_null(strstr(buf, "c8 > 0"));
    /* What does not fit the buffer is cut, every site still counted. */
    char small[40];
    ck_assert_int_eq(kout_describe_asserts(ptx_of(3, 1), small, sizeof small), 3);
    ck_assert_int_eq(strlen(small), sizeof small - 1);
    ck_assert(!strncmp(small, "assert(c0 > 0) at f0.cu:10; assert(c1 > 0) at f1.cu:11",
                       sizeof small - 1));
}
END_TEST

START_TEST(what_a_site_must_hold)
{
    char buf[600];
    /* A line that is not a number. */
    ptx_of(0, 1);
    bytes_of("$str$0", "c");
    bytes_of("$str$1", "f.cu");
    site(0, NULL, NULL, "%r5", 1);
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 0);
    /* No string array of that name. */
    ptx[0] = 0;
    bytes_of("$str$1", "f.cu");
    site(0, NULL, NULL, "3", 1);
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 0);
    /* A register nothing defines. */
    strcpy(ptx, "{\n\tst.param.b64 \t[param0+0], %rd9;\n\tst.param.b64 \t[param1+0], %rd9;\n"
                "\tst.param.b32 \t[param2+0], 3;\n\tcall.uni \n\t__assertfail, \n");
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 0);
    /* The condition found, the file's register defined nowhere. */
    strcpy(ptx, ".global .align 1 .b8 $s[2] = {65, 0};\n\tmov.u64 \t%rd1, $s;\n"
                "{\n\tst.param.b64 \t[param0+0], %rd1;\n\tst.param.b64 \t[param1+0], %rd9;\n"
                "\tst.param.b32 \t[param2+0], 3;\n\tcall.uni \n\t__assertfail, \n");
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 0);
    /* A register used (not defined) by a later statement is not followed
     * there: only a statement's first operand is what it defines. */
    strcpy(ptx, ".global .align 1 .b8 $s[2] = {65, 0};\n.global .align 1 .b8 $t[2] = {66, 0};\n"
                "\tmov.u64 \t%rd1, $s;\n\tmov.u64 \t%rd2, $t;\n\tadd.s64 \t%rd3, %rd1, %rd2;\n"
                "{\n\tst.param.b64 \t[param0+0], %rd1;\n\tst.param.b64 \t[param1+0], %rd1;\n"
                "\tst.param.b32 \t[param2+0], 3;\n\tcall.uni \n\t__assertfail, \n");
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(A) at A:3");
    /* A parameter stored after the call is another call's. */
    strcpy(ptx, ".global .align 1 .b8 $s[2] = {65, 0};\n\tmov.u64 \t%rd1, $s;\n"
                "{\n\tst.param.b64 \t[param0+0], %rd1;\n\tst.param.b64 \t[param1+0], %rd1;\n"
                "\tcall.uni \n\t__assertfail, \n\tst.param.b32 \t[param2+0], 3;\n");
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 0);
    /* No space after an operand's comma is PTX too. */
    strcpy(ptx, ".global .align 1 .b8 $s[2] = {65, 0};\n\tmov.u64 \t%rd1,$s;\n"
                "{\n\tst.param.b64 \t[param0+0], %rd1;\n\tst.param.b64 \t[param1+0], %rd1;\n"
                "\tst.param.b32 \t[param2+0], 3;\n\tcall.uni \n\t__assertfail, \n");
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 1);
    /* The same, whole: described. */
    strcpy(ptx, ".global .align 1 .b8 $s[2] = {65, 0};\n\tmov.u64 \t%rd1, $s;\n"
                "{\n\tst.param.b64 \t[param0+0], %rd1;\n\tst.param.b64 \t[param1+0], %rd1;\n"
                "\tst.param.b32 \t[param2+0], 3;\n\tcall.uni \n\t__assertfail, \n");
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(A) at A:3");
}
END_TEST

START_TEST(the_bytes_of_a_string)
{
    char buf[600];
    /* Control and high bytes made visible; a 0 or a value that is not a
     * byte ends the string; a string of nothing is no string. */
    static const struct {
        const char *bytes, *shown;
    } cases[] = {
        {"{65, 9, 31, 32, 126, 127, 128, 255, 66}", "A?? ~?\x80\xff" "B"},
        {"{65, 0, 66}", "A"},
        {"{65, 1, 66}", "A?B"},
        {"{65, 256, 66}", "A"},
        {"{65, -1, 66}", "A"},
        {"{65,66,\t67}", "ABC"},
        {"{072, 010}", "H?"},        /* decimal, as NVRTC writes them */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        snprintf(ptx, sizeof ptx, ".global .align 1 .b8 $s[9] = %s;\n\tmov.u64 \t%%rd1, $s;\n"
                 "{\n\tst.param.b64 \t[param0+0], %%rd1;\n\tst.param.b64 \t[param1+0], %%rd1;\n"
                 "\tst.param.b32 \t[param2+0], 3;\n\tcall.uni \n\t__assertfail, \n",
                 cases[k].bytes);
        ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 1);
        char want[100];
        snprintf(want, sizeof want, "assert(%s) at %s:3", cases[k].shown, cases[k].shown);
        ck_assert_msg(!strcmp(buf, want), "%s: %s", cases[k].bytes, buf);
    }
    strcpy(ptx, ".global .align 1 .b8 $s[1] = {0};\n\tmov.u64 \t%rd1, $s;\n"
                "{\n\tst.param.b64 \t[param0+0], %rd1;\n\tst.param.b64 \t[param1+0], %rd1;\n"
                "\tst.param.b32 \t[param2+0], 3;\n\tcall.uni \n\t__assertfail, \n");
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 0);
    /* The array's values on another line than its name: still its text (the
     * PTX reader reads the declaration, not its line). */
    strcpy(ptx, ".global .align 1 .b8 $s[2] =\n{65, 0};\n\tmov.u64 \t%rd1, $s;\n"
                "{\n\tst.param.b64 \t[param0+0], %rd1;\n\tst.param.b64 \t[param1+0], %rd1;\n"
                "\tst.param.b32 \t[param2+0], 3;\n\tcall.uni \n\t__assertfail, \n");
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(A) at A:3");
}
END_TEST

/* A site at its edges: line 0 (a #line 0, or __assertfail called by hand),
 * a line operand cut to 15 characters, a string whose first value is no
 * byte, long register names (inline assembly names its own). */
static int one_site(const char *defs, const char *reg0, const char *line, char *buf,
                    size_t len)
{
    snprintf(ptx, sizeof ptx, ".global .align 1 .b8 $s[2] = {65, 0};\n%s"
             "{\n\tst.param.b64 \t[param0+0], %s;\n\tst.param.b64 \t[param1+0], %%rd1;\n"
             "\tst.param.b32 \t[param2+0], %s;\n\tcall.uni \n\t__assertfail, \n",
             defs, reg0, line);
    return kout_describe_asserts(ptx, buf, len);
}

START_TEST(the_edges_of_a_site)
{
    char buf[600], defs[600], name[100];
    const char *mov = "\tmov.u64 \t%rd1, $s;\n";
    ck_assert_int_eq(one_site(mov, "%rd1", "0", buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(A) at A:0");
    ck_assert_int_eq(one_site(mov, "%rd1", "9", buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(A) at A:9");
    /* A hexadecimal literal is a number too (hand-written PTX). */
    ck_assert_int_eq(one_site(mov, "%rd1", "0x2A", buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(A) at A:0x2A");
    /* The operand up to the ';', blanks trimmed, is the line's text, cut
     * to 15 characters; a line that is no number is no site. */
    ck_assert_int_eq(one_site(mov, "%rd1", "12                    ", buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(A) at A:12");
    ck_assert_int_eq(one_site(mov, "%rd1", "123456789012345678", buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(A) at A:123456789012345");
    ck_assert_int_eq(one_site(mov, "%rd1", "%r9", buf, sizeof buf), 0);
    /* A first value that is no byte: no string, not described. */
    snprintf(defs, sizeof defs, ".global .align 1 .b8 $t[2] = {256, 65};\n"
             "\tmov.u64 \t%%rd2, $t;\n%s", mov);
    ck_assert_int_eq(one_site(defs, "%rd2", "3", buf, sizeof buf), 0);
    snprintf(defs, sizeof defs, ".global .align 1 .b8 $t[2] = {66, 0};\n"
             "\tmov.u64 \t%%rd2, $t;\n%s", mov);
    ck_assert_int_eq(one_site(defs, "%rd2", "3", buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(B) at A:3");
    /* A call with no '{' before it in the PTX: its block starts at the
     * PTX's start, and nothing before the PTX is read (here another
     * block's parameter, past a NUL). */
    static char mem[1024];
    static const char other[] = "{\n\tst.param.b64 \t[param0+0], %rd9;\n";
    memcpy(mem, other, sizeof other);
    snprintf(mem + sizeof other, sizeof mem - sizeof other,
             "\tst.param.b64 \t[param0+0], $s;\n\tst.param.b64 \t[param1+0], $s;\n"
             "\tst.param.b32 \t[param2+0], 3;\n\tcall.uni \n\t__assertfail, \n"
             "\t(param0, param1, param2);\n.global .align 1 .b8 $s[2] = {65, 0};\n");
    const char *alone = mem + sizeof other;
    ck_assert(strchr(alone, '{') > strstr(alone, "__assertfail"));
    ck_assert_int_eq(kout_describe_asserts(alone, buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(A) at A:3");
    /* Register names of any length are followed, as the parameter's
     * operand and as a move's source (the reader keeps names whole). */
    for (int n = 78; n <= 80; n++) {
        memset(name, 'r', sizeof name);
        name[0] = '%';
        name[n] = 0;
        snprintf(defs, sizeof defs, "\tmov.u64 \t%s, $s;\n%s", name, mov);
        ck_assert_int_eq(one_site(defs, name, "3", buf, sizeof buf), 1);
        snprintf(defs, sizeof defs, "\tmov.u64 \t%s, $s;\n\tmov.u64 \t%%rd2, %s;\n%s", name,
                 name, mov);
        ck_assert_int_eq(one_site(defs, "%rd2", "3", buf, sizeof buf), 1);
    }
}
END_TEST

START_TEST(the_asserts_known_stand_in_for_a_mute_cuda)
{
    char buf[800];
    kout_know_asserts(ptx_of(1, 2));
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(c0 > 0) at f0.cu:10 (the kernel's only assert; CUDA printed "
                          "no line saying where it failed)");
    kout_know_asserts(ptx_of(2, 1));
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_str_eq(buf, "one of the kernel's 2 asserts (CUDA printed no line saying which): "
                          "assert(c0 > 0) at f0.cu:10; assert(c1 > 0) at f1.cu:11");
    kout_know_asserts(ptx_of(0, 1));
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 0);
    /* A line CUDA printed wins over them. */
    kout_know_asserts(ptx_of(1, 1));
    output_to_file();
    ck_assert_int_eq(kout_first_begin(), 0);
    say(STDERR_FILENO, ASSERT_LINE("real.cu", "r"));
    result r;
    kout_first_end(&r, 1);
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_msg(strstr(buf, "assert(r) failed at real.cu:7"), "%s", buf);
}
END_TEST

START_TEST(nothing_printed)
{
    output_to_file();
    ck_assert_int_eq(kout_first_begin(), 0);
    result r;
    memset(&r, 0x5a, sizeof r);
    kout_first_end(&r, 1);
    ck_assert_str_eq(r.printed, "");
    ck_assert_int_eq(r.printed_lines, 0);
    ck_assert_int_eq(r.printed_bytes, 0);
}
END_TEST

START_TEST(one_byte_printed)
{
    output_to_file();
    ck_assert_int_eq(kout_first_begin(), 0);
    say(STDOUT_FILENO, "x");
    result r;
    kout_first_end(&r, 0);
    ck_assert_str_eq(r.printed, "x");
    ck_assert_int_eq(r.printed_lines, 1);
    ck_assert_int_eq(r.printed_bytes, 1);
}
END_TEST

START_TEST(without_memfd_a_temporary_file)
{
    /* No memfd_create (an old kernel, a filter): a temporary file does. */
    memfd_ok = 0;
    output_to_file();
    ck_assert_int_eq(kout_first_begin(), 0);
    say(STDOUT_FILENO, "still caught\n");
    result r;
    kout_first_end(&r, 1);
    ck_assert_str_eq(r.printed, "still caught\n");
    say(STDERR_FILENO, ASSERT_LINE("tmp.cu", "t"));
    char buf[300];
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_msg(strstr(buf, "tmp.cu"), "%s", buf);
    ck_assert_str_eq(contents(before), "");
}
END_TEST

START_TEST(no_capture_file_no_capture)
{
    /* Neither: output goes where it went, and nothing is shown. */
    output_to_file();
    memfd_ok = 0;
    tmpfile_fails = 1;
    ck_assert_int_eq(kout_first_begin(), -1);
    say(STDOUT_FILENO, "to the terminal\n");
    result r;
    memset(&r, 0, sizeof r);
    kout_first_end(&r, 1);
    kout_trim();
    say(STDOUT_FILENO, "still\n");
    ck_assert_str_eq(r.printed, "");
    ck_assert_str_eq(contents(before), "to the terminal\nstill\n");
}
END_TEST

START_TEST(no_sink_no_capture)
{
    /* The first file made, the sink not: no capture either. */
    output_to_file();
    memfd_ok = 1;
    tmpfile_fails = 1;
    ck_assert_int_eq(kout_first_begin(), -1);
    say(STDOUT_FILENO, "to the terminal\n");
    result r;
    memset(&r, 0, sizeof r);
    kout_first_end(&r, 1);
    ck_assert_str_eq(r.printed, "");
    ck_assert_str_eq(contents(before), "to the terminal\n");
}
END_TEST

START_TEST(no_descriptor_to_go_back_to)
{
    /* The capture could not keep where output went (no descriptor left for
     * it): after the first launch, output goes on into the sink rather than
     * nowhere. */
    output_to_file();
    struct rlimit was, tight;
    getrlimit(RLIMIT_NOFILE, &was);
    int fd = dup(0);
    close(fd);
    tight.rlim_cur = (rlim_t)fd + 2;        /* the two capture files, no more */
    tight.rlim_max = was.rlim_max;
    setrlimit(RLIMIT_NOFILE, &tight);
    int rc = kout_first_begin();
    setrlimit(RLIMIT_NOFILE, &was);
    ck_assert_int_eq(rc, 0);
    say(STDOUT_FILENO, "first\n");
    result r;
    kout_first_end(&r, 0);
    ck_assert_str_eq(r.printed, "first\n");
    say(STDOUT_FILENO, "later\n");
    ck_assert_str_eq(contents(before), "");
}
END_TEST

START_TEST(stdin_is_not_a_capture)
{
    /* Before any capture, nothing is read or emptied, not even descriptor
     * 0 with an assert's line in it. */
    FILE *in = tmpfile();
    static char junk[(1 << 20) + 100];
    memset(junk, '.', sizeof junk);
    fputs(ASSERT_LINE("stdin.cu", "s"), in);
    fwrite(junk, 1, sizeof junk, in);
    fflush(in);
    dup2(fileno(in), STDIN_FILENO);
    char buf[300];
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 0);
    kout_trim();
    struct stat st;
    ck_assert_int_eq(fstat(STDIN_FILENO, &st), 0);
    ck_assert_int_eq(st.st_size, (off_t)(strlen(ASSERT_LINE("stdin.cu", "s")) + sizeof junk));
}
END_TEST

START_TEST(a_long_condition_is_cut)
{
    /* A condition and a file name of 300 characters: 199 of each shown. */
    char cond[301], file[301];
    memset(cond, 'c', 300);
    memset(file, 'f', 300);
    cond[300] = file[300] = 0;
    ptx[0] = 0;
    bytes_of("$str$0", cond);
    bytes_of("$str$1", file);
    site(0, NULL, NULL, "12", 1);
    static char buf[1000];
    ck_assert_int_eq(kout_describe_asserts(ptx, buf, sizeof buf), 1);
    char want[600] = "assert(";
    memset(want + 7, 'c', 199);
    strcpy(want + 7 + 199, ") at ");
    memset(want + 7 + 199 + 5, 'f', 199);
    strcpy(want + 7 + 199 + 5 + 199, ":12");
    ck_assert_str_eq(buf, want);
}
END_TEST

START_TEST(the_capture_with_stdin_closed)
{
    /* A grader started with stdin closed: the capture's first file is
     * descriptor 0, and still the capture. */
    output_to_file();
    close(STDIN_FILENO);
    ck_assert_int_eq(kout_first_begin(), 0);
    say(STDOUT_FILENO, "caught\n");
    ck_assert_int_eq(kout_first_begin(), 0);   /* begun already, on descriptor 0 */
    say(STDERR_FILENO, ASSERT_LINE("zero.cu", "z"));
    result r;
    kout_first_end(&r, 0);
    ck_assert_int_eq(r.printed_lines, 2);
    ck_assert_ptr_nonnull(strstr(r.printed, "caught\n"));
    char buf[300];
    ck_assert_int_eq(kout_assertion(buf, sizeof buf), 1);
    ck_assert_msg(strstr(buf, "zero.cu"), "%s", buf);
    say(STDOUT_FILENO, "after\n");
    ck_assert_str_eq(contents(before), "after\n");
}
END_TEST

/* With stdin closed, descriptor 0 is whatever the capture makes first:
 * a memfd, the sink, or the descriptor that keeps where output went. Each
 * is a descriptor like any other. */
START_TEST(descriptor_0_in_every_role)
{
    /* The first memfd is 0, and no temporary file could stand in. */
    output_to_file();
    close(STDIN_FILENO);
    tmpfile_fails = 1;
    ck_assert_int_eq(kout_first_begin(), 0);
    say(STDOUT_FILENO, "caught\n");
    result r;
    kout_first_end(&r, 0);
    ck_assert_str_eq(r.printed, "caught\n");
    say(STDOUT_FILENO, "after\n");
    ck_assert_str_eq(contents(before), "after\n");
}
END_TEST

START_TEST(the_sink_on_descriptor_0)
{
    /* memfd_create fails once: the first file is a temporary one, dup'ed
     * off descriptor 0 and 0 closed again, so the sink's memfd is 0. */
    output_to_file();
    close(STDIN_FILENO);
    memfd_fails_once = 1;
    ck_assert_int_eq(kout_first_begin(), 0);
    say(STDOUT_FILENO, "caught\n");
    result r;
    memset(&r, 0, sizeof r);
    kout_first_end(&r, 1);
    ck_assert_str_eq(r.printed, "caught\n");
    static char junk[(1 << 20) + 1];
    memset(junk, '.', sizeof junk);
    ck_assert_int_eq(write(STDOUT_FILENO, junk, sizeof junk), (ssize_t)sizeof junk);
    struct stat st;
    ck_assert_int_eq(fstat(STDIN_FILENO, &st), 0);
    ck_assert_int_eq(st.st_size, (off_t)sizeof junk);   /* the sink is 0 */
    kout_trim();
    ck_assert_int_eq(fstat(STDIN_FILENO, &st), 0);
    ck_assert_int_eq(st.st_size, 0);
    ck_assert_str_eq(contents(before), "");
}
END_TEST

START_TEST(where_output_went_kept_on_descriptor_0)
{
    /* No memfd at all: both files are temporary ones, each dup'ed off 0
     * and 0 closed again, so the copy of stdout is 0; output still goes
     * back there. */
    output_to_file();
    close(STDIN_FILENO);
    memfd_ok = 0;
    ck_assert_int_eq(kout_first_begin(), 0);
    say(STDOUT_FILENO, "caught\n");
    result r;
    kout_first_end(&r, 0);
    ck_assert_str_eq(r.printed, "caught\n");
    say(STDOUT_FILENO, "after\n");
    say(STDERR_FILENO, "err after\n");
    ck_assert_str_eq(contents(before), "after\nerr after\n");
}
END_TEST

START_TEST(short_of_memory_the_capture_is_not_read)
{
    /* No room to read the sink (8 MB): the assert is not found there, and
     * the one the PTX tells stands in. */
    output_to_file();
    ck_assert_int_eq(kout_first_begin(), 0);
    result r;
    kout_first_end(&r, 1);
    static char junk[8 << 20];
    memset(junk, '.', sizeof junk);
    ck_assert_int_eq(write(STDOUT_FILENO, junk, sizeof junk), (ssize_t)sizeof junk);
    kout_know_asserts(ptx_of(1, 1));
    struct rlimit was, tight;
    getrlimit(RLIMIT_AS, &was);
    tight.rlim_cur = vm_bytes() + (2 << 20);
    tight.rlim_max = was.rlim_max;
    setrlimit(RLIMIT_AS, &tight);
    char buf[400];
    int found = kout_assertion(buf, sizeof buf);
    setrlimit(RLIMIT_AS, &was);
    ck_assert_int_eq(found, 1);
    ck_assert_msg(strstr(buf, "the kernel's only assert"), "%s", buf);
}
END_TEST

START_TEST(a_line_cut_before_failed_is_no_assert)
{
    /* The sink holds "... Assertion `a" and nothing after: not an assert,
     * whatever the memory it is read into held before (here, a longer line
     * just read from the same place, "... Assertion `aZ` failed."). */
    output_to_file();
    ck_assert_int_eq(kout_first_begin(), 0);
    result r;
    kout_first_end(&r, 1);
    char cut[64];
    snprintf(cut, sizeof cut, "%-28s Assertion `a", "k.cu:1: f");
    ck_assert_int_eq(strlen(cut), 41);
    char whole[80];
    snprintf(whole, sizeof whole, "%sZ` failed.\n", cut);
    static char junk[(1 << 20) + 1];
    memset(junk, '.', sizeof junk);
    /* No check in between: Check's own bookkeeping allocates too. */
    char buf[300];
    ssize_t w1 = write(STDERR_FILENO, whole, strlen(whole));
    int whole_found = kout_assertion(buf, sizeof buf);
    ssize_t w2 = write(STDOUT_FILENO, junk, sizeof junk);
    kout_trim();
    ssize_t w3 = write(STDERR_FILENO, cut, strlen(cut));
    int cut_found = kout_assertion(buf, sizeof buf);
    ck_assert(w1 == (ssize_t)strlen(whole) && w2 == (ssize_t)sizeof junk &&
              w3 == (ssize_t)strlen(cut));
    ck_assert_int_eq(whole_found, 1);
    ck_assert_msg(!cut_found, "found: %s", buf);
}
END_TEST

Suite *kernel_output_suite(void)
{
    Suite *s = suite_create("kernel_output");
    TCase *tc = tcase_create("kernel output");
    tcase_add_test(tc, short_output_is_kept_as_it_is);
    tcase_add_test(tc, the_first_lines_are_shown_all_are_counted);
    tcase_add_test(tc, a_long_line_is_cut_to_fit_and_ended);
    tcase_add_test(tc, control_characters_are_made_visible);
    tcase_add_test(tc, the_first_launch_is_caught_once_then_output_goes_back);
    tcase_add_test(tc, all_the_bytes_are_counted_past_what_is_read);
    tcase_add_test(tc, later_output_goes_to_the_sink_and_keeps_the_assert);
    tcase_add_test(tc, the_sink_is_emptied_past_its_bound);
    tcase_add_test(tc, the_assert_is_looked_for_in_the_first_8_mb);
    tcase_add_test(tc, without_a_capture_only_the_ptx_tells);
    tcase_add_test(tc, nothing_printed);
    tcase_add_test(tc, one_byte_printed);
    tcase_add_test(tc, without_memfd_a_temporary_file);
    tcase_add_test(tc, no_capture_file_no_capture);
    tcase_add_test(tc, no_descriptor_to_go_back_to);
    tcase_add_test(tc, no_sink_no_capture);
    tcase_add_test(tc, short_of_memory_the_capture_is_not_read);
    tcase_add_test(tc, a_line_cut_before_failed_is_no_assert);
    tcase_add_test(tc, stdin_is_not_a_capture);
    tcase_add_test(tc, the_capture_with_stdin_closed);
    tcase_add_test(tc, descriptor_0_in_every_role);
    tcase_add_test(tc, the_sink_on_descriptor_0);
    tcase_add_test(tc, where_output_went_kept_on_descriptor_0);
    tcase_add_test(tc, assertion_lines_in_every_shape);
    tcase_add_test(tc, each_assert_of_the_ptx_is_described);
    tcase_add_test(tc, a_string_reached_in_at_most_four_moves);
    tcase_add_test(tc, eight_asserts_described_the_rest_counted);
    tcase_add_test(tc, what_a_site_must_hold);
    tcase_add_test(tc, the_bytes_of_a_string);
    tcase_add_test(tc, the_edges_of_a_site);
    tcase_add_test(tc, a_long_condition_is_cut);
    tcase_add_test(tc, the_asserts_known_stand_in_for_a_mute_cuda);
    suite_add_tcase(s, tc);
    return s;
}
