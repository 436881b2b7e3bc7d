/* test_sim.c: the PTX simulator (grader/sim/sim.h), one instruction or one
 * behaviour at a time, on hand-written PTX: each case is a kernel body that
 * turns the thread's input word (%r2) into its output word (%r3), the
 * inputs, the outputs expected (as bits) and the run's status. Rounding
 * cases pick values where the two roundings differ; divergence, barriers,
 * warp collectives, late cp.async, mbarrier hangs, faults and instructions
 * it does not run each have theirs.
 *
 *   CK_RUN_SUITE=sim build/tests/unit_tests */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "suites.h"

#define MAXT 64

typedef struct sim_case {
    const char *name;
    const char *body;        /* %r2: the thread's input word; %r3: its output word */
    unsigned threads;
    uint32_t in[MAXT];       /* the first `threads` words */
    uint32_t want[MAXT];
    enum sim_status status;
    const char *says;        /* in the report's message, when not SIM_OK */
    const char *race;        /* in the report's race; NULL: no race may be reported */
    const char *unwritten;   /* in the report's unwritten read; NULL: none may be */
    uint32_t race_lines[2];  /* the race's line and the other access's (race_line,
                                race_copy_line); {0, 0}: not checked */
} sim_case;

static const char head[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry t(.param .u64 t_param_0, .param .u64 t_param_1)\n{\n"
    ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n.reg .f32 %f<16>;\n"
    ".reg .f64 %fd<8>;\n.shared .align 8 .b8 sh[1024];\n"
    "ld.param.u64 %rd1, [t_param_0];\nld.param.u64 %rd2, [t_param_1];\n"
    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\n"
    "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
    "ld.global.u32 %r2, [%rd5];\nmov.u32 %r3, 0;\n";
static const char tail[] = "st.global.u32 [%rd4], %r3;\nret;\n}\n";

static const sim_case cases[] = {
    /* integers: wrap, high halves, signed division and shifts */
    {"add wraps", "add.s32 %r3, %r2, 1;", 2, {0x7fffffff, 0xffffffff}, {0x80000000, 0}},
    {"mul.hi.s32", "mul.hi.s32 %r3, %r2, %r2;", 2, {0x80000000, 0xffffffff}, {0x40000000, 0}},
    {"mul.wide.s32 keeps the sign", "mul.wide.s32 %rd6, %r2, 3;\n"
     "shr.u64 %rd7, %rd6, 32;\ncvt.u32.u64 %r3, %rd7;", 1, {0xffffffff}, {0xffffffff}},
    {"div.s32 truncates toward zero", "div.s32 %r3, %r2, 2;", 2, {0xfffffff9, 7},
     {0xfffffffd, 3}},
    {"rem.s32 takes the dividend's sign", "rem.s32 %r3, %r2, 3;", 1, {0xfffffff9},
     {0xffffffff}},
    {"shr.s32 fills with the sign", "shr.s32 %r3, %r2, 4;", 1, {0x80000000}, {0xf8000000}},
    {"shl by 32 or more is 0", "shl.b32 %r3, %r2, 32;", 1, {1}, {0}},
    {"min.u32 and min.s32 differ", "min.s32 %r4, %r2, 1;\nmin.u32 %r5, %r2, 1;\n"
     "add.s32 %r3, %r4, %r5;", 1, {0xffffffff}, {0}},
    {"popc, clz, brev", "popc.b32 %r4, %r2;\nclz.b32 %r5, %r2;\nbrev.b32 %r6, %r2;\n"
     "add.s32 %r7, %r4, %r5;\nxor.b32 %r3, %r6, %r7;", 1, {1}, {0x80000000u ^ 32u}},
    {"bfe.u32", "bfe.u32 %r3, %r2, 4, 8;", 1, {0x12345678}, {0x67}},
    {"selp and setp.lo", "setp.lo.u32 %p1, %r2, 5;\nselp.b32 %r3, 10, 20, %p1;", 2, {3, 0xffffffff},
     {10, 20}},
    /* a loop whose label is the first one, before any branch names it (the
     * guard kernel's shape; NVRTC's PTX usually branches forward first) */
    {"a label defined before its first use", "mov.u32 %r4, 0;\n$L_top:\n"
     "add.u32 %r3, %r3, %r2;\nadd.u32 %r4, %r4, 1;\nsetp.lt.u32 %p1, %r4, 3;\n"
     "@%p1 bra $L_top;", 1, {5}, {15}},
    /* the mutation run's survivors (seed 17, 2026-11-29): each a rule that
     * no case held */
    {"cvt.rzi.u32.f32 saturates at 2^32 - 1 and at 0", "mov.b32 %f2, %r2;\n"
     "cvt.rzi.u32.f32 %r3, %f2;", 3, {0x42c80000, 0x4f9502f9, 0xc0400000},
     {100, 0xffffffff, 0}},
    {"setp with two predicates: the second is the negation", "setp.lt.s32 %p1|%p2, %r2, 5;\n"
     "selp.b32 %r4, 1, 0, %p1;\nselp.b32 %r5, 2, 0, %p2;\nadd.s32 %r3, %r4, %r5;", 2, {3, 7},
     {1, 2}},
    {"bfe.u32 reaches the top bits", "bfe.u32 %r3, %r2, 24, 8;", 1, {0x12345678}, {0x12}},
    {"prmt: a selector's bit 3 replicates the sign", "prmt.b32 %r3, %r2, 0, 0x8880;", 2,
     {0x80, 0x7f}, {0xffffff80, 0x7f}},
    {"a float immediate written 0F", "mov.f32 %f2, 0F3F800000;\nmov.b32 %r3, %f2;", 1, {0},
     {0x3f800000}},
    {"a double immediate written 0d", "mov.f64 %fd1, 0d3FF8000000000000;\n"
     "cvt.rn.f32.f64 %f2, %fd1;\nmov.b32 %r3, %f2;", 1, {0}, {0x3fc00000}},
    {"an immediate shared address", "st.shared.u32 [16], %r2;\nld.shared.u32 %r3, [16];", 1,
     {9}, {9}},
    /* f32 rounding: fma is one rounding, a*b+c two */
    {"fma.rn.f32 rounds once", "mov.b32 %f2, %r2;\nfma.rn.f32 %f3, %f2, %f2, 0fBF800000;\n"
     "mov.b32 %r3, %f3;", 1, {0x3f800800}, {0x3a000400}},
    {"mul then add rounds twice", "mov.b32 %f2, %r2;\nmul.rn.f32 %f4, %f2, %f2;\n"
     "add.rn.f32 %f3, %f4, 0fBF800000;\nmov.b32 %r3, %f3;", 1, {0x3f800800}, {0x3a000000}},
    {"add.rz.f32 and add.rp.f32", "mov.b32 %f2, %r2;\nadd.rz.f32 %f4, %f2, 0f30800000;\n"
     "add.rp.f32 %f5, %f2, 0f30800000;\nmov.b32 %r4, %f4;\nmov.b32 %r5, %f5;\n"
     "sub.s32 %r3, %r5, %r4;", 1, {0x3f800000}, {1}},
    {"cvt.rzi.s32.f32 and cvt.rni.s32.f32", "mov.b32 %f2, %r2;\ncvt.rzi.s32.f32 %r3, %f2;", 1,
     {0xc02ccccd}, {0xfffffffe}},
    {"cvt.rni rounds half to even", "mov.b32 %f2, %r2;\ncvt.rni.s32.f32 %r3, %f2;", 1,
     {0x40200000}, {2}},
    {"float to int saturates, NaN is 0", "mov.b32 %f2, %r2;\ncvt.rzi.s32.f32 %r3, %f2;", 2,
     {0x501502f9, 0x7fc00000}, {0x7fffffff, 0}},
    {".ftz flushes a subnormal input", "mov.b32 %f2, %r2;\nadd.ftz.f32 %f3, %f2, 0f00000000;\n"
     "mov.b32 %r3, %f3;", 1, {0x116c2}, {0}},
    {"without .ftz a subnormal stays", "mov.b32 %f2, %r2;\nadd.f32 %f3, %f2, 0f00000000;\n"
     "mov.b32 %r3, %f3;", 1, {0x116c2}, {0x116c2}},
    {"setp.ltu is true on NaN, setp.lt false", "mov.b32 %f2, %r2;\n"
     "setp.ltu.f32 %p1, %f2, 0f3F800000;\nsetp.lt.f32 %p2, %f2, 0f3F800000;\n"
     "selp.b32 %r4, 2, 0, %p1;\nselp.b32 %r5, 1, 0, %p2;\nadd.s32 %r3, %r4, %r5;", 1,
     {0x7fc00000}, {2}},
    {".sat clamps to [0, 1]", "mov.b32 %f2, %r2;\nmul.sat.f32 %f3, %f2, 0f40400000;\n"
     "mov.b32 %r3, %f3;", 1, {0x3f800000}, {0x3f800000}},
    {"f64 through cvt", "mov.b32 %f2, %r2;\ncvt.f64.f32 %fd1, %f2;\nmul.f64 %fd2, %fd1, %fd1;\n"
     "cvt.rn.f32.f64 %f3, %fd2;\nmov.b32 %r3, %f3;", 1, {0x40400000}, {0x41100000}},
    /* divergence: odd lanes take one side, even lanes the other, then meet */
    {"divergent branch reconverges", "and.b32 %r4, %r1, 1;\nsetp.eq.s32 %p1, %r4, 0;\n"
     "@%p1 bra EVEN;\nadd.s32 %r3, %r2, 100;\nbra.uni DONE;\nEVEN:\nadd.s32 %r3, %r2, 200;\n"
     "DONE:\nadd.s32 %r3, %r3, 1;", 4, {0, 0, 0, 0}, {201, 101, 201, 101}},
    {"a loop of a different length per lane", "mov.u32 %r3, 0;\nsetp.eq.s32 %p1, %r2, 0;\n"
     "@%p1 bra END;\nLOOP:\nadd.s32 %r3, %r3, 2;\nsub.s32 %r2, %r2, 1;\n"
     "setp.ne.s32 %p2, %r2, 0;\n@%p2 bra LOOP;\nEND:", 3, {0, 3, 1}, {0, 6, 2}},
    /* warp collectives over the full warp (the first 4 lanes shown) */
    {"shfl.sync.down", "shfl.sync.down.b32 %r3, %r2, 1, 31, -1;", 32,
     {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
      33, 34, 35, 36, 37, 38, 39, 40, 41},
     {11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
      34, 35, 36, 37, 38, 39, 40, 41, 41}},
    {"shfl.sync.bfly", "shfl.sync.bfly.b32 %r3, %r1, 1, 31, -1;", 32, {0},
     {1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25,
      24, 27, 26, 29, 28, 31, 30}},
    {"shfl.sync.down in segments of 16 lanes", "shfl.sync.down.b32 %r3, %r1, 1, 0x101f, -1;",
     32, {0}, {1, 2, 3, 4, [14] = 15, [15] = 15, [16] = 17, [30] = 31, [31] = 31}},
    {"shfl.sync.idx in segments of one lane: each its own", "shfl.sync.idx.b32 %r3, %r1, 0, "
     "0x1f1f, -1;", 32, {0}, {0, 1, 2, 3, [30] = 30, [31] = 31}},
    {"shfl.sync.idx from the last lane", "shfl.sync.idx.b32 %r3, %r1, 31, 31, -1;", 32, {0},
     {31, 31, 31, 31, [31] = 31}},
    {"shfl.sync's predicate says whether the source lane was in range",
     "shfl.sync.down.b32 %r4|%p0, %r1, 1, 31, -1;\nselp.b32 %r3, 1, 2, %p0;", 32, {0},
     {1, 1, 1, 1, [30] = 1, [31] = 2}},
    {"vote.sync.any, .all, .uni: one lane true", "setp.eq.u32 %p1, %r1, 0;\n"
     "vote.sync.any.pred %p2, %p1, -1;\nvote.sync.all.pred %p3, %p1, -1;\n"
     "vote.sync.uni.pred %p4, %p1, -1;\nselp.b32 %r4, 1, 0, %p2;\nselp.b32 %r5, 2, 0, %p3;\n"
     "selp.b32 %r6, 4, 0, %p4;\nadd.s32 %r3, %r4, %r5;\nadd.s32 %r3, %r3, %r6;", 32, {0},
     {1, 1, 1, 1, [31] = 1}},
    {"vote.sync.any, .all, .uni: every lane true", "setp.lt.u32 %p1, %r1, 32;\n"
     "vote.sync.any.pred %p2, %p1, -1;\nvote.sync.all.pred %p3, %p1, -1;\n"
     "vote.sync.uni.pred %p4, %p1, -1;\nselp.b32 %r4, 1, 0, %p2;\nselp.b32 %r5, 2, 0, %p3;\n"
     "selp.b32 %r6, 4, 0, %p4;\nadd.s32 %r3, %r4, %r5;\nadd.s32 %r3, %r3, %r6;", 32, {0},
     {7, 7, 7, 7, [31] = 7}},
    {"vote.sync.any, .all, .uni: no lane true", "setp.gt.u32 %p1, %r1, 32;\n"
     "vote.sync.any.pred %p2, %p1, -1;\nvote.sync.all.pred %p3, %p1, -1;\n"
     "vote.sync.uni.pred %p4, %p1, -1;\nselp.b32 %r4, 1, 0, %p2;\nselp.b32 %r5, 2, 0, %p3;\n"
     "selp.b32 %r6, 4, 0, %p4;\nadd.s32 %r3, %r4, %r5;\nadd.s32 %r3, %r3, %r6;", 32, {0},
     {4, 4, 4, 4, [31] = 4}},
    {"vote.sync.ballot", "and.b32 %r4, %r1, 1;\nsetp.ne.s32 %p1, %r4, 0;\n"
     "vote.sync.ballot.b32 %r3, %p1, -1;", 2, {0, 0}, {0x2, 0x2}},
    {"redux.sync.add", "redux.sync.add.s32 %r3, %r1, -1;", 3, {0}, {3, 3, 3}},
    {"activemask in a branch", "setp.lt.u32 %p1, %r1, 2;\n@%p1 activemask.b32 %r3;", 4, {0},
     {3, 3, 0, 0}},
    /* a collective whose lanes sit in different branches: they meet there
     * (sm_70+), each lane with its own instruction; lanes that exited are
     * not waited for; lanes that never come make the block hang */
    {"shfl.sync in two branches meets", "setp.lt.u32 %p1, %r1, 16;\n@%p1 bra LO;\n"
     "shfl.sync.bfly.b32 %r4, %r1, 16, 31, -1;\nadd.s32 %r3, %r4, 200;\nbra.uni DONE;\nLO:\n"
     "shfl.sync.bfly.b32 %r4, %r1, 16, 31, -1;\nadd.s32 %r3, %r4, 100;\nDONE:", 32, {0},
     {116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 200, 201,
      202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215}},
    {"vote.sync.ballot in two branches meets", "and.b32 %r4, %r1, 1;\n"
     "setp.ne.s32 %p2, %r4, 0;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra LO;\n"
     "vote.sync.ballot.b32 %r3, %p2, -1;\nbra.uni DONE;\nLO:\n"
     "vote.sync.ballot.b32 %r3, %p2, -1;\nDONE:", 32, {0},
     {0xaaaaaaaa, 0xaaaaaaaa, 0xaaaaaaaa, 0xaaaaaaaa, [16] = 0xaaaaaaaa, [31] = 0xaaaaaaaa}},
    {"redux.sync in two branches meets", "setp.lt.u32 %p1, %r1, 16;\n@%p1 bra LO;\n"
     "redux.sync.add.s32 %r3, 1, -1;\nbra.uni DONE;\nLO:\nredux.sync.add.s32 %r3, 2, -1;\n"
     "DONE:", 32, {0}, {48, 48, 48, 48, [16] = 48, [31] = 48}},
    {"a collective whose other lanes exited goes on", "setp.ge.u32 %p1, %r1, 16;\n"
     "@%p1 bra OUT;\nshfl.sync.bfly.b32 %r3, %r1, 1, 31, -1;\nbra.uni DONE;\nOUT:\nret;\n"
     "DONE:", 32, {0}, {1, 0, 3, 2, [14] = 15, [15] = 14}},
    {"a collective whose lanes wait at a barrier hangs", "setp.lt.u32 %p1, %r1, 16;\n"
     "@%p1 bra LO;\n.loc 1 30 1\nbar.sync 0;\nbra.uni DONE;\nLO:\n.loc 1 20 1\n"
     "shfl.sync.bfly.b32 %r3, %r1, 16, 31, -1;\nDONE:", 32, {0}, {0}, SIM_HANG,
     "wait at shfl.sync.bfly.b32 (line 20) for lanes 0xffff0000 of its member mask 0xffffffff, "
     "which never reach a shfl.sync.bfly.b32 with that mask (lane 16 waits at barrier 0 "
     "(line 30))"},
    {"collectives of two kinds in two branches hang", "setp.lt.u32 %p1, %r1, 16;\n"
     "@%p1 bra LO;\n.loc 1 30 1\nvote.sync.ballot.b32 %r3, %p1, -1;\nbra.uni DONE;\nLO:\n"
     ".loc 1 20 1\nshfl.sync.bfly.b32 %r3, %r1, 16, 31, -1;\nDONE:", 32, {0}, {0}, SIM_HANG,
     "lane 16 waits at vote.sync.ballot.b32 (line 30) with member mask 0xffffffff"},
    /* bar.sync: each thread reads its neighbour's word through shared memory */
    {"bar.sync orders shared memory", "mov.u32 %r10, sh;\nshl.b32 %r11, %r1, 2;\n"
     "add.s32 %r12, %r10, %r11;\nst.shared.u32 [%r12], %r2;\nbar.sync 0;\n"
     "add.s32 %r13, %r1, 1;\nrem.u32 %r13, %r13, 40;\nshl.b32 %r14, %r13, 2;\n"
     "add.s32 %r15, %r10, %r14;\nld.shared.u32 %r3, [%r15];", 40,
     {[0] = 5, [1] = 6, [39] = 9}, {[0] = 6, [38] = 9, [39] = 5}},
    /* cp.async lands at the wait that covers its group, not before */
    {"cp.async: old bytes before the wait, new after", "mov.u32 %r10, sh;\n"
     "shl.b32 %r11, %r1, 2;\nadd.s32 %r12, %r10, %r11;\nst.shared.u32 [%r12], 7;\n"
     "cp.async.ca.shared.global [%r12], [%rd5], 4;\ncp.async.commit_group;\n"
     "ld.shared.u32 %r4, [%r12];\ncp.async.wait_group 0;\nld.shared.u32 %r5, [%r12];\n"
     "mul.lo.s32 %r4, %r4, 1000;\nadd.s32 %r3, %r4, %r5;", 2, {3, 4}, {7003, 7004}, SIM_OK,
     NULL, "read shared memory at line 0 (ld.shared.u32) that an asynchronous copy"},
    {"cp.async read after its wait: no race", "mov.u32 %r10, sh;\nshl.b32 %r11, %r1, 2;\n"
     "add.s32 %r12, %r10, %r11;\n.loc 1 20 1\ncp.async.ca.shared.global [%r12], [%rd5], 4;\n"
     "cp.async.commit_group;\ncp.async.wait_group 0;\nld.shared.u32 %r3, [%r12];", 2, {3, 4},
     {3, 4}},
    {"cp.async.wait_group 1 leaves the newest group in flight", "mov.u32 %r10, sh;\n"
     "shl.b32 %r11, %r1, 3;\nadd.s32 %r12, %r10, %r11;\nst.shared.u32 [%r12], 7;\n"
     "st.shared.u32 [%r12+4], 7;\ncp.async.ca.shared.global [%r12], [%rd5], 4;\n"
     "cp.async.commit_group;\ncp.async.ca.shared.global [%r12+4], [%rd5], 4;\n"
     "cp.async.commit_group;\ncp.async.wait_group 1;\nld.shared.u32 %r4, [%r12];\n"
     "ld.shared.u32 %r5, [%r12+4];\nmul.lo.s32 %r4, %r4, 1000;\nadd.s32 %r3, %r4, %r5;",
     1, {3}, {3007}, SIM_OK, NULL, "that an asynchronous copy"},
    /* plain shared accesses of two warps in one barrier interval, one a
     * write: a race whichever runs first; a barrier between, one warp, or
     * atomics: none */
    {"a read of another warp's write with no barrier between is a race", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n.loc 1 7 1\n@%p1 st.shared.u32 [%r10], 9;\n"
     "setp.eq.s32 %p2, %r1, 40;\n.loc 1 8 1\n@%p2 ld.shared.u32 %r3, [%r10];", 64, {0},
     {[40] = 9}, SIM_OK, NULL,
     "thread (40,0,0) of block (0,0,0) read shared memory at line 8 (ld.shared.u32) that "
     "thread (0,0,0) wrote at line 7", NULL, {8, 7}},
    {"a write after another warp's read with no barrier between is a race",
     "mov.u32 %r10, sh;\nsetp.eq.s32 %p2, %r1, 0;\n.loc 1 8 1\n@%p2 ld.shared.u32 %r3, [%r10];\n"
     "setp.eq.s32 %p1, %r1, 40;\n.loc 1 9 1\n@%p1 st.shared.u32 [%r10], 9;", 64, {0},
     {0x7f7f7f7f},
     SIM_OK, NULL, "wrote shared memory at line 9 (st.shared.u32) that thread (0,0,0) read at "
     "line 8", "read shared memory at line 8 (ld.shared.u32) that no thread of its block wrote", {9, 8}},
    {"byte accesses of two warps race", "mov.u32 %r10, sh;\nsetp.eq.s32 %p1, %r1, 0;\n"
     ".loc 1 7 1\n@%p1 st.shared.u8 [%r10], 1;\nsetp.eq.s32 %p2, %r1, 40;\n.loc 1 8 1\n"
     "@%p2 ld.shared.u8 %r3, [%r10];", 64, {0}, {[40] = 1}, SIM_OK, NULL,
     "read shared memory at line 8 (ld.shared.u8) that thread (0,0,0) wrote at line 7", NULL,
     {8, 7}},
    {"a vector load racing on its second word", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n.loc 1 7 1\n@%p1 st.shared.u32 [%r10+4], 1;\n"
     "setp.eq.s32 %p2, %r1, 40;\n@%p2 st.shared.u32 [%r10], 2;\n.loc 1 8 1\n"
     "@%p2 ld.shared.v2.u32 {%r4, %r3}, [%r10];", 64, {0}, {[40] = 1}, SIM_OK, NULL,
     "read shared memory at line 8 (ld.shared.v2.u32) that thread (0,0,0) wrote at line 7",
     NULL, {8, 7}},
    {"a barrier between the write and the read: no race", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 40;\n@%p1 st.shared.u32 [%r10], 9;\nbar.sync 0;\n"
     "ld.shared.u32 %r3, [%r10];", 64, {0}, {9, 9, 9, 9}},
    {"lanes of one warp: no race", "mov.u32 %r10, sh;\nsetp.eq.s32 %p1, %r1, 5;\n"
     "@%p1 st.shared.u32 [%r10], 9;\nld.shared.u32 %r3, [%r10];", 32, {0}, {9, 9, 9, 9}},
    {"a flag spun on with volatile accesses orders the data: no race", "mov.u32 %r10, sh;\n"
     "st.shared.u32 [%r10], 0;\nbar.sync 0;\nsetp.eq.s32 %p1, %r1, 40;\n@!%p1 bra WAIT;\nst.shared.u32 [%r10+4], 9;\n"
     "membar.cta;\nst.volatile.shared.u32 [%r10], 1;\nbra.uni DONE;\nWAIT:\n"
     "setp.ne.s32 %p2, %r1, 0;\n@%p2 bra DONE;\nSPIN:\nld.volatile.shared.u32 %r4, [%r10];\n"
     "setp.ne.s32 %p3, %r4, 1;\n@%p3 bra SPIN;\nld.shared.u32 %r3, [%r10+4];\nDONE:", 64,
     {0}, {9}},
    {"atomics of many warps: no race", "mov.u32 %r10, sh;\nsetp.eq.s32 %p1, %r1, 0;\n"
     "@%p1 st.shared.u32 [%r10], 0;\nbar.sync 0;\natom.shared.add.u32 %r4, [%r10], 1;\n"
     "bar.sync 0;\nld.shared.u32 %r3, [%r10];", 64, {0}, {64, 64, 64, 64}},
    /* two writers of one word in one interval: a race when their values
     * differ (threads of two warps, or lanes of one warp apart), none when
     * they agree, none after a barrier or a reconvergence */
    {"two warps storing different values to one word is a race", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n.loc 1 7 1\n@%p1 st.shared.u32 [%r10], 1;\n"
     "setp.eq.s32 %p2, %r1, 40;\n.loc 1 8 1\n@%p2 st.shared.u32 [%r10], 2;", 64, {0}, {0},
     SIM_OK, NULL, "thread (40,0,0) of block (0,0,0) wrote shared memory at line 8 "
     "(st.shared.u32) that thread (0,0,0) wrote at line 7, a different value", NULL, {8, 7}},
    {"two warps storing different values to a word past the first four", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n@%p1 st.shared.u32 [%r10+64], 1;\n"
     "setp.eq.s32 %p2, %r1, 40;\n@%p2 st.shared.u32 [%r10+64], 2;", 64, {0}, {0},
     SIM_OK, NULL, "that thread (0,0,0) wrote at line 0, a different value"},
    {"a read of another word while a copy is in flight: no race", "mov.u32 %r10, sh;\n"
     "st.shared.u32 [%r10+48], 5;\ncp.async.ca.shared.global [%r10+64], [%rd5], 4;\n"
     "cp.async.commit_group;\nld.shared.u32 %r3, [%r10+48];\ncp.async.wait_group 0;", 1, {0},
     {5}},
    {"two warps storing the same value: no race", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n@%p1 st.shared.u32 [%r10], 1;\n"
     "setp.eq.s32 %p2, %r1, 40;\n@%p2 st.shared.u32 [%r10], 1;", 64, {0}, {0}},
    {"two warps storing different bytes of one word: no race", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n@%p1 st.shared.u8 [%r10], 1;\n"
     "setp.eq.s32 %p2, %r1, 40;\n@%p2 st.shared.u8 [%r10+1], 2;", 64, {0}, {0}},
    {"a barrier between two writers: no race", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n@%p1 st.shared.u32 [%r10], 1;\nbar.sync 0;\n"
     "setp.eq.s32 %p2, %r1, 40;\n@%p2 st.shared.u32 [%r10], 2;", 64, {0}, {0}},
    {"lanes of one warp apart storing different values is a race", "mov.u32 %r10, sh;\n"
     "setp.lt.u32 %p1, %r1, 16;\n@%p1 bra LO;\nsetp.eq.s32 %p2, %r1, 16;\n.loc 1 8 1\n"
     "@%p2 st.shared.u32 [%r10], 2;\nbra.uni DONE;\nLO:\nsetp.eq.s32 %p3, %r1, 0;\n"
     ".loc 1 7 1\n@%p3 st.shared.u32 [%r10], 1;\nDONE:", 32, {0}, {0}, SIM_OK, NULL,
     "thread (0,0,0) of block (0,0,0) wrote shared memory at line 7 (st.shared.u32) that "
     "thread (16,0,0) wrote at line 8, a different value"},
    {"lanes of one warp storing after they reconverge: no race", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n@!%p1 bra J;\nst.shared.u32 [%r10], 1;\nJ:\n"
     "setp.eq.s32 %p2, %r1, 5;\n@%p2 st.shared.u32 [%r10], 2;", 32, {0}, {0}},
    {"lanes of one store instruction: no race", "mov.u32 %r10, sh;\n"
     "st.shared.u32 [%r10], %r1;", 32, {0}, {0}},
    {"bar.warp.sync between lanes apart orders their stores", "mov.u32 %r10, sh;\n"
     "mov.u32 %r11, -1;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra LO;\n"
     "setp.eq.s32 %p2, %r1, 16;\n@%p2 st.shared.u32 [%r10], 2;\nbar.warp.sync %r11;\n"
     "bra.uni DONE;\nLO:\nbar.warp.sync %r11;\nsetp.eq.s32 %p3, %r1, 0;\n"
     "@%p3 st.shared.u32 [%r10], 1;\nDONE:", 32, {0}, {0}},
    /* an atomic and a plain store of one word in one barrier interval */
    {"an atomic after another warp's plain store is a race", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n.loc 1 7 1\n@%p1 st.shared.u32 [%r10], 0;\n"
     "setp.eq.s32 %p2, %r1, 40;\n.loc 1 8 1\n@%p2 atom.shared.add.u32 %r4, [%r10], 1;", 64,
     {0}, {0}, SIM_OK, NULL, "thread (40,0,0) of block (0,0,0) wrote shared memory at line 8 "
     "(atom.shared.add.u32) atomically, and thread (0,0,0) wrote it with a plain store at "
     "line 7", NULL, {8, 7}},
    {"a plain store after another warp's atomic is a race", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n@%p1 st.shared.u32 [%r10], 0;\nbar.sync 0;\n"
     "setp.eq.s32 %p2, %r1, 40;\n.loc 1 8 1\n@%p2 atom.shared.add.u32 %r4, [%r10], 1;\n"
     "membar.cta;\n.loc 1 9 1\n@%p1 st.shared.u32 [%r10], 9;", 64, {0}, {0}, SIM_OK, NULL,
     "thread (0,0,0) of block (0,0,0) wrote shared memory at line 9 (st.shared.u32) that "
     "thread (40,0,0) updated atomically at line 8", NULL, {9, 8}},
    {"a vector store racing on two words names the first", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\nsetp.eq.s32 %p2, %r1, 40;\n"
     "@%p1 st.shared.v2.u32 [%r10], {%r1, %r1};\nbar.sync 0;\n.loc 1 7 1\n"
     "@%p2 atom.shared.add.u32 %r4, [%r10], 1;\n.loc 1 6 1\n"
     "@%p2 atom.shared.add.u32 %r5, [%r10+4], 1;\n.loc 1 8 1\n"
     "@%p1 st.shared.v2.u32 [%r10], {%r1, %r1};", 64, {0}, {0}, SIM_OK, NULL,
     "thread (40,0,0) updated atomically at line 7", NULL, {8, 7}},
    {"a 64-bit atomic covers both its words", "mov.u32 %r10, sh;\nmov.u64 %rd7, 0;\n"
     "setp.eq.s32 %p1, %r1, 0;\nsetp.eq.s32 %p2, %r1, 40;\n"
     "@%p1 st.shared.u64 [%r10+8], %rd7;\nbar.sync 0;\n.loc 1 8 1\n"
     "@%p2 atom.shared.add.u64 %rd8, [%r10+8], %rd7;\n.loc 1 9 1\n"
     "@%p1 st.shared.u32 [%r10+12], 5;", 64, {0}, {0}, SIM_OK, NULL,
     "thread (40,0,0) updated atomically at line 8", NULL, {9, 8}},
    {"an atomic and a plain store with a barrier between: no race", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n@%p1 st.shared.u32 [%r10], 0;\nbar.sync 0;\n"
     "setp.eq.s32 %p2, %r1, 40;\n@%p2 atom.shared.add.u32 %r4, [%r10], 1;\nbar.sync 0;\n"
     "@%p1 st.shared.u32 [%r10], 9;", 64, {0}, {0}},
    {"an atomic and a plain store with an mbarrier phase between: no race",
     "mov.u32 %r10, sh;\nsetp.eq.s32 %p1, %r1, 0;\n"
     "@%p1 mbarrier.init.shared::cta.b64 [%r10], 64;\nbar.sync 0;\n"
     "@%p1 st.shared.u32 [%r10+64], 0;\nmbarrier.arrive.shared::cta.b64 %rd6, [%r10];\n"
     "mbarrier.try_wait.shared::cta.b64 %p2, [%r10], %rd6;\nsetp.eq.s32 %p3, %r1, 40;\n"
     "@%p3 atom.shared.add.u32 %r4, [%r10+64], 1;", 64, {0}, {0}},
    /* an atomic on a word no thread wrote reads an earlier kernel's value */
    {"an atomic on a shared word no thread wrote", ".loc 1 12 1\n"
     "atom.shared.add.u32 %r4, [sh+8], 1;\n.loc 1 13 1\nld.shared.u32 %r3, [sh+8];", 1, {0},
     {0x7f7f7f80}, SIM_OK, NULL, NULL, "read shared memory at line 12 (atom.shared.add.u32) "
     "that no thread of its block wrote"},
    {"red on a shared word no thread wrote", ".loc 1 12 1\nred.shared.add.u32 [sh+8], 1;",
     1, {0}, {0}, SIM_OK, NULL, NULL, "read shared memory at line 12 (red.shared.add.u32)"},
    {"an exchange on a never-written word, then a read: none", "atom.shared.exch.b32 %r4, "
     "[sh+8], %r2;\nld.shared.u32 %r3, [sh+8];", 1, {6}, {6}},
    {"an atomic on a word after its store: none", "st.shared.u32 [sh+8], 0;\n"
     "atom.shared.add.u32 %r4, [sh+8], %r2;\nld.shared.u32 %r3, [sh+8];", 1, {6}, {6}},
    /* a read of shared or local bytes this launch did not write: on a GPU
     * they hold an earlier kernel's values (sim_report.unwritten) */
    {"a read of a shared word no thread wrote", ".loc 1 12 1\nld.shared.f32 %f3, [sh+8];\n"
     "mov.b32 %r3, %f3;", 1, {0}, {0x7f7f7f7f}, SIM_OK, NULL, NULL,
     "read shared memory at line 12 (ld.shared.f32) that no thread of its block wrote in "
     "this launch: on a GPU those bytes hold whatever an earlier kernel left there"},
    {"a read of a shared word after its store: none", "st.shared.u32 [sh+8], %r2;\n"
     "ld.shared.u32 %r3, [sh+8];", 1, {5}, {5}},
    {"a read after a cp.async has landed: none", "mov.u32 %r10, sh;\n"
     "cp.async.ca.shared.global [%r10], [%rd5], 4;\ncp.async.commit_group;\n"
     "cp.async.wait_group 0;\nld.shared.u32 %r3, [%r10];", 1, {6}, {6}},
    {"a local array read before written", ".local .align 4 .b8 __local_depot0[16];\n"
     "mov.u64 %rd6, __local_depot0;\nst.local.u32 [%rd6], %r2;\n.loc 1 14 1\n"
     "ld.local.u32 %r3, [%rd6+4];", 1, {0}, {0}, SIM_OK, NULL, NULL,
     "read local memory at line 14 (ld.local.u32) that its thread did not write in this "
     "launch"},
    {"a vector store then a narrower load: none", "st.shared.v2.u32 [sh+16], {%r2, %r2};\n"
     "ld.shared.u32 %r3, [sh+20];\nld.shared.u8 %r4, [sh+17];\nadd.s32 %r3, %r3, %r4;", 1,
     {0x105}, {0x106}},
    /* atom.inc counts up to its bound, then wraps to 0 */
    {"atom.inc wraps at its bound", "st.shared.u32 [sh], %r2;\n"
     "atom.shared.inc.u32 %r4, [sh], 5;\nld.shared.u32 %r3, [sh];", 1, {5}, {0}},
    {"atom.inc below its bound adds 1", "st.shared.u32 [sh], %r2;\n"
     "atom.shared.inc.u32 %r4, [sh], 5;\nld.shared.u32 %r3, [sh];", 1, {3}, {4}},
    /* a named barrier with a count: warp 0 passes barrier 1 alone */
    {"bar.sync with a count completes on that many", "setp.lt.u32 %p1, %r1, 32;\n"
     "@!%p1 bra W1;\nbar.sync 1, 32;\nmov.u32 %r3, 1;\nW1:\nbar.sync 2, 64;\n"
     "add.s32 %r3, %r3, 10;", 64, {0}, {11, 11, 11, 11, [32] = 10, [63] = 10}},
    /* mbarrier: a phase completes on its arrivals; one that lacks one hangs */
    {"mbarrier phase completes on every arrival", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n@%p1 mbarrier.init.shared::cta.b64 [%r10], 4;\nbar.sync 0;\n"
     "mbarrier.arrive.shared::cta.b64 %rd6, [%r10];\n"
     "mbarrier.try_wait.shared::cta.b64 %p2, [%r10], %rd6;\nselp.b32 %r3, 1, 0, %p2;", 4,
     {0}, {1, 1, 1, 1}},
    {"mbarrier.arrive.expect_tx waits for its bytes", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n@%p1 mbarrier.init.shared::cta.b64 [%r10], 1;\nbar.sync 0;\n"
     "@%p1 mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd6, [%r10], 4;\n"
     "@%p1 mbarrier.try_wait.shared::cta.b64 %p2, [%r10], %rd6;", 1, {0}, {0}, SIM_HANG,
     "still expects 0 arrivals and 4 transaction bytes"},
    {"a bulk copy lands when its phase completes", "mov.u32 %r10, sh;\n"
     "mbarrier.init.shared::cta.b64 [%r10], 1;\nadd.s32 %r11, %r10, 64;\n"
     "mbarrier.arrive.expect_tx.shared::cta.b64 %rd6, [%r10], 16;\n"
     "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r11], [%rd2], 16, "
     "[%r10];\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r10], 0;\n"
     "ld.shared.u32 %r3, [%r11];", 1, {77}, {77}},
    {"cp.async.mbarrier.arrive: the copy lands when the phase completes", "mov.u32 %r10, sh;\n"
     "mbarrier.init.shared::cta.b64 [%r10], 1;\nadd.s32 %r11, %r10, 64;\n"
     "st.shared.u32 [%r11], 5;\n.loc 1 30 1\ncp.async.ca.shared.global [%r11], [%rd5], 4;\n"
     "cp.async.mbarrier.arrive.shared.b64 [%r10];\n.loc 1 32 1\nld.shared.u32 %r4, [%r11];\n"
     "mbarrier.arrive.shared::cta.b64 %rd6, [%r10];\n"
     "mbarrier.try_wait.shared::cta.b64 %p2, [%r10], %rd6;\nld.shared.u32 %r5, [%r11];\n"
     "mul.lo.s32 %r4, %r4, 1000;\nadd.s32 %r3, %r4, %r5;", 1, {77}, {5077}, SIM_OK, NULL,
     "read shared memory at line 32 (ld.shared.u32) that an asynchronous copy issued at line 30",
     NULL, {32, 30}},
    {"mbarrier phase that lacks an arrival hangs", "mov.u32 %r10, sh;\n"
     "setp.eq.s32 %p1, %r1, 0;\n@%p1 mbarrier.init.shared::cta.b64 [%r10], 5;\nbar.sync 0;\n"
     "mbarrier.arrive.shared::cta.b64 %rd6, [%r10];\n"
     "mbarrier.try_wait.shared::cta.b64 %p2, [%r10], %rd6;", 4, {0}, {0}, SIM_HANG,
     "still expects 1 arrivals"},
    {"bar.sync that one thread skips hangs", "setp.eq.s32 %p1, %r1, 0;\n@%p1 bra SKIP;\n"
     "bar.sync 0;\nSKIP:\n.loc 1 77 1\nbar.sync 1;", 64, {0}, {0}, SIM_HANG, "barrier"},
    /* faults, and what it does not run */
    {"a store outside every buffer is a fault with its line", ".loc 1 42 3\n"
     "st.global.u32 [%rd4+4096], %r2;", 1, {0}, {0}, SIM_FAULT, "at line 42"},
    {"a shared access past the block's shared memory is a fault", "mov.u32 %r10, 1073741824;\n"
     ".loc 1 9 1\nld.shared.u32 %r3, [%r10];", 1, {0}, {0}, SIM_FAULT,
     "past the end of the block's shared memory"},
    {"a local access past the thread's local memory is a fault", ".local .align 4 .b8 "
     "__local_depot0[16];\nmov.u64 %rd6, __local_depot0;\n.loc 1 9 1\n"
     "ld.local.u32 %r3, [%rd6+1073741824];", 1, {0}, {0}, SIM_FAULT,
     "past the end of the thread's local memory"},
    {"an instruction it does not run stops with its name", ".loc 1 9 1\n"
     "cvt.rn.f16.f32 %r3, %f1;", 1, {0}, {0}, SIM_UNSUPPORTED, "cvt.rn.f16.f32"},
    {"assert's failure path is a trap", ".loc 1 5 1\ntrap;", 1, {0}, {0}, SIM_TRAP,
     "stopped itself"},
};

static char ptx[8192];

/* The two buffers a test registered, and its module: gone. */
static void forget(void *in, void *out, sim_module *m)
{
    sim_mem_remove(in);
    sim_mem_remove(out);
    free(in);
    free(out);
    sim_free(m);
}

START_TEST(one_case)
{
    const sim_case *c = &cases[_i];
    snprintf(ptx, sizeof ptx, "%s%s\n%s", head, c->body, tail);
    char err[256];
    sim_module *m = sim_load(ptx, err, sizeof err);
    ck_assert_msg(m, "%s: %s", c->name, err);
    uint32_t *in = calloc(MAXT, 4), *out = calloc(MAXT, 4);
    memcpy(in, c->in, sizeof c->in);
    ck_assert_int_eq(sim_mem_add(in, MAXT * 4), 0);
    ck_assert_int_eq(sim_mem_add(out, MAXT * 4), 0);
    void *args[2] = {&out, &in};
    sim_launch L = {.grid = {1, 1, 1}, .block = {c->threads, 1, 1}, .argp = args,
                    .timeout_s = 5};
    sim_report rep;
    enum sim_status s = sim_run(m, sim_kernel(m, "t"), &L, &rep);
    ck_assert_msg(s == c->status, "%s: status %d, want %d (%s)", c->name, s, c->status,
                  rep.message);
    if (c->status == SIM_OK)
        for (unsigned t = 0; t < c->threads && t < MAXT; t++)
            if (c->want[t] || t < 4)
                ck_assert_msg(out[t] == c->want[t], "%s: thread %u got 0x%x, want 0x%x",
                              c->name, t, out[t], c->want[t]);
    if (c->says)
        ck_assert_msg(strstr(rep.message, c->says), "%s: '%s' not in: %s", c->name, c->says,
                      rep.message);
    if (c->race)
        ck_assert_msg(strstr(rep.race, c->race), "%s: '%s' not in the race: %s", c->name,
                      c->race, rep.race);
    else
        ck_assert_msg(!rep.race[0], "%s: a race reported: %s", c->name, rep.race);
    if (c->race_lines[0])
        ck_assert_msg(rep.race_line == c->race_lines[0] && rep.race_copy_line == c->race_lines[1],
                      "%s: race lines %u and %u, want %u and %u", c->name, rep.race_line,
                      rep.race_copy_line, c->race_lines[0], c->race_lines[1]);
    if (c->unwritten)
        ck_assert_msg(strstr(rep.unwritten, c->unwritten), "%s: '%s' not in: %s", c->name,
                      c->unwritten, rep.unwritten);
    else
        ck_assert_msg(!rep.unwritten[0], "%s: an unwritten read reported: %s", c->name,
                      rep.unwritten);
    forget(in, out, m);
}
END_TEST

/* Many blocks: every block's threads write their global index once. */
START_TEST(grid_of_blocks)
{
    snprintf(ptx, sizeof ptx, "%s%s\n%s", head,
             "mov.u32 %r4, %ctaid.x;\nmov.u32 %r5, %ntid.x;\nmad.lo.s32 %r3, %r4, %r5, %r1;\n"
             "mul.wide.u32 %rd6, %r3, 4;\nadd.s64 %rd4, %rd1, %rd6;", tail);
    char err[256];
    sim_module *m = sim_load(ptx, err, sizeof err);
    ck_assert_msg(m, "%s", err);
    enum { N = 37 * 96 };
    uint32_t *out = calloc(N, 4), *in = calloc(96, 4);
    sim_mem_add(out, N * 4);
    sim_mem_add(in, 96 * 4);
    void *args[2] = {&out, &in};
    sim_launch L = {.grid = {37, 1, 1}, .block = {96, 1, 1}, .argp = args};
    sim_report rep;
    ck_assert_int_eq(sim_run(m, 0, &L, &rep), SIM_OK);
    for (unsigned i = 0; i < N; i++)
        ck_assert_uint_eq(out[i], i);
    ck_assert_uint_eq(rep.thread_insns, (uint64_t)N * 15);   /* 8 of the head, 5 here, 2 of the tail */
    forget(in, out, m);
}
END_TEST

/* A sample of the grid (sim_launch.blocks): only the listed blocks run,
 * each with its own %ctaid; a block outside the grid is a bad launch. */
START_TEST(sample_of_blocks)
{
    snprintf(ptx, sizeof ptx, "%s%s\n%s", head,
             "mov.u32 %r4, %ctaid.x;\nmov.u32 %r5, %ntid.x;\nmad.lo.s32 %r3, %r4, %r5, %r1;\n"
             "mul.wide.u32 %rd6, %r3, 4;\nadd.s64 %rd4, %rd1, %rd6;", tail);
    char err[256];
    sim_module *m = sim_load(ptx, err, sizeof err);
    ck_assert_msg(m, "%s", err);
    enum { N = 37 * 96 };
    uint32_t *out = malloc(N * 4), *in = calloc(96, 4);
    memset(out, 0xff, N * 4);
    sim_mem_add(out, N * 4);
    sim_mem_add(in, 96 * 4);
    void *args[2] = {&out, &in};
    static const unsigned blocks[] = {0, 5, 36};
    sim_launch L = {.grid = {37, 1, 1}, .block = {96, 1, 1}, .argp = args, .blocks = blocks,
                    .nblocks = 3};
    sim_report rep;
    ck_assert_int_eq(sim_run(m, 0, &L, &rep), SIM_OK);
    for (unsigned i = 0; i < N; i++) {
        unsigned b = i / 96;
        ck_assert_uint_eq(out[i], b == 0 || b == 5 || b == 36 ? i : 0xffffffffu);
    }
    ck_assert_uint_eq(rep.thread_insns, (uint64_t)3 * 96 * 15);
    static const unsigned outside[] = {3, 37};
    L.blocks = outside;
    L.nblocks = 2;
    ck_assert_int_eq(sim_run(m, 0, &L, &rep), SIM_BAD_LAUNCH);
    ck_assert_msg(strstr(rep.message, "block 37"), "%s", rep.message);
    forget(in, out, m);
}
END_TEST

/* libcu++'s cuda::memcpy_async on a cuda::barrier, as nvcc compiled it
 * (fixtures/sim/README.md): two blocks, each thread reads the element its
 * neighbour's copy brought, after the barrier: right, and no race. */
START_TEST(libcuxx_memcpy_async)
{
    static char text[1 << 16];
    FILE *f = fopen("tests/unit/fixtures/sim/memcpy_async_barrier.ptx", "r");
    ck_assert_ptr_nonnull(f);
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    char err[256];
    sim_module *m = sim_load(text, err, sizeof err);
    ck_assert_msg(m, "%s", err);
    int n = 512;
    double *in = malloc(n * 8), *out = malloc(n * 8);
    for (int i = 0; i < n; i++)
        in[i] = i;
    sim_mem_add(in, n * 8);
    sim_mem_add(out, n * 8);
    void *args[3] = {&in, &out, &n};
    sim_launch L = {.grid = {2, 1, 1}, .block = {256, 1, 1}, .argp = args, .timeout_s = 5};
    sim_report rep;
    ck_assert_int_eq(sim_run(m, sim_kernel(m, "k"), &L, &rep), SIM_OK);
    ck_assert_msg(!rep.race[0], "%s", rep.race);
    for (int i = 0; i < n; i++)
        ck_assert_msg(out[i] == 2 * in[i / 256 * 256 + (i % 256 + 1) % 256], "out[%d] = %g", i,
                      out[i]);
    forget(in, out, m);
}
END_TEST

/* Launches a GPU refuses: an empty block or grid in any dimension, more
 * than 1024 threads, more than the kernel's .maxntid. */
START_TEST(bad_launches)
{
    static const struct { unsigned grid[3], block[3]; const char *says; } bad[] = {
        {{1, 1, 1}, {0, 1, 1}, "a GPU refuses"},
        {{1, 1, 1}, {1025, 1, 1}, "a GPU refuses"},
        {{1, 1, 1}, {64, 1, 1}, "more than the 32 its .maxntid"},
        {{0, 1, 1}, {32, 1, 1}, "empty grid"},
        {{1, 0, 1}, {32, 1, 1}, "empty grid"},
        {{1, 1, 0}, {32, 1, 1}, "empty grid"},
    };
    const char *text = ".version 8.0\n.target sm_90\n.address_size 64\n"
                       ".visible .entry t() .maxntid 32, 1, 1\n{\nret;\n}\n";
    char err[256];
    sim_module *m = sim_load(text, err, sizeof err);
    ck_assert_msg(m, "%s", err);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sim_launch L = {.grid = {bad[i].grid[0], bad[i].grid[1], bad[i].grid[2]},
                        .block = {bad[i].block[0], bad[i].block[1], bad[i].block[2]}};
        sim_report rep;
        ck_assert_msg(sim_run(m, 0, &L, &rep) == SIM_BAD_LAUNCH, "launch %zu: %s", i,
                      rep.message);
        ck_assert_msg(strstr(rep.message, bad[i].says), "launch %zu: %s", i, rep.message);
    }
    sim_launch ok = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
    sim_report rep;
    ck_assert_int_eq(sim_run(m, 0, &ok, &rep), SIM_OK);
    sim_free(m);
}
END_TEST

/* A shared variable's address as the kernel's first start register (the
 * second variable, at offset 16): stores through it land there. */
START_TEST(shared_symbol_first)
{
    const char *text = ".version 8.0\n.target sm_90\n.address_size 64\n"
                       ".visible .entry t(.param .u64 t_param_0)\n{\n"
                       ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                       ".shared .align 4 .b8 a[16];\n.shared .align 4 .b8 b[16];\n"
                       "mov.u32 %r1, b;\nst.shared.u32 [%r1], 42;\n"
                       "ld.shared.u32 %r2, [a+16];\n"
                       "ld.param.u64 %rd1, [t_param_0];\nst.global.u32 [%rd1], %r2;\nret;\n}\n";
    char err[256];
    sim_module *m = sim_load(text, err, sizeof err);
    ck_assert_msg(m, "%s", err);
    uint32_t *out = calloc(1, 4);
    sim_mem_add(out, 4);
    void *args[1] = {&out};
    sim_launch L = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .argp = args};
    sim_report rep;
    ck_assert_int_eq(sim_run(m, 0, &L, &rep), SIM_OK);
    ck_assert_uint_eq(*out, 42);
    ck_assert_msg(!rep.unwritten[0], "%s", rep.unwritten);
    sim_mem_remove(out);
    free(out);
    sim_free(m);
}
END_TEST

