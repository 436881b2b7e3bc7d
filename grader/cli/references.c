/* references.c: the `grader references` command (references.h): writing
 * every exercise's reference solution as PTX for a student copy (make
 * release), and checking a copy's references. Reading them back while
 * grading is grade/reference.c. */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "compile_jobs.h"
#include "grade_options.h"
#include "knobs.h"
#include "reference.h"
#include "references.h"

extern char **environ;

/* ptxas from the toolkit, when there is one: the PTX must assemble. */
static int assemble(const char *path, int cc, char *err, size_t elen)
{
    char ptxas[1100], arch[32];
    const char *home = getenv("CUDA_HOME");
    snprintf(ptxas, sizeof ptxas, "%s/../bin/ptxas", cuda_include_dir());
    if (home && *home)
        snprintf(ptxas, sizeof ptxas, "%s/bin/ptxas", home);
    if (access(ptxas, X_OK) != 0)
        return 1;
    snprintf(arch, sizeof arch, "-arch=sm_%d", cc);
    char *argv[] = {ptxas, arch, "-o", "/dev/null", (char *)path, NULL};
    pid_t pid;
    if (posix_spawn(&pid, ptxas, NULL, NULL, argv, environ) != 0) {
        snprintf(err, elen, "could not start %s", ptxas);
        return -1;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(err, elen, "%s does not assemble with ptxas %s", path, arch);
        return -1;
    }
    return 0;
}

static int write_one(const exercise *ex, const grade_opts *o, const char *dir)
{
    int knobs[MAX_KNOBS];
    knob_defaults(ex, knobs);
    char path[1200], kt[256];
    exercise_jobs J;
    exercise_jobs_make(&J, ex, knobs, o, reference_oldest_cc(ex), JOB_SOLUTION);
    const char *src = J.path[0];
    compiled c;
    compile_files(J.job, J.n, &c);
    if (!c.ok) {
        fprintf(stderr, "grader references: %s: %s\n%s", src, c.error, c.log ? c.log : "");
        compiled_free(&c);
        return -1;
    }
    snprintf(path, sizeof path, "%s/lesson%d", dir, ex->lesson);
    mkdir(path, 0755);
    reference_ptx_path(ex, dir, path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "grader references: cannot write %s: %s\n", path, strerror(errno));
        compiled_free(&c);
        return -1;
    }
    knob_list_text(ex, knobs, kt, sizeof kt);
    fprintf(f, "// Reference solution of lesson%d/%s, compiled by `make release`.\n"
            "// source: %s\n// kernel: %s\n// knobs: %s\n// target: sm_%d\n",
            ex->lesson, ex->name, src,
            variant_kernel(ex, V_SOLUTION), kt, reference_oldest_cc(ex));
    fputs(c.ptx, f);     /* ptx_size counts the terminating NUL */
    compiled_free(&c);
    if (fclose(f) != 0)
        return -1;
    printf("  %s (sm_%d, %s)\n", path, reference_oldest_cc(ex), kt);
    return 0;
}

/* In a student copy: everything a student's `make check` will compile or load. */
int reference_verify(const exercise *ex, const grade_opts *o, FILE *out)
{
    int knobs[MAX_KNOBS], bad = 0;
    knob_defaults(ex, knobs);
    char have[256], want[256], entry[128], err[1200], path[1024];
    knob_list_text(ex, knobs, want, sizeof want);
    char *ptx = reference_read_ptx(ex, o, have, sizeof have, entry, sizeof entry, err, sizeof err);
    if (!ptx) {
        fprintf(out, "FAIL  lesson%d/%s: %s\n", ex->lesson, ex->name, err);
        return -1;
    }
    free(ptx);
    if (strcmp(have, want)) {
        fprintf(out, "FAIL  lesson%d/%s: its reference was compiled at %s, the defaults are %s\n",
               ex->lesson, ex->name, have, want);
        bad = 1;
    }
    reference_ptx_file(ex, o, path, sizeof path);
    int a = assemble(path, reference_oldest_cc(ex), err, sizeof err);
    if (a < 0) {
        fprintf(out, "FAIL  lesson%d/%s: %s\n", ex->lesson, ex->name, err);
        bad = 1;
    }
    /* The student's file and the baseline, as every command compiles them
     * (compile_jobs.h), for the calibration GPU and the oldest allowed. */
    int ccs[2] = {90, reference_oldest_cc(ex)};
    for (int k = 0; k < 2; k++) {
        exercise_jobs J;
        compiled c[N_VARIANTS];
        exercise_jobs_make(&J, ex, knobs, o, ccs[k], JOB_STUDENT | JOB_BASELINE);
        compile_files(J.job, J.n, c);
        for (int j = 0; j < J.n; j++) {
            if (!c[j].ok) {
                fprintf(out, "FAIL  %s (sm_%d): %s\n", J.path[j], ccs[k], c[j].error);
                bad = 1;
            }
            compiled_free(&c[j]);
        }
    }
    char id[96];
    snprintf(id, sizeof id, "lesson%d/%s", ex->lesson, ex->name);
    if (!bad)
        fprintf(out, "ok    %-28s reference PTX for %s%s; exercise and baseline compile\n",
                id, have, a == 1 ? " (not assembled: no ptxas here)" : ", assembles");
    return bad ? -1 : 0;
}

static const char references_synopsis[] =
    "usage: grader references --out DIR | --verify [--root DIR]\n"
    "  a student copy's compiled references (make release)\n";

int references_main(int argc, char **argv)
{
    const char *out = NULL;
    int verify = 0;
    grade_opts o;
    grade_opts_defaults(&o);
    const option_spec opts[] = {
        {.name = "--out", .kind = OPTION_STRING, .arg = "DIR", .string = &out,
         .help = "write every exercise's reference as PTX under DIR"},
        {.name = "--verify", .kind = OPTION_FLAG, .flag = &verify,
         .help = "check a student copy: its references, exercises and\n"
                 "baselines"},
        OPT_ROOT(&o.root),
        {0},
    };
    option_command c = {.opts = opts, .synopsis = references_synopsis};
    char err[512];
    int r = options_parse(&c, argc, argv, err, sizeof err);
    if (r == OPTIONS_HELP) {
        options_help(&c, stdout);
        return 0;
    }
    if (r == OPTIONS_BAD || (!out && !verify)) {
        if (r == OPTIONS_BAD)
            fprintf(stderr, "grader references: %s\n", err);
        options_help(&c, stderr);
        return 2;
    }
    if (out && reference_is_compiled(&o)) {
        fprintf(stderr, "grader references: %s/solutions is missing: the references are "
                "compiled from the full course, not from a student copy\n", o.root);
        return 2;
    }
    int bad = 0, n = 0;
    if (out && mkdir(out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "grader references: cannot make %s: %s\n", out, strerror(errno));
        return 1;
    }
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; *e; e++, n++)
            bad += (verify ? reference_verify(*e, &o, stdout) : write_one(*e, &o, out)) != 0;
    printf("%d exercise%s, %d failed\n", n, n == 1 ? "" : "s", bad);
    return bad ? 1 : 0;
}
