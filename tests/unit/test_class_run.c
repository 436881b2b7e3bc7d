/* test_class_run.c: `grader class` as its driver runs it (class.c), with a
 * scripted grader and a scripted GPU probe, no GPU: the command line and
 * each refusal with its status; what the instructor reads on stdout (the
 * headline, a line per student, the last lines) and on stderr; the seed
 * recorded and reused; what decides a re-grade (the files, the seed, the
 * budget, the timeout, the course, every output present, the GPU model);
 * each exercise's limit from the time budget; the report written as the
 * student knows their files; entries that are no submission; the Slurm
 * plan, a task's share and the merge; workers that die. And the progress
 * line (class_progress.c) from a queue set by hand.
 *
 *   CK_RUN_SUITE=class_run build/tests/unit_tests */
#include <signal.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include "class_scratch.h"
#include "cli.h"
#include "device_host.h"
#include "few_fds.h"
#include "reference.h"

/* ---- a scripted grader ---- */

static int calls;
static double last_timeout;
static const char *probe_gpu = "Scripted GPU";

static void fake_probe(char *name, size_t len, int *cc)
{
    snprintf(name, len, "%s", probe_gpu);
    *cc = probe_gpu[0] ? 90 : 0;
}

/* By what the staged file says: "FAKE PASS 2.0", "FAKE SLOW 5.0", "FAKE
 * WRONG", "FAKE HANG", "FAKE PATHS" (the staging path in every text of the
 * result, with a byte that is not UTF-8), "FAKE DIE" (the grading process
 * is killed), "FAKE SLEEP 0.3"; anything else does not compile. */
static void fake_grade(const exercise *ex, const int *knobs, const grade_opts *g,
                       double timeout_s, result *r)
{
    (void)knobs;
    calls++;
    last_timeout = timeout_s;
    memset(r, 0, sizeof *r);
    char path[900];
    snprintf(path, sizeof path, "%s/%s", g->student_dir, ex->file);
    char *src = slurp_file(path), word[32] = "";
    double x = 0;
    const char *fake = strstr(src, "FAKE ");
    if (fake)
        sscanf(fake, "FAKE %31s %lf", word, &x);
    free(src);
    snprintf(r->gpu, sizeof r->gpu, "Scripted GPU");
    r->cc = 90;
    if (!strcmp(word, "SLEEP")) {
        usleep((useconds_t)(x * 1e6));
        snprintf(word, sizeof word, "PASS");
        x = 2;
    }
    if (!strcmp(word, "DIE"))
        raise(SIGKILL);
    if (!strcmp(word, "PASS") || !strcmp(word, "SLOW")) {
        r->outcome = !strcmp(word, "PASS") ? OUT_PASS : OUT_SLOW;
        r->timed = 1;
        r->time[V_BASELINE].ms = 10;
        r->time[V_STUDENT].ms = x;
        r->time[V_SOLUTION].ms = 1.5;
        r->speedup = 10 / x;
        snprintf(r->message, sizeof r->message, "Correct, at %.2fx the baseline's speed.",
                 r->speedup);
    } else if (!strcmp(word, "WRONG")) {
        r->outcome = OUT_WRONG;
        snprintf(r->message, sizeof r->message, "Your kernel computed 7 of 4096 values wrong.");
    } else if (!strcmp(word, "HANG")) {
        r->outcome = r->stopped = OUT_HANG;
        snprintf(r->message, sizeof r->message, "Grading did not finish within %.0f s.",
                 timeout_s);
    } else if (!strcmp(word, "PATHS")) {
        r->outcome = OUT_WRONG;
        snprintf(r->message, sizeof r->message, "message %s \xff.", path);
        snprintf(r->detail, sizeof r->detail, "detail %s \xff.", path);
        snprintf(r->failed_check, sizeof r->failed_check, "check %s \xff.", path);
        snprintf(r->gpu, sizeof r->gpu, "gpu %.100s \xff.", path);
    } else {
        r->outcome = OUT_COMPILE_ERROR;
        snprintf(r->message, sizeof r->message, "%s does not compile.", path);
    }
}

/* ---- running the command ---- */

static char subs[600], out[600];
static char *said_out, *said_err;
static const char *grader_self;     /* the grader binary the key hashes; NULL: this one */
static class_grade_fn grade_with = fake_grade;   /* the grading hook klass passes */

/* class_main with these arguments after "class" (NULL-ended); its stdout
 * and stderr in said_out and said_err. */
static int klass(const char *first, ...)
{
    char *argv[40];
    int argc = 0;
    argv[argc++] = "class";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 39; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    free(said_out);
    free(said_err);
    capture c;
    capture_start(&c, "class");
    calls = 0;
    class_hooks hooks = {.grade = grade_with, .probe = fake_probe, .self = grader_self};
    int rc = class_main(argc, argv, &hooks);
    capture_end(&c, &said_out, &said_err);
    return rc;
}

/* lesson3 into out, seed 42, and the arguments given (NULL-ended). */
#define grade3(...) klass(subs, "lesson3", "--out", out, "--seed", "42", __VA_ARGS__)

static void student(const char *who, const char *file, const char *text)
{
    char p[900];
    snprintf(p, sizeof p, "%s/%s/%s", subs, who, file);
    put_file(p, text);
}

static void setup(void)
{
    scratch();
    in_scratch(subs, sizeof subs, "subs");
    in_scratch(out, sizeof out, "out");
    ck_assert_int_eq(mkdir_p(subs), 0);
    char tmp[700];
    in_scratch(tmp, sizeof tmp, "tmp");
    ck_assert_int_eq(mkdir_p(tmp), 0);
    setenv("TMPDIR", tmp, 1);
    said_out = said_err = NULL;
}

static void teardown(void)
{
    grader_self = NULL;
    grade_with = fake_grade;
    probe_gpu = "Scripted GPU";
    free(said_out);
    free(said_err);
    said_out = said_err = NULL;
    remove_scratch();
}

/* ada passes both, bo is slow on one, cy is wrong and does not compile. */
static void small_class(void)
{
    student("ada", "lesson3/matmul.cu", "// FAKE PASS 2.0\n");
    student("ada", "lesson3/bank_conflicts.cu", "// FAKE PASS 4.0\n");
    student("bo", "lesson3/matmul.cu", "// FAKE SLOW 5.0\n");
    student("cy", "lesson3/matmul.cu", "// FAKE WRONG\n");
    student("cy", "lesson3/bank_conflicts.cu", "// FAKE COMPILE\n");
}

static char *out_text(const char *rel)
{
    char p[900];
    snprintf(p, sizeof p, "%s/%s", out, rel);
    return slurp_file(p);
}

static int out_has(const char *rel)
{
    char p[900];
    snprintf(p, sizeof p, "%s/%s", out, rel);
    return exists(p);
}

/* ---- the command line ---- */

START_TEST(help_and_refusals)
{
    ck_assert_int_eq(klass("--help", NULL), 0);
    ck_assert_msg(!strncmp(said_out, "usage: grader class SUBMISSIONS [lesson...] [options]\n"
                           "       (make grade-class SUBMISSIONS=dir)\n", 94), "%s", said_out);
    HAS(said_out, "  lesson: lesson3, 3 or all (default: all)\noptions:\n"
                  "  --out DIR           where the results go (default build/class)\n");
    HAS(said_out, "  --seed N            the inputs' seed (default: the one recorded in DIR, "
                  "else\n                      a new one)\n");
    HAS(said_out, "  --budget S          seconds one student's exercises may take together\n");
    HAS(said_out, "  --regrade           grade every submission");
    HAS(said_out, "  --gpus LIST         a worker per GPU");
    HAS(said_out, "  --root DIR ");
    HAS(said_out, "Slurm (class_slurm.c; make grade-class SCHEDULER=slurm):\n  --slurm  ");
    HAS(said_out, "  --slurm-partition P the job's partition (sbatch --partition)\n");
    HAS(said_out, "  --slurm-account A   the job's account");
    HAS(said_out, "  --slurm-time T      one task's time limit");
    HAS(said_out, "  --slurm-gres G      one task's GPU request");
    HAS(said_out, "  --batch K           students per task (default 1)\n");
    HAS(said_out, "  --task-list F       with --task I");
    HAS(said_out, "  --task I            which task of --task-list, from 0\n");
    HAS(said_out, "  --collect           write the class files");
    ck_assert_str_eq(said_err, "");
    ck_assert_int_eq(calls, 0);
    ck_assert_int_eq(klass(subs, "-h", NULL), 0);
    HAS(said_out, "usage: grader class");

    /* No submissions folder: the same help, on stderr, and nothing else. */
    char *help = strdup(said_out);
    ck_assert_int_eq(klass(NULL), 2);
    ck_assert_str_eq(said_out, "");
    ck_assert_str_eq(said_err, help);
    ck_assert_int_eq(klass("--out", out, NULL), 2);
    ck_assert_str_eq(said_err, help);
    free(help);
    ck_assert(!exists(out));
    ck_assert_int_eq(klass("--frob", NULL), 2);
    ck_assert_str_eq(said_err, "grader class: unknown option --frob\n");
    ck_assert_int_eq(klass(subs, "lesson99", NULL), 2);
    ck_assert_str_eq(said_err, "grader class: 'lesson99' is not a lesson (lesson0 .. lesson15, "
                               "or all)\n");
    ck_assert_int_eq(klass(subs, "--batch", "0", NULL), 2);
    ck_assert_str_eq(said_err, "grader class: --batch needs a whole number >= 1, got '0'\n");
    ck_assert_int_eq(klass(subs, "--budget", "0", NULL), 2);
    ck_assert_int_eq(klass(subs, "--task", "-1", NULL), 2);
    ck_assert_int_eq(klass(subs, "--out", NULL), 2);
    ck_assert_str_eq(said_err, "grader class: --out needs a value\n");
}
END_TEST

