/* test_ptx_text.c: the PTX rules (ptx_rules.c) and the resource limits
 * (resource_limits.c) on hand-written PTX and compiler output, no compiler:
 * what a declaration is and how many bytes it declares (every type, vector,
 * array, initializer, attribute), how a name in the PTX becomes the name the
 * student wrote, and which uses of a __device__ variable's address make it
 * writable (by name, through registers copied within one function, through
 * NVRTC's printf and assert call blocks, exactly as ptx_rules.h says), with
 * the sentence that says how; then each resource at its limit.
 *
 *   CK_RUN_SUITE=ptx_text build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ptx_rules.h"
#include "resource_limits.h"
#include "suites.h"

static char msg[2048];

static int check(const char *ptx)
{
    return ptx_check_device_globals(ptx, msg, sizeof msg);
}

/* Refused, with each of the words in the message. */
static void refused(const char *what, const char *ptx, const char *w1, const char *w2)
{
    ck_assert_msg(check(ptx) == -1, "%s: not refused", what);
    ck_assert_msg(strstr(msg, "__device__ variable"), "%s: %s", what, msg);
    ck_assert_msg(!w1 || strstr(msg, w1), "%s: no '%s' in: %s", what, w1, msg);
    ck_assert_msg(!w2 || strstr(msg, w2), "%s: no '%s' in: %s", what, w2, msg);
}

static void allowed(const char *what, const char *ptx)
{
    ck_assert_msg(check(ptx) == 0, "%s: refused: %s", what, msg);
    ck_assert_msg(msg[0] == 0, "%s: a message: %s", what, msg);
}

/* ---- declared bytes ---------------------------------------------------- */

static long shared_of(const char *ptx)
{
    long s, c;
    ptx_declared_bytes(ptx, &s, &c);
    return s;
}

static long const_of(const char *ptx)
{
    long s, c;
    ptx_declared_bytes(ptx, &s, &c);
    return c;
}

