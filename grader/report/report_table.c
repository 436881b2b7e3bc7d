/* report_table.c: the report a person reads in a terminal.
 *
 * It fits the terminal's width, or 100 columns where that is not known (a
 * file, a pipe): the table drops its least useful columns first (never the
 * exercise, its result or its speedup), and text is wrapped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "diagnose.h"
#include "fileio.h"
#include "knobs.h"
#include "nogpu_words.h"
#include "report.h"
#include "report_counts.h"
#include "stats.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define CYAN "\033[36m"
#define BOLD "\033[1m"
#define DIM "\033[2m"
#define RESET "\033[0m"

#define DEFAULT_WIDTH 100
#define TEXT_WIDTH 78     /* paragraphs: easier to read than the full width */

int want_color(FILE *f)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc)
        return 0;
    return isatty(fileno(f));
}

int report_width(FILE *f)
{
    struct winsize ws;
    if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col;
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    return w >= 40 && w <= 1000 ? w : DEFAULT_WIDTH;
}

static int text_width(FILE *f)
{
    int w = report_width(f) - 1;
    return w < TEXT_WIDTH ? w : TEXT_WIDTH;
}

static const char *outcome_color(enum outcome o)
{
    if (outcome_is_pass(o))
        return GREEN;
    if (outcome_holds_without_gpu(o))
        return CYAN;    /* CHECKED, CORRECT: neither a pass nor a failure */
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

/* Columns s takes on a terminal: colour codes take none. */
static int visible_len(const char *s)
{
    int n = 0;
    for (; *s; s++) {
        if (*s == '\033') {
            while (*s && *s != 'm')
                s++;
            if (!*s)
                break;
            continue;
        }
        n++;
    }
    return n;
}

/* Wrap a paragraph at `width` columns, each line starting with `indent`;
 * lines after the first start with `hang` instead when it is not NULL. */
static void print_wrapped_at(FILE *f, const char *text, const char *indent, const char *hang,
                             int width)
{
    const char *p = text;
    int first = 1;
    while (*p) {
        const char *in = first || !hang ? indent : hang;
        int col = visible_len(in), last_space = -1, i = 0;
        while (p[i] && p[i] != '\n' && (col < width || i == 0)) {
            if (p[i] == ' ')
                last_space = i;
            i++, col++;
        }
        int cut = (p[i] && p[i] != '\n' && last_space > 0) ? last_space : i;
        fprintf(f, "%s%.*s\n", in, cut, p);
        p += cut;
        while (*p == ' ' || *p == '\n')
            p++;
        first = 0;
    }
}

static void print_wrapped(FILE *f, const char *text, const char *indent)
{
    print_wrapped_at(f, text, indent, NULL, text_width(f));
}

void print_paragraph(FILE *f, const char *text, const char *indent)
{
    print_wrapped(f, text, indent);
}

void print_run_header(FILE *f, const graded *g, int n, const char *mode)
{
    for (int i = 0; i < n; i++) {
        const result *r = &g[i].r;
        if (!r->gpu[0])
            continue;
        char line[512];
        int at = snprintf(line, sizeof line, "GPU: %s (compute capability %d.%d)", r->gpu,
                          r->cc / 10, r->cc % 10);
        if (r->copy_gbps > 0)
            at += snprintf(line + at, sizeof line - (size_t)at, ", copy bandwidth %.0f GB/s",
                           r->copy_gbps);
        double ns = 0;
        for (int k = 0; k < n && !(ns > 0); k++)
            ns = g[k].r.latency_ns;
        if (ns > 0)
            at += snprintf(line + at, sizeof line - (size_t)at, ", memory latency %.0f ns", ns);
        snprintf(line + at, sizeof line - (size_t)at, ". Grading %s. Seed %llu (replay with "
                 "SEED=%llu).", mode, r->seed, r->seed);
        print_wrapped_at(f, line, "", NULL, report_width(f) - 1);
        fprintf(f, "\n");
        return;
    }
}

void print_no_gpu_header(FILE *f, const char *why, const char *mode)
{
    char line[1024];
    snprintf(line, sizeof line, NOGPU_HEADER_FMT, mode);
    print_wrapped(f, line, "");
    if (why && *why)
        print_wrapped(f, why, "  ");
    print_wrapped(f, NOGPU_CANNOT_TELL, "");
    fprintf(f, "\n");
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

/* The table's columns, in the order shown. `keep`: the narrower the
 * terminal, the more columns go, lowest `keep` first. */
enum col { C_ID, C_RESULT, C_BASE, C_YOURS, C_REF, C_SPEEDUP, C_BAR, C_GBS, C_PCT, C_FLIGHT,
           C_REGS, C_SMEM, C_LOCAL, C_OCC, N_COLS };

static const struct column {
    const char *head;
    int keep;
    int timing;        /* only shown when some row was timed */
    int left;          /* left-aligned */
} columns[N_COLS] = {
    [C_ID] = {.head = "exercise", .keep = 100, .left = 1},
    [C_RESULT] = {.head = "result", .keep = 99, .left = 1},
    [C_BASE] = {.head = "baseline", .keep = 50, .timing = 1},
    [C_YOURS] = {.head = "yours", .keep = 80, .timing = 1},
    [C_REF] = {.head = "ref", .keep = 49, .timing = 1},
    [C_SPEEDUP] = {.head = "speedup", .keep = 90, .timing = 1},
    [C_BAR] = {.head = "bar", .keep = 89, .timing = 1},
    [C_GBS] = {.head = "GB/s", .keep = 40, .timing = 1},
    [C_PCT] = {.head = "%bw", .keep = 60, .timing = 1},
    [C_FLIGHT] = {.head = "flight/SM", .keep = 38, .timing = 1},
    [C_REGS] = {.head = "regs", .keep = 70},
    [C_SMEM] = {.head = "smem", .keep = 69},
    [C_LOCAL] = {.head = "local", .keep = 68},
    [C_OCC] = {.head = "occ", .keep = 67},
};

/* Little's law for a timed, latency-bound exercise: the bytes in flight
 * per SM the student's kernel sustained and what the copy bandwidth needs.
 * 0 when the exercise is not latency-bound or a figure is missing. */
static int in_flight(const graded *x, double *have, double *need)
{
    const result *r = &x->r;
    if (!x->ex->latency_bound || !r->timed)
        return 0;
    *have = bytes_in_flight_per_sm(r->time[V_STUDENT].gbps, r->latency_ns, r->sm_count);
    *need = bytes_in_flight_per_sm(r->copy_gbps, r->latency_ns, r->sm_count);
    return *have > 0 && *need > 0;
}

/* "3.1/9.4 KB": sustained over needed. */
static void flight_cell(char *buf, size_t len, const graded *x)
{
    double have, need;
    if (in_flight(x, &have, &need))
        snprintf(buf, len, "%.1f/%.1f KB", have / 1024, need / 1024);
}

typedef char cell[REPORT_CELL];
_Static_assert(N_COLS == REPORT_COLS, "report.h counts the columns");

void report_row_cells(const graded *x, cell c[N_COLS])
{
    const exercise *ex = x->ex;
    const result *r = &x->r;
    for (int k = 0; k < N_COLS; k++)
        snprintf(c[k], sizeof c[k], "-");
    snprintf(c[C_ID], sizeof c[C_ID], "lesson%d/%s%s", ex->lesson, ex->name,
             ex->demo ? " (demo)" : "");
    snprintf(c[C_RESULT], sizeof c[C_RESULT], "%s", outcome_word(r->outcome));
    if (r->timed) {
        snprintf(c[C_BASE], sizeof c[C_BASE], "%.3fms", r->time[V_BASELINE].ms);
        snprintf(c[C_YOURS], sizeof c[C_YOURS], "%.3fms", r->time[V_STUDENT].ms);
        snprintf(c[C_REF], sizeof c[C_REF], "%.3fms", r->time[V_SOLUTION].ms);
        snprintf(c[C_SPEEDUP], sizeof c[C_SPEEDUP], "%.2fx", r->speedup);
        snprintf(c[C_GBS], sizeof c[C_GBS], "%.0f", r->time[V_STUDENT].gbps);
        if (r->copy_gbps > 0)
            snprintf(c[C_PCT], sizeof c[C_PCT], "%.0f%%",
                     100 * r->time[V_STUDENT].gbps / r->copy_gbps);
    }
    bar_text(c[C_BAR], sizeof c[C_BAR], x);
    flight_cell(c[C_FLIGHT], sizeof c[C_FLIGHT], x);
    const resources *s = &r->res[V_STUDENT];
    if (s->known) {
        snprintf(c[C_REGS], sizeof c[C_REGS], "%d", s->regs);
        human_bytes(c[C_SMEM], sizeof c[C_SMEM], s->smem_static + s->smem_dynamic);
        human_bytes(c[C_LOCAL], sizeof c[C_LOCAL], s->stack_bytes + s->spill_stores);
        if (s->launch_blocks_per_sm > 0 && s->launch_occupancy_pct >= 0)
            snprintf(c[C_OCC], sizeof c[C_OCC], "%d%%", s->launch_occupancy_pct);
    }
}

/* What the occ column means, when it could be misread: below the table,
 * for rows whose launch fills fewer warp slots than the resources allow
 * (one block per SM, lessons 1 and 5), which figure the column shows and
 * the other one. */
static void print_occ_legend(FILE *f, const graded *g, int n)
{
    char line[1024];
    int at = snprintf(line, sizeof line, "occ: the occupancy of the launch the grader makes "
                      "(its blocks spread over the SMs, at most as many per SM as the "
                      "resources allow), not the most the resources allow:");
    int any = 0;
    for (int i = 0; i < n && at < (int)sizeof line; i++) {
        const resources *s = &g[i].r.res[V_STUDENT];
        if (!s->known || s->launch_blocks_per_sm <= 0 ||
            s->launch_occupancy_pct >= s->occupancy_pct)
            continue;
        at += snprintf(line + at, sizeof line - (size_t)at, "%s lesson%d/%s launches %d "
                       "block%s per SM (%d%%); its resources allow %d (%d%%)", any ? ";" : "",
                       g[i].ex->lesson, g[i].ex->name, s->launch_blocks_per_sm,
                       s->launch_blocks_per_sm > 1 ? "s" : "", s->launch_occupancy_pct,
                       s->blocks_per_sm, s->occupancy_pct);
        any = 1;
    }
    if (any && at < (int)sizeof line) {
        snprintf(line + at, sizeof line - (size_t)at, ".");
        print_wrapped(f, line, "");
    }
}

/* The sizes the exercise is graded on, as its spec lists them: "sizes:
 * 1, 1000, 4097 checked; 33554432 timed (n, the length of x)". Nothing
 * for an exercise whose spec does not say what a size is. */
static void print_sizes(FILE *f, const exercise *ex, int color)
{
    if (!ex->size_means || !ex->check_sizes[0])
        return;
    char line[512];
    int at = snprintf(line, sizeof line, "sizes:");
    for (int k = 0; k < MAX_SIZES && ex->check_sizes[k] && at < (int)sizeof line; k++)
        at += snprintf(line + at, sizeof line - (size_t)at, "%s %zu", k ? "," : "",
                       ex->check_sizes[k]);
    if (at < (int)sizeof line)
        snprintf(line + at, sizeof line - (size_t)at, " checked; %zu timed (%s)", ex->time_size,
                 ex->size_means);
    fprintf(f, "%s", color ? DIM : "");
    print_wrapped_at(f, line, "  ", "    ", report_width(f) - 1);
    fprintf(f, "%s", color ? RESET : "");
}

/* Which columns fit in `width`, given each one's width. */
static void choose_columns(const int *w, int any_timed, int width, int shown[N_COLS])
{
    int total = 0;
    for (int k = 0; k < N_COLS; k++) {
        shown[k] = any_timed || !columns[k].timing;
        total += shown[k] ? w[k] + (k ? 1 : 0) : 0;
    }
    while (total > width) {
        int drop = -1;
        for (int k = 0; k < N_COLS; k++)
            if (shown[k] && columns[k].keep < 90 &&
                (drop < 0 || columns[k].keep < columns[drop].keep))
                drop = k;
        if (drop < 0)
            break;
        shown[drop] = 0;
        total -= w[drop] + 1;
    }
}

void print_table(FILE *f, const graded *g, int n, int color)
{
    cell *cells = calloc((size_t)(n > 0 ? n : 1), sizeof(cell[N_COLS]));
    if (!cells)
        return;
    int w[N_COLS], any_timed = 0, shown[N_COLS];
    for (int k = 0; k < N_COLS; k++)
        w[k] = (int)strlen(columns[k].head);
    for (int i = 0; i < n; i++) {
        report_row_cells(&g[i], &cells[i * N_COLS]);
        any_timed |= g[i].r.timed;
        for (int k = 0; k < N_COLS; k++) {
            int len = (int)strlen(cells[i * N_COLS + k]);
            w[k] = len > w[k] ? len : w[k];
        }
    }
    choose_columns(w, any_timed, report_width(f), shown);
    fprintf(f, "%s", color ? BOLD : "");
    for (int k = 0, first = 1; k < N_COLS; k++)
        if (shown[k]) {
            fprintf(f, "%s%*s", first ? "" : " ", columns[k].left ? -w[k] : w[k],
                    columns[k].head);
            first = 0;
        }
    fprintf(f, "%s\n", color ? RESET : "");
    for (int i = 0; i < n; i++) {
        const cell *c = &cells[i * N_COLS];
        for (int k = 0, first = 1; k < N_COLS; k++) {
            if (!shown[k])
                continue;
            const char *col = k == C_RESULT && color ? outcome_color(g[i].r.outcome) : "";
            fprintf(f, "%s%s%*s%s", first ? "" : " ", col, columns[k].left ? -w[k] : w[k],
                    c[k], *col ? RESET : "");
            first = 0;
        }
        fprintf(f, "\n");
        /* A demo's MECHANISM or SLOW is the point: say so where the row is read. */
        if (g[i].ex->demo)
            fprintf(f, "%s  demo: fails on purpose to show the lesson; not your file, not "
                    "counted%s\n", color ? DIM : "", color ? RESET : "");
        /* The knob values this row was graded with. */
        char knobs[256];
        knob_text(g[i].ex, g[i].r.knobs, knobs, sizeof knobs);
        if (knobs[0])
            fprintf(f, "%s  knobs: %.*s%s\n", color ? DIM : "", report_width(f) - 9, knobs,
                    color ? RESET : "");
        print_sizes(f, g[i].ex, color);
        print_mem_counts(f, &g[i].r.counts, report_width(f), color);
    }
    if (shown[C_OCC])
        print_occ_legend(f, g, n);
    fprintf(f, "\n");
    free(cells);
}

/* How much of `s` (n characters) fits in `room` columns, broken after a
 * word: the last space within reach, past the line's own indent `lead`; a
 * word longer than the room (a path, a mangled name) is cut where it must. */
static int fitting(const char *s, int n, int room, int lead)
{
    if (n <= room)
        return n;
    int cut = room;
    while (cut > lead && s[cut] != ' ')
        cut--;
    return cut > lead ? cut : room;
}

/* Detail lines (a compile log, mismatches) with a prefix, wrapped at word
 * boundaries to the width; a continued line keeps the line's own indent
 * and two spaces more, so it reads as the same line. */
static void print_indented(FILE *f, const char *text, const char *indent)
{
    int room = report_width(f) - 1 - (int)strlen(indent);
    if (room < 20)
        room = 20;
    const char *p = text;
    while (p && *p) {
        const char *eol = strchr(p, '\n');
        int len = eol ? (int)(eol - p) : (int)strlen(p), lead = 0;
        while (lead < len && p[lead] == ' ')
            lead++;
        int more = lead + 2 < room - 10 ? lead + 2 : 2;    /* a continuation's indent */
        for (int at = 0, first = 1; first || at < len; first = 0) {
            int n = fitting(p + at, len - at, first ? room : room - more, first ? lead : 0);
            fprintf(f, "%s%*s%.*s\n", indent, first ? 0 : more, "", n, p + at);
            at += n;
            while (at < len && p[at] == ' ')
                at++;
        }
        p = eol ? eol + 1 : NULL;
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

static const char *try_next(const result *r)
{
    if (r->outcome == OUT_WRONG && r->unwritten[0])
        return "Try: give every shared (or local) variable a value in this launch before any "
               "thread reads it: initialise it, then __syncthreads() before the first read "
               "by another thread; make check lesson%d names the next such read.";
    switch (r->outcome) {
    case OUT_CRASH:
        return "Try: make check lesson%d SANITIZE=1 runs your kernel under compute-sanitizer, "
               "which names the line of the bad access.";
    case OUT_HANG:
        return "Try: look at every loop and every __syncthreads() in your kernel; "
               "make check lesson%d TIMEOUT=<seconds> changes the time limit.";
    case OUT_RACE:
        return "Try: put the barrier or wait that orders the two lines the race names "
               "between them, then make check lesson%d again: the PTX simulator finds a "
               "race on every run, not only when the timing shows it.";
    case OUT_WRONG:
        return "Try: replay the same inputs with the SEED shown above (make check lesson%d "
               "SEED=...), and compare your index arithmetic with the baseline's.";
    default:
        return NULL;
    }
}

/* Every mechanism check of the exercise, holding or not, where the kernel
 * got far enough for them to matter. */
static void print_checks(FILE *f, const graded *x, int color)
{
    const result *r = &x->r;
    enum outcome o = r->outcome;
    if (!(outcome_is_pass(o) || o == OUT_SLOW || o == OUT_MECHANISM ||
          outcome_holds_without_gpu(o) || o == OUT_TOO_FAST) || r->checks[0].state == CS_NOT_EVALUATED)
        return;
    int occ = 0;
    for (int i = 0; i < MAX_CHECKS; i++)
        occ |= x->ex->checks[i].kind == CHECK_MIN_OCCUPANCY;
    fprintf(f, "   Mechanism checks%s:\n", !r->no_gpu ? "" : occ ? " (compiler output for "
            "sm_90, occupancy for an H100)" : " (compiler output for sm_90)");
    for (int i = 0; i < MAX_CHECKS && r->checks[i].state != CS_NOT_EVALUATED; i++) {
        const check_result *c = &r->checks[i];
        const char *word = c->state == CS_HOLDS ? "holds" : c->state == CS_FAILS ? "FAILS"
                                                                                : "n/a  ";
        const char *col = !color ? "" : c->state == CS_HOLDS ? GREEN
                                       : c->state == CS_FAILS ? RED : "";
        char indent[32];
        snprintf(indent, sizeof indent, "     %s%s%s  ", col, word, *col ? RESET : "");
        print_wrapped_at(f, c->what, indent, "            ", text_width(f));
    }
}

/* What the PTX simulator saw the kernel do with its data, when a launch was
 * watched (watch_facts.h): where the live input bytes came from, and what
 * shared memory and L2 prefetches did with them. */
static void print_watch(FILE *f, const watch_facts *w)
{
    if (!w->watched)
        return;
    static const char *const path[WP_N] = {
        [WP_LOAD] = "loads", [WP_LOAD_V16] = "16-byte loads", [WP_ASYNC] = "cp.async",
        [WP_BULK] = "bulk copies", [WP_CONST] = "ld.const",
    };
    double live = 0, dead = 0;
    for (int p = 0; p < WP_N; p++) {
        live += w->live_bytes[p];
        dead += w->dead_bytes[p];
    }
    char line[1024];
    int n = snprintf(line, sizeof line, "On the PTX simulator (%u of %u blocks watched), the "
                     "results depend on %.0f input bytes:", w->blocks_run, w->blocks_total, live);
    for (int p = 0, first = 1; p < WP_N && live > 0; p++)
        if (w->live_bytes[p] > 0 && n < (int)sizeof line) {
            n += snprintf(line + n, sizeof line - (size_t)n, "%s %.0f%% by %s", first ? "" : ",",
                          100 * w->live_bytes[p] / live, path[p]);
            first = 0;
        }
    if (dead > 0 && n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, "; %.0f bytes were brought and never "
                      "used", dead);
    if (w->staged_pct >= 0 && n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, "; %.0f%% came through shared memory",
                      w->staged_pct);
    if (w->wait_fetches >= 0 && n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, ", waiting there a median of %.0f "
                      "iterations", w->wait_fetches);
    if (w->smem_live_pct >= 0 && n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, "; %.0f%% of the shared memory carried "
                      "them", w->smem_live_pct);
    if (w->prefetch_served_pct >= 0 && n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, "; L2 prefetches served %.0f%% of the "
                      "loads, a median of %.0f fetches ahead", w->prefetch_served_pct,
                      w->prefetch_lead < 0 ? 0 : w->prefetch_lead);
    if (n < (int)sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, ".");
    print_wrapped(f, line, "   ");
}

/* What the kernel printed in its first correctness launch (kernel_output.h):
 * shown once, bounded, with what printing costs. */
static void print_kernel_output(FILE *f, const result *r)
{
    if (r->printed_bytes <= 0)
        return;
    long shown = 0;
    for (const char *p = r->printed; *p; p++)
        shown += *p == '\n';
    char line[512];
    snprintf(line, sizeof line, "Your kernel printed %ld line%s (%ld bytes) in its first "
             "correctness launch%s:", r->printed_lines, r->printed_lines == 1 ? "" : "s",
             r->printed_bytes, shown < r->printed_lines ? "; the first ones" : "");
    print_wrapped(f, line, "   ");
    print_indented(f, r->printed, "     > ");
    if (shown < r->printed_lines)
        fprintf(f, "     ... %ld more line%s not shown\n", r->printed_lines - shown,
                r->printed_lines - shown == 1 ? "" : "s");
    print_wrapped(f, "Later launches' output is not shown, but they print too: printf costs "
                  "time in every launch, the timed ones included. Remove it before you judge "
                  "the speed.", "   ");
}

static void print_times(FILE *f, const result *r)
{
    if (!r->timed)
        return;
    fprintf(f, "   Times: baseline %.3f ms, yours %.3f ms, reference %.3f ms (medians of %d "
            "rounds).\n", r->time[V_BASELINE].ms, r->time[V_STUDENT].ms,
            r->time[V_SOLUTION].ms, r->time[V_STUDENT].reps);
}

/* Little's law in words (lesson 1): what the kernel's bandwidth corresponds to
 * in flight at the idle latency (a lower bound: latency grows under load). */
static void print_in_flight(FILE *f, const graded *x)
{
    double have, need;
    if (!in_flight(x, &have, &need))
        return;
    const result *r = &x->r;
    char line[512];
    snprintf(line, sizeof line, "In flight: at the idle memory latency, your kernel's "
             "bandwidth corresponds to %.1f KB per SM in flight (%.0f GB/s x %.0f ns / %d "
             "SMs); the copy bandwidth to %.1f KB per SM, so yours is %.0f%% of that "
             "(Little's law, lesson 1). Under load the latency is longer, and the bytes "
             "really in flight more.", have / 1024, r->time[V_STUDENT].gbps, r->latency_ns,
             r->sm_count, need / 1024, 100 * have / need);
    print_wrapped_at(f, line, "   ", "     ", text_width(f));
}

/* The patterns recognised in the compiled kernel (diagnose.h), each naming
 * a cause: before a slow kernel's hint, and without a GPU, where the PTX is
 * all there is to go on, for a CHECKED kernel too. */
static void print_diagnoses(FILE *f, unsigned diags)
{
    const char *diag[8];
    for (int k = 0, nd = diagnose_hints(diags, diag, 8); k < nd; k++)
        print_wrapped(f, diag[k], "   ");
}

void print_explanations(FILE *f, const graded *g, int n, int color, const char *root)
{
    for (int i = 0; i < n; i++) {
        const exercise *ex = g[i].ex;
        const result *r = &g[i].r;
        const char *mark = ex->demo ? "::" : outcome_is_pass(r->outcome) ? "ok"
                         : outcome_holds_without_gpu(r->outcome) ? ".." : "--";
        char head[512];
        snprintf(head, sizeof head, "%s lesson%d/%s%s: %s", mark, ex->lesson, ex->name,
                 ex->demo ? " (demo, fails on purpose)" : "", ex->title);
        fprintf(f, "%s", color && !ex->demo ? outcome_color(r->outcome) : "");
        print_wrapped_at(f, head, "", "   ", report_width(f) - 1);
        fprintf(f, "%s", color && !ex->demo ? RESET : "");
        if (ex->demo) {
            char line[512];
            snprintf(line, sizeof line, "A demonstration, not your file: grader/demos/%s is "
                     "graded to show what the lesson explains, and fails on purpose. Nothing "
                     "to fix here; what \"your kernel\" says below is about the demo.",
                     ex->file);
            print_wrapped(f, line, "   ");
        }
        print_wrapped(f, r->message[0] ? r->message : "(no message)", "   ");
        if (r->sim_note[0])
            print_wrapped(f, r->sim_note, "   ");
        if (r->detail[0])
            print_indented(f, r->detail, "     | ");
        print_kernel_output(f, r);
        print_times(f, r);
        print_in_flight(f, &g[i]);
        print_checks(f, &g[i], color);
        print_watch(f, &r->watch);
        if (r->failed_check[0]) {
            fprintf(f, "   Why it matters:\n");
            print_wrapped(f, r->failed_check, "     ");
        }
        const char *t = r->outcome == OUT_HANG && diagnose_hang_try(r->diags)
                        ? diagnose_hang_try(r->diags) : try_next(r);
        if (t && !ex->demo) {
            char line[512];
            snprintf(line, sizeof line, t, ex->lesson);
            print_wrapped(f, line, "   ");
        }
        if (outcome_holds_without_gpu(r->outcome) && !ex->demo)
            print_diagnoses(f, r->diags);
        if ((r->outcome == OUT_SLOW || r->outcome == OUT_MECHANISM) && !ex->demo) {
            print_diagnoses(f, r->diags);
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
        if (!outcome_is_pass(r->outcome) && ex->explained_in) {
            char line[512];
            snprintf(line, sizeof line, "Explained in %s.", ex->explained_in);
            print_wrapped(f, line, "   ");
        }
        fprintf(f, "\n");
    }
}

/* Per lesson, when more than one was graded: how far along the course
 * (without a GPU: how many are CHECKED). */
static void print_progress(FILE *f, const graded *g, int n, int no_gpu)
{
    int first = g[0].ex->lesson, several = 0;
    for (int i = 0; i < n; i++)
        several |= g[i].ex->lesson != first;
    if (!several)
        return;
    const char *label = no_gpu ? "Checked:" : "Progress:";
    int width = report_width(f) - 1, col = (int)strlen(label);
    fprintf(f, "%s", label);
    for (int i = 0; i < n;) {
        int lesson = g[i].ex->lesson, done = 0, total = 0;
        for (; i < n && g[i].ex->lesson == lesson; i++)
            if (!g[i].ex->demo) {
                total++;
                done += outcome_is_pass(g[i].r.outcome) ||
                        outcome_holds_without_gpu(g[i].r.outcome);
            }
        if (!total)
            continue;
        char item[48];
        int len = snprintf(item, sizeof item, "  lesson%d %d/%d", lesson, done, total);
        if (col + len > width) {   /* wrap between lessons, never inside one */
            fprintf(f, "\n%*s", (int)strlen(label), "");
            col = (int)strlen(label);
        }
        fprintf(f, "%s", item);
        col += len;
    }
    fprintf(f, "\n");
}

void print_summary(FILE *f, const graded *g, int n, int color)
{
    int pass = 0, fail = 0, demos = 0, skipped = 0, checked = 0, correct = 0, no_gpu = 0;
    int sim = 0;
    for (int i = 0; i < n; i++) {
        no_gpu |= g[i].r.no_gpu;
        sim |= g[i].r.sim_on;
    }
    print_progress(f, g, n, no_gpu);
    for (int i = 0; i < n; i++) {
        if (g[i].ex->demo)
            demos++;
        else if (g[i].r.outcome == OUT_UNSUPPORTED)
            skipped++;
        else if (g[i].r.outcome == OUT_CHECKED)
            checked++;
        else if (g[i].r.outcome == OUT_CORRECT)
            correct++;
        else if (outcome_is_pass(g[i].r.outcome))
            pass++;
        else
            fail++;
    }
    const char *col = !color ? "" : fail ? RED : no_gpu ? CYAN : GREEN;
    if (no_gpu && sim)
        fprintf(f, "%sWithout a GPU: %d correct on the PTX simulator, %d checked, %d failed%s",
                col, correct, checked, fail, *col ? RESET : "");
    else if (no_gpu)
        fprintf(f, "%sWithout a GPU: %d checked, %d failed a check%s", col, checked, fail,
                *col ? RESET : "");
    else
        fprintf(f, "%s%d passed, %d failed%s", col, pass, fail, *col ? RESET : "");
    if (skipped)
        fprintf(f, ", %d skipped (this GPU is too old for them)", skipped);
    if (demos)
        fprintf(f, " (%d demo%s shown, not graded)", demos, demos > 1 ? "s" : "");
    fprintf(f, "\n");
    if (no_gpu && (checked || correct))
        print_wrapped(f, NOGPU_SUMMARY_CHECKED[sim], "");
    else if (no_gpu)
        print_wrapped(f, NOGPU_SUMMARY[sim], "");
}
