/* archive.h: reading one student's submission (a folder, or a tar or zip
 * archive, compressed or not) without trusting it.
 *
 * Invariants:
 *   - nothing is ever created on disk and no link is followed: entries are
 *     listed, and the content of the ones the caller asks for is handed over
 *     in memory;
 *   - archives are read through libarchive (Debian's libarchive-dev) as a
 *     stream: tar (ustar, GNU, pax, v7), zip (zip64, any host), compressed
 *     with gzip, bzip2, xz or zstd; only the wanted files are held in memory;
 *   - an archive inside the submission (a .zip in a .tar, a .tar.gz in a
 *     folder) is read too, its entries named "<outer entry>/<inner name>";
 *     one inside that is not read, and is passed to the caller as
 *     ENTRY_OTHER saying so;
 *   - what an entry may be (the policy: names, links, devices, sizes) is the
 *     caller's, in submission.c.
 * Caps (past them reading stops, with the reason in `err`): entries and
 * bytes of content, counting only entries the caller does not call
 * ARC_IGNORED (a build/ or .venv/ folder never hides the exercises); folder
 * depth; and seconds. */
#ifndef GRADER_ARCHIVE_H
#define GRADER_ARCHIVE_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>

enum entry_type {
    ENTRY_FILE,
    ENTRY_DIR,
    ENTRY_SYMLINK,
    ENTRY_HARDLINK,      /* a tar hard link, or a file of a folder with other names */
    ENTRY_DEVICE,
    ENTRY_FIFO,
    ENTRY_OTHER          /* sparse files, sockets, an archive nested too deep, ... */
};

typedef struct arc_entry {
    const char *name;    /* as the archive (or the folder) names it */
    enum entry_type type;
    uint64_t size;       /* bytes of content (0 when !size_known) */
    int size_known;      /* 0: a streamed zip entry whose size comes after it */
    char what[64];       /* ENTRY_OTHER: what it was, e.g. "a sparse file" */
} arc_entry;

/* want()'s answers besides a slot. */
#define ARC_SKIP (-1)        /* not wanted; counts toward the caps */
#define ARC_IGNORED (-2)     /* not wanted, not counted; a folder is not walked */

/* What the caller does with each entry. want() returns a slot (>= 0) to
 * receive the content, ARC_SKIP or ARC_IGNORED; got() then receives the
 * content (a malloc'd buffer the caller owns, NUL-terminated); bad() is told
 * when an entry that was wanted, or a nested archive, could not be read
 * whole. */
typedef struct arc_sink {
    int (*want)(void *ctx, const arc_entry *e);
    void (*got)(void *ctx, int slot, const arc_entry *e, char *data, size_t len);
    void (*bad)(void *ctx, const arc_entry *e, const char *why);
    void *ctx;
} arc_sink;

/* The caps. */
#define ARC_MAX_ENTRIES 10000
#define ARC_MAX_BYTES (1ull << 30)     /* content of counted entries, decompressed */
#define ARC_MAX_DEPTH 12               /* folder nesting */
#define ARC_MAX_SECONDS 120            /* one submission, nested archives included */
#define ARC_MAX_UNSIZED (8u << 20)     /* a wanted entry of unknown size is read up to this */

/* ---- reading ---- */

/* Read `path` by its name: a folder, or an archive archive_kind names.
 * `kind` gets "folder", "tar", "tar.gz", "zip", ... Returns 0 when the whole
 * submission was read, -1 when it could not be read (or not to the end):
 * `err` says why (printable), and the entries passed to the sink before that
 * stand. */
int archive_read(const char *path, const arc_sink *s, char *kind, size_t klen, char *err,
                 size_t elen);

/* The kinds one by one (archive_read picks). Any tar, compressed or not,
 * from a stream; a zip from its file (the central directory is read). */
int archive_read_tar(int fd, const arc_sink *s, char *err, size_t elen);
int archive_read_zip(const char *path, const arc_sink *s, char *err, size_t elen);
int archive_read_dir(const char *path, const arc_sink *s, char *err, size_t elen);

/* The time cap for the readings that start after it (seconds > 0), or
 * back to ARC_MAX_SECONDS (0). Only the tests set it: two minutes is too
 * long to wait for in a test. */
void archive_set_max_seconds(double seconds);

/* ---- names ---- */

/* The kind of archive a name ends in ("tar", "tar.gz", "tar.bz2", "tar.xz",
 * "tar.zst", "zip"), or NULL. */
const char *archive_kind(const char *path);
/* How many bytes of the name that ending takes (".tar.gz": 7, ".tgz": 4), or 0. */
size_t archive_suffix_len(const char *path);

/* ---- folders ---- */

/* The names in the open folder d, except . and .. and those leave_out(ctx,
 * name) says to leave out (leave_out may be NULL), sorted bytewise, so that
 * reports and hashes never depend on the file system's order. Sets *n and
 * returns the list (free each name, then the list; NULL when there are
 * none). When the folder cannot be read to the end, or memory runs out:
 * NULL, *n = (size_t)-1, errno says why; never a list that silently lacks
 * an entry (that would lose a file, or a student). Used for submission
 * folders (archive_read_dir) and the class's folder of submissions. */
char **dir_names(DIR *d, size_t *n, int (*leave_out)(void *ctx, const char *name), void *ctx);

/* CRC-32 (the zip and gzip one), for the tests that write zips by hand. */
uint32_t crc32_of(const void *data, size_t len);

#endif
