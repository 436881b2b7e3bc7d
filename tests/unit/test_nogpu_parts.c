/* test_nogpu_parts.c: the two checks that need no GPU, on a small
 * exercise of one's own (its files copies of tests/unit/fixtures/good.cu,
 * or absent): make check without a GPU (grade/nogpu.c: what the result
 * holds besides its outcome, occupancy on an H100, the note on a data-path
 * check, a block that cannot fit, a broken spec, a missing file) and
 * `grader static` (grade/static_check.c: which files it compiles, each
 * finding's line, the course's solution held to its own checks, the
 * student's resources, a message cut to its room). Few NVRTC compiles: a
 * missing file fails before the compiler.
 *
 *   CK_RUN_SUITE=nogpu_parts build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nogpu.h"
#include "static_check.h"
#include "suites.h"

static int broken;
static size_t dyn = 512;

/* out[i] = a * in[i] over n floats, in blocks of 8 x 4 x 2 threads. */
static void scale_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    double *out = inst_output(I, n, ELEM_F32);
    float *in = inst_input(I, n, ELEM_F32);
    for (size_t i = 0; i < n; i++) {
        in[i] = (float)i;
        out[i] = 2.0 * in[i];
    }
    inst_arg_float(I, 2.0f);
    inst_arg_int(I, (int)n);
    inst_launch(I, broken ? 0 : (unsigned)((n + 63) / 64), 1, 1, 8, 4, 2, dyn);
    inst_bytes_moved(I, 8.0 * (double)n);
}

static exercise scale_ex(void)
{
    exercise ex = {
        .lesson = 0, .name = "scale", .title = "test: scale", .file = "t/scale.cu",
        .kernel = "fx_scale", .knobs = {{"BLOCK", 64, 32, 1024, 1, "threads"}},
        .check_sizes = {1, 100, 0}, .time_size = 1000, .build = scale_build,
        .rtol = 1e-6, .atol = 0, .bar = BAR_SPEEDUP, .bar_share = 0.5, .bar_floor = 1.2,
    };
    return ex;
}

/* A course top in /tmp with copies of good.cu where `where` says: "b"
 * the baseline, "u" the student's file (and the demo's), "s" the solution,
 * "r" another solution, t/ref.cu; "-" none. */
static char root[64];

static void put(const char *rel)
{
    char path[256], cmd[600];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && cp tests/unit/fixtures/good.cu '%s'",
             path, path);
    ck_assert_int_eq(system(cmd), 0);
}

