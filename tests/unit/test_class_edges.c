/* test_class_edges.c: `grader class` in the odd states its process and
 * folders may be in (class.c, class_text.c, class_guard.c, class_slurm.c,
 * class_cache.c, archive.c): started with stdin closed (so the first file
 * it opens gets descriptor 0: its outputs, its lock and a Slurm task's lock
 * must still work); an empty SUBMISSIONS folder and empty folders inside a
 * hand-in; no descriptor left open after a run (what a grading child would
 * inherit); a task note longer than the grader writes; the bytes of a
 * cache file's header (zero, not whatever the stack held); a folder that
 * cannot be made (the refusal said, not a deeper ENOENT); no descriptor
 * left to open a hand-in; a row whose last file's name is too long; what
 * a submission's key reads.
 *
 *   CK_RUN_SUITE=class_edges build/tests/unit_tests */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "archive.h"
#include "sha256.h"
#include "submission.h"
#include "class_scratch.h"

/* ---- a grader that passes everything ---- */

static void fake_probe(char *name, size_t len, int *cc)
{
    snprintf(name, len, "Scripted GPU");
    *cc = 90;
}

static void pass_grade(const exercise *ex, const int *knobs, const grade_opts *g,
                       double timeout_s, result *r)
{
    (void)ex, (void)knobs, (void)g, (void)timeout_s;
    memset(r, 0, sizeof *r);
    snprintf(r->gpu, sizeof r->gpu, "Scripted GPU");
    r->cc = 90;
    r->outcome = OUT_PASS;
    r->timed = 1;
    r->time[V_BASELINE].ms = 10;
    r->time[V_STUDENT].ms = 2;
    r->time[V_SOLUTION].ms = 1.5;
    r->speedup = 5;
    snprintf(r->message, sizeof r->message, "Correct.");
}

static char subs[600], out[600];
static char *said_out, *said_err;

/* class_main with these arguments after "class" (NULL-ended), stdout and
 * stderr caught in said_out and said_err; with stdin closed when
 * no_stdin (closed after the capture's own opens, reopened after). */
static int klass(int no_stdin, const char *first, ...)
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
    if (no_stdin)
        close(0);
    class_hooks hooks = {.grade = pass_grade, .probe = fake_probe};
    int rc = class_main(argc, argv, &hooks);
    if (no_stdin && fcntl(0, F_GETFD) < 0)
        ck_assert_int_eq(open("/dev/null", O_RDONLY), 0);
    capture_end(&c, &said_out, &said_err);
    return rc;
}

static void setup(void)
{
    scratch();
    in_scratch(subs, sizeof subs, "subs");
    in_scratch(out, sizeof out, "out");
    ck_assert_int_eq(mkdir_p(subs), 0);
    said_out = said_err = NULL;
}

static void teardown(void)
{
    free(said_out);
    free(said_err);
    said_out = said_err = NULL;
    remove_scratch();
}

static void student(const char *who, const char *file, const char *text)
{
    char p[900];
    snprintf(p, sizeof p, "%s/%s/%s", subs, who, file);
    put_file(p, text);
}

/* How many of this process's descriptors lead to `target`. */
static int fds_on(const char *target)
{
    DIR *d = opendir("/proc/self/fd");
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        char link[300], to[600];
        snprintf(link, sizeof link, "/proc/self/fd/%s", de->d_name);
        ssize_t len = readlink(link, to, sizeof to - 1);
        if (len > 0) {
            to[len] = 0;
            n += !strcmp(to, target);
        }
    }
    closedir(d);
    return n;
}

/* ---- stdin closed: descriptor 0 is an ordinary one ---- */

START_TEST(an_output_on_descriptor_0)
{
    char p[900];
    in_scratch(p, sizeof p, "note.txt");
    close(0);
    FILE *f = out_open(p);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fileno(f), 0);
    fputs("written\n", f);
    ck_assert_int_eq(out_commit(f, p), 0);
    char *s = slurp_file(p);
    ck_assert_str_eq(s, "written\n");
    free(s);
}
END_TEST

START_TEST(a_lock_on_descriptor_0)
{
    ck_assert_int_eq(mkdir_p(out), 0);
    close(0);
    int fd = class_lock_as(out, 0, 0);
    ck_assert_int_eq(fd, 0);
    /* Held: another open file of the folder's lock is refused. */
    capture c;
    capture_start(&c, "second");
    int again = class_lock_as(out, 0, 0);
    capture_end(&c, NULL, NULL);
    ck_assert_int_eq(again, -1);
    ck_assert_int_eq(errno, EWOULDBLOCK);
    close(fd);
}
END_TEST

