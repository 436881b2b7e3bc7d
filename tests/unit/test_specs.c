/* test_specs.c: every exercise in the registry is consistent with the
 * course's files and with the grader's rules. The tests loop over the
 * registry, so an exercise added later is checked without a new test. An
 * empty registry would run none of the per-exercise ones, so
 * registry_not_empty fails on it. Paths are relative to
 * the course's top folder, where `make test-cpu` runs. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fileio.h"
#include "grade.h"
#include "instance.h"
#include "specs/prefetch_model.h"
#include "static_check.h"
#include "suites.h"

int registered_exercises(const exercise **out, int max)
{
    int n = 0;
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; e && *e; e++, n++)
            if (n < max)
                out[n] = *e;
    return n;
}

/* The _i-th exercise of the registry, and an id to name it in messages. */
static const exercise *nth(int i, char *id, size_t len)
{
    static const exercise *all[MAX_REGISTERED];
    registered_exercises(all, MAX_REGISTERED);
    snprintf(id, len, "lesson%d/%s", all[i]->lesson, all[i]->name ? all[i]->name : "?");
    return all[i];
}

static int nonempty(const char *s)
{
    return s && *s;
}

START_TEST(registry_fits)
{
    const exercise *all[MAX_REGISTERED];
    ck_assert_int_le(registered_exercises(all, MAX_REGISTERED), MAX_REGISTERED);
    for (int l = 0; l < N_LESSONS; l++)
        ck_assert_msg(lesson_exercises[l] != NULL, "lesson %d has no list", l);
}
END_TEST

/* Every lesson has an exercise to grade (a demo alone is not one): a lesson
 * list emptied by mistake, or a registry that lost its lessons, would
 * otherwise make every loop test below pass by running nothing. */
START_TEST(registry_not_empty)
{
    const exercise *all[MAX_REGISTERED];
    int total = registered_exercises(all, MAX_REGISTERED), counted = 0;
    for (int l = 0; l < N_LESSONS; l++) {
        int graded = 0;
        for (const exercise *const *e = lesson_exercises[l]; e && *e; e++, counted++)
            graded += !(*e)->demo;
        /* Only a lesson declared measured may have none, and it must have none. */
        if (lesson_is_measured[l])
            ck_assert_msg(graded == 0, "lesson %d is declared measured but has exercises", l);
        else
            ck_assert_msg(graded > 0, "lesson %d has no exercise to grade", l);
    }
    ck_assert_int_eq(total, counted);
    int measured = 0;
    for (int l = 0; l < N_LESSONS; l++)
        measured += lesson_is_measured[l];
    ck_assert_int_le(measured, 1);
    ck_assert_int_ge(total, N_LESSONS - measured);
}
END_TEST

/* Loop over lessons: names unique and well formed, lesson numbers right. */
START_TEST(lesson_list)
{
    const exercise *const *list = lesson_exercises[_i];
    for (int a = 0; list[a]; a++) {
        const char *name = list[a]->name;
        ck_assert_msg(nonempty(name), "lesson%d: exercise %d has no name", _i, a);
        for (const char *p = name; *p; p++)
            ck_assert_msg(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_',
                          "lesson%d/%s: names are made of a-z, 0-9 and _", _i, name);
        ck_assert_msg(list[a]->lesson == _i, "lesson%d/%s says it belongs to lesson %d", _i,
                      name, list[a]->lesson);
        for (int b = 0; b < a; b++)
            ck_assert_msg(strcmp(name, list[b]->name) != 0, "lesson%d: two exercises named %s",
                          _i, name);
    }
}
END_TEST

