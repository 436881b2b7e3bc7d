/* test_source_scan.c: the include scan (source_rules_check) on literal
 * sources, no compiler: every attack form we know of refused with its line,
 * every legitimate form accepted, and each piece of the scan's reading of
 * the text pinned at its boundaries (which characters are blanks and which
 * make a name, where a comment, a string, a raw string and a number end,
 * how long a header name may be, which directive says which reason, what a
 * toolkit folder is). The compile path and the sandbox, with NVRTC, are
 * test_source_rules.c.
 *
 *   CK_RUN_SUITE=source_scan build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compile.h"
#include "shim_headers.h"
#include "source_rules.h"
#include "suites.h"

static int scan(const char *src, char *msg, size_t len)
{
    const char *dirs[4];
    int n = compile_include_dirs(dirs, 4);
    return source_rules_check(src, "k.cu", dirs, n, msg, len);
}

typedef struct form {
    const char *what;
    const char *src;
    int line;               /* the line the message must name */
} form;

/* Each one reaches /etc/passwd (or a course file) in NVRTC 13.0 unless
 * refused; the comments say how NVRTC reads it. */
static const form refused_forms[] = {
    {"absolute path", "#include \"/etc/passwd\"\n", 1},
    {"absolute path in <>", "#include </etc/passwd>\n", 1},
    {"'..' from the student's folder", "#include \"../../solutions/lesson3/matmul.cu\"\n", 1},
    {"'..' out of the toolkit", "#include <cuda/../../../../../etc/passwd>\n", 1},
    {"'..' at the start in <>", "#include <../../../../../../etc/passwd>\n", 1},
    {"a course file by its path", "#include \"solutions/lesson9/rolling_async.cu\"\n", 1},
    {"a file next to the student's", "#include \"helper.cuh\"\n", 1},
    {"no such toolkit header", "#include <cuda_pipline.h>\n", 1},
    {"a C++ standard header (not in NVRTC)", "#include <cstdlib>\n", 1},
    {"a C header the grader does not provide", "#include <string.h>\n", 1},
    {"a backslash", "#include \"..\\\\..\\\\etc\\\\passwd\"\n", 1},
    {"computed include", "#define F \"/etc/passwd\"\n#include F\n", 2},
    {"computed include of a toolkit name", "#define F <cuda_pipeline.h>\n#include F\n", 2},
    {"unterminated name", "#include \"/etc/passwd\n", 1},
    {"nothing after #include", "#include\n", 1},
    {"a name too long to check whole",
     "#include <cuda_pipeline.h"
     "////////////////////////////////////////////////////////////////////////////////"
     "////////////////////////////////////////////////////////////////////////////////"
     "////////////////////////////////////////////////////////////////////////////////"
     "////////////////////////////////////////////////////////////////////////////////"
     "////////////////////////////////////////////////////////////////////////////////"
     "////////////////////////////////////////////////////////////////////////////////"
     "x>\n", 1},
    {"splice inside the directive name", "#inc\\\nlude \"/etc/passwd\"\n", 1},
    {"splice before the name", "#include \\\n\"/etc/passwd\"\n", 1},
    {"splice with CRLF", "#inc\\\r\nlude \"/etc/passwd\"\n", 1},
    {"splice with CRs", "#inc\\\r\r\nlude \"/etc/passwd\"\n", 1},
    /* NVRTC does not splice a backslash followed by a space: the next line is
     * live even after a // comment. */
    {"backslash-space is no splice", "// note \\ \n#include \"/etc/passwd\"\n", 2},
    {"comment between # and include", "# /* x */ include \"/etc/passwd\"\n", 1},
    {"multi-line comment inside the directive", "# /* x\n */ include \"/etc/passwd\"\n", 1},
    {"directive after a comment's end", "/* x\n*/ #include \"/etc/passwd\"\n", 2},
    {"CR before #", "\r#include \"/etc/passwd\"\n", 1},
    {"indented with tabs and form feeds", "\t\f #  include \"/etc/passwd\"\n", 1},
    {"digraph %:", "%:include \"/etc/passwd\"\n", 1},
    {"digraph with spaces", "  %:  include \"/etc/passwd\"\n", 1},
    {"hidden behind #if 0", "#if 0\n#include \"/etc/passwd\"\n#endif\n", 2},
    {"hidden behind #ifdef", "#ifdef NEVER\n#else\n#include \"/etc/passwd\"\n#endif\n", 3},
    /* A raw string holds a quote and a comment opener; a scan that does not
     * know raw strings thinks the next lines are a comment. */
    {"after a raw string", "const char *s = R\"x( \" /* )x\";\n#include \"/etc/passwd\"\n*/\n", 2},
    {"after a u8 raw string", "auto s = u8R\"( /* )\";\n#include \"/etc/passwd\"\n", 2},
    {"__has_include of a path", "#if __has_include(\"/etc/passwd\")\n#endif\n", 1},
    {"__has_include with '..'", "#if __has_include(<../secret.h>)\n#endif\n", 1},
    {"__has_include through a macro", "#define H __has_include\n#if H(\"/etc/passwd\")\n#endif\n", 1},
    {"__has_include of a macro", "#define F \"/etc/passwd\"\n#if __has_include(F)\n#endif\n", 2},
    {"__has_include_next", "#if __has_include_next(<cuda_pipeline.h>)\n#endif\n", 1},
    {"#include_next", "#include_next \"/etc/passwd\"\n", 1},
    {"#import", "#import \"/etc/passwd\"\n", 1},
    {"#embed", "const char s[] = {\n#embed \"/etc/passwd\"\n};\n", 2},
    {"#line with a file name", "#line 1 \"/etc/passwd\"\nint int x;\n", 1},
    {"#line", "#line 100\n", 1},
    {"GNU line marker", "# 1 \"/etc/passwd\"\n", 1},
    {"unknown directive", "#ident \"x\"\n", 1},
    {"refused after allowed ones",
     "#include <cuda_pipeline.h>\n#include <cuda/pipeline>\n#include \"../x.h\"\n", 3},
};

