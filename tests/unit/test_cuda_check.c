/* test_cuda_check.c: a CUDA error as the student reads it (cuda_check.h):
 * what each error means and which outcome it is, and what cuda_fail
 * records before it ends the grading child: the stage, the call and where,
 * the error's name and text, and for a failed assert the assert itself
 * (from CUDA's line or the PTX), cut to its buffer. cuda_fail runs in a
 * child of the test with the result in shared memory, as in grading.
 *
 *   CK_RUN_SUITE=cuda_check build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cuda_check.h"
#include "kernel_output.h"
#include "suites.h"

typedef struct meaning {
    cudaError_t e;
    enum outcome outcome;
    const char *starts;     /* how its meaning starts */
} meaning;

static const meaning meanings[] = {
    {cudaErrorIllegalAddress, OUT_CRASH, "a kernel read or wrote memory it does not own"},
    {cudaErrorInvalidAddressSpace, OUT_CRASH, "a kernel read or wrote memory it does not own"},
    {cudaErrorMisalignedAddress, OUT_CRASH, "a load or store used an address that is not a "
                                            "multiple of its size"},
    {cudaErrorLaunchOutOfResources, OUT_RESOURCES, "the launch needs more registers than one "
                                                   "SM holds"},
    {cudaErrorInvalidConfiguration, OUT_RESOURCES, "the launch's block or grid shape is not "
                                                   "allowed"},
    {cudaErrorIllegalInstruction, OUT_CRASH, "the kernel executed an illegal instruction"},
    {cudaErrorHardwareStackError, OUT_CRASH, "the kernel overflowed its stack"},
    {cudaErrorAssert, OUT_CRASH, "an assert() in device code failed."},
    {cudaErrorLaunchFailure, OUT_CRASH, "the kernel faulted while running"},
    {cudaErrorLaunchTimeout, OUT_CRASH, "the kernel ran longer than the display driver allows."},
    {cudaErrorNoDevice, OUT_NO_GPU, "no CUDA GPU is visible."},
    {cudaErrorInsufficientDriver, OUT_NO_GPU, "no NVIDIA driver is loaded"},
    {cudaErrorSystemDriverMismatch, OUT_NO_GPU, "the CUDA runtime reported an error"},
    {cudaErrorCompatNotSupportedOnDevice, OUT_NO_GPU, "the CUDA runtime reported an error"},
    {cudaErrorMemoryAllocation, OUT_INTERNAL, "the GPU ran out of memory"},
    {cudaErrorInvalidPtx, OUT_INTERNAL, "the driver cannot load the compiled kernel"},
    {cudaErrorUnsupportedPtxVersion, OUT_INTERNAL, "the driver cannot load the compiled kernel"},
    {cudaErrorNoKernelImageForDevice, OUT_INTERNAL, "the driver cannot load the compiled "
                                                    "kernel"},
    {cudaErrorInvalidValue, OUT_CRASH, "the CUDA runtime reported an error; the failing call "
                                       "is named below."},
    {cudaErrorNotReady, OUT_CRASH, "the CUDA runtime reported an error"},
};

START_TEST(each_error_has_its_meaning_and_outcome)
{
    const meaning *m = &meanings[_i];
    const char *s = cuda_error_meaning(m->e);
    ck_assert_msg(!strncmp(s, m->starts, strlen(m->starts)), "%s: \"%s\"", cudaGetErrorName(m->e),
                  s);
    ck_assert_msg(cuda_error_outcome(m->e) == m->outcome, "%s: outcome %s, not %s",
                  cudaGetErrorName(m->e), outcome_word(cuda_error_outcome(m->e)),
                  outcome_word(m->outcome));
}
END_TEST

/* ---- cuda_fail ------------------------------------------------------------ */

/* What the child recorded and how it ended; stderr, when it had no result. */
typedef struct failed {
    result *r;
    int status;
    char err[2048];
} failed;