START_TEST(every_type_has_its_size)
{
    static const struct {
        const char *type;
        long bytes;
    } types[] = {
        {".b8", 1}, {".u8", 1}, {".s8", 1}, {".pred", 1},
        {".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2}, {".bf16", 2},
        {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4}, {".f16x2", 4}, {".bf16x2", 4},
        {".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8}, {".b128", 16},
        {".texref", 8}, {".samplerref", 8}, {".surfref", 8},
        {".f8", 0}, {".b", 0}, {".u32x", 0},
    };
    char ptx[128];
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        snprintf(ptx, sizeof ptx, ".shared .align 4 %s s[10];\n", types[k].type);
        ck_assert_msg(shared_of(ptx) == 10 * types[k].bytes, "%s: %ld bytes", types[k].type,
                      shared_of(ptx));
        snprintf(ptx, sizeof ptx, ".const %s c;\n", types[k].type);
        ck_assert_msg(const_of(ptx) == types[k].bytes, "%s: %ld bytes", types[k].type,
                      const_of(ptx));
    }
}
END_TEST

START_TEST(declarations_and_their_sizes)
{
    static const struct {
        const char *ptx;
        long shared;
    } decls[] = {
        {".shared .f32 a[2], b[3];\n", 20},
        {".shared .f32 a[2],b[3] ;\n", 20},
        {".shared .align 16 .v2 .f64 v[3];\n", 48},
        {".shared .v4 .u32 v;\n", 16},
        {".shared .f32 m[2][3][4];\n", 96},
        {".shared .f32 m [ 2 ] [ 3 ];\n", 24},
        {".extern .shared .align 16 .b8 dyn[];\n", 0},
        {".shared .f32 d[][4];\n", 0},
        {".shared .f32 t[2] = {1.0, 2.0}, u[3];\n", 20},
        {".shared .f32 t[2] = {{1.0}, {2.0, 3.0}}, u[3];\n", 20},
        {".shared .u32 i = 7, j;\n", 8},
        {".shared .attribute(.managed) .align 8 .u64 z[2];\n", 16},
        {".shared .attribute( .a, .b ) .u32 z[2];\n", 8},
        {".shared .align 64 .u32 z[2];\n", 8},
        {".shared .u32 %z[2];\n", 8},
        {".shared\t.u32\tz[2];\n", 8},
        {"{.shared .u32 z[2];}\n", 8},
        {"}.shared .u32 z[2];\n", 8},
        {";.shared .u32 z[2];\n", 8},
        /* Not declarations: glued to an instruction, part of a word, a
         * kernel parameter's attribute, a comment or a string. */
        {"\tld.shared.f64 %fd1, [%rd7];\n\tcvta.shared.u64 %rd1, %rd2;\n", 0},
        {"\tmov.u32 %r1, %shared;\n", 0},
        {"a.shared .u32 z[2];\n", 0},
        {"..shared .u32 z[2];\n", 0},
        {"%.shared .u32 z[2];\n", 0},
        {".sharedx .u32 z[2];\n", 0},
        {".shared_ .u32 z[2];\n", 0},
        {".entry k(.param .u64 .ptr .shared .align 4 p) {}\n", 0},
        {".entry k(.param .u64 .ptr\n\t .shared .align 4 p) {}\n", 0},
        {"// .shared .u32 z[2];\n.shared .u32 y;\n", 4},
        {"/* .shared .u32 z[2];\n .shared .u32 w; */ .shared .u32 y;\n", 4},
        {"/**/.shared .u32 y;\n", 4},
        {".pragma \"x .shared .u32 z[2];\";\n.shared .u32 y;\n", 4},
        {".pragma \"a\\\" .shared .u32 z[2];\";\n.shared .u32 y;\n", 4},
        {".pragma \"a\\\\\"; .shared .u32 y;\n", 4},
        {".pragma \"a /* x\n.shared .u32 y;\n", 4},
        {".pragma \"a // x\n.shared .u32 y;\n", 4},
        {".shared .u32 y; /* .shared .u32 z[2];", 4},
        {".shared .u32 y; //", 4},
        {".pragma \"a\\\n.shared .u32 y;\n", 4},
        {".shared .u32 y;\n.pragma \"a\\", 4},
        {"/**/\".shared .u32 z[2];\"\n.shared .u32 y;\n", 4},
        {"/* a\n*/\".shared .u32 z[2];\"\n.shared .u32 y;\n", 4},
        /* A name must start with a letter, '_', '$' or '%'. */
        {".shared .u32 9z;\n", 0},
        {".shared .u32 $z[3];\n", 12},
        {".shared .u32 _z[3];\n", 12},
    };
    for (size_t k = 0; k < sizeof decls / sizeof *decls; k++)
        ck_assert_msg(shared_of(decls[k].ptx) == decls[k].shared, "%s: %ld bytes, not %ld",
                      decls[k].ptx, shared_of(decls[k].ptx), decls[k].shared);
    long s = 1, c = 1;
    ptx_declared_bytes(NULL, &s, &c);
    ck_assert(s == 0 && c == 0);
    ptx_declared_bytes(".const .u32 a[4];\n.shared .u32 b[2];\n.global .u32 g[100];\n", &s, &c);
    ck_assert_int_eq(s, 8);
    ck_assert_int_eq(c, 16);
}
END_TEST

/* ---- the names a student wrote ----------------------------------------- */

static void readable(const char *sym, size_t n, const char *want, const char *want_in)
{
    char out[64], in[64];
    memset(in, 'x', sizeof in);
    ptx_readable_name(sym, n, out, sizeof out, in, sizeof in);
    ck_assert_msg(!strcmp(out, want), "%.*s: '%s', not '%s'", (int)n, sym, out, want);
    ck_assert_msg(!strcmp(in, want_in), "%.*s: inside '%s', not '%s'", (int)n, sym, in, want_in);
}

START_TEST(readable_names_of_symbols)
{
    readable("x", 1, "x", "");
    readable("_Z", 2, "_Z", "");
    readable("_Z1", 3, "_Z1", "");
    readable("_Zab", 4, "_Zab", "");
    readable("_Z1x", 4, "x", "");
    readable("_ZN2ns1xE", 9, "ns::x", "");
    readable("_ZN2ns1xEjunk", 9, "ns::x", "");
    readable("_ZZ1kE2st", 9, "st", "k");
    readable("_ZZ1kE", 6, "k", "");
    readable("_ZZN2ns1kEvE2st", 15, "st", "ns::k");
    /* Numbers right after L<type> are literals (template arguments). */
    readable("_ZZ1fILi7EEvvE1s", 16, "s", "f");
    readable("_ZN1aILi12EE1bE", 15, "a::b", "");
    readable("_ZN1aILl3EE1bE", 14, "a::b", "");
    /* Lengths of 0 and lengths past the end are not parts. */
    readable("_ZN0x1yE", 8, "y", "");
    readable("_ZN5abcE", 8, "_ZN5abcE", "");
    readable("_ZN2ab3cdeE", 11, "ab::cde", "");
    readable("_ZN2ab4cdeE", 11, "ab::cdeE", "");
    readable("_ZN2ab5cdeE", 11, "ab", "");
    readable("_ZN10abcdefghij1kE", 18, "abcdefghij::k", "");
    /* At most 8 parts; each at most 63 characters. */
    readable("_ZN1a1b1c1d1e1f1g1h1iE", 22, "a::b::c::d::e::f::g::h", "");
    char longsym[128], want[64];
    memset(want, 'a', sizeof want);
    want[63] = 0;
    snprintf(longsym, sizeof longsym, "_ZN70%s1234567E", want);
    readable(longsym, strlen(longsym), want, "");
    /* The caller's lengths. */
    char out[8], in[4] = "zzz";
    ptx_readable_name("_ZN2ns1xE", 9, out, 4, in, 0);
    ck_assert_str_eq(out, "ns:");
    ck_assert_str_eq(in, "zzz");
    ptx_readable_name("_ZZN3abc1kEvE2st", 16, out, sizeof out, in, 3);
    ck_assert_str_eq(out, "st");
    ck_assert_str_eq(in, "ab");
    ptx_readable_name("_ZN2ns1xE", 9, out, 3, in, sizeof in);
    ck_assert_str_eq(out, "ns");
    ptx_readable_name("_ZN2ns2xyE", 10, out, 5, in, sizeof in);
    ck_assert_str_eq(out, "ns::");
}
END_TEST

/* ---- __device__ variables: by name ------------------------------------- */

START_TEST(uses_by_name)
{
    allowed("declared only", ".global .align 4 .u32 x;\n");
    allowed("loads", ".global .u32 x;\n.entry k() {\n\tld.global.u32 %r1, [x];\n"
                     "\tldu.global.u32 %r1, [x+4];\n\tld.u32 %r2, [x];\n}\n");
    refused("a store", ".global .u32 x;\n.entry k() {\n\tst.global.u32 [x], %r1;\n}\n",
            "'x'", "writes it (st.global.u32 in the PTX)");
    refused("an atomic", ".global .u32 x;\n.entry k() {\n\tatom.global.add.u32 %r1, [x], 1;\n}\n",
            "updates it atomically (atom.global.add.u32", NULL);
    refused("a reduction", ".global .u32 x;\n.entry k() {\n\tred.global.add.u32 [x], 1;\n}\n",
            "updates it atomically (red.global.add.u32", NULL);
    refused("an address copied by name into memory",
            ".global .u32 x;\n.global .u64 p = generic(x);\n",
            "puts its address into another variable", "(.global in the PTX)");
    refused("an address in other arithmetic",
            ".global .u32 x;\n.entry k() {\n\tadd.s64 %rd1, x, 4;\n}\n",
            "uses it other than by loading it (add.s64", NULL);
    refused("a mov that is no copy into a register",
            ".global .u32 x;\n.entry k() {\n\tmov.u64 [%rd1], x;\n}\n",
            "takes its address, so it can write it through a pointer (mov.u64", NULL);
    refused("cvta into memory", ".global .u32 x;\n.entry k() {\n\tcvta.global.u64 [%rd1], x;\n}\n",
            "takes its address, so it can write it through a pointer (cvta.global.u64", NULL);
    refused("the name before its register",
            ".global .u32 x;\n.entry k() {\n\tmov.b64 x, %rd1;\n}\n", "(mov.b64 in the PTX)", NULL);
    /* Where the instruction is: after labels, guards and line directives. */
    refused("after a label and a guard", ".global .u32 x;\n.entry k() {\n"
            "$L__BB0_1: @!%p1 st.global.u32 [x], %r1;\n}\n", "(st.global.u32 in the PTX)", NULL);
    refused("after a label with a blank", ".global .u32 x;\n.entry k() {\n"
            "$L1 :\n\tst.global.u32 [x], %r1;\n}\n", "(st.global.u32 in the PTX)", NULL);
    refused("after .loc", ".global .u32 x;\n.entry k() {\n"
            "\t.loc 1 5 3\n\tst.global.u32 [x], %r1;\n}\n", "(st.global.u32 in the PTX)", NULL);
    refused("after .loc with a tab", ".global .u32 x;\n.entry k() {\n"
            "\t.loc\t1 5 3\n\tst.global.u32 [x], %r1;\n}\n", "(st.global.u32 in the PTX)", NULL);
    refused("after .file", ".global .u32 x;\n.entry k() {\n"
            "\t.file 1 \"k.cu\"\n\tst.global.u32 [x], %r1;\n}\n", "(st.global.u32 in the PTX)",
            NULL);
    refused("after .file with a tab", ".global .u32 x;\n.entry k() {\n"
            "\t.file\t1 \"k.cu\"\n\tst.global.u32 [x], %r1;\n}\n", "(st.global.u32 in the PTX)",
            NULL);
    refused("after .loc and a comment over two lines", ".global .u32 x;\n.entry k() {\n"
            "\t.loc 1 5 3 /* a\n */ st.global.u32 [x], %r1;\n}\n", "(st.global.u32 in the PTX)",
            NULL);
    refused(".locx is no line directive", ".global .u32 x;\n.entry k() {\n"
            "\t.locx 1\n\tst.global.u32 [x], %r1;\n}\n", "(.locx in the PTX)", NULL);
    refused("a guard at the end of the text", ".global .u32 x;\n.entry k() {\n"
            "\tst.global.u32 [x], %r1; @%p1", "(st.global.u32 in the PTX)", NULL);
    /* What is a use of the name: not a longer name, a register, a field,
     * a comment, a string; a name at the very start of the text is one. */
    allowed("longer names, registers, fields, comments",
            ".global .u32 x;\n.entry k() {\n\tst.global.u32 [x1], %r1;\n"
            "\tst.global.u32 [_x], %r1;\n\tst.global.u32 [%x], %r1;\n"
            "\tst.global.u32 [a.x], %r1;\n\tst.global.u32 [x$], %r1;\n"
            "\t// st.global.u32 [x], %r1;\n\t.pragma \"st.global.u32 [x]\";\n}\n");
    refused("a use at the start of the text", "st.global.u32 [x], %r1;\n.global .u32 x;\n",
            "'x'", NULL);
    refused("a name with digits", ".global .u32 x9;\n\tst.global.u32 [x9], %r1;\n", "'x9'", NULL);
    allowed("a name that starts with a digit is none", ".global .u32 9x;\n\tst.u32 [9x], %r1;\n");
    /* PTX's constant expressions hold '*' and '/', which open nothing. */
    refused("a product in a declaration", ".global .u32 x[2*2];\n\tst.global.u32 [x], %r1;\n",
            "writes it", NULL);
    refused("a quotient in a declaration", ".global .u32 x[8/2];\n\tst.global.u32 [x], %r1;\n",
            "writes it", NULL);
    refused("a quotient before a star", ".global .u32 x[8/2];\n.global .u32 y[2*2];\n"
            "\tst.global.u32 [y], %r1;\n", "writes it", NULL);
    /* A lone ':' is no label: the instruction after it is not read. */
    refused("a lone ':'", ".global .u32 x;\n.entry k() {\n\t: ld.global.u32 %r1, [x];\n}\n",
            "'x'", NULL);
    /* A .ptr attribute declares nothing, even at the very start. */
    allowed(".ptr .global at the start", ".ptr .global .u32 x;\n\tst.global.u32 [x], %r1;\n");
    /* Every declared name is judged, the first writable one named. */
    refused("the second of two", ".global .u32 a;\n.global .u32 b;\n"
            "\tld.global.u32 %r1, [a];\n\tst.global.u32 [b], %r1;\n", "'b'", NULL);
    refused("the one used first", ".global .u32 b;\n.global .u32 a;\n"
            "\tst.global.u32 [b], %r1;\n\tst.global.u32 [a], %r1;\n", "'b'", NULL);
}
END_TEST

/* The instruction is named whole up to 63 characters. */
START_TEST(long_opcode_named)
{
    char op[64], ptx[256], want[80];
    memset(op, 'a', sizeof op);
    memcpy(op, "st.global", 9);
    op[63] = 0;
    snprintf(ptx, sizeof ptx, ".global .u32 x;\n\t%s [x], %%r1;\n", op);
    snprintf(want, sizeof want, "(%s in the PTX)", op);
    refused("a 63-character opcode", ptx, want, "writes it");
}
END_TEST

/* The message: the name as written, where it is static, why. */
START_TEST(refusal_messages)
{
    refused("a static inside a kernel", ".global .u32 _ZZ1kE2st;\n\tst.global.u32 [_ZZ1kE2st], 1;\n",
            "keeps a __device__ variable, 'st' (a static variable inside k), and writes it", NULL);
    refused("a namespace", ".global .u32 _ZN2ns1xE;\n\tst.global.u32 [_ZN2ns1xE], 1;\n",
            "keeps a __device__ variable, 'ns::x', and writes it", "replay");
    refused("a string literal", ".global .b8 $str[4];\n\tst.global.u8 [$str], 1;\n",
            "string literal ('$str' in the PTX", "(st.global.u8)");
    refused("another string literal", ".global .b8 $str$1[4];\n\tst.global.u8 [$str$1], 1;\n",
            "string literal ('$str$1' in the PTX", NULL);
    refused("a name like a string's", ".global .b8 $sta[4];\n\tst.global.u8 [$sta], 1;\n",
            "keeps a __device__ variable, '$sta'", NULL);
    char small[16];
    ck_assert_int_eq(ptx_check_device_globals(".global .u32 x;\nst.u32 [x], 1;\n", small, 8), -1);
    ck_assert_int_eq(strlen(small), 7);
    ck_assert_int_eq(ptx_check_device_globals(NULL, small, sizeof small), 0);
    ck_assert_str_eq(small, "");
    ck_assert_int_eq(ptx_check_device_globals(".global .u32 x;\nst.u32 [x], 1;\n", NULL, 0), -1);
}
END_TEST

/* ---- through registers ------------------------------------------------- */

START_TEST(uses_through_registers)
{
    allowed("loaded through copies", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tcvta.global.u64 %rd2, %rd1;\n\tadd.s64 %rd3, %rd2, 4;\n"
            "\tsub.s64 %rd4, %rd3, 4;\n\tmov.b64 %rd5 , %rd4;\n"
            "\tld.u32 %r1, [%rd4];\n\tldu.global.u32 %r2, [%rd3+8];\n"
            "\tprefetch.global.L2 [%rd5];\n\tld.u32 %r3, [%rd2];\n}\n");
    refused("a store through a copy", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tadd.s64 %rd3, %rd1, 4;\n\tst.u32 [%rd3], %r1;\n}\n",
            "takes its address and writes through it (st.u32 in the PTX)", NULL);
    refused("an atomic through a copy", ".global .u32 x;\n.entry k() {\n"
            "\tcvta.global.u64 %rd1, x;\n\tatom.add.u32 %r1, [%rd1], 1;\n}\n",
            "takes its address and writes through it (atom.add.u32", NULL);
    refused("a reduction through a copy", ".global .u32 x;\n.entry k() {\n"
            "\tcvta.global.u64 %rd1, x;\n\tred.add.u32 [%rd1], 1;\n}\n",
            "takes its address and writes through it (red.add.u32", NULL);
    refused("the address stored", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tst.local.u64 [%rd9], %rd1;\n}\n",
            "takes its address and writes through it (st.local.u64", NULL);
    refused("the address in other arithmetic", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tmul.lo.s64 %rd2, %rd1, 2;\n}\n",
            "takes its address and passes it on, so it can write it through a pointer "
            "(mul.lo.s64", NULL);
    refused("the address as a load's value", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tld.u64 %rd2, [%rd3], %rd1;\n}\n", "(ld.u64 in the PTX)", NULL);
    refused("a prefetch outside brackets", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tprefetch.u64 %rd2, %rd1;\n}\n", "(prefetch.u64", NULL);
    refused("a copy inside brackets is no copy", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tadd.s64 %rd2, [%rd1], 1;\n}\n", "(add.s64 in the PTX)", NULL);
    refused("a copy with no destination register", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tmov.u64 [%rd2], %rd1;\n}\n", "(mov.u64 in the PTX)", NULL);
    allowed("a register declaration", ".global .u32 x;\n.entry k() {\n"
            "\t{ .reg .b64 %a; mov.u64 %a, x; ld.u32 %r1, [%a]; }\n}\n");
    /* Inline assembly's forms, read as statements: a register named
     * without '%' in a braced block of its own, guarded stores, two
     * instructions on one line. */
    allowed("a load through a block's own register", ".global .u32 x;\n.entry k() {\n"
            "\t{ .reg .b64 a; .reg .pred p; mov.u64 a, x; setp.ne.b32 p, %r1, 0; "
            "@p ld.u32 %r2, [a]; }\n}\n");
    refused("a guarded store through a block's own register", ".global .u32 x;\n.entry k() {\n"
            "\t{ .reg .b64 a; .reg .pred p; mov.u64 a, x; setp.ne.b32 p, %r1, 0; "
            "@!p st.u32 [a], %r1; }\n}\n", "takes its address and writes through it (st.u32",
            NULL);
    /* An address the reader keeps as text ([name+register]) is still read
     * for the names in it. */
    allowed("a load at a register offset", ".global .u32 x;\n.entry k() {\n"
            "\tld.global.u32 %r1, [x+%r2];\n}\n");
    refused("a store at a register offset", ".global .u32 x;\n.entry k() {\n"
            "\tst.global.u32 [x+%r2], %r1;\n}\n", "writes it (st.global.u32", NULL);
    refused("a store second on its line", ".global .u32 x;\n.entry k() {\n"
            "\tld.global.u32 %r1, [x]; st.global.u32 [x+4], %r1;\n}\n",
            "writes it (st.global.u32", NULL);
    /* Registers are names: %rd1 is not %rd10, and a register named in
     * another function is another register. */
    allowed("a longer register", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tst.u32 [%rd10], %r1;\n\tst.u32 [%rd], %r1;\n"
            "\tst.u32 [a%rd1], %r1;\n\tld.u32 %r1, [%rd1];\n}\n");
    allowed("the same register copied twice", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tld.u32 %r1, [%rd1];\n\tmov.u64 %rd1, x;\n"
            "\tadd.s64 %rd2, %rd1, 4;\n\tadd.s64 %rd2, %rd1, 8;\n\tld.u32 %r2, [%rd2];\n}\n");
    /* A register that held an address in the kernel checked before holds
     * nothing in this one (two texts of one length, checked in turn). */
    refused("the first kernel", ".global .u32 x;\n.entry k() {\n\tmov.u64 %rd1, x;\n"
            "\tmov.u64 %rd2, x;\n\tst.u32 [%rd2], %r1;\n}\n", "(st.u32", NULL);
    allowed("the second kernel", ".global .u32 x;\n.entry k() {\n\tmov.u64 %rd1, x;\n"
            "\tmov.u64 %rd2, y;\n\tst.u32 [%rd2], %r1;\n}\n");
    refused("a write above the copy (a loop)", ".global .u32 x;\n.entry k() {\n"
            "$L1:\n\tst.u32 [%rd1], %r1;\n\tld.u32 %r2, [%rd1];\n\tld.u32 %r2, [%rd1+4];\n"
            "\tmov.u64 %rd1, x;\n\tld.u32 %r3, [%rd1];\n\tbra $L1;\n}\n", "(st.u32", NULL);
    refused("a write far below the copy", ".global .u32 x;\n.entry k() {\n"
            "\tmov.u64 %rd1, x;\n\tld.u32 %r2, [%rd1];\n\tld.u32 %r2, [%rd1+4];\n"
            "\tld.u32 %r2, [%rd1+8];\n\tld.u32 %r3, [%rd1];\n\tst.u32 [%rd1], %r1;\n}\n",
            "(st.u32", NULL);
}
END_TEST

