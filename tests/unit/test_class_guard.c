/* test_class_guard.c: what keeps a class run from harming the next one
 * (class_guard.c): the output folder's lock (one run at a time, said
 * plainly with the holder's pid; shared for a worker or a task; waited for
 * when asked), and the staged sources removed when the run is stopped by a
 * signal or exits, by the run's own process only, with the signal passed on
 * to its workers. The signals are sent by the test to a child it forks.
 *
 *   CK_RUN_SUITE=class_guard build/tests/unit_tests */
#include <errno.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include "class_scratch.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static char *lock_text(const char *out)
{
    char p[700];
    snprintf(p, sizeof p, "%s/.lock", out);
    return slurp_file(p);
}

/* An exclusive lock notes this process; a second run is refused with it. */
START_TEST(one_run_at_a_time)
{
    char out[600], want[1400];
    in_scratch(out, sizeof out, "out");
    ck_assert_int_eq(mkdir_p(out), 0);
    char p[700];
    snprintf(p, sizeof p, "%s/.lock", out);
    put_file(p, "pid 123456789012\nleft over\n");
    capture c;
    char *err;
    capture_start(&c, "first");
    int a = class_lock(out, 0);
    capture_end(&c, NULL, &err);
    ck_assert_int_ge(a, 0);
    ck_assert_str_eq(err, "");             /* noted quietly */
    free(err);
    char *t = lock_text(out);
    snprintf(want, sizeof want, "pid %ld\n", (long)getpid());
    ck_assert_str_eq(t, want);         /* the old text gone whole */
    free(t);
    ck_assert(fcntl(a, F_GETFD) & FD_CLOEXEC);   /* no grading child holds it */

    capture_start(&c, "second");
    errno = 0;
    int b = class_lock(out, 0), e = errno;
    int s = class_lock(out, 1), e2 = errno;
    capture_end(&c, NULL, &err);
    ck_assert_int_eq(b, -1);
    ck_assert_int_eq(e, EWOULDBLOCK);
    ck_assert_int_eq(s, -1);
    ck_assert_int_eq(e2, EWOULDBLOCK);
    snprintf(want, sizeof want, "grader class: %s is in use by another grading run (pid %ld). "
             "Wait for it to end, or give this run another output folder (CLASS_OUT=dir).\n",
             out, (long)getpid());
    char twice[3000];
    snprintf(twice, sizeof twice, "%s%s", want, want);
    ck_assert_str_eq(err, twice);
    free(err);
    close(a);
    /* Released: the next run takes it. */
    int n = class_lock(out, 0);
    ck_assert_int_ge(n, 0);
    close(n);
}
END_TEST

/* Shared locks (workers, Slurm tasks) go together, write no pid, and keep
 * an exclusive run out, which then has no pid to name. */
