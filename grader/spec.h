/* spec.h: what an exercise is, as the grader sees it.
 *
 * Every exercise is one `struct exercise` in grader/specs/lessonN.c. It names
 * three CUDA files that hold the same kernel entry point:
 *
 *   exercises/<file>        the student's copy (the only file a student edits)
 *   solutions/<file>        the reference solution
 *   grader/baselines/<file> the trusted slow version the speed rule is measured
 *                           against; students never edit it
 *
 * and one hint, lessons/hints/lesson<N>-<name>.txt, plain text the grader
 * prints when the kernel is correct but not yet fast enough.
 *
 * The files hold device code only. The grader compiles each at run time with
 * NVRTC, for the GPU it runs on, adding -D<KNOB>=<value> for every knob, so a
 * compile error points at the student's own file and line.
 *
 * The spec's build() makes one problem instance: it fills the inputs, computes
 * the expected outputs on the CPU in double precision, names the kernel
 * arguments in order and sets the launch geometry. The same instance is used
 * for the baseline, the student's kernel and the solution.
 */
#ifndef GRADER_SPEC_H
#define GRADER_SPEC_H

#include <stddef.h>
#include <stdint.h>

#define MAX_KNOBS 4
#define MAX_CHECKS 6
#define MAX_SIZES 6
#define SIM_DEFAULT_MAX_SIZE ((size_t)1 << 20)

/* Facts about the GPU the grade runs on. On a CPU-only machine (static checks)
 * they describe the calibration GPU, an H100 (cc 9.0, 132 SMs). */
typedef struct device_facts {
    char name[128];
    int cc;                    /* 10*major + minor: 90 for an H100 */
    int sm_count;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;
    size_t smem_per_sm;        /* bytes */
    size_t smem_per_block_optin;
    size_t l2_bytes;
    size_t global_mem_bytes;
} device_facts;

/* A compile-time constant the grader passes as -DNAME=value to all three
 * files. A student may change it from the command line (make check lesson3
 * TILE=16) to explore; the grade uses the default unless told otherwise. */
typedef struct knob {
    const char *name;
    int def;
    int min, max;
    int power_of_two;          /* 1: only powers of two allowed */
    const char *what;          /* one line for --help and the report */
} knob;

enum elem_type { ELEM_F32, ELEM_F64, ELEM_I32 };

/* One problem instance. Spec authors only use the inst_* calls below. */
typedef struct instance instance;

/* Kernel arguments, in the order of the kernel's parameters. */
void  *inst_input(instance *I, size_t count, enum elem_type t);   /* host array to fill */
double *inst_output(instance *I, size_t count, enum elem_type t); /* expected values to fill */
void   inst_arg_int(instance *I, int v);
void   inst_arg_float(instance *I, float v);
void   inst_arg_double(instance *I, double v);

/* Launch geometry, and dynamic shared memory in bytes. */
void inst_launch(instance *I, unsigned gx, unsigned gy, unsigned gz,
                 unsigned bx, unsigned by, unsigned bz, size_t dyn_smem);

/* The fewest bytes the kernel must move through device memory (each input
 * read once, each output written once): effective bandwidth = bytes / time. */
void inst_bytes_moved(instance *I, double bytes);

/* Constant memory the spec provides: before every launch the grader copies
 * `bytes` bytes of `data` (copied now) into the kernel file's __constant__
 * variable `symbol` (declared at namespace scope, so its name is not
 * mangled). Lesson 13's table. */
void inst_constant(instance *I, const char *symbol, const void *data, size_t bytes);

/* A sentence for the student about how this instance differs from the plain
 * problem (printf-style; at most about 400 characters): shown above the
 * first mismatches when the kernel is wrong on it. For an instance the spec
 * launches unlike the knobs say, so the student knows how to reproduce it. */
void inst_note(instance *I, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Random numbers for inputs, from the run's seed (printed so a failure can be
 * replayed with --seed). uniform in [lo, hi). */
double inst_uniform(instance *I, double lo, double hi);
uint32_t inst_u32(instance *I);

/* What the speed rule compares. */
enum bar_kind {
    BAR_SPEEDUP,        /* speedup over baseline >= max(floor, 1 + share*(ref_speedup-1)) */
    BAR_BANDWIDTH,      /* effective bandwidth >= share * measured copy bandwidth */
    BAR_MATCH_SOLUTION, /* time <= solution time * (1 + share): "as fast as the reference" */
    BAR_NONE            /* correctness and mechanism only */
};

/* Mechanism checks: why a kernel is (or is not) fast, read from the compiler
 * without running anything, so they also run in CI; on a GPU, a check with a
 * knock_kind (below) must also carry the data. */
enum check_kind {
    CHECK_NONE = 0,
    CHECK_PTX_HAS,          /* PTX contains `text` (e.g. "cp.async") */
    CHECK_PTX_LACKS,        /* PTX does not contain `text` (e.g. "ld.local") */
    CHECK_MAX_LOCAL_BYTES,  /* stack frame + spills <= value */
    CHECK_SMEM_BYTES,       /* static + dynamic shared memory == expect(knobs) */
    CHECK_MAX_REGS,         /* registers per thread <= value */
    CHECK_MIN_OCCUPANCY,    /* theoretical occupancy (percent) >= value; needs a GPU */
    CHECK_MIN_LOAD_BYTES    /* the PTX's widest global load brings >= value bytes per thread */
};

