/* diagnose.c: known patterns in the student's PTX (see diagnose.h).
 *
 * PTX is read as statements: loops are found by their backward branches
 * ("bra $L__BB0_2;" after the label "$L__BB0_2:"), and within a loop's text
 * the instructions the patterns are made of are looked for. Comments and
 * strings are not blanked: a finder only matches whole instructions at the
 * start of a statement, which a comment's text does not fake into a false
 * hint that matters (a hint is advice, never a verdict). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diagnose.h"

static int ident(int ch)
{
    return isalnum(ch) || ch == '_' || ch == '$' || ch == '%';
}

/* One statement: its opcode's start and its end (the ';'). */
typedef struct stmt {
    const char *op, *end;
} stmt;

/* The statement starting at or after `p` (labels and a guard skipped), up
 * to `limit`; 0 when there is none. */
static int next_stmt(const char *p, const char *limit, stmt *s)
{
    for (;;) {
        while (p < limit && (isspace((unsigned char)*p) || *p == '{' || *p == '}'))
            p++;
        if (p >= limit)
            return 0;
        /* Comments, and directives that end at their line (.loc, .file). */
        if ((*p == '/' && p[1] == '/') || (limit - p > 5 && (!strncmp(p, ".loc ", 5) ||
                                                            !strncmp(p, ".loc\t", 5) ||
                                                            !strncmp(p, ".file", 5)))) {
            while (p < limit && *p != '\n')
                p++;
            continue;
        }
        if (*p == '@') {
            while (p < limit && !isspace((unsigned char)*p))
                p++;
            continue;
        }
        const char *q = p;
        while (q < limit && ident((unsigned char)*q))
            q++;
        if (q < limit && *q == ':' && q > p) {
            p = q + 1;          /* a label */
            continue;
        }
        s->op = p;
        s->end = p;
        while (s->end < limit && *s->end != ';' && *s->end != '{' && *s->end != '}')
            s->end++;
        return 1;
    }
}

static int op_is(const stmt *s, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(s->end - s->op) >= n && !strncmp(s->op, word, n);
}

/* The operand after the opcode (k = 0) or after k commas, as a register
 * name: its start and length; NULL when it is not a plain register. */
static const char *operand_reg(const stmt *s, int k, size_t *n)
{
    const char *p = s->op;
    while (p < s->end && !isspace((unsigned char)*p))
        p++;
    for (int c = 0; c < k; c++) {
        while (p < s->end && *p != ',')
            p++;
        if (p < s->end)
            p++;
    }
    while (p < s->end && isspace((unsigned char)*p))
        p++;
    if (p >= s->end || *p != '%')
        return NULL;
    const char *q = p + 1;
    while (q < s->end && ident((unsigned char)*q) && *q != '%')
        q++;
    *n = (size_t)(q - p);
    return p;
}

/* Register names written by the global loads of [lo, hi), and a test of one. */
typedef struct regs {
    const char *s[256];
    size_t n[256];
    int count;
} regs;

static void add_reg(regs *r, const char *s, size_t n)
{
    if (r->count < 256) {
        r->s[r->count] = s;
        r->n[r->count++] = n;
    }
}

static int has_reg(const regs *r, const char *s, size_t n)
{
    for (int k = 0; k < r->count; k++)
        if (r->n[k] == n && !strncmp(r->s[k], s, n))
            return 1;
    return 0;
}

/* The registers a global load of the statement writes: "%fd1" or the
 * vector "{%fd1, %fd2}". */
static void load_dests(const stmt *s, regs *r)
{
    const char *p = s->op;
    while (p < s->end && !isspace((unsigned char)*p))
        p++;
    while (p < s->end && isspace((unsigned char)*p))
        p++;
    int vec = p < s->end && *p == '{';
    for (; p < s->end; p++) {
        if (*p == '%') {
            const char *q = p + 1;
            while (q < s->end && ident((unsigned char)*q) && *q != '%')
                q++;
            add_reg(r, p, (size_t)(q - p));
            p = q - 1;
            if (!vec)
                return;
        } else if (*p == '}' || (!vec && *p == ',')) {
            return;
        }
    }
}

