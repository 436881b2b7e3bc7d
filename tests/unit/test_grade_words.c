/* test_grade_words.c: the whole sentence a student reads for each way
 * grading ends, word for word, on the host backend: where a stop happened
 * (the stage), which version it was and whose fault (the course's own
 * versions add that it is a bug in the course), the numbers in it (sizes,
 * elements, argument positions, tolerances, seeds, seconds, compute
 * capabilities), and the detail under it. And each verdict's sentence from
 * its facts (verdict_say): every bar kind, graded or not, a reference
 * stood in for, a missing mechanism, checks without a GPU. test_pipeline.c
 * and test_verdict.c hold which outcome each case earns; these hold its
 * words, so a wrong number or a dropped clause is a failure.
 *
 *   CK_RUN_SUITE=grade_words build/tests/unit_tests
 *
 * On a mismatch the text is left in /tmp/grade-words-NAME.txt;
 * GRADE_WORDS_DUMP=1 runs every comparison without failing (to read new
 * wording there after a deliberate change). */
#include <cuda_runtime_api.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "child.h"
#include "pipeline.h"
#include "suites.h"
#include "verdict.h"

static void same(const char *name, const char *got, const char *want)
{
    if (!strcmp(got, want))
        return;
    char path[128];
    snprintf(path, sizeof path, "/tmp/grade-words-%s.txt", name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(got, f);
        fclose(f);
    }
    if (!getenv("GRADE_WORDS_DUMP"))
        ck_abort_msg("%s: the words differ (got in %s):\n%s", name, path, got);
}

/* r's outcome is o and its message `message`, exactly. */
static void said(const char *name, const result *r, enum outcome o, const char *message)
{
    ck_assert_msg(r->outcome == o, "%s: expected %s, got %s: %s", name, outcome_word(o),
                  outcome_word(r->outcome), r->message);
    same(name, r->message, message);
}

static void detail(const char *name, const result *r, const char *want)
{
    char n[96];
    snprintf(n, sizeof n, "%s-detail", name);
    same(n, r->detail, want);
}

static double t_student = 0.012;

static void axpy_timed(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = t_student;
}

static void grade(const exercise *ex, result *r)
{
    grade_host(ex, 0, r);
}

/* ---- where grading cannot start ----------------------------------------- */

START_TEST(no_gpu_and_an_old_one)
{
    result r;
    use_kernels(&t_axpy, axpy_timed);
    host_set_device(NULL, 0);
    grade(&t_axpy, &r);
    said("no-gpu", &r, OUT_NO_GPU,
        "No usable GPU: cudaErrorNoDevice (no CUDA-capable device is detected). This means no "
        "CUDA GPU is visible. On a machine with an NVIDIA GPU check that nvidia-smi lists it "
        "and that CUDA_VISIBLE_DEVICES does not hide it.");

    device_facts dev;
    char why[64];
    host_reset();
    ck_assert_int_eq(device_host.probe(&dev, why, sizeof why), 0);
    snprintf(dev.name, sizeof dev.name, "Test GPU A100");
    dev.cc = 80;
    dev.sm_count = 108;
    exercise ex = t_axpy;
    ex.min_cc = 86;
    use_kernels(&ex, axpy_timed);
    host_set_device(&dev, 1000);
    grade(&ex, &r);
    said("old-gpu", &r, OUT_UNSUPPORTED,
        "This exercise needs a GPU of compute capability 8.6 or newer; this one (Test GPU "
        "A100) is 8.0, so it cannot be graded here. The lesson says which hardware feature it "
        "relies on.");
    ck_assert_str_eq(r.gpu, "Test GPU A100");
    ck_assert_int_eq(r.cc, 80);
    ck_assert_int_eq(r.sm_count, 108);
    /* Exactly the generation asked for is new enough. */
    ex.min_cc = 80;
    use_kernels(&ex, axpy_timed);
    host_set_device(&dev, 1000);
    grade(&ex, &r);
    ck_assert_int_eq(r.outcome, OUT_PASS);
}
END_TEST

/* A course file that does not build is the course's fault, named with
 * its version and path; the student's own is the student's. */
