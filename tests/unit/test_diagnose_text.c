/* test_diagnose_text.c: the patterns of diagnose.h on hand-written PTX, no
 * compiler: each finder on a loop that has its pattern and on the nearest
 * loops that do not (the copy's source loaded outside the loop, its target
 * never loaded, the wait depths equal, the prefetch a whole step ahead or
 * behind), how statements are read (by the PTX reader: labels, guards,
 * .loc and .file lines, comments, several on a line, braced blocks), how a loop is found (a backward branch to its label), the
 * linear forms of addresses at their limits (terms, depth, the pairs
 * compared), and what each pattern makes the report say. The slow suite
 * test_hints.c runs the finders on NVRTC's PTX of real kernels.
 *
 *   CK_RUN_SUITE=diagnose_text build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diagnose.h"
#include "suites.h"

static char buf[1 << 16];

/* `ptx` with the blanks after each ';' dropped (inline assembly may put
 * statements side by side): what a finder says must not change. */
static const char *packed(const char *ptx)
{
    static char pbuf[1 << 16];
    size_t n = 0;
    for (const char *p = ptx; *p && n + 1 < sizeof pbuf; p++) {
        pbuf[n++] = *p;
        if (*p == ';')
            while (p[1] == '\n' || p[1] == '\t' || p[1] == ' ')
                p++;
    }
    pbuf[n] = 0;
    return pbuf;
}

/* The finders on `ptx` as written and packed. */
static unsigned diags(const char *ptx)
{
    unsigned d = diagnose_ptx(ptx);
    ck_assert_msg(diagnose_ptx(packed(ptx)) == d, "packed, the PTX gives %u, not %u:\n%s",
                  diagnose_ptx(packed(ptx)), d, packed(ptx));
    return d;
}

/* ---- a register copied from a pending load (lesson 7) ------------------- */

/* A shift register's loop: the prologue fills %fd1 and %fd2, the loop
 * copies %fd2 into %fd1 (`copy`) and refills %fd2 (`load`); `extra` goes
 * before the loop's branch, `pre` before the function. */
static const char *ring(const char *pre, const char *copy, const char *load, const char *extra)
{
    static char rbuf[1 << 14];
    snprintf(rbuf, sizeof rbuf, "%s.visible .entry k()\n{\n"
             "\t.reg .f64 \t%%fd<9>;\n"
             "\tld.global.nc.f64 \t%%fd1, [%%rd1];\n"
             "\tld.global.nc.f64 \t%%fd2, [%%rd1+8];\n"
             "$L__BB0_2:\n"
             "\t.loc\t1 31 9\n"
             "%s"
             "\tadd.f64 \t%%fd5, %%fd5, %%fd1;\n"
             "%s"
             "%s"
             "\tadd.s64 \t%%rd1, %%rd1, 8;\n"
             "\t@%%p1 bra \t$L__BB0_2;\n"
             "\tret;\n}\n", pre, copy, load, extra);
    return rbuf;
}

#define COPY "\tmov.f64 \t%fd1, %fd2;\n"
#define LOAD "\tld.global.nc.f64 \t%fd2, [%rd1+16];\n"

START_TEST(copy_of_a_pending_load)
{
    ck_assert_uint_eq(diags(ring("", COPY, LOAD, "")), DIAG_COPY_OF_LOAD);
    /* Guards, labels, line directives and blanks around the copy. */
    static const char *const copies[] = {
        "\t@%p2 mov.f64 \t%fd1, %fd2;\n",
        "$L__BB0_3:\n\tmov.f64 %fd1,%fd2;\n",
        "\t.loc 1 2 3\n\t.file 2 \"x.cu\"\n\tmov.b64 \t%fd1 , %fd2 ;\n",
        "\t{\n\tmov.f64 \t%fd1, %fd2;\n\t}\n",
    };
    for (size_t k = 0; k < sizeof copies / sizeof *copies; k++)
        ck_assert_msg(diags(ring("", copies[k], LOAD, "")) == DIAG_COPY_OF_LOAD, "%s",
                      copies[k]);
    /* Registers of one letter (inline assembly names its own). */
    snprintf(buf, sizeof buf, ".visible .entry k()\n{\n\tld.global.f64 %%a, [%%rd1];\n"
             "$L1:\n\tmov.f64 %%a, %%b;\n\tld.global.f64 %%b, [%%rd1];\n\t@%%p1 bra $L1;\n}\n");
    ck_assert_uint_eq(diags(buf), DIAG_COPY_OF_LOAD);
    /* Not the pattern: the source is not loaded in the loop; the target is
     * loaded nowhere; the copy is no register move; a comment. */
    static const struct {
        const char *copy, *load;
    } not_it[] = {
        {COPY, "\tld.global.nc.f64 \t%fd3, [%rd1+16];\n"},
        {"\tmov.f64 \t%fd6, %fd2;\n", LOAD},
        {"\tmov.f64 \t%fd1, 0d0000000000000000;\n", LOAD},
        {"\tadd.f64 \t%fd1, %fd2, 0d0000000000000000;\n", LOAD},
        {"\tmov.f64 \t[%rd3], %fd2;\n", LOAD},
        {"\t// old: x; mov.f64 %fd1, %fd2;\n", LOAD},
        {"\tmov.f64 \t%fd1, %fd2;\n", "\tld.shared.f64 \t%fd2, [%r1];\n"},
        {"\tmov.f64 \t%fd1, %fd22;\n", LOAD},
        {"\tmov.f64 \t%fd11, %fd2;\n", LOAD},
        {"\tmov.f64 \t%fd1, %fd2x;\n", LOAD},
        {"\t:mov.f64 \t%fd1, %fd2;\n", LOAD},
    };
    for (size_t k = 0; k < sizeof not_it / sizeof *not_it; k++)
        ck_assert_msg(diags(ring("", not_it[k].copy, not_it[k].load, "")) == 0, "%s%s",
                      not_it[k].copy, not_it[k].load);
}
END_TEST

