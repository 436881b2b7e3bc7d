/* test_class_outputs.c: the class-wide files, written from a class run
 * built in memory (no grading): gradebook.csv (class_gradebook.c), the
 * JUnit files (class_junit.c), the leaderboards (class_leaderboard.c),
 * summary.md, its terminal form and class.json (class_summary.c), and a
 * student's folder (class_report.c). Whole files are compared byte for
 * byte where the rule is the text itself; the rankings, tallies and
 * counts have scenarios of their own (ties, medians, the commonest reason).
 *
 *   CK_RUN_SUITE=class_outputs build/tests/unit_tests
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "class.h"
#include "hand_in.h"
#include "fileio.h"
#include "suites.h"

static char out[256];

static void out_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out, sizeof out, "%s/test-class-outputs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(out));
}

static void out_dir_remove(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
    if (out[0] && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", out);
    out[0] = 0;
}

static char *file_of(const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", out, name);
    char *s = read_text_file(p, NULL);
    ck_assert_msg(s != NULL, "cannot read %s", p);
    return s;
}

static void expect_file(const char *name, const char *want)
{
    char *got = file_of(name);
    ck_assert_msg(!strcmp(got, want), "%s:\n--- got ---\n%s\n--- want ---\n%s", name, got, want);
    free(got);
}

static void expect_in(const char *text, const char *part)
{
    ck_assert_msg(strstr(text, part) != NULL, "no \"%s\" in:\n%s", part, text);
}

/* ---- a class of five, in memory ---- */

static const exercise ex_mm = {.lesson = 3, .name = "matmul", .title = "Tiled <matmul> & \"more\"",
                               .file = "lesson3/matmul.cu"};
static const exercise ex_sc = {.lesson = 4, .name = "scan", .title = "Scan",
                               .file = "lesson4/scan.cu"};

static class_run run;
static class_student st[16];

static void cell(class_student *s, int i, enum outcome o, double sec, const char *why)
{
    s->cell[i] = (class_cell){.outcome = o, .seconds = sec};
    snprintf(s->cell[i].reason, sizeof s->cell[i].reason, "%s", why);
}

static void timed(class_student *s, int i, double base, double mine, double ref)
{
    s->cell[i].timed = 1;
    s->cell[i].ms[V_BASELINE] = base;
    s->cell[i].ms[V_STUDENT] = mine;
    s->cell[i].ms[V_SOLUTION] = ref;
    s->cell[i].speedup = base / mine;
}

static class_student *row(int i, const char *name, const char *entry, const char *kind)
{
    class_student *s = &st[i];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->entry, sizeof s->entry, "%s", entry);
    snprintf(s->kind, sizeof s->kind, "%s", kind);
    snprintf(s->key, sizeof s->key, "%064x", i);
    snprintf(s->graded_at, sizeof s->graded_at, "2026-11-25 10:0%d:00", i);
    snprintf(s->gpu, sizeof s->gpu, "GPU A");
    s->gpu_index = i % 2;
    s->nfound = 2;
    return s;
}

static void note(sub_note *n, const char *entry, const char *why)
{
    snprintf(n->entry, sizeof n->entry, "%s", entry);
    snprintf(n->why, sizeof n->why, "%s", why);
}

/* ada passes both; bo is slow and wrong (a refused entry, unchanged since
 * the last run); cy is not a submission; dee holds no exercise file, could
 * not be read whole, ran out of time and had five entries refused; =eve
 * (a name a spreadsheet would run) is wrong like bo, and only checked on
 * scan. */
static void five(void)
{
    memset(&run, 0, sizeof run);
    run.out = out;
    run.g.seed = 42;
    run.ex[0] = &ex_mm;
    run.ex[1] = &ex_sc;
    run.nex = 2;
    snprintf(run.gpu, sizeof run.gpu, "GPU A");
    run.cc = 90;
    snprintf(run.date, sizeof run.date, "2026-11-25 09:00:00");
    snprintf(run.course, sizeof run.course, "c0ffee");
    run.budget_s = 600;
    run.timeout_s = 60;
    run.st = st;
    run.nst = 5;

    class_student *s = row(0, "ada", "ada", "folder");
    cell(s, 0, OUT_PASS, 1.5, "PASS: Correct, and fast enough");
    timed(s, 0, 10, 2, 1.5);
    cell(s, 1, OUT_PASS_UNTIMED, 0.25, "PASS*: Correct");
    s->passed = 2, s->counted = 2, s->seconds = 1.7;

    s = row(1, "bo", "bo.tar", "tar");
    cell(s, 0, OUT_SLOW, 2, "SLOW: Correct, but not fast enough");
    timed(s, 0, 12, 5, 1.2);
    cell(s, 1, OUT_WRONG, 1, "WRONG: Your kernel computed N of N values wrong");
    s->counted = 2, s->seconds = 3;
    s->nrefused = 1;
    note(&s->refused[0], "../evil.cu", "'..' in the path");
    s->cached = 1;

    s = row(2, "cy", "cy.txt", "?");
    snprintf(s->why_not, sizeof s->why_not, "not graded: neither a folder nor a tar or zip "
             "archive");
    s->gpu[0] = 0, s->gpu_index = -1, s->nfound = 0, s->graded_at[0] = 0;

    s = row(3, "dee", "dee", "folder");
    cell(s, 0, OUT_MISSING, 0, "MISSING: lesson3/matmul.cu is not in the submission");
    cell(s, 1, OUT_NOT_RUN, 0, "NOT RUN: the time budget ran out");
    s->nfound = 0, s->counted = 2;
    s->nignored = 3;
    snprintf(s->ignored[0], sizeof s->ignored[0], "a.txt");
    snprintf(s->ignored[1], sizeof s->ignored[1], "b|c`*.md");
    snprintf(s->error, sizeof s->error, "damaged after entry 3 (truncated): the rest was not "
             "read");
    s->budget_hit = 2;
    s->nrefused = 5;
    for (int k = 0; k < 4; k++) {
        char e[32];
        snprintf(e, sizeof e, "link%d", k);
        note(&s->refused[k], e, "a symbolic link");
    }
    snprintf(s->gpu, sizeof s->gpu, "GPU B");
    s->gpu_index = -1;

    s = row(4, "=eve<&>", "=eve<&>.zip", "zip");
    cell(s, 0, OUT_WRONG, 0.5, "WRONG: Your kernel computed N of N values wrong");
    cell(s, 1, OUT_CHECKED, 0.5, "CHECKED: Compiled, and every check holds");
    s->counted = 1, s->seconds = 1;
    s->gpu[0] = 0;
}


/* ---- a leaderboard's class ---- */

/* One exercise. bob ties the reference's median time (the marked row goes
 * after him), a|my and z<d> tie each other (by name), hal's run has no
 * reference time (a row, but not in the medians); c&t is wrong, dan
 * correct with no time of its own, fay untimed, gus too fast (its run's
 * times count), eli not graded (nowhere). */
static void board_class(void)
{
    memset(&run, 0, sizeof run);
    run.out = out;
    run.g.seed = 7;
    run.ex[0] = &ex_mm;
    run.nex = 1;
    snprintf(run.gpu, sizeof run.gpu, "GPU A");
    snprintf(run.date, sizeof run.date, "2026-11-25 09:00:00");
    run.st = st;
    run.nst = 9;
    class_student *s = row(0, "z<d>", "z<d>", "folder");
    cell(s, 0, OUT_PASS, 1, "PASS: Correct, and fast enough");
    timed(s, 0, 10, 2, 1);
    s = row(1, "a|my", "a|my", "folder");
    cell(s, 0, OUT_SLOW, 1, "SLOW: Correct, but not fast enough");
    timed(s, 0, 11, 2, 1.1);
    s = row(2, "bob", "bob", "folder");
    cell(s, 0, OUT_MECHANISM, 1, "MECHANISM: no shared memory");
    timed(s, 0, 9, 1, 0.9);
    s = row(3, "c&t", "c&t", "folder");
    cell(s, 0, OUT_WRONG, 1, "WRONG: N of N values wrong");
    s = row(4, "dan", "dan", "folder");
    cell(s, 0, OUT_PASS, 1, "PASS: Correct, and fast enough");
    timed(s, 0, 8, 1, 0.8);
    s->cell[0].ms[V_STUDENT] = 0;
    s = row(5, "eli", "eli.txt", "?");
    cell(s, 0, OUT_PASS, 1, "PASS: Correct, and fast enough");
    timed(s, 0, 1, 0.5, 0.1);
    snprintf(s->why_not, sizeof s->why_not, "not graded: neither a folder nor an archive");
    s = row(6, "fay", "fay", "folder");
    cell(s, 0, OUT_PASS_UNTIMED, 1, "PASS*: Correct");
    s = row(7, "gus", "gus", "folder");
    cell(s, 0, OUT_TOO_FAST, 1, "TOO FAST: faster than memory allows");
    timed(s, 0, 12, 0.1, 2);
    s = row(8, "hal", "hal", "folder");
    cell(s, 0, OUT_PASS, 1, "PASS: Correct, and fast enough");
    timed(s, 0, 100, 3, 0);
}