/* Functions: a register holds the address only in the body where it was
 * copied; bodies are found however many there are. */
static char *functions(int n, int copy_in, int store_in)
{
    size_t cap = 256 * (size_t)n + 256, len = 0;
    char *p = malloc(cap);
    ck_assert_ptr_nonnull(p);
    len += (size_t)snprintf(p + len, cap - len, ".global .u32 x;\n");
    for (int f = 0; f < n; f++) {
        len += (size_t)snprintf(p + len, cap - len, ".func f%d()\n{\n\t{\n\t.reg .b32 %%r<3>;\n\t}\n",
                                f);
        if (f == copy_in)
            len += (size_t)snprintf(p + len, cap - len,
                                    "\tmov.u64 %%rd1, x;\n\tld.u32 %%r1, [%%rd1];\n");
        if (f == store_in)
            len += (size_t)snprintf(p + len, cap - len, "\tst.u32 [%%rd1], %%r1;\n");
        len += (size_t)snprintf(p + len, cap - len, "\tret;\n}\n");
    }
    return p;
}

START_TEST(registers_belong_to_their_function)
{
    static const int counts[] = {2, 3, 5, 17, 40};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        int n = counts[k];
        for (int c = 0; c < n; c++) {
            int others[] = {c - 1, c + 1};
            for (int o = 0; o < 2; o++) {
                if (others[o] < 0 || others[o] >= n)
                    continue;
                char *p = functions(n, c, others[o]);
                ck_assert_msg(check(p) == 0, "%d functions, copy in %d, store in %d: %s", n, c,
                              others[o], msg);
                free(p);
            }
            char *p = functions(n, c, c);
            ck_assert_msg(check(p) == -1, "%d functions, copy and store in %d", n, c);
            free(p);
        }
    }
    /* Outside every function, the text is one scope of its own. */
    allowed("a copy in a function, a store outside", ".global .u32 x;\n"
            ".func f()\n{\n\tmov.u64 %rd1, x;\n}\n\tst.u32 [%rd1], %r1;\n");
    refused("both outside", ".global .u32 x;\n\tmov.u64 %rd1, x;\n\tst.u32 [%rd1], %r1;\n"
            "}\n.func f()\n{\n\tret;\n}\n", "(st.u32", NULL);
}
END_TEST

