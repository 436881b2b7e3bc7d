/* sim_insn.h: a decoded PTX instruction, what the engine executes.
 *
 * The decoder (sim_decode.c) turns each PTX statement into one sim_insn,
 * once, when the module is loaded; the engine (sim_exec.c) never looks at
 * text again. Every operand is a register index: immediates, symbol
 * addresses and special registers (%tid.x...) are given registers of their
 * own, filled when a warp starts (sim_kernel.init), so one instruction reads
 * its sources the same way whatever they were written as.
 *
 * Values: a register is a 64-bit slot holding the value's bits in its low
 * bits (a .u32 result is stored zero-extended, a .f32 as its 32 bits, a
 * predicate as 0 or 1); the instruction's type says how to read them. */
#ifndef GRADER_SIM_INSN_H
#define GRADER_SIM_INSN_H

#include <stddef.h>
#include <stdint.h>

/* Operand types: the low nibble's kind and the size in bytes. */
enum sim_type {
    ST_NONE,
    ST_U8, ST_U16, ST_U32, ST_U64,
    ST_S8, ST_S16, ST_S32, ST_S64,
    ST_F16, ST_F32, ST_F64,
    ST_PRED
};

/* State spaces of loads, stores, atomics and cvta. */
enum sim_space {
    SS_GENERIC, SS_GLOBAL, SS_SHARED, SS_LOCAL, SS_PARAM, SS_CONST
};

enum sim_op {
    SO_UNSUPPORTED,          /* executing it stops the run: "needs a GPU" */
    SO_NOP,                  /* prefetches, cache hints */
    SO_FENCE,                /* fence, membar: orders memory; ends the race finder's interval */
    SO_MOV, SO_PACK, SO_UNPACK,
    SO_ADD, SO_SUB, SO_MUL_LO, SO_MUL_HI, SO_MUL_WIDE, SO_MAD_LO, SO_MAD_HI, SO_MAD_WIDE,
    SO_DIV, SO_REM, SO_ABS, SO_NEG, SO_MIN, SO_MAX,
    SO_AND, SO_OR, SO_XOR, SO_NOT, SO_CNOT, SO_SHL, SO_SHR,
    SO_POPC, SO_CLZ, SO_BREV, SO_BFE, SO_BFI, SO_PRMT,
    SO_MUL, SO_FMA, SO_RCP, SO_SQRT, SO_RSQRT, SO_EX2, SO_LG2, SO_SIN, SO_COS, SO_TANH,
    SO_COPYSIGN,
    SO_CVT, SO_CVTA_TO, SO_CVTA_FROM, SO_SETP, SO_SELP,
    SO_LD, SO_ST, SO_ATOM,
    SO_BRA, SO_EXIT,
    SO_BAR, SO_BAR_ARRIVE, SO_BAR_WARP, SO_TRAP, SO_PRINTF, SO_ACTIVEMASK,
    SO_SHFL, SO_VOTE, SO_REDUX,
    SO_CP_ASYNC, SO_CP_COMMIT, SO_CP_WAIT, SO_CP_WAIT_ALL,
    SO_MB_INIT, SO_MB_ARRIVE, SO_MB_EXPECT_TX, SO_MB_COMPLETE_TX, SO_MB_TRY_WAIT,
    SO_MB_TEST_WAIT, SO_MB_INVAL, SO_BULK_CP, SO_CP_MB_ARRIVE,
    SO_COUNT
};

/* Modifier values, one field per instruction family (sim_insn.mod). */
enum sim_cmp {
    SC_EQ, SC_NE, SC_LT, SC_LE, SC_GT, SC_GE,
    SC_EQU, SC_NEU, SC_LTU, SC_LEU, SC_GTU, SC_GEU, SC_NUM, SC_NAN
};
enum sim_round { SR_NONE, SR_RN, SR_RZ, SR_RM, SR_RP, SR_RNI, SR_RZI, SR_RMI, SR_RPI };
enum sim_shfl { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };
enum sim_vote { SV_ALL, SV_ANY, SV_UNI, SV_BALLOT };
enum sim_atom { SA_ADD, SA_MIN, SA_MAX, SA_EXCH, SA_CAS, SA_AND, SA_OR, SA_XOR, SA_INC, SA_DEC };
enum sim_bool { SB_NONE, SB_AND, SB_OR, SB_XOR };

/* sim_insn.flags */
#define SF_FTZ 1u
#define SF_SAT 2u
#define SF_APPROX 4u
#define SF_PARITY 8u          /* mbarrier.try_wait.parity: c is a parity */
#define SF_HAS_C 16u          /* the optional operand is there (setp's bool, cp.async's src-size) */
#define SF_RESULT 32u         /* an atom (not red): d[0] gets the old value */
#define SF_EXPECT_TX 64u      /* mbarrier.arrive.expect_tx */
#define SF_NOINC 128u         /* cp.async.mbarrier.arrive.noinc */
#define SF_ORDERED 256u       /* .volatile/.relaxed/.acquire/.release: an access that may
                                 synchronise threads (a flag spun on): not a race, and it
                                 ends the race finder's interval (sim_race.c) */

#define SIM_NO_REG (-1)

typedef struct sim_insn {
    uint8_t op;              /* enum sim_op */
    uint8_t type;            /* enum sim_type: the instruction's (destination) type */
    uint8_t stype;           /* cvt's source type; mul.wide's and cvta's too */
    uint8_t mod;             /* compare, rounding, shuffle, vote, atomic or redux op */
    uint16_t flags;          /* SF_* */
    uint8_t space;           /* enum sim_space */
    uint8_t vec;             /* registers in d[]: 1, 2 or 4 */
    uint8_t bool_op;         /* setp's .and/.or/.xor with c */
    int32_t guard;           /* predicate register or SIM_NO_REG */
    int32_t guard_neg;       /* 1: @!p */
    int32_t d[4];            /* destinations; the values a store writes */
    int32_t a, b, c, e;      /* sources; a is an address's base register */
    int64_t off;             /* an address's constant offset */
    int32_t target;          /* a branch's instruction index */
    uint32_t line;           /* the .loc line in the kernel's file, 0 unknown */
    uint32_t text;           /* offset of the opcode's text in the module's names */
} sim_insn;

/* A register filled when a warp starts: a constant or a special register. */
enum sim_init_kind {
    SI_CONST,                /* value */
    SI_TID_X, SI_TID_Y, SI_TID_Z, SI_NTID_X, SI_NTID_Y, SI_NTID_Z,
    SI_CTAID_X, SI_CTAID_Y, SI_CTAID_Z, SI_NCTAID_X, SI_NCTAID_Y, SI_NCTAID_Z,
    SI_LANEID, SI_WARPID, SI_NWARPID, SI_SMID, SI_NSMID, SI_CLOCK, SI_LANEMASK_LT,
    SI_LANEMASK_LE, SI_LANEMASK_EQ, SI_LANEMASK_GE, SI_LANEMASK_GT,
    SI_SHARED_SYM,           /* value: the offset of a shared variable */
    SI_PARAM_SYM,            /* value: the offset of a parameter */
    SI_GLOBAL_SYM,           /* value: index of a module variable; its host address */
    SI_LOCAL_DEPOT           /* value: offset in the thread's local frame */
};

typedef struct sim_init {
    int32_t reg;
    int32_t kind;            /* enum sim_init_kind */
    uint64_t value;
} sim_init;

#endif
