/* buffers.c: buffers with guards, the poison, and the checks after a launch. */
#include <stdlib.h>
#include <string.h>
#include "buffers.h"
#include "child_fail.h"
#include "verify.h"

static size_t buffer_bytes(const buffer *B)
{
    return B->count * elem_size(B->type);
}

static size_t round_up(size_t x, size_t to)
{
    return (x + to - 1) / to * to;
}

/* An array's region: guard, data, guard, rounded up. */
static size_t region_bytes(size_t bytes)
{
    return round_up(2 * (size_t)GUARD_BYTES + bytes, REGION_ALIGN);
}

/* Place an array's region at `at` (its guards are filled with the whole
 * allocation); returns where the next region starts. */
static char *place(dev_array *a, char *at, size_t bytes, int owned)
{
    a->base = at;
    a->ptr = at + GUARD_BYTES;
    a->bytes = bytes;
    a->owned = owned;
    a->end = at + region_bytes(bytes);
    return a->end;
}

/* The bytes of set I's regions, with `nvers` copies of each output. */
static size_t set_bytes(const instance *I, int nvers)
{
    size_t n = 0;
    for (int b = 0; b < I->nbufs; b++)
        n += (I->bufs[b].is_output ? (size_t)nvers : 1) * region_bytes(buffer_bytes(&I->bufs[b]));
    return n;
}

size_t dev_sets_carve(const device_ops *D, dev_set *d, const instance *I, int nsets,
                      int nvers)
{
    /* Sets of one shape take the same bytes; should a spec's sets differ,
     * each still fits (the knock-out then judges nothing: same_shape). */
    size_t half = 0;
    for (int s = 0; s < nsets; s++)
        half = set_bytes(&I[s], nvers) > half ? set_bytes(&I[s], nvers) : half;
    size_t total = round_up(half * (size_t)nsets, ALLOC_GRAIN);
    memset(d, 0, sizeof *d * (size_t)(nsets * nvers));
    char *base = D->alloc(total);
    /* Every byte a guard first; the inputs and the poison overwrite theirs. */
    D->fill(base, GUARD_BYTE, total);
    d[0].alloc = base;
    for (int s = 0; s < nsets; s++) {
        char *at = base + (size_t)s * half;
        dev_array *last = NULL;
        for (int b = 0; b < I[s].nbufs; b++) {
            size_t bytes = buffer_bytes(&I[s].bufs[b]);
            for (int v = 0; v < (I[s].bufs[b].is_output ? nvers : 1); v++) {
                last = &d[v * nsets + s].a[b];
                at = place(last, at, bytes, 1);
            }
        }
        /* The set's last region runs to the next set, the very last to the
         * allocation's end: no byte outside a region. */
        if (last)
            last->end = s + 1 < nsets ? base + (size_t)(s + 1) * half : base + total;
        for (int b = 0; b < I[s].nbufs; b++) {
            if (I[s].bufs[b].is_output)
                continue;
            D->upload(d[s].a[b].ptr, I[s].bufs[b].host, d[s].a[b].bytes);
            for (int v = 1; v < nvers; v++) {
                d[v * nsets + s].a[b] = d[s].a[b];
                d[v * nsets + s].a[b].owned = 0;
            }
        }
    }
    return half;
}

void dev_set_upload(const device_ops *D, dev_set *d, const instance *I)
{
    dev_sets_carve(D, d, I, 1, 1);
}

void dev_set_free(const device_ops *D, dev_set *d)
{
    if (d->alloc)
        D->release(d->alloc);
    memset(d, 0, sizeof *d);
}

void dev_set_poison(const device_ops *D, dev_set *d, const instance *I)
{
    for (int b = 0; b < I->nbufs; b++)
        if (I->bufs[b].is_output)
            D->fill(d->a[b].ptr, POISON_BYTE, d->a[b].bytes);
}

void dev_set_args(dev_set *d, const instance *I, void *argp[MAX_ARGS])
{
    for (int a = 0; a < I->nargs; a++) {
        const arg *A = &I->args[a];
        switch (A->kind) {
        case ARG_INPUT:
        case ARG_OUTPUT: argp[a] = &d->a[A->buf].ptr; break;
        case ARG_INT: argp[a] = (void *)&A->i; break;
        case ARG_FLOAT: argp[a] = (void *)&A->f; break;
        case ARG_DOUBLE: argp[a] = (void *)&A->d; break;
        }
    }
}

