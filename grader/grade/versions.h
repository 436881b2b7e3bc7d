/* versions.h: what every command grades with (grade_opts), and an
 * exercise's versions as grading sees them: where the baseline's, the
 * student's and the solution's files live, their kernels, and their names as
 * the student knows them. The types every part of grading shares, in a
 * header of their own so that compiling (compile_jobs.h), the reference
 * (reference.h) and the stages (grade.h) need not include each other. */
#ifndef GRADER_VERSIONS_H
#define GRADER_VERSIONS_H

#include <stddef.h>
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
    const struct device_ops *simulator; /* the PTX simulator: without a GPU, correctness
                                    runs on it (sim_correctness.h); with one, a WRONG or
                                    a hang runs on it too, for its note (sim_note.h);
                                    NULL: neither */
    const char *dump_outputs;    /* a folder: the student's output bytes of each
                                    correctness run go to <dir>/size<N>-seed<S>.bin, on
                                    the GPU and the simulator alike, to compare them bit
                                    for bit; NULL: none */
    int profile_sim_size;        /* profile-one: launch at the exercise's largest sim size,
                                    not its timing size, so the PTX simulator can run the
                                    same launch whole (tests/gpu/ncu-counts-run.sh) */
} grade_opts;

/* What every command grades with unless told otherwise: the course at ".",
 * the student's files in exercises/, one launch may take 10 s before it is a
 * hang ($GRADER_LAUNCH_TIMEOUT overrides it: under compute-sanitizer a launch
 * is far slower), and timing takes about 1.5 s per exercise. The one place
 * these defaults are written (check, class and references start from them). */
void grade_opts_defaults(grade_opts *o);

/* Seconds one exercise may take in its child, unless --timeout says
 * otherwise. */
#define GRADE_TIMEOUT_S 120

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
