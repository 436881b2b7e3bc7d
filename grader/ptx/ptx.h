/* ptx.h: PTX text read once into a list of statements; the one PTX reader
 * of the grader (rules/, the knock-out, the diagnoses and the simulator
 * all read PTX through it).
 *
 * Invariants:
 *   - A statement ends at ';' (wherever it stands outside a string or a
 *     comment), at a scope brace, or after a label's ':'; never at a
 *     line's end, so an inline-assembly string of several instructions on
 *     one line ("mbarrier.expect_tx...; cp.async.bulk...;") gives one
 *     statement each. Exceptions, as ptxas reads them: .version, .target,
 *     .address_size, .file, .loc and the byte lists of a .section end at
 *     their line's end, and so does stray text that cannot begin a
 *     statement (a string, a number, a ':'); an .entry/.func header ends
 *     at its body's '{' (or at ';' for a prototype).
 *   - Comments ("//" to the line's end, "/" "*" to "*" "/") are skipped
 *     everywhere except inside a string ("..."), and a ';' or brace inside a
 *     string or a comment ends nothing. A string ends at its line's end
 *     (PTX's strings do not span lines), and so does a statement holding
 *     a string left open there: nothing after it hides in it.
 *   - A '{' where a statement begins opens a scope, '}' there closes it;
 *     each is a statement of its own (PS_OPEN, PS_CLOSE). Inside a
 *     statement, braces are a vector operand or an initializer. Every
 *     statement records its scope; a register, a predicate or a label
 *     declared inside braces belongs to that scope (ptx_find_reg looks
 *     outwards from a statement, as ptxas does).
 *   - Every instruction carries the last .loc before it (file, line,
 *     column; 0 when none), and its guard predicate ("@%p1", "@!%p1",
 *     "@p" of a predicate declared in braces).
 *   - Everything is decoded once, by ptx_read; the structures below are
 *     read-only views owned by the ptx_prog, freed with it. Strings are
 *     NUL-terminated copies, never pointers into the caller's text.
 *   - The reader never refuses text: what it does not know is kept as a
 *     statement of kind PS_DIRECTIVE/PD_OTHER or an operand PO_OTHER, with
 *     its text, so writing the list back (ptx_stmt_text) gives PTX that
 *     assembles when the input did.
 *
 * Error rule (ptx/): a call returns a value or NULL; ptx_read returns NULL
 * only when memory runs out. Nothing here prints or exits.
 *
 * Includes: nothing of the grader. It sits above core/ and below rules/:
 * every layer from rules/ up may include it. */
#ifndef GRADER_PTX_H
#define GRADER_PTX_H

#include <stddef.h>

/* ---- what a statement is ------------------------------------------------ */

enum ptx_stmt_kind {
    PS_INSN,            /* an instruction: "@%p1 ld.global.f32 %f1, [%rd2+4];" */
    PS_LABEL,           /* "$L__BB0_2:" */
    PS_DIRECTIVE,       /* ".reg .b32 %r<5>;", ".entry k(...)", ".loc 1 10 3", ... */
    PS_OPEN,            /* '{': a scope begins (a function body, a block) */
    PS_CLOSE            /* '}': the scope ends */
};

enum ptx_operand_kind {
    PO_REG,             /* "%r1", "%tid.x", "p" (a named predicate), "!%p1" (neg) */
    PO_IMM,             /* an integer: "-1", "0x7f", "017", "0b101", "4U" */
    PO_FIMM,            /* a float: "0f3F800000", "0d3FF0000000000000", "1.5" */
    PO_VEC,             /* "{%f1, %f2, _}": elem[] */
    PO_PAIR,            /* "%p1|%p2" (setp's two results): elem[0], elem[1] */
    PO_ADDR,            /* "[%rd1+8]", "[sym+4]", "[%r2]", "[64]", "[tmap, {%r1, %r2}]" */
    PO_LIST,            /* "(param0, param1)" of a call: elem[] */
    PO_SYM,             /* a variable or function name: "smem", "vprintf" */
    PO_LABEL,           /* a symbol that names a label of the same function */
    PO_SINK,            /* "_" */
    PO_OTHER            /* anything else, kept as text */
};

/* For PO_ADDR: what the address is based on. */
enum ptx_base_kind {
    PB_REG,             /* [%rd1], [%rd1+8] */
    PB_SYM,             /* [smem], [smem+16] */
    PB_IMM              /* [64]: an absolute address */
};

