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

/* Length of the UTF-8 character at p that may be shown (not a control
 * character), or 0. */
static int shown_char(const unsigned char *p)
{
    if (p[0] < 0x80)
        return p[0] >= 0x20 && p[0] != 0x7f;
    int n = p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : p[0] >= 0xe0 && p[0] < 0xf0 ? 3
          : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((n == 2 && p[0] == 0xc2 && p[1] < 0xa0) ||                      /* C1 controls */
        (n == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0))) ||
        (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe) ||     /* U+FFFE, U+FFFF */
        (n == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))))
        return 0;
    return n;
}

void printable_name(const char *name, char *out, size_t len)
{
    const unsigned char *p = (const unsigned char *)name;
    size_t o = 0, cut = 0;
    while (*p) {
        int n = shown_char(p);
        size_t take = n ? (size_t)n : 1;
        if (o + take + 1 > len)
            break;
        if (o + 4 <= len)
            cut = o;           /* where "..." still fits */
        if (n)
            memcpy(out + o, p, take);
        else
            out[o] = '?';
        o += take;
        p += take;
    }
    out[o] = 0;
    if (*p && len > 4) {
        while (cut + 4 > len)
            cut--;
        memcpy(out + cut, "...", 4);
    }
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

/* Bytes of `norm` before ex's path when norm is it, directly or inside
 * wrapping folders; -1 when it is not. */
static long exercise_root(const char *norm, const exercise *ex)
{
    size_t n = strlen(norm), f = strlen(ex->file);
    if (n < f || strcmp(norm + n - f, ex->file))
        return -1;
    if (n == f)
        return 0;
    return norm[n - f - 1] == '/' ? (long)(n - f) : -1;
}

int entry_exercise(const char *norm, const exercise *const *ex, int nex)
{
    for (int i = 0; i < nex; i++)
        if (exercise_root(norm, ex[i]) >= 0)
            return i;
    return -1;
}

/* Tools' and version control's folders: never an answer, often huge. */
static const char *const skipped_folders[] = {
    ".git", ".svn", ".hg", "build", ".venv", "venv", "node_modules", "__pycache__",
    ".ipynb_checkpoints", ".cache", ".idea", ".vscode", "__MACOSX", ".tox", ".mypy_cache",
    ".pytest_cache", NULL,
};

int entry_ignored_folder(const char *norm, int is_dir)
{
    for (const char *p = norm; *p;) {
        const char *slash = strchr(p, '/');
        if (!slash && !is_dir)
            return 0;
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        for (const char *const *f = skipped_folders; *f; f++)
            if (strlen(*f) == n && !strncmp(p, *f, n))
                return 1;
        if (!slash)
            return 0;
        p = slash + 1;
    }
    return 0;
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
    snprintf(s->missing_why[i], sizeof s->missing_why[i], "the entry %.80s was refused: %.150s",
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

static void ignore(submission *s, const char *entry)
{
    if (s->nignored < 4)
        printable_name(entry, s->ignored[s->nignored], SUB_NAME);
    s->nignored++;
}

/* A file named like exercise i: kept as a candidate (its slot), or refused. */
static int candidate(submission *s, int i, const arc_entry *e, const char *norm)
{
    if (e->size > SUB_MAX_FILE) {
        char big[SUB_NAME];
        snprintf(big, sizeof big, "%llu bytes, more than an exercise file may have (%d)",
                 (unsigned long long)e->size, SUB_MAX_FILE);
        refuse(s, e->name, big);
        refused_for(s, i, e->name, big);
        return ARC_SKIP;
    }
    if (s->ncand == SUB_MAX_CANDS || s->held + e->size > SUB_MAX_HELD) {
        refuse(s, e->name, "one copy too many of the exercise files: the submission holds "
               "more copies than the grader keeps");
        refused_for(s, i, e->name, "the submission holds too many copies of it");
        return ARC_SKIP;
    }
    sub_cand *c = &s->cand[s->ncand];
    memset(c, 0, sizeof *c);
    c->ex = i;
    c->name = strdup(norm);
    c->root = (size_t)exercise_root(norm, s->ex[i]);
    s->held += e->size;
    s->copies[i]++;
    return s->ncand++;
}

static int want(void *ctx, const arc_entry *e)
{
    submission *s = ctx;
    char norm[4096];
    const char *why;
    if (entry_name_check(e->name, norm, sizeof norm, &why) != 0) {
        refuse(s, e->name, why);
        return ARC_SKIP;
    }
    if (entry_ignored_folder(norm, e->type == ENTRY_DIR)) {
        s->nignored += e->type != ENTRY_DIR;
        return ARC_IGNORED;
    }
    if (e->type == ENTRY_DIR)
        return ARC_SKIP;
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
        return ARC_SKIP;
    }
    if (i < 0 && course_file(norm))
        return ARC_SKIP;       /* another lesson's exercise file: not graded in this run */
    if (i < 0) {
        if (!archive_kind(norm))   /* an archive is read, not ignored */
            ignore(s, e->name);
        return ARC_SKIP;
    }
    return candidate(s, i, e, norm);
}

static void got(void *ctx, int slot, const arc_entry *e, char *data, size_t len)
{
    submission *s = ctx;
    if (len > SUB_MAX_FILE) {  /* its size was not known when it was wanted */
        char big[SUB_NAME];
        snprintf(big, sizeof big, "%zu bytes, more than an exercise file may have (%d)", len,
                 SUB_MAX_FILE);
        free(data);
        refuse(s, e->name, big);
        refused_for(s, s->cand[slot].ex, e->name, big);
        return;
    }
    free(s->cand[slot].data);
    s->cand[slot].data = data;
    s->cand[slot].len = len;
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

/* How many exercises have a copy read under the same root as candidate k. */
static int root_holds(const submission *s, int k)
{
    const sub_cand *c = &s->cand[k];
    int held = 0;
    for (int i = 0; i < s->nex; i++)
        for (int j = 0; j < s->ncand; j++) {
            const sub_cand *d = &s->cand[j];
            if (d->ex == i && d->data && d->root == c->root &&
                !strncmp(d->name, c->name, c->root)) {
                held++;
                break;
            }
        }
    return held;
}

/* The root: the folder holding the most exercise files, if only one does. */
static int best_root(const submission *s)
{
    int best = -1, most = 0, tie = 0;
    for (int k = 0; k < s->ncand; k++) {
        if (!s->cand[k].data)
            continue;
        int h = root_holds(s, k);
        int same = best >= 0 && s->cand[best].root == s->cand[k].root &&
                   !strncmp(s->cand[best].name, s->cand[k].name, s->cand[k].root);
        if (h > most)
            best = k, most = h, tie = 0;
        else if (h == most && !same)
            tie = 1;
    }
    return tie ? -1 : best;
}

/* Exercise i from its candidates: the only copy, or the one under the root. */
static void choose(submission *s, int i, int root)
{
    int n = 0, pick = -1, under = 0;
    for (int k = 0; k < s->ncand; k++) {
        const sub_cand *c = &s->cand[k];
        if (c->ex != i || !c->data)
            continue;
        n++;
        pick = n == 1 ? k : pick;
        if (root >= 0 && c->root == s->cand[root].root &&
            !strncmp(c->name, s->cand[root].name, c->root))
            under++, pick = under == 1 ? k : pick;
    }
    if (n > 1 && under != 1) {
        for (int k = 0; k < s->ncand; k++)
            if (s->cand[k].ex == i && s->cand[k].data) {
                char two[SUB_NAME + 96];
                snprintf(two, sizeof two, "one of %d copies of %s in this submission: neither "
                         "copy is graded (which one did you mean?)", n, s->ex[i]->file);
                refuse(s, s->cand[k].name, two);
            }
        refused_for(s, i, s->ex[i]->file, "the submission holds two copies of it");
        return;
    }
    if (n == 0)
        return;
    for (int k = 0; k < s->ncand; k++)
        if (s->cand[k].ex == i && s->cand[k].data && k != pick)
            ignore(s, s->cand[k].name);   /* another copy, outside the root */
    s->data[i] = s->cand[pick].data;
    s->len[i] = s->cand[pick].len;
    s->cand[pick].data = NULL;
    printable_name(s->cand[pick].name, s->from[i], SUB_NAME);
}

int submission_read(const char *path, const exercise *const *ex, int nex, submission *s)
{
    memset(s, 0, sizeof *s);
    s->ex = ex;
    s->nex = nex > SUB_MAX_EX ? SUB_MAX_EX : nex;
    arc_sink sink = {.want = want, .got = got, .bad = bad, .ctx = s};
    int rc = archive_read(path, &sink, s->kind, sizeof s->kind, s->error, sizeof s->error);
    int root = best_root(s);
    for (int i = 0; i < s->nex; i++)
        choose(s, i, root);
    for (int k = 0; k < s->ncand; k++) {
        free(s->cand[k].data);
        free(s->cand[k].name);
    }
    s->ncand = 0;
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