START_TEST(course_files_that_do_not_build)
{
    result r;
    use_kernels(&t_axpy, axpy_timed);
    host_module b = baseline_module(&t_axpy, axpy_timed);
    b.compile_log = "grader/baselines/t/axpy.cu(1): error: expected a declaration";
    host_add(&b);
    grade(&t_axpy, &r);
    said("baseline-broken", &r, OUT_INTERNAL,
        "The course's own copy of the baseline (grader/baselines/t/axpy.cu) did not build: "
        "grader/baselines/t/axpy.cu does not compile. The compiler's messages below name the "
        "file and line (file(line): error: ...); fix the first one first, "
        "later ones often follow from it. This is a bug in the course, "
        "not in your kernel; please report it.");
    detail("baseline-broken", &r, "grader/baselines/t/axpy.cu(1): error: expected a declaration");

    use_kernels(&t_axpy, axpy_timed);
    host_module s = solution_module(&t_axpy, axpy_timed);
    s.kernel = "other";
    host_add(&s);
    grade(&t_axpy, &r);
    said("solution-missing-kernel", &r, OUT_INTERNAL,
        "The course's own copy of the reference solution (solutions/t/axpy.cu) did not build: "
        "solutions/t/axpy.cu compiles but has no kernel named 'axpy': declare it as extern "
        "\"C\" __global__ void axpy(...) This is a bug in the course, "
        "not in your kernel; please report it.");

    use_kernels(&t_axpy, axpy_timed);
    host_module m = student_module(&t_axpy, axpy_timed);
    m.compile_log = "student/t/axpy.cu(3): error: identifier \"q\" is undefined";
    host_add(&m);
    grade(&t_axpy, &r);
    said("student-compile", &r, OUT_COMPILE_ERROR,
        "student/t/axpy.cu does not compile. The compiler's messages below name the file and "
        "line (file(line): error: ...); fix the first one first, "
        "later ones often follow from it.");
    detail("student-compile", &r, "student/t/axpy.cu(3): error: identifier \"q\" is undefined");
}
END_TEST

/* A module the device will not load: the loader's first line in the
 * sentence, all of it in the detail; the course's own is INTERNAL. */
START_TEST(modules_that_do_not_load)
{
    result r;
    use_kernels(&t_axpy, axpy_timed);
    host_module s = solution_module(&t_axpy, axpy_timed);
    s.load_log = "first line of the loader\nsecond line";
    host_add(&s);
    grade(&t_axpy, &r);
    said("solution-load", &r, OUT_INTERNAL,
        "While loading the reference solution onto the GPU: the GPU would not load the "
        "compiled kernel: cudaLibraryLoadData: cudaErrorInvalidPtx (a PTX JIT compilation "
        "failed). This means the driver cannot load the compiled kernel: the driver may be "
        "older than the CUDA toolkit used to build it (update the driver, "
        "or use the toolkit that matches it via CUDA_HOME).");
    detail("solution-load", &r,
        "cudaLibraryLoadData: cudaErrorInvalidPtx (a PTX JIT compilation failed). This means "
        "the driver cannot load the compiled kernel: the driver may be older than the CUDA "
        "toolkit used to build it (update the driver, "
        "or use the toolkit that matches it via CUDA_HOME).\n"
        "first line of the loader\n"
        "second line");

    use_kernels(&t_axpy, axpy_timed);
    host_module m = student_module(&t_axpy, axpy_timed);
    m.load_log = "the loader said no";
    host_add(&m);
    grade(&t_axpy, &r);
    said("student-load", &r, OUT_INTERNAL,
        "While loading your kernel onto the GPU: the GPU would not load the compiled kernel: "
        "cudaLibraryLoadData: cudaErrorInvalidPtx (a PTX JIT compilation failed). This means "
        "the driver cannot load the compiled kernel: the driver may be older than the CUDA "
        "toolkit used to build it (update the driver, "
        "or use the toolkit that matches it via CUDA_HOME).");
}
END_TEST

/* ---- stops while running ------------------------------------------------ */

static void never_ends(host_call *c) { c->ms = 1e9; }
static void segfaults(host_call *c) { (void)c; raise(SIGSEGV); }
static void exits(host_call *c) { (void)c; _exit(3); }
static void stuck(host_call *c)
{
    (void)c;
    for (;;)
        pause();
}

START_TEST(hangs_and_deaths)
{
    result r;
    use_kernels(&t_axpy, never_ends);
    grade_opts o = host_opts();
    o.launch_timeout_s = 7;
    grade_host_opts(&t_axpy, &o, &r);
    said("launch-hang", &r, OUT_HANG,
        "While running your kernel at size 1: the launch did not finish within 7 s. A kernel "
        "that never ends usually has a loop whose exit condition never becomes true (check the "
        "loop variable and its step), or a __syncthreads() that only some threads reach.");

    use_kernels(&t_axpy, segfaults);
    grade(&t_axpy, &r);
    said("signal", &r, OUT_CRASH,
        "The grading process died from signal 11 (Segmentation fault) while running your "
        "kernel at size 1. Run it again with SANITIZE=1 to look for bad memory accesses.");

    use_kernels(&t_axpy, exits);
    grade(&t_axpy, &r);
    said("exit", &r, OUT_INTERNAL,
        "The grading process exited (status 3) without a result while running your kernel at "
        "size 1.");

    use_kernels(&t_axpy, stuck);
    int knobs[MAX_KNOBS] = {0};
    grade_in_child(&t_axpy, knobs, &o, 1, &r);
    said("child-hang", &r, OUT_HANG,
        "Grading did not finish within 1 s; it was running your kernel at size 1. If that is "
        "your kernel running, it probably never ends. A kernel that never ends usually has a "
        "loop whose exit condition never becomes true (check the loop variable and its step), "
        "or a __syncthreads() that only some threads reach.");
}
END_TEST