static char *emitted(int (*write)(const class_run *, FILE *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(write(&run, f), 0);
    fclose(f);
    return buf;
}

START_TEST(gradebook_a_row_per_entry)
{
    out_dir();
    five();
    ck_assert_int_eq(class_write_gradebook(&run), 0);
    expect_file("gradebook.csv",
        "student,passed,out_of,lesson3/matmul,lesson3/matmul speedup,lesson4/scan,"
        "lesson4/scan speedup,refused_entries,graded_at,gpu,entry,notes\r\n"
        "ada,2,2,PASS,5.00,PASS*,,0,2026-11-25 10:00:00,GPU A (device 0),ada,\r\n"
        "bo,0,2,SLOW,2.40,WRONG,,1,2026-11-25 10:01:00,GPU A (device 1),bo.tar,"
        "unchanged since its last grade; 1 entry refused\r\n"
        "cy,0,0,NOT GRADED,,NOT GRADED,,0,,,cy.txt,"
        "not graded: neither a folder nor a tar or zip archive\r\n"
        "dee,0,2,MISSING,,NOT RUN,,5,2026-11-25 10:03:00,GPU B,dee,no exercise file found; "
        "5 entries refused; not read whole: damaged after entry 3 (truncated): the rest was "
        "not read; time budget (600 s) ran out\r\n"
        "\"'=eve<&>\",0,1,WRONG,,CHECKED,,0,2026-11-25 10:04:00,,\"'=eve<&>.zip\",\r\n");
    out_dir_remove();
}
END_TEST

/* The notes count refused entries in words: "1 entry", and the plural
 * from 2 on (the first plural is the bound; five() has 1 and 5). */
START_TEST(gradebook_counts_refused_entries)
{
    out_dir();
    five();
    class_student *s = &st[1];
    s->nrefused = 2;
    note(&s->refused[1], "b.cu", "a symbolic link");
    ck_assert_int_eq(class_write_gradebook(&run), 0);
    char *csv = file_of("gradebook.csv");
    expect_in(csv, ",2,2026-11-25 10:01:00,GPU A (device 1),bo.tar,"
              "unchanged since its last grade; 2 entries refused\r\n");
    free(csv);
    out_dir_remove();
}
END_TEST

/* A test suite per entry: a case per exercise, failures, errors (the
 * grader's or the budget's: NOT RUN, INTERNAL) and skips (CHECKED, NO GPU,
 * SKIPPED) counted apart; one error case for an entry not graded; the GPU
 * of the row, else the run's, else "none". */
START_TEST(class_junit_a_suite_per_entry)
{
    out_dir();
    five();
    ck_assert_int_eq(class_write_class_junit(&run), 0);
    expect_file("junit.xml",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"cuda-course-class\" tests=\"9\" failures=\"4\" errors=\"2\" "
        "skipped=\"1\" time=\"5.7\">\n"
        "  <testsuite name=\"ada\" tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"0\" "
        "time=\"1.7\" timestamp=\"2026-11-25T10:00:00\">\n"
        "    <properties>\n"
        "      <property name=\"seed\" value=\"42\"/>\n"
        "      <property name=\"gpu\" value=\"GPU A\"/>\n"
        "      <property name=\"submission\" value=\"ada\"/>\n"
        "      <property name=\"refused_entries\" value=\"0\"/>\n"
        "    </properties>\n"
        "    <testcase classname=\"ada.lesson3\" name=\"matmul\" time=\"1.50\">\n"
        "      <system-out>PASS: Correct, and fast enough</system-out>\n"
        "    </testcase>\n"
        "    <testcase classname=\"ada.lesson4\" name=\"scan\" time=\"0.25\">\n"
        "      <system-out>PASS*: Correct</system-out>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "  <testsuite name=\"bo\" tests=\"2\" failures=\"2\" errors=\"0\" skipped=\"0\" "
        "time=\"3.0\" timestamp=\"2026-11-25T10:01:00\">\n"
        "    <properties>\n"
        "      <property name=\"seed\" value=\"42\"/>\n"
        "      <property name=\"gpu\" value=\"GPU A\"/>\n"
        "      <property name=\"submission\" value=\"bo.tar\"/>\n"
        "      <property name=\"refused_entries\" value=\"1\"/>\n"
        "    </properties>\n"
        "    <testcase classname=\"bo.lesson3\" name=\"matmul\" time=\"2.00\">\n"
        "      <failure type=\"SLOW\" message=\"SLOW: Correct, but not fast enough\">SLOW: "
        "Correct, but not fast enough</failure>\n"
        "      <system-out>SLOW: Correct, but not fast enough</system-out>\n"
        "    </testcase>\n"
        "    <testcase classname=\"bo.lesson4\" name=\"scan\" time=\"1.00\">\n"
        "      <failure type=\"WRONG\" message=\"WRONG: Your kernel computed N of N values "
        "wrong\">WRONG: Your kernel computed N of N values wrong</failure>\n"
        "      <system-out>WRONG: Your kernel computed N of N values wrong</system-out>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "  <testsuite name=\"cy\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" "
        "time=\"0.0\" timestamp=\"2026-11-25T09:00:00\">\n"
        "    <properties>\n"
        "      <property name=\"seed\" value=\"42\"/>\n"
        "      <property name=\"gpu\" value=\"none\"/>\n"
        "      <property name=\"submission\" value=\"cy.txt\"/>\n"
        "      <property name=\"refused_entries\" value=\"0\"/>\n"
        "    </properties>\n"
        "    <testcase classname=\"cy\" name=\"submission\" time=\"0\">\n"
        "      <error type=\"NOT GRADED\" message=\"not graded: neither a folder nor a tar or "
        "zip archive\"/>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "  <testsuite name=\"dee\" tests=\"2\" failures=\"1\" errors=\"1\" skipped=\"0\" "
        "time=\"0.0\" timestamp=\"2026-11-25T10:03:00\">\n"
        "    <properties>\n"
        "      <property name=\"seed\" value=\"42\"/>\n"
        "      <property name=\"gpu\" value=\"GPU B\"/>\n"
        "      <property name=\"submission\" value=\"dee\"/>\n"
        "      <property name=\"refused_entries\" value=\"5\"/>\n"
        "    </properties>\n"
        "    <testcase classname=\"dee.lesson3\" name=\"matmul\" time=\"0.00\">\n"
        "      <failure type=\"MISSING\" message=\"MISSING: lesson3/matmul.cu is not in the "
        "submission\">MISSING: lesson3/matmul.cu is not in the submission</failure>\n"
        "      <system-out>MISSING: lesson3/matmul.cu is not in the submission</system-out>\n"
        "    </testcase>\n"
        "    <testcase classname=\"dee.lesson4\" name=\"scan\" time=\"0.00\">\n"
        "      <error type=\"NOT RUN\" message=\"NOT RUN: the time budget ran out\">NOT RUN: "
        "the time budget ran out</error>\n"
        "      <system-out>NOT RUN: the time budget ran out</system-out>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "  <testsuite name=\"=eve&lt;&amp;&gt;\" tests=\"2\" failures=\"1\" errors=\"0\" "
        "skipped=\"1\" time=\"1.0\" timestamp=\"2026-11-25T10:04:00\">\n"
        "    <properties>\n"
        "      <property name=\"seed\" value=\"42\"/>\n"
        "      <property name=\"gpu\" value=\"GPU A\"/>\n"
        "      <property name=\"submission\" value=\"=eve&lt;&amp;&gt;.zip\"/>\n"
        "      <property name=\"refused_entries\" value=\"0\"/>\n"
        "    </properties>\n"
        "    <testcase classname=\"=eve&lt;&amp;&gt;.lesson3\" name=\"matmul\" time=\"0.50\">\n"
        "      <failure type=\"WRONG\" message=\"WRONG: Your kernel computed N of N values "
        "wrong\">WRONG: Your kernel computed N of N values wrong</failure>\n"
        "      <system-out>WRONG: Your kernel computed N of N values wrong</system-out>\n"
        "    </testcase>\n"
        "    <testcase classname=\"=eve&lt;&amp;&gt;.lesson4\" name=\"scan\" time=\"0.50\">\n"
        "      <skipped type=\"CHECKED\" message=\"CHECKED: Compiled, and every check "
        "holds\"/>\n"
        "      <system-out>CHECKED: Compiled, and every check holds</system-out>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n"
);
    out_dir_remove();
}
END_TEST

static int summary_to(const class_run *r, FILE *f)
{
    return class_write_summary(r, f);
}

/* summary.md: who was graded where, the pass rate and commonest failure
 * per exercise, and each entry worth a look with why; the same table and
 * list as plain text for the terminal. */
START_TEST(summary_for_the_instructor)
{
    out_dir();
    five();
    char *also = emitted(summary_to);
    ck_assert_msg(!strcmp(also,
        "\n"
        "exercise                        passed   rate  most common reason for failing\n"
        "lesson3/matmul                  1 of 4    25%  SLOW: Correct, but not fast enough (1 "
        "of 3)\n"
        "lesson4/scan                    1 of 3    33%  WRONG: Your kernel computed N of N "
        "values wrong (1 of 2)\n"
        "\n"
        "Submissions to look at\n"
        "\n"
        "- bo (bo.tar): 1 entry refused: ../evil.cu ('..' in the path). See "
        "students/bo/report.txt.\n"
        "- cy (cy.txt): not graded: neither a folder nor a tar or zip archive.\n"
        "- dee: no exercise file was found in it (looked for lessonN/NAME.cu at any depth); it "
        "holds a.txt, b|c`*.md, .... could not be read whole: damaged after entry 3 "
        "(truncated): the rest was not read. 5 entries refused: link0 (a symbolic link); link1 "
        "(a symbolic link); link2 (a symbolic link); link3 (a symbolic link); .... the time "
        "budget (600 s) ran out with 2 exercises left. See students/dee/report.txt.\n"), "%s", also);
    free(also);
    expect_file("summary.md",
        "# Class summary\n"
        "\n"
        "4 students, graded on GPU A, seed 42 (replay one with make check SEED=42), 2026-11-25 "
        "09:00:00 UTC.\n"
        "1 entry of the submissions folder not graded (listed below with why).\n"
        "3 graded in this run; 1 unchanged since their last grade and not graded again. Time "
        "budget 600 s per student, 60 s per exercise.\n"
        "\n"
        "Graded on 2 different GPU models: GPU A, GPU B. Each speedup is over the baseline "
        "timed on the same GPU in the same run, so verdicts compare; times in milliseconds do "
        "not (gradebook.csv's gpu column says which GPU graded whom).\n"
        "\n"
        "## Per exercise\n"
        "\n"
        "| exercise | passed | pass rate | most common reason for failing |\n"
        "| --- | ---: | ---: | --- |\n"
        "| lesson3/matmul | 1 of 4 | 25% | SLOW: Correct, but not fast enough (1 of 3) |\n"
        "| lesson4/scan | 1 of 3 | 33% | WRONG: Your kernel computed N of N values wrong (1 of "
        "2) |\n"
        "\n"
        "## Submissions to look at\n"
        "\n"
        "- `bo` (`bo.tar`): 1 entry refused: `../evil.cu` (&#39;..&#39; in the path). See "
        "`students/bo/report.txt`.\n"
        "- `cy` (`cy.txt`): not graded: neither a folder nor a tar or zip archive.\n"
        "- `dee`: no exercise file was found in it (looked for lessonN/NAME.cu at any depth); "
        "it holds `a.txt`, ``b|c`*.md``, .... could not be read whole: damaged after entry 3 "
        "(truncated): the rest was not read. 5 entries refused: `link0` (a symbolic link); "
        "`link1` (a symbolic link); `link2` (a symbolic link); `link3` (a symbolic link); .... "
        "the time budget (600 s) ran out with 2 exercises left. See "
        "`students/dee/report.txt`.\n"
        "\n"
        "## Files\n"
        "\n"
        "- `gradebook.csv`: a row per entry of the submissions folder\n"
        "- `junit.xml`: a test suite per entry\n"
        "- `students/<name>/`: report.txt (as the student sees it), report.json, junit.xml, "
        "submission.json\n"
        "- `leaderboards/`: per exercise, .md and .html\n"
        "- `class.json`: all of this for tools\n"
);
    out_dir_remove();
}
END_TEST

START_TEST(class_json_for_tools)
{
    out_dir();
    five();
    ck_assert_int_eq(class_write_json(&run), 0);
    expect_file("class.json",
        "{\n"
        "  \"seed\": 42,\n"
        "  \"gpu\": \"GPU A\",\n"
        "  \"compute_capability\": 90,\n"
        "  \"date\": \"2026-11-25 09:00:00\",\n"
        "  \"budget_s\": 600,\n"
        "  \"timeout_s\": 60,\n"
        "  \"course_hash\": \"c0ffee\",\n"
        "  \"exercises\": [\"lesson3/matmul\", \"lesson4/scan\"],\n"
        "  \"students\": [\n"
        "    {\"name\": \"ada\", \"entry\": \"ada\", \"kind\": \"folder\", \"graded\": true, "
        "\"not_graded_why\": null, \"exercise_files_found\": 2, \"gpu\": \"GPU A\", "
        "\"gpu_device\": 0, \"content_hash\": \"00000000000000000000000000000000000000000000000"
        "00000000000000000\", \"graded_this_run\": true, \"graded_at\": \"2026-11-25 "
        "10:00:00\", \"passed\": 2, \"out_of\": 2, \"refused_entries\": 0, "
        "\"ignored_entries\": 0, \"budget_ran_out\": false, \"error\": null, \"results\": [\n"
        "      {\"outcome\": \"PASS\", \"speedup\": 5, \"ms\": 2, \"baseline_ms\": 10, "
        "\"solution_ms\": 1.5, \"reason\": \"\", \"seconds\": 1.50},\n"
        "      {\"outcome\": \"PASS*\", \"reason\": \"\", \"seconds\": 0.25}]},\n"
        "    {\"name\": \"bo\", \"entry\": \"bo.tar\", \"kind\": \"tar\", \"graded\": true, "
        "\"not_graded_why\": null, \"exercise_files_found\": 2, \"gpu\": \"GPU A\", "
        "\"gpu_device\": 1, \"content_hash\": \"00000000000000000000000000000000000000000000000"
        "00000000000000001\", \"graded_this_run\": false, \"graded_at\": \"2026-11-25 "
        "10:01:00\", \"passed\": 0, \"out_of\": 2, \"refused_entries\": 1, "
        "\"ignored_entries\": 0, \"budget_ran_out\": false, \"error\": null, \"results\": [\n"
        "      {\"outcome\": \"SLOW\", \"speedup\": 2.4, \"ms\": 5, \"baseline_ms\": 12, "
        "\"solution_ms\": 1.2, \"reason\": \"SLOW: Correct, but not fast enough\", "
        "\"seconds\": 2.00},\n"
        "      {\"outcome\": \"WRONG\", \"reason\": \"WRONG: Your kernel computed N of N "
        "values wrong\", \"seconds\": 1.00}]},\n"
        "    {\"name\": \"cy\", \"entry\": \"cy.txt\", \"kind\": \"?\", \"graded\": false, "
        "\"not_graded_why\": \"not graded: neither a folder nor a tar or zip archive\", "
        "\"exercise_files_found\": 0, \"gpu\": \"\", \"gpu_device\": -1, \"content_hash\": "
        "\"0000000000000000000000000000000000000000000000000000000000000002\", "
        "\"graded_this_run\": true, \"graded_at\": \"\", \"passed\": 0, \"out_of\": 0, "
        "\"refused_entries\": 0, \"ignored_entries\": 0, \"budget_ran_out\": false, \"error\": "
        "null, \"results\": []},\n"
        "    {\"name\": \"dee\", \"entry\": \"dee\", \"kind\": \"folder\", \"graded\": true, "
        "\"not_graded_why\": null, \"exercise_files_found\": 0, \"gpu\": \"GPU B\", "
        "\"gpu_device\": -1, \"content_hash\": \"0000000000000000000000000000000000000000000000"
        "000000000000000003\", \"graded_this_run\": true, \"graded_at\": \"2026-11-25 "
        "10:03:00\", \"passed\": 0, \"out_of\": 2, \"refused_entries\": 5, "
        "\"ignored_entries\": 3, \"budget_ran_out\": true, \"error\": \"damaged after entry 3 "
        "(truncated): the rest was not read\", \"results\": [\n"
        "      {\"outcome\": \"MISSING\", \"reason\": \"MISSING: lesson3/matmul.cu is not in "
        "the submission\", \"seconds\": 0.00},\n"
        "      {\"outcome\": \"NOT RUN\", \"reason\": \"NOT RUN: the time budget ran out\", "
        "\"seconds\": 0.00}]},\n"
        "    {\"name\": \"=eve<&>\", \"entry\": \"=eve<&>.zip\", \"kind\": \"zip\", "
        "\"graded\": true, \"not_graded_why\": null, \"exercise_files_found\": 2, \"gpu\": "
        "\"\", \"gpu_device\": 0, \"content_hash\": "
        "\"0000000000000000000000000000000000000000000000000000000000000004\", "
        "\"graded_this_run\": true, \"graded_at\": \"2026-11-25 10:04:00\", \"passed\": 0, "
        "\"out_of\": 1, \"refused_entries\": 0, \"ignored_entries\": 0, \"budget_ran_out\": "
        "false, \"error\": null, \"results\": [\n"
        "      {\"outcome\": \"WRONG\", \"reason\": \"WRONG: Your kernel computed N of N "
        "values wrong\", \"seconds\": 0.50},\n"
        "      {\"outcome\": \"CHECKED\", \"reason\": \"\", \"seconds\": 0.50}]}\n"
        "  ]\n"
        "}\n"
);
    out_dir_remove();
}
END_TEST

/* Correct and timed kernels by median time, ties by name, the reference's
 * and the baseline's medians over the runs that timed both as marked rows
 * (after a student of the same time); the rest named with their verdict. */
START_TEST(leaderboard_ranked_by_time)
{
    out_dir();
    board_class();
    ck_assert_int_eq(class_write_leaderboards(&run), 0);
    expect_file("leaderboards/lesson3-matmul.md",
        "# Leaderboard: lesson3/matmul\n"
        "\n"
        "Tiled <matmul> & \"more\"\n"
        "\n"
        "Graded on GPU A, seed 7, 2026-11-25 09:00:00 UTC. Correct kernels, ranked by median "
        "time. Each student's kernel was timed in its own run, interleaved with the baseline "
        "and the reference solution; their rows show the median over the 5 runs. Speedup is "
        "over the baseline in the same run.\n"
        "\n"
        "| rank | who | time (ms) | speedup | verdict |\n"
        "| ---: | --- | ---: | ---: | --- |\n"
        "| 1 | `bob` | 1.0000 | 9.00x | MECHANISM |\n"
        "| - | **reference solution** | 1.0000 | 10.00x | |\n"
        "| 2 | `a\\|my` | 2.0000 | 5.50x | SLOW |\n"
        "| 3 | `z<d>` | 2.0000 | 5.00x | PASS |\n"
        "| 4 | `hal` | 3.0000 | 33.33x | PASS |\n"
        "| - | **baseline** | 10.0000 | 1.00x | |\n"
        "\n"
        "Not ranked (not correct, or not timed): `c&t` (WRONG), `dan` (PASS), `fay` (PASS*), "
        "`gus` (TOO FAST).\n");
    expect_file("leaderboards/lesson3-matmul.html",
        "<!DOCTYPE html>\n"
        "<html lang=\"en\">\n"
        "<head>\n"
        "<meta charset=\"utf-8\">\n"
        "<title>Leaderboard: lesson3/matmul</title>\n"
        "<style>\n"
        "body { font-family: sans-serif; max-width: 50em; margin: 2em auto; }\n"
        "table { border-collapse: collapse; }\n"
        "th, td { padding: 0.3em 0.8em; border-bottom: 1px solid #ccc; }\n"
        "td.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
        "tr.marked { background: #eef; font-style: italic; }\n"
        "</style>\n"
        "</head>\n"
        "<body>\n"
        "<h1>Leaderboard: lesson3/matmul</h1>\n"
        "<p>Tiled &lt;matmul&gt; &amp; &quot;more&quot;</p>\n"
        "<p>Graded on GPU A, seed 7, 2026-11-25 09:00:00 UTC. Correct kernels, ranked by "
        "median time. Each student&#39;s kernel was timed in its own run, interleaved with the "
        "baseline and the reference solution; their rows show the median over the 5 runs. "
        "Speedup is over the baseline in the same run.</p>\n"
        "<table>\n"
        "<tr><th>rank</th><th>who</th><th>time (ms)</th><th>speedup</th><th>verdict</th></tr>\n"
        "<tr><td class=\"num\">1</td><td>bob</td><td class=\"num\">1.0000</td><td "
        "class=\"num\">9.00x</td><td>MECHANISM</td></tr>\n"
        "<tr class=\"marked\"><td class=\"num\">&ndash;</td><td>reference solution</td><td "
        "class=\"num\">1.0000</td><td class=\"num\">10.00x</td><td></td></tr>\n"
        "<tr><td class=\"num\">2</td><td>a|my</td><td class=\"num\">2.0000</td><td "
        "class=\"num\">5.50x</td><td>SLOW</td></tr>\n"
        "<tr><td class=\"num\">3</td><td>z&lt;d&gt;</td><td class=\"num\">2.0000</td><td "
        "class=\"num\">5.00x</td><td>PASS</td></tr>\n"
        "<tr><td class=\"num\">4</td><td>hal</td><td class=\"num\">3.0000</td><td "
        "class=\"num\">33.33x</td><td>PASS</td></tr>\n"
        "<tr class=\"marked\"><td class=\"num\">&ndash;</td><td>baseline</td><td "
        "class=\"num\">10.0000</td><td class=\"num\">1.00x</td><td></td></tr>\n"
        "</table>\n"
        "<p>Not ranked (not correct, or not timed): c&amp;t (WRONG), dan (PASS), fay (PASS*), "
        "gus (TOO FAST).</p>\n"
        "</body>\n"
        "</html>\n");
    out_dir_remove();
}
END_TEST

/* Every student ranked: a row each and the two marked rows. */
START_TEST(leaderboard_everyone_ranked)
{
    out_dir();
    board_class();
    run.nst = 2;
    ck_assert_int_eq(class_write_leaderboards(&run), 0);
    char *md = file_of("leaderboards/lesson3-matmul.md");
    expect_in(md, "| ---: | --- | ---: | ---: | --- |\n"
              "| - | **reference solution** | 1.0500 | 10.00x | |\n"
              "| 1 | `a\\|my` | 2.0000 | 5.50x | SLOW |\n"
              "| 2 | `z<d>` | 2.0000 | 5.00x | PASS |\n"
              "| - | **baseline** | 10.5000 | 1.00x | |\n\n");
    ck_assert_msg(!strstr(md, "Not ranked"), "%s", md);
    free(md);
    out_dir_remove();
}
END_TEST

START_TEST(leaderboard_with_nothing_timed)
{
    out_dir();
    board_class();
    run.gpu[0] = 0;
    for (int i = 0; i < run.nst; i++)
        st[i].cell[0].timed = 0;
    ck_assert_int_eq(class_write_leaderboards(&run), 0);
    expect_file("leaderboards/lesson3-matmul.md",
        "# Leaderboard: lesson3/matmul\n"
        "\n"
        "Tiled <matmul> & \"more\"\n"
        "\n"
        "Graded without a GPU, seed 7, 2026-11-25 09:00:00 UTC. No kernel was timed in this "
        "run (no GPU: kernels were only compiled), so there is nothing to rank.\n"
        "\n"
        "Not ranked (not correct, or not timed): `z<d>` (PASS), `a|my` (SLOW), `bob` "
        "(MECHANISM), `c&t` (WRONG), `dan` (PASS), `fay` (PASS*), `gus` (TOO FAST), `hal` "
        "(PASS).\n");
    expect_file("leaderboards/lesson3-matmul.html",
        "<!DOCTYPE html>\n"
        "<html lang=\"en\">\n"
        "<head>\n"
        "<meta charset=\"utf-8\">\n"
        "<title>Leaderboard: lesson3/matmul</title>\n"
        "<style>\n"
        "body { font-family: sans-serif; max-width: 50em; margin: 2em auto; }\n"
        "table { border-collapse: collapse; }\n"
        "th, td { padding: 0.3em 0.8em; border-bottom: 1px solid #ccc; }\n"
        "td.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
        "tr.marked { background: #eef; font-style: italic; }\n"
        "</style>\n"
        "</head>\n"
        "<body>\n"
        "<h1>Leaderboard: lesson3/matmul</h1>\n"
        "<p>Tiled &lt;matmul&gt; &amp; &quot;more&quot;</p>\n"
        "<p>Graded without a GPU, seed 7, 2026-11-25 09:00:00 UTC. No kernel was timed in this "
        "run (no GPU: kernels were only compiled), so there is nothing to rank.</p>\n"
        "<p>Not ranked (not correct, or not timed): z&lt;d&gt; (PASS), a|my (SLOW), bob "
        "(MECHANISM), c&amp;t (WRONG), dan (PASS), fay (PASS*), gus (TOO FAST), hal "
        "(PASS).</p>\n"
        "</body>\n"
        "</html>\n");
    /* With a GPU, and still nothing timed. */
    snprintf(run.gpu, sizeof run.gpu, "GPU A");
    ck_assert_int_eq(class_write_leaderboards(&run), 0);
    char *md = file_of("leaderboards/lesson3-matmul.md");
    ck_assert_msg(strstr(md, "Graded on GPU A, seed 7, 2026-11-25 09:00:00 UTC. No kernel was "
                  "timed in this run, so there is nothing to rank.\n\nNot ranked"), "%s", md);
    free(md);
    /* No folder for them: -1. */
    char p[400];
    snprintf(p, sizeof p, "%s/leaderboards", out);
    char cmd[900];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && touch '%s'", p, p);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(class_write_leaderboards(&run), -1);
    out_dir_remove();
}
END_TEST

/* ---- the summary's counts ---- */

static char *summary_text(void)
{
    ck_assert_int_eq(class_write_summary(&run, NULL), 0);
    return file_of("summary.md");
}

static void one_exercise(int n)
{
    memset(&run, 0, sizeof run);
    run.out = out;
    run.g.seed = 1;
    run.ex[0] = &ex_mm;
    run.nex = 1;
    snprintf(run.gpu, sizeof run.gpu, "GPU A");
    snprintf(run.date, sizeof run.date, "2026-11-25 09:00:00");
    run.budget_s = 600;
    run.timeout_s = 60;
    run.st = st;
    run.nst = n;
}

/* The commonest reason among the failures of graded rows only (a pass, a
 * check without a GPU, a row not graded never count, whatever their
 * reason says); a tie goes to the reason met first. */
START_TEST(summary_counts_the_commonest_failure)
{
    out_dir();
    one_exercise(8);
    cell(row(0, "a", "a", "folder"), 0, OUT_WRONG, 1, "WRONG: X");
    cell(row(1, "b", "b", "folder"), 0, OUT_CRASH, 1, "CRASH: Y");
    cell(row(2, "c", "c", "folder"), 0, OUT_CRASH, 1, "CRASH: Y");
    cell(row(3, "d", "d", "folder"), 0, OUT_CHECKED, 1, "CRASH: Y");
    class_student *e = row(4, "e", "e", "folder");
    cell(e, 0, OUT_CRASH, 1, "CRASH: Y");
    snprintf(e->why_not, sizeof e->why_not, "not graded: a symbolic link");
    cell(row(5, "f", "f", "folder"), 0, OUT_WRONG, 1, "WRONG: X");
    cell(row(6, "g", "g", "folder"), 0, OUT_PASS, 1, "CRASH: Y");
    cell(row(7, "h", "h", "folder"), 0, OUT_NO_GPU, 1, "");
    char *sum = summary_text();
    expect_in(sum, "| lesson3/matmul | 1 of 5 | 20% | WRONG: X (2 of 4) |\n");
    expect_in(sum, "7 students, graded on GPU A, seed 1 (replay one with make check SEED=1), "
              "2026-11-25 09:00:00 UTC.\n1 entry of the submissions folder not graded (listed "
              "below with why).\n7 graded in this run; 0 unchanged since their last grade and "
              "not graded again. Time budget 600 s per student, 60 s per exercise.\n\n## Per");
    free(sum);
    /* One more Y: now the commonest. */
    cell(&st[5], 0, OUT_CRASH, 1, "CRASH: Y");
    sum = summary_text();
    expect_in(sum, "| lesson3/matmul | 1 of 5 | 20% | CRASH: Y (3 of 4) |\n");
    free(sum);
    /* The one not graded is judged nowhere. */
    cell(&st[4], 0, OUT_PASS, 1, "");
    sum = summary_text();
    expect_in(sum, "| lesson3/matmul | 1 of 5 | 20% | CRASH: Y (3 of 4) |\n");
    free(sum);
    out_dir_remove();
}
END_TEST

/* Without a GPU nothing passes or fails on speed: no pass rate, and an
 * exercise only checked says so; one student, one entry not graded. */
START_TEST(summary_without_a_gpu)
{
    out_dir();
    one_exercise(3);
    run.ex[1] = &ex_sc;
    run.nex = 2;
    run.gpu[0] = 0;
    class_student *a = row(0, "a", "a", "folder");
    cell(a, 0, OUT_CHECKED, 1, "CHECKED: fine");
    cell(a, 1, OUT_COMPILE_ERROR, 1, "COMPILE: x does not compile");
    a->gpu[0] = 0;
    class_student *b = row(1, "b", "b", "folder");
    cell(b, 0, OUT_NO_GPU, 1, "NO GPU: none");
    cell(b, 1, OUT_CHECKED, 1, "CHECKED: fine");
    b->gpu[0] = 0;
    b->cached = 1;
    class_student *c = row(2, "c", "c", "folder");
    snprintf(c->why_not, sizeof c->why_not, "not graded: gone");
    c->gpu[0] = 0;
    run.nst = 2;
    char *sum = summary_text();
    expect_in(sum, "# Class summary\n\n2 students, graded without a GPU, seed 1 (replay one "
              "with make check SEED=1), 2026-11-25 09:00:00 UTC.\n1 graded in this run; 1 "
              "unchanged since their last grade and not graded again. Time budget 600 s per "
              "student, 60 s per exercise.\n\nNo GPU: nothing was timed. Kernels were compiled, "
              "their mechanism checks read from the compiler, and run on the grader's PTX "
              "simulator for correctness (CORRECT, WRONG, RACE, HANG, CRASH as make check says "
              "them without a GPU; CHECKED where the simulator could not run one); speed and "
              "pass rates need an NVIDIA GPU.\n\n## Per exercise\n\n");
    expect_in(sum, "| lesson3/matmul | - | n/a | none; 2 compiled and checked without a GPU |\n"
              "| lesson4/scan | - | n/a | COMPILE: x does not compile (1 of 1) |\n\n## Files");
    free(sum);
    run.nst = 3;
    sum = summary_text();
    expect_in(sum, "\n1 entry of the submissions folder not graded (listed below with why).\n");
    free(sum);
    /* One graded. */
    snprintf(b->why_not, sizeof b->why_not, "not graded: gone too");
    sum = summary_text();
    expect_in(sum, "\n\n1 student, graded without a GPU");
    expect_in(sum, "\n2 entries of the submissions folder not graded (listed below with why).\n");
    free(sum);
    out_dir_remove();
}
END_TEST

/* A GPU too old for every exercise: nothing judged, no rate, no reason. */
START_TEST(summary_with_nothing_judged)
{
    out_dir();
    one_exercise(2);
    cell(row(0, "a", "a", "folder"), 0, OUT_UNSUPPORTED, 1, "SKIPPED: too old");
    cell(row(1, "b", "b", "folder"), 0, OUT_UNSUPPORTED, 1, "SKIPPED: too old");
    char *sum = summary_text();
    expect_in(sum, "| lesson3/matmul | 0 of 0 | n/a | - |\n");
    ck_assert_msg(!strstr(sum, "look at"), "%s", sum);
    ck_assert_msg(!strstr(sum, "GPU models"), "%s", sum);
    free(sum);
    /* GPUs: each model once, in the order met; none for a row without one. */
    snprintf(st[0].gpu, sizeof st[0].gpu, "GPU B");
    run.nst = 2;
    sum = summary_text();
    expect_in(sum, "\nGraded on 2 different GPU models: GPU B, GPU A. Each speedup");
    free(sum);
    one_exercise(5);
    static const char *gpus[] = {"GPU A", "", "GPU C", "GPU A", "GPU B"};
    for (int i = 0; i < 5; i++) {
        cell(row(i, "x", "x", "folder"), 0, OUT_PASS, 1, "");
        snprintf(st[i].gpu, sizeof st[i].gpu, "%s", gpus[i]);
    }
    snprintf(st[5].gpu, sizeof st[5].gpu, "NOT A ROW");    /* past the class's rows */
    sum = summary_text();
    expect_in(sum, "\nGraded on 3 different GPU models: GPU A, GPU C, GPU B. Each speedup");
    free(sum);
    out_dir_remove();
}
END_TEST

static char *look_at_of(class_student *s)
{
    one_exercise(1);
    (void)s;
    char *sum = summary_text();
    char *at = strstr(sum, "## Submissions to look at\n\n");
    ck_assert_msg(at != NULL, "%s", sum);
    at += strlen("## Submissions to look at\n\n");
    char *end = strstr(at, "\n\n## Files");
    ck_assert_ptr_nonnull(end);
    end[1] = 0;
    char *line = strdup(at);
    free(sum);
    return line;
}

/* Each entry worth a look, on one line, with why; what it quotes is
 * written so Markdown shows it as it is. */
START_TEST(summary_says_why_to_look)
{
    out_dir();
    class_student *s = row(0, "a b", "a`b.zip", "zip");
    cell(s, 0, OUT_PASS, 1, "");
    s->nfound = 0;
    char *line = look_at_of(s);
    ck_assert_str_eq(line, "- `a b` (``a`b.zip``): no exercise file was found in it (looked "
                     "for lessonN/NAME.cu at any depth). See `students/a b/report.txt`.\n");
    free(line);
    s->nignored = 1;
    snprintf(s->ignored[0], sizeof s->ignored[0], "x.txt");
    line = look_at_of(s);
    ck_assert_msg(strstr(line, "any depth); it holds `x.txt`. See"), "%s", line);
    free(line);
    s->nignored = 2;
    snprintf(s->ignored[1], sizeof s->ignored[1], "y.txt");
    line = look_at_of(s);
    ck_assert_msg(strstr(line, "any depth); it holds `x.txt`, `y.txt`. See"), "%s", line);
    free(line);

    s = row(0, "r", "r", "folder");
    s->nrefused = 4;
    for (int k = 0; k < 4; k++)
        note(&s->refused[k], (const char *[]){"l0", "l1", "l2", "l3"}[k], "w");
    line = look_at_of(s);
    ck_assert_str_eq(line, "- `r`: 4 entries refused: `l0` (w); `l1` (w); `l2` (w); `l3` (w). "
                     "See `students/r/report.txt`.\n");
    free(line);
    s->nrefused = 2;
    line = look_at_of(s);
    ck_assert_msg(strstr(line, "- `r`: 2 entries refused: `l0` (w); `l1` (w). See"), "%s", line);
    free(line);
    s->nrefused = 1;
    s->budget_hit = 1;
    snprintf(s->error, sizeof s->error, "cut *here* [1] `x` \\ <y>");
    line = look_at_of(s);
    ck_assert_str_eq(line, "- `r`: could not be read whole: cut &#42;here&#42; &#91;1&#93; "
                     "&#96;x&#96; &#92; &lt;y&gt;. 1 entry refused: `l0` (w). the time budget "
                     "(600 s) ran out with 1 exercise left. See `students/r/report.txt`.\n");
    free(line);

    s = row(0, "n", "n.txt", "?");
    snprintf(s->why_not, sizeof s->why_not, "not graded: a *link*");
    line = look_at_of(s);
    ck_assert_str_eq(line, "- `n` (`n.txt`): not graded: a &#42;link&#42;.\n");
    free(line);
    out_dir_remove();
}
END_TEST

/* ---- one student's files ---- */

static const exercise ex_a = {.lesson = 5, .name = "a", .title = "A", .file = "lesson5/a.cu"};
static const exercise ex_b = {.lesson = 5, .name = "b", .title = "B", .file = "lesson5/b.cu"};

/* A student's junit.xml, from the full results: the failure's body is the
 * detail when there is one (the compile log, the mismatches), else the
 * message; an error for the grader's fault; a skip without a body. */
START_TEST(student_junit_from_full_results)
{
    out_dir();
    five();
    static graded g[4];
    memset(g, 0, sizeof g);
    const exercise *ex[4] = {&ex_mm, &ex_sc, &ex_a, &ex_b};
    static const enum outcome o[4] = {OUT_PASS, OUT_WRONG, OUT_INTERNAL, OUT_NO_GPU};
    static const char *msg[4] = {"Correct & fast", "7 of 4096 wrong", "the grader <failed>",
                                 "no GPU"};
    static const char *detail[4] = {"", "first: [3] 1 != 2", "", "unused"};
    class_student *s = &st[0];
    for (int i = 0; i < 4; i++) {
        g[i].ex = ex[i];
        g[i].r.outcome = o[i];
        snprintf(g[i].r.message, sizeof g[i].r.message, "%s", msg[i]);
        snprintf(g[i].r.detail, sizeof g[i].r.detail, "%s", detail[i]);
        s->cell[i].seconds = i + 0.5;
    }
    s->seconds = 12.34;
    char path[400];
    snprintf(path, sizeof path, "%s/j.xml", out);
    ck_assert_int_eq(class_write_junit(path, &run, s, g, 4), 0);
    expect_file("j.xml",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"cuda-course\" tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\" "
        "time=\"12.3\">\n"
        "  <testsuite name=\"ada\" tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\" "
        "time=\"12.3\" timestamp=\"2026-11-25T10:00:00\">\n"
        "    <properties>\n"
        "      <property name=\"seed\" value=\"42\"/>\n"
        "      <property name=\"gpu\" value=\"GPU A\"/>\n"
        "      <property name=\"submission\" value=\"ada\"/>\n"
        "      <property name=\"refused_entries\" value=\"0\"/>\n"
        "    </properties>\n"
        "    <testcase classname=\"ada.lesson3\" name=\"matmul\" time=\"0.50\">\n"
        "      <system-out>Correct &amp; fast</system-out>\n"
        "    </testcase>\n"
        "    <testcase classname=\"ada.lesson4\" name=\"scan\" time=\"1.50\">\n"
        "      <failure type=\"WRONG\" message=\"7 of 4096 wrong\">first: [3] 1 != 2</failure>\n"
        "      <system-out>7 of 4096 wrong</system-out>\n"
        "    </testcase>\n"
        "    <testcase classname=\"ada.lesson5\" name=\"a\" time=\"2.50\">\n"
        "      <error type=\"INTERNAL\" message=\"the grader &lt;failed&gt;\">the grader "
        "&lt;failed&gt;</error>\n"
        "      <system-out>the grader &lt;failed&gt;</system-out>\n"
        "    </testcase>\n"
        "    <testcase classname=\"ada.lesson5\" name=\"b\" time=\"3.50\">\n"
        "      <skipped type=\"NO GPU\" message=\"no GPU\"/>\n"
        "      <system-out>no GPU</system-out>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n");
    /* A graded row without a GPU of its own shows the run's. */
    s->gpu[0] = 0;
    ck_assert_int_eq(class_write_junit(path, &run, s, g, 4), 0);
    char *t = file_of("j.xml");
    expect_in(t, "<property name=\"gpu\" value=\"GPU A\"/>");
    free(t);
    run.gpu[0] = 0;
    ck_assert_int_eq(class_write_junit(path, &run, s, g, 4), 0);
    t = file_of("j.xml");
    expect_in(t, "<property name=\"gpu\" value=\"none\"/>");
    free(t);
    out_dir_remove();
}
END_TEST

/* An entry that was not graded: a report that says why, a JUnit error. */
START_TEST(student_not_graded)
{
    out_dir();
    five();
    ck_assert_int_eq(class_write_not_graded(&run, &st[2]), 0);
    expect_file("students/cy/report.txt", "Entry cy.txt of the submissions folder (row cy): "
                "not graded: neither a folder nor a tar or zip archive.\n");
    expect_file("students/cy/junit.xml",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"cuda-course\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" "
        "time=\"0.0\">\n"
        "  <testsuite name=\"cy\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" "
        "time=\"0.0\" timestamp=\"2026-11-25T09:00:00\">\n"
        "    <properties>\n"
        "      <property name=\"seed\" value=\"42\"/>\n"
        "      <property name=\"gpu\" value=\"none\"/>\n"
        "      <property name=\"submission\" value=\"cy.txt\"/>\n"
        "      <property name=\"refused_entries\" value=\"0\"/>\n"
        "    </properties>\n"
        "    <testcase classname=\"cy\" name=\"submission\" time=\"0\">\n"
        "      <error type=\"NOT GRADED\" message=\"not graded: neither a folder nor a tar or "
        "zip archive\"/>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n");
    /* No folder for it: -1. */
    char p[400];
    snprintf(p, sizeof p, "%s/students", out);
    char cmd[900];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && touch '%s'", p, p);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(class_write_not_graded(&run, &st[2]), -1);
    out_dir_remove();
}
END_TEST

/* A hand-in as submission_read leaves it: one file taken, one refused,
 * fourteen entries refused (twelve kept), five ignored (four kept), and
 * a reading that stopped early. */
static void taken(submission *sub, graded *g)
{
    memset(sub, 0, sizeof *sub);
    static const exercise *const ex[2] = {&ex_mm, &ex_sc};
    snprintf(sub->kind, sizeof sub->kind, "folder");
    sub->ex = ex;
    sub->nex = 2;
    sub->data[0] = strdup("// MATMUL\n");
    sub->len[0] = 10;
    snprintf(sub->from[0], sizeof sub->from[0], "wrap/lesson3/matmul.cu");
    snprintf(sub->missing_why[1], sizeof sub->missing_why[1], "the entry lesson4/scan.cu was "
             "refused: a symbolic link");
    sub->nrefused = 14;
    for (int k = 0; k < SUB_MAX_NOTES; k++) {
        char e[16], w[16];
        snprintf(e, sizeof e, "e%d", k);
        snprintf(w, sizeof w, "w\"%d", k);
        note(&sub->refused[k], e, w);
    }
    sub->nignored = 5;
    for (int k = 0; k < 4; k++)
        snprintf(sub->ignored[k], sizeof sub->ignored[k], "i%d", k);
    snprintf(sub->error, sizeof sub->error, "damaged after entry 30 (cut)");
    memset(g, 0, 2 * sizeof *g);
    for (int i = 0; i < 2; i++) {
        g[i].ex = ex[i];
        snprintf(g[i].r.gpu, sizeof g[i].r.gpu, "GPU A");
        g[i].r.cc = 90;
        g[i].r.seed = 42;
    }
    g[0].r.outcome = OUT_PASS;
    snprintf(g[0].r.message, sizeof g[0].r.message, "Correct, and fast enough.");
    g[1].r.outcome = OUT_MISSING;
    snprintf(g[1].r.message, sizeof g[1].r.message, "lesson4/scan.cu is not in the submission.");
}

/* report.txt opens with what was taken from the hand-in, then the report
 * `make check` prints; report.json; junit.xml; submission.json. */
START_TEST(student_folder_of_results)
{
    out_dir();
    five();
    static submission sub;
    static graded g[2];
    taken(&sub, g);
    class_student *s = &st[0];
    s->budget_hit = 2;
    ck_assert_int_eq(class_write_student(&run, s, &sub, g, 2), 0);
    char *txt = file_of("students/ada/report.txt");
    static const char head[] =
        "Student ada: the folder ada, graded 2026-11-25 10:00:00 UTC.\n"
        "Exercise files taken: 1 of 2. Ignored (not exercise files): 5.\n"
        "The submission could not be read whole: damaged after entry 30 (cut)\n"
        "Refused entries (14): nothing of them was read or graded.\n"
        "  e0: w\"0\n  e1: w\"1\n  e2: w\"2\n  e3: w\"3\n  e4: w\"4\n  e5: w\"5\n"
        "  e6: w\"6\n  e7: w\"7\n  e8: w\"8\n  e9: w\"9\n  e10: w\"10\n  e11: w\"11\n"
        "  ... and 2 more\n"
        "  ignored: i0\n  ignored: i1\n  ignored: i2\n  ignored: i3\n"
        "The time budget of 600 s per student ran out: 2 exercises were not graded.\n"
        "\n"
        "GPU: GPU A (compute capability 9.0). Grading the submission of ada. Seed 42";
    ck_assert_msg(!strncmp(txt, head, strlen(head)), "%s", txt);
    expect_in(txt, "\nlesson3/matmul PASS ");       /* the table */
    expect_in(txt, "\nlesson4/scan   MISSING ");
    expect_in(txt, "-- lesson4/scan: Scan\n   lesson4/scan.cu is not in the submission.");
    expect_in(txt, "1 passed, 1 failed");   /* the closing line */
    free(txt);
    char *js = file_of("students/ada/report.json");
    expect_in(js, "\"mode\": \"the submission of ada\"");
    free(js);
    char *ju = file_of("students/ada/junit.xml");
    expect_in(ju, "<testsuites name=\"cuda-course\" tests=\"2\" failures=\"1\" errors=\"0\"");
    free(ju);
    expect_file("students/ada/submission.json",
        "{\n"
        "  \"student\": \"ada\",\n"
        "  \"entry\": \"ada\",\n"
        "  \"kind\": \"folder\",\n"
        "  \"content_hash\": \"0000000000000000000000000000000000000000000000000000000000000000\",\n"
        "  \"graded_at\": \"2026-11-25 10:00:00\",\n"
        "  \"seed\": 42,\n"
        "  \"gpu\": \"GPU A\",\n"
        "  \"files\": [\n"
        "    {\"exercise\": \"lesson3/matmul.cu\", \"taken_from\": \"wrap/lesson3/matmul.cu\", "
        "\"bytes\": 10, \"refused\": null},\n"
        "    {\"exercise\": \"lesson4/scan.cu\", \"taken_from\": null, \"bytes\": 0, \"refused\": "
        "\"the entry lesson4/scan.cu was refused: a symbolic link\"}\n"
        "  ],\n"
        "  \"refused_count\": 14,\n"
        "  \"refused\": [\n"
        "    {\"entry\": \"e0\", \"why\": \"w\\\"0\"},\n    {\"entry\": \"e1\", \"why\": \"w\\\"1\"},\n"
        "    {\"entry\": \"e2\", \"why\": \"w\\\"2\"},\n    {\"entry\": \"e3\", \"why\": \"w\\\"3\"},\n"
        "    {\"entry\": \"e4\", \"why\": \"w\\\"4\"},\n    {\"entry\": \"e5\", \"why\": \"w\\\"5\"},\n"
        "    {\"entry\": \"e6\", \"why\": \"w\\\"6\"},\n    {\"entry\": \"e7\", \"why\": \"w\\\"7\"},\n"
        "    {\"entry\": \"e8\", \"why\": \"w\\\"8\"},\n    {\"entry\": \"e9\", \"why\": \"w\\\"9\"},\n"
        "    {\"entry\": \"e10\", \"why\": \"w\\\"10\"},\n"
        "    {\"entry\": \"e11\", \"why\": \"w\\\"11\"}\n"
        "  ],\n"
        "  \"ignored_count\": 5,\n"
        "  \"error\": \"damaged after entry 30 (cut)\"\n"
        "}\n");
    /* Nothing else in the folder: no temporary file left. */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s/students/ada' | wc -l) = 4", out);
    ck_assert_int_eq(system(cmd), 0);

    free(sub.data[0]);
    out_dir_remove();
}
END_TEST

/* The same lines for other hand-ins: both files taken, exactly twelve
 * refused (all listed), one exercise left by the budget, nothing ignored,
 * no GPU; none refused. */
START_TEST(student_folder_variants)
{
    out_dir();
    five();
    static submission sub;
    static graded g[2];
    taken(&sub, g);
    class_student *s = &st[0];
    char cmd[600];
    /* Both taken, twelve refused, one budget's exercise, nothing ignored, no GPU. */
    sub.data[1] = strdup("// SCAN\n");
    sub.len[1] = 8;
    sub.nrefused = 12;
    sub.nignored = 0;
    sub.error[0] = 0;
    s->budget_hit = 1;
    run.gpu[0] = 0;
    ck_assert_int_eq(class_write_student(&run, s, &sub, g, 2), 0);
    char *txt = file_of("students/ada/report.txt");
    expect_in(txt, "Exercise files taken: 2 of 2.\nRefused entries (12): nothing of them was "
              "read or graded.\n");
    expect_in(txt, "  e11: w\"11\nThe time budget of 600 s per student ran out: 1 exercise was "
              "not graded.\nNo GPU could be used, so nothing was timed: each kernel was compiled, "
              "its mechanism checks read from the compiler, and run on the grader's PTX "
              "simulator for correctness (CORRECT is not a pass: speed needs a GPU).\n\n");
    free(txt);
    char *js = file_of("students/ada/submission.json");
    expect_in(js, "\"refused_count\": 12,");
    expect_in(js, "\"ignored_count\": 0,\n  \"error\": null\n}\n");
    free(js);
    sub.nrefused = 0;
    ck_assert_int_eq(class_write_student(&run, s, &sub, g, 2), 0);
    txt = file_of("students/ada/report.txt");
    ck_assert_msg(!strstr(txt, "Refused"), "%s", txt);
    free(txt);
    js = file_of("students/ada/submission.json");
    expect_in(js, "\"refused_count\": 0,\n  \"refused\": [\n  ],");
    free(js);
    free(sub.data[0]);
    free(sub.data[1]);
    sub.data[1] = NULL;

    /* No folder for it: -1. */
    snprintf(cmd, sizeof cmd, "rm -rf '%s/students' && touch '%s/students'", out, out);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(class_write_student(&run, s, &sub, g, 2), -1);
    out_dir_remove();
}
END_TEST

/* ---- outputs that cannot be written ---- */

/* A folder where the file would go: the rename fails. */
static void block(const char *name)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s/x", out, name);
    ck_assert_int_eq(mkdir_p(p), 0);
}