/* What is not a folder of submissions, and outputs that cannot be written. */
START_TEST(folders_refused)
{
    char p[900];
    ck_assert_int_eq(klass("/nonexistent-subs", "--out", out, NULL), 2);
    ck_assert_str_eq(said_err, "grader class: /nonexistent-subs is not a folder of "
                               "submissions\n");
    ck_assert(!exists(out));
    snprintf(p, sizeof p, "%s/afile", scratch_dir);
    put_file(p, "x");
    ck_assert_int_eq(klass(p, "--out", out, NULL), 2);
    HAS(said_err, "afile is not a folder of submissions\n");

    small_class();
    char bad[1000];
    snprintf(bad, sizeof bad, "%s/out", p);      /* under a file */
    ck_assert_int_eq(klass(subs, "--out", bad, NULL), 1);
    char want[2000];
    snprintf(want, sizeof want, "grader class: cannot write to %s: Not a directory\n", bad);
    ck_assert_str_eq(said_err, want);

    /* The lock cannot be taken (not held: broken). */
    snprintf(p, sizeof p, "%s/.lock", out);
    ck_assert_int_eq(mkdir_p(p), 0);
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 2);
    snprintf(want, sizeof want, "grader class: cannot lock %s: Is a directory\n", out);
    ck_assert_str_eq(said_err, want);
    ck_assert_int_eq(calls, 0);
    rmdir(p);

    /* The seed cannot be recorded. */
    snprintf(p, sizeof p, "%s/.cache", out);
    put_file(p, "a file where the cache goes");
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 1);
    snprintf(want, sizeof want, "grader class: cannot write to %s: ", out);
    ck_assert_msg(!strncmp(said_err, want, strlen(want)), "%s", said_err);
    ck_assert_int_eq(calls, 0);
    unlink(p);

    /* --gpus that names no device. */
    ck_assert_int_eq(grade3("--gpus", "x", NULL, NULL), 2);
    ck_assert_str_eq(said_err, "grader class: --gpus takes all or device numbers such as 0,1,3; "
                               "got 'x'\n");
    ck_assert_int_eq(calls, 0);
}
END_TEST

/* ---- what the instructor reads ---- */

START_TEST(the_lines_of_a_run)
{
    small_class();
    char p[900], want[2000];
    snprintf(p, sizeof p, "%s/README.txt", subs);
    put_file(p, "not a submission");
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 0);
    ck_assert_int_eq(calls, 5);
    snprintf(want, sizeof want, "Grading %s: 2 exercises per student, on Scripted GPU, seed 42. "
             "Results in %s/.\n", subs, out);
    ck_assert_msg(!strncmp(said_out, want, strlen(want)), "%s", said_out);
    HAS(said_out, "\nREADME.txt           not graded: neither a folder nor a tar or zip archive "
                  "(.tar, .tar.gz, .tgz, .tar.bz2, .tar.xz, .tar.zst, .zip)\n");
    HAS(said_out, "\nada                  folder  2 of 2 passed in 0 s\n");
    HAS(said_out, "\nbo                   folder  0 of 2 passed in 0 s\n");
    HAS(said_out, "\ncy                   folder  0 of 2 passed in 0 s\n");
    snprintf(want, sizeof want, "\nGradebook: %s/gradebook.csv. Summary: %s/summary.md. Per "
             "student: %s/students/.\n", out, out, out);
    HAS(said_out, want);
    LACKS(said_out, "[GPU");
    LACKS(said_out, "A worker per GPU");
    HAS(said_err, "grading ada: lesson3/bank_conflicts ...\ngrading ada: lesson3/matmul ...\n");
    HAS(said_err, "\ngrading bo: lesson3/matmul ...\n");
    LACKS(said_err, "\033[K");
    HAS(said_err, "progress: 4 of 4 students done, 3 failed, none left (0 s so far)\n");
    /* The rows are in the class files; bo's missing file is said. */
    char *csv = out_text("gradebook.csv");
    HAS(csv, "\r\nada,2,2,PASS,2.50,PASS,5.00,0,");
    HAS(csv, "\r\nREADME.txt,0,0,NOT GRADED,,NOT GRADED,,0,,,README.txt,");
    free(csv);
    char *txt = out_text("students/bo/report.txt");
    HAS(txt, "lesson3/bank_conflicts.cu is not in the submission.");
    HAS(txt, "Student bo: the folder bo, graded ");
    free(txt);
    char *nj = out_text("students/README.txt/report.txt");
    HAS(nj, "neither a folder nor");
    free(nj);

    /* Again: nobody graded, each line says since when. */
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 0);
    ck_assert_int_eq(calls, 0);
    HAS(said_out, "\nada                  folder  unchanged since ");
    HAS(said_out, " UTC: not graded again (2 of 2 passed)\n");
    HAS(said_out, " UTC: not graded again (0 of 2 passed)\n");
    HAS(said_err, "progress: 4 of 4 students done, 3 failed, none left (0 s so far)\n");
    LACKS(said_err, "grading ");
}
END_TEST

/* How many exercises: a lesson's, without demos; all lessons when none is
 * named; "1 exercise" in the singular; without a GPU, said. */
START_TEST(which_exercises)
{
    small_class();
    ck_assert_int_eq(klass(subs, "7", "--out", out, "--seed", "1", NULL), 0);
    HAS(said_out, ": 1 exercise per student, on Scripted GPU, seed 1.");
    int n = 0;
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; *e; e++)
            n += !(*e)->demo;
    char want[200];
    snprintf(want, sizeof want, ": %d exercises per student, on Scripted GPU, seed 1.", n);
    ck_assert_int_eq(klass(subs, "--out", out, "--seed", "1", NULL), 0);
    HAS(said_out, want);
    ck_assert_int_eq(calls, 5);               /* the files they have */
    ck_assert_int_eq(klass(subs, "3", "all", "--out", out, "--seed", "1", NULL), 0);
    HAS(said_out, want);
    /* Two lessons: both, in order, and the Slurm script names them as given. */
    ck_assert_int_eq(klass(subs, "lesson3", "0", "--out", out, "--seed", "1", "--regrade",
                           NULL), 0);
    HAS(said_out, ": 3 exercises per student,");
    ck_assert_int_eq(calls, 5);
    ck_assert_int_eq(klass(subs, "lesson3", "0", "--out", out, "--seed", "1", "--regrade",
                           "--slurm", NULL), 0);
    char *sb = out_text("slurm/grade-class.sbatch");
    HAS(sb, " 'lesson3' '0' \\\n    --out ");
    free(sb);
    probe_gpu = "";
    ck_assert_int_eq(grade3("--regrade", NULL, NULL, NULL), 0);
    probe_gpu = "Scripted GPU";
    HAS(said_out, ": 2 exercises per student, without a GPU (compiled, mechanism-checked and "
                  "run on the PTX simulator), seed 42.");
}
END_TEST

