/* class_progress.c: how far a class run is, for the instructor watching it:
 * students done, how many failed (an exercise not passed, or not graded),
 * and an estimate of the time left from the students graded so far. On a
 * terminal it is one line on stderr, rewritten in place; otherwise a plain
 * line each time a student is done, so a log reads top to bottom. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "class.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int failed(const class_student *st)
{
    if (!class_graded(st) || st->error[0] || !st->nfound)
        return 1;
    for (int i = 0; i < st->counted; i++)
        if (class_counts_as_failure(st->cell[i].outcome))
            return 1;
    return 0;
}

void class_progress_row(class_run *run, const class_student *st)
{
    class_queue *q = run->q;
    __atomic_fetch_add(&q->failed, failed(st), __ATOMIC_SEQ_CST);
    if (class_graded(st) && !st->cached) {
        __atomic_fetch_add(&q->graded, 1, __ATOMIC_SEQ_CST);
        __atomic_fetch_add(&q->graded_ms, (long)(st->seconds * 1000), __ATOMIC_SEQ_CST);
    }
    __atomic_fetch_add(&q->done, 1, __ATOMIC_SEQ_CST);
    if (!run->worker)
        class_progress_show(run, 0);
}

static void left_text(const class_run *run, int done, char *buf, size_t len)
{
    class_queue *q = run->q;
    int graded = __atomic_load_n(&q->graded, __ATOMIC_SEQ_CST);
    long ms = __atomic_load_n(&q->graded_ms, __ATOMIC_SEQ_CST);
    int workers = run->ngpus > 0 ? run->ngpus : 1, left = run->nst - done;
    if (!graded || !left) {
        snprintf(buf, len, left ? "time left: not known yet" : "none left");
        return;
    }
    /* Unchanged students take no time: this overestimates when many are. */
    double s = ms / 1000.0 / graded * left / workers;
    if (s < 90)
        snprintf(buf, len, "about %.0f s left", s);
    else if (s < 5400)
        snprintf(buf, len, "about %.0f min left", s / 60);
    else
        snprintf(buf, len, "about %.1f h left", s / 3600);
}

void class_progress_show(class_run *run, int final)
{
    static int shown = -1;
    int done = __atomic_load_n(&run->q->done, __ATOMIC_SEQ_CST);
    if (done == shown && !final)
        return;
    shown = done;
    char left[64];
    left_text(run, done, left, sizeof left);
    int bad = __atomic_load_n(&run->q->failed, __ATOMIC_SEQ_CST);
    double took = now_s() - run->started;
    if (run->tty)
        fprintf(stderr, "\r\033[K");
    if (!run->tty || !final)
        fprintf(stderr, "progress: %d of %d students done, %d failed, %s (%.0f s so far)%s",
                done, run->nst, bad, left, took, run->tty ? "" : "\n");
    fflush(stderr);
}