/* The loop is the text from its label to the branch back; the target is
 * looked for in the function of the loop. */
START_TEST(loops_and_functions)
{
    /* A forward branch makes no loop. */
    snprintf(buf, sizeof buf, ".visible .entry k()\n{\n\tld.global.f64 %%fd1, [%%rd1];\n"
             "\t@%%p1 bra $L__BB0_2;\n\tmov.f64 %%fd1, %%fd2;\n\tld.global.f64 %%fd2, [%%rd1];\n"
             "$L__BB0_2:\n\tret;\n}\n");
    ck_assert_uint_eq(diags(buf), 0);
    /* The copy after the branch is outside the loop. */
    snprintf(buf, sizeof buf, ".visible .entry k()\n{\n\tld.global.f64 %%fd1, [%%rd1];\n"
             "$L__BB0_2:\n%s\t@%%p1 bra $L__BB0_2;\n%s\tret;\n}\n", LOAD, COPY);
    ck_assert_uint_eq(diags(buf), 0);
    /* bra.uni, a label that is the end of a longer one, a branch to a label
     * never defined, a branch with no label. */
    snprintf(buf, sizeof buf, "%s", ring("", COPY, LOAD, ""));
    char *b = strstr(buf, "@%p1 bra \t$L__BB0_2;");
    memcpy(b, "bra.uni   $L__BB0_2;", 20);
    ck_assert_uint_eq(diags(buf), DIAG_COPY_OF_LOAD);
    snprintf(buf, sizeof buf, "%s", ring("", COPY, LOAD, ""));
    b = strstr(buf, "$L__BB0_2:\n");
    memcpy(b, "XL__BB0_2", 9);
    ck_assert_uint_eq(diags(buf), 0);
    snprintf(buf, sizeof buf, "%s", ring("", COPY, LOAD, "\tbra ;\n\tbra $L__none;\n"));
    ck_assert_uint_eq(diags(buf), DIAG_COPY_OF_LOAD);
    /* A label at the very start of the text. */
    snprintf(buf, sizeof buf, "$L1:\n\tld.global.f64 %%fd1, [%%rd1];\n%s%s\t@%%p1 bra $L1;\n",
             COPY, LOAD);
    ck_assert_uint_eq(diags(buf), DIAG_COPY_OF_LOAD);
    /* The same label in an earlier function (with a copy of a load after
     * it): the loop starts at this function's. */
    snprintf(buf, sizeof buf, ".func f()\n{\n$L__BB0_2:\n\tld.global.f64 %%fd1, [%%rd1];\n"
             "%s%s\tret;\n}\n.visible .entry k()\n{\n$L__BB0_2:\n"
             "\tadd.s64 %%rd1, %%rd1, 8;\n\t@%%p1 bra $L__BB0_2;\n}\n", COPY, LOAD);
    ck_assert_uint_eq(diags(buf), 0);
    /* The target loaded only in an earlier function: not this one's. */
    static const char *const earlier[] = {
        ".visible .entry e()\n{\n\tld.global.f64 %fd6, [%rd1];\n}\n",
        ".func f()\n{\n\tld.global.f64 %fd6, [%rd1];\n}\n",
        ".func f()\n{\n\tret;\n}\n.visible .entry e()\n{\n\tld.global.f64 %fd6, [%rd1];\n}\n",
        ".visible .entry e()\n{\n\tret;\n}\n.func f()\n{\n\tld.global.f64 %fd6, [%rd1];\n}\n",
    };
    for (size_t k = 0; k < sizeof earlier / sizeof *earlier; k++) {
        ck_assert_msg(diags(ring(earlier[k], "\tmov.f64 %fd6, %fd2;\n", LOAD, "")) == 0,
                      "%s", earlier[k]);
        /* In a .func after the loop's function it is not either; in the
         * loop's own function it is. */
        ck_assert_uint_eq(diags(ring(earlier[k], "\tmov.f64 %fd1, %fd2;\n", LOAD, "")),
                          DIAG_COPY_OF_LOAD);
    }
    /* A load in an earlier loop is not this loop's. */
    snprintf(buf, sizeof buf, ".visible .entry k()\n{\n\tld.global.f64 %%fd1, [%%rd1];\n"
             "$LA:\n\tld.global.f64 %%fd3, [%%rd1];\n\t@%%p1 bra $LA;\n"
             "$LB:\n\tmov.f64 %%fd1, %%fd3;\n\tld.global.f64 %%fd4, [%%rd2];\n"
             "\t@%%p2 bra $LB;\n}\n");
    ck_assert_uint_eq(diags(buf), 0);
    /* A label of any length is followed (the reader keeps names whole). */
    for (int len = 60; len <= 200; len += 140) {
        char label[256];
        memset(label, 'L', sizeof label);
        label[0] = '$';
        label[len] = 0;
        snprintf(buf, sizeof buf, ".visible .entry k()\n{\n"
                 "\tld.global.f64 %%fd1, [%%rd1];\n%s:\n%s%s\t@%%p1 bra %s;\n}\n", label, COPY,
                 LOAD, label);
        ck_assert_uint_eq(diags(buf), DIAG_COPY_OF_LOAD);
    }
}
END_TEST

