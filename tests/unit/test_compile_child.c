/* test_compile_child.c: the compile's child process (compile_child.h), with
 * bodies of the test's own in place of NVRTC: the limits the child runs
 * under (core file, CPU time, address space, parent's death, output to
 * /dev/null), what it sends coming back whole, and each way it can end:
 * an exit status, a signal, the time limit, too much output, a parent that
 * died first, and the grader short of descriptors, of memory or of a
 * process, or its wait interrupted by a signal. And how many compiles run at
 * once (compile.c: batches of 8, counted at each fork).
 *
 * The faults the grader cannot be asked for (fork failing, a read error,
 * a parent dying at one exact moment) are injected by defining fork, read
 * and getrlimit here: the test binary's definitions come first for the
 * grader's calls, and each forwards to the C library's unless a test armed
 * it, for that process only.
 *
 *   CK_RUN_SUITE=compile_child build/tests/unit_tests */
/* read is defined here: it must be the C library's plain name. */
#undef _FORTIFY_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "compile.h"
#include "compile_child.h"
#include "suites.h"

/* ---- injected faults ---------------------------------------------------- */

static int fork_fails;              /* the next fork fails with EAGAIN */
static int read_fault_fd = -1;      /* the next read of this fd fails ... */
static int read_fault_errno;        /* ... with this errno */
static pid_t orphan_of;             /* a child of this process waits in getrlimit
                                       until that process is gone */

static pid_t counting_in;           /* this process's forks are counted: ... */
static pid_t forked[16];            /* ... each child's pid, and how many of the */
static int nforked, live_at[16];    /* earlier ones were not yet reaped then */

static void count_fork(pid_t pid)
{
    if (pid <= 0 || counting_in != getpid() || nforked == 16)
        return;
    int live = 0;
    for (int i = 0; i < nforked; i++)
        live += kill(forked[i], 0) == 0;   /* a zombie too: reaped is ESRCH */
    live_at[nforked] = live;
    forked[nforked++] = pid;
}

pid_t fork(void)
{
    static pid_t (*real)(void);
    if (fork_fails) {
        fork_fails = 0;
        errno = EAGAIN;
        return -1;
    }
    if (!real)
        real = (pid_t (*)(void))dlsym(RTLD_NEXT, "fork");
    pid_t pid = real();
    count_fork(pid);
    return pid;
}

ssize_t read(int fd, void *buf, size_t n)
{
    static ssize_t (*real)(int, void *, size_t);
    if (read_fault_fd >= 0 && fd == read_fault_fd) {
        read_fault_fd = -1;
        errno = read_fault_errno;
        return -1;
    }
    if (!real)
        real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    return real(fd, buf, n);
}

int getrlimit(__rlimit_resource_t what, struct rlimit *rl)
{
    static int (*real)(__rlimit_resource_t, struct rlimit *);
    while (orphan_of && getppid() == orphan_of)
        usleep(1000);
    if (!real)
        real = (int (*)(__rlimit_resource_t, struct rlimit *))dlsym(RTLD_NEXT, "getrlimit");
    return real(what, rl);
}

/* ---- bodies ------------------------------------------------------------- */

/* What a child found about itself, sent back through the pipe. */
typedef struct inside {
    struct rlimit core, cpu, as;
    size_t vm_bytes;            /* VmSize, read without allocating */
    int deathsig;
    int out_is_null, err_is_null;
} inside;

static size_t vm_size_now(void)
{
    char buf[4096];
    int fd = open("/proc/self/status", O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = 0;
    const char *v = strstr(buf, "VmSize:");
    return v ? strtoull(v + 7, NULL, 10) * 1024 : 0;
}

static int is_dev_null(int fd)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat("/dev/null", &b) == 0 && a.st_rdev == b.st_rdev &&
           a.st_ino == b.st_ino;
}

