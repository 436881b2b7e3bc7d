/* shim_headers.c: <cstdio>, <stdio.h>, <cassert>, <assert.h> for NVRTC
 * (see shim_headers.h). */
#include <string.h>
#include "shim_headers.h"

#define STDIO_TEXT                                                               \
    "/* The grader's " NAME ": printf is NVRTC's own (it becomes vprintf). */\n"  \
    "#pragma once\n"

/* assert.h has no include guard on purpose: each include redefines assert
 * from the NDEBUG of that moment. The condition is shown as written (#e),
 * as glibc does, and the file and line are the student's. */
#define ASSERT_TEXT                                                              \
    "/* The grader's assert: NVRTC's __assertfail, re-read NDEBUG. */\n"           \
    "#undef assert\n"                                                            \
    "#ifdef NDEBUG\n"                                                            \
    "#define assert(e) (static_cast<void>(0))\n"                                 \
    "#else\n"                                                                    \
    "#define assert(e) ((e) ? static_cast<void>(0) : __assertfail(#e, __FILE__, " \
    "__LINE__, __PRETTY_FUNCTION__, sizeof(char)))\n"                            \
    "#endif\n"

static const char *const names[] = {"cstdio", "stdio.h", "cassert", "assert.h"};
static const char *const sources[] = {
#define NAME "<cstdio>"
    STDIO_TEXT "namespace std { using ::printf; }\n",
#undef NAME
#define NAME "<stdio.h>"
    STDIO_TEXT,
#undef NAME
    ASSERT_TEXT,
    ASSERT_TEXT,
};

int shim_headers(const char *const **src, const char *const **nm)
{
    *src = sources;
    *nm = names;
    return (int)(sizeof names / sizeof *names);
}

int shim_header_is(const char *hdr)
{
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (!strcmp(hdr, names[k]))
            return 1;
    return 0;
}
