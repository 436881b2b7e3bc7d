/* progress.h: a student's progress through the course, kept between runs.
 *
 * Every `make check` of the student's own exercises/ records, per exercise
 * and per GPU, the latest and the best result (verdict, speedup, date,
 * knobs) in a text file git ignores (.progress at the course's top; make
 * clean leaves it). Runs without a GPU are kept under "no GPU" (or "PTX
 * simulator (no GPU)" when the simulator judged the kernel), and each GPU
 * under its own name, so results from different machines never mix.
 * `make progress` prints the course map from it. Grading the solutions or
 * another folder (STUDENT_DIR) records nothing: the Makefile passes
 * --progress only for the student's own files, and main.c checks again. */
#ifndef GRADER_PROGRESS_H
#define GRADER_PROGRESS_H

#include <stdio.h>
#include <time.h>
#include "report.h"

/* The key runs without a GPU are kept under; and those whose correctness
 * the PTX simulator judged (result.simulated), marked as such. */
#define PROGRESS_NO_GPU "no GPU"
#define PROGRESS_SIMULATED "PTX simulator (no GPU)"

/* One record: the latest or the best result of one exercise on one GPU. */
typedef struct progress_entry {
    char id[64];            /* "lesson3/matmul" */
    char gpu[128];          /* the GPU's name, or PROGRESS_NO_GPU */
    int best;               /* 0: latest, 1: best */
    char verdict[16];       /* outcome_word() */
    double speedup;         /* over the baseline; 0 when not timed */
    char date[20];          /* "2026-11-23 14:02", local time */
    char knobs[128];        /* knob_text() */
} progress_entry;

typedef struct progress {
    progress_entry *e;
    int n, cap;
} progress;

/* Read `path` into p (an absent file is empty progress). Lines that are not
 * records are skipped. Returns 0, or -1 when the file exists but cannot be
 * read (errno set). Free with progress_free. */
int progress_load(const char *path, progress *p);
void progress_free(progress *p);

/* Fold one grading run into p: for each graded exercise with a result that
 * says something about the student's work (not demos, not NO GPU, INTERNAL
 * or SKIPPED), replace its latest record and, when better, its best.
 * Better: a higher verdict (PASS, PASS*, CORRECT, CHECKED, SLOW, MECHANISM,
 * TOO FAST, WRONG, a refused launch, RACE, a hang or crash, a compile
 * error), then a higher
 * speedup. `when` dates the records. Returns how many exercises were
 * recorded. */
int progress_update(progress *p, const graded *g, int n, time_t when);

/* Write p to `path` atomically (a temporary file, then rename). 0 or -1. */
int progress_save(const char *path, const progress *p);

/* The course map: every lesson's exercises as passed, tried or not tried,
 * the best results per GPU, and the exercise to do next. `width` bounds the
 * lines; `color` as in report.h. */
void progress_print(FILE *f, const progress *p, const char *student_dir, int color,
                    int width);

/* One line for the end of a report: "Course progress: 3 of 17 exercises
 * passed ... (make progress shows the map)". */
void progress_line(FILE *f, const progress *p);

#endif
