/* test_compile_limits.c: every compile is bounded, and a kernel that asks
 * for more than any GPU gives is told which resource, how much and the limit.
 *
 * The time limit is set to one second here, so the runaway compile (about
 * 20 s on CI's machine) costs a second. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "compile.h"
#include "resource_limits.h"
#include "suites.h"

#define RULES "tests/unit/fixtures/rules/"
#define FIXTURES "tests/unit/fixtures/"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void compile_fixture(const char *path, const char *kernel, compiled *c)
{
    exercise ex = {.name = "fixture", .kernel = kernel};
    compile_file(path, &ex, kernel, NULL, 90, c);
}

START_TEST(runaway_compile_stopped)
{
    compile_set_limits(1.0, (size_t)2 << 30);
    double t0 = now_s();
    compiled c;
    compile_fixture(RULES "runaway_unroll.cu", "fx_scale", &c);
    double took = now_s() - t0;
    compile_set_limits(0, (size_t)2 << 30);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_msg(c.outcome == OUT_COMPILE_ERROR, "outcome %s", outcome_word(c.outcome));
    ck_assert_msg(strstr(c.error, "did not compile within 1 s"), "%s", c.error);
    ck_assert_msg(strstr(c.error, "runaway_unroll.cu"), "%s", c.error);
    ck_assert_msg(took < 4.0, "the limit is 1 s but the compile took %.1f s", took);
    compiled_free(&c);
}
END_TEST

START_TEST(limit_from_environment)
{
    compile_set_limits(0, (size_t)2 << 30);
    setenv("GRADER_COMPILE_TIMEOUT", "7", 1);
    ck_assert(compile_time_limit() == 7.0);
    unsetenv("GRADER_COMPILE_TIMEOUT");
    ck_assert(compile_time_limit() == 30.0);
}
END_TEST

START_TEST(memory_limit_stops_the_compiler)
{
    /* A 256 MB __constant__ initializer makes NVVM build gigabytes; with
     * 256 MB to spend, the child dies and the student is told why. */
    char dir[] = "/tmp/grader-mem-XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/big.cu", dir);
    FILE *f = fopen(path, "w");
    fputs("__constant__ float a[1 << 26] = {1.0f};\n"
          "extern \"C\" __global__ void fx_scale(float *y) { y[0] = a[threadIdx.x]; }\n", f);
    fclose(f);
    compile_set_limits(60, (size_t)256 << 20);
    compiled c;
    compile_fixture(path, "fx_scale", &c);
    compile_set_limits(0, (size_t)2 << 30);
    unlink(path);
    rmdir(dir);
    ck_assert_msg(c.outcome == OUT_COMPILE_ERROR, "outcome %s: %s", outcome_word(c.outcome),
                  c.error);
    ck_assert_msg(strstr(c.error, "memory"), "%s", c.error);
    compiled_free(&c);
}
END_TEST

START_TEST(huge_file_not_compiled)
{
    char dir[] = "/tmp/grader-big-XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/huge.cu", dir);
    FILE *f = fopen(path, "w");
    for (int i = 0; i < 120000; i++)
        fprintf(f, "__device__ float f%06d(float x) { return x * %d.0f; }\n", i, i);
    fclose(f);
    compiled c;
    compile_fixture(path, "fx_scale", &c);
    unlink(path);
    rmdir(dir);
    ck_assert_msg(c.outcome == OUT_COMPILE_ERROR, "outcome %s", outcome_word(c.outcome));
    ck_assert_msg(strstr(c.error, "at most 4 MB"), "%s", c.error);
    compiled_free(&c);
}
END_TEST

typedef struct over {
    const char *file;
    const char *words[4];   /* the resource, the amount, the limit */
} over;

static const over overs[] = {
    {"huge_shared.cu", {"static shared memory", "1200000 bytes", "48 KB (49152 bytes)"}},
    {"huge_constant.cu", {"__constant__ data", "80000 bytes", "64 KB (65536 bytes)"}},
    {"huge_local.cu", {"local memory per thread", "4194304 bytes", "512 KB (524288 bytes)"}},
    {"huge_params.cu", {"parameters", "36012 bytes", "32764 bytes"}},
};

