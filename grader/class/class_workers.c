/* class_workers.c: a class graded on every GPU of a host. One worker
 * process per GPU, pinned to it by CUDA_VISIBLE_DEVICES before anything in
 * it touches CUDA, takes the next row from a queue the workers share
 * (memory mapped before the fork; an atomic counter), and grades it exactly
 * as a run on one GPU does: each exercise in its own child, which times the
 * baseline, the student's kernel and the reference one after the other on
 * that same GPU, so a speedup never mixes two GPUs. The rows live in the
 * same shared memory, so the process that started the workers writes the
 * class files from them when all have ended. */
#include <cuda_runtime_api.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "class.h"

/* The child's answer: "<count> <cc> <name>". */
static void probe_child(int fd, const class_hooks *h)
{
    int n = 0;
    struct cudaDeviceProp prop;
    char line[200] = "0 0 ";
    if (h->probe_answer)
        h->probe_answer(line, sizeof line);
    else if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0 &&
             cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
        snprintf(line, sizeof line, "%d %d %.128s", n, prop.major * 10 + prop.minor, prop.name);
    ssize_t w = write(fd, line, strlen(line));
    (void)w;
    _exit(0);
}

void class_probe_gpu(class_run *run, const class_hooks *h, int *count)
{
    int p[2];
    run->gpu[0] = 0;
    run->cc = 0;
    if (count)
        *count = 0;
    if (h->probe) {
        h->probe(run->gpu, sizeof run->gpu, &run->cc);
        if (count)
            *count = run->gpu[0] ? 1 : 0;
        return;
    }
    if (pipe(p) != 0)
        return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        probe_child(p[1], h);
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return;
    }
    char buf[256] = "";
    struct pollfd pf = {.fd = p[0], .events = POLLIN};
    ssize_t n = poll(&pf, 1, 60000) > 0 ? read(p[0], buf, sizeof buf - 1) : -1;
    close(p[0]);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    int devices = 0, cc = 0, at = 0;
    if (n <= 0 || (buf[n] = 0, sscanf(buf, "%d %d %n", &devices, &cc, &at) < 2))
        return;
    if (devices > 0) {
        run->cc = cc;
        snprintf(run->gpu, sizeof run->gpu, "%s", buf + at);
    }
    if (count)
        *count = devices;
}

int class_parse_gpus(class_run *run, const class_hooks *h, const char *spec)
{
    run->ngpus = 0;
    if (!strcmp(spec, "all")) {
        int n = 0;
        class_probe_gpu(run, h, &n);
        for (int i = 0; i < n && i < CLASS_MAX_GPUS; i++)
            run->gpus[run->ngpus++] = i;
        if (!n)                /* no GPU: one worker, which compiles and checks */
            run->gpus[run->ngpus++] = 0;
        return 0;
    }
    for (const char *p = spec; *p;) {
        char *end;
        long id = strtol(p, &end, 10);
        if (end == p || id < 0 || id > 1024 || (*end && *end != ',') ||
            run->ngpus == CLASS_MAX_GPUS) {
            fprintf(stderr, "grader class: --gpus takes all or device numbers such as 0,1,3; "
                    "got '%s'\n", spec);
            return -1;
        }
        for (int k = 0; k < run->ngpus; k++)
            if (run->gpus[k] == id) {
                fprintf(stderr, "grader class: --gpus names device %ld twice\n", id);
                return -1;
            }
        run->gpus[run->ngpus++] = (int)id;
        p = *end ? end + 1 : end;
    }
    return run->ngpus ? 0 : -1;
}

static pid_t spawn(class_run *run, const class_hooks *h, int k,
                   int (*body)(class_run *, const class_hooks *, void *), void *arg)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    char dev[16];
    snprintf(dev, sizeof dev, "%d", run->gpus[k]);
    setenv("CUDA_VISIBLE_DEVICES", dev, 1);
    run->worker = 1 + k;
    class_guard_signals();     /* this worker's own staging */
    class_probe_gpu(run, h, NULL);
    run->gpu_index = run->gpu[0] ? run->gpus[k] : -1;
    int rc = body(run, h, arg);
    fflush(NULL);
    _exit(rc ? 1 : 0);
}

int class_workers_run(class_run *run, const class_hooks *h,
                      int (*body)(class_run *, const class_hooks *, void *), void *arg)
{
    pid_t pids[CLASS_MAX_GPUS];
    int alive = 0, rc = 0;
    fflush(NULL);
    for (int k = 0; k < run->ngpus; k++) {
        pids[k] = spawn(run, h, k, body, arg);
        if (pids[k] < 0) {
            fprintf(stderr, "grader class: cannot start the worker for GPU %d: %s\n",
                    run->gpus[k], strerror(errno));
            rc = -1;
            continue;
        }
        alive++;
    }
    class_guard_children(pids, run->ngpus);
    while (alive > 0) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid < 0 && errno != EINTR)
            break;
        if (pid <= 0) {
            class_progress_show(run, 0);
            usleep(200 * 1000);
            continue;
        }
        for (int k = 0; k < run->ngpus; k++)
            if (pids[k] == pid) {
                alive--;
                if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                    fprintf(stderr, "grader class: the worker for GPU %d ended badly (%s %d); "
                            "its unfinished students are marked not graded\n", run->gpus[k],
                            WIFEXITED(status) ? "status" : "signal",
                            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
                    rc = -1;
                }
            }
    }
    class_guard_children(NULL, 0);
    return rc;
}
