/* instance.c: the inst_* calls that exercise specs use to describe a problem. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "instance.h"

size_t elem_size(enum elem_type t)
{
    return t == ELEM_F64 ? 8 : 4;
}

const char *elem_name(enum elem_type t)
{
    return t == ELEM_F64 ? "double" : t == ELEM_F32 ? "float" : "int";
}

void instance_init(instance *I, uint64_t seed)
{
    memset(I, 0, sizeof *I);
    I->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
    I->grid[0] = I->grid[1] = I->grid[2] = 1;
    I->block[0] = I->block[1] = I->block[2] = 1;
}

void instance_free(instance *I)
{
    for (int b = 0; b < I->nbufs; b++) {
        free(I->bufs[b].host);
        free(I->bufs[b].want);
    }
    for (int c = 0; c < I->nconsts; c++)
        free(I->consts[c].data);
    memset(I, 0, sizeof *I);
}

static void spec_error(instance *I, const char *what)
{
    if (!I->error[0])
        snprintf(I->error, sizeof I->error, "%s", what);
}

static arg *next_arg(instance *I)
{
    if (I->nargs >= MAX_ARGS) {
        spec_error(I, "more kernel arguments than MAX_ARGS");
        static arg sink;
        return &sink;
    }
    return &I->args[I->nargs++];
}

static buffer *next_buf(instance *I, size_t count, enum elem_type t, int out)
{
    static buffer sink;
    if (I->nbufs >= MAX_BUFS) {
        spec_error(I, "more buffers than MAX_BUFS");
        /* build() goes on to fill what it got: scratch memory, shared by
         * every call past the limit, so it ends with this message, not a
         * crash. */
        static size_t cap;
        size_t bytes = (count ? count : 1) * sizeof(double);
        if (bytes > cap) {
            void *p = realloc(sink.host, bytes);
            if (p)
                sink.host = p, cap = bytes;
        }
        sink.want = sink.host;
        return &sink;
    }
    buffer *b = &I->bufs[I->nbufs];
    b->type = t;
    b->count = count;
    b->is_output = out;
    b->host = calloc(count ? count : 1, elem_size(t));
    if (out)
        b->want = calloc(count ? count : 1, sizeof(double));
    if (!b->host || (out && !b->want)) {
        spec_error(I, "out of host memory for a buffer");
        return &sink;
    }
    arg *a = next_arg(I);
    a->kind = out ? ARG_OUTPUT : ARG_INPUT;
    a->buf = I->nbufs++;
    return b;
}

void *inst_input(instance *I, size_t count, enum elem_type t)
{
    return next_buf(I, count, t, 0)->host;
}

double *inst_output(instance *I, size_t count, enum elem_type t)
{
    return next_buf(I, count, t, 1)->want;
}

void inst_arg_int(instance *I, int v)
{
    arg *a = next_arg(I);
    a->kind = ARG_INT;
    a->i = v;
}

void inst_arg_float(instance *I, float v)
{
    arg *a = next_arg(I);
    a->kind = ARG_FLOAT;
    a->f = v;
}

void inst_arg_double(instance *I, double v)
{
    arg *a = next_arg(I);
    a->kind = ARG_DOUBLE;
    a->d = v;
}

void inst_launch(instance *I, unsigned gx, unsigned gy, unsigned gz,
                 unsigned bx, unsigned by, unsigned bz, size_t dyn_smem)
{
    I->grid[0] = gx, I->grid[1] = gy, I->grid[2] = gz;
    I->block[0] = bx, I->block[1] = by, I->block[2] = bz;
    I->dyn_smem = dyn_smem;
}

void inst_bytes_moved(instance *I, double bytes)
{
    I->bytes_moved = bytes;
}

void inst_note(instance *I, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(I->note, sizeof I->note, fmt, ap);
    va_end(ap);
}

void inst_constant(instance *I, const char *symbol, const void *data, size_t bytes)
{
    if (I->nconsts >= MAX_CONSTS) {
        spec_error(I, "more __constant__ variables than MAX_CONSTS");
        return;
    }
    if (!symbol || strlen(symbol) >= sizeof I->consts[0].symbol || !bytes ||
        bytes > MAX_CONST_BYTES) {
        spec_error(I, "inst_constant: bad symbol name or size (1 byte .. 64 KB)");
        return;
    }
    constant *c = &I->consts[I->nconsts];
    c->data = malloc(bytes);
    if (!c->data) {
        spec_error(I, "out of host memory for a constant");
        return;
    }
    memcpy(c->data, data, bytes);
    c->bytes = bytes;
    snprintf(c->symbol, sizeof c->symbol, "%s", symbol);
    I->nconsts++;
}

/* splitmix64: tiny, fast and good enough for test data; the same seed gives
 * the same inputs on every machine, so a printed seed replays a failure. */
uint32_t inst_u32(instance *I)
{
    uint64_t z = (I->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

double inst_uniform(instance *I, double lo, double hi)
{
    return lo + (hi - lo) * (inst_u32(I) / 4294967296.0);
}

int instance_build(instance *I, const exercise *ex, size_t size,
                   const int *knobs, const device_facts *dev, uint64_t seed)
{
    instance_init(I, seed);
    ex->build(I, size, knobs, dev);
    if (!I->error[0]) {
        int outs = 0;
        for (int b = 0; b < I->nbufs; b++)
            outs += I->bufs[b].is_output;
        if (!outs)
            spec_error(I, "build() declared no output buffer");
        for (int d = 0; d < 3; d++)
            if (!I->grid[d] || !I->block[d])
                spec_error(I, "build() set a zero grid or block dimension");
    }
    return I->error[0] ? -1 : 0;
}
