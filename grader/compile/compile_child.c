/* compile_child.c: fork, limit, collect. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "compile_child.h"

/* More than any PTX and cubin of a kernel file; a child writing more is
 * stopped rather than letting it fill the grader's memory. */
#define MAX_OUTPUT ((size_t)256 << 20)

/* The address space this process already has (VmSize): the limit is set on
 * top of it, since a process holding a CUDA context has reserved a lot of
 * address space it never touches. */
static size_t current_vm_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %zu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb * 1024;
}

static void set_limits(double limit_s, size_t mem_bytes)
{
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    /* A second fuse, should the parent die before it can kill us. */
    rlim_t cpu = (rlim_t)ceil(limit_s) + 2;
    struct rlimit cpu_limit = {cpu, cpu + 1};
    setrlimit(RLIMIT_CPU, &cpu_limit);
    struct rlimit as;
    if (mem_bytes && getrlimit(RLIMIT_AS, &as) == 0) {
        /* Never above a limit the grader was started with. */
        rlim_t want = (rlim_t)(current_vm_bytes() + mem_bytes);
        if (as.rlim_max != RLIM_INFINITY && want > as.rlim_max)
            want = as.rlim_max;
        as.rlim_cur = as.rlim_max = want;
        setrlimit(RLIMIT_AS, &as);
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
}

int compile_child_start(compile_child *c, void (*body)(void *arg, int fd), void *arg,
                        double limit_s, size_t mem_bytes)
{
    memset(c, 0, sizeof *c);
    c->fd = -1;
    c->max_out = MAX_OUTPUT;
    int p[2];
    if (pipe(p) != 0) {
        snprintf(c->error, sizeof c->error, "pipe failed: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(c->error, sizeof c->error, "fork failed: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        /* What NVRTC prints on its way down ("LLVM ERROR: out of memory") is
         * not for the student: the parent says what happened. */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
            close(null);
        }
        set_limits(limit_s, mem_bytes);
        if (getppid() != parent)
            _exit(1);
        body(arg, p[1]);
        close(p[1]);
        _exit(0);
    }
    close(p[1]);
    c->pid = pid;
    c->fd = p[0];
    return 0;
}

static void finish(compile_child *c, int kill_it)
{
    if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    if (kill_it)
        kill(c->pid, SIGKILL);
    while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
        ;
}

/* Read what is there; 0 at the end of the child's output. */
static int drain(compile_child *c)
{
    if (c->len + 65536 > c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1 << 20;
        char *p = realloc(c->out, cap);
        if (!p)
            return -1;
        c->out = p;
        c->cap = cap;
    }
    ssize_t r = read(c->fd, c->out + c->len, c->cap - c->len);
    if (r < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : -1;
    c->len += (size_t)r;
    return r > 0;
}

int compile_poll_ms(double left_s)
{
    return (int)(left_s * 1000) + 1;
}

void compile_children_wait(compile_child *c, int n, double limit_s)
{
    double deadline = now_s() + limit_s;
    for (;;) {
        struct pollfd fds[16];
        int idx[16], m = 0;
        for (int i = 0; i < n && m < 16; i++)
            if (c[i].pid && c[i].fd >= 0) {
                fds[m] = (struct pollfd){.fd = c[i].fd, .events = POLLIN};
                idx[m++] = i;
            }
        if (m == 0)
            return;
        double left = deadline - now_s();
        if (left <= 0) {
            for (int k = 0; k < m; k++) {
                c[idx[k]].timed_out = 1;
                finish(&c[idx[k]], 1);
            }
            continue;   /* one poll holds 16: the next round has the rest, or none */
        }
        int r = poll(fds, (nfds_t)m, compile_poll_ms(left));
        if (r < 0 && errno != EINTR) {
            for (int k = 0; k < m; k++)
                finish(&c[idx[k]], 1);
            continue;   /* as above: the rest, if more than 16 */
        }
        for (int k = 0; k < m && r > 0; k++) {
            if (!fds[k].revents)
                continue;
            compile_child *ch = &c[idx[k]];
            int more = drain(ch);
            if (more > 0 && ch->len > ch->max_out) {
                ch->too_much = 1;
                finish(ch, 1);
            } else if (more <= 0) {
                finish(ch, more < 0);
            }
        }
    }
}
