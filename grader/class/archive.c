/* archive.c: submissions read through libarchive (tar and zip, compressed
 * or not, and archives inside them) and folders walked by hand; entries
 * listed, content handed over on request, nothing written. See archive.h. */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "archive.h"
#include "clock.h"


uint32_t crc32_of(const void *data, size_t len)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    const unsigned char *p = data;
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < len; i++)
        c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

/* One submission being read: the sink, the caps' counters, the error. */
typedef struct reader {
    const arc_sink *s;
    int entries;
    uint64_t bytes;
    double deadline;
    char *err;
    size_t elen;
    int capped;                /* a cap stopped the reading: stop everything */
} reader;

/* Why the reading stopped, in the caller's buffer (archive.h's one error
 * rule: the reason for the student's row, never a print). */
__attribute__((format(printf, 2, 3)))
static void reader_err(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->elen, fmt, ap);
    va_end(ap);
}

/* Control bytes and bytes that are not UTF-8 as '?': an error message
 * quotes names, and reaches terminals and JSON. */
static void shown(const char *name, char *out, size_t len)
{
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p && o + 1 < len;) {
        int n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3
              : (*p & 0xf8) == 0xf0 ? 4 : 0;
        for (int i = 1; i < n; i++)
            if ((p[i] & 0xc0) != 0x80)
                n = 0;
        if (n <= 1 || o + (size_t)n + 1 > len) {
            out[o++] = n == 1 && *p >= 0x20 && *p != 0x7f ? (char)*p : '?';
            p++;
            continue;
        }
        memcpy(out + o, p, (size_t)n);
        o += (size_t)n;
        p += n;
    }
    out[o] = 0;
}

/* Counts an entry the caller did not ignore; -1 (with err) past a cap. */
static int count_entry(reader *r, const arc_entry *e)
{
    r->entries++;
    r->bytes += e->size;
    char name[200];
    if (r->entries > ARC_MAX_ENTRIES) {
        reader_err(r, "more than %d entries (not counting ignored folders such as build/): the rest "
            "were not read", ARC_MAX_ENTRIES);
    } else if (r->bytes > ARC_MAX_BYTES) {
        shown(e->name, name, sizeof name);
        reader_err(r, "more than %llu MB of content (not counting ignored folders) by %s: the rest "
            "was not read", ARC_MAX_BYTES >> 20, name);
    } else
        return 0;
    r->capped = 1;
    return -1;
}

/* The time cap: ARC_MAX_SECONDS, or what archive_set_max_seconds set. */
static double max_seconds = ARC_MAX_SECONDS;

void archive_set_max_seconds(double seconds)
{
    max_seconds = seconds > 0 ? seconds : ARC_MAX_SECONDS;
}

static int out_of_time(reader *r)
{
    if (now_s() <= r->deadline)
        return 0;
    if (!r->capped)
        reader_err(r, "reading it took more than %g s: the rest was not read", max_seconds);
    r->capped = 1;
    return 1;
}

/* ---- archives, through libarchive ---- */

static struct archive *new_reader(void)
{
    struct archive *a = archive_read_new();
    if (!a)
        return NULL;
    /* The compressions by name, not "all": that would also run external
     * programs (lrzip, lzop, grzip) on a student's bytes. */
    archive_read_support_filter_gzip(a);
    archive_read_support_filter_bzip2(a);
    archive_read_support_filter_xz(a);
    archive_read_support_filter_lzma(a);
    archive_read_support_filter_zstd(a);
    archive_read_support_filter_compress(a);
    archive_read_support_format_tar(a);
    archive_read_support_format_zip(a);
    return a;
}

