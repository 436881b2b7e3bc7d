/* class_cache.c: what an interrupted or repeated class run needs to skip a
 * student already graded: the cells, under the content hash they were
 * graded for. One file per student in <out>/.cache/, written whole or not
 * at all. The hash covers the grader's own binary, so a cache file is only
 * ever read back by the build that wrote it. */
#include <stdio.h>
#include <string.h>
#include "class.h"

#define CACHE_MAGIC "grader-class-1"

typedef struct cache_head {
    char magic[16];
    unsigned size;             /* sizeof(class_student) */
    char key[65];
} cache_head;

static void cache_path(const class_run *run, const class_student *st, char *path, size_t len)
{
    snprintf(path, len, "%s/.cache/%s.state", run->out, st->name);
}

int class_cache_load(const class_run *run, class_student *st)
{
    char path[4200];
    cache_path(run, st, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    cache_head h;
    static class_student old;
    int ok = fread(&h, sizeof h, 1, f) == 1 && !strcmp(h.magic, CACHE_MAGIC) &&
             h.size == sizeof old && !strcmp(h.key, st->key) && fread(&old, sizeof old, 1, f) == 1;
    fclose(f);
    if (!ok)
        return -1;
    /* The cells and when they were graded; the rest was read afresh. */
    memcpy(st->cell, old.cell, sizeof st->cell);
    memcpy(st->graded_at, old.graded_at, sizeof st->graded_at);
    st->passed = old.passed;
    st->counted = old.counted;
    st->seconds = old.seconds;
    st->budget_hit = old.budget_hit;
    memcpy(st->gpu, old.gpu, sizeof st->gpu);   /* what graded it */
    st->gpu_index = old.gpu_index;
    st->cached = 1;
    return 0;
}

int class_cache_save(const class_run *run, const class_student *st)
{
    char dir[4200], path[4200];
    snprintf(dir, sizeof dir, "%s/.cache", run->out);
    if (mkdir_p(dir) != 0)
        return -1;
    cache_path(run, st, path, sizeof path);
    FILE *f = out_open(path);
    if (!f)
        return -1;
    cache_head h;
    memset(&h, 0, sizeof h);
    snprintf(h.magic, sizeof h.magic, "%s", CACHE_MAGIC);
    h.size = sizeof *st;
    snprintf(h.key, sizeof h.key, "%s", st->key);
    fwrite(&h, sizeof h, 1, f);
    fwrite(st, sizeof *st, 1, f);
    return out_commit(f, path);
}
