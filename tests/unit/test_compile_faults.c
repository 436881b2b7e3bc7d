/* test_compile_faults.c: a compile that goes wrong in a way no kernel file
 * can make it, told apart from the student's own fault, each with its
 * sentence (compile.c, nvrtc_compile.c, toolkit.c):
 *
 *   - NVRTC failing at any step (creating the program, an unexpected
 *     compile result, no log, no PTX, no machine code, no memory for it):
 *     OUT_INTERNAL, naming the call, or what is missing for which file;
 *   - the compile child crashing, exiting, running out of CPU time: what
 *     the student reads, with the signal and the memory and time limits;
 *   - an NVRTC that knows no architecture for the GPU;
 *   - the wire from the child: a whole result comes back as it was made,
 *     a short or long one is not a result;
 *   - the compile's own bounds: the time limit and where it comes from, the
 *     largest file compiled, files that are not regular or lead out;
 *   - a compile that worked but opened a file outside: refused, nothing of
 *     it kept.
 *
 * The faults are injected by defining the NVRTC calls here: the test
 * binary's definitions come first for the grader's calls, and each
 * forwards to libnvrtc unless the program being compiled is named after a
 * fault ("nvrtcGetPTXSize:zero.cu": it reports a size of 0; and the getter
 * then called anyway, NVRTC's contract broken, stops the child). The compile
 * child inherits nothing else from the test, so several faults compile at
 * once, one per file.
 *
 *   CK_RUN_SUITE=compile_faults build/tests/unit_tests */
#include <dlfcn.h>
#include <malloc.h>
#include <nvrtc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compile.h"
#include "nvrtc_compile.h"
#include "suites.h"

#define FIXTURES "tests/unit/fixtures/"

/* ---- injected faults ---------------------------------------------------- */

/* The program this compile child builds (nvrtcCreateProgram's name). */
static char program[200];

/* Is `call` to misbehave `how` in this program? */
static int fault(const char *call, const char *how)
{
    size_t n = strlen(call);
    return !strncmp(program, call, n) && program[n] == ':' &&
           !strncmp(program + n + 1, how, strlen(how));
}

#define REAL(name, ...)                                                          \
    static nvrtcResult (*real)(__VA_ARGS__);                                    \
    if (!real)                                                                  \
        real = (nvrtcResult (*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name)

/* More than malloc can ever give. */
#define HUGE_SIZE ((size_t)1 << 62)

nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name,
                               int n, const char *const *headers, const char *const *names)
{
    REAL(nvrtcCreateProgram, nvrtcProgram *, const char *, const char *, int,
         const char *const *, const char *const *);
    snprintf(program, sizeof program, "%s", name ? name : "");
    if (fault("nvrtcCreateProgram", "fail"))
        return NVRTC_ERROR_OUT_OF_MEMORY;
    return real(prog, src, name, n, headers, names);
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int n, const char *const *opts)
{
    REAL(nvrtcCompileProgram, nvrtcProgram, int, const char *const *);
    if (fault("nvrtcCompileProgram", "segv") || fault("nvrtcCompileProgram", "xcpu")) {
        int sig = fault("nvrtcCompileProgram", "segv") ? SIGSEGV : SIGXCPU;
        signal(sig, SIG_DFL);
        raise(sig);
    }
    if (fault("nvrtcCompileProgram", "exit"))
        _exit(5);
    nvrtcResult r = real(prog, n, opts);
    return fault("nvrtcCompileProgram", "odd") ? NVRTC_ERROR_INVALID_OPTION : r;
}

nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *n)
{
    REAL(nvrtcGetProgramLogSize, nvrtcProgram, size_t *);
    if (fault("nvrtcGetProgramLogSize", "fail"))
        return NVRTC_ERROR_INVALID_PROGRAM;
    nvrtcResult r = real(prog, n);
    if (fault("nvrtcGetProgramLogSize", "huge"))
        *n = HUGE_SIZE;
    return r;
}

/* A getter called after its size query failed or gave a size no buffer was
 * made for would write past what the grader has: NVRTC's contract is
 * broken, and the compile child stops here as it might in NVRTC. */
static void size_was_not_known(const char *size_call)
{
    if (fault(size_call, "fail") || fault(size_call, "huge") || fault(size_call, "zero"))
        abort();
}

nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log)
{
    REAL(nvrtcGetProgramLog, nvrtcProgram, char *);
    size_was_not_known("nvrtcGetProgramLogSize");
    if (fault("nvrtcGetProgramLog", "fail")) {
        memset(log, 'x', 8);    /* what a failed call left is not kept */
        return NVRTC_ERROR_INVALID_PROGRAM;
    }
    return real(prog, log);
}

nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *n)
{
    REAL(nvrtcGetPTXSize, nvrtcProgram, size_t *);
    if (fault("nvrtcGetPTXSize", "fail"))
        return NVRTC_ERROR_INVALID_PROGRAM;
    nvrtcResult r = real(prog, n);
    if (fault("nvrtcGetPTXSize", "zero"))
        *n = 0;
    if (fault("nvrtcGetPTXSize", "huge"))
        *n = HUGE_SIZE;
    return r;
}

nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx)
{
    REAL(nvrtcGetPTX, nvrtcProgram, char *);
    size_was_not_known("nvrtcGetPTXSize");
    if (fault("nvrtcGetPTX", "fail"))
        return NVRTC_ERROR_INVALID_PROGRAM;
    return real(prog, ptx);
}

nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *n)
{
    REAL(nvrtcGetCUBINSize, nvrtcProgram, size_t *);
    if (fault("nvrtcGetCUBINSize", "fail"))
        return NVRTC_ERROR_INVALID_PROGRAM;
    nvrtcResult r = real(prog, n);
    if (fault("nvrtcGetCUBINSize", "huge"))
        *n = HUGE_SIZE;
    return r;
}

nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin)
{
    REAL(nvrtcGetCUBIN, nvrtcProgram, char *);
    size_was_not_known("nvrtcGetCUBINSize");
    if (fault("nvrtcGetCUBIN", "fail"))
        return NVRTC_ERROR_INVALID_PROGRAM;
    return real(prog, cubin);
}

/* The architectures NVRTC says it knows: its own, unless a test set some. */
static int fake_archs[70], n_fake = -1, archs_fail;

nvrtcResult nvrtcGetNumSupportedArchs(int *n)
{
    REAL(nvrtcGetNumSupportedArchs, int *);
    if (archs_fail == 1)
        return NVRTC_ERROR_INTERNAL_ERROR;
    if (n_fake >= 0) {
        *n = n_fake;
        return NVRTC_SUCCESS;
    }
    return real(n);
}

nvrtcResult nvrtcGetSupportedArchs(int *archs)
{
    REAL(nvrtcGetSupportedArchs, int *);
    if (archs_fail == 2)
        return NVRTC_ERROR_INTERNAL_ERROR;
    if (n_fake >= 0) {
        memcpy(archs, fake_archs, (size_t)n_fake * sizeof *archs);
        return NVRTC_SUCCESS;
    }
    return real(archs);
}

/* ---- helpers ------------------------------------------------------------ */

static const exercise ex = {.name = "fixture", .kernel = "fx_scale"};

static compile_job job_named(const char *name, int cc)
{
    return (compile_job){.path = FIXTURES "good.cu", .name = name, .ex = &ex,
                         .kernel = "fx_scale", .cc = cc};
}

static void has(const compiled *c, const char *words)
{
    ck_assert_msg(strstr(c->error, words), "no '%s' in: %s", words, c->error);
}

static void internal(const compiled *c)
{
    ck_assert_msg(!c->ok && c->outcome == OUT_INTERNAL, "ok %d, outcome %s: %s", c->ok,
                  outcome_word(c->outcome), c->error);
}

/* ---- NVRTC failing ------------------------------------------------------ */

START_TEST(nvrtc_failing_is_not_the_students_fault)
{
    compile_job jobs[] = {
        job_named("nvrtcCreateProgram:fail.cu", 90),
        job_named("nvrtcCompileProgram:odd.cu", 90),
        job_named("nvrtcGetCUBINSize:fail.cu", 90),
        job_named("nvrtcGetCUBIN:fail.cu", 90),
        job_named("nvrtcGetCUBINSize:huge.cu", 90),
        job_named("fine.cu", 90),
    };
    enum { N = sizeof jobs / sizeof *jobs };
    compiled c[N];
    compile_files(jobs, N, c);
    internal(&c[0]);
    has(&c[0], "nvrtcCreateProgram(&prog, src, name, nshim, shim_src, shim_names) failed "
               "(grader/compile/nvrtc_compile.c:");
    has(&c[0], "): NVRTC_ERROR_OUT_OF_MEMORY");
    ck_assert_ptr_null(c[0].log);
    ck_assert_ptr_null(c[0].ptx);
    /* Compiled, but NVRTC answered what it never answers after compiling. */
    internal(&c[1]);
    has(&c[1], "r failed (grader/compile/nvrtc_compile.c:");
    has(&c[1], "NVRTC_ERROR_INVALID_OPTION");
    ck_assert_ptr_nonnull(c[1].log);
    ck_assert_ptr_nonnull(strstr(c[1].log, "Compiling entry function 'fx_scale'"));
    ck_assert_ptr_null(c[1].ptx);
    ck_assert_ptr_null(c[1].cubin);
    internal(&c[2]);
    has(&c[2], "nvrtcGetCUBINSize(prog, &out->cubin_size) failed");
    has(&c[2], "NVRTC_ERROR_INVALID_PROGRAM");
    ck_assert_ptr_null(c[2].cubin);
    internal(&c[3]);
    has(&c[3], "nvrtcGetCUBIN(prog, out->cubin) failed");
    internal(&c[4]);
    has(&c[4], "no memory for the 4611686018427387904 bytes of machine code NVRTC made of "
               "nvrtcGetCUBINSize:huge.cu");
    ck_assert_ptr_null(c[4].cubin);
    /* The control: the same file, no fault. */
    ck_assert_msg(c[5].ok, "%s", c[5].error);
    ck_assert_int_eq(c[5].outcome, OUT_NOT_RUN);
    ck_assert_ptr_nonnull(strstr(c[5].log, "Compiling entry function 'fx_scale'"));
    ck_assert_int_eq(c[5].res.known, 1);
    ck_assert_int_gt(c[5].cubin_size, 0);
    for (int i = 0; i < N; i++)
        compiled_free(&c[i]);
}
END_TEST

