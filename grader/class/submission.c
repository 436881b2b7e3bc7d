/* submission.c: the rules for what a student's hand-in may contain (see
 * submission.h), applied to every entry archive.c lists. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "archive.h"
#include "fileio.h"
#include "submission.h"

void printable_name(const char *name, char *out, size_t len)
{
    size_t o = 0, n = strlen(name);
    for (size_t i = 0; i < n && o + 1 < len; i++) {
        unsigned char c = (unsigned char)name[i];
        out[o++] = c >= 32 && c < 127 ? (char)c : '?';
    }
    out[o] = 0;
    if (o + 1 == len && n > o && len > 4)
        memcpy(out + len - 4, "...", 4);
}

int entry_name_check(const char *name, char *norm, size_t len, const char **why)
{
    norm[0] = 0;
    if (!name[0]) {
        *why = "it has no name";
        return -1;
    }
    if (name[0] == '/') {
        *why = "an absolute path: it would land outside the student's folder";
        return -1;
    }
    if (strchr(name, '\\')) {
        *why = "a backslash in the name (a Windows path?): archives separate folders with '/'";
        return -1;
    }
    size_t o = 0;
    for (const char *p = name; *p;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 2 && !strncmp(p, "..", 2)) {
            *why = "'..' in the path: it would land outside the student's folder";
            norm[0] = 0;
            return -1;
        }
        if (n > 0 && !(n == 1 && p[0] == '.')) {
            if (o + n + 2 > len) {
                *why = "the name is too long";
                return -1;
            }
            if (o)
                norm[o++] = '/';
            memcpy(norm + o, p, n);
            o += n;
            norm[o] = 0;
        }
        p += n + (slash ? 1 : 0);
    }
    return 0;
}

int entry_exercise(const char *norm, const exercise *const *ex, int nex)
{
    /* Directly, or after one wrapping folder: "exercises/lesson3/matmul.cu". */
    const char *slash = strchr(norm, '/');
    const char *inner = slash ? slash + 1 : NULL;
    for (int i = 0; i < nex; i++) {
        if (!strcmp(norm, ex[i]->file))
            return i;
        if (inner && !strcmp(inner, ex[i]->file))
            return i;
    }
    return -1;
}

/* Is this (checked) name an exercise file of any lesson of the course? */
static int course_file(const char *norm)
{
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; *e; e++)
            if (entry_exercise(norm, e, 1) == 0)
                return 1;
    return 0;
}

static void refuse(submission *s, const char *entry, const char *why)
{
    if (s->nrefused < SUB_MAX_NOTES) {
        sub_note *n = &s->refused[s->nrefused];
        printable_name(entry, n->entry, sizeof n->entry);
        snprintf(n->why, sizeof n->why, "%s", why);
    }
    s->nrefused++;
}

/* An entry named like exercise i was refused: the row says why it is missing. */
static void refused_for(submission *s, int i, const char *entry, const char *why)
{
    if (i < 0 || s->missing_why[i][0])
        return;
    char shown[SUB_NAME];
    printable_name(entry, shown, sizeof shown);
    snprintf(s->missing_why[i], sizeof s->missing_why[i], "the entry %s was refused: %s",
             shown, why);
}

static const char *type_why(const arc_entry *e)
{
    switch (e->type) {
    case ENTRY_SYMLINK:
        return "a symbolic link; links can point anywhere, so only plain files are taken";
    case ENTRY_HARDLINK:
        return "a hard link (a second name for another file); only plain files are taken";
    case ENTRY_DEVICE: return "a device file; only plain files are taken";
    case ENTRY_FIFO: return "a FIFO; only plain files are taken";
    case ENTRY_OTHER: return NULL;
    default: return "";
    }
}

