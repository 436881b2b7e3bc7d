/* sim_warp_ops.c: the instructions that touch memory: loads, stores and
 * atomics over the executing lanes (each address through sim_mem.c, where
 * a fault stops the run). The warp collectives are in sim_collective.c. */
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
