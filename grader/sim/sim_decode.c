/* sim_decode.c: an opcode with its modifiers and operands into a sim_insn.
 *
 * Every modifier must be understood or known to change nothing the
 * simulator models (cache hints, memory orders, scopes): anything else
 * makes the instruction SO_UNSUPPORTED, so a form that would mean something
 * the engine does not do is never run as something else. */
#include <string.h>
#include "sim_module.h"

typedef struct mods {
    const char *base;
    int types[3], ntypes;
    int space, vec, round, ftz, sat, approx, full, ordered;
    const char *word[6];     /* modifiers the op itself must interpret */
    int nword;
    char buf[160];
} mods;

static const struct { const char *s; int t; } type_names[] = {
    {"u8", ST_U8}, {"u16", ST_U16}, {"u32", ST_U32}, {"u64", ST_U64},
    {"s8", ST_S8}, {"s16", ST_S16}, {"s32", ST_S32}, {"s64", ST_S64},
    {"b8", ST_U8}, {"b16", ST_U16}, {"b32", ST_U32}, {"b64", ST_U64},
    {"f16", ST_F16}, {"f32", ST_F32}, {"f64", ST_F64}, {"pred", ST_PRED},
};

/* Modifiers that change nothing the simulator models: one thread's view of
 * memory is sequentially consistent here, and caches are not modelled. */
static const char *const harmless[] = {
    "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "volatile", "relaxed", "acquire",
    "release", "acq_rel", "weak", "sys", "gpu", "cta", "cluster", "uni", "sync", "aligned",
    "L1::no_allocate", "L1::evict_last", "L1::evict_first", "L1::evict_normal",
    "L1::evict_unchanged", "L2::64B", "L2::128B", "L2::256B", "L2::evict_last",
    "L2::evict_first", "L2::evict_normal", "unified", "noftz",
};

static int type_of(const char *w)
{
    for (size_t i = 0; i < sizeof type_names / sizeof *type_names; i++)
        if (!strcmp(w, type_names[i].s))
            return type_names[i].t;
    return ST_NONE;
}

static int space_of(const char *w)
{
    if (!strcmp(w, "global")) return SS_GLOBAL;
    if (!strcmp(w, "shared") || !strcmp(w, "shared::cta") || !strcmp(w, "shared::cluster"))
        return SS_SHARED;
    if (!strcmp(w, "local")) return SS_LOCAL;
    if (!strcmp(w, "param") || !strcmp(w, "param::entry")) return SS_PARAM;
    if (!strcmp(w, "const")) return SS_CONST;
    return -1;
}

