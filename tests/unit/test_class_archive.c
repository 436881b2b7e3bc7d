/* test_class_archive.c: reading a hand-in without trusting it (archive.c),
 * through a sink that records every call: which entries are listed, with
 * what type and size, which contents are handed over and which reported
 * unreadable, in order. Tar, tar.gz and zip archives built by libarchive
 * in the test (hand_in.h), archives inside them, folders; the caps on
 * entries, bytes, folder depth and unsized entries at their boundaries;
 * damaged archives and what stands of them.
 *
 *   CK_RUN_SUITE=class_archive build/tests/unit_tests
 */
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "archive.h"
#include "class.h"
#include "hand_in.h"
#include "suites.h"

/* ---- the recording sink ---- */

/* Wants every name ending in ".cu" (a slot each), ignores what is under a
 * build/ folder, skips the rest; logs each call as a line. */
typedef struct rec {
    char *log;
    size_t len;
    FILE *f;
    int slots;
    /* When the entry named `at` is listed, do() is done (the folder
     * changing while it is read). */
    const char *at;
    void (*act)(void);
} rec;

static char type_letter(enum entry_type t)
{
    return "FDLHVPO"[t];
}

static int rec_want(void *ctx, const arc_entry *e)
{
    rec *r = ctx;
    fprintf(r->f, "want %c %s ", type_letter(e->type), e->name);
    if (e->size_known)
        fprintf(r->f, "%llu", (unsigned long long)e->size);
    else
        fputc('?', r->f);
    fprintf(r->f, e->what[0] ? " (%s)\n" : "\n", e->what);
    if (r->at && !strcmp(e->name, r->at))
        r->act();
    if (strstr(e->name, "build/") || !strcmp(e->name, "build"))
        return ARC_IGNORED;
    size_t n = strlen(e->name);
    return n > 3 && !strcmp(e->name + n - 3, ".cu") ? r->slots++ : ARC_SKIP;
}

static void rec_got(void *ctx, int slot, const arc_entry *e, char *data, size_t len)
{
    rec *r = ctx;
    ck_assert_int_eq(data[len], 0);
    fprintf(r->f, "got %d %s %zu: %.20s\n", slot, e->name, len, data);
    free(data);
}

static void rec_bad(void *ctx, const arc_entry *e, const char *why)
{
    rec *r = ctx;
    fprintf(r->f, "bad %s: %s\n", e->name, why);
}

typedef struct read_out {
    int rc;
    char kind[16];
    char err[512];
    char *log;
} read_out;

static read_out read_path(const char *path)
{
    rec r = {.log = NULL};
    r.f = open_memstream(&r.log, &r.len);
    arc_sink s = {.want = rec_want, .got = rec_got, .bad = rec_bad, .ctx = &r};
    read_out o;
    memset(&o, 0, sizeof o);
    o.rc = archive_read(path, &s, o.kind, sizeof o.kind, o.err, sizeof o.err);
    fclose(r.f);
    o.log = r.log;
    return o;
}

static void expect_read(const char *path, int rc, const char *kind, const char *err,
                        const char *log)
{
    read_out o = read_path(path);
    ck_assert_msg(o.rc == rc, "%s: rc %d, want %d (%s)", path, o.rc, rc, o.err);
    ck_assert_str_eq(o.kind, kind);
    ck_assert_msg(!strcmp(o.err, err), "%s: error \"%s\", want \"%s\"", path, o.err, err);
    ck_assert_msg(!strcmp(o.log, log), "%s:\n--- got ---\n%s--- want ---\n%s", path, o.log, log);
    free(o.log);
}

/* ---- names ---- */