/* Changed bytes of a guard run of n bytes at p, placed `at` bytes from the
 * data's first byte; the one nearest the data is kept in *nearest (before
 * the data: the last changed byte; after it: the first). The run before
 * an array is GUARD_BYTES long: read back only when it changed. */
static size_t scan_run(const device_ops *D, const char *p, size_t n, long at, int before,
                       long *nearest)
{
    static unsigned char g[GUARD_BYTES];
    size_t first = 0, changed = n ? D->unlike(p, GUARD_BYTE, n, &first) : 0;
    if (!changed)
        return 0;
    *nearest = at + (long)first;
    if (before && n <= sizeof g) {
        D->download(g, p, n);
        for (size_t i = n; i-- > first;)
            if (g[i] != GUARD_BYTE) {
                *nearest = at + (long)i;
                break;
            }
    }
    return changed;
}

static guard_damage guards(const device_ops *D, const dev_set *d, const instance *I,
                           int owned_only)
{
    guard_damage dmg = {.bytes = 0, .buf = -1, .offset = 0};
    for (int b = 0; b < I->nbufs; b++) {
        const dev_array *a = &d->a[b];
        if (!a->base || (owned_only && !a->owned))
            continue;
        const char *data = a->ptr, *after = data + a->bytes;
        long at;
        size_t n = scan_run(D, a->base, (size_t)(data - (const char *)a->base),
                            -(long)(data - (const char *)a->base), 1, &at);
        if (n && !dmg.bytes)
            dmg.buf = b, dmg.offset = at;
        dmg.bytes += n;
        n = scan_run(D, after, (size_t)((const char *)a->end - after), (long)a->bytes, 0, &at);
        if (n && !dmg.bytes)
            dmg.buf = b, dmg.offset = at;
        dmg.bytes += n;
    }
    return dmg;
}

guard_damage dev_set_guards(const device_ops *D, const dev_set *d, const instance *I)
{
    return guards(D, d, I, 0);
}

guard_damage dev_set_owned_guards(const device_ops *D, const dev_set *d, const instance *I)
{
    return guards(D, d, I, 1);
}

/* Downloaded in pieces: an input may be hundreds of MiB. */
#define CHUNK (8u << 20)

input_change dev_set_inputs_changed(const device_ops *D, const dev_set *d, const instance *I)
{
    static unsigned char *got;
    if (!got && !(got = malloc(CHUNK)))
        child_fail(OUT_INTERNAL, NULL, "The grader had no memory for the %u MiB it reads "
                   "inputs back in, so it could not check whether your kernel changed them.",
                   CHUNK >> 20);
    input_change ch = {.elems = 0, .buf = -1, .first = 0, .was = 0, .now = 0};
    for (int b = 0; b < I->nbufs; b++) {
        const buffer *B = &I->bufs[b];
        if (B->is_output)
            continue;
        size_t es = elem_size(B->type), bytes = buffer_bytes(B);
        for (size_t off = 0; off < bytes; off += CHUNK) {
            size_t n = bytes - off < CHUNK ? bytes - off : CHUNK;
            const unsigned char *want = (const unsigned char *)B->host + off;
            D->download(got, (const char *)d->a[b].ptr + off, n);
            if (!memcmp(got, want, n))
                continue;
            for (size_t e = 0; e < n; e += es) {
                if (!memcmp(got + e, want + e, es))
                    continue;
                if (!ch.elems++) {
                    buffer now = *B;
                    now.host = got + e;
                    ch.buf = b;
                    ch.first = (off + e) / es;
                    ch.was = buffer_value(B, ch.first);
                    ch.now = buffer_value(&now, 0);
                }
            }
        }
    }
    return ch;
}

void dev_set_download(const device_ops *D, const dev_set *d, instance *I)
{
    for (int b = 0; b < I->nbufs; b++)
        if (I->bufs[b].is_output)
            D->download(I->bufs[b].host, d->a[b].ptr, d->a[b].bytes);
}
