/* sim_collective.c: the warp collectives (shfl.sync, vote.sync, redux.sync,
 * bar.warp.sync) over their member mask, and where the lanes of the mask
 * meet.
 *
 * On sm_70 and later a collective makes each executing thread wait until
 * every non-exited thread of its member mask has executed one with the
 * same qualifiers and the same mask (PTX ISA: shfl.sync, vote.sync,
 * redux.sync, bar.warp.sync; the rule that all must execute the same
 * instruction in convergence is for sm_6x and below). So lanes that
 * branched apart may each call __shfl_sync(0xffffffff, ...) in their own
 * branch. Here lanes that reach a collective while others of the mask are
 * elsewhere wait (LW_COLL, their pc already past it); the lanes that
 * complete the mask run it with them, each lane with its own instruction's
 * registers, and the waiting lanes go on.
 *
 * Lanes of the mask that have exited are not waited for (the manual's
 * "non-exited"); a shuffle that reads one gets what its register last held
 * (undefined on a GPU). Lanes that never reach a matching collective (they
 * wait at a barrier, at a collective of another kind or mask, or the
 * block cannot go on) make the block hang: HANG naming the collective, its
 * line, the lanes it waits for and where they are. On a GPU that is
 * undefined behaviour, a hang or garbage values; the simulator says hang
 * because that is what the waiting lanes do, and a message that names the
 * missing lanes teaches what to fix where garbage would only be WRONG. */
#include <stdio.h>
#include "sim_engine.h"
#include "sim_value.h"

#define X(r) R[(size_t)(r) * 32 + (size_t)l]

/* The register of in's member mask. */
static int member_reg(const sim_insn *in)
{
    return in->op == SO_SHFL ? in->e : in->op == SO_BAR_WARP ? in->a : in->b;
}

static int same_kind(const sim_insn *a, const sim_insn *b)
{
    return a->op == b->op && a->mod == b->mod && a->type == b->type;
}