/* A plain run and a Slurm task, each started with stdin closed, grade. */
START_TEST(a_run_without_stdin)
{
    student("ada", "lesson3/matmul.cu", "// A\n");
    student("bo", "lesson3/matmul.cu", "// B\n");
    ck_assert_int_eq(klass(1, subs, "lesson3", "--out", out, "--seed", "42", NULL), 0);
    HAS(said_out, "ada");
    ck_assert_int_eq(klass(0, subs, "lesson3", "--out", out, "--seed", "43", "--slurm", NULL),
                     0);
    char list[800];
    snprintf(list, sizeof list, "%s/slurm/tasks.txt", out);
    ck_assert_int_eq(klass(1, subs, "lesson3", "--out", out, "--seed", "43", "--task-list",
                           list, "--task", "0", NULL), 0);
    LACKS(said_err, "cannot");
}
END_TEST

/* ---- empty folders ---- */

START_TEST(an_empty_class)
{
    ck_assert_int_eq(klass(0, subs, "lesson3", "--out", out, "--seed", "42", NULL), 0);
    char p[900];
    snprintf(p, sizeof p, "%s/class.json", out);
    ck_assert(exists(p));
}
END_TEST

typedef struct names { char log[2000]; } names;

static int note_want(void *ctx, const arc_entry *e)
{
    names *n = ctx;
    snprintf(n->log + strlen(n->log), sizeof n->log - strlen(n->log), "%s;", e->name);
    return ARC_SKIP;
}

static void note_got(void *ctx, int slot, const arc_entry *e, char *data, size_t len)
{
    (void)ctx, (void)slot, (void)e, (void)len;
    free(data);
}

static void note_bad(void *ctx, const arc_entry *e, const char *why)
{
    (void)ctx, (void)e, (void)why;
}

START_TEST(empty_folders_in_a_hand_in)
{
    char p[900], q[900];
    in_scratch(p, sizeof p, "h/a/empty");
    ck_assert_int_eq(mkdir_p(p), 0);
    in_scratch(p, sizeof p, "h/b/x.cu");
    put_file(p, "x");
    in_scratch(q, sizeof q, "h");
    names n = {.log = ""};
    arc_sink s = {.want = note_want, .got = note_got, .bad = note_bad, .ctx = &n};
    char err[256] = "";
    ck_assert_int_eq(archive_read_dir(q, &s, err, sizeof err), 0);
    ck_assert_str_eq(n.log, "a;a/empty;b;b/x.cu;");
    in_scratch(q, sizeof q, "h/a/empty");
    n.log[0] = 0;
    ck_assert_int_eq(archive_read_dir(q, &s, err, sizeof err), 0);
    ck_assert_str_eq(n.log, "");
}
END_TEST

/* ---- nothing left open ---- */

START_TEST(no_descriptor_left_open)
{
    student("ada", "lesson3/matmul.cu", "// A\n");
    int before = fds_on("/dev/urandom");
    ck_assert_int_eq(klass(0, subs, "lesson3", "--out", out, NULL), 0);   /* a new seed */
    ck_assert_int_eq(fds_on("/dev/urandom"), before);
}
END_TEST

/* ---- what the grader reads back ---- */

/* A task note is shown up to 199 bytes, whoever wrote it. */
START_TEST(a_long_task_note)
{
    static class_run run;
    static class_student st;
    memset(&run, 0, sizeof run);
    memset(&st, 0, sizeof st);
    run.out = out;
    snprintf(st.name, sizeof st.name, "ada");
    char p[900], note[400];
    snprintf(p, sizeof p, "%s/.cache/ada.task", out);
    memset(note, 'n', 300);
    note[300] = 0;
    put_file(p, note);
    class_slurm_missing(&run, &st);
    static const char head[] = "not graded: its task (";
    STARTS(st.why_not, head);
    size_t at = strlen(head);
    for (size_t i = 0; i < 199; i++)
        ck_assert_int_eq(st.why_not[at + i], 'n');
    ck_assert_msg(!strncmp(st.why_not + at + 199, ") ended", 7), "%s", st.why_not);
}
END_TEST

/* Leaves a pattern where the next call's locals go. */
static void __attribute__((noinline)) dirty_stack(void)
{
    volatile unsigned char junk[16384];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = 0xa5;
}

/* The header: "grader-class-1", zeros to 16 bytes, the size, the 64-digit
 * key and its NUL, and zero padding: the same bytes for the same row. */
