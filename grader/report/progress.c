/* progress.c: the progress file, and the course map made from it.
 *
 * The file is plain text, one record a line, tab-separated:
 *   lesson3/matmul <TAB> NVIDIA H100 80GB HBM3 <TAB> best <TAB> PASS <TAB> 1.52
 *   <TAB> 2026-11-23 14:02 <TAB> TILE=16
 * so a student can read it, and delete it to start over. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fileio.h"
#include "knobs.h"
#include "progress.h"

#define HEADER "# Your progress in the course: written by make check, shown by make progress.\n" \
               "# One line per exercise, GPU, and latest or best result. Delete this file to " \
               "start over.\n"

void progress_free(progress *p)
{
    free(p->e);
    memset(p, 0, sizeof *p);
}

static progress_entry *append(progress *p)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        progress_entry *e = realloc(p->e, (size_t)cap * sizeof *e);
        if (!e)
            return NULL;
        p->e = e;
        p->cap = cap;
    }
    progress_entry *e = &p->e[p->n++];
    memset(e, 0, sizeof *e);
    return e;
}

/* Split line at tabs into at most max fields; returns how many. */
static int split_tabs(char *line, char **field, int max)
{
    int n = 0;
    while (n < max) {
        field[n++] = line;
        char *tab = strchr(line, '\t');
        if (!tab)
            break;
        *tab = 0;
        line = tab + 1;
    }
    return n;
}

static void parse_line(progress *p, char *line)
{
    char *f[7];
    int nf = line[0] == '#' ? 0 : split_tabs(line, f, 7);
    if (nf < 6)
        return;
    int best = !strcmp(f[2], "best");
    if (!best && strcmp(f[2], "latest"))
        return;
    progress_entry *e = append(p);
    if (!e)
        return;
    snprintf(e->id, sizeof e->id, "%s", f[0]);
    snprintf(e->gpu, sizeof e->gpu, "%s", f[1]);
    e->best = best;
    snprintf(e->verdict, sizeof e->verdict, "%s", f[3]);
    e->speedup = strcmp(f[4], "-") ? atof(f[4]) : 0;
    snprintf(e->date, sizeof e->date, "%s", f[5]);
    if (nf == 7)
        snprintf(e->knobs, sizeof e->knobs, "%s", f[6]);
}

int progress_load(const char *path, progress *p)
{
    memset(p, 0, sizeof *p);
    char *text = read_text_file(path, NULL);
    if (!text)
        return errno == ENOENT ? 0 : -1;
    for (char *line = text; line && *line;) {
        char *eol = strchr(line, '\n');
        if (eol)
            *eol = 0;
        parse_line(p, line);
        line = eol ? eol + 1 : NULL;
    }
    free(text);
    return 0;
}

static progress_entry *find(progress *p, const char *id, const char *gpu, int best)
{
    for (int i = 0; i < p->n; i++)
        if (p->e[i].best == best && !strcmp(p->e[i].id, id) && !strcmp(p->e[i].gpu, gpu))
            return &p->e[i];
    return NULL;
}

/* How good a verdict is; 0: says nothing about the student's work. */
static int verdict_rank(const char *v)
{
    static const char *const order[] = {
        "COMPILE", "MISSING", "REFUSED", "CRASH", "HANG", "RACE", "RESOURCES", "WRONG",
        "TOO FAST", "MECHANISM", "SLOW", "CHECKED", "CORRECT", "PASS*", "PASS", NULL,
    };
    for (int i = 0; order[i]; i++)
        if (!strcmp(order[i], v))
            return i + 1;
    return 0;
}

static int better(const progress_entry *a, const progress_entry *b)
{
    int ra = verdict_rank(a->verdict), rb = verdict_rank(b->verdict);
    return ra != rb ? ra > rb : a->speedup > b->speedup;
}

int progress_update(progress *p, const graded *g, int n, time_t when)
{
    char date[20];
    struct tm tm;
    strftime(date, sizeof date, "%Y-%m-%d %H:%M", localtime_r(&when, &tm));
    int recorded = 0;
    for (int i = 0; i < n; i++) {
        const exercise *ex = g[i].ex;
        const result *r = &g[i].r;
        progress_entry now = {.best = 0};
        snprintf(now.verdict, sizeof now.verdict, "%s", outcome_word(r->outcome));
        if (ex->demo || verdict_rank(now.verdict) == 0 || (!r->no_gpu && !r->gpu[0]))
            continue;
        snprintf(now.id, sizeof now.id, "lesson%d/%s", ex->lesson, ex->name);
        snprintf(now.gpu, sizeof now.gpu, "%s", r->simulated ? PROGRESS_SIMULATED
                                                : r->no_gpu ? PROGRESS_NO_GPU : r->gpu);
        now.speedup = r->timed && r->speedup == r->speedup ? r->speedup : 0;
        snprintf(now.date, sizeof now.date, "%s", date);
        knob_text(ex, r->knobs, now.knobs, sizeof now.knobs);
        for (int best = 0; best < 2; best++) {
            progress_entry *e = find(p, now.id, now.gpu, best);
            if (e && best && !better(&now, e))
                continue;
            if (!e && !(e = append(p)))
                return recorded;
            *e = now;
            e->best = best;
        }
        recorded++;
    }
    return recorded;
}

