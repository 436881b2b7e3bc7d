/* verify.h: comparing a kernel's outputs with the CPU reference. Pure, so
 * the test suite checks it without a GPU. */
#ifndef GRADER_VERIFY_H
#define GRADER_VERIFY_H

#include <stddef.h>
#include "instance.h"

typedef struct mismatch_report {
    size_t checked;
    size_t wrong;        /* values outside the tolerance (unwritten ones included) */
    size_t unwritten;    /* still holding the poison pattern */
    char text[2048];     /* the instance's note (inst_note), then the first few:
                            buffer, index, expected, got */
} mismatch_report;

/* Compare every output buffer of I (host copies, freshly downloaded) with
 * its expected values: |got - want| <= atol + rtol*|want|; NaN never passes.
 * Returns the number of wrong values. The report's text starts with the
 * instance's note, if it has one. */
size_t verify_outputs(const instance *I, double rtol, double atol, mismatch_report *rep);

/* Value i of buffer b as a double, and whether it still holds the poison. */
double buffer_value(const buffer *b, size_t i);
int buffer_is_poison(const buffer *b, size_t i);

#endif
