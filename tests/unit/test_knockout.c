/* test_knockout.c: a mechanism counts only when it carries the data
 * (grader/rules/knockout.h, issue 15).
 *
 *   rewrite    the PTX rewrite on hand-written lines (what it redirects,
 *              what it keeps), on every solution's NVRTC PTX and on every
 *              gaming kernel of tests/gpu/gaming/ and accepted answer of
 *              tests/gpu/accepted/ (it finds the mechanism, and ptxas
 *              assembles the result for sm_90); every gaming
 *              kernel passes every text and size check, so only the
 *              knock-out stands between it and a PASS
 *   verdict    the knock-out run on the host backend: a real mechanism
 *              holds, a dead one, a token one and one the PTX only names in
 *              a comment get MECHANISM; likewise for an L2 prefetch and a
 *              __constant__ table; without a GPU the data path is said to be
 *              not judged
 *
 *   CK_RUN_SUITE=knockout build/tests/unit_tests */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "calibration.h"
#include "compile.h"
#include "fixture.h"
#include "knockout.h"
#include "mechanism.h"
#include "nogpu.h"
#include "pipeline.h"
#include "ptx.h"
#include "suites.h"

static const knock_layout LAYOUT = {.delta = 4096, .lo = 0x10000, .hi = 0x20000,
                                    .span = 0x30000};

/* ---- ptxas on a rewritten kernel --------------------------------------- */

/* 0 when ptxas assembles `ptx` for sm_90; else its log in `log`. */
static int assemble(const char *ptx, char *log, size_t len)
{
    char ptxas[1024], src[] = "/tmp/knockout-XXXXXX", cmd[2200];
    snprintf(ptxas, sizeof ptxas, "%s/../bin/ptxas", cuda_include_dir());
    ck_assert_msg(access(ptxas, X_OK) == 0, "no ptxas at %s: the CUDA toolkit's ptxas is "
                  "needed to check that rewritten kernels assemble", ptxas);
    int fd = mkstemp(src);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, ptx, strlen(ptx)), (ssize_t)strlen(ptx));
    close(fd);
    snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 '%s' -o /dev/null 2>&1", ptxas, src);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(log, 1, len - 1, p);
    log[n] = 0;
    int st = pclose(p);
    unlink(src);
    return st;
}

/* Instructions of the PTX whose opcode starts with `op` and whose text
 * contains `also`, every statement of a line counted (the reader's statements, not
 * lines: inline assembly puts several on one): what the rewrite must
 * find, counted without it. */
static int count_lines(const char *ptx, const char *op, const char *also)
{
    ptx_prog *p = ptx_read(ptx);
    ck_assert_ptr_nonnull(p);
    int n = 0;
    for (int i = 0; i < p->n; i++) {
        const char *o = p->stmt[i].insn.opcode;
        n += p->stmt[i].kind == PS_INSN && !strncmp(o, op, strlen(op)) &&
             strstr(p->stmt[i].text, also);
    }
    ptx_free(p);
    return n;
}

/* How many instructions the rewrite of kind k must knock in `ptx`; -1 when
 * only a bound is known (KNOCK_SHARED: at most every copy and store, and
 * every global load whose value a store takes: a ring's stored register
 * comes from its prologue's load and its loop's, tests/gpu/gaming/
 * ring_read_back). */
static int expected_knocks(const char *ptx, enum knock_kind k, int *at_most)
{
    *at_most = 0;
    switch (k) {
    case KNOCK_ASYNC:
        return count_lines(ptx, "cp.async.ca.shared", "") +
               count_lines(ptx, "cp.async.cg.shared", "") +
               count_lines(ptx, "cp.async.bulk.shared", ".global");
    case KNOCK_BULK: return count_lines(ptx, "cp.async.bulk.shared", ".global");
    case KNOCK_VECTOR: return count_lines(ptx, "ld.global", ".v4.");
    case KNOCK_PREFETCH: return count_lines(ptx, "prefetch.global.L2", "");
    default:
        *at_most = count_lines(ptx, "st.", ".shared") + count_lines(ptx, "cp.async.", "") +
                   count_lines(ptx, "ld.global", "");
        return -1;
    }
}

/* Rewrite c's PTX for every knock-out kind of ex's checks: each must find
 * every instruction of the mechanism (`exactly`: that many, 0 to count them)
 * and assemble. */
static void rewrite_all_kinds(const exercise *ex, const compiled *c, const char *who,
                              int exactly)
{
    static char log[8192];
    for (int i = 0; i < MAX_CHECKS && ex->checks[i].kind != CHECK_NONE; i++) {
        enum knock_kind k = ex->checks[i].knock;
        if (k == KNOCK_NONE || k == KNOCK_CONST)
            continue;
        int found;
        char *ptx = knockout_ptx(c->ptx, k, &LAYOUT, &found);
        ck_assert_msg(ptx && found > 0, "%s: the rewrite for %s found nothing to knock out",
                      who, knock_name(k));
        int at_most, want = exactly ? exactly : expected_knocks(c->ptx, k, &at_most);
        if (want >= 0)
            ck_assert_msg(found == want, "%s: the rewrite for %s knocked %d instructions, "
                          "not %d", who, knock_name(k), found, want);
        else
            ck_assert_msg(found <= at_most, "%s: the rewrite for %s knocked %d instructions, "
                          "more than the %d copies, stores and loads", who, knock_name(k), found,
                          at_most);
        /* A prefetch is judged against the loads of its lines: the
         * rewrite must see the kernel's loads (else only coverage counts). */
        if (k == KNOCK_PREFETCH)
            ck_assert_msg(count_lines(ptx, "add.u32", "%kon0, %kon0, 1") > 0, "%s: the rewrite "
                          "for %s counts none of its loads", who, knock_name(k));
        ck_assert_msg(assemble(ptx, log, sizeof log) == 0, "%s: the rewrite for %s does not "
                      "assemble:\n%.3000s", who, knock_name(k), log);
        free(ptx);
    }
}