/* How a check is shown to be on the data path. Where the PTX simulator ran
 * the kernel (without a GPU), by what it saw the data do: each kind is a
 * rule on watch_facts (rules/watch_rules.h says each threshold and why). On
 * a GPU (knockout.h): a
 * rewritten copy of the kernel in which only this mechanism reads a second
 * input set must return that set's results (KNOCK_PREFETCH: must prefetch
 * a fifth of the input's lines or more). A never-taken branch, an unused
 * buffer or a token element then fails the check. KNOCK_NONE: the text or
 * size alone. */
enum knock_kind {
    KNOCK_NONE = 0,
    KNOCK_ASYNC,            /* asynchronous copies: cp.async.ca / .cg and cp.async.bulk */
    KNOCK_BULK,             /* cp.async.bulk copies, global to shared */
    KNOCK_SHARED,           /* whatever moves device memory into shared memory */
    KNOCK_VECTOR,           /* ld.global.v4 loads */
    KNOCK_PREFETCH,         /* prefetch.global.L2: the lines it covers */
    KNOCK_CONST             /* the __constant__ table, not its global copy */
};

typedef struct mech_check {
    enum check_kind kind;
    const char *text;
    long value;
    long (*expect)(const int *knobs);  /* for CHECK_SMEM_BYTES; overrides value */
    const char *why;                   /* printed when the check fails: teach */
    enum knock_kind knock;             /* KNOCK_NONE: judged from the text alone */
    /* Residency, for a ring or a batch (rules/watch_rules.h): the median live
     * byte read from shared memory waited there at least min_wait(knobs)
     * iterations (its writer's uses of shared input between the write and
     * the read: one per element its loop consumes); NULL: no such rule.
     * min_wait_what: that number in the lesson's words ("PDIST - 1"). */
    long (*min_wait)(const int *knobs);
    const char *min_wait_what;
} mech_check;

typedef struct exercise {
    int lesson;
    const char *name;          /* short id, unique within the lesson: "shared_hog" */
    const char *title;         /* one line */
    const char *file;          /* "lesson1/shared_hog.cu" under exercises/, solutions/, grader/baselines/ */
    const char *kernel;        /* extern "C" entry point in all three files */
    /* Optional: the speed rule compares with solutions/<reference> (entry
     * point reference_kernel, default `kernel`) instead of solutions/<file>.
     * For a demo, which has no solution of its own, or for "as fast as
     * another exercise's answer" (lesson 10's index scheme vs padding). */
    const char *reference;
    const char *reference_kernel;
    const char *explained_in;  /* "lessons/lesson1-occupancy.md, section 2" */
    int min_cc;                /* 0, or e.g. 80: cp.async needs compute capability 8.0 */
    int demo;                  /* 1: a trusted file from grader/demos/ shown for what it teaches;
                                  expected to fail, never counts toward the lesson's verdict */

    knob knobs[MAX_KNOBS];     /* ends at the first with name == NULL */
    /* Optional: the bytes of __shared__ arrays one block of this exercise's
     * kernels declares at `knobs`, and how they are made up, in words; a
     * combination of knobs that puts it over 48 KB (the most a block's
     * static shared memory may hold) is refused before anything is graded
     * (core/knobs.h). Without it, an exercise's CHECK_SMEM_BYTES check's
     * expected size is used. */
    long (*knob_smem)(const int *knobs);
    const char *knob_smem_what;

    size_t check_sizes[MAX_SIZES]; /* correctness sizes; ends at the first 0 */
    const char *size_means;        /* what a size is, "n, the length of x": the report and
                                      the stub's "Graded sizes" line say it */
    size_t sim_sizes[MAX_SIZES];   /* correctness sizes on the PTX simulator, where there
                                      is no GPU (a few seconds on one core); at least one
                                      ragged and one of many blocks. Empty: the check sizes
                                      up to SIM_DEFAULT_MAX_SIZE */
    size_t time_size;              /* size for timing: data several times the L2 */
    void (*build)(instance *I, size_t size, const int *knobs, const device_facts *dev);
    double rtol, atol;             /* |got - want| <= atol + rtol * |want| */

    /* 1: the kernel's speed is set by how many bytes it keeps in flight
     * (Little's law, lesson 1): the report shows the bytes in flight per SM
     * it sustained beside what the copy bandwidth needs. */
    int latency_bound;

    enum bar_kind bar;
    double bar_share;
    double bar_floor;              /* BAR_SPEEDUP: the least speedup that can pass */

    mech_check checks[MAX_CHECKS]; /* ends at kind == CHECK_NONE */

    /* Where Nsight Compute can read the counters (make check NCU=1): the
     * student's shared-load bank conflicts must be no more than the
     * reference's (twice the reference's plus 1000, for the few conflicts a
     * problem's edges cause); a MECHANISM failure otherwise. */
    int ncu_no_bank_conflicts;

    /* Special registers its kernels may read although they tell launches
     * apart (rules/ptx_rules.h's ptx_check_special_registers: the clock,
     * the SM, the warp slot, the grid's launch number...), space-separated
     * as PTX names them ("%nsmid %smid"); NULL: none, every one refused.
     * A lesson that needs one says why here: the judged launches (the
     * simulator's sample of the timed launch) then cannot be told from the
     * timed ones by anything else. */
    const char *special_registers;
} exercise;

/* The registry (specs/registry.c): lesson_exercises[n] lists lesson n's
 * exercises, ending with NULL. */
#define N_LESSONS 16
extern const exercise *const *const lesson_exercises[N_LESSONS];
/* 1 for a lesson that is measured on the student's GPU (make measure
 * lessonN) instead of graded: its exercise list is empty on purpose. */
extern const int lesson_is_measured[N_LESSONS];

#endif