/* A refused entry and an archive that cannot be read whole, on the line. */
START_TEST(refusals_on_the_line)
{
    char p[900];
    snprintf(p, sizeof p, "%s/eli.tar", subs);
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir -p x/lesson3 && echo '// FAKE PASS 2.0' > "
             "x/lesson3/matmul.cu && ln -s /etc/passwd x/lesson3/bank_conflicts.cu && "
             "ln -s /etc/hosts x/l && tar -cf '%s' -C x lesson3 l && rm -rf x", scratch_dir, p);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(p, sizeof p, "%s/fay.tar", subs);
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir -p y/lesson3 && echo '// FAKE PASS 2.0' > "
             "y/lesson3/matmul.cu && ln -s /etc/passwd y/x && tar -cf '%s' -C y lesson3 x && "
             "rm -rf y", scratch_dir, p);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(p, sizeof p, "%s/gus.tar.gz", subs);
    put_file(p, "\x1f\x8b\x08\x00 this is no gzip stream at all, only its first bytes");
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 0);
    HAS(said_out, "\neli                  tar     1 of 2 passed in 0 s; 2 entries refused (see "
                  "its report)\n");
    HAS(said_out, "\nfay                  tar     1 of 2 passed in 0 s; 1 entry refused (see its "
                  "report)\n");
    HAS(said_out, "\ngus                  tar.gz  0 of 2 passed in 0 s; not read whole: ");
    /* The exercise whose entry was refused says why it is missing. */
    char *js = out_text("students/eli/report.json");
    HAS(js, "\"message\": \"lesson3/bank_conflicts.cu is not in the submission: ");
    free(js);
    js = out_text("students/fay/report.json");
    HAS(js, "\"message\": \"lesson3/bank_conflicts.cu is not in the submission.\"");
    free(js);
}
END_TEST

/* The grader itself: another binary is another grade. */
START_TEST(the_grader_is_part_of_the_key)
{
    small_class();
    char a[700], b[700];
    in_scratch(a, sizeof a, "grader-a");
    in_scratch(b, sizeof b, "grader-b");
    put_file(a, "one grader");
    put_file(b, "another grader");
    grader_self = a;
    ck_assert_int_eq(grade3(NULL), 0);
    ck_assert_int_eq(calls, 5);
    ck_assert_int_eq(grade3(NULL), 0);
    ck_assert_int_eq(calls, 0);
    grader_self = b;
    ck_assert_int_eq(grade3(NULL), 0);
    ck_assert_int_eq(calls, 5);
    /* One that cannot be read: graded again, then it stands. */
    in_scratch(b, sizeof b, "no-such-grader");
    ck_assert_int_eq(grade3(NULL), 0);
    ck_assert_int_eq(calls, 5);
    ck_assert_int_eq(grade3(NULL), 0);
    ck_assert_int_eq(calls, 0);
    grader_self = NULL;
    ck_assert_int_eq(grade3(NULL), 0);
    ck_assert_int_eq(calls, 5);
}
END_TEST

/* A grader binary that cannot be read is not an empty one: an empty file
 * hashes as nothing, so the key marks the unreadable case apart. */
START_TEST(an_unreadable_grader_is_not_an_empty_one)
{
    small_class();
    char empty[700], gone[700];
    in_scratch(empty, sizeof empty, "empty-grader");
    in_scratch(gone, sizeof gone, "no-such-grader");
    put_file(empty, "");
    grader_self = empty;
    ck_assert_int_eq(grade3(NULL), 0);
    ck_assert_int_eq(calls, 5);
    grader_self = gone;
    ck_assert_int_eq(grade3(NULL), 0);
    ck_assert_int_eq(calls, 5);
    grader_self = empty;
    ck_assert_int_eq(grade3(NULL), 0);
    ck_assert_int_eq(calls, 5);
    grader_self = NULL;
}
END_TEST

/* The row keeps the first four refused entries and nothing spills over:
 * five refused, and the submission was still read whole. */
START_TEST(many_refused_entries)
{
    char p[900], cmd[3000];
    snprintf(p, sizeof p, "%s/eve.tar", subs);
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir -p x/lesson3 && echo '// FAKE PASS 2.0' > "
             "x/lesson3/matmul.cu && for i in 1 2 3 4 5; do ln -s /etc/passwd x/bad$i; done && "
             "tar -cf '%s' -C x lesson3 bad1 bad2 bad3 bad4 bad5 && rm -rf x", scratch_dir, p);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(grade3(NULL), 0);
    HAS(said_out, "\neve                  tar     1 of 2 passed in 0 s; 5 entries refused (see its "
                  "report)\n");
    LACKS(said_out, "not read whole");
    char *sum = out_text("summary.md");
    HAS(sum, "5 entries refused: `bad1`");
    HAS(sum, "`bad4` (a symbolic link; links can point anywhere, so only plain files are "
             "taken); ....");
    LACKS(sum, "bad5");
    free(sum);
}
END_TEST

/* Why a submission was not read whole, cut at 200 bytes for the row, is
 * never cut inside a character. */
START_TEST(a_long_reason_is_cut_whole)
{
    /* "folders nested deeper than 12: " is 31 bytes, then "aa", then 2-byte
     * characters: byte 199 is the first byte of one. */
    char path[2000] = "", p[2200];
    snprintf(path, sizeof path, "%s/deep/aa", subs);
    for (int i = 0; i < 90; i++)
        strcat(path, "\xc3\xa9");
    for (int d = 0; d < 13; d++)
        strcat(path, "/d");
    snprintf(p, sizeof p, "%s/x.txt", path);
    put_file(p, "x");
    ck_assert_int_eq(grade3(NULL), 0);
    const char *line = strstr(said_out, "\ndeep ");
    ck_assert_ptr_nonnull(line);
    HAS(line, "; not read whole: folders nested deeper than 12: aa\xc3\xa9\xc3\xa9");
    char want[400] = "";
    for (int i = 0; i < 83; i++)
        strcat(want, "\xc3\xa9");
    strcat(want, "?\n");
    HAS(line, want);
    ck_assert_msg(!strstr(line, "\xc3\n"), "half a character: %s", line);
}
END_TEST

/* On a terminal: no "grading" lines; each row's line clears the progress
 * line first, which is rewritten in place and cleared at the end. */
START_TEST(on_a_terminal)
{
    small_class();
    char p[900];
    snprintf(p, sizeof p, "%s/README.txt", subs);
    put_file(p, "not a submission");
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    ck_assert_int_ge(m, 0);
    ck_assert_int_eq(grantpt(m), 0);
    ck_assert_int_eq(unlockpt(m), 0);
    int tty = open(ptsname(m), O_RDWR | O_NOCTTY);
    ck_assert_int_ge(tty, 0);
    struct termios t;
    tcgetattr(tty, &t);
    cfmakeraw(&t);
    tcsetattr(tty, TCSANOW, &t);
    char outp[700];
    in_scratch(outp, sizeof outp, "tty.out");
    fflush(NULL);
    int o = dup(1), e = dup(2), f = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(f, 1);
    dup2(tty, 2);
    close(f);
    char *argv[] = {"class", subs, "lesson3", "--out", out, "--seed", "42", NULL};
    class_hooks hooks = {.grade = fake_grade, .probe = fake_probe};
    int rc = class_main(7, argv, &hooks);
    fflush(NULL);
    dup2(o, 1);
    dup2(e, 2);
    close(o);
    close(e);
    close(tty);
    ck_assert_int_eq(rc, 0);
    static char err[8192];
    size_t n = 0;
    fcntl(m, F_SETFL, O_NONBLOCK);
    for (ssize_t r; n + 1 < sizeof err && (r = read(m, err + n, sizeof err - 1 - n)) > 0;)
        n += (size_t)r;
    err[n] = 0;
    close(m);
    LACKS(err, "grading ");
    LACKS(err, "\n");
    HAS(err, "\r\033[Kprogress: 1 of 4 students done, 1 failed, time left: not known yet (0 s "
             "so far)\r\033[K");
    ENDS(err, "\r\033[Kprogress: 4 of 4 students done, 3 failed, none left (0 s so far)"
              "\r\033[K");
    int clears = 0;
    for (const char *c = err; (c = strstr(c, "\r\033[K")); c++)
        clears++;
    ck_assert_msg(clears == 9, "%d clears: a row's line and its progress line each, and the end "
                  "(%s)", clears, err);
    char *text = slurp_file(outp);
    HAS(text, "\nREADME.txt           not graded: neither a folder");
    HAS(text, "\nada                  folder  2 of 2 passed in 0 s\n");
    LACKS(text, "\033");
    free(text);
}
END_TEST