static void unblock(const char *name)
{
    char cmd[900];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/%s'", out, name);
    ck_assert_int_eq(system(cmd), 0);
}

static int temporaries_in(const char *folder)
{
    char cmd[900];
    snprintf(cmd, sizeof cmd, "ls -A '%s/%s' | grep -c '\\.tmp\\.' > /dev/null", out, folder);
    return system(cmd) == 0;
}

/* Each class file that cannot be put in place is an error (-1), never a
 * silent success, and leaves no temporary file; the terminal gets the
 * summary only once summary.md is written. */
START_TEST(class_files_that_cannot_be_written)
{
    out_dir();
    five();
    static const char *const files[] = {"gradebook.csv", "junit.xml", "summary.md",
                                        "class.json"};
    for (int i = 0; i < 4; i++) {
        block(files[i]);
        int rc = i == 0 ? class_write_gradebook(&run) : i == 1 ? class_write_class_junit(&run)
               : i == 2 ? summary_to(&run, NULL) : class_write_json(&run);
        ck_assert_msg(rc == -1, "%s written over a folder", files[i]);
        unblock(files[i]);
    }
    block("summary.md");
    char *also = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&also, &len);
    ck_assert_int_eq(class_write_summary(&run, f), -1);
    fclose(f);
    ck_assert_str_eq(also, "");
    free(also);
    unblock("summary.md");
    ck_assert(!temporaries_in("."));
    block("leaderboards/lesson3-matmul.md");
    ck_assert_int_eq(class_write_leaderboards(&run), -1);
    unblock("leaderboards/lesson3-matmul.md");
    block("leaderboards/lesson4-scan.html");
    ck_assert_int_eq(class_write_leaderboards(&run), -1);
    unblock("leaderboards/lesson4-scan.html");
    ck_assert(!temporaries_in("leaderboards"));
    ck_assert_int_eq(class_write_leaderboards(&run), 0);
    out_dir_remove();
}
END_TEST

