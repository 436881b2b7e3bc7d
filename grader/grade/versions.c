/* versions.c: where an exercise's versions live and what they are called
 * (versions.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "versions.h"

void grade_opts_defaults(grade_opts *o)
{
    memset(o, 0, sizeof *o);
    o->root = ".";
    o->student_dir = "exercises";
    o->launch_timeout_s = 10;
    o->time_budget_s = 1.5;
    const char *t = getenv("GRADER_LAUNCH_TIMEOUT");
    if (t && atof(t) > 0)
        o->launch_timeout_s = atof(t);
}

void variant_path(const exercise *ex, enum variant v, const grade_opts *o,
                  char *path, size_t len)
{
    const char *dir = v == V_BASELINE ? "grader/baselines"
                    : v == V_SOLUTION ? "solutions"
                    : ex->demo ? "grader/demos"
                    : o->student_dir;
    const char *file = v == V_SOLUTION && ex->reference ? ex->reference : ex->file;
    /* Relative to the course's top, as the student knows the file; a
     * folder given by its full path stays as given. */
    if (!strcmp(o->root, ".") || dir[0] == '/')
        snprintf(path, len, "%s/%s", dir, file);
    else
        snprintf(path, len, "%s/%s/%s", o->root, dir, file);
}

const char *variant_kernel(const exercise *ex, enum variant v)
{
    return v == V_SOLUTION && ex->reference_kernel ? ex->reference_kernel : ex->kernel;
}

const char *shown_path(const char *path, const grade_opts *o)
{
    size_t n = strlen(o->root);
    if (strncmp(path, o->root, n) == 0 && path[n] == '/')
        return path + n + 1;
    return path;
}

void student_folder(const exercise *ex, const char *path, char *dir, size_t len)
{
    size_t n = strlen(path), f = strlen(ex->file);
    dir[0] = 0;
    if (!ex->demo && n > f)
        snprintf(dir, len, "%.*s", (int)(n - f - 1), path);
}
