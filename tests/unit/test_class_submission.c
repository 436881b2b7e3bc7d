/* test_class_submission.c: what a hand-in may contain (submission.c), on
 * hand-ins built in the test (hand_in.h): the name rules, which folders are
 * ignored unseen, each refusal with its reason (and the reason an exercise
 * is missing), the size and copy caps at their boundaries, which copy of
 * an exercise is taken when there are several (the root holding the most
 * exercise files), staging the taken files, and what the content hash
 * covers (everything that decides a grade, nothing else).
 *
 *   CK_RUN_SUITE=class_submission build/tests/unit_tests
 */
#include <archive_entry.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "archive.h"
#include "class.h"
#include "fileio.h"
#include "hand_in.h"
#include "submission.h"
#include "suites.h"

/* Lessons 0 and 3: saxpy, bank_conflicts, matmul. */
static const exercise *ex[8];
static int nex;
static int SX, BC, MM;

static void course(void)
{
    nex = 0;
    for (const exercise *const *e = lesson_exercises[0]; *e; e++)
        ex[nex++] = *e;
    for (const exercise *const *e = lesson_exercises[3]; *e; e++)
        ex[nex++] = *e;
    for (int i = 0; i < nex; i++) {
        if (!strcmp(ex[i]->file, "lesson0/saxpy.cu"))
            SX = i;
        if (!strcmp(ex[i]->file, "lesson3/bank_conflicts.cu"))
            BC = i;
        if (!strcmp(ex[i]->file, "lesson3/matmul.cu"))
            MM = i;
    }
}

static submission sub;

static int read_hand_in(hand_in *h, const char *name)
{
    hi_save(h, hi_path("%s", name));
    return submission_read(hi_path("%s", name), ex, nex, &sub);
}

static void expect_refused(int i, const char *entry, const char *why)
{
    ck_assert_msg(i < sub.nrefused, "only %d refused", sub.nrefused);
    ck_assert_msg(!strcmp(sub.refused[i].entry, entry) && !strcmp(sub.refused[i].why, why),
                  "refusal %d: \"%s\": \"%s\"; want \"%s\": \"%s\"", i, sub.refused[i].entry,
                  sub.refused[i].why, entry, why);
}

static void expect_taken(int i, const char *from, const char *data)
{
    ck_assert_msg(sub.data[i] != NULL, "%s not taken (%s)", ex[i]->file, sub.missing_why[i]);
    ck_assert_str_eq(sub.from[i], from);
    ck_assert_str_eq(sub.data[i], data);
    ck_assert_uint_eq(sub.len[i], strlen(data));
}

/* ---- names ---- */

