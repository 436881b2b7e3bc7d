/* few_fds.h: a forked child left with few file descriptors, for the tests
 * of what the grader does when it cannot open /dev/urandom (test_commands.c,
 * test_class_run.c). */
#ifndef TESTS_UNIT_FEW_FDS_H
#define TESTS_UNIT_FEW_FDS_H

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

/* In a forked child: stdout and stderr to /dev/null, and room for `spare`
 * more descriptors (RLIMIT_NOFILE just past the lowest free one). 0, or -1
 * when the limit could not be set. */
static inline int leave_few_descriptors(int spare)
{
    int quiet = open("/dev/null", O_WRONLY);
    dup2(quiet, 1);
    dup2(quiet, 2);
    close(quiet);
    int lowest = open("/dev/null", O_RDONLY);   /* the next descriptor open would take */
    close(lowest);
    rlim_t cap = (rlim_t)lowest + (rlim_t)spare;
    struct rlimit fds = {.rlim_cur = cap, .rlim_max = cap};
    return lowest < 3 || setrlimit(RLIMIT_NOFILE, &fds) != 0 ? -1 : 0;
}

#endif
