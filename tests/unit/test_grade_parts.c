/* test_grade_parts.c: the pieces grading is built from, each at its
 * bounds, without running a grading child: where a version's file is and
 * what it is called (versions.c), the child's failure channel and its
 * capital letter (core/child_fail.c), reading and writing a file whole
 * (core/fileio.c), the noise band's edges (core/stats.c), and the guards,
 * poison and input check around a kernel's buffers on the host backend
 * (grade/buffers.c), and the grading child's own process (grade/child.c):
 * what a timeout kills, that it dies with its parent, that nothing is
 * left behind, and what happens when the shared result cannot be mapped.
 *
 *   CK_RUN_SUITE=grade_parts build/tests/unit_tests */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "buffers.h"
#include "child.h"
#include "child_fail.h"
#include "fileio.h"
#include "pipeline.h"
#include "stats.h"
#include "suites.h"
#include "versions.h"

/* ---- versions.c --------------------------------------------------------- */

START_TEST(defaults_and_launch_timeout)
{
    static const struct { const char *env; double want; } t[] = {
        {NULL, 10}, {"2.5", 2.5}, {"0.5", 0.5}, {"0", 10}, {"-3", 10}, {"soon", 10},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        if (t[i].env)
            setenv("GRADER_LAUNCH_TIMEOUT", t[i].env, 1);
        else
            unsetenv("GRADER_LAUNCH_TIMEOUT");
        grade_opts o;
        memset(&o, 0x5a, sizeof o);
        grade_opts_defaults(&o);
        ck_assert_msg(o.launch_timeout_s == t[i].want, "GRADER_LAUNCH_TIMEOUT=%s: %g",
                      t[i].env ? t[i].env : "(unset)", o.launch_timeout_s);
        ck_assert_str_eq(o.root, ".");
        ck_assert_str_eq(o.student_dir, "exercises");
        ck_assert_double_eq(o.time_budget_s, 1.5);
        /* Everything else starts empty. */
        ck_assert_uint_eq(o.seed, 0);
        ck_assert_ptr_null(o.device);
        ck_assert_int_eq(o.correctness_only, 0);
    }
    unsetenv("GRADER_LAUNCH_TIMEOUT");
}
END_TEST

static const exercise ex_plain = {
    .lesson = 3, .name = "m", .file = "lesson3/m.cu", .kernel = "m",
};
static const exercise ex_ref = {
    .lesson = 10, .name = "i", .file = "lesson10/i.cu", .kernel = "i",
    .reference = "lesson10/p.cu", .reference_kernel = "p",
};
static const exercise ex_demo = {
    .lesson = 7, .name = "d", .file = "lesson7/d.cu", .kernel = "d", .demo = 1,
    .reference = "lesson7/r.cu",
};

static const char *path_of(const exercise *ex, enum variant v, const char *root,
                           const char *student_dir)
{
    static char path[256];
    grade_opts o = {.root = root, .student_dir = student_dir};
    variant_path(ex, v, &o, path, sizeof path);
    return path;
}

START_TEST(where_each_version_is)
{
    ck_assert_str_eq(path_of(&ex_plain, V_BASELINE, ".", "exercises"),
                     "grader/baselines/lesson3/m.cu");
    ck_assert_str_eq(path_of(&ex_plain, V_SOLUTION, ".", "exercises"), "solutions/lesson3/m.cu");
    ck_assert_str_eq(path_of(&ex_plain, V_STUDENT, ".", "exercises"), "exercises/lesson3/m.cu");
    /* Another solution file is the reference; the others keep the file. */
    ck_assert_str_eq(path_of(&ex_ref, V_SOLUTION, ".", "exercises"), "solutions/lesson10/p.cu");
    ck_assert_str_eq(path_of(&ex_ref, V_STUDENT, ".", "exercises"), "exercises/lesson10/i.cu");
    ck_assert_str_eq(path_of(&ex_ref, V_BASELINE, ".", "exercises"),
                     "grader/baselines/lesson10/i.cu");
    /* A demo's "student" file is the course's demo. */
    ck_assert_str_eq(path_of(&ex_demo, V_STUDENT, ".", "exercises"), "grader/demos/lesson7/d.cu");
    /* Under another top, and a student folder given by its full path. */
    ck_assert_str_eq(path_of(&ex_plain, V_STUDENT, "/course", "exercises"),
                     "/course/exercises/lesson3/m.cu");
    ck_assert_str_eq(path_of(&ex_plain, V_BASELINE, "/course", "/abs/mine"),
                     "/course/grader/baselines/lesson3/m.cu");
    ck_assert_str_eq(path_of(&ex_plain, V_STUDENT, "/course", "/abs/mine"),
                     "/abs/mine/lesson3/m.cu");
    ck_assert_str_eq(path_of(&ex_plain, V_STUDENT, ".", "/abs/mine"), "/abs/mine/lesson3/m.cu");

    ck_assert_str_eq(variant_kernel(&ex_ref, V_SOLUTION), "p");
    ck_assert_str_eq(variant_kernel(&ex_ref, V_STUDENT), "i");
    ck_assert_str_eq(variant_kernel(&ex_ref, V_BASELINE), "i");
    ck_assert_str_eq(variant_kernel(&ex_plain, V_SOLUTION), "m");
}
END_TEST

