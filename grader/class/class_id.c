/* class_id.c: a student's identifier, from the name of their entry in the
 * submissions folder (see class_assign_ids in class.h). Identifiers name
 * folders and cache files, so they are unique even on a file system that
 * ignores case, and stable: the same entries give the same identifiers in
 * every run, whatever else the folder holds, except where two names meet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "archive.h"
#include "class.h"

#define ID_MAX 200

/* Is the UTF-8 name fit for a file name and a terminal as it is? */
static int safe_as_is(const char *name)
{
    char shown[CLASS_NAME + 8];
    if (!name[0] || name[0] == '.' || name[0] == '-' || strlen(name) > ID_MAX ||
        strchr(name, '/'))
        return 0;
    printable_name(name, shown, sizeof shown);
    return !strcmp(shown, name);
}

/* The name made safe: '?' (what printable_name puts for a control or a
 * byte that is not UTF-8) as '_', cut at a character to leave room for the hash. */
static void made_safe(const char *name, char *out, size_t len)
{
    char shown[CLASS_NAME + 8];
    if (!len)
        return;
    printable_name(name, shown, sizeof shown);
    /* shown may hold more than out (a 255-byte entry name shows as up to
     * CLASS_NAME + 7 bytes): copy at most len - 1. */
    size_t n = 0;
    for (const char *p = shown; *p && n + 1 < len; p++)
        out[n++] = *p == '?' || *p == '/' ? '_' : *p;
    out[n] = 0;
    if (out[0] == '.' || out[0] == '-')
        out[0] = '_';
    size_t cut = ID_MAX - 9;
    if (n > cut) {
        while (cut > 0 && ((unsigned char)out[cut] & 0xc0) == 0x80)
            cut--;
        out[cut] = 0;
    }
}

static void with_hash(const char *entry, const char *base, char *out, size_t len)
{
    sha256 h;
    char hex[65];
    sha256_init(&h);
    sha256_str(&h, entry);
    sha256_hex(&h, hex);
    char safe[CLASS_NAME];
    made_safe(base, safe, sizeof safe);
    snprintf(out, len, "%s-%.8s", safe[0] ? safe : "student", hex);
}

/* `base` as the id when it is safe, else made safe with the entry's hash. */
static void id_of(const char *entry, const char *base, char *out, size_t len)
{
    if (safe_as_is(base))
        snprintf(out, len, "%s", base);
    else
        with_hash(entry, base, out, len);
}

static int clashes(const class_run *run, int i)
{
    for (int j = 0; j < run->nst; j++)
        if (j != i && !strcasecmp(run->st[j].name, run->st[i].name))
            return 1;
    return 0;
}

void class_assign_ids(class_run *run, char *const *entries, const int *dir)
{
    for (int i = 0; i < run->nst; i++) {
        char base[CLASS_ENTRY];
        snprintf(base, sizeof base, "%s", entries[i]);
        size_t cut = dir[i] ? 0 : archive_suffix_len(base);
        if (cut && cut < strlen(base))
            base[strlen(base) - cut] = 0;
        id_of(entries[i], base, run->st[i].name, sizeof run->st[i].name);
    }
    /* Names that meet: the whole entry name; then its hash; then the row. */
    int *meet = calloc((size_t)run->nst + 1, sizeof *meet);
    for (int pass = 0; meet && pass < 3; pass++) {
        for (int i = 0; i < run->nst; i++)
            meet[i] = clashes(run, i);
        for (int i = 0; i < run->nst; i++) {
            class_student *st = &run->st[i];
            if (!meet[i])
                continue;
            if (pass == 0)
                id_of(entries[i], entries[i], st->name, sizeof st->name);
            else if (pass == 1)
                with_hash(entries[i], entries[i], st->name, sizeof st->name);
            else
                snprintf(st->name + strlen(st->name) - (strlen(st->name) > 180 ? 8 : 0),
                         16, "-%d", i);
        }
    }
    free(meet);
}