/* At most 256 registers filled by loads are kept per range. */
START_TEST(loads_kept_per_loop)
{
    for (int before = 254; before <= 256; before++) {
        size_t n = 0;
        n += (size_t)snprintf(buf + n, sizeof buf - n, ".visible .entry k()\n{\n"
                              "\tld.global.f64 %%fd1, [%%rd1];\n$L1:\n");
        for (int i = 0; i < before; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "\tld.global.f64 %%fq%d, [%%rd1];\n", i);
        snprintf(buf + n, sizeof buf - n, "%s%s\t@%%p1 bra $L1;\n}\n", LOAD, COPY);
        /* The loop's loads: `before`, then %fd2; the function's: one more. */
        unsigned want = before + 1 <= 256 ? DIAG_COPY_OF_LOAD : 0;
        ck_assert_msg(diags(buf) == want, "%d loads before: %u", before, diags(buf));
    }
}
END_TEST

/* ---- a wait depth chosen at run time (lesson 9) ------------------------- */

static const char *waits(const char *w1, const char *w2)
{
    snprintf(buf, sizeof buf, ".visible .entry k()\n{\n$L__BB0_1:\n"
             "\tcp.async.ca.shared.global [%%r1], [%%rd1], 16;\n\tcp.async.commit_group;\n"
             "%s%s\tbar.sync 0;\n\t@%%p1 bra $L__BB0_1;\n"
             "\tcp.async.wait_group 3;\n\tret;\n}\n", w1, w2);
    return buf;
}

START_TEST(wait_depth_at_run_time)
{
    ck_assert_uint_eq(diags(waits("\tcp.async.wait_group 0;\n",
                                         "\tcp.async.wait_group 1;\n")), DIAG_WAIT_DEPTH_SWITCH);
    ck_assert_uint_eq(diags(waits("\tcp.async.wait_group 2;\n",
                                         "\t@%p2 cp.async.wait_group 0;\n")),
                      DIAG_WAIT_DEPTH_SWITCH);
    ck_assert_uint_eq(diags(waits("\tcp.async.wait_group 1;\n",
                                         "\tcp.async.wait_group 1;\n")), 0);
    ck_assert_uint_eq(diags(waits("\tcp.async.wait_group 0;\n",
                                         "\tcp.async.wait_group 0;\n")), 0);
    ck_assert_uint_eq(diags(waits("\tcp.async.wait_group 1;\n", "")), 0);
    ck_assert_uint_eq(diags(waits("\tcp.async.wait_all;\n",
                                         "\tcp.async.wait_group 1;\n")), 0);
    /* Three waits, the third one differing. */
    ck_assert_uint_eq(diags(waits("\tcp.async.wait_group 0;\n\tcp.async.wait_group 0;\n",
                                         "\tcp.async.wait_group 2;\n")), DIAG_WAIT_DEPTH_SWITCH);
}
END_TEST

/* ---- an L2 prefetch within its load's step (lesson 11) ------------------ */

/* Lesson 11's loop as NVVM writes it: the load's address %rd26 and the
 * prefetch's %rd27 built before the loop from the same registers, the
 * prefetch `dist` elements (of 8 bytes) ahead; both moved by `step` bytes
 * each time round. `pf` (NULL: none) defines the prefetch's address
 * instead, after the load's. */