START_TEST(entry_names_checked_and_normalised)
{
    char norm[64];
    const char *why;
    static const struct { const char *in, *norm; } ok[] = {
        {"lesson3/matmul.cu", "lesson3/matmul.cu"}, {"./a//b/./c/", "a/b/c"}, {".", ""},
        {"./", ""}, {"a/..b/c..", "a/..b/c.."}, {"...", "..."}, {"a/.../b", "a/.../b"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        ck_assert_msg(entry_name_check(ok[i].in, norm, sizeof norm, &why) == 0, "%s", ok[i].in);
        ck_assert_str_eq(norm, ok[i].norm);
    }
    static const struct { const char *in, *why; } bad[] = {
        {"", "it has no name"},
        {"/etc/passwd", "an absolute path: it would land outside the student's folder"},
        {"a\\b.cu", "a backslash in the name (a Windows path?): archives separate folders with '/'"},
        {"..", "'..' in the path: it would land outside the student's folder"},
        {"a/../b", "'..' in the path: it would land outside the student's folder"},
        {"a/..", "'..' in the path: it would land outside the student's folder"},
        {"./../x", "'..' in the path: it would land outside the student's folder"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        why = NULL;
        ck_assert_msg(entry_name_check(bad[i].in, norm, sizeof norm, &why) == -1, "%s", bad[i].in);
        ck_assert_str_eq(why, bad[i].why);
    }
    /* The normalised name and its NUL fit in len bytes, or it is refused. */
    ck_assert_int_eq(entry_name_check("abc/def", norm, 8, &why), 0);
    ck_assert_str_eq(norm, "abc/def");
    ck_assert_int_eq(entry_name_check("abc/def", norm, 7, &why), -1);
    ck_assert_str_eq(why, "the name is too long");
    ck_assert_int_eq(entry_name_check("abcdef", norm, 8, &why), 0);
    ck_assert_int_eq(entry_name_check("abcdefg", norm, 8, &why), -1);
}
END_TEST

START_TEST(exercise_files_at_any_depth)
{
    course();
    ck_assert_int_eq(entry_exercise("lesson3/matmul.cu", ex, nex), MM);
    ck_assert_int_eq(entry_exercise("w/lesson3/bank_conflicts.cu", ex, nex), BC);
    ck_assert_int_eq(entry_exercise("a/b/c/lesson0/saxpy.cu", ex, nex), SX);
    ck_assert_int_eq(entry_exercise("xlesson3/matmul.cu", ex, nex), -1);
    ck_assert_int_eq(entry_exercise("lesson3/matmul.cu.bak", ex, nex), -1);
    ck_assert_int_eq(entry_exercise("matmul.cu", ex, nex), -1);
    ck_assert_int_eq(entry_exercise("lesson4/unroll.cu", ex, nex), -1);
    ck_assert_int_eq(entry_exercise("", ex, nex), -1);
}
END_TEST

START_TEST(folders_ignored_unseen)
{
    static const struct { const char *name; int dir, ignored; } t[] = {
        {"build/x.o", 0, 1}, {"build", 1, 1}, {"build", 0, 0}, {"a/build/b", 0, 1},
        {"a/build", 1, 1}, {"a/build", 0, 0}, {"builds/x", 0, 0}, {"buil/x", 0, 0},
        {"xbuild/y", 0, 0}, {".git/objects/ab", 0, 1}, {".pytest_cache/x", 0, 1},
        {"__MACOSX/._a.cu", 0, 1}, {"node_modules", 1, 1}, {"src/.venv/lib/x.py", 0, 1},
        {"", 0, 0}, {"", 1, 0}, {"a/b/c", 1, 0}, {"a/b/c.cu", 0, 0}, {"lesson3/matmul.cu", 0, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        ck_assert_msg(!!entry_ignored_folder(t[i].name, t[i].dir) == t[i].ignored, "%s (%s)",
                      t[i].name, t[i].dir ? "folder" : "file");
}
END_TEST

/* ---- what is refused, ignored, taken ---- */

/* Each kind of entry that is not a plain file is refused with its reason,
 * whatever its name; an exercise's own entry says why it is missing. */
START_TEST(special_entries_refused_with_why)
{
    course();
    hi_scratch();
    hand_in *h = hi_new("tar");
    hi_symlink(h, "w/lesson3/matmul.cu", "/etc/passwd");
    hi_hardlink(h, "w/lesson0/saxpy.cu", "w/notes.txt");
    hi_special(h, "w/chr", AE_IFCHR);
    hi_special(h, "w/blk", AE_IFBLK);
    hi_special(h, "w/lesson3/bank_conflicts.cu", AE_IFIFO);
    hi_sparse(h, "w/sparse.bin", 50000);
    hi_symlink(h, "l\x01nk", "x");
    ck_assert_int_eq(read_hand_in(h, "t.tar"), 0);
    ck_assert_int_eq(sub.nrefused, 7);
    expect_refused(0, "w/lesson3/matmul.cu",
                   "a symbolic link; links can point anywhere, so only plain files are taken");
    expect_refused(1, "w/lesson0/saxpy.cu",
                   "a hard link (a second name for another file); only plain files are taken");
    expect_refused(2, "w/chr", "a device file; only plain files are taken");
    expect_refused(3, "w/blk", "a device file; only plain files are taken");
    expect_refused(4, "w/lesson3/bank_conflicts.cu", "a FIFO; only plain files are taken");
    expect_refused(5, "w/sparse.bin", "a sparse file, not a plain file");
    expect_refused(6, "l?nk",
                   "a symbolic link; links can point anywhere, so only plain files are taken");
    ck_assert_str_eq(sub.missing_why[MM], "the entry w/lesson3/matmul.cu was refused: a "
                     "symbolic link; links can point anywhere, so only plain files are taken");
    ck_assert_str_eq(sub.missing_why[SX], "the entry w/lesson0/saxpy.cu was refused: a hard "
                     "link (a second name for another file); only plain files are taken");
    ck_assert_str_eq(sub.missing_why[BC], "the entry w/lesson3/bank_conflicts.cu was refused: "
                     "a FIFO; only plain files are taken");
    for (int i = 0; i < nex; i++)
        ck_assert_ptr_null(sub.data[i]);
    ck_assert_int_eq(sub.nignored, 0);
    submission_free(&sub);

    h = hi_new("zipcrypt");
    hi_text(h, "lesson3/matmul.cu", "// SECRET\n");
    ck_assert_int_eq(read_hand_in(h, "c.zip"), 0);
    ck_assert_int_eq(sub.nrefused, 1);
    expect_refused(0, "lesson3/matmul.cu", "an encrypted entry, not a plain file");
    ck_assert_str_eq(sub.missing_why[MM], "the entry lesson3/matmul.cu was refused: an "
                     "encrypted entry, not a plain file");
    submission_free(&sub);
    hi_scratch_remove();
}
END_TEST

/* Names that would land outside, and the first reason an exercise is
 * missing (a later refusal of another copy does not replace it). */
START_TEST(first_reason_an_exercise_is_missing)
{
    course();
    hi_scratch();
    hand_in *h = hi_new("tar");
    hi_text(h, "../lesson0/saxpy.cu", "// UP\n");
    hi_symlink(h, "a/lesson3/matmul.cu", "/etc/passwd");
    char *big = malloc(SUB_MAX_FILE + 1);
    memset(big, 'x', SUB_MAX_FILE + 1);
    hi_file(h, "b/lesson3/matmul.cu", big, SUB_MAX_FILE + 1);
    hi_text(h, "../bad.tar", "junk, not a tar\n");
    free(big);
    ck_assert_int_eq(read_hand_in(h, "t.tar"), 0);
    ck_assert_int_eq(sub.nrefused, 5);
    expect_refused(0, "../lesson0/saxpy.cu",
                   "'..' in the path: it would land outside the student's folder");
    expect_refused(2, "b/lesson3/matmul.cu",
                   "1048577 bytes, more than an exercise file may have (1048576)");
    expect_refused(3, "../bad.tar", "'..' in the path: it would land outside the student's "
                   "folder");
    expect_refused(4, "../bad.tar", "an archive inside the submission that could not be read "
                   "(Unrecognized archive format)");
    ck_assert_str_eq(sub.missing_why[MM], "the entry a/lesson3/matmul.cu was refused: a "
                     "symbolic link; links can point anywhere, so only plain files are taken");
    /* A name refused is not the exercise's: saxpy is simply not there. */
    ck_assert_str_eq(sub.missing_why[SX], "");
    submission_free(&sub);
    hi_scratch_remove();
}
END_TEST

/* Ignored folders' files are counted, not listed; another lesson's
 * exercise file is not graded in this run, and neither counted nor listed. */
START_TEST(ignored_folders_counted_unseen)
{
    course();
    hi_scratch();
    hand_in *h = hi_new("tar");
    hi_dir(h, "build/");
    hi_text(h, "build/a.o", "o");
    hi_text(h, "build/lesson3/matmul.cu", "// IN BUILD\n");
    hi_text(h, ".git/HEAD", "ref");
    hi_text(h, "src/__pycache__/x.pyc", "pyc");
    hi_text(h, "lesson4/unroll.cu", "// ANOTHER LESSON\n");
    hi_dir(h, "docs/");
    ck_assert_int_eq(read_hand_in(h, "t.tar"), 0);
    ck_assert_int_eq(sub.nrefused, 0);
    ck_assert_int_eq(sub.nignored, 4);
    ck_assert_ptr_null(sub.data[MM]);
    ck_assert_str_eq(sub.missing_why[MM], "");
    submission_free(&sub);
    hi_scratch_remove();
}
END_TEST

/* Other files are listed (the first four, as they may be shown) and
 * counted; an archive is read, not listed. */
START_TEST(other_files_listed)
{
    course();
    hi_scratch();
    hand_in *h = hi_new("tar");
    static const char *const other[] = {"one.txt", "two\x01.md", "three", "four.py",
                                        "five.txt", "six.txt"};
    for (int i = 0; i < 6; i++)
        hi_text(h, other[i], "x");
    hand_in *inner = hi_new("tar");
    hi_text(inner, "lesson0/saxpy.cu", "// SAXPY\n");
    hi_nest(h, "in.tar", inner);
    hi_free(inner);
    ck_assert_int_eq(read_hand_in(h, "t.tar"), 0);
    ck_assert_int_eq(sub.nrefused, 0);
    ck_assert_int_eq(sub.nignored, 6);
    ck_assert_str_eq(sub.ignored[0], "one.txt");
    ck_assert_str_eq(sub.ignored[1], "two?.md");
    ck_assert_str_eq(sub.ignored[2], "three");
    ck_assert_str_eq(sub.ignored[3], "four.py");
    expect_taken(SX, "in.tar/lesson0/saxpy.cu", "// SAXPY\n");
    ck_assert_str_eq(sub.kind, "tar");
    ck_assert_str_eq(sub.error, "");
    submission_free(&sub);
    hi_scratch_remove();
}
END_TEST

/* An exercise file of 1 MiB is taken; a byte more is refused, whether the
 * archive says its size or only its content shows it. */
START_TEST(exercise_file_size_cap)
{
    course();
    hi_scratch();
    char *at = malloc(SUB_MAX_FILE + 1);
    memset(at, 'a', SUB_MAX_FILE + 1);
    at[0] = '/';
    hand_in *h = hi_new("tar");
    hi_file(h, "lesson3/matmul.cu", at, SUB_MAX_FILE);
    hi_file(h, "lesson3/bank_conflicts.cu", at, SUB_MAX_FILE + 1);
    ck_assert_int_eq(read_hand_in(h, "t.tar"), 0);
    ck_assert_ptr_nonnull(sub.data[MM]);
    ck_assert_uint_eq(sub.len[MM], SUB_MAX_FILE);
    ck_assert_ptr_null(sub.data[BC]);
    ck_assert_int_eq(sub.nrefused, 1);
    expect_refused(0, "lesson3/bank_conflicts.cu",
                   "1048577 bytes, more than an exercise file may have (1048576)");
    ck_assert_str_eq(sub.missing_why[BC], "the entry lesson3/bank_conflicts.cu was refused: "
                     "1048577 bytes, more than an exercise file may have (1048576)");
    submission_free(&sub);

    hand_in *zip = hi_new("zip");
    hi_unsized(zip, "lesson3/matmul.cu", at, SUB_MAX_FILE);
    hi_unsized(zip, "lesson3/bank_conflicts.cu", at, SUB_MAX_FILE + 1);
    h = hi_new("tar");
    hi_nest(h, "s.zip", zip);
    hi_free(zip);
    free(at);
    ck_assert_int_eq(read_hand_in(h, "u.tar"), 0);
    ck_assert_ptr_nonnull(sub.data[MM]);
    ck_assert_uint_eq(sub.len[MM], SUB_MAX_FILE);
    ck_assert_str_eq(sub.from[MM], "s.zip/lesson3/matmul.cu");
    ck_assert_ptr_null(sub.data[BC]);
    ck_assert_int_eq(sub.nrefused, 1);
    expect_refused(0, "s.zip/lesson3/bank_conflicts.cu",
                   "1048577 bytes, more than an exercise file may have (1048576)");
    ck_assert_str_eq(sub.missing_why[BC], "the entry s.zip/lesson3/bank_conflicts.cu was "
                     "refused: 1048577 bytes, more than an exercise file may have (1048576)");
    submission_free(&sub);
    hi_scratch_remove();
}
END_TEST

static hand_in *copies(int n, const char *data, size_t len)
{
    hand_in *h = hi_new("tar");
    char name[64];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "w%03d/lesson3/matmul.cu", i);
        hi_file(h, name, data, len);
    }
    return h;
}

/* n copies of 1 MiB of zeros: a tar sparse on disk, so quick to read. */
static int read_mib_copies(int n)
{
    char (*names)[64] = calloc((size_t)n, sizeof *names);
    const char **np = calloc((size_t)n, sizeof *np);
    unsigned long long *sizes = calloc((size_t)n, sizeof *sizes);
    for (int i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "w%03d/lesson3/matmul.cu", i);
        np[i] = names[i];
        sizes[i] = SUB_MAX_FILE;
    }
    hi_sized_tar(hi_path("mib.tar"), np, sizes, n);
    free(names);
    free(np);
    free(sizes);
    return submission_read(hi_path("mib.tar"), ex, nex, &sub);
}

/* 128 copies are kept (and, being several, none is graded); one more is
 * refused as one too many; so is a copy past 64 MiB held. */
START_TEST(copies_kept_up_to_their_caps)
{
    course();
    hi_scratch();
    ck_assert_int_eq(read_hand_in(copies(SUB_MAX_CANDS, "// M\n", 5), "128.tar"), 0);
    ck_assert_int_eq(sub.nrefused, SUB_MAX_CANDS);
    expect_refused(0, "w000/lesson3/matmul.cu", "one of 128 copies of lesson3/matmul.cu in this "
                   "submission: neither copy is graded (which one did you mean?)");
    ck_assert_str_eq(sub.missing_why[MM], "the entry lesson3/matmul.cu was refused: the "
                     "submission holds two copies of it");
    submission_free(&sub);

    ck_assert_int_eq(read_hand_in(copies(SUB_MAX_CANDS + 1, "// M\n", 5), "129.tar"), 0);
    ck_assert_int_eq(sub.nrefused, SUB_MAX_CANDS + 1);
    expect_refused(0, "w128/lesson3/matmul.cu", "one copy too many of the exercise files: the "
                   "submission holds more copies than the grader keeps");
    expect_refused(1, "w000/lesson3/matmul.cu", "one of 128 copies of lesson3/matmul.cu in this "
                   "submission: neither copy is graded (which one did you mean?)");
    ck_assert_str_eq(sub.missing_why[MM], "the entry w128/lesson3/matmul.cu was refused: the "
                     "submission holds too many copies of it");
    submission_free(&sub);

    /* 64 copies of 1 MiB are 64 MiB held, as many as may be: the 65th is
     * one too many. */
    ck_assert_int_eq(read_mib_copies(SUB_MAX_HELD / SUB_MAX_FILE + 1), 0);
    expect_refused(0, "w064/lesson3/matmul.cu", "one copy too many of the exercise files: the "
                   "submission holds more copies than the grader keeps");
    expect_refused(1, "w000/lesson3/matmul.cu", "one of 64 copies of lesson3/matmul.cu in this "
                   "submission: neither copy is graded (which one did you mean?)");
    submission_free(&sub);
    hi_scratch_remove();
}
END_TEST

typedef struct copy {
    const char *name, *data;
} copy;

static void read_copies(const copy *c, int n)
{
    hand_in *h = hi_new("tar");
    for (int i = 0; i < n; i++)
        hi_text(h, c[i].name, c[i].data);
    ck_assert_int_eq(read_hand_in(h, "c.tar"), 0);
}

#define NEITHER(n, file) "one of " #n " copies of " file " in this submission: neither copy " \
                         "is graded (which one did you mean?)"

/* One copy is taken wherever it is; of several, the one under the root
 * (the folder holding the most exercise files), the others ignored. */
START_TEST(the_copy_under_the_root_is_taken)
{
    course();
    hi_scratch();
    read_copies((copy[]){{"repo-main/exercises/lesson3/matmul.cu", "// DEEP\n"}}, 1);
    expect_taken(MM, "repo-main/exercises/lesson3/matmul.cu", "// DEEP\n");
    ck_assert_int_eq(sub.nignored + sub.nrefused, 0);
    submission_free(&sub);

    read_copies((copy[]){{"repo/lesson3/matmul.cu", "// REPO M\n"},
                         {"repo/lesson3/bank_conflicts.cu", "// REPO B\n"},
                         {"old/lesson3/matmul.cu", "// OLD M\n"},
                         {"s/lesson0/saxpy.cu", "// S\n"}}, 4);
    expect_taken(MM, "repo/lesson3/matmul.cu", "// REPO M\n");
    expect_taken(BC, "repo/lesson3/bank_conflicts.cu", "// REPO B\n");
    expect_taken(SX, "s/lesson0/saxpy.cu", "// S\n");   /* its only copy, outside the root */
    ck_assert_int_eq(sub.nrefused, 0);
    ck_assert_int_eq(sub.nignored, 1);
    ck_assert_str_eq(sub.ignored[0], "old/lesson3/matmul.cu");
    submission_free(&sub);

    /* The root's first copy read first: its other files are the same root, not a tie. */
    read_copies((copy[]){{"r/lesson3/matmul.cu", "// R M\n"},
                         {"r/lesson3/bank_conflicts.cu", "// R B\n"},
                         {"o/lesson3/matmul.cu", "// O M\n"}}, 3);
    expect_taken(MM, "r/lesson3/matmul.cu", "// R M\n");
    expect_taken(BC, "r/lesson3/bank_conflicts.cu", "// R B\n");
    submission_free(&sub);

    /* The root is the deepest folder holding the most, not a folder above it. */
    read_copies((copy[]){{"x/lesson3/matmul.cu", "// X\n"},
                         {"x/y/lesson3/matmul.cu", "// XY M\n"},
                         {"x/y/lesson3/bank_conflicts.cu", "// XY B\n"}}, 3);
    expect_taken(MM, "x/y/lesson3/matmul.cu", "// XY M\n");
    ck_assert_str_eq(sub.ignored[0], "x/lesson3/matmul.cu");
    submission_free(&sub);

    hi_scratch_remove();
}
END_TEST

/* Where no one folder holds the most, or the root holds two copies, none
 * of the copies is taken, each refused with why. */
START_TEST(no_copy_taken_when_it_is_unclear)
{
    course();
    hi_scratch();
    /* Two folders hold one each: which did the student mean? */
    read_copies((copy[]){{"a/lesson3/matmul.cu", "// A\n"}, {"b/lesson3/matmul.cu", "// B\n"}},
                2);
    ck_assert_ptr_null(sub.data[MM]);
    ck_assert_int_eq(sub.nrefused, 2);
    expect_refused(0, "a/lesson3/matmul.cu", NEITHER(2, "lesson3/matmul.cu"));
    expect_refused(1, "b/lesson3/matmul.cu", NEITHER(2, "lesson3/matmul.cu"));
    ck_assert_str_eq(sub.missing_why[MM], "the entry lesson3/matmul.cu was refused: the "
                     "submission holds two copies of it");
    ck_assert_int_eq(sub.nignored, 0);
    submission_free(&sub);

    /* Folders of the same length are still different folders. */
    read_copies((copy[]){{"ab/lesson3/matmul.cu", "// AB\n"},
                         {"cd/lesson3/bank_conflicts.cu", "// CD\n"},
                         {"wxyz/lesson3/matmul.cu", "// WXYZ\n"}}, 3);
    ck_assert_ptr_null(sub.data[MM]);
    expect_taken(BC, "cd/lesson3/bank_conflicts.cu", "// CD\n");
    ck_assert_int_eq(sub.nrefused, 2);
    submission_free(&sub);

    /* Two folders of two: a tie, both refused; a third exercise elsewhere taken. */
    read_copies((copy[]){{"a/lesson3/matmul.cu", "1"}, {"a/lesson3/bank_conflicts.cu", "2"},
                         {"b/lesson3/matmul.cu", "3"}, {"b/lesson3/bank_conflicts.cu", "4"},
                         {"c/lesson0/saxpy.cu", "5"}}, 5);
    ck_assert_ptr_null(sub.data[MM]);
    ck_assert_ptr_null(sub.data[BC]);
    expect_taken(SX, "c/lesson0/saxpy.cu", "5");
    ck_assert_int_eq(sub.nrefused, 4);
    expect_refused(0, "a/lesson3/bank_conflicts.cu", NEITHER(2, "lesson3/bank_conflicts.cu"));
    expect_refused(2, "a/lesson3/matmul.cu", NEITHER(2, "lesson3/matmul.cu"));
    submission_free(&sub);

    /* The same name twice in one archive: two copies in the root. */
    read_copies((copy[]){{"lesson3/matmul.cu", "// ONE\n"}, {"lesson3/matmul.cu", "// TWO\n"},
                         {"lesson3/bank_conflicts.cu", "// B\n"}}, 3);
    ck_assert_ptr_null(sub.data[MM]);
    expect_taken(BC, "lesson3/bank_conflicts.cu", "// B\n");
    ck_assert_int_eq(sub.nrefused, 2);
    expect_refused(0, "lesson3/matmul.cu", NEITHER(2, "lesson3/matmul.cu"));
    submission_free(&sub);
    hi_scratch_remove();
}
END_TEST

/* A copy whose content could not be read is no copy: the other is taken,
 * and the unreadable one does not make its folder the root. */
START_TEST(unreadable_copies_do_not_count)
{
    course();
    hi_scratch();
    hand_in *h = hi_new("zipstore");
    hi_text(h, "a/lesson3/matmul.cu", "// A M\n");
    hi_text(h, "a/lesson3/bank_conflicts.cu", "// A B\n");
    hi_text(h, "b/lesson3/matmul.cu", "// B M\n");
    hi_text(h, "b/lesson3/bank_conflicts.cu", "// B B\n");
    hi_text(h, "b/lesson0/saxpy.cu", "// B S\n");
    hi_text(h, "c/lesson0/saxpy.cu", "// C S\n");
    size_t len;
    const char *b = hi_bytes(h, &len);
    char *z = malloc(len);
    memcpy(z, b, len);
    hi_free(h);
    /* b/lesson0/saxpy.cu's stored bytes: its CRC fails. */
    char *data = memmem(z, len, "// B S\n", 7);
    ck_assert_ptr_nonnull(data);
    data[3] = 'X';
    FILE *f = fopen(hi_path("z.zip"), "wb");
    fwrite(z, 1, len, f);
    fclose(f);
    free(z);
    ck_assert_int_eq(submission_read(hi_path("z.zip"), ex, nex, &sub), 0);
    /* a and b hold two each that were read: a tie; saxpy's one readable copy is c's. */
    ck_assert_ptr_null(sub.data[MM]);
    ck_assert_ptr_null(sub.data[BC]);
    expect_taken(SX, "c/lesson0/saxpy.cu", "// C S\n");
    expect_refused(0, "b/lesson0/saxpy.cu", sub.refused[0].why);
    ck_assert_msg(strstr(sub.refused[0].why, "its content could not be read whole ("),
                  "%s", sub.refused[0].why);
    submission_free(&sub);
    hi_scratch_remove();
}
END_TEST

/* ---- staging and hashing ---- */

static char *slurp(const char *path, size_t *len)
{
    char *s = read_text_file(path, len);
    ck_assert_msg(s != NULL, "cannot read %s", path);
    return s;
}

/* The taken files, and only they, at their course names; bytes as read. */
START_TEST(stage_writes_the_taken_files)
{
    course();
    hi_scratch();
    hand_in *h = hi_new("tar");
    hi_file(h, "w/lesson3/matmul.cu", "M\0M", 3);
    hi_text(h, "w/lesson3/bank_conflicts.cu", "// B\n");
    hi_text(h, "w/notes.txt", "notes");
    ck_assert_int_eq(read_hand_in(h, "t.tar"), 0);
    ck_assert_int_eq(submission_stage(&sub, hi_path("stage")), 0);
    size_t len;
    char *m = slurp(hi_path("stage/lesson3/matmul.cu"), &len);
    ck_assert_uint_eq(len, 3);
    ck_assert_mem_eq(m, "M\0M", 3);
    free(m);
    char *b = slurp(hi_path("stage/lesson3/bank_conflicts.cu"), &len);
    ck_assert_str_eq(b, "// B\n");
    free(b);
    struct stat st;
    ck_assert_int_eq(stat(hi_path("stage/lesson3/matmul.cu"), &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(stat(hi_path("stage/lesson3"), &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0700);
    ck_assert_int_ne(access(hi_path("stage/lesson0"), F_OK), 0);
    ck_assert_int_ne(access(hi_path("stage/notes.txt"), F_OK), 0);
    ck_assert_int_ne(access(hi_path("stage/w"), F_OK), 0);
    ck_assert_int_eq(submission_stage(&sub, hi_path("stage")), -1);          /* there already */
    ck_assert_int_eq(submission_stage(&sub, hi_path("none/stage")), -1);     /* no parent */
    hi_mkdir("empty");
    ck_assert_int_eq(submission_stage(&sub, hi_path("empty")), -1);         /* even empty */
    ck_assert_int_ne(access(hi_path("empty/lesson3"), F_OK), 0);
    /* A file that cannot be opened (no descriptor left): -1. */
    int fd = dup(0);
    close(fd);
    struct rlimit lim;
    ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &lim), 0);
    rlim_t old = lim.rlim_cur;
    lim.rlim_cur = (rlim_t)fd;
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
    errno = 0;
    int rc = submission_stage(&sub, hi_path("nofd"));
    int why = errno;
    lim.rlim_cur = old;
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
    ck_assert_int_eq(rc, -1);
    /* errno says why (class.c prints it): the open's EMFILE, not what a
     * write or close of no descriptor would leave (EBADF). */
    ck_assert_int_eq(why, EMFILE);
    /* A file that cannot be written whole (files capped at 2 bytes): -1. */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit fsize;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &fsize), 0);
    rlim_t was = fsize.rlim_cur;
    fsize.rlim_cur = 2;
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &fsize), 0);
    rc = submission_stage(&sub, hi_path("full"));
    fsize.rlim_cur = was;
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &fsize), 0);
    ck_assert_int_eq(rc, -1);
    submission_free(&sub);
    for (int i = 0; i < nex; i++)
        ck_assert_ptr_null(sub.data[i]);
    hi_scratch_remove();
}
END_TEST

