/* class_summary.c: what the instructor reads first (summary.md: pass rate
 * per exercise and the commonest reason for failing it, so they see what to
 * teach again, and the submissions to look at) and the same for tools
 * (class.json). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "class.h"

typedef struct tally {
    int passed, judged, checked, failed;
    const char *top;           /* the commonest failure reason */
    int top_count;
} tally;

static void count(const class_run *run, int i, tally *t)
{
    memset(t, 0, sizeof *t);
    for (int s = 0; s < run->nst; s++) {
        const class_cell *c = &run->st[s].cell[i];
        if (!class_graded(&run->st[s]))
            continue;
        if (outcome_holds_without_gpu(c->outcome) || c->outcome == OUT_NO_GPU)
            t->checked++;
        else if (c->outcome != OUT_UNSUPPORTED)
            t->judged++;
        t->passed += outcome_is_pass(c->outcome);
        if (!class_counts_as_failure(c->outcome))
            continue;
        t->failed++;
        /* The first student with a reason counts it for everyone who shares it. */
        int seen = 0, same = 0;
        for (int p = 0; p < s && !seen; p++)
            seen = class_graded(&run->st[p]) && class_counts_as_failure(run->st[p].cell[i].outcome) &&
                   !strcmp(run->st[p].cell[i].reason, c->reason);
        if (seen)
            continue;
        for (int q = s; q < run->nst; q++)
            same += class_graded(&run->st[q]) && class_counts_as_failure(run->st[q].cell[i].outcome) &&
                    !strcmp(run->st[q].cell[i].reason, c->reason);
        if (same > t->top_count) {
            t->top_count = same;
            t->top = c->reason;
        }
    }
}

/* The summary's table, as markdown (md) or plain text for the terminal. */
static void table(FILE *f, const class_run *run, int md)
{
    if (md)
        fprintf(f, "| exercise | passed | pass rate | most common reason for failing |\n"
                   "| --- | ---: | ---: | --- |\n");
    else
        fprintf(f, "%-28s %9s %6s  %s\n", "exercise", "passed", "rate",
                "most common reason for failing");
    for (int i = 0; i < run->nex; i++) {
        tally t;
        count(run, i, &t);
        char id[96], passed[32], rate[16] = "n/a", why[256] = "-";
        snprintf(id, sizeof id, "lesson%d/%s", run->ex[i]->lesson, run->ex[i]->name);
        snprintf(passed, sizeof passed, "%d of %d", t.passed, t.judged);
        if (!run->gpu[0])   /* nothing could pass: only compiled */
            snprintf(passed, sizeof passed, "-");
        else if (t.judged)
            snprintf(rate, sizeof rate, "%.0f%%", 100.0 * t.passed / t.judged);
        if (t.top)
            snprintf(why, sizeof why, "%s (%d of %d)", t.top, t.top_count, t.failed);
        else if (t.checked && !t.failed)
            snprintf(why, sizeof why, "none; %d compiled and checked without a GPU", t.checked);
        if (md)
            fprintf(f, "| %s | %s | %s | %s |\n", id, passed, rate, why);
        else
            fprintf(f, "%-28s %9s %6s  %s\n", id, passed, rate, why);
    }
}

/* A name for the terminal (md = 0) or in a Markdown code span. */
static void name_out(FILE *f, const char *name, int md)
{
    if (md)
        md_code(f, name, 0);
    else
        fputs(name, f);
}

/* Text that may quote a name (an error, a reason): entities in Markdown,
 * so that no name is read as HTML or emphasis there. */
static void text_out(FILE *f, const char *s, int md)
{
    if (!md) {
        fputs(s, f);
        return;
    }
    for (; *s; s++)
        if (strchr("*[]`\\", *s))
            fprintf(f, "&#%d;", *s);
        else
            html_text(f, (char[]){*s, 0});
}

static int worth_a_look(const class_student *st)
{
    return !class_graded(st) || !st->nfound || st->nrefused || st->error[0] || st->budget_hit;
}

