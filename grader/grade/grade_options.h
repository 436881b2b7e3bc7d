/* grade_options.h: the options every grading command shares (check, class,
 * references), written once: their names, their values' checks and their
 * help, so that `grader check --help` and `grader class --help` cannot
 * disagree on what --timeout means or what it defaults to. Rows of a
 * core/options.h table:
 *
 *     option_spec opts[] = { OPT_ROOT(&o->g.root), OPT_SEED(&o->g.seed, &o->seed_given, "..."),
 *                            OPT_TIMEOUT(&o->timeout_s), ..., {0} };
 *
 * The values they fill start from grade_opts_defaults (versions.h). */
#ifndef GRADER_GRADE_OPTIONS_H
#define GRADER_GRADE_OPTIONS_H

#include "options.h"
#include "versions.h"

#define GRADE_STR_(x) #x
#define GRADE_STR(x) GRADE_STR_(x)

/* --root DIR: the course's top folder (grade_opts.root). */
#define OPT_ROOT(where) \
    {.name = "--root", .kind = OPTION_STRING, .arg = "DIR", .string = (where), \
     .help = "the course's top folder (default: .)"}

/* --seed N: the inputs' seed (grade_opts.seed); *given says it was set.
 * `help` says what happens without it, which differs by command. */
#define OPT_SEED(where, given_flag, help_text) \
    {.name = "--seed", .kind = OPTION_ULL, .arg = "N", .ull = (where), .given = (given_flag), \
     .help = (help_text)}

/* --timeout S: seconds one exercise may take in its child. */
#define OPT_TIMEOUT(where) \
    {.name = "--timeout", .kind = OPTION_SECONDS, .arg = "S", .seconds = (where), \
     .help = "seconds one exercise may take (default " GRADE_STR(GRADE_TIMEOUT_S) ")"}

#endif