static enum entry_type type_of(struct archive_entry *ae, char *what, size_t len)
{
    if (archive_entry_hardlink(ae))
        return ENTRY_HARDLINK;
    if (archive_entry_is_encrypted(ae)) {
        snprintf(what, len, "an encrypted entry");
        return ENTRY_OTHER;
    }
    switch (archive_entry_filetype(ae)) {
    case AE_IFREG:
        if (archive_entry_sparse_count(ae) > 0) {
            snprintf(what, len, "a sparse file");
            return ENTRY_OTHER;
        }
        return ENTRY_FILE;
    case AE_IFDIR: return ENTRY_DIR;
    case AE_IFLNK: return ENTRY_SYMLINK;
    case AE_IFCHR: case AE_IFBLK: return ENTRY_DEVICE;
    case AE_IFIFO: return ENTRY_FIFO;
    case AE_IFSOCK:
        snprintf(what, len, "a socket");
        return ENTRY_OTHER;
    default:
        snprintf(what, len, "an entry of unknown type");
        return ENTRY_OTHER;
    }
}

/* The content of a wanted file; the caller is told by got() or bad().
 * -1 when the archive cannot be read past it. */
static int read_content(reader *r, struct archive *a, const arc_entry *e, int slot)
{
    size_t cap = e->size_known ? e->size : ARC_MAX_UNSIZED, len = 0, room = cap + 1;
    char *data = malloc(room + 1);
    const char *why = NULL;
    la_ssize_t n = 0;
    while (data && !why) {
        if (len == room) {
            why = "it holds more bytes than its header says";
            break;
        }
        n = archive_read_data(a, data + len, room - len);
        if (n == 0)
            break;
        if (n < 0)
            why = archive_error_string(a) ? archive_error_string(a) : "a read error";
        else
            len += (size_t)n;
        if (out_of_time(r))
            why = "reading it took too long";
    }
    if (!data || why || (e->size_known && len != cap)) {
        char msg[300];
        snprintf(msg, sizeof msg, "its content could not be read whole (%s): damaged, or not "
                 "what the archive says", !data ? "out of memory" : why ? why
                 : "fewer bytes than its header says");
        free(data);
        r->s->bad(r->s->ctx, e, msg);
        return n == ARCHIVE_FATAL ? -1 : 0;
    }
    data[len] = 0;
    r->s->got(r->s->ctx, slot, e, data, len);
    return 0;
}

static int read_entries(reader *r, struct archive *a, const char *prefix, int level);

/* An archive inside the archive, read from the outer one's entry as a stream. */
typedef struct nested {
    struct archive *outer;
    reader *r;
    char buf[65536];
} nested;

static la_ssize_t nested_read(struct archive *inner, void *ud, const void **buf)
{
    nested *n = ud;
    if (out_of_time(n->r)) {
        archive_set_error(inner, ETIMEDOUT, "out of time");
        return -1;
    }
    la_ssize_t got = archive_read_data(n->outer, n->buf, sizeof n->buf);
    *buf = n->buf;
    if (got < 0) {
        archive_set_error(inner, EIO, "%s", archive_error_string(n->outer)
                          ? archive_error_string(n->outer) : "the outer archive is damaged");
        return -1;
    }
    return got;
}

/* Reads an inner archive from `open` (set up by the caller); a damaged one
 * is reported on its entry `e`, and reading goes on. */
static int read_inner(reader *r, struct archive *inner, int opened, const arc_entry *e,
                      int level)
{
    char prefix[4200], why[300];
    snprintf(prefix, sizeof prefix, "%s/", e->name);
    int rc = opened == ARCHIVE_OK ? read_entries(r, inner, prefix, level) : -1;
    if (rc != 0 && !r->capped) {
        snprintf(why, sizeof why, "an archive inside the submission that could not be read "
                 "(%s)", r->err[0] ? r->err : archive_error_string(inner)
                 ? archive_error_string(inner) : "not a tar or zip archive");
        r->err[0] = 0;
        r->s->bad(r->s->ctx, e, why);
        rc = 0;
    }
    archive_read_free(inner);
    return r->capped ? -1 : rc;
}

static int read_nested(reader *r, struct archive *outer, const arc_entry *e, int level)
{
    static nested n;           /* one level deep: one buffer */
    n.outer = outer;
    n.r = r;
    struct archive *inner = new_reader();
    if (!inner)
        return 0;
    int opened = archive_read_open(inner, &n, NULL, nested_read, NULL);
    return read_inner(r, inner, opened, e, level);
}