static void global_load_dests(const char *lo, const char *hi, regs *r)
{
    stmt s;
    for (const char *p = lo; next_stmt(p, hi, &s); p = s.end + 1)
        if (op_is(&s, "ld.global"))
            load_dests(&s, r);
}

/* A loop body [lo, hi) of the function [flo, fhi): does it move a value
 * from one load-filled register to another (mov A, B, where B is filled by
 * a global load in the loop and A by a global load anywhere), the
 * shift r[k] = r[k+1]? NVVM's PTX also copies a ring slot into a temporary
 * and back around a conditional refill (lesson 7's solution does); ptxas
 * gives those one register. Copies between two slots stay: slot k must
 * hold the old value of slot k+1 while slot k+1 is refilled. */
static int copies_loaded_register(const char *lo, const char *hi, const char *flo,
                                  const char *fhi)
{
    static regs in_loop, anywhere;
    in_loop.count = anywhere.count = 0;
    global_load_dests(lo, hi, &in_loop);
    if (!in_loop.count)
        return 0;
    global_load_dests(flo, fhi, &anywhere);
    stmt s;
    for (const char *p = lo; next_stmt(p, hi, &s); p = s.end + 1) {
        size_t dn, sn;
        const char *dst = op_is(&s, "mov.") ? operand_reg(&s, 0, &dn) : NULL;
        const char *src = dst ? operand_reg(&s, 1, &sn) : NULL;
        if (src && has_reg(&in_loop, src, sn) && has_reg(&anywhere, dst, dn))
            return 1;
    }
    return 0;
}

/* A loop body [lo, hi): does it wait on cp.async groups at more than one
 * depth (cp.async.wait_group N with different N)? */
static int waits_at_several_depths(const char *lo, const char *hi)
{
    long first = -1;
    stmt s;
    for (const char *p = lo; next_stmt(p, hi, &s); p = s.end + 1) {
        if (!op_is(&s, "cp.async.wait_group"))
            continue;
        long n = strtol(s.op + strlen("cp.async.wait_group"), NULL, 10);
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
    size_t len[LIN_TERMS];
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
        while (j < a->n && !(a->len[j] == b->len[k] && !strncmp(a->leaf[j], b->leaf[k], b->len[k])))
            j++;
        if (j == a->n) {
            if (a->n == LIN_TERMS) {
                a->ok = 0;
                return;
            }
            a->leaf[j] = b->leaf[k];
            a->len[j] = b->len[k];
            a->coef[j] = 0;
            a->n++;
        }
        a->coef[j] += scale * b->coef[k];
    }
}

static lin lin_leaf(const char *reg, size_t n)
{
    lin l = {.ok = 1, .n = 1, .leaf = {reg}, .len = {n}, .coef = {1}};
    return l;
}

/* Operand k of statement s: a register (into *reg, *n) or an integer. */
static int operand(const stmt *s, int k, const char **reg, size_t *n, long *imm)
{
    *reg = operand_reg(s, k, n);
    if (*reg)
        return 1;
    const char *p = s->op;
    while (p < s->end && !isspace((unsigned char)*p))
        p++;
    for (int c = 0; c < k && p < s->end; p++)
        c += *p == ',';
    while (p < s->end && isspace((unsigned char)*p))
        p++;
    char *e;
    *imm = strtol(p, &e, 0);
    return e != p && (e >= s->end || *e == ',' || *e == ';' || isspace((unsigned char)*e));
}

static lin lin_of(const char *lo, const char *before, const char *reg, size_t n, int depth);

static lin lin_operand(const char *lo, const stmt *s, int k, int depth)
{
    const char *r;
    size_t n;
    long imm;
    lin bad = {.ok = 0};
    if (!operand(s, k, &r, &n, &imm))
        return bad;
    if (!r) {
        lin c = {.ok = 1, .c = imm};
        return c;
    }
    return lin_of(lo, s->op, r, n, depth + 1);
}

/* The linear form of register `reg` as its last definition in [lo, before)
 * makes it; a leaf when that definition is not arithmetic we follow. */