START_TEST(paths_as_the_student_knows_them)
{
    grade_opts o = {.root = "/course"};
    ck_assert_str_eq(shown_path("/course/exercises/x.cu", &o), "exercises/x.cu");
    ck_assert_str_eq(shown_path("/coursework/x.cu", &o), "/coursework/x.cu");
    ck_assert_str_eq(shown_path("/elsewhere/x.cu", &o), "/elsewhere/x.cu");
    ck_assert_str_eq(shown_path("/course", &o), "/course");
    o.root = ".";
    ck_assert_str_eq(shown_path("./solutions/x.cu", &o), "solutions/x.cu");
    ck_assert_str_eq(shown_path("exercises/x.cu", &o), "exercises/x.cu");

    char dir[64];
    student_folder(&ex_plain, "exercises/lesson3/m.cu", dir, sizeof dir);
    ck_assert_str_eq(dir, "exercises");
    student_folder(&ex_plain, "/a/b/lesson3/m.cu", dir, sizeof dir);
    ck_assert_str_eq(dir, "/a/b");
    /* No folder in front of the file, or a demo: no folder to keep to. */
    strcpy(dir, "x");
    student_folder(&ex_plain, "lesson3/m.cu", dir, sizeof dir);
    ck_assert_str_eq(dir, "");
    strcpy(dir, "x");
    student_folder(&ex_demo, "grader/demos/lesson7/d.cu", dir, sizeof dir);
    ck_assert_str_eq(dir, "");
}
END_TEST

/* ---- child_fail.c ------------------------------------------------------- */

/* A sentence gets its capital; a path it starts with, and anything not a
 * lower-case letter, stays as it is. */