/* ---- where a stop is placed --------------------------------------------- */

/* Each stage grading goes through, as a crash there names it: the backend
 * dies in its first operation at that stage. */
START_TEST(each_stage_is_named)
{
    static const char *const stages[] = {
        "looking for a GPU",
        "compiling the three versions",
        "loading the baseline onto the GPU",
        "loading your kernel onto the GPU",
        "loading the reference solution onto the GPU",
        "reading the resources of the baseline",
        "reading the resources of the reference solution",
        "measuring the GPU's copy bandwidth",
        "measuring the GPU's device-memory latency",
        "building the inputs of size 1",
        "building the inputs of size 1000",
        "running your kernel at size 100",
        "running the baseline at size 1000",
        "checking the reference solution at size 100",
        "reading back the output of your kernel (size 1000)",
        "copying the timing input sets to the GPU",
        "warming up your kernel",
        "warming up the reference solution",
        "timing the baseline (input set 1)",
        "timing your kernel (input set 2)",
        "checking the inputs of timing input set 1",
        "checking the inputs of timing input set 2",
        "checking your kernel after timing (input set 2)",
        "checking the baseline after timing (input set 1)",
        "reading back the output of the reference solution (size 1)",
    };
    exercise ex = t_axpy;
    ex.latency_bound = 1;
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
        result r;
        use_kernels(&ex, axpy_timed);
        host_crash_in(stages[i]);
        grade(&ex, &r);
        char want[512];
        snprintf(want, sizeof want, "The grading process died from signal 11 (Segmentation "
                 "fault) while %s. Run it again with SANITIZE=1 to look for bad memory "
                 "accesses.", stages[i]);
        ck_assert_msg(r.outcome == OUT_CRASH, "%s: %s", stages[i], r.message);
        ck_assert_str_eq(r.message, want);
    }
}
END_TEST

/* ---- no memory ---------------------------------------------------------- */

/* Let this process map at most 1 MiB more than it has now. */
static void limit_memory(void)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%lu", &pages) != 1)
        _exit(99);
    fclose(f);
    rlim_t now = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
    struct rlimit rl = {.rlim_cur = now + (1u << 20), .rlim_max = RLIM_INFINITY};
    setrlimit(RLIMIT_AS, &rl);
}

/* The student's first launch leaves the grader no memory for the buffer
 * it reads inputs back in. */
static void starves(host_call *c)
{
    axpy_timed(c);
    limit_memory();
}

START_TEST(no_memory_to_check_the_inputs)
{
    result r;
    use_kernels(&t_axpy, starves);
    grade(&t_axpy, &r);
    said("no-memory-inputs", &r, OUT_INTERNAL,
        "The grader had no memory for the 8 MiB it reads inputs back in, "
        "so it could not check whether your kernel changed them.");
}
END_TEST

/* ---- refused launches --------------------------------------------------- */

/* t_axpy launched in blocks of 8 x 4 x 2 threads with 512 bytes of
 * dynamic shared memory (the host "kernel" ignores the geometry). */
static void cube_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    axpy_build(I, n, knobs, dev);
    inst_launch(I, (unsigned)((n + 63) / 64), 1, 1, 8, 4, 2, 512);
}

START_TEST(refused_launches)
{
    exercise ex = t_axpy;
    ex.build = cube_build;
    result r;
    use_kernels(&ex, axpy_timed);
    host_module m = student_module(&ex, axpy_timed);
    m.max_threads = 32;
    host_add(&m);
    grade(&ex, &r);
    said("refused-bounds", &r, OUT_RESOURCES,
        "While running your kernel at size 1: the GPU refused the launch "
        "(cudaErrorLaunchOutOfResources). Threads: the launch has 64 threads per block, "
        "but this kernel can run at most 32: its __launch_bounds__ allows fewer threads than "
        "the exercise launches. Raise the first number of __launch_bounds__ to at least 64.");
    detail("refused-bounds", &r, "failing call: cudaLaunchKernel (cudaErrorLaunchOutOfResources)");
    /* Refused within every limit the device reports: the grader's own
     * account of what the block asked for. */
    m.max_threads = 0;
    m.refused = 1;
    m.res.regs = 40;
    m.res.smem_static = 1024;
    host_add(&m);
    grade(&ex, &r);
    said("refused-anyway", &r, OUT_RESOURCES,
        "While running your kernel at size 1: the GPU refused the launch "
        "(cudaErrorLaunchOutOfResources). The block asks for 64 threads, "
        "40 registers per thread, "
        "1024 bytes of static and 512 bytes of dynamic shared memory: one of these is more "
        "than this GPU or this kernel allows.");
}
END_TEST