static void compile_default(const exercise *ex, const char *path, compiled *c)
{
    int knobs[MAX_KNOBS] = {0};
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        knobs[k] = ex->knobs[k].def;
    compile_file(path, ex, ex->kernel, knobs, 90, c);
    ck_assert_msg(c->ok, "%s does not compile: %s", path, c->error);
}

static int has_knock(const exercise *ex)
{
    for (int i = 0; i < MAX_CHECKS && ex->checks[i].kind != CHECK_NONE; i++)
        if (ex->checks[i].knock != KNOCK_NONE)
            return 1;
    return 0;
}

/* The exercises whose checks name a knock-out, in registry order. */
static const exercise *knocked[MAX_REGISTERED];
static int n_knocked;

START_TEST(every_data_path_check_is_knocked)
{
    /* Issue 15: lessons 2, 3 (two), 4, 6, 8, 9, 10 (two), 11 (two), 12, 13. A
     * check that reads text or a size must have a knock-out, or a dead
     * branch passes it. */
    ck_assert_int_ge(n_knocked, 13);
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED);
    for (int e = 0; e < n && e < MAX_REGISTERED; e++) {
        int knobs[MAX_KNOBS] = {0};
        for (int k = 0; k < MAX_KNOBS && all[e]->knobs[k].name; k++)
            knobs[k] = all[e]->knobs[k].def;
        for (int i = 0; i < MAX_CHECKS && all[e]->checks[i].kind != CHECK_NONE; i++) {
            const mech_check *m = &all[e]->checks[i];
            /* Asking for no shared memory at all cannot be gamed. */
            long smem = m->expect ? m->expect(knobs) : m->value;
            int gameable = m->kind == CHECK_PTX_HAS || m->kind == CHECK_MIN_LOAD_BYTES ||
                           (m->kind == CHECK_SMEM_BYTES && smem > 0);
            ck_assert_msg(!gameable || m->knock != KNOCK_NONE, "lesson%d/%s: check %d ('%s') "
                          "is judged on its text or size alone", all[e]->lesson, all[e]->name,
                          i, m->text ? m->text : "shared memory size");
        }
    }
}
END_TEST

/* The knock-out runs on the two timing sets (knockout_run.c): one delta
 * moves set 1 to set 2 only when they have one shape. A spec whose timing
 * sets differ (a scalar drawn from the seed, a count) would have its
 * mechanisms never judged (CS_UNKNOWN), silently. */
START_TEST(timing_sets_share_their_shape)
{
    const exercise *ex = knocked[_i];
    int knobs[MAX_KNOBS] = {0};
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        knobs[k] = ex->knobs[k].def;
    device_facts dev;
    calibration_device(&dev);
    instance A, B;
    ck_assert_int_eq(instance_build(&A, ex, ex->time_size, knobs, &dev, 42 + 1000), 0);
    ck_assert_int_eq(instance_build(&B, ex, ex->time_size, knobs, &dev, 42 + 1001), 0);
    const char *who = ex->name;
    ck_assert_msg(A.nbufs == B.nbufs && A.nargs == B.nargs && A.dyn_smem == B.dyn_smem &&
                  !memcmp(A.grid, B.grid, sizeof A.grid) &&
                  !memcmp(A.block, B.block, sizeof A.block), "%s: launch or counts differ", who);
    for (int b = 0; b < A.nbufs; b++)
        ck_assert_msg(A.bufs[b].count == B.bufs[b].count && A.bufs[b].type == B.bufs[b].type,
                      "%s: buffer %d differs", who, b);
    for (int a = 0; a < A.nargs; a++)
        ck_assert_msg(A.args[a].kind == B.args[a].kind && A.args[a].i == B.args[a].i &&
                      A.args[a].f == B.args[a].f && A.args[a].d == B.args[a].d,
                      "%s: argument %d differs between the timing sets", who, a);
    instance_free(&A);
    instance_free(&B);
}
END_TEST

START_TEST(solution_rewrites_and_assembles)
{
    const exercise *ex = knocked[_i];
    char path[512], who[600];
    compiled c;
    snprintf(path, sizeof path, "solutions/%s", ex->reference ? ex->reference : ex->file);
    snprintf(who, sizeof who, "lesson%d/%s's solution", ex->lesson, ex->name);
    compile_default(ex, path, &c);
    rewrite_all_kinds(ex, &c, who, 0);
    compiled_free(&c);
}
END_TEST

/* ---- the gaming kernels ------------------------------------------------- */

static fixture gaming[FIXTURE_MAX];
static int n_gaming;

static const exercise *find_exercise(int lesson, const char *name)
{
    if (lesson < 0 || lesson >= N_LESSONS)
        return NULL;
    for (const exercise *const *e = lesson_exercises[lesson]; *e; e++)
        if (!strcmp((*e)->name, name))
            return *e;
    return NULL;
}

/* The accepted answers (right, written unlike the reference): their
 * mechanisms must be found, or the knock-out would fail a right answer. */
static fixture accepted[FIXTURE_MAX];
static int n_accepted;

