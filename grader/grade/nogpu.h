/* nogpu.h: what `make check` can still tell a student who has no NVIDIA GPU.
 *
 * Everything that needs no GPU, on the student's own file: it compiles
 * (NVRTC, for the calibration GPU, an H100, sm_90); its registers, local
 * memory and shared memory (ptxas); its theoretical occupancy on an H100
 * (occupancy.c); and every mechanism check of the exercise, each holding or
 * not, in the words a GPU run uses. Nothing is run, so nothing is said about
 * correctness or speed. */
#ifndef GRADER_NOGPU_H
#define GRADER_NOGPU_H

#include "grade.h"

/* The compute capability files are compiled for without a GPU. */
#define NO_GPU_CC 90

/* Check `ex` with knob values `knobs` without a GPU into `r` (r->no_gpu = 1).
 * The outcome: OUT_CHECKED when it compiles and every check holds;
 * OUT_MECHANISM when a check fails (failed_check says why it matters);
 * OUT_COMPILE_ERROR or OUT_MISSING when there is nothing to check;
 * OUT_RESOURCES when not one block of it fits on an H100 SM; OUT_INTERNAL
 * when the exercise's spec is broken. Runs in the calling process: NVRTC
 * needs no CUDA context. */
void check_without_gpu(const exercise *ex, const int *knobs, const grade_opts *o, result *r);

#endif
