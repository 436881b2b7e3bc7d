/* sim_warp_ops.c: the instructions that touch memory or other lanes:
 * loads, stores and atomics over the executing lanes (each address through
 * sim_mem.c, where a fault stops the run), and the warp collectives
 * (shfl.sync, vote.sync, redux.sync) over their member mask. */
#include "sim_arith.h"
#include "sim_engine.h"
#include "sim_value.h"

#define X(r) R[(size_t)(r) * 32 + (size_t)l]

/* ld and st: each lane's vector of in->vec values of the type's size. */
static void access(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in, int store)
{
    uint64_t *R = w->R;
    const int size = tsize(in->type), sgn = tsigned(in->type);
    if (c->counts)
        sim_count_access(c, w, m, in);
    LANES(m)
        uint8_t *p = sim_addr(c, w, l, in->space, X(in->a) + (uint64_t)in->off,
                              (size_t)size * in->vec, in, store);
        if (!p)
            return;
        for (int v = 0; v < in->vec; v++) {
            uint64_t x = 0;
            if (store) {
                x = X(in->d[v]);
                memcpy(p + v * size, &x, (size_t)size);
            } else {
                memcpy(&x, p + v * size, (size_t)size);
                X(in->d[v]) = sgn ? (uint64_t)sx(x, size) : x;
            }
        }
    END
    if (in->flags & SF_ORDERED)
        c->epoch++;          /* it may be how threads synchronise (sim_race.c) */
}

void sim_load_op(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    access(c, w, m, in, 0);
}

void sim_store_op(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    access(c, w, m, in, 1);
}

void sim_atom_op(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t *R = w->R;
    const int size = tsize(in->type);
    if (c->counts)
        sim_count_access(c, w, m, in);
    LANES(m)
        uint8_t *p = sim_addr(c, w, l, in->space, X(in->a) + (uint64_t)in->off, (size_t)size,
                              in, 1);
        if (!p)
            return;
        uint64_t old = 0;
        memcpy(&old, p, (size_t)size);
        uint64_t nv = sim_atom_value(in, old, X(in->b), in->c >= 0 ? X(in->c) : 0);
        memcpy(p, &nv, (size_t)size);
        if (in->flags & SF_RESULT)
            X(in->d[0]) = old;
    END
    c->epoch++;              /* an atomic may be how threads synchronise (sim_race.c) */
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

void sim_shfl(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
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

/* The member mask of vote/redux (operand b), or 0 when the run stopped. */
static uint32_t members(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint32_t member = (uint32_t)w->R[(size_t)in->b * 32 + (size_t)__builtin_ctz(m)];
    return collective_ok(c, w, m, member, in) ? member : 0;
}

void sim_vote(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t *R = w->R;
    uint32_t member = members(c, w, m, in);
    if (!member)
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

void sim_redux(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint64_t *R = w->R;
    uint32_t member = members(c, w, m, in);
    if (!member)
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
