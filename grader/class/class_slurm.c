/* class_slurm.c: a class graded on a Slurm cluster. `grader class --slurm`
 * plans: it lists the submissions that are missing or changed since their
 * last grade (the same content hash a plain run uses) in
 * <out>/slurm/tasks.txt, and writes a job array (grade-class.sbatch, a task
 * per student or per batch) and the merge (collect.sbatch) beside the
 * results, for sbatch (instructor.mk submits them, the merge as a job that
 * depends on the array). Each task grades its students into the shared
 * output folder (students/<id>/ and .cache/, under a shared lock) exactly as
 * a plain run does; the merge (`--collect`) writes the class files from
 * what the tasks left, and a student without results gets a row saying
 * why, from the note its task left when it started. Submitting again plans
 * only what is still missing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "class.h"

void class_slurm_plan(class_run *run, const char *entry)
{
    char **p = realloc(run->planned, ((size_t)run->nplanned + 1) * sizeof *p);
    if (!p)
        return;
    run->planned = p;
    run->planned[run->nplanned++] = strdup(entry);
}

static void hex_line(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fprintf(f, "%02x", *p);
    fputc('\n', f);
}

/* A path for a shell script, in single quotes. */
static void sh_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

static char *absolute(const char *path)
{
    char *p = realpath(path, NULL);
    return p ? p : strdup(path);
}

/* The command a job runs: this grader, this class, these options. */
static void command(FILE *f, const class_run *run, const char *mode)
{
    char *exe = absolute("/proc/self/exe"), *subs = absolute(run->submissions);
    char *out = absolute(run->out), *root = absolute(run->g.root);
    fputs("cd ", f);
    sh_quoted(f, root);
    fputs(" || exit 1\nexec ", f);
    sh_quoted(f, exe);
    fputs(" class ", f);
    sh_quoted(f, subs);
    for (int i = 0; i < run->nlessons; i++) {
        fputc(' ', f);
        sh_quoted(f, run->argv_lessons[i]);
    }
    fputs(" \\\n    --out ", f);
    sh_quoted(f, out);
    fprintf(f, " --seed %llu --budget %g --timeout %g %s\n", run->g.seed, run->budget_s,
            run->timeout_s, mode);
    free(exe);
    free(subs);
    free(out);
    free(root);
}

static void options(FILE *f, const class_run *run, int gres)
{
    if (gres && run->gres && strcmp(run->gres, "none"))
        fprintf(f, "#SBATCH --gres=%s\n", run->gres);
    if (run->partition)
        fprintf(f, "#SBATCH --partition=%s\n", run->partition);
    if (run->account)
        fprintf(f, "#SBATCH --account=%s\n", run->account);
}

/* grade-class.sbatch's comment and #SBATCH lines: the array of ntasks, a
 * task's time (its students' budgets, and room to start and write, unless
 * --slurm-time says), its log. */
static void array_header(FILE *f, const class_run *run, const char *dir, int ntasks)
{
    char date[32];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    /* A task's time: its students' budgets, and room to start and write. */
    int minutes = (int)(run->budget_s * run->batch / 60) + 5;
    char which[96];
    if (run->batch == 1)
        snprintf(which, sizeof which, "line I+1 of tasks.txt (a student");
    else
        snprintf(which, sizeof which, "lines %d*I+1 .. %d*I+%d of tasks.txt (students", run->batch,
                 run->batch, run->batch);
    fprintf(f, "#!/bin/bash\n"
            "# grade-class.sbatch: written by `make grade-class SCHEDULER=slurm` on %s.\n"
            "# A job array: task I grades %s missing or\n"
            "# changed since the last grade; each line is an entry of the submissions\n"
            "# folder, in hex) into the shared results folder, as a plain grade-class\n"
            "# would. A task that dies, is preempted or runs out of time leaves its\n"
            "# students 'not graded (why)' in the merge (collect.sbatch); submitting\n"
            "# again grades only them.\n", date, which);
    fprintf(f, "#SBATCH --job-name=grade-class\n#SBATCH --array=0-%d\n", ntasks - 1);
    fprintf(f, "#SBATCH --output=%s/logs/task-%%A_%%a.out\n", dir);
    fprintf(f, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=2\n");
    if (run->time_limit)
        fprintf(f, "#SBATCH --time=%s\n", run->time_limit);
    else
        fprintf(f, "#SBATCH --time=%d\n", minutes);
}

/* collect.sbatch: the merge, submitted to run after the array. */
static int write_collect(const class_run *run, const char *dir)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/collect.sbatch", dir);
    FILE *f = out_open(path);
    if (!f)
        return -1;
    fprintf(f, "#!/bin/bash\n"
            "# collect.sbatch: the merge of grade-class.sbatch's results into gradebook.csv,\n"
            "# summary.md, class.json, junit.xml and the leaderboards (what\n"
            "# `make grade-class-collect` runs). Submitted to depend on the array (afterany).\n"
            "#SBATCH --job-name=grade-class-collect\n#SBATCH --output=%s/logs/collect-%%j.out\n"
            "#SBATCH --ntasks=1\n#SBATCH --time=30\n", dir);
    options(f, run, 0);
    command(f, run, "--collect");
    return out_commit(f, path);
}