static lin lin_of(const char *lo, const char *before, const char *reg, size_t n, int depth)
{
    stmt s, def = {0};
    for (const char *p = lo; next_stmt(p, before, &s); p = s.end + 1) {
        size_t dn;
        const char *d = operand_reg(&s, 0, &dn);
        if (d && dn == n && !strncmp(d, reg, n) && !op_is(&s, "st.") && !op_is(&s, "prefetch"))
            def = s;
    }
    if (!def.op || depth > 16)
        return lin_leaf(reg, n);
    lin a = lin_operand(lo, &def, 1, depth), b;
    long imm;
    const char *r;
    size_t rn;
    if (op_is(&def, "mov.") || op_is(&def, "cvt.") || op_is(&def, "cvta.to.global"))
        return a.ok ? a : lin_leaf(reg, n);
    if (op_is(&def, "add.") || op_is(&def, "sub.")) {
        b = lin_operand(lo, &def, 2, depth);
        lin_add(&a, &b, op_is(&def, "add.") ? 1 : -1);
        return a.ok ? a : lin_leaf(reg, n);
    }
    if ((op_is(&def, "shl.") || op_is(&def, "mul.lo.") || op_is(&def, "mul.wide.")) &&
        operand(&def, 2, &r, &rn, &imm) && !r && a.ok) {
        lin z = {.ok = 1};
        lin_add(&z, &a, op_is(&def, "shl.") ? (imm >= 0 && imm < 32 ? 1L << imm : 0) : imm);
        return z.ok ? z : lin_leaf(reg, n);
    }
    return lin_leaf(reg, n);
}

/* How far the loop [lo, hi) moves register `reg` each time round: its own
 * "add reg, reg, imm" in the loop. 0 when it has none. */
static long own_step(const char *lo, const char *hi, const char *reg, size_t n)
{
    stmt s;
    for (const char *p = lo; next_stmt(p, hi, &s); p = s.end + 1) {
        size_t dn, an;
        const char *d = op_is(&s, "add.") ? operand_reg(&s, 0, &dn) : NULL;
        const char *a = d ? operand_reg(&s, 1, &an) : NULL;
        const char *r;
        size_t rn;
        long imm;
        if (a && dn == n && an == n && !strncmp(d, reg, n) && !strncmp(a, reg, n) &&
            operand(&s, 2, &r, &rn, &imm) && !r)
            return imm;
    }
    return 0;
}

/* The register inside "[%rdN]" or "[%rdN+8]" of statement s. */
static const char *address_reg(const stmt *s, size_t *n)
{
    const char *b = memchr(s->op, '[', (size_t)(s->end - s->op));
    if (!b || b[1] != '%')
        return NULL;
    const char *q = b + 2;
    while (q < s->end && ident((unsigned char)*q) && *q != '%')
        q++;
    *n = (size_t)(q - b - 1);
    return b + 1;
}

/* A loop [lo, hi) of the function from `fn`: does it prefetch into L2 an
 * address a constant distance ahead of one of its global loads, but less
 * than one iteration's step of that load ahead? Then the prefetched line
 * is one the loop is loading in this very iteration. */
static int prefetch_within_step(const char *fn, const char *lo, const char *hi)
{
    stmt s, t;
    int pairs = 0;      /* each pair is a few scans of the function: a bounded few */
    for (const char *p = lo; pairs < 16 && next_stmt(p, hi, &s); p = s.end + 1) {
        size_t pn, ln;
        const char *preg = op_is(&s, "prefetch.global.L2") ? address_reg(&s, &pn) : NULL;
        if (!preg)
            continue;
        lin pf = lin_of(fn, s.op, preg, pn, 0);
        for (const char *q = lo; pf.ok && next_stmt(q, hi, &t); q = t.end + 1) {
            const char *lreg = op_is(&t, "ld.global") ? address_reg(&t, &ln) : NULL;
            if (!lreg || ++pairs > 16)
                continue;
            lin ld = lin_of(fn, t.op, lreg, ln, 0), d = pf;
            lin_add(&d, &ld, -1);
            int constant = d.ok;
            for (int k = 0; k < d.n; k++)
                constant &= d.coef[k] == 0;
            long step = own_step(lo, hi, lreg, ln);
            for (int k = 0; constant && k < ld.n; k++)
                step += ld.coef[k] * own_step(lo, hi, ld.leaf[k], ld.len[k]);
            if (constant && step > 0 && d.c > 0 && d.c < step)
                return 1;
        }
    }
    return 0;
}