START_TEST(archive_kinds_by_name)
{
    static const struct { const char *name, *kind; size_t suffix; } t[] = {
        {"a.tar", "tar", 4}, {"a.tar.gz", "tar.gz", 7}, {"a.tgz", "tar.gz", 4},
        {"a.tar.bz2", "tar.bz2", 8}, {"a.tbz2", "tar.bz2", 5}, {"a.tbz", "tar.bz2", 4},
        {"a.tar.xz", "tar.xz", 7}, {"a.txz", "tar.xz", 4}, {"a.tar.zst", "tar.zst", 8},
        {"a.tzst", "tar.zst", 5}, {"a.zip", "zip", 4}, {"A.ZIP", "zip", 4},
        {"x/y.Tar.Gz", "tar.gz", 7}, {".tar", NULL, 0}, {"tar", NULL, 0}, {"a.gz", NULL, 0},
        {"a.tar.gz.txt", NULL, 0}, {"a.zipx", NULL, 0}, {"", NULL, 0}, {"a.cu", NULL, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        const char *k = archive_kind(t[i].name);
        ck_assert_msg(t[i].kind ? k && !strcmp(k, t[i].kind) : !k, "%s: %s", t[i].name,
                      k ? k : "NULL");
        ck_assert_msg(archive_suffix_len(t[i].name) == t[i].suffix, "%s: %zu", t[i].name,
                      archive_suffix_len(t[i].name));
    }
}
END_TEST

/* The zip and gzip CRC-32 (the check value of "123456789"). */
START_TEST(crc32_check_value)
{
    ck_assert_uint_eq(crc32_of("123456789", 9), 0xcbf43926u);
    ck_assert_uint_eq(crc32_of("", 0), 0);
    ck_assert_uint_eq(crc32_of("\xff", 1), 0xff000000u);
    ck_assert_uint_eq(crc32_of("123456789", 9), 0xcbf43926u);
}
END_TEST

/* ---- archives ---- */

static hand_in *every_type(const char *kind)
{
    hand_in *h = hi_new(kind);
    hi_dir(h, "wrap/");
    hi_text(h, "wrap/lesson3/matmul.cu", "// MATMUL\n");
    hi_text(h, "wrap/notes.txt", "notes\n");
    hi_symlink(h, "wrap/link.cu", "/etc/passwd");
    hi_hardlink(h, "wrap/hard.cu", "wrap/lesson3/matmul.cu");
    hi_special(h, "wrap/chr", AE_IFCHR);
    hi_special(h, "wrap/blk", AE_IFBLK);
    hi_special(h, "wrap/fifo.cu", AE_IFIFO);
    hi_text(h, "build/big.cu", "// IGNORED\n");
    hi_text(h, "wrap/empty.cu", "");
    return h;
}

static const char every_type_log[] =
    "want D wrap/ 0\n"
    "want F wrap/lesson3/matmul.cu 10\n"
    "got 0 wrap/lesson3/matmul.cu 10: // MATMUL\n\n"
    "want F wrap/notes.txt 6\n"
    "want L wrap/link.cu 0\n"
    "want H wrap/hard.cu 0\n"
    "want V wrap/chr 0\n"
    "want V wrap/blk 0\n"
    "want P wrap/fifo.cu 0\n"
    "want F build/big.cu 11\n"
    "want F wrap/empty.cu 0\n"
    "got 4 wrap/empty.cu 0: \n";

/* Every entry listed as what it is, only wanted files' contents handed
 * over (a link, a device or a FIFO never is, whatever its name). */
START_TEST(tar_lists_every_entry_as_what_it_is)
{
    hi_scratch();
    hi_save(every_type("tar"), hi_path("a.tar"));
    expect_read(hi_path("a.tar"), 0, "tar", "", every_type_log);
    hi_save(every_type("tar.gzip"), hi_path("a.tgz"));
    expect_read(hi_path("a.tgz"), 0, "tar.gz", "", every_type_log);
    hi_scratch_remove();
}
END_TEST

START_TEST(zip_lists_every_entry_as_what_it_is)
{
    hi_scratch();
    hand_in *h = hi_new("zip");
    hi_dir(h, "wrap/");
    hi_text(h, "wrap/lesson3/matmul.cu", "// MATMUL\n");
    hi_symlink(h, "wrap/link.cu", "/etc/passwd");
    hi_text(h, "wrap/notes.txt", "notes\n");
    hi_save(h, hi_path("a.zip"));
    expect_read(hi_path("a.zip"), 0, "zip", "",
                "want D wrap/ 0\n"
                "want F wrap/lesson3/matmul.cu 10\n"
                "got 0 wrap/lesson3/matmul.cu 10: // MATMUL\n\n"
                "want L wrap/link.cu 0\n"
                "want F wrap/notes.txt 6\n");
    /* Encrypted: not a plain file, and never decrypted. */
    h = hi_new("zipcrypt");
    hi_text(h, "lesson3/matmul.cu", "// SECRET\n");
    hi_save(h, hi_path("c.zip"));
    expect_read(hi_path("c.zip"), 0, "zip", "",
                "want O lesson3/matmul.cu 10 (an encrypted entry)\n");
    /* A pax sparse file: holes the archive does not hold. */
    h = hi_new("tar");
    hi_sparse(h, "lesson3/matmul.cu", 100000);
    hi_save(h, hi_path("s.tar"));
    expect_read(hi_path("s.tar"), 0, "tar", "",
                "want O lesson3/matmul.cu 100000 (a sparse file)\n");
    hi_scratch_remove();
}
END_TEST

/* Not an archive, or not one whole: the reason, and what came before it. */
START_TEST(damaged_archives_say_where)
{
    hi_scratch();
    hi_write("junk.tar", "this is not an archive, and it is long enough to be looked at.\n");
    expect_read(hi_path("junk.tar"), -1, "tar",
                "cannot be read as an archive (Unrecognized archive format)", "");
    hi_write("empty.zip", "");
    read_out o = read_path(hi_path("empty.zip"));
    ck_assert_int_eq(o.rc, -1);
    ck_assert_msg(!strncmp(o.err, "cannot be read as an archive (", 30), "%s", o.err);
    free(o.log);

    /* A zip whose local header is broken: damaged at its start. */
    hand_in *h = hi_new("zip");
    hi_text(h, "lesson3/matmul.cu", "// MATMUL\n");
    size_t len;
    const char *b = hi_bytes(h, &len);
    char *z = malloc(len);
    memcpy(z, b, len);
    hi_free(h);
    memcpy(z, "XXXX", 4);
    FILE *f = fopen(hi_path("bad.zip"), "wb");
    fwrite(z, 1, len, f);
    fclose(f);
    free(z);
    expect_read(hi_path("bad.zip"), -1, "zip", "not a tar or zip archive, or damaged at its "
                "start (Damaged Zip archive)", "");

    /* Cut inside the second entry: the first stands, the second is reported. */
    h = hi_new("tar");
    hi_text(h, "lesson0/saxpy.cu", "// SAXPY\n");
    char big[3000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    hi_text(h, "lesson3/matmul.cu", big);
    hi_text(h, "lesson3/after.cu", "// AFTER\n");
    hi_save(h, hi_path("cut.tar"));
    struct stat st;
    ck_assert_int_eq(stat(hi_path("cut.tar"), &st), 0);
    /* pax: a header and an extended header per entry; cut 100 bytes into the data. */
    FILE *c = fopen(hi_path("cut.tar"), "rb");
    char *all = malloc((size_t)st.st_size);
    ck_assert_uint_eq(fread(all, 1, (size_t)st.st_size, c), (size_t)st.st_size);
    fclose(c);
    char *x = memmem(all, (size_t)st.st_size, "xxxxxxxxxx", 10);
    ck_assert_ptr_nonnull(x);
    ck_assert_int_eq(truncate(hi_path("cut.tar"), (x - all) + 100), 0);
    free(all);
    o = read_path(hi_path("cut.tar"));
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, "damaged: it ends inside entry 2, or its content is broken: the "
                     "rest was not read");
    ck_assert_msg(!strncmp(o.log, "want F lesson0/saxpy.cu 9\ngot 0 lesson0/saxpy.cu 9: // SAXPY\n"
                  "\nwant F lesson3/matmul.cu 2999\nbad lesson3/matmul.cu: its content could "
                  "not be read whole (", 133), "%s", o.log);
    ck_assert_msg(strstr(o.log, "): damaged, or not what the archive says\n"), "%s", o.log);
    free(o.log);
    hi_scratch_remove();
}
END_TEST

/* A zip entry whose CRC does not match: reported, the rest still read. */
START_TEST(zip_bad_crc_reported_and_reading_goes_on)
{
    hi_scratch();
    hand_in *h = hi_new("zipstore");
    hi_text(h, "lesson3/matmul.cu", "// MATMUL\n");
    hi_text(h, "lesson0/saxpy.cu", "// SAXPY\n");
    size_t len;
    const char *b = hi_bytes(h, &len);
    char *z = malloc(len);
    memcpy(z, b, len);
    hi_free(h);
    /* Flip a byte of the first entry's (stored) data: its CRC fails. */
    char *name = memmem(z, len, "lesson3/matmul.cu", 17);
    ck_assert_ptr_nonnull(name);
    unsigned short extra = (unsigned char)z[28] | (unsigned char)z[29] << 8;
    z[30 + 17 + extra] ^= 0x01;
    FILE *f = fopen(hi_path("crc.zip"), "wb");
    fwrite(z, 1, len, f);
    fclose(f);
    free(z);
    read_out o = read_path(hi_path("crc.zip"));
    ck_assert_msg(o.rc == 0, "%s\n%s", o.err, o.log);
    ck_assert_msg(!strncmp(o.log, "want F lesson3/matmul.cu 10\nbad lesson3/matmul.cu: its "
                  "content could not be read whole (", 79), "%s", o.log);
    ck_assert_msg(strstr(o.log, "\nwant F lesson0/saxpy.cu 9\ngot 1 lesson0/saxpy.cu 9: "
                  "// SAXPY\n\n"), "%s", o.log);
    free(o.log);
    hi_scratch_remove();
}
END_TEST

static size_t offset_of(const char *bytes, size_t len, const char *what)
{
    const char *at = memmem(bytes, len, what, strlen(what));
    ck_assert_msg(at != NULL, "no %s", what);
    return (size_t)(at - bytes);
}

/* ---- archives inside the hand-in ---- */

static hand_in *deep_tar(void)
{
    hand_in *d = hi_new("tar");
    hi_text(d, "lesson0/saxpy.cu", "// TOO DEEP\n");
    return d;
}

/* An archive in the hand-in is read, its entries named after it, once:
 * one inside that is listed, not read; a damaged one is reported and the
 * reading goes on; one under an ignored folder is not opened. A zip read
 * from inside another archive is a stream: its entries' sizes come after
 * them. */
START_TEST(archives_inside_are_read_once)
{
    hi_scratch();
    hand_in *zip = hi_new("zip");
    hi_unsized(zip, "lesson3/matmul.cu", "// IN ZIP\n", 10);
    hand_in *d = deep_tar();
    hi_nest(zip, "deep.tar", d);
    hi_free(d);
    hand_in *gz = hi_new("tar.gzip");
    hi_text(gz, "lesson4/x.cu", "// IN GZ\n");
    hand_in *cut = hi_new("tar");
    hi_text(cut, "lesson5/cut.cu", "// CUT, CUT, CUT, CUT, CUT, CUT\n");
    size_t cut_len;
    const char *cut_bytes = hi_bytes(cut, &cut_len);
    hand_in *skip = hi_new("tar");
    hi_text(skip, "lesson6/y.cu", "// NEVER\n");

    hand_in *h = hi_new("tar");
    hi_nest(h, "sub.zip", zip);
    hi_nest(h, "more.tar.gz", gz);
    hi_text(h, "bad.tar", "not an archive at all, though it says so by its name\n");
    hi_file(h, "cut.tar", cut_bytes, 520);
    hi_nest(h, "build/skip.tar", skip);
    hi_text(h, "z.cu", "// Z\n");
    hi_free(zip);
    hi_free(gz);
    hi_free(cut);
    hi_free(skip);
    hi_save(h, hi_path("outer.tar"));
    read_out o = read_path(hi_path("outer.tar"));
    ck_assert_msg(o.rc == 0, "%s", o.err);
    ck_assert_str_eq(o.err, "");
    static const char *lines[] = {
        "want F sub.zip/lesson3/matmul.cu ?\n"
        "got 0 sub.zip/lesson3/matmul.cu 10: // IN ZIP\n\n"
        "want O sub.zip/deep.tar 2048 (an archive inside an archive inside the submission)\n"
        "want F more.tar.gz ",
        "\nwant F more.tar.gz/lesson4/x.cu 9\ngot 1 more.tar.gz/lesson4/x.cu 9: // IN GZ\n\n"
        "want F bad.tar 53\n"
        "bad bad.tar: an archive inside the submission that could not be read "
        "(Unrecognized archive format)\n"
        "want F cut.tar 520\n"
        "want F cut.tar/lesson5/cut.cu 32\n"
        "bad cut.tar/lesson5/cut.cu: its content could not be read whole (Truncated tar "
        "archive): damaged, or not what the archive says\n"
        "bad cut.tar: an archive inside the submission that could not be read (damaged: it "
        "ends inside entry 1, or its content is broken: the rest was not read)\n"
        "want F build/skip.tar 2048\n"
        "want F z.cu 5\ngot 3 z.cu 5: // Z\n\n",
    };
    const char *at = o.log;
    ck_assert_msg(!strncmp(at, "want F sub.zip ", 15), "%s", o.log);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        const char *next = strstr(at, lines[i]);
        ck_assert_msg(next != NULL, "no \"%s\" after \"%s\" in:\n%s", lines[i], at, o.log);
        at = next + strlen(lines[i]);
    }
    ck_assert_msg(*at == 0, "more after: %s", at);
    ck_assert_msg(!strstr(o.log, "NEVER") && !strstr(o.log, "skip.tar/"), "%s", o.log);
    free(o.log);
    hi_scratch_remove();
}
END_TEST

