/* diagnose.c: known patterns in the student's PTX (see diagnose.h).
 *
 * PTX is read by the one reader (ptx.h) as statements: every instruction
 * of a line of several, and of a braced block, is one; comments and
 * strings are no instructions. Loops are found by their backward branches
 * ("bra $L__BB0_2;" after the label "$L__BB0_2:", the label the branch
 * sees from its own scope), and within a loop [lo, hi) of statement
 * indices the instructions the patterns are made of are looked for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diagnose.h"
#include "ptx.h"

/* Statement i, when it is an instruction whose opcode starts with `word`
 * ("mov.", "ld.global", "bra"); NULL otherwise. */
static const ptx_insn *op_is(const ptx_prog *p, int i, const char *word)
{
    const ptx_stmt *s = &p->stmt[i];
    return s->kind == PS_INSN && !strncmp(s->insn.opcode, word, strlen(word)) ? &s->insn
                                                                               : NULL;
}

/* Operand k of `in` as a register name; NULL when it is not a plain
 * register. */
static const char *operand_reg(const ptx_insn *in, int k)
{
    return in && k < in->nops && in->op[k].kind == PO_REG && !in->op[k].neg ? in->op[k].name
                                                                             : NULL;
}

/* Register names written by the global loads of [lo, hi), and a test of one. */
typedef struct regs {
    const char *s[256];
    int count;
} regs;

static void add_reg(regs *r, const char *s)
{
    if (r->count < 256)
        r->s[r->count++] = s;
}

static int has_reg(const regs *r, const char *s)
{
    for (int k = 0; s && k < r->count; k++)
        if (!strcmp(r->s[k], s))
            return 1;
    return 0;
}

/* The registers a global load writes: "%fd1" or the vector "{%fd1, %fd2}". */
static void load_dests(const ptx_insn *in, regs *r)
{
    if (!in->nops)
        return;
    const ptx_operand *d = &in->op[0];
    if (d->kind == PO_REG)
        add_reg(r, d->name);
    for (int k = 0; d->kind == PO_VEC && k < d->nelem; k++)
        if (d->elem[k].kind == PO_REG)
            add_reg(r, d->elem[k].name);
}

static void global_load_dests(const ptx_prog *p, int lo, int hi, regs *r)
{
    for (int i = lo; i < hi; i++) {
        const ptx_insn *in = op_is(p, i, "ld.global");
        if (in)
            load_dests(in, r);
    }
}

/* A loop body [lo, hi) of the function [flo, fhi): does it move a value
 * from one load-filled register to another (mov A, B, where B is filled by
 * a global load in the loop and A by a global load anywhere), the
 * shift r[k] = r[k+1]? NVVM's PTX also copies a ring slot into a temporary
 * and back around a conditional refill (lesson 7's solution does); ptxas
 * gives those one register. Copies between two slots stay: slot k must
 * hold the old value of slot k+1 while slot k+1 is refilled. */
static int copies_loaded_register(const ptx_prog *p, int lo, int hi, int flo, int fhi)
{
    static regs in_loop, anywhere;
    in_loop.count = anywhere.count = 0;
    global_load_dests(p, lo, hi, &in_loop);
    if (!in_loop.count)
        return 0;
    global_load_dests(p, flo, fhi, &anywhere);
    for (int i = lo; i < hi; i++) {
        const ptx_insn *mov = op_is(p, i, "mov.");
        const char *dst = operand_reg(mov, 0), *src = dst ? operand_reg(mov, 1) : NULL;
        if (src && has_reg(&in_loop, src) && has_reg(&anywhere, dst))
            return 1;
    }
    return 0;
}

/* A loop body [lo, hi): does it wait on cp.async groups at more than one
 * depth (cp.async.wait_group N with different N)? */
static int waits_at_several_depths(const ptx_prog *p, int lo, int hi)
{
    long long first = -1;
    for (int i = lo; i < hi; i++) {
        const ptx_insn *in = op_is(p, i, "cp.async.wait_group");
        if (!in || !in->nops || in->op[0].kind != PO_IMM)
            continue;
        long long n = in->op[0].imm;
        if (first < 0)
            first = n;
        else if (n != first)
            return 1;
    }
    return 0;
}

