/* class_guard.c: what keeps a class run from harming the next one: one run
 * per output folder at a time (a lock), and no student's sources left in
 * $TMPDIR when it ends, even by SIGINT, SIGTERM or SIGHUP. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "class.h"

int class_lock(const char *out, int shared)
{
    return class_lock_as(out, shared, 0);
}

int class_lock_as(const char *out, int shared, int wait)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/.lock", out);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    int r;
    while ((r = flock(fd, (shared ? LOCK_SH : LOCK_EX) | (wait ? 0 : LOCK_NB))) != 0 &&
           errno == EINTR)
        ;
    if (r != 0) {
        int e = errno;
        char who[64] = "";
        ssize_t n = pread(fd, who, sizeof who - 1, 0);
        who[n > 0 ? n : 0] = 0;
        who[strcspn(who, "\n")] = 0;
        close(fd);
        if (e == EWOULDBLOCK) {
            fprintf(stderr, "grader class: %s is in use by another grading run%s%s%s. Wait for "
                    "it to end, or give this run another output folder (CLASS_OUT=dir).\n", out,
                    who[0] ? " (" : "", who, who[0] ? ")" : "");
            errno = EWOULDBLOCK;
        } else
            errno = e;
        return -1;
    }
    if (!shared) {
        char me[64];
        int n = snprintf(me, sizeof me, "pid %ld\n", (long)getpid());
        if (ftruncate(fd, 0) != 0 || pwrite(fd, me, (size_t)n, 0) != n)
            fprintf(stderr, "grader class: could not note this run in %s\n", path);
    }
    return fd;                 /* held until the process ends */
}

/* What the signal handler removes: files first, then their folders, deepest
 * first. Written before each staging, read only by the handler. */
#define STAGED_MAX (2 * SUB_MAX_EX + 4)
static char staged[STAGED_MAX][4200];
static volatile sig_atomic_t nstaged;
static pid_t owner;

void class_guard_staged(const submission *sub, const char *stage, const char *tmproot)
{
    int n = 0;
    nstaged = 0;
    for (int i = 0; i < sub->nex && n + 2 < STAGED_MAX; i++) {
        const char *file = sub->ex[i]->file, *slash = strchr(file, '/');
        snprintf(staged[n++], sizeof staged[0], "%s/%s", stage, file);
        if (slash)
            snprintf(staged[n++], sizeof staged[0], "%s/%.*s", stage, (int)(slash - file), file);
    }
    snprintf(staged[n++], sizeof staged[0], "%s", stage);
    snprintf(staged[n++], sizeof staged[0], "%s", tmproot);
    nstaged = n;
}

static pid_t kids[CLASS_MAX_GPUS];
static volatile sig_atomic_t nkids;

static void remove_staged(void)
{
    if (getpid() != owner)
        return;
    for (int i = 0; i < nstaged; i++)
        if (unlink(staged[i]) != 0)
            rmdir(staged[i]);
}

static void on_signal(int sig)
{
    /* Only the run itself: a grading child shares this handler, and must not
     * remove the files its siblings will compile. unlink, rmdir, signal and
     * raise are async-signal-safe. */
    if (getpid() == owner) {
        for (int i = 0; i < nkids; i++)
            if (kids[i] > 0)
                kill(kids[i], sig);
        for (int i = 0; i < nstaged; i++)
            if (unlink(staged[i]) != 0)
                rmdir(staged[i]);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void class_guard_signals(void)
{
    /* NVRTC puts its own SIGINT/SIGTERM handler in place while it compiles
     * (in this process when there is no GPU), and that one calls exit(4):
     * exit's handlers still remove the staged files. */
    static int registered;
    if (!registered++)
        atexit(remove_staged);
    owner = getpid();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, NULL);
}

/* Workers to pass a signal on to (the run's own process only). */
void class_guard_children(const pid_t *pids, int n)
{
    nkids = 0;
    for (int i = 0; i < n && i < CLASS_MAX_GPUS; i++)
        kids[i] = pids[i];
    nkids = n < CLASS_MAX_GPUS ? n : CLASS_MAX_GPUS;
}

int class_guard_nchildren(void)
{
    return nkids;
}
