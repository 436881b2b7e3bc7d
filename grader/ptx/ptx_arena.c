/* ptx_arena.c: the memory of one read program, freed at once
 * (ptx_internal.h). */
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

#define ARENA_BLOCK 65536

typedef struct block {
    struct block *next;
    size_t used, cap;
    max_align_t data[];
} block;

struct ptx_arena {
    block *head;
    int failed;
};

ptx_arena *arena_new(void)
{
    return calloc(1, sizeof(ptx_arena));
}

void *arena_alloc(ptx_arena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!n)
        n = sizeof(max_align_t);
    block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b) {
            a->failed = 1;
            return NULL;
        }
        *b = (block){.next = a->head, .cap = cap};
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(ptx_arena *a, const char *s, size_t n)
{
    static char empty[1];
    char *p = arena_alloc(a, n + 1);
    if (!p)
        return empty;   /* ptx_read sees arena_failed and returns NULL */
    memcpy(p, s, n);
    return p;
}

int arena_failed(const ptx_arena *a)
{
    return a->failed;
}

void arena_free(ptx_arena *a)
{
    if (!a)
        return;
    for (block *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}