static const char *l2(long dist, long step, const char *pf)
{
    char pfdef[512], steps[128];
    snprintf(pfdef, sizeof pfdef, "\tadd.s32 \t%%r11, %%r1, %ld;\n\tcvt.s64.s32 \t%%rd13, %%r11;\n"
             "\tadd.s64 \t%%rd14, %%rd12, %%rd13;\n\tshl.b64 \t%%rd15, %%rd14, 3;\n"
             "\tadd.s64 \t%%rd27, %%rd10, %%rd15;\n", dist);
    snprintf(steps, sizeof steps, step ? "\tadd.s64 \t%%rd27, %%rd27, %ld;\n"
             "\tadd.s64 \t%%rd26, %%rd26, %ld;\n" : "", step, step);
    static char lbuf[1 << 14];
    snprintf(lbuf, sizeof lbuf, ".visible .entry l2_prefetch(\n\t.param .u64 p0\n)\n{\n"
             "\tld.param.u64 \t%%rd8, [p0];\n"
             "\tmov.u32 \t%%r10, %%ctaid.x;\n\tcvt.u64.u32 \t%%rd1, %%r10;\n"
             "\tmov.u32 \t%%r1, %%tid.x;\n"
             "\tcvta.to.global.u64 \t%%rd10, %%rd8;\n"
             "\tmul.lo.s64 \t%%rd12, %%rd11, %%rd1;\n"
             "%s"
             "\tcvt.s64.s32 \t%%rd16, %%r1;\n\tadd.s64 \t%%rd17, %%rd12, %%rd16;\n"
             "\tshl.b64 \t%%rd18, %%rd17, 3;\n\tadd.s64 \t%%rd26, %%rd10, %%rd18;\n"
             "%s"
             "$L__BB0_2:\n"
             "\t@%%p4 bra \t$L__BB0_4;\n"
             "\t.loc\t1 20 5, function_name $L__info_string0, inlined_at 1 33 13\n"
             "\tprefetch.global.L2 [%%rd27];\n"
             "$L__BB0_4:\n"
             "\tld.global.f64 \t%%fd2, [%%rd26];\n"
             "\tadd.f64 \t%%fd47, %%fd47, %%fd2;\n"
             "%s"
             "\tadd.s32 \t%%r24, %%r24, 128;\n"
             "\t@%%p8 bra \t$L__BB0_2;\n"
             "\tret;\n}\n", pf ? "" : pfdef, pf ? pf : "", steps);
    return lbuf;
}