/* At most 1024 registers hold addresses; past that the kernel is refused
 * rather than followed. */
static char *many_copies(int n)
{
    size_t cap = 64 * (size_t)n + 128, len = 0;
    char *p = malloc(cap);
    ck_assert_ptr_nonnull(p);
    len += (size_t)snprintf(p + len, cap - len, ".global .u32 x;\n.entry k()\n{\n");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(p + len, cap - len, "\tmov.u64 %%rd%d, x;\n", i);
    snprintf(p + len, cap - len, "\tret;\n}\n");
    return p;
}

/* One register copied from the name, then `n` - 1 copies of copies. */
static char *chained_copies(int n)
{
    size_t cap = 64 * (size_t)n + 128, len = 0;
    char *p = malloc(cap);
    ck_assert_ptr_nonnull(p);
    len += (size_t)snprintf(p + len, cap - len, ".global .u32 x;\n.entry k()\n{\n"
                            "\tmov.u64 %%rd0, x;\n");
    for (int i = 1; i < n; i++)
        len += (size_t)snprintf(p + len, cap - len, "\tadd.s64 %%rd%d, %%rd%d, 4;\n", i, i - 1);
    snprintf(p + len, cap - len, "\tld.u32 %%r1, [%%rd%d];\n\tret;\n}\n", n - 1);
    return p;
}

