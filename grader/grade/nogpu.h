/* nogpu.h: what `make check` can still tell a student who has no NVIDIA GPU.
 *
 * Everything that needs no GPU, on the student's own file: it compiles
 * (NVRTC, for the calibration GPU, an H100, sm_90); its registers, local
 * memory and shared memory (ptxas); its theoretical occupancy on an H100
 * (occupancy.c); and every mechanism check of the exercise, each holding or
 * not, in the words a GPU run uses; and, given a simulator, whether it is
 * right (sim_correctness.h). Nothing is timed, so nothing is said about
 * speed. */
#ifndef GRADER_NOGPU_H
#define GRADER_NOGPU_H

#include "grade.h"

/* The compute capability files are compiled for without a GPU. */
#define NO_GPU_CC 90

/* Check `ex` with knob values `knobs` without a GPU into `r` (r->no_gpu = 1).
 * The outcome: OUT_CORRECT when it compiles, every check holds and the
 * simulator (o->simulator, sim_correctness.h) found it right; OUT_WRONG,
 * OUT_CRASH, OUT_HANG or OUT_RACE when the simulator found that;
 * OUT_CHECKED when it compiles and every check holds (and the simulator,
 * if any, could not run it);
 * OUT_MECHANISM when a check fails (failed_check says why it matters);
 * OUT_COMPILE_ERROR or OUT_MISSING when there is nothing to check;
 * OUT_RESOURCES when not one block of it fits on an H100 SM; OUT_INTERNAL
 * when the exercise's spec is broken. Runs in the calling process: NVRTC
 * needs no CUDA context. */
void check_without_gpu(const exercise *ex, const int *knobs, const grade_opts *o, result *r);

#endif
