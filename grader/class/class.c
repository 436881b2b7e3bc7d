/* class.c: `grader class`, every submission of a class graded in one run
 * (see class.h for the command and the output folder).
 *
 * A student's files are read and checked first (submission.c), then copied
 * into a private folder under $TMPDIR that holds nothing else, graded from
 * there exercise by exercise (each in its own child, as `make check` does),
 * and the folder is removed before the next student. Paths in the report
 * are written as the student knows them (exercises/lesson3/matmul.cu). */
#include <cuda_runtime_api.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "archive.h"
#include "class.h"
#include "grade_options.h"
#include "clock.h"
#include "knobs.h"
#include "lesson_name.h"
#include "reference.h"

static const char synopsis[] =
    "usage: grader class SUBMISSIONS [lesson...] [options]\n"
    "       (make grade-class SUBMISSIONS=dir)\n"
    "  SUBMISSIONS: a folder with one entry per student: a folder laid out like\n"
    "               exercises/, or a .tar, .tar.gz, .tgz or .zip of one\n"
    "  lesson: lesson3, 3 or all (default: all)\n";

static void utc_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    strftime(buf, len, "%Y-%m-%d %H:%M:%S", gmtime(&t));
}

/* A word on the command line: the submissions folder first, then lessons
 * ("lesson3", "3" or "all"), kept as given for Slurm's batch script. */
typedef struct class_args {
    class_run *run;
    int lessons[N_LESSONS];    /* 1: selected */
} class_args;

static int class_word(void *ctx, const char *a, char *err, size_t len)
{
    class_args *args = ctx;
    class_run *run = args->run;
    if (!run->submissions) {
        run->submissions = a;
        return 0;
    }
    if (lesson_mark(a, args->lessons, err, len) != 0)
        return -1;
    run->argv_lessons[run->nlessons++] = (char *)a;
    return 0;
}


/* The command line into run and lessons. 0; 1 after printing the help; -1
 * after saying on stderr what is wrong. Over 60 lines only because the
 * options' table (a row each, read by core/options.c) is written here,
 * where the fields it fills are. */
static int parse_args(int argc, char **argv, class_run *run, int *lessons)
{
    run->argv_lessons = calloc((size_t)argc + 1, sizeof *run->argv_lessons);
    /* The options, in the order --help lists them. */
    const option_spec opts[] = {
        {.name = "--out", .kind = OPTION_STRING, .arg = "DIR", .string = &run->out,
         .help = "where the results go (default build/class)"},
        OPT_SEED(&run->g.seed, NULL,
                 "the inputs' seed (default: the one recorded in DIR, else\n"
                 "a new one)"),
        {.name = "--budget", .kind = OPTION_SECONDS, .arg = "S", .seconds = &run->budget_s,
         .help = "seconds one student's exercises may take together\n"
                 "(default 600)"},
        OPT_TIMEOUT(&run->timeout_s),
        {.name = "--regrade", .kind = OPTION_FLAG, .flag = &run->regrade,
         .help = "grade every submission, even those unchanged since\n"
                 "the last run"},
        {.name = "--gpus", .kind = OPTION_STRING, .arg = "LIST", .string = &run->gpus_spec,
         .help = "a worker per GPU, taking students from one queue:\n"
                 "all, or 0,1,..."},
        OPT_ROOT(&run->g.root),
        {.heading = "Slurm (class_slurm.c; make grade-class SCHEDULER=slurm):"},
        {.name = "--slurm", .kind = OPTION_FLAG, .flag = &run->plan,
         .help = "plan: write DIR/slurm/tasks.txt and the batch scripts,\n"
                 "grade nothing"},
        {.name = "--slurm-partition", .kind = OPTION_STRING, .arg = "P",
         .string = &run->partition, .help = "the job's partition (sbatch --partition)"},
        {.name = "--slurm-account", .kind = OPTION_STRING, .arg = "A", .string = &run->account,
         .help = "the job's account (sbatch --account)"},
        {.name = "--slurm-time", .kind = OPTION_STRING, .arg = "T", .string = &run->time_limit,
         .help = "one task's time limit (sbatch --time)"},
        {.name = "--slurm-gres", .kind = OPTION_STRING, .arg = "G", .string = &run->gres,
         .help = "one task's GPU request (gpu:1; none, or not given:\n"
                 "no --gres)"},
        {.name = "--batch", .kind = OPTION_INT, .arg = "K", .integer = &run->batch, .min = 1,
         .help = "students per task (default 1)"},
        {.name = "--task-list", .kind = OPTION_STRING, .arg = "F", .string = &run->task_list,
         .help = "with --task I: grade the task's students (what the\n"
                 "job array runs)"},
        {.name = "--task", .kind = OPTION_INT, .arg = "I", .integer = &run->task,
         .help = "which task of --task-list, from 0"},
        {.name = "--collect", .kind = OPTION_FLAG, .flag = &run->collect,
         .help = "write the class files from what the tasks left;\n"
                 "grade nothing"},
        {0},
    };
    class_args args = {.run = run};
    option_command c = {.opts = opts, .word = class_word, .ctx = &args, .synopsis = synopsis,
                        .width = 22};
    char err[512];
    int r = options_parse(&c, argc, argv, err, sizeof err);
    if (r == OPTIONS_HELP) {
        options_help(&c, stdout);
        return 1;
    }
    if (r == OPTIONS_BAD) {
        fprintf(stderr, "grader class: %s\n", err);
        return -1;
    }
    if (!run->submissions) {
        options_help(&c, stderr);
        return -1;
    }
    for (int l = 0; l < N_LESSONS; l++)
        lessons[l] = run->nlessons ? args.lessons[l] : 1;
    return 0;
}

