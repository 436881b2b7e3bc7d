/* sim_exec.c: the dispatch loop. One decoded instruction is applied to every
 * executing lane of a warp's active group; the semantics of each opcode are
 * in this file's switch, after the PTX ISA manual, one case per opcode.
 * Nothing here allocates or looks at text. */
#include <fenv.h>
#include <math.h>
#include <string.h>
#include "sim_engine.h"

#define LANES(m) for (uint32_t mm_ = (m); mm_; mm_ &= mm_ - 1) { int l = __builtin_ctz(mm_);
#define END }
#define X(r) R[(size_t)(r) * 32 + (size_t)l]

static inline int tsize(int t)
{
    static const unsigned char s[] = {0, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 1};
    return s[t];
}
static inline int tsigned(int t) { return t >= ST_S8 && t <= ST_S64; }
static inline int tfloat(int t) { return t >= ST_F16 && t <= ST_F64; }
static inline uint64_t tmask(int size) { return size == 8 ? ~0ull : (1ull << (size * 8)) - 1; }
static inline int64_t sx(uint64_t v, int size)
{
    int sh = 64 - size * 8;
    return (int64_t)(v << sh) >> sh;
}
static inline float f32(uint64_t v) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
static inline uint64_t w32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t w64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline float ftz32(float f) { return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f; }
static inline float sat32(float f) { return isnan(f) ? 0.0f : f < 0 ? 0.0f : f > 1 ? 1.0f : f; }
static inline double sat64(double f) { return isnan(f) ? 0.0 : f < 0 ? 0.0 : f > 1 ? 1.0 : f; }

