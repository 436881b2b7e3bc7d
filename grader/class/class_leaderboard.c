/* class_leaderboard.c: per exercise, the correct kernels ranked by their
 * median time, with the baseline and the reference solution as marked rows,
 * in markdown and in HTML (self-contained: no script, no network).
 *
 * All students were timed on one GPU with one seed, but each in its own run:
 * the baseline's and the reference's rows show the median of their times
 * over those runs, and each student's speedup is over the baseline timed in
 * the same run, which cancels drift between runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "class.h"
#include "stats.h"

typedef struct lb_row {
    const char *who;
    double ms, speedup;
    const char *verdict;
    int rank;                  /* 0 for the marked rows */
} lb_row;

static int correct(enum outcome o)
{
    return o == OUT_PASS || o == OUT_PASS_UNTIMED || o == OUT_SLOW || o == OUT_MECHANISM;
}

static int by_time(const void *a, const void *b)
{
    const lb_row *x = a, *y = b;
    if (x->ms != y->ms)
        return x->ms < y->ms ? -1 : 1;
    return x->rank == 0 ? 1 : y->rank == 0 ? -1 : strcmp(x->who, y->who);
}

typedef struct board {
    lb_row *rows;
    int n, timed_runs;
    char **left_out;           /* "carol" */
    const char **left_word;    /* "WRONG" */
    int nleft;
} board;

/* Rows for exercise i, sorted; marked rows where their medians fall. */
static int build(const class_run *run, int i, board *b)
{
    memset(b, 0, sizeof *b);
    b->rows = calloc((size_t)run->nst + 2, sizeof *b->rows);
    b->left_out = calloc((size_t)run->nst + 1, sizeof *b->left_out);
    b->left_word = calloc((size_t)run->nst + 1, sizeof *b->left_word);
    double *base = calloc((size_t)run->nst + 1, sizeof *base);
    double *ref = calloc((size_t)run->nst + 1, sizeof *ref);
    double *ref_sp = calloc((size_t)run->nst + 1, sizeof *ref_sp);
    if (!b->rows || !b->left_out || !b->left_word || !base || !ref || !ref_sp) {
        free(base); free(ref); free(ref_sp);
        return -1;
    }
    for (int s = 0; s < run->nst; s++) {
        const class_cell *c = &run->st[s].cell[i];
        if (!class_graded(&run->st[s]))
            continue;
        if (c->timed && c->ms[V_BASELINE] > 0 && c->ms[V_SOLUTION] > 0) {
            base[b->timed_runs] = c->ms[V_BASELINE];
            ref[b->timed_runs] = c->ms[V_SOLUTION];
            ref_sp[b->timed_runs++] = c->ms[V_BASELINE] / c->ms[V_SOLUTION];
        }
        if (c->timed && correct(c->outcome) && c->ms[V_STUDENT] > 0)
            b->rows[b->n++] = (lb_row){.who = run->st[s].name, .ms = c->ms[V_STUDENT],
                                       .speedup = c->speedup,
                                       .verdict = outcome_word(c->outcome), .rank = 1};
        else {
            b->left_word[b->nleft] = outcome_word(c->outcome);
            b->left_out[b->nleft++] = strdup(run->st[s].name);
        }
    }
    if (b->timed_runs) {
        b->rows[b->n++] = (lb_row){.who = "reference solution", .ms = median(ref, b->timed_runs),
                                   .speedup = median(ref_sp, b->timed_runs), .verdict = ""};
        b->rows[b->n++] = (lb_row){.who = "baseline", .ms = median(base, b->timed_runs),
                                   .speedup = 1.0, .verdict = ""};
    }
    free(base); free(ref); free(ref_sp);
    qsort(b->rows, (size_t)b->n, sizeof *b->rows, by_time);
    for (int r = 0, rank = 0; r < b->n; r++)
        if (b->rows[r].rank)
            b->rows[r].rank = ++rank;
    return 0;
}

static void board_free(board *b)
{
    for (int i = 0; i < b->nleft; i++)
        free(b->left_out[i]);
    free(b->left_out);
    free(b->left_word);
    free(b->rows);
}

static void intro(FILE *f, const class_run *run, const board *b)
{
    fprintf(f, "Graded %s%s, seed %llu, %s UTC. ", run->gpu[0] ? "on " : "without a GPU",
            run->gpu, run->g.seed, run->date);
    if (!b->timed_runs) {
        fprintf(f, "No kernel was timed in this run%s, so there is nothing to rank.",
                run->gpu[0] ? "" : " (no GPU: kernels were only compiled)");
        return;
    }
    fprintf(f, "Correct kernels, ranked by median time. Each student's kernel was timed in "
            "its own run, interleaved with the baseline and the reference solution; their "
            "rows show the median over the %d runs. Speedup is over the baseline in the same "
            "run.", b->timed_runs);
}

