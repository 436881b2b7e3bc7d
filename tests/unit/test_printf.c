/* test_printf.c: printf and assert in a student's kernel (issue 15).
 *
 *   - the grader's <cstdio>, <stdio.h>, <cassert>, <assert.h>: the include
 *     rule lets exactly them through and NVRTC compiles them (NDEBUG too);
 *   - the strings printf and assert leave in the PTX are not state, while a
 *     store to one, or its address passed anywhere but to vprintf and
 *     __assertfail, is still refused (hand-written PTX for each way; real
 *     NVRTC PTX in test_ptx_rules.c);
 *   - the output of the student's first correctness launch is kept, bounded,
 *     shown once in the report with what printing costs, and never a later
 *     launch's (host backend: its kernels print with stdio);
 *   - a failed assert's own line becomes the reason: condition, file, line,
 *     in the first launch or a later one. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compile.h"
#include "kernel_output.h"
#include "nvrtc_compile.h"
#include "pipeline.h"
#include "ptx_rules.h"
#include "report.h"
#include "source_rules.h"
#include "suites.h"

/* ---- the headers ------------------------------------------------------- */

static int scan(const char *src, char *msg, size_t len)
{
    const char *dirs[4];
    int n = compile_include_dirs(dirs, 4);
    return source_rules_check(src, "k.cu", dirs, n, msg, len);
}

START_TEST(the_four_headers_pass_the_include_rule)
{
    static const char *const ok[] = {"#include <cstdio>\n", "#include <stdio.h>\n",
                                     "#include <cassert>\n", "#include <assert.h>\n",
                                     "#include \"cstdio\"\n"};
    char msg[1024];
    for (size_t k = 0; k < sizeof ok / sizeof *ok; k++)
        ck_assert_msg(scan(ok[k], msg, sizeof msg) == 0, "%s: %s", ok[k], msg);
    /* Only these names: a neighbour of theirs is still no toolkit header. */
    ck_assert_int_eq(scan("#include <cstdlib>\n", msg, sizeof msg), -1);
    ck_assert_int_eq(scan("#include <stdio.hpp>\n", msg, sizeof msg), -1);
    ck_assert_int_eq(scan("#include <sys/assert.h>\n", msg, sizeof msg), -1);
}
END_TEST

/* Compile `src` as a kernel file named k.cu with entry point k. */
static void compile_src(const char *src, compiled *c)
{
    char path[] = "/tmp/grader-printf-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(src, f);
    fclose(f);
    exercise ex = {.name = "k", .kernel = "k"};
    compile_file(path, &ex, "k", NULL, 90, c);
    unlink(path);
}

START_TEST(the_headers_compile_and_honour_ndebug)
{
    compiled c;
    compile_src("#include <cstdio>\n#include <stdio.h>\n#include <cassert>\n#include <assert.h>\n"
                "extern \"C\" __global__ void k(int n) {\n"
                "    assert(n > 0);\n    std::printf(\"%d\\n\", n);\n    printf(\"x\\n\");\n}\n",
                &c);
    ck_assert_msg(c.ok, "%s\n%.2000s", c.error, c.log ? c.log : "");
    ck_assert_ptr_nonnull(strstr(c.ptx, "__assertfail"));
    ck_assert_ptr_nonnull(strstr(c.ptx, "vprintf"));
    compiled_free(&c);
    /* NDEBUG before <cassert> turns assert off, as the C standard says
     * (NVRTC's own assert looks at NDEBUG before the file starts). */
    compile_src("#define NDEBUG\n#include <cassert>\n"
                "extern \"C\" __global__ void k(int n) { assert(n > 0); }\n", &c);
    ck_assert_msg(c.ok, "%s", c.error);
    ck_assert_ptr_null(strstr(c.ptx, "__assertfail"));
    compiled_free(&c);
    /* And on again when <assert.h> is included after #undef NDEBUG. */
    compile_src("#define NDEBUG\n#include <cassert>\n#undef NDEBUG\n#include <assert.h>\n"
                "extern \"C\" __global__ void k(int n) { assert(n > 0); }\n", &c);
    ck_assert_msg(c.ok, "%s", c.error);
    ck_assert_ptr_nonnull(strstr(c.ptx, "__assertfail"));
    compiled_free(&c);
}
END_TEST