START_TEST(prefetch_within_the_step)
{
    /* 4 elements ahead of a load that moves 1024 bytes: within the step. */
    ck_assert_uint_eq(diags(l2(4, 1024, NULL)), DIAG_L2_PREFETCH_IN_STEP);
    ck_assert_uint_eq(diags(l2(1, 1024, NULL)), DIAG_L2_PREFETCH_IN_STEP);
    ck_assert_uint_eq(diags(l2(127, 1024, NULL)), DIAG_L2_PREFETCH_IN_STEP);
    ck_assert_uint_eq(diags(l2(1, 9, NULL)), DIAG_L2_PREFETCH_IN_STEP);
    /* A whole step or more ahead, none, behind, or a loop that does not
     * move the load: nothing to say. */
    ck_assert_uint_eq(diags(l2(128, 1024, NULL)), 0);
    ck_assert_uint_eq(diags(l2(512, 1024, NULL)), 0);
    ck_assert_uint_eq(diags(l2(1, 8, NULL)), 0);
    ck_assert_uint_eq(diags(l2(0, 1024, NULL)), 0);
    ck_assert_uint_eq(diags(l2(-4, 1024, NULL)), 0);
    ck_assert_uint_eq(diags(l2(4, 0, NULL)), 0);
    ck_assert_uint_eq(diags(l2(4, -1024, NULL)), 0);
    /* The load's register must move by its own add of a number. */
    static const char *const moves[] = {
        "\tadd.s64 \t%rd26, %rd26, %rd9;\n", "\tadd.s64 \t%rd26, %rd9, 1024;\n",
        "\tsub.s64 \t%rd26, %rd26, -1024;\n", "\tadd.s64 \t%rd2, %rd26, 1024;\n",
        "\tadd.s64 \t%rd2, %rd2, 1024;\n",
    };
    for (size_t k = 0; k < sizeof moves / sizeof *moves; k++) {
        snprintf(buf, sizeof buf, "%s", l2(4, 0, NULL));
        char *at = strstr(buf, "\tadd.s32 \t%r24");
        char tail[4096];
        snprintf(tail, sizeof tail, "%s", at);
        snprintf(at, sizeof buf - (size_t)(at - buf), "%s%s", moves[k], tail);
        ck_assert_msg(diags(buf) == 0, "%s", moves[k]);
    }
    /* Other ways to build the same address. */
    static const struct {
        const char *pf;
        unsigned want;
    } forms[] = {
        {"\tadd.s64 \t%rd27, %rd26, 32;\n", DIAG_L2_PREFETCH_IN_STEP},
        {"\tadd.s64 \t%rd27, %rd26, 0x20;\n", DIAG_L2_PREFETCH_IN_STEP},
        {"\tadd.s64 \t%rd27, %rd26, 1024;\n", 0},
        {"\tadd.s64 \t%rd27, 32, %rd26;\n", DIAG_L2_PREFETCH_IN_STEP},
        {"\tsub.s64 \t%rd27, %rd26, -32;\n", DIAG_L2_PREFETCH_IN_STEP},
        {"\tsub.s64 \t%rd27, %rd26, 32;\n", 0},
        {"\tmov.u64 \t%rd30, 32;\n\tadd.s64 \t%rd27, %rd26, %rd30;\n", DIAG_L2_PREFETCH_IN_STEP},
        {"\tshl.b64 \t%rd36, %rd12, 3;\n\tadd.s64 \t%rd37, %rd26, %rd36;\n"
         "\tsub.s64 \t%rd38, %rd37, %rd36;\n\tadd.s64 \t%rd27, %rd38, 32;\n",
         DIAG_L2_PREFETCH_IN_STEP},
        {"\tcvt.u64.u32 \t%rd30, %r1;\n\tmul.lo.s64 \t%rd31, %rd30, 8;\n"
         "\tadd.s64 \t%rd32, %rd26, %rd31;\n\tsub.s64 \t%rd27, %rd32, %rd31;\n"
         "\tadd.s64 \t%rd27, %rd27, 32;\n", DIAG_L2_PREFETCH_IN_STEP},
        {"\tmul.wide.s32 \t%rd30, %r1, 8;\n\tadd.s64 \t%rd31, %rd10, %rd30;\n"
         "\tshl.b64 \t%rd32, %rd12, 3;\n\tadd.s64 \t%rd33, %rd31, %rd32;\n"
         "\tadd.s64 \t%rd27, %rd33, 40;\n", DIAG_L2_PREFETCH_IN_STEP},
        {"\tmul.wide.s32 \t%rd30, %r1, 4;\n\tadd.s64 \t%rd31, %rd10, %rd30;\n"
         "\tshl.b64 \t%rd32, %rd12, 3;\n\tadd.s64 \t%rd33, %rd31, %rd32;\n"
         "\tadd.s64 \t%rd27, %rd33, 40;\n", 0},
        {"\tshl.b64 \t%rd30, %rd26, 1;\n\tsub.s64 \t%rd27, %rd30, %rd26;\n"
         "\tadd.s64 \t%rd27, %rd27, 8;\n", DIAG_L2_PREFETCH_IN_STEP},
        {"\tshl.b64 \t%rd30, %rd26, 2;\n\tsub.s64 \t%rd27, %rd30, %rd26;\n"
         "\tadd.s64 \t%rd27, %rd27, 8;\n", 0},
        {"\tadd.s64 \t%rd27, %rd26, %rd9;\n", 0},
        {"\tadd.s64 \t%rd30, %rd9, %rd26;\n\tadd.s64 \t%rd27, %rd30, 32;\n", 0},
        {"\tmul.lo.s64 \t%rd27, %rd26, %rd9;\n", 0},
        {"\tshl.b64 \t%rd30, %rd12, 40;\n\tadd.s64 \t%rd31, %rd26, %rd30;\n"
         "\tsub.s64 \t%rd27, %rd31, %rd30;\n\tadd.s64 \t%rd27, %rd27, 16;\n",
         DIAG_L2_PREFETCH_IN_STEP},
        {"\tshl.b64 \t%rd30, %rd12, -1;\n\tadd.s64 \t%rd31, %rd26, %rd30;\n"
         "\tsub.s64 \t%rd27, %rd31, %rd30;\n\tadd.s64 \t%rd27, %rd27, 16;\n",
         DIAG_L2_PREFETCH_IN_STEP},
        {"\tshl.b64 \t%rd30, %rd26, 0;\n\tadd.s64 \t%rd27, %rd30, 32;\n",
         DIAG_L2_PREFETCH_IN_STEP},
        {"\tshl.b64 \t%rd30, %rd12, 31;\n\tadd.s64 \t%rd31, %rd26, %rd30;\n"
         "\tadd.s64 \t%rd27, %rd31, 32;\n", 0},
        {"\tshl.b32 \t%r30, %r12, 32;\n\tadd.s64 \t%rd31, %rd26, %r30;\n"
         "\tadd.s64 \t%rd27, %rd31, 32;\n", DIAG_L2_PREFETCH_IN_STEP},
        {"\tadd.s64 \t%rd27, %rd26, 32x;\n", 0},
        {"\tadd.s64 \t%rd30, %rd26, 32;\n\tadd.s64 \t%rd27, %rd30, 16x;\n", 0},
        {"\tadd.s64 \t%rd30, %rd26, 32;\n\tadd.s64 \t%rd27, 16x, %rd30;\n", 0},
        {"\tadd.s64 \t%rd27, %rd26, 32 ;\n", DIAG_L2_PREFETCH_IN_STEP},
    };
    for (size_t k = 0; k < sizeof forms / sizeof *forms; k++)
        ck_assert_msg(diags(l2(0, 1024, forms[k].pf)) == forms[k].want, "%s: %u",
                      forms[k].pf, diags(l2(0, 1024, forms[k].pf)));
    /* No prefetch in the text at all, or one that is no L2 prefetch. */
    snprintf(buf, sizeof buf, "%s", l2(4, 1024, NULL));
    char *p = strstr(buf, "prefetch.global.L2");
    memcpy(p, "prefetch.global.L1", 18);
    ck_assert_uint_eq(diags(buf), 0);
    /* A prefetch through a symbol or a register of no definition, a load
     * through a symbol. */
    ck_assert_uint_eq(diags(l2(0, 1024, "")), 0);
    snprintf(buf, sizeof buf, ".visible .entry k()\n{\n$L1:\n\tprefetch.global.L2 [tab+32];\n"
             "\tld.global.f64 %%fd1, [tab];\n\tprefetch.global.L2 [%%rd2];\n"
             "\tld.global.f64 %%fd1, [tab+8];\n\t@%%p1 bra $L1;\n}\n");
    ck_assert_uint_eq(diags(buf), 0);
    /* A prefetch or a load with no address in brackets at all (inline
     * assembly writes what it likes): nothing to compare, nothing said. */
    snprintf(buf, sizeof buf, ".visible .entry k()\n{\n$L1:\n\tprefetch.global.L2 %%rd2;\n"
             "\tld.global.f64 %%fd1, [%%rd2];\n\tprefetch.global.L2 [%%rd2+32];\n"
             "\tld.global.f64 %%fd1, %%rd2;\n\tadd.s64 %%rd2, %%rd2, 1024;\n"
             "\t@%%p1 bra $L1;\n}\n");
    ck_assert_uint_eq(diags(buf), 0);
}
END_TEST