START_TEST(accepted_answer_rewrites_and_assembles)
{
    const fixture *f = &accepted[_i];
    const exercise *ex = find_exercise(f->lesson, f->exercise);
    ck_assert_msg(ex != NULL, "%s: no exercise lesson%d/%s", f->id, f->lesson, f->exercise);
    ck_assert_msg(!f->set[0], "%s sets knobs; this test compiles with the defaults", f->id);
    char path[600];
    compiled c;
    snprintf(path, sizeof path, "%s/%s", f->dir, ex->file);
    compile_default(ex, path, &c);
    rewrite_all_kinds(ex, &c, f->id, 0);
    compiled_free(&c);
}
END_TEST

START_TEST(gaming_kernels_exist)
{
    /* One per data-path-checked exercise, at least. */
    ck_assert_int_ge(n_gaming, n_knocked);
    for (int k = 0; k < n_knocked; k++) {
        int covered = 0;
        for (int g = 0; g < n_gaming; g++)
            covered |= find_exercise(gaming[g].lesson, gaming[g].exercise) == knocked[k];
        ck_assert_msg(covered, "no kernel in tests/gpu/gaming/ games lesson%d/%s",
                      knocked[k]->lesson, knocked[k]->name);
    }
}
END_TEST

START_TEST(gaming_kernel_passes_text_checks_and_rewrites)
{
    const fixture *f = &gaming[_i];
    const exercise *ex = find_exercise(f->lesson, f->exercise);
    ck_assert_msg(ex != NULL, "%s: no exercise lesson%d/%s", f->id, f->lesson, f->exercise);
    char path[600];
    compiled c;
    snprintf(path, sizeof path, "%s/%s", f->dir, ex->file);
    /* One refused before it runs (tell_grid reads %nsmid, a special
     * register that tells launches apart): no rewrite to look at, and
     * the refusal is what its expect file says. */
    if (!strcmp(f->outcome, "REFUSED")) {
        int knobs[MAX_KNOBS] = {0};
        for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
            knobs[k] = ex->knobs[k].def;
        compile_file(path, ex, ex->kernel, knobs, 90, &c);
        ck_assert_msg(!c.ok && c.outcome == OUT_REFUSED, "%s: expected REFUSED, got %s: %s",
                      f->id, outcome_word(c.outcome), c.error);
        compiled_free(&c);
        return;
    }
    compile_default(ex, path, &c);
    /* It games every check that reads text or sizes: without the knock-out
     * it would pass them all. */
    int knobs[MAX_KNOBS] = {0};
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        knobs[k] = ex->knobs[k].def;
    resources res = c.res;
    res.occupancy_pct = -1;
    char what[512];
    int failed = first_failed_check(ex, &c, &res, knobs, what, sizeof what);
    ck_assert_msg(failed < 0, "%s fails check %d on its text (%s): it games nothing", f->id,
                  failed, what);
    rewrite_all_kinds(ex, &c, f->id, 0);
    compiled_free(&c);
}
END_TEST

/* ---- the rewrite on hand-written PTX ----------------------------------- */

#define ENTRY ".visible .entry k(\n)\n{\n\t.reg .pred \t%p<3>;\n\t.reg .f32 \t%f<9>;\n" \
              "\t.reg .b32 \t%r<9>;\n\t.reg .b64 \t%rd<9>;\n"

START_TEST(copies_are_redirected_in_place)
{
    const char *ptx = ENTRY "\t@%p1 cp.async.ca.shared.global [%r1], [%rd2+8], 8, 8;\n"
                      "\tcp.async.commit_group;\n\tret;\n}\n";
    int found;
    char *out = knockout_ptx(ptx, KNOCK_ASYNC, &LAYOUT, &found);
    ck_assert_int_eq(found, 1);
    ck_assert_ptr_nonnull(strstr(out, "add.s64 %koa0, %rd2, 4096;"));
    ck_assert_ptr_nonnull(strstr(out, "@%p1 cp.async.ca.shared.global [%r1], [%koa0+8], 8, 8;"));
    ck_assert_ptr_null(strstr(out, "[%rd2+8]"));
    free(out);
    /* Nothing of the kind: no copy, so nothing to judge by. */
    ck_assert_ptr_null(knockout_ptx(ptx, KNOCK_BULK, &LAYOUT, &found));
    ck_assert_int_eq(found, 0);
    ck_assert_ptr_null(knockout_ptx(ptx, KNOCK_CONST, &LAYOUT, &found));
    /* A comment naming the instruction is not an instruction. */
    ck_assert_ptr_null(knockout_ptx(ENTRY "\t// cp.async.ca.shared.global [%r1], [%rd2];\n"
                                    "\tret;\n}\n", KNOCK_ASYNC, &LAYOUT, &found));
}
END_TEST