/* Loading and freeing a module with variables gives back what it took. */
START_TEST(free_gives_back_every_variable)
{
    const char *text = ".version 8.0\n.target sm_90\n.address_size 64\n"
                       ".const .align 4 .b8 k0[4096];\n.const .align 4 .b8 k1[4096];\n"
                       ".visible .entry t()\n{\nret;\n}\n";
    char err[256];
    sim_free(sim_load(text, err, sizeof err));   /* the allocator's first growth */
    size_t before = mallinfo2().uordblks;
    for (int i = 0; i < 200; i++) {
        sim_module *m = sim_load(text, err, sizeof err);
        ck_assert_msg(m, "%s", err);
        sim_free(m);
    }
    size_t after = mallinfo2().uordblks;
    ck_assert_msg(after < before + 100000, "%zu bytes more after 200 modules", after - before);
}
END_TEST

/* Races named in blocks of every shape: each thread by its (x,y,z) in
 * the block, the block by its (x,y,z) in the grid. The kernel's body runs
 * with %r1 the linear thread index and %r2 the block's y. */
static const struct race_case {
    const char *name;
    unsigned grid[3], block[3];
    const char *body;
    const char *race;        /* NULL: none may be reported */
} race_cases[] = {
    {"a 3-D block names threads by x, y and z", {1, 1, 1}, {8, 2, 4},
     "setp.eq.u32 %p1, %r1, 0;\n@%p1 st.shared.u32 [sh], 1;\nsetp.eq.u32 %p2, %r1, 40;\n"
     "@%p2 ld.shared.u32 %r3, [sh];",
     "thread (0,1,2) of block (0,0,0) read shared memory at line 0 (ld.shared.u32) that thread "
     "(0,0,0) wrote"},
    {"a race in block (0,1,0) of a 2-D grid", {1, 2, 1}, {64, 1, 1},
     "setp.eq.u32 %p3, %r2, 1;\n@!%p3 bra DONE;\nsetp.eq.u32 %p1, %r1, 0;\n"
     "@%p1 st.shared.u32 [sh], 1;\nsetp.eq.u32 %p2, %r1, 40;\n@%p2 ld.shared.u32 %r3, [sh];\n"
     "DONE:", "thread (40,0,0) of block (0,1,0) read"},
    {"lanes of warp 31 of 32 storing in one instruction: no race", {1, 1, 1}, {1024, 1, 1},
     "setp.ge.u32 %p1, %r1, 992;\n@%p1 st.shared.u32 [sh], %r1;", NULL},
};