/* ---- Correctness: every finding with its numbers ------------------------- */

static void under_by_five(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    ((unsigned char *)A.z)[-5] = 0;
}

static void under_by_four(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    ((unsigned char *)A.z)[-4] = 0;
}

static void past_an_input(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    ((unsigned char *)A.y)[4 * A.n + 6] = 0;
}

static void changes_x(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    if (A.n == 100)
        A.x[37] = 0.25f;
}

static void skips_tail(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n > 2 ? A.n - 2 : A.n);
}

static void off_by_a_bit(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    if (A.n == 1000) {
        A.z[10] += 1.0f;
        A.z[20] += 1.0f;
    }
}

START_TEST(correctness_findings)
{
    result r;
    use_kernels(&t_axpy, under_by_five);
    grade(&t_axpy, &r);
    said("guard-before", &r, OUT_WRONG,
        "Your kernel wrote outside its output array (argument 3; size 1): 1 guard bytes "
        "changed, the first at element -2 of an array of 1 floats. An index is out of range: "
        "check the bounds test (i < n) and how the index is built from blockIdx and threadIdx.");

    /* The first byte of the element before the first: element -1. */
    use_kernels(&t_axpy, under_by_four);
    grade(&t_axpy, &r);
    ck_assert_int_eq(r.outcome, OUT_WRONG);
    ck_assert_ptr_nonnull(strstr(r.message, "1 guard bytes changed, the first at element -1 of "
                                            "an array of 1 floats."));

    use_kernels(&t_axpy, past_an_input);
    grade(&t_axpy, &r);
    said("guard-input", &r, OUT_WRONG,
        "Your kernel wrote outside its input array (argument 2; size 1): 1 guard bytes "
        "changed, the first at element 2 of an array of 1 floats. An index is out of range: "
        "check the bounds test (i < n) and how the index is built from blockIdx and threadIdx.");

    use_kernels(&t_axpy, changes_x);
    grade(&t_axpy, &r);
    said("input-changed", &r, OUT_WRONG,
        "Your kernel changed its input: the array passed as argument 1 (100 floats) no longer "
        "holds what the grader put there (size 100). 1 elements differ, "
        "the first at element 37 (was -0.687744141, "
        "now 0.25). Inputs are read-only: a kernel that writes into them can hide results for "
        "a later launch. Write only to the output.");

    use_kernels(&t_axpy, skips_tail);
    grade(&t_axpy, &r);
    said("unwritten", &r, OUT_WRONG,
        "Your kernel left 2 of 100 output values unwritten (size 100). The grader fills the "
        "output with a poison pattern before every launch; these still hold it. Some threads, "
        "or some part of the index range, "
        "never store a result: check that the grid covers every element.");
    detail("unwritten", &r,
        "  index 98: expected -0.155950768, never written\n"
        "  index 99: expected 0.969258786, never written\n");

    use_kernels(&t_axpy, off_by_a_bit);
    grade(&t_axpy, &r);
    said("wrong", &r, OUT_WRONG,
        "Your kernel computed 2 of 1000 values wrong (size 1000; 0 never written). Tolerance: "
        "|got - expected| <= 1e-06 + 1e-05*|expected|. Replay these inputs with SEED=42.");
    detail("wrong", &r,
        "  index 10: expected -0.231542249, got 0.76845777\n"
        "  index 20: expected 1.55137553, got 2.55137539\n");
}
END_TEST

/* The course's own versions: the same findings, its fault. */
START_TEST(course_findings_are_the_course_bug)
{
    result r;
    use_three(&t_axpy, under_by_five, axpy_timed, axpy_timed);
    grade(&t_axpy, &r);
    said("baseline-guard", &r, OUT_INTERNAL,
        "The baseline wrote outside its output array (argument 3; size 1): 1 guard bytes "
        "changed, the first at element -2 of an array of 1 floats. An index is out of range: "
        "check the bounds test (i < n) and how the index is built from blockIdx and threadIdx. "
        "This is a bug in the course, not in your kernel; please report it.");

    use_three(&t_axpy, axpy_timed, changes_x, axpy_timed);
    grade(&t_axpy, &r);
    said("solution-input", &r, OUT_INTERNAL,
        "The reference solution changed its input: the array passed as argument 1 (100 floats) "
        "no longer holds what the grader put there (size 100). 1 elements differ, "
        "the first at element 37 (was -0.687744141, "
        "now 0.25). Inputs are read-only: a kernel that writes into them can hide results for "
        "a later launch. Write only to the output. This is a bug in the course, "
        "not in your kernel; please report it.");

    use_three(&t_axpy, skips_tail, axpy_timed, axpy_timed);
    grade(&t_axpy, &r);
    said("baseline-unwritten", &r, OUT_INTERNAL,
        "The baseline left 2 of 100 output values unwritten (size 100). The grader fills the "
        "output with a poison pattern before every launch; these still hold it. Some threads, "
        "or some part of the index range, "
        "never store a result: check that the grid covers every element. This is a bug in the "
        "course, not in your kernel; please report it.");
}
END_TEST

