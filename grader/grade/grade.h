/* grade.h: grading one exercise, start to end. Runs in a child process (see
 * child.h); everything it learns goes into a `result`. */
#ifndef GRADER_GRADE_H
#define GRADER_GRADE_H

#include "result.h"

struct device_ops;

typedef struct grade_opts {
    const char *root;            /* the course's top folder */
    const char *student_dir;     /* "exercises", or "solutions" to grade the references */
    unsigned long long seed;
    double launch_timeout_s;     /* one launch longer than this is a hang */
    double time_budget_s;        /* timing rounds per exercise, roughly */
    int correctness_only;        /* no timing (e.g. under compute-sanitizer) */
    const struct device_ops *device; /* NULL: the GPU, through CUDA (device.h) */
    const ncu_evidence *ncu;     /* what Nsight Compute counted before grading; NULL: not
                                    run (make check NCU=1 runs it) */
} grade_opts;

/* Grade `ex` with knob values `knobs` into `r`. Runs in the child: returns
 * with the verdict in `r`, or ends the child through child_fail (a wrong
 * answer, a CUDA error, a hang) and the parent reads `r`. */
void grade_exercise(const exercise *ex, const int *knobs, const grade_opts *o, result *r);

/* The path of one version's file: <root>/<dir>/<ex->file>, and its kernel's
 * name (both differ for the solution when the spec names a `reference`). */
void variant_path(const exercise *ex, enum variant v, const grade_opts *o,
                  char *path, size_t len);
const char *variant_kernel(const exercise *ex, enum variant v);

/* A path as the student knows it: relative to the course's top. */
const char *shown_path(const char *path, const grade_opts *o);

/* The folder a student's file at `path` must really lie in, links resolved
 * (compile_job.within): the graded folder, so a link to solutions/ or /etc
 * is not the student's file. "" for a demo, which is the course's own. */
void student_folder(const exercise *ex, const char *path, char *dir, size_t len);

#endif
