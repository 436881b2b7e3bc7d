/* sim_sample_time.c: what the sampled run of the timed launch
 * (grader/grade/sim_sample.h) adds to a GPU grading, measured on the CPU.
 *
 * `make check lessonN --no-gpu` runs the simulator at the small sim sizes,
 * never at the timed size, so it cannot show this. For every exercise of
 * every lesson (or those named), this builds timing input set 1 and 2 at the
 * timed size from the grading seed, compiles the reference solution for
 * sm_90, and runs exactly what a GPU grading runs after its timed launches
 * (sample_timed_launch, in a child of its own, on the PTX simulator), then
 * prints one line per exercise:
 *   lesson  exercise  grid_blocks  sampled  seconds  verdict  the blocks
 * seconds: the sampled run's whole wall time, its child's start, the
 * carve and fill of the timing sets' allocation and the launches included.
 *
 *   make build/tests/sim_sample_time && build/tests/sim_sample_time [SEED [LESSON...]]
 *   STUDENT_DIR=exercises build/tests/sim_sample_time 3     (the stubs; any folder)
 *
 * Needs no GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calibration.h"
#include "child.h"
#include "clock.h"
#include "compile.h"
#include "compile_jobs.h"
#include "device_host.h"
#include "device_sim.h"
#include "grade_internal.h"
#include "knobs.h"
#include "nogpu.h"

struct job {
    const exercise *ex;
    const int *knobs;
    const grade_opts *o;
    const compiled *c;
};

/* As a GPU grading's child after its timed launches: the timing sets'
 * instances, then the sampled run. */
static void body(void *arg, result *r)
{
    const struct job *j = arg;
    static grade_ctx g;
    static timing_sets T;
    memset(&g, 0, sizeof g);
    memset(&T, 0, sizeof T);
    g.ex = j->ex;
    g.knobs = j->knobs;
    g.o = j->o;
    g.D = &device_host;            /* the "GPU": only told apart from the simulator */
    g.r = r;
    g_result = r;
    r->seed = j->o->seed;
    calibration_device(&g.dev);    /* an H100, cc 9.0: the compiled PTX is sm_90's */
    for (int s = 0; s < N_SETS; s++)
        build_instance(&g, &T.I[s], j->ex->time_size, r->seed + 1000 + (unsigned)s);
    double t0 = now_s();
    sample_timed_launch(&g, j->c, &T);
    snprintf(r->message, sizeof r->message, "%.2f", now_s() - t0);
    r->outcome = OUT_PASS;
}

int main(int argc, char **argv)
{
    grade_opts o;
    grade_opts_defaults(&o);
    o.student_dir = getenv("STUDENT_DIR") ? getenv("STUDENT_DIR") : "solutions";
    o.seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 3;
    o.simulator = &device_sim;
    printf("lesson\texercise\tgrid_blocks\tsampled\tseconds\tverdict\tblocks\n");
    for (int l = 0; l < N_LESSONS; l++) {
        int want = argc <= 2;
        for (int a = 2; a < argc; a++)
            want |= atoi(argv[a]) == l;
        for (int e = 0; want && lesson_exercises[l][e]; e++) {
            const exercise *ex = lesson_exercises[l][e];
            int knobs[MAX_KNOBS];
            knob_defaults(ex, knobs);
            exercise_jobs J;
            exercise_jobs_make(&J, ex, knobs, &o, NO_GPU_CC, JOB_STUDENT);
            static compiled c;
            compile_files(J.job, J.n, &c);
            if (!c.ok) {
                printf("%d\t%s\t-\t-\t-\tCOMPILE\t%s\n", l, ex->name, c.error);
                continue;
            }
            struct job j = {.ex = ex, .knobs = knobs, .o = &o, .c = &c};
            static result r;
            run_in_child(body, &j, 600, &r);
            instance I;
            device_facts dev;
            calibration_device(&dev);
            instance_build(&I, ex, ex->time_size, knobs, &dev, 1);
            printf("%d\t%s\t%u\t%s\t%s\t%s\t%s\n", l, ex->name,
                   I.grid[0] * I.grid[1] * I.grid[2], r.sampled, r.outcome == OUT_PASS ?
                   r.message : "-", outcome_word(r.outcome), r.sim_note[0] ? r.sim_note :
                   r.outcome == OUT_PASS ? "" : r.message);
            fflush(stdout);
            instance_free(&I);
            compiled_free(&c);
        }
    }
    return 0;
}
