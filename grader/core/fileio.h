/* fileio.h: small file helpers. The grader only ever reads course files; it
 * writes nothing but its own report. */
#ifndef GRADER_FILEIO_H
#define GRADER_FILEIO_H
#include <stddef.h>

/* The whole file, NUL-terminated, or NULL. *len gets its length when not NULL. */
char *read_text_file(const char *path, size_t *len);

/* Write all `len` bytes of buf to fd, going on after an interrupted write.
 * 0, or -1 with errno set. */
int write_all(int fd, const void *buf, size_t len);

#endif