START_TEST(shared_store_takes_a_twin_the_registers_keep_the_load)
{
    /* v = in-range ? x[i] : 0, converted, stored to shared; the same load
     * also feeds a sum kept in registers. */
    const char *ptx = ENTRY "\tmov.f32 \t%f1, 0f00000000;\n\t@%p1 bra \tL1;\n"
                      "\tld.global.f32 \t%f1, [%rd1];\nL1:\n"
                      "\tselp.f32 \t%f2, %f1, %f3, %p2;\n\tadd.f32 \t%f4, %f4, %f1;\n"
                      "\tst.shared.f32 \t[%rd3], %f2;\n\tret;\n}\n";
    int found;
    char *out = knockout_ptx(ptx, KNOCK_SHARED, &LAYOUT, &found);
    ck_assert_int_eq(found, 1);
    ck_assert_ptr_nonnull(strstr(out, "mov.f32 %kotf1, 0f00000000;"));
    ck_assert_ptr_nonnull(strstr(out, "ld.global.f32 %kotf1, [%koa0];"));
    ck_assert_ptr_nonnull(strstr(out, "selp.f32 %kotf2, %kotf1, %f3, %p2;"));
    ck_assert_ptr_nonnull(strstr(out, "st.shared.f32 [%rd3], %kotf2;"));
    /* The store of loaded data counts its shared address and size, under
     * its predicate. */
    ck_assert_ptr_nonnull(strstr(out, "red.global.min.u32 [%koa2], %kow1;"));
    ck_assert_ptr_nonnull(strstr(out, "add.u32 %kow1, %kow1, 4;"));
    ck_assert_ptr_nonnull(strstr(out, "red.global.max.u32 [%koa2+4], %kow1;"));
    /* What the kernel computes in registers still reads set A. */
    ck_assert_ptr_nonnull(strstr(out, "\tadd.f32 \t%f4, %f4, %f1;"));
    ck_assert_ptr_nonnull(strstr(out, "\tld.global.f32 \t%f1, [%rd1];"));
    ck_assert_ptr_nonnull(strstr(out, ".reg .f32 %kotf<9>;"));
    free(out);
    /* Two loaded halves packed into one register on their way. */
    const char *packed = ENTRY "\tld.global.v2.u32 \t{%r1, %r2}, [%rd1];\n"
                         "\tmov.b64 \t%rd2, {%r1, %r2};\n\tst.shared.u64 \t[%rd3], %rd2;\n"
                         "\tret;\n}\n";
    out = knockout_ptx(packed, KNOCK_SHARED, &LAYOUT, &found);
    ck_assert_int_eq(found, 1);
    ck_assert_ptr_nonnull(strstr(out, "ld.global.v2.u32 {%kotr1, %kotr2}, [%koa0];"));
    ck_assert_ptr_nonnull(strstr(out, "mov.b64 %kotrd2, {%kotr1, %kotr2};"));
    ck_assert_ptr_nonnull(strstr(out, "st.shared.u64 [%rd3], %kotrd2;"));
    free(out);
    /* A value only parked in registers: no store to shared, nothing found. */
    const char *regs_only = ENTRY "\tld.global.f32 \t%f1, [%rd1];\n"
                            "\tst.global.f32 \t[%rd3], %f1;\n\tret;\n}\n";
    ck_assert_ptr_null(knockout_ptx(regs_only, KNOCK_SHARED, &LAYOUT, &found));
}
END_TEST

START_TEST(prefetch_marks_under_its_predicate)
{
    const char *ptx = ENTRY "\t@!%p1 prefetch.global.L2 [%rd4+256];\n\tret;\n}\n";
    int found;
    char *out = knockout_ptx(ptx, KNOCK_PREFETCH, &LAYOUT, &found);
    ck_assert_int_eq(found, 1);
    ck_assert_ptr_nonnull(strstr(out, "@!%p1 prefetch.global.L2 [%rd4+256];"));
    ck_assert_ptr_nonnull(strstr(out, "add.s64 %koa0, %rd4, 256;"));
    ck_assert_ptr_nonnull(strstr(out, "cvta.to.global.u64 %koa1, 65536;"));
    ck_assert_ptr_nonnull(strstr(out, "setp.lt.and.u64 %kop0, %koa0, %koa2, %kop0;"));
    ck_assert_ptr_nonnull(strstr(out, "and.pred %kop0, %kop0, !%p1;"));
    /* The thread's load count so far, at its line's place in set B. */
    ck_assert_ptr_nonnull(strstr(out, "and.b64 %koa0, %koa0, -128;"));
    ck_assert_ptr_nonnull(strstr(out, "add.s64 %koa0, %koa0, 4096;"));
    ck_assert_ptr_nonnull(strstr(out, "@%kop0 red.global.min.u32 [%koa0+4], %kon0;"));
    ck_assert_ptr_nonnull(strstr(out, ".reg .b32 %kon<1>;\n\tmov.u32 %kon0, 0;"));
    /* A prefetch is no load: it counts nothing. */
    ck_assert_ptr_null(strstr(out, "add.u32 %kon0"));
    free(out);
}
END_TEST

START_TEST(prefetch_rewrite_marks_and_counts_the_loads)
{
    /* A global load, a generic one and a copy's source each mark their
     * line and count; a load from shared memory does neither. */
    const char *ptx = ENTRY "\t@%p1 ld.global.nc.f64 \t%fd1, [%rd2+8];\n"
                      "\tld.f32 \t%f1, [%rd3];\n\tld.shared.f32 \t%f2, [%r1];\n"
                      "\tcp.async.ca.shared.global [%r1], [%rd5], 8, 8;\n"
                      "\tprefetch.global.L2 [%rd4];\n\tret;\n}\n";
    int found;
    char *out = knockout_ptx(ptx, KNOCK_PREFETCH, &LAYOUT, &found);
    ck_assert_int_eq(found, 1);
    ck_assert_ptr_nonnull(strstr(out, "add.s64 %koa0, %rd2, 8;"));
    ck_assert_ptr_nonnull(strstr(out, "and.pred %kop0, %kop0, %p1;"));
    ck_assert_ptr_nonnull(strstr(out, "@%kop0 red.global.min.u32 [%koa0+0], %kon0;\n"
                                      "\t@%kop0 add.u32 %kon0, %kon0, 1;"));
    /* The generic load is compared with the generic bounds, then marks its
     * global address. */
    ck_assert_ptr_nonnull(strstr(out, "add.s64 %koa3, %rd3, 0;\n\tmov.u64 %koa4, 65536;"));
    ck_assert_ptr_nonnull(strstr(out, "cvta.to.global.u64 %koa3, %koa3;"));
    ck_assert_ptr_nonnull(strstr(out, "add.s64 %koa6, %rd5, 0;"));
    ck_assert_ptr_nonnull(strstr(out, "@%kop6 add.u32 %kon0, %kon0, 1;"));
    ck_assert_ptr_nonnull(strstr(out, "@%kop9 red.global.min.u32 [%koa9+4], %kon0;"));
    ck_assert_int_eq(count_lines(out, "add.u32", "%kon0, %kon0, 1"), 3);
    /* Every original line stays, unchanged. */
    ck_assert_ptr_nonnull(strstr(out, "\t@%p1 ld.global.nc.f64 \t%fd1, [%rd2+8];\n"));
    ck_assert_ptr_nonnull(strstr(out, "\tcp.async.ca.shared.global [%r1], [%rd5], 8, 8;\n"));
    free(out);
}
END_TEST