static const char *entry_name(struct archive_entry *ae)
{
    const char *name = archive_entry_pathname(ae);
    if (!name)
        name = archive_entry_pathname_utf8(ae);
    return name ? name : "";
}

/* Every entry of `a`; -1 when it could not be read to the end. */
static int read_entries(reader *r, struct archive *a, const char *prefix, int level)
{
    for (int count = 0;; count++) {
        struct archive_entry *ae;
        if (out_of_time(r))
            return -1;
        int rc = archive_read_next_header(a, &ae);
        if (rc == ARCHIVE_EOF)
            return 0;
        if (rc < ARCHIVE_WARN) {
            const char *why = archive_error_string(a) ? archive_error_string(a) : "?";
            if (count)
                reader_err(r, "damaged after entry %d (%s): the rest was not read", count, why);
            else
                reader_err(r, "not a tar or zip archive, or damaged at its start (%s)", why);
            return -1;
        }
        char name[4200];
        snprintf(name, sizeof name, "%s%s", prefix, entry_name(ae));
        arc_entry e = {.name = name, .size_known = archive_entry_size_is_set(ae) != 0};
        e.size = e.size_known ? (uint64_t)archive_entry_size(ae) : 0;
        e.type = type_of(ae, e.what, sizeof e.what);
        int inner = e.type == ENTRY_FILE && archive_kind(name);
        if (inner && level > 0) {
            e.type = ENTRY_OTHER;
            snprintf(e.what, sizeof e.what, "an archive inside an archive inside the submission");
        }
        int slot = r->s->want(r->s->ctx, &e);
        if (slot != ARC_IGNORED && count_entry(r, &e) != 0)
            return -1;
        if (inner && level == 0 && slot != ARC_IGNORED) {
            if (read_nested(r, a, &e, level + 1) != 0)
                return -1;
        } else if (slot >= 0 && e.type == ENTRY_FILE) {
            if (read_content(r, a, &e, slot) != 0) {
                reader_err(r, "damaged: it ends inside entry %d, or its content is broken: the rest was not read", count + 1);
                return -1;
            }
        }
    }
}

static int read_opened(reader *r, struct archive *a, int opened)
{
    int rc;
    if (opened != ARCHIVE_OK) {
        reader_err(r, "cannot be read as an archive (%s)", archive_error_string(a)
            ? archive_error_string(a) : "?");
        rc = -1;
    } else
        rc = read_entries(r, a, "", 0);
    archive_read_free(a);
    return rc;
}

static void reader_init(reader *r, const arc_sink *s, char *err, size_t elen)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    r->err = err;
    r->elen = elen;
    r->deadline = now_s() + max_seconds;
    err[0] = 0;
}

int archive_read_tar(int fd, const arc_sink *s, char *err, size_t elen)
{
    reader r;
    reader_init(&r, s, err, elen);
    struct archive *a = new_reader();
    if (!a)
        return snprintf(err, elen, "out of memory"), -1;
    return read_opened(&r, a, archive_read_open_fd(a, fd, 65536));
}

int archive_read_zip(const char *path, const arc_sink *s, char *err, size_t elen)
{
    reader r;
    reader_init(&r, s, err, elen);
    struct archive *a = new_reader();
    if (!a)
        return snprintf(err, elen, "out of memory"), -1;
    /* By name: libarchive can then seek, and reads the central directory. */
    return read_opened(&r, a, archive_read_open_filename(a, path, 65536));
}

/* ---- folders ---- */

static int by_name(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    return x && y ? strcmp(x, y) : !x - !y;
}

