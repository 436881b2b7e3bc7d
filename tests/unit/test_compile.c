/* test_compile.c: the ptxas report parser on literal logs, the toolkit's
 * include folders, and NVRTC on the small kernels in tests/unit/fixtures/.
 * NVRTC needs no GPU.
 *
 *   CK_RUN_SUITE=compile build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compile.h"
#include "grade.h"
#include "mechanism.h"
#include "suites.h"

#define FIXTURES "tests/unit/fixtures/"

/* What ptxas -v prints for a file with two kernels, the second of which
 * calls a helper function that was not inlined: the helper's block comes
 * after the entry's own "Used" line and must not be taken for the entry's. */
static const char two_entries_log[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'copy_rows' for 'sm_90'\n"
    "ptxas info    : Function properties for copy_rows\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 12 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 3.104 ms\n"
    "ptxas info    : Compiling entry function 'blur' for 'sm_90'\n"
    "ptxas info    : Function properties for blur\n"
    "    48 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
    "ptxas info    : Used 40 registers, used 1 barriers, 48 bytes cumulative stack size, "
    "4096 bytes smem\n"
    "ptxas info    : Compile time = 5.017 ms\n"
    "ptxas info    : Function properties for _Z6helperPKfi\n"
    "    200 bytes stack frame, 64 bytes spill stores, 64 bytes spill loads\n";

START_TEST(ptxas_entry_with_helper)
{
    resources r = {0};
    ck_assert_int_eq(parse_ptxas_report(two_entries_log, "blur", &r), 1);
    ck_assert_int_eq(r.known, 1);
    ck_assert_int_eq(r.regs, 40);
    ck_assert_int_eq(r.stack_bytes, 48);
    ck_assert_int_eq(r.spill_stores, 8);
    ck_assert_int_eq(r.spill_loads, 12);
    ck_assert_int_eq(r.smem_static, 4096);
}
END_TEST

START_TEST(ptxas_only_named_entry)
{
    /* copy_rows comes first; nothing of blur's may leak into it. */
    resources r = {0};
    ck_assert_int_eq(parse_ptxas_report(two_entries_log, "copy_rows", &r), 1);
    ck_assert_int_eq(r.regs, 12);
    ck_assert_int_eq(r.stack_bytes, 0);
    ck_assert_int_eq(r.spill_stores, 0);
    ck_assert_int_eq(r.smem_static, 0);
}
END_TEST

START_TEST(ptxas_numbers_end_at_the_used_line)
{
    /* The entry's own Used line names no shared memory; a helper's block
     * after it, in the same entry's part of the log, does: its numbers are
     * the helper's, not the entry's. */
    static const char log[] =
        "ptxas info    : Compiling entry function 'scan' for 'sm_90'\n"
        "ptxas info    : Function properties for scan\n"
        "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 24 registers, used 0 barriers\n"
        "ptxas info    : Function properties for _Z4stepPf\n"
        "    64 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
        "ptxas info    : Used 60 registers, 2048 bytes smem\n";
    resources r = {0};
    ck_assert_int_eq(parse_ptxas_report(log, "scan", &r), 1);
    ck_assert_int_eq(r.regs, 24);
    ck_assert_int_eq(r.stack_bytes, 16);
    ck_assert_int_eq(r.spill_stores, 0);
    ck_assert_int_eq(r.smem_static, 0);
}
END_TEST

START_TEST(ptxas_kernel_absent)
{
    resources r = {0};
    /* "blu" is a prefix of "blur": the quotes in the log must keep them apart. */
    ck_assert_int_eq(parse_ptxas_report(two_entries_log, "blu", &r), 0);
    ck_assert_int_eq(parse_ptxas_report(two_entries_log, "transpose", &r), 0);
    ck_assert_int_eq(parse_ptxas_report(NULL, "blur", &r), 0);
    ck_assert_int_eq(r.known, 0);
    ck_assert_int_eq(r.regs, 0);
}
END_TEST

START_TEST(target_native)
{
    char t[16];
    ck_assert_int_eq(nvrtc_target_for(90, t, sizeof t), 1);
    ck_assert_str_eq(t, "sm_90");
    ck_assert_int_eq(nvrtc_target_for(75, t, sizeof t), 1);
    ck_assert_str_eq(t, "sm_75");
}
END_TEST

START_TEST(target_future_gpu_gets_ptx)
{
    /* A GPU newer than this NVRTC: PTX for the newest known architecture,
     * which the driver compiles when it loads it. */
    char t[16] = "";
    ck_assert_int_eq(nvrtc_target_for(200, t, sizeof t), 0);
    ck_assert_msg(strncmp(t, "compute_", 8) == 0, "target %s", t);
}
END_TEST

START_TEST(target_too_old)
{
    char t[16];
    ck_assert_int_eq(nvrtc_target_for(30, t, sizeof t), -1);
}
END_TEST

/* An exercise that only names the entry point and, optionally, knob FOO. */
static exercise fixture_ex(const char *kernel, int with_knob)
{
    exercise ex = {.lesson = 0, .name = "fixture", .kernel = kernel};
    if (with_knob)
        ex.knobs[0] = (knob){"FOO", 3, 1, 8, 0, "a knob the fixture needs"};
    return ex;
}

START_TEST(compile_good)
{
    exercise ex = fixture_ex("fx_scale", 0);
    compiled c;
    compile_file(FIXTURES "good.cu", &ex, ex.kernel, NULL, 90, &c);
    ck_assert_msg(c.ok, "%s\n%s", c.error, c.log ? c.log : "");
    ck_assert_int_eq(c.missing, 0);
    ck_assert_str_eq(c.target, "sm_90");
    ck_assert_ptr_nonnull(c.ptx);
    ck_assert_ptr_nonnull(strstr(c.ptx, ".entry fx_scale("));
    ck_assert_ptr_nonnull(c.cubin);
    ck_assert_uint_gt(c.cubin_size, 0);
    ck_assert_int_eq(c.res.known, 1);
    ck_assert_int_gt(c.res.regs, 0);
    ck_assert_int_eq(c.res.stack_bytes, 0);
    compiled_free(&c);
}
END_TEST

START_TEST(compile_syntax_error)
{
    exercise ex = fixture_ex("fx_scale", 0);
    compiled c;
    compile_file(FIXTURES "syntax_error.cu", &ex, ex.kernel, NULL, 90, &c);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_int_eq(c.missing, 0);
    ck_assert_ptr_nonnull(c.log);
    /* The student must see their own file and line. */
    ck_assert_msg(strstr(c.log, FIXTURES "syntax_error.cu(6): error") != NULL, "log:\n%s",
                  c.log);
    ck_assert_ptr_nonnull(strstr(c.error, "does not compile"));
    compiled_free(&c);
}
END_TEST

START_TEST(compile_wrong_kernel_name)
{
    exercise ex = fixture_ex("fx_scale", 0);
    compiled c;
    compile_file(FIXTURES "other_name.cu", &ex, ex.kernel, NULL, 90, &c);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_int_eq(c.missing, 1);
    ck_assert_ptr_nonnull(strstr(c.error, "extern \"C\""));
    ck_assert_ptr_nonnull(strstr(c.error, "fx_scale"));
    compiled_free(&c);
}
END_TEST

/* A comment naming the kernel is no kernel: the entry point is read from
 * the PTX's statements (ptx.h), and this file has no fx_scale. */
START_TEST(compile_kernel_named_only_in_a_comment)
{
    exercise ex = fixture_ex("fx_scale", 0);
    compiled c;
    compile_file(FIXTURES "named_in_asm.cu", &ex, ex.kernel, NULL, 90, &c);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_int_eq(c.missing, 1);
    ck_assert_ptr_nonnull(strstr(c.error, "fx_scale"));
    compiled_free(&c);
}
END_TEST

START_TEST(compile_mangled_kernel_name)
{
    exercise ex = fixture_ex("fx_scale", 0);
    compiled c;
    compile_file(FIXTURES "mangled.cu", &ex, ex.kernel, NULL, 90, &c);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_int_eq(c.missing, 1);
    ck_assert_ptr_nonnull(strstr(c.error, "extern \"C\""));
    compiled_free(&c);
}
END_TEST

START_TEST(compile_missing_file)
{
    exercise ex = fixture_ex("fx_scale", 0);
    compiled c;
    compile_file(FIXTURES "no_such_file.cu", &ex, ex.kernel, NULL, 90, &c);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_int_eq(c.missing, 1);
    ck_assert_ptr_nonnull(strstr(c.error, "no_such_file.cu"));
    compiled_free(&c);
}
END_TEST

START_TEST(compile_local_array)
{
    exercise ex = fixture_ex("fx_local", 0);
    compiled c;
    compile_file(FIXTURES "local_array.cu", &ex, ex.kernel, NULL, 90, &c);
    ck_assert_msg(c.ok, "%s\n%s", c.error, c.log ? c.log : "");
    ck_assert_int_gt(c.res.stack_bytes, 0);
    ck_assert(strstr(c.ptx, "ld.local") || strstr(c.ptx, "st.local"));
    compiled_free(&c);
}
END_TEST

START_TEST(compile_static_shared)
{
    exercise ex = fixture_ex("fx_reverse", 0);
    compiled c;
    compile_file(FIXTURES "shared_tile.cu", &ex, ex.kernel, NULL, 90, &c);
    ck_assert_msg(c.ok, "%s\n%s", c.error, c.log ? c.log : "");
    ck_assert_int_eq(c.res.smem_static, 256 * 4);
    ck_assert_int_eq(c.res.smem_dynamic, 0);
    compiled_free(&c);
}
END_TEST

START_TEST(compile_for_turing)
{
    exercise ex = fixture_ex("fx_scale", 0);
    compiled c;
    compile_file(FIXTURES "good.cu", &ex, ex.kernel, NULL, 75, &c);
    ck_assert_msg(c.ok, "%s", c.error);
    ck_assert_str_eq(c.target, "sm_75");
    compiled_free(&c);
}
END_TEST

START_TEST(compile_too_old_gpu)
{
    exercise ex = fixture_ex("fx_scale", 0);
    compiled c;
    compile_file(FIXTURES "good.cu", &ex, ex.kernel, NULL, 30, &c);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_int_eq(c.missing, 0);
    ck_assert_ptr_nonnull(strstr(c.error, "3.0"));
    compiled_free(&c);
}
END_TEST

START_TEST(knob_passed_as_define)
{
    exercise ex = fixture_ex("fx_knob", 1);
    compiled c;
    int three[MAX_KNOBS] = {3}, four[MAX_KNOBS] = {4};
    compile_file(FIXTURES "needs_knob.cu", &ex, ex.kernel, three, 90, &c);
    ck_assert_msg(c.ok, "%s\n%s", c.error, c.log ? c.log : "");
    compiled_free(&c);
    /* The value, not just the name, reaches the file. */
    compile_file(FIXTURES "needs_knob.cu", &ex, ex.kernel, four, 90, &c);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_ptr_nonnull(strstr(c.log, "FOO must be 3"));
    compiled_free(&c);
}
END_TEST

/* Lesson 9 answered with libcu++ (cuda::pipeline, cuda::memcpy_async), as
 * NVIDIA's current documentation teaches it: NVRTC finds the CCCL headers,
 * the PTX has cp.async, and every mechanism check of lesson 9 holds, on the
 * calibration GPU and on the oldest one lesson 9 allows (sm_80). */
#define LIBCUXX_DIR "tests/gpu/accepted/lesson9-libcuxx"

static void libcuxx_answer_at(int cc)
{
    const exercise *ex = lesson_exercises[9][0];
    ck_assert_str_eq(ex->name, "rolling_async");
    int knobs[MAX_KNOBS] = {0};
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        knobs[k] = ex->knobs[k].def;
    compiled c;
    compile_file(LIBCUXX_DIR "/lesson9/rolling_async.cu", ex, ex->kernel, knobs, cc, &c);
    ck_assert_msg(c.ok, "sm_%d: %s\n%.3000s", cc, c.error, c.log ? c.log : "");
    ck_assert_ptr_nonnull(strstr(c.ptx, "cp.async.ca.shared.global"));
    ck_assert_ptr_nonnull(strstr(c.ptx, "cp.async.wait_group"));
    c.res.occupancy_pct = -1;
    char what[512];
    int failed = first_failed_check(ex, &c, &c.res, knobs, what, sizeof what);
    ck_assert_msg(failed < 0, "sm_%d: mechanism check %d fails: %s", cc, failed, what);
    compiled_free(&c);
}

START_TEST(libcuxx_lesson9_answer)
{
    libcuxx_answer_at(90);
    libcuxx_answer_at(80);
}
END_TEST

START_TEST(libcuxx_answer_as_student_dir)
{
    /* `grader check lesson9 --student-dir` LIBCUXX_DIR grades this very file. */
    const exercise *ex = lesson_exercises[9][0];
    grade_opts o = {.root = ".", .student_dir = LIBCUXX_DIR};
    char path[1024];
    variant_path(ex, V_STUDENT, &o, path, sizeof path);
    ck_assert_str_eq(path, LIBCUXX_DIR "/lesson9/rolling_async.cu");
    ck_assert_int_eq(access(path, R_OK), 0);
}
END_TEST

START_TEST(ptxas_report_at_its_edges)
{
    resources r = {0};
    /* Numbers at a line's start, several spaces before their word, a word
     * at the very end of its line, a word first met without a number. */
    static const char log[] =
        "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
        "64 bytes stack frame, 16 bytes spill stores,   24 bytes spill loads\n"
        "ptxas info    : Used registers 7, then 33 registers, 100 bytes smem";
    ck_assert_int_eq(parse_ptxas_report(log, "k", &r), 1);
    ck_assert_int_eq(r.known, 1);
    ck_assert_int_eq(r.stack_bytes, 64);
    ck_assert_int_eq(r.spill_stores, 16);
    ck_assert_int_eq(r.spill_loads, 24);
    ck_assert_int_eq(r.regs, 33);
    ck_assert_int_eq(r.smem_static, 100);
    /* An entry with no "Used" line of its own: the next entry's is not it. */
    static const char cut[] =
        "ptxas info    : Compiling entry function 'a' for 'sm_90'\n"
        "ptxas info    : Function properties for a\n"
        "ptxas info    : Compiling entry function 'b' for 'sm_90'\n"
        "ptxas info    : Used 50 registers, 8 bytes smem\n";
    resources a = {0};
    ck_assert_int_eq(parse_ptxas_report(cut, "a", &a), 0);
    ck_assert_int_eq(a.regs, 0);
    ck_assert_int_eq(parse_ptxas_report(cut, "b", &a), 1);
    ck_assert_int_eq(a.regs, 50);
    ck_assert_int_eq(a.smem_static, 8);
    /* The last entry of a log that ends without a newline. */
    resources z = {0};
    ck_assert_int_eq(parse_ptxas_report("Compiling entry function 'z'\nUsed 9 registers", "z",
                                        &z), 1);
    ck_assert_int_eq(z.regs, 9);
}
END_TEST

START_TEST(the_toolkits_include_folders)
{
    /* $CUDA_HOME/include, and its cccl/ when that is a folder; the
     * toolkit built with otherwise, also for an empty CUDA_HOME. */
    char top[] = "/tmp/grader-toolkit-XXXXXX", path[200];
    ck_assert_ptr_nonnull(mkdtemp(top));
    snprintf(path, sizeof path, "%s/include", top);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    setenv("CUDA_HOME", top, 1);
    ck_assert_str_eq(cuda_include_dir(), path);
    const char *dirs[4] = {NULL};
    ck_assert_int_eq(compile_include_dirs(dirs, 4), 1);
    ck_assert_str_eq(dirs[0], path);
    /* cccl/ as a file is not a folder. */
    snprintf(path, sizeof path, "%s/include/cccl", top);
    FILE *f = fopen(path, "w");
    fclose(f);
    ck_assert_int_eq(compile_include_dirs(dirs, 4), 1);
    unlink(path);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    ck_assert_int_eq(compile_include_dirs(dirs, 4), 2);
    ck_assert_str_eq(dirs[1], path);
    /* No more than asked for. */
    dirs[0] = dirs[1] = NULL;
    ck_assert_int_eq(compile_include_dirs(dirs, 1), 1);
    ck_assert_ptr_null(dirs[1]);
    ck_assert_int_eq(compile_include_dirs(dirs, 0), 0);
    rmdir(path);
    snprintf(path, sizeof path, "%s/include", top);
    rmdir(path);
    rmdir(top);
    setenv("CUDA_HOME", "", 1);
    ck_assert_str_eq(cuda_include_dir(), CUDA_INCLUDE_DEFAULT);
    unsetenv("CUDA_HOME");
    ck_assert_str_eq(cuda_include_dir(), CUDA_INCLUDE_DEFAULT);
}
END_TEST

Suite *compile_suite(void)
{
    Suite *s = suite_create("compile");
    TCase *tc = tcase_create("ptxas_report");
    tcase_add_test(tc, ptxas_entry_with_helper);
    tcase_add_test(tc, ptxas_only_named_entry);
    tcase_add_test(tc, ptxas_kernel_absent);
    tcase_add_test(tc, ptxas_numbers_end_at_the_used_line);
    tcase_add_test(tc, ptxas_report_at_its_edges);
    tcase_add_test(tc, the_toolkits_include_folders);
    suite_add_tcase(s, tc);

    tc = tcase_create("target");
    tcase_add_test(tc, target_native);
    tcase_add_test(tc, target_future_gpu_gets_ptx);
    tcase_add_test(tc, target_too_old);
    suite_add_tcase(s, tc);

    /* NVRTC: a second or so per file on a slow machine. */
    tc = tcase_create("nvrtc");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, compile_good);
    tcase_add_test(tc, compile_syntax_error);
    tcase_add_test(tc, compile_wrong_kernel_name);
    tcase_add_test(tc, compile_mangled_kernel_name);
    tcase_add_test(tc, compile_missing_file);
    tcase_add_test(tc, compile_kernel_named_only_in_a_comment);
    tcase_add_test(tc, compile_local_array);
    tcase_add_test(tc, compile_static_shared);
    tcase_add_test(tc, compile_for_turing);
    tcase_add_test(tc, compile_too_old_gpu);
    suite_add_tcase(s, tc);

    tc = tcase_create("modern_apis");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, libcuxx_lesson9_answer);
    tcase_add_test(tc, libcuxx_answer_as_student_dir);
    suite_add_tcase(s, tc);

    tc = tcase_create("knobs");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, knob_passed_as_define);
    suite_add_tcase(s, tc);
    return s;
}