/* ---- constants ---------------------------------------------------------- */

static void table_student(host_call *c) { table_range(c, student_coef, 0.012); }

START_TEST(constant_findings)
{
    result r;
    use_kernels(&t_table, table_student);
    host_module m = student_module(&t_table, table_student);
    m.globals[0].bytes = 32;
    host_add(&m);
    grade(&t_table, &r);
    said("constant-small", &r, OUT_WRONG,
        "Your kernel declares the __constant__ variable 'coef' with 32 bytes, "
        "but the exercise's table has 64: declare it with the size the lesson gives.");

    use_kernels(&t_table, table_student);
    m = baseline_module(&t_table, table_solution);
    m.globals[0].symbol = "coeffs";
    host_add(&m);
    grade(&t_table, &r);
    said("constant-missing-baseline", &r, OUT_INTERNAL,
        "The baseline has no __constant__ variable named 'coef'. The exercise copies its table "
        "(64 bytes) into that variable before every launch: declare it at file scope, "
        "outside any namespace, as __constant__ with this name, "
        "and do not rename it. This is a bug in the course, "
        "not in your kernel; please report it.");
}
END_TEST

/* ---- timing ------------------------------------------------------------- */

/* Right on the correctness sizes, wrong on the second timing set. */
static void replays(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    static int launches;
    if (A.n == 4096 && ++launches > 3)
        A.z[5] = 7;
    c->ms = 0.012;
}

static void impossible(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 1e-6;
}

START_TEST(timing_findings)
{
    result r;
    use_kernels(&t_axpy, replays);
    grade(&t_axpy, &r);
    ck_assert_int_eq(r.outcome, OUT_WRONG);
    /* The round count varies with the machine: the sentence up to it. */
    const char *rounds = strstr(r.message, " timed launches");
    ck_assert_ptr_nonnull(rounds);
    same("timing-wrong-tail", rounds,
        " timed launches; 0 never written). Tolerance: |got - expected| <= 1e-06 + "
        "1e-05*|expected|. Replay these inputs with SEED=42. It was right on the earlier "
        "checks: a kernel must give the same answer on every launch and for every input, "
        "so it may not keep or replay anything between launches (a counter, "
        "an answer from an earlier launch, the output's old contents).");

    use_kernels(&t_axpy, impossible);
    grade(&t_axpy, &r);
    said("too-fast", &r, OUT_TOO_FAST,
        "Your kernel was timed at 1e-06 ms, "
        "faster than the memory can deliver its inputs: it must move at least 0.04915 MB "
        "(every input read once, every output written once), "
        "and at this GPU's measured copy bandwidth (1000 GB/s, "
        "with a margin of 1.3x) that takes at least 3.781e-05 ms. A kernel this fast is not "
        "doing the work it is timed on: it skips part of it, "
        "or reuses results from an earlier launch.");
}
END_TEST

/* ---- the verdict's own words (verdict_say) ------------------------------ */

static exercise verdict_ex(enum bar_kind bar, int checks)
{
    exercise ex = t_axpy;
    ex.bar = bar;
    ex.bar_share = bar == BAR_MATCH_SOLUTION ? 0.1 : 0.6;
    ex.bar_floor = 1.2;
    for (int i = 0; i < checks; i++)
        ex.checks[i] = (mech_check){CHECK_PTX_HAS, "ld.shared", 0, NULL,
                                    i ? "Why the second matters." : "Why the first matters."};
    ex.ncu_no_bank_conflicts = 1;
    return ex;
}

/* A correct kernel, timed: 3x the baseline against a bar of 2.8x (60% of
 * the reference's gain), the reference at 4x (speedup bars); 700 of 1000
 * GB/s against 600, the reference at 800 (bandwidth); 1.05x the
 * reference's time against 1.1x. Shares of 60% tell 100 * share from 99 *
 * share in every sentence. */
static result facts(enum bar_kind bar)
{
    result r;
    memset(&r, 0, sizeof r);
    r.correct = 1;
    r.timed = 1;
    r.ref_clears_bar = 1;
    r.clears_bar = 1;
    r.speedup = 3.0, r.ref_speedup = 4.0;
    r.copy_gbps = 1000;
    r.time[V_SOLUTION].gbps = 800;
    switch (bar) {
    case BAR_BANDWIDTH: r.measure = 700, r.bar = 600; break;
    case BAR_MATCH_SOLUTION: r.measure = 1.05, r.bar = 1.1; break;
    default: r.measure = 3.0, r.bar = 2.8; break;
    }
    return r;
}