static int want(void *ctx, const arc_entry *e)
{
    submission *s = ctx;
    char norm[4096];
    const char *why;
    if (entry_name_check(e->name, norm, sizeof norm, &why) != 0) {
        refuse(s, e->name, why);
        return -1;
    }
    if (e->type == ENTRY_DIR)
        return -1;
    int i = entry_exercise(norm, s->ex, s->nex);
    if (e->type != ENTRY_FILE) {
        char other[SUB_NAME];
        why = type_why(e);
        if (!why) {
            snprintf(other, sizeof other, "%s, not a plain file", e->what[0] ? e->what
                     : "a special entry");
            why = other;
        }
        refuse(s, e->name, why);
        refused_for(s, i, e->name, why);
        return -1;
    }
    if (i < 0 && course_file(norm)) {
        /* Another lesson's exercise file: not graded in this run, not news. */
        return -1;
    }
    if (i < 0) {
        if (s->nignored < 4)
            printable_name(e->name, s->ignored[s->nignored], SUB_NAME);
        s->nignored++;
        return -1;
    }
    if (e->size > SUB_MAX_FILE) {
        char big[SUB_NAME];
        snprintf(big, sizeof big, "%llu bytes, more than an exercise file may have (%d)",
                 (unsigned long long)e->size, SUB_MAX_FILE);
        refuse(s, e->name, big);
        refused_for(s, i, e->name, big);
        return -1;
    }
    if (++s->copies[i] > 1) {
        char two[SUB_NAME + 96];
        snprintf(two, sizeof two, "a second copy of %s (the first is %.60s): neither copy "
                 "is graded", s->ex[i]->file, s->from[i]);
        refuse(s, e->name, two);
        refused_for(s, i, e->name, "the submission holds two copies of it");
        return -1;
    }
    printable_name(e->name, s->from[i], SUB_NAME);
    return i;
}

static void got(void *ctx, int slot, const arc_entry *e, char *data, size_t len)
{
    submission *s = ctx;
    (void)e;
    free(s->data[slot]);
    s->data[slot] = data;
    s->len[slot] = len;
}

static void bad(void *ctx, const arc_entry *e, const char *why)
{
    submission *s = ctx;
    char norm[4096];
    const char *w;
    int i = entry_name_check(e->name, norm, sizeof norm, &w) == 0
          ? entry_exercise(norm, s->ex, s->nex) : -1;
    refuse(s, e->name, why);
    refused_for(s, i, e->name, why);
}

int submission_read(const char *path, const exercise *const *ex, int nex, submission *s)
{
    memset(s, 0, sizeof *s);
    s->ex = ex;
    s->nex = nex > SUB_MAX_EX ? SUB_MAX_EX : nex;
    arc_sink sink = {.want = want, .got = got, .bad = bad, .ctx = s};
    int rc = archive_read(path, &sink, s->kind, sizeof s->kind, s->error, sizeof s->error);
    /* Two copies of one file: neither is graded (which one did the student mean?). */
    for (int i = 0; i < s->nex; i++)
        if (s->copies[i] > 1) {
            free(s->data[i]);
            s->data[i] = NULL;
            s->len[i] = 0;
        }
    return rc;
}

void submission_free(submission *s)
{
    for (int i = 0; i < s->nex; i++)
        free(s->data[i]);
    memset(s->data, 0, sizeof s->data);
}

int submission_stage(const submission *s, const char *dir)
{
    if (mkdir(dir, 0700) != 0)
        return -1;
    for (int i = 0; i < s->nex; i++) {
        if (!s->data[i])
            continue;
        /* ex->file is "lessonN/name.cu": one folder, from the course's spec. */
        char path[4096];
        const char *file = s->ex[i]->file, *slash = strchr(file, '/');
        if (slash) {
            snprintf(path, sizeof path, "%s/%.*s", dir, (int)(slash - file), file);
            if (mkdir(path, 0700) != 0 && errno != EEXIST)
                return -1;
        }
        snprintf(path, sizeof path, "%s/%s", dir, file);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
            return -1;
        int bad_write = write_all(fd, s->data[i], s->len[i]);
        if (close(fd) != 0 || bad_write)
            return -1;
    }
    return 0;
}

void submission_hash(const submission *s, sha256 *h)
{
    for (int i = 0; i < s->nex; i++) {
        sha256_str(h, s->ex[i]->file);
        if (s->data[i]) {
            unsigned char len[8];
            for (int k = 0; k < 8; k++)
                len[k] = (unsigned char)((uint64_t)s->len[i] >> (8 * k));
            sha256_update(h, len, 8);
            sha256_update(h, s->data[i], s->len[i]);
        } else
            sha256_str(h, s->missing_why[i][0] ? s->missing_why[i] : "(absent)");
    }
    char n[32];
    snprintf(n, sizeof n, "%d refused", s->nrefused);
    sha256_str(h, n);
    for (int i = 0; i < s->nrefused && i < SUB_MAX_NOTES; i++) {
        sha256_str(h, s->refused[i].entry);
        sha256_str(h, s->refused[i].why);
    }
    sha256_str(h, s->error);
}
