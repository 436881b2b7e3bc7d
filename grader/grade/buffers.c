/* buffers.c: buffers with guards, the poison, and the checks after a launch. */
#include <stdlib.h>
#include <string.h>
#include "buffers.h"
#include "child_fail.h"
#include "verify.h"

static void alloc_array(const device_ops *D, dev_array *a, size_t bytes)
{
    a->bytes = bytes;
    a->owned = 1;
    a->base = D->alloc(bytes + 2 * GUARD_BYTES);
    a->ptr = (char *)a->base + GUARD_BYTES;
    D->fill(a->base, GUARD_BYTE, GUARD_BYTES);
    D->fill((char *)a->ptr + bytes, GUARD_BYTE, GUARD_BYTES);
}

static size_t buffer_bytes(const buffer *B)
{
    return B->count * elem_size(B->type);
}

void dev_set_upload(const device_ops *D, dev_set *d, const instance *I)
{
    memset(d, 0, sizeof *d);
    for (int b = 0; b < I->nbufs; b++) {
        const buffer *B = &I->bufs[b];
        alloc_array(D, &d->a[b], buffer_bytes(B));
        if (!B->is_output)
            D->upload(d->a[b].ptr, B->host, d->a[b].bytes);
    }
}

void dev_set_share(const device_ops *D, dev_set *d, const dev_set *from, const instance *I)
{
    memset(d, 0, sizeof *d);
    for (int b = 0; b < I->nbufs; b++) {
        if (I->bufs[b].is_output) {
            alloc_array(D, &d->a[b], buffer_bytes(&I->bufs[b]));
        } else {
            d->a[b] = from->a[b];
            d->a[b].owned = 0;
        }
    }
}

void dev_set_free(const device_ops *D, dev_set *d)
{
    for (int b = 0; b < MAX_BUFS; b++)
        if (d->a[b].base && d->a[b].owned)
            D->release(d->a[b].base);
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

/* Changed bytes of a guard region, and the one nearest the data: the last
 * of the region before the buffer, the first of the one after it. */
static size_t scan_guard(const unsigned char *g, int before, long *nearest)
{
    size_t changed = 0;
    *nearest = -1;
    for (size_t i = 0; i < GUARD_BYTES; i++) {
        if (g[i] == GUARD_BYTE)
            continue;
        changed++;
        if (before || *nearest < 0)
            *nearest = (long)i;
    }
    return changed;
}

guard_damage dev_set_guards(const device_ops *D, const dev_set *d, const instance *I)
{
    static unsigned char g[GUARD_BYTES];
    guard_damage dmg = {.bytes = 0, .buf = -1, .offset = 0};
    for (int b = 0; b < I->nbufs; b++) {
        const dev_array *a = &d->a[b];
        long at;
        D->download(g, a->base, GUARD_BYTES);
        size_t n = scan_guard(g, 1, &at);
        if (n && !dmg.bytes) {
            dmg.buf = b;
            dmg.offset = at - GUARD_BYTES;
        }
        dmg.bytes += n;
        D->download(g, (char *)a->ptr + a->bytes, GUARD_BYTES);
        n = scan_guard(g, 0, &at);
        if (n && !dmg.bytes) {
            dmg.buf = b;
            dmg.offset = (long)a->bytes + at;
        }
        dmg.bytes += n;
    }
    return dmg;
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