static void verdict_words(const char *name, const exercise *ex, result *r, enum outcome o,
                          const char *message)
{
    verdict_say(ex, r);
    said(name, r, o, message);
}

START_TEST(speed_verdicts)
{
    exercise ex = verdict_ex(BAR_SPEEDUP, 1);
    result r = facts(BAR_SPEEDUP);
    r.checks[0].state = CS_HOLDS;
    verdict_words("pass-speedup", &ex, &r, OUT_PASS,
        "Correct, and fast enough: your kernel ran at 3.00x the baseline's speed; the bar was "
        "2.80x: 60% of the gain the reference solution reached on this GPU in the same run "
        "(4.00x), and never under 1.20x.");
    ck_assert_str_eq(r.failed_check, "");
    r.clears_bar = 0;
    verdict_words("slow-speedup", &ex, &r, OUT_SLOW,
        "Correct, but not fast enough: your kernel ran at 3.00x the baseline's speed; the bar "
        "was 2.80x: 60% of the gain the reference solution reached on this GPU in the same run "
        "(4.00x), and never under 1.20x.");
    r = facts(BAR_SPEEDUP);
    r.ref_clears_bar = 0;
    r.speedup = 1.1, r.ref_speedup = 1.15;
    verdict_words("ungraded-speedup", &ex, &r, OUT_PASS_UNTIMED,
        "Correct; the speed part cannot be graded on this GPU: the reference solution itself "
        "only reached 1.15x the baseline's speed, "
        "under the least gain that counts (1.20x). Your kernel reached 1.10x.");

    ex = verdict_ex(BAR_BANDWIDTH, 0);
    r = facts(BAR_BANDWIDTH);
    verdict_words("pass-bandwidth", &ex, &r, OUT_PASS,
        "Correct, and fast enough: your kernel moved 700 GB/s, "
        "70% of this GPU's copy bandwidth (1000 GB/s); the bar was 60%, "
        "and the reference solution reached 800 GB/s.");
    r.clears_bar = 0;
    r.measure = 550;
    verdict_words("slow-bandwidth", &ex, &r, OUT_SLOW,
        "Correct, but not fast enough: your kernel moved 550 GB/s, "
        "55% of this GPU's copy bandwidth (1000 GB/s); the bar was 60%, "
        "and the reference solution reached 800 GB/s.");
    r = facts(BAR_BANDWIDTH);
    r.ref_clears_bar = 0;
    r.time[V_SOLUTION].gbps = 450;
    verdict_words("ungraded-bandwidth", &ex, &r, OUT_PASS_UNTIMED,
        "Correct; the speed part cannot be graded on this GPU: even the reference solution "
        "reached only 450 GB/s, "
        "under the bar of 600 GB/s (60% of the copy bandwidth). Your kernel: 700 GB/s.");

    ex = verdict_ex(BAR_MATCH_SOLUTION, 0);
    r = facts(BAR_MATCH_SOLUTION);
    verdict_words("pass-match", &ex, &r, OUT_PASS,
        "Correct, and fast enough: your kernel took 1.05x the time of the reference solution; "
        "up to 1.10x is allowed.");
    r.clears_bar = 0;
    r.measure = 1.25;
    verdict_words("slow-match", &ex, &r, OUT_SLOW,
        "Correct, but not fast enough: your kernel took 1.25x the time of the reference "
        "solution; up to 1.10x is allowed.");
}
END_TEST

START_TEST(verdicts_without_the_speed)
{
    exercise ex = verdict_ex(BAR_SPEEDUP, 1);
    result r = facts(BAR_SPEEDUP);
    r.timed = 0;
    verdict_words("untimed", &ex, &r, OUT_PASS_UNTIMED,
        "Correct on every size checked (speed not measured in this mode).");
    r = facts(BAR_SPEEDUP);
    snprintf(r.ref_stand_in, sizeof r.ref_stand_in, "the baseline stood in");
    verdict_words("stand-in-timed", &ex, &r, OUT_PASS_UNTIMED,
        "Correct; the speed part was not graded: the baseline stood in. Your kernel ran at "
        "3.00x the baseline's speed. Grade at the default knobs, or in the full course, "
        "for a speed verdict.");
    r = facts(BAR_SPEEDUP);
    r.timed = 0;
    snprintf(r.ref_stand_in, sizeof r.ref_stand_in, "the baseline stood in");
    verdict_words("stand-in-untimed", &ex, &r, OUT_PASS_UNTIMED,
        "Correct; the speed part was not graded: the baseline stood in. Grade at the default "
        "knobs, or in the full course, for a speed verdict.");
    r = facts(BAR_SPEEDUP);
    r.correct = 0;
    verdict_words("not-correct", &ex, &r, OUT_INTERNAL,
        "Grading reached its verdict without knowing whether your kernel is correct. This is a "
        "bug in the grader, not in your kernel; please report it.");
    /* A stop keeps its own words. */
    r = facts(BAR_SPEEDUP);
    r.stopped = OUT_HANG;
    snprintf(r.message, sizeof r.message, "It hung.");
    r.checks[0] = (check_result){CS_FAILS, "the PTX has no 'ld.shared'"};
    verdict_words("stopped", &ex, &r, OUT_HANG, "It hung.");
    ck_assert_str_eq(r.failed_check, "");
}
END_TEST

