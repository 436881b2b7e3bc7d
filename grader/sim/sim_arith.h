/* sim_arith.h: PTX arithmetic that is more than one C operator, on register
 * bits (sim_value.h), exactly as the PTX ISA manual defines it: the high
 * and wide halves of products, integer division (x / 0 is all ones, as on
 * the GPU), comparisons with their unordered forms, conversions with their
 * rounding and saturation, and what an atomic writes. Pure functions. */
#ifndef GRADER_SIM_ARITH_H
#define GRADER_SIM_ARITH_H

#include <stdint.h>
#include "sim_insn.h"

/* The high half of a * b, both of `size` bytes, signed or not. */
uint64_t sim_mul_hi(uint64_t a, uint64_t b, int size, int is_signed);
/* a * b of `size` bytes into twice the size (mul.wide). */
uint64_t sim_wide(uint64_t a, uint64_t b, int size, int is_signed);
/* a / b, or a % b when rem; x / 0 gives all ones, INT_MIN / -1 wraps. */
uint64_t sim_int_div(uint64_t a, uint64_t b, int size, int is_signed, int rem);
/* setp's comparison `cmp` (enum sim_cmp) of type t. */
int sim_compare(int cmp, int t, uint64_t x, uint64_t y);
/* cvt as `in` says (its type, stype, rounding mod, .sat, .ftz); f16 is the
 * caller's to refuse. */
uint64_t sim_cvt(const sim_insn *in, uint64_t x);
/* What atom/red `in` writes over `old` with operands b (and c for cas). */
uint64_t sim_atom_value(const sim_insn *in, uint64_t old, uint64_t b, uint64_t c);

#endif
