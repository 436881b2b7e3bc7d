/* reference.c: the reference solutions of the student copy, compiled to PTX
 * (see reference.h). A PTX file starts with comment lines the grader reads
 * back:
 *
 *   // Reference solution of lesson3/matmul, compiled by `make release`.
 *   // source: solutions/lesson3/matmul.cu
 *   // kernel: matmul
 *   // knobs: TILE=16
 *   // target: sm_75
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "compile_jobs.h"
#include "fileio.h"
#include "reference.h"

extern char **environ;

int reference_is_compiled(const grade_opts *o)
{
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/solutions", o->root);
    return stat(path, &st) != 0 || !S_ISDIR(st.st_mode);
}

void reference_ptx_path(const exercise *ex, const char *dir, char *path, size_t len)
{
    snprintf(path, len, "%s/lesson%d/%s.ptx", dir, ex->lesson, ex->name);
}

/* grader/references under the course's top, as the student knows it. */
static void ptx_path(const exercise *ex, const grade_opts *o, char *path, size_t len)
{
    char dir[1024];
    if (!strcmp(o->root, "."))
        snprintf(dir, sizeof dir, "grader/references");
    else
        snprintf(dir, sizeof dir, "%s/grader/references", o->root);
    reference_ptx_path(ex, dir, path, len);
}

void reference_source(const exercise *ex, const grade_opts *o, char *path, size_t len)
{
    if (reference_is_compiled(o))
        ptx_path(ex, o, path, len);
    else
        variant_path(ex, V_SOLUTION, o, path, len);
}

/* The oldest generation the exercise allows: the PTX runs on it and newer. */
static int oldest_cc(const exercise *ex)
{
    return ex->min_cc > 75 ? ex->min_cc : 75;
}

static void knob_text(const exercise *ex, const int *knobs, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name && o < len; k++)
        o += snprintf(buf + o, len - o, "%s%s=%d", k ? " " : "", ex->knobs[k].name, knobs[k]);
    if (!buf[0])
        snprintf(buf, len, "(none)");
}

static void default_knobs(const exercise *ex, int *knobs)
{
    for (int k = 0; k < MAX_KNOBS; k++)
        knobs[k] = ex->knobs[k].name ? ex->knobs[k].def : 0;
}

/* The value of a header line "// key: value", or "" when absent. */
static void header_field(const char *ptx, const char *key, char *out, size_t len)
{
    char tag[64];
    snprintf(tag, sizeof tag, "\n// %s: ", key);
    const char *p = strstr(ptx, tag);
    out[0] = 0;
    if (!p)
        return;
    p += strlen(tag);
    size_t n = strcspn(p, "\n");
    snprintf(out, len, "%.*s", (int)n, p);
}

/* Read and check the PTX for ex; its knobs text and entry go to the caller. */
static char *read_ptx(const exercise *ex, const grade_opts *o, char *knobs, size_t klen,
                      char *kernel, size_t kernlen, char *err, size_t elen)
{
    char path[1024];
    ptx_path(ex, o, path, sizeof path);
    size_t n;
    char *ptx = read_text_file(path, &n);
    if (!ptx) {
        snprintf(err, elen, "cannot read %s: this student copy lacks the compiled reference "
                 "of lesson%d/%s", path, ex->lesson, ex->name);
        return NULL;
    }
    header_field(ptx, "knobs", knobs, klen);
    header_field(ptx, "kernel", kernel, kernlen);
    char entry[300];
    snprintf(entry, sizeof entry, ".entry %s(", kernel);
    if (!kernel[0] || !knobs[0] || !strstr(ptx, entry)) {
        snprintf(err, elen, "%s is damaged: its header or its entry point '%s' is missing",
                 path, kernel);
        free(ptx);
        return NULL;
    }
    return ptx;
}

int reference_load(const exercise *ex, const int *knobs, const grade_opts *o, int cc,
                   compile_fn compile, compiled *c, const char **kernel, char *note,
                   size_t len)
{
    static char entry[128];
    char have[256], want[256];
    memset(c, 0, sizeof *c);
    note[0] = 0;
    char *ptx = read_ptx(ex, o, have, sizeof have, entry, sizeof entry, c->error,
                         sizeof c->error);
    if (!ptx) {
        c->missing = 1;
        return -1;
    }
    knob_text(ex, knobs, want, sizeof want);
    if (strcmp(have, want) != 0) {
        free(ptx);
        exercise_jobs J;
        exercise_jobs_make(&J, ex, knobs, o, cc, JOB_BASELINE);
        compile(J.job, J.n, c);
        *kernel = ex->kernel;
        snprintf(note, len, "this student copy of the course carries the reference "
                 "solution compiled only at the default knobs (%s), not at %s, so the "
                 "baseline was timed in its place", have, want);
        return c->ok ? 1 : -1;
    }
    c->ok = 1;
    c->ptx = ptx;
    c->ptx_size = strlen(ptx);
    snprintf(c->target, sizeof c->target, "compute_%d", oldest_cc(ex) % 1000);
    *kernel = entry;
    return 0;
}

/* ---- the command ---- */

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
    default_knobs(ex, knobs);
    char path[1200], kt[256];
    exercise_jobs J;
    exercise_jobs_make(&J, ex, knobs, o, oldest_cc(ex), JOB_SOLUTION);
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
    knob_text(ex, knobs, kt, sizeof kt);
    fprintf(f, "// Reference solution of lesson%d/%s, compiled by `make release`.\n"
            "// source: %s\n// kernel: %s\n// knobs: %s\n// target: sm_%d\n",
            ex->lesson, ex->name, src,
            variant_kernel(ex, V_SOLUTION), kt, oldest_cc(ex));
    fputs(c.ptx, f);     /* ptx_size counts the terminating NUL */
    compiled_free(&c);
    if (fclose(f) != 0)
        return -1;
    printf("  %s (sm_%d, %s)\n", path, oldest_cc(ex), kt);
    return 0;
}

/* In a student copy: everything a student's `make check` will compile or load. */
int reference_verify(const exercise *ex, const grade_opts *o, FILE *out)
{
    int knobs[MAX_KNOBS], bad = 0;
    default_knobs(ex, knobs);
    char have[256], want[256], entry[128], err[1200], path[1024];
    knob_text(ex, knobs, want, sizeof want);
    char *ptx = read_ptx(ex, o, have, sizeof have, entry, sizeof entry, err, sizeof err);
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
    ptx_path(ex, o, path, sizeof path);
    int a = assemble(path, oldest_cc(ex), err, sizeof err);
    if (a < 0) {
        fprintf(out, "FAIL  lesson%d/%s: %s\n", ex->lesson, ex->name, err);
        bad = 1;
    }
    /* The student's file and the baseline, as every command compiles them
     * (compile_jobs.h), for the calibration GPU and the oldest allowed. */
    int ccs[2] = {90, oldest_cc(ex)};
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

int references_main(int argc, char **argv)
{
    const char *out = NULL;
    int verify = 0;
    grade_opts o = {.root = ".", .student_dir = "exercises"};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--root") && i + 1 < argc)
            o.root = argv[++i];
        else if (!strcmp(argv[i], "--verify"))
            verify = 1;
        else {
            fprintf(stderr, "usage: grader references --out DIR | --verify [--root DIR]\n");
            return 2;
        }
    }
    if (!out && !verify) {
        fprintf(stderr, "usage: grader references --out DIR | --verify [--root DIR]\n");
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