static void report_limits(void *arg, int fd)
{
    (void)arg;
    inside in = {.vm_bytes = vm_size_now()};
    getrlimit(RLIMIT_CORE, &in.core);
    getrlimit(RLIMIT_CPU, &in.cpu);
    getrlimit(RLIMIT_AS, &in.as);
    prctl(PR_GET_PDEATHSIG, &in.deathsig);
    in.out_is_null = is_dev_null(STDOUT_FILENO);
    in.err_is_null = is_dev_null(STDERR_FILENO);
    write_all(fd, &in, sizeof in);
}

/* arg: how many bytes of a known pattern to write. */
static unsigned char pattern(size_t i)
{
    return (unsigned char)(i * 7 + i / 4099);
}

static void write_pattern(void *arg, int fd)
{
    size_t n = *(size_t *)arg;
    static unsigned char chunk[1 << 16];
    for (size_t at = 0; at < n;) {
        size_t k = n - at < sizeof chunk ? n - at : sizeof chunk;
        for (size_t i = 0; i < k; i++)
            chunk[i] = pattern(at + i);
        if (write_all(fd, chunk, k) != 0)
            return;
        at += k;
    }
}

/* arg: how many bytes of zeros, fast (no pattern). */
static void write_zeros(void *arg, int fd)
{
    size_t n = *(size_t *)arg;
    static char zeros[1 << 20];
    for (size_t at = 0; at < n; at += sizeof zeros)
        write_all(fd, zeros, n - at < sizeof zeros ? n - at : sizeof zeros);
}

/* Writes without end, deaf to a closed pipe: only a kill stops it. */
static void flood(void *arg, int fd)
{
    (void)arg;
    static char zeros[1 << 16];
    signal(SIGPIPE, SIG_IGN);
    for (;;)
        if (write(fd, zeros, sizeof zeros) < 0)
            usleep(1000);
}

static void sleep_long(void *arg, int fd)
{
    (void)arg;
    (void)fd;
    sleep(20);
}

/* arg: the exit status, or minus a signal to die of. */
static void end_with(void *arg, int fd)
{
    int how = *(int *)arg;
    write_all(fd, "bye", 3);
    if (how < 0) {
        signal(-how, SIG_DFL);      /* not Check's handler, which ends the whole test */
        kill(getpid(), -how);
    }
    _exit(how);
}

/* Writes "late" after a while, closes the pipe, lives on a while, exits 3. */
static void late(void *arg, int fd)
{
    (void)arg;
    usleep(150 * 1000);
    write_all(fd, "late", 4);
    close(fd);
    usleep(150 * 1000);
    _exit(3);
}

/* A few bytes, then the pipe stays open a long time. */
static void some_then_wait(void *arg, int fd)
{
    (void)arg;
    write_all(fd, "some", 4);
    sleep(20);
}

/* arg: its index; writes it, 1000 times, as an int. */
static void numbered(void *arg, int fd)
{
    int i = *(int *)arg;
    for (int k = 0; k < 1000; k++)
        write_all(fd, &i, sizeof i);
}

static int marker_fd = -1;

static void mark(void *arg, int fd)
{
    (void)arg;
    (void)fd;
    write_all(marker_fd, "ran", 3);
}

/* ---- helpers ------------------------------------------------------------ */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void start(compile_child *c, void (*body)(void *, int), void *arg, double limit_s,
                  size_t mem)
{
    ck_assert_msg(compile_child_start(c, body, arg, limit_s, mem) == 0, "%s", c->error);
    ck_assert_int_gt(c->pid, 0);
    ck_assert_int_ge(c->fd, 0);
}


static void assert_reaped(const compile_child *c)
{
    ck_assert_int_eq(c->fd, -1);
    errno = 0;
    ck_assert_msg(waitpid(c->pid, NULL, WNOHANG) == -1 && errno == ECHILD,
                  "child %d was not reaped", (int)c->pid);
}

static void assert_killed(const compile_child *c, int sig)
{
    ck_assert_msg(WIFSIGNALED(c->status) && WTERMSIG(c->status) == sig,
                  "status %#x, not killed by signal %d", c->status, sig);
}

/* The lowest descriptor not open now. */
static int first_free_fd(void)
{
    int fd = dup(0);
    if (fd >= 0)
        close(fd);
    return fd;
}