static void make_course(const char *where)
{
    snprintf(root, sizeof root, "/tmp/grader-nogpu-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    char path[256];
    snprintf(path, sizeof path, "%s/solutions", root);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    if (strchr(where, 'b'))
        put("grader/baselines/t/scale.cu");
    if (strchr(where, 'u')) {
        put("exercises/t/scale.cu");
        put("grader/demos/t/scale.cu");
    }
    if (strchr(where, 's'))
        put("solutions/t/scale.cu");
    if (strchr(where, 'r'))
        put("solutions/t/ref.cu");
}

static void remove_course(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}

/* ---- without a GPU ------------------------------------------------------ */

START_TEST(checked_without_a_gpu)
{
    make_course("u");
    exercise ex = scale_ex();
    ex.checks[0] = (mech_check){CHECK_PTX_HAS, "ld.global", 0, NULL, "why", KNOCK_ASYNC};
    ex.checks[1] = (mech_check){CHECK_PTX_LACKS, "ld.local", 0, NULL, "why"};
    ex.checks[2] = (mech_check){CHECK_PTX_HAS, "ld.shared", 0, NULL, "Stage it.", KNOCK_ASYNC};
    int knobs[MAX_KNOBS] = {64};
    grade_opts o = {.root = root, .student_dir = "exercises", .seed = 77};
    result r;
    memset(&r, 0x5a, sizeof r);
    check_without_gpu(&ex, knobs, &o, &r);
    ck_assert_int_eq(r.outcome, OUT_MECHANISM);
    ck_assert_int_eq(r.stopped, OUT_NOT_RUN);
    ck_assert_int_eq(r.no_gpu, 1);
    ck_assert_int_eq(r.timed, 0);
    ck_assert_uint_eq(r.seed, 77);
    ck_assert_int_eq(r.cc, NO_GPU_CC);
    ck_assert_int_eq(r.knobs[0], 64);
    ck_assert_int_eq(r.knobs[1], 0);
    ck_assert_str_eq(r.gpu, "");
    /* A data-path check that holds is said to need a GPU for its data;
     * one without a knock-out, or failing, is as it was. */
    ck_assert_str_eq(r.checks[0].what, "the PTX has 'ld.global' (whether it carries the data "
                     "needs a GPU: not judged)");
    ck_assert_str_eq(r.checks[1].what, "the PTX has no 'ld.local'");
    ck_assert_str_eq(r.checks[2].what, "the PTX has no 'ld.shared' instruction");
    ck_assert_int_eq(r.checks[2].state, CS_FAILS);
    ck_assert_str_eq(r.failed_check, "Stage it.");
    /* The student's resources, with the launch's dynamic shared memory and
     * its occupancy on an H100 (64 threads a block); none for the others. */
    const resources *s = &r.res[V_STUDENT];
    ck_assert_int_eq(s->known, 1);
    ck_assert_int_eq(s->smem_dynamic, 512);
    ck_assert_int_gt(s->regs, 0);
    ck_assert_int_gt(s->occupancy_pct, 0);
    ck_assert_int_gt(s->blocks_per_sm, 0);
    ck_assert_int_eq(s->occupancy_pct, 100 * s->blocks_per_sm * 2 / 64);
    ck_assert_int_eq(r.res[V_BASELINE].occupancy_pct, -1);
    ck_assert_int_eq(r.res[V_SOLUTION].occupancy_pct, -1);
    ck_assert_int_eq(r.res[V_BASELINE].known, 0);

    /* Not one block fits: RESOURCES, why, and nothing checked. */
    dyn = 300 * 1024;
    memset(&r, 0x5a, sizeof r);
    check_without_gpu(&ex, knobs, &o, &r);
    dyn = 512;
    ck_assert_int_eq(r.outcome, OUT_RESOURCES);
    ck_assert_int_eq(r.stopped, OUT_RESOURCES);
    ck_assert_str_eq(r.message, "Not one block of your kernel fits on an SM of an H100: a block "
                     "asks for 307200 bytes of shared memory; a block may have at most 232448. "
                     "On a GPU the launch would be refused. (Nothing was run: there is no GPU "
                     "here.)");
    ck_assert_int_eq(r.res[V_STUDENT].occupancy_pct, 0);
    ck_assert_int_eq(r.checks[0].state, CS_NOT_EVALUATED);
    remove_course();
}
END_TEST

START_TEST(nothing_to_check_without_a_gpu)
{
    make_course("-");
    exercise ex = scale_ex();
    int knobs[MAX_KNOBS] = {64};
    grade_opts o = {.root = root, .student_dir = "exercises", .seed = 5};
    result r;
    memset(&r, 0x5a, sizeof r);
    check_without_gpu(&ex, knobs, &o, &r);
    ck_assert_int_eq(r.outcome, OUT_MISSING);
    ck_assert_int_eq(r.stopped, OUT_MISSING);
    ck_assert_str_eq(r.message, "cannot read exercises/t/scale.cu");
    ck_assert_str_eq(r.detail, "");
    ck_assert_uint_eq(r.seed, 5);

    broken = 1;
    memset(&r, 0x5a, sizeof r);
    check_without_gpu(&ex, knobs, &o, &r);
    broken = 0;
    ck_assert_int_eq(r.outcome, OUT_INTERNAL);
    ck_assert_int_eq(r.stopped, OUT_INTERNAL);
    ck_assert_str_eq(r.message, "The exercise's spec is broken: build() set a zero grid or "
                     "block dimension");
    ck_assert_int_eq(r.res[V_STUDENT].occupancy_pct, -1);
    remove_course();
}
END_TEST

/* When ptxas's numbers for the kernel cannot be read (here the file's own
 * #warning names the entry first, so the block it finds has no "Used"
 * line; an NVRTC that cannot build sm_90 natively gives no report at all)
 * the occupancy is unknown, but the checks are still judged and the
 * verdict said. */
START_TEST(checks_judged_when_resources_unknown)
{
    make_course("u");
    char path[256];
    snprintf(path, sizeof path, "%s/exercises/t/scale.cu", root);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#warning Compiling entry function 'fx_scale'\n"
          "extern \"C\" __global__ void fx_scale(float *out, const float *in, float a, int n)\n"
          "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n)\n        out[i] = a * in[i];\n}\n", f);
    fclose(f);
    exercise ex = scale_ex();
    ex.checks[0] = (mech_check){CHECK_PTX_HAS, "ld.shared", 0, NULL, "Stage it.", KNOCK_ASYNC};
    int knobs[MAX_KNOBS] = {64};
    grade_opts o = {.root = root, .student_dir = "exercises", .seed = 3};
    result r;
    memset(&r, 0x5a, sizeof r);
    check_without_gpu(&ex, knobs, &o, &r);
    remove_course();
    ck_assert_msg(r.outcome == OUT_MECHANISM, "outcome %d: %s", r.outcome, r.message);
    ck_assert_int_eq(r.res[V_STUDENT].known, 0);
    ck_assert_int_eq(r.res[V_STUDENT].occupancy_pct, -1);
    ck_assert_int_eq(r.checks[0].state, CS_FAILS);
    ck_assert_str_eq(r.failed_check, "Stage it.");
}
END_TEST

/* ---- grader static ------------------------------------------------------ */

