/* hand_in.h: students' hand-ins built by the tests: tar (pax), tar.gz and
 * zip archives written through libarchive into memory (any entry type, a
 * zip entry of unknown size, an encrypted one, a sparse file), saved as a
 * file or put inside another archive; and the folder a test works in.
 * Defined in test_hand_in_fixture.c; used by test_class_archive.c (the
 * reader) and test_class_submission.c (the rules). */
#ifndef TESTS_UNIT_HAND_IN_H
#define TESTS_UNIT_HAND_IN_H

#include <stddef.h>

typedef struct hand_in hand_in;

/* kind: "tar" (ustar, pax where needed), "tar.F" compressed with filter F
 * as libarchive names it ("gzip", "bzip2", "xz", "lzma", "zstd",
 * "compress"), "zip" (deflated), "zipstore" for a zip of stored entries,
 * "zipcrypt" for one whose entries are encrypted (passphrase "pw"). */
hand_in *hi_new(const char *kind);
void hi_file(hand_in *h, const char *name, const void *data, size_t len);
void hi_text(hand_in *h, const char *name, const char *text);
/* A zip entry whose size the local header does not give (a data
 * descriptor after it): read as a stream, its size is unknown. */
void hi_unsized(hand_in *h, const char *name, const void *data, size_t len);
void hi_dir(hand_in *h, const char *name);
void hi_symlink(hand_in *h, const char *name, const char *target);
void hi_hardlink(hand_in *h, const char *name, const char *target);
/* A device or FIFO: AE_IFCHR, AE_IFBLK or AE_IFIFO. */
void hi_special(hand_in *h, const char *name, unsigned type);
/* A pax sparse file of `size` bytes with 10 bytes of data. */
void hi_sparse(hand_in *h, const char *name, size_t size);
/* Another archive as one entry. */
void hi_nest(hand_in *h, const char *name, hand_in *inner);
/* The archive's bytes (valid until hi_free). */
const char *hi_bytes(hand_in *h, size_t *len);
/* Write it to `path`, then free it. */
void hi_save(hand_in *h, const char *path);
void hi_free(hand_in *h);

/* A ustar archive written by hand, its entries of these sizes (any bytes
 * in their names) holding holes in the file: sparse on disk, so a GiB
 * costs nothing to write or to skip. */
void hi_sized_tar(const char *path, const char *const *names, const unsigned long long *sizes,
                  int n);
/* The same, entry i holding data[i] where it is not NULL. */
void hi_sized_tar_with(const char *path, const char *const *names,
                       const unsigned long long *sizes, const char *const *data, int n);

/* A zip of stored one-byte entries ("x") whose Unix modes (file type
 * included) are these: any type a zip can claim. */
void hi_zip_modes(const char *path, const char *const *names, const unsigned *modes, int n);

/* Take every byte of memory a limit (RLIMIT_AS, 4 MiB over what the
 * process has) leaves, so that the next allocation fails; and give it
 * back (the limit stays: call it in a test's own process). */
void hi_take_all_memory(void);
void hi_give_back_memory(void);

/* A fresh folder under $TMPDIR, and its removal (a checked fixture). */
const char *hi_scratch(void);
void hi_scratch_remove(void);
/* path, made from a format, under the scratch folder; a file there with
 * its folders; a folder. */
const char *hi_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hi_write(const char *rel, const char *text);
void hi_mkdir(const char *rel);

#endif
