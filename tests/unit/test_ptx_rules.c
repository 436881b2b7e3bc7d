/* test_ptx_rules.c: no device-global variable a kernel can write.
 *
 * On literal PTX (what is a declaration, what is a use) and on kernels in
 * tests/unit/fixtures/rules/ compiled through compile_file: every way of
 * keeping state between launches we know of is refused with OUT_REFUSED and
 * a message naming the variable; read-only data and the toolkit's own
 * constants pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "compile.h"
#include "ptx_rules.h"
#include "suites.h"

#define RULES "tests/unit/fixtures/rules/"

static int check(const char *ptx, char *msg)
{
    return ptx_check_device_globals(ptx, msg, 1024);
}

START_TEST(ptx_store_refused)
{
    char msg[1024];
    ck_assert_int_eq(check(".global .align 4 .u32 counter;\n"
                           ".visible .entry k() {\n"
                           "\tst.global.u32 [counter], %r1;\n}\n", msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "__device__ variable, 'counter'"));
    ck_assert_ptr_nonnull(strstr(msg, "st.global.u32"));
    ck_assert_ptr_nonnull(strstr(msg, "replay"));
}
END_TEST

START_TEST(ptx_loads_only_allowed)
{
    /* Declared and loaded by name: nothing can write it. Comments and a
     * .file path that mention it are not uses. */
    char msg[1024];
    ck_assert_int_eq(check("\t.file 1 \"/home/me/table.cu\"\n"
                           ".global .align 4 .b8 table[16] = {0, 0, 128, 63};\n"
                           ".visible .entry k(.param .u64 .ptr .global .align 4 k_param_0) {\n"
                           "\t// st.global.u32 [table], %r1;\n"
                           "\t/* atom.global.add.u32 %r2, [table], 1; */\n"
                           "$L1: @%p1 ld.global.u32 %r1, [table+4];\n"
                           "\tldu.global.u32 %r2, [table];\n"
                           "\tld.global.nc.u32 %r3, [table+8];\n}\n", msg), 0);
}
END_TEST

START_TEST(ptx_unused_allowed)
{
    /* What CCCL's headers leave in every PTX: constants nobody touches. */
    char msg[1024];
    ck_assert_int_eq(check(".global .align 1 .u8 _ZN4cuda3std3__417integral_constantIbLb1EE5valueE = 1;\n"
                           ".global .align 1 .b8 _ZN4cuda3std3__46chrono6MondayE[1] = {1};\n"
                           ".visible .entry k() {\n\tret;\n}\n", msg), 0);
}
END_TEST

START_TEST(ptx_instructions_are_not_declarations)
{
    /* ld.global, cvta.to.global, cp.async...shared.global and a kernel
     * parameter's .ptr .global attribute declare nothing. */
    char msg[1024];
    ck_assert_int_eq(check(".visible .entry k(.param .u64 .ptr .global .align 1 p) {\n"
                           "\tcvta.to.global.u64 %rd2, %rd1;\n"
                           "\tld.global.f32 %f1, [%rd2];\n"
                           "\tcp.async.ca.shared.global [%r1], [%rd2], 8, 8;\n"
                           "\tst.global.f32 [%rd2], %f1;\n}\n", msg), 0);
}
END_TEST

START_TEST(ptx_statement_right_after_a_brace_or_semicolon)
{
    /* A statement starts right after the '{' or ';' before it, space or no
     * space: packed loads are still loads, and a packed store is named by
     * its whole opcode. */
    char msg[1024];
    ck_assert_int_eq(check(".global .align 4 .u32 table;\n"
                           ".visible .entry k() {ld.global.u32 %r1, [table];"
                           "ld.global.u32 %r2, [table+4];}\n", msg), 0);
    ck_assert_int_eq(check(".global .align 4 .u32 counter;\n"
                           ".visible .entry k() {st.global.u32 [counter], %r1;}\n", msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "'counter'"));
    ck_assert_ptr_nonnull(strstr(msg, "(st.global.u32"));
}
END_TEST

