/* references.h: the `grader references` command, which makes and checks the
 * compiled references a student copy carries (grade/reference.h reads them).
 *
 *   grader references --out DIR    write every exercise's PTX (make release)
 *   grader references --verify     check a student copy: every PTX is there,
 *                                  for the default knobs, and assembles; every
 *                                  exercise file and baseline compile
 */
#ifndef GRADER_REFERENCES_H
#define GRADER_REFERENCES_H

#include <stdio.h>
#include "versions.h"

/* `grader references --verify` for one exercise, its lines to `out`: the
 * PTX is there, for the default knobs, and assembles; the student's file and
 * the baseline compile by the rules every command applies (compile_jobs.h).
 * 0, or -1 after a FAIL line. */
int reference_verify(const exercise *ex, const grade_opts *o, FILE *out);

/* The `grader references` command (argv[0] is "references"). */
int references_main(int argc, char **argv);

#endif
