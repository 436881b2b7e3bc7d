/* test_sandbox.c: the open/fopen guard around NVRTC (compile_sandbox.h),
 * called directly: every entry point (open, open64, openat, openat64,
 * fopen, fopen64) before the sandbox, inside it and after it, on a toolkit
 * of the test's own (folders of headers, a folder, a link out, a sibling
 * folder whose name starts like a toolkit folder's, a file outside).
 *
 * Each test enters the sandbox in its own process (Check runs each test
 * in a child) and leaves it before it ends, as the compile child does.
 *
 *   CK_RUN_SUITE=sandbox build/tests/unit_tests */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compile_sandbox.h"
#include "suites.h"

/* top/inc0 .. inc8: nine toolkit folders, each with h.h; top/inc0/dir: a
 * folder; top/inc0/out.h: a link to top/outside.h; top/inc0x/h.h: a file in
 * a sibling folder named like inc0; top/outside.h: a file outside. */
static char top[64];
static char inc[9][96];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static const char *at(const char *fmt, const char *a)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], fmt, a);
    return buf[k];
}

static void make_toolkit(void)
{
    snprintf(top, sizeof top, "/tmp/grader-sandbox-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(top));
    for (int d = 0; d < 9; d++) {
        snprintf(inc[d], sizeof inc[d], "%s/inc%d", top, d);
        ck_assert_int_eq(mkdir(inc[d], 0700), 0);
        write_file(at("%s/h.h", inc[d]), "/* a header */\n");
    }
    ck_assert_int_eq(mkdir(at("%s/dir", inc[0]), 0700), 0);
    write_file(at("%s/outside.h", top), "/* outside */\n");
    ck_assert_int_eq(symlink(at("%s/outside.h", top), at("%s/out.h", inc[0])), 0);
    ck_assert_int_eq(mkdir(at("%s/inc0x", top), 0700), 0);
    write_file(at("%s/inc0x/h.h", top), "/* a sibling */\n");
}

/* The toolkit goes with the test's process (rm -r through the shell, after
 * the sandbox is left). */
static void remove_toolkit(void)
{
    char cmd[sizeof top + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    ck_assert_int_eq(system(cmd), 0);
}

static int opens(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd >= 0)
        close(fd);
    return fd >= 0;
}

/* fopen and fopen64 on `path` with `how`: 1 when opened. */
static int fopens(const char *path, const char *how)
{
    FILE *f = fopen(path, how);
    FILE *g = fopen64(path, how);
    ck_assert_msg(!f == !g, "fopen and fopen64 disagree on %s (%s)", path, how);
    if (f)
        fclose(f);
    if (g)
        fclose(g);
    return f != NULL;
}

/* A refused open: fails with ENOENT, as if the file were not there. */
static void assert_refused_fd(int fd, const char *what)
{
    ck_assert_msg(fd == -1, "%s: opened (%d)", what, fd);
    ck_assert_msg(errno == ENOENT, "%s: errno %d, not ENOENT", what, errno);
}

static void enter(int ndirs)
{
    const char *dirs[9];
    for (int d = 0; d < 9; d++)
        dirs[d] = inc[d];
    ck_assert_int_eq(sandbox_enter(dirs, ndirs), 0);
    ck_assert_ptr_null(sandbox_refused());
}

START_TEST(reading_a_toolkit_header_is_allowed)
{
    make_toolkit();
    ck_assert_int_eq(sandbox_linked(), 1);
    enter(1);
    const char *h = at("%s/h.h", inc[0]);
    ck_assert(opens(h));
    int fd = open64(h, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert(fopens(h, "r"));
    ck_assert(fopens(h, "rb"));
    fd = openat(AT_FDCWD, h, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    /* An absolute path with a folder's descriptor: the folder is ignored. */
    int fd2 = openat(fd, h, O_RDONLY), fd3 = openat64(fd, h, O_RDONLY);
    ck_assert_int_ge(fd2, 0);
    ck_assert_int_ge(fd3, 0);
    close(fd);
    close(fd2);
    close(fd3);
    /* Through "..", still inside. */
    ck_assert(opens(at("%s/dir/../h.h", inc[0])));
    /* Relative to the current folder, resolved first. */
    char cwd[512];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(inc[0]), 0);
    fd = openat64(AT_FDCWD, "h.h", O_RDONLY);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_ptr_null(sandbox_refused());
    sandbox_leave();
    remove_toolkit();
}
END_TEST

START_TEST(everything_else_is_refused_and_named)
{
    make_toolkit();
    enter(1);
    const char *outside = at("%s/outside.h", top);
    errno = 0;
    assert_refused_fd(open(outside, O_RDONLY), "open outside");
    /* The first refusal is the one kept. */
    ck_assert_str_eq(sandbox_refused(), outside);
    errno = 0;
    ck_assert_ptr_null(fopen(at("%s/inc0x/h.h", top), "r"));
    ck_assert_int_eq(errno, ENOENT);
    errno = 0;
    ck_assert_ptr_null(fopen64(at("%s/inc0x/h.h", top), "r"));
    ck_assert_int_eq(errno, ENOENT);
    assert_refused_fd(open64(outside, O_RDONLY), "open64 outside");
    assert_refused_fd(openat(AT_FDCWD, outside, O_RDONLY), "openat outside");
    assert_refused_fd(openat64(AT_FDCWD, outside, O_RDONLY), "openat64 outside");
    ck_assert_str_eq(sandbox_refused(), outside);
    sandbox_leave();
    remove_toolkit();
}
END_TEST

START_TEST(a_folder_a_link_out_and_a_sibling_are_refused)
{
    make_toolkit();
    enter(1);
    ck_assert(!opens(inc[0]));                          /* a folder, not a header */
    ck_assert_str_eq(sandbox_refused(), inc[0]);
    ck_assert(!opens(at("%s/dir", inc[0])));
    ck_assert(!fopens(at("%s/out.h", inc[0]), "r"));    /* a link leading out */
    ck_assert(!opens(at("%s/inc0x/h.h", top)));         /* named like inc0, not in it */
    ck_assert(!opens(at("%s/h.h", inc[1])));            /* not a folder it was given */
    ck_assert(!opens("/dev/zero"));
    ck_assert(!opens("/proc/self/environ"));
    ck_assert_str_eq(sandbox_refused(), inc[0]);
    sandbox_leave();
    remove_toolkit();
}
END_TEST

START_TEST(no_header_is_opened_to_write)
{
    make_toolkit();
    enter(1);
    const char *h = at("%s/h.h", inc[0]);
    static const char *const modes[] = {"w", "a", "r+", "wb", "ab+"};
    for (int m = 0; m < 5; m++)
        ck_assert_msg(!fopens(h, modes[m]), "opened with \"%s\"", modes[m]);
    ck_assert_str_eq(sandbox_refused(), h);
    static const int flags[] = {O_WRONLY, O_RDWR, O_RDONLY | O_TRUNC, O_RDONLY | O_APPEND,
                                O_RDONLY | O_CREAT};
    for (int f = 0; f < 5; f++) {
        errno = 0;
        assert_refused_fd(open(h, flags[f], 0600), "open to write");
        assert_refused_fd(open64(h, flags[f], 0600), "open64 to write");
        assert_refused_fd(openat(AT_FDCWD, h, flags[f], 0600), "openat to write");
        assert_refused_fd(openat64(AT_FDCWD, h, flags[f], 0600), "openat64 to write");
    }
    /* A new file, even in a toolkit folder: refused and named (a header
     * that is not there is not, see below). */
    sandbox_leave();
    sandbox_enter((const char *const[]){inc[0]}, 1);
    const char *fresh = at("%s/new.h", inc[0]);
    ck_assert(!fopens(fresh, "w"));
    ck_assert_str_eq(sandbox_refused(), fresh);
    sandbox_leave();
    ck_assert_int_eq(access(fresh, F_OK), -1);
    remove_toolkit();
}
END_TEST

START_TEST(a_missing_header_is_not_a_refusal)
{
    /* NVRTC looks for each header in every include folder in turn: the
     * misses are not the student's doing and name nothing. */
    make_toolkit();
    enter(2);
    errno = 0;
    ck_assert(!fopens(at("%s/none.h", inc[0]), "r"));
    ck_assert_int_eq(errno, ENOENT);
    ck_assert(!opens(at("%s/none.h", top)));
    ck_assert_ptr_null(sandbox_refused());
    /* A path of no file at all (NULL) is refused, by a name of its own. */
    const char *volatile none = NULL;
    errno = 0;
    ck_assert_ptr_null(fopen(none, "r"));
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_str_eq(sandbox_refused(), "(no name)");
    sandbox_leave();
    remove_toolkit();
}
END_TEST

START_TEST(a_path_relative_to_a_folder_is_refused)
{
    /* openat with a folder's descriptor and a relative path cannot be
     * judged by its name alone: refused, even from the toolkit's folder,
     * and even with the current folder there. */
    make_toolkit();
    int dir = open(inc[0], O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(dir, 0);
    char cwd[512];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(inc[0]), 0);
    enter(1);
    errno = 0;
    assert_refused_fd(openat(dir, "h.h", O_RDONLY), "openat relative");
    ck_assert_str_eq(sandbox_refused(), "h.h");
    sandbox_leave();
    enter(1);
    assert_refused_fd(openat64(dir, "h", O_RDONLY), "openat64 relative");
    /* A one-letter name, kept as the first refusal though others follow. */
    ck_assert_str_eq(sandbox_refused(), "h");
    ck_assert(!opens(at("%s/outside.h", top)));
    ck_assert_str_eq(sandbox_refused(), "h");
    sandbox_leave();
    ck_assert_int_eq(chdir(cwd), 0);
    close(dir);
    remove_toolkit();
}
END_TEST

START_TEST(the_first_eight_folders_count)
{
    /* At most 8 include folders are kept; more are not allowed by being
     * given (the grader gives 2). */
    make_toolkit();
    enter(9);
    for (int d = 0; d < 8; d++)
        ck_assert_msg(opens(at("%s/h.h", inc[d])), "folder %d refused", d);
    ck_assert(!opens(at("%s/h.h", inc[8])));
    sandbox_leave();
    /* Only the folders counted are given, whatever follows in the array. */
    enter(1);
    ck_assert(opens(at("%s/h.h", inc[0])));
    ck_assert(!opens(at("%s/h.h", inc[1])));
    sandbox_leave();
    remove_toolkit();
}
END_TEST

START_TEST(no_folder_no_file)
{
    make_toolkit();
    const char *missing[] = {"/nonexistent/include", at("%s/none", top)};
    ck_assert_int_eq(sandbox_enter(missing, 2), -1);
    ck_assert(!opens(at("%s/h.h", inc[0])));
    ck_assert(!opens("/etc/hostname"));
    ck_assert_ptr_nonnull(sandbox_refused());
    sandbox_leave();
    /* Entering again starts afresh: nothing refused yet. */
    enter(1);
    ck_assert_ptr_null(sandbox_refused());
    sandbox_leave();
    remove_toolkit();
}
END_TEST

/* Before the sandbox and after it, every call is the C library's: files
 * are created with the flags and the mode asked for. */
static void creates(const char *path, int which)
{
    int fd = -1;
    int flags = O_WRONLY | O_CREAT | O_TRUNC;
    switch (which) {
    case 0: fd = open(path, flags, 0604); break;
    case 1: fd = open64(path, flags, 0604); break;
    case 2: fd = openat(AT_FDCWD, path, flags, 0604); break;
    case 3: fd = openat64(AT_FDCWD, path, flags, 0604); break;
    }
    ck_assert_msg(fd >= 0, "entry %d could not create %s: %s", which, path, strerror(errno));
    ck_assert_int_eq(write(fd, "x", 1), 1);
    close(fd);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_msg((st.st_mode & 0777) == (0604 & ~022), "entry %d: mode %o", which,
                  st.st_mode & 0777);
    ck_assert_int_eq(st.st_size, 1);
    unlink(path);
}

static void everything_passes(void)
{
    const char *f = at("%s/made.txt", top);
    mode_t old = umask(022);
    for (int k = 0; k < 4; k++)
        creates(f, k);
    umask(old);
    /* A path relative to a folder's descriptor. */
    int dir = open(top, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(dir, 0);
    int fd = openat(dir, "outside.h", O_RDONLY), fd64 = openat64(dir, "outside.h", O_RDONLY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_ge(fd64, 0);
    close(fd);
    close(fd64);
    fd = openat(dir, at("%s/outside.h", top), O_RDONLY);
    ck_assert_int_ge(fd, 0);
    close(fd);
    close(dir);
    FILE *w = fopen(f, "w"), *w64 = fopen64(at("%s/made64.txt", top), "w");
    ck_assert_ptr_nonnull(w);
    ck_assert_ptr_nonnull(w64);
    fclose(w);
    fclose(w64);
    unlink(f);
    unlink(at("%s/made64.txt", top));
    ck_assert(opens("/dev/zero"));
}

START_TEST(before_and_after_the_sandbox_everything_passes)
{
    make_toolkit();
    everything_passes();
    ck_assert_ptr_null(sandbox_refused());
    enter(1);
    ck_assert(!opens(at("%s/outside.h", top)));
    sandbox_leave();
    everything_passes();
    remove_toolkit();
}
END_TEST

Suite *sandbox_suite(void)
{
    Suite *s = suite_create("sandbox");
    TCase *tc = tcase_create("sandbox");
    tcase_add_test(tc, reading_a_toolkit_header_is_allowed);
    tcase_add_test(tc, everything_else_is_refused_and_named);
    tcase_add_test(tc, a_folder_a_link_out_and_a_sibling_are_refused);
    tcase_add_test(tc, no_header_is_opened_to_write);
    tcase_add_test(tc, a_missing_header_is_not_a_refusal);
    tcase_add_test(tc, a_path_relative_to_a_folder_is_refused);
    tcase_add_test(tc, the_first_eight_folders_count);
    tcase_add_test(tc, no_folder_no_file);
    tcase_add_test(tc, before_and_after_the_sandbox_everything_passes);
    suite_add_tcase(s, tc);
    return s;
}