static int write_array(const class_run *run, const char *dir, int ntasks)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/grade-class.sbatch", dir);
    FILE *f = out_open(path);
    if (!f)
        return -1;
    array_header(f, run, dir, ntasks);
    options(f, run, 1);
    char *m = NULL;
    size_t mlen = 0;
    FILE *ms = open_memstream(&m, &mlen);
    if (!ms) {
        fclose(f);
        return -1;
    }
    fprintf(ms, "\\\n    --task-list ");
    sh_quoted(ms, dir);
    fprintf(ms, "/tasks.txt --batch %d --task \"$SLURM_ARRAY_TASK_ID\"", run->batch);
    fclose(ms);
    command(f, run, m);
    free(m);
    if (out_commit(f, path) != 0)
        return -1;
    return write_collect(run, dir);
}

int class_slurm_write(class_run *run)
{
    char dir[4200], path[4300];
    char *out = absolute(run->out);
    snprintf(dir, sizeof dir, "%s/slurm", out);
    free(out);
    snprintf(path, sizeof path, "%s/logs", dir);
    if (mkdir_p(path) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/tasks.txt", dir);
    FILE *f = out_open(path);
    if (!f)
        return -1;
    for (int i = 0; i < run->nplanned; i++)
        hex_line(f, run->planned[i]);
    if (out_commit(f, path) != 0)
        return -1;
    int ntasks = (run->nplanned + run->batch - 1) / run->batch;
    return ntasks ? write_array(run, dir, ntasks) : 0;
}

static int unhex(const char *line, char *out, size_t len)
{
    size_t n = strcspn(line, "\r\n");
    if (n % 2 || n / 2 + 1 > len)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(line + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (char)v;
    }
    out[n / 2] = 0;
    return 0;
}

int class_slurm_pick(class_run *run, char **entries)
{
    FILE *f = fopen(run->task_list, "r");
    if (!f) {
        fprintf(stderr, "grader class: cannot read the task list %s: %s\n", run->task_list,
                strerror(errno));
        return -1;
    }
    char line[1200], entry[600];
    int from = run->task * run->batch, n = 0, picked = 0;
    while (fgets(line, sizeof line, f)) {
        if (n++ < from || n > from + run->batch || unhex(line, entry, sizeof entry) != 0)
            continue;
        for (int e = 0; e < run->nst; e++)
            if (!strcmp(entries[e], entry)) {
                run->st[e].picked = 1;
                picked++;
            }
    }
    fclose(f);
    if (!picked)
        fprintf(stderr, "grader class: task %d has no student in %s (moved or renamed since "
                "the job was planned?)\n", run->task, run->task_list);
    return 0;
}

static void note_path(const class_run *run, const class_student *st, char *path, size_t len)
{
    snprintf(path, len, "%s/.cache/%s.task", run->out, st->name);
}

void class_slurm_started(const class_run *run, const class_student *st)
{
    char path[4300], date[32];
    note_path(run, st, path, sizeof path);
    FILE *f = out_open(path);
    if (!f)
        return;
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&t));
    const char *job = getenv("SLURM_ARRAY_JOB_ID"), *task = getenv("SLURM_ARRAY_TASK_ID");
    char host[128] = "?";
    gethostname(host, sizeof host - 1);
    fprintf(f, "Slurm job %s, task %s, on %s, started %s", job ? job : "?", task ? task : "?",
            host, date);
    out_commit(f, path);
}

void class_slurm_done(const class_run *run, const class_student *st)
{
    char path[4300];
    note_path(run, st, path, sizeof path);
    unlink(path);
}

void class_slurm_missing(const class_run *run, class_student *st)
{
    char path[4300], note[200] = "";
    note_path(run, st, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(note, sizeof note, f))
            note[0] = 0;
        fclose(f);
    }
    utf8_scrub(note);
    if (note[0])
        snprintf(st->why_not, sizeof st->why_not, "not graded: its task (%s) ended without "
                 "results: it died, was preempted or ran out of time (see slurm/logs/); "
                 "submit again to grade it", note);
    else
        snprintf(st->why_not, sizeof st->why_not, "not graded: no results for this "
                 "submission yet (its task has not run, or it changed since); submit again "
                 "to grade it");
    st->cached = 0;
    st->passed = st->counted = 0;
}