START_TEST(no_ptx_is_not_the_students_fault)
{
    compile_job jobs[] = {
        job_named("nvrtcGetPTXSize:fail.cu", 90),
        job_named("nvrtcGetPTXSize:zero.cu", 90),
        job_named("nvrtcGetPTXSize:huge.cu", 90),
        job_named("nvrtcGetPTX:fail.cu", 90),
    };
    enum { N = sizeof jobs / sizeof *jobs };
    compiled c[N];
    compile_files(jobs, N, c);
    for (int i = 0; i < N; i++) {
        internal(&c[i]);
        char want[200];
        snprintf(want, sizeof want, "NVRTC returned no PTX for %s", jobs[i].name);
        ck_assert_str_eq(c[i].error, want);
        ck_assert_ptr_null(c[i].ptx);
        ck_assert_int_eq(c[i].ptx_size, 0);
        ck_assert_ptr_null(c[i].cubin);
        compiled_free(&c[i]);
    }
}
END_TEST

START_TEST(a_log_nvrtc_cannot_give_is_empty)
{
    /* The compile itself worked: the file passes, with no report to read. */
    compile_job jobs[] = {
        job_named("nvrtcGetProgramLogSize:fail.cu", 90),
        job_named("nvrtcGetProgramLogSize:huge.cu", 90),
        job_named("nvrtcGetProgramLog:fail.cu", 90),
    };
    compiled c[3];
    compile_files(jobs, 3, c);
    for (int i = 0; i < 3; i++) {
        ck_assert_msg(c[i].ok, "%s: %s", jobs[i].name, c[i].error);
        ck_assert_int_eq(c[i].res.known, 0);
        ck_assert_int_gt(c[i].cubin_size, 0);
    }
    ck_assert_str_eq(c[0].log, "");
    ck_assert_ptr_null(c[1].log);       /* no memory for it */
    ck_assert_str_eq(c[2].log, "");
    for (int i = 0; i < 3; i++)
        compiled_free(&c[i]);
}
END_TEST

/* ---- the compile child dying --------------------------------------------- */

START_TEST(a_compiler_that_dies_says_how)
{
    unsetenv("GRADER_COMPILE_TIMEOUT");
    compile_job jobs[] = {
        job_named("nvrtcCompileProgram:segv.cu", 90),
        job_named("nvrtcCompileProgram:exit.cu", 90),
        job_named("nvrtcCompileProgram:xcpu.cu", 90),
    };
    compiled c[3];
    compile_files(jobs, 3, c);
    for (int i = 0; i < 3; i++) {
        ck_assert_msg(!c[i].ok && c[i].outcome == OUT_COMPILE_ERROR, "%s: %s", jobs[i].name,
                      c[i].error);
        ck_assert_ptr_null(c[i].log);
        ck_assert_ptr_null(c[i].ptx);
    }
    /* The default limits: 2 GB of memory, 30 s. */
    ck_assert_str_eq(c[0].error, "The compiler stopped without a result while compiling "
                     "nvrtcCompileProgram:segv.cu (signal 11, Segmentation fault). It may "
                     "have needed more than the 2 GB of memory one compile may take: a loop "
                     "unrolled thousands of times, or a very large array or file, can make it "
                     "do that.");
    ck_assert_str_eq(c[1].error, "The compiler stopped without a result while compiling "
                     "nvrtcCompileProgram:exit.cu. It may have needed more than the 2 GB of "
                     "memory one compile may take: a loop unrolled thousands of times, or a "
                     "very large array or file, can make it do that.");
    has(&c[2], "nvrtcCompileProgram:xcpu.cu did not compile within 30 s, the limit for one "
               "compile, so the compiler was stopped.");
    for (int i = 0; i < 3; i++)
        compiled_free(&c[i]);
}
END_TEST

