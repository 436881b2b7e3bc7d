/* class.h: `grader class`, grading a whole class in one command.
 *
 *   grader class SUBMISSIONS [lesson...] [--out DIR] [--seed N] [--budget S]
 *                [--timeout S] [--regrade]          (make grade-class SUBMISSIONS=dir)
 *
 * Each entry of SUBMISSIONS is one student: a folder laid out like
 * exercises/, or a .tar, .tar.gz/.tgz or .zip of one. Every student is
 * graded in this one process, so on one GPU, with one seed (recorded), each
 * exercise in its own child as `make check` does, within a time budget per
 * student. A student whose files, and whose grading conditions (seed, GPU,
 * course, budget), have not changed since the last run into the same
 * output folder is not graded again (content hash) unless --regrade.
 *
 * The output folder (class_outputs: see the files named below):
 *   gradebook.csv                 a row per student (class_gradebook.c)
 *   summary.md, class.json        pass rate and commonest failure per exercise (class_summary.c)
 *   leaderboards/<ex>.md, .html   correct kernels by time, baseline and reference marked (class_leaderboard.c)
 *   students/<name>/report.txt    the report as `make check` prints it, and
 *   students/<name>/report.json   its JSON (report_table.c, report_json.c)
 *   students/<name>/junit.xml     one test case per exercise (class_junit.c)
 *   students/<name>/submission.json  what was taken, refused and ignored
 *   .cache/                       what resuming needs (class_cache.c)
 *
 * Error rule (class/): a grading tool never loses a student. Whatever goes
 * wrong with one hand-in is recorded in that student's row, with the
 * reason, and the class goes on; an output file is written whole or not at
 * all, and one that cannot be written is said on stderr and makes the
 * status nonzero.
 */
#ifndef GRADER_CLASS_H
#define GRADER_CLASS_H

#include <stdio.h>
#include "report.h"
#include "submission.h"

/* How one exercise is graded: `make check`'s way (main.c passes it), or a
 * scripted stand-in in the tests. Must fill `r` in every case. */
typedef void (*class_grade_fn)(const exercise *ex, const int *knobs, const grade_opts *g,
                               double timeout_s, result *r);

typedef struct class_hooks {
    class_grade_fn grade;
    /* The GPU every student will be graded on: its name ("" for none) and
     * compute capability. NULL: ask CUDA, in a child process. */
    void (*probe)(char *name, size_t len, int *cc);
} class_hooks;

/* The command line above (argv[0] is "class"). 0 when every output was
 * written, 1 when one could not be, 2 for a usage error. */
int class_main(int argc, char **argv, const class_hooks *h);

#define CLASS_NAME 64

/* What the class-wide outputs keep of one exercise of one student. */
typedef struct class_cell {
    enum outcome outcome;
    int timed;
    double ms[N_VARIANTS];     /* this run's medians: baseline, student, reference */
    double speedup;            /* baseline time / student time, same run */
    double seconds;            /* wall time its grading took */
    char reason[160];          /* "SLOW: Correct, but not fast enough": what the summary counts */
} class_cell;

typedef struct class_student {
    char name[CLASS_NAME];     /* its folder under students/: the entry's name, made safe */
    char entry[SUB_NAME];      /* the entry of SUBMISSIONS, printable */
    char kind[16];             /* folder, tar, tar.gz, zip */
    char key[65];              /* the content hash that decides a re-grade */
    int cached;                /* 1: unchanged, cells from the last run */
    char graded_at[32];        /* when its cells were graded (UTC) */
    int passed, counted;
    double seconds;
    int budget_hit;            /* exercises left ungraded for the time budget */
    int nrefused, nignored;
    sub_note refused[4];       /* the first refused entries, for the summary */
    char error[256];           /* the submission could not be read (whole) */
    class_cell cell[SUB_MAX_EX];
} class_student;

typedef struct class_run {
    const char *submissions;
    const char *out;
    grade_opts g;              /* root, seed and limits; student_dir is set per student */
    double timeout_s;          /* one exercise */
    double budget_s;           /* one student */
    int regrade;
    const exercise *ex[SUB_MAX_EX];
    int nex;
    char gpu[128];             /* the GPU every student is graded on, or "" */
    int cc;
    char date[32];             /* when this run started (UTC) */
    char course[65];           /* hash of the grader and the course files it grades with */
    class_student *st;
    int nst;
    char not_graded[8][SUB_NAME + 96];   /* entries that are not submissions, and why */
    int n_not_graded;
} class_run;

/* ---- outputs (each writes one kind of file; 0, or -1 with errno) ---- */

/* students/<name>/: report.txt, report.json, junit.xml, submission.json. */
int class_write_student(const class_run *run, const class_student *st, const submission *sub,
                        const graded *g, int n);
int class_write_junit(const char *path, const class_run *run, const class_student *st,
                      const graded *g, int n);
int class_write_gradebook(const class_run *run);
int class_write_leaderboards(const class_run *run);
int class_write_summary(const class_run *run, FILE *also);
int class_write_json(const class_run *run);

/* ---- resuming (class_cache.c) ---- */

/* The cells graded for `st->key` by an earlier run, into st; 0 when found. */
int class_cache_load(const class_run *run, class_student *st);
int class_cache_save(const class_run *run, const class_student *st);

/* ---- text for each format (class_text.c) ---- */

void csv_field(FILE *f, const char *s);
void xml_text(FILE *f, const char *s);     /* also right for attribute values */
void html_text(FILE *f, const char *s);
/* Replace bytes that are not UTF-8, and control characters other than tab
 * and newline, with '?', in place. */
void utf8_scrub(char *s);
/* Replace every `from` in s (of size cap) with `to`. */
void replace_all(char *s, size_t cap, const char *from, const char *to);
/* A verdict's first clause with numbers as N, after its outcome word:
 * "WRONG: Your kernel left N of N output values unwritten (size N)". */
void reason_of(const result *r, char *out, size_t len);
/* Is this outcome a failure the summary counts (not a pass, not "no GPU")? */
int class_counts_as_failure(enum outcome o);

/* Write `path` whole or not at all: out_open gives a temporary file next to
 * it, out_commit renames it into place. */
FILE *out_open(const char *path);
int out_commit(FILE *f, const char *path);
int mkdir_p(const char *path);

#endif