/* Demos are shown to students, not handed in: they are not graded here. */
static void select_exercises(class_run *run, const int *lessons)
{
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; lessons[l] && *e; e++)
            if (!(*e)->demo && run->nex < SUB_MAX_EX)
                run->ex[run->nex++] = *e;
}

/* The seed: given, else the one this output folder recorded, else new. */
static int settle_seed(class_run *run, int given)
{
    char dir[4200], path[4300];
    snprintf(dir, sizeof dir, "%s/.cache", run->out);
    snprintf(path, sizeof path, "%s/seed", dir);
    if (!given) {
        FILE *f = fopen(path, "r");
        if (!f || fscanf(f, "%llu", &run->g.seed) != 1 || run->g.seed == 0) {
            FILE *u = fopen("/dev/urandom", "rb");
            unsigned long long s = 0;
            if (!u || fread(&s, sizeof s, 1, u) != 1)
                s = (unsigned long long)time(NULL);
            if (u)
                fclose(u);
            run->g.seed = s % 1000000000ull + 1;   /* short enough to type */
        }
        if (f)
            fclose(f);
    }
    if (mkdir_p(dir) != 0)
        return -1;
    FILE *f = out_open(path);
    if (!f)
        return -1;
    fprintf(f, "%llu\n", run->g.seed);
    return out_commit(f, path);
}

/* What the grade depends on besides the student's files: this grader, and
 * the baseline and reference each exercise is measured against. */
static void course_hash(class_run *run, const char *self)
{
    sha256 h;
    sha256_init(&h);
    if (sha256_file(&h, self ? self : "/proc/self/exe") != 0)
        sha256_str(&h, "(grader binary unreadable)");
    for (int i = 0; i < run->nex; i++) {
        char path[1024];
        variant_path(run->ex[i], V_BASELINE, &run->g, path, sizeof path);
        sha256_str(&h, path);
        sha256_file(&h, path);
        reference_source(run->ex[i], &run->g, path, sizeof path);
        sha256_str(&h, path);
        sha256_file(&h, path);
    }
    sha256_hex(&h, run->course);
}

/* The report must read as the student knows their files, and hold only text
 * that is valid UTF-8 (a compile log quotes the student's own bytes). */