static int open_fds(void)
{
    int n = 0;
    for (int fd = 0; fd < 256; fd++)
        n += fcntl(fd, F_GETFD) != -1;
    return n;
}

/* ---- the child's limits -------------------------------------------------- */

START_TEST(the_child_runs_under_its_limits)
{
    /* A core limit to take away, so that taking it away shows. */
    struct rlimit core = {1 << 20, 1 << 20};
    setrlimit(RLIMIT_CORE, &core);
    compile_child c;
    size_t mem = (size_t)1 << 30;
    start(&c, report_limits, NULL, 2.5, mem);
    compile_children_wait(&c, 1, 10);
    ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0, "status %#x", c.status);
    ck_assert_int_eq(c.len, sizeof(inside));
    inside in;
    memcpy(&in, c.out, sizeof in);
    free(c.out);
    assert_reaped(&c);
    ck_assert_int_eq(in.core.rlim_cur, 0);
    ck_assert_int_eq(in.core.rlim_max, 0);
    /* The CPU-time fuse: the limit rounded up, 2 s more, and a hard limit
     * 1 s beyond (SIGXCPU first, SIGKILL after). */
    ck_assert_int_eq(in.cpu.rlim_cur, 5);
    ck_assert_int_eq(in.cpu.rlim_max, 6);
    /* `mem` on top of the address space the child started with. */
    ck_assert_msg(in.as.rlim_cur == in.as.rlim_max, "soft %llu, hard %llu",
                  (unsigned long long)in.as.rlim_cur, (unsigned long long)in.as.rlim_max);
    long long extra = (long long)in.as.rlim_cur - (long long)in.vm_bytes;
    ck_assert_msg(llabs(extra - (long long)mem) < 16 * 4096, "address space %llu for VmSize "
                  "%zu: %lld on top, not %zu", (unsigned long long)in.as.rlim_cur, in.vm_bytes,
                  extra, mem);
    ck_assert_int_eq(in.deathsig, SIGKILL);
    ck_assert(in.out_is_null);
    ck_assert(in.err_is_null);
}
END_TEST

START_TEST(no_memory_limit_leaves_the_address_space_alone)
{
    struct rlimit as0;
    getrlimit(RLIMIT_AS, &as0);
    compile_child c;
    start(&c, report_limits, NULL, 1, 0);
    compile_children_wait(&c, 1, 10);
    ck_assert_int_eq(c.len, sizeof(inside));
    inside in;
    memcpy(&in, c.out, sizeof in);
    free(c.out);
    ck_assert(in.as.rlim_cur == as0.rlim_cur && in.as.rlim_max == as0.rlim_max);
    ck_assert_int_eq(in.cpu.rlim_cur, 3);
}
END_TEST

START_TEST(the_memory_limit_stays_under_the_graders_own)
{
    /* The grader was started with a hard limit on its address space: the
     * child may not get more, however much a compile may take. */
    size_t vm = vm_size_now();
    struct rlimit cap = {vm + ((size_t)2 << 30), vm + ((size_t)3 << 30)};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &cap), 0);
    compile_child c;
    start(&c, report_limits, NULL, 1, (size_t)8 << 30);
    compile_children_wait(&c, 1, 10);
    ck_assert_int_eq(c.len, sizeof(inside));
    inside in;
    memcpy(&in, c.out, sizeof in);
    free(c.out);
    /* The soft limit raised to the hard one (which, without privileges,
     * could not be raised further anyway). */
    ck_assert_msg(in.as.rlim_cur == cap.rlim_max && in.as.rlim_max == cap.rlim_max,
                  "soft %llu hard %llu, the grader's hard limit %llu",
                  (unsigned long long)in.as.rlim_cur, (unsigned long long)in.as.rlim_max,
                  (unsigned long long)cap.rlim_max);
}
END_TEST