START_TEST(text_fields)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    ck_assert_msg(nonempty(ex->title), "%s: no title", id);
    ck_assert_msg(nonempty(ex->file), "%s: no file", id);
    ck_assert_msg(nonempty(ex->kernel), "%s: no kernel name", id);
    ck_assert_msg(nonempty(ex->explained_in), "%s: explained_in is empty", id);
    /* exercises/lessonN/<name>.cu: the file sits in its lesson's folder. */
    char prefix[32];
    snprintf(prefix, sizeof prefix, "lesson%d/", ex->lesson);
    ck_assert_msg(strncmp(ex->file, prefix, strlen(prefix)) == 0, "%s: file %s is not under %s",
                  id, ex->file, prefix);
    size_t n = strlen(ex->file);
    ck_assert_msg(n > 3 && strcmp(ex->file + n - 3, ".cu") == 0, "%s: %s is not a .cu", id,
                  ex->file);
    /* The kernel is an extern "C" name: a C identifier. */
    for (const char *p = ex->kernel; *p; p++)
        ck_assert_msg(isalnum((unsigned char)*p) || *p == '_', "%s: kernel '%s' is not an "
                      "identifier", id, ex->kernel);
}
END_TEST

START_TEST(files_exist)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    /* The files the grader will open: exercises/ (grader/demos/ for a demo),
     * grader/baselines/, and solutions/<file>, or solutions/<reference> when
     * the spec names one (a demo has no solution of its own). */
    grade_opts o = {.root = ".", .student_dir = "exercises"};
    for (int v = 0; v < N_VARIANTS; v++) {
        char path[1024];
        variant_path(ex, v, &o, path, sizeof path);
        ck_assert_msg(access(path, R_OK) == 0, "%s: %s is missing: %s", id,
                      variant_name(v), path);
    }
    const char *rk = ex->reference_kernel;
    for (const char *p = rk; p && *p; p++)
        ck_assert_msg(isalnum((unsigned char)*p) || *p == '_', "%s: reference_kernel '%s' is "
                      "not an identifier", id, rk);
}
END_TEST

START_TEST(files_say_how_to_grade_them)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    /* Each kernel file says in its header the command that grades it (as
     * llm.c's dev/cuda files do): "make check lessonN", or
     * "make check-solutions lessonN" for a reference solution. */
    grade_opts o = {.root = ".", .student_dir = "exercises"};
    for (int v = 0; v < N_VARIANTS; v++) {
        char path[1024];
        variant_path(ex, v, &o, path, sizeof path);
        char *text = read_text_file(path, NULL);
        ck_assert_msg(text != NULL, "%s: cannot read %s", id, path);
        const char *at = strstr(text, "make check");
        int lesson = -1;
        if (at) {
            at += strlen("make check");
            if (strncmp(at, "-solutions", 10) == 0)
                at += 10;
            if (*at != ' ' || sscanf(at, " lesson%d", &lesson) != 1)
                lesson = -1;
        }
        int ok = lesson == ex->lesson;
        free(text);
        ck_assert_msg(ok, "%s: %s does not say in its header how to grade it "
                      "(\"make check lesson%d ...\")", id, path, ex->lesson);
    }
}
END_TEST

START_TEST(lesson_text_exists)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    /* "lessons/lesson1-occupancy.md, section 2": the part before the comma. */
    char path[512];
    snprintf(path, sizeof path, "%s", ex->explained_in ? ex->explained_in : "");
    path[strcspn(path, ",")] = 0;
    ck_assert_msg(strncmp(path, "lessons/", 8) == 0, "%s: explained_in '%s' is not under "
                  "lessons/", id, path);
    ck_assert_msg(access(path, R_OK) == 0, "%s: explained_in names %s, which does not exist",
                  id, path);
}
END_TEST

START_TEST(hint_exists)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    if (ex->demo)
        return;   /* demos are shown, never hinted */
    char path[512];
    snprintf(path, sizeof path, "lessons/hints/lesson%d-%s.txt", ex->lesson, ex->name);
    char *hint = read_text_file(path, NULL);
    ck_assert_msg(hint != NULL, "%s: no hint file %s", id, path);
    ck_assert_msg(hint[strspn(hint, " \t\n")] != 0, "%s: %s is empty", id, path);
    free(hint);
}
END_TEST

/* make forwards every command-line variable except its own options
 * (the Makefile's MAKE_OPTIONS line) as a knob: a knob named like one of
 * those could never be set from make. */
