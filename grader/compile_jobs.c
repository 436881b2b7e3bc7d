/* compile_jobs.c: an exercise's compile jobs, the same for every command
 * (compile_jobs.h). */
#include <string.h>
#include "compile_jobs.h"

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
