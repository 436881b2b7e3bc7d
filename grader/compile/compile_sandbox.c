/* compile_sandbox.c: the file-opening functions NVRTC calls, guarded.
 *
 * libnvrtc imports open, fopen and fopen64 from the C library (nm -D) and
 * reads every header through them (measured by interposing them: each
 * #include and each __has_include is one fopen). A definition in the grader's
 * own executable comes first in the dynamic linker's search, so these are
 * the ones NVRTC calls; they forward to the C library's through
 * dlsym(RTLD_NEXT). The openat and 64-bit variants are guarded too, so a
 * future NVRTC that switches call does not get around the check. */
/* The plain names: a fortified or 64-bit-offset build would turn open into
 * another symbol, and these definitions must be exactly the C library's. */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "compile_sandbox.h"

#define MAX_DIRS 8

static int active;
static char roots[MAX_DIRS][PATH_MAX];
static int nroots;
static char refused_path[PATH_MAX];

int sandbox_enter(const char *const *dirs, int ndirs)
{
    nroots = 0;
    for (int d = 0; d < ndirs && nroots < MAX_DIRS; d++)
        if (realpath(dirs[d], roots[nroots]))
            nroots++;
    refused_path[0] = 0;
    active = 1;
    return nroots ? 0 : -1;
}

void sandbox_leave(void)
{
    active = 0;
}

const char *sandbox_refused(void)
{
    return refused_path[0] ? refused_path : NULL;
}

int sandbox_linked(void)
{
    return 1;
}

static int refuse(const char *path)
{
    if (!refused_path[0])
        snprintf(refused_path, sizeof refused_path, "%s", path ? path : "(no name)");
    return 0;
}

/* May `path` be opened with `write` intent? Outside the sandbox, always. */
static int may_open(const char *path, int write)
{
    if (!active)
        return 1;
    char real[PATH_MAX];
    struct stat st;
    if (!write && path && realpath(path, real) && stat(real, &st) == 0 && S_ISREG(st.st_mode))
        for (int d = 0; d < nroots; d++) {
            size_t n = strlen(roots[d]);
            if (!strncmp(real, roots[d], n) && real[n] == '/')
                return 1;
        }
    /* A path that does not exist holds nothing to show: NVRTC probes each
     * include directory in turn, and those misses are not the student's. */
    if (!write && path && !realpath(path, real))
        return 0;
    return refuse(path);
}

static int write_flags(int flags)
{
    return (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC | O_APPEND));
}

static int write_mode(const char *mode)
{
    return mode && (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+'));
}

/* The C library's own function, looked up once. */
#define REAL(name, type, failed)                                                 \
    static type real_##name;                                                   \
    if (!real_##name)                                                           \
        real_##name = (type)dlsym(RTLD_NEXT, #name);                            \
    if (!real_##name) {                                                         \
        errno = ENOSYS;                                                         \
        return failed;                                                          \
    }

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef FILE *(*fopen_fn)(const char *, const char *);

/* The mode argument exists only when a file may be created. */
#define MODE_ARG(flags, mode)                                                    \
    mode_t mode = 0;                                                            \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                                      \
        va_list ap;                                                             \
        va_start(ap, flags);                                                    \
        mode = (mode_t)va_arg(ap, int);                                         \
        va_end(ap);                                                             \
    }

int open(const char *path, int flags, ...)
{
    MODE_ARG(flags, mode);
    if (!may_open(path, write_flags(flags))) {
        errno = ENOENT;
        return -1;
    }
    REAL(open, open_fn, -1);
    return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    MODE_ARG(flags, mode);
    if (!may_open(path, write_flags(flags))) {
        errno = ENOENT;
        return -1;
    }
    REAL(open64, open_fn, -1);
    return real_open64(path, flags, mode);
}

/* openat with a directory descriptor: inside the sandbox only absolute paths
 * can be judged, so a relative one is refused. */
int openat(int dirfd, const char *path, int flags, ...)
{
    MODE_ARG(flags, mode);
    if (active && path[0] != '/' && dirfd != AT_FDCWD) {
        refuse(path);
        errno = ENOENT;
        return -1;
    }
    if (!may_open(path, write_flags(flags))) {
        errno = ENOENT;
        return -1;
    }
    REAL(openat, openat_fn, -1);
    return real_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    MODE_ARG(flags, mode);
    if (active && path[0] != '/' && dirfd != AT_FDCWD) {
        refuse(path);
        errno = ENOENT;
        return -1;
    }
    if (!may_open(path, write_flags(flags))) {
        errno = ENOENT;
        return -1;
    }
    REAL(openat64, openat_fn, -1);
    return real_openat64(dirfd, path, flags, mode);
}

FILE *fopen(const char *path, const char *how)
{
    if (!may_open(path, write_mode(how))) {
        errno = ENOENT;
        return NULL;
    }
    REAL(fopen, fopen_fn, NULL);
    return real_fopen(path, how);
}

FILE *fopen64(const char *path, const char *how)
{
    if (!may_open(path, write_mode(how))) {
        errno = ENOENT;
        return NULL;
    }
    REAL(fopen64, fopen_fn, NULL);
    return real_fopen64(path, how);
}
