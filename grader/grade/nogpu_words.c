/* nogpu_words.c: the no-GPU report's sentences (see nogpu_words.h). */
#include "nogpu_words.h"

const char NOGPU_HEADER_FMT[] =
    "No GPU, so nothing was timed. Checked %s without one: each file compiled for the "
    "course's calibration GPU (an H100, sm_90), its registers, local and shared memory "
    "read from the compiler, its occupancy worked out for an H100, every mechanism check "
    "of its exercise, and each kernel run at small sizes on the grader's PTX simulator, "
    "which executes the PTX the compiler made on this CPU.";

const char NOGPU_CANNOT_TELL[] =
    "What this cannot tell: whether a kernel is fast (nothing was timed). Whether a "
    "kernel is right, and whether its results come through the mechanism its lesson "
    "asks for, the simulator does tell: CORRECT (right at every size it ran, every check "
    "holds, the data watched at the largest), MECHANISM (a check fails, with what the "
    "simulator saw the data do), or WRONG, CRASH, HANG or RACE (a race named by its two "
    "lines, even when the values came out right) in the words a GPU run uses. Neither "
    "CORRECT nor CHECKED is a pass: an untouched stub that "
    "computes the right values slowly (lesson 2's mapping, ...) reads CORRECT too, and "
    "only a GPU shows what is left to do. CHECKED: the simulator could not run the "
    "kernel (the message says which instruction), so correctness needs a GPU.";

const char NOGPU_CORRECT[] =
    "That is not a pass: speed needs an NVIDIA GPU (run the same make check on a machine "
    "with one).";

const char *const NOGPU_NOT_JUDGED[2] = {
    "Correctness and speed were not checked: that needs an NVIDIA GPU.",
    "Speed was not judged: that needs an NVIDIA GPU.",
};

const char *const NOGPU_NO_CHECKS[2] = {
    "This exercise has no mechanism check, so without a GPU the untouched stub and a "
    "finished kernel both read CHECKED: whether it is right and fast needs an NVIDIA GPU.",
    "This exercise has no mechanism check, and the simulator could not judge it, so "
    "whether it is right and fast needs an NVIDIA GPU.",
};

const char *const NOGPU_CHECKS_HOLD[2] = {
    "That is not a pass: whether it is right and fast needs an NVIDIA GPU.",
    "That is not a pass, and the simulator could not judge it: whether it is right and "
    "fast needs an NVIDIA GPU.",
};

const char *const NOGPU_SUMMARY_CHECKED[2] = {
    "CHECKED: compiles, and every mechanism check holds. Whether the kernels are right and "
    "fast was not judged: that needs an NVIDIA GPU (run the same make check on a machine "
    "with one).",
    "CORRECT: right on the PTX simulator, and every mechanism check holds; CHECKED: every "
    "check holds, but the simulator could not run it. Whether the kernels are fast was not "
    "judged: that needs an NVIDIA GPU (run the same make check on a machine with one).",
};

const char *const NOGPU_SUMMARY[2] = {
    "Whether the kernels are right and fast was not judged: that needs an NVIDIA GPU.",
    "Whether the kernels are fast was not judged: that needs an NVIDIA GPU.",
};