/* A folder's archive is read too; inside it, another archive is only listed. */
START_TEST(archives_in_a_folder)
{
    hi_scratch();
    hi_mkdir("f");
    hand_in *h = hi_new("zip");
    hi_text(h, "in/lesson3/matmul.cu", "// FROM ZIP\n");
    hand_in *d = deep_tar();
    hi_nest(h, "deeper.tar", d);
    hi_free(d);
    hi_save(h, hi_path("f/h.zip"));
    hi_write("f/j.tar.gz", "junk, not gzip\n");
    struct stat st;
    ck_assert_int_eq(stat(hi_path("f/h.zip"), &st), 0);
    char want[1024];
    snprintf(want, sizeof want,
             "want F h.zip %lld\n"
             "want F h.zip/in/lesson3/matmul.cu 12\n"
             "got 0 h.zip/in/lesson3/matmul.cu 12: // FROM ZIP\n\n"
             "want O h.zip/deeper.tar 2048 (an archive inside an archive inside the submission)\n"
             "want F j.tar.gz 15\n"
             "bad j.tar.gz: an archive inside the submission that could not be read "
             "(Unrecognized archive format)\n", (long long)st.st_size);
    expect_read(hi_path("f"), 0, "folder", "", want);
    hi_scratch_remove();
}
END_TEST

static char *filled(size_t n, char c)
{
    char *p = malloc(n);
    memset(p, c, n);
    return p;
}

/* An entry whose size the archive does not say is read up to 8 MiB: one
 * byte more and it is reported, and the reading goes on. */
START_TEST(unsized_entries_read_up_to_their_cap)
{
    hi_scratch();
    hand_in *zip = hi_new("zip");
    char *a = filled(ARC_MAX_UNSIZED, 'a'), *b = filled(ARC_MAX_UNSIZED + 1, 'b');
    hi_unsized(zip, "lesson3/a.cu", a, ARC_MAX_UNSIZED);
    hi_unsized(zip, "lesson3/b.cu", b, ARC_MAX_UNSIZED + 1);
    hi_unsized(zip, "lesson3/c.cu", "// C\n", 5);
    free(a);
    free(b);
    hand_in *h = hi_new("tar");
    hi_nest(h, "s.zip", zip);
    hi_free(zip);
    hi_save(h, hi_path("s.tar"));
    read_out o = read_path(hi_path("s.tar"));
    ck_assert_msg(o.rc == 0, "%s", o.err);
    const char *want =
        "want F s.zip/lesson3/a.cu ?\n"
        "got 0 s.zip/lesson3/a.cu 8388608: aaaaaaaaaaaaaaaaaaaa\n"
        "want F s.zip/lesson3/b.cu ?\n"
        "bad s.zip/lesson3/b.cu: its content could not be read whole (it holds more bytes "
        "than its header says): damaged, or not what the archive says\n"
        "want F s.zip/lesson3/c.cu ?\n"
        "got 2 s.zip/lesson3/c.cu 5: // C\n\n";
    const char *at = strchr(o.log, '\n');
    ck_assert_msg(at && !strcmp(at + 1, want), "%s", o.log);
    free(o.log);
    hi_scratch_remove();
}
END_TEST

/* The hand-in itself ends inside an archive it holds: that archive is
 * reported with the reason, and the hand-in as damaged after it. */