START_TEST(race_naming)
{
    const struct race_case *rc = &race_cases[_i];
    snprintf(ptx, sizeof ptx, ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry t()\n{\n.reg .pred %%p<8>;\n.reg .b32 %%r<16>;\n"
             ".shared .align 4 .b8 sh[64];\nmov.u32 %%r4, %%tid.x;\nmov.u32 %%r5, %%tid.y;\n"
             "mov.u32 %%r6, %%tid.z;\nmov.u32 %%r7, %%ntid.x;\nmov.u32 %%r8, %%ntid.y;\n"
             "mad.lo.s32 %%r9, %%r6, %%r8, %%r5;\nmad.lo.s32 %%r1, %%r9, %%r7, %%r4;\n"
             "mov.u32 %%r2, %%ctaid.y;\n%s\nret;\n}\n", rc->body);
    char err[256];
    sim_module *m = sim_load(ptx, err, sizeof err);
    ck_assert_msg(m, "%s: %s", rc->name, err);
    sim_launch L = {.grid = {rc->grid[0], rc->grid[1], rc->grid[2]},
                    .block = {rc->block[0], rc->block[1], rc->block[2]}, .timeout_s = 5};
    sim_report rep;
    ck_assert_msg(sim_run(m, 0, &L, &rep) == SIM_OK, "%s: %s", rc->name, rep.message);
    if (rc->race)
        ck_assert_msg(strstr(rep.race, rc->race), "%s: '%s' not in the race: %s", rc->name,
                      rc->race, rep.race);
    else
        ck_assert_msg(!rep.race[0], "%s: a race reported: %s", rc->name, rep.race);
    sim_free(m);
}
END_TEST

Suite *sim_suite(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tcase_create("instructions");
    tcase_add_loop_test(tc, one_case, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, grid_of_blocks);
    tcase_add_test(tc, sample_of_blocks);
    tcase_add_test(tc, libcuxx_memcpy_async);
    tcase_add_test(tc, bad_launches);
    tcase_add_loop_test(tc, race_naming, 0, (int)(sizeof race_cases / sizeof *race_cases));
    tcase_add_test(tc, shared_symbol_first);
    tcase_add_test(tc, free_gives_back_every_variable);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, sim_counts_tcase());
    suite_add_tcase(s, sim_watch_tcase());
    return s;
}
