/* test_class_workers.c: a class on every GPU of a host (class_workers.c),
 * without one: the GPU probe run in a child as the grader runs it, its
 * answer scripted (class_hooks.probe_answer) and read back (name, compute
 * capability, how many devices; a garbled or empty answer is no GPU);
 * --gpus read whole (all, or distinct device numbers up to 1024, at most
 * 64); and the worker pool: a process per GPU pinned by
 * CUDA_VISIBLE_DEVICES, each knowing its device, progress shown while they
 * run, and a worker that fails or dies named with how.
 *
 *   CK_RUN_SUITE=class_workers build/tests/unit_tests */
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "class_scratch.h"

static const char *answer;

static void scripted_answer(char *line, size_t len)
{
    snprintf(line, len, "%s", answer);
}

static const class_hooks probing = {.probe_answer = scripted_answer};
static class_run run;

/* The probe's reading of `a`: run.gpu and run.cc, and the count. */
static int probe(const char *a)
{
    answer = a;
    memset(&run, 0, sizeof run);
    snprintf(run.gpu, sizeof run.gpu, "left over");
    run.cc = 11;
    int n = -99;
    class_probe_gpu(&run, &probing, &n);
    return n;
}

START_TEST(the_probe_reads_its_child)
{
    ck_assert_int_eq(probe("2 86 NVIDIA Fake 9000"), 2);
    ck_assert_str_eq(run.gpu, "NVIDIA Fake 9000");
    ck_assert_int_eq(run.cc, 86);
    ck_assert_int_eq(probe("1 90 X"), 1);
    ck_assert_str_eq(run.gpu, "X");
    ck_assert_int_eq(run.cc, 90);
    /* No device: no name, whatever the rest says. */
    ck_assert_int_eq(probe("0 0 "), 0);
    ck_assert_str_eq(run.gpu, "");
    ck_assert_int_eq(run.cc, 0);
    ck_assert_int_eq(probe("0 75 Ghost"), 0);
    ck_assert_str_eq(run.gpu, "");
    ck_assert_int_eq(run.cc, 0);
    /* An answer that cannot be read: no GPU, none counted. */
    ck_assert_int_eq(probe("garbage"), 0);
    ck_assert_str_eq(run.gpu, "");
    ck_assert_int_eq(probe("3"), 0);
    ck_assert_str_eq(run.gpu, "");
    ck_assert_int_eq(probe(""), 0);
    ck_assert_str_eq(run.gpu, "");
    ck_assert_int_eq(run.cc, 0);
    /* Without a count wanted. */
    answer = "4 80 Y";
    class_probe_gpu(&run, &probing, NULL);
    ck_assert_str_eq(run.gpu, "Y");
    /* The child is gone: nothing left to wait for. */
    errno = 0;
    ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
    ck_assert_int_eq(errno, ECHILD);
}
END_TEST

/* In-process probe (the class tests' own): its name, and one device or none. */
static void one_gpu(char *name, size_t len, int *cc)
{
    snprintf(name, len, "In Process");
    *cc = 80;
}

static void no_gpu(char *name, size_t len, int *cc)
{
    snprintf(name, len, "%s", "");
    *cc = 0;
}

START_TEST(an_in_process_probe)
{
    class_hooks h = {.probe = one_gpu, .probe_answer = scripted_answer};
    answer = "5 90 Not Asked";
    memset(&run, 0, sizeof run);
    int n = -1;
    class_probe_gpu(&run, &h, &n);
    ck_assert_str_eq(run.gpu, "In Process");
    ck_assert_int_eq(run.cc, 80);
    ck_assert_int_eq(n, 1);
    h.probe = no_gpu;
    class_probe_gpu(&run, &h, &n);
    ck_assert_str_eq(run.gpu, "");
    ck_assert_int_eq(n, 0);
}
END_TEST

/* --gpus as given: the devices in order, or why not, said once. */
static int gpus(const char *spec, char **err)
{
    capture c;
    capture_start(&c, "gpus");
    memset(&run, 0, sizeof run);
    run.ngpus = 99;
    int rc = class_parse_gpus(&run, &probing, spec);
    capture_end(&c, NULL, err);
    return rc;
}

