/* archive.h: reading one student's submission (a folder, a .tar, a .tar.gz
 * or .tgz, or a .zip) without trusting it.
 *
 * The readers only list entries and hand over the content of the ones the
 * caller asks for, into memory; they never create a file or follow a link.
 * What an entry may be (the policy: names, links, devices, sizes) is the
 * caller's, in submission.c. Formats are read here: tar headers (ustar, GNU
 * long names, pax paths) and the zip central directory. Decompression is
 * left to Debian's gzip (tar.gz) and unzip (compressed zip entries), which
 * only ever write to a pipe; each zip entry's bytes are checked against the
 * length and CRC-32 its central directory gives. */
#ifndef GRADER_ARCHIVE_H
#define GRADER_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

enum entry_type {
    ENTRY_FILE,
    ENTRY_DIR,
    ENTRY_SYMLINK,
    ENTRY_HARDLINK,      /* a tar hard link, or a file of a folder with other names */
    ENTRY_DEVICE,
    ENTRY_FIFO,
    ENTRY_OTHER          /* sparse files, volume labels, unknown tar types, zip64 */
};

typedef struct arc_entry {
    const char *name;    /* as the archive (or the folder) names it */
    enum entry_type type;
    uint64_t size;       /* bytes of content */
    char what[48];       /* ENTRY_OTHER: what it was, e.g. "a tar entry of type 'S'" */
} arc_entry;

/* What the caller does with each entry. want() returns a slot (>= 0) to
 * receive the content, or -1 to skip it; got() then receives the content (a
 * malloc'd buffer the caller owns, NUL-terminated); bad() is told when an
 * entry that was wanted could not be read whole. */
typedef struct arc_sink {
    int (*want)(void *ctx, const arc_entry *e);
    void (*got)(void *ctx, int slot, const arc_entry *e, char *data, size_t len);
    void (*bad)(void *ctx, const arc_entry *e, const char *why);
    void *ctx;
} arc_sink;

/* The limits: past them an archive is read no further. */
#define ARC_MAX_ENTRIES 10000
#define ARC_MAX_BYTES (256ull << 20)   /* decompressed tar stream, or zip file */
#define ARC_MAX_DEPTH 12               /* folder nesting */

/* Read `path` by its name: a folder, *.tar, *.tar.gz, *.tgz or *.zip.
 * `kind` gets "folder", "tar", "tar.gz" or "zip". Returns 0 when the whole
 * submission was read, -1 when it could not be read (or not to the end):
 * `err` says why, and the entries passed to the sink before that stand. */
int archive_read(const char *path, const arc_sink *s, char *kind, size_t klen, char *err,
                 size_t elen);

/* The formats one by one (archive_read picks). A tar is read from a stream. */
int archive_read_tar(int fd, const arc_sink *s, char *err, size_t elen);
int archive_read_zip(const char *path, const arc_sink *s, char *err, size_t elen);
int archive_read_dir(const char *path, const arc_sink *s, char *err, size_t elen);

/* Is `path` a name archive_read reads as an archive ("tar.gz", ...), else NULL. */
const char *archive_kind(const char *path);

/* CRC-32 (the zip and gzip one), exposed for the tests. */
uint32_t crc32_of(const void *data, size_t len);

#endif
