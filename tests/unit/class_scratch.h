/* class_scratch.h: what the class tests of the run's driver and processes
 * share (test_class_slurm.c, test_class_guard.c, test_class_run.c): a
 * folder of the test's own under $TMPDIR, files written and read whole, and
 * a command's stdout and stderr caught in files. Static, so each test file
 * has its own copy; Check runs each test in a child (CK_FORK), so the
 * scratch folder is removed by the fixture, never shared. */
#ifndef TESTS_UNIT_CLASS_SCRATCH_H
#define TESTS_UNIT_CLASS_SCRATCH_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "class.h"
#include "fileio.h"
#include "suites.h"

static char scratch_dir[512];

/* A new folder under $TMPDIR: its path, until remove_scratch. */
static inline const char *scratch(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch_dir, sizeof scratch_dir, "%s/test-classb-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(scratch_dir));
    return scratch_dir;
}

static inline void remove_scratch(void)
{
    char cmd[1200];
    if (!scratch_dir[0])
        return;
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", scratch_dir,
             scratch_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", scratch_dir);
    scratch_dir[0] = 0;
}

/* "<scratch>/<rel>", in a buffer of the caller's. */
static inline char *in_scratch(char *buf, size_t len, const char *rel)
{
    snprintf(buf, len, "%s/%s", scratch_dir, rel);
    return buf;
}

/* Write `text` to path, making its folders. */
static inline void put_file(const char *path, const char *text)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    *slash = 0;
    ck_assert_int_eq(mkdir_p(dir), 0);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* The file's text (free it); the test fails when it cannot be read. */
static inline char *slurp_file(const char *path)
{
    char *s = read_text_file(path, NULL);
    ck_assert_msg(s != NULL, "cannot read %s", path);
    return s;
}

static inline int exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* stdout and stderr into files of the scratch folder, until uncapture. */
typedef struct capture {
    int out, err;
    char out_path[600], err_path[600];
} capture;

static inline void capture_start(capture *c, const char *name)
{
    fflush(stdout);
    fflush(stderr);
    snprintf(c->out_path, sizeof c->out_path, "%s/%s.out", scratch_dir, name);
    snprintf(c->err_path, sizeof c->err_path, "%s/%s.err", scratch_dir, name);
    c->out = dup(1);
    c->err = dup(2);
    int o = open(c->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(c->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert(o >= 0 && e >= 0);
    dup2(o, 1);
    dup2(e, 2);
    close(o);
    close(e);
}

/* Back to the test's own stdout and stderr; what was caught, in *out and
 * *err (free them; NULL: not wanted). */
static inline void capture_end(capture *c, char **out, char **err)
{
    fflush(stdout);
    fflush(stderr);
    dup2(c->out, 1);
    dup2(c->err, 2);
    close(c->out);
    close(c->err);
    if (out)
        *out = slurp_file(c->out_path);
    if (err)
        *err = slurp_file(c->err_path);
}

#define HAS(text, part) \
    ck_assert_msg(strstr((text), (part)) != NULL, "'%s' lacks '%s'", (text), (part))
#define LACKS(text, part) \
    ck_assert_msg(strstr((text), (part)) == NULL, "'%s' has '%s'", (text), (part))

#define STARTS(text, head) \
    ck_assert_msg(!strncmp((text), (head), strlen(head)), "'%s' does not start with '%s'", \
                  (text), (head))

#define ENDS(text, tail) \
    ck_assert_msg(strlen(text) >= strlen(tail) && \
                  !strcmp((text) + strlen(text) - strlen(tail), (tail)), \
                  "'%s' does not end with '%s'", (text), (tail))

#endif