/* ---- the verdict on the host backend ------------------------------------ */

/* z = 2x + y through a "mechanism": the knocked copy reads x and y at
 * +delta (set B) for the elements the mechanism carries. */
static void axpy_fixed_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    float *x = inst_input(I, n, ELEM_F32);
    float *y = inst_input(I, n, ELEM_F32);
    double *z = inst_output(I, n, ELEM_F32);
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)((int)(inst_u32(I) % 2000) - 1000) / 1024.0f;
        y[i] = (float)((int)(inst_u32(I) % 2000) - 1000) / 1024.0f;
        z[i] = 2.0 * x[i] + y[i];
    }
    inst_arg_float(I, 2.0f);
    inst_arg_int(I, (int)n);
    inst_launch(I, (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1, 0);
    inst_bytes_moved(I, 12.0 * (double)n);
}

#define T_KNOCKED(NAME, KIND, TEXT)                                                    \
    static const exercise NAME = {                                                     \
        .lesson = 0, .name = #NAME, .title = "test: a mechanism on the data path",     \
        .file = "t/axpy.cu", .kernel = "axpy", .check_sizes = {1, 100, 1000, 0},      \
        .time_size = 1000, .build = axpy_fixed_build, .rtol = 1e-5, .atol = 1e-6,     \
        .bar = BAR_SPEEDUP, .bar_share = 0.5, .bar_floor = 1.2,                        \
        .checks = {{CHECK_PTX_HAS, TEXT, 0, NULL, "teach", .knock = KIND}},           \
    }
T_KNOCKED(t_async, KNOCK_ASYNC, "cp.async");
T_KNOCKED(t_prefetch, KNOCK_PREFETCH, "prefetch.global.L2");

static const char async_ptx[] = ENTRY "\tcp.async.ca.shared.global [%r1], [%rd2], 4, 4;\n"
                                      "\tret;\n}\n";
static const char prefetch_ptx[] = ENTRY "\tprefetch.global.L2 [%rd2];\n\tret;\n}\n";

static void through(host_call *c, int carried)
{
    axpy_args A = axpy_of(c);
    for (int i = 0; i < A.n; i++) {
        long long d = i < carried ? c->delta : 0;
        A.z[i] = A.a * *(float *)((char *)&A.x[i] + d) + *(float *)((char *)&A.y[i] + d);
    }
    c->ms = 0.010;
}
static void all_through(host_call *c) { through(c, 1 << 30); }
static void token_through(host_call *c) { through(c, 1); }
static void plain(host_call *c) { through(c, 0); }

/* Grade ex with a student whose PTX is `ptx`, running `fn`, knocked `ko`. */
static void grade_knocked(const exercise *ex, const char *ptx, host_fn fn, host_fn ko,
                          result *r)
{
    use_kernels(ex, fn);
    host_module m = student_module(ex, fn);
    m.ptx = ptx;
    m.knocked = ko;
    ck_assert_int_eq(host_add(&m), 0);
    grade_host(ex, 0, r);
}

static result R;

START_TEST(mechanism_that_carries_the_data_holds)
{
    grade_knocked(&t_async, async_ptx, plain, all_through, &R);
    expect(&R, OUT_PASS, NULL);
    ck_assert_int_eq(R.checks[0].state, CS_HOLDS);
    ck_assert_ptr_nonnull(strstr(R.checks[0].what, "the results come through its "
                                                   "asynchronous copies"));
}
END_TEST

START_TEST(dead_mechanism_is_mechanism)
{
    /* The rewrite changes nothing that runs: the copy is never executed. */
    grade_knocked(&t_async, async_ptx, plain, NULL, &R);
    expect(&R, OUT_MECHANISM, "do not come through its asynchronous copies");
    ck_assert_int_eq(R.checks[0].state, CS_FAILS);
    ck_assert_ptr_nonnull(strstr(R.checks[0].what, "on 0 of 1000 outputs"));
}
END_TEST

START_TEST(token_mechanism_is_mechanism)
{
    grade_knocked(&t_async, async_ptx, plain, token_through, &R);
    expect(&R, OUT_MECHANISM, "on 1 of 1000 outputs");
}
END_TEST

/* A comment is no instruction: the text check, which reads the PTX's
 * instructions (ptx.h), already fails it, before any knock-out. */