START_TEST(address_registers_bounded)
{
    char *p = many_copies(1024);
    ck_assert_msg(check(p) == 0, "%s", msg);
    free(p);
    p = many_copies(1025);
    ck_assert_int_eq(check(p), -1);
    ck_assert_msg(strstr(msg, "(mov.u64 in the PTX)"), "%s", msg);
    free(p);
    p = chained_copies(1024);
    ck_assert_msg(check(p) == 0, "%s", msg);
    free(p);
    p = chained_copies(1025);
    ck_assert_int_eq(check(p), -1);
    ck_assert_msg(strstr(msg, "takes its address and passes it on") &&
                  strstr(msg, "(add.s64 in the PTX)"), "%s", msg);
    free(p);
}
END_TEST

/* ---- printf and assert: NVRTC's call block ----------------------------- */

static const char vprintf_decl[] =
    ".extern .func (.param .b32 func_retval0) vprintf\n(\n"
    "\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n";

/* A kernel that passes $str's address (%rd2) in a call block made of
 * `block`; `head` before the kernel. */
static const char *call_ptx(const char *head, const char *block)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "%s.global .align 1 .b8 $str[4] = {104, 105, 10};\n"
             ".visible .entry k()\n{\n"
             "\tmov.u64 \t%%rd1, $str;\n"
             "\tcvta.global.u64 \t%%rd2, %%rd1;\n"
             "\t{ // callseq 0, 0\n%s\t} // callseq 0\n"
             "\tret;\n}\n", head, block);
    return buf;
}

