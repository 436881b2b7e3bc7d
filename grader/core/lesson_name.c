/* lesson_name.c: a lesson as typed on a command line (lesson_name.h). */
#include <stdio.h>
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

int lesson_mark(const char *word, int *lessons, char *err, size_t len)
{
    int l = lesson_from_name(word);
    if (!strcmp(word, "all")) {
        for (int k = 0; k < N_LESSONS; k++)
            lessons[k] = 1;
        return 0;
    }
    if (l < 0) {
        snprintf(err, len, "'%s' is not a lesson (lesson0 .. lesson%d, or all)", word,
                 N_LESSONS - 1);
        return -1;
    }
    lessons[l] = 1;
    return 0;
}