/* A loop that moves an index register, not the address: the step is the
 * index's, times its coefficient in the address. */
START_TEST(step_through_an_index)
{
    for (long dist = 0; dist <= 130; dist += 1) {
        snprintf(buf, sizeof buf, ".visible .entry k()\n{\n"
                 "\tld.param.u64 \t%%rd10, [p0];\n\tld.param.u32 \t%%r24, [p1];\n"
                 "$L1:\n"
                 "\tmul.wide.s32 \t%%rd1, %%r24, 8;\n\tadd.s64 \t%%rd2, %%rd10, %%rd1;\n"
                 "\tadd.s32 \t%%r3, %%r24, %ld;\n\tmul.wide.s32 \t%%rd3, %%r3, 8;\n"
                 "\tadd.s64 \t%%rd4, %%rd10, %%rd3;\n"
                 "\tprefetch.global.L2 \t[%%rd4];\n\tld.global.f64 \t%%fd1, [%%rd2];\n"
                 "\tadd.s32 \t%%r24, %%r24, 128;\n\t@%%p1 bra $L1;\n}\n", dist);
        unsigned want = dist > 0 && dist < 128 ? DIAG_L2_PREFETCH_IN_STEP : 0;
        ck_assert_msg(diags(buf) == want, "%ld ahead: %u", dist, diags(buf));
    }
}
END_TEST

/* The limits of the comparison: 8 registers in a form, 16 steps of
 * definitions followed, 16 pairs of a prefetch and a load compared. */
START_TEST(limits_of_the_forms)
{
    /* The load's address (%rs) and the prefetch's (%rt, then + 32) each
     * summed from the same `terms` parameters. */
    for (int terms = 7; terms <= 9; terms++) {
        size_t n = (size_t)snprintf(buf, sizeof buf, ".visible .entry k()\n{\n"
                                    "\tld.param.u64 \t%%rq0, [p0];\n");
        for (int t = 1; t < terms; t++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "\tld.param.u64 \t%%rq%d, [p%d];\n"
                                  "\tadd.s64 \t%%rs%d, %%r%c%d, %%rq%d;\n"
                                  "\tadd.s64 \t%%rt%d, %%r%c%d, %%rq%d;\n", t, t,
                                  t, t == 1 ? 'q' : 's', t - 1, t,
                                  t, t == 1 ? 'q' : 't', t - 1, t);
        snprintf(buf + n, sizeof buf - n, "\tadd.s64 \t%%rd2, %%rt%d, 32;\n$L1:\n"
                 "\tprefetch.global.L2 \t[%%rd2];\n\tld.global.f64 \t%%fd1, [%%rs%d];\n"
                 "\tadd.s64 \t%%rs%d, %%rs%d, 1024;\n\t@%%p1 bra $L1;\n}\n", terms - 1,
                 terms - 1, terms - 1, terms - 1);
        ck_assert_msg(diags(buf) == (terms <= 8 ? DIAG_L2_PREFETCH_IN_STEP : 0),
                      "%d terms: %u", terms, diags(buf));
    }
    /* The prefetch's address copied `hops` times from the load's plus 32. */
    for (int hops = 15; hops <= 17; hops++) {
        size_t n = (size_t)snprintf(buf, sizeof buf, ".visible .entry k()\n{\n"
                                    "\tld.param.u64 \t%%rd1, [p0];\n"
                                    "\tadd.s64 \t%%rc0, %%rd1, 32;\n");
        for (int h = 1; h <= hops; h++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "\tmov.b64 \t%%rc%d, %%rc%d;\n", h,
                                  h - 1);
        snprintf(buf + n, sizeof buf - n, "$L1:\n\tprefetch.global.L2 \t[%%rc%d];\n"
                 "\tld.global.f64 \t%%fd1, [%%rd1];\n\tadd.s64 \t%%rd1, %%rd1, 1024;\n"
                 "\t@%%p1 bra $L1;\n}\n", hops);
        ck_assert_msg(diags(buf) == (hops <= 16 ? DIAG_L2_PREFETCH_IN_STEP : 0),
                      "%d copies: %u", hops, diags(buf));
    }
    /* `others` loads of unrelated addresses before the one that pairs. */
    for (int others = 14; others <= 16; others++) {
        size_t n = (size_t)snprintf(buf, sizeof buf, ".visible .entry k()\n{\n"
                                    "\tld.param.u64 \t%%rd1, [p0];\n"
                                    "\tadd.s64 \t%%rd2, %%rd1, 32;\n$L1:\n"
                                    "\tprefetch.global.L2 \t[%%rd2];\n");
        for (int o = 0; o < others; o++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "\tld.global.f64 \t%%fd2, [%%ro%d];\n",
                                  o);
        snprintf(buf + n, sizeof buf - n, "\tld.global.f64 \t%%fd1, [%%rd1];\n"
                 "\tadd.s64 \t%%rd1, %%rd1, 1024;\n\tadd.s64 \t%%rd2, %%rd2, 1024;\n"
                 "\t@%%p1 bra $L1;\n}\n");
        ck_assert_msg(diags(buf) == (others < 16 ? DIAG_L2_PREFETCH_IN_STEP : 0),
                      "%d other loads: %u", others, diags(buf));
    }
}
END_TEST

