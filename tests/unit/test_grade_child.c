/* test_grade_child.c: grade_in_child's contract with the process it forks
 * (grader/grade/child.c): the grading child dies with the grader (its
 * parent-death signal is SIGKILL), leads its own process group (so a
 * timeout's kill(-pid) reaches what it started), and its result stands
 * even when the grader was started with SIGCHLD ignored (inherited across
 * exec: the kernel then reaps the child itself and waitpid fails with
 * ECHILD); and the grader waits for it asleep, not on a spinning core.
 * On the host backend, through the axpy exercise of pipeline.h.
 *
 *   CK_RUN_SUITE=grade_child build/tests/unit_tests */
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>
#include "child.h"
#include "clock.h"
#include "pipeline.h"
#include "suites.h"

/* An honest axpy, but only when it runs as the grader promises: in a child
 * that leads its own process group and gets SIGKILL when the grader dies.
 * Otherwise it leaves z alone, and the result is wrong. */
static void axpy_if_guarded(host_call *c)
{
    int sig = 0;
    if (prctl(PR_GET_PDEATHSIG, &sig) != 0 || sig != SIGKILL)
        return;
    if (getpgrp() != getpid())
        return;
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.012;
}

START_TEST(child_dies_with_the_grader_in_its_own_group)
{
    result r;
    use_kernels(&t_axpy, axpy_if_guarded);
    grade_host(&t_axpy, 0, &r);
    expect(&r, OUT_PASS, "Correct, and fast enough");
}
END_TEST

START_TEST(result_stands_with_sigchld_ignored)
{
    result r;
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ign.sa_mask);
    use_kernels(&t_axpy, axpy_if_guarded);
    sigaction(SIGCHLD, &ign, &old);
    double t0 = now_s();
    grade_host(&t_axpy, 0, &r);
    double took = now_s() - t0;
    sigaction(SIGCHLD, &old, NULL);
    /* Not a crash (status never filled), not a hang (waiting for a child
     * already reaped): the child's own verdict, as soon as it is done. */
    expect(&r, OUT_PASS, "Correct, and fast enough");
    ck_assert_double_lt(took, 10);
}
END_TEST

/* An honest axpy whose first launch takes 0.4 s of wall time. */
static void axpy_slow_start(host_call *c)
{
    static int launches;
    if (launches++ == 0)
        usleep(400000);
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.012;
}

static double cpu_s(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/* The grader waits for its child asleep, not spinning: on a small machine
 * a core spent polling is taken from the grading child and the compiles
 * racing their deadline. */
START_TEST(waiting_costs_no_cpu)
{
    result r;
    use_kernels(&t_axpy, axpy_slow_start);
    double t0 = now_s(), c0 = cpu_s();
    grade_host(&t_axpy, 0, &r);
    double wall = now_s() - t0, cpu = cpu_s() - c0;
    expect(&r, OUT_PASS, "Correct, and fast enough");
    ck_assert_double_ge(wall, 0.4);
    ck_assert_msg(cpu < 0.1 * wall, "the grader used %.3f s of CPU in %.3f s of waiting", cpu,
                  wall);
}
END_TEST

Suite *grade_child_suite(void)
{
    Suite *s = suite_create("grade_child");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, child_dies_with_the_grader_in_its_own_group);
    tcase_add_test(tc, result_stands_with_sigchld_ignored);
    tcase_add_test(tc, waiting_costs_no_cpu);
    suite_add_tcase(s, tc);
    return s;
}