/* The same for a student's files, one after another. */
START_TEST(student_files_that_cannot_be_written)
{
    out_dir();
    five();
    static submission sub;
    static graded g[2];
    taken(&sub, g);
    static const char *const files[] = {"report.txt", "report.json", "junit.xml",
                                        "submission.json"};
    for (int i = 0; i < 4; i++) {
        char p[64];
        snprintf(p, sizeof p, "students/ada/%s", files[i]);
        block(p);
        ck_assert_msg(class_write_student(&run, &st[0], &sub, g, 2) == -1, "%s", files[i]);
        unblock(p);
        ck_assert_msg(!temporaries_in("students/ada"), "%s left a temporary file", files[i]);
    }
    ck_assert_int_eq(class_write_student(&run, &st[0], &sub, g, 2), 0);
    block("students/cy/report.txt");
    ck_assert_int_eq(class_write_not_graded(&run, &st[2]), -1);
    unblock("students/cy/report.txt");
    block("students/cy/junit.xml");
    ck_assert_int_eq(class_write_not_graded(&run, &st[2]), -1);
    unblock("students/cy/junit.xml");
    ck_assert(!temporaries_in("students/cy"));
    free(sub.data[0]);
    out_dir_remove();
}
END_TEST

/* Lower the limit on descriptors to those open now; the old one back. */
static rlim_t no_descriptor_left(void)
{
    int fd = dup(0);
    ck_assert_int_ge(fd, 0);
    close(fd);
    struct rlimit lim;
    ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &lim), 0);
    rlim_t old = lim.rlim_cur;
    lim.rlim_cur = (rlim_t)fd;
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
    return old;
}

