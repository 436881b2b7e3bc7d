/* sim_value.h: how a register's 64-bit slot is read and written as a PTX
 * type (sim_insn.h's convention: the value's bits in the low bits), and the
 * C rounding mode of a PTX rounding modifier. Header-only: the dispatch
 * loop calls these per lane. */
#ifndef GRADER_SIM_VALUE_H
#define GRADER_SIM_VALUE_H

#include <fenv.h>
#include <math.h>
#include <string.h>
#include "sim_insn.h"

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

static inline int fe_mode(int r)
{
    switch (r) {
    case SR_RZ: case SR_RZI: return FE_TOWARDZERO;
    case SR_RM: case SR_RMI: return FE_DOWNWARD;
    case SR_RP: case SR_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

#endif