#define PARAMS "\t.reg .b32 temp_param_reg;\n\t.param .b64 param0;\n" \
               "\tst.param.b64 \t[param0+0], %rd2;\n\t.param .b32 retval0;\n"

/* A hostile kernel of 20000 printf calls of one string: whether vprintf
 * and __assertfail are the trusted ones is worked out once per file, not
 * once per call (a scan of the whole PTX each time: minutes). */
START_TEST(many_printf_calls_checked_in_linear_time)
{
    enum { CALLS = 20000 };
    size_t cap = (size_t)CALLS * 160 + 1024, n = 0;
    char *p = malloc(cap);
    ck_assert_ptr_nonnull(p);
    n += (size_t)snprintf(p + n, cap - n, "%s.global .align 1 .b8 $str[4] = {104, 105, 10};\n"
                          ".visible .entry k()\n{\n\tmov.u64 \t%%rd1, $str;\n"
                          "\tcvta.global.u64 \t%%rd2, %%rd1;\n", vprintf_decl);
    for (int i = 0; i < CALLS; i++)
        n += (size_t)snprintf(p + n, cap - n, "\t{ // callseq %d, 0\n\t.param .b64 param0;\n"
                              "\tst.param.b64 \t[param0+0], %%rd2;\n"
                              "\tcall.uni vprintf, (param0);\n\t} // callseq %d\n", i, i);
    snprintf(p + n, cap - n, "\tret;\n}\n");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ck_assert_msg(check(p) == 0, "%s", msg);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ck_assert_msg(sec < 10, "checking took %.1f s", sec);
    free(p);
}
END_TEST