/* ---- an L2 prefetch that lands in the current iteration ------------------
 *
 * Addresses as linear forms: a constant plus registers that are not
 * themselves sums (parameters, special registers, products of two
 * registers), each with a coefficient; enough for the shifts, adds and
 * conversions NVVM builds an element's address from. */
#define LIN_TERMS 8
typedef struct lin {
    int ok, n;
    const char *leaf[LIN_TERMS];
    long coef[LIN_TERMS];
    long c;
} lin;

static void lin_add(lin *a, const lin *b, long scale)
{
    if (!a->ok || !b->ok) {
        a->ok = 0;
        return;
    }
    a->c += scale * b->c;
    for (int k = 0; k < b->n; k++) {
        int j = 0;
        while (j < a->n && strcmp(a->leaf[j], b->leaf[k]))
            j++;
        if (j == a->n) {
            if (a->n == LIN_TERMS) {
                a->ok = 0;
                return;
            }
            a->leaf[j] = b->leaf[k];
            a->coef[j] = 0;
            a->n++;
        }
        a->coef[j] += scale * b->coef[k];
    }
}

static lin lin_leaf(const char *reg)
{
    lin l = {.ok = 1, .n = 1, .leaf = {reg}, .coef = {1}};
    return l;
}

/* Operand k of `in`: a register (into *reg) or an integer (*imm, *reg
 * NULL); 0 when it is neither. */
static int operand(const ptx_insn *in, int k, const char **reg, long *imm)
{
    *reg = operand_reg(in, k);
    if (*reg)
        return 1;
    if (k >= in->nops || in->op[k].kind != PO_IMM)
        return 0;
    *imm = (long)in->op[k].imm;
    return 1;
}

static lin lin_of(const ptx_prog *p, int lo, int before, const char *reg, int depth);

static lin lin_operand(const ptx_prog *p, int lo, int at, int k, int depth)
{
    const char *r;
    long imm;
    lin bad = {.ok = 0};
    if (!operand(&p->stmt[at].insn, k, &r, &imm))
        return bad;
    if (!r) {
        lin c = {.ok = 1, .c = imm};
        return c;
    }
    return lin_of(p, lo, at, r, depth + 1);
}

/* The linear form of register `reg` as its last definition in [lo, before)
 * makes it; a leaf when that definition is not arithmetic we follow. */
static lin lin_of(const ptx_prog *p, int lo, int before, const char *reg, int depth)
{
    int def = -1;
    for (int i = lo; i < before; i++) {
        const ptx_insn *in = op_is(p, i, "");
        const char *d = operand_reg(in, 0);
        if (d && !strcmp(d, reg) && !op_is(p, i, "st.") && !op_is(p, i, "prefetch"))
            def = i;
    }
    if (def < 0 || depth > 16)
        return lin_leaf(reg);
    lin a = lin_operand(p, lo, def, 1, depth), b;
    long imm;
    const char *r;
    if (op_is(p, def, "mov.") || op_is(p, def, "cvt.") || op_is(p, def, "cvta.to.global"))
        return a.ok ? a : lin_leaf(reg);
    if (op_is(p, def, "add.") || op_is(p, def, "sub.")) {
        b = lin_operand(p, lo, def, 2, depth);
        lin_add(&a, &b, op_is(p, def, "add.") ? 1 : -1);
        return a.ok ? a : lin_leaf(reg);
    }
    if ((op_is(p, def, "shl.") || op_is(p, def, "mul.lo.") || op_is(p, def, "mul.wide.")) &&
        operand(&p->stmt[def].insn, 2, &r, &imm) && !r && a.ok) {
        lin z = {.ok = 1};
        lin_add(&z, &a, op_is(p, def, "shl.") ? (imm >= 0 && imm < 32 ? 1L << imm : 0) : imm);
        return z.ok ? z : lin_leaf(reg);
    }
    return lin_leaf(reg);
}

/* How far the loop [lo, hi) moves register `reg` each time round: its own
 * "add reg, reg, imm" in the loop. 0 when it has none. */
static long own_step(const ptx_prog *p, int lo, int hi, const char *reg)
{
    for (int i = lo; i < hi; i++) {
        const ptx_insn *add = op_is(p, i, "add.");
        const char *d = operand_reg(add, 0), *a = d ? operand_reg(add, 1) : NULL, *r;
        long imm;
        if (a && !strcmp(d, reg) && !strcmp(a, reg) && operand(add, 2, &r, &imm) && !r)
            return imm;
    }
    return 0;
}

