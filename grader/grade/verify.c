/* verify.c: outputs against expected values, with a readable list of the
 * first differences. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "verify.h"

double buffer_value(const buffer *b, size_t i)
{
    switch (b->type) {
    case ELEM_F32: return ((const float *)b->host)[i];
    case ELEM_F64: return ((const double *)b->host)[i];
    case ELEM_I32: return ((const int32_t *)b->host)[i];
    }
    return NAN;
}

int buffer_is_poison(const buffer *b, size_t i)
{
    /* The poison is all-ones bytes, written before every launch. */
    if (b->type == ELEM_F64)
        return ((const uint64_t *)b->host)[i] == UINT64_MAX;
    return ((const uint32_t *)b->host)[i] == UINT32_MAX;
}

#define SHOW 8

size_t verify_outputs(const instance *I, double rtol, double atol, mismatch_report *rep)
{
    memset(rep, 0, sizeof *rep);
    size_t len = 0;
    /* How this instance differs from the plain problem comes first: it is
     * how the student reproduces the failure. */
    if (I->note[0])
        len += (size_t)snprintf(rep->text, sizeof rep->text, "  %s\n", I->note);
    int outputs = 0;
    for (int b = 0; b < I->nbufs; b++)
        outputs += I->bufs[b].is_output;
    for (int b = 0, out = 0; b < I->nbufs; b++) {
        const buffer *B = &I->bufs[b];
        if (!B->is_output)
            continue;
        for (size_t i = 0; i < B->count; i++) {
            double got = buffer_value(B, i), want = B->want[i];
            /* Right values pass whatever their bytes: an int poison reads
             * as -1, which may be the answer. Float poison is a NaN. */
            int ok = !isnan(got) && fabs(got - want) <= atol + rtol * fabs(want);
            rep->checked++;
            if (ok)
                continue;
            int poison = buffer_is_poison(B, i);
            rep->unwritten += poison;
            if (rep->wrong++ < SHOW && len < sizeof rep->text - 160) {
                char where[32] = "";
                if (outputs > 1)
                    snprintf(where, sizeof where, "output %d ", out);
                if (poison)
                    len += snprintf(rep->text + len, sizeof rep->text - len,
                                    "  %sindex %zu: expected %.9g, never written\n",
                                    where, i, want);
                else
                    len += snprintf(rep->text + len, sizeof rep->text - len,
                                    "  %sindex %zu: expected %.9g, got %.9g\n",
                                    where, i, want, got);
            }
        }
        out++;
    }
    return rep->wrong;
}