START_TEST(output_goes_to_dev_null_with_stdin_closed)
{
    /* A grader started with stdin closed: /dev/null opens as descriptor 0,
     * and must still take the child's stdout and stderr. */
    int saved = dup(STDIN_FILENO);
    close(STDIN_FILENO);
    compile_child c;
    int rc = compile_child_start(&c, report_limits, NULL, 1, 0);
    if (rc == 0)
        compile_children_wait(&c, 1, 10);
    dup2(saved, STDIN_FILENO);
    close(saved);
    ck_assert_int_eq(rc, 0);
    assert_reaped(&c);      /* its pipe was descriptor 0, and is closed too */
    ck_assert_int_eq(c.len, sizeof(inside));
    inside in;
    memcpy(&in, c.out, sizeof in);
    free(c.out);
    ck_assert(in.out_is_null);
    ck_assert(in.err_is_null);
}
END_TEST

START_TEST(an_orphan_never_runs_its_body)
{
    /* The parent dies after the fork, before the child has asked to die
     * with it: the child must stop there, not compile for nobody. The
     * test process adopts the orphan, so it can read how it ended. */
    ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    int marks[2], pids[2];
    ck_assert_int_eq(pipe(marks), 0);
    ck_assert_int_eq(pipe(pids), 0);
    pid_t mid = fork();
    ck_assert_int_ge(mid, 0);
    if (mid == 0) {
        marker_fd = marks[1];
        orphan_of = getpid();
        compile_child c;
        if (compile_child_start(&c, mark, NULL, 5, (size_t)1 << 30) != 0)
            _exit(9);
        write_all(pids[1], &c.pid, sizeof c.pid);
        _exit(0);
    }
    close(marks[1]);
    close(pids[1]);
    pid_t orphan = 0;
    ck_assert_int_eq(read(pids[0], &orphan, sizeof orphan), sizeof orphan);
    int st;
    ck_assert_int_eq(waitpid(mid, &st, 0), mid);
    ck_assert_int_eq(waitpid(orphan, &st, 0), orphan);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 1, "the orphan ended with %#x", st);
    char buf[8];
    ck_assert_int_eq(read(marks[0], buf, sizeof buf), 0);
}
END_TEST

/* ---- what comes back ---------------------------------------------------- */

START_TEST(output_comes_back_whole)
{
    /* More than the first buffer (1 MB) and its first doubling. */
    size_t n = (size_t)3 << 20 | 12345;
    compile_child c;
    start(&c, write_pattern, &n, 10, 0);
    compile_children_wait(&c, 1, 20);
    ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0, "status %#x", c.status);
    ck_assert_int_eq(c.timed_out, 0);
    ck_assert_int_eq(c.too_much, 0);
    ck_assert_int_eq(c.len, n);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)c.out[i] != pattern(i))
            ck_abort_msg("byte %zu differs", i);
    free(c.out);
    assert_reaped(&c);
}
END_TEST

START_TEST(exit_status_and_signal_are_kept)
{
    int how[3] = {0, 3, -SIGTERM};
    compile_child c[3];
    for (int i = 0; i < 3; i++)
        start(&c[i], end_with, &how[i], 10, 0);
    compile_children_wait(c, 3, 10);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(c[i].len, 3);
        ck_assert(!memcmp(c[i].out, "bye", 3));
        free(c[i].out);
        assert_reaped(&c[i]);
    }
    ck_assert(WIFEXITED(c[0].status) && WEXITSTATUS(c[0].status) == 0);
    ck_assert(WIFEXITED(c[1].status) && WEXITSTATUS(c[1].status) == 3);
    assert_killed(&c[2], SIGTERM);
}
END_TEST

START_TEST(many_children_at_once)
{
    /* More children than one poll takes (16): each keeps its own output. */
    enum { N = 17 };
    compile_child c[N];
    int idx[N];
    for (int i = 0; i < N; i++) {
        idx[i] = i;
        start(&c[i], numbered, &idx[i], 10, 0);
    }
    compile_children_wait(c, N, 20);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(c[i].len == 1000 * sizeof(int), "child %d: %zu bytes", i, c[i].len);
        for (int k = 0; k < 1000; k++)
            ck_assert_int_eq(((int *)c[i].out)[k], i);
        ck_assert(WIFEXITED(c[i].status) && WEXITSTATUS(c[i].status) == 0);
        free(c[i].out);
        assert_reaped(&c[i]);
    }
}
END_TEST

