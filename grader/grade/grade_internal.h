/* grade_internal.h: what the stages of grading one exercise share.
 *
 *   grade.c          the stages in order: device, compile, load, resources,
 *                    correctness, mechanisms, timing, verdict
 *   grade_run.c      one launch (poison, constants, watchdog) and the checks
 *                    after it (guards, inputs, outputs); the correctness runs
 *   grade_time.c     timing on two rotated input sets, remeasuring near the
 *                    bar, and verifying every set afterwards
 *   grade_verdict.c  the physical floor; the one verdict (verdict.h)
 *   knockout_run.c   whether each mechanism is on the data path (knockout.h)
 *
 * Every stage ends the child through child_fail when the exercise cannot go
 * on; the functions here return only when it can. */
#ifndef GRADER_GRADE_INTERNAL_H
#define GRADER_GRADE_INTERNAL_H

#include "buffers.h"
#include "child_fail.h"
#include "device.h"
#include "versions.h"

typedef struct grade_ctx {
    const exercise *ex;
    const int *knobs;
    const grade_opts *o;
    const device_ops *D;
    device_facts dev;
    kernel k[N_VARIANTS];
    result *r;
    /* A student copy's compiled reference (reference.h): its entry point,
     * and, when the baseline stood in for it, what the verdict must say. */
    const char *ref_kernel;
    char ref_note[400];
    /* What the kernels printed (kernel_output.h's kout_lines): the count
     * when the latest launch started, that launch's version (-1: none yet),
     * and the lines each version's last finished launch printed. */
    long printed_mark;
    int printed_by_v;
    long printed_last[N_VARIANTS];
} grade_ctx;

/* grade_run.c */

/* Build ex's instance of `size` with `seed`; a broken spec ends the child
 * (INTERNAL). */
void build_instance(grade_ctx *g, instance *I, size_t size, unsigned long long seed);

/* One launch of variant v on I with d's buffers: poison the outputs, copy
 * the spec's constants into the module, flush the L2 when timed, launch.
 * Returns the kernel's time in ms when timed. A refused launch ends the
 * child as RESOURCES, naming the limit; one that does not finish, as HANG. */
double run_launch(grade_ctx *g, enum variant v, const instance *I, dev_set *d, int timed);

/* The checks after launches, each ending the child when it fails: WRONG for
 * the student's kernel, INTERNAL for the course's. `when` places the run in
 * the message ("size 1000"); `extra` (may be NULL) is appended to it. */
void check_guards(grade_ctx *g, enum variant v, const instance *I, const dev_set *d,
                  const char *when);
/* End the child for guard bytes of I's buffer dmg.buf found changed
 * (dev_set_guards) after a launch of v: which array, where, and, past the
 * array's own guard, that nothing may be kept in the rest of its memory.
 * `owner`: the version whose copy of that array it is, when the timing
 * sets give each version its own outputs (another's: the kernel wrote
 * beside its arrays, not just out of its bounds); -1: v's own. */
_Noreturn void guards_broken(enum variant v, const instance *I, guard_damage dmg,
                             const char *when, int owner);
void check_inputs(grade_ctx *g, enum variant v, const instance *I, const dev_set *d,
                  const char *when);
void check_outputs(grade_ctx *g, enum variant v, instance *I, const dev_set *d,
                   const char *when, const char *extra);
/* With o->dump_outputs set: read back the student's outputs of the run of
 * I (`size`, `seed`) and write their bytes, every output in argument order,
 * to <dir>/size<size>-seed<seed>.bin (versions.h). A file that cannot be
 * written ends the child (INTERNAL): the comparison would be wrong. */
void dump_outputs(grade_ctx *g, instance *I, const dev_set *d, size_t size,
                  unsigned long long seed);

/* Every version once on every correctness size, from a poisoned output,
 * each run checked (guards, inputs, outputs); the student's kernel first. */
void check_correctness(grade_ctx *g);

/* grade_time.c: the timing problem */

#define N_SETS 2
#define MAX_ROUNDS 400

typedef struct samples {
    double t[N_VARIANTS][MAX_ROUNDS];
    int n;
} samples;

/* N_SETS instances of the timing size (different seeds: different
 * contents), in ONE allocation (buffers.h's dev_sets_carve): set 1 lies
 * `half` bytes after set 0, each set's inputs once, read by all three
 * versions, and an output per version and set. */
typedef struct timing_sets {
    instance I[N_SETS];
    dev_set d[N_VARIANTS][N_SETS];
    size_t half;
    samples S;
} timing_sets;

/* Build and upload the timing sets; free them. */
void timing_sets_build(grade_ctx *g, timing_sets *T);
void timing_sets_free(grade_ctx *g, timing_sets *T);

/* One launch of v on timing set s exactly as every timed launch is made
 * (run_launch, timed, the L2 flushed), then every guard byte of the
 * allocation checked. Returns the kernel's time in ms. */
double timing_launch(grade_ctx *g, enum variant v, timing_sets *T, int s);

/* knockout_run.c */

/* 1 when a check of the exercise names a knock-out kind. */
int knockout_needed(const exercise *ex);

/* For every check of the exercise that names a knock-out kind and holds on
 * the text or size: run the student's kernel once, as a timed launch on
 * timing set 1 (T: the same buffers, guards, sizes, grid and knobs as
 * every timed launch), with that mechanism fed from timing set 2
 * (knockout.h), and keep the check holding only if the results came
 * through it. Updates g->r->checks (state and what). */
void judge_data_path(grade_ctx *g, const compiled *student, timing_sets *T);

/* Time the three versions interleaved on T's two input sets, verify each
 * set afterwards, hold the student's time against the physical floor, and
 * fill r's times, measure, bar, and the facts the verdict reads: whether the
 * student's measure clears the bar, and whether the reference's does. */
void time_and_judge(grade_ctx *g, timing_sets *T);

/* sim_sample.c */

/* The sampled run of g's timed launch on o->simulator (sim_sample.h): the
 * student's compiled kernel c (used when it is sm_90's PTX), timing sets T
 * (set 1 is run). Returns when nothing was found, after filling r->sampled,
 * r->watch and, when the simulator could not run it, r->sim_note; ends the
 * child (child_fail) with WRONG, RACE, CRASH or HANG otherwise. Does
 * nothing without o->simulator, or when g's device is the simulator. */
void sample_timed_launch(grade_ctx *g, const compiled *c, timing_sets *T);

/* grade_verdict.c */

/* End the child as TOO FAST when the student's median time `ms` is below
 * what moving `bytes` at the measured copy bandwidth takes (stats.h's
 * physical_floor_ms). */
void check_physical_floor(grade_ctx *g, double bytes, double ms);

/* The verdict itself is verdict.h's: verdict_say, once, at the end. */

#endif