/* ---- an mbarrier wait, and what each pattern makes the report say ------- */

START_TEST(mbarrier_waits)
{
    ck_assert_uint_eq(diags("\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;\n"),
                      DIAG_MBARRIER_WAIT);
    ck_assert_uint_eq(diags("\tmbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n"),
                      DIAG_MBARRIER_WAIT);
    ck_assert_uint_eq(diags("\tmbarrier.arrive.shared.b64 %rd1, [%r1];\n"), 0);
    /* The statements are the reader's: a wait second on its line, or in a
     * braced inline-asm block with its own predicate, label and guarded
     * branch, is one; a comment or a string that names it is not. */
    ck_assert_uint_eq(diags("\tmbarrier.arrive.shared.b64 %rd1, [%r1]; "
                            "mbarrier.try_wait.shared::cta.b64 %p1, [%r1], %rd1;\n"),
                      DIAG_MBARRIER_WAIT);
    ck_assert_uint_eq(diags("\t{\n\t.reg .pred ready;\nW:\n\tmbarrier.try_wait.shared::cta.b64 "
                            "ready, [%r1], %rd1;\n\t@!ready bra W;\n\t}\n"),
                      DIAG_MBARRIER_WAIT);
    ck_assert_uint_eq(diags("\tret; // mbarrier.try_wait.shared::cta.b64\n"), 0);
    ck_assert_uint_eq(diags("\t/* mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1; */ ret;\n"),
                      0);
    ck_assert_uint_eq(diags("\t.pragma \"mbarrier.try_wait\";\n"), 0);
    ck_assert_uint_eq(diagnose_ptx(NULL), 0);
    ck_assert_uint_eq(diags(""), 0);
    /* Patterns add up. */
    snprintf(buf, sizeof buf, "%s", ring("", COPY, LOAD,
             "\tcp.async.wait_group 0;\n\tcp.async.wait_group 1;\n"
             "\tmbarrier.try_wait.parity.b64 %p1, [%r1], %r2;\n"));
    ck_assert_uint_eq(diags(buf),
                      DIAG_COPY_OF_LOAD | DIAG_WAIT_DEPTH_SWITCH | DIAG_MBARRIER_WAIT);
}
END_TEST

START_TEST(copy_of_a_load_matters_in_the_rings_only)
{
    snprintf(buf, sizeof buf, "%s", ring("", COPY, LOAD,
             "\tmbarrier.try_wait.parity.b64 %p1, [%r1], %r2;\n"));
    static const struct {
        int lesson;
        unsigned want;
    } lessons[] = {
        {4, DIAG_MBARRIER_WAIT}, {5, DIAG_MBARRIER_WAIT | DIAG_COPY_OF_LOAD},
        {7, DIAG_MBARRIER_WAIT | DIAG_COPY_OF_LOAD},
        {12, DIAG_MBARRIER_WAIT | DIAG_COPY_OF_LOAD}, {13, DIAG_MBARRIER_WAIT},
        {15, DIAG_MBARRIER_WAIT},
    };
    for (size_t k = 0; k < sizeof lessons / sizeof *lessons; k++) {
        exercise ex = {.lesson = lessons[k].lesson, .name = "x"};
        ck_assert_msg(diagnose_exercise(&ex, buf) == lessons[k].want, "lesson %d: %u",
                      lessons[k].lesson, diagnose_exercise(&ex, buf));
    }
}
END_TEST