/* ---- how it can end ------------------------------------------------------ */

START_TEST(a_quick_child_before_sixteen_slow_is_not_timed_out)
{
    /* One poll holds 16 children: the 17th waits for the next round, and
     * the first, done at once, is read and reaped in the first round,
     * whatever the 16 slow ones after it do. A wait that took a 17th into
     * the first poll would write past its arrays. */
    enum { N = 17 };
    compile_child c[N];
    size_t n = 1000;
    start(&c[0], write_pattern, &n, 1.5, 0);
    for (int i = 1; i < N; i++)
        start(&c[i], sleep_long, NULL, 1.5, 0);
    compile_children_wait(c, N, 1.5);
    ck_assert_int_eq(c[0].timed_out, 0);
    ck_assert_int_eq(c[0].len, n);
    ck_assert(WIFEXITED(c[0].status) && WEXITSTATUS(c[0].status) == 0);
    for (int i = 1; i < N; i++) {
        ck_assert_msg(c[i].timed_out, "child %d not timed out", i);
        assert_killed(&c[i], SIGKILL);
    }
    for (int i = 0; i < N; i++) {
        assert_reaped(&c[i]);
        free(c[i].out);
    }
}
END_TEST

START_TEST(a_poll_waits_just_past_the_deadline)
{
    /* The whole milliseconds just past what is left: never before the
     * deadline, never 0, at most 1 ms late, however long the limit. */
    ck_assert_int_eq(compile_poll_ms(1.5), 1501);
    ck_assert_int_eq(compile_poll_ms(20.0), 20001);
    ck_assert_int_eq(compile_poll_ms(0.0104), 11);
    ck_assert_int_eq(compile_poll_ms(0.0004), 1);
}
END_TEST

START_TEST(the_time_limit_kills_past_one_poll)
{
    /* More slow children than one poll takes (16): the limit kills and
     * reaps every one of them, the 17th too. */
    enum { N = 17 };
    compile_child c[N];
    for (int i = 0; i < N; i++)
        start(&c[i], sleep_long, NULL, 10, 0);
    double t0 = now();
    compile_children_wait(c, N, 0.3);
    ck_assert_double_lt(now() - t0, 5);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(c[i].timed_out, "child %d not timed out", i);
        ck_assert_msg(WIFSIGNALED(c[i].status) && WTERMSIG(c[i].status) == SIGKILL,
                      "child %d: status %#x", i, c[i].status);
        free(c[i].out);
        assert_reaped(&c[i]);
    }
}
END_TEST

START_TEST(the_time_limit_kills_only_the_slow)
{
    compile_child c[2];
    size_t n = 1000;
    /* A limit the quick child meets even on a loaded machine. */
    start(&c[0], sleep_long, NULL, 1.5, 0);
    start(&c[1], write_pattern, &n, 1.5, 0);
    double t0 = now();
    compile_children_wait(c, 2, 1.5);
    double took = now() - t0;
    ck_assert_msg(took >= 1.45 && took < 10, "the wait took %.2f s for a 1.5 s limit", took);
    ck_assert_int_eq(c[0].timed_out, 1);
    assert_killed(&c[0], SIGKILL);
    assert_reaped(&c[0]);
    ck_assert_int_eq(c[1].timed_out, 0);
    ck_assert_int_eq(c[1].len, n);
    ck_assert(WIFEXITED(c[1].status) && WEXITSTATUS(c[1].status) == 0);
    free(c[0].out);
    free(c[1].out);
}
END_TEST

/* The bound on what a child may write, lowered from its 256 MB so that it
 * is reached in a moment (an odd size: no buffer's). */
#define BOUND (((size_t)1 << 20) + 4097)