static int fe_mode(int r)
{
    switch (r) {
    case SR_RZ: case SR_RZI: return FE_TOWARDZERO;
    case SR_RM: case SR_RMI: return FE_DOWNWARD;
    case SR_RP: case SR_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

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

static uint64_t mul_hi(uint64_t a, uint64_t b, int size, int is_signed)
{
    if (size == 8) {
        if (is_signed)
            return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
        return (uint64_t)(((unsigned __int128)a * b) >> 64);
    }
    int bits = size * 8;
    if (is_signed)
        return (uint64_t)((sx(a, size) * sx(b, size)) >> bits);
    return (a * b) >> bits;
}

static uint64_t wide(uint64_t a, uint64_t b, int size, int is_signed)
{
    if (is_signed)
        return (uint64_t)(sx(a, size) * sx(b, size));
    return a * b;
}

static uint64_t int_div(uint64_t a, uint64_t b, int size, int is_signed, int rem)
{
    uint64_t mk = tmask(size);
    if ((b & mk) == 0)
        return rem ? a : mk;           /* the GPU gives all ones for x / 0 */
    if (is_signed) {
        int64_t x = sx(a, size), y = sx(b, size);
        if (y == -1)
            return rem ? 0 : (uint64_t)-x & mk;   /* INT_MIN / -1 wraps */
        return (uint64_t)(rem ? x % y : x / y) & mk;
    }
    return (rem ? (a & mk) % (b & mk) : (a & mk) / (b & mk));
}

static int compare(int cmp, int t, uint64_t x, uint64_t y)
{
    if (tfloat(t)) {
        double a = t == ST_F32 ? f32(x) : f64(x), b = t == ST_F32 ? f32(y) : f64(y);
        int un = isnan(a) || isnan(b);
        switch (cmp) {
        case SC_EQ: return !un && a == b;
        case SC_NE: return !un && a != b;
        case SC_LT: return !un && a < b;
        case SC_LE: return !un && a <= b;
        case SC_GT: return !un && a > b;
        case SC_GE: return !un && a >= b;
        case SC_EQU: return un || a == b;
        case SC_NEU: return un || a != b;
        case SC_LTU: return un || a < b;
        case SC_LEU: return un || a <= b;
        case SC_GTU: return un || a > b;
        case SC_GEU: return un || a >= b;
        case SC_NUM: return !un;
        case SC_NAN: return un;
        }
        return 0;
    }
    int size = tsize(t);
    uint64_t mk = tmask(size);
    if (tsigned(t)) {
        int64_t a = sx(x, size), b = sx(y, size);
        switch (cmp) {
        case SC_EQ: return a == b;
        case SC_NE: return a != b;
        case SC_LT: return a < b;
        case SC_LE: return a <= b;
        case SC_GT: return a > b;
        case SC_GE: return a >= b;
        }
        return 0;
    }
    x &= mk;
    y &= mk;
    switch (cmp) {
    case SC_EQ: return x == y;
    case SC_NE: return x != y;
    case SC_LT: return x < y;
    case SC_LE: return x <= y;
    case SC_GT: return x > y;
    case SC_GE: return x >= y;
    }
    return 0;
}

/* Float to integer, saturating as PTX's cvt does (NaN gives 0). */
static uint64_t float_to_int(double v, int t, int round)
{
    switch (round) {
    case SR_RNI: case SR_RN: v = nearbyint(v); break;
    case SR_RMI: case SR_RM: v = floor(v); break;
    case SR_RPI: case SR_RP: v = ceil(v); break;
    default: v = trunc(v); break;
    }
    if (isnan(v))
        return 0;
    int size = tsize(t);
    if (tsigned(t)) {
        double lo = -ldexp(1, size * 8 - 1), hi = ldexp(1, size * 8 - 1) - 1;
        int64_t r = v <= lo ? (int64_t)lo : v >= hi ? (int64_t)hi : (int64_t)v;
        return (uint64_t)r & tmask(size);
    }
    double hi = ldexp(1, size * 8) - 1;
    return v <= 0 ? 0 : v >= hi ? tmask(size) : (uint64_t)v;
}

static uint64_t cvt(const sim_insn *in, uint64_t x)
{
    int t = in->type, s = in->stype;
    if (!tfloat(t) && !tfloat(s)) {
        int ss = tsize(s), ds = tsize(t);
        uint64_t v = tsigned(s) ? (uint64_t)sx(x, ss) : x & tmask(ss);
        if (in->flags & SF_SAT) {
            /* clamp to the destination's range */
            int64_t lo, hi;
            if (tsigned(t)) { lo = -(int64_t)(tmask(ds) >> 1) - 1; hi = (int64_t)(tmask(ds) >> 1); }
            else { lo = 0; hi = ds == 8 ? INT64_MAX : (int64_t)tmask(ds); }
            if (tsigned(s) && (int64_t)v < lo) v = (uint64_t)lo;
            else if ((tsigned(s) ? (int64_t)v > hi : v > (uint64_t)hi)) v = (uint64_t)hi;
        }
        return v & tmask(ds);
    }
    if (tfloat(s) && !tfloat(t)) {
        double v = s == ST_F32 ? f32(x) : f64(x);
        if (s == ST_F32 && (in->flags & SF_FTZ))
            v = ftz32((float)v);
        return float_to_int(v, t, in->mod);
    }
    if (!tfloat(s)) {
        /* integer to float, rounded as .rn/.rz/.rm/.rp says */
        int ss = tsize(s);
        int mode = fe_mode(in->mod);
        if (mode != FE_TONEAREST)
            fesetround(mode);
        uint64_t r;
        if (t == ST_F32) {
            volatile float f = tsigned(s) ? (float)sx(x, ss) : (float)(x & tmask(ss));
            r = w32(f);
        } else {
            volatile double d = tsigned(s) ? (double)sx(x, ss) : (double)(x & tmask(ss));
            r = w64(d);
        }
        if (mode != FE_TONEAREST)
            fesetround(FE_TONEAREST);
        return r;
    }
    /* float to float */
    if (s == ST_F32 && t == ST_F32) {
        float f = f32(x);
        if (in->flags & SF_FTZ) f = ftz32(f);
        switch (in->mod) {
        case SR_RNI: f = nearbyintf(f); break;
        case SR_RZI: f = truncf(f); break;
        case SR_RMI: f = floorf(f); break;
        case SR_RPI: f = ceilf(f); break;
        }
        if (in->flags & SF_SAT) f = sat32(f);
        if (in->flags & SF_FTZ) f = ftz32(f);
        return w32(f);
    }
    if (s == ST_F64 && t == ST_F64) {
        double d = f64(x);
        switch (in->mod) {
        case SR_RNI: d = nearbyint(d); break;
        case SR_RZI: d = trunc(d); break;
        case SR_RMI: d = floor(d); break;
        case SR_RPI: d = ceil(d); break;
        }
        if (in->flags & SF_SAT) d = sat64(d);
        return w64(d);
    }
    if (s == ST_F32 && t == ST_F64) {
        float f = f32(x);
        if (in->flags & SF_FTZ) f = ftz32(f);
        double d = f;
        if (in->flags & SF_SAT) d = sat64(d);
        return w64(d);
    }
    if (s == ST_F64 && t == ST_F32) {
        int mode = fe_mode(in->mod);
        if (mode != FE_TONEAREST)
            fesetround(mode);
        volatile float f = (float)f64(x);
        if (mode != FE_TONEAREST)
            fesetround(FE_TONEAREST);
        float g = f;
        if (in->flags & SF_FTZ) g = ftz32(g);
        if (in->flags & SF_SAT) g = sat32(g);
        return w32(g);
    }
    return 0;  /* f16: refused before running (see run_one) */
}

static void load(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t *R = w->R;
    const int size = tsize(in->type), sgn = tsigned(in->type);
    LANES(m)
        uint8_t *p = sim_addr(c, w, l, in->space, X(in->a) + (uint64_t)in->off,
                              (size_t)size * in->vec, in, 0);
        if (!p)
            return;
        for (int v = 0; v < in->vec; v++) {
            uint64_t x = 0;
            memcpy(&x, p + v * size, (size_t)size);
            X(in->d[v]) = sgn ? (uint64_t)sx(x, size) : x;
        }
    END
}

static void store(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t *R = w->R;
    const int size = tsize(in->type);
    LANES(m)
        uint8_t *p = sim_addr(c, w, l, in->space, X(in->a) + (uint64_t)in->off,
                              (size_t)size * in->vec, in, 1);
        if (!p)
            return;
        for (int v = 0; v < in->vec; v++) {
            uint64_t x = X(in->d[v]);
            memcpy(p + v * size, &x, (size_t)size);
        }
    END
}

static uint64_t atom_value(const sim_insn *in, uint64_t old, uint64_t b, uint64_t cv)
{
    int t = in->type, size = tsize(t);
    uint64_t mk = tmask(size);
    switch (in->mod) {
    case SA_ADD:
        if (t == ST_F32) return w32(f32(old) + f32(b));
        if (t == ST_F64) return w64(f64(old) + f64(b));
        return (old + b) & mk;
    case SA_MIN:
        if (t == ST_F32) return w32(fminf(f32(old), f32(b)));
        if (t == ST_F64) return w64(fmin(f64(old), f64(b)));
        return tsigned(t) ? (sx(old, size) < sx(b, size) ? old : b) : ((old & mk) < (b & mk) ? old : b);
    case SA_MAX:
        if (t == ST_F32) return w32(fmaxf(f32(old), f32(b)));
        if (t == ST_F64) return w64(fmax(f64(old), f64(b)));
        return tsigned(t) ? (sx(old, size) > sx(b, size) ? old : b) : ((old & mk) > (b & mk) ? old : b);
    case SA_EXCH: return b;
    case SA_CAS: return (old & mk) == (b & mk) ? cv : old;
    case SA_AND: return old & b;
    case SA_OR: return old | b;
    case SA_XOR: return old ^ b;
    case SA_INC: return (old & mk) >= (b & mk) ? 0 : old + 1;
    case SA_DEC: return ((old & mk) == 0 || (old & mk) > (b & mk)) ? b : old - 1;
    }
    return old;
}

static void atom(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t *R = w->R;
    const int size = tsize(in->type);
    LANES(m)
        uint8_t *p = sim_addr(c, w, l, in->space, X(in->a) + (uint64_t)in->off, (size_t)size,
                              in, 1);
        if (!p)
            return;
        uint64_t old = 0;
        memcpy(&old, p, (size_t)size);
        uint64_t nv = atom_value(in, old, X(in->b), in->c >= 0 ? X(in->c) : 0);
        memcpy(p, &nv, (size_t)size);
        if (in->flags & SF_RESULT)
            X(in->d[0]) = old;
    END
}

/* Members of a warp collective that are not executing it with the rest:
 * not modelled (on a GPU it waits for them, or it is undefined). */
static int collective_ok(sim_cta *c, sim_warp *w, uint32_t m, uint32_t member,
                         const sim_insn *in)
{
    uint32_t missing = member & w->live & ~m;
    if (!missing)
        return 1;
    sim_stop(c, w, __builtin_ctz(m ? m : 1), in, SIM_UNSUPPORTED,
             "%s with lanes of its member mask 0x%08x that are not executing it together "
             "(lanes 0x%08x are elsewhere): the simulator does not run a warp collective "
             "split across branches", c->m->names + in->text, member, missing);
    return 0;
}

static void shfl(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t *R = w->R;
    uint32_t val[32];
    int l0 = __builtin_ctz(m);
    if (!collective_ok(c, w, m, (uint32_t)R[(size_t)in->e * 32 + l0], in))
        return;
    for (int l = 0; l < 32; l++)
        val[l] = (uint32_t)X(in->a);
    LANES(m)
        uint32_t b = (uint32_t)X(in->b) & 31, cc = (uint32_t)X(in->c);
        uint32_t cval = cc & 31, seg = (cc >> 8) & 31;
        int maxl = (int)((l & seg) | (cval & ~seg)), minl = (int)(l & seg), j;
        int ok;
        switch (in->mod) {
        case SH_UP: j = l - (int)b; ok = j >= maxl; break;
        case SH_DOWN: j = l + (int)b; ok = j <= maxl; break;
        case SH_BFLY: j = l ^ (int)b; ok = j <= maxl; break;
        default: j = minl | (int)(b & ~seg); ok = j <= maxl; break;
        }
        if (!ok)
            j = l;
        X(in->d[0]) = val[j];
        if (in->d[1] >= 0)
            X(in->d[1]) = (uint64_t)ok;
    END
}

static void vote(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t *R = w->R;
    int l0 = __builtin_ctz(m);
    uint32_t member = (uint32_t)R[(size_t)in->b * 32 + l0];
    if (!collective_ok(c, w, m, member, in))
        return;
    uint32_t ballot = 0;
    LANES(m & member)
        ballot |= (uint32_t)(X(in->a) & 1) << l;
    END
    uint32_t in_mask = m & member;
    LANES(m)
        uint64_t r;
        switch (in->mod) {
        case SV_ALL: r = ballot == in_mask; break;
        case SV_ANY: r = ballot != 0; break;
        case SV_UNI: r = ballot == 0 || ballot == in_mask; break;
        default: r = ballot; break;
        }
        X(in->d[0]) = r;
    END
}

static void redux(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t *R = w->R;
    int l0 = __builtin_ctz(m);
    uint32_t member = (uint32_t)R[(size_t)in->b * 32 + l0];
    if (!collective_ok(c, w, m, member, in))
        return;
    int sgn = tsigned(in->type);
    uint32_t acc = 0;
    int first = 1;
    LANES(m & member)
        uint32_t v = (uint32_t)X(in->a);
        if (first) { acc = v; first = 0; continue; }
        switch (in->mod) {
        case SA_ADD: acc += v; break;
        case SA_MIN: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        case SA_MAX: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        case SA_AND: acc &= v; break;
        case SA_OR: acc |= v; break;
        case SA_XOR: acc ^= v; break;
        }
    END
    LANES(m)
        X(in->d[0]) = acc;
    END
}

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
    case SO_MUL_HI: INT_OP(mul_hi(a, b, sz_, sgn)); return 0;
    case SO_MAD_LO: INT_OP(a * b + c); return 0;
    case SO_MAD_HI: INT_OP(mul_hi(a, b, sz_, sgn) + c); return 0;
    case SO_MUL_WIDE: {
        const uint64_t mk = tmask(size), ok = tmask(size * 2 > 8 ? 8 : size * 2);
        LANES(m) X(in->d[0]) = wide(X(in->a) & mk, X(in->b) & mk, size, sgn) & ok; END
        return 0;
    }
    case SO_MAD_WIDE: {
        const uint64_t mk = tmask(size), ok = tmask(size * 2 > 8 ? 8 : size * 2);
        LANES(m) X(in->d[0]) = (wide(X(in->a) & mk, X(in->b) & mk, size, sgn) + X(in->c)) & ok; END
        return 0;
    }
    case SO_DIV:
        if (tfloat(in->type)) {
            if (fma_rounded(in->mod)) fesetround(fe_mode(in->mod));
            FLOAT_OP(a / b);
            if (fma_rounded(in->mod)) fesetround(FE_TONEAREST);
        } else {
            INT_OP(int_div(a, b, sz_, sgn, 0));
        }
        return 0;
    case SO_REM: INT_OP(int_div(a, b, sz_, sgn, 1)); return 0;
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
        LANES(m) X(in->d[0]) = cvt(in, X(in->a)); END
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
            uint64_t r = (uint64_t)compare(in->mod, in->type, X(in->a), X(in->b));
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
        load(c, w, m, in);
        return 0;
    case SO_ST:
        if (in->type == ST_F16) goto unsupported;
        store(c, w, m, in);
        return 0;
    case SO_ATOM:
        if (in->type == ST_F16) goto unsupported;
        atom(c, w, m, in);
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
        return 0;
    case SO_TRAP:
        if (m)
            sim_stop(c, w, __builtin_ctz(m), in, SIM_TRAP, "the kernel stopped itself (a failed "
                     "assert, or a trap)");
        return 0;            /* lanes of one group already run together */
    case SO_SHFL: if (m) shfl(c, w, m, in); return 0;
    case SO_VOTE: if (m) vote(c, w, m, in); return 0;
    case SO_REDUX: if (m) redux(c, w, m, in); return 0;
    case SO_CP_ASYNC: sim_cp_async(c, w, m, in); return 0;
    case SO_CP_COMMIT: sim_cp_commit(c, w, m); return 0;
    case SO_CP_WAIT: sim_cp_wait(c, w, m, in, 0); return 0;
    case SO_CP_WAIT_ALL: sim_cp_wait(c, w, m, in, 1); return 0;
    case SO_BULK_CP: sim_bulk_copy(c, w, m, in); return 0;
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
        if (!run_one(c, w, m, in))
            w->pc++;
        if (w->ready != w->active && w->pc >= w->other_min)
            sim_regroup(w);
    }
    c->rep->thread_insns += threads;
    c->rep->warp_insns += steps;
}