/* "YYYY-MM-DD HH:MM:SS" at `at`, within a day of now (UTC). */
static void is_utc_now(const char *at)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    ck_assert_msg(sscanf(at, "%4d-%2d-%2d %2d:%2d:%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                         &tm.tm_hour, &tm.tm_min, &tm.tm_sec) == 6, "no date: %.40s", at);
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    double off = difftime(time(NULL), timegm(&tm));
    ck_assert_msg(off > -5 && off < 3600, "%.40s is %.0f s from now", at, off);
}

/* What class.json keeps of each row: its kind, where and when it was
 * graded, the files found, each result's time. */
START_TEST(rows_as_class_json_keeps_them)
{
    student("ada", "lesson3/matmul.cu", "// FAKE SLEEP 0.3\n");
    student("ada", "lesson3/bank_conflicts.cu", "// FAKE PASS 4.0\n");
    char p[900];
    snprintf(p, sizeof p, "%s/README.txt", subs);
    put_file(p, "not a submission");
    ck_assert_int_eq(grade3(NULL), 0);
    char *js = out_text("class.json");
    const char *ada = strstr(js, "{\"name\": \"ada\"");
    const char *readme = strstr(js, "{\"name\": \"README.txt\"");
    ck_assert(ada && readme);
    HAS(ada, "\"kind\": \"folder\", \"graded\": true, \"not_graded_why\": null, "
             "\"exercise_files_found\": 2, \"gpu\": \"Scripted GPU\", \"gpu_device\": 0, ");
    const char *at = strstr(ada, "\"graded_at\": \"");
    ck_assert_ptr_nonnull(at);
    is_utc_now(at + strlen("\"graded_at\": \""));
    double secs = 0;
    const char *mm = strstr(ada, "\"ms\": 2, \"baseline_ms\": 10");
    ck_assert_ptr_nonnull(mm);
    ck_assert_int_eq(sscanf(strstr(mm, "\"seconds\": ") + 11, "%lf", &secs), 1);
    ck_assert_msg(secs >= 0.3 && secs < 30, "%g", secs);
    HAS(readme, "\"kind\": \"-\", \"graded\": false, \"not_graded_why\": \"not graded: neither a "
                "folder");
    HAS(readme, "\"exercise_files_found\": 0, \"gpu\": \"\", \"gpu_device\": -1, ");
    HAS(readme, "\"graded_at\": \"\"");
    free(js);
    /* The student's time on the line, and when, on the next run's line. */
    HAS(said_out, "\nada                  folder  2 of 2 passed in 0 s\n");
    ck_assert_int_eq(grade3(NULL), 0);
    at = strstr(said_out, "\nada                  folder  unchanged since ");
    ck_assert_ptr_nonnull(at);
    is_utc_now(at + strlen("\nada                  folder  unchanged since "));
    char *sum = out_text("summary.md");
    at = strstr(sum, "seed 42 (replay one with make check SEED=42), ");
    ck_assert_ptr_nonnull(at);
    is_utc_now(at + strlen("seed 42 (replay one with make check SEED=42), "));
    free(sum);
    /* A student who takes a second: so says the line. */
    student("ada", "lesson3/matmul.cu", "// FAKE SLEEP 0.8\n");
    ck_assert_int_eq(grade3(NULL), 0);
    HAS(said_out, "\nada                  folder  2 of 2 passed in 1 s\n");
}
END_TEST

/* Another course folder is another course, even with no file in either. */
START_TEST(the_course_folder_is_part_of_the_key)
{
    small_class();
    char a[700], b[700];
    in_scratch(a, sizeof a, "course-a");
    in_scratch(b, sizeof b, "course-b");
    ck_assert_int_eq(mkdir_p(a), 0);
    ck_assert_int_eq(mkdir_p(b), 0);
    ck_assert_int_eq(grade3("--root", a, NULL), 0);
    ck_assert_int_eq(calls, 5);
    ck_assert_int_eq(grade3("--root", b, NULL), 0);
    ck_assert_int_eq(calls, 5);
}
END_TEST

/* No --out: build/class under the folder it runs in; the defaults are the
 * ones the help names. */
START_TEST(defaults)
{
    small_class();
    char here[700];
    in_scratch(here, sizeof here, "cwd");
    ck_assert_int_eq(mkdir_p(here), 0);
    ck_assert_int_eq(chdir(here), 0);
    ck_assert_int_eq(klass(subs, "lesson3", "--seed", "3", NULL), 0);
    HAS(said_out, ", seed 3. Results in build/class/.\n");
    ck_assert(exists("build/class/gradebook.csv"));
    char *sum = slurp_file("build/class/summary.md");
    HAS(sum, "Time budget 600 s per student, 120 s per exercise.");
    free(sum);
    ck_assert_int_eq(klass(subs, "lesson3", "--seed", "3", "--slurm", "--regrade", NULL), 0);
    char *sb = slurp_file("build/class/slurm/grade-class.sbatch");
    HAS(sb, " --seed 3 --budget 600 --timeout 120 \\\n    --task-list ");
    HAS(sb, "/tasks.txt --batch 1 --task \"$SLURM_ARRAY_TASK_ID\"\n");
    free(sb);
}
END_TEST

/* A Slurm task notes its students as started before it grades them, and
 * waits while a plain run holds the folder. */
static int notes_seen;
static char note_dir[700];

static void grade_noting(const exercise *ex, const int *knobs, const grade_opts *g,
                         double timeout_s, result *r)
{
    char cmd[900];
    snprintf(cmd, sizeof cmd, "ls '%s'/*.task >/dev/null 2>&1", note_dir);
    notes_seen += system(cmd) == 0;
    fake_grade(ex, knobs, g, timeout_s, r);
}

START_TEST(a_task_notes_and_waits)
{
    small_class();
    ck_assert_int_eq(grade3("--slurm", NULL), 0);
    char list[800];
    snprintf(list, sizeof list, "%s/slurm/tasks.txt", out);
    snprintf(note_dir, sizeof note_dir, "%s/.cache", out);
    int held = class_lock(out, 0);
    ck_assert_int_ge(held, 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        usleep(500 * 1000);
        close(held);
        _exit(0);
    }
    close(held);               /* the child holds it (the same open file) */
    char *argv[] = {"class", subs, "lesson3", "--out", out, "--seed", "42", "--task-list",
                    list, "--task", "0", NULL};
    class_hooks hooks = {.grade = grade_noting, .probe = fake_probe};
    capture c;
    capture_start(&c, "task");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    notes_seen = 0;
    int rc = class_main(11, argv, &hooks);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    capture_end(&c, NULL, NULL);
    waitpid(pid, NULL, 0);
    ck_assert_int_eq(rc, 0);
    double waited = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ck_assert_msg(waited > 0.3, "did not wait for the lock: %.2f s", waited);
    ck_assert_int_eq(notes_seen, 2);           /* ada's two files, her note there */
    ck_assert(!out_has(".cache/ada.task"));     /* and gone once she was done */

    /* Another task holding the folder (shared) does not hold this one up. */
    held = class_lock(out, 1);
    ck_assert_int_ge(held, 0);
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        sleep(5);
        close(held);
        _exit(0);
    }
    close(held);
    argv[10] = "1";            /* bo's task */
    capture_start(&c, "task");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = class_main(11, argv, &hooks);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    capture_end(&c, NULL, NULL);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    ck_assert_int_eq(rc, 0);
    waited = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ck_assert_msg(waited < 4, "a task waited %.1f s for another task", waited);
}
END_TEST

/* ---- the seed ---- */

START_TEST(the_seed_is_recorded_and_reused)
{
    small_class();
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 0);
    char *s = out_text(".cache/seed");
    ck_assert_str_eq(s, "42\n");
    free(s);
    ck_assert_int_eq(klass(subs, "lesson3", "--out", out, NULL), 0);
    HAS(said_out, ", seed 42. Results in ");
    ck_assert_int_eq(calls, 0);                /* the same seed: nothing changed */
    /* A recorded 0, or no number: a new seed, short enough to type, recorded. */
    const char *bad[] = {"0\n", "junk\n"};
    for (int k = 0; k < 2; k++) {
        char p[900];
        snprintf(p, sizeof p, "%s/.cache/seed", out);
        put_file(p, bad[k]);
        ck_assert_int_eq(klass(subs, "lesson3", "--out", out, NULL), 0);
        unsigned long long seed = 0;
        const char *at = strstr(said_out, ", seed ");
        ck_assert_ptr_nonnull(at);
        ck_assert_int_eq(sscanf(at, ", seed %llu.", &seed), 1);
        ck_assert(seed >= 1 && seed <= 1000000000ull && seed != 42);
        s = out_text(".cache/seed");
        char want[40];
        snprintf(want, sizeof want, "%llu\n", seed);
        ck_assert_str_eq(s, want);
        free(s);
        ck_assert_int_eq(calls, 5);            /* another seed, another grade */
    }
    /* --seed 0 is given, and not a seed: a new one (and not recorded as 0). */
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 0);
    ck_assert_int_eq(klass(subs, "lesson3", "--out", out, "--seed", "7", NULL), 0);
    s = out_text(".cache/seed");
    ck_assert_str_eq(s, "7\n");
    free(s);
}
END_TEST

/* New seeds come from /dev/urandom, not the clock: three runs into three
 * new folders, in the same second or two (so two of them share a second),
 * get three seeds. */
START_TEST(new_seeds_are_random)
{
    unsigned long long seed[3];
    for (int k = 0; k < 3; k++) {
        char o[700], p[800], name[8];
        snprintf(name, sizeof name, "out%d", k);
        in_scratch(o, sizeof o, name);
        ck_assert_int_eq(klass(subs, "lesson3", "--out", o, NULL), 0);
        snprintf(p, sizeof p, "%s/.cache/seed", o);
        char *s = slurp_file(p);
        ck_assert_int_eq(sscanf(s, "%llu", &seed[k]), 1);
        free(s);
        ck_assert(seed[k] >= 1 && seed[k] <= 1000000000ull);
    }
    ck_assert(seed[0] != seed[1] && seed[1] != seed[2] && seed[0] != seed[2]);
}
END_TEST