static void devices_are(const int *want, int n)
{
    ck_assert_int_eq(run.ngpus, n);
    for (int k = 0; k < n; k++)
        ck_assert_int_eq(run.gpus[k], want[k]);
}

START_TEST(gpus_are_read_whole)
{
    char *err;
    ck_assert_int_eq(gpus("0,2,3", &err), 0);
    devices_are((int[]){0, 2, 3}, 3);
    ck_assert_str_eq(err, "");
    free(err);
    ck_assert_int_eq(gpus("1024", &err), 0);
    devices_are((int[]){1024}, 1);
    free(err);
    ck_assert_int_eq(gpus("7,0", &err), 0);
    devices_are((int[]){7, 0}, 2);
    free(err);
    const char *bad[] = {"x", "-1", "1025", "1,,2", ",1", "1;2", "1 2", "2x", "0,-3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_msg(gpus(bad[i], &err) == -1, "'%s' taken", bad[i]);
        char want[200];
        snprintf(want, sizeof want, "grader class: --gpus takes all or device numbers such as "
                 "0,1,3; got '%s'\n", bad[i]);
        ck_assert_str_eq(err, want);
        free(err);
    }
    ck_assert_int_eq(gpus("1,3,1", &err), -1);
    ck_assert_str_eq(err, "grader class: --gpus names device 1 twice\n");
    free(err);
    ck_assert_int_eq(gpus("", &err), -1);
    ck_assert_int_eq(run.ngpus, 0);
    free(err);
    /* 64 devices at most. */
    char spec[400] = "";
    for (int k = 0; k < 64; k++)
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%s%d", k ? "," : "", k);
    ck_assert_int_eq(gpus(spec, &err), 0);
    ck_assert_int_eq(run.ngpus, 64);
    ck_assert_int_eq(run.gpus[63], 63);
    free(err);
    snprintf(spec + strlen(spec), sizeof spec - strlen(spec), ",64");
    ck_assert_int_eq(gpus(spec, &err), -1);
    HAS(err, "--gpus takes all or device numbers");
    free(err);
}
END_TEST

/* all: every device the probe counts (at most 64), or one worker without
 * a GPU, which compiles and checks. */
START_TEST(all_gpus)
{
    char *err;
    answer = "3 90 Three";
    ck_assert_int_eq(gpus("all", &err), 0);
    devices_are((int[]){0, 1, 2}, 3);
    free(err);
    answer = "1 90 One";
    ck_assert_int_eq(gpus("all", &err), 0);
    devices_are((int[]){0}, 1);
    free(err);
    answer = "0 0 ";
    ck_assert_int_eq(gpus("all", &err), 0);
    devices_are((int[]){0}, 1);
    free(err);
    answer = "70 90 Many";
    ck_assert_int_eq(gpus("all", &err), 0);
    ck_assert_int_eq(run.ngpus, 64);
    ck_assert_int_eq(run.gpus[63], 63);
    free(err);
}
END_TEST

/* What each worker saw, in memory the test and the workers share. */
typedef struct seen {
    int worker, gpu_index, done;
    char visible[16], gpu[128];
} seen;
static seen *saw;
static const char *fate = "";   /* per worker: 'o' ends well, 'f' fails, 'k' is killed */

static int body(class_run *r, const class_hooks *h, void *arg)
{
    (void)h;
    ck_assert_ptr_eq(arg, (void *)&fate);
    int k = r->worker - 1;
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    saw[k].worker = r->worker;
    saw[k].gpu_index = r->gpu_index;
    snprintf(saw[k].visible, sizeof saw[k].visible, "%s", v ? v : "(unset)");
    snprintf(saw[k].gpu, sizeof saw[k].gpu, "%s", r->gpu);
    __atomic_fetch_add(&r->q->done, 1, __ATOMIC_SEQ_CST);
    usleep(450 * 1000);        /* long enough for the pool to show progress */
    saw[k].done = 1;
    if (fate[k] == 'k')
        raise(SIGKILL);
    return fate[k] == 'f';
}

