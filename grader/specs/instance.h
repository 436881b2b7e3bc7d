/* instance.h: one problem instance, as built by an exercise's build(). The
 * host side only: buffers.c puts it on the device. */
#ifndef GRADER_INSTANCE_H
#define GRADER_INSTANCE_H

#include <stddef.h>
#include <stdint.h>
#include "spec.h"

#define MAX_ARGS 12
#define MAX_BUFS 8
#define MAX_CONSTS 4
#define MAX_CONST_BYTES (64 * 1024)

enum arg_kind { ARG_INPUT, ARG_OUTPUT, ARG_INT, ARG_FLOAT, ARG_DOUBLE };

typedef struct buffer {
    enum elem_type type;
    size_t count;
    void *host;            /* inputs: the data; outputs: read back after a launch */
    double *want;          /* outputs only: expected values */
    int is_output;
} buffer;

/* A __constant__ variable of the kernel file and what it must hold. */
typedef struct constant {
    char symbol[64];
    void *data;
    size_t bytes;
} constant;

typedef struct arg {
    enum arg_kind kind;
    int buf;               /* index into bufs, for ARG_INPUT / ARG_OUTPUT */
    int i;
    float f;
    double d;
} arg;

struct instance {
    uint64_t rng;
    int nargs, nbufs;
    arg args[MAX_ARGS];
    buffer bufs[MAX_BUFS];
    constant consts[MAX_CONSTS];
    int nconsts;
    unsigned grid[3], block[3];
    size_t dyn_smem;
    double bytes_moved;
    char note[448];        /* inst_note: shown with the mismatches, "" when none */
    char error[256];       /* set when build() misuses the API (a spec bug) */
};

size_t elem_size(enum elem_type t);
const char *elem_name(enum elem_type t);

/* Fresh instance seeded with `seed`; free with instance_free. */
void instance_init(instance *I, uint64_t seed);
void instance_free(instance *I);

/* Build an exercise's instance of `size` and check it is well formed. Returns
 * 0, or -1 with I->error set. */
int instance_build(instance *I, const exercise *ex, size_t size,
                   const int *knobs, const device_facts *dev, uint64_t seed);

#endif