/* One test for the whole table (a test is a process of its own: a hundred
 * of them cost seconds); each failure names its form. */
START_TEST(refused_include_forms)
{
    for (size_t k = 0; k < sizeof refused_forms / sizeof *refused_forms; k++) {
        const form *f = &refused_forms[k];
        char msg[1024], where[32];
        ck_assert_msg(scan(f->src, msg, sizeof msg) == -1, "%s: not refused", f->what);
        ck_assert_msg(strstr(msg, "may include only"),
                      "%s: message lacks 'may include only': %s", f->what, msg);
        snprintf(where, sizeof where, "k.cu:%d: ", f->line);
        ck_assert_msg(!strncmp(msg, where, strlen(where)),
                      "%s: message does not start with '%s': %s", f->what, where, msg);
    }
}
END_TEST

static const form allowed_forms[] = {
    {"cuda_pipeline.h", "#include <cuda_pipeline.h>\n", 0},
    {"quoted toolkit header", "#include \"cuda_pipeline.h\"\n", 0},
    {"libcu++ pipeline and barrier", "#include <cuda/pipeline>\n#include <cuda/barrier>\n", 0},
    {"cuda/std", "#include <cuda/std/cstdint>\n#include <cuda/std/type_traits>\n", 0},
    {"cooperative groups", "#include <cooperative_groups.h>\n"
                           "#include <cooperative_groups/memcpy_async.h>\n", 0},
    {"fp16 and the runtime's device declarations",
     "#include <cuda_fp16.h>\n#include <cuda_runtime.h>\n", 0},
    {"spaces and comments", "  #  include /* c */ <cuda_pipeline.h> // why\n", 0},
    {"splice inside a toolkit include", "#inc\\\nlude <cuda_pipeline.h>\n", 0},
    {"__has_include of a toolkit name", "#if __has_include(<cuda/pipeline>)\n#endif\n", 0},
    {"__has_include of a missing toolkit name", "#if __has_include(<cuda/nothing>)\n#endif\n", 0},
    {"every allowed directive",
     "#define A 1\n#undef A\n#ifdef A\n#elif 1\n#else\n#endif\n#ifndef B\n#endif\n"
     "#if 0\n#error no\n#warning no\n#endif\n#pragma once\n#\n", 0},
    {"pragmas", "#pragma unroll 4\n_Pragma(\"unroll\")\n#pragma nv_diag_suppress 177\n", 0},
    {"include in a line comment", "// #include \"/etc/passwd\"\n", 0},
    {"include in a block comment", "/*\n#include \"/etc/passwd\"\n*/\n", 0},
    {"include in a string", "const char *s = \"\\\n#include \\\"/etc/passwd\\\"\";\n", 0},
    {"include in a raw string", "const char *s = R\"(\n#include \"/etc/passwd\"\n)\";\n", 0},
    {"# not at the start of a line", "int a; # include \"/etc/passwd\"\n", 0},
    {"a stringizing macro", "#define S(x) #x\nconst char *s = S(include);\n", 0},
    /* 1'0 is a number (C++14), so the comment that follows is a comment,
     * as NVRTC reads it. */
    {"digit separator then comment", "int a = 1'0 /* '\n#include \"/etc/passwd\"\n*/\n", 0},
    /* NVRTC reads no trigraphs (C++17) and stops at a NUL byte. */
    {"trigraph", "?\?=include \"/etc/passwd\"\n", 0},
    {"CR alone is no newline", "// x\r#include \"/etc/passwd\"\n", 0},
    {"an apostrophe in a comment", "// don't\n#include <cuda_pipeline.h>\n", 0},
};