START_TEST(hand_in_cut_inside_an_archive_inside)
{
    hi_scratch();
    hand_in *in = hi_new("tar");
    char *big = filled(5000, 'i');
    memcpy(big, "INNERDATA", 9);
    hi_file(in, "lesson0/in.cu", big, 5000);
    free(big);
    hand_in *h = hi_new("tar");
    hi_text(h, "lesson3/first.cu", "// FIRST\n");
    hi_nest(h, "inner.tar", in);
    hi_free(in);
    size_t len;
    const char *bytes = hi_bytes(h, &len);
    size_t cut = offset_of(bytes, len, "INNERDATA") + 1000;
    FILE *f = fopen(hi_path("cut.tar"), "wb");
    ck_assert_uint_eq(fwrite(bytes, 1, cut, f), cut);
    fclose(f);
    hi_free(h);
    read_out o = read_path(hi_path("cut.tar"));
    ck_assert_int_eq(o.rc, -1);
    ck_assert_msg(!strncmp(o.err, "damaged after entry 2 (Truncated input file", 43) &&
                  strstr(o.err, "): the rest was not read"), "%s", o.err);
    ck_assert_str_eq(o.log, "want F lesson3/first.cu 9\ngot 0 lesson3/first.cu 9: // FIRST\n\n"
                     "want F inner.tar 6656\nbad inner.tar: an archive inside the submission "
                     "that could not be read (Truncated tar archive)\n");
    free(o.log);
    hi_scratch_remove();
}
END_TEST

/* ---- the caps ---- */

/* A tar of empty entries: `counted` named junk/NNNNN (the last lesson0/last.cu)
 * after `ignored` under build/. */
static void many_entries(const char *path, int ignored, int counted)
{
    hand_in *h = hi_new("tar");
    char name[64];
    for (int i = 0; i < ignored; i++) {
        snprintf(name, sizeof name, "build/%05d.o", i);
        hi_text(h, name, "");
    }
    for (int i = 0; i < counted - 1; i++) {
        snprintf(name, sizeof name, "junk/%05d", i);
        hi_text(h, name, "");
    }
    hi_text(h, "lesson0/last.cu", "// LAST\n");
    hi_save(h, path);
}

static int got_last(const char *log)
{
    return strstr(log, "got 0 lesson0/last.cu 8: // LAST\n") != NULL;
}

START_TEST(entries_cap_counts_what_is_not_ignored)
{
    hi_scratch();
    many_entries(hi_path("at.tar"), 5, ARC_MAX_ENTRIES);
    read_out o = read_path(hi_path("at.tar"));
    ck_assert_msg(o.rc == 0 && got_last(o.log), "%s", o.err);
    free(o.log);
    many_entries(hi_path("over.tar"), 0, ARC_MAX_ENTRIES + 1);
    o = read_path(hi_path("over.tar"));
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, "more than 10000 entries (not counting ignored folders such as "
                     "build/): the rest were not read");
    ck_assert(!got_last(o.log));
    free(o.log);
    hi_scratch_remove();
}
END_TEST

/* 1 GiB of content counts; a byte more stops the reading, naming the
 * entry (as it may be shown); an ignored folder's bytes do not count. */
START_TEST(bytes_cap_counts_what_is_not_ignored)
{
    hi_scratch();
    static const char *const names[] = {"build/huge.bin", "junk/a.bin", "junk/b\x01\xc3\xa9.bin",
                                        "lesson0/last.cu"};
    unsigned long long sizes[] = {ARC_MAX_BYTES, ARC_MAX_BYTES - 1, 1, 0};
    hi_sized_tar(hi_path("at.tar"), names, sizes, 4);
    expect_read(hi_path("at.tar"), 0, "tar", "",
                "want F build/huge.bin 1073741824\n"
                "want F junk/a.bin 1073741823\n"
                "want F junk/b\x01\xc3\xa9.bin 1\n"
                "want F lesson0/last.cu 0\n"
                "got 0 lesson0/last.cu 0: \n");
    sizes[2] = 2;
    hi_sized_tar(hi_path("over.tar"), names, sizes, 4);
    expect_read(hi_path("over.tar"), -1, "tar",
                "more than 1024 MB of content (not counting ignored folders) by "
                "junk/b?\xc3\xa9.bin: the rest was not read",
                "want F build/huge.bin 1073741824\n"
                "want F junk/a.bin 1073741823\n"
                "want F junk/b\x01\xc3\xa9.bin 2\n");
    /* The same in a folder, its files sparse. */
    hi_mkdir("f/junk");
    ck_assert_int_eq(truncate(hi_path("f/junk/a.bin"), 0) == 0 || errno == ENOENT, 1);
    FILE *fa = fopen(hi_path("f/junk/a.bin"), "w"), *fb = fopen(hi_path("f/junk/b.bin"), "w");
    fclose(fa);
    fclose(fb);
    ck_assert_int_eq(truncate(hi_path("f/junk/a.bin"), (off_t)ARC_MAX_BYTES), 0);
    ck_assert_int_eq(truncate(hi_path("f/junk/b.bin"), 1), 0);
    hi_write("f/z.cu", "// Z\n");
    expect_read(hi_path("f"), -1, "folder",
                "more than 1024 MB of content (not counting ignored folders) by junk/b.bin: "
                "the rest was not read",
                "want D junk 0\nwant F junk/a.bin 1073741824\nwant F junk/b.bin 1\n");
    hi_scratch_remove();
}
END_TEST

/* An entry whose size the archive does not say counts nothing when it is
 * listed: a hand-in exactly at the cap with one is not over it. */
START_TEST(bytes_cap_counts_unsized_entries_as_nothing)
{
    hi_scratch();
    hand_in *zip = hi_new("zip");
    hi_unsized(zip, "lesson3/x.cu", "// X\n", 5);
    size_t zlen;
    const char *zbytes = hi_bytes(zip, &zlen);
    static const char *const names[] = {"junk/a.bin", "s.zip"};
    const unsigned long long sizes[] = {ARC_MAX_BYTES - zlen, zlen};
    const char *data[] = {NULL, zbytes};
    hi_sized_tar_with(hi_path("t.tar"), names, sizes, data, 2);
    hi_free(zip);
    read_out o = read_path(hi_path("t.tar"));
    ck_assert_msg(o.rc == 0, "%s", o.err);
    ck_assert_msg(strstr(o.log, "want F s.zip/lesson3/x.cu ?\ngot 0 s.zip/lesson3/x.cu 5: // X\n"),
                  "%s", o.log);
    free(o.log);
    hi_scratch_remove();
}
END_TEST

