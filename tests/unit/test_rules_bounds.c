/* test_rules_bounds.c: the boundaries of the grader's rules, each pinned
 * through a public entry point so that a one-token change to it fails
 * here (tests/mutate/ measures that): every knob bound, the device heap's
 * symbols, the include scan's and the sandbox's toolkit folder (with its
 * '/' boundary) and include limit (__has_include counts), the class cache
 * key (budget and timeout), and the archive reader's per-entry state (a pax
 * path or GNU long name names one entry, not the ones after it). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "archive.h"
#include "class.h"
#include "compile_sandbox.h"
#include "cuda_check.h"
#include "knobs.h"
#include "pipeline.h"
#include "ptx_rules.h"
#include "source_rules.h"
#include "suites.h"

/* ---- knobs: both bounds, and powers of two ----------------------------- */

static int knob_ok(const exercise *ex, const char *setting)
{
    knob_settings ks = {.n = 0};
    char err[512];
    ck_assert_int_eq(knob_settings_add(&ks, setting, err, sizeof err), 0);
    const exercise *sel[] = {ex};
    int rc = knob_settings_check(&ks, sel, 1, err, sizeof err);
    if (rc)
        ck_assert_msg(strstr(err, "is not allowed") || strstr(err, "takes a whole number"),
                      "%s: %s", setting, err);
    return rc == 0;
}

START_TEST(knob_bounds_both_ends)
{
    /* t_axpy's BLOCK: a power of two from 32 to 1024. */
    ck_assert(!knob_ok(&t_axpy, "BLOCK=31"));
    ck_assert(!knob_ok(&t_axpy, "BLOCK=16"));
    ck_assert(knob_ok(&t_axpy, "BLOCK=32"));
    ck_assert(!knob_ok(&t_axpy, "BLOCK=33"));
    ck_assert(knob_ok(&t_axpy, "BLOCK=64"));
    ck_assert(knob_ok(&t_axpy, "BLOCK=1024"));
    ck_assert(!knob_ok(&t_axpy, "BLOCK=1025"));
    ck_assert(!knob_ok(&t_axpy, "BLOCK=-32"));
    /* A billion is a number (out of range); past it, not a number at all. */
    knob_settings big = {.n = 0};
    char why[512];
    const exercise *one[] = {&t_axpy};
    knob_settings_add(&big, "BLOCK=1000000000", why, sizeof why);
    ck_assert_int_eq(knob_settings_check(&big, one, 1, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "BLOCK=1000000000 is not allowed"), "%s", why);
    knob_settings_add(&big, "BLOCK=1000000001", why, sizeof why);
    ck_assert_int_eq(knob_settings_check(&big, one, 1, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "takes a whole number"), "%s", why);
    ck_assert(!knob_ok(&t_axpy, "BLOCK=0"));
    exercise ex = t_axpy;
    ex.knobs[0] = (knob){.name = "TILE", .def = 16, .min = 8, .max = 32, .power_of_two = 1,
                         .what = "tile edge"};
    ck_assert(!knob_ok(&ex, "TILE=4"));
    ck_assert(knob_ok(&ex, "TILE=8"));
    ck_assert(!knob_ok(&ex, "TILE=12"));
    ck_assert(knob_ok(&ex, "TILE=32"));
    ck_assert(!knob_ok(&ex, "TILE=64"));
    ex.knobs[0].power_of_two = 0;                 /* a whole number from 8 to 32 */
    ck_assert(!knob_ok(&ex, "TILE=7"));
    ck_assert(knob_ok(&ex, "TILE=8"));
    ck_assert(knob_ok(&ex, "TILE=12"));
    ck_assert(knob_ok(&ex, "TILE=32"));
    ck_assert(!knob_ok(&ex, "TILE=33"));
    ex.knobs[0].power_of_two = 1;
    /* The message names the range. */
    knob_settings ks = {.n = 0};
    char err[512];
    knob_settings_add(&ks, "TILE=4", err, sizeof err);
    const exercise *sel[] = {&ex};
    ck_assert_int_eq(knob_settings_check(&ks, sel, 1, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "TILE=4 is not allowed") && strstr(err, "a power of two from 8 "
                  "to 32"), "%s", err);
}
END_TEST

/* ---- an instance's launch shape ---------------------------------------- */