START_TEST(ptx_copy_at_the_end_of_the_text)
{
    /* A copy of a global's address that ends the text (no ';', no newline)
     * is a copy, and the scan stops at the text's end. The scan works on a
     * heap copy of the PTX (n + 1 bytes, from the same size of block as
     * junk's n + 6: glibc's blocks grow by 16), so what junk leaves
     * past the NUL is what a scan that ran on would read: a packed use of
     * the same name, which would be taken for a write. */
    char msg[1024];
    const char *head = ".global .align 8 .u64 fmt;\n{\nmov.u64 %rd1, ";
    char ptx[64];
    size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s", head);
    while ((n + 4) % 16 != 9)   /* n + 1 and n + 6 fit the same block */
        ptx[n++] = ' ';
    memcpy(ptx + n, "fmt", 4);
    n += 3;
    char *junk = malloc(n + 6);
    ck_assert_ptr_nonnull(junk);
    memcpy(junk, ptx, n + 1);
    memcpy(junk + n + 1, ";fmt", 5);
    void (*volatile release)(void *) = free;   /* or -O2 drops junk altogether */
    release(junk);
    ck_assert_int_eq(check(ptx, msg), 0);
    ck_assert_str_eq(msg, "");
}
END_TEST

START_TEST(ptx_address_taken_refused)
{
    char msg[1024];
    ck_assert_int_eq(check(".global .align 4 .b8 buf[64];\n"
                           ".visible .entry k() {\n"
                           "\tmov.u64 %rd1, buf;\n"
                           "\tcvta.global.u64 %rd2, %rd1;\n"
                           "\tst.u32 [%rd2], %r1;\n}\n", msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "takes its address"));
    ck_assert_int_eq(check(".global .align 4 .u32 x;\n"
                           ".global .align 8 .u64 p = generic(x);\n", msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "'x'"));
    ck_assert_int_eq(check(".global .align 4 .u32 x;\n"
                           ".visible .entry k() {\n"
                           "\t@%p1 bra $L1;\n$L1:\n"
                           "\tatom.global.add.u32 %r1, [x], 1;\n}\n", msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "atomically"));
}
END_TEST

START_TEST(ptx_hidden_declarations_refused)
{
    /* Inline assembly: a declaration inside a function, several statements
     * on one line, a comment opener inside a string. */
    char msg[1024];
    ck_assert_int_eq(check(".visible .entry k() {\n"
                           "\t{ .global .u32 h; ld.global.u32 %r1, [h]; st.global.u32 [h], %r1; }\n"
                           "}\n", msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "'h'"));
    ck_assert_int_eq(check(".pragma \"/*\"; .global .u32 q; st.global.u32 [q], 1; // */\n", msg),
                     -1);
    ck_assert_int_eq(check(".global .attribute(.managed) .align 4 .u32 m;\n"
                           "\tst.global.u32 [m], %r1;\n", msg), -1);
    ck_assert_int_eq(check(".global .u32 a, b;\n\tst.global.u32 [b], %r1;\n", msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "'b'"));
    /* A name that is a prefix of another is not a use of it. */
    ck_assert_int_eq(check(".global .u32 $str;\n.global .u32 $str$1;\n"
                           "\tld.global.u32 %r1, [$str];\n\tld.global.u32 %r1, [$str$1];\n",
                           msg), 0);
}
END_TEST

START_TEST(ptx_device_heap_refused)
{
    char msg[1024];
    ck_assert_int_eq(check(".extern .func  (.param .b64 func_retval0) malloc\n(\n"
                           "\t.param .b64 malloc_param_0\n);\n"
                           ".visible .entry k() {\n\tcall.uni (retval0), \n\tmalloc, \n"
                           "\t(\n\tparam0\n\t);\n}\n", msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "device heap"));
    /* A name that only contains the word is not the allocator. */
    ck_assert_int_eq(check(".visible .entry my_malloc_free_kernel() {\n\tret;\n}\n", msg), 0);
}
END_TEST

