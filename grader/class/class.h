/* class.h: `grader class`, grading a whole class in one command.
 *
 *   grader class SUBMISSIONS [lesson...] [--out DIR] [--seed N] [--budget S]
 *                [--timeout S] [--regrade] [--gpus all|0,1,..]
 *                                                   (make grade-class SUBMISSIONS=dir)
 *
 * Each entry of SUBMISSIONS is one student: a folder laid out like
 * exercises/, or a tar or zip archive of one (archive.c); every entry gets
 * a row, graded or saying why not. Every student is graded in this one
 * process on one GPU, or with --gpus by one worker per GPU taking students
 * from a shared queue (class_workers.c), with one seed (recorded), each
 * exercise in its own child as `make check` does, within a time budget per
 * student. One run per output folder at a time (class_guard.c). A student whose files, and whose grading conditions (seed, GPU,
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
#include <sys/types.h>
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
    /* With probe NULL: what the probing child answers, "<count> <cc>
     * <name>" (the tests' stand-in for a GPU). NULL: CUDA's device count
     * and device 0. */
    void (*probe_answer)(char *line, size_t len);
    /* The grader whose bytes are part of every grade's key (a new grader is
     * a new grade). NULL: this process's own, /proc/self/exe. */
    const char *self;
} class_hooks;

/* The command line above (argv[0] is "class"). 0 when every output was
 * written, 1 when one could not be, 2 for a usage error. */
int class_main(int argc, char **argv, const class_hooks *h);

/* A student's identifier: the entry's name as given (UTF-8), without its
 * archive ending; unique in the class (class_id.c). At most 200 bytes so
 * that ".cache/<id>.state" is a legal file name. */
#define CLASS_NAME 224
#define CLASS_ENTRY 300

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
    char name[CLASS_NAME];     /* its identifier, and its folder under students/ (class_id.c) */
    char entry[CLASS_ENTRY];   /* the entry of SUBMISSIONS, printable (UTF-8 kept) */
    char why_not[256];         /* not graded: why (not a submission, a link, ...); "" when graded */
    int nfound;                /* exercise files taken from it */
    char ignored[2][SUB_NAME]; /* the first entries ignored, for "nothing found" */
    char gpu[128];             /* the GPU it was graded on ("" for none) */
    int state;                 /* 0 waiting, 1 taken by a worker, 2 finished */
    int picked;                /* --task: this task grades it */
    int gpu_index;             /* which of the host's GPUs, -1 for none */
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

#define CLASS_MAX_GPUS 64

/* The queue of rows and the counts progress shows, shared by the workers
 * (one per GPU) in memory they all map. */
typedef struct class_queue {
    int next;                  /* the next row to take */
    int done, failed;          /* rows finished; of them with a failure or not graded */
    int graded;                /* graded in this run (not unchanged) */
    long graded_ms;            /* their time, summed */
} class_queue;

typedef struct class_run {
    const char *submissions;
    const char *out;
    grade_opts g;              /* root, seed and limits; student_dir is set per student */
    double timeout_s;          /* one exercise */
    double budget_s;           /* one student */
    int regrade;
    const exercise *ex[SUB_MAX_EX];
    int nex;
    char gpu[128];             /* the GPU this process grades on, or "" */
    int cc;
    int gpu_index;             /* its device number on this host, -1 for none */
    int gpus[CLASS_MAX_GPUS];  /* --gpus: a worker per device; ngpus 0: this process alone */
    int ngpus;
    int worker;                /* in a worker process: 1 + its index in gpus[]; else 0 */
    class_queue *q;
    const char *gpus_spec;     /* --gpus as given, or NULL */
    /* Slurm (class_slurm.c): plan (--slurm), grade a task's share (--task),
     * or collect (--collect); the job's options. */
    int plan, collect, task, batch;
    int lock;                  /* the output folder's lock, or -1 */
    const char *task_list, *partition, *account, *time_limit, *gres;
    char **argv_lessons;       /* the lessons as given, for the batch script */
    int nlessons;
    char **planned;            /* --slurm: the entries to grade */
    int nplanned;
    int tty;                   /* progress as one line rewritten in place */
    double started;
    char date[32];             /* when this run started (UTC) */
    char course[65];           /* hash of the grader and the course files it grades with */
    class_student *st;         /* a row per entry of SUBMISSIONS, graded or not */
    int nst;
} class_run;

/* Was this row graded (now or by an earlier run)? */
static inline int class_graded(const class_student *st)
{
    return !st->why_not[0];
}

/* ---- identifiers (class_id.c) ---- */

/* Every row's name from its entry (entries[i] is row i's raw name, `dir[i]`
 * whether it is a folder): the entry as given, less its archive ending;
 * made safe for a file name only where it is not (control characters,
 * bytes that are not UTF-8, a leading '.' or '-', longer than 200 bytes),
 * then followed by "-" and 8 hex digits of the entry's hash; entries whose
 * names would still meet (ada/ and ada.zip; Ada and ada on a file system
 * that ignores case) keep their whole entry name, then the hash. */
