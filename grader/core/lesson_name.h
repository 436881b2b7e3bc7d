/* lesson_name.h: a lesson as typed on a command line. */
#ifndef GRADER_LESSON_NAME_H
#define GRADER_LESSON_NAME_H

/* "lesson3" or "3": 3, when the course has that lesson; else -1. ("all" is
 * the caller's word.) */
int lesson_from_name(const char *s);

#endif
