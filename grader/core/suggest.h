/* suggest.h: "did you mean ...?" for names typed on the command line. */
#ifndef GRADER_SUGGEST_H
#define GRADER_SUGGEST_H

/* Edit distance between a and b, ignoring case, capped at 9. */
int name_distance(const char *a, const char *b);

/* The candidate closest to `typed` (ignoring case) when it is near enough
 * to be a typo (at most 2 edits, and fewer than half its letters), else
 * NULL. `candidates` ends with NULL. */
const char *closest_name(const char *typed, const char *const *candidates);

#endif
