/* mechanism.c: mechanism checks, read from PTX text and the ptxas report. */
#include <stdio.h>
#include <string.h>
#include "mechanism.h"

static int check_holds(const mech_check *m, const compiled *c, const resources *res,
                       const int *knobs, char *what, size_t len)
{
    long want = m->expect ? m->expect(knobs) : m->value;
    switch (m->kind) {
    case CHECK_PTX_HAS:
        snprintf(what, len, "the PTX has no '%s' instruction", m->text);
        return c->ptx && strstr(c->ptx, m->text) != NULL;
    case CHECK_PTX_LACKS:
        snprintf(what, len, "the PTX contains '%s'", m->text);
        return !c->ptx || strstr(c->ptx, m->text) == NULL;
    case CHECK_MAX_LOCAL_BYTES: {
        long local = res->stack_bytes + res->spill_stores;
        snprintf(what, len,
                 "the kernel uses %d bytes of local memory per thread "
                 "(stack frame %d, spill stores %d); at most %ld allowed",
                 res->stack_bytes + res->spill_stores, res->stack_bytes,
                 res->spill_stores, want);
        return !res->known || local <= want;
    }
    case CHECK_SMEM_BYTES: {
        long smem = (long)res->smem_static + res->smem_dynamic;
        snprintf(what, len,
                 "the kernel uses %ld bytes of shared memory per block; "
                 "this exercise asks for exactly %ld", smem, want);
        return !res->known || smem == want;
    }
    case CHECK_MAX_REGS:
        snprintf(what, len, "the kernel uses %d registers per thread; at most %ld allowed",
                 res->regs, want);
        return !res->known || res->regs <= want;
    case CHECK_MIN_OCCUPANCY:
        snprintf(what, len, "theoretical occupancy is %d%%; this exercise asks for at least %ld%%",
                 res->occupancy_pct, want);
        return res->occupancy_pct < 0 || res->occupancy_pct >= want;
    case CHECK_NONE:
        break;
    }
    return 1;
}

int first_failed_check(const exercise *ex, const compiled *c, const resources *res,
                       const int *knobs, char *what, size_t len)
{
    for (int i = 0; i < MAX_CHECKS && ex->checks[i].kind != CHECK_NONE; i++)
        if (!check_holds(&ex->checks[i], c, res, knobs, what, len))
            return i;
    if (len)
        what[0] = 0;
    return -1;
}