/* ---- the strings in the PTX -------------------------------------------- */

static int check(const char *ptx, char *msg)
{
    return ptx_check_device_globals(ptx, msg, 1024);
}

/* NVRTC's shape of a printf call (CUDA 13.0), with `extra` inside the
 * kernel after it and `head` before the kernel. */
static char *printf_ptx(const char *head, const char *in_block, const char *extra)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             ".extern .func (.param .b32 func_retval0) vprintf\n(\n"
             "\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n"
             "%s"
             ".global .align 1 .b8 $str[4] = {104, 105, 10};\n"
             ".visible .entry k()\n{\n"
             "\t.loc\t1 3 3\n"
             "\tmov.u64 \t%%rd5, $str;\n"
             "\t.loc\t1 3 3\n"
             "\tcvta.global.u64 \t%%rd6, %%rd5;\n"
             "\t{ // callseq 0, 0\n"
             "\t.reg .b32 temp_param_reg;\n"
             "\t.param .b64 param0;\n"
             "\tst.param.b64 \t[param0+0], %%rd6;\n"
             "\t.param .b64 param1;\n"
             "\tst.param.b64 \t[param1+0], 0;\n"
             "%s"
             "\t.param .b32 retval0;\n"
             "\tcall.uni (retval0), \n\tvprintf, \n\t(\n\tparam0, \n\tparam1\n\t);\n"
             "\tld.param.b32 \t%%r7, [retval0+0];\n"
             "\t} // callseq 0\n"
             "%s"
             "\tret;\n}\n", head, in_block, extra);
    return buf;
}

START_TEST(printf_strings_are_not_state)
{
    char msg[1024];
    ck_assert_msg(check(printf_ptx("", "", ""), msg) == 0, "%s", msg);
    /* Read through its address: still only read. */
    ck_assert_msg(check(printf_ptx("", "", "\tld.u8 %rs1, [%rd6+1];\n"), msg) == 0, "%s", msg);
}
END_TEST

START_TEST(printf_strings_written_are_refused)
{
    char msg[1024];
    /* A store through the address, directly or after arithmetic. */
    ck_assert_int_eq(check(printf_ptx("", "", "\tst.u8 [%rd6], %rs1;\n"), msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "'$str'"));
    ck_assert_int_eq(check(printf_ptx("", "", "\tadd.s64 %rd9, %rd6, 1;\n"
                                      "\tst.u8 [%rd9], %rs1;\n"), msg), -1);
    /* A store by name. */
    ck_assert_int_eq(check(printf_ptx("", "", "\tst.global.u8 [$str], %rs1;\n"), msg), -1);
    /* The address stored somewhere (it could be loaded back and written). */
    ck_assert_int_eq(check(printf_ptx("", "", "\tst.local.u64 [%rd1], %rd6;\n"), msg), -1);
    /* Passed to another function. */
    ck_assert_int_eq(check(printf_ptx("", "", "\t{\n\t.param .b64 param0;\n"
                                      "\tst.param.b64 [param0+0], %rd6;\n"
                                      "\tcall.uni helper, (param0);\n\t}\n"), msg), -1);
    /* Laundered through vprintf's own parameter, read back before the call. */
    ck_assert_int_eq(check(printf_ptx("", "\tld.param.b64 %rd8, [param0+0];\n", ""), msg), -1);
    /* A file that defines its own vprintf, which could write its argument. */
    ck_assert_int_eq(check(printf_ptx(".visible .func (.param .b32 func_retval0) vprintf(\n"
                                      "\t.param .b64 a, .param .b64 b)\n{\n\tret;\n}\n",
                                      "", ""), msg), -1);
    /* Stored into a parameter of a block that makes no call at all. */
    ck_assert_int_eq(check(printf_ptx("", "", "\t{\n\t.param .b64 param0;\n"
                                      "\tst.param.b64 [param0+0], %rd6;\n\t}\n"), msg), -1);
    /* Converted into an integer (it could be turned back). */
    ck_assert_int_eq(check(printf_ptx("", "", "\tcvt.u32.u64 %r9, %rd6;\n"), msg), -1);
}
END_TEST

