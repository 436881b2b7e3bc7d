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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "archive.h"
#include "class.h"
#include "clock.h"
#include "knobs.h"
#include "lesson_name.h"
#include "reference.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: grader class SUBMISSIONS [lesson...] [options]   (make grade-class SUBMISSIONS=dir)\n"
        "  SUBMISSIONS: a folder with one entry per student: a folder laid out like\n"
        "               exercises/, or a .tar, .tar.gz, .tgz or .zip of one\n"
        "  lesson: lesson3, 3 or all (default: all)\n"
        "options:\n"
        "  --out DIR      where the results go (default build/class)\n"
        "  --seed N       the inputs' seed (default: the one recorded in DIR, else a new one)\n"
        "  --budget S     seconds one student's exercises may take together (default 600)\n"
        "  --timeout S    seconds one exercise may take (default 120)\n"
        "  --regrade      grade every submission, even those unchanged since the last run\n"
        "  --root DIR     the course's top folder (default .)\n");
}

static void utc_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    strftime(buf, len, "%Y-%m-%d %H:%M:%S", gmtime(&t));
}

static int parse_args(int argc, char **argv, class_run *run, int *lessons)
{
    int any = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        }
        int takes = !strcmp(a, "--out") || !strcmp(a, "--seed") || !strcmp(a, "--budget") ||
                    !strcmp(a, "--timeout") || !strcmp(a, "--root");
        if (takes && !val) {
            fprintf(stderr, "grader class: %s needs a value\n", a);
            return -1;
        }
        if (takes)
            i++;
        if (!strcmp(a, "--out"))
            run->out = val;
        else if (!strcmp(a, "--root"))
            run->g.root = val;
        else if (!strcmp(a, "--seed"))
            run->g.seed = strtoull(val, NULL, 10);
        else if (!strcmp(a, "--budget") || !strcmp(a, "--timeout")) {
            double v = atof(val);
            if (v <= 0) {
                fprintf(stderr, "grader class: %s needs seconds > 0, got '%s'\n", a, val);
                return -1;
            }
            *(!strcmp(a, "--budget") ? &run->budget_s : &run->timeout_s) = v;
        } else if (!strcmp(a, "--regrade"))
            run->regrade = 1;
        else if (a[0] == '-') {
            fprintf(stderr, "grader class: unknown option %s\n", a);
            return -1;
        } else if (!run->submissions)
            run->submissions = a;
        else if (!strcmp(a, "all")) {
            for (int l = 0; l < N_LESSONS; l++)
                lessons[l] = 1;
            any = 1;
        } else {
            int l = lesson_from_name(a);
            if (l < 0) {
                fprintf(stderr, "grader class: '%s' is not a lesson (lesson0 .. lesson%d, or "
                        "all)\n", a, N_LESSONS - 1);
                return -1;
            }
            lessons[l] = any = 1;
        }
    }
    if (!run->submissions) {
        usage(stderr);
        return -1;
    }
    if (!any)
        for (int l = 0; l < N_LESSONS; l++)
            lessons[l] = 1;
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

/* The GPU every student will be graded on, asked in a child so this process
 * never holds a CUDA context across the fork of each grading child. */
static void probe_gpu(class_run *run, const class_hooks *h)
{
    int p[2];
    run->gpu[0] = 0;
    if (h->probe) {
        h->probe(run->gpu, sizeof run->gpu, &run->cc);
        return;
    }
    if (pipe(p) != 0)
        return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        int n = 0;
        struct cudaDeviceProp prop;
        char line[160] = "";
        if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0 &&
            cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
            snprintf(line, sizeof line, "%d %.128s", prop.major * 10 + prop.minor, prop.name);
        ssize_t w = write(p[1], line, strlen(line));
        (void)w;
        _exit(0);
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return;
    }
    char buf[200] = "";
    struct pollfd pf = {.fd = p[0], .events = POLLIN};
    ssize_t n = poll(&pf, 1, 60000) > 0 ? read(p[0], buf, sizeof buf - 1) : -1;
    close(p[0]);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    if (n > 0) {
        buf[n] = 0;
        char *sp = strchr(buf, ' ');
        if (sp) {
            run->cc = atoi(buf);
            snprintf(run->gpu, sizeof run->gpu, "%s", sp + 1);
        }
    }
}

/* What the grade depends on besides the student's files: this grader, and
 * the baseline and reference each exercise is measured against. */