static int make_option(const char *knob_name)
{
    char *mk = read_text_file("Makefile", NULL);
    ck_assert_ptr_nonnull(mk);
    char *line = strstr(mk, "\nMAKE_OPTIONS :=");
    ck_assert_ptr_nonnull(line);
    line[strcspn(line + 1, "\n") + 1] = 0;
    int found = 0;
    for (char *w = strtok(line + 16, " \t"); w && !found; w = strtok(NULL, " \t"))
        found = !strcmp(w, knob_name);
    free(mk);
    return found;
}

START_TEST(knobs_sane)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++) {
        const knob *kn = &ex->knobs[k];
        for (const char *p = kn->name; *p; p++)
            ck_assert_msg(isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_',
                          "%s: knob %s is not an upper-case macro name", id, kn->name);
        ck_assert_msg(kn->min <= kn->def && kn->def <= kn->max, "%s: %s=%d outside [%d, %d]", id,
                      kn->name, kn->def, kn->min, kn->max);
        ck_assert_msg(!kn->power_of_two || (kn->def > 0 && !(kn->def & (kn->def - 1))),
                      "%s: %s=%d is not a power of two", id, kn->name, kn->def);
        ck_assert_msg(nonempty(kn->what), "%s: knob %s says nothing of what it is", id,
                      kn->name);
        ck_assert_msg(!make_option(kn->name), "%s: knob %s is one of the Makefile's own "
                      "MAKE_OPTIONS, so `make check ... %s=n` cannot set it", id, kn->name,
                      kn->name);
        for (int j = 0; j < k; j++)
            ck_assert_msg(strcmp(kn->name, ex->knobs[j].name) != 0, "%s: knob %s twice", id,
                          kn->name);
    }
}
END_TEST

START_TEST(sizes_bar_tolerance)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    ck_assert_msg(ex->check_sizes[0] > 0, "%s: no check size", id);
    ck_assert_msg(ex->time_size > 0, "%s: no time size", id);
    ck_assert_msg(ex->build != NULL, "%s: no build()", id);
    /* A demo is shown, never counted, and may have no solution to share
     * a gain with: its bar only has to make sense. */
    int graded = !ex->demo;
    if (graded && (ex->bar == BAR_SPEEDUP || ex->bar == BAR_BANDWIDTH))
        ck_assert_msg(ex->bar_share > 0 && ex->bar_share <= 1, "%s: bar_share %g not in (0, 1]",
                      id, ex->bar_share);
    if (graded && ex->bar == BAR_SPEEDUP)
        ck_assert_msg(ex->bar_floor >= 1.05, "%s: bar_floor %g: a gain that small is noise", id,
                      ex->bar_floor);
    ck_assert_msg(ex->bar_share >= 0, "%s: negative bar_share", id);
    if (ex->bar == BAR_SPEEDUP)
        ck_assert_msg(ex->bar_floor >= 1.0, "%s: bar_floor %g passes a slowdown", id,
                      ex->bar_floor);
    ck_assert_msg(ex->rtol >= 0 && ex->atol >= 0, "%s: negative tolerance", id);
    ck_assert_msg(ex->min_cc == 0 || ex->min_cc >= 75, "%s: min_cc %d", id, ex->min_cc);
}
END_TEST

START_TEST(checks_teach)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    for (int c = 0; c < MAX_CHECKS && ex->checks[c].kind != CHECK_NONE; c++) {
        const mech_check *m = &ex->checks[c];
        ck_assert_msg(nonempty(m->why), "%s: check %d has no why", id, c);
        if (m->kind == CHECK_PTX_HAS || m->kind == CHECK_PTX_LACKS)
            ck_assert_msg(nonempty(m->text), "%s: check %d has no PTX text", id, c);
    }
}
END_TEST

/* Build one instance with the default knobs and check what the GPU side
 * will rely on. */