START_TEST(mechanism_verdicts)
{
    exercise ex = verdict_ex(BAR_SPEEDUP, 2);
    result r = facts(BAR_SPEEDUP);
    r.checks[0] = (check_result){CS_HOLDS, "the PTX has 'ld.shared'"};
    r.checks[1] = (check_result){CS_FAILS, "the PTX has no 'cp.async' instruction"};
    verdict_words("mechanism", &ex, &r, OUT_MECHANISM,
        "Correct, but the PTX has no 'cp.async' instruction. Speed: your kernel ran at 3.00x "
        "the baseline's speed; the bar was 2.80x: 60% of the gain the reference solution "
        "reached on this GPU in the same run (4.00x), and never under 1.20x.");
    ck_assert_str_eq(r.failed_check, "Why the second matters.");
    snprintf(r.ref_stand_in, sizeof r.ref_stand_in, "the baseline stood in");
    verdict_words("mechanism-stand-in", &ex, &r, OUT_MECHANISM,
        "Correct, but the PTX has no 'cp.async' instruction. Speed: not graded, "
        "because the baseline stood in. Your kernel ran at 3.00x the baseline's speed.");
    r.timed = 0;
    verdict_words("mechanism-stand-in-untimed", &ex, &r, OUT_MECHANISM,
        "Correct, but the PTX has no 'cp.async' instruction. Speed: not graded, "
        "because the baseline stood in.");
    ex = verdict_ex(BAR_BANDWIDTH, 2);
    r = facts(BAR_BANDWIDTH);
    r.checks[0] = (check_result){CS_FAILS, "the PTX has no 'ld.shared' instruction"};
    r.checks[1] = (check_result){CS_FAILS, "the PTX has no 'cp.async' instruction"};
    verdict_words("mechanism-bandwidth", &ex, &r, OUT_MECHANISM,
        "Correct, but the PTX has no 'ld.shared' instruction. Speed: your kernel moved 700 "
        "GB/s, 70% of this GPU's copy bandwidth (1000 GB/s); the bar was 60%, "
        "and the reference solution reached 800 GB/s.");
    ck_assert_str_eq(r.failed_check, "Why the first matters.");
    /* Nsight Compute's count, every check holding. */
    ex = verdict_ex(BAR_SPEEDUP, 1);
    r = facts(BAR_SPEEDUP);
    r.checks[0].state = CS_HOLDS;
    r.ncu.read = 1;
    r.ncu.conflicts[V_STUDENT] = 52000, r.ncu.conflicts[V_SOLUTION] = 1200;
    verdict_words("mechanism-ncu", &ex, &r, OUT_MECHANISM,
        "Correct, but Nsight Compute counted 52000 shared-load bank conflicts in your kernel, "
        "against 1200 in the reference: the conflicts are not gone. Speed: your kernel ran at "
        "3.00x the baseline's speed; the bar was 2.80x: 60% of the gain the reference solution "
        "reached on this GPU in the same run (4.00x), and never under 1.20x.");
    ck_assert_str_eq(r.failed_check, "");
}
END_TEST