START_TEST(a_cache_header_is_its_fields_and_zeros)
{
    static class_run run;
    static class_student st;
    memset(&run, 0, sizeof run);
    memset(&st, 0, sizeof st);
    run.out = out;
    snprintf(st.name, sizeof st.name, "ada");
    memset(st.key, 'k', 64);
    dirty_stack();
    ck_assert_int_eq(class_cache_save(&run, &st), 0);
    char p[900];
    snprintf(p, sizeof p, "%s/.cache/ada.state", out);
    FILE *f = fopen(p, "rb");
    ck_assert_ptr_nonnull(f);
    unsigned char h[88];
    ck_assert_int_eq(fread(h, 1, sizeof h, f), sizeof h);
    fclose(f);
    ck_assert_int_eq(memcmp(h, "grader-class-1\0\0", 16), 0);
    unsigned size;
    memcpy(&size, h + 16, sizeof size);
    ck_assert_uint_eq(size, sizeof st);
    for (int i = 20; i < 84; i++)
        ck_assert_int_eq(h[i], 'k');
    for (int i = 84; i < 88; i++)
        ck_assert_msg(h[i] == 0, "byte %d is %#x", i, h[i]);
}
END_TEST

/* ---- a folder that cannot be made ---- */

/* A folder that cannot be made where its parent is (sysfs refuses mkdir,
 * to root too), so a folder under it is missing: the errno callers print
 * must be the refusal of the level that failed, not ENOENT from deeper. */
static const char refused[] = "/sys/grader-class-edges";

static int refusal(int e)
{
    return e == EPERM || e == EACCES || e == EROFS;
}

START_TEST(the_level_that_fails_is_said)
{
    ck_assert_int_ne(mkdir(refused, 0755), 0);
    ck_assert_msg(refusal(errno), "sysfs took a folder: %s", strerror(errno));
    char p[600];
    snprintf(p, sizeof p, "%s/a/b", refused);
    errno = 0;
    ck_assert_int_eq(mkdir_p(p), -1);
    ck_assert_msg(refusal(errno), "mkdir_p: %s", strerror(errno));

    static class_run run;
    static class_student st;
    static submission sub;
    static graded g[1];
    memset(&run, 0, sizeof run);
    memset(&st, 0, sizeof st);
    run.out = refused;
    snprintf(st.name, sizeof st.name, "ada");
    errno = 0;
    ck_assert_int_eq(class_cache_save(&run, &st), -1);
    ck_assert_msg(refusal(errno), "class_cache_save: %s", strerror(errno));
    errno = 0;
    ck_assert_int_eq(class_write_student(&run, &st, &sub, g, 0), -1);
    ck_assert_msg(refusal(errno), "class_write_student: %s", strerror(errno));
    errno = 0;
    ck_assert_int_eq(class_write_not_graded(&run, &st), -1);
    ck_assert_msg(refusal(errno), "class_write_not_graded: %s", strerror(errno));
    /* The staging folder itself. */
    static const exercise ex = {.lesson = 3, .name = "matmul", .file = "lesson3/matmul.cu"};
    static const exercise *const exs[1] = {&ex};
    sub.ex = exs;
    sub.nex = 1;
    sub.data[0] = "M";
    sub.len[0] = 1;
    errno = 0;
    ck_assert_int_eq(submission_stage(&sub, refused), -1);
    ck_assert_msg(refusal(errno), "submission_stage: %s", strerror(errno));
}
END_TEST

/* No descriptor to spare: a zip is said unreadable by the zip reader
 * (libarchive opens it), a tar by the grader's own open; a row's report
 * and the Slurm task list are not written, and that is said (-1). */
START_TEST(no_descriptor_to_open_a_hand_in)
{
    char zip[900], tar[900];
    in_scratch(zip, sizeof zip, "h.zip");
    in_scratch(tar, sizeof tar, "h.tar");
    put_file(zip, "PK\3\4 not much of a zip");
    put_file(tar, "not much of a tar");
    int lowest = dup(2);
    ck_assert_int_ge(lowest, 0);
    close(lowest);
    struct rlimit lim, was;
    ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &was), 0);
    lim = was;
    lim.rlim_cur = (rlim_t)lowest;
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
    /* A row's report cannot be opened: the row is not written. */
    static class_run run;
    static class_student st;
    memset(&run, 0, sizeof run);
    memset(&st, 0, sizeof st);
    run.out = out;
    snprintf(st.name, sizeof st.name, "ada");
    snprintf(st.why_not, sizeof st.why_not, "not graded: a test");
    errno = 0;
    int rc = class_write_not_graded(&run, &st);
    int e = errno;
    run.batch = 1;             /* the Slurm plan's task list, nothing planned */
    int planned = class_slurm_write(&run);
    names n = {.log = ""};
    arc_sink s = {.want = note_want, .got = note_got, .bad = note_bad, .ctx = &n};
    char kind[16], err[512];
    ck_assert_int_eq(archive_read(zip, &s, kind, sizeof kind, err, sizeof err), -1);
    STARTS(err, "cannot be read as an archive (");
    ck_assert_int_eq(archive_read(tar, &s, kind, sizeof kind, err, sizeof err), -1);
    ck_assert_str_eq(err, "cannot be read: Too many open files");
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &was), 0);   /* for the fixture's rm */
    ck_assert_str_eq(n.log, "");
    ck_assert_int_eq(rc, -1);
    ck_assert_int_eq(e, EMFILE);
    ck_assert_int_eq(planned, -1);
    char p[900];
    snprintf(p, sizeof p, "%s/students/ada/report.txt", out);
    ck_assert(!exists(p));
}
END_TEST

