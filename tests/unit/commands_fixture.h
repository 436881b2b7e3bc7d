/* commands_fixture.h: what the tests of the learner's commands share
 * (test_commands.c, test_commands_compile.c): options read by
 * cli_parse_args as main.c reads them, a command run with its stdout and
 * stderr caught, check's options for the host backend (device_host.h) with
 * kernels of the tests' own, a course of lesson 0 alone in the scratch
 * folder, and `grader references` run likewise. Static, so each test file
 * has its own copy. */
#ifndef TESTS_UNIT_COMMANDS_FIXTURE_H
#define TESTS_UNIT_COMMANDS_FIXTURE_H

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include "class_scratch.h"
#include "cli.h"
#include "pipeline.h"
#include "references.h"

static options o;
static char *said_out, *said_err;

static inline void setup(void)
{
    scratch();
    said_out = said_err = NULL;
}

static inline void teardown(void)
{
    free(said_out);
    free(said_err);
    said_out = said_err = NULL;
    remove_scratch();
}

/* cli_parse_args on "grader" and these words (NULL-ended) into o; what it
 * printed in said_out and said_err. */
static inline int args(const char *first, ...)
{
    static char *argv[40];
    int argc = 0;
    argv[argc++] = "grader";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 39; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    free(said_out);
    free(said_err);
    capture c;
    capture_start(&c, "args");
    int r = cli_parse_args(argc, argv, &o);
    capture_end(&c, &said_out, &said_err);
    return r;
}

/* Run a command on o; its status, and what it printed. */
typedef int (*command_fn)(options *o);
static inline int run_cmd(command_fn cmd)
{
    free(said_out);
    free(said_err);
    capture c;
    capture_start(&c, "cmd");
    int r = cmd(&o);
    capture_end(&c, &said_out, &said_err);
    return r;
}

static inline int do_list(options *x) { return cmd_list(x); }
static inline int do_static(options *x) { return cmd_static(x); }
static inline int do_progress(options *x) { return cmd_progress(x); }
static inline int do_check(options *x) { return cmd_check(x); }
static inline int do_sweep(options *x) { return cmd_sweep(x); }
static inline int do_watch(options *x) { return cmd_watch(x); }

/* Text as print_paragraph wrapped it, with each line break inside a
 * paragraph back to the space it was (free it). */
static inline char *unwrapped(const char *text)
{
    char *u = strdup(text);
    for (char *p = u; *p; p++)
        if (p[0] == '\n' && p > u && p[-1] != '\n' && p[1] && p[1] != '\n' && p[1] != ' ')
            p[0] = ' ';
    return u;
}

static inline void only_lessons(const int *ls)
{
    for (int l = 0; l < N_LESSONS; l++)
        ck_assert_int_eq(o.lessons[l], ls[l]);
}

/* A course of one lesson in the scratch folder: lesson 0's solution,
 * baseline and exercise, copied from this one. */
static char course[700];

static inline void copy_into(const char *rel)
{
    char from[900], to[900];
    snprintf(from, sizeof from, "%s", rel);
    snprintf(to, sizeof to, "%s/%s", course, rel);
    char *text = slurp_file(from);
    put_file(to, text);
    free(text);
}

static inline void lesson0_course(void)
{
    in_scratch(course, sizeof course, "course");
    copy_into("solutions/lesson0/saxpy.cu");
    copy_into("exercises/lesson0/saxpy.cu");
    copy_into("grader/baselines/lesson0/saxpy.cu");
}

static inline void good_axpy(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.008;
}

static inline void wrong_axpy(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    if (A.n > 0)
        A.z[0] += 1;
    c->ms = 0.008;
}

static char json_path[700];

/* check's options for the host backend, with these words (NULL-ended). */
static inline void host_check(const char *first, ...)
{
    static char *argv[30];
    int argc = 0;
    argv[argc++] = "grader";
    argv[argc++] = "check";
    argv[argc++] = "--student-dir";     /* the host modules' folder, unless given */
    argv[argc++] = "student";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 29; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    ck_assert_int_eq(cli_parse_args(argc, argv, &o), OPTIONS_OK);
    grade_opts h = host_opts();
    o.g.device = h.device;
    o.g.launch_timeout_s = h.launch_timeout_s;
    o.g.time_budget_s = h.time_budget_s;
    in_scratch(json_path, sizeof json_path, "report.json");
    if (!strcmp(o.json, "build/report.json"))
        o.json = json_path;
}

static const exercise *one[1];

static inline int check_one(const exercise *ex)
{
    one[0] = ex;
    free(said_out);
    free(said_err);
    capture c;
    capture_start(&c, "check");
    int r = check_selection(&o, one, 1);
    capture_end(&c, &said_out, &said_err);
    return r;
}

static inline int refs(const char *first, ...)
{
    static char *argv[20];
    int argc = 0;
    argv[argc++] = "references";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 19; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    free(said_out);
    free(said_err);
    capture c;
    capture_start(&c, "refs");
    int r = references_main(argc, argv);
    capture_end(&c, &said_out, &said_err);
    return r;
}

#endif
