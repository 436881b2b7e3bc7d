/* sim_note.h: with a GPU, what the PTX simulator adds to a failure.
 *
 * A GPU shows a race only as wrong values in some launches, and a hang only
 * as a launch that never ends. When the GPU finds the student's kernel
 * WRONG or hung, the kernel is run again on the simulator (o->simulator,
 * sim_correctness.h), in a child bounded in time, at the exercise's sim
 * sizes (compiled in that child too: the grading parent never loads
 * NVRTC, which would break the CUDA start of every later child). The
 * simulator orders the accesses the same way on every run and knows who
 * waits where. If it finds a race or a hang, r->sim_note says so
 * ("On the PTX simulator: ..."). It never changes the GPU's verdict; a
 * simulator that cannot run the kernel, or finds it right, adds nothing. */
#ifndef GRADER_SIM_NOTE_H
#define GRADER_SIM_NOTE_H

#include "grade.h"

/* Seconds the simulator may take for the note (compile not counted: the
 * note's child, compile and run, may take the compile limit more). */
#define SIM_NOTE_TIMEOUT_S 20

/* Grade ex in a child as grade_in_child does (child.h), then, for WRONG or
 * HANG with o->simulator set, add the simulator's note to r->sim_note. */
void grade_with_sim_note(const exercise *ex, const int *knobs, const grade_opts *o,
                         double timeout_s, result *r);

/* The note alone, whatever r's outcome: compile the student's file for
 * sm_90, run it on o->simulator and, for a race or a hang, fill
 * r->sim_note. Nothing when o->simulator is NULL. */
void sim_note_add(const exercise *ex, const int *knobs, const grade_opts *o, result *r);

#endif
