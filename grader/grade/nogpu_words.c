/* nogpu_words.c: the no-GPU report's sentences (see nogpu_words.h). */
#include "nogpu_words.h"

const char NOGPU_HEADER_FMT[] =
    "No GPU, so nothing was run or timed. Checked %s without one: each file compiled for "
    "the course's calibration GPU (an H100, sm_90), its registers, local and shared memory "
    "read from the compiler, its occupancy worked out for an H100, and every mechanism "
    "check of its exercise.";

const char NOGPU_CANNOT_TELL[] =
    "What this cannot tell: whether a kernel is right (no value was computed) or fast "
    "(nothing was timed). CHECKED is not a pass, and an untouched stub may read CHECKED: "
    "where a stub already has the instructions its exercise checks for (lesson 0's saxpy, "
    "lesson 2's mapping, ...), only a run shows what is left to do. Steps that say \"run "
    "it\" (lesson 0: run it once, read what it says about values left unwritten) need an "
    "NVIDIA GPU.";

const char NOGPU_NOT_JUDGED[] = "Correctness and speed were not checked: that needs an NVIDIA GPU.";

const char NOGPU_NO_CHECKS[] =
    "This exercise has no mechanism check, so without a GPU the untouched stub and a "
    "finished kernel both read CHECKED: whether it is right and fast needs an NVIDIA GPU.";

const char NOGPU_CHECKS_HOLD[] =
    "That is not a pass: whether it is right and fast needs an NVIDIA GPU.";

const char NOGPU_SUMMARY_CHECKED[] =
    "CHECKED: compiles, and every mechanism check holds. Whether the kernels are right and "
    "fast was not judged: that needs an NVIDIA GPU (run the same make check on a machine "
    "with one).";

const char NOGPU_SUMMARY[] =
    "Whether the kernels are right and fast was not judged: that needs an NVIDIA GPU.";
