/* lesson_name.h: a lesson as typed on a command line. */
#ifndef GRADER_LESSON_NAME_H
#define GRADER_LESSON_NAME_H

#include <stddef.h>

/* "lesson3" or "3": 3, when the course has that lesson; else -1. ("all" is
 * the caller's word.) */
int lesson_from_name(const char *s);

/* A lesson word of a command line into lessons[N_LESSONS]: "all" marks
 * every lesson, "lesson3" or "3" that one. 0, or -1 with the sentence in err
 * ("'lesson99' is not a lesson (lesson0 .. lesson15, or all)"). */
int lesson_mark(const char *word, int *lessons, char *err, size_t len);

#endif