START_TEST(resource_named)
{
    const over *o = &overs[_i];
    char path[200];
    snprintf(path, sizeof path, RULES "%s", o->file);
    compiled c;
    compile_fixture(path, "fx_scale", &c);
    ck_assert_msg(!c.ok && c.outcome == OUT_RESOURCES, "%s: outcome %s: %s", o->file,
                  outcome_word(c.outcome), c.error);
    for (int w = 0; w < 4 && o->words[w]; w++)
        ck_assert_msg(strstr(c.error, o->words[w]), "%s: no '%s' in: %s", o->file, o->words[w],
                      c.error);
    compiled_free(&c);
}
END_TEST

START_TEST(resource_at_the_limit_allowed)
{
    compiled c;
    compile_fixture(RULES "shared_48k.cu", "fx_scale", &c);
    ck_assert_msg(c.ok, "%s", c.error);
    ck_assert_int_eq(c.res.smem_static, 49152);
    compiled_free(&c);
}
END_TEST

START_TEST(bytes_for_people)
{
    char b[32];
    format_bytes(512, b, sizeof b);
    ck_assert_str_eq(b, "512 bytes");
    format_bytes(49152, b, sizeof b);
    ck_assert_str_eq(b, "48 KB");
    format_bytes(80000, b, sizeof b);
    ck_assert_str_eq(b, "78.1 KB");
    format_bytes(1200000, b, sizeof b);
    ck_assert_str_eq(b, "1.1 MB");
}
END_TEST

/* Three files at once, each with a different fate: the results must not be
 * mixed up between the children. */
START_TEST(concurrent_compiles_keep_their_results)
{
    exercise ex = {.name = "fixture", .kernel = "fx_scale"};
    compile_job jobs[4] = {
        {.path = FIXTURES "syntax_error.cu", .ex = &ex, .kernel = "fx_scale", .cc = 90},
        {.path = FIXTURES "good.cu", .name = "shown/good.cu", .ex = &ex, .kernel = "fx_scale",
         .cc = 90},
        {.path = RULES "device_counter.cu", .ex = &ex, .kernel = "fx_scale", .cc = 90},
        {.path = RULES "huge_shared.cu", .ex = &ex, .kernel = "fx_scale", .cc = 75},
    };
    compiled c[4];
    compile_files(jobs, 4, c);
    ck_assert_int_eq(c[0].outcome, OUT_COMPILE_ERROR);
    ck_assert_ptr_nonnull(strstr(c[0].log, "syntax_error.cu(6): error"));
    ck_assert_msg(c[1].ok, "%s", c[1].error);
    ck_assert_ptr_nonnull(strstr(c[1].ptx, ".entry fx_scale("));
    ck_assert_int_gt(c[1].cubin_size, 0);
    ck_assert_int_eq(c[2].outcome, OUT_REFUSED);
    ck_assert_int_eq(c[3].outcome, OUT_RESOURCES);
    ck_assert_str_eq(c[3].target, "sm_75");
    for (int i = 0; i < 4; i++)
        compiled_free(&c[i]);
}
END_TEST

START_TEST(shown_name_in_messages)
{
    /* The name the student knows is the one NVRTC and the grader show. */
    exercise ex = {.name = "fixture", .kernel = "fx_scale"};
    compile_job job = {.path = FIXTURES "syntax_error.cu", .name = "exercises/x/mine.cu",
                       .ex = &ex, .kernel = "fx_scale", .cc = 90};
    compiled c;
    compile_files(&job, 1, &c);
    ck_assert_ptr_nonnull(strstr(c.log, "exercises/x/mine.cu(6): error"));
    ck_assert_ptr_nonnull(strstr(c.error, "exercises/x/mine.cu does not compile"));
    compiled_free(&c);
}
END_TEST

Suite *compile_limits_suite(void)
{
    Suite *s = suite_create("compile_limits");
    TCase *tc = tcase_create("time_and_memory");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, runaway_compile_stopped);
    tcase_add_test(tc, limit_from_environment);
    tcase_add_test(tc, memory_limit_stops_the_compiler);
    tcase_add_test(tc, huge_file_not_compiled);
    suite_add_tcase(s, tc);

    tc = tcase_create("resources");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, resource_named, 0, (int)(sizeof overs / sizeof *overs));
    tcase_add_test(tc, resource_at_the_limit_allowed);
    tcase_add_test(tc, bytes_for_people);
    suite_add_tcase(s, tc);

    tc = tcase_create("concurrent");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, concurrent_compiles_keep_their_results);
    tcase_add_test(tc, shown_name_in_messages);
    suite_add_tcase(s, tc);
    return s;
}