int progress_save(const char *path, const progress *p)
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    fputs(HEADER, f);
    for (int i = 0; i < p->n; i++) {
        const progress_entry *e = &p->e[i];
        char sp[32] = "-";
        if (e->speedup > 0)
            snprintf(sp, sizeof sp, "%.2f", e->speedup);
        fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e->id, e->gpu, e->best ? "best" : "latest",
                e->verdict, sp, e->date, e->knobs);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        int saved = errno;
        unlink(tmp);
        errno = saved;
        return -1;
    }
    return 0;
}

/* ---- the course map ----------------------------------------------------- */

#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

/* CHECKED: tried only without a GPU, where every check held (and, CORRECT,
 * the simulator found it right); shown as tried, but "next" moves past it,
 * since without a GPU it is done. */
enum status { ST_NOT_TRIED, ST_TRIED, ST_CHECKED, ST_PASSED };

static int is_pass(const char *verdict)
{
    return !strcmp(verdict, "PASS") || !strcmp(verdict, "PASS*");
}

static enum status status_of(const progress *p, const char *id)
{
    enum status st = ST_NOT_TRIED;
    for (int i = 0; i < p->n; i++) {
        const progress_entry *e = &p->e[i];
        if (strcmp(e->id, id))
            continue;
        if (e->best && is_pass(e->verdict) && strcmp(e->gpu, PROGRESS_NO_GPU) &&
            strcmp(e->gpu, PROGRESS_SIMULATED))
            return ST_PASSED;
        if (e->best && (!strcmp(e->verdict, "CHECKED") || !strcmp(e->verdict, "CORRECT")))
            st = ST_CHECKED;
        else if (st == ST_NOT_TRIED)
            st = ST_TRIED;
    }
    return st;
}

/* "lessons/lesson3-shared-memory.md, ..." -> "shared memory". */
static void topic_of(const exercise *ex, char *buf, size_t len)
{
    buf[0] = 0;
    const char *s = ex->explained_in ? strstr(ex->explained_in, "lesson") : NULL;
    const char *dash = s ? strchr(s, '-') : NULL;
    const char *dot = dash ? strstr(dash, ".md") : NULL;
    if (!dot)
        return;
    snprintf(buf, len, "%.*s", (int)(dot - dash - 1), dash + 1);
    for (char *c = buf; *c; c++)
        if (*c == '-')
            *c = ' ';
}

static void id_of(const exercise *ex, char *buf, size_t len)
{
    snprintf(buf, len, "lesson%d/%s", ex->lesson, ex->name);
}

/* "PASS 1.52x": a verdict and, when timed, its speedup. */
static void result_text(const progress_entry *e, char *buf, size_t len)
{
    if (e->speedup > 0)
        snprintf(buf, len, "%s %.2fx", e->verdict, e->speedup);
    else
        snprintf(buf, len, "%s", e->verdict);
}

/* One GPU's results for one exercise, as a phrase: "PASS 1.52x on <GPU>,
 * <date>", or "best PASS 1.52x, latest SLOW 1.10x, on ...". */
static void gpu_text(const progress_entry *best, const progress_entry *latest, char *buf,
                     size_t len)
{
    char b[48], l[48];
    const progress_entry *last = latest ? latest : best;
    result_text(best, b, sizeof b);
    result_text(last, l, sizeof l);
    int n = strcmp(b, l) ? snprintf(buf, len, "best %s, latest %s,", b, l)
                         : snprintf(buf, len, "%s", b);
    if (n < 0 || (size_t)n >= len)
        return;
    if (!strcmp(best->gpu, PROGRESS_NO_GPU))
        n += snprintf(buf + n, len - (size_t)n, " without a GPU, %s", last->date);
    else if (!strcmp(best->gpu, PROGRESS_SIMULATED))
        n += snprintf(buf + n, len - (size_t)n, " on the PTX simulator (no GPU), %s",
                      last->date);
    else
        n += snprintf(buf + n, len - (size_t)n, " on %s, %s", best->gpu, last->date);
    /* Knobs only where the best result used other values than the defaults. */
    if ((size_t)n < len && strstr(best->knobs, "default"))
        snprintf(buf + n, len - (size_t)n, "; best with %s", best->knobs);
}

static int all_exercises(const exercise **out, int max)
{
    int n = 0;
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; e && *e && n < max; e++)
            if (!(*e)->demo)
                out[n++] = *e;
    return n;
}

/* How many exercises passed, were tried (checked ones among them), and
 * how many there are. */
static void counts(const progress *p, int *passed, int *tried, int *checked, int *total)
{
    static const exercise *all[256];
    *total = all_exercises(all, 256);
    *passed = *tried = *checked = 0;
    for (int i = 0; i < *total; i++) {
        char id[64];
        id_of(all[i], id, sizeof id);
        enum status st = status_of(p, id);
        *passed += st == ST_PASSED;
        *tried += st == ST_TRIED || st == ST_CHECKED;
        *checked += st == ST_CHECKED;
    }
}