START_TEST(shared_locks)
{
    char out[600], want[1400];
    in_scratch(out, sizeof out, "out");
    ck_assert_int_eq(mkdir_p(out), 0);
    int a = class_lock(out, 1), b = class_lock(out, 1);
    ck_assert_int_ge(a, 0);
    ck_assert_int_ge(b, 0);
    char *t = lock_text(out);
    ck_assert_str_eq(t, "");
    free(t);
    capture c;
    capture_start(&c, "excl");
    int x = class_lock(out, 0);
    char *err;
    capture_end(&c, NULL, &err);
    ck_assert_int_eq(x, -1);
    snprintf(want, sizeof want, "grader class: %s is in use by another grading run. Wait for "
             "it to end, or give this run another output folder (CLASS_OUT=dir).\n", out);
    ck_assert_str_eq(err, want);
    free(err);
    /* Who holds it, from the first line of .lock: at most 63 bytes of it. */
    char p[700];
    snprintf(p, sizeof p, "%s/.lock", out);
    const char *texts[][2] = {
        {"x", "x"},
        {"ab\ncd", "ab"},
        {"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxyyyy",
         "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
    };
    for (int k = 0; k < 3; k++) {
        put_file(p, texts[k][0]);
        capture_start(&c, "who");
        ck_assert_int_eq(class_lock(out, 0), -1);
        capture_end(&c, NULL, &err);
        snprintf(want, sizeof want, "grader class: %s is in use by another grading run (%s). "
                 "Wait for it to end, or give this run another output folder (CLASS_OUT=dir).\n",
                 out, texts[k][1]);
        ck_assert_str_eq(err, want);
        free(err);
    }
    close(a);
    close(b);
    /* A folder that is not there: -1 with errno, and nothing said. */
    in_scratch(out, sizeof out, "missing/out");
    capture_start(&c, "missing");
    errno = 0;
    x = class_lock(out, 0);
    int e = errno;
    capture_end(&c, NULL, &err);
    ck_assert_int_eq(x, -1);
    ck_assert_int_eq(e, ENOENT);
    ck_assert_str_eq(err, "");
    free(err);
}
END_TEST

/* A .lock that cannot hold the note (a pipe): the lock is still taken,
 * and that the run could not be noted is said. */
START_TEST(a_lock_that_cannot_be_noted)
{
    char out[600], p[700], want[1400];
    in_scratch(out, sizeof out, "out");
    ck_assert_int_eq(mkdir_p(out), 0);
    snprintf(p, sizeof p, "%s/.lock", out);
    ck_assert_int_eq(mkfifo(p, 0644), 0);
    capture c;
    char *err;
    capture_start(&c, "fifo");
    int fd = class_lock(out, 0);
    capture_end(&c, NULL, &err);
    ck_assert_int_ge(fd, 0);
    snprintf(want, sizeof want, "grader class: could not note this run in %s\n", p);
    ck_assert_str_eq(err, want);
    free(err);
    close(fd);
}
END_TEST

/* A Slurm task waits for the lock a plain run holds, then takes it. */
/* A child that takes the lock of `out` (shared or not), says so, and holds
 * it for 400 ms; its pid, once it holds the lock. */
static pid_t hold_lock_a_while(const char *out, int shared)
{
    int go[2];
    ck_assert_int_eq(pipe(go), 0);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = class_lock(out, shared);
        char c = fd >= 0 ? 'y' : 'n';
        ssize_t w = write(go[1], &c, 1);
        (void)w;
        usleep(400 * 1000);
        _exit(0);
    }
    char c = 0;
    ck_assert_int_eq(read(go[0], &c, 1), 1);
    ck_assert_int_eq(c, 'y');
    close(go[0]);
    close(go[1]);
    return pid;
}

START_TEST(a_task_waits_for_the_lock)
{
    char out[600];
    in_scratch(out, sizeof out, "out");
    ck_assert_int_eq(mkdir_p(out), 0);
    pid_t pid = hold_lock_a_while(out, 0);
    double t0 = now();
    int fd = class_lock_as(out, 1, 1);
    double waited = now() - t0;
    ck_assert_int_ge(fd, 0);
    ck_assert_msg(waited > 0.2, "did not wait: %.3f s", waited);
    waitpid(pid, NULL, 0);
    close(fd);
}
END_TEST

/* Waiting for the exclusive lock (the merge after a task's shared one):
 * taken once the holder is gone, and noted as this run's. */
START_TEST(an_exclusive_wait_takes_the_lock)
{
    char out[600], p[700], want[64];
    in_scratch(out, sizeof out, "out");
    ck_assert_int_eq(mkdir_p(out), 0);
    int free_fd = class_lock_as(out, 0, 1);    /* nobody holds it: at once */
    ck_assert_int_ge(free_fd, 0);
    close(free_fd);
    pid_t pid = hold_lock_a_while(out, 1);
    double t0 = now();
    int fd = class_lock_as(out, 0, 1);
    double waited = now() - t0;
    ck_assert_int_ge(fd, 0);
    ck_assert_msg(waited > 0.2, "did not wait: %.3f s", waited);
    waitpid(pid, NULL, 0);
    snprintf(p, sizeof p, "%s/.lock", out);
    size_t len;
    char *noted = read_text_file(p, &len);
    snprintf(want, sizeof want, "pid %ld\n", (long)getpid());
    ck_assert_str_eq(noted, want);
    free(noted);
    close(fd);
}
END_TEST

/* The files a submission is staged as: a student's folder with two
 * exercises (one at the top, one in a lesson folder). */
