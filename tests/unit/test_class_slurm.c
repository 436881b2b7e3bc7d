/* test_class_slurm.c: a class graded on a Slurm cluster (class_slurm.c),
 * without one: the plan's files (tasks.txt in hex, the job array's and the
 * merge's batch scripts, their #SBATCH lines and the command they run, any
 * name quoted for the shell), a task picking its lines of the list, and the
 * notes a task leaves for the merge to say why a student has no results.
 *
 *   CK_RUN_SUITE=class_slurm build/tests/unit_tests */
#include <stdlib.h>
#include <sys/stat.h>
#include "class_scratch.h"

/* A run planned by hand, as parse_args and set_up would leave it. */
static class_run run;
static char subs[600], out[600];

static void plan_run(int batch)
{
    memset(&run, 0, sizeof run);
    scratch();
    in_scratch(subs, sizeof subs, "subs");
    in_scratch(out, sizeof out, "out");
    ck_assert_int_eq(mkdir_p(subs), 0);
    ck_assert_int_eq(mkdir_p(out), 0);
    run.submissions = subs;
    run.out = out;
    run.g.root = scratch_dir;
    run.g.seed = 42;
    run.budget_s = 600;
    run.timeout_s = 120;
    run.batch = batch;
}

static void free_plan(void)
{
    for (int i = 0; i < run.nplanned; i++)
        free(run.planned[i]);
    free(run.planned);
    run.planned = NULL;
    run.nplanned = 0;
}

static char *slurm_file(const char *name)
{
    char p[800];
    snprintf(p, sizeof p, "%s/slurm/%s", out, name);
    return slurp_file(p);
}

/* The path of this test program, as the scripts run it. */
static char *self(void)
{
    char *p = realpath("/proc/self/exe", NULL);
    ck_assert_ptr_nonnull(p);
    return p;
}

START_TEST(tasks_list_every_planned_entry_in_hex)
{
    plan_run(1);
    class_slurm_plan(&run, "ada");
    class_slurm_plan(&run, "bo b");
    class_slurm_plan(&run, "cy's.tar");
    class_slurm_plan(&run, "\xc3\xa9l\n");
    ck_assert_int_eq(run.nplanned, 4);
    ck_assert_str_eq(run.planned[1], "bo b");
    ck_assert_int_eq(class_slurm_write(&run), 0);
    char *t = slurm_file("tasks.txt");
    ck_assert_str_eq(t, "616461\n626f2062\n637927732e746172\nc3a96c0a\n");
    free(t);
    char p[800];
    snprintf(p, sizeof p, "%s/slurm/logs", out);
    struct stat sb;
    ck_assert_int_eq(stat(p, &sb), 0);
    ck_assert(S_ISDIR(sb.st_mode));
    free_plan();
}
END_TEST

/* The job array: a task per student (or per batch), its time from the
 * budget unless given, the options given and only those, and the command
 * with this class's every setting, each path quoted for the shell. */
START_TEST(the_array_script)
{
    plan_run(1);
    char *ls[] = {"lesson3", "it's", NULL};
    run.argv_lessons = ls;
    run.nlessons = 2;
    run.budget_s = 90.5;
    run.timeout_s = 7.25;
    class_slurm_plan(&run, "ada");
    class_slurm_plan(&run, "bo");
    class_slurm_plan(&run, "cy");
    ck_assert_int_eq(class_slurm_write(&run), 0);
    char *sb = slurm_file("grade-class.sbatch"), *exe = self(), want[8000];
    HAS(sb, "#!/bin/bash\n# grade-class.sbatch: written by `make grade-class SCHEDULER=slurm` on ");
    HAS(sb, " UTC.\n# A job array: task I grades line I+1 of tasks.txt (a student missing or\n"
            "# changed since the last grade;");
    snprintf(want, sizeof want,
             "#SBATCH --job-name=grade-class\n"
             "#SBATCH --array=0-2\n"
             "#SBATCH --output=%s/slurm/logs/task-%%A_%%a.out\n"
             "#SBATCH --ntasks=1\n"
             "#SBATCH --cpus-per-task=2\n"
             "#SBATCH --time=6\n"
             "cd '%s' || exit 1\n"
             "exec '%s' class '%s' 'lesson3' 'it'\\''s' \\\n"
             "    --out '%s' --seed 42 --budget 90.5 --timeout 7.25 \\\n"
             "    --task-list '%s/slurm'/tasks.txt --batch 1 --task \"$SLURM_ARRAY_TASK_ID\"\n",
             out, scratch_dir, exe, subs, out, out);
    HAS(sb, want);
    LACKS(sb, "--gres");
    LACKS(sb, "--partition");
    LACKS(sb, "--account");
    free(sb);
    char *co = slurm_file("collect.sbatch");
    snprintf(want, sizeof want,
             "#!/bin/bash\n"
             "# collect.sbatch: the merge of grade-class.sbatch's results into gradebook.csv,\n"
             "# summary.md, class.json, junit.xml and the leaderboards (what\n"
             "# `make grade-class-collect` runs). Submitted to depend on the array (afterany).\n"
             "#SBATCH --job-name=grade-class-collect\n"
             "#SBATCH --output=%s/slurm/logs/collect-%%j.out\n"
             "#SBATCH --ntasks=1\n"
             "#SBATCH --time=30\n"
             "cd '%s' || exit 1\n"
             "exec '%s' class '%s' 'lesson3' 'it'\\''s' \\\n"
             "    --out '%s' --seed 42 --budget 90.5 --timeout 7.25 --collect\n",
             out, scratch_dir, exe, subs, out);
    ck_assert_str_eq(co, want);
    free(co);
    free(exe);
    free_plan();
}
END_TEST

