/* ptx_rules.h: what a kernel's PTX may declare, and how much it declares.
 *
 * A kernel must compute its answer on every launch. Device memory that
 * outlives a launch (a __device__ or __managed__ variable, a function-local
 * static) would let it compute once and replay the answer afterwards, so a
 * student's PTX may not declare a device-global variable that its code can
 * write. "Can write" is read from the PTX itself, inline assembly included: a
 * .global variable is writable when its name appears anywhere but in its own
 * declaration and in the address of a load (ld); a store, an atomic, or an
 * initializer that holds its address (generic(x)) count. Where its address is
 * copied into a register (mov, cvta), that register is followed, through
 * further copies (mov, cvta, add, sub) within its function: it may only be
 * the address of a load, or an argument of vprintf or __assertfail in
 * NVRTC's call sequence (a block holding only that call; neither function
 * defined in the file), which only read it. Anything else it reaches (a
 * store through it, a store of it, another call, another instruction) makes
 * the variable writable. That lets through what cannot keep state: the
 * constants CCCL and cooperative_groups declare, read-only tables, and the
 * strings printf and assert leave in the PTX ($str, $str$1, ...), while a
 * store to one of them is still refused. __constant__ data (.const) cannot
 * be written by a kernel at all. */
#ifndef GRADER_PTX_RULES_H
#define GRADER_PTX_RULES_H

#include <stddef.h>

/* 0 when `ptx` declares no device-global variable its code can write and
 * allocates nothing on the device heap; else -1, with a message in `msg`
 * that names the first such variable, contains "__device__ variable" and
 * says why the rule exists. */
int ptx_check_device_globals(const char *ptx, char *msg, size_t len);

/* Special registers that tell one launch from another, read from the
 * instructions' operands (never a comment or a string; a dead branch's
 * instruction counts, it is in the code): the clock (%clock, %clock_hi,
 * %clock64, %globaltimer, _lo, _hi), where a block or warp runs (%smid,
 * %warpid) and how many there are of them (%nsmid, %nwarpid), the grid's
 * launch number (%gridid), performance counters (%pm0-7, %pm0_64-7_64),
 * the driver's environment (%envreg0-31) and its shared-memory layout
 * (%reserved_smem_offset_*, %total_smem_size, %aggr_smem_size). Each
 * differs between a launch on the PTX simulator and one on a GPU, or
 * between two launches on a GPU (the PTX ISA's "Special Registers"), so a
 * kernel that reads one could compute only when it is timed, or only when
 * it is judged. Fine: %tid, %ntid, %ctaid, %nctaid, %laneid, %lanemask_*,
 * %dynamic_smem_size, the cluster registers (the launch itself says them).
 * Returns 0 when `ptx` reads none but those named in `allowed`
 * (space-separated, the spec's special_registers; NULL: none); else -1,
 * with a message in `msg` naming the register and its line, saying "could
 * tell a simulated launch from a real one". */
int ptx_check_special_registers(const char *ptx, const char *allowed, char *msg, size_t len);

/* Bytes of statically sized .shared and of .const data that `ptx` declares
 * (dynamic `extern __shared__` arrays count 0). */
void ptx_declared_bytes(const char *ptx, long *shared, long *constant);

/* A PTX or C++ symbol as a student wrote it: "_ZZ1kE2st" becomes "st" and
 * sets *local_in to "k" (a static variable inside k); "_ZN2ns1xE" becomes
 * "ns::x". Plain names are copied. */
void ptx_readable_name(const char *sym, size_t n, char *out, size_t len, char *local_in,
                       size_t local_len);

#endif