/* The register an instruction's first address is based on ("[%rdN]",
 * "[%rdN+8]"); NULL when none. */
static const char *address_reg(const ptx_insn *in)
{
    for (int k = 0; in && k < in->nops; k++)
        if (in->op[k].kind == PO_ADDR)
            return in->op[k].base == PB_REG ? in->op[k].name : NULL;
    return NULL;
}

/* A loop [lo, hi) of the function whose body starts at `fn`: does it
 * prefetch into L2 an address a constant distance ahead of one of its
 * global loads, but less than one iteration's step of that load ahead? Then
 * the prefetched line is one the loop is loading in this very iteration. */
static int prefetch_within_step(const ptx_prog *p, int fn, int lo, int hi)
{
    int pairs = 0;      /* each pair is a few scans of the function: a bounded few */
    for (int i = lo; pairs < 16 && i < hi; i++) {
        const char *preg = address_reg(op_is(p, i, "prefetch.global.L2"));
        if (!preg)
            continue;
        lin pf = lin_of(p, fn, i, preg, 0);
        for (int j = lo; pf.ok && j < hi; j++) {
            const char *lreg = address_reg(op_is(p, j, "ld.global"));
            if (!lreg || ++pairs > 16)
                continue;
            lin ld = lin_of(p, fn, j, lreg, 0), d = pf;
            lin_add(&d, &ld, -1);
            int constant = d.ok;
            for (int k = 0; k < d.n; k++)
                constant &= d.coef[k] == 0;
            long step = own_step(p, lo, hi, lreg);
            for (int k = 0; constant && k < ld.n; k++)
                step += ld.coef[k] * own_step(p, lo, hi, ld.leaf[k]);
            if (constant && step > 0 && d.c > 0 && d.c < step)
                return 1;
        }
    }
    return 0;
}

/* The body of the function that holds statement `at`: its first and its
 * past-the-end statement; the whole program outside any function. */
static void function_body(const ptx_prog *p, int at, int *lo, int *hi)
{
    *lo = 0;
    *hi = p->n;
    int s = p->stmt[at].scope;
    while (s > 0 && p->scopes[s].parent > 0)
        s = p->scopes[s].parent;
    if (s > 0) {
        *lo = p->scopes[s].open;
        if (p->scopes[s].close >= 0)
            *hi = p->scopes[s].close;
    }
}

/* Every loop of the PTX: a label, and a later branch back to it. */
static unsigned loop_patterns(const ptx_prog *p)
{
    unsigned found = 0;
    int l2 = 0;
    for (int i = 0; i < p->n && !l2; i++)
        l2 = op_is(p, i, "prefetch.global.L2") != NULL;
    for (int i = 0; i < p->n; i++) {
        const ptx_insn *bra = op_is(p, i, "bra");
        if (!bra || !bra->nops || bra->op[0].kind != PO_LABEL)
            continue;
        int head = ptx_find_label(p, i, bra->op[0].name);
        if (head < 0 || head > i)
            continue;
        int flo, fhi;
        function_body(p, head, &flo, &fhi);
        if (copies_loaded_register(p, head, i, flo, fhi))
            found |= DIAG_COPY_OF_LOAD;
        if (waits_at_several_depths(p, head, i))
            found |= DIAG_WAIT_DEPTH_SWITCH;
        if (l2 && prefetch_within_step(p, flo, head, i))
            found |= DIAG_L2_PREFETCH_IN_STEP;
    }
    return found;
}

unsigned diagnose_ptx(const char *ptx)
{
    ptx_prog *p = ptx ? ptx_read(ptx) : NULL;
    if (!p)
        return 0;   /* no PTX, or no memory to read it: a hint is advice, never a verdict */
    unsigned found = loop_patterns(p);
    for (int i = 0; i < p->n; i++)
        if (op_is(p, i, "mbarrier.try_wait") || op_is(p, i, "mbarrier.test_wait"))
            found |= DIAG_MBARRIER_WAIT;
    ptx_free(p);
    return found;
}