static void hash_of(const submission *s, char out[65])
{
    sha256 h;
    sha256_init(&h);
    submission_hash(s, &h);
    sha256_hex(&h, out);
}

/* What decides a grade is in the hash: each exercise's bytes, whether it is
 * there and why not, the refusals and their count, the reading's error.
 * Where a file came from, the hand-in's kind and what was ignored are not. */
START_TEST(hash_covers_what_decides_a_grade)
{
    course();
    static submission a, b;
    memset(&a, 0, sizeof a);
    a.ex = (const exercise *const *)ex;
    a.nex = nex;
    static char mx[] = "M\0x", my[] = "M\0y", empty[] = "";
    a.data[MM] = mx;
    a.len[MM] = 3;
    snprintf(a.from[MM], sizeof a.from[MM], "w/lesson3/matmul.cu");
    snprintf(a.kind, sizeof a.kind, "tar");
    char ha[65], hb[65];
    hash_of(&a, ha);
#define SAME(change) do { b = a; change; hash_of(&b, hb); \
        ck_assert_msg(!strcmp(ha, hb), "changed by: %s", #change); } while (0)
#define DIFFERS(change) do { b = a; change; hash_of(&b, hb); \
        ck_assert_msg(strcmp(ha, hb), "not changed by: %s", #change); } while (0)
    SAME((void)0);
    SAME(snprintf(b.from[MM], sizeof b.from[MM], "elsewhere/lesson3/matmul.cu"));
    SAME(snprintf(b.kind, sizeof b.kind, "folder"));
    SAME(b.nignored = 3; snprintf(b.ignored[0], SUB_NAME, "notes.txt"));
    SAME(b.copies[MM] = 2);
    DIFFERS(b.data[MM] = my);
    DIFFERS(b.len[MM] = 2);
    DIFFERS(b.len[MM] = 1);
    DIFFERS(b.data[MM] = NULL);
    DIFFERS(b.data[SX] = empty; b.len[SX] = 0);
    DIFFERS(snprintf(b.missing_why[SX], sizeof b.missing_why[SX], "the entry x was refused"));
    DIFFERS(b.nrefused = 1);
    DIFFERS(b.nrefused = 13);
    DIFFERS(b.nex = nex - 1);
    DIFFERS(snprintf(b.error, sizeof b.error, "damaged after entry 3"));
    /* The notes themselves, entry and reason, not only their count. */
    a.nrefused = 14;
    for (int i = 0; i < SUB_MAX_NOTES; i++) {
        snprintf(a.refused[i].entry, sizeof a.refused[i].entry, "e%d", i);
        snprintf(a.refused[i].why, sizeof a.refused[i].why, "w%d", i);
    }
    hash_of(&a, ha);
    DIFFERS(b.refused[0].entry[0] = 'E');
    DIFFERS(b.refused[11].why[0] = 'W');
    DIFFERS(b.refused[0].entry[0] = 0; b.refused[0].why[0] = 0);
    SAME(snprintf(b.ignored[0], SUB_NAME, "notes.txt"); b.nignored = 9);   /* only 12 notes kept */
    /* An absent file: why, or "(absent)". */
    a.data[MM] = NULL;
    hash_of(&a, ha);
    DIFFERS(snprintf(b.missing_why[MM], sizeof b.missing_why[MM], "refused"));
    /* The name of each exercise file, so that the same bytes under another
     * exercise are another hand-in. */
    const exercise *other[8];
    memcpy(other, ex, sizeof other);
    const exercise *t = other[SX];
    other[SX] = other[MM];
    other[MM] = t;
    DIFFERS(b.ex = (const exercise *const *)other);
#undef SAME
#undef DIFFERS
}
END_TEST

/* The same files read from a folder and from an archive: the same hash. */
START_TEST(hash_of_a_folder_and_its_archive)
{
    course();
    hi_scratch();
    hi_write("f/w/lesson3/matmul.cu", "// M\n");
    hi_write("f/w/notes.txt", "notes");
    ck_assert_int_eq(submission_read(hi_path("f"), ex, nex, &sub), 0);
    char hf[65], ht[65];
    hash_of(&sub, hf);
    submission_free(&sub);
    hand_in *h = hi_new("tar");
    hi_text(h, "lesson3/matmul.cu", "// M\n");
    ck_assert_int_eq(read_hand_in(h, "t.tar"), 0);
    hash_of(&sub, ht);
    ck_assert_str_eq(hf, ht);
    submission_free(&sub);
    hi_scratch_remove();
}
END_TEST

/* At most SUB_MAX_EX exercises are read for. */
START_TEST(exercises_capped)
{
    const exercise *many[SUB_MAX_EX + 6];
    course();
    for (int i = 0; i < SUB_MAX_EX + 6; i++)
        many[i] = ex[i % nex];
    hi_scratch();
    hi_write("f/lesson0/saxpy.cu", "// S\n");
    ck_assert_int_eq(submission_read(hi_path("f"), many, SUB_MAX_EX + 6, &sub), 0);
    ck_assert_int_eq(sub.nex, SUB_MAX_EX);
    submission_free(&sub);
    hi_scratch_remove();
}
END_TEST

Suite *class_submission_suite(void)
{
    Suite *s = suite_create("class_submission");
    TCase *tc = tcase_create("submission");
    tcase_add_checked_fixture(tc, NULL, hi_scratch_remove);
    tcase_add_test(tc, entry_names_checked_and_normalised);
    tcase_add_test(tc, exercise_files_at_any_depth);
    tcase_add_test(tc, folders_ignored_unseen);
    tcase_add_test(tc, special_entries_refused_with_why);
    tcase_add_test(tc, first_reason_an_exercise_is_missing);
    tcase_add_test(tc, ignored_folders_counted_unseen);
    tcase_add_test(tc, other_files_listed);
    tcase_add_test(tc, exercise_file_size_cap);
    tcase_add_test(tc, copies_kept_up_to_their_caps);
    tcase_add_test(tc, the_copy_under_the_root_is_taken);
    tcase_add_test(tc, no_copy_taken_when_it_is_unclear);
    tcase_add_test(tc, unreadable_copies_do_not_count);
    tcase_add_test(tc, stage_writes_the_taken_files);
    tcase_add_test(tc, hash_covers_what_decides_a_grade);
    tcase_add_test(tc, hash_of_a_folder_and_its_archive);
    tcase_add_test(tc, exercises_capped);
    suite_add_tcase(s, tc);
    return s;
}