typedef struct ptx_operand {
    enum ptx_operand_kind kind;
    const char *text;           /* as written, trimmed: "[%rd1+8]" */
    const char *name;           /* PO_REG: "%r1" (no '!'); PO_SYM/PO_LABEL: the name;
                                   PO_ADDR: the base register or symbol (NULL for PB_IMM
                                   and for a tensor address, whose base is elem[0]) */
    int neg;                    /* PO_REG: written "!%p1" */
    long long imm;              /* PO_IMM: the value; PO_ADDR: the offset, or the address
                                   for PB_IMM ("[%rd1+-8]" and "[%rd1-8]": -8) */
    double fimm;                /* PO_FIMM: the value */
    unsigned long long fbits;   /* PO_FIMM: the raw bits of 0f/0d forms (0 for "1.5") */
    int fwidth;                 /* PO_FIMM: 32 for 0f, 64 for 0d and decimal forms */
    enum ptx_base_kind base;    /* PO_ADDR */
    int nelem;                  /* PO_VEC, PO_PAIR, PO_LIST; PO_ADDR of a tensor or
                                   texture: its parts, "[tmap, {..}]" -> tmap, {..} */
    const struct ptx_operand *elem;
} ptx_operand;

#define PTX_MAX_PARTS 16

typedef struct ptx_insn {
    const char *pred;           /* the guard's register, "%p1" or "p"; NULL: none */
    int pred_neg;               /* "@!%p1" */
    const char *opcode;         /* whole: "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes" */
    int nparts;                 /* the opcode split at '.': part[0] "cp", part[1] "async", ... */
    const char *part[PTX_MAX_PARTS]; /* ("shared::cluster" is one part); past 16 the last
                                   part holds the rest, dots and all */
    int nops;
    const ptx_operand *op;
    /* The .loc in force: file number, line, column; 0 when none came before. */
    int loc_file, loc_line, loc_col;
} ptx_insn;

enum ptx_dir_kind {
    PD_OTHER,           /* kept as text: .pragma, .maxntid, .section's bytes, ... */
    PD_VERSION,         /* .version 8.0 */
    PD_TARGET,          /* .target sm_90 */
    PD_ADDRESS_SIZE,    /* .address_size 64 */
    PD_FILE,            /* .file 1 "k.cu": loc_file 1, path "k.cu" */
    PD_LOC,             /* .loc 1 10 3: loc_file, loc_line, loc_col */
    PD_VAR,             /* a declaration: .reg, .shared, .global, .const, .local, .param, .tex */
    PD_ENTRY,           /* .entry name(params) */
    PD_FUNC             /* .func (rets) name(params), or a prototype (.extern .func ...;) */
};

/* One name a declaration introduces. */
typedef struct ptx_var {
    const char *name;           /* "%r" of "%r<5>"; "smem"; "k_param_0" */
    int count;                  /* "%r<5>": 5 (names %r0..%r4); -1: a single name */
    int ndims;                  /* "a[4][8]": 2 */
    long long dim[4];           /* "a[4][8]": 4, 8; "a[]": -1 */
    long long bytes;            /* elem_bytes * vec * every dim; -1 when a dim is open
                                   ("extern __shared__"); 0 for an unknown type */
    const char *init;           /* the text after '=', or NULL */
} ptx_var;

/* A declaration: ".shared .align 16 .b8 buf[4096]", ".reg .pred p". */
typedef struct ptx_decl {
    const char *space;          /* "reg", "shared", "global", "const", "local", "param", "tex" */
    const char *type;           /* "b8", "f32", "pred", "u64" ...; NULL when none */
    int elem_bytes;             /* the type's size (pred 1); 0 unknown */
    int vec;                    /* .v2/.v4/.v8: 2, 4, 8; else 1 */
    int align;                  /* .align N; 0 when none */
    int is_extern, is_visible, is_weak, is_ptr;  /* .extern, .visible, .weak, .ptr */
    const char *attribute;      /* ".attribute(.managed)": ".managed"; NULL */
    int nvars;
    const ptx_var *var;
} ptx_decl;

typedef struct ptx_dir {
    enum ptx_dir_kind kind;
    const char *name;           /* its first word: ".reg", ".loc", ".pragma", ".visible"
                                   (of ".visible .entry k(...)": kind says PD_ENTRY) */
    const char *args;           /* the rest of the statement's text, trimmed: "8.8" of
                                   .version, "sm_90" of .target, ... */
    int loc_file, loc_line, loc_col;    /* PD_LOC; PD_FILE: loc_file */
    const char *path;           /* PD_FILE: the file's name, unquoted */
    ptx_decl decl;              /* PD_VAR */
    /* PD_ENTRY, PD_FUNC: */
    const char *func;           /* the function's name */
    int nparams, nrets;
    const ptx_decl *params;     /* each one .param (or .reg) declaration */
    const ptx_decl *rets;       /* .func's return parameters */
    int is_extern, is_visible, is_weak;
    int has_body;               /* a '{' follows (0: a prototype, ';') */
} ptx_dir;

