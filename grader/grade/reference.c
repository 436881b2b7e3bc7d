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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fileio.h"
#include "knobs.h"
#include "reference.h"
#include "ptx.h"

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
void reference_ptx_file(const exercise *ex, const grade_opts *o, char *path, size_t len)
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
        reference_ptx_file(ex, o, path, len);
    else
        variant_path(ex, V_SOLUTION, o, path, len);
}

/* The oldest generation the exercise allows: the PTX runs on it and newer. */
int reference_oldest_cc(const exercise *ex)
{
    return ex->min_cc > 75 ? ex->min_cc : 75;
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

char *reference_read_ptx(const exercise *ex, const grade_opts *o, char *knobs, size_t klen,
                         char *kernel, size_t kernlen, char *err, size_t elen)
{
    char path[1024];
    reference_ptx_file(ex, o, path, sizeof path);
    size_t n;
    char *ptx = read_text_file(path, &n);
    if (!ptx) {
        snprintf(err, elen, "cannot read %s: this student copy lacks the compiled reference "
                 "of lesson%d/%s", path, ex->lesson, ex->name);
        return NULL;
    }
    header_field(ptx, "knobs", knobs, klen);
    header_field(ptx, "kernel", kernel, kernlen);
    ptx_prog *p = kernel[0] && knobs[0] ? ptx_read(ptx) : NULL;
    int has = p && ptx_find_entry(p, kernel) >= 0;
    ptx_free(p);
    if (!has) {
        snprintf(err, elen, "%s is damaged: its header or its entry point '%s' is missing",
                 path, kernel);
        free(ptx);
        return NULL;
    }
    return ptx;
}

int reference_load(const exercise *ex, const int *knobs, const grade_opts *o, compiled *c,
                   const char **kernel, char *note, size_t len)
{
    static char entry[128];
    char have[256], want[256];
    memset(c, 0, sizeof *c);
    note[0] = 0;
    char *ptx = reference_read_ptx(ex, o, have, sizeof have, entry, sizeof entry, c->error,
                                   sizeof c->error);
    if (!ptx) {
        c->missing = 1;
        return -1;
    }
    knob_list_text(ex, knobs, want, sizeof want);
    if (strcmp(have, want) != 0) {
        free(ptx);
        *kernel = ex->kernel;
        snprintf(note, len, "this student copy of the course carries the reference "
                 "solution compiled only at the default knobs (%s), not at %s, so the "
                 "baseline was timed in its place", have, want);
        return 1;
    }
    c->ok = 1;
    c->ptx = ptx;
    c->ptx_size = strlen(ptx);
    snprintf(c->target, sizeof c->target, "compute_%d", reference_oldest_cc(ex) % 1000);
    *kernel = entry;
    return 0;
}