/* Students per task: the array has ceil(n / batch) tasks, each given the
 * batch's time; --slurm-* options become #SBATCH lines (--gres none: no
 * line), the merge taking the partition and account but no GPU. */
START_TEST(batches_and_options)
{
    plan_run(2);
    run.partition = "gpu";
    run.account = "acct";
    run.gres = "gpu:1";
    for (int i = 0; i < 5; i++) {
        char e[8];
        snprintf(e, sizeof e, "s%d", i);
        class_slurm_plan(&run, e);
    }
    ck_assert_int_eq(class_slurm_write(&run), 0);
    char *sb = slurm_file("grade-class.sbatch");
    HAS(sb, "# A job array: task I grades lines 2*I+1 .. 2*I+2 of tasks.txt (students missing or\n");
    HAS(sb, "#SBATCH --array=0-2\n");
    HAS(sb, "#SBATCH --time=25\n#SBATCH --gres=gpu:1\n#SBATCH --partition=gpu\n"
            "#SBATCH --account=acct\ncd ");
    HAS(sb, " --batch 2 --task \"$SLURM_ARRAY_TASK_ID\"\n");
    free(sb);
    char *co = slurm_file("collect.sbatch");
    HAS(co, "#SBATCH --time=30\n#SBATCH --partition=gpu\n#SBATCH --account=acct\ncd ");
    LACKS(co, "--gres");
    free(co);
    free_plan();

    /* Four students in batches of 2: two tasks; a given time; no GPU asked. */
    plan_run(2);
    run.gres = "none";
    run.time_limit = "1:00:00";
    run.budget_s = 59;
    for (int i = 0; i < 4; i++)
        class_slurm_plan(&run, "x");
    ck_assert_int_eq(class_slurm_write(&run), 0);
    sb = slurm_file("grade-class.sbatch");
    HAS(sb, "#SBATCH --array=0-1\n");
    HAS(sb, "#SBATCH --time=1:00:00\n");
    LACKS(sb, "--gres");
    free(sb);
    free_plan();

    /* The time: whole minutes of the budgets, and five to start and write. */
    plan_run(1);
    run.budget_s = 59;
    class_slurm_plan(&run, "x");
    ck_assert_int_eq(class_slurm_write(&run), 0);
    sb = slurm_file("grade-class.sbatch");
    HAS(sb, "#SBATCH --array=0-0\n");
    HAS(sb, "#SBATCH --time=5\n");
    free(sb);
    free_plan();
    plan_run(3);
    run.budget_s = 60;
    class_slurm_plan(&run, "x");
    ck_assert_int_eq(class_slurm_write(&run), 0);
    sb = slurm_file("grade-class.sbatch");
    HAS(sb, "#SBATCH --time=8\n");
    HAS(sb, "lines 3*I+1 .. 3*I+3 of tasks.txt");
    free(sb);
    free_plan();
}
END_TEST

