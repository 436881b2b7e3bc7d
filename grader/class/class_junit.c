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
    case OUT_NO_GPU:
    case OUT_UNSUPPORTED:
        return JU_SKIPPED;     /* not judged here: no GPU, or too old a GPU */
    case OUT_INTERNAL:
    case OUT_NOT_RUN:
        return JU_ERROR;       /* the grader's fault, or the time budget: not the kernel's */
    default:
        return JU_FAILURE;
    }
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
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"cuda-course\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
            "skipped=\"%d\" time=\"%.1f\">\n", n, count[JU_FAILURE], count[JU_ERROR],
            count[JU_SKIPPED], st->seconds);
    fputs("  <testsuite name=\"", f);
    xml_text(f, st->name);
    fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.1f\" "
            "timestamp=\"", n, count[JU_FAILURE], count[JU_ERROR], count[JU_SKIPPED],
            st->seconds);
    char stamp[32];             /* ISO 8601, as the JUnit schema has it */
    snprintf(stamp, sizeof stamp, "%s", st->graded_at);
    char *space = strchr(stamp, ' ');
    if (space)
        *space = 'T';
    xml_text(f, stamp);
    fputs("\">\n    <properties>\n", f);
    fprintf(f, "      <property name=\"seed\" value=\"%llu\"/>\n", run->g.seed);
    fputs("      <property name=\"gpu\" value=\"", f);
    xml_text(f, run->gpu[0] ? run->gpu : "none");
    fputs("\"/>\n      <property name=\"submission\" value=\"", f);
    xml_text(f, st->entry);
    fprintf(f, "\"/>\n      <property name=\"refused_entries\" value=\"%d\"/>\n", st->nrefused);
    fputs("    </properties>\n", f);
    for (int i = 0; i < n; i++) {
        const result *r = &g[i].r;
        char cls[96];
        snprintf(cls, sizeof cls, "%s.lesson%d", st->name, g[i].ex->lesson);
        fputs("    <testcase classname=\"", f);
        xml_text(f, cls);
        fputs("\" name=\"", f);
        xml_text(f, g[i].ex->name);
        fprintf(f, "\" time=\"%.2f\">\n", st->cell[i].seconds);
        static const char *tag[] = {"", "failure", "error", "skipped"};
        enum junit_kind k = kind_of(r->outcome);
        if (k != JU_PASS) {
            fprintf(f, "      <%s type=\"%s\" message=\"", tag[k], outcome_word(r->outcome));
            xml_text(f, r->message);
            if (k == JU_SKIPPED)
                fputs("\"/>\n", f);
            else {
                fputs("\">", f);
                xml_text(f, r->detail[0] ? r->detail : r->message);
                fprintf(f, "</%s>\n", tag[k]);
            }
        }
        fputs("      <system-out>", f);
        xml_text(f, r->message);
        fputs("</system-out>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    return out_commit(f, path);
}
