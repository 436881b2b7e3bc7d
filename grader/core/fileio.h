/* fileio.h: small file helpers. The grader only ever reads course files; it
 * writes nothing but its own report. */
#ifndef GRADER_FILEIO_H
#define GRADER_FILEIO_H
#include <stddef.h>

/* The whole file, NUL-terminated, or NULL. *len gets its length when not NULL. */
char *read_text_file(const char *path, size_t *len);

#endif
