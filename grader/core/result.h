/* result.h: what grading one exercise found out.
 *
 * A child process grades each exercise and fills one `result` that lives in
 * memory shared with the parent, so whatever the child learnt before it
 * crashed or hung is still there for the report.
 *
 * A result holds facts (what stopped grading, correctness, each mechanism
 * check's state, the speed against its bar, whether the reference could be
 * timed, what Nsight Compute counted) and one outcome decided from them by
 * verdict_decide (verdict.h); nothing else sets a verdict. */
#ifndef GRADER_RESULT_H
#define GRADER_RESULT_H

#include "spec.h"
#include "mem_counts.h"
#include "watch_facts.h"

enum outcome {
    OUT_NOT_RUN = 0,    /* the child never got to say anything */
    OUT_PASS,           /* correct, mechanisms present, fast enough */
    OUT_PASS_UNTIMED,   /* correct; the speed rule cannot be judged on this GPU */
    OUT_SLOW,           /* correct, but under the speed bar */
    OUT_MECHANISM,      /* correct, but a required mechanism is missing */
    OUT_WRONG,          /* wrong values, unwritten elements or out-of-bounds writes */
    OUT_COMPILE_ERROR,  /* NVRTC rejected the file */
    OUT_MISSING,        /* the file or its kernel entry point is not there */
    OUT_CRASH,          /* a CUDA error at run time, or the process died */
    OUT_HANG,           /* a launch did not finish in time */
    OUT_RESOURCES,      /* the launch asked for more than the GPU has */
    OUT_UNSUPPORTED,    /* the GPU is too old for this exercise */
    OUT_NO_GPU,         /* no GPU or no driver */
    OUT_INTERNAL,       /* the grader or the reference is at fault */
    OUT_REFUSED,        /* the file breaks a rule checked before anything runs:
                           an include outside the toolkit, writable device globals */
    OUT_TOO_FAST,       /* timed faster than the memory can deliver its bytes */
    OUT_CHECKED,        /* no GPU: compiled, and every mechanism check that needs
                           no GPU holds; correctness and speed not judged */
    OUT_CORRECT,        /* no GPU: as CHECKED, and right on the PTX simulator at every
                           size it ran (sim_correctness.h); speed not judged */
    OUT_RACE            /* the PTX simulator saw a race: an access to bytes a copy in
                           flight or another warp may still write (its two lines), whether
                           or not the values came out wrong this time */
};

const char *outcome_word(enum outcome o);   /* "PASS", "SLOW", ... */
int outcome_is_pass(enum outcome o);
/* 1 for what a run without a GPU can say at best: CHECKED (everything
 * checkable holds) or CORRECT (that, and right on the PTX simulator).
 * Neither is a pass: speed needs a GPU. */
int outcome_holds_without_gpu(enum outcome o);

/* The three versions of an exercise's kernel. */
enum variant { V_BASELINE = 0, V_STUDENT = 1, V_SOLUTION = 2, N_VARIANTS = 3 };
const char *variant_name(enum variant v);

/* What the compiler said about one kernel. */
typedef struct resources {
    int known;              /* 0 until the kernel compiled */
    int regs;
    int stack_bytes;        /* local memory: the per-thread stack frame */
    int spill_stores, spill_loads;
    int smem_static;        /* bytes */
    int smem_dynamic;       /* bytes, from the launch */
    int occupancy_pct;      /* theoretical, from the occupancy API; -1 unknown */
    int blocks_per_sm;
    /* The launch the grader makes (the timed one when there is one): its
     * blocks per SM and occupancy, capped by what the resources allow. The
     * report's occ column; -1 unknown. */
    int launch_occupancy_pct;
    int launch_blocks_per_sm;
} resources;

/* One mechanism check of an exercise, as evaluated on the student's kernel:
 * the report lists each, holding or not. */
enum check_state {
    CS_NOT_EVALUATED = 0,   /* grading stopped before the checks */
    CS_HOLDS,
    CS_FAILS,
    CS_UNKNOWN              /* what it needs is not known (no ptxas report, no occupancy) */
};
typedef struct check_result {
    enum check_state state;
    char what[512];         /* what was found, e.g. "the PTX has 'cp.async'"; and what the
                               PTX simulator saw the data do (watch_rules.h) */
} check_result;

typedef struct timing {
    double ms;              /* median time of one launch */
    double gbps;            /* effective bandwidth at that median */
    int reps;
} timing;

/* What Nsight Compute counted, when it ran before grading (make check NCU=1,
 * profile.c): evidence an exercise with ncu_no_bank_conflicts is judged on. */
