/* class_junit.c: one student's grade as JUnit XML, the format CI systems
 * and LMS plugins read: a test suite per student, a test case per exercise,
 * and the grader's own message as the failure message. */
#include <stdio.h>
#include <string.h>
#include "class.h"

enum junit_kind { JU_PASS, JU_FAILURE, JU_ERROR, JU_SKIPPED };

static enum junit_kind kind_of(enum outcome o)
{
    if (outcome_is_pass(o))
        return JU_PASS;
    switch (o) {
    case OUT_CHECKED:
    case OUT_CORRECT:
    case OUT_NO_GPU:
    case OUT_UNSUPPORTED:
        return JU_SKIPPED;     /* not judged here: no GPU (speed), or too old a GPU */
    case OUT_INTERNAL:
    case OUT_NOT_RUN:
        return JU_ERROR;       /* the grader's fault, or the time budget: not the kernel's */
    default:
        return JU_FAILURE;
    }
}

static void suite_head(FILE *f, const class_run *run, const class_student *st, int n,
                       const int *count, double seconds)
{
    fputs("  <testsuite name=\"", f);
    xml_text(f, st->name);
    fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.1f\" "
            "timestamp=\"", n, count[JU_FAILURE], count[JU_ERROR], count[JU_SKIPPED], seconds);
    char stamp[32];             /* ISO 8601, as the JUnit schema has it */
    snprintf(stamp, sizeof stamp, "%s", st->graded_at[0] ? st->graded_at : run->date);
    char *space = strchr(stamp, ' ');
    if (space)
        *space = 'T';
    xml_text(f, stamp);
    fputs("\">\n    <properties>\n", f);
    fprintf(f, "      <property name=\"seed\" value=\"%llu\"/>\n", run->g.seed);
    fputs("      <property name=\"gpu\" value=\"", f);
    xml_text(f, st->gpu[0] ? st->gpu : class_graded(st) && run->gpu[0] ? run->gpu : "none");
    fputs("\"/>\n      <property name=\"submission\" value=\"", f);
    xml_text(f, st->entry);
    fprintf(f, "\"/>\n      <property name=\"refused_entries\" value=\"%d\"/>\n", st->nrefused);
    fputs("    </properties>\n", f);
}

/* An entry that was not graded: one test case, in error, saying why. */
static void not_graded_case(FILE *f, const class_student *st)
{
    fputs("    <testcase classname=\"", f);
    xml_text(f, st->name);
    fputs("\" name=\"submission\" time=\"0\">\n      <error type=\"NOT GRADED\" message=\"", f);
    xml_text(f, st->why_not);
    fputs("\"/>\n    </testcase>\n", f);
}

static void one_case(FILE *f, const class_student *st, const exercise *ex, double seconds,
                     enum outcome o, const char *message, const char *detail)
{
    char cls[CLASS_NAME + 32];
    snprintf(cls, sizeof cls, "%s.lesson%d", st->name, ex->lesson);
    fputs("    <testcase classname=\"", f);
    xml_text(f, cls);
    fputs("\" name=\"", f);
    xml_text(f, ex->name);
    fprintf(f, "\" time=\"%.2f\">\n", seconds);
    static const char *tag[] = {"", "failure", "error", "skipped"};
    enum junit_kind k = kind_of(o);
    if (k != JU_PASS) {
        fprintf(f, "      <%s type=\"%s\" message=\"", tag[k], outcome_word(o));
        xml_text(f, message);
        if (k == JU_SKIPPED)
            fputs("\"/>\n", f);
        else {
            fputs("\">", f);
            xml_text(f, detail && detail[0] ? detail : message);
            fprintf(f, "</%s>\n", tag[k]);
        }
    }
    fputs("      <system-out>", f);
    xml_text(f, message);
    fputs("</system-out>\n    </testcase>\n", f);
}

/* One student's suite: from the full results `g` when given, else from the
 * cells the class run keeps (the class-wide file). */
static void suite(FILE *f, const class_run *run, const class_student *st, const graded *g, int n)
{
    int count[4] = {0};
    if (!class_graded(st)) {
        count[JU_ERROR] = 1;
        suite_head(f, run, st, 1, count, 0);
        not_graded_case(f, st);
        fputs("  </testsuite>\n", f);
        return;
    }
    for (int i = 0; i < n; i++)
        count[kind_of(g ? g[i].r.outcome : st->cell[i].outcome)]++;
    suite_head(f, run, st, n, count, st->seconds);
    for (int i = 0; i < n; i++) {
        if (g)
            one_case(f, st, g[i].ex, st->cell[i].seconds, g[i].r.outcome, g[i].r.message,
                     g[i].r.detail);
        else
            one_case(f, st, run->ex[i], st->cell[i].seconds, st->cell[i].outcome,
                     st->cell[i].reason, NULL);
    }
    fputs("  </testsuite>\n", f);
}

static void totals(FILE *f, const char *name, int n, const int *count, double seconds)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
            "skipped=\"%d\" time=\"%.1f\">\n", name, n, count[JU_FAILURE], count[JU_ERROR],
            count[JU_SKIPPED], seconds);
}

int class_write_junit(const char *path, const class_run *run, const class_student *st,
                      const graded *g, int n)
{
    FILE *f = out_open(path);
    if (!f)
        return -1;
    int count[4] = {0};
    for (int i = 0; i < n; i++)
        count[kind_of(g[i].r.outcome)]++;
    if (!class_graded(st))
        count[JU_ERROR] = 1;
    totals(f, "cuda-course", class_graded(st) ? n : 1, count, st->seconds);
    suite(f, run, st, g, n);
    fputs("</testsuites>\n", f);
    return out_commit(f, path);
}

int class_write_class_junit(const class_run *run)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/junit.xml", run->out);
    FILE *f = out_open(path);
    if (!f)
        return -1;
    int count[4] = {0}, n = 0;
    double seconds = 0;
    for (int s = 0; s < run->nst; s++) {
        const class_student *st = &run->st[s];
        seconds += st->seconds;
        if (!class_graded(st)) {
            count[JU_ERROR]++, n++;
            continue;
        }
        for (int i = 0; i < run->nex; i++, n++)
            count[kind_of(st->cell[i].outcome)]++;
    }
    totals(f, "cuda-course-class", n, count, seconds);
    for (int s = 0; s < run->nst; s++)
        suite(f, run, &run->st[s], NULL, run->nex);
    fputs("</testsuites>\n", f);
    return out_commit(f, path);
}