START_TEST(printf_call_blocks)
{
    allowed("vprintf with a return value", call_ptx(vprintf_decl, PARAMS
            "\tcall.uni (retval0), \n\tvprintf, \n\t(\n\tparam0\n\t);\n"
            "\tld.param.b32 \t%r7, [retval0+0];\n"));
    allowed("vprintf without one", call_ptx(vprintf_decl, PARAMS "\tcall.uni vprintf, (param0);\n"));
    allowed("call without .uni", call_ptx(vprintf_decl, PARAMS "\tcall (retval0) , vprintf, (param0);\n"));
    allowed("a guarded call after .loc", call_ptx(vprintf_decl, PARAMS "\t.loc 1 2 3\n"
            "\t@%p1 call.uni vprintf, (param0);\n"));
    allowed("__assertfail", call_ptx(".extern .func __assertfail\n(\n\t.param .b64 a\n)\n;\n",
            PARAMS "\tcall.uni __assertfail, (param0);\n"));
    allowed("no declaration at all", call_ptx("", PARAMS "\tcall.uni vprintf, (param0);\n"));
    allowed("a block with no blank after its brace", ".global .b8 $str[4];\n.entry k()\n{\n"
            "\tmov.u64 %rd2, $str;\n\t{.param .b64 param0;\n\tst.param.b64 [param0+0], %rd2;\n"
            "\tcall.uni vprintf, (param0);\n\t}\n}\n");
    refused("another function", call_ptx("", PARAMS "\tcall.uni helper, (param0);\n"),
            "string literal", "(st.param.b64)");
    refused("a longer name", call_ptx("", PARAMS "\tcall.uni vprintfx, (param0);\n"),
            "string literal", NULL);
    refused("a shorter name", call_ptx("", PARAMS "\tcall.uni vprint, (param0);\n"),
            "string literal", NULL);
    refused("__assertfai", call_ptx("", PARAMS "\tcall.uni __assertfai, (param0);\n"),
            "string literal", NULL);
    refused("a return value with no comma", call_ptx("", PARAMS "\tcall.uni (retval0) vprintf;\n"),
            "string literal", NULL);
    refused("two calls", call_ptx("", PARAMS "\tcall.uni vprintf, (param0);\n"
            "\tcall.uni vprintf, (param0);\n"), "string literal", NULL);
    refused("no call", call_ptx("", PARAMS), "string literal", NULL);
    refused("another instruction in the block", call_ptx("", PARAMS
            "\tcall.uni vprintf, (param0);\n\tadd.s32 %r1, %r1, 1;\n"), "string literal", NULL);
    refused("a parameter read back", call_ptx("", PARAMS
            "\tld.param.b64 %rd8, [param0+0];\n\tcall.uni vprintf, (param0);\n"),
            "string literal", NULL);
    refused("a parameter read with no brackets", call_ptx("", PARAMS
            "\tld.param.b64 %rd8, retval0;\n\tcall.uni vprintf, (param0);\n"),
            "string literal", NULL);
    allowed("the return value read with blanks", call_ptx("", PARAMS
            "\tcall.uni (retval0), vprintf, (param0);\n\tld.param.b32 %r7, [ retval0+0];\n"));
    refused("a nested block", call_ptx("", PARAMS "\t{ .reg .b32 %t; }\n"
            "\tcall.uni vprintf, (param0);\n"), "string literal", NULL);
    refused("a nested block with its own call, before the store", call_ptx("",
            "\t{\n\t.param .b64 p9;\n\tcall.uni vprintf, (p9);\n\t}\n" PARAMS),
            "string literal", NULL);
    refused("vprintf defined in the file", call_ptx(".func (.param .b32 r) vprintf(.param .b64 a)\n"
            "{\n\tret;\n}\n", PARAMS "\tcall.uni vprintf, (param0);\n"), "string literal", NULL);
    refused("vprintf defined, no parameters", call_ptx(".func vprintf\n{\n\tret;\n}\n",
            PARAMS "\tcall.uni vprintf, (param0);\n"), "string literal", NULL);
    refused("__assertfail defined", call_ptx(".func __assertfail(.param .b64 a)\n{\n\tret;\n}\n",
            PARAMS "\tcall.uni __assertfail, (param0);\n"), "string literal", NULL);
    allowed("a name that only contains vprintf is no definition",
            call_ptx(".func my_vprintf(.param .b64 a)\n{\n\tret;\n}\n.func vprintf_x()\n{\n\tret;\n}\n"
                     ".func x.vprintf()\n{\n\tret;\n}\n",
                     PARAMS "\tcall.uni vprintf, (param0);\n"));
    /* A parameter stored outside any block: no call block holds it. */
    refused("st.param outside a block", "\t.param .b64 param0;\n"
            "\tst.param.b64 [param0+0], %rd2;\n\tcall.uni vprintf, (param0);\n}\n"
            ".global .b8 $str[4];\n\tmov.u64 %rd2, $str;\n", "string literal", NULL);
    refused("st.param in a block never closed", ".global .b8 $str[4];\n.entry k()\n{\n"
            "\tmov.u64 %rd2, $str;\n\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd2;\n"
            "\tcall.uni vprintf, (param0);\n", "string literal", NULL);
}
END_TEST

/* ---- the device heap --------------------------------------------------- */

START_TEST(device_heap)
{
    ck_assert_int_eq(check("malloc"), -1);
    ck_assert_msg(strstr(msg, "malloc or new") && strstr(msg, "device heap"), "%s", msg);
    ck_assert_int_eq(check("\tcall.uni (retval0), __nv_aligned_device_malloc, (p);\n"), -1);
    ck_assert_int_eq(check("\tcall.uni (retval0), malloc, (p);\n"), -1);
    ck_assert_int_eq(check("{malloc}"), -1);
    allowed("names that contain it", "my_malloc mallocx .malloc %malloc _malloc malloc_ malloc1 "
            "__nv_aligned_device_mallocs\n");
    allowed("in a comment", "// call.uni malloc\n/* malloc */\n");
    /* A writable variable is named before the heap. */
    refused("both", ".global .u32 x;\n\tst.u32 [x], 1;\n\tcall.uni malloc, (p);\n", "'x'", NULL);
}
END_TEST

/* ---- resources at their limits ----------------------------------------- */

static compiled with(const char *ptx, const char *log, int known, int smem, int stack)
{
    compiled c;
    memset(&c, 0, sizeof c);
    c.ptx = (char *)ptx;
    c.log = (char *)log;
    c.res.known = known;
    c.res.smem_static = smem;
    c.res.stack_bytes = stack;
    return c;
}