char **dir_names(DIR *d, size_t *n, int (*leave_out)(void *ctx, const char *name), void *ctx)
{
    struct dirent *de;
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    /* errno cleared before each readdir: only readdir's own says the listing
     * failed (leave_out may leave one: class.c's stats each entry, and a
     * dangling link among the submissions gives ENOENT). */
    for (errno = 0; (de = readdir(d)) != NULL; errno = 0) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
            (leave_out && leave_out(ctx, de->d_name)))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                goto fail;
            names = nn;
        }
        if (!(names[*n] = strdup(de->d_name)))
            goto fail;
        ++*n;
    }
    if (errno == 0) {
        if (names)
            qsort(names, *n, sizeof *names, by_name);
        return names;
    }
fail:
    {
        int e = errno ? errno : ENOMEM;
        for (size_t i = 0; i < *n; i++)
            free(names[i]);
        free(names);
        *n = (size_t)-1;
        errno = e;
        return NULL;
    }
}

static enum entry_type stat_type(const struct stat *st, char *what, size_t len)
{
    if (S_ISDIR(st->st_mode))
        return ENTRY_DIR;
    if (S_ISLNK(st->st_mode))
        return ENTRY_SYMLINK;
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
        return ENTRY_DEVICE;
    if (S_ISFIFO(st->st_mode))
        return ENTRY_FIFO;
    if (!S_ISREG(st->st_mode)) {
        snprintf(what, len, "a socket or other special file");
        return ENTRY_OTHER;
    }
    return st->st_nlink > 1 ? ENTRY_HARDLINK : ENTRY_FILE;
}

/* Open a listed file without following links, and make sure it is still
 * the file listed; -1 when it is not. */
static int open_same(int dfd, const char *name, const struct stat *st)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat now;
    if (fd >= 0 && fstat(fd, &now) == 0 && S_ISREG(now.st_mode) && now.st_ino == st->st_ino &&
        now.st_dev == st->st_dev && now.st_nlink == 1)
        return fd;
    if (fd >= 0)
        close(fd);
    return -1;
}