START_TEST(the_limits_set_are_the_limits_told)
{
    compile_set_limits(7.5, (size_t)3 << 30);
    compile_job jobs[] = {
        job_named("nvrtcCompileProgram:segv.cu", 90),
        job_named("nvrtcCompileProgram:xcpu.cu", 90),
    };
    compiled c[2];
    compile_files(jobs, 2, c);
    has(&c[0], "more than the 3 GB of memory");
    has(&c[1], "did not compile within 7.5 s");
    for (int i = 0; i < 2; i++)
        compiled_free(&c[i]);
}
END_TEST

START_TEST(the_time_limit_and_where_it_comes_from)
{
    compile_set_limits(0, (size_t)2 << 30);
    unsetenv("GRADER_COMPILE_TIMEOUT");
    ck_assert(compile_time_limit() == 30.0);
    static const char *const not_a_limit[] = {"0", "-3", "soon", ""};
    for (int i = 0; i < 4; i++) {
        setenv("GRADER_COMPILE_TIMEOUT", not_a_limit[i], 1);
        ck_assert_msg(compile_time_limit() == 30.0, "\"%s\" gave %g", not_a_limit[i],
                      compile_time_limit());
    }
    setenv("GRADER_COMPILE_TIMEOUT", "0.25", 1);
    ck_assert(compile_time_limit() == 0.25);
    /* One set by the program wins over the environment. */
    compile_set_limits(5, (size_t)2 << 30);
    ck_assert(compile_time_limit() == 5.0);
    compile_set_limits(0.001, (size_t)2 << 30);
    ck_assert(compile_time_limit() == 0.001);
    unsetenv("GRADER_COMPILE_TIMEOUT");
}
END_TEST

/* ---- which architecture ------------------------------------------------- */

static void set_archs(const int *a, int n)
{
    memcpy(fake_archs, a, (size_t)n * sizeof *a);
    n_fake = n;
}

START_TEST(the_architecture_nvrtc_builds_for)
{
    char t[32];
    static const int four[] = {75, 80, 86, 90};
    set_archs(four, 4);
    ck_assert_int_eq(nvrtc_target_for(90, t, sizeof t), 1);
    ck_assert_str_eq(t, "sm_90");
    ck_assert_int_eq(nvrtc_target_for(75, t, sizeof t), 1);
    ck_assert_str_eq(t, "sm_75");
    /* Between known ones: PTX of the newest older one, for the driver. */
    ck_assert_int_eq(nvrtc_target_for(89, t, sizeof t), 0);
    ck_assert_str_eq(t, "compute_86");
    ck_assert_int_eq(nvrtc_target_for(120, t, sizeof t), 0);
    ck_assert_str_eq(t, "compute_90");
    ck_assert_int_eq(nvrtc_target_for(70, t, sizeof t), -1);
    /* The order NVRTC lists them in does not matter. */
    static const int shuffled[] = {86, 90, 75, 80};
    set_archs(shuffled, 4);
    ck_assert_int_eq(nvrtc_target_for(89, t, sizeof t), 0);
    ck_assert_str_eq(t, "compute_86");
    /* One architecture is enough; 64 are still read. */
    static const int one[] = {90};
    set_archs(one, 1);
    ck_assert_int_eq(nvrtc_target_for(90, t, sizeof t), 1);
    ck_assert_int_eq(nvrtc_target_for(100, t, sizeof t), 0);
    ck_assert_str_eq(t, "compute_90");
    int many[64];
    for (int i = 0; i < 64; i++)
        many[i] = 30 + i;
    set_archs(many, 64);
    ck_assert_int_eq(nvrtc_target_for(93, t, sizeof t), 1);
    ck_assert_str_eq(t, "sm_93");
}
END_TEST

START_TEST(an_nvrtc_that_knows_no_architecture)
{
    char t[32];
    int many[65];
    for (int i = 0; i < 65; i++)
        many[i] = 30 + i;
    set_archs(many, 65);    /* more than the grader reads: not believed */
    ck_assert_int_eq(nvrtc_target_for(90, t, sizeof t), -1);
    set_archs(many, 0);
    ck_assert_int_eq(nvrtc_target_for(90, t, sizeof t), -1);
    n_fake = -1;
    archs_fail = 1;
    ck_assert_int_eq(nvrtc_target_for(90, t, sizeof t), -1);
    archs_fail = 2;
    ck_assert_int_eq(nvrtc_target_for(90, t, sizeof t), -1);
    /* Through a compile: the file is not at fault. */
    compile_job job = job_named("k.cu", 90);
    compiled c;
    compile_files(&job, 1, &c);
    internal(&c);
    ck_assert_str_eq(c.error, "this NVRTC cannot build code for compute capability 9.0");
    compiled_free(&c);
    job.cc = 86;
    compile_files(&job, 1, &c);
    ck_assert_str_eq(c.error, "this NVRTC cannot build code for compute capability 8.6");
    compiled_free(&c);
    archs_fail = 0;
}
END_TEST

