/* buffers.h: an instance's buffers on a device, and what grading checks on
 * them after a launch. Backend-independent: it only uses device_ops, so the
 * CPU tests run exactly this code.
 *
 * Every buffer, input or output, sits between two guard regions of
 * GUARD_BYTES holding GUARD_BYTE, written once when it is allocated. Before
 * every launch the outputs are filled with the poison (all-ones bytes: a
 * NaN for floats, -1 for ints), so a value the kernel did not write, or
 * did not write this time, is seen. After a launch: the guards must be
 * unchanged (no write out of bounds), the inputs must still hold what the
 * grader uploaded, and the outputs are read back for verify.c. */
#ifndef GRADER_BUFFERS_H
#define GRADER_BUFFERS_H

#include "device.h"

#define GUARD_BYTES (64 * 1024)
#define GUARD_BYTE 0xA5
#define POISON_BYTE 0xFF

typedef struct dev_array {
    void *base;            /* what the device allocated: guard, data, guard */
    void *ptr;             /* the data: what the kernel gets */
    size_t bytes;
    int owned;             /* 0: an input borrowed from another set */
} dev_array;

/* One instance's buffers on the device, indexed like I->bufs. */
typedef struct dev_set {
    dev_array a[MAX_BUFS];
} dev_set;

/* Allocate every buffer of I with its guards and upload the inputs. */
void dev_set_upload(const device_ops *D, dev_set *d, const instance *I);
/* Allocate I's outputs; borrow the inputs of `from` (same instance), so
 * several kernel versions read one copy of the inputs. */
void dev_set_share(const device_ops *D, dev_set *d, const dev_set *from, const instance *I);
/* Free what d owns. */
void dev_set_free(const device_ops *D, dev_set *d);

/* Fill every output with the poison; the guards are left as they are. */
void dev_set_poison(const device_ops *D, dev_set *d, const instance *I);

/* The kernel's arguments in order: argp[i] points at argument i's value
 * (the device address of a buffer, or I's scalar). */
void dev_set_args(dev_set *d, const instance *I, void *argp[MAX_ARGS]);

/* Guard bytes that changed around any buffer: how many, the first
 * buffer where they did, and where, in bytes from that buffer's first
 * element (negative: before it). */
typedef struct guard_damage {
    size_t bytes;
    int buf;
    long offset;
} guard_damage;
guard_damage dev_set_guards(const device_ops *D, const dev_set *d, const instance *I);

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