/* ---- what the key reads ---- */

static void key_of(const submission *s, char out[65])
{
    sha256 h;
    sha256_init(&h);
    submission_hash(s, &h);
    sha256_hex(&h, out);
}

/* Only the refusals counted (and at most SUB_MAX_NOTES of them) enter a
 * submission's key: what a slot past them holds does not. */
START_TEST(the_key_reads_the_counted_refusals)
{
    static const exercise ex = {.lesson = 3, .name = "matmul", .file = "lesson3/matmul.cu"};
    static const exercise *const exs[1] = {&ex};
    static submission a, b;
    a.ex = b.ex = exs;
    a.nex = b.nex = 1;
    a.data[0] = b.data[0] = "M";
    a.len[0] = b.len[0] = 1;
    a.nrefused = b.nrefused = 1;
    snprintf(a.refused[0].entry, sizeof a.refused[0].entry, "x.cu");
    snprintf(b.refused[0].entry, sizeof b.refused[0].entry, "x.cu");
    snprintf(b.refused[1].entry, sizeof b.refused[1].entry, "stale.cu");
    char ka[65], kb[65];
    key_of(&a, ka);
    key_of(&b, kb);
    ck_assert_str_eq(ka, kb);
    b.nrefused = 2;            /* counted now: another key */
    key_of(&b, kb);
    ck_assert_str_ne(ka, kb);
}
END_TEST

/* A student folder so deep that only submission.json's temporary name is
 * too long for the system: the row is said not written (-1), not taken
 * as done. */
START_TEST(the_last_file_of_a_row_cannot_be_made)
{
    static char deep[4200];
    snprintf(deep, sizeof deep, "%s", out);
    /* out/students/ada/submission.json.tmp.XXXXXX: 4069 + 27 = 4096 bytes,
     * one over; report.json.tmp.PID.0 (PID of at most 7 digits) fits. */
    size_t want = 4069 - strlen("/students/ada");
    while (strlen(deep) + 201 < want)
        snprintf(deep + strlen(deep), sizeof deep - strlen(deep), "/%0200d", 0);
    size_t at = strlen(deep);
    deep[at++] = '/';
    while (at < want)
        deep[at++] = 'd';
    deep[at] = 0;
    static class_run run;
    static class_student st;
    static submission sub;
    static graded g[1];
    memset(&run, 0, sizeof run);
    memset(&st, 0, sizeof st);
    run.out = deep;
    snprintf(st.name, sizeof st.name, "ada");
    errno = 0;
    ck_assert_int_eq(class_write_student(&run, &st, &sub, g, 0), -1);
    ck_assert_int_eq(errno, ENAMETOOLONG);
    char p[4300];
    snprintf(p, sizeof p, "%s/students/ada/junit.xml", deep);
    ck_assert(exists(p));      /* the files before it were written */
}
END_TEST

Suite *class_edges_suite(void)
{
    Suite *s = suite_create("class_edges");
    TCase *tc = tcase_create("edges");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, an_output_on_descriptor_0);
    tcase_add_test(tc, a_lock_on_descriptor_0);
    tcase_add_test(tc, a_long_task_note);
    tcase_add_test(tc, a_cache_header_is_its_fields_and_zeros);
    tcase_add_test(tc, empty_folders_in_a_hand_in);
    tcase_add_test(tc, an_empty_class);
    tcase_add_test(tc, no_descriptor_left_open);
    tcase_add_test(tc, a_run_without_stdin);
    tcase_add_test(tc, the_level_that_fails_is_said);
    tcase_add_test(tc, no_descriptor_to_open_a_hand_in);
    tcase_add_test(tc, the_key_reads_the_counted_refusals);
    tcase_add_test(tc, the_last_file_of_a_row_cannot_be_made);
    suite_add_tcase(s, tc);
    return s;
}