/* Folders that are not there are named as given. */
START_TEST(paths_as_given_when_not_there)
{
    plan_run(1);
    run.g.root = "no/such/course";
    run.submissions = "no/such/subs";
    class_slurm_plan(&run, "ada");
    ck_assert_int_eq(class_slurm_write(&run), 0);
    char *sb = slurm_file("grade-class.sbatch");
    HAS(sb, "\ncd 'no/such/course' || exit 1\nexec '");
    HAS(sb, "' class 'no/such/subs' \\\n    --out '");
    free(sb);
    free_plan();
}
END_TEST

/* Nothing to grade: an empty task list, and no batch scripts. */
START_TEST(nothing_planned_writes_no_job)
{
    plan_run(1);
    ck_assert_int_eq(class_slurm_write(&run), 0);
    char *t = slurm_file("tasks.txt");
    ck_assert_str_eq(t, "");
    free(t);
    char p[800];
    snprintf(p, sizeof p, "%s/slurm/grade-class.sbatch", out);
    ck_assert(!exists(p));
    snprintf(p, sizeof p, "%s/slurm/collect.sbatch", out);
    ck_assert(!exists(p));
}
END_TEST

/* An output folder that cannot be written: -1, and no half-written plan. */
START_TEST(an_unwritable_folder_fails)
{
    plan_run(1);
    class_slurm_plan(&run, "ada");
    char p[800];
    snprintf(p, sizeof p, "%s/slurm", out);
    put_file(p, "a file where the folder goes");
    ck_assert_int_eq(class_slurm_write(&run), -1);
    free_plan();
    /* Each file that cannot be put in place (a folder of its name there):
     * -1, whoever runs it. */
    static const char *const names[] = {"tasks.txt", "grade-class.sbatch", "collect.sbatch"};
    for (int k = 0; k < 3; k++) {
        plan_run(1);
        class_slurm_plan(&run, "ada");
        snprintf(p, sizeof p, "%s/slurm/%s", out, names[k]);
        ck_assert_int_eq(mkdir_p(p), 0);
        ck_assert_msg(class_slurm_write(&run) == -1, "%s", names[k]);
        free_plan();
    }
    if (geteuid() == 0)
        return;                /* root writes anywhere */
    plan_run(1);
    class_slurm_plan(&run, "ada");
    snprintf(p, sizeof p, "%s/slurm/logs", out);
    ck_assert_int_eq(mkdir_p(p), 0);
    snprintf(p, sizeof p, "%s/slurm", out);
    chmod(p, 0555);
    ck_assert_int_eq(class_slurm_write(&run), -1);
    chmod(p, 0755);
    free_plan();
}
END_TEST

/* Rows named as the task list names them (the entries of SUBMISSIONS). */
static char *entries[8];
static void rows(const char *const *names, int n)
{
    static class_student st[8];
    memset(st, 0, sizeof st);
    run.st = st;
    run.nst = n;
    for (int i = 0; i < n; i++) {
        entries[i] = (char *)names[i];
        snprintf(st[i].name, sizeof st[i].name, "%s", names[i]);
    }
}

static int picked_mask(void)
{
    int m = 0;
    for (int i = 0; i < run.nst; i++)
        m |= run.st[i].picked << i;
    return m;
}

/* Task I takes lines [I*batch, (I+1)*batch) of the list: the rows with
 * those entries, whatever their order in the folder. */
