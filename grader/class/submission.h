/* submission.h: one student's hand-in, as `grader class` takes it: which
 * exercise files it holds, which entries were refused and why, and what was
 * ignored.
 *
 * The rules, the same for folders and archives:
 *   - an entry whose name is absolute, holds "..", or a backslash is
 *     refused: it would land outside the student's folder;
 *   - links (symbolic or hard), devices, FIFOs and other special entries are
 *     refused, whatever their name: they can point anywhere;
 *   - a regular file is taken when its name is an exercise file of the
 *     lessons graded (lesson3/matmul.cu), directly or inside one wrapping
 *     folder (exercises/lesson3/matmul.cu, alice/lesson3/matmul.cu), and is
 *     at most SUB_MAX_FILE bytes; two entries for one file are refused both;
 *   - everything else is ignored (and listed).
 * Taken files are held in memory until the whole submission has been read,
 * then written under a folder of the grader's own (submission_stage): the
 * paths written come from the course's specs, never from the archive. */
#ifndef GRADER_SUBMISSION_H
#define GRADER_SUBMISSION_H

#include <stddef.h>
#include "sha256.h"
#include "spec.h"

#define SUB_MAX_EX 64          /* exercises graded in one class run */
#define SUB_MAX_FILE (1 << 20) /* an exercise file is a few KB; 1 MB is not a kernel */
#define SUB_MAX_NOTES 12
#define SUB_NAME 160

typedef struct sub_note {
    char entry[SUB_NAME];      /* the entry's name, printable */
    char why[SUB_NAME + 96];
} sub_note;

typedef struct submission {
    char kind[16];             /* "folder", "tar", "tar.gz", "zip" */
    const exercise *const *ex; /* the exercises graded, and how many */
    int nex;
    char *data[SUB_MAX_EX];    /* each exercise file's content, or NULL */
    size_t len[SUB_MAX_EX];
    char from[SUB_MAX_EX][SUB_NAME];   /* the entry it came from */
    char missing_why[SUB_MAX_EX][SUB_NAME + 96]; /* an entry for it was refused: why */
    int copies[SUB_MAX_EX];
    sub_note refused[SUB_MAX_NOTES];
    int nrefused;              /* may exceed SUB_MAX_NOTES; the first ones are kept */
    char ignored[4][SUB_NAME];
    int nignored;
    char error[512];           /* the submission could not be read (to the end) */
} submission;

/* Read the submission at `path` (a folder or an archive) for the exercises
 * ex[0..nex). Always fills `s` (free with submission_free); returns -1 when
 * s->error is set. Nothing is written anywhere. */
int submission_read(const char *path, const exercise *const *ex, int nex, submission *s);
void submission_free(submission *s);

/* Write the taken files under `dir` (created; must not exist), at their
 * course names (dir/lesson3/matmul.cu). 0, or -1 with errno. */
int submission_stage(const submission *s, const char *dir);

/* Add everything that decides a grade to `h`: each file's name and bytes,
 * and the refusal notes. */
void submission_hash(const submission *s, sha256 *h);

/* The name rule alone, for the tests: 0 with `norm` set to the name without
 * "./" parts and empty parts, or -1 with `why` saying why it is refused. */
int entry_name_check(const char *name, char *norm, size_t len, const char **why);

/* Which of ex[0..nex) a checked name is (exactly, or inside one wrapping
 * folder), or -1. */
int entry_exercise(const char *norm, const exercise *const *ex, int nex);

/* A name as it may be shown: control bytes and non-ASCII as '?', cut to fit. */
void printable_name(const char *name, char *out, size_t len);

#endif
