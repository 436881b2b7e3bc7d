/* watch.h: grading again whenever one of the watched files is saved
 * (make watch lessonN). Linux's inotify wakes it where it works; elsewhere
 * it polls the files' modification times twice a second. Either way a save
 * is recognised by the file's size, modification time or inode changing, so
 * editors that write in place and editors that write a new file and rename
 * it are both seen. */
#ifndef GRADER_WATCH_H
#define GRADER_WATCH_H

typedef struct watch_opts {
    int rounds;             /* stop after this many gradings (tests); 0: until Ctrl-C */
    int poll;               /* 1: poll even where inotify works (tests) */
    void (*sleep_ms)(int ms); /* how to wait ms milliseconds; NULL: nanosleep
                               * (tests: a function that notes the waits) */
} watch_opts;

/* Called once at the start with every changed[i] = 1, then after each save
 * with changed[i] = 1 for the files that changed. */
typedef void (*watch_grade_fn)(void *ctx, const int *changed);

/* Watch files paths[0..n) (up to 64; they need not exist yet) and call
 * `grade` as above. Returns 0 after o->rounds gradings; on Ctrl-C (SIGINT)
 * or SIGTERM it prints "Stopped watching." and exits the process with
 * status 0 at once, even mid-grading (grading children die with it: see
 * child.c). Returns -1 when there is nothing to watch. */
int watch_files(const char *const *paths, int n, const watch_opts *o, watch_grade_fn grade,
                void *ctx);

#endif