static void print_exercise(FILE *f, const progress *p, const exercise *ex, int namew,
                           int color, int width)
{
    static const char *const word[] = {"not tried", "tried", "tried", "passed"};
    char id[64];
    id_of(ex, id, sizeof id);
    enum status st = status_of(p, id);
    const char *c = !color ? "" : st == ST_PASSED ? GREEN : st == ST_NOT_TRIED ? "" : YELLOW;
    fprintf(f, "  %s%-9s%s  %s", c, word[st], *c ? RESET : "", ex->name);
    int lines = 0;
    for (int i = 0; i < p->n; i++) {
        const progress_entry *e = &p->e[i];
        if (!e->best || strcmp(e->id, id))
            continue;
        char text[400];
        const progress_entry *latest = NULL;
        for (int j = 0; j < p->n; j++)
            if (!p->e[j].best && !strcmp(p->e[j].id, id) && !strcmp(p->e[j].gpu, e->gpu))
                latest = &p->e[j];
        gpu_text(e, latest, text, sizeof text);
        int indent = 2 + 9 + 2 + namew + 2;
        if (lines++)
            fprintf(f, "\n%*s", indent, "");
        else
            fprintf(f, "%*s", namew + 2 - (int)strlen(ex->name), "");
        int room = width - indent;
        fprintf(f, "%.*s", room > 20 ? room : 20, text);
    }
    fprintf(f, "\n");
}

/* The first exercise in course order neither passed nor CHECKED (or
 * CORRECT); else the first of those (to grade on a GPU); NULL when all
 * passed. */
static const exercise *next_exercise(const progress *p, int *checked)
{
    static const exercise *all[256];
    int n = all_exercises(all, 256);
    const exercise *first_checked = NULL;
    for (int i = 0; i < n; i++) {
        char id[64];
        id_of(all[i], id, sizeof id);
        enum status st = status_of(p, id);
        if (st == ST_CHECKED && !first_checked)
            first_checked = all[i];
        if (st == ST_NOT_TRIED || st == ST_TRIED) {
            *checked = 0;
            return all[i];
        }
    }
    *checked = first_checked != NULL;
    return first_checked;
}

void progress_print(FILE *f, const progress *p, const char *student_dir, int color, int width)
{
    int passed, tried, checked, total;
    counts(p, &passed, &tried, &checked, &total);
    fprintf(f, "%sCourse map: %d of %d exercises passed, %d tried, %d not tried.%s\n",
            color ? BOLD : "", passed, total, tried, total - passed - tried, color ? RESET : "");
    if (checked)
        fprintf(f, "%d of the tried ones CHECKED or CORRECT without a GPU (speed needs a "
                "GPU).\n", checked);
    fprintf(f, "\n");
    int namew = 8;
    static const exercise *all[256];
    int n = all_exercises(all, 256);
    for (int i = 0; i < n; i++)
        if ((int)strlen(all[i]->name) > namew)
            namew = (int)strlen(all[i]->name);
    for (int i = 0; i < n; i++) {
        if (i == 0 || all[i]->lesson != all[i - 1]->lesson) {
            char topic[64];
            topic_of(all[i], topic, sizeof topic);
            fprintf(f, "%slesson%d%s%s%s\n", color ? BOLD : "", all[i]->lesson,
                    topic[0] ? "  " : "", topic, color ? RESET : "");
        }
        print_exercise(f, p, all[i], namew, color, width);
    }
    fprintf(f, "\n");
    int only_checked;
    const exercise *next = next_exercise(p, &only_checked);
    if (!next) {
        fprintf(f, "Every exercise has passed. Well done.\n");
        return;
    }
    char id[64];
    id_of(next, id, sizeof id);
    if (only_checked)
        fprintf(f, "Every exercise is at least CHECKED or CORRECT without a GPU. Next, on a "
                "machine with an NVIDIA GPU:\n");
    fprintf(f, "Next: %s, %s.\n", id, next->title);
    if (next->explained_in)
        fprintf(f, "  Read %s.\n", next->explained_in);
    fprintf(f, "  Edit %s/%s, then: make check lesson%d ONLY=%s\n", student_dir, next->file,
            next->lesson, next->name);
    fprintf(f, "  (or make watch lesson%d, which grades it again on every save).\n",
            next->lesson);
}

void progress_line(FILE *f, const progress *p)
{
    int passed, tried, checked, total;
    counts(p, &passed, &tried, &checked, &total);
    char line[256], also[64] = "";
    if (checked)
        snprintf(also, sizeof also, " (%d CHECKED or CORRECT without a GPU)", checked);
    snprintf(line, sizeof line, "Course progress: %d of %d exercises passed, %d more tried%s; "
             "make progress shows the map.", passed, total, tried, also);
    print_paragraph(f, line, "");
}