static int pool(const char *fates, const int *devs, int n, const char *ans, char **err)
{
    static class_queue *q;
    if (!q)
        q = mmap(NULL, sizeof *q, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (!saw)
        saw = mmap(NULL, 8 * sizeof *saw, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);
    memset(q, 0, sizeof *q);
    memset(saw, 0, 8 * sizeof *saw);
    memset(&run, 0, sizeof run);
    run.q = q;
    run.nst = 10;
    run.ngpus = n;
    for (int k = 0; k < n; k++)
        run.gpus[k] = devs[k];
    fate = fates;
    answer = ans;
    setenv("CUDA_VISIBLE_DEVICES", "9", 1);    /* the run's own: each worker has its own */
    capture c;
    capture_start(&c, "pool");
    int rc = class_workers_run(&run, &probing, body, &fate);
    capture_end(&c, NULL, err);
    return rc;
}

START_TEST(a_worker_per_gpu)
{
    char *err;
    ck_assert_int_eq(pool("oo", (int[]){4, 7}, 2, "1 90 Fake", &err), 0);
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(saw[k].worker, k + 1);
        ck_assert_int_eq(saw[k].done, 1);
        ck_assert_str_eq(saw[k].gpu, "Fake");
    }
    ck_assert_str_eq(saw[0].visible, "4");
    ck_assert_str_eq(saw[1].visible, "7");
    ck_assert_int_eq(saw[0].gpu_index, 4);
    ck_assert_int_eq(saw[1].gpu_index, 7);
    ck_assert_int_eq(run.worker, 0);           /* the run itself is no worker */
    ck_assert_str_eq(getenv("CUDA_VISIBLE_DEVICES"), "9");
    /* Ended and reaped: a later signal to the run is passed on to none of
     * them (their pids may be another process's by then). */
    ck_assert_int_eq(class_guard_nchildren(), 0);
    /* Progress while they ran, and no complaint. */
    HAS(err, "progress: ");
    HAS(err, " of 10 students done, 0 failed, ");
    LACKS(err, "ended badly");
    free(err);
    /* Without a GPU a worker has no device index. */
    ck_assert_int_eq(pool("o", (int[]){0}, 1, "0 0 ", &err), 0);
    ck_assert_int_eq(saw[0].gpu_index, -1);
    ck_assert_str_eq(saw[0].gpu, "");
    ck_assert_str_eq(saw[0].visible, "0");
    free(err);
}
END_TEST

START_TEST(a_worker_that_fails_is_named)
{
    char *err;
    ck_assert_int_eq(pool("ofk", (int[]){0, 2, 5}, 3, "1 90 Fake", &err), -1);
    ck_assert_int_eq(saw[0].done + saw[1].done + saw[2].done, 3);
    HAS(err, "grader class: the worker for GPU 2 ended badly (status 1); its unfinished "
             "students are marked not graded\n");
    HAS(err, "grader class: the worker for GPU 5 ended badly (signal 9); its unfinished "
             "students are marked not graded\n");
    LACKS(err, "GPU 0 ended");
    free(err);
    ck_assert_int_eq(pool("k", (int[]){3}, 1, "1 90 Fake", &err), -1);
    HAS(err, "GPU 3 ended badly (signal 9)");
    free(err);
    ck_assert_int_eq(class_guard_nchildren(), 0);   /* nor those that failed */
    /* Every worker reaped: none is left. */
    errno = 0;
    ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
    ck_assert_int_eq(errno, ECHILD);
}
END_TEST

Suite *class_workers_suite(void)
{
    Suite *s = suite_create("class_workers");
    TCase *tc = tcase_create("workers");
    tcase_add_checked_fixture(tc, (void (*)(void))scratch, remove_scratch);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, the_probe_reads_its_child);
    tcase_add_test(tc, an_in_process_probe);
    tcase_add_test(tc, gpus_are_read_whole);
    tcase_add_test(tc, all_gpus);
    tcase_add_test(tc, a_worker_per_gpu);
    tcase_add_test(tc, a_worker_that_fails_is_named);
    suite_add_tcase(s, tc);
    return s;
}