static const exercise top = {.name = "top", .file = "top.cu"};
static const exercise deep = {.name = "deep", .file = "lesson3/deep.cu"};
static const exercise deeper = {.name = "deeper", .file = "lesson4/deeper.cu"};
static const exercise *const three[] = {&top, &deep, &deeper};
static char tmproot[600], stage[700];

static submission *stage_files(void)
{
    static submission sub;
    memset(&sub, 0, sizeof sub);
    sub.ex = three;
    sub.nex = 3;
    in_scratch(tmproot, sizeof tmproot, "grade-class-x");
    snprintf(stage, sizeof stage, "%s/student", tmproot);
    char p[900];
    snprintf(p, sizeof p, "%s/top.cu", stage);
    put_file(p, "top");
    snprintf(p, sizeof p, "%s/lesson3/deep.cu", stage);
    put_file(p, "deep");
    snprintf(p, sizeof p, "%s/lesson4/deeper.cu", stage);
    put_file(p, "deeper");
    return &sub;
}

/* Run `body` in a child that guards its staged files; its end status. */
static int in_child(void (*body)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        body();
        _exit(99);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return st;
}

static void staged_then_signal(void)
{
    class_guard_signals();
    class_guard_staged(stage_files(), stage, tmproot);
    raise(SIGTERM);
}

/* SIGTERM: everything staged removed, the folders too, then the run dies
 * of the signal as usual. */
START_TEST(a_signal_removes_the_staged_files)
{
    int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (int k = 0; k < 3; k++) {
        stage_files();
        ck_assert(exists(stage));
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            class_guard_signals();
            class_guard_staged(stage_files(), stage, tmproot);
            raise(sigs[k]);
            _exit(99);
        }
        int st;
        ck_assert_int_eq(waitpid(pid, &st, 0), pid);
        ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sigs[k], "status %x", st);
        ck_assert_msg(!exists(tmproot), "signal %d left %s", sigs[k], tmproot);
    }
    /* Others than the run's own files are left: a file beside them keeps the
     * folder, and the rest is still removed. */
    stage_files();
    char p[900];
    snprintf(p, sizeof p, "%s/lesson3/notes.txt", stage);
    put_file(p, "not staged");
    int st = in_child(staged_then_signal);
    ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    ck_assert(exists(p));
    snprintf(p, sizeof p, "%s/lesson3/deep.cu", stage);
    ck_assert(!exists(p));
    snprintf(p, sizeof p, "%s/lesson4", stage);
    ck_assert(!exists(p));
    snprintf(p, sizeof p, "%s/top.cu", stage);
    ck_assert(!exists(p));
}
END_TEST

static void staged_then_exit(void)
{
    class_guard_signals();
    class_guard_signals();     /* registered once */
    class_guard_staged(stage_files(), stage, tmproot);
    exit(0);
}

static void grandchild_signalled(void)
{
    class_guard_signals();
    class_guard_staged(stage_files(), stage, tmproot);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        raise(SIGTERM);        /* a grading child: dies, removes nothing */
        _exit(98);
    }
    int st;
    waitpid(pid, &st, 0);
    _exit(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && exists(stage) ? 0 : 1);
}

static void grandchild_exits(void)
{
    class_guard_signals();
    class_guard_staged(stage_files(), stage, tmproot);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        exit(0);               /* its exit handlers must not remove them either */
    int st;
    waitpid(pid, &st, 0);
    _exit(WIFEXITED(st) && exists(stage) ? 0 : 1);
}

/* exit() removes them too (NVRTC's own handler calls exit); a grading
 * child, which shares the handler, removes nothing. */
START_TEST(only_the_run_removes_them)
{
    stage_files();
    int st = in_child(staged_then_exit);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    ck_assert(!exists(tmproot));
    st = in_child(grandchild_signalled);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %x", st);
    ck_assert(exists(stage));
    st = in_child(grandchild_exits);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %x", st);
    ck_assert(exists(stage));
}
END_TEST

/* Staged again for the next student: only the new list counts. */
static void restaged(void)
{
    class_guard_signals();
    class_guard_staged(stage_files(), stage, tmproot);
    static submission one;
    memset(&one, 0, sizeof one);
    one.ex = three;
    one.nex = 1;               /* top.cu only */
    char other[800];
    snprintf(other, sizeof other, "%s/second", tmproot);
    char p[900];
    snprintf(p, sizeof p, "%s/top.cu", other);
    put_file(p, "top");
    class_guard_staged(&one, other, tmproot);
    raise(SIGTERM);
}