static void descriptors_back(rlim_t old)
{
    struct rlimit lim;
    ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &lim), 0);
    lim.rlim_cur = old;
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
}

/* No file can be opened at all (no descriptor left), no memory for a
 * board: every writer says so. */
START_TEST(outputs_without_a_descriptor)
{
    out_dir();
    five();
    static submission sub;
    static graded g[2];
    taken(&sub, g);
    ck_assert_int_eq(class_write_student(&run, &st[0], &sub, g, 2), 0);
    char path[600];
    snprintf(path, sizeof path, "%s/j.xml", out);
    rlim_t old = no_descriptor_left();
    ck_assert_int_eq(class_write_gradebook(&run), -1);
    ck_assert_int_eq(class_write_class_junit(&run), -1);
    ck_assert_int_eq(class_write_summary(&run, NULL), -1);
    ck_assert_int_eq(class_write_json(&run), -1);
    ck_assert_int_eq(class_write_leaderboards(&run), -1);
    ck_assert_int_eq(class_write_student(&run, &st[0], &sub, g, 2), -1);
    ck_assert_int_eq(class_write_not_graded(&run, &st[2]), -1);
    ck_assert_int_eq(class_write_junit(path, &run, &st[0], g, 2), -1);
    descriptors_back(old);
    /* No memory for a leaderboard's rows: -1 as well. */
    hi_take_all_memory();
    int rc = class_write_leaderboards(&run);
    hi_give_back_memory();
    ck_assert_int_eq(rc, -1);
    free(sub.data[0]);
    out_dir_remove();
}
END_TEST

