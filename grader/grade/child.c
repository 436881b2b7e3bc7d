/* child.c: fork, watch, collect. The child's failure path is core/child_fail.c. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "child.h"
#include "clock.h"
#include "diagnose.h"

static void died(result *r, int status, double timeout_s, int timed_out)
{
    const char *stage = r->stage[0] ? r->stage : "starting";
    if (timed_out) {
        r->outcome = r->stopped = OUT_HANG;
        snprintf(r->message, sizeof r->message,
                 "Grading did not finish within %.0f s; it was %s. If that is your kernel "
                 "running, it probably never ends. %s", timeout_s, stage,
                 diagnose_hang(r->diags));
        return;
    }
    if (WIFSIGNALED(status)) {
        r->outcome = r->stopped = OUT_CRASH;
        snprintf(r->message, sizeof r->message,
                 "The grading process died from signal %d (%s) while %s. Run it again with "
                 "SANITIZE=1 to look for bad memory accesses.", WTERMSIG(status),
                 strsignal(WTERMSIG(status)), stage);
        return;
    }
    if (r->outcome == OUT_NOT_RUN) {
        r->outcome = r->stopped = OUT_INTERNAL;
        snprintf(r->message, sizeof r->message,
                 "The grading process exited (status %d) without a result while %s.",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, stage);
    }
}

void run_in_child(void (*body)(void *arg, result *r), void *arg, double timeout_s,
                  result *out)
{
    result *r = mmap(NULL, sizeof *r, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                     -1, 0);
    memset(out, 0, sizeof *out);
    if (r == MAP_FAILED) {
        out->outcome = OUT_INTERNAL;
        snprintf(out->message, sizeof out->message, "mmap failed: %s", strerror(errno));
        return;
    }
    memset(r, 0, sizeof *r);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        out->outcome = OUT_INTERNAL;
        snprintf(out->message, sizeof out->message, "fork failed: %s", strerror(errno));
        munmap(r, sizeof *r);
        return;
    }
    if (pid == 0) {
        /* Its own process group, so a timeout kills anything it started. */
        setpgid(0, 0);
        /* Which also keeps it out of reach of the terminal's Ctrl-C: have it
         * die with the parent instead (make watch, or make check stopped). */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
        body(arg, r);
        _exit(0);
    }
    setpgid(pid, pid);
    double start = now_s();
    int status = 0, timed_out = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            break;
        if (now_s() - start > timeout_s) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            timed_out = 1;
            break;
        }
        usleep(20000);
    }
    if (timed_out || WIFSIGNALED(status) || r->outcome == OUT_NOT_RUN)
        died(r, status, timeout_s, timed_out);
    *out = *r;
    munmap(r, sizeof *r);
}

struct grade_args {
    const exercise *ex;
    const int *knobs;
    const grade_opts *o;
};

static void grade_body(void *arg, result *r)
{
    const struct grade_args *a = arg;
    grade_exercise(a->ex, a->knobs, a->o, r);
}

void grade_in_child(const exercise *ex, const int *knobs, const grade_opts *o,
                    double timeout_s, result *out)
{
    struct grade_args a = {.ex = ex, .knobs = knobs, .o = o};
    run_in_child(grade_body, &a, timeout_s, out);
}
