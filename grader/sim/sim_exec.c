/* sim_exec.c: the dispatch loop. One decoded instruction is applied to every
 * executing lane of a warp's active group; the semantics of each opcode are
 * in this file's switch, after the PTX ISA manual, one case per opcode.
 * Nothing here allocates or looks at text. */
#include "sim_arith.h"
#include "sim_engine.h"
#include "sim_value.h"

#define X(r) R[(size_t)(r) * 32 + (size_t)l]

/* A float operation of one or more operands, with .ftz, .sat and the
 * rounding mode: EXPR uses a, b, c (floats or doubles). */
#define FLOAT_OP(EXPR) do {                                                        \
        const int ftz_ = in->flags & SF_FTZ, sat_ = in->flags & SF_SAT;            \
        if (in->type == ST_F32) {                                                  \
            LANES(m)                                                               \
                float a = f32(X(in->a));                                           \
                float b = in->b >= 0 ? f32(X(in->b)) : 0.0f;                       \
                float c = in->c >= 0 ? f32(X(in->c)) : 0.0f; (void)b; (void)c;     \
                if (ftz_) { a = ftz32(a); b = ftz32(b); c = ftz32(c); }            \
                float r_ = (EXPR);                                                 \
                if (ftz_) r_ = ftz32(r_);                                          \
                if (sat_) r_ = sat32(r_);                                          \
                X(in->d[0]) = w32(r_);                                             \
            END                                                                    \
        } else if (in->type == ST_F64) {                                           \
            LANES(m)                                                               \
                double a = f64(X(in->a));                                          \
                double b = in->b >= 0 ? f64(X(in->b)) : 0.0;                       \
                double c = in->c >= 0 ? f64(X(in->c)) : 0.0; (void)b; (void)c;     \
                double r_ = (EXPR);                                                \
                if (sat_) r_ = sat64(r_);                                          \
                X(in->d[0]) = w64(r_);                                             \
            END                                                                    \
        } else {                                                                   \
            goto unsupported;                                                      \
        }                                                                          \
    } while (0)

/* An integer operation: EXPR over uint64_t a, b, c (zero-extended) and
 * int64_t sa, sb (sign-extended); the result is cut to the type's size. */
#define INT_OP(EXPR) do {                                                          \
        const int sz_ = tsize(in->type);                                           \
        const uint64_t mk_ = tmask(sz_);                                           \
        LANES(m)                                                                   \
            uint64_t a = X(in->a) & mk_;                                           \
            uint64_t b = in->b >= 0 ? X(in->b) & mk_ : 0;                          \
            uint64_t c = in->c >= 0 ? X(in->c) & mk_ : 0;                          \
            int64_t sa = sx(a, sz_), sb = sx(b, sz_);                              \
            (void)sa; (void)sb; (void)c;                                           \
            X(in->d[0]) = (uint64_t)(EXPR) & mk_;                                  \
        END                                                                        \
    } while (0)

/* Lanes m take the branch to `target`; the rest of the active group goes on. */
static void branch(sim_warp *w, uint32_t m, uint32_t target)
{
    if (m == w->active) {
        w->pc = target;
        return;
    }
    if (!m) {
        w->pc++;
        return;
    }
    LANES(w->active)
        w->lane_pc[l] = m >> l & 1 ? target : w->pc + 1;
    END
    w->active = 0;
    sim_regroup(w);
}

static void exit_lanes(sim_cta *c, sim_warp *w, uint32_t m)
{
    LANES(m)
        w->wait[l] = LW_EXITED;
    END
    w->live &= ~m;
    w->ready &= ~m;
    w->active &= ~m;
    c->live_threads -= (unsigned)__builtin_popcount(m);
    w->pc++;
    if (!w->active)
        sim_regroup(w);
    sim_collective_recheck(c, w);
    sim_bar_recheck(c);
}

static int fma_rounded(int round) { return round == SR_RZ || round == SR_RM || round == SR_RP; }