START_TEST(named_only_in_a_comment_is_mechanism)
{
    static const char comment[] = ENTRY "\t// cp.async.ca.shared.global\n\tret;\n}\n";
    grade_knocked(&t_async, comment, plain, all_through, &R);
    expect(&R, OUT_MECHANISM, "the PTX has no 'cp.async' instruction");
}
END_TEST

/* Staged through a shared buffer of 1024 bytes: the knocked copy reads
 * set B and writes the span of shared addresses its data went to. */
static const exercise t_staged = {
    .lesson = 0, .name = "t_staged", .title = "test: a shared buffer of the asked size",
    .file = "t/axpy.cu", .kernel = "axpy", .check_sizes = {1, 100, 1000, 0},
    .time_size = 4096, .build = axpy_fixed_build, .rtol = 1e-5, .atol = 1e-6,
    .bar = BAR_SPEEDUP, .bar_share = 0.5, .bar_floor = 1.2,
    .checks = {{CHECK_SMEM_BYTES, NULL, 1024, NULL, "teach", .knock = KNOCK_SHARED}},
};
static const char staged_ptx[] = ENTRY "\tld.global.f32 \t%f1, [%rd1];\n"
                                       "\tst.shared.f32 \t[%rd2], %f1;\n\tret;\n}\n";

static void staged(host_call *c, unsigned bytes)
{
    all_through(c);
    if (c->span) {
        c->span[0] = 64;
        c->span[1] = 64 + bytes;
    }
}
static void staged_all(host_call *c) { staged(c, 1024); }
static void staged_eighth(host_call *c) { staged(c, 128); }

static void grade_staged(host_fn ko, result *r)
{
    use_kernels(&t_staged, plain);
    host_module m = student_module(&t_staged, plain);
    m.ptx = staged_ptx;
    m.knocked = ko;
    m.res.smem_static = 1024;
    ck_assert_int_eq(host_add(&m), 0);
    grade_host(&t_staged, 0, r);
}

START_TEST(buffer_of_the_asked_size_carrying_the_data_holds)
{
    grade_staged(staged_all, &R);
    expect(&R, OUT_PASS, NULL);
    ck_assert_ptr_nonnull(strstr(R.checks[0].what, "the results come through what it stages "
                                                   "in shared memory"));
}
END_TEST

START_TEST(buffer_mostly_unused_is_mechanism)
{
    /* A ring of an eighth of the asked size does the work; the rest of the
     * declared bytes only make the size right. */
    grade_staged(staged_eighth, &R);
    expect(&R, OUT_MECHANISM, "only 128 of those bytes receive loaded data");
    /* Unused altogether. */
    grade_staged(NULL, &R);
    expect(&R, OUT_MECHANISM, "do not come through what it stages in shared memory");
}
END_TEST

/* What the rewritten PTX of a prefetch kernel writes (knockout.h), modelled:
 * at its line's place in set B, the lowest load count of the thread that
 * loads it or prefetches it. */
static void mark(const host_call *c, const void *at, int slot, unsigned count)
{
    uintptr_t line = ((uintptr_t)at & ~(uintptr_t)(KNOCK_LINE - 1)) + (uintptr_t)c->delta;
    unsigned *m = (unsigned *)(line + (uintptr_t)slot);
    if (count < *m)
        *m = count;
}

/* A loop of `threads` threads over x and y (element i = t + j * threads),
 * one prefetch of x and y per 128-byte line, `dist` elements ahead of the
 * element it loads (before or after its loads); `ring` > 0: the loads are
 * copies into a ring `ring` iterations ahead, issued before the prefetch
 * (lesson 11b); `once`: prefetch in the first iteration only; `seen` 0:
 * the loads are ones the rewrite does not know (no load marks). */
typedef struct loop_shape {
    int threads, dist, after, ring, once, seen;
} loop_shape;

static void load_at(const host_call *c, const loop_shape *s, int e, unsigned *count)
{
    axpy_args A = axpy_of(c);
    if (e >= A.n || !s->seen)
        return;
    /* x and y at one count: a thread that prefetched both lines right
     * before loading them is not ahead of either load. (Counted one by
     * one, y's load comes a count after both prefetches: with the arrays
     * aligned to whole lines, as every grader array is, half the lines
     * would count as ahead at distance 0.) */
    mark(c, &A.x[e], KNOCK_LOADED_AT, *count);
    mark(c, &A.y[e], KNOCK_LOADED_AT, (*count)++);
}

static void prefetch_at(const host_call *c, const loop_shape *s, int t, int i, unsigned count)
{
    axpy_args A = axpy_of(c);
    int e = i + s->dist;
    if (t % 32 || e < 0 || e >= A.n || (s->once && i != t))
        return;
    mark(c, &A.x[e], KNOCK_PREFETCHED_AT, count);
    mark(c, &A.y[e], KNOCK_PREFETCHED_AT, count);
}

static void prefetch_loop(host_call *c, const loop_shape *s)
{
    axpy_args A = axpy_of(c);
    plain(c);
    for (int t = 0; c->delta && t < s->threads; t++) {
        unsigned count = 0;
        for (int k = 0; k < s->ring; k++)
            load_at(c, s, t + k * s->threads, &count);
        for (int i = t; i < A.n; i += s->threads) {
            if (!s->after)
                prefetch_at(c, s, t, i, count);
            load_at(c, s, i + s->ring * s->threads, &count);
            if (s->after)
                prefetch_at(c, s, t, i, count);
        }
    }
}