START_TEST(a_task_picks_its_lines)
{
    static const char *const names[] = {"ada", "bo", "cy", "dee", "eli"};
    char list[800];
    plan_run(2);
    snprintf(list, sizeof list, "%s/tasks.txt", scratch_dir);
    /* In the list: eli, ada, cy, bo, dee (and a line that is no hex). */
    put_file(list, "656c69\n616461\r\n6379\n626f\nzz\n646565\n");
    run.task_list = list;
    struct { int task, batch, mask; } want[] = {
        {0, 2, 1 << 4 | 1 << 0},
        {1, 2, 1 << 2 | 1 << 1},
        {2, 2, 0},                 /* "zz" and dee: only dee */
        {0, 1, 1 << 4},
        {4, 1, 0},                 /* the line that is no hex */
        {5, 1, 1 << 3},
        {1, 3, 1 << 1 | 1 << 3},   /* bo, the line that is no hex, dee */
        {0, 6, 0x1f},
    };
    want[2].mask = 1 << 3;
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        rows(names, 5);
        run.task = want[k].task;
        run.batch = want[k].batch;
        capture c;
        capture_start(&c, "pick");
        int rc = class_slurm_pick(&run, entries);
        char *err;
        capture_end(&c, NULL, &err);
        ck_assert_int_eq(rc, 0);
        ck_assert_msg(picked_mask() == want[k].mask, "task %d batch %d: %x, not %x",
                      want[k].task, want[k].batch, picked_mask(), want[k].mask);
        if (want[k].mask)
            ck_assert_str_eq(err, "");
        free(err);
    }
    /* Past the end: nobody, and said. */
    rows(names, 5);
    run.task = 9;
    run.batch = 1;
    capture c;
    capture_start(&c, "pick");
    ck_assert_int_eq(class_slurm_pick(&run, entries), 0);
    char *err;
    capture_end(&c, NULL, &err);
    ck_assert_int_eq(picked_mask(), 0);
    char want_err[1200];
    snprintf(want_err, sizeof want_err, "grader class: task 9 has no student in %s (moved or "
             "renamed since the job was planned?)\n", list);
    ck_assert_str_eq(err, want_err);
    free(err);
    /* A list that cannot be read. */
    snprintf(list, sizeof list, "%s/missing.txt", scratch_dir);
    capture_start(&c, "pick");
    ck_assert_int_eq(class_slurm_pick(&run, entries), -1);
    capture_end(&c, NULL, &err);
    snprintf(want_err, sizeof want_err, "grader class: cannot read the task list %s: No such "
             "file or directory\n", list);
    ck_assert_str_eq(err, want_err);
    free(err);
}
END_TEST

/* Hex lines: even, and no longer than an entry may be (599 bytes). */
START_TEST(task_list_lines_at_their_bounds)
{
    static char longest[600], longer[601];
    memset(longest, 'a', 599);
    memset(longer, 'a', 600);
    const char *names[] = {longest, longer, "odd"};
    char list[800], *text = malloc(4000);
    plan_run(1);
    snprintf(list, sizeof list, "%s/tasks.txt", scratch_dir);
    char *p = text;
    for (int i = 0; i < 599; i++)
        p += sprintf(p, "61");
    p += sprintf(p, "\n");
    for (int i = 0; i < 600; i++)
        p += sprintf(p, "61");
    sprintf(p, "\n6f6464f\n");
    put_file(list, text);
    free(text);
    run.task_list = list;
    for (int t = 0; t < 3; t++) {
        rows(names, 3);
        run.task = t;
        capture c;
        capture_start(&c, "pick");
        ck_assert_int_eq(class_slurm_pick(&run, entries), 0);
        capture_end(&c, NULL, NULL);
        ck_assert_int_eq(picked_mask(), t == 0 ? 1 : 0);
    }
}
END_TEST

/* A line that is no hex (odd length, or a byte that is no hex digit after
 * good ones) picks nobody, whatever the line before it named: here the
 * last line the previous task read (the picks run back to back, so a
 * reader that kept its last name, or half of it, would pick ada again). */
START_TEST(a_damaged_line_picks_nobody)
{
    static const char *const names[] = {"ada", "bo", "add"};
    char list[800];
    plan_run(1);
    snprintf(list, sizeof list, "%s/tasks.txt", scratch_dir);
    put_file(list, "616461\n616\n6164zz\n626f\n");
    run.task_list = list;
    rows(names, 3);   /* add: what 6164zz gives read on past the bad byte */
    run.batch = 1;
    capture c;
    char *err;
    capture_start(&c, "pick");
    run.task = 0;
    int rc0 = class_slurm_pick(&run, entries);
    int was = run.st[0].picked;   /* no call between the picks */
    run.st[0].picked = 0;
    run.task = 1;
    int rc1 = class_slurm_pick(&run, entries);
    int odd = run.st[0].picked | run.st[1].picked | run.st[2].picked;
    run.task = 2;
    int rc2 = class_slurm_pick(&run, entries);
    capture_end(&c, NULL, &err);
    ck_assert_int_eq(rc0, 0);
    ck_assert_int_eq(was, 1);
    ck_assert_int_eq(rc1, 0);
    ck_assert_int_eq(odd, 0);
    ck_assert_int_eq(rc2, 0);
    ck_assert_int_eq(picked_mask(), 0);
    char want_err[2400];
    snprintf(want_err, sizeof want_err, "grader class: task 1 has no student in %s (moved or "
             "renamed since the job was planned?)\ngrader class: task 2 has no student in %s "
             "(moved or renamed since the job was planned?)\n", list, list);
    ck_assert_str_eq(err, want_err);
    free(err);
}
END_TEST