START_TEST(launch_shape_is_kept_per_axis)
{
    instance I;
    instance_init(&I, 1);
    inst_launch(&I, 3, 5, 7, 32, 2, 4, 96);
    ck_assert_uint_eq(I.grid[0], 3);
    ck_assert_uint_eq(I.grid[1], 5);
    ck_assert_uint_eq(I.grid[2], 7);
    ck_assert_uint_eq(I.block[0], 32);
    ck_assert_uint_eq(I.block[1], 2);
    ck_assert_uint_eq(I.block[2], 4);
    ck_assert_uint_eq(I.dyn_smem, 96);
    instance_free(&I);
}
END_TEST

/* ---- the device heap: malloc and __nv_aligned_device_malloc ------------ */

static int heap_check(const char *fn, char *msg, size_t len)
{
    char ptx[1024];
    snprintf(ptx, sizeof ptx, ".extern .func  (.param .b64 func_retval0) %s\n(\n"
             "\t.param .b64 %s_param_0,\n\t.param .b64 %s_param_1\n);\n"
             ".visible .entry k() {\n\tcall.uni (retval0), \n\t%s, \n"
             "\t(\n\tparam0, param1\n\t);\n}\n", fn, fn, fn, fn);
    return ptx_check_device_globals(ptx, msg, len);
}

START_TEST(device_heap_symbols)
{
    char msg[1024];
    ck_assert_int_eq(heap_check("__nv_aligned_device_malloc", msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "device heap"));
    ck_assert_int_eq(heap_check("malloc", msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "device heap"));
    ck_assert_int_eq(heap_check("vprintf", msg, sizeof msg), 0);
}
END_TEST

/* ---- the toolkit folder: a prefix is not a folder ---------------------- */

/* A scratch folder with inc/ (the "toolkit"), inc/ok.h, and inc-evil/h.h
 * reached from inc/evil.h by a link: its real path starts with inc's. */
static char inc[256], evil[256];

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void make_toolkit(void)
{
    char dir[] = "/tmp/rules-bounds-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char p[512];
    snprintf(inc, sizeof inc, "%s/inc", dir);
    snprintf(evil, sizeof evil, "%s/inc-evil", dir);
    ck_assert_int_eq(mkdir(inc, 0755), 0);
    ck_assert_int_eq(mkdir(evil, 0755), 0);
    snprintf(p, sizeof p, "%s/ok.h", inc);
    put(p, "#define OK 1\n");
    snprintf(p, sizeof p, "%s/h.h", evil);
    put(p, "SECRET\n");
    snprintf(p, sizeof p, "%s/evil.h", inc);
    ck_assert_int_eq(symlink("../inc-evil/h.h", p), 0);
}

START_TEST(include_scan_toolkit_boundary)
{
    make_toolkit();
    const char *dirs[] = {inc};
    char msg[1024];
    ck_assert_int_eq(source_rules_check("#include <ok.h>\n", "k.cu", dirs, 1, msg, sizeof msg), 0);
    ck_assert_int_eq(source_rules_check("#include <evil.h>\n", "k.cu", dirs, 1, msg, sizeof msg),
                     -1);
    ck_assert_msg(strstr(msg, "not one of the toolkit's headers"), "%s", msg);
}
END_TEST

START_TEST(sandbox_toolkit_boundary)
{
    make_toolkit();
    char ok[300], outside[300], linked[300];
    snprintf(ok, sizeof ok, "%s/ok.h", inc);
    snprintf(outside, sizeof outside, "%s/h.h", evil);
    snprintf(linked, sizeof linked, "%s/evil.h", inc);
    ck_assert(sandbox_linked());
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        const char *dirs[] = {inc};
        int bad = 0;
        if (sandbox_enter(dirs, 1) != 0)
            _exit(10);
        FILE *f = fopen(ok, "r");
        bad |= f ? 0 : 1;
        if (f)
            fclose(f);
        bad |= fopen(outside, "r") ? 2 : 0;
        bad |= open(linked, O_RDONLY) >= 0 ? 4 : 0;
        bad |= !sandbox_refused() || strcmp(sandbox_refused(), outside) ? 8 : 0;
        /* Every entry point: the 64-bit names, and openat with a folder. */
        bad |= fopen64(outside, "r") ? 16 : 0;
        bad |= open64(outside, O_RDONLY) >= 0 ? 16 : 0;
        bad |= openat64(AT_FDCWD, outside, O_RDONLY) >= 0 ? 16 : 0;
        bad |= openat(AT_FDCWD, outside, O_RDONLY) >= 0 ? 16 : 0;
        int at = openat64(AT_FDCWD, ok, O_RDONLY);
        bad |= at < 0 ? 32 : 0;
        int rel = at < 0 ? -1 : openat64(at, "ok.h", O_RDONLY);   /* relative to a fd */
        bad |= rel >= 0 ? 64 : 0;
        FILE *g = fopen64(ok, "r");
        bad |= g ? 0 : 32;
        bad |= fopen(ok, "w") ? 128 : 0;                /* never for writing */
        _exit(bad);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "sandbox: status %d (1: toolkit file "
                  "refused, 2: inc-evil opened, 4: link out opened, 8: refusal not kept, "
                  "16: a 64-bit or openat entry let it open, 32: toolkit file refused by "
                  "one, 64: a path relative to a folder fd opened, 128: opened to write)",
                  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}