static int over(compiled c, const char *w1, const char *w2)
{
    char m[1024] = "";
    int rc = resource_overflow(&c, m, sizeof m);
    ck_assert_msg(rc == 0 || rc == 1, "returned %d", rc);
    if (rc) {
        ck_assert_msg(strstr(m, w1), "no '%s' in: %s", w1, m);
        ck_assert_msg(!w2 || strstr(m, w2), "no '%s' in: %s", w2, m);
    }
    return rc;
}

START_TEST(resources_at_their_limits)
{
    ck_assert_int_eq(over(with(".shared .b8 s[49152];\n", NULL, 1, 0, 0), "", NULL), 0);
    ck_assert_int_eq(over(with(".shared .b8 s[49153];\n", NULL, 1, 0, 0),
                          "Your kernel declares 48.0 KB (49153 bytes) of static shared memory "
                          "(__shared__ arrays); a block may have at most 48 KB (49152 bytes) of "
                          "static shared memory on any GPU.", "smaller tile"), 1);
    /* ptxas's count wins when it is the larger. */
    ck_assert_int_eq(over(with(".shared .b8 s[16];\n", NULL, 1, 49152, 0), "", NULL), 0);
    ck_assert_int_eq(over(with(".shared .b8 s[16];\n", NULL, 1, 49153, 0), "49153 bytes",
                          "static shared memory"), 1);
    ck_assert_int_eq(over(with(".shared .b8 s[49153];\n", NULL, 1, 16, 0), "49153 bytes", NULL),
                     1);
    ck_assert_int_eq(over(with(".const .b8 c[65536];\n", NULL, 1, 0, 0), "", NULL), 0);
    ck_assert_int_eq(over(with(".const .b8 c[65537];\n", NULL, 1, 0, 0),
                          "declares 64.0 KB (65537 bytes) of __constant__ data; a module may "
                          "have at most 64 KB (65536 bytes)", "passed through a pointer"), 1);
    ck_assert_int_eq(over(with(NULL, NULL, 1, 0, 524288), "", NULL), 0);
    ck_assert_int_eq(over(with(NULL, NULL, 1, 0, 524289),
                          "needs 512.0 KB (524289 bytes) of local memory per thread (its stack "
                          "frame: local arrays and spilled registers); a thread may have at most "
                          "512 KB (524288 bytes) of local memory", "make it smaller"), 1);
    /* No ptxas report: its numbers are not read. */
    ck_assert_int_eq(over(with(NULL, NULL, 0, 0, 524289), "", NULL), 0);
    /* Parameters: NVRTC's own words, first. */
    ck_assert_int_eq(over(with(".shared .b8 s[49153];\n",
                               "error: Formal parameter space overflowed (36008 bytes required, "
                               "max 32764 bytes allowed)", 1, 0, 0),
                          "Your kernel takes 35.2 KB (36008 bytes) of parameters; a kernel may "
                          "have at most 32.0 KB (32764 bytes) of parameters on any GPU.",
                          "through a pointer"), 1);
    ck_assert_int_eq(over(with(NULL, "parameter space overflowed (many bytes)", 1, 0, 0), "",
                          NULL), 0);
    ck_assert_int_eq(over(with(NULL, "parameter space overflowed (100 bytes required)", 1, 0, 0),
                          "", NULL), 0);
    ck_assert_int_eq(over(with(NULL, "all fine", 1, 0, 0), "", NULL), 0);
    /* Shared memory before constant data before local memory. */
    ck_assert_int_eq(over(with(".shared .b8 s[49153];\n.const .b8 c[65537];\n", NULL, 1, 0,
                               524289), "static shared memory", NULL), 1);
    ck_assert_int_eq(over(with(".const .b8 c[65537];\n", NULL, 1, 0, 524289), "__constant__",
                          NULL), 1);
}
END_TEST

START_TEST(bytes_for_people_at_the_units)
{
    static const struct {
        long bytes;
        const char *text;
    } cases[] = {
        {0, "0 bytes"}, {1023, "1023 bytes"}, {1024, "1 KB"}, {1025, "1.0 KB"},
        {1536, "1.5 KB"}, {2048, "2 KB"}, {1048575, "1024.0 KB"}, {1048576, "1.0 MB"},
        {1572864, "1.5 MB"},
    };
    char b[32];
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        format_bytes(cases[k].bytes, b, sizeof b);
        ck_assert_msg(!strcmp(b, cases[k].text), "%ld: '%s', not '%s'", cases[k].bytes, b,
                      cases[k].text);
    }
}
END_TEST

Suite *ptx_text_suite(void)
{
    Suite *s = suite_create("ptx_text");
    TCase *tc = tcase_create("sizes");
    tcase_add_test(tc, every_type_has_its_size);
    tcase_add_test(tc, declarations_and_their_sizes);
    tcase_add_test(tc, readable_names_of_symbols);
    suite_add_tcase(s, tc);

    tc = tcase_create("writable");
    tcase_add_test(tc, uses_by_name);
    tcase_add_test(tc, long_opcode_named);
    tcase_add_test(tc, refusal_messages);
    tcase_add_test(tc, uses_through_registers);
    tcase_add_test(tc, registers_belong_to_their_function);
    tcase_add_test(tc, address_registers_bounded);
    tcase_add_test(tc, printf_call_blocks);
    tcase_add_test(tc, many_printf_calls_checked_in_linear_time);
    tcase_add_test(tc, device_heap);
    suite_add_tcase(s, tc);

    tc = tcase_create("resources");
    tcase_add_test(tc, resources_at_their_limits);
    tcase_add_test(tc, bytes_for_people_at_the_units);
    suite_add_tcase(s, tc);
    return s;
}
