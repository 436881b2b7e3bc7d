/* options.h: the one command-line parser every command uses (check and the
 * learner's commands in cli/main.c, `grader class` in class/class.c,
 * `grader references` in cli/references.c).
 *
 * Invariants
 * - A command is a table of option_spec rows, ended by a row with neither a
 *   name nor a heading. Each row names its option ("--root"), what kind of
 *   value it takes, where the value goes, and its line of help; the help
 *   text a command prints is made from the same table, so an option cannot
 *   be parsed without being documented, or documented without being parsed.
 * - Options take their value as the next argument ("--root DIR"). Every
 *   value is checked whole: "--timeout 5x" and "--seed -3" are refused, not
 *   read as 5 and a huge number.
 * - An argument that does not start with '-' is a word (a command, a
 *   lesson, a folder) and goes to the command's `word` call, in order.
 * - Options every grading command shares are written once, in
 *   grade/grade_options.h (OPT_ROOT, OPT_SEED, OPT_TIMEOUT), so their names,
 *   defaults and help cannot drift apart between commands.
 *
 * Error rule (core/): nothing here prints an error or exits. options_parse
 * returns OPTIONS_BAD with one sentence in the caller's buffer (the caller
 * prints it after the command's name and exits with the usage status), or
 * OPTIONS_HELP when -h/--help was given (the caller prints options_help to
 * stdout and exits 0). options_help writes only to the stream it is given.
 *
 * Layering: core/, so every layer above may use it; it knows nothing of
 * exercises, lessons or grading. */
#ifndef GRADER_OPTIONS_H
#define GRADER_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

typedef enum option_kind {
    OPTION_FLAG,        /* no value: *flag = 1 */
    OPTION_STRING,      /* *string = the value, as given */
    OPTION_CONST,       /* no value: *string = .constant */
    OPTION_INT,         /* *integer = a whole number >= .min */
    OPTION_ULL,         /* *ull = a whole number >= 0 (a seed) */
    OPTION_SECONDS,     /* *seconds = a number > 0 */
    OPTION_CALL,        /* .call(ctx, value): the command's own reading */
} option_kind;

/* What a command's own reading of a value or a word returns: 0, or -1 with
 * one sentence in err. */
typedef int (*option_call)(void *ctx, const char *value, char *err, size_t len);

typedef struct option_spec {
    const char *name;        /* "--root"; NULL in a heading row and the end row */
    option_kind kind;
    const char *arg;         /* the value's name in the help ("DIR"), NULL: no value */
    const char *help;        /* its help, lines split by '\n'; NULL: not shown (tests' options) */
    const char *heading;     /* a row of its own in the help, above the rows after it */
    int *flag;
    const char **string;
    const char *constant;    /* OPTION_CONST */
    int *integer;
    int min;                 /* OPTION_INT */
    unsigned long long *ull;
    double *seconds;
    option_call call;        /* OPTION_CALL: takes a value when .arg is set */
    int *given;              /* set to 1 when the option was on the line, or NULL */
} option_spec;

typedef struct option_command {
    const option_spec *opts;
    option_call word;        /* an argument that is no option; NULL: refused */
    void *ctx;               /* passed to word and to every OPTION_CALL */
    const char *synopsis;    /* the help's first lines, before "options:" */
    const char *epilogue;    /* after the options, or NULL */
    int width;               /* the column the help text starts at (0: 22) */
} option_command;

enum option_status { OPTIONS_OK = 0, OPTIONS_HELP = 1, OPTIONS_BAD = -1 };

/* Read argv[1..argc) against c. OPTIONS_OK when every argument was read,
 * OPTIONS_HELP at -h or --help (nothing after it is read), OPTIONS_BAD with
 * one sentence in err ("--timeout needs seconds > 0, got '0'"). */
int options_parse(const option_command *c, int argc, char **argv, char *err, size_t len);

/* The command's help: synopsis, every shown option with its value's name
 * and help in two columns, headings, epilogue. */
void options_help(const option_command *c, FILE *f);

#endif