END_TEST

/* ---- the include limit: 100 lookups, __has_include counted ------------- */

static int lookups(int includes, int has_includes, char *msg, size_t len)
{
    size_t cap = 64 * (size_t)(includes + has_includes) + 1;
    char *src = malloc(cap), *at = src;
    ck_assert_ptr_nonnull(src);
    *at = 0;
    for (int i = 0; i < includes; i++)
        at += sprintf(at, "#include <ok.h>\n");
    for (int i = 0; i < has_includes; i++)
        at += sprintf(at, "#if __has_include(<ok.h>)\n#endif\n");
    const char *dirs[] = {inc};
    int rc = source_rules_check(src, "k.cu", dirs, 1, msg, len);
    free(src);
    return rc;
}

START_TEST(include_limit_counts_has_include)
{
    make_toolkit();
    char msg[1024];
    ck_assert_int_eq(lookups(100, 0, msg, sizeof msg), 0);
    ck_assert_int_eq(lookups(101, 0, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, "more than 100 #include or __has_include"), "%s", msg);
    ck_assert_int_eq(lookups(0, 100, msg, sizeof msg), 0);
    ck_assert_int_eq(lookups(0, 101, msg, sizeof msg), -1);
    ck_assert_int_eq(lookups(50, 51, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, "more than 100"), "%s", msg);
}
END_TEST

/* ---- the class cache key: what was graded under which conditions ------- */

static int calls;

static void pass_grade(const exercise *ex, const int *knobs, const grade_opts *g,
                       double timeout_s, result *r)
{
    (void)ex, (void)knobs, (void)g, (void)timeout_s;
    calls++;
    memset(r, 0, sizeof *r);
    r->outcome = OUT_PASS_UNTIMED;
    snprintf(r->message, sizeof r->message, "Correct.");
}

static void one_gpu(char *name, size_t len, int *cc)
{
    snprintf(name, len, "Scripted GPU");
    *cc = 90;
}

/* class_main on argv (NULL-terminated), quietly: its status; `calls` says
 * how many gradings it made. */
static int class_quiet(char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fflush(stdout);
    fflush(stderr);
    int o = dup(1), e = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    close(null);
    calls = 0;
    class_hooks hooks = {.grade = pass_grade, .probe = one_gpu};
    int rc = class_main(argc, argv, &hooks);
    fflush(stdout);
    fflush(stderr);
    dup2(o, 1);
    dup2(e, 2);
    close(o);
    close(e);
    return rc;
}

/* class SUBS lesson3 --out OUT --seed 42 [extra...]: how many gradings. */
static int gradings(const char *subs, const char *out, const char *a, const char *b,
                    const char *c, const char *d)
{
    char *argv[16] = {"class", (char *)subs, "lesson3", "--out", (char *)out, "--seed", "42"};
    int argc = 7;
    const char *extra[] = {a, b, c, d};
    for (int i = 0; i < 4 && extra[i]; i++)
        argv[argc++] = (char *)extra[i];
    argv[argc] = NULL;
    ck_assert_int_eq(class_quiet(argv), 0);
    return calls;
}

/* One student with lesson3/matmul.cu under a fresh scratch folder. */
static void one_student(char *subs, char *out, size_t len)
{
    char dir[] = "/tmp/rules-class-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char p[512];
    snprintf(subs, len, "%s/subs", dir);
    snprintf(out, len, "%s/out", dir);
    snprintf(p, sizeof p, "%s/ada/lesson3", subs);
    ck_assert_int_eq(mkdir_p(p), 0);
    snprintf(p, sizeof p, "%s/ada/lesson3/matmul.cu", subs);
    put(p, "// a kernel\n");
}

