/* ptx_internal.h: what the reader's files share (internal to ptx/).
 *
 * A program's memory is one arena: blocks that ptx_free releases at once,
 * so the decoded statements need no bookkeeping of their own. The
 * structures of ptx.h are handed out as const; the reader alone fills
 * them, through the non-const pointers here. */
#ifndef GRADER_PTX_INTERNAL_H
#define GRADER_PTX_INTERNAL_H

#include <stddef.h>
#include "ptx.h"

typedef struct ptx_arena ptx_arena;

/* Zeroed memory from the arena; NULL when memory runs out (and the arena
 * remembers it: arena_failed). */
void *arena_alloc(ptx_arena *a, size_t n);
/* A NUL-terminated copy of s[0..n). */
char *arena_strndup(ptx_arena *a, const char *s, size_t n);
ptx_arena *arena_new(void);
void arena_free(ptx_arena *a);
int arena_failed(const ptx_arena *a);

/* s[0..n) without the blanks at either end: *n shortened, the start returned. */
const char *ptx_trim(const char *s, size_t *n);
/* Where the first ch at depth 0 of (), [], {} is in s[0..n), or n. */
size_t ptx_find_top(const char *s, size_t n, char ch);

/* One operand from s[0..n) (blanks around it are allowed). */
void ptx_decode_operand(ptx_arena *a, const char *s, size_t n, ptx_operand *out);
/* An instruction statement's text into `in` (loc left as it is). */
void ptx_decode_insn(ptx_arena *a, const char *text, ptx_insn *in);
/* A directive statement's text into `d`. */
void ptx_decode_directive(ptx_arena *a, const char *text, ptx_dir *d);
/* A declaration ".shared .align 4 .b8 x[16]" from s[0..n). */
void ptx_decode_decl(ptx_arena *a, const char *s, size_t n, ptx_decl *d);

#endif
