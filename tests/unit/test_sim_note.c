/* test_sim_note.c: with a GPU, a kernel the GPU finds WRONG or hung is run
 * again on the simulator, whose race or hang becomes a note beside the
 * GPU's verdict (sim_note.h); a PASS runs nothing more, and the verdict is
 * never changed. On the host backend: the "GPU" is device_host, and the
 * "simulator" is device_host again, with a race() that reports a race
 * (as the PTX simulator's does) or none.
 *
 *   CK_RUN_SUITE=sim_note build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pipeline.h"
#include "sim_note.h"
#include "suites.h"

#define RACE "thread (0,0,0) of block (0,0,0) read shared memory at line 9 (ld.shared.f32) " \
    "that thread (32,0,0) wrote at line 8, with no __syncthreads()"

static const char *sees_a_race(void) { return RACE; }

static void right(host_call *c)
{
    axpy_args A = axpy_of(c);
    axpy_range(A, 0, A.n);
    c->ms = 0.010;
}

static void wrong(host_call *c)
{
    axpy_args A = axpy_of(c);
    for (int i = 0; i < A.n; i++)
        A.z[i] = A.a * A.x[i] - A.y[i];
    c->ms = 0.010;
}

static void endless(host_call *c) { c->ms = 1e9; }

/* The simulator's compile, noting whether it ran in this (the grading)
 * process rather than in a child. */
static pid_t grading_pid;
static int compiled_here;
static void noting_compile(const compile_job *jobs, int n, compiled *out)
{
    if (getpid() == grading_pid)
        compiled_here = 1;
    device_host.compile(jobs, n, out);
}

enum sim_kind { NO_SIM, SIM_RACY, SIM_BLIND };

typedef struct note_case {
    const char *name;
    host_fn student;
    enum sim_kind sim;
    enum outcome want;         /* the GPU's verdict, whatever the simulator says */
    const char *note;          /* in r.sim_note; NULL: it stays empty */
} note_case;

static const note_case cases[] = {
    {"a pass runs nothing more", right, SIM_RACY, OUT_PASS, NULL},
    {"wrong: the race named", wrong, SIM_RACY, OUT_WRONG,
     "On the PTX simulator, which orders every access the same way on every run, your "
     "kernel has a race: " RACE ". That is a likely cause"},
    {"hang: where it hangs", endless, SIM_RACY, OUT_HANG, "On the PTX simulator it hangs too: "
     "While running your kernel at size 1"},
    {"wrong, no race found: nothing added", wrong, SIM_BLIND, OUT_WRONG, NULL},
    {"no simulator: nothing added", wrong, NO_SIM, OUT_WRONG, NULL},
};

START_TEST(note_by_case)
{
    const note_case *c = &cases[_i];
    static device_ops sim;
    sim = device_host;
    sim.race = c->sim == SIM_RACY ? sees_a_race : NULL;
    sim.sample = NULL;   /* the note alone: no sampled run of a pass (test_sim_sample.c) */
    sim.compile = noting_compile;
    grading_pid = getpid();
    compiled_here = 0;
    grade_opts o = host_opts();
    o.launch_timeout_s = 1;
    o.simulator = c->sim == NO_SIM ? NULL : &sim;
    use_kernels(&t_axpy, c->student);
    int knobs[MAX_KNOBS] = {0};
    static result r, alone;
    grade_with_sim_note(&t_axpy, knobs, &o, 20, &r);
    /* Compiled in a child only: a grading parent that compiled (loaded
     * NVRTC) broke the CUDA start of every later exercise's child on the
     * H200 (sim_note.h). */
    ck_assert_msg(!compiled_here, "%s: the simulator's compile ran in the grading process",
                  c->name);
    ck_assert_msg(r.outcome == c->want, "%s: %s, want %s: %s", c->name, outcome_word(r.outcome),
                  outcome_word(c->want), r.message);
    if (c->note)
        ck_assert_msg(strstr(r.sim_note, c->note), "%s: '%s' not in the note: '%s'", c->name,
                      c->note, r.sim_note);
    else
        ck_assert_msg(!r.sim_note[0], "%s: a note: %s", c->name, r.sim_note);
    /* The GPU's own words are those of a grading without the simulator. */
    o.simulator = NULL;
    grade_with_sim_note(&t_axpy, knobs, &o, 20, &alone);
    ck_assert_int_eq(alone.outcome, r.outcome);
    ck_assert_msg(!strstr(r.message, "simulator"), "%s: %s", c->name, r.message);
}
END_TEST

/* --dump-outputs (grade_opts.dump_outputs): each correctness run's output
 * bytes, named by size and seed, so the GPU's and the simulator's can be
 * compared bit for bit (tests/gpu/sim-agreement-run.sh). A wrong kernel's
 * are written too (before the check that stops it). */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    *len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

START_TEST(outputs_dumped)
{
    char dir[] = "/tmp/sim-note-dump-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    grade_opts o = host_opts();
    o.dump_outputs = dir;
    int knobs[MAX_KNOBS] = {0};
    static result r;
    static const struct {
        const char *file;
        size_t bytes;
    } right_files[] = {{"size1-seed42.bin", 4}, {"size100-seed43.bin", 400},
                       {"size1000-seed44.bin", 4000}};
    use_kernels(&t_axpy, right);
    grade_with_sim_note(&t_axpy, knobs, &o, 20, &r);
    ck_assert_int_eq(r.outcome, OUT_PASS);
    char path[256], first[4000];
    size_t len = 0;
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, right_files[i].file);
        ck_assert_msg(read_all(path, &len), "no %s", path);
        ck_assert_uint_eq(len, right_files[i].bytes);
        if (i == 1)
            memcpy(first, read_all(path, &len), len);
        unlink(path);
    }
    /* The same seed, the same bytes; a wrong kernel's differ, at its one size. */
    use_kernels(&t_axpy, wrong);
    grade_with_sim_note(&t_axpy, knobs, &o, 20, &r);
    ck_assert_int_eq(r.outcome, OUT_WRONG);
    snprintf(path, sizeof path, "%s/size100-seed43.bin", dir);
    ck_assert_ptr_null(read_all(path, &len));
    snprintf(path, sizeof path, "%s/size1-seed42.bin", dir);
    ck_assert_ptr_nonnull(read_all(path, &len));
    unlink(path);
    use_kernels(&t_axpy, right);
    grade_with_sim_note(&t_axpy, knobs, &o, 20, &r);
    snprintf(path, sizeof path, "%s/size100-seed43.bin", dir);
    ck_assert_int_eq(memcmp(read_all(path, &len), first, 400), 0);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, right_files[i].file);
        unlink(path);
    }
    rmdir(dir);
}
END_TEST

Suite *sim_note_suite(void)
{
    Suite *s = suite_create("sim_note");
    TCase *tc = tcase_create("notes");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, note_by_case, 0, (int)(sizeof cases / sizeof *cases));
    suite_add_tcase(s, tc);
    TCase *dumps = tcase_create("dumps");
    tcase_add_test(dumps, outputs_dumped);
    suite_add_tcase(s, dumps);
    return s;
}