typedef struct ncu_evidence {
    int read;               /* 1: the counters below were read */
    double conflicts[N_VARIANTS];   /* shared-load bank conflicts; < 0 unknown */
} ncu_evidence;

typedef struct result {
    enum outcome outcome;   /* verdict_decide's answer (verdict.h): a stop's own outcome,
                               or what verdict_say decided once grading ran to its end */
    enum outcome stopped;   /* what ended grading before a verdict (a compile error,
                               WRONG, CRASH, HANG, TOO FAST, ...): child_fail, or the
                               parent when the child died; OUT_NOT_RUN: nothing did */
    char stage[96];         /* what the child was doing last: read by the parent after a crash */
    char message[1024];     /* what happened, for a person */
    char detail[4096];      /* compile log, first mismatches, CUDA error text */
    char failed_check[1024]; /* the `why` of the mechanism check that failed */
    char printed[2048];     /* what the kernel printed in its first correctness launch,
                               its first lines (kernel_output.h) */
    long printed_lines, printed_bytes;   /* all of it: lines and bytes, shown or not */
    unsigned diags;         /* patterns the course knows in the student's PTX (diagnose.h) */
    unsigned long long seed;
    int knobs[MAX_KNOBS];

    resources res[N_VARIANTS];
    timing time[N_VARIANTS];
    int correct;            /* 1: every correctness run was right */
    int timed;              /* 1 once the timing phase has numbers */
    int clears_bar;         /* timed: the student's measure clears the bar (after
                               measuring again near it) */
    int ref_clears_bar;     /* timed: the reference solution clears it on this GPU, so
                               the speed part can be graded here */
    char ref_stand_in[400]; /* why the baseline was timed in the reference's place
                               (reference.h); "": the reference was timed */
    double speedup;         /* baseline time / student time */
    double ref_speedup;     /* baseline time / solution time */
    double bar;             /* what `measure` had to reach, in the bar's unit */
    double measure;         /* speedup, GB/s or time ratio, by the bar kind */
    double noise;           /* relative half-spread between two halves of the rounds */
    int remeasured;         /* how many extra rounds of timing near the line */
    double copy_gbps;       /* the device's copy bandwidth, measured in this run */
    double latency_ns;      /* the device-memory latency; 0 unmeasured (only measured
                               for a latency_bound exercise) */
    int sm_count;           /* the GPU's SMs, for bytes in flight per SM */
    char gpu[128];
    int cc;
    int no_gpu;             /* 1: checked without a GPU (nogpu.c): nothing was run */
    int sim_on;             /* without a GPU: 1 when the PTX simulator judges correctness
                               after the checks (sim_correctness.h), so the words say
                               only what it cannot tell (nogpu_words.h) */
    int simulated;          /* 1: without a GPU, its correctness was judged on the PTX
                               simulator (sim_correctness.h): correct, or the outcome
                               says what the run found */
    char race[400];         /* the race the PTX simulator saw, naming both lines (the
                               device's race(), device.h); "": none */
    char unwritten[400];    /* the read of memory the launch never wrote that made it WRONG
                               (the device's unwritten(), device.h); "": none */
    char sim_note[1024];    /* with a GPU, what the PTX simulator found in a kernel the
                               GPU found WRONG or hung (sim_note.h): the race or the
                               barrier, "On the PTX simulator: ..."; "": nothing */
    char sim_said[1024];     /* without a GPU, the simulator's run as one sentence: "Correct
                               on the PTX simulator (...)", or why correctness needs a GPU
                               (an instruction it does not run); "": it did not run */
    check_result checks[MAX_CHECKS];   /* one per exercise check, in the spec's order */
    ncu_evidence ncu;
    mem_counts counts;      /* the student's kernel's memory counts by line, from a
                               simulated launch (mem_counts.h); counts.counted 0: none */
    /* With a GPU, the timed launch's sampled run on the PTX simulator
     * (grade/sim_sample.h): which of its blocks ran ("blocks 0, 17 and 4095
     * of 4096"; "": it did not run). */
    char sampled[320];
    /* What the PTX simulator saw the kernel do with its data (watch_facts.h):
     * without a GPU, the launch at its largest simulated size; with one, the
     * timed launch's sampled blocks; watch.watched 0 when nothing was
     * watched. The mechanism checks with a knock kind are judged on it
     * (rules/watch_rules.h, grade/watch_checks.h). */
    watch_facts watch;
} result;

#endif