static void scrub(result *r, const char *stage)
{
    char *fields[] = {r->message, r->detail, r->failed_check, r->stage, r->gpu};
    size_t sizes[] = {sizeof r->message, sizeof r->detail, sizeof r->failed_check,
                      sizeof r->stage, sizeof r->gpu};
    for (int i = 0; i < 5; i++) {
        replace_all(fields[i], sizes[i], stage, "exercises");
        utf8_scrub(fields[i]);
    }
}

static void grade_exercises(class_run *run, class_student *st, const submission *sub,
                            const char *stage, class_grade_fn grade, graded *g)
{
    grade_opts go = run->g;
    go.student_dir = stage;
    double start = now_s();
    for (int i = 0; i < run->nex; i++) {
        const exercise *ex = run->ex[i];
        result *r = &g[i].r;
        int knobs[MAX_KNOBS];
        knob_defaults(ex, knobs);
        g[i].ex = ex;
        memset(r, 0, sizeof *r);
        double t0 = now_s(), left = run->budget_s - (t0 - start);
        if (!sub->data[i]) {
            r->outcome = r->stopped = OUT_MISSING;   /* a stop (verdict.h) */
            if (sub->missing_why[i][0])
                snprintf(r->message, sizeof r->message, "%s is not in the submission: %s.",
                         ex->file, sub->missing_why[i]);
            else
                snprintf(r->message, sizeof r->message, "%s is not in the submission.", ex->file);
        } else if (left <= 0) {
            r->outcome = OUT_NOT_RUN;
            snprintf(r->message, sizeof r->message, "Not graded: the time budget of %.0f s per "
                     "student was used up by the exercises before this one.", run->budget_s);
            st->budget_hit++;
        } else {
            double limit = left < run->timeout_s ? left : run->timeout_s;
            if (!run->tty)     /* on a terminal, the progress line says it */
                fprintf(stderr, "grading %s: lesson%d/%s ...\n", st->name, ex->lesson, ex->name);
            grade(ex, knobs, &go, limit, r);
            if (r->outcome == OUT_HANG && limit < run->timeout_s)
                snprintf(r->message + strlen(r->message), sizeof r->message - strlen(r->message),
                         " (The limit was what remained of the student's time budget of %.0f s.)",
                         run->budget_s);
        }
        r->seed = run->g.seed;
        for (int k = 0; k < MAX_KNOBS; k++)
            r->knobs[k] = knobs[k];
        scrub(r, stage);
        class_cell *c = &st->cell[i];
        memset(c, 0, sizeof *c);
        c->outcome = r->outcome;
        c->timed = r->timed;
        for (int v = 0; v < N_VARIANTS; v++)
            c->ms[v] = r->time[v].ms;
        c->speedup = r->speedup;
        c->seconds = now_s() - t0;
        reason_of(r, c->reason, sizeof c->reason);
        st->passed += outcome_is_pass(r->outcome);
        st->counted++;
    }
    st->seconds = now_s() - start;
}

/* Remove what submission_stage wrote, and nothing else. */
static void unstage(const submission *sub, const char *stage)
{
    char path[4200];
    for (int i = 0; i < sub->nex; i++)
        if (sub->data[i]) {
            snprintf(path, sizeof path, "%s/%s", stage, sub->ex[i]->file);
            unlink(path);
            char *slash = strrchr(path, '/');
            *slash = 0;
            rmdir(path);
        }
    rmdir(stage);
}

static int outputs_exist(const class_run *run, const class_student *st)
{
    static const char *files[] = {"report.txt", "report.json", "junit.xml", "submission.json"};
    for (int i = 0; i < 4; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/students/%s/%s", run->out, st->name, files[i]);
        if (access(path, F_OK) != 0)
            return 0;
    }
    return 1;
}

/* What the row keeps of the submission, and the key that decides a re-grade:
 * the student's files and the conditions of grading (the GPU is compared
 * apart, so that a collector without one can read a task's results). */
