/* sim_correctness.h: correctness without a GPU, on the PTX simulator.
 *
 * Where there is no GPU, `make check` runs the student's kernel (the PTX
 * NVRTC made for sm_90) on the simulator (device_sim.h) at the spec's
 * sim_sizes, in a child, through the same launch and checks as a GPU run
 * (grade_run.c: poison, guards, inputs, outputs): the same messages. The
 * result then says, in r->outcome and r->message:
 *   - correct: the checked outcome stands (CHECKED or MECHANISM) with
 *     r->correct = 1 and "speed needs a GPU";
 *   - WRONG, CRASH (an access outside every buffer, with its line) or HANG
 *     (which barrier or mbarrier phase), as on a GPU;
 *   - an instruction the simulator does not run: CHECKED as before, with
 *     what stopped it ("needs a GPU"), never a verdict. */
#ifndef GRADER_SIM_CORRECTNESS_H
#define GRADER_SIM_CORRECTNESS_H

#include "compiled.h"
#include "grade.h"

/* Run the student's compiled kernel `c` on o->simulator and fold what it
 * found into r (filled by check_without_gpu). Does nothing unless r is
 * CHECKED or MECHANISM and o->simulator is set. */
void simulate_correctness(const exercise *ex, const int *knobs, const grade_opts *o,
                          const compiled *c, result *r);

#endif
