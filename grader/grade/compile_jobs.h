/* compile_jobs.h: the one place an exercise's compile jobs are made.
 *
 * Invariants: every command that compiles an exercise's files (check on a
 * GPU or without one, static, profile, references, class) asks
 * exercise_jobs_make for them, so every student-file rule applies the same
 * on each: the student's file must really lie in its folder, links resolved
 * (compile_job.within: a link to solutions/ or /etc is not the student's
 * file), and every file is named as the student knows it (shown_path), in
 * every message. The rules compile.c applies to every job (a regular file,
 * at most 4 MB, toolkit headers only, no writable device state, resources
 * within what a GPU gives) then hold for the student's file whichever
 * command compiles it. */
#ifndef GRADER_COMPILE_JOBS_H
#define GRADER_COMPILE_JOBS_H

#include "compile.h"
#include "versions.h"

/* Which versions a command compiles: a bit per enum variant. */
#define JOB_BASELINE (1u << V_BASELINE)
#define JOB_STUDENT (1u << V_STUDENT)
#define JOB_SOLUTION (1u << V_SOLUTION)
#define JOB_ALL (JOB_BASELINE | JOB_STUDENT | JOB_SOLUTION)

/* An exercise's jobs, in variant order (baseline, student, solution, those
 * asked for). The jobs point into this struct: do not copy it while they
 * are in use. */
typedef struct exercise_jobs {
    int n;
    compile_job job[N_VARIANTS];
    enum variant variant[N_VARIANTS];   /* job[i] compiles this version */
    char path[N_VARIANTS][1024];        /* as variant_path gives it */
    char folder[1024];                  /* the student's folder ("" for a demo) */
} exercise_jobs;

/* Fill J with the jobs of ex's versions in `which` (JOB_*), at `knobs`, for
 * compute capability `cc`, under o's root and student folder. Returns J->n. */
int exercise_jobs_make(exercise_jobs *J, const exercise *ex, const int *knobs,
                       const grade_opts *o, int cc, unsigned which);

/* The index in J of version v's job, or -1 when J does not compile it. */
int exercise_jobs_find(const exercise_jobs *J, enum variant v);

/* Compile ex's versions in `which` at once with `compile` (compile_files,
 * or a device backend's), each by its exercise_jobs_make job, into c[v];
 * kernel[v] gets the entry point to load (versions not asked for: c[v]
 * zeroed, kernel[v] NULL). In a student copy (no solutions/) the reference
 * is its PTX (reference_load), and `note` says when the baseline had to
 * stand in for it ("" otherwise). Returns a version that did not build
 * (c[v].error says why), the course's own (baseline, reference) before the
 * student's, or -1 when all did. */
int exercise_compile(const exercise *ex, const int *knobs, const grade_opts *o, int cc,
                     compile_fn compile, unsigned which, compiled c[N_VARIANTS],
                     const char *kernel[N_VARIANTS], char *note, size_t len);

#endif
