/* compile_jobs.c: an exercise's compile jobs, the same for every command
 * (compile_jobs.h). */
#include <string.h>
#include "compile_jobs.h"
#include "reference.h"

int exercise_jobs_make(exercise_jobs *J, const exercise *ex, const int *knobs,
                       const grade_opts *o, int cc, unsigned which)
{
    memset(J, 0, sizeof *J);
    for (int v = 0; v < N_VARIANTS; v++) {
        if (!(which & (1u << v)))
            continue;
        int i = J->n++;
        variant_path(ex, (enum variant)v, o, J->path[i], sizeof J->path[i]);
        J->variant[i] = (enum variant)v;
        J->job[i] = (compile_job){
            .path = J->path[i],
            .name = shown_path(J->path[i], o),
            .ex = ex,
            .kernel = variant_kernel(ex, (enum variant)v),
            .knobs = knobs,
            .cc = cc,
        };
        if (v != V_STUDENT)
            continue;
        /* The student's file may not lead out of the student's folder. */
        student_folder(ex, J->path[i], J->folder, sizeof J->folder);
        J->job[i].within = J->folder[0] ? J->folder : NULL;
    }
    return J->n;
}

int exercise_jobs_find(const exercise_jobs *J, enum variant v)
{
    for (int i = 0; i < J->n; i++)
        if (J->variant[i] == v)
            return i;
    return -1;
}

/* The reference of a student copy into *c: its PTX, or at knobs it was not
 * compiled for the baseline, compiled as every command compiles it. c->ok
 * is 0 when neither can be had. */
static void copied_reference(const exercise *ex, const int *knobs, const grade_opts *o, int cc,
                             compile_fn compile, compiled *c, const char **kernel, char *note,
                             size_t len)
{
    int r = reference_load(ex, knobs, o, c, kernel, note, len);
    if (r == 1) {
        exercise_jobs J;
        exercise_jobs_make(&J, ex, knobs, o, cc, JOB_BASELINE);
        compile(J.job, J.n, c);
    }
    if (r < 0)
        c->ok = 0;
}

int exercise_compile(const exercise *ex, const int *knobs, const grade_opts *o, int cc,
                     compile_fn compile, unsigned which, compiled c[N_VARIANTS],
                     const char *kernel[N_VARIANTS], char *note, size_t len)
{
    exercise_jobs J;
    compiled out[N_VARIANTS];
    int copy = (which & JOB_SOLUTION) && reference_is_compiled(o);
    memset(c, 0, N_VARIANTS * sizeof *c);
    note[0] = 0;
    exercise_jobs_make(&J, ex, knobs, o, cc, copy ? which & ~JOB_SOLUTION : which);
    compile(J.job, J.n, out);
    for (int v = 0; v < N_VARIANTS; v++)
        kernel[v] = which & (1u << v) ? variant_kernel(ex, (enum variant)v) : NULL;
    for (int j = 0; j < J.n; j++)
        c[J.variant[j]] = out[j];
    /* A student copy: no solutions/, the reference comes compiled; at
     * knobs it was not compiled for, the baseline stands in. */
    if (copy)
        copied_reference(ex, knobs, o, cc, compile, &c[V_SOLUTION], &kernel[V_SOLUTION], note,
                         len);
    /* A course file that does not build comes first: then nothing the
     * student does can be graded. */
    static const enum variant order[N_VARIANTS] = {V_BASELINE, V_SOLUTION, V_STUDENT};
    for (int k = 0; k < N_VARIANTS; k++)
        if ((which & (1u << order[k])) && !c[order[k]].ok)
            return order[k];
    return -1;
}