static void look_at_one(FILE *f, const class_run *run, const class_student *st, int md)
{
    fputs("- ", f);
    name_out(f, st->name, md);
    if (strcmp(st->name, st->entry)) {
        fputs(" (", f);
        name_out(f, st->entry, md);
        fputs(")", f);
    }
    fputs(":", f);
    if (!class_graded(st)) {
        fputc(' ', f);
        text_out(f, st->why_not, md);
        fputs(".\n", f);
        return;
    }
    if (!st->nfound) {
        fprintf(f, " no exercise file was found in it (looked for lessonN/NAME.cu at any "
                "depth)");
        for (int i = 0; i < st->nignored && i < 2; i++) {
            fputs(i ? ", " : "; it holds ", f);
            name_out(f, st->ignored[i], md);
        }
        fprintf(f, "%s.", st->nignored > 2 ? ", ..." : "");
    }
    if (st->error[0]) {
        fputs(" could not be read whole: ", f);
        text_out(f, st->error, md);
        fputc('.', f);
    }
    if (st->nrefused) {
        fprintf(f, " %d entr%s refused:", st->nrefused, st->nrefused > 1 ? "ies" : "y");
        for (int i = 0; i < st->nrefused && i < 4; i++) {
            fputs(i ? "; " : " ", f);
            name_out(f, st->refused[i].entry, md);
            fputs(" (", f);
            text_out(f, st->refused[i].why, md);
            fputc(')', f);
        }
        fprintf(f, "%s.", st->nrefused > 4 ? "; ..." : "");
    }
    if (st->budget_hit)
        fprintf(f, " the time budget (%.0f s) ran out with %d exercise%s left.",
                run->budget_s, st->budget_hit, st->budget_hit > 1 ? "s" : "");
    fputs(" See ", f);
    char see[CLASS_NAME + 32];
    snprintf(see, sizeof see, "students/%s/report.txt", st->name);
    name_out(f, see, md);
    fputs(".\n", f);
}

static void look_at(FILE *f, const class_run *run, int md)
{
    int any = 0;
    for (int s = 0; s < run->nst; s++) {
        if (!worth_a_look(&run->st[s]))
            continue;
        if (!any++)
            fprintf(f, "\n%submissions to look at\n\n", md ? "## S" : "S");
        look_at_one(f, run, &run->st[s], md);
    }
}

/* The GPU models the class was graded on, when more than one. */
static void gpu_models(FILE *f, const class_run *run)
{
    int models = 0;
    for (int s = 0; s < run->nst; s++) {
        const char *g = run->st[s].gpu;
        int seen = !g[0];
        for (int p = 0; p < s && !seen; p++)
            seen = !strcmp(run->st[p].gpu, g);
        models += !seen;
    }
    if (models < 2)
        return;
    fprintf(f, "\nGraded on %d different GPU models:", models);
    for (int s = 0, k = 0; s < run->nst; s++) {
        const char *g = run->st[s].gpu;
        int seen = !g[0];
        for (int p = 0; p < s && !seen; p++)
            seen = !strcmp(run->st[p].gpu, g);
        if (!seen)
            fprintf(f, "%s %s", k++ ? "," : "", g);
    }
    fprintf(f, ". Each speedup is over the baseline timed on the same GPU in the same run, "
            "so verdicts compare; times in milliseconds do not (gradebook.csv's gpu column "
            "says which GPU graded whom).\n");
}

int class_write_summary(const class_run *run, FILE *also)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.md", run->out);
    FILE *f = out_open(path);
    if (!f)
        return -1;
    int cached = 0, graded = 0;
    for (int s = 0; s < run->nst; s++) {
        cached += run->st[s].cached;
        graded += class_graded(&run->st[s]);
    }
    fprintf(f, "# Class summary\n\n");
    fprintf(f, "%d student%s, graded %s%s, seed %llu (replay one with make check SEED=%llu), "
            "%s UTC.\n", graded, graded == 1 ? "" : "s", run->gpu[0] ? "on " : "without a GPU",
            run->gpu, run->g.seed, run->g.seed, run->date);
    if (graded < run->nst)
        fprintf(f, "%d entr%s of the submissions folder not graded (listed below with why).\n",
                run->nst - graded, run->nst - graded == 1 ? "y" : "ies");
    fprintf(f, "%d graded in this run; %d unchanged since their last grade and not graded "
            "again. Time budget %.0f s per student, %.0f s per exercise.\n",
            graded - cached, cached, run->budget_s, run->timeout_s);
    gpu_models(f, run);
    if (!run->gpu[0])
        fprintf(f, "\nNo GPU: nothing was timed. Kernels were compiled, their mechanism "
                "checks read from the compiler, and run on the grader's PTX simulator for "
                "correctness (CORRECT, WRONG, RACE, HANG, CRASH as make check says them "
                "without a GPU; CHECKED where the simulator could not run one); speed and "
                "pass rates need an NVIDIA GPU.\n");
    fprintf(f, "\n## Per exercise\n\n");
    table(f, run, 1);
    look_at(f, run, 1);
    fprintf(f, "\n## Files\n\n- `gradebook.csv`: a row per entry of the submissions folder\n"
            "- `junit.xml`: a test suite per entry\n"
            "- `students/<name>/`: report.txt (as the student sees it), report.json, "
            "junit.xml, submission.json\n- `leaderboards/`: per exercise, .md and .html\n"
            "- `class.json`: all of this for tools\n");
    if (out_commit(f, path) != 0)
        return -1;
    if (also) {
        fprintf(also, "\n");
        table(also, run, 0);
        look_at(also, run, 0);
    }
    return 0;
}