START_TEST(ptx_many_globals_checked_in_linear_time)
{
    /* A hostile file declaring 100000 variables (loaded, so all allowed):
     * one look-up per name in the PTX, not one scan of the PTX per name,
     * which would take hours. */
    size_t cap = 16u << 20, n = 0;
    char *p = malloc(cap), msg[1024];
    ck_assert_ptr_nonnull(p);
    for (int i = 0; i < 100000; i++)
        n += (size_t)snprintf(p + n, cap - n, ".global .align 4 .u32 v%d;\n", i);
    n += (size_t)snprintf(p + n, cap - n, ".visible .entry k() {\n");
    for (int i = 0; i < 100000; i++)
        n += (size_t)snprintf(p + n, cap - n, "\tld.global.u32 %%r1, [v%d];\n", i);
    snprintf(p + n, cap - n, "\tst.global.u32 [v99999], %%r1;\n}\n");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ck_assert_int_eq(check(p, msg), -1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ck_assert_ptr_nonnull(strstr(msg, "'v99999'"));
    double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ck_assert_msg(s < 10, "checking took %.1f s", s);
    free(p);
}
END_TEST

/* Special registers that tell launches apart (ptx_check_special_registers):
 * PTX in, refused or not, the words. */
#define SR_HEAD ".visible .entry k(.param .u64 p) {\n.reg .b32 %r<9>;\n.reg .b64 %rd<9>;\n" \
    ".loc 1 7 3\n"
static const struct {
    const char *body;          /* instructions of k */
    const char *allowed;       /* the spec's special_registers */
    int refused;
    const char *words;         /* in the message when refused */
} sregs[] = {
    {"mov.u32 %r1, %clock;", NULL, 1, "reads %clock (the SM's clock) at line 7"},
    {"mov.u32 %r1, %clock_hi;", NULL, 1, "%clock_hi"},
    {"mov.u64 %rd1, %clock64;", NULL, 1, "%clock64 (the SM's clock)"},
    {"mov.u64 %rd1, %globaltimer;", NULL, 1, "%globaltimer (the GPU's global timer)"},
    {"mov.u32 %r1, %globaltimer_lo;", NULL, 1, "%globaltimer_lo"},
    {"mov.u32 %r1, %globaltimer_hi;", NULL, 1, "%globaltimer_hi"},
    {"mov.u32 %r1, %smid;", NULL, 1, "%smid (which SM the block runs on)"},
    {"mov.u32 %r1, %nsmid;", NULL, 1, "%nsmid (how many SMs the GPU has)"},
    {"mov.u32 %r1, %warpid;", NULL, 1, "%warpid"},
    {"mov.u32 %r1, %nwarpid;", NULL, 1, "%nwarpid"},
    {"mov.u64 %rd1, %gridid;", NULL, 1, "%gridid (the launch's number"},
    {"mov.u32 %r1, %pm3;", NULL, 1, "%pm3 (a performance counter)"},
    {"mov.u64 %rd1, %pm7_64;", NULL, 1, "%pm7_64"},
    {"mov.u32 %r1, %envreg12;", NULL, 1, "%envreg12 (the driver's environment)"},
    {"mov.u32 %r1, %reserved_smem_offset_begin;", NULL, 1, "%reserved_smem_offset_begin"},
    {"mov.u32 %r1, %total_smem_size;", NULL, 1, "%total_smem_size"},
    {"mov.u32 %r1, %aggr_smem_size;", NULL, 1, "%aggr_smem_size"},
    /* as an operand of any instruction, in a dead branch too */
    {"add.u32 %r2, %r1, %smid;", NULL, 1, "%smid"},
    {"setp.eq.u32 %p1, %r1, 1;\n@%p1 bra $L1;\nbra $L2;\n$L1:\nmov.u32 %r3, %nsmid;\n$L2:",
     NULL, 1, "could tell a simulated launch from a real one, or a judged launch from a timed one"},
    /* in braces of inline assembly */
    {"{\n.reg .b32 t;\nmov.u32 t, %gridid;\n}", NULL, 1, "%gridid"},
    /* fine: what the launch itself says */
    {"mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.y;\nmov.u32 %r3, %nctaid.z;\n"
     "mov.u32 %r4, %ntid.x;\nmov.u32 %r5, %laneid;\nmov.u32 %r6, %lanemask_lt;\n"
     "mov.u32 %r7, %dynamic_smem_size;", NULL, 0, NULL},
    /* fine: a comment, a string, a register that only looks like one */
    {"// mov.u32 %r1, %clock;\nmov.u32 %r1, %r2; /* %smid */", NULL, 0, NULL},
    {"mov.u32 %r1, %pmx;", NULL, 0, NULL},
    /* allowed by the spec, and only what it names */
    {"mov.u32 %r1, %nsmid;", "%smid %nsmid", 0, NULL},
    {"mov.u32 %r1, %smid;\nmov.u64 %rd1, %clock64;", "%smid", 1, "%clock64"},
    {"mov.u64 %rd1, %clock64;", "%clock", 1, "%clock64"},
};

START_TEST(special_registers)
{
    char ptx[2048], msg[1024];
    snprintf(ptx, sizeof ptx, "%s%s\nret;\n}\n", SR_HEAD, sregs[_i].body);
    msg[0] = 0;
    int r = ptx_check_special_registers(ptx, sregs[_i].allowed, msg, sizeof msg);
    ck_assert_msg(r == (sregs[_i].refused ? -1 : 0), "case %d (%s): %d, %s", _i, sregs[_i].body,
                  r, msg);
    if (sregs[_i].words) {
        ck_assert_msg(strstr(msg, sregs[_i].words), "case %d: '%s' not in '%s'", _i,
                      sregs[_i].words, msg);
        ck_assert_msg(strstr(msg, "could tell a simulated launch from a real one"), "%s", msg);
    }
}
END_TEST

/* libcu++'s wait with backoff reads %globaltimer (chrono.h inlined at
 * threading_support.h): let through, cuda::barrier being taught; the same
 * read from chrono.h inlined at the student's own file is refused. */
START_TEST(special_registers_libcuxx_backoff)
{
    static const char *const inlined_at[] = {"13", "1"};
    for (int k = 0; k < 2; k++) {
        char ptx[2048], msg[1024] = "";
        snprintf(ptx, sizeof ptx, ".visible .entry k() {\n.reg .b64 %%rd<9>;\n"
                 ".loc 13 65 5, function_name $L__info_string23, inlined_at 4 370 5\n"
                 ".loc 14 41 3, function_name $L__info_string24, inlined_at %s 65 5\n"
                 "mov.u64 %%rd17, %%globaltimer;\nret;\n}\n"
                 ".file 1 \"/home/me/k.cu\"\n"
                 ".file 4 \"/usr/local/cuda/include/cccl/cuda/__barrier/barrier_block_scope.h\"\n"
                 ".file 13 \"/usr/local/cuda/include/cccl/cuda/std/__thread/threading_support.h\"\n"
                 ".file 14 \"/usr/local/cuda/include/cccl/cuda/std/__cuda/chrono.h\"\n",
                 inlined_at[k]);
        int r = ptx_check_special_registers(ptx, NULL, msg, sizeof msg);
        ck_assert_msg(r == (k == 0 ? 0 : -1), "inlined at file %s: %d %s", inlined_at[k], r, msg);
    }
}
END_TEST

START_TEST(ptx_declared_sizes)
{
    long shared, constant;
    ptx_declared_bytes(".shared .align 8 .b8 _ZZ1kE3buf[8192];\n"
                       ".shared .align 4 .f32 s2[2][3];\n"
                       ".shared .align 16 .v4 .u32 vec[4];\n"
                       ".extern .shared .align 16 .b8 dyn[];\n"
                       ".const .align 4 .b8 table[80000];\n"
                       "\tld.shared.f64 %fd1, [%rd7];\n"
                       "\tld.const.f32 %f1, [table];\n", &shared, &constant);
    ck_assert_int_eq(shared, 8192 + 24 + 64);
    ck_assert_int_eq(constant, 80000);
}
END_TEST

START_TEST(readable_names)
{
    char out[64], in[64];
    ptx_readable_name("_ZZ1kE2st", 9, out, sizeof out, in, sizeof in);
    ck_assert_str_eq(out, "st");
    ck_assert_str_eq(in, "k");
    ptx_readable_name("_ZN2ns5stateE", 13, out, sizeof out, in, sizeof in);
    ck_assert_str_eq(out, "ns::state");
    ck_assert_str_eq(in, "");
    ptx_readable_name("counter", 7, out, sizeof out, in, sizeof in);
    ck_assert_str_eq(out, "counter");
}
END_TEST

typedef struct case_ {
    const char *file;
    const char *kernel;
    const char *says;       /* NULL: must compile and pass */
} case_;

static const case_ cases[] = {
    {"device_counter.cu", "fx_scale", "'launches'"},
    {"static_local.cu", "fx_scale", "a static variable inside fx_scale"},
    {"static_device.cu", "fx_scale", "'counter'"},
    {"managed.cu", "fx_scale", "'answer'"},
    {"const_cast_table.cu", "fx_scale", "'table'"},
    {"pointer_to_global.cu", "fx_scale", "'hidden'"},
    {"asm_global.cu", "fx_scale", "'fx_hidden_count'"},
    {"uses_printf.cu", "fx_scale", NULL},
    {"printf_string_argument.cu", "fx_scale", "string literal"},
    {"writes_string_literal.cu", "fx_scale", "string literal"},
    {"device_table_indexed.cu", "fx_scale", NULL},
    {"device_table_pointer_stored.cu", "fx_scale", "'offsets'"},
    {"device_heap.cu", "fx_scale", "malloc or new"},
    {"readonly_tables.cu", "fx_scale", NULL},
    {"toolkit_tour.cu", "fx_tour", NULL},
};

START_TEST(fixture_kernels)
{
    const case_ *k = &cases[_i];
    char path[256];
    snprintf(path, sizeof path, RULES "%s", k->file);
    exercise ex = {.name = "fixture", .kernel = k->kernel};
    compiled c;
    compile_file(path, &ex, ex.kernel, NULL, 90, &c);
    if (!k->says) {
        ck_assert_msg(c.ok, "%s: %s\n%.2000s", k->file, c.error, c.log ? c.log : "");
    } else {
        ck_assert_msg(!c.ok && c.outcome == OUT_REFUSED, "%s: outcome %s: %s", k->file,
                      outcome_word(c.outcome), c.error);
        ck_assert_msg(strstr(c.error, "__device__ variable") && strstr(c.error, k->says) &&
                      strstr(c.error, "refused before running"), "%s: %s", k->file, c.error);
    }
    compiled_free(&c);
}
END_TEST

Suite *ptx_rules_suite(void)
{
    Suite *s = suite_create("ptx_rules");
    TCase *tc = tcase_create("ptx");
    tcase_add_test(tc, ptx_store_refused);
    tcase_add_test(tc, special_registers_libcuxx_backoff);
    tcase_add_loop_test(tc, special_registers, 0, (int)(sizeof sregs / sizeof *sregs));
    tcase_add_test(tc, ptx_loads_only_allowed);
    tcase_add_test(tc, ptx_unused_allowed);
    tcase_add_test(tc, ptx_instructions_are_not_declarations);
    tcase_add_test(tc, ptx_statement_right_after_a_brace_or_semicolon);
    tcase_add_test(tc, ptx_copy_at_the_end_of_the_text);
    tcase_add_test(tc, ptx_address_taken_refused);
    tcase_add_test(tc, ptx_hidden_declarations_refused);
    tcase_add_test(tc, ptx_device_heap_refused);
    tcase_add_test(tc, ptx_many_globals_checked_in_linear_time);
    tcase_add_test(tc, ptx_declared_sizes);
    tcase_add_test(tc, readable_names);
    suite_add_tcase(s, tc);

    tc = tcase_create("kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, fixture_kernels, 0, (int)(sizeof cases / sizeof *cases));
    suite_add_tcase(s, tc);
    return s;
}
