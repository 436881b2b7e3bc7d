/* cmd_progress.c: `grader progress` (make progress): the course map from
 * the student's progress file (report/progress.c reads and prints it). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "progress.h"

int cmd_progress(const options *o)
{
    if (!o->progress) {
        fprintf(stderr, "grader: progress needs --progress FILE (make progress passes it)\n");
        return EXIT_USAGE;
    }
    progress p;
    if (progress_load(o->progress, &p) != 0) {
        fprintf(stderr, "grader: could not read %s: %s\n", o->progress, strerror(errno));
        return EXIT_FAILED;
    }
    progress_print(stdout, &p, o->g.student_dir, want_color(stdout), report_width(stdout));
    if (p.n == 0)
        printf("\nNothing recorded in %s yet: every make check of your exercises adds to "
               "it.\n", o->progress);
    progress_free(&p);
    return EXIT_PASSED;
}