Suite *class_outputs_suite(void)
{
    Suite *s = suite_create("class_outputs");
    TCase *tc = tcase_create("outputs");
    tcase_add_test(tc, gradebook_a_row_per_entry);
    tcase_add_test(tc, gradebook_counts_refused_entries);
    tcase_add_test(tc, class_junit_a_suite_per_entry);
    tcase_add_test(tc, summary_for_the_instructor);
    tcase_add_test(tc, class_json_for_tools);
    tcase_add_test(tc, leaderboard_ranked_by_time);
    tcase_add_test(tc, leaderboard_everyone_ranked);
    tcase_add_test(tc, leaderboard_with_nothing_timed);
    tcase_add_test(tc, summary_counts_the_commonest_failure);
    tcase_add_test(tc, summary_without_a_gpu);
    tcase_add_test(tc, summary_with_nothing_judged);
    tcase_add_test(tc, summary_says_why_to_look);
    tcase_add_test(tc, student_junit_from_full_results);
    tcase_add_test(tc, student_not_graded);
    tcase_add_test(tc, student_folder_of_results);
    tcase_add_test(tc, student_folder_variants);
    tcase_add_test(tc, class_files_that_cannot_be_written);
    tcase_add_test(tc, student_files_that_cannot_be_written);
    tcase_add_test(tc, outputs_without_a_descriptor);
    suite_add_tcase(s, tc);
    return s;
}
