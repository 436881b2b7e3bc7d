/* report.h: what the grader prints (a table and explanations for people) and
 * writes (JSON, one record per exercise, for instructors and tools).
 *
 * Error rule (report/): printing never fails; a file that cannot be written
 * returns -1 with errno set, and the command says which file and why. A
 * report that cannot be written never changes a verdict. */
#ifndef GRADER_REPORT_H
#define GRADER_REPORT_H

#include <stdio.h>
#include "grade.h"

typedef struct graded {
    const exercise *ex;
    result r;
} graded;

/* Colour only on a terminal, and never when NO_COLOR is set. */
int want_color(FILE *f);

/* How wide the report may be on f: the terminal's width, else $COLUMNS,
 * else 100. */
int report_width(FILE *f);

/* One line: the GPU, its copy bandwidth and the seed. */
void print_run_header(FILE *f, const graded *g, int n, const char *mode);
/* Instead, without a GPU: what was checked, and `why` there is no GPU (the
 * probe's message; may be NULL). */
void print_no_gpu_header(FILE *f, const char *why, const char *mode);
void print_table(FILE *f, const graded *g, int n, int color);
/* For each exercise: what happened, why, and what to try. */
void print_explanations(FILE *f, const graded *g, int n, int color, const char *root);
/* The closing line: N passed, N failed; without a GPU, N checked, N failed
 * a check, and what CHECKED does not mean. */
void print_summary(FILE *f, const graded *g, int n, int color);

/* `text` wrapped to the report's text width, each line after `indent`. */
void print_paragraph(FILE *f, const char *text, const char *indent);

/* The table's cells of one record (what print_table shows of it), for
 * the tests: exactly REPORT_COLS cells of REPORT_CELL bytes, in the
 * table's order (exercise, result, ...), "-" where a column has nothing. */
#define REPORT_COLS 14
#define REPORT_CELL 32
void report_row_cells(const graded *x, char c[REPORT_COLS][REPORT_CELL]);

/* A short human size: "0 B", "12 KB". */
void human_bytes(char *buf, size_t len, double bytes);

/* Write the JSON report; 0 on success, else -1 with errno set. */
int write_json_report(const char *path, const graded *g, int n, const char *mode);
/* JSON string escaping, exposed for the tests. */
void json_escape(FILE *f, const char *s);

#endif