/* Wanted, and too big to hold in memory: reported as such, reading goes on. */
START_TEST(out_of_memory_is_reported)
{
    hi_scratch();
    static const char *const names[] = {"lesson3/huge.cu", "lesson0/after.cu"};
    static const unsigned long long sizes[] = {512ull << 20, 0};
    hi_sized_tar(hi_path("big.tar"), names, sizes, 2);
    /* Room for what the process has now and a little more, not for 512 MiB. */
    struct rlimit lim;
    ck_assert_int_eq(getrlimit(RLIMIT_AS, &lim), 0);
    FILE *st = fopen("/proc/self/status", "r");
    ck_assert_ptr_nonnull(st);
    char line[256];
    unsigned long vm_kb = 0;
    while (fgets(line, sizeof line, st))
        if (sscanf(line, "VmSize: %lu kB", &vm_kb) == 1)
            break;
    fclose(st);
    ck_assert_uint_gt(vm_kb, 0);
    lim.rlim_cur = (rlim_t)(vm_kb + 128 * 1024) * 1024;
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
    expect_read(hi_path("big.tar"), 0, "tar", "",
                "want F lesson3/huge.cu 536870912\n"
                "bad lesson3/huge.cu: its content could not be read whole (out of memory): "
                "damaged, or not what the archive says\n"
                "want F lesson0/after.cu 0\n"
                "got 1 lesson0/after.cu 0: \n");
    hi_scratch_remove();
}
END_TEST

/* ---- folders ---- */

/* Every entry, in bytewise order, as what it is (a file with another name
 * is a hard link); a file's content only when wanted and plain; an ignored
 * folder not walked. */
START_TEST(folder_lists_every_entry_as_what_it_is)
{
    hi_scratch();
    hi_write("f/.hidden.cu", "// H\n");
    hi_write("f/a/lesson3/matmul.cu", "// MATMUL\n");
    hi_write("f/b.cu", "b\n");
    hi_write("f/build/x.cu", "// IGNORED\n");
    hi_write("f/hard.cu", "// HARD\n");
    ck_assert_int_eq(link(hi_path("f/hard.cu"), hi_path("f/hard2.cu")), 0);
    ck_assert_int_eq(symlink("/etc/passwd", hi_path("f/link.cu")), 0);
    ck_assert_int_eq(mkfifo(hi_path("f/fifo.cu"), 0600), 0);
    int sock = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", hi_path("f/sock"));
    ck_assert_int_eq(bind(sock, (struct sockaddr *)&addr, sizeof addr), 0);
    expect_read(hi_path("f"), 0, "folder", "",
                "want F .hidden.cu 5\n"
                "got 0 .hidden.cu 5: // H\n\n"
                "want D a 0\n"
                "want D a/lesson3 0\n"
                "want F a/lesson3/matmul.cu 10\n"
                "got 1 a/lesson3/matmul.cu 10: // MATMUL\n\n"
                "want F b.cu 2\n"
                "got 2 b.cu 2: b\n\n"
                "want D build 0\n"
                "want P fifo.cu 0\n"
                "want H hard.cu 8\n"
                "want H hard2.cu 8\n"
                "want L link.cu 0\n"
                "want O sock 0 (a socket or other special file)\n");
    close(sock);
    hi_scratch_remove();
}
END_TEST

/* A device file in a folder, character or block, is a device (refused as
 * such), not "a socket or other special file". mknod needs CAP_MKNOD (root,
 * as the suite runs here); without it the test says so and checks nothing. */
START_TEST(folder_device_files_are_devices)
{
    hi_scratch();
    hi_write("f/a.cu", "a\n");
    if (mknod(hi_path("f/chr"), S_IFCHR | 0600, makedev(1, 3)) != 0) {
        ck_assert_int_eq(errno, EPERM);
        fprintf(stderr, "folder_device_files_are_devices: mknod not permitted, not checked\n");
        hi_scratch_remove();
        return;
    }
    ck_assert_int_eq(mknod(hi_path("f/blk"), S_IFBLK | 0600, makedev(7, 0)), 0);
    expect_read(hi_path("f"), 0, "folder", "",
                "want F a.cu 2\n"
                "got 0 a.cu 2: a\n\n"
                "want V blk 0\n"
                "want V chr 0\n");
    hi_scratch_remove();
}
END_TEST

/* Twelve folders deep is read; the thirteenth stops the reading, named. */
START_TEST(folder_depth_cap)
{
    hi_scratch();
    char rel[512] = "f";
    for (int d = 1; d <= 12; d++)
        snprintf(rel + strlen(rel), sizeof rel - strlen(rel), "/d%d", d);
    char file[600];
    snprintf(file, sizeof file, "%s/x.cu", rel);
    hi_write(file, "// DEEP\n");
    read_out o = read_path(hi_path("f"));
    ck_assert_msg(o.rc == 0, "%s", o.err);
    ck_assert_msg(strstr(o.log, "got 0 d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/x.cu 8: "), "%s",
                  o.log);
    free(o.log);
    /* Its name as it may be shown: a control byte, a lead byte without its
     * continuation, a stray continuation byte, a lead byte of no length,
     * DEL, each '?'; characters of 2, 3 and 4 bytes as they are. */
    snprintf(file, sizeof file, "%s/d\x01\xc3\xa9\xc3" "A\x80\xf8\x80\x80\x80\xe6\x9d\x8e"
             "\xf0\x9f\x98\x80\x7f\xe1\x80\x80\xf1\x80\x80\x80\xd1\x8f", rel);
    hi_mkdir(file);
    o = read_path(hi_path("f"));
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, "folders nested deeper than 12: d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/"
                     "d11/d12/d?\xc3\xa9?A?????\xe6\x9d\x8e\xf0\x9f\x98\x80?\xe1\x80\x80"
                     "\xf1\x80\x80\x80\xd1\x8f was not read");
    ck_assert_msg(!strstr(o.log, "x.cu"), "%s", o.log);    /* sorted after the folder */
    free(o.log);
    hi_scratch_remove();
}
END_TEST

