/* submission.h: one student's hand-in, as `grader class` takes it: which
 * exercise files it holds, which entries were refused and why, and what was
 * ignored.
 *
 * The rules, the same for folders and archives:
 *   - an entry whose name is absolute, holds "..", or a backslash is
 *     refused: it would land outside the student's folder;
 *   - links (symbolic or hard), devices, FIFOs and other special entries are
 *     refused, whatever their name: they can point anywhere;
 *   - a regular file is a candidate when its name is an exercise file of the
 *     lessons graded (lesson3/matmul.cu), directly or inside wrapping
 *     folders at any depth (repo-main/exercises/lesson3/matmul.cu), and is
 *     at most SUB_MAX_FILE bytes. The folder that holds the most exercise
 *     files is the submission's root: an exercise with one candidate takes
 *     it; one with several takes the copy under the root when there is one
 *     root and one copy there, else none of them (which did the student
 *     mean?) and says so;
 *   - entries under build/, .venv/, node_modules/, .git/ and the like are
 *     ignored without a look (and do not count toward archive.c's caps);
 *   - archives inside the submission are read (archive.c), their entries
 *     named "<archive>/<name>";
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
#define SUB_MAX_CANDS 128      /* exercise files found, all copies */
#define SUB_MAX_HELD (64 << 20) /* bytes of them held in memory */

typedef struct sub_cand {
    int ex;                    /* which exercise */
    char *data;                /* NULL: not (yet) read */
    size_t len;
    char *name;                /* the entry's checked name */
    size_t root;               /* bytes of name before the exercise's own path */
} sub_cand;

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
    sub_cand cand[SUB_MAX_CANDS];   /* while reading */
    int ncand;
    size_t held;
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

/* Which of ex[0..nex) a checked name is (exactly, or inside wrapping
 * folders), or -1. */
int entry_exercise(const char *norm, const exercise *const *ex, int nex);

/* Is this checked name in (or, for a folder, itself) a folder that is
 * never part of an answer: build/, .venv/, node_modules/, .git/, ...? */
int entry_ignored_folder(const char *norm, int is_dir);

/* A name as it may be shown: kept as given where it is UTF-8, control
 * characters and bytes that are not UTF-8 as '?', cut (at a character) to fit. */
void printable_name(const char *name, char *out, size_t len);

#endif