static void take_submission(const class_run *run, class_student *st, const submission *sub)
{
    snprintf(st->kind, sizeof st->kind, "%s", sub->kind);
    snprintf(st->error, sizeof st->error, "%.200s", sub->error);
    utf8_scrub(st->error);     /* cut at 200 bytes: maybe inside a character */
    st->nrefused = sub->nrefused;
    st->nignored = sub->nignored;
    st->nfound = 0;
    for (int i = 0; i < sub->nex; i++)
        st->nfound += sub->data[i] != NULL;
    for (int i = 0; i < sub->nignored && i < 2; i++)
        snprintf(st->ignored[i], sizeof st->ignored[i], "%s", sub->ignored[i]);
    for (int i = 0; i < sub->nrefused && i < 4 && i < SUB_MAX_NOTES; i++)
        st->refused[i] = sub->refused[i];
    sha256 h;
    sha256_init(&h);
    char cond[512];
    snprintf(cond, sizeof cond, "course %s seed %llu budget %g timeout %g", run->course,
             run->g.seed, run->budget_s, run->timeout_s);
    sha256_str(&h, cond);
    submission_hash(sub, &h);
    sha256_hex(&h, st->key);
}

/* The cells of an earlier run for the same key, on the same GPU model (a
 * collector takes any: it grades nothing). 1 when they stand. */
static int unchanged(const class_run *run, class_student *st)
{
    if (run->regrade || !outputs_exist(run, st) || class_cache_load(run, st) != 0)
        return 0;
    if (run->collect) {
        st->cached = 0;        /* graded by the cluster's tasks, for this merge */
        return 1;
    }
    if (!strcmp(st->gpu, run->gpu))
        return 1;
    st->cached = 0;            /* graded on another GPU model: grade here */
    return 0;
}

static void student_line(const class_run *run, const class_student *st)
{
    if (run->tty)
        fputs("\r\033[K", stderr);
    if (run->worker)
        printf("[GPU %d] ", run->gpus[run->worker - 1]);
    if (st->cached)
        printf("%-20s %-7s unchanged since %s UTC: not graded again (%d of %d passed)\n",
               st->name, st->kind, st->graded_at, st->passed, st->counted);
    else {
        printf("%-20s %-7s %d of %d passed in %.0f s", st->name, st->kind, st->passed,
               st->counted, st->seconds);
        if (st->nrefused)
            printf("; %d entr%s refused (see its report)", st->nrefused,
                   st->nrefused > 1 ? "ies" : "y");
        if (st->error[0])
            printf("; not read whole: %s", st->error);
        printf("\n");
    }
    fflush(stdout);
}

/* Stage, grade and write one changed student. -1 when an output could not be written. */
static int grade_student(class_run *run, class_student *st, const submission *sub,
                         const char *tmproot, class_grade_fn grade)
{
    char stage[4200];
    snprintf(stage, sizeof stage, "%s/student", tmproot);   /* no name of theirs in a path */
    static graded g[SUB_MAX_EX];
    class_guard_staged(sub, stage, tmproot);
    if (submission_stage(sub, stage) != 0) {
        fprintf(stderr, "grader class: cannot write %s: %s\n", stage, strerror(errno));
        unstage(sub, stage);
        return -1;
    }
    snprintf(st->gpu, sizeof st->gpu, "%s", run->gpu);
    st->gpu_index = run->gpu_index;
    utc_now(st->graded_at, sizeof st->graded_at);
    grade_exercises(run, st, sub, stage, grade, g);
    unstage(sub, stage);
    student_line(run, st);
    if (class_write_student(run, st, sub, g, run->nex) != 0 || class_cache_save(run, st) != 0) {
        fprintf(stderr, "grader class: cannot write the results of %s under %s: %s\n", st->name,
                run->out, strerror(errno));
        return -1;
    }
    return 0;
}

/* One student, start to end. -1 only when an output could not be written. */
static int do_student(class_run *run, class_student *st, const char *path, const char *tmproot,
                      class_grade_fn grade)
{
    submission sub;
    submission_read(path, run->ex, run->nex, &sub);
    take_submission(run, st, &sub);
    int rc = 0;
    if (unchanged(run, st))
        student_line(run, st);
    else if (run->plan) {
        class_slurm_plan(run, path + strlen(run->submissions) + 1);
        printf("%-20s %-7s to grade on the cluster\n", st->name, st->kind);
    } else if (run->collect) {
        class_slurm_missing(run, st);
        printf("%-20s %s\n", st->name, st->why_not);
        rc = class_write_not_graded(run, st);
    } else {
        rc = grade_student(run, st, &sub, tmproot, grade);
    }
    if (run->task_list && rc == 0)
        class_slurm_done(run, st);
    submission_free(&sub);
    return rc;
}