/* A task's note: written when it starts a student, gone when it ends well;
 * the merge's row says why from it, or that no task has run. */
START_TEST(notes_tell_the_merge_why)
{
    plan_run(1);
    static class_student st;
    memset(&st, 0, sizeof st);
    snprintf(st.name, sizeof st.name, "ada");
    char note[800];
    snprintf(note, sizeof note, "%s/.cache/ada.task", out);
    class_slurm_started(&run, &st);
    ck_assert(!exists(note));              /* no .cache/ yet: nothing, quietly */
    char cache[700];
    snprintf(cache, sizeof cache, "%s/.cache", out);
    ck_assert_int_eq(mkdir_p(cache), 0);
    setenv("SLURM_ARRAY_JOB_ID", "77", 1);
    setenv("SLURM_ARRAY_TASK_ID", "3", 1);
    class_slurm_started(&run, &st);
    char *t = slurp_file(note), host[128] = "?";
    gethostname(host, sizeof host - 1);
    char want[300];
    snprintf(want, sizeof want, "Slurm job 77, task 3, on %s, started ", host);
    ck_assert_msg(!strncmp(t, want, strlen(want)), "%s", t);
    ck_assert_msg(strstr(t, " UTC") && !strchr(t, '\n'), "%s", t);
    free(t);
    st.passed = st.counted = 3;
    st.cached = 1;
    class_slurm_missing(&run, &st);
    snprintf(want, sizeof want, "not graded: its task (Slurm job 77, task 3, on %s, started ",
             host);
    ck_assert_msg(!strncmp(st.why_not, want, strlen(want)), "%s", st.why_not);
    HAS(st.why_not, " UTC) ended without results: it died, was preempted or ran out of time "
                    "(see slurm/logs/); submit again to grade it");
    ck_assert_int_eq(st.passed + st.counted + st.cached, 0);
    unsetenv("SLURM_ARRAY_JOB_ID");
    unsetenv("SLURM_ARRAY_TASK_ID");
    class_slurm_started(&run, &st);
    t = slurp_file(note);
    snprintf(want, sizeof want, "Slurm job ?, task ?, on %s, started ", host);
    ck_assert_msg(!strncmp(t, want, strlen(want)), "%s", t);
    free(t);
    class_slurm_done(&run, &st);
    ck_assert(!exists(note));
    memset(&st.why_not, 0, sizeof st.why_not);
    st.passed = st.counted = 2;
    st.cached = 1;
    class_slurm_missing(&run, &st);
    ck_assert_str_eq(st.why_not, "not graded: no results for this submission yet (its task "
                     "has not run, or it changed since); submit again to grade it");
    ck_assert_int_eq(st.passed + st.counted + st.cached, 0);
    /* An empty note, and one that is not UTF-8. */
    put_file(note, "");
    class_slurm_missing(&run, &st);
    HAS(st.why_not, "no results for this submission yet");
    put_file(note, "bad \xff byte\nsecond line");
    class_slurm_missing(&run, &st);
    HAS(st.why_not, "its task (bad ? byte\n) ended without results");
}
END_TEST

Suite *class_slurm_suite(void)
{
    Suite *s = suite_create("class_slurm");
    TCase *tc = tcase_create("plan");
    tcase_add_checked_fixture(tc, NULL, remove_scratch);
    tcase_add_test(tc, tasks_list_every_planned_entry_in_hex);
    tcase_add_test(tc, the_array_script);
    tcase_add_test(tc, batches_and_options);
    tcase_add_test(tc, nothing_planned_writes_no_job);
    tcase_add_test(tc, paths_as_given_when_not_there);
    tcase_add_test(tc, an_unwritable_folder_fails);
    tcase_add_test(tc, a_task_picks_its_lines);
    tcase_add_test(tc, task_list_lines_at_their_bounds);
    tcase_add_test(tc, a_damaged_line_picks_nobody);
    tcase_add_test(tc, notes_tell_the_merge_why);
    suite_add_tcase(s, tc);
    return s;
}