/* Without /dev/urandom (here: no descriptor left to open it with, the lock
 * and the recorded seed holding the last two), a new seed comes from the
 * clock: its seconds, mod 10^9, plus 1, so still short enough to type and
 * never 0 (which means none). The original opens /dev/urandom if the limit
 * does not bite, and then the seed is not the clock's. */
START_TEST(a_seed_without_urandom)
{
    char p[900];
    snprintf(p, sizeof p, "%s/.cache/seed", out);
    for (int tries = 0; tries < 5; tries++) {
        put_file(p, "0\n");               /* recorded 0: a new seed is needed */
        time_t t0 = time(NULL);
        fflush(NULL);
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            if (leave_few_descriptors(2) != 0)   /* two, the lock's among them */
                _exit(100);
            char *argv[] = {"class", subs, "lesson3", "--out", out, NULL};
            class_hooks hooks = {.grade = fake_grade, .probe = fake_probe};
            class_main(5, argv, &hooks);
            _exit(0);
        }
        int st;
        ck_assert_int_eq(waitpid(pid, &st, 0), pid);
        ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        if (time(NULL) != t0)
            continue;                      /* the clock moved: which second is unknown */
        char *s = out_text(".cache/seed"), want[40];
        snprintf(want, sizeof want, "%llu\n", (unsigned long long)t0 % 1000000000ull + 1);
        ck_assert_str_eq(s, want);
        free(s);
        return;
    }
    ck_abort_msg("the clock moved during each of 5 tries");
}
END_TEST

/* A class too big for the memory this process may take (here: its address
 * space capped 4 MB above what it holds, entries whose rows need 8 MB or
 * more): refused with status 1 and said, nothing graded, and no crash. */
START_TEST(rows_that_do_not_fit)
{
    char p[900], said[900];
    int n = 1 + (int)((8 << 20) / sizeof(class_student));   /* 505 rows of 16.6 KB today */
    for (int e = 0; e < n; e++) {
        snprintf(p, sizeof p, "%s/note%03d.txt", subs, e);
        put_file(p, "x\n");
    }
    in_scratch(said, sizeof said, "said.txt");
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int to = open(said, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(to, 1);
        dup2(to, 2);
        close(to);
        setvbuf(stdout, NULL, _IONBF, 0);
        long pages = 0;
        FILE *m = fopen("/proc/self/statm", "r");
        if (!m || fscanf(m, "%ld", &pages) != 1)
            _exit(100);
        fclose(m);
        rlim_t cap = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)4 << 20);
        struct rlimit as;
        if (getrlimit(RLIMIT_AS, &as) != 0)
            _exit(101);
        if (as.rlim_max != RLIM_INFINITY && cap > as.rlim_max)
            cap = as.rlim_max;     /* already tighter: the rows will not fit either */
        as.rlim_cur = as.rlim_max = cap;
        if (setrlimit(RLIMIT_AS, &as) != 0)
            _exit(101);
        char *argv[] = {"class", subs, "lesson3", "--out", out, "--seed", "42", NULL};
        class_hooks hooks = {.grade = fake_grade, .probe = fake_probe};
        _exit(class_main(7, argv, &hooks));
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    char *text = slurp_file(said);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %d: %s", st, text);
    char want[100];
    snprintf(want, sizeof want, "grader class: cannot hold the %d rows of ", n);
    HAS(text, want);
    LACKS(text, "not graded");
    LACKS(text, "Gradebook");
    free(text);
    ck_assert(!out_has("gradebook.csv"));
}
END_TEST

/* ---- what decides a re-grade ---- */

START_TEST(what_makes_a_regrade)
{
    small_class();
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 0);
    ck_assert_int_eq(calls, 5);
    /* Each output a student needs: lost, that student is graded again. */
    static const char *files[] = {"report.txt", "report.json", "junit.xml", "submission.json"};
    for (int f = 0; f < 4; f++) {
        char p[900];
        snprintf(p, sizeof p, "%s/students/bo/%s", out, files[f]);
        ck_assert_int_eq(unlink(p), 0);
        ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 0);
        ck_assert_msg(calls == 1, "%s lost: %d graded", files[f], calls);
        ck_assert(exists(p));
    }
    ck_assert_int_eq(grade3("--budget", "600", NULL, NULL), 0);
    ck_assert_int_eq(calls, 0);                /* the default, given */
    ck_assert_int_eq(grade3("--budget", "601", NULL, NULL), 0);
    ck_assert_int_eq(calls, 5);
    ck_assert_int_eq(grade3("--budget", "601", "--timeout", "121", NULL), 0);
    ck_assert_int_eq(calls, 5);
    ck_assert_int_eq(grade3("--budget", "601", "--timeout", "121", NULL), 0);
    ck_assert_int_eq(calls, 0);
    ck_assert_int_eq(grade3("--budget", "601", "--timeout", "121", NULL), 0);
    ck_assert_int_eq(grade3("--budget", "601", "--timeout", "121", "--regrade", NULL), 0);
    ck_assert_int_eq(calls, 5);
}
END_TEST

/* The course: another root's baseline and reference files are another
 * grade, and the same files again are not. */
START_TEST(the_course_is_part_of_the_key)
{
    small_class();
    char root[700];
    in_scratch(root, sizeof root, "course");
    ck_assert_int_eq(mkdir_p(root), 0);
    ck_assert_int_eq(grade3("--root", root, NULL, NULL), 0);
    ck_assert_int_eq(calls, 5);
    ck_assert_int_eq(grade3("--root", root, NULL, NULL), 0);
    ck_assert_int_eq(calls, 0);
    const exercise *mm = lesson_exercises[3][1];
    grade_opts g;
    grade_opts_defaults(&g);
    g.root = root;
    char p[1024];
    variant_path(mm, V_BASELINE, &g, p, sizeof p);
    put_file(p, "// a baseline\n");
    ck_assert_int_eq(grade3("--root", root, NULL, NULL), 0);
    ck_assert_int_eq(calls, 5);
    put_file(p, "// another baseline\n");
    ck_assert_int_eq(grade3("--root", root, NULL, NULL), 0);
    ck_assert_int_eq(calls, 5);
    ck_assert_int_eq(grade3("--root", root, NULL, NULL), 0);
    ck_assert_int_eq(calls, 0);
    const exercise *bc = lesson_exercises[3][0];
    reference_source(bc, &g, p, sizeof p);
    put_file(p, "// a reference\n");
    ck_assert_int_eq(grade3("--root", root, NULL, NULL), 0);
    ck_assert_int_eq(calls, 5);
}
END_TEST

/* ---- limits ---- */

/* Each exercise may take --timeout, or what is left of the student's
 * budget when that is less; a hang at the budget's limit says so. */
START_TEST(each_exercise_gets_its_limit)
{
    student("ada", "lesson3/matmul.cu", "// FAKE PASS 2.0\n");
    ck_assert_int_eq(grade3("--timeout", "7", NULL, NULL), 0);
    ck_assert(last_timeout == 7);
    ck_assert_int_eq(grade3("--timeout", "7", "--budget", "3", NULL), 0);
    ck_assert_msg(last_timeout > 2 && last_timeout <= 3, "%g", last_timeout);
    student("ada", "lesson3/matmul.cu", "// FAKE HANG\n");
    ck_assert_int_eq(grade3("--timeout", "7", "--budget", "3", NULL), 0);
    char *js = out_text("students/ada/report.json");
    HAS(js, "Grading did not finish within 3 s. (The limit was what remained of the student's "
            "time budget of 3 s.)");
    free(js);
    ck_assert_int_eq(grade3("--timeout", "2", "--budget", "3", NULL), 0);
    ck_assert(last_timeout == 2);
    js = out_text("students/ada/report.json");
    HAS(js, "\"message\": \"Grading did not finish within 2 s.\"");
    free(js);
}
END_TEST

/* The budget spent: the exercises after it are not run, and counted. */
START_TEST(the_budget_runs_out)
{
    student("ada", "lesson3/bank_conflicts.cu", "// FAKE SLEEP 0.3\n");
    student("ada", "lesson3/matmul.cu", "// FAKE PASS 2.0\n");
    ck_assert_int_eq(grade3("--budget", "0.2", NULL, NULL), 0);
    ck_assert_int_eq(calls, 1);
    char *js = out_text("students/ada/report.json");
    HAS(js, "\"outcome\": \"NOT RUN\", \"passed\": false, \"message\": \"Not graded: the time "
            "budget of 0 s per student was used up by the exercises before this one.\"");
    free(js);
    char *txt = out_text("students/ada/report.txt");
    HAS(txt, "The time budget of 0 s per student ran out: 1 exercise was not graded.");
    free(txt);
    HAS(said_out, "\nada                  folder  1 of 2 passed in 0 s\n");
}
END_TEST

