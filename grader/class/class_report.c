/* class_report.c: one student's folder of results. The report is the one
 * `make check` prints and writes (report_table.c, report_json.c), behind a
 * few lines that say what was taken from the submission. Everything in it
 * comes from this student's own files and the course. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "class.h"

static void submission_lines(FILE *f, const class_run *run, const class_student *st,
                             const submission *sub)
{
    int found = 0;
    for (int i = 0; i < sub->nex; i++)
        found += sub->data[i] != NULL;
    fprintf(f, "Student %s: the %s %s, graded %s UTC.\n", st->name, st->kind, st->entry,
            st->graded_at);
    fprintf(f, "Exercise files taken: %d of %d.", found, sub->nex);
    if (sub->nignored)
        fprintf(f, " Ignored (not exercise files): %d.", sub->nignored);
    fprintf(f, "\n");
    if (sub->error[0])
        fprintf(f, "The submission could not be read whole: %s\n", sub->error);
    if (sub->nrefused) {
        fprintf(f, "Refused entries (%d): nothing of them was read or graded.\n", sub->nrefused);
        for (int i = 0; i < sub->nrefused && i < SUB_MAX_NOTES; i++)
            fprintf(f, "  %s: %s\n", sub->refused[i].entry, sub->refused[i].why);
        if (sub->nrefused > SUB_MAX_NOTES)
            fprintf(f, "  ... and %d more\n", sub->nrefused - SUB_MAX_NOTES);
    }
    for (int i = 0; i < sub->nignored && i < 4; i++)
        fprintf(f, "  ignored: %s\n", sub->ignored[i]);
    if (st->budget_hit)
        fprintf(f, "The time budget of %.0f s per student ran out: %d exercise%s not graded.\n",
                run->budget_s, st->budget_hit, st->budget_hit > 1 ? "s were" : " was");
    if (!run->gpu[0])
        fprintf(f, "No GPU could be used, so nothing was timed: each kernel was compiled, "
                "its mechanism checks read from the compiler, and run on the grader's PTX "
                "simulator for correctness (CORRECT is not a pass: speed needs a GPU).\n");
    fprintf(f, "\n");
}

static int write_text(const char *path, const class_run *run, const class_student *st,
                      const submission *sub, const graded *g, int n, const char *mode)
{
    FILE *f = out_open(path);
    if (!f)
        return -1;
    submission_lines(f, run, st, sub);
    print_run_header(f, g, n, mode);
    print_table(f, g, n, 0);
    print_explanations(f, g, n, 0, run->g.root);
    print_summary(f, g, n, 0);
    return out_commit(f, path);
}

static int write_submission_json(const char *path, const class_run *run,
                                 const class_student *st, const submission *sub)
{
    FILE *f = out_open(path);
    if (!f)
        return -1;
    fputs("{\n  \"student\": ", f);
    json_escape(f, st->name);
    fputs(",\n  \"entry\": ", f);
    json_escape(f, st->entry);
    fputs(",\n  \"kind\": ", f);
    json_escape(f, st->kind);
    fputs(",\n  \"content_hash\": ", f);
    json_escape(f, st->key);
    fputs(",\n  \"graded_at\": ", f);
    json_escape(f, st->graded_at);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"gpu\": ", run->g.seed);
    json_escape(f, run->gpu);
    fputs(",\n  \"files\": [", f);
    for (int i = 0, k = 0; i < sub->nex; i++) {
        fprintf(f, "%s\n    {\"exercise\": ", k++ ? "," : "");
        json_escape(f, sub->ex[i]->file);
        fputs(", \"taken_from\": ", f);
        if (sub->data[i])
            json_escape(f, sub->from[i]);
        else
            fputs("null", f);
        fprintf(f, ", \"bytes\": %zu, \"refused\": ", sub->data[i] ? sub->len[i] : 0);
        if (sub->missing_why[i][0])
            json_escape(f, sub->missing_why[i]);
        else
            fputs("null", f);
        fputs("}", f);
    }
    fprintf(f, "\n  ],\n  \"refused_count\": %d,\n  \"refused\": [", sub->nrefused);
    for (int i = 0; i < sub->nrefused && i < SUB_MAX_NOTES; i++) {
        fprintf(f, "%s\n    {\"entry\": ", i ? "," : "");
        json_escape(f, sub->refused[i].entry);
        fputs(", \"why\": ", f);
        json_escape(f, sub->refused[i].why);
        fputs("}", f);
    }
    fprintf(f, "\n  ],\n  \"ignored_count\": %d,\n  \"error\": ", sub->nignored);
    if (sub->error[0])
        json_escape(f, sub->error);
    else
        fputs("null", f);
    fputs("\n}\n", f);
    return out_commit(f, path);
}

int class_write_student(const class_run *run, const class_student *st, const submission *sub,
                        const graded *g, int n)
{
    char dir[4096], path[4200], mode[CLASS_NAME + 32];
    snprintf(dir, sizeof dir, "%s/students/%s", run->out, st->name);
    if (mkdir_p(dir) != 0)
        return -1;
    snprintf(mode, sizeof mode, "the submission of %s", st->name);
    snprintf(path, sizeof path, "%s/report.txt", dir);
    if (write_text(path, run, st, sub, g, n, mode) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/report.json", dir);
    /* write_json_report writes a path of its own: a unique one, renamed into place. */
    static unsigned serial;
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), serial++);
    if (write_json_report(tmp, g, n, mode) != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    snprintf(path, sizeof path, "%s/junit.xml", dir);
    if (class_write_junit(path, run, st, g, n) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/submission.json", dir);
    return write_submission_json(path, run, st, sub);
}

int class_write_not_graded(const class_run *run, const class_student *st)
{
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/students/%s", run->out, st->name);
    if (mkdir_p(dir) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/report.txt", dir);
    FILE *f = out_open(path);
    if (!f)
        return -1;
    fprintf(f, "Entry %s of the submissions folder (row %s): %s.\n", st->entry, st->name,
            st->why_not);
    if (out_commit(f, path) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/junit.xml", dir);
    return class_write_junit(path, run, st, NULL, 0);
}
