/* mechanism.c: mechanism checks, read from the PTX's instructions and the
 * ptxas report. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Bytes per thread that one load opcode brings ("ld.global.nc.v2.f32": 8):
 * its vector count times its type's size; 0 when it names no type. */
static int load_bytes(const char *op, size_t n)
{
    int vec = 1, size = 0;
    for (const char *p = op; p < op + n; p++) {
        if (*p != '.')
            continue;
        if (p[1] == 'v' && (p[2] == '2' || p[2] == '4' || p[2] == '8'))
            vec = p[2] - '0';
        else if (strchr("fbsu", p[1]) && isdigit((unsigned char)p[2]))
            size = atoi(p + 2) / 8;
    }
    return vec * size;
}

/* The widest global load of the PTX: its bytes per thread, and its opcode
 * (into `op`, `len`); 0 when there is none, -1 when the PTX could not be
 * read (out of memory). Every instruction counts, several on one line and
 * those in braced blocks alike; a comment that names a load does not. */
static int widest_global_load(const char *ptx, char *op, size_t len)
{
    ptx_prog *p = ptx_read(ptx);
    if (!p)
        return -1;
    int best = 0;
    op[0] = 0;
    for (int i = 0; i < p->n; i++) {
        const ptx_insn *in = &p->stmt[i].insn;
        if (p->stmt[i].kind != PS_INSN || !ptx_insn_is(in, "ld") || !ptx_insn_has(in, "global"))
            continue;
        int bytes = load_bytes(in->opcode, strlen(in->opcode));
        if (bytes > best) {
            best = bytes;
            snprintf(op, len, "%s", in->opcode);
        }
    }
    ptx_free(p);
    return best;
}

/* A check on the width of the PTX's global loads: bytes per thread that
 * its widest one brings, against m->value. */
static enum check_state judge_load_width(const mech_check *m, const compiled *c, char *what,
                                         size_t len)
{
    char op[64];
    int bytes = c->ptx ? widest_global_load(c->ptx, op, sizeof op) : 0;
    if (bytes < 0) {
        snprintf(what, len, "the grader ran out of memory reading the PTX");
        return CS_FAILS;
    }
    if (!bytes) {
        snprintf(what, len, "the PTX has no load from global memory; this exercise asks for "
                 "loads of %ld bytes per thread", m->value);
        return CS_FAILS;
    }
    snprintf(what, len, bytes >= m->value ? "the widest global load in the PTX (%s) brings "
             "%d bytes per thread; this exercise asks for at least %ld" : "the widest global "
             "load in the PTX (%s) brings %d bytes per thread; this exercise asks for %ld in "
             "one instruction", op, bytes, m->value);
    return bytes >= m->value ? CS_HOLDS : CS_FAILS;
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
    if (m->kind == CHECK_MIN_LOAD_BYTES)
        return judge_load_width(m, c, what, len);
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
