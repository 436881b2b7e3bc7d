/* cmd_watch.c: `grader watch` (make watch lessonN): grade the selection
 * once, then again each time one of its files is saved, only the saved ones
 * (watch.c waits for the saves). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

typedef struct watch_ctx {
    options *o;
    const exercise **sel;      /* graded on the first round */
    int n;
    const exercise **watched;  /* one per watched file */
    char (*paths)[1024];
    int nwatched;
    int round;
} watch_ctx;

static void watch_round(void *arg, const int *changed)
{
    watch_ctx *w = arg;
    const exercise *now[MAX_SELECTED];
    int m = 0;
    if (w->round++ == 0) {
        memcpy(now, w->sel, (size_t)w->n * sizeof *now);
        m = w->n;
    } else {
        for (int i = 0; i < w->nwatched; i++)
            if (changed[i])
                now[m++] = w->watched[i];
    }
    if (isatty(fileno(stdout)))
        printf("\033[H\033[2J\033[3J");
    time_t t = time(NULL);
    char when[16];
    strftime(when, sizeof when, "%H:%M:%S", localtime(&t));
    printf("make watch, %s: grading ", when);
    for (int i = 0; i < m; i++)
        printf("%slesson%d/%s", i ? ", " : "", now[i]->lesson, now[i]->name);
    printf("%s\n\n", w->round == 1 ? "" : " (saved)");
    fflush(stdout);
    check_selection(w->o, now, m);
    char line[4096];
    int at = snprintf(line, sizeof line, "Watching %d file%s (", w->nwatched,
                      w->nwatched == 1 ? "" : "s");
    for (int i = 0; i < w->nwatched && i < 3 && at < (int)sizeof line; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, "%s%s", i ? ", " : "", w->paths[i]);
    if (at < (int)sizeof line)
        snprintf(line + at, sizeof line - (size_t)at, "%s). Save one to grade it again; "
                 "Ctrl-C stops.", w->nwatched > 3 ? ", ..." : "");
    printf("\n");
    print_paragraph(stdout, line, "");
}

int cmd_watch(options *o)
{
    static const exercise *sel[MAX_SELECTED], *watched[MAX_SELECTED];
    static char paths[MAX_SELECTED][1024];
    int n = select_checked(o, sel), nw = 0;
    if (n < 0)
        return EXIT_USAGE;
    /* The student's files only: demos are the course's, and never change. */
    for (int i = 0; i < n && nw < 64; i++)
        if (!sel[i]->demo) {
            watched[nw] = sel[i];
            variant_path(sel[i], V_STUDENT, &o->g, paths[nw], sizeof paths[nw]);
            nw++;
        }
    const char *list[64];
    for (int i = 0; i < nw; i++)
        list[i] = paths[i];
    watch_ctx w = {.o = o, .sel = sel, .n = n, .watched = watched, .paths = paths,
                   .nwatched = nw};
    if (watch_files(list, nw, &o->watch, watch_round, &w) != 0) {
        fprintf(stderr, "grader: nothing to watch: no exercise file among those selected "
                "(at most 64)\n");
        return EXIT_USAGE;
    }
    return EXIT_PASSED;
}