static int round_of(const char *w)
{
    static const char *const r[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
    for (int i = 1; i < 9; i++)
        if (!strcmp(w, r[i]))
            return i;
    return 0;
}

static int is_harmless(const char *w)
{
    for (size_t i = 0; i < sizeof harmless / sizeof *harmless; i++)
        if (!strcmp(w, harmless[i]))
            return 1;
    return 0;
}

/* Split "ld.global.v4.f32" into its base and classified modifiers. */
static int split(const char *op, mods *m)
{
    memset(m, 0, sizeof *m);
    m->space = -1;
    if (strlen(op) >= sizeof m->buf)
        return -1;
    strcpy(m->buf, op);
    char *save = NULL;
    m->base = strtok_r(m->buf, ".", &save);
    for (char *w = strtok_r(NULL, ".", &save); w; w = strtok_r(NULL, ".", &save)) {
        int t = type_of(w), s = space_of(w), r = round_of(w);
        if (t && m->ntypes < 3) m->types[m->ntypes++] = t;
        else if (s >= 0) m->space = s;
        else if (!strcmp(w, "v2")) m->vec = 2;
        else if (!strcmp(w, "v4")) m->vec = 4;
        else if (r) m->round = r;
        else if (!strcmp(w, "ftz")) m->ftz = 1;
        else if (!strcmp(w, "sat")) m->sat = 1;
        else if (!strcmp(w, "approx")) m->approx = 1;
        else if (!strcmp(w, "full")) m->full = 1;
        else if (!strcmp(w, "uni") && !strcmp(m->base, "vote"))
            m->word[m->nword++] = w;   /* vote's mode (__uni_sync); bra.uni's is a hint */
        else if (is_harmless(w)) {
            static const char *const order[] = {"volatile", "relaxed", "acquire", "release",
                                                "acq_rel"};
            for (size_t i = 0; i < sizeof order / sizeof *order; i++)
                m->ordered |= !strcmp(w, order[i]);
        }
        else if (m->nword < 6) m->word[m->nword++] = w;
        else return -1;
    }
    return m->base ? 0 : -1;
}

/* The one op-specific modifier in words, from `names`; its index, or -1. */
static int word_index(const mods *m, const char *const *names, int n)
{
    if (m->nword != 1)
        return -1;
    for (int i = 0; i < n; i++)
        if (!strcmp(m->word[0], names[i]))
            return i;
    return -1;
}

static int is_reg(const sim_operand *o) { return o->kind == SK_REG; }

/* d, a[, b[, c]] all plain registers. */
static int regs_dabc(const sim_operand *o, int n, sim_insn *in, int want)
{
    if (n != want)
        return -1;
    for (int i = 0; i < n; i++)
        if (!is_reg(&o[i]))
            return -1;
    in->d[0] = o[0].reg[0];
    in->vec = 1;
    in->a = n > 1 ? o[1].reg[0] : SIM_NO_REG;
    in->b = n > 2 ? o[2].reg[0] : SIM_NO_REG;
    in->c = n > 3 ? o[3].reg[0] : SIM_NO_REG;
    return 0;
}

static const struct { const char *s; int op, nops; } simple[] = {
    {"add", SO_ADD, 3}, {"sub", SO_SUB, 3}, {"div", SO_DIV, 3}, {"rem", SO_REM, 3},
    {"abs", SO_ABS, 2}, {"neg", SO_NEG, 2}, {"min", SO_MIN, 3}, {"max", SO_MAX, 3},
    {"and", SO_AND, 3}, {"or", SO_OR, 3}, {"xor", SO_XOR, 3}, {"not", SO_NOT, 2},
    {"cnot", SO_CNOT, 2}, {"shl", SO_SHL, 3}, {"shr", SO_SHR, 3}, {"popc", SO_POPC, 2},
    {"clz", SO_CLZ, 2}, {"brev", SO_BREV, 2}, {"bfe", SO_BFE, 4}, {"bfi", SO_BFI, 5},
    {"prmt", SO_PRMT, 4}, {"fma", SO_FMA, 4}, {"rcp", SO_RCP, 2}, {"sqrt", SO_SQRT, 2},
    {"rsqrt", SO_RSQRT, 2}, {"ex2", SO_EX2, 2}, {"lg2", SO_LG2, 2}, {"sin", SO_SIN, 2},
    {"cos", SO_COS, 2}, {"tanh", SO_TANH, 2}, {"copysign", SO_COPYSIGN, 3},
    {"selp", SO_SELP, 4},
};

static int decode_simple(const mods *m, const sim_operand *o, int n, sim_insn *in)
{
    for (size_t i = 0; i < sizeof simple / sizeof *simple; i++) {
        if (strcmp(m->base, simple[i].s))
            continue;
        if (m->nword || m->ntypes != 1)
            return -1;
        in->op = (uint8_t)simple[i].op;
        if (in->op == SO_BFI) {
            /* bfi d, a, b, c, e: four sources */
            if (n != 5 || regs_dabc(o, 4, in, 4))
                return -1;
            in->e = o[4].reg[0];
            return is_reg(&o[4]) ? 0 : -1;
        }
        return regs_dabc(o, n, in, simple[i].nops);
    }
    return 1;
}

/* mul.lo / mul.hi / mul.wide (integers) and mul (floats); mad likewise. */
static int decode_mul_mad(const mods *m, const sim_operand *o, int n, sim_insn *in, int mad)
{
    static const char *const w[] = {"lo", "hi", "wide"};
    int form = word_index(m, w, 3);
    int t = m->types[0];
    if (t == ST_F32 || t == ST_F64) {
        if (m->nword)
            return -1;
        /* mad.f32 is fma since sm_20 (one rounding) */
        in->op = mad ? SO_FMA : SO_MUL;
    } else {
        if (form < 0)
            return -1;
        static const int ops[2][3] = {{SO_MUL_LO, SO_MUL_HI, SO_MUL_WIDE},
                                      {SO_MAD_LO, SO_MAD_HI, SO_MAD_WIDE}};
        in->op = (uint8_t)ops[mad][form];
    }
    return regs_dabc(o, n, in, mad ? 4 : 3);
}

static const char *const cmp_names[] = {
    "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
    "lo", "ls", "hi", "hs"
};

/* setp.cmp[.bool].type p[|q], a, b[, c] */
static int decode_setp(mods *m, const sim_operand *o, int n, sim_insn *in)
{
    int cmp = -1, bop = SB_NONE;
    for (int i = 0; i < m->nword; i++) {
        int found = -1;
        for (int k = 0; k < 18; k++)
            if (!strcmp(m->word[i], cmp_names[k]))
                found = k;
        if (found >= 0 && cmp < 0) {
            /* lo ls hi hs: the unsigned spellings of lt le gt ge */
            static const int alias[] = {SC_LT, SC_LE, SC_GT, SC_GE};
            cmp = found < 14 ? found : alias[found - 14];
        } else if (!strcmp(m->word[i], "and")) bop = SB_AND;
        else if (!strcmp(m->word[i], "or")) bop = SB_OR;
        else if (!strcmp(m->word[i], "xor")) bop = SB_XOR;
        else return -1;
    }
    if (cmp < 0 || m->ntypes != 1 || n < 3 || n > 4 || (bop != SB_NONE) != (n == 4))
        return -1;
    if (o[0].kind == SK_PAIR) {
        in->d[1] = o[0].reg[1];
        in->vec = 2;
    } else if (o[0].kind == SK_REG) {
        in->vec = 1;
    } else {
        return -1;
    }
    in->d[0] = o[0].reg[0];
    if (!is_reg(&o[1]) || !is_reg(&o[2]) || (n == 4 && !is_reg(&o[3])))
        return -1;
    in->op = SO_SETP;
    in->mod = (uint8_t)cmp;
    in->bool_op = (uint8_t)bop;
    in->a = o[1].reg[0];
    in->b = o[2].reg[0];
    in->c = n == 4 ? o[3].reg[0] : SIM_NO_REG;
    return 0;
}

/* ld/st: the value (a vector or one register) and the address. */
static int decode_ldst(const mods *m, const sim_operand *o, int n, sim_insn *in, int store)
{
    if (m->nword || m->ntypes != 1 || n != 2)
        return -1;
    const sim_operand *val = &o[store ? 1 : 0], *addr = &o[store ? 0 : 1];
    if (addr->kind != SK_ADDR)
        return -1;
    int want = m->vec ? m->vec : 1;
    if (val->kind == SK_VEC ? val->n != want : !(val->kind == SK_REG && want == 1))
        return -1;
    in->op = store ? SO_ST : SO_LD;
    in->space = (uint8_t)(m->space < 0 ? SS_GENERIC : m->space);
    in->vec = (uint8_t)want;
    for (int i = 0; i < want; i++)
        in->d[i] = val->reg[i];
    in->a = addr->reg[0];
    in->off = addr->off;
    return 0;
}

static int decode_mov(const mods *m, const sim_operand *o, int n, sim_insn *in)
{
    if (m->nword || m->ntypes != 1 || n != 2)
        return -1;
    in->vec = 1;
    if (o[0].kind == SK_REG && o[1].kind == SK_REG) {
        in->op = SO_MOV;
        in->d[0] = o[0].reg[0];
        in->a = o[1].reg[0];
        return 0;
    }
    /* mov.b64 {lo, hi}, d and mov.b64 d, {lo, hi}: two 32-bit halves
     * (mov.b32 of two halves likewise, 16 bits each). */
    int t = m->types[0];
    if (t != ST_U64 && t != ST_U32)
        return -1;
    if (o[0].kind == SK_VEC && o[0].n == 2 && o[1].kind == SK_REG) {
        in->op = SO_UNPACK;
        in->d[0] = o[0].reg[0];
        in->d[1] = o[0].reg[1];
        in->vec = 2;
        in->a = o[1].reg[0];
        return 0;
    }
    if (o[0].kind == SK_REG && o[1].kind == SK_VEC && o[1].n == 2) {
        in->op = SO_PACK;
        in->d[0] = o[0].reg[0];
        in->a = o[1].reg[0];
        in->b = o[1].reg[1];
        return 0;
    }
    return -1;
}

static int decode_cvt(const mods *m, const sim_operand *o, int n, sim_insn *in)
{
    if (m->nword || m->ntypes != 2)
        return -1;
    in->op = SO_CVT;
    in->stype = (uint8_t)m->types[1];
    return regs_dabc(o, n, in, 2);
}

/* cvta[.to].space.size d, a */
static int decode_cvta(const mods *m, const sim_operand *o, int n, sim_insn *in)
{
    int to = m->nword == 1 && !strcmp(m->word[0], "to");
    if ((m->nword && !to) || m->space < 0 || m->ntypes != 1)
        return -1;
    in->op = to ? SO_CVTA_TO : SO_CVTA_FROM;
    in->space = (uint8_t)m->space;
    /* cvta.global/.const of a symbol, as in cvta.global.u64 %rd, sym */
    return regs_dabc(o, n, in, 2);
}

static int decode_bar(const mods *m, const sim_operand *o, int n, sim_insn *in)
{
    /* bar.sync a[, b] / barrier.sync[.aligned] a[, b] / bar.arrive a, b;
     * bar.warp.sync mask */
    if (!strcmp(m->base, "bar") && m->nword == 1 && !strcmp(m->word[0], "warp")) {
        in->op = SO_BAR_WARP;
        return n == 1 && is_reg(&o[0]) ? (in->a = o[0].reg[0], 0) : -1;
    }
    int arrive = m->nword == 1 && !strcmp(m->word[0], "arrive");
    if ((m->nword && !arrive) || m->ntypes || n < 1 || n > 2)
        return -1;
    if (!is_reg(&o[0]) || (n == 2 && !is_reg(&o[1])))
        return -1;
    in->op = arrive ? SO_BAR_ARRIVE : SO_BAR;
    in->a = o[0].reg[0];
    in->b = n == 2 ? o[1].reg[0] : SIM_NO_REG;
    return 0;
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
static int decode_shfl(const mods *m, const sim_operand *o, int n, sim_insn *in)
{
    static const char *const w[] = {"up", "down", "bfly", "idx"};
    int mode = word_index(m, w, 4);
    if (mode < 0 || n != 5)
        return -1;
    in->op = SO_SHFL;
    in->mod = (uint8_t)mode;
    in->vec = o[0].kind == SK_PAIR ? 2 : 1;
    in->d[0] = o[0].reg[0];
    in->d[1] = o[0].kind == SK_PAIR ? o[0].reg[1] : SIM_NO_REG;
    for (int i = 1; i < 5; i++)
        if (!is_reg(&o[i]))
            return -1;
    in->a = o[1].reg[0];
    in->b = o[2].reg[0];
    in->c = o[3].reg[0];
    in->e = o[4].reg[0];
    return 0;
}

/* vote.sync.mode.type d, p, membermask; redux.sync.op.type d, a, membermask */
static int decode_warp_op(const mods *m, const sim_operand *o, int n, sim_insn *in, int redux)
{
    static const char *const v[] = {"all", "any", "uni", "ballot"};
    static const char *const r[] = {"add", "min", "max", "exch", "cas", "and", "or", "xor"};
    int mode = redux ? word_index(m, r, 8) : word_index(m, v, 4);
    if (mode < 0 || (redux && (mode == SA_EXCH || mode == SA_CAS)))
        return -1;
    in->op = redux ? SO_REDUX : SO_VOTE;
    in->mod = (uint8_t)mode;
    return regs_dabc(o, n, in, 3);
}

/* atom.space.op.type d, [a], b[, c]; red.space.op.type [a], b */
static int decode_atom(const mods *m, const sim_operand *o, int n, sim_insn *in, int red)
{
    static const char *const w[] = {"add", "min", "max", "exch", "cas", "and", "or", "xor",
                                    "inc", "dec"};
    int op = word_index(m, w, 10);
    if (op < 0 || m->ntypes != 1)
        return -1;
    int first = red ? 0 : 1, want = first + (op == SA_CAS ? 3 : 2);
    if (n != want || o[first].kind != SK_ADDR)
        return -1;
    for (int i = first + 1; i < n; i++)
        if (!is_reg(&o[i]))
            return -1;
    if (!red) {
        if (!is_reg(&o[0]))
            return -1;
        in->d[0] = o[0].reg[0];
        in->flags |= SF_RESULT;
    }
    in->op = SO_ATOM;
    in->mod = (uint8_t)op;
    in->space = (uint8_t)(m->space < 0 ? SS_GENERIC : m->space);
    in->a = o[first].reg[0];
    in->off = o[first].off;
    in->b = o[first + 1].reg[0];
    in->c = op == SA_CAS ? o[first + 2].reg[0] : SIM_NO_REG;
    return 0;
}

/* cp.async.{ca,cg}.shared.global [d], [s], size[, src-size];
 * cp.async.commit_group; cp.async.wait_group n; cp.async.wait_all;
 * cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
 *     [d], [s], size, [mbar] */
static int decode_cp(mods *m, const char *op, const sim_operand *o, int n, sim_insn *in)
{
    if (!strncmp(op, "cp.async.bulk.prefetch.", 23)) {
        in->op = SO_NOP;     /* a prefetch into L2: no cache here */
        return 0;
    }
    /* cp.async.mbarrier.arrive[.noinc].shared[::cta].b64 [mbar] */
    if (!strncmp(op, "cp.async.mbarrier.arrive.", 25)) {
        in->op = SO_CP_MB_ARRIVE;
        if (strstr(op, ".noinc."))
            in->flags |= SF_NOINC;
        if (n != 1 || o[0].kind != SK_ADDR || !strstr(op, ".shared") || !strstr(op, ".b64"))
            return -1;
        in->a = o[0].reg[0];
        in->off = o[0].off;
        return 0;
    }
    if (!strcmp(op, "cp.async.commit_group")) {
        in->op = SO_CP_COMMIT;
        return n ? -1 : 0;
    }
    if (!strcmp(op, "cp.async.wait_all")) {
        in->op = SO_CP_WAIT_ALL;
        return n ? -1 : 0;
    }
    if (!strcmp(op, "cp.async.wait_group")) {
        in->op = SO_CP_WAIT;
        return n == 1 && is_reg(&o[0]) ? (in->a = o[0].reg[0], 0) : -1;
    }
    if (!strcmp(op, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes") ||
        !strcmp(op, "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes")) {
        if (n != 4 || o[0].kind != SK_ADDR || o[1].kind != SK_ADDR || !is_reg(&o[2]) ||
            o[3].kind != SK_ADDR)
            return -1;
        in->op = SO_BULK_CP;
        in->d[0] = o[0].reg[0];
        in->off = o[0].off;
        in->a = o[1].reg[0];
        in->target = (int32_t)o[1].off;
        in->b = o[2].reg[0];
        in->c = o[3].reg[0];
        in->e = (int32_t)o[3].off;
        return (o[1].off > INT32_MAX || o[3].off > INT32_MAX) ? -1 : 0;
    }
    /* cp.async.ca/cg.shared.global: words are ca/cg (harmless) and async */
    if (m->nword != 1 || strcmp(m->word[0], "async") || n < 3 || n > 4)
        return -1;
    if (o[0].kind != SK_ADDR || o[1].kind != SK_ADDR || !is_reg(&o[2]))
        return -1;
    in->op = SO_CP_ASYNC;
    in->d[0] = o[0].reg[0];
    in->off = o[0].off;
    in->a = o[1].reg[0];
    in->target = (int32_t)o[1].off;
    in->b = o[2].reg[0];
    if (n == 4) {
        if (!is_reg(&o[3]))
            return -1;
        in->c = o[3].reg[0];
        in->flags |= SF_HAS_C;
    }
    return 0;
}

/* mbarrier.init / arrive[.expect_tx] / expect_tx / complete_tx / try_wait
 * [.parity] / test_wait[.parity] / inval, .shared[::cta].b64 */
static int decode_mbarrier(const mods *m, const sim_operand *o, int n, sim_insn *in)
{
    const char *what = NULL;
    int parity = 0, expect_tx = 0;
    for (int i = 0; i < m->nword; i++) {
        if (!strcmp(m->word[i], "parity")) parity = 1;
        else if (!what) what = m->word[i];
        /* mbarrier.arrive.expect_tx (cuda::ptx::mbarrier_arrive_expect_tx) */
        else if (!strcmp(what, "arrive") && !strcmp(m->word[i], "expect_tx")) expect_tx = 1;
        else return -1;
    }
    if (expect_tx)
        in->flags |= SF_EXPECT_TX;
    if (!what || m->space != SS_SHARED || m->ntypes != 1 || m->types[0] != ST_U64)
        return -1;
    int at = -1;
    if (!strcmp(what, "init")) { in->op = SO_MB_INIT; at = 0; }
    else if (!strcmp(what, "arrive")) { in->op = SO_MB_ARRIVE; at = 1; }
    else if (!strcmp(what, "arrive_expect_tx") || !strcmp(what, "expect_tx_arrive")) {
        in->op = SO_MB_ARRIVE; in->flags |= SF_EXPECT_TX; at = 1;
    }
    else if (!strcmp(what, "expect_tx")) { in->op = SO_MB_EXPECT_TX; at = 0; }
    else if (!strcmp(what, "complete_tx")) { in->op = SO_MB_COMPLETE_TX; at = 0; }
    else if (!strcmp(what, "try_wait")) { in->op = SO_MB_TRY_WAIT; at = 1; }
    else if (!strcmp(what, "test_wait")) { in->op = SO_MB_TEST_WAIT; at = 1; }
    else if (!strcmp(what, "inval")) { in->op = SO_MB_INVAL; at = 0; }
    else return -1;
    if (parity && in->op != SO_MB_TRY_WAIT && in->op != SO_MB_TEST_WAIT)
        return -1;
    if (parity)
        in->flags |= SF_PARITY;
    if (at >= n || o[at].kind != SK_ADDR)
        return -1;
    in->a = o[at].reg[0];
    in->off = o[at].off;
    in->d[0] = SIM_NO_REG;
    if (at == 1) {
        if (!is_reg(&o[0]))
            return -1;
        in->d[0] = o[0].reg[0];
    }
    /* what follows the address: a count, a byte count, a state or parity;
     * try_wait may add a suspend-time hint, which changes nothing here */
    if (n == at + 3 && in->op == SO_MB_TRY_WAIT && is_reg(&o[at + 2]))
        n--;
    if (n > at + 2)
        return -1;
    in->b = SIM_NO_REG;
    if (n == at + 2) {
        if (!is_reg(&o[at + 1]))
            return -1;
        in->b = o[at + 1].reg[0];
    }
    int needs_b = in->op == SO_MB_INIT || in->op == SO_MB_EXPECT_TX ||
                  in->op == SO_MB_COMPLETE_TX || in->op == SO_MB_TRY_WAIT ||
                  in->op == SO_MB_TEST_WAIT || (in->flags & SF_EXPECT_TX);
    if (needs_b != (in->b != SIM_NO_REG) && in->op != SO_MB_ARRIVE)
        return -1;
    return 0;
}

static int decode(const char *op, const sim_operand *o, int n, sim_insn *in)
{
    mods m;
    if (split(op, &m) != 0)
        return -1;
    in->type = (uint8_t)m.types[0];
    in->stype = (uint8_t)(m.ntypes > 1 ? m.types[1] : m.types[0]);
    in->mod = (uint8_t)m.round;
    in->flags = (uint16_t)((m.ftz ? SF_FTZ : 0) | (m.sat ? SF_SAT : 0) |
                           (m.approx || m.full ? SF_APPROX : 0) | (m.ordered ? SF_ORDERED : 0));
    const char *b = m.base;
    if (!strcmp(b, "mul")) return decode_mul_mad(&m, o, n, in, 0);
    if (!strcmp(b, "mad")) return decode_mul_mad(&m, o, n, in, 1);
    if (!strcmp(b, "setp")) return decode_setp(&m, o, n, in);
    if (!strcmp(b, "ld") || !strcmp(b, "ldu")) return decode_ldst(&m, o, n, in, 0);
    if (!strcmp(b, "st")) return decode_ldst(&m, o, n, in, 1);
    if (!strcmp(b, "mov")) return decode_mov(&m, o, n, in);
    if (!strcmp(b, "cvt")) return decode_cvt(&m, o, n, in);
    if (!strcmp(b, "cvta")) return decode_cvta(&m, o, n, in);
    if (!strcmp(b, "bar") || !strcmp(b, "barrier")) return decode_bar(&m, o, n, in);
    if (!strcmp(b, "shfl")) return decode_shfl(&m, o, n, in);
    if (!strcmp(b, "vote")) return decode_warp_op(&m, o, n, in, 0);
    if (!strcmp(b, "redux")) return decode_warp_op(&m, o, n, in, 1);
    if (!strcmp(b, "atom")) return decode_atom(&m, o, n, in, 0);
    if (!strcmp(b, "red")) return decode_atom(&m, o, n, in, 1);
    if (!strcmp(b, "cp")) return decode_cp(&m, op, o, n, in);
    if (!strcmp(b, "mbarrier")) return decode_mbarrier(&m, o, n, in);
    if (!strcmp(b, "bra")) {
        if (n != 1 || o[0].kind != SK_LABEL)
            return -1;
        in->op = SO_BRA;
        in->target = (int32_t)o[0].off;   /* a label number; sim_parse resolves it */
        return 0;
    }
    if (!strcmp(b, "activemask")) {
        in->op = SO_ACTIVEMASK;   /* activemask.b32 d: the lanes executing it */
        return n == 1 && is_reg(&o[0]) ? (in->d[0] = o[0].reg[0], 0) : -1;
    }
    if (!strcmp(b, "trap")) {
        in->op = SO_TRAP;
        return n ? -1 : 0;
    }
    if (!strcmp(b, "ret") || !strcmp(b, "exit")) {
        in->op = SO_EXIT;
        return n ? -1 : 0;
    }
    /* Fences: one thread at a time sees memory in program order here, but a
     * fence may be how threads synchronise (sim_race.c). */
    if (!strcmp(b, "fence") || !strcmp(b, "membar")) {
        in->op = SO_FENCE;
        return 0;
    }
    /* Cache hints: nothing is cached here. */
    if (!strcmp(b, "prefetch") ||
        !strcmp(b, "prefetchu") || !strcmp(b, "discard") || !strcmp(b, "applypriority") ||
        !strcmp(b, "createpolicy") || !strcmp(b, "nanosleep")) {
        in->op = SO_NOP;
        if (!strcmp(b, "createpolicy"))
            return -1;       /* it writes a register: not a no-op */
        if (!strcmp(b, "prefetch") && n == 1 && o[0].kind == SK_ADDR) {
            in->a = o[0].reg[0];     /* the line it asks for: the data watch's */
            in->off = o[0].off;
        }
        return 0;
    }
    return decode_simple(&m, o, n, in);
}

void sim_decode_op(const char *op, const sim_operand *o, int n, sim_insn *in)
{
    in->a = in->b = in->c = in->e = SIM_NO_REG;
    for (int i = 0; i < 4; i++)
        in->d[i] = SIM_NO_REG;
    if (decode(op, o, n, in) != 0)
        in->op = SO_UNSUPPORTED;
}