/* Is `name`, in the submissions folder, the output folder itself (--out
 * inside the folder of submissions)? */
static int is_out_folder(void *ctx, const char *name)
{
    const class_run *run = ctx;
    struct stat out, st;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", run->submissions, name);
    return stat(run->out, &out) == 0 && stat(path, &st) == 0 && st.st_dev == out.st_dev &&
           st.st_ino == out.st_ino;
}

/* The submissions folder's entries, sorted (dir_names), without the output
 * folder. Hidden ones too are rows (a student may be ".bob"): nobody is lost
 * to a dot. *n = -1 (errno says why) when the folder cannot be read whole. */
static char **list_entries(const class_run *run, int *n)
{
    DIR *d = opendir(run->submissions);
    *n = -1;
    if (!d)
        return NULL;
    size_t count;
    char **names = dir_names(d, &count, is_out_folder, (void *)run);
    int e = errno;
    closedir(d);
    errno = e;
    *n = count == (size_t)-1 ? -1 : (int)count;
    return names;
}

/* Is this entry a student's submission? Says why not in the row when it is not. */
static int is_submission(class_run *run, class_student *st, const char *entry, int *dir)
{
    char path[4200];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", run->submissions, entry);
    *dir = 0;
    if (lstat(path, &sb) != 0)
        snprintf(st->why_not, sizeof st->why_not, "not graded: %s", strerror(errno));
    else if (S_ISLNK(sb.st_mode))
        snprintf(st->why_not, sizeof st->why_not, "not graded: a symbolic link; put the "
                 "folder or archive itself here");
    else if (S_ISDIR(sb.st_mode))
        *dir = 1;
    else if (!S_ISREG(sb.st_mode) || !archive_kind(entry))
        snprintf(st->why_not, sizeof st->why_not, "not graded: neither a folder nor a tar or "
                 "zip archive (.tar, .tar.gz, .tgz, .tar.bz2, .tar.xz, .tar.zst, .zip)");
    if (st->why_not[0])
        snprintf(st->kind, sizeof st->kind, "-");
    return !st->why_not[0];
}

/* A row per entry, each with its identifier and, when it is not a
 * submission, the reason. */
static int make_rows(class_run *run, char **entries, int n)
{
    /* Shared, so that workers (class_workers.c) fill the rows in place. */
    size_t bytes = ((size_t)n + 1) * sizeof *run->st + sizeof *run->q;
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int *dir = calloc((size_t)n + 1, sizeof *dir);
    if (mem == MAP_FAILED || !dir) {
        fprintf(stderr, "grader class: cannot hold the %d rows of %s in memory\n", n,
                run->submissions);
        free(dir);
        return -1;
    }
    run->q = mem;
    run->st = (class_student *)((char *)mem + sizeof *run->q);
    run->nst = n;
    for (int e = 0; e < n; e++) {
        class_student *st = &run->st[e];
        printable_name(entries[e], st->entry, sizeof st->entry);
        st->gpu_index = -1;
        is_submission(run, st, entries[e], &dir[e]);
    }
    class_assign_ids(run, entries, dir);
    free(dir);
    return 0;
}

