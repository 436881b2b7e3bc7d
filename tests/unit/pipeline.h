/* pipeline.h: the whole grading pipeline on the host backend
 * (grader/device/device_host.h): two small exercises, their baseline and
 * reference "kernels" as C functions, and a way to grade a student's C
 * kernel through grade_in_child exactly as `make check` grades a .cu file.
 * Defined in test_pipeline_fixture.c; used by test_pipeline.c (each
 * verdict) and test_cheats.c (kernels that try to get past a rule). */
#ifndef TESTS_UNIT_PIPELINE_H
#define TESTS_UNIT_PIPELINE_H

#include "device_host.h"
#include "grade.h"
#include "result.h"

/* z = a*x + y over n floats; knob BLOCK (threads per block, default 256).
 * Checked at n = 1, 100, 1000; timed at 4096. Bar: 50% of the reference's
 * speedup, at least 1.2x. */
extern const exercise t_axpy;
/* z[i] = coef[i % 16] * x[i], coef in constant memory (inst_constant). */
extern const exercise t_table;
#define TABLE 16

/* Two outputs in any order, of two element types: (a, x, b, y, n) with
 * a[i] = x[i] + y[i] (float) and b[i] = x[i] * y[i] (double), the outputs
 * first and in the middle. Checked at 1, 100, 1000; timed at 4096; speedup
 * bar as t_axpy's. */
extern const exercise t_pair;
typedef struct pair_args {
    float *a, *x, *y;
    double *b;
    int n;
} pair_args;
pair_args pair_of(const host_call *c);
/* a and b right for i in [from, to). */
void pair_range(pair_args P, int from, int to);

/* The builds, for tests that make a variant of an exercise. */
void axpy_build(instance *I, size_t n, const int *knobs, const device_facts *dev);

/* The table kernels' body: z = coef[i % TABLE] * x with simulated time
 * `ms`; the reference; the student's __constant__ copy (what use_kernels
 * registers as the student's "coef"). */
void table_range(host_call *c, const float *coef, double ms);
void table_solution(host_call *c);
extern float student_coef[TABLE];

/* Simulated times at the timing size, in ms: the baseline 0.040 and the
 * reference 0.010 (4x: the bar is 2.5x, a student time of 0.016). */
#define T_BASE 0.040
extern double t_solution;      /* default 0.010 */

/* What an axpy kernel gets, read from its launch. */
typedef struct axpy_args {
    float *x, *y, *z;
    float a;
    int n;
} axpy_args;
axpy_args axpy_of(const host_call *c);
/* z[i] = a*x[i] + y[i] for i in [from, to). */
void axpy_range(axpy_args A, int from, int to);

/* Register ex's baseline and reference (the honest kernels) and `student`
 * as the student's file, with PTX "ld.global.f32" and 32 registers. */
void use_kernels(const exercise *ex, host_fn student);
/* The student's module as use_kernels registers it, to change and
 * host_add again (PTX, resources, compile log, constants...). */
host_module student_module(const exercise *ex, host_fn fn);
/* The reference solution's module, likewise. */
host_module solution_module(const exercise *ex, host_fn fn);

/* The baseline's module, likewise. */
host_module baseline_module(const exercise *ex, host_fn fn);
/* Register three kernels of one's own: the baseline, the reference and
 * the student's (PTX and resources as use_kernels gives them). */
void use_three(const exercise *ex, host_fn baseline, host_fn solution, host_fn student);

/* Grade ex (knob BLOCK = block, 0: the default) on the host backend in a
 * child, as make check does. */
void grade_host(const exercise *ex, int block, result *r);
/* The options grade_host uses, for a test that changes one (time budget,
 * correctness-only, seed) and grades with grade_host_opts. */
grade_opts host_opts(void);
void grade_host_opts(const exercise *ex, const grade_opts *o, result *r);
/* The outcome must be `o` and the message contain `text` (may be NULL). */
void expect(const result *r, enum outcome o, const char *text);

#endif