START_TEST(a_gpu_newer_than_nvrtc_gets_ptx_only)
{
    /* No machine code, no ptxas report: the PTX the driver will compile. */
    static const int older[] = {75, 80};
    set_archs(older, 2);
    compile_job job = job_named("k.cu", 90);
    compiled c;
    compile_files(&job, 1, &c);
    ck_assert_msg(c.ok, "%s", c.error);
    ck_assert_str_eq(c.target, "compute_80");
    ck_assert_ptr_nonnull(strstr(c.ptx, ".entry fx_scale("));
    ck_assert_ptr_nonnull(strstr(c.ptx, ".target sm_80"));
    ck_assert_ptr_null(c.cubin);
    ck_assert_int_eq(c.cubin_size, 0);
    ck_assert_int_eq(c.res.known, 0);
    ck_assert_ptr_null(strstr(c.log ? c.log : "", "ptxas"));
    compiled_free(&c);
}
END_TEST

/* ---- the wire ------------------------------------------------------------ */

/* What nvrtc_child_body writes for `src`, run in this process (it enters
 * the sandbox and leaves it when done); the task keeps what it compiled. */
static char *wire_of(child_task *t, const char *src, int native, size_t *len)
{
    static const compile_job job = {.path = "k.cu", .name = "shown/k.cu", .ex = &ex,
                                    .kernel = "fx_scale", .cc = 90};
    *t = (child_task){.src = src, .job = &job, .native = native};
    /* On a machine with a GPU, NVRTC 13 loads the CUDA driver (libcuda), and
     * in this process, unlike in the grader's compile children, the driver
     * opens files of its own inside the sandbox: /proc/sys/vm/mmap_min_addr
     * at NVRTC's first compile (so warm up first, as compile_batch does) and
     * its JIT cache, ~/.nv/ComputeCache/index, at a native compile (so no
     * cache). Seen on the lent H200, 2026-11-28, where make static and make
     * check of the solutions refused nothing. */
    setenv("CUDA_CACHE_DISABLE", "1", 1);   /* before the driver is loaded */
    nvrtc_warm_up();
    snprintf(t->c.target, sizeof t->c.target, native ? "sm_90" : "compute_90");
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    nvrtc_child_body(t, fileno(f));
    /* Sent, the child is done with NVRTC: it may open anything again. */
    FILE *any = fopen("/proc/self/status", "r");
    ck_assert_ptr_nonnull(any);
    fclose(any);
    off_t n = lseek(fileno(f), 0, SEEK_END);
    char *buf = malloc((size_t)n + 2);
    ck_assert_int_eq(pread(fileno(f), buf, (size_t)n, 0), n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static const char good_src[] =
    "extern \"C\" __global__ void fx_scale(float *y, int n)\n"
    "{ int i = threadIdx.x; if (i < n) y[i] *= 2; }\n";

START_TEST(the_wire_carries_the_whole_result)
{
    child_task t;
    size_t len;
    char *buf = wire_of(&t, good_src, 1, &len);
    ck_assert_msg(t.c.ok, "%s", t.c.error);
    compiled c;
    char refused[64] = "x";
    ck_assert_int_eq(nvrtc_unpack(buf, len, &c, refused, sizeof refused), 0);
    ck_assert_str_eq(refused, "");
    ck_assert_int_eq(c.ok, 1);
    ck_assert_int_eq(c.outcome, t.c.outcome);
    ck_assert_str_eq(c.target, "sm_90");
    ck_assert_int_eq(c.res.regs, t.c.res.regs);
    ck_assert_int_eq(c.res.known, 1);
    ck_assert_str_eq(c.log, t.c.log);
    ck_assert_int_eq(c.ptx_size, t.c.ptx_size);
    ck_assert(!memcmp(c.ptx, t.c.ptx, c.ptx_size));
    ck_assert_int_eq(c.ptx[c.ptx_size], 0);
    ck_assert_int_eq(c.cubin_size, t.c.cubin_size);
    ck_assert(!memcmp(c.cubin, t.c.cubin, c.cubin_size));
    ck_assert_int_eq(c.cubin[c.cubin_size], 0);
    /* A byte short or a byte over is not a result; nor is less than the
     * header. */
    compiled d;
    ck_assert_int_eq(nvrtc_unpack(buf, len - 1, &d, refused, sizeof refused), -1);
    ck_assert_int_eq(nvrtc_unpack(buf, len + 1, &d, refused, sizeof refused), -1);
    ck_assert_int_eq(nvrtc_unpack(buf, 16, &d, refused, sizeof refused), -1);
    ck_assert_int_eq(nvrtc_unpack(buf, 0, &d, refused, sizeof refused), -1);
    compiled_free(&c);
    compiled_free(&t.c);
    free(buf);
}
END_TEST

START_TEST(the_wire_of_ptx_only_and_of_a_refusal)
{
    child_task t;
    size_t len;
    char *buf = wire_of(&t, good_src, 0, &len);
    compiled c;
    char refused[64];
    ck_assert_int_eq(nvrtc_unpack(buf, len, &c, refused, sizeof refused), 0);
    ck_assert_int_eq(c.ok, 1);
    ck_assert_str_eq(c.target, "compute_90");
    ck_assert_ptr_nonnull(strstr(c.ptx, ".entry fx_scale("));
    ck_assert_ptr_null(c.cubin);
    ck_assert_int_eq(c.cubin_size, 0);
    compiled_free(&c);
    compiled_free(&t.c);
    free(buf);
    /* The child names the file the sandbox kept NVRTC from, cut to fit. */
    buf = wire_of(&t, "#include \"/etc/passwd\"\n", 1, &len);
    ck_assert_int_eq(nvrtc_unpack(buf, len, &c, refused, sizeof refused), 0);
    ck_assert_str_eq(refused, "/etc/passwd");
    ck_assert_int_eq(c.ok, 0);
    ck_assert_int_eq(c.outcome, OUT_COMPILE_ERROR);
    ck_assert_ptr_nonnull(strstr(c.log, "cannot open source file"));
    compiled_free(&c);
    char cut[5];
    ck_assert_int_eq(nvrtc_unpack(buf, len, &c, cut, sizeof cut), 0);
    ck_assert_str_eq(cut, "/etc");
    compiled_free(&c);
    compiled_free(&t.c);
    free(buf);
}
END_TEST

/* ---- what is compiled at all --------------------------------------------- */

static char dir[64];

/* dir/name, kept for the test's lifetime (a test runs in a process of its own). */
static const char *in_dir(const char *name)
{
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(path, "%s/%s", dir, name);
    return path;
}

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/grader-faults-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[sizeof dir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* A kernel file of exactly `size` bytes: the kernel, then a comment. */
static void kernel_of_size(const char *path, size_t size)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(good_src, f);
    fputs("/*", f);
    for (size_t n = strlen(good_src) + 4; n < size; n++)
        fputc(n % 64 ? 'x' : '\n', f);
    fputs("*/", f);
    fclose(f);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_size, size);
}

START_TEST(the_largest_file_compiled)
{
    make_dir();
    kernel_of_size(in_dir("max.cu"), (size_t)4 << 20);
    kernel_of_size(in_dir("over.cu"), ((size_t)4 << 20) + 1);
    compile_job jobs[2] = {
        {.path = in_dir("max.cu"), .ex = &ex, .kernel = "fx_scale", .cc = 90},
        {.path = in_dir("over.cu"), .name = "mine/over.cu", .ex = &ex, .kernel = "fx_scale",
         .cc = 90},
    };
    compiled c[2];
    compile_files(jobs, 2, c);
    ck_assert_msg(c[0].ok, "4 MB exactly: %s", c[0].error);
    ck_assert_int_eq(c[1].outcome, OUT_COMPILE_ERROR);
    ck_assert_str_eq(c[1].error, "mine/over.cu is 4.0 MB; a kernel file may be at most 4 MB, "
                     "so it was not compiled.");
    compiled_free(&c[0]);
    compiled_free(&c[1]);
    remove_dir();
}
END_TEST

START_TEST(only_a_regular_file_inside_its_folder)
{
    make_dir();
    ck_assert_int_eq(mkdir(in_dir("student"), 0700), 0);
    ck_assert_int_eq(mkdir(in_dir("student/k.cu"), 0700), 0);      /* a folder */
    kernel_of_size(in_dir("student/ok.cu"), 300);
    kernel_of_size(in_dir("elsewhere.cu"), 300);
    /* A folder beside it whose name starts with the student's. */
    ck_assert_int_eq(mkdir(in_dir("student2"), 0700), 0);
    kernel_of_size(in_dir("student2/k.cu"), 300);
    ck_assert_int_eq(symlink(in_dir("student2/k.cu"), in_dir("student/next.cu")), 0);
    ck_assert_int_eq(symlink(in_dir("elsewhere.cu"), in_dir("student/out.cu")), 0);
    ck_assert_int_eq(symlink(in_dir("student"), in_dir("linked")), 0);
    const char *student = in_dir("student");
    compile_job jobs[] = {
        {.path = in_dir("student/k.cu"), .name = "k.cu", .within = student, .ex = &ex,
         .kernel = "fx_scale", .cc = 90},
        {.path = in_dir("student/out.cu"), .name = "out.cu", .within = student, .ex = &ex,
         .kernel = "fx_scale", .cc = 90},
        {.path = in_dir("student/ok.cu"), .name = "ok.cu", .within = student, .ex = &ex,
         .kernel = "fx_scale", .cc = 90},
        /* The folder named through a link of its own: the same folder. */
        {.path = in_dir("linked/ok.cu"), .name = "ok.cu", .within = in_dir("linked"),
         .ex = &ex, .kernel = "fx_scale", .cc = 90},
        {.path = in_dir("student/none.cu"), .name = "none.cu", .within = student, .ex = &ex,
         .kernel = "fx_scale", .cc = 90},
        {.path = in_dir("student/next.cu"), .name = "next.cu", .within = student, .ex = &ex,
         .kernel = "fx_scale", .cc = 90},
        /* Not held to a folder: a link anywhere is read. */
        {.path = in_dir("student/out.cu"), .name = "free.cu", .ex = &ex, .kernel = "fx_scale",
         .cc = 90},
    };
    enum { N = sizeof jobs / sizeof *jobs };
    compiled c[N];
    compile_files(jobs, N, c);
    ck_assert_int_eq(c[0].outcome, OUT_REFUSED);
    ck_assert_str_eq(c[0].error, "k.cu is refused: it is not a regular file (a folder, a "
                     "device or a pipe); hand in the kernel file itself.");
    ck_assert_int_eq(c[1].outcome, OUT_REFUSED);
    char want[400];
    snprintf(want, sizeof want, "out.cu is refused: it is a symbolic link, or lies in a linked "
             "folder, that leads out of %s. Hand in the file itself", student);
    has(&c[1], want);
    ck_assert_msg(c[2].ok, "%s", c[2].error);
    ck_assert_msg(c[3].ok, "%s", c[3].error);
    /* Freed, a result is empty, and freeing it again does nothing. */
    compiled_free(&c[2]);
    ck_assert_ptr_null(c[2].ptx);
    ck_assert_ptr_null(c[2].cubin);
    ck_assert_int_eq(c[2].ok, 0);
    ck_assert_int_eq(c[2].cubin_size, 0);
    compiled_free(&c[2]);
    ck_assert_int_eq(c[4].outcome, OUT_MISSING);
    ck_assert_int_eq(c[4].missing, 1);
    ck_assert_str_eq(c[4].error, "cannot read none.cu");
    ck_assert_int_eq(c[5].outcome, OUT_REFUSED);
    ck_assert_msg(strstr(c[5].error, "leads out of"), "%s", c[5].error);
    ck_assert_msg(c[6].ok, "%s", c[6].error);
    for (int i = 0; i < N; i++) {
        if (i != 2 && i != 3 && i != 6) {
            ck_assert_ptr_null(c[i].log);
            ck_assert_int_eq(c[i].ok, 0);
        }
        compiled_free(&c[i]);
    }
    remove_dir();
}
END_TEST

START_TEST(a_compile_that_opened_outside_keeps_nothing)
{
    /* A toolkit header that only asks whether a file outside exists: the
     * compile succeeds, machine code and all, but the sandbox refused an
     * open, so the file is refused and nothing NVRTC said is kept. */
    make_dir();
    ck_assert_int_eq(mkdir(in_dir("toolkit"), 0700), 0);
    ck_assert_int_eq(mkdir(in_dir("toolkit/include"), 0700), 0);
    FILE *h = fopen(in_dir("toolkit/include/cuda_probe.h"), "w");
    ck_assert_ptr_nonnull(h);
    fputs("#if __has_include(\"/etc/passwd\")\n#endif\n", h);
    fclose(h);
    h = fopen(in_dir("k.cu"), "w");
    ck_assert_ptr_nonnull(h);
    fprintf(h, "#include <cuda_probe.h>\n%s", good_src);
    fclose(h);
    setenv("CUDA_HOME", in_dir("toolkit"), 1);
    nvrtc_warm_up();
    compile_job job = {.path = in_dir("k.cu"), .name = "mine/k.cu", .ex = &ex,
                       .kernel = "fx_scale", .cc = 90};
    compiled c;
    compile_files(&job, 1, &c);
    compiled_free(&c);
    /* Again, counting what stays allocated: nothing of the result. */
    size_t before = mallinfo2().uordblks;
    compile_files(&job, 1, &c);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_int_eq(c.outcome, OUT_REFUSED);
    ck_assert_str_eq(c.error, "mine/k.cu is refused: while compiling it, the compiler tried to "
                     "open /etc/passwd, which is not one of the CUDA toolkit's headers; a "
                     "kernel file may include only the CUDA toolkit's headers, and the grader "
                     "never reads another file for it.");
    ck_assert_ptr_null(c.log);
    ck_assert_ptr_null(c.ptx);
    ck_assert_ptr_null(c.cubin);
    ck_assert_int_eq(c.ptx_size, 0);
    ck_assert_int_eq(c.cubin_size, 0);
    compiled_free(&c);
    ck_assert_int_eq(mallinfo2().uordblks, before);
    unsetenv("CUDA_HOME");
    /* The same file with the toolkit's own headers: it compiles. */
    h = fopen(in_dir("toolkit/include/cuda_probe.h"), "w");
    fputs("/* nothing */\n", h);
    fclose(h);
    setenv("CUDA_HOME", in_dir("toolkit"), 1);
    compile_files(&job, 1, &c);
    unsetenv("CUDA_HOME");
    ck_assert_msg(c.ok, "%s", c.error);
    ck_assert_int_gt(c.cubin_size, 0);
    compiled_free(&c);
    remove_dir();
}
END_TEST

START_TEST(every_knob_reaches_the_compiler)
{
    /* As many knobs as an exercise may have, each -DNAME=VALUE, negative
     * ones too; an exercise that, like every real one, has sizes after
     * them. */
    make_dir();
    FILE *f = fopen(in_dir("knobs.cu"), "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "static_assert(KA == 1 && KB == 22 && KC == 333 && KD == -4, \"knobs\");\n%s",
            good_src);
    fclose(f);
    exercise kex = {.name = "knobs", .kernel = "fx_scale", .check_sizes = {1 << 20, 3000}};
    static const char *const names[MAX_KNOBS] = {"KA", "KB", "KC", "KD"};
    for (int k = 0; k < MAX_KNOBS; k++)
        kex.knobs[k] = (knob){.name = names[k], .def = 1, .min = -8, .max = 400};
    int values[MAX_KNOBS] = {1, 22, 333, -4}, wrong[MAX_KNOBS] = {1, 22, 333, 4};
    compile_job jobs[2] = {
        {.path = in_dir("knobs.cu"), .ex = &kex, .kernel = "fx_scale", .knobs = values, .cc = 90},
        {.path = in_dir("knobs.cu"), .ex = &kex, .kernel = "fx_scale", .knobs = wrong, .cc = 90},
    };
    compiled c[2];
    compile_files(jobs, 2, c);
    ck_assert_msg(c[0].ok, "%s\n%s", c[0].error, c[0].log ? c[0].log : "");
    ck_assert_int_eq(c[1].outcome, OUT_COMPILE_ERROR);
    ck_assert_ptr_nonnull(strstr(c[1].log, "knobs"));
    compiled_free(&c[0]);
    compiled_free(&c[1]);
    /* One job after two: nothing of the batch before is touched again. */
    compile_files(&jobs[1], 1, c);
    ck_assert_int_eq(c[0].outcome, OUT_COMPILE_ERROR);
    compiled_free(&c[0]);
    remove_dir();
}
END_TEST

Suite *compile_faults_suite(void)
{
    Suite *s = suite_create("compile_faults");
    TCase *tc = tcase_create("compile faults");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, nvrtc_failing_is_not_the_students_fault);
    tcase_add_test(tc, no_ptx_is_not_the_students_fault);
    tcase_add_test(tc, a_log_nvrtc_cannot_give_is_empty);
    tcase_add_test(tc, a_compiler_that_dies_says_how);
    tcase_add_test(tc, the_limits_set_are_the_limits_told);
    tcase_add_test(tc, the_time_limit_and_where_it_comes_from);
    tcase_add_test(tc, the_architecture_nvrtc_builds_for);
    tcase_add_test(tc, an_nvrtc_that_knows_no_architecture);
    tcase_add_test(tc, a_gpu_newer_than_nvrtc_gets_ptx_only);
    tcase_add_test(tc, the_wire_carries_the_whole_result);
    tcase_add_test(tc, the_wire_of_ptx_only_and_of_a_refusal);
    tcase_add_test(tc, the_largest_file_compiled);
    tcase_add_test(tc, only_a_regular_file_inside_its_folder);
    tcase_add_test(tc, a_compile_that_opened_outside_keeps_nothing);
    tcase_add_test(tc, every_knob_reaches_the_compiler);
    suite_add_tcase(s, tc);
    return s;
}