START_TEST(each_staging_replaces_the_list)
{
    stage_files();
    int st = in_child(restaged);
    ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    char p[900];
    snprintf(p, sizeof p, "%s/second", tmproot);
    ck_assert(!exists(p));
    snprintf(p, sizeof p, "%s/lesson3/deep.cu", stage);
    ck_assert(exists(p));      /* not on the list any more */
    snprintf(p, sizeof p, "%s/lesson4/deeper.cu", stage);
    ck_assert(exists(p));      /* nor what was past its end */
    snprintf(p, sizeof p, "%s/top.cu", stage);
    ck_assert(exists(p));
}
END_TEST

/* The run passes a signal on to its workers, and forgets them after. */
static pid_t worker_pids[2];
static int pass_pipe[2];

static void run_with_workers(void)
{
    class_guard_signals();
    for (int k = 0; k < 2; k++) {
        worker_pids[k] = fork();
        if (worker_pids[k] == 0) {
            signal(SIGTERM, SIG_DFL);
            pause();
            _exit(0);
        }
    }
    ssize_t w = write(pass_pipe[1], worker_pids, sizeof worker_pids);
    (void)w;
    class_guard_children(worker_pids, 2);
    raise(SIGTERM);
}

START_TEST(a_signal_reaches_the_workers)
{
    ck_assert_int_eq(pipe(pass_pipe), 0);
    int st = in_child(run_with_workers);
    ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    pid_t kids[2];
    ck_assert_int_eq(read(pass_pipe[0], kids, sizeof kids), (ssize_t)sizeof kids);
    for (int k = 0; k < 2; k++) {
        int gone = 0;
        for (int i = 0; i < 100 && !gone; i++) {
            gone = kill(kids[k], 0) != 0;
            if (!gone)
                usleep(20 * 1000);
        }
        ck_assert_msg(gone, "worker %d still runs", k);
    }
}
END_TEST

static void workers_forgotten(void)
{
    class_guard_signals();
    pid_t kid = fork();
    if (kid == 0) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGUSR1, SIG_DFL);
        pause();
        _exit(0);
    }
    ssize_t w = write(pass_pipe[1], &kid, sizeof kid);
    (void)w;
    class_guard_children(&kid, 1);
    class_guard_children(NULL, 0);
    /* A later signal goes to the run only: the worker must still be there. */
    usleep(50 * 1000);
    raise(SIGTERM);
}

START_TEST(forgotten_workers_get_nothing)
{
    ck_assert_int_eq(pipe(pass_pipe), 0);
    int st = in_child(workers_forgotten);
    ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    pid_t kid;
    ck_assert_int_eq(read(pass_pipe[0], &kid, sizeof kid), (ssize_t)sizeof kid);
    /* Sent SIGTERM, it would ignore it; SIGUSR1 would end it: it got neither
     * while forgotten, so it is alive until this test ends it. */
    ck_assert_int_eq(kill(kid, 0), 0);
    kill(kid, SIGKILL);
}
END_TEST

Suite *class_guard_suite(void)
{
    Suite *s = suite_create("class_guard");
    TCase *tc = tcase_create("guard");
    tcase_add_checked_fixture(tc, (void (*)(void))scratch, remove_scratch);
    tcase_add_test(tc, one_run_at_a_time);
    tcase_add_test(tc, shared_locks);
    tcase_add_test(tc, a_lock_that_cannot_be_noted);
    tcase_add_test(tc, a_task_waits_for_the_lock);
    tcase_add_test(tc, an_exclusive_wait_takes_the_lock);
    tcase_add_test(tc, a_signal_removes_the_staged_files);
    tcase_add_test(tc, only_the_run_removes_them);
    tcase_add_test(tc, each_staging_replaces_the_list);
    tcase_add_test(tc, a_signal_reaches_the_workers);
    tcase_add_test(tc, forgotten_workers_get_nothing);
    suite_add_tcase(s, tc);
    return s;
}