typedef struct ptx_stmt {
    enum ptx_stmt_kind kind;
    int line;                   /* the line of the input where it begins, from 1 */
    int scope;                  /* the scope it is in: 0 the file; PS_OPEN opens a new
                                   one and is itself in the outer; PS_CLOSE is in the inner */
    int func;                   /* the PS_DIRECTIVE statement (.entry/.func) whose body
                                   holds it, -1 outside any */
    const char *text;           /* its text without comments, trimmed, without ';';
                                   a line's end inside it is a blank */
    int semi;                   /* it ended with ';' */
    ptx_insn insn;              /* PS_INSN */
    ptx_dir dir;                /* PS_DIRECTIVE */
    const char *label;          /* PS_LABEL: the name without ':' */
} ptx_stmt;

typedef struct ptx_scope {
    int parent;                 /* -1 for scope 0, the file */
    int open, close;            /* its PS_OPEN and PS_CLOSE statements (-1: none, or
                                   not closed) */
    int func;                   /* as ptx_stmt.func */
} ptx_scope;

typedef struct ptx_prog {
    int n;
    const ptx_stmt *stmt;
    int nscopes;
    const ptx_scope *scopes;
    /* Private: the memory, and per scope the .reg declarations and the
     * labels it holds, so a lookup costs the depth of its scope, not the
     * size of the program (a hostile file of 20000 braced blocks). */
    struct ptx_arena *arena;
    const int *first_reg, *first_label; /* per scope: a statement index, or -1 */
    const int *next_in_scope;   /* per statement: the next of its kind in its scope, or -1 */
} ptx_prog;

/* ---- reading ------------------------------------------------------------- */

/* Read `text` (NUL-terminated PTX, as NVRTC writes it or as a student's
 * inline assembly makes it). NULL only when memory runs out; free with
 * ptx_free. */
ptx_prog *ptx_read(const char *text);
void ptx_free(ptx_prog *p);

/* ---- asking about instructions ------------------------------------------ */

/* Does the opcode begin with the parts of `prefix` ("cp.async.bulk",
 * "ld", "mbarrier.try_wait")? Whole parts only: "cp.async" is a prefix of
 * "cp.async.ca.shared.global", "cp.as" is not. */
int ptx_insn_is(const ptx_insn *in, const char *prefix);
/* Is `part` ("global", "shared::cluster", "v4") one of the opcode's parts
 * after the first? */
int ptx_insn_has(const ptx_insn *in, const char *part);
/* Is any opcode part one that begins with `start` ("shared" matches
 * "shared::cta" and "shared")? */
int ptx_insn_has_prefix(const ptx_insn *in, const char *start);

/* Registers an operand names, through vectors, pairs, lists and
 * addresses, in order: at most `max` into out[]; returns how many there are. */
int ptx_operand_regs(const ptx_operand *o, const char **out, int max);

/* The declaration of register `reg` ("%r12", "p") visible from statement
 * `at`: the innermost scope outwards, a "<N>" range by prefix and number.
 * NULL when none; *var (if not NULL) gets the name's entry. */
const ptx_decl *ptx_find_reg(const ptx_prog *p, int at, const char *reg,
                             const ptx_var **var);

/* The statement index of the label `name` visible from statement `at` (the
 * innermost scope outwards, within the function); -1 when none. */
int ptx_find_label(const ptx_prog *p, int at, const char *name);

/* The .entry statement of kernel `name`: its header, not a prototype
 * (.extern, or ended by ';'); -1 when the program has none. A comment, a
 * string or a call that only names it does not count. */
int ptx_find_entry(const ptx_prog *p, const char *name);

/* ---- writing back --------------------------------------------------------- */

/* Statement `s` as PTX, one line, without a newline: its text as read with
 * its ';' ("{" and "}" for scopes). snprintf's contract: returns the
 * length it needs, writes at most len - 1 characters and a NUL. */
int ptx_stmt_text(const ptx_stmt *s, char *out, size_t len);
/* An instruction written from its parts: "[@[!]pred ]opcode op, op, ...;",
 * each operand from its `text`. So a copy of an instruction whose operand
 * texts (or opcode, or guard) were replaced writes the changed one. Same
 * contract as ptx_stmt_text. */
int ptx_insn_text(const ptx_insn *in, char *out, size_t len);

#endif
