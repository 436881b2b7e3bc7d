/* mechanism.c: mechanism checks, read from the PTX's instructions and the
 * ptxas report. */
#include <stdio.h>
#include <string.h>
#include "mechanism.h"
#include "ptx.h"

/* Does an instruction of `ptx` have `text` in its opcode ("cp.async" in
 * cp.async.bulk.shared::cluster.global...)? Every instruction counts,
 * several on one line and those in braced blocks alike; a comment, a
 * string or a declaration that only names it does not. -1 when the PTX
 * could not be read (out of memory). */
static int has_instruction(const char *ptx, const char *text)
{
    ptx_prog *p = ptx ? ptx_read(ptx) : NULL;
    if (ptx && !p)
        return -1;
    int has = 0;
    for (int i = 0; p && i < p->n && !has; i++)
        has = p->stmt[i].kind == PS_INSN && strstr(p->stmt[i].insn.opcode, text) != NULL;
    ptx_free(p);
    return has;
}

/* A check on the PTX's instructions: does it have (or lack) m->text? */
static enum check_state judge_ptx(const mech_check *m, const compiled *c, char *what,
                                  size_t len)
{
    int has = has_instruction(c->ptx, m->text);
    if (has < 0) {
        snprintf(what, len, "not checked: the grader ran out of memory reading the PTX");
        return CS_UNKNOWN;
    }
    if (m->kind == CHECK_PTX_HAS)
        snprintf(what, len, has ? "the PTX has '%s'" : "the PTX has no '%s' instruction",
                 m->text);
    else
        snprintf(what, len, has ? "the PTX contains '%s'" : "the PTX has no '%s'", m->text);
    return has == (m->kind == CHECK_PTX_HAS) ? CS_HOLDS : CS_FAILS;
}

/* A check on the compiler's resource report (local memory, shared memory,
 * registers, occupancy) against `want`. */
static enum check_state judge_resource(const mech_check *m, const resources *res, long want,
                                       char *what, size_t len)
{
    switch (m->kind) {
    case CHECK_MAX_LOCAL_BYTES: {
        long local = res->stack_bytes + res->spill_stores;
        if (!res->known)
            break;
        if (local <= want) {
            snprintf(what, len, "the kernel uses %ld bytes of local memory per thread; at "
                     "most %ld allowed", local, want);
            return CS_HOLDS;
        }
        snprintf(what, len,
                 "the kernel uses %ld bytes of local memory per thread "
                 "(stack frame %d, spill stores %d); at most %ld allowed",
                 local, res->stack_bytes, res->spill_stores, want);
        return CS_FAILS;
    }
    case CHECK_SMEM_BYTES: {
        long smem = (long)res->smem_static + res->smem_dynamic;
        if (!res->known)
            break;
        snprintf(what, len, smem == want ? "the kernel uses %ld bytes of shared memory per "
                 "block, as this exercise asks (%ld)" : "the kernel uses %ld bytes of shared "
                 "memory per block; this exercise asks for exactly %ld", smem, want);
        return smem == want ? CS_HOLDS : CS_FAILS;
    }
    case CHECK_MAX_REGS:
        if (!res->known)
            break;
        snprintf(what, len, "the kernel uses %d registers per thread; at most %ld allowed",
                 res->regs, want);
        return res->regs <= want ? CS_HOLDS : CS_FAILS;
    case CHECK_MIN_OCCUPANCY:
        if (res->occupancy_pct < 0) {
            snprintf(what, len, "theoretical occupancy is not known, so at least %ld%% "
                     "could not be checked", want);
            return CS_UNKNOWN;
        }
        snprintf(what, len, "theoretical occupancy is %d%%; this exercise asks for at least "
                 "%ld%%", res->occupancy_pct, want);
        return res->occupancy_pct >= want ? CS_HOLDS : CS_FAILS;
    default:
        break;
    }
    /* Resources unknown: the GPU is newer than this NVRTC, so only PTX was
     * built and ptxas never reported. */
    snprintf(what, len, "not checked: the compiler gave no resource report for this GPU");
    return CS_UNKNOWN;
}

/* Judge one check; `what` says what was found, whichever way it went. */
static enum check_state judge_check(const mech_check *m, const compiled *c,
                                    const resources *res, const int *knobs, char *what,
                                    size_t len)
{
    if (m->kind == CHECK_NONE)
        return CS_NOT_EVALUATED;
    if (m->kind == CHECK_PTX_HAS || m->kind == CHECK_PTX_LACKS)
        return judge_ptx(m, c, what, len);
    return judge_resource(m, res, m->expect ? m->expect(knobs) : m->value, what, len);
}

int evaluate_checks(const exercise *ex, const compiled *c, const resources *res,
                    const int *knobs, check_result out[MAX_CHECKS])
{
    int first = -1;
    memset(out, 0, MAX_CHECKS * sizeof *out);
    for (int i = 0; i < MAX_CHECKS && ex->checks[i].kind != CHECK_NONE; i++) {
        out[i].state = judge_check(&ex->checks[i], c, res, knobs, out[i].what,
                                   sizeof out[i].what);
        if (out[i].state == CS_FAILS && first < 0)
            first = i;
    }
    return first;
}

int first_failed_check(const exercise *ex, const compiled *c, const resources *res,
                       const int *knobs, char *what, size_t len)
{
    check_result all[MAX_CHECKS];
    int f = evaluate_checks(ex, c, res, knobs, all);
    if (len)
        snprintf(what, len, "%s", f >= 0 ? all[f].what : "");
    return f;
}