typedef void (*before_fn)(void);

/* cuda_fail(e, ...) in a child, with the stage set (NULL: no result). */
static failed fail_in_child(cudaError_t e, const char *stage, before_fn before)
{
    failed f = {.r = mmap(NULL, sizeof(result), PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0)};
    ck_assert(f.r != MAP_FAILED);
    memset(f.r, 0, sizeof *f.r);
    int err[2];
    ck_assert_int_eq(pipe(err), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(err[0]);
        dup2(err[1], STDERR_FILENO);
        if (stage) {
            g_result = f.r;
            snprintf(f.r->stage, sizeof f.r->stage, "%s", stage);
        }
        if (before)
            before();
        cuda_fail(e, "cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost)", "grade_run.c", 42);
    }
    close(err[1]);
    ssize_t n = read(err[0], f.err, sizeof f.err - 1);
    f.err[n > 0 ? n : 0] = 0;
    close(err[0]);
    ck_assert_int_eq(waitpid(pid, &f.status, 0), pid);
    ck_assert_msg(WIFEXITED(f.status) && WEXITSTATUS(f.status) == CHILD_FAILED, "status %#x",
                  f.status);
    return f;
}

START_TEST(the_student_reads_the_stage_the_error_and_its_meaning)
{
    failed f = fail_in_child(cudaErrorIllegalAddress, "checking size 3 of 5 (n = 1000)", NULL);
    ck_assert_int_eq(f.r->outcome, OUT_CRASH);
    ck_assert_int_eq(f.r->stopped, OUT_CRASH);
    char want[1024];
    snprintf(want, sizeof want, "While checking size 3 of 5 (n = 1000): cudaErrorIllegalAddress "
             "(%s). This means %s", cudaGetErrorString(cudaErrorIllegalAddress),
             cuda_error_meaning(cudaErrorIllegalAddress));
    ck_assert_str_eq(f.r->message, want);
    ck_assert_str_eq(f.r->detail, "failing call: cudaMemcpy(dst, src, n, "
                                  "cudaMemcpyDeviceToHost)\n at grade_run.c:42");
    /* The outcome is the error's. */
    f = fail_in_child(cudaErrorLaunchOutOfResources, "timing", NULL);
    ck_assert_int_eq(f.r->outcome, OUT_RESOURCES);
    ck_assert_msg(!strncmp(f.r->message, "While timing: cudaErrorLaunchOutOfResources (",
                           strlen("While timing: cudaErrorLaunchOutOfResources (")),
                  "%s", f.r->message);
}
END_TEST

START_TEST(before_any_stage_it_was_starting)
{
    failed f = fail_in_child(cudaErrorNoDevice, "", NULL);
    ck_assert_int_eq(f.r->outcome, OUT_NO_GPU);
    ck_assert_msg(!strncmp(f.r->message, "While starting: cudaErrorNoDevice (", 35), "%s",
                  f.r->message);
    /* A one-letter stage is a stage. */
    f = fail_in_child(cudaErrorNoDevice, "x", NULL);
    ck_assert_msg(!strncmp(f.r->message, "While x: cudaErrorNoDevice (", 28), "%s",
                  f.r->message);
    /* No result to record into: said on stderr. */
    f = fail_in_child(cudaErrorNoDevice, NULL, NULL);
    ck_assert_msg(!strncmp(f.err, "grader: While starting: cudaErrorNoDevice (", 43), "%s",
                  f.err);
    ck_assert_msg(strstr(f.err, "failing call: cudaMemcpy("), "%s", f.err);
}
END_TEST