/* ---- the report as the student knows their files ---- */

START_TEST(reports_name_the_students_files)
{
    student("ada", "lesson3/matmul.cu", "// FAKE PATHS\n");
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 0);
    char *js = out_text("students/ada/report.json");
    HAS(js, "\"message\": \"message exercises/lesson3/matmul.cu ?.\"");
    HAS(js, "\"detail\": \"detail exercises/lesson3/matmul.cu ?.\"");
    HAS(js, "\"gpu\": \"gpu exercises/lesson3/matmul.cu ?.\"");
    HAS(js, "\"seed\": 42, \"knobs\": {\"TILE\": 16}");
    LACKS(js, "grade-class-");
    free(js);
    char *txt = out_text("students/ada/report.txt");
    HAS(txt, "check exercises/lesson3/matmul.cu ?.");
    LACKS(txt, "grade-class-");
    free(txt);
    /* Nothing is left where the files were staged. */
    char tmp[700], cmd[900];
    in_scratch(tmp, sizeof tmp, "tmp");
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", tmp);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A folder for staging that cannot be made: said, status 1, nobody graded. */
START_TEST(no_staging_folder)
{
    small_class();
    setenv("TMPDIR", "/nonexistent-tmp", 1);
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 1);
    ck_assert_int_eq(calls, 0);
    STARTS(said_err, "grader class: cannot make a folder under /nonexistent-tmp: No such file "
                     "or directory\n");
    LACKS(said_err, "cannot write");           /* no student tried */
    LACKS(said_err, "progress: 1 of");
}
END_TEST

/* A staging folder that is made, but where a student's files cannot be
 * written (its path one past PATH_MAX): said, status 1, nobody graded. */
START_TEST(staging_that_cannot_be_written)
{
    small_class();
    char tmp[4200];
    in_scratch(tmp, sizeof tmp, "tmp");
    /* TMPDIR + "/grade-class-XXXXXX" (19) fits in 4095 bytes; + "/student" does not. */
    while (strlen(tmp) < 4072) {
        size_t n = strlen(tmp), k = 4072 - n - 1 < 200 ? 4072 - n - 1 : 200;
        tmp[n] = '/';
        memset(tmp + n + 1, 'd', k);
        tmp[n + 1 + k] = 0;
        ck_assert_int_eq(mkdir(tmp, 0700), 0);
    }
    ck_assert_uint_eq(strlen(tmp), 4072);
    setenv("TMPDIR", tmp, 1);
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 1);
    ck_assert_int_eq(calls, 0);
    HAS(said_err, "grader class: cannot write ");
    HAS(said_err, "File name too long");
}
END_TEST

/* ---- entries ---- */

/* --out inside the submissions folder is no student; a link is refused. */
START_TEST(entries_that_are_no_student)
{
    small_class();
    char inner[700], link[700], cmd[2000];
    snprintf(inner, sizeof inner, "%s/results", subs);
    snprintf(link, sizeof link, "%s/zed", subs);
    snprintf(cmd, sizeof cmd, "ln -s '%s/ada' '%s'", subs, link);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(klass(subs, "lesson3", "--out", inner, "--seed", "42", NULL), 0);
    LACKS(said_out, "\nresults ");
    HAS(said_out, "\nzed                  not graded: a symbolic link; put the folder or archive "
                  "itself here\n");
    ck_assert_int_eq(calls, 5);
    snprintf(cmd, sizeof cmd, "%s/gradebook.csv", inner);
    char *csv = slurp_file(cmd);
    LACKS(csv, "results");
    HAS(csv, "\r\nzed,0,0,NOT GRADED,");
    free(csv);
}
END_TEST

/* A folder is named as it is, even when its name ends like an archive's;
 * an archive's row drops the ending. */
START_TEST(a_folder_keeps_its_whole_name)
{
    student("eve.zip", "lesson3/matmul.cu", "// FAKE PASS 2.0\n");
    char p[900], cmd[2000];
    snprintf(p, sizeof p, "%s/fay.tar", subs);
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir -p f/lesson3 && echo '// FAKE PASS 2.0' > "
             "f/lesson3/matmul.cu && tar -cf '%s' -C f lesson3 && rm -rf f", scratch_dir, p);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(grade3(NULL), 0);
    HAS(said_out, "\neve.zip              folder  1 of 2 passed in 0 s\n");
    HAS(said_out, "\nfay                  tar     1 of 2 passed in 0 s\n");
    ck_assert(out_has("students/eve.zip/report.txt"));
    ck_assert(out_has("students/fay/report.txt"));
}
END_TEST

/* An output that cannot be written: said, status 1, the others written. */
START_TEST(a_student_output_that_cannot_be_written)
{
    small_class();
    char p[900], want[2000];
    snprintf(p, sizeof p, "%s/students/bo", out);
    put_file(p, "a file where bo's folder goes");
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 1);
    snprintf(want, sizeof want, "grader class: cannot write the results of bo under %s: ", out);
    HAS(said_err, want);
    ck_assert_int_eq(calls, 5);
    ck_assert(out_has("students/cy/report.txt"));
    ck_assert(out_has("gradebook.csv"));
    /* The class files cannot be written. */
    unlink(p);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/leaderboards' && echo x > '%s/leaderboards'", out, out);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(grade3(NULL, NULL, NULL, NULL), 1);
    snprintf(want, sizeof want, "grader class: cannot write the class results under %s: ", out);
    HAS(said_err, want);
    LACKS(said_out, "Gradebook: ");
}
END_TEST

/* ---- Slurm: plan, a task, the merge ---- */

START_TEST(plan_task_and_merge)
{
    small_class();
    char p[900], want[2000], list[800];
    snprintf(p, sizeof p, "%s/README.txt", subs);
    put_file(p, "not a submission");
    ck_assert_int_eq(grade3("--slurm", NULL, NULL, NULL), 0);
    ck_assert_int_eq(calls, 0);
    snprintf(want, sizeof want, "Planning %s: 2 exercises per student, on Scripted GPU, seed 42. "
             "Results in %s/.\n", subs, out);
    ck_assert_msg(!strncmp(said_out, want, strlen(want)), "%s", said_out);
    HAS(said_out, "\nada                  folder  to grade on the cluster\n"
                  "bo                   folder  to grade on the cluster\n"
                  "cy                   folder  to grade on the cluster\n");
    LACKS(said_out, "README");
    snprintf(want, sizeof want, "\n3 submissions to grade on the cluster: %s/slurm/"
             "grade-class.sbatch (tasks.txt lists them), then %s/slurm/collect.sbatch.\n", out,
             out);
    HAS(said_out, want);
    ck_assert(!out_has("gradebook.csv"));
    char *t = out_text("slurm/tasks.txt");
    ck_assert_str_eq(t, "616461\n626f\n6379\n");
    free(t);

    /* Task 1 of batches of 2: cy alone; no class files; its note gone. */
    snprintf(list, sizeof list, "%s/slurm/tasks.txt", out);
    ck_assert_int_eq(klass(subs, "lesson3", "--out", out, "--seed", "42", "--task-list", list,
                           "--task", "1", "--batch", "2", NULL), 0);
    ck_assert_int_eq(calls, 2);
    HAS(said_out, "\ncy                   folder  0 of 2 passed in 0 s\n");
    LACKS(said_out, "ada ");
    LACKS(said_out, "README");
    LACKS(said_out, "Gradebook");
    ck_assert(!out_has("gradebook.csv"));
    ck_assert(!out_has(".cache/cy.task"));

    /* ada's task started and died: its note stays. */
    snprintf(p, sizeof p, "%s/.cache/ada.task", out);
    put_file(p, "Slurm job 9, task 0, on node1, started 2026-01-01 00:00:00 UTC");
    ck_assert_int_eq(grade3("--collect", NULL, NULL, NULL), 0);
    ck_assert_int_eq(calls, 0);
    snprintf(want, sizeof want, "Collecting %s: 2 exercises per student", subs);
    HAS(said_out, want);
    HAS(said_out, "\nada                  not graded: its task (Slurm job 9, task 0, on node1, "
                  "started 2026-01-01 00:00:00 UTC) ended without results: it died, was "
                  "preempted or ran out of time (see slurm/logs/); submit again to grade it\n");
    HAS(said_out, "\nbo                   not graded: no results for this submission yet (its "
                  "task has not run, or it changed since); submit again to grade it\n");
    HAS(said_out, "\ncy                   folder  0 of 2 passed in 0 s\n");
    HAS(said_out, "\nREADME.txt           not graded: neither a folder");
    char *csv = out_text("gradebook.csv");
    HAS(csv, "\r\ncy,0,2,COMPILE,,WRONG,,0,");
    HAS(csv, "\r\nbo,0,0,NOT GRADED,");
    free(csv);
    char *txt = out_text("students/bo/report.txt");
    HAS(txt, "no results for this submission yet");
    free(txt);

    /* Planned again: cy is done, ada and bo are not. */
    ck_assert_int_eq(grade3("--slurm", NULL, NULL, NULL), 0);
    t = out_text("slurm/tasks.txt");
    ck_assert_str_eq(t, "616461\n626f\n");
    free(t);
    HAS(said_out, "\ncy                   folder  unchanged since ");
    HAS(said_out, "\n2 submissions to grade on the cluster: ");
    /* One left: the singular. */
    ck_assert_int_eq(klass(subs, "lesson3", "--out", out, "--seed", "42", "--task-list", list,
                           "--task", "0", NULL), 0);
    ck_assert_int_eq(calls, 2);
    ck_assert_int_eq(grade3("--slurm", NULL, NULL, NULL), 0);
    HAS(said_out, "\n1 submission to grade on the cluster: ");
    /* A plan that cannot be written. */
    snprintf(p, sizeof p, "%s/slurm", out);
    snprintf(want, sizeof want, "rm -rf '%s' && echo x > '%s'", p, p);
    ck_assert_int_eq(system(want), 0);
    ck_assert_int_eq(grade3("--slurm", NULL, NULL, NULL), 1);
    snprintf(want, sizeof want, "grader class: cannot write %s/slurm/: ", out);
    HAS(said_err, want);
}
END_TEST