unsigned diagnose_exercise(const exercise *ex, const char *ptx)
{
    unsigned found = diagnose_ptx(ptx);
    if (ex->lesson < 5 || ex->lesson > 12)
        found &= ~(unsigned)DIAG_COPY_OF_LOAD;
    return found;
}

static const struct hint {
    unsigned diag;
    const char *text;
} hints[] = {
    {.diag = DIAG_COPY_OF_LOAD,
     .text = "Diagnosis: a register copied from a pending load. The compiled loop copies "
             "a register that one of its own global loads fills (mov in the PTX): the "
             "ring is kept as a shift register, r[k] = r[k+1] every iteration. The "
             "local column may show 0 B, but a copy is an instruction that reads the "
             "register, and reading it waits for the load still filling it, so every "
             "iteration waits for memory again and the prefetch hides almost nothing "
             "(1.15x on an H100 against 4.43x). Fix: do not move values between slots; "
             "unroll the loop by PDIST so slot k is used and refilled in place "
             "(lesson 7, \"A shift register is not a ring\")."},
    {.diag = DIAG_WAIT_DEPTH_SWITCH,
     .text = "Diagnosis: a wait depth chosen at run time. The loop waits on its "
             "asynchronous copies with several different depths (cp.async.wait_group "
             "0, 1, 2, ... in the PTX): libcu++'s pipe.consumer_wait() works out at run "
             "time how many batches may stay in flight and picks the wait through a "
             "switch, in every iteration (2.09x on an H100 against 3.82x). Fix: name "
             "the depth at compile time with "
             "cuda::pipeline_consumer_wait_prior<PDIST - 1>(pipe), one wait instruction, "
             "or use __pipeline_wait_prior(PDIST - 1) (lesson 9, \"Waiting with "
             "libcu++\")."},
    {.diag = DIAG_L2_PREFETCH_IN_STEP,
     .text = "Diagnosis: an L2 prefetch that lands in the current iteration. The compiled "
             "loop prefetches an address a fixed distance ahead of its load, but less than "
             "one iteration's step of that load ahead: the line it asks for is one the "
             "block is loading now, so the prefetch brings nothing new. The offset is in "
             "elements and an iteration moves BLOCKDIMX of them: prefetch "
             "&chunk[i + L2DIST * BLOCKDIMX], not &chunk[i + L2DIST] (lesson 11, \"How far "
             "ahead is L2DIST\")."},
};

const char *diagnose_name(unsigned diag)
{
    switch (diag) {
    case DIAG_COPY_OF_LOAD: return "copy_of_pending_load";
    case DIAG_WAIT_DEPTH_SWITCH: return "run_time_wait_depth";
    case DIAG_MBARRIER_WAIT: return "mbarrier_wait";
    case DIAG_L2_PREFETCH_IN_STEP: return "l2_prefetch_in_current_step";
    default: return NULL;
    }
}

int diagnose_hints(unsigned diags, const char **out, int max)
{
    int n = 0;
    for (size_t k = 0; k < sizeof hints / sizeof *hints && n < max; k++)
        if (diags & hints[k].diag)
            out[n++] = hints[k].text;
    return n;
}

const char *diagnose_hang(unsigned diags)
{
    if (diags & DIAG_MBARRIER_WAIT)
        return "The kernel waits on an mbarrier (mbarrier.try_wait in its PTX), and a wait "
               "on a barrier phase that never completes never ends: the phase completes "
               "only when as many threads have arrived as mbarrier.init was given AND every "
               "byte announced with expect_tx has landed. Check that the bytes announced "
               "equal the bytes the bulk copies deliver to that barrier, that every thread "
               "counted arrives once per phase, that a copy is started for every stage a "
               "thread waits on, and that the wait names the right barrier (lesson 12, "
               "\"When a phase never completes\").";
    return "A kernel that never ends usually has a loop whose exit condition never becomes "
           "true (check the loop variable and its step), or a __syncthreads() that only "
           "some threads reach.";
}

const char *diagnose_hang_try(unsigned diags)
{
    if (diags & DIAG_MBARRIER_WAIT)
        return "Try: for each stage, count the bytes announced (expect_tx) and the bytes "
               "copied to that barrier, and the threads that arrive; make check lesson%d "
               "TIMEOUT=<seconds> changes the time limit.";
    return NULL;
}