static void course_hash(class_run *run)
{
    sha256 h;
    sha256_init(&h);
    if (sha256_file(&h, "/proc/self/exe") != 0)
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

/* The student's name: the entry without its archive ending, letters, digits,
 * '.', '_' and '-' only, starting with a letter or digit. */
static void student_name(const char *entry, char *name, size_t len)
{
    char base[SUB_NAME];
    snprintf(base, sizeof base, "%s", entry);
    const char *kind = archive_kind(base);
    if (kind) {
        size_t n = strlen(base);
        base[n - (n > 7 && !strcmp(base + n - 7, ".tar.gz") ? 7 : 4)] = 0;
    }
    size_t o = 0;
    if (!((base[0] >= 'a' && base[0] <= 'z') || (base[0] >= 'A' && base[0] <= 'Z') ||
          (base[0] >= '0' && base[0] <= '9')))
        name[o++] = 's';
    for (const char *p = base; *p && o + 1 < len && o < 48; p++) {
        char c = *p;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '_' || c == '-';
        name[o++] = ok ? c : '_';
    }
    name[o] = 0;
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

/* One student, start to end. -1 only when an output could not be written. */
static int do_student(class_run *run, class_student *st, const char *path, const char *tmproot,
                      class_grade_fn grade)
{
    submission sub;
    submission_read(path, run->ex, run->nex, &sub);
    snprintf(st->kind, sizeof st->kind, "%s", sub.kind);
    snprintf(st->error, sizeof st->error, "%.200s", sub.error);
    st->nrefused = sub.nrefused;
    st->nignored = sub.nignored;
    for (int i = 0; i < sub.nrefused && i < 4 && i < SUB_MAX_NOTES; i++)
        st->refused[i] = sub.refused[i];

    sha256 h;
    sha256_init(&h);
    char cond[512];
    snprintf(cond, sizeof cond, "course %s seed %llu gpu %s budget %g timeout %g", run->course,
             run->g.seed, run->gpu, run->budget_s, run->timeout_s);
    sha256_str(&h, cond);
    submission_hash(&sub, &h);
    sha256_hex(&h, st->key);

    int rc = 0;
    if (!run->regrade && outputs_exist(run, st) && class_cache_load(run, st) == 0) {
        printf("%-20s %-7s unchanged since %s UTC: not graded again (%d of %d passed)\n",
               st->name, st->kind, st->graded_at, st->passed, st->counted);
        goto out;
    }
    char stage[4200];
    snprintf(stage, sizeof stage, "%s/%s", tmproot, st->name);
    static graded g[SUB_MAX_EX];
    if (submission_stage(&sub, stage) != 0) {
        fprintf(stderr, "grader class: cannot write %s: %s\n", stage, strerror(errno));
        unstage(&sub, stage);
        rc = -1;
        goto out;
    }
    utc_now(st->graded_at, sizeof st->graded_at);
    grade_exercises(run, st, &sub, stage, grade, g);
    unstage(&sub, stage);
    printf("%-20s %-7s %d of %d passed in %.0f s", st->name, st->kind, st->passed, st->counted,
           st->seconds);
    if (st->nrefused)
        printf("; %d entr%s refused (see its report)", st->nrefused, st->nrefused > 1 ? "ies" : "y");
    if (st->error[0])
        printf("; not read whole: %s", st->error);
    printf("\n");
    fflush(stdout);
    if (class_write_student(run, st, &sub, g, run->nex) != 0 || class_cache_save(run, st) != 0) {
        fprintf(stderr, "grader class: cannot write the results of %s under %s: %s\n", st->name,
                run->out, strerror(errno));
        rc = -1;
    }
out:
    submission_free(&sub);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of SUBMISSIONS, sorted; hidden ones and the output folder left out. */
static char **list_entries(const class_run *run, int *n)
{
    DIR *d = opendir(run->submissions);
    *n = -1;
    if (!d)
        return NULL;
    struct stat out;
    int have_out = stat(run->out, &out) == 0;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *de;
    *n = 0;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", run->submissions, de->d_name);
        if (have_out && stat(path, &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
            continue;
        if ((size_t)*n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        names[(*n)++] = strdup(de->d_name);
    }
    closedir(d);
    if (names)
        qsort(names, (size_t)*n, sizeof *names, by_name);
    return names;
}

static void not_graded(class_run *run, const char *entry, const char *why)
{
    char shown[SUB_NAME];
    printable_name(entry, shown, sizeof shown);
    if (run->n_not_graded < 8)
        snprintf(run->not_graded[run->n_not_graded++], sizeof run->not_graded[0],
                 "%.100s: not graded: %.130s", shown, why);
    printf("%-20s not graded: %s\n", shown, why);
}

/* Is this entry a student's submission? Says why not when it is not. */
static int is_submission(class_run *run, const char *entry)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", run->submissions, entry);
    if (lstat(path, &st) != 0) {
        not_graded(run, entry, strerror(errno));
        return 0;
    }
    if (S_ISLNK(st.st_mode)) {
        not_graded(run, entry, "a symbolic link; put the folder or archive itself here");
        return 0;
    }
    if (!S_ISDIR(st.st_mode) && !(S_ISREG(st.st_mode) && archive_kind(entry))) {
        not_graded(run, entry, "neither a folder nor a .tar, .tar.gz, .tgz or .zip file");
        return 0;
    }
    return 1;
}

static int grade_all(class_run *run, char **entries, int n, class_grade_fn grade)
{
    char tmproot[4096];
    const char *tmp = getenv("TMPDIR");
    snprintf(tmproot, sizeof tmproot, "%s/grade-class-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmproot)) {
        fprintf(stderr, "grader class: cannot make a folder under %s: %s\n",
                tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return -1;
    }
    run->st = calloc((size_t)n + 1, sizeof *run->st);
    if (!run->st)
        return -1;
    int rc = 0;
    for (int e = 0; e < n; e++) {
        if (!is_submission(run, entries[e]))
            continue;
        class_student *st = &run->st[run->nst];
        student_name(entries[e], st->name, sizeof st->name);
        printable_name(entries[e], st->entry, sizeof st->entry);
        int clash = -1;
        for (int s = 0; s < run->nst && clash < 0; s++)
            if (!strcmp(run->st[s].name, st->name))
                clash = s;
        if (clash >= 0) {
            char why[SUB_NAME + 128];
            snprintf(why, sizeof why, "%s is also the name of %.100s, graded above; rename one",
                     st->name, run->st[clash].entry);
            not_graded(run, entries[e], why);
            memset(st, 0, sizeof *st);
            continue;
        }
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", run->submissions, entries[e]);
        if (do_student(run, st, path, tmproot, grade) != 0)
            rc = -1;
        run->nst++;
    }
    if (rmdir(tmproot) != 0)
        fprintf(stderr, "grader class: could not remove %s: %s\n", tmproot, strerror(errno));
    return rc;
}

int class_main(int argc, char **argv, const class_hooks *h)
{
    static class_run run;
    int lessons[N_LESSONS] = {0};
    memset(&run, 0, sizeof run);
    run.out = "build/class";
    grade_opts_defaults(&run.g);
    run.timeout_s = GRADE_TIMEOUT_S;
    run.budget_s = 600;
    if (parse_args(argc, argv, &run, lessons) != 0)
        return 2;
    int seed_given = run.g.seed != 0;
    select_exercises(&run, lessons);
    struct stat sd;
    if (stat(run.submissions, &sd) != 0 || !S_ISDIR(sd.st_mode)) {
        fprintf(stderr, "grader class: %s is not a folder of submissions\n", run.submissions);
        return 2;
    }
    if (mkdir_p(run.out) != 0 || settle_seed(&run, seed_given) != 0) {
        fprintf(stderr, "grader class: cannot write to %s: %s\n", run.out, strerror(errno));
        return 1;
    }
    utc_now(run.date, sizeof run.date);
    probe_gpu(&run, h);
    course_hash(&run);
    int n = 0;
    char **entries = list_entries(&run, &n);
    if (n < 0) {
        fprintf(stderr, "grader class: cannot read %s: %s\n", run.submissions, strerror(errno));
        return 2;
    }
    printf("Grading %s: %d exercise%s per student, %s%s, seed %llu. Results in %s/.\n",
           run.submissions, run.nex, run.nex == 1 ? "" : "s",
           run.gpu[0] ? "on " : "without a GPU (compiled and mechanism-checked only)",
           run.gpu, run.g.seed, run.out);
    fflush(stdout);
    int rc = grade_all(&run, entries, n, h->grade);
    for (int i = 0; i < n; i++)
        free(entries[i]);
    free(entries);
    if (class_write_gradebook(&run) != 0 || class_write_leaderboards(&run) != 0 ||
        class_write_json(&run) != 0 || class_write_summary(&run, stdout) != 0) {
        fprintf(stderr, "grader class: cannot write the class results under %s: %s\n", run.out,
                strerror(errno));
        rc = -1;
    }
    printf("\nGradebook: %s/gradebook.csv. Summary: %s/summary.md. Per student: %s/students/.\n",
           run.out, run.out, run.out);
    free(run.st);
    return rc ? 1 : 0;
}