/* Lanes m each run ins[l]: shuffles of one mode. */
static void shfl(sim_warp *w, uint32_t m, const sim_insn *const *ins)
{
    uint64_t *R = w->R;
    const sim_insn *in0 = ins[__builtin_ctz(m)];
    uint32_t val[32];
    for (int l = 0; l < 32; l++)
        val[l] = (uint32_t)X((m >> l & 1 ? ins[l] : in0)->a);
    LANES(m)
        const sim_insn *in = ins[l];
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

static void vote(sim_warp *w, uint32_t m, uint32_t member, const sim_insn *const *ins)
{
    uint64_t *R = w->R;
    uint32_t ballot = 0, in_mask = m & member;
    LANES(in_mask)
        ballot |= (uint32_t)(X(ins[l]->a) & 1) << l;
    END
    LANES(m)
        uint64_t r;
        switch (ins[l]->mod) {
        case SV_ALL: r = ballot == in_mask; break;
        case SV_ANY: r = ballot != 0; break;
        case SV_UNI: r = ballot == 0 || ballot == in_mask; break;
        default: r = ballot; break;
        }
        X(ins[l]->d[0]) = r;
    END
}

static void redux(sim_warp *w, uint32_t m, uint32_t member, const sim_insn *const *ins)
{
    uint64_t *R = w->R;
    const sim_insn *in0 = ins[__builtin_ctz(m)];
    int sgn = tsigned(in0->type);
    uint32_t acc = 0;
    int first = 1;
    LANES(m & member)
        uint32_t v = (uint32_t)X(ins[l]->a);
        if (first) { acc = v; first = 0; continue; }
        switch (in0->mod) {
        case SA_ADD: acc += v; break;
        case SA_MIN: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        case SA_MAX: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        case SA_AND: acc &= v; break;
        case SA_OR: acc |= v; break;
        case SA_XOR: acc ^= v; break;
        }
    END
    LANES(m)
        X(ins[l]->d[0]) = acc;
    END
}

static void run(sim_warp *w, uint32_t m, uint32_t member, const sim_insn *const *ins)
{
    switch (ins[__builtin_ctz(m)]->op) {
    case SO_SHFL: shfl(w, m, ins); break;
    case SO_VOTE: vote(w, m, member, ins); break;
    case SO_REDUX: redux(w, m, member, ins); break;
    default: break;          /* bar.warp.sync: meeting is all it does */
    }
}

/* Lanes of w waiting at a collective of in's kind with member mask `member`. */
static uint32_t waiting(const sim_cta *c, const sim_warp *w, const sim_insn *in, uint32_t member)
{
    uint32_t r = 0;
    LANES(w->live & ~w->ready)
        if (w->wait[l] == LW_COLL && w->wait_arg[l] == member &&
            same_kind(&c->k->insn[w->lane_pc[l] - 1], in))
            r |= 1u << l;
    END
    return r;
}

/* The lanes `met`, waiting, run their collectives with lanes m (running
 * `in`, or none) and go on; they have met, so they are ordered. */
static void meet(sim_cta *c, sim_warp *w, uint32_t m, uint32_t met, uint32_t member,
                 const sim_insn *in)
{
    const sim_insn *ins[32];
    LANES(m) ins[l] = in; END
    LANES(met) ins[l] = &c->k->insn[w->lane_pc[l] - 1]; END
    run(w, m | met, member, ins);
    LANES(met) w->wait[l] = LW_READY; END
    w->ready |= met;
    w->joins++;              /* lanes that met are ordered (sim_race.c) */
}

int sim_collective(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    uint32_t member = (uint32_t)w->R[(size_t)member_reg(in) * 32 + (size_t)__builtin_ctz(m)];
    uint32_t missing = member & w->live & ~m;
    if (!missing) {          /* the common case: the mask runs it together */
        const sim_insn *ins[32];
        LANES(m) ins[l] = in; END
        run(w, m, member, ins);
        return 0;
    }
    uint32_t met = waiting(c, w, in, member);
    if (missing & ~met) {
        sim_block_lanes(w, m, LW_COLL, (int)w->pc, member);
        w->pc++;
        if (!w->active)
            sim_regroup(w);
        return 1;
    }
    meet(c, w, m, met, member, in);
    w->pc++;
    sim_regroup(w);
    return 1;
}

void sim_collective_recheck(sim_cta *c, sim_warp *w)
{
    uint32_t seen = 0, freed = 0;
    LANES(w->live & ~w->ready)
        if (w->wait[l] != LW_COLL || (seen >> l & 1))
            continue;
        const sim_insn *in = &c->k->insn[w->lane_pc[l] - 1];
        uint32_t member = (uint32_t)w->wait_arg[l];
        uint32_t met = waiting(c, w, in, member);
        seen |= met;
        if (!(member & w->live & ~met)) {
            meet(c, w, 0, met, member, in);
            freed |= met;
        }
    END
    if (freed)
        sim_regroup(w);
}

/* Where lane l of w is, for a hang's message. */
static void where(const sim_cta *c, const sim_warp *w, int l, char *out, size_t len)
{
    const sim_insn *at = &c->k->insn[w->lane_pc[l] - 1];
    if (w->wait[l] == LW_BAR)
        snprintf(out, len, "waits at barrier %d (line %u)", w->wait_on[l], at->line);
    else if (w->wait[l] == LW_MBAR)
        snprintf(out, len, "waits on an mbarrier phase (line %u)", at->line);
    else
        snprintf(out, len, "waits at %s (line %u) with member mask 0x%08x",
                 c->m->names + at->text, at->line, (uint32_t)w->wait_arg[l]);
}

int sim_collective_hang(sim_cta *c)
{
    for (int i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->w[i];
        LANES(w->live & ~w->ready)
            if (w->wait[l] != LW_COLL)
                continue;
            const sim_insn *in = &c->k->insn[w->lane_pc[l] - 1];
            uint32_t member = (uint32_t)w->wait_arg[l];
            uint32_t missing = member & w->live & ~waiting(c, w, in, member);
            char other[160] = "";
            if (missing)
                where(c, w, __builtin_ctz(missing), other, sizeof other);
            sim_stop(c, w, l, in, SIM_HANG, "no thread of the block can go on: lanes of its "
                     "warp wait at %s (line %u) for lanes 0x%08x of its member mask 0x%08x, "
                     "which never reach a %s with that mask (lane %d %s). Every lane of the "
                     "mask that has not exited must reach one: on a GPU this is undefined, a "
                     "hang or garbage values", c->m->names + in->text, in->line, missing,
                     member, c->m->names + in->text,
                     missing ? __builtin_ctz(missing) : -1, other);
            return 1;
        END
    }
    return 0;
}