/* ---- what the kernel printed ------------------------------------------- */

static int launches;

static void axpy_printing(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    printf("hello from launch %d, n=%d\n", ++launches, A.n);
    c->ms = 0.012;
}

/* The report's explanation of one graded record, as text. */
static char *explained(const exercise *ex, const result *r)
{
    graded g = {.ex = ex, .r = *r};
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    print_explanations(f, &g, 1, 0, "/nonexistent");
    fclose(f);
    return s;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

START_TEST(first_launch_output_is_shown_once)
{
    result r;
    launches = 0;
    use_kernels(&t_axpy, axpy_printing);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_PASS, NULL);
    /* The first correctness launch (n = 1) only: not the later sizes, not
     * the timed launches. */
    ck_assert_str_eq(r.printed, "hello from launch 1, n=1\n");
    ck_assert_int_eq(r.printed_lines, 1);
    ck_assert_int_eq(r.printed_bytes, (long)strlen("hello from launch 1, n=1\n"));
    char *s = explained(&t_axpy, &r);
    ck_assert_int_eq(count(s, "hello from launch"), 1);
    ck_assert_msg(strstr(s, "printed 1 line (25 bytes) in its first correctness launch"), "%s",
                  s);
    ck_assert_msg(strstr(s, "costs time"), "%s", s);
    free(s);
    /* The report for tools has it too. */
    char path[] = "/tmp/grader-printf-json-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    graded g = {.ex = &t_axpy, .r = r};
    ck_assert_int_eq(write_json_report(path, &g, 1, "check"), 0);
    FILE *f = fopen(path, "r");
    static char json[1 << 16];
    size_t n = fread(json, 1, sizeof json - 1, f);
    json[n] = 0;
    fclose(f);
    unlink(path);
    ck_assert_msg(strstr(json, "\"printed\": \"hello from launch 1, n=1\\n\", \"printed_lines\": 1"),
                  "%s", json);
}
END_TEST

/* A GPU hands over what a kernel prints at the next synchronisation
 * (CUDA's printf buffer), not when the launch returns: the grader syncs
 * the device before it reads the first launch's output. This stand-in
 * holds each launch's line until its sync, as a GPU does. */
static char held[4096];

static void axpy_held(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    size_t at = strlen(held);
    snprintf(held + at, sizeof held - at, "held from launch %d, n=%d\n", ++launches, A.n);
    c->ms = 0.012;
}

static void deliver_held(void)
{
    ssize_t w = write(STDOUT_FILENO, held, strlen(held));
    (void)w;
    held[0] = 0;
}