/* What is no hand-in at all, by its path. */
START_TEST(paths_that_are_no_hand_in)
{
    hi_scratch();
    expect_read(hi_path("missing"), -1, "?", "cannot be read: No such file or directory", "");
    expect_read(hi_path("missing.tar"), -1, "?", "cannot be read: No such file or directory",
                "");
    hi_write("notes.txt", "notes\n");
    static const char neither[] = "is neither a folder nor a tar or zip archive (.tar, .tar.gz, "
                                  ".tgz, .tar.bz2, .tar.xz, .tar.zst, .zip)";
    expect_read(hi_path("notes.txt"), -1, "?", neither, "");
    ck_assert_int_eq(mkfifo(hi_path("p.tar"), 0600), 0);
    expect_read(hi_path("p.tar"), -1, "tar", neither, "");
    hi_mkdir("real");
    ck_assert_int_eq(symlink(hi_path("real"), hi_path("s.zip")), 0);
    expect_read(hi_path("s.zip"), -1, "zip", neither, "");
    ck_assert_int_eq(symlink(hi_path("real"), hi_path("s")), 0);
    expect_read(hi_path("s"), -1, "?", neither, "");
    /* A folder named like an archive is a folder. */
    hi_write("d.zip/lesson3/matmul.cu", "// M\n");
    expect_read(hi_path("d.zip"), 0, "folder", "",
                "want D lesson3 0\nwant F lesson3/matmul.cu 5\ngot 0 lesson3/matmul.cu 5: // M\n\n");

    /* The readers one by one. */
    rec r = {.log = NULL};
    r.f = open_memstream(&r.log, &r.len);
    arc_sink s = {.want = rec_want, .got = rec_got, .bad = rec_bad, .ctx = &r};
    char err[256];
    /* A reading that goes well leaves no reason, whatever the buffer held. */
    snprintf(err, sizeof err, "stale");
    ck_assert_int_eq(archive_read_dir(hi_path("real"), &s, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    hand_in *h = hi_new("tar");
    hi_text(h, "x.txt", "x");
    hi_save(h, hi_path("x.tar"));
    int xfd = open(hi_path("x.tar"), O_RDONLY);
    snprintf(err, sizeof err, "stale");
    ck_assert_int_eq(archive_read_tar(xfd, &s, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    close(xfd);
    snprintf(err, sizeof err, "stale");
    ck_assert_int_eq(archive_read_zip(hi_path("x.tar"), &s, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(archive_read_dir(hi_path("s"), &s, err, sizeof err), -1);
    ck_assert_str_eq(err, "cannot be read: Not a directory");   /* a link is not followed */
    ck_assert_int_eq(archive_read_dir(hi_path("notes.txt"), &s, err, sizeof err), -1);
    ck_assert_str_eq(err, "cannot be read: Not a directory");
    int fd = open(hi_path("real"), O_RDONLY | O_DIRECTORY);
    ck_assert_int_eq(archive_read_tar(fd, &s, err, sizeof err), -1);
    ck_assert_msg(!strncmp(err, "cannot be read as an archive (", 30), "%s", err);
    close(fd);
    fclose(r.f);
    ck_assert_str_eq(r.log, "want F x.txt 1\nwant F x.txt 1\n");
    free(r.log);
    hi_scratch_remove();
}
END_TEST

/* Every compression the reader knows, whatever the name says (a .tar.gz
 * that is really bzip2 is read all the same). */
START_TEST(every_compression_read)
{
    hi_scratch();
    static const char *const filters[] = {"gzip", "bzip2", "xz", "lzma", "zstd", "compress"};
    for (size_t i = 0; i < sizeof filters / sizeof *filters; i++) {
        char kind[32];
        snprintf(kind, sizeof kind, "tar.%s", filters[i]);
        hand_in *h = hi_new(kind);
        hi_text(h, "lesson3/matmul.cu", "// M\n");
        hi_save(h, hi_path("c.tar.gz"));
        read_out o = read_path(hi_path("c.tar.gz"));
        ck_assert_msg(o.rc == 0, "%s: %s", filters[i], o.err);
        ck_assert_msg(!strcmp(o.log, "want F lesson3/matmul.cu 5\ngot 0 lesson3/matmul.cu 5: "
                      "// M\n\n"), "%s: %s", filters[i], o.log);
        free(o.log);
    }
    hi_scratch_remove();
}
END_TEST

/* A zip may claim any type: a socket, or one that is none. */
START_TEST(zip_claims_of_other_types)
{
    hi_scratch();
    static const char *const names[] = {"sock", "weird", "plain.cu"};
    static const unsigned modes[] = {0140644, 0170644, 0100644};
    hi_zip_modes(hi_path("m.zip"), names, modes, 3);
    expect_read(hi_path("m.zip"), 0, "zip", "",
                "want O sock 1 (a socket)\n"
                "want O weird 1 (an entry of unknown type)\n"
                "want F plain.cu 1\n"
                "got 0 plain.cu 1: x\n");
    hi_scratch_remove();
}
END_TEST

/* A name quoted in a message is cut to fit at a character: a character
 * that does not fit whole is a '?'. */
START_TEST(names_in_messages_cut_at_a_character)
{
    hi_scratch();
    char fits[256], cut[256], shown_cut[256];
    snprintf(fits, sizeof fits, "%0100d/%096d\xc3\xa9", 0, 0);     /* 199 bytes */
    snprintf(cut, sizeof cut, "%0100d/%097d\xc3\xa9", 0, 0);       /* 200 bytes */
    snprintf(shown_cut, sizeof shown_cut, "%0100d/%097d?", 0, 0);
    const char *names[] = {"junk/a.bin", fits};
    const unsigned long long sizes[] = {ARC_MAX_BYTES, 1};
    hi_sized_tar(hi_path("a.tar"), names, sizes, 2);
    read_out o = read_path(hi_path("a.tar"));
    char want[600];
    snprintf(want, sizeof want, "more than 1024 MB of content (not counting ignored folders) by "
             "%s: the rest was not read", fits);
    ck_assert_str_eq(o.err, want);
    free(o.log);
    names[1] = cut;
    hi_sized_tar(hi_path("b.tar"), names, sizes, 2);
    o = read_path(hi_path("b.tar"));
    snprintf(want, sizeof want, "more than 1024 MB of content (not counting ignored folders) by "
             "%s: the rest was not read", shown_cut);
    ck_assert_str_eq(o.err, want);
    free(o.log);
    hi_scratch_remove();
}
END_TEST

/* The lowest free descriptor: every one below it is taken. */
static int lowest_free_fd(void)
{
    int fd = dup(0);
    ck_assert_int_ge(fd, 0);
    close(fd);
    return fd;
}

/* How many descriptors are open (not only the lowest: a leaked one may sit
 * above one that was closed). */
static int open_fd_count(void)
{
    int count = 0;
    for (int fd = 0; fd < 1024; fd++)
        count += fcntl(fd, F_GETFD) != -1;
    return count;
}

static void limit_fds(int n)
{
    struct rlimit lim;
    ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &lim), 0);
    lim.rlim_cur = (rlim_t)n;
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
}

/* A file or folder listed and then not to be opened (here: no descriptor
 * left): a file is reported, a folder stops the reading, named. */
START_TEST(what_cannot_be_opened_is_said)
{
    hi_scratch();
    hi_write("f/a.cu", "// A\n");
    hand_in *h = hi_new("tar");
    hi_text(h, "lesson0/x.cu", "// X\n");
    hi_save(h, hi_path("f/h.tar"));
    hi_write("f/s\x01" "b/x.cu", "// X\n");
    struct stat st;
    ck_assert_int_eq(stat(hi_path("f/h.tar"), &st), 0);
    char want[512];
    snprintf(want, sizeof want, "want F a.cu 5\nbad a.cu: it changed while it was being read\n"
             "want F h.tar %lld\nbad h.tar: it changed while it was being read\n"
             "want D s\x01" "b 0\n", (long long)st.st_size);
    char path[4200];
    snprintf(path, sizeof path, "%s", hi_path("f"));
    int low = lowest_free_fd();
    limit_fds(low + 1);                 /* the top folder's, and no other */
    read_out o = read_path(path);
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, "cannot read s?b: Too many open files");
    ck_assert_str_eq(o.log, want);
    free(o.log);
    limit_fds(low);
    o = read_path(path);
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, "cannot be read: Too many open files");
    ck_assert_str_eq(o.log, "");
    free(o.log);
    limit_fds(low + 16);
    hi_scratch_remove();
}
END_TEST

/* An archive in a folder that is a hard link (another name of its bytes)
 * is not opened as the submission's: reported on its entry, and the
 * descriptor the check opened is closed again (a class run reads hundreds
 * of submissions in one process). */
START_TEST(folder_hard_linked_archive_is_not_read)
{
    hi_scratch();
    hi_mkdir("f");
    hand_in *h = hi_new("tar");
    hi_text(h, "lesson0/x.cu", "// X\n");
    hi_save(h, hi_path("f/h.tar"));
    ck_assert_int_eq(link(hi_path("f/h.tar"), hi_path("f/i.tar")), 0);
    struct stat st;
    ck_assert_int_eq(stat(hi_path("f/h.tar"), &st), 0);
    char want[512];
    snprintf(want, sizeof want, "want H h.tar %lld\nbad h.tar: it changed while it was being read\n"
             "want H i.tar %lld\nbad i.tar: it changed while it was being read\n",
             (long long)st.st_size, (long long)st.st_size);
    int before = open_fd_count();
    read_out o = read_path(hi_path("f"));
    ck_assert_int_eq(open_fd_count(), before);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_str_eq(o.log, want);
    free(o.log);
    hi_scratch_remove();
}
END_TEST

/* ---- a folder that changes while it is read ---- */

static read_out read_changing(const char *path, const char *at, void (*act)(void))
{
    rec r = {.at = at, .act = act};
    r.f = open_memstream(&r.log, &r.len);
    arc_sink s = {.want = rec_want, .got = rec_got, .bad = rec_bad, .ctx = &r};
    read_out o;
    memset(&o, 0, sizeof o);
    o.rc = archive_read(path, &s, o.kind, sizeof o.kind, o.err, sizeof o.err);
    fclose(r.f);
    o.log = r.log;
    return o;
}

static void remove_b(void) { ck_assert_int_eq(unlink(hi_path("f/b.cu")), 0); }
static void replace_a(void)
{
    ck_assert_int_eq(unlink(hi_path("f/a.cu")), 0);
    hi_write("f/a.cu", "// ANOTHER\n");
}
static void grow_a(void) { hi_write("f/a.cu", "// A, and more\n"); }
static void shrink_a(void) { ck_assert_int_eq(truncate(hi_path("f/a.cu"), 2), 0); }

static void stale_eintr(void) { errno = EINTR; }

static void two_files(void)
{
    hi_scratch();
    hi_write("f/a.cu", "// A\n");
    hi_write("f/b.cu", "// B\n");
}

/* A listed entry gone before it is looked at: the reading stops, naming
 * it. A file replaced, grown or cut after it was looked at: reported,
 * never read as what it was not. */
START_TEST(folder_changing_while_read)
{
    two_files();
    read_out o = read_changing(hi_path("f"), "a.cu", remove_b);
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, "cannot read b.cu: No such file or directory");
    ck_assert_str_eq(o.log, "want F a.cu 5\ngot 0 a.cu 5: // A\n\n");
    free(o.log);
    hi_scratch_remove();
    /* A stale EINTR left in errno is no reason to read on past the end. */
    two_files();
    o = read_changing(hi_path("f"), "a.cu", stale_eintr);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_str_eq(o.log, "want F a.cu 5\ngot 0 a.cu 5: // A\n\nwant F b.cu 5\n"
                     "got 1 b.cu 5: // B\n\n");
    free(o.log);
    hi_scratch_remove();
    static void (*const change[])(void) = {replace_a, grow_a, shrink_a};
    for (int i = 0; i < 3; i++) {
        two_files();
        o = read_changing(hi_path("f"), "a.cu", change[i]);
        ck_assert_int_eq(o.rc, 0);
        ck_assert_str_eq(o.log, "want F a.cu 5\nbad a.cu: it changed while it was being read\n"
                         "want F b.cu 5\ngot 1 b.cu 5: // B\n\n");
        free(o.log);
        hi_scratch_remove();
    }
}
END_TEST

/* A folder that cannot be listed (here: no memory left for it): the
 * reading stops, naming it. */
START_TEST(folder_that_cannot_be_listed)
{
    hi_scratch();
    hi_write("f/a.cu", "// A\n");
    hi_write("f/sub\x01/x.cu", "// X\n");
    rec r = {.at = "sub\x01", .act = hi_take_all_memory};
    static char log[4096];
    r.f = fmemopen(log, sizeof log, "w");
    setvbuf(r.f, NULL, _IONBF, 0);
    arc_sink s = {.want = rec_want, .got = rec_got, .bad = rec_bad, .ctx = &r};
    char err[256];
    int rc = archive_read_dir(hi_path("f"), &s, err, sizeof err);
    hi_give_back_memory();
    fclose(r.f);
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(err, "cannot list sub?/: Cannot allocate memory");
    ck_assert_str_eq(log, "want F a.cu 5\ngot 0 a.cu 5: // A\n\nwant D sub\x01 0\n");
    /* And the top folder itself. */
    r.at = NULL;
    r.f = fmemopen(log, sizeof log, "w");
    setvbuf(r.f, NULL, _IONBF, 0);
    hi_take_all_memory();
    rc = archive_read_dir(hi_path("f"), &s, err, sizeof err);
    hi_give_back_memory();
    fclose(r.f);
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(err, "cannot list the top folder: Cannot allocate memory");
    hi_scratch_remove();
}
END_TEST

/* ---- the time cap ---- */

/* The archive's bytes into a pipe from a child: up to each cut, then a
 * pause; the read end, and the child (to be ended with end_feed). */
typedef struct feed {
    int fd;
    pid_t pid;
} feed;

static feed slow_feed(const char *bytes, size_t len, const size_t *cuts, int ncuts, double pause)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(p[0]);
        size_t at = 0;
        for (int i = 0; i <= ncuts; i++) {
            size_t end = i < ncuts ? cuts[i] : len;
            for (; at < end;) {
                ssize_t w = write(p[1], bytes + at, end - at);
                if (w <= 0)
                    _exit(0);
                at += (size_t)w;
            }
            if (i < ncuts)
                usleep((useconds_t)(pause * 1e6));
        }
        _exit(0);
    }
    close(p[1]);
    return (feed){.fd = p[0], .pid = pid};
}