/* The submissions folder gone between its check and its reading: said,
 * status 2. (The probe runs in between; this one takes the folder away.) */
static void vanishing_probe(char *name, size_t len, int *cc)
{
    char moved[700];
    snprintf(moved, sizeof moved, "%s.moved", subs);
    ck_assert_int_eq(rename(subs, moved), 0);
    fake_probe(name, len, cc);
}

START_TEST(the_folder_vanishes)
{
    small_class();
    char *argv[] = {"class", subs, "lesson3", "--out", out, "--seed", "42", NULL};
    class_hooks hooks = {.grade = fake_grade, .probe = vanishing_probe};
    capture c;
    capture_start(&c, "vanish");
    int rc = class_main(7, argv, &hooks);
    char *err;
    capture_end(&c, NULL, &err);
    ck_assert_int_eq(rc, 2);
    char want[900];
    snprintf(want, sizeof want, "grader class: cannot read %s: No such file or directory\n", subs);
    ck_assert_str_eq(err, want);
    free(err);
}
END_TEST

/* A task whose list cannot be read grades nothing, and fails. */
START_TEST(a_task_without_its_list)
{
    small_class();
    char list[800];
    snprintf(list, sizeof list, "%s/none.txt", scratch_dir);
    ck_assert_int_eq(grade3("--task-list", list, "--task", "0", NULL), 1);
    ck_assert_int_eq(calls, 0);
    HAS(said_err, "grader class: cannot read the task list ");
    LACKS(said_out, "ada");
}
END_TEST

/* ---- without a GPU: the real grader, its verdicts from the PTX simulator ---- */

/* What `grader class` grades with (grade_as_check), on a machine without a
 * GPU whatever this one has: the host backend with no device. */
static void grade_without_gpu(const exercise *ex, const int *knobs, const grade_opts *g,
                              double timeout_s, result *r)
{
    grade_opts go = *g;
    go.device = &device_host;
    grade_as_check(ex, knobs, &go, timeout_s, r);
}

static void student_copy(const char *who, const char *from)
{
    char *text = slurp_file(from);
    student(who, "lesson0/saxpy.cu", text);
    free(text);
}

/* A class of three graded without a GPU: the reference solution CORRECT
 * (not a pass), the untouched stub WRONG, a racy saxpy RACE, each as `make
 * check` says it without a GPU, in the gradebook, the student's JSON and
 * JUnit (CORRECT skipped, the other two failures), and the summary. */
START_TEST(without_a_gpu_the_simulator_judges)
{
    host_reset();
    host_set_device(NULL, 0);
    grade_with = grade_without_gpu;
    probe_gpu = "";
    student_copy("ann", "solutions/lesson0/saxpy.cu");
    student_copy("bob", "exercises/lesson0/saxpy.cu");
    student_copy("cat", "tests/unit/fixtures/nogpu/race_two_writers/lesson0/saxpy.cu");
    ck_assert_int_eq(klass(subs, "lesson0", "--out", out, "--seed", "42", NULL), 0);
    HAS(said_out, "without a GPU (compiled, mechanism-checked and run on the PTX simulator)");
    char *csv = out_text("gradebook.csv");
    HAS(csv, "\r\nann,0,1,CORRECT,");
    HAS(csv, "\r\nbob,0,1,WRONG,");
    HAS(csv, "\r\ncat,0,1,RACE,");
    free(csv);
    char *js = out_text("students/ann/report.json");
    HAS(js, "\"outcome\": \"CORRECT\"");
    HAS(js, "\"simulated\": true");
    free(js);
    js = out_text("students/cat/report.json");
    HAS(js, "\"outcome\": \"RACE\"");
    HAS(js, "wrote shared memory at line 12 (st.shared.u32) that thread (0,0,0) wrote at line "
            "12, a different value");
    free(js);
    char *ju = out_text("students/ann/junit.xml");
    HAS(ju, "<skipped");
    LACKS(ju, "<failure");
    free(ju);
    ju = out_text("students/bob/junit.xml");
    HAS(ju, "<failure");
    HAS(ju, "left 1 of 1 output values unwritten");
    free(ju);
    ju = out_text("students/cat/junit.xml");
    HAS(ju, "<failure");
    free(ju);
    char *txt = out_text("students/cat/report.txt");
    HAS(txt, "run on the grader's PTX simulator for correctness");
    HAS(txt, "RACE");
    free(txt);
    char *sum = out_text("summary.md");
    HAS(sum, "3 students, graded without a GPU");
    HAS(sum, "run on the grader's PTX simulator");
    free(sum);
}
END_TEST

/* ---- workers ---- */

/* Two workers: each line names its GPU, each row the device it was
 * graded on; the headline lists the devices. */
START_TEST(workers_name_their_gpus)
{
    small_class();
    ck_assert_int_eq(grade3("--gpus", "3,5", NULL, NULL), 0);
    HAS(said_out, "Results in ");
    HAS(said_out, "\nA worker per GPU, each taking the next student: 3 5.\n");
    /* Each student's line names the GPU their row says graded them. */
    char *csv = out_text("gradebook.csv");
    static const char *const who[] = {"ada", "bo", "cy"};
    for (int i = 0; i < 3; i++) {
        char line[64], row[64];
        int found = 0;
        for (int g = 3; g <= 5; g += 2) {
            snprintf(line, sizeof line, "\n[GPU %d] %-20s folder ", g, who[i]);
            if (!strstr(said_out, line))
                continue;
            found++;
            snprintf(row, sizeof row, ",Scripted GPU (device %d),%s,", g, who[i]);
            HAS(csv, row);
        }
        ck_assert_msg(found == 1, "%s: %d lines\n%s", who[i], found, said_out);
    }
    LACKS(csv, "(device 0)");
    free(csv);
    HAS(said_err, "progress: 3 of 3 students done, 2 failed, none left");
}
END_TEST

/* A worker that dies: its student, and those nobody took, are rows that
 * say so; the run fails. */
START_TEST(a_worker_dies)
{
    student("ada", "lesson3/matmul.cu", "// FAKE PASS 2.0\n");
    student("bo", "lesson3/matmul.cu", "// FAKE DIE\n");
    student("cy", "lesson3/matmul.cu", "// FAKE PASS 2.0\n");
    ck_assert_int_eq(grade3("--gpus", "0", NULL, NULL), 1);
    HAS(said_err, "grader class: the worker for GPU 0 ended badly (signal 9); its unfinished "
                  "students are marked not graded\n");
    char *csv = out_text("gradebook.csv");
    HAS(csv, "\r\nada,1,2,");
    HAS(csv, "\r\nbo,0,0,NOT GRADED,,NOT GRADED,,0,");
    HAS(csv, ",bo,not graded: the worker grading it stopped before it was done; run again to "
             "grade it\r\n");
    char *sum = out_text("summary.md");
    HAS(sum, "; 0 unchanged since their last grade");
    free(sum);
    HAS(csv, "\r\ncy,0,0,NOT GRADED,,NOT GRADED,,0,,,cy,not graded: every worker stopped before "
             "it was taken; run again to grade it\r\n");
    free(csv);
    /* Run again: ada stands, bo dies again, cy is graded by the second worker. */
    student("bo", "lesson3/matmul.cu", "// FAKE PASS 3.0\n");
    ck_assert_int_eq(grade3("--gpus", "0,1", NULL, NULL), 0);
    csv = out_text("gradebook.csv");
    HAS(csv, "\r\nbo,1,2,");
    HAS(csv, "\r\ncy,1,2,");
    free(csv);
}
END_TEST