/* A loop body [lo, hi): does it prefetch into L2 before its first
 * cp.async.wait_group, that is before the wait of the same iteration
 * (lesson 11b with the prefetch at the top of the loop)? A loop with no
 * such wait says nothing. */
static int prefetch_before_wait(const char *lo, const char *hi)
{
    int prefetched = 0;
    stmt s;
    for (const char *p = lo; next_stmt(p, hi, &s); p = s.end + 1) {
        if (op_is(&s, "prefetch.global.L2"))
            prefetched = 1;
        else if (op_is(&s, "cp.async.wait_group"))
            return prefetched;
    }
    return 0;
}

/* Bytes one thread moves with a load opcode ("ld.shared.v2.f64": 16): its
 * vector count times its type's size; 0 when it names no type. */
static long access_bytes(const stmt *s)
{
    long vec = 1, size = 0;
    for (const char *p = s->op; p < s->end && !isspace((unsigned char)*p); p++) {
        if (*p != '.')
            continue;
        if (p[1] == 'v' && isdigit((unsigned char)p[2]))
            vec = p[2] - '0';
        else if (strchr("fbsu", p[1]) && isdigit((unsigned char)p[2]))
            size = strtol(p + 2, NULL, 10) / 8;
    }
    return vec * size;
}

/* A loop [lo, hi) of the function from `fn`: does it read shared memory at
 * addresses that step an even number of elements from one thread to the
 * next (threadIdx.x's coefficient in the address: 2, 4, 8 ... elements)?
 * Then the threads of a warp fall on the same banks in turn: a thread-major
 * ring, buf[k + PDIST * threadIdx.x] (lesson 10). An odd step (a padded
 * buffer) or one element (index-major) is conflict-free. */
static int thread_major_shared(const char *fn, const char *lo, const char *hi)
{
    stmt s;
    int reads = 0;      /* each read is a few scans of the function: a bounded few */
    for (const char *p = lo; reads < 16 && next_stmt(p, hi, &s); p = s.end + 1) {
        size_t an;
        const char *areg = op_is(&s, "ld.shared") ? address_reg(&s, &an) : NULL;
        long w = areg ? access_bytes(&s) : 0;
        if (!w)
            continue;
        reads++;
        lin a = lin_of(fn, s.op, areg, an, 0);
        for (int k = 0; a.ok && k < a.n; k++) {
            long c = a.coef[k];
            if (a.len[k] == 4 && !strncmp(a.leaf[k], "%tid", 4) && c > w && c % w == 0 &&
                (c / w) % 2 == 0)
                return 1;
        }
    }
    return 0;
}

/* The start of the function (.entry or .func) that holds `at`. */
static const char *function_start(const char *ptx, const char *at)
{
    const char *best = ptx;
    for (const char *q = ptx; (q = strstr(q, ".entry")) != NULL && q < at; q += 6)
        best = q;
    for (const char *q = ptx; (q = strstr(q, ".func")) != NULL && q < at; q += 5)
        best = q > best ? q : best;
    return best;
}

/* Every loop of the PTX: a label, and a later branch back to it. */
static unsigned loop_patterns(const char *ptx)
{
    unsigned found = 0;
    const char *end = ptx + strlen(ptx);
    int l2 = strstr(ptx, "prefetch.global.L2") != NULL;
    stmt s;
    for (const char *p = ptx; next_stmt(p, end, &s); p = s.end + 1) {
        if (!op_is(&s, "bra"))
            continue;
        const char *t = s.op + 3;
        while (t < s.end && !isspace((unsigned char)*t))
            t++;
        while (t < s.end && isspace((unsigned char)*t))
            t++;
        size_t n = 0;
        while (t + n < s.end && ident((unsigned char)t[n]))
            n++;
        if (!n || n > 60)
            continue;
        char label[64];
        snprintf(label, sizeof label, "%.*s:", (int)n, t);
        /* The label's last definition before the branch. */
        const char *head = NULL;
        for (const char *q = ptx; (q = strstr(q, label)) != NULL && q < s.op; q += n)
            if (q == ptx || !ident((unsigned char)q[-1]))
                head = q;
        if (!head)
            continue;
        if (copies_loaded_register(head, s.op, function_start(ptx, head), end))
            found |= DIAG_COPY_OF_LOAD;
        if (waits_at_several_depths(head, s.op))
            found |= DIAG_WAIT_DEPTH_SWITCH;
        if (l2 && prefetch_within_step(function_start(ptx, head), head, s.op))
            found |= DIAG_L2_PREFETCH_IN_STEP;
        if (l2 && prefetch_before_wait(head, s.op))
            found |= DIAG_L2_PREFETCH_BEFORE_WAIT;
        if (thread_major_shared(function_start(ptx, head), head, s.op))
            found |= DIAG_THREAD_MAJOR_RING;
    }
    return found;
}