START_TEST(verdicts_without_a_gpu)
{
    static const char *const want[] = {
        "Your kernel compiles for sm_90. This exercise has no mechanism check, so without a "
        "GPU the untouched stub and a finished kernel both read CHECKED: whether it is right "
        "and fast needs an NVIDIA GPU.",
        "Your kernel compiles for sm_90, "
        "and its mechanism check holds (listed below). That is not a pass: whether it is right "
        "and fast needs an NVIDIA GPU.",
        "Your kernel compiles for sm_90, "
        "and its 2 mechanism checks hold (listed below). That is not a pass: whether it is "
        "right and fast needs an NVIDIA GPU.",
    };
    result r;
    for (int n = 0; n <= 2; n++) {
        exercise ex = verdict_ex(BAR_SPEEDUP, n);
        memset(&r, 0, sizeof r);
        r.no_gpu = 1;
        for (int i = 0; i < n; i++)
            r.checks[i] = (check_result){CS_HOLDS, "the PTX has 'ld.shared'"};
        char name[32];
        snprintf(name, sizeof name, "no-gpu-%d", n);
        verdict_words(name, &ex, &r, OUT_CHECKED, want[n]);
    }
    exercise ex = verdict_ex(BAR_SPEEDUP, 2);
    r.checks[1] = (check_result){CS_FAILS, "the PTX has no 'cp.async' instruction"};
    verdict_words("no-gpu-fails", &ex, &r, OUT_MECHANISM,
        "Your kernel compiles, "
        "but the PTX has no 'cp.async' instruction. Correctness and speed were not checked: "
        "that needs an NVIDIA GPU.");
    ck_assert_str_eq(r.failed_check, "Why the second matters.");
    /* The first check failing is a failure too. */
    r.checks[1].state = CS_HOLDS;
    r.checks[0] = (check_result){CS_FAILS, "the PTX has no 'ld.shared' instruction"};
    verdict_words("no-gpu-fails-first", &ex, &r, OUT_MECHANISM,
        "Your kernel compiles, but the PTX has no 'ld.shared' instruction. Correctness and "
        "speed were not checked: that needs an NVIDIA GPU.");
    ck_assert_str_eq(r.failed_check, "Why the first matters.");
}
END_TEST

/* Which check failed: the first in CS_FAILS among the exercise's own;
 * Nsight Compute's conflicts count past twice the reference's plus 1000,
 * and only where read, known and asked for. */
START_TEST(failed_check_and_conflicts)
{
    exercise ex = verdict_ex(BAR_SPEEDUP, 2);
    result r = facts(BAR_SPEEDUP);
    ck_assert_int_eq(verdict_failed_check(&ex, &r), -1);
    r.checks[2].state = CS_FAILS;      /* not one of the exercise's checks */
    ck_assert_int_eq(verdict_failed_check(&ex, &r), -1);
    r.checks[1].state = CS_FAILS;
    ck_assert_int_eq(verdict_failed_check(&ex, &r), 1);
    r.checks[0].state = CS_FAILS;
    ck_assert_int_eq(verdict_failed_check(&ex, &r), 0);
    r.checks[0].state = CS_UNKNOWN;
    ck_assert_int_eq(verdict_failed_check(&ex, &r), 1);

    r = facts(BAR_SPEEDUP);
    r.ncu.read = 1;
    r.ncu.conflicts[V_SOLUTION] = 1200;
    r.ncu.conflicts[V_STUDENT] = 3400;
    ck_assert_int_eq(verdict_ncu_conflicts(&ex, &r), 0);
    r.ncu.conflicts[V_STUDENT] = 3401;
    ck_assert_int_eq(verdict_ncu_conflicts(&ex, &r), 1);
    ck_assert_int_eq(verdict_decide(&ex, &r), OUT_MECHANISM);
    r.ncu.conflicts[V_SOLUTION] = -1;
    ck_assert_int_eq(verdict_ncu_conflicts(&ex, &r), 0);
    r.ncu.conflicts[V_SOLUTION] = 0;
    r.ncu.conflicts[V_STUDENT] = -1;
    ck_assert_int_eq(verdict_ncu_conflicts(&ex, &r), 0);
    r.ncu.conflicts[V_STUDENT] = 1001;
    ck_assert_int_eq(verdict_ncu_conflicts(&ex, &r), 1);
    r.ncu.read = 0;
    ck_assert_int_eq(verdict_ncu_conflicts(&ex, &r), 0);
    r.ncu.read = 1;
    ex.ncu_no_bank_conflicts = 0;
    ck_assert_int_eq(verdict_ncu_conflicts(&ex, &r), 0);
    ck_assert_int_eq(verdict_decide(&ex, &r), OUT_PASS);
}
END_TEST

Suite *grade_words_suite(void)
{
    Suite *s = suite_create("grade_words");
    TCase *tc = tcase_create("stops");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, no_gpu_and_an_old_one);
    tcase_add_test(tc, course_files_that_do_not_build);
    tcase_add_test(tc, modules_that_do_not_load);
    tcase_add_test(tc, hangs_and_deaths);
    tcase_add_test(tc, refused_launches);
    tcase_add_test(tc, each_stage_is_named);
    tcase_add_test(tc, no_memory_to_check_the_inputs);
    tcase_add_test(tc, correctness_findings);
    tcase_add_test(tc, course_findings_are_the_course_bug);
    tcase_add_test(tc, constant_findings);
    tcase_add_test(tc, timing_findings);
    suite_add_tcase(s, tc);
    tc = tcase_create("verdicts");
    tcase_add_test(tc, speed_verdicts);
    tcase_add_test(tc, verdicts_without_the_speed);
    tcase_add_test(tc, mechanism_verdicts);
    tcase_add_test(tc, verdicts_without_a_gpu);
    tcase_add_test(tc, failed_check_and_conflicts);
    suite_add_tcase(s, tc);
    return s;
}