START_TEST(allowed_include_forms)
{
    for (size_t k = 0; k < sizeof allowed_forms / sizeof *allowed_forms; k++) {
        const form *f = &allowed_forms[k];
        char msg[1024];
        ck_assert_msg(scan(f->src, msg, sizeof msg) == 0, "%s: refused: %s", f->what, msg);
    }
}
END_TEST

START_TEST(many_includes_refused_quickly)
{
    /* A million lookups of a toolkit header would take the grader minutes;
     * the 101st include is refused. */
    static char src[2000000];
    size_t n = 0;
    for (int i = 0; i < 60000; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "#include <cuda_pipeline.h>\n");
    char msg[1024];
    ck_assert_int_eq(scan(src, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, "k.cu:101: more than 100") && strstr(msg, "may include only"),
                  "%s", msg);
    n = 0;
    for (int i = 0; i < 100; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "#include <cuda_pipeline.h>\n");
    ck_assert_msg(scan(src, msg, sizeof msg) == 0, "%s", msg);
}
END_TEST

START_TEST(text_ends_at_nul)
{
    /* NVRTC takes a C string: what follows a NUL byte is never compiled. */
    static const char src[] = "int a; /\0* x\n#include \"/etc/passwd\"\n";
    char msg[1024];
    ck_assert_int_eq(scan(src, msg, sizeof msg), 0);
}
END_TEST


/* ---- the scan's reading of the text, at its boundaries ------------------ */

/* A source refused at `line` with `why` in its message, or accepted
 * (line 0). */
typedef struct reading {
    const char *what;
    const char *src;
    int line;
    const char *why;
} reading;

