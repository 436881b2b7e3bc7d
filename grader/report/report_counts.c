/* report_counts.c: memory counts by line (mem_counts.h) in the report: a
 * few lines under an exercise's row for people, every counted instruction
 * in the JSON (report_counts.h). */
#include <stdio.h>
#include <string.h>
#include "report.h"
#include "report_counts.h"

#define DIM "\033[2m"
#define RESET "\033[0m"

/* What an instruction does, from its opcode: "load", "store", "atomic",
 * "async copy". */
static const char *kind_of(const char *op)
{
    if (!strncmp(op, "cp.async", 8))
        return "async copy";
    if (!strncmp(op, "ld", 2))
        return "load";
    if (!strncmp(op, "st", 2))
        return "store";
    return "atomic";
}

/* Rows of one line, space and kind, summed. */
typedef struct line_sum {
    unsigned line;
    int space;
    const char *kind;
    double requests, units, ideal;
} line_sum;

static int sum_by_line(const mem_counts *mc, line_sum *out)
{
    int n = 0;
    for (int i = 0; i < mc->n; i++) {
        const mem_count_row *r = &mc->row[i];
        const char *kind = kind_of(r->op);
        int k = 0;
        while (k < n && (out[k].line != r->line || out[k].space != r->space ||
                         out[k].kind != kind))
            k++;
        if (k == n)
            out[n++] = (line_sum){.line = r->line, .space = r->space, .kind = kind};
        out[k].requests += r->requests;
        out[k].units += r->units;
        out[k].ideal += r->ideal;
    }
    return n;
}

/* A line is shown when its sectors or wavefronts are at least 1.5 times
 * the ideal: a 2-way conflict, a stride of two floats; not the part
 * sector a misaligned row of a ragged size costs. */
#define REPORT_COUNT_WASTE 0.5

/* The units past the ideal: sectors fetched for nothing, wavefronts spent
 * on conflicts. */
static double waste(const line_sum *s)
{
    return s->units - s->ideal;
}

/* One line's figures: "line 12  global load   32.0 sectors/request (best
 * 4.0), 1024 requests"; a shared one says its ways first. */
static void say_line(char *buf, size_t len, const line_sum *s)
{
    double per = s->units / s->requests, best = s->ideal / s->requests;
    if (s->space == MS_GLOBAL)
        snprintf(buf, len, "line %-4u global %-6s %5.1f sectors/request (best %.1f), %.0f "
                 "requests", s->line, s->kind, per, best, s->requests);
    else
        snprintf(buf, len, "line %-4u shared %-6s %5.1f-way: %.1f wavefronts/request (best "
                 "%.1f), %.0f requests", s->line, s->kind, s->ideal > 0 ? s->units / s->ideal
                 : 0, per, best, s->requests);
}

void print_mem_counts(FILE *f, const mem_counts *mc, int width, int color)
{
    if (!mc->counted || !mc->n)
        return;
    static line_sum sums[MEM_COUNT_ROWS];
    int n = sum_by_line(mc, sums), shown = 0;
    char head[160];
    snprintf(head, sizeof head, "memory by line (PTX simulator, size %zu, %u of %u blocks):",
             mc->size, mc->blocks_run, mc->blocks_total);
    fprintf(f, "%s  %.*s%s\n", color ? DIM : "", width - 3, head, color ? RESET : "");
    /* the worst lines first: the most sectors or wavefronts past the ideal */
    for (; shown < REPORT_COUNT_LINES; shown++) {
        int worst = -1;
        for (int k = 0; k < n; k++)
            if (sums[k].requests > 0 && waste(&sums[k]) >= REPORT_COUNT_WASTE * sums[k].ideal &&
                (worst < 0 || waste(&sums[k]) > waste(&sums[worst])))
                worst = k;
        if (worst < 0)
            break;
        char line[256];
        say_line(line, sizeof line, &sums[worst]);
        fprintf(f, "%s    %.*s%s\n", color ? DIM : "", width - 5, line, color ? RESET : "");
        sums[worst].requests = 0;   /* shown */
    }
    if (!shown)
        fprintf(f, "%s    %.*s%s\n", color ? DIM : "", width - 5, "no line fetches 1.5x the "
                "sectors its bytes need, no 1.5-way bank conflict", color ? RESET : "");
}

void json_mem_counts(FILE *f, const mem_counts *mc)
{
    if (!mc->counted) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"size\": %zu, \"blocks_run\": %u, \"blocks_total\": %u, \"dropped\": %d, "
            "\"rows\": [", mc->size, mc->blocks_run, mc->blocks_total, mc->dropped);
    for (int i = 0; i < mc->n; i++) {
        const mem_count_row *r = &mc->row[i];
        int g = r->space == MS_GLOBAL;
        fprintf(f, "%s{\"line\": %u, \"op\": ", i ? ", " : "", r->line);
        json_escape(f, r->op);
        fprintf(f, ", \"space\": \"%s\", \"requests\": %.0f, \"%s\": %.0f, \"ideal\": %.0f}",
                g ? "global" : "shared", r->requests, g ? "sectors" : "wavefronts", r->units,
                r->ideal);
    }
    fputs("]}", f);
}