static void student_json(FILE *f, const class_run *run, const class_student *st)
{
    fputs("\n    {\"name\": ", f);
    json_escape(f, st->name);
    fputs(", \"entry\": ", f);
    json_escape(f, st->entry);
    fputs(", \"kind\": ", f);
    json_escape(f, st->kind);
    fprintf(f, ", \"graded\": %s, \"not_graded_why\": ", class_graded(st) ? "true" : "false");
    if (class_graded(st))
        fputs("null", f);
    else
        json_escape(f, st->why_not);
    fprintf(f, ", \"exercise_files_found\": %d, \"gpu\": ", st->nfound);
    json_escape(f, st->gpu);
    fprintf(f, ", \"gpu_device\": %d", st->gpu_index);
    fputs(", \"content_hash\": ", f);
    json_escape(f, st->key);
    fprintf(f, ", \"graded_this_run\": %s, \"graded_at\": ", st->cached ? "false" : "true");
    json_escape(f, st->graded_at);
    fprintf(f, ", \"passed\": %d, \"out_of\": %d, \"refused_entries\": %d, "
            "\"ignored_entries\": %d, \"budget_ran_out\": %s, \"error\": ", st->passed,
            st->counted, st->nrefused, st->nignored, st->budget_hit ? "true" : "false");
    if (st->error[0])
        json_escape(f, st->error);
    else
        fputs("null", f);
    fputs(", \"results\": [", f);
    for (int i = 0; i < run->nex && class_graded(st); i++) {
        const class_cell *c = &st->cell[i];
        fprintf(f, "%s\n      {\"outcome\": ", i ? "," : "");
        json_escape(f, outcome_word(c->outcome));
        if (c->timed)
            fprintf(f, ", \"speedup\": %.4g, \"ms\": %.6g, \"baseline_ms\": %.6g, "
                    "\"solution_ms\": %.6g", c->speedup, c->ms[V_STUDENT],
                    c->ms[V_BASELINE], c->ms[V_SOLUTION]);
        fputs(", \"reason\": ", f);
        json_escape(f, class_counts_as_failure(c->outcome) ? c->reason : "");
        fprintf(f, ", \"seconds\": %.2f}", c->seconds);
    }
    fputs("]}", f);
}

int class_write_json(const class_run *run)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/class.json", run->out);
    FILE *f = out_open(path);
    if (!f)
        return -1;
    fprintf(f, "{\n  \"seed\": %llu,\n  \"gpu\": ", run->g.seed);
    json_escape(f, run->gpu);
    fprintf(f, ",\n  \"compute_capability\": %d,\n  \"date\": ", run->cc);
    json_escape(f, run->date);
    fprintf(f, ",\n  \"budget_s\": %g,\n  \"timeout_s\": %g,\n  \"course_hash\": ",
            run->budget_s, run->timeout_s);
    json_escape(f, run->course);
    fputs(",\n  \"exercises\": [", f);
    for (int i = 0; i < run->nex; i++) {
        char id[96];
        snprintf(id, sizeof id, "lesson%d/%s", run->ex[i]->lesson, run->ex[i]->name);
        fputs(i ? ", " : "", f);
        json_escape(f, id);
    }
    fputs("],\n  \"students\": [", f);
    for (int s = 0; s < run->nst; s++) {
        fputs(s ? "," : "", f);
        student_json(f, run, &run->st[s]);
    }
    fputs("\n  ]\n}\n", f);
    return out_commit(f, path);
}