static void end_feed(feed f)
{
    close(f.fd);
    kill(f.pid, SIGKILL);
    waitpid(f.pid, NULL, 0);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Read the tar from the feed, the cap at 0.4 s (the pauses are longer,
 * and what comes before them takes far less, even on a loaded machine). */
static read_out read_fed(feed f, double *took)
{
    rec r = {.log = NULL};
    r.f = open_memstream(&r.log, &r.len);
    arc_sink s = {.want = rec_want, .got = rec_got, .bad = rec_bad, .ctx = &r};
    read_out o;
    memset(&o, 0, sizeof o);
    archive_set_max_seconds(0.4);
    double t0 = seconds_now();
    o.rc = archive_read_tar(f.fd, &s, o.err, sizeof o.err);
    if (took)
        *took = seconds_now() - t0;
    archive_set_max_seconds(0);
    fclose(r.f);
    o.log = r.log;
    end_feed(f);
    return o;
}

static const char too_long[] = "reading it took more than 0.4 s: the rest was not read";

/* A wanted file whose content comes too late: reported, and the reading
 * stops. */
START_TEST(time_cap_inside_a_file)
{
    char *big = filled(200000, 'b');
    memcpy(big, "MIDDLE", 6);
    memcpy(big + 100000, "MIDDLE", 6);
    hand_in *h = hi_new("tar");
    hi_text(h, "lesson0/a.cu", "// A\n");
    hi_file(h, "lesson3/b.cu", big, 200000);
    hi_text(h, "lesson3/c.cu", "// C\n");
    free(big);
    size_t len;
    const char *bytes = hi_bytes(h, &len);
    size_t cut = offset_of(bytes, len, "MIDDLE") + 100000;
    read_out o = read_fed(slow_feed(bytes, len, &cut, 1, 1.0), NULL);
    hi_free(h);
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, too_long);
    ck_assert_str_eq(o.log, "want F lesson0/a.cu 5\ngot 0 lesson0/a.cu 5: // A\n\n"
                     "want F lesson3/b.cu 200000\nbad lesson3/b.cu: its content could not be "
                     "read whole (reading it took too long): damaged, or not what the archive "
                     "says\n");
    free(o.log);
}
END_TEST