START_TEST(first_launch_output_is_read_after_a_sync)
{
    static device_ops gpu;
    gpu = device_host;
    gpu.sync = deliver_held;
    grade_opts o = host_opts();
    o.device = &gpu;
    result r;
    launches = 0;
    held[0] = 0;
    use_kernels(&t_axpy, axpy_held);
    grade_host_opts(&t_axpy, &o, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_str_eq(r.printed, "held from launch 1, n=1\n");
    ck_assert_int_eq(r.printed_lines, 1);
    /* A backend with no sync (it prints as it runs): none is called. */
    gpu.sync = NULL;
    launches = 0;
    use_kernels(&t_axpy, axpy_printing);
    grade_host_opts(&t_axpy, &o, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_str_eq(r.printed, "hello from launch 1, n=1\n");
}
END_TEST

static void axpy_flooding(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    for (int k = 0; k < 100; k++)
        printf("line %d\n", k);
    fputs("\033[31mred\n", stdout);
    c->ms = 0.012;
}

START_TEST(output_is_bounded_and_made_safe)
{
    result r;
    use_kernels(&t_axpy, axpy_flooding);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.printed_lines, 101);
    ck_assert_int_eq(count(r.printed, "\n"), KOUT_SHOW_LINES);
    ck_assert_ptr_nonnull(strstr(r.printed, "line 19\n"));
    ck_assert_ptr_null(strstr(r.printed, "line 20\n"));
    char *s = explained(&t_axpy, &r);
    ck_assert_msg(strstr(s, "81 more lines not shown"), "%s", s);
    free(s);
    /* A kernel's bytes never reach a terminal as escape sequences. */
    result k = {0};
    kout_keep("\033[2Jgone\n", 9, &k);
    ck_assert_str_eq(k.printed, "?[2Jgone\n");
}
END_TEST

/* ---- printing that runs past the time limit ----------------------------- */

/* Right, and prints one line per element; at n = 1000 (the largest check
 * size) the printing takes longer than the launch limit. As on a GPU, the
 * lines of a launch still running have not reached the host: the
 * endless launch prints none here. `quiet`: it never prints. */
static int quiet;

static void axpy_printing_each(host_call *c)
{
    axpy_args A = axpy_of(c);
    if (A.n >= 1000) {
        c->ms = 1e9;
        return;
    }
    axpy_range(A, 0, A.n);
    for (int i = 0; i < A.n && !quiet; i++)
        printf("i=%d z=%g\n", i, (double)A.z[i]);
    c->ms = 0.012;
}

START_TEST(printing_past_the_limit_is_named)
{
    result r;
    quiet = 0;
    use_kernels(&t_axpy, axpy_printing_each);
    grade_host(&t_axpy, 0, &r);
    /* n = 1 printed 1 line, n = 100 printed 100. */
    expect(&r, OUT_HANG, "printf is what most likely took the time: your kernel printed 101 "
           "lines in the launches before this one (100 in its last one");
    ck_assert_ptr_nonnull(strstr(r.message, "Print from one thread"));
    ck_assert_ptr_nonnull(strstr(r.message, "remove the prints before judging speed"));
    ck_assert_ptr_null(strstr(r.message, "exit condition"));
    ck_assert_int_eq(r.printed_lines, 1);
    /* The same kernel silent: a hang like any other. */
    quiet = 1;
    use_kernels(&t_axpy, axpy_printing_each);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_HANG, "exit condition");
    ck_assert_ptr_null(strstr(r.message, "printf"));
}
END_TEST

/* A first launch that prints more than the report reads still counts all
 * its lines. */
static void axpy_printing_much(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    for (int k = 0; k < 3000; k++)
        printf("a line of some length to fill the part the report reads: %d\n", k);
    c->ms = 0.012;
}

START_TEST(every_line_of_the_first_launch_is_counted)
{
    result r;
    use_kernels(&t_axpy, axpy_printing_much);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_PASS, NULL);
    ck_assert_int_eq(r.printed_lines, 3000);
}
END_TEST

/* ---- a failed assert --------------------------------------------------- */

static int assert_at;       /* the launch (counting from 1) whose assert fails */

static void axpy_asserting(host_call *c)
{
    axpy_args A = axpy_of(c);
    if (++launches == assert_at) {
        /* What CUDA prints for a failed device assert, and its error. */
        fprintf(stderr, "student/t/axpy.cu:7: void axpy(const float *, const float *, float *, "
                "float, int): block: [0,0,0], thread: [3,0,0] Assertion `n %% 256 == 0` "
                "failed.\n");
        c->fault = cudaErrorAssert;
        return;
    }
    axpy_range(A, 0, A.n);
    c->ms = 0.012;
}

static void assert_fails_at(int launch)
{
    result r;
    launches = 0;
    assert_at = launch;
    use_kernels(&t_axpy, axpy_asserting);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_CRASH, "an assert in the kernel failed: assert(n % 256 == 0) failed at "
                          "student/t/axpy.cu:7 (in void axpy(");
    ck_assert_msg(strstr(r.message, "thread: [3,0,0]"), "%s", r.message);
}

START_TEST(failed_assert_in_the_first_launch_is_the_reason)
{
    assert_fails_at(1);
}
END_TEST

/* After the first launch, output goes to the sink, and the assert's line
 * is still found there. */
START_TEST(failed_assert_in_a_later_launch_is_the_reason)
{
    assert_fails_at(5);
}
END_TEST

/* CUDA printed nothing: the PTX's one assert is the reason. */
static void axpy_asserting_mutely(host_call *c)
{
    c->fault = cudaErrorAssert;
}

