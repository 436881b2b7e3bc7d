/* sim_correctness.h: correctness without a GPU, on the PTX simulator.
 *
 * Where there is no GPU, `make check` runs the student's kernel (the PTX
 * NVRTC made for sm_90) on the simulator (device_sim.h) at the spec's
 * sim_sizes, in a child, through the same launch and checks as a GPU run
 * (grade_run.c: poison, guards, inputs, outputs): the same messages. It
 * fills facts of r for verdict_decide (verdict.h), which decides after it:
 *   - correct: r->simulated, r->correct and r->sim_said ("Correct on the
 *     PTX simulator (...)"): CORRECT, or MECHANISM when a check fails;
 *   - WRONG, CRASH (an access outside every buffer, with its line), HANG
 *     (which barrier or mbarrier phase) or RACE (a race's two lines, the
 *     values right or not): r->stopped and the run's own message;
 *   - an instruction the simulator does not run: r->sim_said says which
 *     ("needs a GPU"), r->simulated stays 0: CHECKED, never a verdict. */
#ifndef GRADER_SIM_CORRECTNESS_H
#define GRADER_SIM_CORRECTNESS_H

#include "compiled.h"
#include "grade.h"

/* Lines one simulated launch may print before the CORRECT sentence warns
 * that printing that much takes a GPU past the launch limit (a saxpy
 * printing from each of 1048576 threads did on the H200, 2026-11-29:
 * tests/gpu/faulty/printf_flood, HANG there, right here). */
#define SIM_PRINT_FLOOD_LINES 65536

/* The largest of ex's sim sizes (the spec's sim_sizes, else its check
 * sizes the simulator runs): the launch whose memory counts the report
 * shows, and tests/gpu/ncu-counts-run.sh's size. */
size_t sim_largest_size(const exercise *ex);

/* How to order the two accesses of a race, for both of its kinds: the
 * words every RACE ends with, with a GPU or without (sim_sample.h). */
#define RACE_FIX "Order the two accesses: a __syncthreads() between them in shared " \
    "memory (the reader waits for the write; of two writers, let one store, or put the " \
    "barrier between them; an atomic and a plain store of one word likewise), or the wait " \
    "that covers an asynchronous copy (its cp.async group, or its mbarrier phase) before " \
    "touching its bytes."

/* A read of bytes the launch never wrote (the device's unwritten()), %s. */
#define UNWRITTEN_WORDS "Your kernel depends on memory it never wrote: %s."

/* Run the student's compiled kernel `c` on o->simulator at ex's sim sizes,
 * in a child of at most timeout_s seconds, into sr: OUT_PASS (correct, its
 * message the run's figures), OUT_CHECKED (it could not run the kernel:
 * why), or the run's stop (WRONG, CRASH, HANG, RACE with sr->race, ...) in
 * its own words. The one run both uses share (here and sim_note.h). */
void simulate_in_child(const exercise *ex, const int *knobs, const grade_opts *o,
                       const compiled *c, double timeout_s, result *sr);

/* Run the student's compiled kernel `c` on o->simulator and record what it
 * found in r's facts (above; r filled by check_without_gpu, before
 * verdict_say). Does nothing when o->simulator is NULL or r already
 * stopped. */
void simulate_correctness(const exercise *ex, const int *knobs, const grade_opts *o,
                          const compiled *c, result *r);

#endif
