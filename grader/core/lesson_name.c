/* lesson_name.c: a lesson as typed on a command line (lesson_name.h). */
#include <stdlib.h>
#include <string.h>
#include "lesson_name.h"
#include "spec.h"

int lesson_from_name(const char *s)
{
    if (strncmp(s, "lesson", 6) == 0)
        s += 6;
    char *end;
    long n = strtol(s, &end, 10);
    if (*s == 0 || *end != 0 || n < 0 || n >= N_LESSONS)
        return -1;
    return (int)n;
}