/* Lesson 11a's solution: 4 iterations ahead, before the load. */
static void prefetch_all(host_call *c)
{
    prefetch_loop(c, &(loop_shape){.threads = 32, .dist = 4 * 32, .seen = 1});
}
/* Lesson 11b's: a ring of 2, the prefetch 8 iterations ahead after the copy. */
static void prefetch_ring(host_call *c)
{
    prefetch_loop(c, &(loop_shape){.threads = 32, .dist = 8 * 32, .after = 1, .ring = 2, .seen = 1});
}
static void prefetch_first(host_call *c)
{
    prefetch_loop(c, &(loop_shape){.threads = 32, .dist = 4 * 32, .once = 1, .seen = 1});
}
static void prefetch_now(host_call *c)
{
    prefetch_loop(c, &(loop_shape){.threads = 32, .dist = 0, .seen = 1});
}
static void prefetch_behind(host_call *c)
{
    prefetch_loop(c, &(loop_shape){.threads = 32, .dist = -4 * 32, .after = 1,
                                   .seen = 1});
}
/* L2DIST elements ahead: the line the warp loads in this iteration. */
static void prefetch_elements(host_call *c)
{
    prefetch_loop(c, &(loop_shape){.threads = 32, .dist = 4, .seen = 1});
}
/* Lesson 11b with L2DIST at PDIST: behind the ring's copies. */
static void prefetch_behind_ring(host_call *c)
{
    prefetch_loop(c, &(loop_shape){.threads = 32, .dist = 2 * 32, .after = 1, .ring = 2, .seen = 1});
}
static void prefetch_unseen_loads(host_call *c)
{
    prefetch_loop(c, &(loop_shape){.threads = 32, .dist = 0, .seen = 0});
}

START_TEST(prefetch_of_most_lines_holds)
{
    grade_knocked(&t_prefetch, prefetch_ptx, plain, prefetch_all, &R);
    expect(&R, OUT_PASS, NULL);
    ck_assert_ptr_nonnull(strstr(R.checks[0].what, "cover 87% of the input's 128-byte lines, "
                                                   "100% of them ahead of their load"));
    grade_knocked(&t_prefetch, prefetch_ptx, plain, prefetch_ring, &R);
    expect(&R, OUT_PASS, NULL);
    ck_assert_ptr_nonnull(strstr(R.checks[0].what, "100% of them ahead of their load"));
}
END_TEST

START_TEST(prefetch_of_a_token_line_is_mechanism)
{
    grade_knocked(&t_prefetch, prefetch_ptx, plain, prefetch_first, &R);
    expect(&R, OUT_MECHANISM, "its prefetches ran for only 3%");
    grade_knocked(&t_prefetch, prefetch_ptx, plain, NULL, &R);
    expect(&R, OUT_MECHANISM, "its prefetches ran for only 0%");
}
END_TEST

START_TEST(prefetch_not_ahead_of_its_load_is_mechanism)
{
    /* Every line covered, none ahead: distance 0, behind the load, within
     * the iteration, behind the ring's copies. */
    host_fn fns[] = {prefetch_now, prefetch_behind, prefetch_elements, prefetch_behind_ring};
    for (size_t f = 0; f < sizeof fns / sizeof *fns; f++) {
        grade_knocked(&t_prefetch, prefetch_ptx, plain, fns[f], &R);
        expect(&R, OUT_MECHANISM, "of its prefetches run ahead of their line's first load (at "
                                  "least 50%)");
    }
}
END_TEST

START_TEST(prefetch_with_no_load_seen_is_judged_by_coverage)
{
    grade_knocked(&t_prefetch, prefetch_ptx, plain, prefetch_unseen_loads, &R);
    expect(&R, OUT_PASS, NULL);
    ck_assert_ptr_nonnull(strstr(R.checks[0].what, "whether they run ahead was not judged"));
}
END_TEST

/* z = coef[i % TABLE] * x, the table in constant memory (the module's
 * "coef") and, as lesson 13 does, also in global memory (argument 0). */
static float ct_coef[TABLE];

static void ctable_build(instance *I, size_t n, const int *knobs, const device_facts *dev)
{
    (void)knobs, (void)dev;
    float coef[TABLE];
    for (int k = 0; k < TABLE; k++)
        coef[k] = (float)(1 + inst_u32(I) % 1000) / 256.0f;
    float *cg = inst_input(I, TABLE, ELEM_F32);
    memcpy(cg, coef, sizeof coef);
    inst_constant(I, "coef", coef, sizeof coef);
    float *x = inst_input(I, n, ELEM_F32);
    double *z = inst_output(I, n, ELEM_F32);
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)(inst_u32(I) % 1000) / 512.0f;
        z[i] = (double)coef[i % TABLE] * x[i];
    }
    inst_arg_int(I, (int)n);
    inst_launch(I, (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1, 0);
    inst_bytes_moved(I, 8.0 * (double)n);
}

static const exercise t_ctable = {
    .lesson = 0, .name = "t_ctable", .title = "test: the table from constant memory",
    .file = "t/ctable.cu", .kernel = "ctable", .check_sizes = {1, 100, 1000, 0},
    .time_size = 4096, .build = ctable_build, .rtol = 1e-6, .atol = 1e-7,
    .bar = BAR_NONE,
    .checks = {{CHECK_PTX_HAS, "ld.const", 0, NULL, "teach", .knock = KNOCK_CONST}},
};