START_TEST(class_cache_key_has_budget_and_timeout)
{
    char subs[256], out[256];
    one_student(subs, out, sizeof subs);
    ck_assert_int_gt(gradings(subs, out, NULL, NULL, NULL, NULL), 0);
    ck_assert_int_eq(gradings(subs, out, NULL, NULL, NULL, NULL), 0);
    /* Another time limit per exercise: graded again, then kept. */
    ck_assert_int_gt(gradings(subs, out, "--timeout", "77", NULL, NULL), 0);
    ck_assert_int_eq(gradings(subs, out, "--timeout", "77", NULL, NULL), 0);
    /* Another budget per student: likewise. */
    ck_assert_int_gt(gradings(subs, out, "--timeout", "77", "--budget", "999"), 0);
    ck_assert_int_eq(gradings(subs, out, "--timeout", "77", "--budget", "999"), 0);
}
END_TEST

/* The command line's bounds: seconds > 0, lesson0 .. the last lesson
 * (N_LESSONS - 1), and no lesson named means every lesson. */
START_TEST(class_command_line_bounds)
{
    char subs[256], out[256];
    one_student(subs, out, sizeof subs);
    char *zero[] = {"class", subs, "lesson3", "--out", out, "--timeout", "0", NULL};
    ck_assert_int_eq(class_quiet(zero), 2);
    char *negative[] = {"class", subs, "lesson3", "--out", out, "--budget", "-1", NULL};
    ck_assert_int_eq(class_quiet(negative), 2);
    char *no_value[] = {"class", subs, "lesson3", "--out", out, "--seed", NULL};
    ck_assert_int_eq(class_quiet(no_value), 2);
    char past_name[32], last_name[32];
    snprintf(past_name, sizeof past_name, "lesson%d", N_LESSONS);
    snprintf(last_name, sizeof last_name, "lesson%d", N_LESSONS - 1);
    char *past[] = {"class", subs, past_name, "--out", out, NULL};
    ck_assert_int_eq(class_quiet(past), 2);
    char *unknown[] = {"class", subs, "lesson3", "--out", out, "--fast", NULL};
    ck_assert_int_eq(class_quiet(unknown), 2);
    char *last[] = {"class", subs, last_name, "--out", out, NULL};
    ck_assert_int_eq(class_quiet(last), 0);
    ck_assert_int_eq(calls, 0);                  /* ada has nothing of the last lesson */
    char *small[] = {"class", subs, "lesson3", "--out", out, "--timeout", "0.5", NULL};
    ck_assert_int_eq(class_quiet(small), 0);
    ck_assert_int_gt(calls, 0);
    char *every[] = {"class", subs, "--out", out, "--regrade", NULL};
    ck_assert_int_eq(class_quiet(every), 0);
    ck_assert_int_gt(calls, 0);                  /* lesson 3 among all of them */
}
END_TEST

/* ---- archives: metadata names one entry -------------------------------- */

static void tar_header(FILE *f, const char *name, char type, const char *data)
{
    unsigned char h[512];
    size_t size = strlen(data);
    memset(h, 0, sizeof h);
    snprintf((char *)h, 100, "%s", name);
    snprintf((char *)h + 100, 8, "%07o", 0644);
    snprintf((char *)h + 108, 8, "%07o", 0);
    snprintf((char *)h + 116, 8, "%07o", 0);
    snprintf((char *)h + 124, 12, "%011o", (unsigned)size);
    snprintf((char *)h + 136, 12, "%011o", 0);
    memset(h + 148, ' ', 8);
    h[156] = (unsigned char)type;
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++)
        sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    h[155] = ' ';
    fwrite(h, 1, 512, f);
    static const char zero[512];
    fwrite(data, 1, size, f);
    fwrite(zero, 1, (512 - size % 512) % 512, f);
}

/* "LEN path=NAME\n", LEN counting itself. */
static void pax_path(FILE *f, const char *name)
{
    char rec[300];
    size_t body = strlen(" path=\n") + strlen(name), len = body + 1;
    while (snprintf(NULL, 0, "%zu", len) + body != len)
        len++;
    snprintf(rec, sizeof rec, "%zu path=%s\n", len, name);
    tar_header(f, "PaxHeader/x", 'x', rec);
}

typedef struct seen {
    char names[8][128];
    int n;
} seen;

static int seen_want(void *ctx, const arc_entry *e)
{
    seen *s = ctx;
    if (s->n < 8)
        snprintf(s->names[s->n++], sizeof s->names[0], "%s", e->name);
    return -1;
}

static void seen_got(void *ctx, int slot, const arc_entry *e, char *data, size_t len)
{
    (void)ctx, (void)slot, (void)e, (void)len;
    free(data);
}

static void seen_bad(void *ctx, const arc_entry *e, const char *why)
{
    (void)ctx, (void)e, (void)why;
}