START_TEST(failed_assert_without_its_line_is_read_from_the_ptx)
{
    result r;
    use_kernels(&t_axpy, axpy_asserting_mutely);
    host_module m = student_module(&t_axpy, axpy_asserting_mutely);
    m.ptx = ".global .align 1 .b8 $str[6] = {105, 32, 60, 32, 110};\n"
            ".global .align 1 .b8 $str$1[5] = {107, 46, 99, 117};\n"
            "\tmov.u64 \t%rd7, $str;\n\tcvta.global.u64 \t%rd8, %rd7;\n"
            "\tmov.u64 \t%rd9, $str$1;\n\tcvta.global.u64 \t%rd10, %rd9;\n"
            "\t{ // callseq 1, 0\n\t.param .b64 param0;\n\tst.param.b64 \t[param0+0], %rd8;\n"
            "\t.param .b64 param1;\n\tst.param.b64 \t[param1+0], %rd10;\n"
            "\t.param .b32 param2;\n\tst.param.b32 \t[param2+0], 9;\n"
            "\tcall.uni \n\t__assertfail, \n\t(\n\tparam0, \n\tparam1, \n\tparam2\n\t);\n"
            "\t} // callseq 1\n";
    ck_assert_int_eq(host_add(&m), 0);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_CRASH, "assert(i < n) at k.cu:9 (the kernel's only assert");
}
END_TEST

/* On NVRTC's own PTX: every assert of the file, condition, file and line. */
START_TEST(assert_sites_are_read_from_nvrtc_ptx)
{
    compiled c;
    compile_src("#include <cassert>\n"
                "extern \"C\" __global__ void k(int n, int *out) {\n"
                "    assert(n % blockDim.x == 0);\n"
                "    if (threadIdx.x == 0)\n"
                "        assert(out != nullptr && n < 100);\n"
                "    out[threadIdx.x] = n;\n}\n", &c);
    ck_assert_msg(c.ok, "%s", c.error);
    char buf[600];
    ck_assert_int_eq(kout_describe_asserts(c.ptx, buf, sizeof buf), 2);
    ck_assert_msg(strstr(buf, "assert(n % blockDim.x == 0) at ") && strstr(buf, ":3; ") &&
                  strstr(buf, "assert(out != nullptr && n < 100) at ") && strstr(buf, ":5"),
                  "%s", buf);
    compiled_free(&c);
}
END_TEST

START_TEST(assertion_lines_are_parsed)
{
    char buf[512];
    ck_assert_int_eq(kout_parse_assertion("x\nk.cu:13: void k(int): block: [1,0,0], thread: "
                                          "[2,0,0] Assertion `i < n` failed.\n", buf,
                                          sizeof buf), 1);
    ck_assert_str_eq(buf, "assert(i < n) failed at k.cu:13 (in void k(int): block: [1,0,0], "
                          "thread: [2,0,0])");
    ck_assert_int_eq(kout_parse_assertion("nothing here\n", buf, sizeof buf), 0);
    ck_assert_int_eq(kout_parse_assertion("Assertion `unterminated", buf, sizeof buf), 0);
}
END_TEST

Suite *printf_suite(void)
{
    Suite *s = suite_create("printf");
    TCase *tc = tcase_create("headers");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, the_four_headers_pass_the_include_rule);
    tcase_add_test(tc, the_headers_compile_and_honour_ndebug);
    suite_add_tcase(s, tc);

    tc = tcase_create("ptx");
    tcase_add_test(tc, printf_strings_are_not_state);
    tcase_add_test(tc, printf_strings_written_are_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("output");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, first_launch_output_is_shown_once);
    tcase_add_test(tc, first_launch_output_is_read_after_a_sync);
    tcase_add_test(tc, output_is_bounded_and_made_safe);
    tcase_add_test(tc, failed_assert_in_the_first_launch_is_the_reason);
    tcase_add_test(tc, failed_assert_in_a_later_launch_is_the_reason);
    tcase_add_test(tc, assertion_lines_are_parsed);
    tcase_add_test(tc, failed_assert_without_its_line_is_read_from_the_ptx);
    tcase_add_test(tc, assert_sites_are_read_from_nvrtc_ptx);
    tcase_add_test(tc, printing_past_the_limit_is_named);
    tcase_add_test(tc, every_line_of_the_first_launch_is_counted);
    suite_add_tcase(s, tc);
    return s;
}
