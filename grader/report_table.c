/* report_table.c: the report a person reads in a terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fileio.h"
#include "report.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define BOLD "\033[1m"
#define DIM "\033[2m"
#define RESET "\033[0m"

int want_color(FILE *f)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc)
        return 0;
    return isatty(fileno(f));
}

static const char *outcome_color(enum outcome o)
{
    if (outcome_is_pass(o))
        return GREEN;
    if (o == OUT_SLOW || o == OUT_MECHANISM || o == OUT_UNSUPPORTED)
        return YELLOW;
    return RED;
}

void human_bytes(char *buf, size_t len, double bytes)
{
    if (bytes < 1024)
        snprintf(buf, len, "%.0f B", bytes);
    else
        snprintf(buf, len, "%.1f KB", bytes / 1024);
}

void print_run_header(FILE *f, const graded *g, int n, const char *mode)
{
    for (int i = 0; i < n; i++) {
        const result *r = &g[i].r;
        if (!r->gpu[0])
            continue;
        fprintf(f, "GPU: %s (compute capability %d.%d)", r->gpu, r->cc / 10, r->cc % 10);
        if (r->copy_gbps > 0)
            fprintf(f, ", copy bandwidth %.0f GB/s", r->copy_gbps);
        fprintf(f, ". Grading %s. Seed %llu (replay with SEED=%llu).\n\n", mode, r->seed,
                r->seed);
        return;
    }
}

static void bar_text(char *buf, size_t len, const graded *x)
{
    const result *r = &x->r;
    if (!r->timed) {
        snprintf(buf, len, "-");
        return;
    }
    switch (x->ex->bar) {
    case BAR_SPEEDUP: snprintf(buf, len, ">=%.2fx", r->bar); break;
    case BAR_BANDWIDTH:
        snprintf(buf, len, ">=%.0f%%bw", r->copy_gbps > 0 ? 100 * r->bar / r->copy_gbps : 0);
        break;
    case BAR_MATCH_SOLUTION: snprintf(buf, len, "<=%.2fxref", r->bar); break;
    case BAR_NONE: snprintf(buf, len, "none"); break;
    }
}

void print_table(FILE *f, const graded *g, int n, int color)
{
    fprintf(f, "%s%-32s %-9s %9s %9s %9s %7s %9s %6s %5s %4s %8s %6s %4s%s\n",
            color ? BOLD : "", "exercise", "result", "baseline", "yours", "ref", "speedup",
            "bar", "GB/s", "%bw", "regs", "smem", "local", "occ", color ? RESET : "");
    for (int i = 0; i < n; i++) {
        const exercise *ex = g[i].ex;
        const result *r = &g[i].r;
        char id[64], base[16] = "-", you[16] = "-", ref[16] = "-", sp[16] = "-", bar[16],
             gb[16] = "-", pct[16] = "-", regs[16] = "-", smem[16] = "-", local[16] = "-",
             occ[16] = "-";
        snprintf(id, sizeof id, "lesson%d/%s%s", ex->lesson, ex->name, ex->demo ? " (demo)" : "");
        if (r->timed) {
            snprintf(base, sizeof base, "%.3fms", r->time[V_BASELINE].ms);
            snprintf(you, sizeof you, "%.3fms", r->time[V_STUDENT].ms);
            snprintf(ref, sizeof ref, "%.3fms", r->time[V_SOLUTION].ms);
            snprintf(sp, sizeof sp, "%.2fx", r->speedup);
            snprintf(gb, sizeof gb, "%.0f", r->time[V_STUDENT].gbps);
            if (r->copy_gbps > 0)
                snprintf(pct, sizeof pct, "%.0f%%", 100 * r->time[V_STUDENT].gbps / r->copy_gbps);
        }
        bar_text(bar, sizeof bar, &g[i]);
        const resources *s = &r->res[V_STUDENT];
        if (s->known) {
            snprintf(regs, sizeof regs, "%d", s->regs);
            human_bytes(smem, sizeof smem, s->smem_static + s->smem_dynamic);
            human_bytes(local, sizeof local, s->stack_bytes + s->spill_stores);
            if (s->occupancy_pct >= 0)
                snprintf(occ, sizeof occ, "%d%%", s->occupancy_pct);
        }
        fprintf(f, "%-32s %s%-9s%s %9s %9s %9s %7s %9s %6s %5s %4s %8s %6s %4s\n", id,
                color ? outcome_color(r->outcome) : "", outcome_word(r->outcome),
                color ? RESET : "", base, you, ref, sp, bar, gb, pct, regs, smem, local, occ);
    }
    fprintf(f, "\n");
}

static void print_indented(FILE *f, const char *text, const char *indent)
{
    const char *p = text;
    while (p && *p) {
        const char *eol = strchr(p, '\n');
        int len = eol ? (int)(eol - p) : (int)strlen(p);
        if (len > 0)
            fprintf(f, "%s%.*s\n", indent, len, p);
        p = eol ? eol + 1 : NULL;
    }
}

/* Wrap a paragraph at about 78 columns. */
static void print_wrapped(FILE *f, const char *text, const char *indent)
{
    const int width = 78;
    const char *p = text;
    while (*p) {
        int col = (int)strlen(indent), last_space = -1, i = 0;
        while (p[i] && p[i] != '\n' && col < width) {
            if (p[i] == ' ')
                last_space = i;
            i++, col++;
        }
        int cut = (p[i] && p[i] != '\n' && last_space > 0) ? last_space : i;
        fprintf(f, "%s%.*s\n", indent, cut, p);
        p += cut;
        while (*p == ' ' || *p == '\n')
            p++;
    }
}

