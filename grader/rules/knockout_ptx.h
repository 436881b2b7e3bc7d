/* knockout_ptx.h: the knock-out's working copy of an instruction, made
 * from the PTX reader's statements (ptx.h), and written back, for
 * knockout.c and knockout_staged.c (internal).
 *
 * The rewrite reads PTX only through ptx_read: a line may hold several
 * instructions (inline assembly), a braced block its own registers and
 * guarded branches; every instruction is one statement. An `insn` is one
 * such statement as text the rewrite can change operand by operand. */
#ifndef GRADER_KNOCKOUT_PTX_H
#define GRADER_KNOCKOUT_PTX_H

#include <stddef.h>
#include "ptx.h"

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

/* The working copy of a read instruction: guard ("@!%p1"), opcode,
 * operands by their text (empty ones left out, at most KO_MAX_OPS, each
 * cut to KO_OP_LEN - 1 characters). */
void insn_from(const ptx_insn *pi, insn *in);
/* The first statement of `line`, when it is an instruction ending in ';'
 * whose opcode begins with a..z: 1 and *in; else 0. A thin wrapper over
 * ptx_read, for callers that hold one instruction's text. */
int parse_insn(const char *line, insn *in);
/* Statement `s` written as one line of the result: indented by a tab
 * inside a scope, as NVRTC writes it. */
void emit_stmt(sbuf *b, const ptx_stmt *s);
/* Write `in` back as one line. */
void emit_insn(sbuf *b, const insn *in);
int starts(const char *s, const char *prefix);

/* Registers named in an operand ("{%f1, %f2}", "%f1", "[%rd2+8]"), at most
 * 4. Returns how many. */
int operand_regs(const char *o, char regs[4][KO_REG_LEN]);
/* "[%rd5+8]" -> reg "%rd5", rest "+8". 0 when the address is no register. */
int split_address(const char *a, char *reg, char *rest);

/* How many names a .reg statement declares (".reg .b32 %r<5>, %q<3>;": 2);
 * 0 for any other statement. */
int reg_names(const ptx_stmt *s);
/* Name v of a .reg statement, when it is a range: ".reg .f32 %f<111>;" ->
 * type "f32", prefix "%f", count 111. 0 when it is no range ("%a", "p"). */
int reg_decl_of(const ptx_stmt *s, int v, char *type, char *prefix, int *count);
/* A load from device memory ("ld.global...", "ld.volatile.global...",
 * "ld.relaxed.gpu.global..."), a store to shared memory ("st.shared...",
 * "st.volatile.shared..."). */
int is_global_load(const char *op);
int is_shared_store(const char *op);
/* Does the instruction write its first operand? (st, cp, bar, ... do not) */
int writes_operand0(const char *op);

#endif