static void check_build(const exercise *ex, const char *id, size_t size)
{
    int knobs[MAX_KNOBS] = {0};
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        knobs[k] = ex->knobs[k].def;
    device_facts dev;
    calibration_device(&dev);
    instance I;
    int r = instance_build(&I, ex, size, knobs, &dev, 1);
    ck_assert_msg(r == 0, "%s: build(%zu) fails: %s", id, size, I.error);
    ck_assert_msg(I.bytes_moved > 0, "%s: build(%zu) sets no bytes moved", id, size);
    int outs = 0;
    for (int b = 0; b < I.nbufs; b++)
        outs += I.bufs[b].is_output;
    ck_assert_msg(outs > 0, "%s: build(%zu) has no output", id, size);
    unsigned threads = I.block[0] * I.block[1] * I.block[2];
    ck_assert_msg(threads <= 1024, "%s: build(%zu): %u threads per block", id, size, threads);
    ck_assert_msg(I.grid[1] <= 65535 && I.grid[2] <= 65535, "%s: build(%zu): grid %ux%u too "
                  "tall", id, size, I.grid[1], I.grid[2]);
    ck_assert_msg(I.dyn_smem <= dev.smem_per_block_optin, "%s: build(%zu): %zu bytes of "
                  "dynamic shared memory", id, size, I.dyn_smem);
    instance_free(&I);
}

START_TEST(build_check_sizes)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    for (int s = 0; s < MAX_SIZES && ex->check_sizes[s]; s++)
        check_build(ex, id, ex->check_sizes[s]);
}
END_TEST

START_TEST(build_time_size)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    check_build(ex, id, ex->time_size);
}
END_TEST

/* An exercise whose refills are asynchronous copies (its mechanism checks
 * ask for cp.async) and whose grid is sized by BLOCKS_PER_SM is one of the
 * rings whose missing wait the plain launch rarely shows: its correctness
 * sizes must include the stress instance (prefetch_model.h), launched with
 * at least 4 blocks per SM whatever the knob says, and saying so. */
static int knob_index(const exercise *ex, const char *name)
{
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        if (!strcmp(ex->knobs[k].name, name))
            return k;
    return -1;
}

static int uses_cp_async(const exercise *ex)
{
    for (int c = 0; c < MAX_CHECKS && ex->checks[c].kind != CHECK_NONE; c++)
        if (ex->checks[c].kind == CHECK_PTX_HAS && !strcmp(ex->checks[c].text, "cp.async"))
            return 1;
    return 0;
}

static unsigned grid_at(const exercise *ex, size_t size, int bps, char *note, size_t len)
{
    device_facts dev;
    calibration_device(&dev);
    int knobs[MAX_KNOBS] = {0};
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        knobs[k] = ex->knobs[k].def;
    knobs[knob_index(ex, "BLOCKS_PER_SM")] = bps;
    instance I;
    ck_assert_int_eq(instance_build(&I, ex, size, knobs, &dev, 1), 0);
    unsigned grid = I.grid[0];
    snprintf(note, len, "%s", I.note);
    instance_free(&I);
    return grid;
}

START_TEST(async_ring_has_stress_instance)
{
    char id[96], note[512];
    const exercise *ex = nth(_i, id, sizeof id);
    int bps = knob_index(ex, "BLOCKS_PER_SM");
    if (!uses_cp_async(ex) || bps < 0)
        return;
    int found = 0;
    for (int s = 0; s < MAX_SIZES && ex->check_sizes[s]; s++)
        found |= ex->check_sizes[s] == PM_STRESS_SIZE;
    ck_assert_msg(found, "%s: an asynchronous ring without the stress instance among its "
                  "check sizes (PM_RING_CHECK_SIZES)", id);
    device_facts dev;
    calibration_device(&dev);
    unsigned sms = (unsigned)dev.sm_count;
    /* At one block per SM the stress size runs at four, and says so. */
    ck_assert_uint_eq(grid_at(ex, PM_STRESS_SIZE, 1, note, sizeof note),
                      PM_STRESS_BLOCKS_PER_SM * sms);
    ck_assert_msg(strstr(note, "4 blocks per SM") && strstr(note, "BLOCKS_PER_SM=1"),
                  "%s: the stress instance's note: '%s'", id, note);
    /* The other sizes keep the knob, and a knob already at 4 or more is kept. */
    ck_assert_uint_eq(grid_at(ex, 2000000, 1, note, sizeof note), sms);
    ck_assert_str_eq(note, "");
    ck_assert_uint_eq(grid_at(ex, PM_STRESS_SIZE, 8, note, sizeof note), 8 * sms);
    ck_assert_str_eq(note, "");
    /* The note fits its buffer: it must not be cut. */
    grid_at(ex, PM_STRESS_SIZE, 1, note, sizeof note);
    ck_assert_uint_lt(strlen(note), sizeof ((instance *)0)->note - 1);
}
END_TEST