/* Join the lines of each paragraph of a text file so print_wrapped can
 * re-flow it; blank lines, and lines that start a list item or are
 * indented, keep their break. */
static void unwrap(char *t)
{
    for (char *p = t; *p; p++)
        if (p[0] == '\n' && p > t && p[-1] != '\n' && p[1] && p[1] != '\n' && p[1] != '-' &&
            p[1] != ' ' && p[1] != '*')
            *p = ' ';
}

static const char *try_next(enum outcome o)
{
    switch (o) {
    case OUT_CRASH:
        return "Try: make check lesson%d SANITIZE=1 runs your kernel under compute-sanitizer, "
               "which names the line of the bad access.";
    case OUT_HANG:
        return "Try: look at every loop and every __syncthreads() in your kernel; "
               "make check lesson%d TIMEOUT=<seconds> changes the time limit.";
    case OUT_WRONG:
        return "Try: replay the same inputs with the SEED shown above (make check lesson%d "
               "SEED=...), and compare your index arithmetic with the baseline's.";
    default:
        return NULL;
    }
}

void print_explanations(FILE *f, const graded *g, int n, int color, const char *root)
{
    for (int i = 0; i < n; i++) {
        const exercise *ex = g[i].ex;
        const result *r = &g[i].r;
        fprintf(f, "%s%s lesson%d/%s%s: %s%s\n", color ? outcome_color(r->outcome) : "",
                outcome_is_pass(r->outcome) ? "ok" : "--", ex->lesson, ex->name,
                ex->demo ? " (demo)" : "", ex->title, color ? RESET : "");
        print_wrapped(f, r->message[0] ? r->message : "(no message)", "   ");
        if (r->detail[0])
            print_indented(f, r->detail, "     | ");
        if (r->failed_check[0]) {
            fprintf(f, "   Why it matters:\n");
            print_wrapped(f, r->failed_check, "     ");
        }
        const char *t = try_next(r->outcome);
        if (t && !ex->demo) {
            char line[512];
            snprintf(line, sizeof line, t, ex->lesson);
            print_wrapped(f, line, "   ");
        }
        if ((r->outcome == OUT_SLOW || r->outcome == OUT_MECHANISM) && !ex->demo) {
            char path[1024];
            snprintf(path, sizeof path, "%s/lessons/hints/lesson%d-%s.txt", root, ex->lesson,
                     ex->name);
            char *hint = read_text_file(path, NULL);
            if (hint) {
                fprintf(f, "   Hint (lessons/hints/lesson%d-%s.txt):\n", ex->lesson, ex->name);
                unwrap(hint);
                print_wrapped(f, hint, "     ");
                free(hint);
            }
        }
        if (!outcome_is_pass(r->outcome) && ex->explained_in)
            fprintf(f, "   Explained in %s.\n", ex->explained_in);
        fprintf(f, "\n");
    }
}

/* Per lesson, when more than one was graded: how far along the course. */
static void print_progress(FILE *f, const graded *g, int n)
{
    int first = g[0].ex->lesson, several = 0;
    for (int i = 0; i < n; i++)
        several |= g[i].ex->lesson != first;
    if (!several)
        return;
    fprintf(f, "Progress:");
    for (int i = 0; i < n;) {
        int lesson = g[i].ex->lesson, done = 0, total = 0;
        for (; i < n && g[i].ex->lesson == lesson; i++)
            if (!g[i].ex->demo) {
                total++;
                done += outcome_is_pass(g[i].r.outcome);
            }
        if (total)
            fprintf(f, "  lesson%d %d/%d", lesson, done, total);
    }
    fprintf(f, "\n");
}

void print_summary(FILE *f, const graded *g, int n, int color)
{
    int pass = 0, fail = 0, demos = 0, skipped = 0;
    print_progress(f, g, n);
    for (int i = 0; i < n; i++) {
        if (g[i].ex->demo)
            demos++;
        else if (g[i].r.outcome == OUT_UNSUPPORTED)
            skipped++;
        else if (outcome_is_pass(g[i].r.outcome))
            pass++;
        else
            fail++;
    }
    fprintf(f, "%s%d passed, %d failed%s", color ? (fail ? RED : GREEN) : "", pass, fail,
            color ? RESET : "");
    if (skipped)
        fprintf(f, ", %d skipped (this GPU is too old for them)", skipped);
    if (demos)
        fprintf(f, " (%d demo%s shown, not graded)", demos, demos > 1 ? "s" : "");
    fprintf(f, "\n");
}