START_TEST(output_up_to_the_bound_is_kept)
{
    size_t n = BOUND;
    compile_child c;
    start(&c, write_zeros, &n, 30, 0);
    c.max_out = BOUND;
    compile_children_wait(&c, 1, 60);
    ck_assert_int_eq(c.too_much, 0);
    ck_assert_int_eq(c.len, n);
    ck_assert(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
    free(c.out);
}
END_TEST

START_TEST(output_past_the_bound_stops_the_child)
{
    /* One byte more than the grader keeps: stopped, whatever it would do. */
    size_t n = BOUND + 1;
    compile_child c[2];
    start(&c[0], write_zeros, &n, 30, 0);
    start(&c[1], flood, NULL, 30, 0);
    c[0].max_out = c[1].max_out = BOUND;
    compile_children_wait(c, 2, 60);
    for (int i = 0; i < 2; i++) {
        ck_assert_msg(c[i].too_much == 1, "child %d: %zu bytes, not too much", i, c[i].len);
        ck_assert_int_eq(c[i].timed_out, 0);
        assert_reaped(&c[i]);
        free(c[i].out);
    }
    assert_killed(&c[1], SIGKILL);
}
END_TEST

static volatile sig_atomic_t ticks;

static void tick(int sig)
{
    (void)sig;
    ticks++;
}

START_TEST(a_signal_does_not_cut_the_wait_short)
{
    /* A signal every 20 ms, without SA_RESTART: poll and waitpid are
     * interrupted again and again, and the child is still read to its end
     * and reaped with its own status. */
    struct sigaction sa = {.sa_handler = tick};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    compile_child c;
    start(&c, late, NULL, 10, 0);
    struct itimerval it = {.it_interval = {0, 20000}, .it_value = {0, 20000}};
    setitimer(ITIMER_REAL, &it, NULL);
    compile_children_wait(&c, 1, 10);
    struct itimerval off = {.it_value = {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    ck_assert_int_gt(ticks, 5);
    ck_assert_int_eq(c.len, 4);
    ck_assert(!memcmp(c.out, "late", 4));
    ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 3, "status %#x", c.status);
    ck_assert_int_eq(c.timed_out, 0);
    free(c.out);
    assert_reaped(&c);
}
END_TEST

START_TEST(a_failed_poll_kills_and_reaps)
{
    /* poll fails (more descriptors than RLIMIT_NOFILE: EINVAL): every child
     * is stopped and reaped at once, none counted as over time. */
    compile_child c[2];
    start(&c[0], sleep_long, NULL, 30, 0);
    start(&c[1], sleep_long, NULL, 30, 0);
    struct rlimit was, none = {0, 0};
    getrlimit(RLIMIT_NOFILE, &was);
    none.rlim_max = was.rlim_max;
    setrlimit(RLIMIT_NOFILE, &none);
    double t0 = now();
    compile_children_wait(c, 2, 30);
    setrlimit(RLIMIT_NOFILE, &was);
    ck_assert_msg(now() - t0 < 5, "the wait went on %.1f s", now() - t0);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(c[i].timed_out, 0);
        assert_killed(&c[i], SIGKILL);
        assert_reaped(&c[i]);
        free(c[i].out);
    }
}
END_TEST

START_TEST(a_failed_poll_kills_past_one_poll)
{
    /* Likewise with more children than one poll takes (16): all of them. */
    enum { N = 17 };
    compile_child c[N];
    for (int i = 0; i < N; i++)
        start(&c[i], sleep_long, NULL, 30, 0);
    struct rlimit was, none = {0, 0};
    getrlimit(RLIMIT_NOFILE, &was);
    none.rlim_max = was.rlim_max;
    setrlimit(RLIMIT_NOFILE, &none);
    double t0 = now();
    compile_children_wait(c, N, 30);
    setrlimit(RLIMIT_NOFILE, &was);
    ck_assert_msg(now() - t0 < 5, "the wait went on %.1f s", now() - t0);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(c[i].timed_out, 0);
        assert_killed(&c[i], SIGKILL);
        assert_reaped(&c[i]);
        free(c[i].out);
    }
}
END_TEST

