/* sim_module.h: a decoded module, what sim_load builds and sim_run reads.
 *
 *   sim_parse.c   the PTX reader's statements (ptx.h) into kernels:
 *                 registers by scope, symbols, labels, operands
 *   sim_decode.c  one statement into one sim_insn (opcode and modifiers)
 *
 * Nothing here is touched while a kernel runs except to read it. */
#ifndef GRADER_SIM_MODULE_H
#define GRADER_SIM_MODULE_H

#include "sim.h"
#include "sim_insn.h"

#define SIM_MAX_PARAMS 64
#define SIM_NAME 128

/* A module-scope variable: .global and .const ones live in host memory
 * registered as global memory; .shared ones get an offset in each block's
 * shared memory (the extern one, of no size, after all the others). */
typedef struct sim_var {
    char name[SIM_NAME];
    int space;               /* SS_GLOBAL, SS_CONST or SS_SHARED */
    size_t bytes, align;
    uint8_t *data;           /* global, const: the storage */
    int is_extern;
    int owner;               /* the kernel whose body declares it; -1 module scope */
} sim_var;

typedef struct sim_kernel_code {
    char name[SIM_NAME];
    sim_insn *insn;
    int ninsn;
    sim_init *init;          /* registers filled when a warp starts */
    int ninit;
    int nregs;
    int nparams;
    size_t param_off[SIM_MAX_PARAMS], param_size[SIM_MAX_PARAMS], param_bytes;
    size_t smem_static;      /* the shared variables it can name, laid out */
    size_t dyn_base;         /* where dynamic shared memory starts */
    size_t local_bytes;      /* the local depot, per thread */
    int max_threads;
} sim_kernel_code;

struct sim_module {
    sim_kernel_code *k;
    int nk;
    sim_var *vars;
    int nvars;
    char *names;             /* opcode texts, for messages */
    size_t names_len, names_cap;
};

/* An operand as written, every name already a register index. */
enum sim_operand_kind { SK_REG, SK_VEC, SK_ADDR, SK_PAIR, SK_LABEL };
typedef struct sim_operand {
    int kind;
    int n;                   /* registers in reg[] */
    int32_t reg[4];          /* REG: [0]; VEC: n; ADDR: [0] the base; PAIR: [0]|[1] */
    int64_t off;             /* ADDR: the offset; LABEL: the label's number */
} sim_operand;

/* sim_decode.c: decode the statement `op` (the opcode with its modifiers,
 * e.g. "ld.global.nc.v4.f32") with operands o[0..n) into *in (guard, line
 * and text are the caller's). An opcode, modifier or operand form it does
 * not know makes the instruction SO_UNSUPPORTED: it stops a run only if it
 * is executed. */
void sim_decode_op(const char *op, const sim_operand *o, int n, sim_insn *in);

/* A mnemonic's text kept for messages: its offset in m->names. */
uint32_t sim_keep_name(sim_module *m, const char *s);

/* sim_parse.c: the whole module. Returns 0, or -1 with err filled. */
int sim_parse_module(sim_module *m, const char *ptx, char *err, size_t len);

#endif