/* Up to cap bytes, plus one to tell a longer file; malloc'd, NUL-ended. */
static char *read_upto(int fd, size_t cap, size_t *len)
{
    char *buf = malloc(cap + 2);
    size_t n = 0;
    while (buf && n < cap + 1) {
        ssize_t got = read(fd, buf + n, cap + 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    if (buf)
        buf[n] = 0;
    *len = n;
    return buf;
}

/* A file of the folder: its content, or the archive it is. */
static int walk_file(reader *r, int dfd, const char *name, const struct stat *st,
                     const arc_entry *e, int slot)
{
    int inner = archive_kind(e->name) != NULL;
    if (!inner && (slot < 0 || e->type != ENTRY_FILE))
        return 0;
    int fd = open_same(dfd, name, st);
    if (fd < 0) {
        r->s->bad(r->s->ctx, e, "it changed while it was being read");
        return 0;
    }
    if (inner) {
        struct archive *a = new_reader();
        int rc = a ? read_inner(r, a, archive_read_open_fd(a, fd, 65536), e, 1) : 0;
        close(fd);
        return rc;
    }
    size_t len;
    char *data = read_upto(fd, (size_t)st->st_size, &len);
    close(fd);
    if (data && len == (size_t)st->st_size)
        r->s->got(r->s->ctx, slot, e, data, len);
    else {
        free(data);
        r->s->bad(r->s->ctx, e, "it changed while it was being read");
    }
    return 0;
}

/* A listed entry that could not be looked at: the reading stops, and the
 * student's row says which and why (a hand-in is never graded with a file
 * silently left out). -1. */
static int cannot_read(reader *r, const char *rel)
{
    char name[300];
    int e = errno;
    shown(rel, name, sizeof name);
    reader_err(r, "cannot read %s: %s", name, strerror(e));
    return -1;
}

static int walk_dir(reader *r, int dfd, const char *prefix, int depth)
{
    DIR *d = fdopendir(dfd);
    size_t n = (size_t)-1;
    char **names = d ? dir_names(d, &n, NULL, NULL) : NULL;
    if (n == (size_t)-1) {
        char name[300];
        shown(*prefix ? prefix : "the top folder", name, sizeof name);
        reader_err(r, "cannot list %s: %s", name, strerror(errno));
        if (d)
            closedir(d);
        else
            close(dfd);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        char rel[4096];
        struct stat st;
        snprintf(rel, sizeof rel, "%s%s", prefix, names[i]);
        if (fstatat(dirfd(d), names[i], &st, AT_SYMLINK_NOFOLLOW) != 0) {
            rc = cannot_read(r, rel);
            break;
        }
        arc_entry e = {.name = rel, .size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0,
                       .size_known = 1};
        e.type = stat_type(&st, e.what, sizeof e.what);
        int slot = r->s->want(r->s->ctx, &e);
        if (slot == ARC_IGNORED)
            continue;
        if (count_entry(r, &e) != 0 || out_of_time(r)) {
            rc = -1;
            break;
        }
        if (e.type != ENTRY_DIR) {
            rc = walk_file(r, dirfd(d), names[i], &st, &e, slot);
            continue;
        }
        if (depth >= ARC_MAX_DEPTH) {
            char name[300];
            shown(rel, name, sizeof name);
            reader_err(r, "folders nested deeper than %d: %s was not read", ARC_MAX_DEPTH, name);
            rc = -1;
            break;
        }
        int sub = openat(dirfd(d), names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) {
            rc = cannot_read(r, rel);
            break;
        }
        char pre[4100];
        snprintf(pre, sizeof pre, "%s/", rel);
        rc = walk_dir(r, sub, pre, depth + 1);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(d);
    return rc;
}

int archive_read_dir(const char *path, const arc_sink *s, char *err, size_t elen)
{
    reader r;
    reader_init(&r, s, err, elen);
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, elen, "cannot be read: %s", strerror(errno));
        return -1;
    }
    return walk_dir(&r, fd, "", 0);
}

/* ---- by name ---- */

static const struct { const char *end, *kind; } endings[] = {
    {.end = ".tar.gz", .kind = "tar.gz"}, {.end = ".tgz", .kind = "tar.gz"},
    {.end = ".tar.bz2", .kind = "tar.bz2"}, {.end = ".tbz2", .kind = "tar.bz2"},
    {.end = ".tbz", .kind = "tar.bz2"}, {.end = ".tar.xz", .kind = "tar.xz"},
    {.end = ".txz", .kind = "tar.xz"}, {.end = ".tar.zst", .kind = "tar.zst"},
    {.end = ".tzst", .kind = "tar.zst"}, {.end = ".tar", .kind = "tar"},
    {.end = ".zip", .kind = "zip"},
};

static int ending(const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof endings / sizeof *endings; i++) {
        size_t t = strlen(endings[i].end);
        if (n > t && !strcasecmp(path + n - t, endings[i].end))
            return (int)i;
    }
    return -1;
}

const char *archive_kind(const char *path)
{
    int i = ending(path);
    return i < 0 ? NULL : endings[i].kind;
}

size_t archive_suffix_len(const char *path)
{
    int i = ending(path);
    return i < 0 ? 0 : strlen(endings[i].end);
}

int archive_read(const char *path, const arc_sink *s, char *kind, size_t klen, char *err,
                 size_t elen)
{
    struct stat st;
    err[0] = 0;
    if (lstat(path, &st) != 0) {
        snprintf(kind, klen, "?");
        snprintf(err, elen, "cannot be read: %s", strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(kind, klen, "folder");
        return archive_read_dir(path, s, err, elen);
    }
    const char *k = archive_kind(path);
    snprintf(kind, klen, "%s", k ? k : "?");
    if (!k || !S_ISREG(st.st_mode)) {
        snprintf(err, elen, "is neither a folder nor a tar or zip archive (.tar, .tar.gz, "
                 ".tgz, .tar.bz2, .tar.xz, .tar.zst, .zip)");
        return -1;
    }
    if (!strcmp(k, "zip"))
        return archive_read_zip(path, s, err, elen);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, elen, "cannot be read: %s", strerror(errno));
        return -1;
    }
    int rc = archive_read_tar(fd, s, err, elen);
    close(fd);
    return rc;
}