static const reading readings[] = {
    /* Splices count their lines: what follows is reported where it is. */
    {"a splice counts its line", "int a = 1 \\\n + 2;\n#include \"/etc/passwd\"\n", 3,
     "absolute path"},
    {"a splice with CRs counts its line", "int a = 1 \\\r\r\n + 2;\n#include </x>\n", 3,
     "absolute path"},
    {"a backslash then a CR then text is no splice", "// x \\\rstill\n#include </x>\n", 2,
     "absolute path"},
    {"a splice between / and * opens a comment",
     "/\\\n* x\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"two splices in a row", "#in\\\n\\\nclude </x>\n", 1, "absolute path"},
    /* A block comment ends at its "*" "/", and only there. */
    {"a comment does not end at a lone star or slash",
     "/* a * b / c\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"the opening slash and star are not the closing ones",
     "/*/ x\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"the text after a comment's end is read", "/* x **/#include \"/etc/passwd\"\n", 1,
     "absolute path"},
    {"an unterminated comment hides the rest", "/* x\n#include \"/etc/passwd\"\n", 0, NULL},
    {"a line comment ends at its line", "// x /*\n#include \"/etc/passwd\"\n", 2,
     "absolute path"},
    /* Strings and characters end at their own quote, escapes skipped. */
    {"an escaped quote stays inside the string",
     "s = \"a\\\" /* \";\n#include \"/etc/passwd\"\n", 2, "absolute path"},
    {"an escaped backslash ends before the quote",
     "s = \"\\\\\"; /*\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"a string ends at its line", "s = \"abc /*\n#include \"/etc/passwd\"\n", 2,
     "absolute path"},
    {"a backslash and a newline in a string splice", "s = \"abc\\\n#include </x>\n", 0, NULL},
    {"a character with a quote inside", "c = '\"'; /*\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"a character is not closed by the other quote",
     "c = '\"' /* ' */;\n#include </x>\n", 2, "absolute path"},
    {"a string is not closed by an apostrophe", "s = \"'\" /* */;\n#include </x>\n", 2,
     "absolute path"},
    /* Raw strings: each prefix, each character that ends a delimiter. */
    {"R raw string", "s = R\"( \" /* )\";\n#include \"/etc/passwd\"\n*/\n", 2, "absolute path"},
    {"uR raw string", "s = uR\"( \" /* )\";\n#include \"/etc/passwd\"\n*/\n", 2,
     "absolute path"},
    {"UR raw string", "s = UR\"( \" /* )\";\n#include \"/etc/passwd\"\n*/\n", 2,
     "absolute path"},
    {"LR raw string", "s = LR\"( \" /* )\";\n#include \"/etc/passwd\"\n*/\n", 2,
     "absolute path"},
    {"u8R raw string", "s = u8R\"( \" /* )\";\n#include \"/etc/passwd\"\n*/\n", 2,
     "absolute path"},
    {"u8 is a plain string", "s = u8\"x\"; /*\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"u is a plain string", "s = u\"x\"; /*\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"U is a plain string", "s = U\"x\"; /*\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"L is a plain string", "s = L\"x\"; /*\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"L character", "c = L'x'; /*\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"R character is a character", "c = R'x'; /*\n#include \"/etc/passwd\"\n*/\n", 0, NULL},
    {"a prefix-like name is no prefix", "s = uu\"( \" /* )\";\n#include </x>\n*/\n", 0, NULL},
    {"a raw string's false end", "s = R\"ab( )a\" /* )ab\";\n#include </x>\n*/\n", 2,
     "absolute path"},
    {"a raw string's end needs its own delimiter",
     "s = R\"ab( )xy\" /* )ab\";\n#include </x>\n*/\n", 2, "absolute path"},
    {"a raw string's end needs its quote", "s = R\"ab( )ab /* )ab\";\n#include </x>\n*/\n", 2,
     "absolute path"},
    {"a 19-character delimiter", "s = R\"abcdefghijklmnopqrs( \" /* )abcdefghijklmnopqrs\";\n"
     "#include </x>\n*/\n", 2, "absolute path"},
    {"an unterminated raw string hides the rest", "s = R\"(\n#include </x>\n", 0, NULL},
    {"a space ends no raw delimiter: not a raw string",
     "s = R\" (x) \" /*\n#include </x>\n*/\n", 2, "absolute path"},
    {"')' in a raw delimiter: not a raw string", "s = R\")(x))\" /*\n#include </x>\n*/\n", 2,
     "absolute path"},
    {"'\\' in a raw delimiter: not a raw string", "s = R\"\\(x)\\\" /*\n#include </x>\n*/\n", 2,
     "absolute path"},
    {"'\"' in a raw delimiter: not a raw string", "s = R\"\"(x)\"\" /*\n#include </x>\n*/\n", 2,
     "absolute path"},
    {"a newline in a raw delimiter: not a raw string",
     "s = R\"\n(x)\n\" /*\n#include </x>\n*/\n", 4, "absolute path"},
    {"a raw string with no '(': its quote opens a string",
     "s = R\"x\" /* \"\n#include </x>\n*/\n", 2, "absolute path"},
    /* pp-numbers: digit separators, exponent signs, dots, as C++ reads them. */
    {"a number from 0", "a = 0'0' /* '\n#include </x>\n*/\n", 2, "absolute path"},
    {"a number from 9", "a = 9'0' /* '\n#include </x>\n*/\n", 2, "absolute path"},
    {"a number from a dot", "a = .5'0' /* '\n#include </x>\n*/\n", 2, "absolute path"},
    {"a dot inside a number", "a = 1.'0' /* '\n#include </x>\n*/\n", 2, "absolute path"},
    {"e+ in a number", "a = 1e+'0' /* '\n#include </x>\n*/\n", 2, "absolute path"},
    {"E- in a number", "a = 1E-'0' /* '\n#include </x>\n*/\n", 2, "absolute path"},
    {"p- in a number", "a = 0x1p-'0' /* '\n#include </x>\n*/\n", 2, "absolute path"},
    {"P+ in a number", "a = 0x1P+'0' /* '\n#include </x>\n*/\n", 2, "absolute path"},
    {"a sign after a digit is no exponent", "a = 1-'0' /* '\n#include </x>\n*/\n", 0, NULL},
    {"a sign after a name is no exponent", "a = e-'0' /* '\n#include </x>\n*/\n", 0, NULL},
    {"an apostrophe before a blank ends a number", "a = 1' ' /* */;\n#include </x>\n", 2,
     "absolute path"},
    {"a name is no number", "a = x1'0' /* '\n#include </x>\n*/\n", 0, NULL},
    /* ' takes the letter after it along: in 1'e+ the e is no exponent, so
     * the + ends the number and '0' is a character: the comment is one. */
    {"an apostrophe's letter is no exponent", "a = 1'e+'0' /* '\n#include </x>\n*/\n", 0,
     NULL},
    {"an apostrophe's P is no exponent", "a = 0x1'P-'0' /* '\n#include </x>\n*/\n", 0, NULL},
    /* Directives: where they start, what they are called, what they say. */
    {"% alone starts no directive", "% #include </x>\n", 0, NULL},
    {"%: is #", "%:include </x>\n", 1, "absolute path"},
    {"%: before an allowed directive", "%:pragma once\n", 0, NULL},
    {"the null directive at the end", "#", 0, NULL},
    {"the null directive before the next line", "#\n#include </x>\n", 2, "absolute path"},
    {"a directive named by a number", "#0\n", 1, "followed by a number"},
    {"a directive named by a 9", "#9 \"x\"\n", 1, "followed by a number"},
    {"a directive named by a slash", "#/x\n", 1, "something that is not a name"},
    {"a directive named by a colon", "#:x\n", 1, "something that is not a name"},
    {"elifdef and elifndef", "#ifdef A\n#elifdef B\n#elifndef C\n#endif\n", 0, NULL},
    {"#line says why", "#line 7\n", 1, "renames the file"},
    {"#include_next says why", "#include_next <cuda_pipeline.h>\n", 1, "reads another file"},
    {"#import says why", "#import <cuda_pipeline.h>\n", 1, "reads another file"},
    {"#embed says why", "#embed <cuda_pipeline.h>\n", 1, "reads another file"},
    {"an unknown directive says why", "#assert x\n", 1, "not a directive a kernel file needs"},
    {"an unknown directive is named", "#sccs \"x\"\n", 1, "#sccs is refused"},
    {"a directive named with a digit", "#pragma9\n", 1, "#pragma9 is refused"},
    /* Header names: both forms, where they end, what is wrong with them. */
    {"the name in <> is shown in <>", "#include </etc/passwd>\n", 1,
     "#include </etc/passwd> is refused: it is an absolute path"},
    {"the name in \"\" is shown in \"\"", "#include \"/etc/passwd\"\n", 1,
     "#include \"/etc/passwd\" is refused: it is an absolute path"},
    {"an empty name", "#include <>\n", 1, "the name is empty"},
    {"an empty quoted name", "#include \"\"\n", 1, "the name is empty"},
    {"a name with a backslash", "#include <cuda\\pipeline>\n", 1, "contains a backslash"},
    {"a name that ends at its line", "#include <cuda_pipeline.h\n>\n", 1, "not named literally"},
    {"a name that ends at the text's end", "#include <cuda_pipeline.h", 1,
     "not named literally"},
    {"<> closed by a quote", "#include <cuda_pipeline.h\"\n", 1, "not named literally"},
    {"\"\" closed by >", "#include \"cuda_pipeline.h>\n", 1, "not named literally"},
    {"a name that opens with neither < nor \"", "#include Xcuda_pipeline.h\"\n", 1,
     "not named literally"},
    {"__has_include of a name that opens with neither",
     "#if __has_include(Xcuda/pipeline\")\n#endif\n", 1, "not named literally"},
    {"a name after a comment", "#include /* a\n b */ </x>\n", 1, "absolute path"},
    {"'..' at the end", "#include <cuda/..>\n", 1, "climbs out"},
    {"'..' alone", "#include <..>\n", 1, "climbs out"},
    {"'..' in the middle", "#include <cuda/../cuda_pipeline.h>\n", 1, "climbs out"},
    {"'..' in the middle after '...'", "#include <cuda/.../../x>\n", 1, "climbs out"},
    {"'..' as part of a name is no climb", "#include <a..b/x..>\n", 1,
     "not one of the toolkit's headers"},
    {"'...' is no climb", "#include <cuda/...>\n", 1, "not one of the toolkit's headers"},
    {"'..x' is no climb", "#include <cuda/..x/y>\n", 1, "not one of the toolkit's headers"},
    {"a folder of the toolkit is no header", "#include <cuda>\n", 1,
     "not one of the toolkit's headers"},
    {"a header of the grader's own", "#include <cstdio>\n#include \"assert.h\"\n", 0, NULL},
    {"a name like the grader's own", "#include <cstdio.h>\n", 1,
     "not one of the toolkit's headers"},
    /* __has_include: its parenthesis, blanks, names, where it stands. */
    {"__has_include with blanks", "#if __has_include /* c */ ( <cuda/pipeline> )\n#endif\n",
     0, NULL},
    {"__has_include of a missing name is a question", "#if __has_include(\"nothing.h\")\n#endif\n",
     0, NULL},
    {"__has_include of '..x'", "#if __has_include(<..x>) || __has_include(<x..>)\n#endif\n", 0,
     NULL},
    {"__has_include without a parenthesis", "#if __has_include\n#endif\n", 1,
     "must be followed by (<name>)"},
    {"__has_include of a name that does not end", "#if __has_include(<cuda/pipeline\n", 1,
     "__has_include is refused: its file is not named literally"},
    {"__has_include shows its name", "int a;\n\n#if __has_include(</x>)\n#endif\n", 3,
     "__has_include(/x) is refused: it is an absolute path"},
    {"__has_include's line is where the name starts", "a;\n__has_\\\ninclude(<../x>)\n", 2,
     "climbs out"},
    {"__has_include_next says why", "#if __has_include_next(<x>)\n#endif\n", 1,
     "searches past the toolkit"},
    {"a longer name is not __has_include", "int __has_include_x(</x>);\n", 0, NULL},
    {"a name ending in __has_include is not it", "int x__has_include(</x>);\n", 0, NULL},
    {"__has_include followed by a quote", "#if __has_include\"/etc/passwd\"\n#endif\n", 1,
     "must be followed by (<name>)"},
    {"__has_include_next followed by a quote", "#if __has_include_next\"x\"\n#endif\n", 1,
     "searches past the toolkit"},
    {"a division is no comment", "x = a / 2; /*\n#include </x>\n*/\n", 0, NULL},
    {"a division before a string", "x = a / 2; s = \"/*\";\n#include </x>\n", 2,
     "absolute path"},
};

static void check_reading(const reading *r)
{
    char msg[1024];
    int rc = scan(r->src, msg, sizeof msg);
    if (!r->line) {
        ck_assert_msg(rc == 0, "%s: refused: %s", r->what, msg);
        ck_assert_msg(msg[0] == 0, "%s: a message for an accepted file: %s", r->what, msg);
        return;
    }
    char where[32];
    snprintf(where, sizeof where, "k.cu:%d: ", r->line);
    ck_assert_msg(rc == -1, "%s: not refused", r->what);
    ck_assert_msg(!strncmp(msg, where, strlen(where)), "%s: not at line %d: %s", r->what,
                  r->line, msg);
    ck_assert_msg(strstr(msg, r->why), "%s: the message lacks '%s': %s", r->what, r->why, msg);
    ck_assert_msg(strstr(msg, "may include only"), "%s: %s", r->what, msg);
}

START_TEST(reading_the_text)
{
    for (size_t k = 0; k < sizeof readings / sizeof *readings; k++)
        check_reading(&readings[k]);
}
END_TEST

/* Blanks: space, tab, vertical tab, form feed and carriage return, and
 * nothing else, before a directive's '#' and between it and its name. */
static const char blanks[] = " \t\v\f\r";
static const char not_blanks[] = "\x01\x1f!x";

START_TEST(blanks_before_and_after_the_hash)
{
    char src[64], msg[1024];
    for (const char *b = blanks; *b; b++) {
        snprintf(src, sizeof src, "%c#include </x>\n", *b);
        ck_assert_msg(scan(src, msg, sizeof msg) == -1 && strstr(msg, "absolute path"),
                      "blank %d before '#': %s", *b, msg);
        snprintf(src, sizeof src, "#%cpragma once\n", *b);
        ck_assert_msg(scan(src, msg, sizeof msg) == 0, "blank %d after '#': %s", *b, msg);
        snprintf(src, sizeof src, "#include%c</x>\n", *b);
        ck_assert_msg(scan(src, msg, sizeof msg) == -1 && strstr(msg, "absolute path"),
                      "blank %d before the name: %s", *b, msg);
    }
    for (const char *b = not_blanks; *b; b++) {
        /* Not a blank: the '#' no longer starts its line. */
        snprintf(src, sizeof src, "%c#include </x>\n", *b);
        ck_assert_msg(scan(src, msg, sizeof msg) == 0, "%d before '#': %s", *b, msg);
        snprintf(src, sizeof src, "#%cpragma once\n", *b);
        ck_assert_msg(scan(src, msg, sizeof msg) == -1, "%d after '#' accepted", *b);
    }
}
END_TEST

/* The characters of a name: letters, digits, '_', '$' and every byte from
 * 0x80; a directive's name ends at the first other one. */
static const char name_chars[] = "azAZ09_$\x80\xff";
static const char not_name_chars[] = "`{@[/:-\x7f";

START_TEST(characters_of_a_name)
{
    char src[64], msg[1024], want[64];
    for (const char *c = name_chars; *c; c++) {
        snprintf(src, sizeof src, "#pragma%c once\n", *c);
        snprintf(want, sizeof want, "#pragma%c is refused", *c);
        ck_assert_msg(scan(src, msg, sizeof msg) == -1 && strstr(msg, want),
                      "name character %d: %s", (unsigned char)*c, msg);
    }
    for (const char *c = not_name_chars; *c; c++) {
        snprintf(src, sizeof src, "#pragma%c once\n", *c);
        ck_assert_msg(scan(src, msg, sizeof msg) == 0, "not a name character %d: %s",
                      (unsigned char)*c, msg);
    }
    /* A directive's name may start with any name character but a digit. */
    for (const char *c = "azAZ_$"; *c; c++) {
        snprintf(src, sizeof src, "#%cx\n", *c);
        snprintf(want, sizeof want, "#%cx is refused", *c);
        ck_assert_msg(scan(src, msg, sizeof msg) == -1 && strstr(msg, want), "%c: %s", *c, msg);
    }
}
END_TEST

/* A directive's name is shown whole up to 63 characters. */
START_TEST(long_directive_names)
{
    char src[128], msg[1024], want[128];
    char name[70];
    memset(name, 'a', sizeof name);
    name[63] = 0;
    snprintf(src, sizeof src, "#%s\n", name);
    snprintf(want, sizeof want, "#%s is refused", name);
    ck_assert_int_eq(scan(src, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, want), "%s", msg);
}
END_TEST

/* A header name of 511 characters is read whole; one of 512 is not. */
START_TEST(header_name_length)
{
    char src[700], name[600], msg[1024];
    memset(name, 'a', sizeof name);
    name[511] = 0;
    snprintf(src, sizeof src, "#if __has_include(<%s>)\n#endif\n", name);
    ck_assert_msg(scan(src, msg, sizeof msg) == 0, "%s", msg);
    name[511] = 'a';
    name[512] = 0;
    snprintf(src, sizeof src, "#if __has_include(<%s>)\n#endif\n", name);
    ck_assert_int_eq(scan(src, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, "not named literally"), "%s", msg);
}
END_TEST

/* The message buffer: cleared for a file that passes, the line always
 * first, cut to the caller's length. */
START_TEST(message_buffer)
{
    char msg[1024];
    strcpy(msg, "junk");
    ck_assert_int_eq(scan("int a;\n", msg, sizeof msg), 0);
    ck_assert_str_eq(msg, "");
    strcpy(msg, "junk");
    ck_assert_int_eq(scan("#include </x>\n", msg, 8), -1);
    ck_assert_str_eq(msg, "k.cu:1:");
    memset(msg, 'z', sizeof msg);
    ck_assert_int_eq(scan("#include </x>\n", msg, 12), -1);
    ck_assert_str_eq(msg, "k.cu:1: #in");
    ck_assert_int_eq(msg[12], 'z');
    ck_assert_int_eq(scan("#include </x>\n", NULL, 0), -1);
}
END_TEST

/* ---- a toolkit of our own: which files are its headers ------------------ */

static char top[64];

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* top/inc (the toolkit: a.h, sub/b.h, in.h -> sub/b.h, out.h -> ../inc2/c.h,
 * top.h -> .. ), top/inc2/c.h (a folder whose name starts with inc's). */
static void make_toolkit(void)
{
    char p[256];
    snprintf(top, sizeof top, "/tmp/source-scan-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(top));
    snprintf(p, sizeof p, "%s/inc", top);
    ck_assert_int_eq(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/inc/sub", top);
    ck_assert_int_eq(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/inc2", top);
    ck_assert_int_eq(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/inc/a.h", top);
    put(p, "\n");
    snprintf(p, sizeof p, "%s/inc/sub/b.h", top);
    put(p, "\n");
    snprintf(p, sizeof p, "%s/inc2/c.h", top);
    put(p, "\n");
    snprintf(p, sizeof p, "%s/inc/in.h", top);
    ck_assert_int_eq(symlink("sub/b.h", p), 0);
    snprintf(p, sizeof p, "%s/inc/out.h", top);
    ck_assert_int_eq(symlink("../inc2/c.h", p), 0);
    snprintf(p, sizeof p, "%s/inc/top.h", top);
    ck_assert_int_eq(symlink("..", p), 0);
}

static void remove_toolkit(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    ck_assert_int_eq(system(cmd), 0);
}

/* Scan `src` with the toolkit folders `sub` (relative to top), in order. */
static int scan_in(const char *src, const char *const *sub, int n, char *msg)
{
    char dirs[4][128];
    const char *d[4];
    for (int k = 0; k < n; k++) {
        snprintf(dirs[k], sizeof dirs[k], "%s/%s", top, sub[k]);
        d[k] = dirs[k];
    }
    return source_rules_check(src, "k.cu", d, n, msg, 1024);
}

START_TEST(toolkit_headers)
{
    static const char *const inc[] = {"inc"}, *const both[] = {"missing", "inc"},
                             *const two[] = {"inc2", "inc"};
    char msg[1024];
    ck_assert_msg(scan_in("#include <a.h>\n", inc, 1, msg) == 0, "%s", msg);
    ck_assert_msg(scan_in("#include \"sub/b.h\"\n", inc, 1, msg) == 0, "%s", msg);
    /* A link that stays inside the toolkit is a header of it. */
    ck_assert_msg(scan_in("#include <in.h>\n", inc, 1, msg) == 0, "%s", msg);
    /* Later folders are searched when an earlier one lacks the file or is
     * no folder at all. */
    ck_assert_msg(scan_in("#include <a.h>\n", both, 1 + 1, msg) == 0, "%s", msg);
    ck_assert_msg(scan_in("#include <a.h>\n#include <c.h>\n", two, 2, msg) == 0, "%s", msg);
    /* Refused: a link out into a folder whose name starts with the
     * toolkit's, a folder, the toolkit's parent through a link, a file of
     * no toolkit folder given. */
    static const char *const bad[] = {"#include <out.h>\n", "#include <sub>\n",
                                      "#include <top.h>\n", "#include <top.h/inc2/c.h>\n",
                                      "#include <c.h>\n"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        ck_assert_msg(scan_in(bad[k], inc, 1, msg) == -1, "%s accepted", bad[k]);
        ck_assert_msg(strstr(msg, "not one of the toolkit's headers"), "%s: %s", bad[k], msg);
    }
    /* No folder at all: nothing is a header, but the grader's own are. */
    ck_assert_int_eq(scan_in("#include <a.h>\n", inc, 0, msg), -1);
    ck_assert_msg(scan_in("#include <stdio.h>\n#include <cassert>\n", inc, 0, msg) == 0, "%s",
                  msg);
}
END_TEST

/* The grader's own headers: exactly these four names, 1 for each. */
START_TEST(shim_header_names)
{
    const char *const *src, *const *names;
    ck_assert_int_eq(shim_headers(&src, &names), 4);
    static const char *const want[] = {"cstdio", "stdio.h", "cassert", "assert.h"};
    for (int k = 0; k < 4; k++) {
        ck_assert_str_eq(names[k], want[k]);
        ck_assert_ptr_nonnull(src[k]);
        ck_assert_int_eq(shim_header_is(want[k]), 1);
    }
    static const char *const not_shim[] = {"cstdio.h", "stdio", "", "assert", "cuda/cstdio",
                                           "CSTDIO"};
    for (size_t k = 0; k < sizeof not_shim / sizeof *not_shim; k++)
        ck_assert_msg(shim_header_is(not_shim[k]) == 0, "%s", not_shim[k]);
}
END_TEST

Suite *source_scan_suite(void)
{
    Suite *s = suite_create("source_scan");
    TCase *tc = tcase_create("forms");
    tcase_add_test(tc, refused_include_forms);
    tcase_add_test(tc, allowed_include_forms);
    tcase_add_test(tc, text_ends_at_nul);
    tcase_add_test(tc, many_includes_refused_quickly);
    suite_add_tcase(s, tc);

    tc = tcase_create("reading");
    tcase_add_test(tc, reading_the_text);
    tcase_add_test(tc, blanks_before_and_after_the_hash);
    tcase_add_test(tc, characters_of_a_name);
    tcase_add_test(tc, long_directive_names);
    tcase_add_test(tc, header_name_length);
    tcase_add_test(tc, message_buffer);
    tcase_add_test(tc, shim_header_names);
    suite_add_tcase(s, tc);

    tc = tcase_create("toolkit");
    tcase_add_checked_fixture(tc, make_toolkit, remove_toolkit);
    tcase_add_test(tc, toolkit_headers);
    suite_add_tcase(s, tc);
    return s;
}