static int static_of(const exercise *ex, char *msg, size_t len, resources *res)
{
    int knobs[MAX_KNOBS] = {64};
    grade_opts o = {.root = root, .student_dir = "exercises"};
    return static_check_exercise(ex, knobs, &o, 90, msg, len, res);
}

/* Every file that does not build gets its line, named with the GPU
 * generation; a broken spec comes first; nothing is cut short of the room
 * and nothing goes past it. */
START_TEST(static_findings)
{
    make_course("-");
    exercise ex = scale_ex();
    ex.reference = "t/ref.cu";
    char msg[4096], want[4096];
    ck_assert_int_eq(static_of(&ex, msg, sizeof msg, NULL), -1);
    snprintf(want, sizeof want,
             "%s/grader/baselines/t/scale.cu (sm_90): cannot read grader/baselines/t/scale.cu\n"
             "%s/exercises/t/scale.cu (sm_90): cannot read exercises/t/scale.cu\n"
             "%s/solutions/t/ref.cu (sm_90): cannot read solutions/t/ref.cu\n"
             "%s/solutions/t/scale.cu (sm_90): cannot read solutions/t/scale.cu\n",
             root, root, root, root);
    ck_assert_str_eq(msg, want);
    broken = 1;
    ck_assert_int_eq(static_of(&ex, msg, sizeof msg, NULL), -1);
    broken = 0;
    const char *spec = "spec: build() set a zero grid or block dimension\n";
    ck_assert_msg(!strncmp(msg, spec, strlen(spec)), "%s", msg);
    ck_assert_str_eq(msg + strlen(spec), want);
    /* Cut to the room: the findings up to it, never past it. */
    for (size_t len = 1; len < 200; len += 37) {
        memset(msg, 'x', sizeof msg);
        ck_assert_int_eq(static_of(&ex, msg, len, NULL), -1);
        ck_assert_uint_eq(strlen(msg), len - 1);
        ck_assert_msg(!strncmp(msg, want, len - 1), "%zu: %s", len, msg);
        ck_assert_int_eq(msg[len], 'x');
    }
    remove_course();
}
END_TEST

/* The course's own solution must hold its checks (a demo's need not, and
 * the student's file is not judged here); the stub's resources come back
 * with the launch's dynamic shared memory and no occupancy. */
START_TEST(static_holds_the_solution_to_its_checks)
{
    make_course("bus");
    exercise ex = scale_ex();
    ex.checks[0] = (mech_check){CHECK_PTX_HAS, "ld.shared", 0, NULL, "why"};
    char msg[4096], want[1024];
    resources res;
    memset(&res, 0x5a, sizeof res);
    ck_assert_int_eq(static_of(&ex, msg, sizeof msg, &res), -1);
    snprintf(want, sizeof want, "%s/solutions/t/scale.cu (sm_90) fails its own mechanism check: "
             "the PTX has no 'ld.shared' instruction\n", root);
    ck_assert_str_eq(msg, want);
    ck_assert_int_eq(res.known, 1);
    ck_assert_int_gt(res.regs, 0);
    ck_assert_int_eq(res.smem_dynamic, 512);
    ck_assert_int_eq(res.occupancy_pct, -1);
    /* A demo is expected to fail its checks. */
    ex.demo = 1;
    ck_assert_int_eq(static_of(&ex, msg, sizeof msg, NULL), 0);
    ck_assert_str_eq(msg, "");
    /* Checks that hold: nothing to say. */
    ex.demo = 0;
    ex.checks[0].text = "ld.global";
    ck_assert_int_eq(static_of(&ex, msg, sizeof msg, NULL), 0);
    ck_assert_str_eq(msg, "");
    remove_course();
}
END_TEST

/* Another solution as the reference: it is compiled, and the exercise's
 * own solution is held to the checks as a student's file would be. */
START_TEST(static_with_another_reference)
{
    make_course("busr");
    exercise ex = scale_ex();
    ex.reference = "t/ref.cu";
    ex.checks[0] = (mech_check){CHECK_PTX_HAS, "ld.shared", 0, NULL, "why"};
    char msg[4096], want[1024];
    ck_assert_int_eq(static_of(&ex, msg, sizeof msg, NULL), -1);
    snprintf(want, sizeof want, "%s/solutions/t/scale.cu (sm_90) fails its own mechanism check: "
             "the PTX has no 'ld.shared' instruction\n", root);
    ck_assert_str_eq(msg, want);
    remove_course();
}
END_TEST

Suite *nogpu_parts_suite(void)
{
    Suite *s = suite_create("nogpu_parts");
    TCase *tc = tcase_create("nogpu");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, checked_without_a_gpu);
    tcase_add_test(tc, nothing_to_check_without_a_gpu);
    tcase_add_test(tc, checks_judged_when_resources_unknown);
    suite_add_tcase(s, tc);
    tc = tcase_create("static");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, static_findings);
    tcase_add_test(tc, static_holds_the_solution_to_its_checks);
    tcase_add_test(tc, static_with_another_reference);
    suite_add_tcase(s, tc);
    return s;
}
