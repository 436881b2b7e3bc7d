/* sim_note.c: the simulator's word on a kernel the GPU found WRONG or hung
 * (sim_note.h). */
#include <stdio.h>
#include <string.h>
#include "child.h"
#include "compile.h"
#include "compile_jobs.h"
#include "device.h"
#include "nogpu.h"
#include "sim_correctness.h"
#include "sim_note.h"

/* What the simulator's run sr says about r's failure, into r->sim_note:
 * a race by its two lines, or where it hangs; nothing otherwise. */
static void note_of(const result *sr, result *r)
{
    if (sr->outcome == OUT_RACE)
        snprintf(r->sim_note, sizeof r->sim_note, "On the PTX simulator, which orders "
                 "every access the same way on every run, your kernel has a race: %.400s. "
                 "That is a likely cause: on a GPU which of the two comes first changes "
                 "from launch to launch.", sr->race);
    else if (sr->outcome == OUT_HANG)
        snprintf(r->sim_note, sizeof r->sim_note, "On the PTX simulator it hangs too: "
                 "%.900s", sr->message);
}

void grade_with_sim_note(const exercise *ex, const int *knobs, const grade_opts *o,
                         double timeout_s, result *r)
{
    grade_in_child(ex, knobs, o, timeout_s, r);
    if (r->outcome == OUT_WRONG || r->outcome == OUT_HANG)
        sim_note_add(ex, knobs, o, r);
}

struct note_job {
    const exercise *ex;
    const int *knobs;
    const grade_opts *o;
};

/* The child's body: compile the student's file for sm_90 and run it on the
 * simulator, its result into sr. Compiling here, not in the grading
 * parent, matters: the parent forks a child per exercise that opens the
 * GPU, and a parent that has loaded NVRTC leaves every later child's CUDA
 * start failing with cudaErrorInitializationError (H200, 2026-11-29: every
 * exercise after a WRONG one read "No usable GPU"). */
static void note_body(void *arg, result *sr)
{
    const struct note_job *j = arg;
    exercise_jobs J;
    exercise_jobs_make(&J, j->ex, j->knobs, j->o, NO_GPU_CC, JOB_STUDENT);
    compiled c;
    j->o->simulator->compile(J.job, J.n, &c);
    static result run;
    if (c.ok)
        simulate_in_child(j->ex, j->knobs, j->o, &c, SIM_NOTE_TIMEOUT_S, &run);
    else
        run.outcome = OUT_CHECKED;   /* no note: the GPU's own verdict stands */
    compiled_free(&c);
    *sr = run;
}

void sim_note_add(const exercise *ex, const int *knobs, const grade_opts *o, result *r)
{
    if (!o->simulator)
        return;
    struct note_job j = {.ex = ex, .knobs = knobs, .o = o};
    static result sr;
    run_in_child(note_body, &j, compile_time_limit() + SIM_NOTE_TIMEOUT_S + 5, &sr);
    note_of(&sr, r);
    r->counts = sr.counts;   /* its memory counts by line, when its largest size ran */
}