START_TEST(message_capital)
{
    static const struct { const char *in, *out; } t[] = {
        {"your kernel is wrong", "Your kernel is wrong"},
        {"a", "A"},
        {"z!", "Z!"},
        {"x-ray", "X-ray"},
        {"a{b", "A{b"},
        {"{a", "{a"},
        {"`a", "`a"},
        {"Already", "Already"},
        {"", ""},
        {"exercises/lesson3/m.cu(3): error", "exercises/lesson3/m.cu(3): error"},
        {"the file a/b.cu", "The file a/b.cu"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        result r;
        memset(&r, 0, sizeof r);
        result_say(&r, OUT_SLOW, "%s", t[i].in);
        ck_assert_str_eq(r.message, t[i].out);
        ck_assert_int_eq(r.outcome, OUT_SLOW);
        ck_assert_int_eq(r.stopped, OUT_NOT_RUN);    /* saying is not stopping */
    }
}
END_TEST

START_TEST(stage_of_the_child)
{
    result *saved = g_result;
    g_result = NULL;
    set_stage("nowhere %d", 1);     /* no child: nothing to record */
    result r;
    memset(&r, 0, sizeof r);
    g_result = &r;
    set_stage("running %s at size %d", "your kernel", 100);
    ck_assert_str_eq(r.stage, "running your kernel at size 100");
    char longer[200];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    set_stage("%s", longer);
    ck_assert_uint_eq(strlen(r.stage), sizeof r.stage - 1);
    g_result = saved;
}
END_TEST

/* Run child_fail in a child, into shared memory (NULL: no result, as in the
 * parent); returns its exit status and what stderr got. */
static int fail_in_child(result *shared, const char *detail, char *err, size_t len)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        g_result = shared;
        child_fail(OUT_WRONG, detail, "your kernel wrote %d values", 3);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t got;
    while (n + 1 < len && (got = read(fds[0], err + n, len - 1 - n)) > 0)
        n += (size_t)got;
    err[n] = 0;
    close(fds[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

START_TEST(child_fail_records_and_exits)
{
    result *r = mmap(NULL, sizeof *r, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(r, MAP_FAILED);
    char err[8192];
    memset(r, 0, sizeof *r);
    ck_assert_int_eq(fail_in_child(r, "  index 3: expected 1, got 2", err, sizeof err),
                     CHILD_FAILED);
    ck_assert_int_eq(r->outcome, OUT_WRONG);
    ck_assert_int_eq(r->stopped, OUT_WRONG);
    ck_assert_str_eq(r->message, "Your kernel wrote 3 values");
    ck_assert_str_eq(r->detail, "  index 3: expected 1, got 2");
    ck_assert_str_eq(err, "");          /* a child reports in its result, not on stderr */

    /* No detail: none recorded. */
    memset(r, 0, sizeof *r);
    fail_in_child(r, NULL, err, sizeof err);
    ck_assert_str_eq(r->detail, "");

    /* A detail that fills the field ends by saying there is more. */
    static char big[6000];
    memset(big, 'l', sizeof big - 1);
    memset(r, 0, sizeof *r);
    fail_in_child(r, big, err, sizeof err);
    const char *more = "\n  ... (more in the log)\n";
    size_t at = sizeof r->detail - 1 - 40;
    ck_assert_uint_eq(strlen(r->detail), at + strlen(more));
    ck_assert_str_eq(r->detail + at, more);
    ck_assert_int_eq(r->detail[at - 1], 'l');
    /* One byte short of filling it: all of it, as it was. */
    big[sizeof r->detail - 2] = 0;
    memset(r, 0, sizeof *r);
    fail_in_child(r, big, err, sizeof err);
    ck_assert_str_eq(r->detail, big);

    /* Without a child's result: said on stderr, with the detail. */
    ck_assert_int_eq(fail_in_child(NULL, "the log", err, sizeof err), CHILD_FAILED);
    ck_assert_str_eq(err, "grader: Your kernel wrote 3 values\nthe log\n");
    fail_in_child(NULL, NULL, err, sizeof err);
    ck_assert_str_eq(err, "grader: Your kernel wrote 3 values\n");
    munmap(r, sizeof *r);
}
END_TEST

/* ---- fileio.c ----------------------------------------------------------- */

static char *temp_with(size_t bytes, char *path, size_t len)
{
    snprintf(path, len, "/tmp/grader-parts-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    char *want = malloc(bytes + 1);
    ck_assert_ptr_nonnull(want);
    for (size_t i = 0; i < bytes; i++)
        want[i] = (char)('a' + (i * 7 + i / 26) % 26);
    want[bytes] = 0;
    ck_assert_int_eq(write_all(fd, want, bytes), 0);
    close(fd);
    return want;
}

/* Any size reads back whole and NUL-terminated: under, at and over the
 * first buffer's 4096 bytes, and several times over. */
START_TEST(read_whole_files)
{
    static const size_t sizes[] = {0, 1, 4094, 4095, 4096, 4097, 10000, 70000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char path[64];
        char *want = temp_with(sizes[i], path, sizeof path);
        size_t n = 12345;
        char *got = read_text_file(path, &n);
        ck_assert_ptr_nonnull(got);
        ck_assert_uint_eq(n, sizes[i]);
        ck_assert_uint_eq(strlen(got), sizes[i]);
        ck_assert_msg(!strcmp(got, want), "%zu bytes read back differently", sizes[i]);
        free(got);
        got = read_text_file(path, NULL);     /* the length is optional */
        ck_assert_ptr_nonnull(got);
        ck_assert_str_eq(got, want);
        free(got);
        free(want);
        unlink(path);
    }
    ck_assert_ptr_null(read_text_file("/nonexistent-dir/file", NULL));
    ck_assert_ptr_null(read_text_file("/tmp", NULL));      /* a folder cannot be read */
}
END_TEST

static void on_alarm(int sig)
{
    (void)sig;
}

/* A write interrupted by a signal before it wrote anything is tried again;
 * a write that fails is -1; one byte is written like any other count. */
START_TEST(write_all_retries_interrupts)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    /* Fill the pipe, so the next write blocks. */
    int fl = fcntl(fds[1], F_GETFL);
    fcntl(fds[1], F_SETFL, fl | O_NONBLOCK);
    char block[4096];
    memset(block, 'f', sizeof block);
    size_t filled = 0;
    ssize_t w;
    while ((w = write(fds[1], block, sizeof block)) > 0)
        filled += (size_t)w;
    while ((w = write(fds[1], block, 1)) > 0)
        filled += (size_t)w;
    fcntl(fds[1], F_SETFL, fl);
    pid_t reader = fork();
    ck_assert_int_ge(reader, 0);
    if (reader == 0) {
        close(fds[1]);
        struct timespec ts = {.tv_sec = 0, .tv_nsec = 300 * 1000 * 1000};
        nanosleep(&ts, NULL);
        size_t total = 0;
        ssize_t got;
        while ((got = read(fds[0], block, sizeof block)) > 0)
            total += (size_t)got;
        _exit(total == filled + 10 ? 0 : 1);
    }
    close(fds[0]);
    struct sigaction sa = {.sa_handler = on_alarm}, old;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;      /* no SA_RESTART: the blocked write returns EINTR */
    sigaction(SIGALRM, &sa, &old);
    ualarm(50 * 1000, 0);
    ck_assert_int_eq(write_all(fds[1], "0123456789", 10), 0);
    sigaction(SIGALRM, &old, NULL);
    close(fds[1]);
    int status;
    ck_assert_int_eq(waitpid(reader, &status, 0), reader);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the reader got other bytes");

    char path[64];
    char *one = temp_with(0, path, sizeof path);
    int fd = open(path, O_WRONLY);
    ck_assert_int_eq(write_all(fd, "x", 1), 0);
    ck_assert_int_eq(write_all(fd, "", 0), 0);
    close(fd);
    fd = open(path, O_RDONLY);
    ck_assert_int_eq(write_all(fd, "x", 1), -1);    /* not open for writing */
    close(fd);
    char *back = read_text_file(path, NULL);
    ck_assert_str_eq(back, "x");
    free(back);
    free(one);
    unlink(path);
}
END_TEST

/* ---- stats.c: the edges of the noise band ------------------------------- */

START_TEST(noise_band_edges)
{
    /* Exactly on the band's edge is still too close to call. */
    ck_assert_int_eq(judge(1.5, 1.0, 0.5, 1), 0);
    ck_assert_int_eq(judge(0.5, 1.0, 0.5, 1), 0);
    ck_assert_int_eq(judge(1.0, 1.5, 0.5, 0), 0);
    ck_assert_int_eq(judge(1.0, 0.5, 0.5, 0), 0);
    ck_assert_int_eq(judge(1.75, 1.0, 0.5, 1), 1);
    ck_assert_int_eq(judge(0.25, 1.0, 0.5, 1), -1);
    /* A time of 0 is no measurement, whichever way is better. */
    ck_assert_int_eq(judge(0.0, 1.1, 0.03, 0), -1);
    ck_assert_int_eq(judge(1.0, NAN, 0.03, 0), -1);
    /* The floor's arithmetic: 1.3 GB in 1 ms at 1000 GB/s. */
    ck_assert_double_eq_tol(physical_floor_ms(2.6e9, 2000), 1.0, 1e-12);
    ck_assert_double_eq(physical_floor_ms(-1, 1000), 0);
    /* Known numbers under 1 are numbers all the same. */
    ck_assert_double_eq_tol(physical_floor_ms(0.65, 1.0), 0.5e-6, 1e-18);
    ck_assert_double_eq_tol(physical_floor_ms(2.6e9, 0.5), 4000, 1e-9);
    ck_assert_double_eq_tol(bytes_in_flight_per_sm(0.5, 0.5, 1), 0.25, 1e-12);
    ck_assert_double_eq(physical_floor_ms(1e9, NAN), 0);
    ck_assert_double_eq(bytes_in_flight_per_sm(1000, 500, -1), 0);
    ck_assert_double_eq_tol(bytes_in_flight_per_sm(1000, 500, 1), 500000, 1e-9);
    /* A figure only from a bandwidth, a latency and SMs all above 0: a
     * device reporting 0 SMs gives none (0), not a division by 0. */
    ck_assert_double_eq(bytes_in_flight_per_sm(1000, 500, 0), 0);
    ck_assert_double_eq(bytes_in_flight_per_sm(0, 500, 1), 0);
    ck_assert_double_eq(bytes_in_flight_per_sm(1000, 0, 1), 0);
    /* 0, not 0 times infinity (NaN), when the other one is infinite. */
    ck_assert_double_eq(bytes_in_flight_per_sm(0, INFINITY, 1), 0);
    ck_assert_double_eq(bytes_in_flight_per_sm(INFINITY, 0, 1), 0);
    /* The bar's share of the reference's gain, exactly. */
    ck_assert_double_eq_tol(speedup_bar(0.25, 1.0, 5.0), 2.0, 1e-12);
    ck_assert_double_eq_tol(speedup_bar(1.0, 1.0, 5.0), 5.0, 1e-12);
    ck_assert_double_eq_tol(speedup_bar(0.0, 1.1, 5.0), 1.1, 1e-12);
    /* The middle of an even count, and of two. */
    const double two[] = {8.0, 2.0};
    ck_assert_double_eq(median(two, 2), 5.0);
    const double six[] = {6, 1, 5, 2, 4, 3};
    ck_assert_double_eq(median(six, 6), 3.5);
    ck_assert_double_eq(median(six, 5), 4.0);
    /* No memory for the sorted copy: no median (the values are not read). */
    ck_assert(isnan(median(six, (size_t)1 << 60)));
}
END_TEST

/* ---- buffers.c on the host backend -------------------------------------- */

static instance pair_instance(size_t n)
{
    instance I;
    device_facts dev;
    const device_ops *D = &device_host;
    char why[64];
    host_reset();
    ck_assert_int_eq(D->probe(&dev, why, sizeof why), 0);
    int knobs[MAX_KNOBS] = {0};
    ck_assert_int_eq(instance_build(&I, &t_pair, n, knobs, &dev, 9), 0);
    return I;
}

/* Every byte of an allocation that is no array holds GUARD_BYTE: the
 * allocation is whole ALLOC_GRAINs, each array's region (guard, data,
 * guard) runs to the next one and the last to the allocation's end, so
 * the regions tile it. */
static void tiles(const dev_set *d, int nsets_vers, const instance *I, size_t total)
{
    const char *base = d[0].alloc, *end = base + total;
    ck_assert_uint_eq(total % ALLOC_GRAIN, 0);
    /* Sort-free check: every byte of [base, end) in exactly one owned region. */
    size_t covered = 0;
    for (int i = 0; i < nsets_vers; i++)
        for (int b = 0; b < I->nbufs; b++) {
            const dev_array *a = &d[i].a[b];
            if (!a->owned)
                continue;
            ck_assert((const char *)a->base >= base && (const char *)a->end <= end);
            ck_assert_ptr_eq((char *)a->base + GUARD_BYTES, a->ptr);
            ck_assert_uint_eq((uintptr_t)a->ptr % REGION_ALIGN, 0);
            covered += (size_t)((const char *)a->end - (const char *)a->base);
            size_t bad = 0;
            const unsigned char *p = a->base;
            for (size_t k = 0; k < GUARD_BYTES; k++)
                bad += p[k] != GUARD_BYTE;
            for (p = (const unsigned char *)a->ptr + a->bytes; p < (const unsigned char *)a->end;
                 p++)
                bad += *p != GUARD_BYTE;
            ck_assert_uint_eq(bad, 0);
        }
    ck_assert_uint_eq(covered, total);
}

/* Every buffer sits in one allocation of whole 2 MiB pages between guard
 * bytes that fill it to its end; inputs hold what was uploaded; sets
 * carved together share their inputs, own their outputs, and lie one
 * constant apart; the arguments point at the buffers and scalars in
 * order. */
START_TEST(buffers_laid_out_with_guards)
{
    const device_ops *D = &device_host;
    instance I = pair_instance(100);      /* a (out), x, b (out), y; n */
    dev_set d;
    dev_set_upload(D, &d, &I);
    ck_assert_ptr_nonnull(d.alloc);
    for (int b = 0; b < I.nbufs; b++) {
        const dev_array *a = &d.a[b];
        ck_assert_uint_eq(a->bytes, I.bufs[b].count * (I.bufs[b].type == ELEM_F64 ? 8 : 4));
        ck_assert_int_eq(a->owned, 1);
        if (!I.bufs[b].is_output)
            ck_assert_mem_eq(a->ptr, I.bufs[b].host, a->bytes);
    }
    tiles(&d, 1, &I, ALLOC_GRAIN);
    ck_assert_uint_eq(dev_set_guards(D, &d, &I).bytes, 0);
    ck_assert_uint_eq(dev_set_inputs_changed(D, &d, &I).elems, 0);
    dev_set_free(D, &d);

    /* Two sets, three versions: d2[v * 2 + s]. */
    instance I2[2] = {pair_instance(100), pair_instance(100)};
    dev_set d2[6];
    size_t half = dev_sets_carve(D, d2, I2, 2, 3);
    ck_assert_ptr_nonnull(d2[0].alloc);
    for (int i = 1; i < 6; i++)
        ck_assert_ptr_null(d2[i].alloc);
    tiles(d2, 6, &I2[0], (2 * half + ALLOC_GRAIN - 1) / ALLOC_GRAIN * ALLOC_GRAIN);
    for (int b = 0; b < I.nbufs; b++)
        for (int v = 0; v < 3; v++) {
            /* Set 2 lies `half` after set 1, every array in its place. */
            ck_assert_ptr_eq((char *)d2[v * 2].a[b].ptr + half, d2[v * 2 + 1].a[b].ptr);
            if (I.bufs[b].is_output) {
                ck_assert_int_eq(d2[v * 2].a[b].owned, 1);
                ck_assert(v == 0 || d2[v * 2].a[b].ptr != d2[0].a[b].ptr);
            } else {
                ck_assert_int_eq(d2[v * 2].a[b].owned, v == 0);
                ck_assert_ptr_eq(d2[v * 2].a[b].ptr, d2[0].a[b].ptr);
            }
        }
    dev_set *s = &d2[2];     /* version 1, set 1 */
    /* Poison: every output byte all ones, inputs untouched. */
    dev_set_poison(D, s, &I);
    for (int b = 0; b < I.nbufs; b++) {
        const unsigned char *p = s->a[b].ptr;
        if (I.bufs[b].is_output)
            for (size_t i = 0; i < s->a[b].bytes; i++)
                ck_assert_uint_eq(p[i], POISON_BYTE);
        else
            ck_assert_mem_eq(p, I2[0].bufs[b].host, s->a[b].bytes);
    }
    void *argp[MAX_ARGS];
    dev_set_args(s, &I, argp);
    for (int a = 0; a < 4; a++)
        ck_assert_ptr_eq(*(void **)argp[a], s->a[a].ptr);
    ck_assert_int_eq(*(int *)argp[4], 100);

    /* Read back: the outputs, as the kernel left them. */
    float *out = s->a[0].ptr;
    out[7] = 2.5f;
    dev_set_download(D, s, &I);
    ck_assert_float_eq(((float *)I.bufs[0].host)[7], 2.5f);
    ck_assert_uint_eq(((uint32_t *)I.bufs[0].host)[6], UINT32_MAX);

    /* Only the holder frees. */
    for (int i = 5; i >= 0; i--)
        dev_set_free(D, &d2[i]);
    ck_assert_ptr_null(d2[0].alloc);
    instance_free(&I2[0]);
    instance_free(&I2[1]);
    instance_free(&I);
}
END_TEST

/* A large buffer: the allocation is rounded up to whole pages and the
 * bytes after the last array, to the end, are a guard; a write there is
 * damage of that array, placed by its offset. */
START_TEST(slack_to_the_page_end_is_a_guard)
{
    const device_ops *D = &device_host;
    instance I = pair_instance(300000);    /* about 6 MB: the last page part-used */
    dev_set d;
    dev_set_upload(D, &d, &I);
    const dev_array *last = &d.a[3];
    size_t used = (size_t)((char *)last->ptr + last->bytes - (char *)d.alloc);
    size_t total = (size_t)((char *)last->end - (char *)d.alloc);
    ck_assert_uint_gt(total - used, (size_t)GUARD_BYTES + 1000);
    tiles(&d, 1, &I, total);
    /* The allocation's very last byte. */
    ((unsigned char *)d.alloc)[total - 1] = 7;
    guard_damage g = dev_set_guards(D, &d, &I);
    ck_assert_uint_eq(g.bytes, 1);
    ck_assert_int_eq(g.buf, 3);
    ck_assert_int_eq(g.offset, (long)(total - 1 - (size_t)((char *)last->ptr - (char *)d.alloc)));
    dev_set_free(D, &d);
    instance_free(&I);
}
END_TEST

/* Scalar arguments of every kind point at the instance's own values. */
START_TEST(scalar_arguments)
{
    instance I;
    instance_init(&I, 1);
    inst_arg_int(&I, -7);
    inst_arg_float(&I, 1.5f);
    inst_arg_double(&I, 2.25);
    dev_set d;
    memset(&d, 0, sizeof d);
    void *argp[MAX_ARGS];
    dev_set_args(&d, &I, argp);
    ck_assert_int_eq(*(int *)argp[0], -7);
    ck_assert_float_eq(*(float *)argp[1], 1.5f);
    ck_assert_double_eq(*(double *)argp[2], 2.25);
    instance_free(&I);
}
END_TEST

/* Damaged guards: every changed byte counted; placed at the first buffer
 * with damage, at the byte nearest its data (before it: negative). */
START_TEST(guard_damage_is_placed)
{
    const device_ops *D = &device_host;
    instance I = pair_instance(10);
    dev_set d;
    dev_set_upload(D, &d, &I);
    unsigned char *x = d.a[1].ptr, *b = d.a[2].ptr;
    size_t bb = d.a[2].bytes;
    /* After the third buffer only: the first changed byte after it. */
    b[bb + 9] = 0;
    b[bb + 3] = 0;
    guard_damage g = dev_set_guards(D, &d, &I);
    ck_assert_uint_eq(g.bytes, 2);
    ck_assert_int_eq(g.buf, 2);
    ck_assert_int_eq(g.offset, (long)bb + 3);
    /* Before it too: before wins, the byte nearest the data. */
    b[-5] = 0;
    b[-2] = 0;
    b[-GUARD_BYTES] = 0;
    g = dev_set_guards(D, &d, &I);
    ck_assert_uint_eq(g.bytes, 5);
    ck_assert_int_eq(g.buf, 2);
    ck_assert_int_eq(g.offset, -2);
    /* An earlier buffer with damage is the one named; all are counted. */
    x[d.a[1].bytes + GUARD_BYTES - 1] = 0;
    g = dev_set_guards(D, &d, &I);
    ck_assert_uint_eq(g.bytes, 6);
    ck_assert_int_eq(g.buf, 1);
    ck_assert_int_eq(g.offset, (long)d.a[1].bytes + GUARD_BYTES - 1);
    dev_set_free(D, &d);
    instance_free(&I);
}
END_TEST

/* A changed input: how many elements, the first buffer and element, the
 * value it held and holds, for each element type; inputs larger than one
 * piece of the read-back are read whole. */
START_TEST(changed_inputs_are_found)
{
    const device_ops *D = &device_host;
    instance I = pair_instance(3 << 20);    /* 12 MiB per input: two pieces */
    dev_set d;
    dev_set_upload(D, &d, &I);
    float *x = d.a[1].ptr, *y = d.a[3].ptr;
    size_t far = (9u << 20) / 4 + 5;        /* in the second piece */
    float was = x[far];
    x[far] = 1234.5f;
    input_change ch = dev_set_inputs_changed(D, &d, &I);
    ck_assert_uint_eq(ch.elems, 1);
    ck_assert_int_eq(ch.buf, 1);
    ck_assert_uint_eq(ch.first, far);
    ck_assert_double_eq(ch.was, was);
    ck_assert_double_eq(ch.now, 1234.5);
    /* A later buffer's change is counted, the first one still named. */
    y[0] = -1.0f;
    y[3] = -2.0f;
    ch = dev_set_inputs_changed(D, &d, &I);
    ck_assert_uint_eq(ch.elems, 3);
    ck_assert_int_eq(ch.buf, 1);
    ck_assert_uint_eq(ch.first, far);
    x[far] = was;
    ch = dev_set_inputs_changed(D, &d, &I);
    ck_assert_uint_eq(ch.elems, 2);
    ck_assert_int_eq(ch.buf, 3);
    ck_assert_uint_eq(ch.first, 0);
    ck_assert_double_eq(ch.now, -1.0);
    /* One changed byte of an element is a changed element. */
    ((unsigned char *)&y[5])[3] ^= 0x01;
    ck_assert_uint_eq(dev_set_inputs_changed(D, &d, &I).elems, 3);
    /* Outputs may change: they are not inputs. */
    ((float *)d.a[0].ptr)[0] = 99;
    ck_assert_uint_eq(dev_set_inputs_changed(D, &d, &I).elems, 3);
    dev_set_free(D, &d);
    instance_free(&I);
}
END_TEST

/* ---- child.c ------------------------------------------------------------ */

static int pid_pipe[2];

/* The kernel reports its process (or a process it starts) and never ends. */
static void report_and_stay(host_call *c, int spawn)
{
    (void)c;
    pid_t me = getpid();
    if (spawn) {
        pid_t g = fork();
        if (g == 0) {
            me = getpid();
            if (write(pid_pipe[1], &me, sizeof me) != sizeof me)
                _exit(1);
            for (;;)
                pause();
        }
    } else if (write(pid_pipe[1], &me, sizeof me) != sizeof me) {
        _exit(1);
    }
    for (;;)
        pause();
}
static void stays(host_call *c) { report_and_stay(c, 0); }
static void spawns_and_stays(host_call *c) { report_and_stay(c, 1); }

/* Gone, or a zombie waiting for its reaper: dead either way. */
static int dead(pid_t pid)
{
    char path[64], stat[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = 0;
    const char *close_paren = strrchr(stat, ')');
    return close_paren && close_paren[2] == 'Z';
}

static int dies_soon(pid_t pid)
{
    for (int i = 0; i < 300 && !dead(pid); i++)
        usleep(10000);
    return dead(pid);
}

static pid_t read_pid(void)
{
    pid_t pid = 0;
    ck_assert_int_eq(read(pid_pipe[0], &pid, sizeof pid), (int)sizeof pid);
    return pid;
}

static void honest(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.012;
}

/* A child that grades to the end: its result comes back whole, and it is
 * waited for. */
START_TEST(child_reports_its_result)
{
    use_kernels(&t_axpy, honest);
    int knobs[MAX_KNOBS] = {0};
    grade_opts o = host_opts();
    result r;
    memset(&r, 0x5a, sizeof r);
    grade_in_child(&t_axpy, knobs, &o, 20, &r);
    ck_assert_int_eq(r.outcome, OUT_PASS);
    ck_assert_int_eq(r.stopped, OUT_NOT_RUN);
    ck_assert_int_eq(r.timed, 1);
    ck_assert_str_eq(r.detail, "");
    errno = 0;
    ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
    ck_assert_int_eq(errno, ECHILD);
}
END_TEST

/* A timeout kills everything the child started, and leaves no child of
 * the caller behind. */
START_TEST(timeout_kills_the_whole_group)
{
    ck_assert_int_eq(pipe(pid_pipe), 0);
    use_kernels(&t_axpy, spawns_and_stays);
    int knobs[MAX_KNOBS] = {0};
    grade_opts o = host_opts();
    result r;
    grade_in_child(&t_axpy, knobs, &o, 0.5, &r);
    ck_assert_int_eq(r.outcome, OUT_HANG);
    pid_t g = read_pid();
    int ok = dies_soon(g);
    if (!ok)
        kill(g, SIGKILL);
    ck_assert_msg(ok, "the process the kernel started outlived the timeout");
    /* The child itself was waited for: no zombie is left to the caller. */
    errno = 0;
    ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
    ck_assert_int_eq(errno, ECHILD);
    close(pid_pipe[0]);
    close(pid_pipe[1]);
}
END_TEST

/* When the process that started grading dies (make watch stopped), the
 * grading child dies with it. */
START_TEST(child_dies_with_its_parent)
{
    ck_assert_int_eq(pipe(pid_pipe), 0);
    pid_t middle = fork();
    ck_assert_int_ge(middle, 0);
    if (middle == 0) {
        use_kernels(&t_axpy, stays);
        int knobs[MAX_KNOBS] = {0};
        grade_opts o = host_opts();
        result r;
        grade_in_child(&t_axpy, knobs, &o, 30, &r);
        _exit(0);
    }
    pid_t child = read_pid();
    kill(middle, SIGKILL);
    waitpid(middle, NULL, 0);
    int ok = dies_soon(child);
    if (!ok)
        kill(child, SIGKILL);
    ck_assert_msg(ok, "the grading child outlived the process that started it");
    close(pid_pipe[0]);
    close(pid_pipe[1]);
}
END_TEST

/* No memory to share a result: INTERNAL, said, and nothing else set. */
START_TEST(no_shared_result)
{
    result r;
    memset(&r, 0x5a, sizeof r);
    use_kernels(&t_axpy, stays);
    int knobs[MAX_KNOBS] = {0};
    grade_opts o = host_opts();
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    struct rlimit old, rl;
    getrlimit(RLIMIT_AS, &old);
    rl = old;
    rl.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
    setrlimit(RLIMIT_AS, &rl);
    grade_in_child(&t_axpy, knobs, &o, 5, &r);
    setrlimit(RLIMIT_AS, &old);
    ck_assert_int_eq(r.outcome, OUT_INTERNAL);
    ck_assert_str_eq(r.message, "mmap failed: Cannot allocate memory");
    ck_assert_int_eq(r.stopped, 0);
    ck_assert_int_eq(r.timed, 0);
    ck_assert_str_eq(r.detail, "");
    ck_assert_str_eq(r.gpu, "");
}
END_TEST

Suite *grade_parts_suite(void)
{
    Suite *s = suite_create("grade_parts");
    TCase *tc = tcase_create("versions");
    tcase_add_test(tc, defaults_and_launch_timeout);
    tcase_add_test(tc, where_each_version_is);
    tcase_add_test(tc, paths_as_the_student_knows_them);
    suite_add_tcase(s, tc);
    tc = tcase_create("child_fail");
    tcase_add_test(tc, message_capital);
    tcase_add_test(tc, stage_of_the_child);
    tcase_add_test(tc, child_fail_records_and_exits);
    suite_add_tcase(s, tc);
    tc = tcase_create("fileio");
    tcase_add_test(tc, read_whole_files);
    tcase_add_test(tc, write_all_retries_interrupts);
    suite_add_tcase(s, tc);
    tc = tcase_create("stats");
    tcase_add_test(tc, noise_band_edges);
    suite_add_tcase(s, tc);
    tc = tcase_create("buffers");
    tcase_add_test(tc, buffers_laid_out_with_guards);
    tcase_add_test(tc, slack_to_the_page_end_is_a_guard);
    tcase_add_test(tc, scalar_arguments);
    tcase_add_test(tc, guard_damage_is_placed);
    tcase_add_test(tc, changed_inputs_are_found);
    suite_add_tcase(s, tc);
    tc = tcase_create("child");
    tcase_add_test(tc, child_reports_its_result);
    tcase_add_test(tc, timeout_kills_the_whole_group);
    tcase_add_test(tc, child_dies_with_its_parent);
    tcase_add_test(tc, no_shared_result);
    suite_add_tcase(s, tc);
    return s;
}
