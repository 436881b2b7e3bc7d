/* nogpu_words.c: the no-GPU report's sentences (see nogpu_words.h). */
#include "nogpu_words.h"

const char NOGPU_HEADER_FMT[] =
    "No GPU, so nothing was timed. Checked %s without one: each file compiled for the "
    "course's calibration GPU (an H100, sm_90), its registers, local and shared memory "
    "read from the compiler, its occupancy worked out for an H100, every mechanism check "
    "of its exercise, and each kernel run at small sizes on the grader's PTX simulator, "
    "which executes the PTX the compiler made on this CPU.";

const char NOGPU_CANNOT_TELL[] =
    "What this cannot tell: whether a kernel is fast (nothing was timed), and whether "
    "its results come through the mechanism its lesson asks for (that half of a check "
    "is a run on a GPU). CHECKED is not a pass. Whether a kernel is right, the simulator "
    "does tell: \"Correct on the PTX simulator\", or WRONG, CRASH or HANG in the words a "
    "GPU run uses, with a race named by its lines; where it meets an instruction it does "
    "not run, the message says which, and correctness needs a GPU. An untouched stub "
    "that computes the right values slowly (lesson 2's mapping, ...) reads CHECKED: only "
    "a GPU shows what is left to do.";

const char *const NOGPU_NOT_JUDGED[2] = {
    "Correctness and speed were not checked: that needs an NVIDIA GPU.",
    "Speed was not judged: that needs an NVIDIA GPU.",
};

const char *const NOGPU_NO_CHECKS[2] = {
    "This exercise has no mechanism check, so without a GPU the untouched stub and a "
    "finished kernel both read CHECKED: whether it is right and fast needs an NVIDIA GPU.",
    "This exercise has no mechanism check: without a GPU, the simulator's verdict is what "
    "tells a finished kernel from the untouched stub, and speed needs an NVIDIA GPU.",
};

const char *const NOGPU_CHECKS_HOLD[2] = {
    "That is not a pass: whether it is right and fast needs an NVIDIA GPU.",
    "That is not a pass: speed needs an NVIDIA GPU.",
};

const char *const NOGPU_SUMMARY_CHECKED[2] = {
    "CHECKED: compiles, and every mechanism check holds. Whether the kernels are right and "
    "fast was not judged: that needs an NVIDIA GPU (run the same make check on a machine "
    "with one).",
    "CHECKED: compiles, and every mechanism check holds; whether it is right, the PTX "
    "simulator said in its message. Whether the kernels are fast was not judged: that "
    "needs an NVIDIA GPU (run the same make check on a machine with one).",
};

const char *const NOGPU_SUMMARY[2] = {
    "Whether the kernels are right and fast was not judged: that needs an NVIDIA GPU.",
    "Whether the kernels are fast was not judged: that needs an NVIDIA GPU.",
};
