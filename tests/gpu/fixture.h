/* fixture.h: the kernels in tests/gpu/ that try to get past the grader, and
 * what the grader must say about each.
 *
 * A fixture is a folder tests/gpu/<group>/<name>/ (group: faulty, cheats,
 * races, accepted: right answers written unlike the reference, or gaming:
 * a mechanism the checks ask for, off the data path, issue 15) that is a student directory (--student-dir) holding one kernel
 * file, lessonN/<file>.cu, and a file `expect` of "key: value" lines
 * (# starts a comment):
 *
 *   lesson:   3                    the lesson of the exercise it answers
 *   exercise: matmul               the exercise's name
 *   outcome:  WRONG                the one outcome the grader must give (the
 *                                  report's word: PASS, SLOW, WRONG, REFUSED, ...)
 *   message:  changed its input    text the grader's message must contain
 *   nvrtc:    compiles             what NVRTC alone does with the file, no
 *                                  GPU and no grader rule involved: compiles,
 *                                  fails, or runaway (still compiling after
 *                                  FIXTURE_RUNAWAY_S seconds of CPU)
 *   secret:   /etc/passwd          optional: a file none of whose lines may
 *                                  appear anywhere in the grader's report
 *   env:      GRADER_LAUNCH_TIMEOUT=3   optional: for the grader's environment
 *   set:      PDIST=2              optional: knobs, as make check PDIST=2 sets them
 *   rule:     trust-source: ...    optional: which rule decides the outcome (for
 *                                  people reading a failure)
 *   diagnosis: copy_of_pending_load  optional: a pattern of rules/diagnose.h
 *                                  (its diagnose_name) the report must name: the
 *                                  CPU suite finds it in the fixture's PTX, the
 *                                  GPU suite in the JSON report's "diagnoses"
 *   sim_note: has a race: ...      optional: text the PTX simulator's note on a
 *                                  GPU's WRONG or HANG must contain (sim_note.h;
 *                                  the JSON's "sim_note"), checked when the GPU
 *                                  gives the expected outcome
 *
 * The CPU suite (tests/unit/test_fixtures.c) checks every expect file and
 * the nvrtc line; the GPU suite (tests/gpu/test_gpu.c) grades every fixture
 * and checks outcome, message and secret. */
#ifndef TESTS_GPU_FIXTURE_H
#define TESTS_GPU_FIXTURE_H

#include <stddef.h>

#define FIXTURE_ROOT "tests/gpu"
#define FIXTURE_MAX 96
/* "runaway": NVRTC must still be busy after this many seconds of CPU (the
 * CPU suite's check that the file really keeps a compiler busy, not that it
 * fails). CPU time, so that other work on the machine cannot make a short
 * compile look long; the GPU suite then grades it under the grader's own
 * limit (GRADER_COMPILE_TIMEOUT in its expect file). */
#define FIXTURE_RUNAWAY_S 6

typedef struct fixture {
    char dir[256];          /* tests/gpu/cheats/include_etc_passwd: the student dir */
    char id[128];           /* cheats/include_etc_passwd: for messages */
    int lesson;
    char exercise[64];
    char outcome[32];
    char message[256];
    char nvrtc[16];         /* compiles | fails | runaway */
    char secret[256];       /* "" when none */
    char env[128];          /* "" or NAME=value */
    char set[128];          /* "" or KNOB=value[ KNOB=value...] */
    char rule[256];
    char diagnosis[64];     /* "" or a diagnose_name() */
    char sim_note[256];     /* "" or text the report's sim_note must contain */
    char error[640];        /* why the expect file is not well formed */
} fixture;

/* Read dir/expect into f. 0, or -1 with f->error saying what is wrong: a
 * missing or unknown key, a value of the wrong shape. */
int fixture_read(const char *dir, fixture *f);

/* Every fixture folder under FIXTURE_ROOT/{faulty,cheats,races,accepted}, sorted by
 * id; each is read with fixture_read (check ->error). Returns how many
 * (at most max are stored), or -1 when a group folder cannot be read. */
int fixtures_list(fixture *out, int max);

/* Does `text` contain a line of the file `path` (lines of at least
 * `min_len` characters after trimming blanks)? Returns 1 and the line in
 * `found`, 0 when none does, -1 when the file cannot be read. *checked says
 * how many lines were long enough to look for. */
int contains_line_of(const char *text, const char *path, size_t min_len, int *checked,
                     char *found, size_t len);

#endif
