/* knockout_staged.h: KNOCK_SHARED's rewrite of stores to shared memory
 * (internal to knockout.c).
 *
 * Every register whose value reaches a st.shared gets a twin that holds
 * the value it would have if every ld.global feeding it read set B: a twin
 * load follows each such load, a twin of each pure operation (mov, cvt,
 * add, selp, ...) follows it with the twins as sources, and any other
 * definition is copied into the twin. The st.shared stores the twin. The
 * original registers, and whatever the kernel computes from them, are left
 * as they were. Twins are %kot<name>, declared next to <name>'s .reg line
 * with its type; scratch registers for a vector load's unused lanes are
 * %kos<name>. */
#ifndef GRADER_KNOCKOUT_STAGED_H
#define GRADER_KNOCKOUT_STAGED_H

#include "knockout_ptx.h"

#define MAX_STAGED 2048
#define MAX_PREFIX 32

typedef struct staged {
    int n;
    char reg[MAX_STAGED][KO_REG_LEN];   /* registers whose values reach st.shared */
    int has_load[MAX_STAGED];           /* 1: an ld.global is among their sources */
    int nprefix;
    char prefix[MAX_PREFIX][KO_REG_LEN]; /* "%f", from the .reg declarations */
    char type[MAX_PREFIX][16];           /* "f32" */
} staged;

/* Find the staged registers of the program's statements. */
void staged_collect(const ptx_prog *p, staged *s);
/* Write what follows statement `st` (already written): twin declarations
 * after a .reg declaration; after an instruction (`in`, its working copy;
 * NULL for no instruction) that defines a staged register, its twin.
 * Returns 1 for a twin load. */
int staged_follow(sbuf *b, const ptx_stmt *st, const insn *in, const staged *s,
                  long long delta, int *next);
/* Write st.shared `st` storing twins where its values have them. Returns 1
 * when it stores one (the store carries loaded data). */
int staged_store(sbuf *b, insn *st, const staged *s);
/* A register's width in bits from its declaration (32 for "%r5", 64 for
 * "%rd5"); 0 when not known. */
int staged_reg_bits(const staged *s, const char *reg);

#endif
