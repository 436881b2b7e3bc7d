/* sim_arith.c: PTX arithmetic beyond one C operator (sim_arith.h). */
#include "sim_arith.h"
#include "sim_value.h"

uint64_t sim_mul_hi(uint64_t a, uint64_t b, int size, int is_signed)
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

uint64_t sim_wide(uint64_t a, uint64_t b, int size, int is_signed)
{
    if (is_signed)
        return (uint64_t)(sx(a, size) * sx(b, size));
    return a * b;
}

uint64_t sim_int_div(uint64_t a, uint64_t b, int size, int is_signed, int rem)
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

int sim_compare(int cmp, int t, uint64_t x, uint64_t y)
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
    /* integers: only "less than" depends on the signedness */
    int size = tsize(t);
    uint64_t mk = tmask(size);
    int eq = (x & mk) == (y & mk);
    int lt = tsigned(t) ? sx(x, size) < sx(y, size) : (x & mk) < (y & mk);
    switch (cmp) {
    case SC_EQ: return eq;
    case SC_NE: return !eq;
    case SC_LT: return lt;
    case SC_LE: return lt || eq;
    case SC_GT: return !lt && !eq;
    case SC_GE: return !lt;
    }
    return 0;
}

/* cvt's .rni/.rzi/.rmi/.rpi of a float to an integral float; else d. */
static double round_int(double d, int mod)
{
    switch (mod) {
    case SR_RNI: return nearbyint(d);
    case SR_RZI: return trunc(d);
    case SR_RMI: return floor(d);
    case SR_RPI: return ceil(d);
    }
    return d;
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

uint64_t sim_cvt(const sim_insn *in, uint64_t x)
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
    /* float to float of one type: rounding to an integer (exact in double
     * for a float too) */
    if (s == ST_F32 && t == ST_F32) {
        float f = f32(x);
        if (in->flags & SF_FTZ) f = ftz32(f);
        f = (float)round_int(f, in->mod);
        if (in->flags & SF_SAT) f = sat32(f);
        if (in->flags & SF_FTZ) f = ftz32(f);
        return w32(f);
    }
    if (s == ST_F64 && t == ST_F64) {
        double d = round_int(f64(x), in->mod);
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

uint64_t sim_atom_value(const sim_insn *in, uint64_t old, uint64_t b, uint64_t cv)
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