/* The report shows Little's law where the lessons teach that speed is
 * bytes in flight: lessons 1 and 4 to 12 (occupancy, unrolling, the
 * prefetch lessons, the L2 prefetch and the bulk copies), and not where the
 * bottleneck is elsewhere (0 measuring, 2 coalescing, 3 shared memory, 13
 * the constant cache). */
START_TEST(latency_bound_lessons)
{
    char id[96];
    const exercise *ex = nth(_i, id, sizeof id);
    int want = ex->lesson == 1 || (ex->lesson >= 4 && ex->lesson <= 12);
    if (ex->lesson > 13)
        return;   /* later lessons choose for themselves */
    ck_assert_msg(ex->latency_bound == want, "%s: latency_bound is %d, lesson %d %s", id,
                  ex->latency_bound, ex->lesson,
                  want ? "teaches bytes in flight" : "is not about bytes in flight");
}
END_TEST

/* The loop test above returns early for every exercise that is not an
 * asynchronous ring: without one in the registry it would pass testing
 * nothing. */
START_TEST(an_async_ring_exists)
{
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED), rings = 0;
    for (int e = 0; e < n && e < MAX_REGISTERED; e++)
        rings += uses_cp_async(all[e]) && knob_index(all[e], "BLOCKS_PER_SM") >= 0;
    ck_assert_msg(rings > 0, "no exercise checks for cp.async and has a BLOCKS_PER_SM knob: "
                  "async_ring_has_stress_instance tests nothing");
}
END_TEST

Suite *specs_suite(void)
{
    const exercise *all[MAX_REGISTERED];
    int n = registered_exercises(all, MAX_REGISTERED);
    if (n > MAX_REGISTERED)
        n = MAX_REGISTERED;   /* registry_fits reports it */

    Suite *s = suite_create("specs");
    TCase *tc = tcase_create("registry");
    tcase_add_test(tc, registry_fits);
    tcase_add_test(tc, registry_not_empty);
    tcase_add_loop_test(tc, lesson_list, 0, N_LESSONS);
    suite_add_tcase(s, tc);

    tc = tcase_create("fields");
    tcase_add_loop_test(tc, text_fields, 0, n);
    tcase_add_loop_test(tc, knobs_sane, 0, n);
    tcase_add_loop_test(tc, sizes_bar_tolerance, 0, n);
    tcase_add_loop_test(tc, checks_teach, 0, n);
    tcase_add_loop_test(tc, async_ring_has_stress_instance, 0, n);
    tcase_add_loop_test(tc, latency_bound_lessons, 0, n);
    tcase_add_test(tc, an_async_ring_exists);
    suite_add_tcase(s, tc);

    tc = tcase_create("files");
    tcase_add_loop_test(tc, files_exist, 0, n);
    tcase_add_loop_test(tc, files_say_how_to_grade_them, 0, n);
    tcase_add_loop_test(tc, lesson_text_exists, 0, n);
    tcase_add_loop_test(tc, hint_exists, 0, n);
    suite_add_tcase(s, tc);

    tc = tcase_create("build");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, build_check_sizes, 0, n);
    suite_add_tcase(s, tc);

    /* The timing size: a few hundred MB and their CPU reference, seconds per
     * exercise on a small machine, but a spec bug here would otherwise only
     * show on a GPU. */
    tc = tcase_create("time_size");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, build_time_size, 0, n);
    suite_add_tcase(s, tc);
    return s;
}