static void write_md(FILE *f, const class_run *run, const exercise *ex, const board *b)
{
    fprintf(f, "# Leaderboard: lesson%d/%s\n\n%s\n\n", ex->lesson, ex->name, ex->title);
    intro(f, run, b);
    fprintf(f, "\n\n");
    if (b->n) {
        fprintf(f, "| rank | who | time (ms) | speedup | verdict |\n");
        fprintf(f, "| ---: | --- | ---: | ---: | --- |\n");
        for (int r = 0; r < b->n; r++) {
            const lb_row *x = &b->rows[r];
            if (x->rank) {
                fprintf(f, "| %d | ", x->rank);
                md_code(f, x->who, 1);
                fprintf(f, " | %.4f | %.2fx | %s |\n", x->ms, x->speedup, x->verdict);
            } else
                fprintf(f, "| - | **%s** | %.4f | %.2fx | |\n", x->who, x->ms, x->speedup);
        }
        fprintf(f, "\n");
    }
    if (b->nleft) {
        fprintf(f, "Not ranked (not correct, or not timed):");
        for (int i = 0; i < b->nleft; i++) {
            fprintf(f, "%s ", i ? "," : "");
            md_code(f, b->left_out[i], 0);
            fprintf(f, " (%s)", b->left_word[i]);
        }
        fprintf(f, ".\n");
    }
}

static void write_html(FILE *f, const class_run *run, const exercise *ex, const board *b)
{
    char id[96];
    snprintf(id, sizeof id, "lesson%d/%s", ex->lesson, ex->name);
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
          "Leaderboard: ", f);
    html_text(f, id);
    fputs("</title>\n<style>\nbody { font-family: sans-serif; max-width: 50em; margin: 2em auto; }\n"
          "table { border-collapse: collapse; }\nth, td { padding: 0.3em 0.8em; "
          "border-bottom: 1px solid #ccc; }\ntd.num { text-align: right; font-variant-numeric: "
          "tabular-nums; }\ntr.marked { background: #eef; font-style: italic; }\n</style>\n"
          "</head>\n<body>\n<h1>Leaderboard: ", f);
    html_text(f, id);
    fputs("</h1>\n<p>", f);
    html_text(f, ex->title);
    fputs("</p>\n<p>", f);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        intro(m, run, b);
        fclose(m);
        html_text(f, text);
        free(text);
    }
    fputs("</p>\n", f);
    if (b->n) {
        fputs("<table>\n<tr><th>rank</th><th>who</th><th>time (ms)</th><th>speedup</th>"
              "<th>verdict</th></tr>\n", f);
        for (int r = 0; r < b->n; r++) {
            const lb_row *x = &b->rows[r];
            fprintf(f, "<tr%s><td class=\"num\">", x->rank ? "" : " class=\"marked\"");
            if (x->rank)
                fprintf(f, "%d", x->rank);
            else
                fputs("&ndash;", f);
            fputs("</td><td>", f);
            html_text(f, x->who);
            fprintf(f, "</td><td class=\"num\">%.4f</td><td class=\"num\">%.2fx</td><td>",
                    x->ms, x->speedup);
            html_text(f, x->verdict);
            fputs("</td></tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    if (b->nleft) {
        fputs("<p>Not ranked (not correct, or not timed): ", f);
        for (int i = 0; i < b->nleft; i++) {
            if (i)
                fputs(", ", f);
            html_text(f, b->left_out[i]);
            fprintf(f, " (%s)", b->left_word[i]);
        }
        fputs(".</p>\n", f);
    }
    fputs("</body>\n</html>\n", f);
}

int class_write_leaderboards(const class_run *run)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/leaderboards", run->out);
    if (mkdir_p(dir) != 0)
        return -1;
    for (int i = 0; i < run->nex; i++) {
        const exercise *ex = run->ex[i];
        board b;
        if (build(run, i, &b) != 0)
            return -1;
        char path[4400];
        int rc = 0;
        snprintf(path, sizeof path, "%s/lesson%d-%s.md", dir, ex->lesson, ex->name);
        FILE *f = out_open(path);
        if (!f || (write_md(f, run, ex, &b), out_commit(f, path)) != 0)
            rc = -1;
        snprintf(path, sizeof path, "%s/lesson%d-%s.html", dir, ex->lesson, ex->name);
        f = rc ? NULL : out_open(path);
        if (!f || (write_html(f, run, ex, &b), out_commit(f, path)) != 0)
            rc = -1;
        board_free(&b);
        if (rc)
            return -1;
    }
    return 0;
}
