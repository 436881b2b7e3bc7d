/* knockout_ptx.h: reading and writing PTX lines, for knockout.c and
 * knockout_staged.c (internal).
 *
 * NVRTC writes one instruction per line, "\t[@[!]%p] opcode a, b, ...;", and
 * declares registers as "\t.reg .f32 \t%f<111>;": a prefix and a count. */
#ifndef GRADER_KNOCKOUT_PTX_H
#define GRADER_KNOCKOUT_PTX_H

#include <stddef.h>

#define KO_MAX_OPS 8
#define KO_OP_LEN 128
#define KO_REG_LEN 32

/* One instruction line, split. */
typedef struct insn {
    char pred[32];                    /* "@%p1", "@!%p3" or "" */
    char op[96];                      /* "cp.async.ca.shared.global" */
    char ops[KO_MAX_OPS][KO_OP_LEN];  /* operands, braces kept: "{%f1, %f2}" */
    int nops;
} insn;

/* A growing string; aborts when memory runs out. */
typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;
void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Split one line; 0 when it is no instruction (directive, label, brace). */
int parse_insn(const char *line, insn *in);
/* Write `in` back as one line. */
void emit_insn(sbuf *b, const insn *in);
int starts(const char *s, const char *prefix);

/* Registers named in an operand ("{%f1, %f2}", "%f1", "[%rd2+8]"), at most
 * 4. Returns how many. */
int operand_regs(const char *o, char regs[4][KO_REG_LEN]);
/* "[%rd5+8]" -> reg "%rd5", rest "+8". 0 when the address is no register. */
int split_address(const char *a, char *reg, char *rest);

/* "\t.reg .f32 \t%f<111>;" -> type "f32", prefix "%f", count 111. 0 when
 * the line is no such declaration. */
int parse_reg_decl(const char *line, char *type, char *prefix, int *count);
/* A load from device memory ("ld.global...", "ld.volatile.global...",
 * "ld.relaxed.gpu.global..."), a store to shared memory ("st.shared...",
 * "st.volatile.shared..."). */
int is_global_load(const char *op);
int is_shared_store(const char *op);
/* Does the instruction write its first operand? (st, cp, bar, ... do not) */
int writes_operand0(const char *op);

#endif