/* One instruction over the lanes m. Returns 1 when it moved the pc itself. */
static int run_one(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t *R = w->R;
    const int size = tsize(in->type), sgn = tsigned(in->type);
    switch ((enum sim_op)in->op) {
    case SO_NOP:
        return 0;
    case SO_FENCE:
        c->epoch++;          /* it may be how threads synchronise (sim_race.c) */
        return 0;
    case SO_MOV: {
        const uint64_t mk = tmask(size ? size : 8);
        LANES(m) X(in->d[0]) = X(in->a) & mk; END
        return 0;
    }
    case SO_PACK: {
        const int half = size * 4;
        const uint64_t mk = tmask(size / 2);
        LANES(m) X(in->d[0]) = (X(in->a) & mk) | (X(in->b) & mk) << half; END
        return 0;
    }
    case SO_UNPACK: {
        const int half = size * 4;
        const uint64_t mk = tmask(size / 2);
        LANES(m)
            uint64_t v = X(in->a);
            X(in->d[0]) = v & mk;
            X(in->d[1]) = (v >> half) & mk;
        END
        return 0;
    }
    case SO_ADD:
        if (tfloat(in->type)) {
            if (fma_rounded(in->mod)) fesetround(fe_mode(in->mod));
            FLOAT_OP(a + b);
            if (fma_rounded(in->mod)) fesetround(FE_TONEAREST);
        } else if (in->flags & SF_SAT) {
            INT_OP(sa + sb > INT32_MAX ? INT32_MAX : sa + sb < INT32_MIN ? INT32_MIN : sa + sb);
        } else {
            INT_OP(a + b);
        }
        return 0;
    case SO_SUB:
        if (tfloat(in->type)) {
            if (fma_rounded(in->mod)) fesetround(fe_mode(in->mod));
            FLOAT_OP(a - b);
            if (fma_rounded(in->mod)) fesetround(FE_TONEAREST);
        } else if (in->flags & SF_SAT) {
            INT_OP(sa - sb > INT32_MAX ? INT32_MAX : sa - sb < INT32_MIN ? INT32_MIN : sa - sb);
        } else {
            INT_OP(a - b);
        }
        return 0;
    case SO_MUL:
        if (fma_rounded(in->mod)) fesetround(fe_mode(in->mod));
        FLOAT_OP(a * b);
        if (fma_rounded(in->mod)) fesetround(FE_TONEAREST);
        return 0;
    case SO_FMA:
        if (fma_rounded(in->mod)) fesetround(fe_mode(in->mod));
        if (in->type == ST_F32) FLOAT_OP(fmaf(a, b, c));
        else FLOAT_OP(fma(a, b, c));
        if (fma_rounded(in->mod)) fesetround(FE_TONEAREST);
        return 0;
    case SO_MUL_LO: INT_OP(a * b); return 0;
    case SO_MUL_HI: INT_OP(sim_mul_hi(a, b, sz_, sgn)); return 0;
    case SO_MAD_LO: INT_OP(a * b + c); return 0;
    case SO_MAD_HI: INT_OP(sim_mul_hi(a, b, sz_, sgn) + c); return 0;
    case SO_MUL_WIDE: {
        const uint64_t mk = tmask(size), ok = tmask(size * 2 > 8 ? 8 : size * 2);
        LANES(m) X(in->d[0]) = sim_wide(X(in->a) & mk, X(in->b) & mk, size, sgn) & ok; END
        return 0;
    }
    case SO_MAD_WIDE: {
        const uint64_t mk = tmask(size), ok = tmask(size * 2 > 8 ? 8 : size * 2);
        LANES(m) X(in->d[0]) = (sim_wide(X(in->a) & mk, X(in->b) & mk, size, sgn) + X(in->c)) & ok; END
        return 0;
    }
    case SO_DIV:
        if (tfloat(in->type)) {
            if (fma_rounded(in->mod)) fesetround(fe_mode(in->mod));
            FLOAT_OP(a / b);
            if (fma_rounded(in->mod)) fesetround(FE_TONEAREST);
        } else {
            INT_OP(sim_int_div(a, b, sz_, sgn, 0));
        }
        return 0;
    case SO_REM: INT_OP(sim_int_div(a, b, sz_, sgn, 1)); return 0;
    case SO_ABS:
        if (tfloat(in->type)) FLOAT_OP(fabs(a));
        else INT_OP(sa < 0 ? -(uint64_t)sa : (uint64_t)sa);
        return 0;
    case SO_NEG:
        if (tfloat(in->type)) FLOAT_OP(-a);
        else INT_OP(-a);
        return 0;
    case SO_MIN:
        if (tfloat(in->type)) FLOAT_OP(fmin(a, b));
        else if (sgn) INT_OP(sa < sb ? a : b);
        else INT_OP(a < b ? a : b);
        return 0;
    case SO_MAX:
        if (tfloat(in->type)) FLOAT_OP(fmax(a, b));
        else if (sgn) INT_OP(sa > sb ? a : b);
        else INT_OP(a > b ? a : b);
        return 0;
    case SO_AND:
        if (in->type == ST_PRED) { LANES(m) X(in->d[0]) = X(in->a) & X(in->b) & 1; END }
        else INT_OP(a & b);
        return 0;
    case SO_OR:
        if (in->type == ST_PRED) { LANES(m) X(in->d[0]) = (X(in->a) | X(in->b)) & 1; END }
        else INT_OP(a | b);
        return 0;
    case SO_XOR:
        if (in->type == ST_PRED) { LANES(m) X(in->d[0]) = (X(in->a) ^ X(in->b)) & 1; END }
        else INT_OP(a ^ b);
        return 0;
    case SO_NOT:
        if (in->type == ST_PRED) { LANES(m) X(in->d[0]) = !(X(in->a) & 1); END }
        else INT_OP(~a);
        return 0;
    case SO_CNOT: INT_OP(a == 0); return 0;
    case SO_SHL: {
        const int bits = size * 8;
        const uint64_t mk = tmask(size);
        LANES(m)
            uint32_t n = (uint32_t)X(in->b);
            X(in->d[0]) = n >= (uint32_t)bits ? 0 : (X(in->a) << n) & mk;
        END
        return 0;
    }
    case SO_SHR: {
        const int bits = size * 8;
        const uint64_t mk = tmask(size);
        LANES(m)
            uint32_t n = (uint32_t)X(in->b);
            uint64_t a = X(in->a) & mk;
            if (sgn) {
                int64_t s = sx(a, size);
                X(in->d[0]) = (uint64_t)(s >> (n >= (uint32_t)bits ? bits - 1 : (int)n)) & mk;
            } else {
                X(in->d[0]) = n >= (uint32_t)bits ? 0 : a >> n;
            }
        END
        return 0;
    }
    case SO_POPC: {
        const uint64_t mk = tmask(size);
        LANES(m) X(in->d[0]) = (uint64_t)__builtin_popcountll(X(in->a) & mk); END
        return 0;
    }
    case SO_CLZ: {
        const uint64_t mk = tmask(size);
        LANES(m)
            uint64_t v = X(in->a) & mk;
            X(in->d[0]) = v ? (uint64_t)(__builtin_clzll(v) - (64 - size * 8)) : (uint64_t)size * 8;
        END
        return 0;
    }
    case SO_BREV: {
        const int bits = size * 8;
        LANES(m)
            uint64_t v = X(in->a), r = 0;
            for (int i = 0; i < bits; i++)
                r |= ((v >> i) & 1) << (bits - 1 - i);
            X(in->d[0]) = r;
        END
        return 0;
    }
    case SO_BFE: {
        const int bits = size * 8;
        LANES(m)
            uint64_t a = X(in->a) & tmask(size);
            uint32_t pos = (uint32_t)X(in->b) & 0xff, len = (uint32_t)X(in->c) & 0xff;
            uint64_t r = 0;
            int sbit = 0;
            if (sgn)
                sbit = len == 0 ? 0 : (int)((a >> (pos + len - 1 < (uint32_t)bits ? pos + len - 1 : (uint32_t)bits - 1)) & 1);
            for (uint32_t i = 0; i < (uint32_t)bits; i++) {
                uint64_t bit = (i < len && pos + i < (uint32_t)bits) ? (a >> (pos + i)) & 1 : (uint64_t)sbit;
                r |= bit << i;
            }
            X(in->d[0]) = r & tmask(size);
        END
        return 0;
    }
    case SO_BFI: {
        const int bits = size * 8;
        LANES(m)
            uint64_t f = X(in->a), b = X(in->b);
            uint32_t pos = (uint32_t)X(in->c) & 0xff, len = (uint32_t)X(in->e) & 0xff;
            for (uint32_t i = 0; i < len && pos + i < (uint32_t)bits; i++)
                b = (b & ~(1ull << (pos + i))) | (((f >> i) & 1) << (pos + i));
            X(in->d[0]) = b & tmask(size);
        END
        return 0;
    }
    case SO_PRMT: {
        LANES(m)
            uint64_t bytes = (X(in->a) & 0xffffffffu) | (X(in->b) & 0xffffffffu) << 32;
            uint32_t sel = (uint32_t)X(in->c), r = 0;
            for (int i = 0; i < 4; i++) {
                uint32_t s = (sel >> (4 * i)) & 0xf;
                uint32_t byte = (uint32_t)(bytes >> (8 * (s & 7))) & 0xff;
                if (s & 8)
                    byte = (byte & 0x80) ? 0xff : 0;
                r |= byte << (8 * i);
            }
            X(in->d[0]) = r;
        END
        return 0;
    }
    case SO_RCP:
        if (in->type == ST_F32) FLOAT_OP(1.0f / a);
        else FLOAT_OP(1.0 / a);
        return 0;
    case SO_SQRT:
        if (in->type == ST_F32) FLOAT_OP(sqrtf(a));
        else FLOAT_OP(sqrt(a));
        return 0;
    case SO_RSQRT:
        if (in->type == ST_F32) FLOAT_OP(1.0f / sqrtf(a));
        else FLOAT_OP(1.0 / sqrt(a));
        return 0;
    case SO_EX2:
        if (in->type == ST_F32) FLOAT_OP(exp2f(a));
        else goto unsupported;
        return 0;
    case SO_LG2:
        if (in->type == ST_F32) FLOAT_OP(log2f(a));
        else goto unsupported;
        return 0;
    case SO_SIN:
        if (in->type == ST_F32) FLOAT_OP(sinf(a));
        else goto unsupported;
        return 0;
    case SO_COS:
        if (in->type == ST_F32) FLOAT_OP(cosf(a));
        else goto unsupported;
        return 0;
    case SO_TANH:
        if (in->type == ST_F32) FLOAT_OP(tanhf(a));
        else goto unsupported;
        return 0;
    case SO_COPYSIGN:
        FLOAT_OP(copysign(b, a));
        return 0;
    case SO_CVT:
        if (in->type == ST_F16 || in->stype == ST_F16 || in->type == ST_PRED)
            goto unsupported;
        LANES(m) X(in->d[0]) = sim_cvt(in, X(in->a)); END
        return 0;
    case SO_CVTA_TO:
    case SO_CVTA_FROM: {
        uint64_t win = in->space == SS_SHARED ? SIM_SHARED_WIN
                     : in->space == SS_LOCAL ? SIM_LOCAL_WIN : 0;
        const uint64_t mk = tmask(size);
        if (in->op == SO_CVTA_TO) { LANES(m) X(in->d[0]) = (X(in->a) - win) & mk; END }
        else { LANES(m) X(in->d[0]) = (X(in->a) + win) & mk; END }
        return 0;
    }
    case SO_SETP:
        LANES(m)
            uint64_t r = (uint64_t)sim_compare(in->mod, in->type, X(in->a), X(in->b));
            uint64_t q = !r;
            if (in->bool_op != SB_NONE) {
                uint64_t p = X(in->c) & 1;
                switch (in->bool_op) {
                case SB_AND: r &= p; q &= p; break;
                case SB_OR: r |= p; q |= p; break;
                default: r ^= p; q ^= p; break;
                }
            }
            X(in->d[0]) = r;
            if (in->vec == 2)
                X(in->d[1]) = q;
        END
        return 0;
    case SO_SELP:
        LANES(m) X(in->d[0]) = (X(in->c) & 1) ? X(in->a) : X(in->b); END
        return 0;
    case SO_LD:
        if (in->type == ST_F16) goto unsupported;
        sim_load_op(c, w, m, in);
        return 0;
    case SO_ST:
        if (in->type == ST_F16) goto unsupported;
        sim_store_op(c, w, m, in);
        return 0;
    case SO_ATOM:
        if (in->type == ST_F16) goto unsupported;
        sim_atom_op(c, w, m, in);
        return 0;
    case SO_BRA:
        branch(w, m, (uint32_t)in->target);
        return 1;
    case SO_EXIT:
        if (m != w->active) {
            /* the others go on past it */
            LANES(w->active & ~m) w->lane_pc[l] = w->pc + 1; END
            w->active = m;
        }
        exit_lanes(c, w, m);
        return 1;
    case SO_BAR:
    case SO_BAR_ARRIVE: {
        if (!m) return 0;
        int l0 = __builtin_ctz(m);
        unsigned b = (unsigned)R[(size_t)in->a * 32 + l0];
        unsigned n = in->b >= 0 ? (unsigned)R[(size_t)in->b * 32 + l0] : 0;
        if (b >= SIM_MAX_BARS) {
            sim_stop(c, w, l0, in, SIM_UNSUPPORTED, "barrier %u (the simulator has %d)", b,
                     SIM_MAX_BARS);
            return 1;
        }
        sim_bar_arrive(c, w, m, b, n, in->op == SO_BAR);
        return 1;
    }
    case SO_BAR_WARP:
    case SO_SHFL:
    case SO_VOTE:
    case SO_REDUX:
        return m ? sim_collective(c, w, m, in) : 0;
    case SO_ACTIVEMASK:
        LANES(m) X(in->d[0]) = m; END
        return 0;
    case SO_PRINTF:
        sim_printf(c, w, m, in);
        return 0;
    case SO_TRAP:
        if (m)
            sim_stop(c, w, __builtin_ctz(m), in, SIM_TRAP, "the kernel stopped itself (a failed "
                     "assert, or a trap)");
        return 0;            /* lanes of one group already run together */
    case SO_CP_ASYNC: sim_cp_async(c, w, m, in); return 0;
    case SO_CP_COMMIT: sim_cp_commit(c, w, m); return 0;
    case SO_CP_WAIT: sim_cp_wait(c, w, m, in, 0); return 0;
    case SO_CP_WAIT_ALL: sim_cp_wait(c, w, m, in, 1); return 0;
    case SO_BULK_CP: sim_bulk_copy(c, w, m, in); return 0;
    case SO_CP_MB_ARRIVE: sim_cp_mbar_arrive(c, w, m, in); return 0;
    case SO_MB_INIT: case SO_MB_ARRIVE: case SO_MB_EXPECT_TX: case SO_MB_COMPLETE_TX:
    case SO_MB_TEST_WAIT: case SO_MB_INVAL:
        sim_mbar_op(c, w, m, in);
        return 0;
    case SO_MB_TRY_WAIT:
        sim_mbar_op(c, w, m, in);
        return 1;
    case SO_UNSUPPORTED:
    case SO_COUNT:
        break;
    }
unsupported:
    sim_stop(c, w, __builtin_ctz(m | w->active), in, SIM_UNSUPPORTED,
             "the instruction %s, which the simulator does not run yet", c->m->names + in->text);
    return 1;
}

void sim_warp_run(sim_cta *c, sim_warp *w, long budget)
{
    const sim_insn *code = c->k->insn;
    const uint64_t *R = w->R;
    uint64_t threads = 0, steps = 0;
    while (w->active && budget-- > 0 && !c->stop) {
        const sim_insn *in = &code[w->pc];
        uint32_t m = w->active;
        if (in->guard >= 0) {
            uint32_t p = 0;
            LANES(m) p |= (uint32_t)(X(in->guard) & 1) << l; END
            m = in->guard_neg ? m & ~p : m & p;
        }
        threads += (uint64_t)__builtin_popcount(m);
        steps++;
        if (c->watch)
            sim_watch_step(c, w, m, in);
        if (!run_one(c, w, m, in))
            w->pc++;
        if (w->ready != w->active && w->pc >= w->other_min)
            sim_regroup(w);
    }
    c->rep->thread_insns += threads;
    c->rep->warp_insns += steps;
}