/* The kernel's one assert, as the PTX has it. */
static void know_one_assert(void)
{
    kout_know_asserts(".global .align 1 .b8 $str[6] = {105, 32, 60, 32, 110, 0};\n"
                      ".global .align 1 .b8 $str$1[5] = {107, 46, 99, 117, 0};\n"
                      "\tmov.u64 \t%rd7, $str;\n\tmov.u64 \t%rd9, $str$1;\n"
                      "\t{ // callseq 1, 0\n\tst.param.b64 \t[param0+0], %rd7;\n"
                      "\tst.param.b64 \t[param1+0], %rd9;\n\tst.param.b32 \t[param2+0], 9;\n"
                      "\tcall.uni \n\t__assertfail, \n");
}

START_TEST(a_failed_assert_is_named)
{
    failed f = fail_in_child(cudaErrorAssert, "checking size 1 of 5", know_one_assert);
    ck_assert_int_eq(f.r->outcome, OUT_CRASH);
    ck_assert_str_eq(f.r->message, "While checking size 1 of 5: an assert in the kernel failed: "
                     "assert(i < n) at k.cu:9 (the kernel's only assert; CUDA printed no line "
                     "saying where it failed). The launch stopped there (cudaErrorAssert): the "
                     "condition was false at this size, so check what it assumes about n, the "
                     "grid and the block.");
    ck_assert_str_eq(f.r->detail, "failing call: cudaMemcpy(dst, src, n, "
                                  "cudaMemcpyDeviceToHost)\n at grade_run.c:42");
    f = fail_in_child(cudaErrorAssert, "", know_one_assert);
    ck_assert_msg(!strncmp(f.r->message, "While starting: an assert in the kernel failed: ", 48),
                  "%s", f.r->message);
    /* No assert known: the error itself. */
    f = fail_in_child(cudaErrorAssert, "timing", NULL);
    ck_assert_msg(!strncmp(f.r->message, "While timing: cudaErrorAssert (", 31), "%s",
                  f.r->message);
    ck_assert_msg(strstr(f.r->message, "This means an assert() in device code failed."), "%s",
                  f.r->message);
    /* Another error is that error, asserts known or not. */
    f = fail_in_child(cudaErrorIllegalAddress, "timing", know_one_assert);
    ck_assert_msg(!strncmp(f.r->message, "While timing: cudaErrorIllegalAddress (", 39), "%s",
                  f.r->message);
}
END_TEST

/* CUDA's own line for an assert whose condition is 900 characters long. */
static void print_a_long_assert(void)
{
    static char line[1200];
    char cond[901];
    memset(cond, 'c', 900);
    cond[900] = 0;
    snprintf(line, sizeof line, "k.cu:3: void k(): block: [0,0,0], thread: [0,0,0] "
             "Assertion `%s` failed.\n", cond);
    kout_first_begin();
    fputs(line, stderr);
    result r;
    kout_first_end(&r, 1);
}

START_TEST(a_long_assert_is_cut_to_its_buffer)
{
    failed f = fail_in_child(cudaErrorAssert, "s", print_a_long_assert);
    /* "assert(" and 692 of the c's: 699 characters, then the sentence. */
    char want[800] = "While s: an assert in the kernel failed: assert(";
    memset(want + strlen(want), 'c', 692);
    strcpy(want + strlen("While s: an assert in the kernel failed: assert(") + 692,
           ". The launch stopped there (cudaErrorAssert)");
    ck_assert_msg(!strncmp(f.r->message, want, strlen(want)), "%s", f.r->message);
}
END_TEST

Suite *cuda_check_suite(void)
{
    Suite *s = suite_create("cuda_check");
    TCase *tc = tcase_create("cuda errors");
    tcase_add_loop_test(tc, each_error_has_its_meaning_and_outcome, 0,
                        (int)(sizeof meanings / sizeof *meanings));
    tcase_add_test(tc, the_student_reads_the_stage_the_error_and_its_meaning);
    tcase_add_test(tc, before_any_stage_it_was_starting);
    tcase_add_test(tc, a_failed_assert_is_named);
    tcase_add_test(tc, a_long_assert_is_cut_to_its_buffer);
    suite_add_tcase(s, tc);
    return s;
}