/* ---- progress (class_progress.c) ---- */

static class_queue queue;
static class_run prun;
static class_student prow;

static char *shown(int final)
{
    capture c;
    capture_start(&c, "progress");
    class_progress_show(&prun, final);
    char *err;
    capture_end(&c, NULL, &err);
    return err;
}

static void progress_run(int nst, int ngpus)
{
    memset(&queue, 0, sizeof queue);
    memset(&prun, 0, sizeof prun);
    prun.q = &queue;
    prun.nst = nst;
    prun.ngpus = ngpus;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    prun.started = ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A row counts as failed when it was not graded, not read whole, held no
 * exercise file, or has a failure; graded rows' time makes the estimate. */
START_TEST(progress_counts_rows)
{
    progress_run(10, 0);
    prun.worker = 1;           /* a worker counts, and shows nothing */
    memset(&prow, 0, sizeof prow);
    prow.nfound = 1;
    prow.counted = 2;
    prow.cell[0].outcome = OUT_PASS;
    prow.cell[1].outcome = OUT_PASS;
    prow.seconds = 2.5;
    capture c;
    capture_start(&c, "rows");
    class_progress_row(&prun, &prow);             /* passed, graded now */
    ck_assert_int_eq(queue.failed, 0);
    ck_assert_int_eq(queue.graded, 1);
    ck_assert_int_eq(queue.graded_ms, 2500);
    ck_assert_int_eq(queue.done, 1);
    prow.cached = 1;
    class_progress_row(&prun, &prow);             /* passed, unchanged */
    ck_assert_int_eq(queue.failed, 0);
    ck_assert_int_eq(queue.graded, 1);
    ck_assert_int_eq(queue.done, 2);
    prow.cached = 0;
    prow.cell[1].outcome = OUT_SLOW;
    class_progress_row(&prun, &prow);
    ck_assert_int_eq(queue.failed, 1);
    prow.cell[1].outcome = OUT_PASS;
    prow.counted = 1;
    prow.cell[1].outcome = OUT_WRONG;            /* not counted: not looked at */
    class_progress_row(&prun, &prow);
    ck_assert_int_eq(queue.failed, 1);
    prow.counted = 2;
    prow.cell[1].outcome = OUT_NO_GPU;           /* no GPU is no failure */
    class_progress_row(&prun, &prow);
    ck_assert_int_eq(queue.failed, 1);
    prow.cell[1].outcome = OUT_PASS;
    prow.nfound = 0;
    class_progress_row(&prun, &prow);
    ck_assert_int_eq(queue.failed, 2);
    prow.nfound = 1;
    snprintf(prow.error, sizeof prow.error, "damaged");
    class_progress_row(&prun, &prow);
    ck_assert_int_eq(queue.failed, 3);
    prow.error[0] = 0;
    snprintf(prow.why_not, sizeof prow.why_not, "not graded: a link");
    int graded = queue.graded;
    class_progress_row(&prun, &prow);
    ck_assert_int_eq(queue.failed, 4);
    ck_assert_int_eq(queue.graded, graded);       /* not graded: no time */
    ck_assert_int_eq(queue.done, 8);
    char *err;
    capture_end(&c, NULL, &err);
    ck_assert_str_eq(err, "");
    free(err);
    /* The run's own process shows each row. */
    prun.worker = 0;
    prow.why_not[0] = 0;
    capture_start(&c, "rows");
    class_progress_row(&prun, &prow);
    capture_end(&c, NULL, &err);
    HAS(err, "progress: 9 of 10 students done, 4 failed, ");
    free(err);
}
END_TEST

/* The estimate: unknown before a row is graded, in s, min or h, shared by
 * the workers; none once all are done. One line each time something
 * changed; on a terminal, rewritten in place and cleared at the end. */
START_TEST(progress_line_and_estimate)
{
    progress_run(10, 0);
    char *e = shown(0);
    ck_assert_msg(!strncmp(e, "progress: 0 of 10 students done, 0 failed, time left: not known "
                           "yet (", 66), "%s", e);
    HAS(e, " s so far)\n");
    free(e);
    e = shown(0);
    ck_assert_str_eq(e, "");                      /* nothing changed */
    free(e);
    e = shown(1);
    HAS(e, "progress: 0 of 10 students done");   /* the last one, always */
    free(e);
    struct { int done, graded; long ms; int ngpus; const char *left; } k[] = {
        /* s = graded_ms / graded * left / workers, left = 10 - done */
        {1, 1, 9999, 0, "about 90 s left"},
        {1, 1, 10000, 0, "about 2 min left"},
        {1, 1, 10000, 2, "about 45 s left"},
        {4, 2, 20000, 0, "about 60 s left"},
        {8, 3, 1500, 0, "about 1 s left"},
        {1, 1, 599999, 0, "about 90 min left"},
        {1, 1, 600000, 0, "about 1.5 h left"},
        {1, 1, 4000000, 4, "about 2.5 h left"},
        {1, 0, 0, 0, "time left: not known yet"},
        {10, 3, 3000, 0, "none left"},
        {10, 0, 0, 0, "none left"},
    };
    for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
        progress_run(10, k[i].ngpus);
        queue.done = k[i].done;
        queue.graded = k[i].graded;
        queue.graded_ms = k[i].ms;
        queue.failed = 1;
        e = shown(1);
        char want[200];
        snprintf(want, sizeof want, "progress: %d of 10 students done, 1 failed, %s (0 s so far)\n",
                 k[i].done, k[i].left);
        ck_assert_str_eq(e, want);
        free(e);
    }
    /* On a terminal: one line rewritten, cleared at the end. */
    progress_run(4, 0);
    prun.tty = 1;
    queue.done = 2;
    e = shown(0);
    ck_assert_str_eq(e, "\r\033[Kprogress: 2 of 4 students done, 0 failed, time left: not known "
                        "yet (0 s so far)");
    free(e);
    e = shown(1);
    ck_assert_str_eq(e, "\r\033[K");
    free(e);
}
END_TEST

Suite *class_run_suite(void)
{
    Suite *s = suite_create("class_run");
    TCase *tc = tcase_create("run");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, help_and_refusals);
    tcase_add_test(tc, folders_refused);
    tcase_add_test(tc, the_lines_of_a_run);
    tcase_add_test(tc, which_exercises);
    tcase_add_test(tc, refusals_on_the_line);
    tcase_add_test(tc, the_seed_is_recorded_and_reused);
    tcase_add_test(tc, a_seed_without_urandom);
    tcase_add_test(tc, new_seeds_are_random);
    tcase_add_test(tc, rows_that_do_not_fit);
    tcase_add_test(tc, what_makes_a_regrade);
    tcase_add_test(tc, the_course_is_part_of_the_key);
    tcase_add_test(tc, the_grader_is_part_of_the_key);
    tcase_add_test(tc, an_unreadable_grader_is_not_an_empty_one);
    tcase_add_test(tc, many_refused_entries);
    tcase_add_test(tc, a_long_reason_is_cut_whole);
    tcase_add_test(tc, on_a_terminal);
    tcase_add_test(tc, rows_as_class_json_keeps_them);
    tcase_add_test(tc, the_course_folder_is_part_of_the_key);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, a_task_notes_and_waits);
    tcase_add_test(tc, each_exercise_gets_its_limit);
    tcase_add_test(tc, the_budget_runs_out);
    tcase_add_test(tc, reports_name_the_students_files);
    tcase_add_test(tc, no_staging_folder);
    tcase_add_test(tc, staging_that_cannot_be_written);
    tcase_add_test(tc, entries_that_are_no_student);
    tcase_add_test(tc, a_student_output_that_cannot_be_written);
    tcase_add_test(tc, a_folder_keeps_its_whole_name);
    tcase_add_test(tc, plan_task_and_merge);
    tcase_add_test(tc, a_task_without_its_list);
    tcase_add_test(tc, the_folder_vanishes);
    tcase_add_test(tc, workers_name_their_gpus);
    tcase_add_test(tc, a_worker_dies);
    suite_add_tcase(s, tc);
    tc = tcase_create("without_gpu");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, without_a_gpu_the_simulator_judges);
    suite_add_tcase(s, tc);
    tc = tcase_create("progress");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, progress_counts_rows);
    tcase_add_test(tc, progress_line_and_estimate);
    suite_add_tcase(s, tc);
    return s;
}
