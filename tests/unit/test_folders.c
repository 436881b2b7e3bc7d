/* test_folders.c: dir_names (class/archive.h), the one way a folder is
 * listed for class grading (a student's folder, the folder of submissions):
 * every entry but . and .., dot-names included, in bytewise order whatever
 * the file system's, and only what the caller leaves out is left out. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "archive.h"
#include "hand_in.h"
#include "suites.h"

static char top[] = "/tmp/test-folders-XXXXXX";

static void touch(const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", top, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
}

static int leave_out_b(void *ctx, const char *name)
{
    ++*(int *)ctx;
    return name[0] == 'b';
}

static char **list(size_t *n, int (*leave_out)(void *, const char *), void *ctx)
{
    DIR *d = opendir(top);
    ck_assert_ptr_nonnull(d);
    char **names = dir_names(d, n, leave_out, ctx);
    closedir(d);
    return names;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

START_TEST(every_name_sorted)
{
    ck_assert_ptr_nonnull(mkdtemp(top));
    size_t n = 99;
    ck_assert_ptr_null(list(&n, NULL, NULL));          /* empty: none, not a failure */
    ck_assert_uint_eq(n, 0);
    const char *made[] = {"zed", "Alice", ".bob", "bob", "b", "_x", "\xc3\xa9mile", "a b"};
    for (size_t i = 0; i < sizeof made / sizeof *made; i++)
        touch(made[i]);
    char **names = list(&n, NULL, NULL);
    const char *want[] = {".bob", "Alice", "_x", "a b", "b", "bob", "zed", "\xc3\xa9mile"};
    ck_assert_uint_eq(n, sizeof want / sizeof *want);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(names[i], want[i]);
    free_names(names, n);
    int asked = 0;
    names = list(&n, leave_out_b, &asked);
    ck_assert_int_eq(asked, 8);                          /* asked of every entry, not . or .. */
    const char *kept[] = {".bob", "Alice", "_x", "a b", "zed", "\xc3\xa9mile"};
    ck_assert_uint_eq(n, sizeof kept / sizeof *kept);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(names[i], kept[i]);
    free_names(names, n);
    for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", top, made[i]);
        unlink(p);
    }
    rmdir(top);
}
END_TEST

START_TEST(more_names_than_the_first_allocation)
{
    strcpy(top, "/tmp/test-folders-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(top));
    char name[32];
    for (int i = 0; i < 200; i++) {
        snprintf(name, sizeof name, "s%03d", 199 - i);
        touch(name);
    }
    size_t n;
    char **names = list(&n, NULL, NULL);
    ck_assert_uint_eq(n, 200);
    for (int i = 0; i < 200; i++) {
        snprintf(name, sizeof name, "s%03d", i);
        ck_assert_str_eq(names[i], name);
        char p[256];
        snprintf(p, sizeof p, "%s/%s", top, name);
        unlink(p);
    }
    free_names(names, n);
    rmdir(top);
}
END_TEST

/* A leave_out that looks at each entry and leaves errno set (class.c's
 * is_out_folder stats every entry: a dangling symbolic link among the
 * submissions gives ENOENT) is no failure to read the folder: every name
 * is still listed. */
static int stat_and_keep(void *ctx, const char *name)
{
    struct stat st;
    char p[300];
    snprintf(p, sizeof p, "%s/%s/missing", top, name);
    ++*(int *)ctx;
    (void)stat(p, &st);         /* fails: ENOENT */
    return 0;
}

START_TEST(a_leave_out_that_sets_errno_loses_nothing)
{
    strcpy(top, "/tmp/test-folders-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(top));
    touch("a");
    touch("b");
    size_t n = 99;
    int asked = 0;
    char **names = list(&n, stat_and_keep, &asked);
    ck_assert_int_eq(asked, 2);
    ck_assert_uint_eq(n, 2);
    ck_assert_ptr_nonnull(names);
    ck_assert_str_eq(names[0], "a");
    ck_assert_str_eq(names[1], "b");
    free_names(names, n);
    char p[256];
    snprintf(p, sizeof p, "%s/a", top);
    unlink(p);
    snprintf(p, sizeof p, "%s/b", top);
    unlink(p);
    rmdir(top);
}
END_TEST

/* Memory running out in the middle of a listing (here: taken by the
 * caller's leave_out as name `at` is looked at): NULL, ENOMEM, and every
 * name already copied is given back: right after, with no other memory
 * free, the first name's block is there to be taken again. At name 2 the
 * copy of the name fails; at name 65, the list's growth past 64. */
static int take_at;

static int take_memory_at(void *ctx, const char *name)
{
    (void)name;
    if (++*(int *)ctx == take_at)
        hi_take_all_memory();
    return 0;
}

START_TEST(running_out_of_memory_gives_back_what_was_taken)
{
    static const int at[] = {2, 65};
    for (int k = 0; k < 2; k++) {
        strcpy(top, "/tmp/test-folders-XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(top));
        char name[32];
        for (int i = 0; i < at[k]; i++) {
            snprintf(name, sizeof name, "s%03d", i);
            touch(name);
        }
        DIR *d = opendir(top);
        ck_assert_ptr_nonnull(d);
        size_t n = 99;
        int asked = 0;
        take_at = at[k];
        errno = 0;
        char **names = dir_names(d, &n, take_memory_at, &asked);
        int e = errno;
        void *again = malloc(2);   /* before closedir frees the DIR's buffer */
        hi_give_back_memory();
        closedir(d);
        ck_assert_ptr_null(names);
        ck_assert_uint_eq(n, (size_t)-1);
        ck_assert_int_eq(e, ENOMEM);
        ck_assert_int_eq(asked, at[k]);
        ck_assert_ptr_nonnull(again);
        free(again);
        for (int i = 0; i < at[k]; i++) {
            char p[256];
            snprintf(p, sizeof p, "%s/s%03d", top, i);
            unlink(p);
        }
        rmdir(top);
    }
}
END_TEST

/* A folder removed after it was opened lists no entry at all, not even
 * . and ..: none, and no failure (readdir's end leaves errno alone, so
 * nothing but readdir's own error may count). */
START_TEST(a_removed_folder_lists_none)
{
    strcpy(top, "/tmp/test-folders-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(top));
    DIR *d = opendir(top);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(rmdir(top), 0);
    size_t n = 99;
    errno = 0;
    char **names = dir_names(d, &n, NULL, NULL);
    int e = errno;
    closedir(d);
    ck_assert_ptr_null(names);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(e, 0);
}
END_TEST

Suite *folders_suite(void)
{
    Suite *s = suite_create("folders");
    TCase *t = tcase_create("folders");
    tcase_add_test(t, every_name_sorted);
    tcase_add_test(t, more_names_than_the_first_allocation);
    tcase_add_test(t, a_leave_out_that_sets_errno_loses_nothing);
    tcase_add_test(t, running_out_of_memory_gives_back_what_was_taken);
    tcase_add_test(t, a_removed_folder_lists_none);
    suite_add_tcase(s, t);
    return s;
}
