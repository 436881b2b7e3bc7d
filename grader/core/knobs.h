/* knobs.h: knob settings from the command line, checked before anything is
 * graded.
 *
 * `make check lesson3 TILE=16` reaches the grader as --set TILE=16: the
 * Makefile forwards every variable set on its command line that is not one
 * of its own options, so a misspelt or lower-case name arrives here too and
 * is reported instead of silently ignored. */
#ifndef GRADER_KNOBS_H
#define GRADER_KNOBS_H

#include <stddef.h>
#include "spec.h"

#define MAX_SETS 16

typedef struct knob_setting {
    char name[32];
    char value[32];         /* as typed; checked by knob_settings_check */
} knob_setting;

typedef struct knob_settings {
    knob_setting set[MAX_SETS];
    int n;
} knob_settings;

/* Add NAME=VALUE as typed. Returns 0, or -1 with `err` set when it is not of
 * that form or there are too many. A later setting of a name replaces an
 * earlier one, as on make's command line. */
int knob_settings_add(knob_settings *ks, const char *name_eq_value, char *err, size_t len);

/* Check every setting against the exercises about to be graded, sel[0..n):
 * each name must be a knob of at least one of them, and its value allowed
 * for every one that has it. Returns 0, or -1 with `err` holding one message
 * that names the knob and says what to do (the knobs these exercises have,
 * the right case, the lessons that do have it, the allowed values). */
int knob_settings_check(const knob_settings *ks, const exercise *const *sel, int n,
                        char *err, size_t len);

/* Knob values for `ex`: its defaults, with the settings that name its knobs.
 * Call after knob_settings_check accepted them. */
void knob_values_for(const exercise *ex, const knob_settings *ks, int knobs[MAX_KNOBS]);

/* The same for one exercise among others (a sweep): settings of knobs `ex`
 * does not have are left alone; the values of those it has are checked.
 * Returns 0, or -1 with `err` set. */
int knob_values_checked(const exercise *ex, const knob_settings *ks, int knobs[MAX_KNOBS],
                        char *err, size_t len);

/* "TILE=16" or "BLOCKDIMX=128 PDIST=8 (default 8) ..."-like text: each knob
 * of ex with its value, and "(default D)" after any that differs from it.
 * Empty when ex has no knobs. */
void knob_text(const exercise *ex, const int *knobs, char *buf, size_t len);

/* Every knob of ex at its default (0 where ex has no knob). */
void knob_defaults(const exercise *ex, int knobs[MAX_KNOBS]);

/* "TILE=16" or "BLOCKDIMX=128 PDIST=8": each knob of ex with its value and
 * nothing else, "(none)" for an exercise without knobs. The form a compiled
 * reference's header records and is compared in (reference.h). */
void knob_list_text(const exercise *ex, const int *knobs, char *buf, size_t len);

#endif