/* Rows from the queue until none is left: this process's share of the class. */
static int grade_rows(class_run *run, char **entries, class_grade_fn grade)
{
    char tmproot[4096];
    const char *tmp = getenv("TMPDIR");
    snprintf(tmproot, sizeof tmproot, "%s/grade-class-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmproot)) {
        fprintf(stderr, "grader class: cannot make a folder under %s: %s\n",
                tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return -1;
    }
    int rc = 0;
    for (;;) {
        int e = __atomic_fetch_add(&run->q->next, 1, __ATOMIC_SEQ_CST);
        if (e >= run->nst)
            break;
        class_student *st = &run->st[e];
        if (run->task_list && !st->picked)
            continue;          /* another task's */
        st->state = 1;
        if (!class_graded(st)) {
            if (run->plan)
                continue;
            if (run->tty)
                fputs("\r\033[K", stderr);
            printf("%-20s %s\n", st->name, st->why_not);
            fflush(stdout);
            if (class_write_not_graded(run, st) != 0)
                rc = -1;
        } else {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", run->submissions, entries[e]);
            if (do_student(run, st, path, tmproot, grade) != 0)
                rc = -1;
        }
        st->state = 2;
        class_progress_row(run, st);
    }
    if (rmdir(tmproot) != 0)
        fprintf(stderr, "grader class: could not remove %s: %s\n", tmproot, strerror(errno));
    return rc;
}

typedef struct rows_arg {
    char **entries;
} rows_arg;

static int worker_body(class_run *run, const class_hooks *h, void *arg)
{
    return grade_rows(run, ((rows_arg *)arg)->entries, h->grade);
}

/* Rows a worker took and never finished (it died), or that no worker took. */
static void unfinished_rows(class_run *run)
{
    for (int s = 0; s < run->nst; s++) {
        class_student *st = &run->st[s];
        if (st->state == 2)
            continue;
        snprintf(st->why_not, sizeof st->why_not, "not graded: %s; run again to grade it",
                 st->state ? "the worker grading it stopped before it was done"
                 : "every worker stopped before it was taken");
        st->cached = 0;
        st->passed = st->counted = 0;
    }
}

static int grade_all(class_run *run, char **entries, const class_hooks *h)
{
    if (run->ngpus == 0)
        return grade_rows(run, entries, h->grade);
    rows_arg arg = {.entries = entries};
    int rc = class_workers_run(run, h, worker_body, &arg);
    unfinished_rows(run);
    return rc;
}

/* Options, folders, the lock, the seed, the GPU and the course's hash.
 * 0, -1 when --help printed the help (nothing to do), or the exit status;
 * run->lock gets the lock's fd. */
static int set_up(class_run *run, int argc, char **argv, const class_hooks *h)
{
    int lessons[N_LESSONS] = {0};
    int r = parse_args(argc, argv, run, lessons);
    if (r != 0)
        return r > 0 ? -1 : 2;
    int seed_given = run->g.seed != 0;
    select_exercises(run, lessons);
    struct stat sd;
    if (stat(run->submissions, &sd) != 0 || !S_ISDIR(sd.st_mode)) {
        fprintf(stderr, "grader class: %s is not a folder of submissions\n", run->submissions);
        return 2;
    }
    if (mkdir_p(run->out) != 0) {
        fprintf(stderr, "grader class: cannot write to %s: %s\n", run->out, strerror(errno));
        return 1;
    }
    /* A task locks later (run_class), once it has noted its students. */
    run->lock = run->task_list ? -1 : class_lock(run->out, 0);
    if (run->lock < 0 && !run->task_list) {
        if (errno != EWOULDBLOCK)
            fprintf(stderr, "grader class: cannot lock %s: %s\n", run->out, strerror(errno));
        return 2;
    }
    if (settle_seed(run, seed_given) != 0) {
        fprintf(stderr, "grader class: cannot write to %s: %s\n", run->out, strerror(errno));
        return 1;
    }
    class_guard_signals();
    utc_now(run->date, sizeof run->date);
    class_probe_gpu(run, h, NULL);
    run->gpu_index = run->gpu[0] ? 0 : -1;
    if (run->gpus_spec && class_parse_gpus(run, h, run->gpus_spec) != 0)
        return 2;
    course_hash(run, h->self);
    return 0;
}

static void headline(const class_run *run)
{
    printf("%s %s: %d exercise%s per student, %s%s, seed %llu. Results in %s/.\n",
           run->plan ? "Planning" : run->collect ? "Collecting" : "Grading", run->submissions,
           run->nex, run->nex == 1 ? "" : "s",
           run->gpu[0] ? "on " : "without a GPU (compiled, mechanism-checked and run on the PTX simulator)",
           run->gpu, run->g.seed, run->out);
    if (run->ngpus) {
        printf("A worker per GPU, each taking the next student:");
        for (int k = 0; k < run->ngpus; k++)
            printf(" %d", run->gpus[k]);
        printf(".\n");
    }
    fflush(stdout);
}

/* What the mode writes when the rows are done: the class files, or (--slurm)
 * the job's files, or (--task) nothing more. */
static int finish(class_run *run)
{
    if (run->task_list)
        return 0;
    if (run->plan) {
        if (class_slurm_write(run) != 0) {
            fprintf(stderr, "grader class: cannot write %s/slurm/: %s\n", run->out,
                    strerror(errno));
            return -1;
        }
        printf("\n%d submission%s to grade on the cluster: %s/slurm/grade-class.sbatch "
               "(tasks.txt lists them), then %s/slurm/collect.sbatch.\n", run->nplanned,
               run->nplanned == 1 ? "" : "s", run->out, run->out);
        return 0;
    }
    if (class_write_gradebook(run) != 0 || class_write_leaderboards(run) != 0 ||
        class_write_class_junit(run) != 0 || class_write_json(run) != 0 ||
        class_write_summary(run, stdout) != 0) {
        fprintf(stderr, "grader class: cannot write the class results under %s: %s\n", run->out,
                strerror(errno));
        return -1;
    }
    printf("\nGradebook: %s/gradebook.csv. Summary: %s/summary.md. Per student: %s/students/.\n",
           run->out, run->out, run->out);
    return 0;
}

/* A Slurm task: its students noted as started (so that a task killed from
 * here on is named in the merge), then the folder locked, shared with the
 * other tasks, waiting while a plain run or the merge holds it. */
static int task_lock(class_run *run, char **entries)
{
    if (class_slurm_pick(run, entries) != 0)
        return -1;
    for (int s = 0; s < run->nst; s++)
        if (run->st[s].picked && class_graded(&run->st[s]))
            class_slurm_started(run, &run->st[s]);
    run->lock = class_lock_as(run->out, 1, 1);
    if (run->lock < 0)
        fprintf(stderr, "grader class: cannot lock %s: %s\n", run->out, strerror(errno));
    return run->lock < 0 ? -1 : 0;
}

static int run_class(class_run *run, const class_hooks *h)
{
    int n = 0;
    char **entries = list_entries(run, &n);
    if (n < 0) {
        fprintf(stderr, "grader class: cannot read %s: %s\n", run->submissions, strerror(errno));
        return 2;
    }
    headline(run);
    int rc = make_rows(run, entries, n);
    if (rc == 0 && run->task_list)
        rc = task_lock(run, entries);
    if (rc == 0) {
        run->tty = isatty(2);
        run->started = now_s();
        rc = grade_all(run, entries, h);
        class_progress_show(run, 1);
        if (finish(run) != 0)
            rc = -1;
    }
    for (int i = 0; i < n; i++)
        free(entries[i]);
    free(entries);
    return rc ? 1 : 0;
}

int class_main(int argc, char **argv, const class_hooks *h)
{
    static class_run run;
    memset(&run, 0, sizeof run);
    run.out = "build/class";
    grade_opts_defaults(&run.g);
    run.timeout_s = GRADE_TIMEOUT_S;
    run.budget_s = 600;
    run.batch = 1;
    run.lock = -1;
    int rc = set_up(&run, argc, argv, h);
    if (rc < 0)                /* --help: printed, nothing to grade */
        rc = 0;
    else if (rc == 0)
        rc = run_class(&run, h);
    if (run.q)
        munmap(run.q, ((size_t)run.nst + 1) * sizeof *run.st + sizeof *run.q);
    for (int i = 0; i < run.nplanned; i++)
        free(run.planned[i]);
    free(run.planned);
    free(run.argv_lessons);
    if (run.lock >= 0)
        close(run.lock);
    return rc;
}