unsigned diagnose_ptx(const char *ptx)
{
    if (!ptx)
        return 0;
    unsigned found = loop_patterns(ptx);
    if (strstr(ptx, "mbarrier.try_wait") || strstr(ptx, "mbarrier.test_wait"))
        found |= DIAG_MBARRIER_WAIT;
    return found;
}

unsigned diagnose_exercise(const exercise *ex, const char *ptx)
{
    unsigned found = diagnose_ptx(ptx);
    if (ex->lesson < 5 || ex->lesson > 12)
        found &= ~(unsigned)DIAG_COPY_OF_LOAD;
    /* Lessons 8 and 9 keep their rings thread-major on purpose, and lesson
     * 12's stub is lesson 9's ring to be replaced: lessons 10 and 11 are
     * where the banks are the point. */
    if (ex->lesson < 10 || ex->lesson > 11)
        found &= ~(unsigned)DIAG_THREAD_MAJOR_RING;
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
    {.diag = DIAG_L2_PREFETCH_BEFORE_WAIT,
     .text = "Diagnosis: an L2 prefetch before the iteration's wait. The compiled loop "
             "issues its prefetch.global.L2 before the cp.async.wait_group of the same "
             "iteration (__pipeline_wait_prior). The wait does not wait for the prefetch, "
             "but with the prefetch there the compiler moved the ring's refill copy and its "
             "commit below the iteration's work, so each refill starts one work() later and "
             "has about one iteration less to arrive: on an H200 (2026-11-29) this placement "
             "measured 1.34x-1.39x against 1.60x-1.65x with the prefetch after the copy. "
             "Fix: read the slot, issue the refill copy and __pipeline_commit() right after "
             "it, then the prefetch, as the reference does (lesson 11, \"Two levels\")."},
    {.diag = DIAG_THREAD_MAJOR_RING,
     .text = "Diagnosis: a thread-major ring in shared memory. The compiled loop reads "
             "shared memory at addresses an even number of elements apart from one thread "
             "to the next (threadIdx.x times 2, 4, 8... elements in the PTX's address): each "
             "thread's slots are consecutive, buf[k + PDIST * threadIdx.x], so the threads "
             "of a warp fall on the same banks in turn and the reads are serialised (8 ways "
             "at PDIST 8). Fix: pad each thread's slots to an odd stride, buf[k + (PDIST + "
             "PADDING) * threadIdx.x] (10a), or put slot k of consecutive threads in "
             "consecutive doubles, buf[k * BLOCKDIMX + threadIdx.x] (10b) (lesson 10, "
             "\"Fix 1: padding\" and \"Fix 2: change the index scheme\")."},
};

const char *diagnose_name(unsigned diag)
{
    switch (diag) {
    case DIAG_COPY_OF_LOAD: return "copy_of_pending_load";
    case DIAG_WAIT_DEPTH_SWITCH: return "run_time_wait_depth";
    case DIAG_MBARRIER_WAIT: return "mbarrier_wait";
    case DIAG_L2_PREFETCH_IN_STEP: return "l2_prefetch_in_current_step";
    case DIAG_L2_PREFETCH_BEFORE_WAIT: return "l2_prefetch_before_wait";
    case DIAG_THREAD_MAJOR_RING: return "thread_major_ring";
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
