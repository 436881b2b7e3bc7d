/* sim_sample.h: with a GPU, the launch that is timed, run again on the PTX
 * simulator for a sample of its blocks (issue 28 item 1, issue 25).
 *
 * Why: on a GPU a kernel's shared and local memory outlive its launch
 * (H200, 2026-11-29, tests/gpu/probes/r5/onchip_state.cu: local memory
 * kept its bytes even across other kernels), so a kernel can keep a replay
 * cache there and be right on every launch the GPU checks. The simulator
 * sees it: a read of shared bytes its block, or local bytes its thread, did
 * not write in the launch (sim.h's sim_report.unwritten). It must see it
 * on the launch that is timed, not on a smaller one a kernel could tell
 * apart (the knock-out's rule, grader/README.md).
 *
 * What runs: after the timed launches of a GPU grading (so correctness and
 * timing held), the student's kernel runs on o->simulator with the timed
 * launch's exact arguments: timing input set 1's instance (size, grid,
 * block, dynamic shared memory, knobs, constants, the same input bytes), in
 * an allocation of the timing sets' own layout (buffers.h's dev_sets_carve,
 * every set and version, 2 MiB-aligned: each pointer at the same offset
 * within its page as on the GPU). Only a sample of the blocks runs: the
 * first, the last, and others drawn from the grading seed (another seed,
 * other blocks; SEED= replays them), as many as SAMPLE_WORK
 * thread-instructions allow, counted not timed, so a seed always draws the
 * same sample. It runs in a child of its own: the grading child has CUDA
 * open and this child never touches CUDA; the student's file is compiled
 * for sm_90 in it unless the GPU's PTX already is sm_90's (the grading
 * parent never loads NVRTC, sim_note.h says why).
 *
 * What is judged (outputs exist only for the sampled blocks, and the GPU
 * checked them): a read of memory the launch never wrote (WRONG), a race
 * (RACE, both lines), a fault (CRASH, its line), a hang (HANG), each in
 * the words a grading without a GPU uses, saying which blocks of the timed
 * launch the simulator ran. An instruction the simulator does not run, or
 * a file it cannot compile: no verdict, one line in r->sim_note. What the
 * device watched (device.h's watch) goes into r->watch, for the mechanism
 * rules. The outcome is decided as every stop is: child_fail. */
#ifndef GRADER_SIM_SAMPLE_H
#define GRADER_SIM_SAMPLE_H



/* The simulator's work for one sample, in thread-instructions: about 0.5 s
 * on one core at its slowest measured rate (2e8 a second, sim/README.md),
 * twice that with the data watch on. 4e8 first: on the H200 (2026-11-29)
 * grading lessons 0-10 took 90 s against 39 s before the sample (lesson 3
 * 4.2 -> 11.9 s), most of it the watched launches; a quarter still runs
 * the first and last blocks and, for every course grid, tens of others. */
#define SAMPLE_WORK 1e8
/* The most blocks a sample runs, whatever they cost. */
#define SAMPLE_MAX_BLOCKS 512
/* Seconds one simulated launch of the sample may take before it is a
 * hang: the GPU's launch limit (10 s) is for a GPU; the simulator runs
 * SAMPLE_WORK in 1-2 s on a free core and in 9 s on this course's busiest
 * test machine (grade/README.md), so only a block that never ends, or
 * waits for a block the sample left out, comes near it. */
#define SAMPLE_LAUNCH_TIMEOUT_S 30
/* Seconds the sample's child may take beyond compiling and its first
 * launch's limit: the carve and fill of the timing sets' allocation and
 * the second launch (a few seconds; a hung first launch ends the child). */
#define SAMPLE_TIMEOUT_S 30

/* The blocks a sample of a grid of `total` blocks runs, ascending, into
 * out[] (room for SAMPLE_MAX_BLOCKS): block 0, block total-1, and want-2
 * more drawn from `seed` among the rest (fewer when the grid has fewer).
 * Returns how many. The same seed, the same blocks. */
unsigned sample_blocks(unsigned long long seed, unsigned total, unsigned want, unsigned *out);

/* The sample as the report names it, into buf: "block 0 of 1", "blocks 0
 * and 131 of 132", "blocks 0, 3, ... (a dozen) and 500 more of 262144". */
void blocks_text(const unsigned *b, unsigned n, unsigned total, char *buf, size_t len);

/* sample_timed_launch, the sampled run itself, is a stage of grading:
 * declared in grade_internal.h with the others. */

#endif