/* Entries that come too late, none of them wanted: the reading stops
 * before the next. */
START_TEST(time_cap_between_entries)
{
    hand_in *h = hi_new("tar");
    hi_text(h, "lesson0/a.cu", "// A\n");
    hi_text(h, "notes.txt", "notes\n");
    hi_text(h, "more.txt", "MORE\n");
    hi_text(h, "last.txt", "last\n");
    size_t len;
    const char *bytes = hi_bytes(h, &len);
    size_t cut = offset_of(bytes, len, "more.txt");
    read_out o = read_fed(slow_feed(bytes, len, &cut, 1, 1.0), NULL);
    hi_free(h);
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, too_long);
    ck_assert_str_eq(o.log, "want F lesson0/a.cu 5\ngot 0 lesson0/a.cu 5: // A\n\n"
                     "want F notes.txt 6\nwant F more.txt 5\n");
    free(o.log);
}
END_TEST

/* An archive inside that trickles in: the reading stops at the cap, not
 * when the last byte has come. */
START_TEST(time_cap_inside_an_archive_inside)
{
    char *junk = filled(300000, 'j');
    memcpy(junk, "JUNKSTART", 9);
    hand_in *in = hi_new("tar");
    hi_file(in, "junk.bin", junk, 300000);
    hi_text(in, "lesson0/x.cu", "// X\n");
    free(junk);
    hand_in *h = hi_new("tar");
    hi_nest(h, "inner.tar", in);
    hi_free(in);
    size_t len;
    const char *bytes = hi_bytes(h, &len);
    size_t start = offset_of(bytes, len, "JUNKSTART"), cuts[10];
    for (int i = 0; i < 10; i++)
        cuts[i] = start + (size_t)(i + 1) * 25000;
    double took;
    read_out o = read_fed(slow_feed(bytes, len, cuts, 10, 0.25), &took);
    hi_free(h);
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, too_long);
    ck_assert_msg(took < 1.8, "stopped after %.2f s, not at the cap", took);
    ck_assert_msg(!strncmp(o.log, "want F inner.tar ", 17) && !strstr(o.log, "x.cu"), "%s",
                  o.log);
    /* The cap stops everything: the archive inside is not called damaged. */
    ck_assert_msg(!strstr(o.log, "bad "), "%s", o.log);
    free(o.log);
}
END_TEST

/* A cap already passed: nothing of an archive is read; a folder stops
 * after its first entry. Back to the default, everything is. */
START_TEST(time_cap_already_passed)
{
    hi_scratch();
    hand_in *h = hi_new("tar");
    hi_text(h, "lesson0/a.cu", "// A\n");
    hi_save(h, hi_path("a.tar"));
    hi_write("f/a.cu", "// A\n");
    hi_write("f/b.cu", "// B\n");
    archive_set_max_seconds(1e-9);
    read_out o = read_path(hi_path("a.tar"));
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, "reading it took more than 1e-09 s: the rest was not read");
    ck_assert_str_eq(o.log, "");
    free(o.log);
    o = read_path(hi_path("f"));
    ck_assert_int_eq(o.rc, -1);
    ck_assert_str_eq(o.err, "reading it took more than 1e-09 s: the rest was not read");
    ck_assert_str_eq(o.log, "want F a.cu 5\n");
    free(o.log);
    archive_set_max_seconds(0);
    expect_read(hi_path("a.tar"), 0, "tar", "", "want F lesson0/a.cu 5\ngot 0 lesson0/a.cu 5: // A\n\n");
    archive_set_max_seconds(-1);
    expect_read(hi_path("f"), 0, "folder", "", "want F a.cu 5\ngot 0 a.cu 5: // A\n\n"
                "want F b.cu 5\ngot 1 b.cu 5: // B\n\n");
    hi_scratch_remove();
}
END_TEST

Suite *class_archive_suite(void)
{
    Suite *s = suite_create("class_archive");
    TCase *tc = tcase_create("archive");
    tcase_add_checked_fixture(tc, NULL, hi_scratch_remove);
    tcase_add_test(tc, archive_kinds_by_name);
    tcase_add_test(tc, crc32_check_value);
    tcase_add_test(tc, tar_lists_every_entry_as_what_it_is);
    tcase_add_test(tc, zip_lists_every_entry_as_what_it_is);
    tcase_add_test(tc, damaged_archives_say_where);
    tcase_add_test(tc, zip_bad_crc_reported_and_reading_goes_on);
    tcase_add_test(tc, archives_inside_are_read_once);
    tcase_add_test(tc, archives_in_a_folder);
    tcase_add_test(tc, unsized_entries_read_up_to_their_cap);
    tcase_add_test(tc, hand_in_cut_inside_an_archive_inside);
    tcase_add_test(tc, entries_cap_counts_what_is_not_ignored);
    tcase_add_test(tc, bytes_cap_counts_what_is_not_ignored);
    tcase_add_test(tc, bytes_cap_counts_unsized_entries_as_nothing);
    tcase_add_test(tc, out_of_memory_is_reported);
    tcase_add_test(tc, folder_lists_every_entry_as_what_it_is);
    tcase_add_test(tc, folder_device_files_are_devices);
    tcase_add_test(tc, folder_depth_cap);
    tcase_add_test(tc, paths_that_are_no_hand_in);
    tcase_add_test(tc, every_compression_read);
    tcase_add_test(tc, zip_claims_of_other_types);
    tcase_add_test(tc, names_in_messages_cut_at_a_character);
    tcase_add_test(tc, what_cannot_be_opened_is_said);
    tcase_add_test(tc, folder_hard_linked_archive_is_not_read);
    tcase_add_test(tc, folder_changing_while_read);
    tcase_add_test(tc, folder_that_cannot_be_listed);
    suite_add_tcase(s, tc);
    tc = tcase_create("time");
    tcase_add_checked_fixture(tc, NULL, hi_scratch_remove);
    tcase_add_test(tc, time_cap_inside_a_file);
    tcase_add_test(tc, time_cap_between_entries);
    tcase_add_test(tc, time_cap_inside_an_archive_inside);
    tcase_add_test(tc, time_cap_already_passed);
    suite_add_tcase(s, tc);
    return s;
}
