/* select.c: which exercises a command works on (cli.h): the lessons and
 * ONLY= of the command line, with the knob settings checked against them
 * before anything runs, and what to say when that selects nothing. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "lesson_name.h"
#include "suggest.h"

int select_exercises(const options *o, const exercise **sel)
{
    int n = 0;
    for (int l = 0; l < N_LESSONS; l++) {
        if (!o->lessons[l])
            continue;
        for (const exercise *const *e = lesson_exercises[l]; *e && n < MAX_SELECTED; e++)
            if (!o->only || !strcmp(o->only, (*e)->name))
                sel[n++] = *e;
    }
    return n;
}

/* ONLY=matmull: say which exercises the lessons have, and the near one. */
void no_such_exercise(const options *o)
{
    const char *names[MAX_SELECTED + 1];
    int n = 0, lessons = 0, last = -1;
    for (int l = 0; l < N_LESSONS; l++)
        if (o->lessons[l]) {
            lessons++;
            last = l;
            for (const exercise *const *e = lesson_exercises[l]; *e && n < MAX_SELECTED; e++)
                names[n++] = (*e)->name;
        }
    names[n] = NULL;
    if (lessons == 1)
        fprintf(stderr, "grader: lesson%d has no exercise '%s'; its exercises are:", last,
                o->only);
    else
        fprintf(stderr, "grader: no lesson graded here has an exercise '%s'; theirs are:",
                o->only);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s %s", i ? "," : "", names[i]);
    const char *near = closest_name(o->only, names);
    fprintf(stderr, ".%s%s%s\n", near ? " Did you mean ONLY=" : "", near ? near : "",
            near ? "?" : "");
}

/* The selection, with its knob settings checked before anything runs.
 * Returns how many, or -1 after saying what is wrong. */
int select_checked(const options *o, const exercise **sel)
{
    int n = select_exercises(o, sel);
    if (n == 0) {
        if (o->only)
            no_such_exercise(o);
        else
            fprintf(stderr, "grader: no exercise selected\n");
        return -1;
    }
    char err[2048];
    if (knob_settings_check(&o->ks, sel, n, err, sizeof err) != 0) {
        fprintf(stderr, "grader: %s\n", err);
        return -1;
    }
    return n;
}

/* Lessons with nothing to grade, such as lesson 14 (a measurement of the
 * host's side of the bus): say what to do instead. 1 when that is all the
 * selection holds. */
int only_measured_lessons(const options *o)
{
    int measured = 0, graded = 0;
    for (int l = 0; l < N_LESSONS; l++) {
        if (!o->lessons[l])
            continue;
        measured += lesson_is_measured[l];
        graded += !lesson_is_measured[l];
    }
    if (o->only || graded || !measured)
        return 0;
    for (int l = 0; l < N_LESSONS; l++)
        if (o->lessons[l])
            printf("lesson%d has no graded exercise: it is measured on your GPU instead "
                   "(make measure lesson%d; the lesson text says what to look for).\n", l, l);
    return 1;
}

/* How the graded folder is named to the student: "your exercises" for
 * exercises/, else the folder as given. */
const char *mode_name(const options *o)
{
    return !strcmp(o->g.student_dir, "exercises") ? "your exercises" : o->g.student_dir;
}