START_TEST(a_read_error_kills_and_reaps)
{
    compile_child c;
    start(&c, some_then_wait, NULL, 30, 0);
    read_fault_fd = c.fd;
    read_fault_errno = EIO;
    double t0 = now();
    compile_children_wait(&c, 1, 30);
    ck_assert_msg(now() - t0 < 5, "the wait went on %.1f s", now() - t0);
    ck_assert_int_eq(read_fault_fd, -1);
    assert_killed(&c, SIGKILL);
    assert_reaped(&c);
    ck_assert_int_eq(c.timed_out, 0);
    free(c.out);
}
END_TEST

START_TEST(an_interrupted_read_is_tried_again)
{
    static const int errs[] = {EINTR, EAGAIN};
    for (int k = 0; k < 2; k++) {
        size_t n = 5000;
        compile_child c;
        start(&c, write_pattern, &n, 30, 0);
        read_fault_fd = c.fd;
        read_fault_errno = errs[k];
        compile_children_wait(&c, 1, 30);
        ck_assert_int_eq(read_fault_fd, -1);
        ck_assert_msg(c.len == n, "errno %d: %zu bytes", errs[k], c.len);
        ck_assert(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
        free(c.out);
    }
}
END_TEST

START_TEST(the_grader_short_of_memory_stops_the_child)
{
    /* No room for the buffer the output is read into: the child is stopped
     * and reaped, not left writing into a pipe nobody reads. */
    compile_child c;
    start(&c, some_then_wait, NULL, 30, 0);
    struct rlimit was, tight;
    getrlimit(RLIMIT_AS, &was);
    tight.rlim_cur = vm_size_now() + (256 << 10);
    tight.rlim_max = was.rlim_max;
    setrlimit(RLIMIT_AS, &tight);
    double t0 = now();
    compile_children_wait(&c, 1, 30);
    setrlimit(RLIMIT_AS, &was);
    ck_assert_msg(now() - t0 < 5, "the wait went on %.1f s", now() - t0);
    ck_assert_ptr_null(c.out);
    assert_killed(&c, SIGKILL);
    assert_reaped(&c);
}
END_TEST

START_TEST(no_descriptors_no_child)
{
    struct rlimit was, tight;
    getrlimit(RLIMIT_NOFILE, &was);
    tight.rlim_cur = (rlim_t)first_free_fd() + 1;     /* one descriptor, a pipe needs two */
    tight.rlim_max = was.rlim_max;
    setrlimit(RLIMIT_NOFILE, &tight);
    compile_child c;
    int rc = compile_child_start(&c, sleep_long, NULL, 1, 0);
    setrlimit(RLIMIT_NOFILE, &was);
    ck_assert_int_eq(rc, -1);
    ck_assert_int_eq(c.pid, 0);
    ck_assert_int_eq(c.fd, -1);
    ck_assert_msg(!strcmp(c.error, "pipe failed: Too many open files"), "%s", c.error);
    /* A child never started is passed over. */
    compile_children_wait(&c, 1, 1);
    ck_assert_int_eq(c.pid, 0);
    ck_assert_int_eq(c.timed_out, 0);
}
END_TEST

START_TEST(no_process_no_child)
{
    int before = open_fds();
    fork_fails = 1;
    compile_child c;
    int rc = compile_child_start(&c, sleep_long, NULL, 1, 0);
    ck_assert_int_eq(rc, -1);
    ck_assert_int_eq(fork_fails, 0);
    ck_assert_int_eq(c.pid, 0);
    ck_assert_int_eq(c.fd, -1);
    ck_assert_msg(!strcmp(c.error, "fork failed: Resource temporarily unavailable"), "%s",
                  c.error);
    ck_assert_int_eq(open_fds(), before);     /* the pipe is closed again */
}
END_TEST

START_TEST(a_started_child_is_a_clean_slate)
{
    /* Whatever the struct held before, a start sets every field anew. */
    compile_child c;
    memset(&c, 0x5a, sizeof c);
    size_t n = 10;
    start(&c, write_pattern, &n, 10, 0);
    ck_assert_int_eq(c.max_out, (size_t)256 << 20);     /* compile_child.h's bound */
    ck_assert_int_eq(c.len, 0);
    ck_assert_int_eq(c.timed_out, 0);
    ck_assert_int_eq(c.too_much, 0);
    ck_assert_ptr_null(c.out);
    compile_children_wait(&c, 1, 10);
    ck_assert_int_eq(c.len, n);
    free(c.out);
}
END_TEST

START_TEST(a_compile_without_a_process_says_so)
{
    /* Through the compile itself: the file is not at fault. */
    exercise ex = {.name = "fixture", .kernel = "fx_scale"};
    compile_job job = {.path = "tests/unit/fixtures/good.cu", .name = "mine/good.cu",
                       .ex = &ex, .kernel = "fx_scale", .cc = 90};
    compiled c;
    fork_fails = 1;
    compile_files(&job, 1, &c);
    ck_assert_int_eq(c.ok, 0);
    ck_assert_int_eq(c.outcome, OUT_INTERNAL);
    ck_assert_str_eq(c.error, "could not start the compiler process for mine/good.cu: fork "
                              "failed: Resource temporarily unavailable");
    ck_assert_ptr_null(c.log);
    compiled_free(&c);
}
END_TEST

/* Compiles run at most 8 at once, in batches: a batch is reaped before the
 * next starts (each batch has one deadline, and 8 NVRTCs of up to 2 GB each
 * is the peak memory the grader allows itself). */
START_TEST(compiles_run_eight_at_a_time)
{
    exercise ex = {.name = "fixture", .kernel = "fx_scale"};
    compile_job job[9];
    compiled c[9];
    for (int i = 0; i < 9; i++)
        job[i] = (compile_job){.path = "tests/unit/fixtures/good.cu", .name = "mine/good.cu",
                               .ex = &ex, .kernel = "fx_scale", .cc = 90};
    nforked = 0;
    counting_in = getpid();
    compile_files(job, 9, c);
    counting_in = 0;
    for (int i = 0; i < 9; i++) {
        ck_assert_msg(c[i].ok, "%s", c[i].error);
        compiled_free(&c[i]);
    }
    ck_assert_int_eq(nforked, 9);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(live_at[i], i);
    ck_assert_int_eq(live_at[8], 0);
}
END_TEST

Suite *compile_child_suite(void)
{
    Suite *s = suite_create("compile_child");
    TCase *tc = tcase_create("compile child");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, the_child_runs_under_its_limits);
    tcase_add_test(tc, no_memory_limit_leaves_the_address_space_alone);
    tcase_add_test(tc, the_memory_limit_stays_under_the_graders_own);
    tcase_add_test(tc, output_goes_to_dev_null_with_stdin_closed);
    tcase_add_test(tc, an_orphan_never_runs_its_body);
    tcase_add_test(tc, output_comes_back_whole);
    tcase_add_test(tc, exit_status_and_signal_are_kept);
    tcase_add_test(tc, many_children_at_once);
    tcase_add_test(tc, the_time_limit_kills_only_the_slow);
    tcase_add_test(tc, the_time_limit_kills_past_one_poll);
    tcase_add_test(tc, a_quick_child_before_sixteen_slow_is_not_timed_out);
    tcase_add_test(tc, a_poll_waits_just_past_the_deadline);
    tcase_add_test(tc, output_up_to_the_bound_is_kept);
    tcase_add_test(tc, output_past_the_bound_stops_the_child);
    tcase_add_test(tc, a_signal_does_not_cut_the_wait_short);
    tcase_add_test(tc, a_failed_poll_kills_and_reaps);
    tcase_add_test(tc, a_failed_poll_kills_past_one_poll);
    tcase_add_test(tc, a_read_error_kills_and_reaps);
    tcase_add_test(tc, an_interrupted_read_is_tried_again);
    tcase_add_test(tc, the_grader_short_of_memory_stops_the_child);
    tcase_add_test(tc, no_descriptors_no_child);
    tcase_add_test(tc, no_process_no_child);
    tcase_add_test(tc, a_started_child_is_a_clean_slate);
    tcase_add_test(tc, a_compile_without_a_process_says_so);
    tcase_add_test(tc, compiles_run_eight_at_a_time);
    suite_add_tcase(s, tc);
    return s;
}
