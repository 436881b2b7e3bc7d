/* archive.c: tar, zip and folder readers that list, and hand over content
 * on request, and write nothing. See archive.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "archive.h"

#define ERR(...) snprintf(err, elen, __VA_ARGS__)

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

/* ---- a helper process writing to a pipe (gzip -dc, unzip -p) ---- */

/* Start argv[0] (found on PATH) with stdout to a pipe; *fd gets the read end. */
static pid_t spawn_reader(char *const argv[], int *fd)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 0);
        dup2(p[1], 1);
        dup2(devnull, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    *fd = p[0];
    return pid;
}

/* Close the pipe, stop the helper if it is still writing, and return its
 * exit status (127: it could not be started; -1: it was stopped). */
static int reap(pid_t pid, int fd, int stop)
{
    close(fd);
    if (stop)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return -1;
}

/* Read exactly n bytes; 0, or -1 at end of stream or on error. */
static int read_exact(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* Up to cap bytes, plus one to tell a longer stream; malloc'd, NUL-ended. */
static char *read_upto(int fd, size_t cap, size_t *len)
{
    char *buf = malloc(cap + 2);
    size_t n = 0;
    while (buf && n < cap + 1) {
        ssize_t r = read(fd, buf + n, cap + 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    if (buf)
        buf[n] = 0;
    *len = n;
    return buf;
}

static int skip_bytes(int fd, uint64_t n)
{
    char buf[8192];
    while (n > 0) {
        size_t take = n < sizeof buf ? (size_t)n : sizeof buf;
        if (read_exact(fd, buf, take) != 0)
            return -1;
        n -= take;
    }
    return 0;
}

/* ---- tar ---- */

/* An octal field; -1 for base-256 (sizes this grader never reads) or junk. */
static int64_t octal(const unsigned char *f, size_t n)
{
    if (f[0] & 0x80)
        return -1;
    size_t i = 0;
    while (i < n && f[i] == ' ')
        i++;
    int64_t v = 0;
    int digits = 0;
    for (; i < n && f[i] >= '0' && f[i] <= '7'; i++, digits++)
        v = v * 8 + (f[i] - '0');
    if (i < n && f[i] != 0 && f[i] != ' ')
        return -1;
    return digits ? v : 0;
}

static int checksum_ok(const unsigned char *h)
{
    int64_t want = octal(h + 148, 8);
    long u = 0, s = 0;
    for (int i = 0; i < 512; i++) {
        unsigned char c = i >= 148 && i < 156 ? ' ' : h[i];
        u += c;
        s += (signed char)c;
    }
    return want >= 0 && (want == u || want == s);
}

static int all_zero(const unsigned char *h)
{
    for (int i = 0; i < 512; i++)
        if (h[i])
            return 0;
    return 1;
}

/* pax records "LEN key=value\n": the path and size it sets. */
static void pax_fields(const char *p, size_t n, char *path, size_t plen, int64_t *size)
{
    size_t at = 0;
    while (at < n) {
        char *end;
        long len = strtol(p + at, &end, 10);
        if (len <= 0 || (size_t)len > n - at || *end != ' ')
            return;
        const char *kv = end + 1, *stop = p + at + len - 1;   /* before the '\n' */
        if (stop > kv && !strncmp(kv, "path=", 5))
            snprintf(path, plen, "%.*s", (int)(stop - kv - 5), kv + 5);
        else if (stop > kv && !strncmp(kv, "size=", 5))
            *size = strtoll(kv + 5, NULL, 10);
        at += (size_t)len;
    }
}

static enum entry_type tar_type(char flag, const char *name, char *what, size_t len)
{
    switch (flag) {
    case '0': case '7': return ENTRY_FILE;
    case 0: {
        size_t n = strlen(name);
        return n && name[n - 1] == '/' ? ENTRY_DIR : ENTRY_FILE;
    }
    case '1': return ENTRY_HARDLINK;
    case '2': return ENTRY_SYMLINK;
    case '3': case '4': return ENTRY_DEVICE;
    case '5': return ENTRY_DIR;
    case '6': return ENTRY_FIFO;
    default:
        snprintf(what, len, "a tar entry of type '%c'", flag >= 32 && flag < 127 ? flag : '?');
        return ENTRY_OTHER;
    }
}

int archive_read_tar(int fd, const arc_sink *s, char *err, size_t elen)
{
    unsigned char h[512];
    char longname[4096] = "", paxpath[4096] = "";
    int64_t paxsize = -1;
    uint64_t total = 0;
    for (int count = 0;; count++) {
        if (read_exact(fd, h, 512) != 0) {
            /* A tar ends with zero blocks; some writers stop without them. */
            return count ? 0 : (ERR("empty or not a tar archive"), -1);
        }
        total += 512;
        if (all_zero(h))
            return 0;
        if (count >= ARC_MAX_ENTRIES || total > ARC_MAX_BYTES) {
            ERR("more than %d entries or %llu MB: the rest was not read", ARC_MAX_ENTRIES,
                ARC_MAX_BYTES >> 20);
            return -1;
        }
        if (!checksum_ok(h)) {
            ERR(count ? "damaged after entry %d (a header's checksum is wrong): the rest was "
                "not read" : "not a tar archive (the first header's checksum is wrong)", count);
            return -1;
        }
        int64_t size = octal(h + 124, 12);
        char flag = (char)h[156];
        if (paxsize >= 0 && flag != 'x' && flag != 'g' && flag != 'L' && flag != 'K')
            size = paxsize;
        if (size < 0 || (uint64_t)size > ARC_MAX_BYTES) {
            ERR("entry %d is larger than this grader reads: the rest was not read", count + 1);
            return -1;
        }
        uint64_t padded = ((uint64_t)size + 511) / 512 * 512;
        total += padded;
        if (flag == 'L' || flag == 'x' || flag == 'K' || flag == 'g') {
            /* Metadata for the next entry: a GNU long name, or pax records. */
            if (size > 65536) {
                ERR("entry %d has %lld bytes of metadata: not a plain archive", count + 1,
                    (long long)size);
                return -1;
            }
            char *meta = malloc(padded + 1);
            if (!meta || read_exact(fd, meta, padded) != 0) {
                free(meta);
                ERR("damaged: it ends inside entry %d", count + 1);
                return -1;
            }
            meta[size] = 0;
            if (flag == 'L')
                snprintf(longname, sizeof longname, "%s", meta);
            else if (flag == 'x')
                pax_fields(meta, (size_t)size, paxpath, sizeof paxpath, &paxsize);
            free(meta);
            continue;
        }
        char name[4096];
        if (paxpath[0])
            snprintf(name, sizeof name, "%s", paxpath);
        else if (longname[0])
            snprintf(name, sizeof name, "%s", longname);
        else if (!memcmp(h + 257, "ustar", 5) && h[345])
            snprintf(name, sizeof name, "%.155s/%.100s", (char *)h + 345, (char *)h);
        else
            snprintf(name, sizeof name, "%.100s", (char *)h);
        longname[0] = paxpath[0] = 0;
        paxsize = -1;

        arc_entry e = {.name = name, .size = (uint64_t)size};
        e.type = tar_type(flag, name, e.what, sizeof e.what);
        int slot = s->want(s->ctx, &e);
        if (slot < 0 || e.type != ENTRY_FILE) {
            if (skip_bytes(fd, padded) != 0) {
                ERR("damaged: it ends inside entry %d", count + 1);
                return -1;
            }
            continue;
        }
        char *data = malloc(padded + 1);
        if (!data || read_exact(fd, data, padded) != 0) {
            free(data);
            s->bad(s->ctx, &e, "the archive ends inside this file");
            ERR("damaged: it ends inside entry %d", count + 1);
            return -1;
        }
        data[size] = 0;
        s->got(s->ctx, slot, &e, data, (size_t)size);
    }
}

/* ---- zip ---- */

static unsigned u16(const unsigned char *p) { return p[0] | (unsigned)p[1] << 8; }
static uint32_t u32(const unsigned char *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static enum entry_type zip_type(unsigned made_by, uint32_t ext, const char *name)
{
    size_t n = strlen(name);
    unsigned host = made_by >> 8;
    unsigned mode = ext >> 16;
    if ((host == 3 || host == 19) && mode) {   /* Unix and macOS keep st_mode here */
        switch (mode & S_IFMT) {
        case S_IFLNK: return ENTRY_SYMLINK;
        case S_IFCHR: case S_IFBLK: return ENTRY_DEVICE;
        case S_IFIFO: return ENTRY_FIFO;
        case S_IFDIR: return ENTRY_DIR;
        case S_IFREG: return n && name[n - 1] == '/' ? ENTRY_DIR : ENTRY_FILE;
        default: return ENTRY_OTHER;
        }
    }
    return (n && name[n - 1] == '/') || (ext & 0x10) ? ENTRY_DIR : ENTRY_FILE;
}

/* unzip reads its name arguments as patterns: make one match only itself
 * ("[[]" is a literal '[', per unzip(1)). */
static void unzip_literal(const char *name, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = name; *p && o + 4 < len; p++) {
        if (*p == '[' || *p == '*' || *p == '?') {
            out[o++] = '[';
            out[o++] = *p;
            out[o++] = ']';
        } else
            out[o++] = *p;
    }
    out[o] = 0;
}

/* One entry's bytes: stored ones straight from the file, others through
 * unzip -p; either way checked against the central directory. */
static char *zip_content(const char *path, const unsigned char *z, size_t zlen,
                         const unsigned char *c, const char *name, const char **why, size_t *len)
{
    unsigned method = u16(c + 10), flags = u16(c + 8);
    uint32_t crc = u32(c + 16), csize = u32(c + 20), usize = u32(c + 24), off = u32(c + 42);
    char *data = NULL;
    *len = 0;
    if (flags & 1) {
        *why = "it is encrypted";
        return NULL;
    }
    if (method == 0) {
        if ((uint64_t)off + 30 > zlen || u32(z + off) != 0x04034b50) {
            *why = "its local header is missing or damaged";
            return NULL;
        }
        uint64_t start = (uint64_t)off + 30 + u16(z + off + 26) + u16(z + off + 28);
        if (csize != usize || start + csize > zlen) {
            *why = "its stored size is inconsistent";
            return NULL;
        }
        data = malloc((size_t)usize + 1);
        if (!data)
            return NULL;
        memcpy(data, z + start, usize);
        *len = usize;
    } else {
        char pattern[4200];
        unzip_literal(name, pattern, sizeof pattern);
        char *argv[] = {"unzip", "-p", "-qq", "--", (char *)path, pattern, NULL};
        int fd;
        pid_t pid = spawn_reader(argv, &fd);
        if (pid < 0) {
            *why = "unzip could not be started";
            return NULL;
        }
        data = read_upto(fd, usize, len);
        int st = reap(pid, fd, *len > usize);
        if (st == 127) {
            free(data);
            *why = "it is compressed and unzip is not installed (apt-get install unzip)";
            return NULL;
        }
    }
    if (data && (*len != usize || crc32_of(data, *len) != crc)) {
        free(data);
        *why = "its content does not match the archive's directory (length or CRC-32): "
               "damaged, or not what the archive says";
        return NULL;
    }
    if (data)
        data[*len] = 0;
    return data;
}

int archive_read_zip(const char *path, const arc_sink *s, char *err, size_t elen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ERR("cannot be read: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if ((uint64_t)st.st_size > ARC_MAX_BYTES || st.st_size < 22) {
        close(fd);
        ERR(st.st_size < 22 ? "too short to be a zip archive" : "larger than %llu MB",
            ARC_MAX_BYTES >> 20);
        return -1;
    }
    size_t zlen = (size_t)st.st_size;
    unsigned char *z = malloc(zlen);
    int ok = z && read_exact(fd, z, zlen) == 0;
    close(fd);
    if (!ok) {
        free(z);
        ERR("cannot be read");
        return -1;
    }
    /* The end-of-central-directory record, within the last 64 KB. */
    const unsigned char *eocd = NULL;
    for (size_t i = zlen - 22 + 1; i-- > 0 && zlen - i <= 65557;)
        if (u32(z + i) == 0x06054b50) {
            eocd = z + i;
            break;
        }
    int rc = 0;
    if (!eocd) {
        ERR("not a zip archive (no central directory)");
        rc = -1;
        goto out;
    }
    unsigned n = u16(eocd + 10);
    uint32_t cd = u32(eocd + 16), cdsize = u32(eocd + 12);
    if (n == 0xffff || cd == 0xffffffffu || (uint64_t)cd + cdsize > zlen) {
        ERR("a zip64 or damaged archive, which this grader does not read");
        rc = -1;
        goto out;
    }
    const unsigned char *c = z + cd, *end = z + cd + cdsize;
    for (unsigned i = 0; i < n; i++) {
        if (i >= ARC_MAX_ENTRIES || c + 46 > end || u32(c) != 0x02014b50) {
            ERR(i >= ARC_MAX_ENTRIES ? "more than %d entries: the rest were not read"
                : "damaged central directory after entry %u", i);
            rc = -1;
            goto out;
        }
        size_t nl = u16(c + 28), xl = u16(c + 30), cl = u16(c + 32);
        if (c + 46 + nl + xl + cl > end) {
            ERR("damaged central directory at entry %u", i + 1);
            rc = -1;
            goto out;
        }
        char name[4096];
        snprintf(name, sizeof name, "%.*s", (int)nl, (const char *)c + 46);
        arc_entry e = {.name = name, .size = u32(c + 24)};
        e.type = zip_type(u16(c + 4), u32(c + 38), name);
        if (strlen(name) != nl) {
            e.type = ENTRY_OTHER;
            snprintf(e.what, sizeof e.what, "an entry whose name holds a NUL byte");
        } else if (u32(c + 20) == 0xffffffffu || u32(c + 24) == 0xffffffffu ||
                   u32(c + 42) == 0xffffffffu) {
            e.type = ENTRY_OTHER;
            snprintf(e.what, sizeof e.what, "a zip64 entry");
        }
        int slot = s->want(s->ctx, &e);
        if (slot >= 0 && e.type == ENTRY_FILE) {
            const char *why = NULL;
            size_t len;
            char *data = zip_content(path, z, zlen, c, name, &why, &len);
            if (data)
                s->got(s->ctx, slot, &e, data, len);
            else
                s->bad(s->ctx, &e, why ? why : "out of memory");
        }
        c += 46 + nl + xl + cl;
    }
out:
    free(z);
    return rc;
}

/* ---- folders ---- */

typedef struct walk {
    const arc_sink *s;
    int entries;
    char *err;
    size_t elen;
} walk;

static int by_name(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    return x && y ? strcmp(x, y) : !x - !y;
}

static int walk_dir(walk *w, int dfd, const char *prefix, int depth)
{
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return 0;
    }
    /* Sorted, so reports and hashes do not depend on the file system's order. */
    struct dirent *de;
    char **names = NULL;
    size_t n = 0, cap = 0;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        names[n++] = strdup(de->d_name);
    }
    qsort(names, n, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!names[i])
            continue;
        if (++w->entries > ARC_MAX_ENTRIES) {
            snprintf(w->err, w->elen, "more than %d entries: the rest were not read",
                     ARC_MAX_ENTRIES);
            rc = -1;
            break;
        }
        char rel[4096];
        snprintf(rel, sizeof rel, "%s%s", prefix, names[i]);
        struct stat st;
        if (fstatat(dirfd(d), names[i], &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        arc_entry e = {.name = rel, .size = (uint64_t)st.st_size};
        e.type = S_ISDIR(st.st_mode) ? ENTRY_DIR : S_ISLNK(st.st_mode) ? ENTRY_SYMLINK
               : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? ENTRY_DEVICE
               : S_ISFIFO(st.st_mode) ? ENTRY_FIFO
               : !S_ISREG(st.st_mode) ? ENTRY_OTHER
               : st.st_nlink > 1 ? ENTRY_HARDLINK : ENTRY_FILE;
        if (e.type == ENTRY_OTHER)
            snprintf(e.what, sizeof e.what, "a socket or other special file");
        int slot = w->s->want(w->s->ctx, &e);
        if (e.type == ENTRY_DIR) {
            /* A clone's history is not part of the answer. */
            if (!strcmp(names[i], ".git"))
                continue;
            if (depth >= ARC_MAX_DEPTH) {
                snprintf(w->err, w->elen, "folders nested deeper than %d: %s was not read",
                         ARC_MAX_DEPTH, rel);
                rc = -1;
                break;
            }
            int sub = openat(dirfd(d), names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                char pre[4100];
                snprintf(pre, sizeof pre, "%s/", rel);
                rc = walk_dir(w, sub, pre, depth + 1);
            }
            continue;
        }
        if (slot < 0 || e.type != ENTRY_FILE)
            continue;
        /* Open without following, and make sure it is still the file listed. */
        int fd = openat(dirfd(d), names[i], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        struct stat now;
        if (fd < 0 || fstat(fd, &now) != 0 || !S_ISREG(now.st_mode) || now.st_ino != st.st_ino ||
            now.st_dev != st.st_dev || now.st_nlink > 1) {
            if (fd >= 0)
                close(fd);
            w->s->bad(w->s->ctx, &e, "it changed while it was being read");
            continue;
        }
        size_t len;
        char *data = read_upto(fd, (size_t)st.st_size, &len);
        close(fd);
        if (data && len == (size_t)st.st_size)
            w->s->got(w->s->ctx, slot, &e, data, len);
        else {
            free(data);
            w->s->bad(w->s->ctx, &e, "it changed while it was being read");
        }
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(d);
    return rc;
}

int archive_read_dir(const char *path, const arc_sink *s, char *err, size_t elen)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        ERR("cannot be read: %s", strerror(errno));
        return -1;
    }
    walk w = {.s = s, .err = err, .elen = elen};
    return walk_dir(&w, fd, "", 0);
}

/* ---- by name ---- */

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && !strcmp(s + n - t, tail);
}

const char *archive_kind(const char *path)
{
    if (ends_with(path, ".tar.gz") || ends_with(path, ".tgz"))
        return "tar.gz";
    if (ends_with(path, ".tar"))
        return "tar";
    if (ends_with(path, ".zip"))
        return "zip";
    return NULL;
}

int archive_read(const char *path, const arc_sink *s, char *kind, size_t klen, char *err,
                 size_t elen)
{
    struct stat st;
    err[0] = 0;
    if (lstat(path, &st) != 0) {
        snprintf(kind, klen, "?");
        ERR("cannot be read: %s", strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(kind, klen, "folder");
        return archive_read_dir(path, s, err, elen);
    }
    const char *k = archive_kind(path);
    snprintf(kind, klen, "%s", k ? k : "?");
    if (!k || !S_ISREG(st.st_mode)) {
        ERR("is neither a folder nor a .tar, .tar.gz, .tgz or .zip file");
        return -1;
    }
    if (!strcmp(k, "zip"))
        return archive_read_zip(path, s, err, elen);
    int fd;
    pid_t pid = -1;
    if (!strcmp(k, "tar")) {
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            ERR("cannot be read: %s", strerror(errno));
            return -1;
        }
    } else {
        char *argv[] = {"gzip", "-dc", "--", (char *)path, NULL};
        pid = spawn_reader(argv, &fd);
        if (pid < 0) {
            ERR("gzip could not be started: %s", strerror(errno));
            return -1;
        }
    }
    int rc = archive_read_tar(fd, s, err, elen);
    if (pid < 0) {
        close(fd);
        return rc;
    }
    /* Read what is left (a tar's padding; not a bomb's worth) so gzip's
     * verdict on the whole file counts; stop it otherwise. */
    int at_end = 0;
    if (rc == 0) {
        char buf[65536];
        ssize_t r;
        size_t left = 1 << 20;
        while (left > 0 && ((r = read(fd, buf, sizeof buf)) > 0 || (r < 0 && errno == EINTR)))
            if (r > 0)
                left = (size_t)r < left ? left - (size_t)r : 0;
        at_end = left > 0;
    }
    int st_gz = reap(pid, fd, !at_end);
    if (rc == 0 && !at_end)
        return 0;
    if (rc == 0 && st_gz != 0) {
        ERR(st_gz == 127 ? "gzip is not installed" : "gzip could not decompress all of it "
            "(damaged, or not gzip): entries before the damage were read");
        return -1;
    }
    return rc;
}