START_TEST(what_the_report_says)
{
    ck_assert_str_eq(diagnose_name(DIAG_COPY_OF_LOAD), "copy_of_pending_load");
    ck_assert_str_eq(diagnose_name(DIAG_WAIT_DEPTH_SWITCH), "run_time_wait_depth");
    ck_assert_str_eq(diagnose_name(DIAG_MBARRIER_WAIT), "mbarrier_wait");
    ck_assert_str_eq(diagnose_name(DIAG_L2_PREFETCH_IN_STEP), "l2_prefetch_in_current_step");
    ck_assert_ptr_null(diagnose_name(0));
    ck_assert_ptr_null(diagnose_name(DIAG_COPY_OF_LOAD | DIAG_MBARRIER_WAIT));
    ck_assert_ptr_null(diagnose_name(1u << 4));

    const char *out[4] = {NULL};
    unsigned all = DIAG_COPY_OF_LOAD | DIAG_WAIT_DEPTH_SWITCH | DIAG_MBARRIER_WAIT |
                   DIAG_L2_PREFETCH_IN_STEP;
    ck_assert_int_eq(diagnose_hints(all, out, 4), 3);
    ck_assert_ptr_nonnull(strstr(out[0], "a register copied from a pending load"));
    ck_assert_ptr_nonnull(strstr(out[1], "a wait depth chosen at run time"));
    ck_assert_ptr_nonnull(strstr(out[2], "an L2 prefetch that lands in the current iteration"));
    ck_assert_int_eq(diagnose_hints(all, out, 2), 2);
    ck_assert_int_eq(diagnose_hints(all, out, 0), 0);
    ck_assert_int_eq(diagnose_hints(DIAG_MBARRIER_WAIT, out, 4), 0);
    ck_assert_int_eq(diagnose_hints(0, out, 4), 0);
    ck_assert_int_eq(diagnose_hints(DIAG_L2_PREFETCH_IN_STEP, out, 4), 1);
    ck_assert_ptr_nonnull(strstr(out[0], "&chunk[i + L2DIST * BLOCKDIMX]"));
    ck_assert_int_eq(diagnose_hints(DIAG_WAIT_DEPTH_SWITCH, out, 1), 1);
    ck_assert_ptr_nonnull(strstr(out[0], "pipeline_consumer_wait_prior"));

    ck_assert_ptr_nonnull(strstr(diagnose_hang(DIAG_MBARRIER_WAIT | DIAG_COPY_OF_LOAD),
                                 "waits on an mbarrier"));
    ck_assert_ptr_nonnull(strstr(diagnose_hang(DIAG_COPY_OF_LOAD), "__syncthreads()"));
    ck_assert_ptr_nonnull(strstr(diagnose_hang(0), "exit condition"));
    ck_assert_ptr_nonnull(strstr(diagnose_hang_try(DIAG_MBARRIER_WAIT), "lesson%d"));
    ck_assert_ptr_null(diagnose_hang_try(DIAG_L2_PREFETCH_IN_STEP | DIAG_COPY_OF_LOAD));
}
END_TEST

/* A block comment inside a statement, or a directive that only starts like
 * .loc or .file, must not hide the statements around it (the reader skips
 * comments and ends only the real line directives at their line). */
START_TEST(comments_and_directive_lookalikes)
{
    /* A comment between the destination and the comma: only %fd3 is loaded
     * in the loop, so the copy of %fd2 is not the pattern. */
    ck_assert_uint_eq(diags(ring("", COPY, "\tld.global.nc.f64 \t%fd3/*%fd2*/, [%rd1+16];\n",
                                 "")), 0);
    /* Statements after a .local declaration or a ".fil"/".locx" in a comment
     * on the same line are still read. */
    static const char *const copies[] = {
        "\t{ .local .b32 t; mov.f64 \t%fd1, %fd2; }\n",
        "\t/* a; .locx; */ ; mov.f64 \t%fd1, %fd2;\n",
        "\t/* a; .fil; */ ; mov.f64 \t%fd1, %fd2;\n",
    };
    for (size_t k = 0; k < sizeof copies / sizeof *copies; k++)
        ck_assert_msg(diags(ring("", copies[k], LOAD, "")) == DIAG_COPY_OF_LOAD, "%s",
                      copies[k]);
    /* A comma in a comment glued to the opcode does not shift the operands:
     * the step is still the add's third operand. */
    snprintf(buf, sizeof buf, "%s", l2(4, 1024, NULL));
    char *at = strstr(buf, "\tadd.s64 \t%rd26, %rd26, 1024;");
    ck_assert_ptr_nonnull(at);
    char tail[4096];
    snprintf(tail, sizeof tail, "%s", at + strlen("\tadd.s64"));
    snprintf(at, sizeof buf - (size_t)(at - buf), "\tadd.s64/*,*/%s", tail);
    ck_assert_uint_eq(diags(buf), DIAG_L2_PREFETCH_IN_STEP);
}
END_TEST

Suite *diagnose_text_suite(void)
{
    Suite *s = suite_create("diagnose_text");
    TCase *tc = tcase_create("finders");
    tcase_add_test(tc, copy_of_a_pending_load);
    tcase_add_test(tc, loops_and_functions);
    tcase_add_test(tc, loads_kept_per_loop);
    tcase_add_test(tc, wait_depth_at_run_time);
    tcase_add_test(tc, prefetch_within_the_step);
    tcase_add_test(tc, step_through_an_index);
    tcase_add_test(tc, limits_of_the_forms);
    tcase_add_test(tc, mbarrier_waits);
    suite_add_tcase(s, tc);

    tc = tcase_create("report");
    tcase_add_test(tc, copy_of_a_load_matters_in_the_rings_only);
    tcase_add_test(tc, what_the_report_says);
    tcase_add_test(tc, comments_and_directive_lookalikes);
    suite_add_tcase(s, tc);
    return s;
}
