/* buffers.h: an instance's buffers on a device, and what grading checks on
 * them after a launch. Backend-independent: it only uses device_ops, so the
 * CPU tests run exactly this code.
 *
 * No byte a kernel can reach goes unchecked. A kernel can reach, without
 * faulting, every byte of the memory its pointers lie in, up to where the
 * driver's mapping ends: CUDA hands out memory of 2 MiB and more in whole
 * 2 MiB pages, so a buffer's last page runs on past its end, mapped and
 * owned by nothing else (H200, 2026-11-29: grader/calibration/
 * h200-2026-11-29/; a replay cache kept there passed at 7.17x). So every
 * allocation the grader makes for a kernel is a whole number of
 * ALLOC_GRAIN bytes (the largest granularity a driver uses: nothing of a
 * page is left over), the arrays are carved out of it, and every byte of it
 * that is not an array holds GUARD_BYTE: at least GUARD_BYTES before each
 * array and after it, and the rest of the allocation after the last one.
 * Each array owns a region [base, end): its guard, its data, and every
 * guard byte up to the next region, so the regions of a set tile its
 * allocation and checking every region checks every byte.
 *
 * Before every launch the outputs are filled with the poison (all-ones
 * bytes: a NaN for floats, -1 for ints), so a value the kernel did not
 * write, or did not write this time, is seen. After a launch: the guards
 * must be unchanged (no write out of bounds, nothing kept beside the
 * arrays), the inputs must still hold what the grader uploaded, and the
 * outputs are read back for verify.c. */
#ifndef GRADER_BUFFERS_H
#define GRADER_BUFFERS_H

#include "device.h"

#define GUARD_BYTES (64 * 1024)
#define GUARD_BYTE 0xA5
#define POISON_BYTE 0xFF
/* Every allocation is a multiple of this: the 2 MiB page of the GPUs the
 * course runs on (cuMemGetAllocationGranularity on the H200, 2026-11-29),
 * so an allocation ends where the driver's mapping ends. */
#define ALLOC_GRAIN ((size_t)2 << 20)
/* An array's region (guard, data, guard) is rounded up to this: every
 * array starts 64 KiB-aligned, as a fresh allocation plus a guard did. */
#define REGION_ALIGN ((size_t)64 * 1024)

typedef struct dev_array {
    void *base;            /* the region's first byte: the guard before the data */
    void *ptr;             /* the data: what the kernel gets */
    size_t bytes;
    void *end;             /* one past the region's last byte: the guard after
                              the data runs to here */
    int owned;             /* 0: an input another version's set checks too */
} dev_array;

/* One instance's buffers on the device, indexed like I->bufs. */
typedef struct dev_set {
    dev_array a[MAX_BUFS];
    void *alloc;           /* the allocation dev_set_free releases; NULL: the set is
                              carved out of one another set holds */
} dev_set;

/* Allocate every buffer of I with its guards, in one allocation of whole
 * ALLOC_GRAINs, and upload the inputs. */
void dev_set_upload(const device_ops *D, dev_set *d, const instance *I);

/* `nsets` instances of one shape (buffers of the same sizes) in ONE
 * allocation, each with its inputs once and `nvers` copies of its outputs
 * (one per kernel version): d[v * nsets + s] is version v's set s, whose
 * inputs are I[s]'s, uploaded, and shared by every version (owned by
 * version 0's set). Set s lies s * half bytes after set 0, every array at
 * the same place within it, so one constant moves any address of a set to
 * the same element of the next (the knock-out, knockout.h). d[0] holds the
 * allocation. Returns half. */
size_t dev_sets_carve(const device_ops *D, dev_set *d, const instance *I, int nsets,
                      int nvers);

/* Free what d holds (nothing, for a set carved out of another's). */
void dev_set_free(const device_ops *D, dev_set *d);

/* Fill every output with the poison; the guards are left as they are. */
void dev_set_poison(const device_ops *D, dev_set *d, const instance *I);

/* The kernel's arguments in order: argp[i] points at argument i's value
 * (the device address of a buffer, or I's scalar). */
void dev_set_args(dev_set *d, const instance *I, void *argp[MAX_ARGS]);

/* Guard bytes that changed in the regions of d's arrays (every array, or
 * with `owned_only` those d owns): how many, the first buffer where they
 * did, and where, in bytes from that buffer's first element (negative:
 * before it; at or past its byte count: after it, up to the end of its
 * region). */
typedef struct guard_damage {
    size_t bytes;
    int buf;
    long offset;
} guard_damage;
guard_damage dev_set_guards(const device_ops *D, const dev_set *d, const instance *I);
guard_damage dev_set_owned_guards(const device_ops *D, const dev_set *d, const instance *I);

/* Inputs that no longer hold what was uploaded: how many elements, the
 * first buffer that changed, its first changed element, what it held and
 * what it holds now. */
typedef struct input_change {
    size_t elems;
    int buf;
    size_t first;
    double was, now;
} input_change;
input_change dev_set_inputs_changed(const device_ops *D, const dev_set *d, const instance *I);

/* Copy every output into I's host arrays, for verify_outputs. */
void dev_set_download(const device_ops *D, const dev_set *d, instance *I);

#endif