void class_assign_ids(class_run *run, char *const *entries, const int *dir);

/* ---- outputs (each writes one kind of file; 0, or -1 with errno) ---- */

/* students/<name>/: report.txt, report.json, junit.xml, submission.json. */
int class_write_student(const class_run *run, const class_student *st, const submission *sub,
                        const graded *g, int n);
/* students/<name>/ of an entry that was not graded: report.txt and junit.xml say why. */
int class_write_not_graded(const class_run *run, const class_student *st);
/* junit.xml of the whole class: a test suite per entry. */
int class_write_class_junit(const class_run *run);
int class_write_junit(const char *path, const class_run *run, const class_student *st,
                      const graded *g, int n);
int class_write_gradebook(const class_run *run);
int class_write_leaderboards(const class_run *run);
int class_write_summary(const class_run *run, FILE *also);
int class_write_json(const class_run *run);

/* ---- one run at a time, nothing left behind (class_guard.c) ---- */

/* Lock the output folder (<out>/.lock, flock): exclusive for a run that
 * writes the class files, shared for a worker that writes only its
 * students'. The fd, held until the process ends; -1 with errno, having
 * said plainly which run holds it when that is why. */
int class_lock(const char *out, int shared);
/* The same, waiting for the lock when `wait` (a Slurm task waits while a
 * plain run or the merge holds the folder). */
int class_lock_as(const char *out, int shared, int wait);
/* Remove the staged files on SIGINT, SIGTERM and SIGHUP, then die of the
 * signal as usual. Call once, in the process that stages. */
void class_guard_signals(void);
/* The worker processes a signal to the run is passed on to (n = 0: none). */
void class_guard_children(const pid_t *pids, int n);
/* How many workers a signal would be passed on to now (for the tests: a
 * run's finished workers' pids may be anyone's by then). */
int class_guard_nchildren(void);
/* The files `sub` is about to be staged as, under stage/ under tmproot/. */
void class_guard_staged(const submission *sub, const char *stage, const char *tmproot);

/* ---- a worker per GPU (class_workers.c) ---- */

/* The GPU this process sees (CUDA device 0 of CUDA_VISIBLE_DEVICES) into
 * run->gpu and run->cc, asked in a child so no CUDA context is ever held
 * across a fork; *count gets how many it sees (NULL: not wanted). */
void class_probe_gpu(class_run *run, const class_hooks *h, int *count);
/* --gpus SPEC: "all" (every device the probe counts) or "0,2,3". 0, or -1
 * having said why. */
int class_parse_gpus(class_run *run, const class_hooks *h, const char *spec);
/* Run body() in one worker per run->gpus[k], each with CUDA_VISIBLE_DEVICES
 * set to its device before anything touches CUDA, all taking rows from
 * run->q; show progress meanwhile. 0 when every worker ended well. */
int class_workers_run(class_run *run, const class_hooks *h,
                      int (*body)(class_run *run, const class_hooks *h, void *arg), void *arg);

/* ---- a Slurm cluster (class_slurm.c) ---- */

/* --slurm: `entry` must be graded by a task. */
void class_slurm_plan(class_run *run, const char *entry);
/* --slurm: write <out>/slurm/tasks.txt (an entry per line, hex, so any
 * name survives), grade-class.sbatch (the job array) and collect.sbatch
 * (the merge, for a dependent job). 0, or -1 with errno. */
int class_slurm_write(class_run *run);
/* --task I: mark the rows of lines [I*batch, (I+1)*batch) of the task list
 * as picked. -1 having said why when the list cannot be read. */
int class_slurm_pick(class_run *run, char **entries);
/* A task starts, or ends well, grading `st`: the note the collector reads. */
void class_slurm_started(const class_run *run, const class_student *st);
void class_slurm_done(const class_run *run, const class_student *st);
/* --collect: a row without results; st->why_not says why, from the note. */
void class_slurm_missing(const class_run *run, class_student *st);

/* ---- progress (class_progress.c) ---- */

/* Row `st` is finished: count it (in run->q) and, in the process that owns
 * the run (not a worker), show it. */
void class_progress_row(class_run *run, const class_student *st);
/* Students done, failed, and the time left: one line rewritten in place on
 * a terminal, a plain line otherwise (only when something changed). */
void class_progress_show(class_run *run, int final);

/* ---- resuming (class_cache.c) ---- */

/* The cells graded for `st->key` by an earlier run, into st; 0 when found. */
int class_cache_load(const class_run *run, class_student *st);
int class_cache_save(const class_run *run, const class_student *st);

/* ---- text for each format (class_text.c) ---- */

void csv_field(FILE *f, const char *s);
void xml_text(FILE *f, const char *s);     /* also right for attribute values */
void html_text(FILE *f, const char *s);
/* A Markdown code span holding s exactly (a fence longer than any run of
 * backquotes in it); `in_table`: '|' escaped for a table cell. */
void md_code(FILE *f, const char *s, int in_table);
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