START_TEST(archive_metadata_names_one_entry)
{
    char dir[] = "/tmp/rules-tar-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/s.tar", dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    pax_path(f, "lesson3/from_pax.cu");
    tar_header(f, "short1.cu", '0', "A\n");
    tar_header(f, "lesson3/plain.cu", '0', "B\n");
    tar_header(f, "././@LongLink", 'L', "lesson3/from_gnu_long_name.cu");
    tar_header(f, "short2.cu", '0', "C\n");
    tar_header(f, "lesson3/last.cu", '0', "D\n");
    static const char end[1024];
    fwrite(end, 1, sizeof end, f);
    fclose(f);

    seen s = {.n = 0};
    arc_sink sink = {.want = seen_want, .got = seen_got, .bad = seen_bad, .ctx = &s};
    char kind[16], err[256];
    ck_assert_int_eq(archive_read(path, &sink, kind, sizeof kind, err, sizeof err), 0);
    ck_assert_str_eq(kind, "tar");
    ck_assert_int_eq(s.n, 4);
    ck_assert_str_eq(s.names[0], "lesson3/from_pax.cu");
    ck_assert_str_eq(s.names[1], "lesson3/plain.cu");
    ck_assert_str_eq(s.names[2], "lesson3/from_gnu_long_name.cu");
    ck_assert_str_eq(s.names[3], "lesson3/last.cu");
}
END_TEST

/* ---- CUDA errors: each its own meaning and outcome --------------------- */

START_TEST(cuda_errors_have_their_own_meaning)
{
    static const struct {
        cudaError_t e;
        const char *word;
        enum outcome o;
    } known[] = {
        {cudaErrorIllegalAddress, "memory it does not own", OUT_CRASH},
        {cudaErrorInvalidAddressSpace, "memory it does not own", OUT_CRASH},
        {cudaErrorMisalignedAddress, "16-byte aligned", OUT_CRASH},
        {cudaErrorLaunchOutOfResources, "must fit in 65536", OUT_RESOURCES},
        {cudaErrorInvalidConfiguration, "block or grid shape", OUT_RESOURCES},
        {cudaErrorIllegalInstruction, "illegal instruction", OUT_CRASH},
        {cudaErrorHardwareStackError, "overflowed its stack", OUT_CRASH},
        {cudaErrorAssert, "assert()", OUT_CRASH},
        {cudaErrorLaunchFailure, "unspecified launch failure", OUT_CRASH},
        {cudaErrorLaunchTimeout, "display driver", OUT_CRASH},
        {cudaErrorNoDevice, "no CUDA GPU is visible", OUT_NO_GPU},
        {cudaErrorInsufficientDriver, "no NVIDIA driver", OUT_NO_GPU},
        {cudaErrorSystemDriverMismatch, "failing call is named below", OUT_NO_GPU},
        {cudaErrorCompatNotSupportedOnDevice, "failing call is named below", OUT_NO_GPU},
        {cudaErrorMemoryAllocation, "ran out of memory", OUT_INTERNAL},
        {cudaErrorInvalidPtx, "cannot load the compiled kernel", OUT_INTERNAL},
        {cudaErrorUnsupportedPtxVersion, "cannot load the compiled kernel", OUT_INTERNAL},
        {cudaErrorNoKernelImageForDevice, "cannot load the compiled kernel", OUT_INTERNAL},
        {cudaErrorInvalidValue, "failing call is named below", OUT_CRASH},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        const char *m = cuda_error_meaning(known[i].e);
        ck_assert_msg(strstr(m, known[i].word), "%s: '%s'", cudaGetErrorName(known[i].e), m);
        ck_assert_msg(cuda_error_outcome(known[i].e) == known[i].o, "%s: outcome %s",
                      cudaGetErrorName(known[i].e), outcome_word(cuda_error_outcome(known[i].e)));
    }
}
END_TEST

Suite *rules_bounds_suite(void)
{
    Suite *s = suite_create("rules_bounds");
    TCase *tc = tcase_create("bounds");
    tcase_add_test(tc, knob_bounds_both_ends);
    tcase_add_test(tc, launch_shape_is_kept_per_axis);
    tcase_add_test(tc, device_heap_symbols);
    tcase_add_test(tc, include_scan_toolkit_boundary);
    tcase_add_test(tc, sandbox_toolkit_boundary);
    tcase_add_test(tc, include_limit_counts_has_include);
    tcase_add_test(tc, class_cache_key_has_budget_and_timeout);
    tcase_add_test(tc, class_command_line_bounds);
    tcase_add_test(tc, archive_metadata_names_one_entry);
    tcase_add_test(tc, cuda_errors_have_their_own_meaning);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