static void ctable_run(host_call *c, const float *coef)
{
    const float *x = *(float **)c->args[1];
    float *z = *(float **)c->args[2];
    int n = *(const int *)c->args[3];
    for (int i = 0; i < n; i++)
        z[i] = coef[i % TABLE] * x[i];
}
static float ct_base_coef[TABLE], ct_sol_coef[TABLE];
static void from_constant(host_call *c) { ctable_run(c, ct_coef); }
static void base_constant(host_call *c) { ctable_run(c, ct_base_coef); }
static void sol_constant(host_call *c) { ctable_run(c, ct_sol_coef); }
static void from_global(host_call *c) { ctable_run(c, *(float **)c->args[0]); }

static void grade_ctable(host_fn student, result *r)
{
    float *tables[] = {ct_base_coef, ct_sol_coef, ct_coef};
    host_fn fns[] = {base_constant, sol_constant, student};
    host_reset();
    for (int v = 0; v < 3; v++) {
        host_module m = {
            .path = v == 0 ? "grader/baselines/t/ctable.cu" : v == 1 ? "solutions/t/ctable.cu"
                                                                   : "student/t/ctable.cu",
            .kernel = "ctable",
            .fn = fns[v],
            .ptx = "\tld.const.f32 \t%f1, [coef];\n",
            .res = {.known = 1, .regs = 16},
        };
        m.globals[0] = (host_global){.symbol = "coef", .at = tables[v], .bytes = sizeof ct_coef};
        ck_assert_int_eq(host_add(&m), 0);
    }
    grade_host(&t_ctable, 0, r);
}

START_TEST(constant_table_read_from_constant_memory_holds)
{
    grade_ctable(from_constant, &R);
    expect(&R, OUT_PASS, NULL);
    ck_assert_int_eq(R.checks[0].state, CS_HOLDS);
}
END_TEST

START_TEST(constant_table_read_from_its_global_copy_is_mechanism)
{
    grade_ctable(from_global, &R);
    expect(&R, OUT_MECHANISM, "do not come through its __constant__ table");
}
END_TEST

START_TEST(without_a_gpu_the_data_path_is_not_judged)
{
    const exercise *ex = find_exercise(9, "rolling_async");
    ck_assert_ptr_nonnull(ex);
    int knobs[MAX_KNOBS] = {0};
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        knobs[k] = ex->knobs[k].def;
    grade_opts o = {.root = ".", .student_dir = "tests/gpu/gaming/dead_async"};
    check_without_gpu(ex, knobs, &o, &R);
    expect(&R, OUT_CHECKED, NULL);
    ck_assert_ptr_nonnull(strstr(R.checks[0].what, "the PTX has 'cp.async' (whether it "
                                                   "carries the data needs a GPU: not judged)"));
}
END_TEST

Suite *knockout_suite(void)
{
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED);
    n_knocked = 0;
    for (int e = 0; e < n && e < MAX_REGISTERED; e++)
        if (has_knock(all[e]))
            knocked[n_knocked++] = all[e];
    static fixture fx[FIXTURE_MAX];
    int nf = fixtures_list(fx, FIXTURE_MAX);
    n_gaming = n_accepted = 0;
    for (int i = 0; i < nf && i < FIXTURE_MAX; i++) {
        if (!strncmp(fx[i].id, "gaming/", 7))
            gaming[n_gaming++] = fx[i];
        const exercise *ex = find_exercise(fx[i].lesson, fx[i].exercise);
        if (!strncmp(fx[i].id, "accepted/", 9) && ex && has_knock(ex))
            accepted[n_accepted++] = fx[i];
    }

    Suite *s = suite_create("knockout");
    TCase *tc = tcase_create("rewrite");
    /* An NVRTC compile and a ptxas run or three per test. */
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_data_path_check_is_knocked);
    tcase_add_test(tc, copies_are_redirected_in_place);
    tcase_add_test(tc, shared_store_takes_a_twin_the_registers_keep_the_load);
    tcase_add_test(tc, prefetch_marks_under_its_predicate);
    tcase_add_test(tc, prefetch_rewrite_marks_and_counts_the_loads);
    tcase_add_loop_test(tc, solution_rewrites_and_assembles, 0, n_knocked);
    tcase_add_loop_test(tc, timing_sets_share_their_shape, 0, n_knocked);
    tcase_add_test(tc, gaming_kernels_exist);
    tcase_add_loop_test(tc, gaming_kernel_passes_text_checks_and_rewrites, 0, n_gaming);
    tcase_add_loop_test(tc, accepted_answer_rewrites_and_assembles, 0, n_accepted);
    suite_add_tcase(s, tc);

    tc = tcase_create("verdict");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, mechanism_that_carries_the_data_holds);
    tcase_add_test(tc, dead_mechanism_is_mechanism);
    tcase_add_test(tc, token_mechanism_is_mechanism);
    tcase_add_test(tc, named_only_in_a_comment_is_mechanism);
    tcase_add_test(tc, buffer_of_the_asked_size_carrying_the_data_holds);
    tcase_add_test(tc, buffer_mostly_unused_is_mechanism);
    tcase_add_test(tc, prefetch_of_most_lines_holds);
    tcase_add_test(tc, prefetch_of_a_token_line_is_mechanism);
    tcase_add_test(tc, prefetch_not_ahead_of_its_load_is_mechanism);
    tcase_add_test(tc, prefetch_with_no_load_seen_is_judged_by_coverage);
    tcase_add_test(tc, constant_table_read_from_constant_memory_holds);
    tcase_add_test(tc, constant_table_read_from_its_global_copy_is_mechanism);
    tcase_add_test(tc, without_a_gpu_the_data_path_is_not_judged);
    suite_add_tcase(s, tc);
    return s;
}
