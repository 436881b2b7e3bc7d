/* test_class.c: grading a class, without a GPU. The archive readers and the
 * submission rules against hand-built hostile tars, zips and folders; the
 * text each output format needs; and whole class runs through class_main
 * with a scripted grader (so verdicts, times, leaderboards, the summary's
 * reasons, resuming and the time budget are all exercised on CPU). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "archive.h"
#include "class.h"
#include "fileio.h"
#include "sha256.h"
#include "submission.h"
#include "suites.h"

/* ---- helpers ---- */

/* A folder of the test's own under $TMPDIR, removed after the test. */
static char scratch_dir[512];

static const char *scratch(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch_dir, sizeof scratch_dir, "%s/test-class-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(scratch_dir));
    return scratch_dir;
}

static void remove_scratch(void)
{
    char cmd[600];
    if (!scratch_dir[0])
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", scratch_dir);
    scratch_dir[0] = 0;
}

static void write_file(const char *path, const char *text)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    *slash = 0;
    ck_assert_int_eq(mkdir_p(dir), 0);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static char *slurp(const char *path)
{
    char *s = read_text_file(path, NULL);
    ck_assert_msg(s != NULL, "cannot read %s", path);
    return s;
}

/* Lesson 0 and lesson 3: saxpy, bank_conflicts, matmul. */
static int some_exercises(const exercise **ex)
{
    int n = 0;
    for (const exercise *const *e = lesson_exercises[0]; *e; e++)
        ex[n++] = *e;
    for (const exercise *const *e = lesson_exercises[3]; *e; e++)
        ex[n++] = *e;
    return n;
}

static int index_of(const exercise **ex, int n, const char *file)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(ex[i]->file, file))
            return i;
    ck_abort_msg("no exercise %s", file);
    return -1;
}

static int refused_with(const submission *s, const char *entry, const char *why_part)
{
    for (int i = 0; i < s->nrefused && i < SUB_MAX_NOTES; i++)
        if (!strcmp(s->refused[i].entry, entry) && strstr(s->refused[i].why, why_part))
            return 1;
    return 0;
}

/* ---- tar, written by hand so any entry can be made ---- */

static void tar_entry(FILE *f, const char *name, char type, const char *data, const char *link)
{
    unsigned char h[512];
    size_t size = data ? strlen(data) : 0;
    memset(h, 0, sizeof h);
    snprintf((char *)h, 100, "%s", name);
    snprintf((char *)h + 100, 8, "%07o", 0644);
    snprintf((char *)h + 108, 8, "%07o", 0);
    snprintf((char *)h + 116, 8, "%07o", 0);
    snprintf((char *)h + 124, 12, "%011o", (unsigned)size);
    snprintf((char *)h + 136, 12, "%011o", 0);
    memset(h + 148, ' ', 8);
    h[156] = (unsigned char)type;
    if (link)
        snprintf((char *)h + 157, 100, "%s", link);
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++)
        sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    h[155] = ' ';
    fwrite(h, 1, 512, f);
    if (size) {
        fwrite(data, 1, size, f);
        static const char zero[512];
        fwrite(zero, 1, (512 - size % 512) % 512, f);
    }
}

static void tar_pax_path(FILE *f, const char *path)
{
    char rec[512];
    int body = (int)strlen(path) + (int)strlen(" path=\n"), len = body + 1;
    while ((int)snprintf(NULL, 0, "%d", len) + body != len)
        len++;
    snprintf(rec, sizeof rec, "%d path=%s\n", len, path);
    tar_entry(f, "PaxHeader/x", 'x', rec, NULL);
}

static void tar_end(FILE *f)
{
    static const char zero[1024];
    fwrite(zero, 1, sizeof zero, f);
}

/* The hostile tar of the tests: one of everything the rules refuse. */
static void hostile_tar(const char *path)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    tar_entry(f, "exercises/", '5', NULL, NULL);
    tar_entry(f, "exercises/lesson3/matmul.cu", '0', "// MATMUL\n", NULL);
    tar_entry(f, "../../evil.cu", '0', "// EVIL\n", NULL);
    tar_entry(f, "/etc/cron.d/evil", '0', "// ABS\n", NULL);
    tar_entry(f, "exercises/lesson3/bank_conflicts.cu", '2', NULL, "/etc/passwd");
    tar_entry(f, "exercises/hard.cu", '1', NULL, "exercises/lesson3/matmul.cu");
    tar_entry(f, "exercises/dev", '3', NULL, NULL);
    tar_entry(f, "exercises/fifo", '6', NULL, NULL);
    tar_entry(f, "exercises/sparse", 'S', NULL, NULL);
    tar_entry(f, "exercises/notes.txt", '0', "notes\n", NULL);
    /* A GNU long name: the wrapper folder makes it longer than 100 bytes. */
    char longname[300];
    snprintf(longname, sizeof longname, "%0120d/lesson0/saxpy.cu", 0);
    tar_entry(f, "././@LongLink", 'L', longname, NULL);
    tar_entry(f, "short-name-not-used", '0', "// SAXPY\n", NULL);
    /* A pax path overrides the innocent name in the header. */
    tar_pax_path(f, "../pax-evil.cu");
    tar_entry(f, "innocent.txt", '0', "// PAX\n", NULL);
    tar_end(f);
    fclose(f);
}

static void check_hostile(const submission *s, const exercise **ex, int n)
{
    int mm = index_of(ex, n, "lesson3/matmul.cu"), bc = index_of(ex, n,
        "lesson3/bank_conflicts.cu"), sx = index_of(ex, n, "lesson0/saxpy.cu");
    ck_assert_str_eq(s->error, "");
    ck_assert_ptr_nonnull(s->data[mm]);
    ck_assert_str_eq(s->data[mm], "// MATMUL\n");
    ck_assert_ptr_nonnull(s->data[sx]);
    ck_assert_str_eq(s->data[sx], "// SAXPY\n");
    ck_assert_ptr_null(s->data[bc]);
    ck_assert_msg(strstr(s->missing_why[bc], "symbolic link"), "%s", s->missing_why[bc]);
    ck_assert_int_eq(s->nrefused, 7);
    ck_assert(refused_with(s, "../../evil.cu", "'..'"));
    ck_assert(refused_with(s, "/etc/cron.d/evil", "absolute"));
    ck_assert(refused_with(s, "exercises/lesson3/bank_conflicts.cu", "symbolic link"));
    ck_assert(refused_with(s, "exercises/hard.cu", "hard link"));
    ck_assert(refused_with(s, "exercises/dev", "device"));
    ck_assert(refused_with(s, "exercises/fifo", "FIFO"));
    ck_assert(refused_with(s, "../pax-evil.cu", "'..'"));
    /* A GNU sparse entry is a plain file to libarchive (its holes filled in):
     * not an exercise file here, so ignored. */
    ck_assert_int_eq(s->nignored, 2);
    ck_assert_str_eq(s->ignored[0], "exercises/sparse");
    ck_assert_str_eq(s->ignored[1], "exercises/notes.txt");
}

START_TEST(tar_hostile_entries_refused)
{
    const exercise *ex[16];
    int n = some_exercises(ex);
    char path[256];
    snprintf(path, sizeof path, "%s/eve.tar", scratch());
    hostile_tar(path);
    submission s;
    ck_assert_int_eq(submission_read(path, ex, n, &s), 0);
    ck_assert_str_eq(s.kind, "tar");
    check_hostile(&s, ex, n);
    submission_free(&s);
}
END_TEST

START_TEST(tar_gz_read_through_gzip)
{
    const exercise *ex[16];
    int n = some_exercises(ex);
    char path[256], cmd[600];
    snprintf(path, sizeof path, "%s/eve.tar", scratch());
    hostile_tar(path);
    snprintf(cmd, sizeof cmd, "gzip -n '%s'", path);
    ck_assert_int_eq(system(cmd), 0);
    strcat(path, ".gz");
    submission s;
    ck_assert_int_eq(submission_read(path, ex, n, &s), 0);
    ck_assert_str_eq(s.kind, "tar.gz");
    check_hostile(&s, ex, n);
    submission_free(&s);
}
END_TEST

START_TEST(tar_duplicates_and_damage)
{
    const exercise *ex[16];
    int n = some_exercises(ex), mm = index_of(ex, n, "lesson3/matmul.cu");
    const char *dir = scratch();
    char path[256];
    snprintf(path, sizeof path, "%s/two.tar", dir);
    FILE *f = fopen(path, "wb");
    tar_entry(f, "lesson3/matmul.cu", '0', "// ONE\n", NULL);
    tar_entry(f, "wrap/lesson3/matmul.cu", '0', "// TWO\n", NULL);
    tar_end(f);
    fclose(f);
    submission s;
    ck_assert_int_eq(submission_read(path, ex, n, &s), 0);
    ck_assert_ptr_null(s.data[mm]);
    ck_assert(refused_with(&s, "wrap/lesson3/matmul.cu", "neither copy"));
    submission_free(&s);

    /* Not a tar at all. */
    snprintf(path, sizeof path, "%s/junk.tar", dir);
    write_file(path, "this is not a tar archive, and it is long enough to fill a header? no");
    ck_assert_int_eq(submission_read(path, ex, n, &s), -1);
    ck_assert_msg(s.error[0], "no error for junk");
    submission_free(&s);

    /* Cut inside a file: what came before stands, the cut file is refused. */
    snprintf(path, sizeof path, "%s/cut.tar", dir);
    f = fopen(path, "wb");
    tar_entry(f, "lesson0/saxpy.cu", '0', "// SAXPY\n", NULL);
    char big[2000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    tar_entry(f, "lesson3/matmul.cu", '0', big, NULL);
    fclose(f);
    ck_assert_int_eq(truncate(path, 512 * 3 + 100), 0);
    ck_assert_int_eq(submission_read(path, ex, n, &s), -1);
    ck_assert_ptr_nonnull(s.data[index_of(ex, n, "lesson0/saxpy.cu")]);
    ck_assert_ptr_null(s.data[mm]);
    ck_assert_msg(strstr(s.error, "ends inside"), "%s", s.error);
    submission_free(&s);
}
END_TEST

START_TEST(oversized_file_refused)
{
    const exercise *ex[16];
    int n = some_exercises(ex), mm = index_of(ex, n, "lesson3/matmul.cu");
    char path[256];
    snprintf(path, sizeof path, "%s/big.tar", scratch());
    FILE *f = fopen(path, "wb");
    char *big = malloc(SUB_MAX_FILE + 2);
    memset(big, 'x', SUB_MAX_FILE + 1);
    big[SUB_MAX_FILE + 1] = 0;
    tar_entry(f, "lesson3/matmul.cu", '0', big, NULL);
    tar_entry(f, "lesson0/saxpy.cu", '0', "// after the big one\n", NULL);
    tar_end(f);
    fclose(f);
    free(big);
    submission s;
    ck_assert_int_eq(submission_read(path, ex, n, &s), 0);
    ck_assert_ptr_null(s.data[mm]);
    ck_assert_msg(strstr(s.missing_why[mm], "more than an exercise file"), "%s", s.missing_why[mm]);
    ck_assert_ptr_nonnull(s.data[index_of(ex, n, "lesson0/saxpy.cu")]);
    submission_free(&s);
}
END_TEST

/* ---- zip, stored entries written by hand ---- */

typedef struct zent {
    const char *name, *data;
    unsigned mode;             /* st_mode for a Unix "made by" */
    int bad_crc;
} zent;

static void put16(FILE *f, unsigned v) { fputc(v & 255, f); fputc(v >> 8 & 255, f); }
static void put32(FILE *f, uint32_t v) { put16(f, v & 0xffff); put16(f, v >> 16); }

static void zip_write(const char *path, const zent *e, int n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    long off[16];
    for (int i = 0; i < n; i++) {
        size_t len = strlen(e[i].data);
        uint32_t crc = crc32_of(e[i].data, len) ^ (e[i].bad_crc ? 1u : 0u);
        off[i] = ftell(f);
        put32(f, 0x04034b50); put16(f, 20); put16(f, 0); put16(f, 0); put16(f, 0); put16(f, 0);
        put32(f, crc); put32(f, (uint32_t)len); put32(f, (uint32_t)len);
        put16(f, (unsigned)strlen(e[i].name)); put16(f, 0);
        fputs(e[i].name, f);
        fwrite(e[i].data, 1, len, f);
    }
    long cd = ftell(f);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(e[i].data);
        uint32_t crc = crc32_of(e[i].data, len) ^ (e[i].bad_crc ? 1u : 0u);
        put32(f, 0x02014b50); put16(f, 3 << 8 | 20); put16(f, 20); put16(f, 0); put16(f, 0);
        put16(f, 0); put16(f, 0); put32(f, crc); put32(f, (uint32_t)len); put32(f, (uint32_t)len);
        put16(f, (unsigned)strlen(e[i].name)); put16(f, 0); put16(f, 0); put16(f, 0); put16(f, 0);
        put32(f, (uint32_t)e[i].mode << 16); put32(f, (uint32_t)off[i]);
        fputs(e[i].name, f);
    }
    long end = ftell(f);
    put32(f, 0x06054b50); put16(f, 0); put16(f, 0); put16(f, (unsigned)n); put16(f, (unsigned)n);
    put32(f, (uint32_t)(end - cd)); put32(f, (uint32_t)cd); put16(f, 0);
    fclose(f);
}

START_TEST(zip_hostile_entries_refused)
{
    const exercise *ex[16];
    int n = some_exercises(ex);
    int mm = index_of(ex, n, "lesson3/matmul.cu"), bc = index_of(ex, n,
        "lesson3/bank_conflicts.cu"), sx = index_of(ex, n, "lesson0/saxpy.cu");
    char path[256];
    snprintf(path, sizeof path, "%s/zed.zip", scratch());
    zent e[] = {
        {.name = "lesson3/matmul.cu", .data = "// MATMUL\n", .mode = 0100644},
        {.name = "lesson3/bank_conflicts.cu", .data = "/etc/passwd", .mode = 0120777},
        {.name = "../up.cu", .data = "// UP\n", .mode = 0100644},
        {.name = "/abs.cu", .data = "// ABS\n", .mode = 0100644},
        {.name = "lesson0/saxpy.cu", .data = "// SAXPY\n", .mode = 0100644, .bad_crc = 1},
        {.name = "lesson3/", .data = "", .mode = 040755},
        {.name = "readme.md", .data = "hi", .mode = 0100644},
    };
    zip_write(path, e, 7);
    submission s;
    ck_assert_int_eq(submission_read(path, ex, n, &s), 0);
    ck_assert_str_eq(s.kind, "zip");
    ck_assert_ptr_nonnull(s.data[mm]);
    ck_assert_str_eq(s.data[mm], "// MATMUL\n");
    ck_assert_ptr_null(s.data[bc]);
    ck_assert_ptr_null(s.data[sx]);
    ck_assert_msg(strstr(s.missing_why[sx], "bad CRC"), "%s", s.missing_why[sx]);
    ck_assert(refused_with(&s, "lesson3/bank_conflicts.cu", "symbolic link"));
    ck_assert(refused_with(&s, "../up.cu", "'..'"));
    ck_assert(refused_with(&s, "/abs.cu", "absolute"));
    ck_assert_int_eq(s.nrefused, 4);
    ck_assert_int_eq(s.nignored, 1);
    submission_free(&s);
}
END_TEST

/* ---- folders ---- */

START_TEST(folder_links_and_devices_refused)
{
    const exercise *ex[16];
    int n = some_exercises(ex);
    const char *dir = scratch();
    char p[512], q[512];
    snprintf(p, sizeof p, "%s/bo/lesson3/matmul.cu", dir);
    write_file(p, "// MATMUL\n");
    snprintf(p, sizeof p, "%s/bo/lesson3/bank_conflicts.cu", dir);
    ck_assert_int_eq(symlink("/etc/passwd", p), 0);
    snprintf(q, sizeof q, "%s/elsewhere.cu", dir);
    write_file(q, "// ELSEWHERE\n");
    snprintf(p, sizeof p, "%s/bo/lesson0/saxpy.cu", dir);
    write_file(p, "x");
    unlink(p);
    ck_assert_int_eq(link(q, p), 0);
    snprintf(p, sizeof p, "%s/bo/pipe", dir);
    ck_assert_int_eq(mkfifo(p, 0600), 0);
    snprintf(p, sizeof p, "%s/bo/lesson9", dir);
    ck_assert_int_eq(symlink("/tmp", p), 0);
    snprintf(p, sizeof p, "%s/bo/.git/objects/ab", dir);
    write_file(p, "git object");
    snprintf(p, sizeof p, "%s/bo", dir);
    submission s;
    ck_assert_int_eq(submission_read(p, ex, n, &s), 0);
    ck_assert_str_eq(s.kind, "folder");
    ck_assert_str_eq(s.data[index_of(ex, n, "lesson3/matmul.cu")], "// MATMUL\n");
    ck_assert_ptr_null(s.data[index_of(ex, n, "lesson3/bank_conflicts.cu")]);
    ck_assert_ptr_null(s.data[index_of(ex, n, "lesson0/saxpy.cu")]);
    ck_assert(refused_with(&s, "lesson3/bank_conflicts.cu", "symbolic link"));
    ck_assert(refused_with(&s, "lesson0/saxpy.cu", "hard link"));
    ck_assert(refused_with(&s, "pipe", "FIFO"));
    ck_assert(refused_with(&s, "lesson9", "symbolic link"));
    ck_assert_int_eq(s.nrefused, 4);
    ck_assert_int_eq(s.nignored, 0);   /* .git is not walked */
    submission_free(&s);
}
END_TEST

START_TEST(stage_writes_only_exercise_files)
{
    const exercise *ex[16];
    int n = some_exercises(ex);
    const char *dir = scratch();
    char p[1200], stage[512];
    snprintf(p, sizeof p, "%s/cy/exercises/lesson3/matmul.cu", dir);
    write_file(p, "// MATMUL\n");
    snprintf(p, sizeof p, "%s/cy/exercises/notes.txt", dir);
    write_file(p, "notes");
    snprintf(p, sizeof p, "%s/cy", dir);
    submission s;
    ck_assert_int_eq(submission_read(p, ex, n, &s), 0);
    snprintf(stage, sizeof stage, "%s/stage", dir);
    ck_assert_int_eq(submission_stage(&s, stage), 0);
    snprintf(p, sizeof p, "%s/lesson3/matmul.cu", stage);
    char *t = slurp(p);
    ck_assert_str_eq(t, "// MATMUL\n");
    free(t);
    snprintf(p, sizeof p, "%s/notes.txt", stage);
    ck_assert_int_ne(access(p, F_OK), 0);
    snprintf(p, sizeof p, "%s/lesson0", stage);
    ck_assert_int_ne(access(p, F_OK), 0);
    /* Never into a folder that is already there. */
    ck_assert_int_eq(submission_stage(&s, stage), -1);
    submission_free(&s);
}
END_TEST

/* ---- names, hashes and text ---- */

START_TEST(name_rules)
{
    char norm[256];
    const char *why;
    ck_assert_int_eq(entry_name_check("lesson3/matmul.cu", norm, sizeof norm, &why), 0);
    ck_assert_str_eq(norm, "lesson3/matmul.cu");
    ck_assert_int_eq(entry_name_check("./lesson3//./matmul.cu", norm, sizeof norm, &why), 0);
    ck_assert_str_eq(norm, "lesson3/matmul.cu");
    ck_assert_int_eq(entry_name_check("..foo/x..", norm, sizeof norm, &why), 0);
    static const char *bad[] = {"", "/etc/passwd", "../x", "a/../../x", "a/..", "..",
                                "lesson3\\matmul.cu", "./../x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(entry_name_check(bad[i], norm, sizeof norm, &why) == -1,
                      "'%s' was not refused", bad[i]);

    const exercise *ex[16];
    int n = some_exercises(ex);
    ck_assert_int_ge(entry_exercise("lesson3/matmul.cu", ex, n), 0);
    ck_assert_int_ge(entry_exercise("exercises/lesson3/matmul.cu", ex, n), 0);
    ck_assert_int_ge(entry_exercise("a/b/lesson3/matmul.cu", ex, n), 0);   /* any depth */
    ck_assert_int_eq(entry_exercise("a/blesson3/matmul.cu", ex, n), -1);
    ck_assert_int_eq(entry_exercise("lesson3/matmul.cu.bak", ex, n), -1);
    ck_assert_int_eq(entry_exercise("lesson4/unroll.cu", ex, n), -1);
}
END_TEST

static void hex_of(const char *msg, size_t repeat, char out[65])
{
    sha256 h;
    sha256_init(&h);
    for (size_t i = 0; i < repeat; i++)
        sha256_update(&h, msg, strlen(msg));
    sha256_hex(&h, out);
}

START_TEST(sha256_vectors)
{
    char hex[65];
    hex_of("", 1, hex);
    ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hex_of("abc", 1, hex);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, hex);
    ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    hex_of("a", 1000000, hex);
    ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

static char *written(void (*fn)(FILE *, const char *), const char *in)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f, in);
    fclose(f);
    return buf;
}

START_TEST(text_for_each_format)
{
    struct { const char *in, *out; } csv[] = {
        {"plain", "plain"}, {"a,b", "\"a,b\""}, {"say \"hi\"", "\"say \"\"hi\"\"\""},
        {"=cmd|' /c calc'!A0", "\"'=cmd|' /c calc'!A0\""}, {"-3.25", "-3.25"},
        {"@SUM(A1)", "\"'@SUM(A1)\""}, {"two\nlines", "\"two\nlines\""},
    };
    for (size_t i = 0; i < sizeof csv / sizeof *csv; i++) {
        char *s = written(csv_field, csv[i].in);
        ck_assert_str_eq(s, csv[i].out);
        free(s);
    }
    char *x = written(xml_text, "a<b & \"c\"\x01\n");
    ck_assert_str_eq(x, "a&lt;b &amp; &quot;c&quot;?&#10;");
    free(x);
    char *h = written(html_text, "<script>'x'</script>");
    ck_assert_str_eq(h, "&lt;script&gt;&#39;x&#39;&lt;/script&gt;");
    free(h);

    /* XML 1.0 has no ESC and no U+FFFF, not even as references. */
    x = written(xml_text, "a\xef\xbf\xbf" "b\x1b" "c\xff" "d\xe6\x9d\x8e");
    ck_assert_str_eq(x, "a?b?c?d\xe6\x9d\x8e");
    free(x);
    char *md = NULL;
    size_t mdlen = 0;
    FILE *mf = open_memstream(&md, &mdlen);
    md_code(mf, "a`b", 0);
    fputc(' ', mf);
    md_code(mf, "x|y", 1);
    fputc(' ', mf);
    md_code(mf, "`edge", 0);
    fclose(mf);
    ck_assert_str_eq(md, "``a`b`` `x\\|y` `` `edge ``");
    free(md);
    char shown[16];
    printable_name("\xe6\x9d\x8e\xe9\x9b\xb7\x1b\xff", shown, sizeof shown);
    ck_assert_str_eq(shown, "\xe6\x9d\x8e\xe9\x9b\xb7??");
    printable_name("\xe6\x9d\x8e\xe9\x9b\xb7\xe6\x9d\x8e\xe9\x9b\xb7", shown, 10);
    ck_assert_str_eq(shown, "\xe6\x9d\x8e\xe9\x9b\xb7...");   /* cut at a character */

    char u[] = "ok \xc3\xa9 bad \xff \xc0\xaf \xed\xa0\x80 \x1b[2J\xc2\x9b\x7f\tend\n";
    utf8_scrub(u);
    ck_assert_str_eq(u, "ok \xc3\xa9 bad ? ?? ??? ?[2J???\tend\n");

    char r[64] = "/tmp/grade-class-x/ada/lesson3/m.cu(3): /tmp/grade-class-x/ada";
    replace_all(r, sizeof r, "/tmp/grade-class-x/ada", "exercises");
    ck_assert_str_eq(r, "exercises/lesson3/m.cu(3): exercises");
    char small[16] = "aXb";
    replace_all(small, sizeof small, "X", "0123456789abcdefgh");
    ck_assert_uint_eq(strlen(small), sizeof small - 1);

    result res;
    memset(&res, 0, sizeof res);
    res.outcome = OUT_WRONG;
    snprintf(res.message, sizeof res.message, "Your kernel left 12 of 1000 output values "
             "unwritten (size 1000). The grader fills ...");
    char why[160];
    reason_of(&res, why, sizeof why);
    ck_assert_str_eq(why, "WRONG: Your kernel left N of N output values unwritten (size N)");
    res.outcome = OUT_SLOW;
    snprintf(res.message, sizeof res.message, "Correct, but not fast enough: your kernel ran "
             "at 1.52x the baseline's speed");
    reason_of(&res, why, sizeof why);
    ck_assert_str_eq(why, "SLOW: Correct, but not fast enough");
    res.outcome = OUT_COMPILE_ERROR;
    snprintf(res.message, sizeof res.message, "exercises/lesson10/padded.cu does not compile. "
             "The compiler's messages below");
    reason_of(&res, why, sizeof why);
    ck_assert_str_eq(why, "COMPILE: exercises/lesson10/padded.cu does not compile");
}
END_TEST

/* Identifiers: the name as given, unique, made safe only where needed. */
START_TEST(identifiers_unique_and_as_given)
{
    static char *entries[] = {
        "\xe6\x9d\x8e\xe9\x9b\xb7", "\xe9\x9f\xa9\xe6\xa2\x85", "\xe7\x8e\x8b\xe8\x8a\xb3",
        "Zo\xc3\xab M\xc3\xbcller", "Zo\xc3\xab M\xc3\xb6ller", "ada", "ada.zip", "Ada",
        "bad\xffname", ".hidden-ish", "-dash", "x.tar.gz", "x.tgz",
        "cuda-course-fall-2025-assignment-3-shared-memory-alice",
        "cuda-course-fall-2025-assignment-3-shared-memory-bob",
    };
    static int dir[] = {1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1};
    enum { N = sizeof entries / sizeof *entries };
    static class_run run;
    static class_student st[N];
    memset(&run, 0, sizeof run);
    memset(st, 0, sizeof st);
    run.st = st;
    run.nst = N;
    class_assign_ids(&run, entries, dir);
    static const char *want[] = {
        "\xe6\x9d\x8e\xe9\x9b\xb7", "\xe9\x9f\xa9\xe6\xa2\x85", "\xe7\x8e\x8b\xe8\x8a\xb3",
        "Zo\xc3\xab M\xc3\xbcller", "Zo\xc3\xab M\xc3\xb6ller", NULL, NULL, NULL,
        NULL, NULL, NULL, "x.tar.gz", "x.tgz",
        "cuda-course-fall-2025-assignment-3-shared-memory-alice",
        "cuda-course-fall-2025-assignment-3-shared-memory-bob",
    };
    for (int i = 0; i < N; i++) {
        if (want[i])
            ck_assert_str_eq(st[i].name, want[i]);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcasecmp(st[i].name, st[j].name), "%s twice", st[i].name);
        char shown[CLASS_NAME];
        printable_name(st[i].name, shown, sizeof shown);
        ck_assert_str_eq(shown, st[i].name);          /* nothing a terminal would obey */
        ck_assert(st[i].name[0] != '.' && st[i].name[0] != '-' && !strchr(st[i].name, '/'));
    }
    /* ada/ and ada.zip keep their whole names; Ada meets ada on a file
     * system that ignores case, so both get the hash. */
    ck_assert_str_eq(st[6].name, "ada.zip");
    ck_assert_msg(!strncmp(st[5].name, "ada-", 4) && !strncmp(st[7].name, "Ada-", 4), "%s %s",
                  st[5].name, st[7].name);
    ck_assert_msg(!strncmp(st[8].name, "bad_name-", 9), "%s", st[8].name);
    /* Stable: the same entries, the same identifiers. */
    static class_student again[N];
    memset(again, 0, sizeof again);
    run.st = again;
    class_assign_ids(&run, entries, dir);
    for (int i = 0; i < N; i++)
        ck_assert_str_eq(again[i].name, st[i].name);
}
END_TEST

/* Caps count what is read, not a build/ folder; an archive in an archive in
 * an archive is named, not read. */
START_TEST(caps_skip_ignored_folders)
{
    const exercise *ex[16];
    int n = some_exercises(ex), sx = index_of(ex, n, "lesson0/saxpy.cu");
    const char *dir = scratch();
    char path[256], name[64];
    snprintf(path, sizeof path, "%s/build-first.tar", dir);
    FILE *f = fopen(path, "wb");
    for (int i = 0; i <= ARC_MAX_ENTRIES; i++) {
        snprintf(name, sizeof name, "build/o%05d.o", i);
        tar_entry(f, name, '0', NULL, NULL);
    }
    tar_entry(f, "lesson0/saxpy.cu", '0', "// AFTER BUILD\n", NULL);
    tar_end(f);
    fclose(f);
    submission s;
    ck_assert_int_eq(submission_read(path, ex, n, &s), 0);
    ck_assert_ptr_nonnull(s.data[sx]);
    submission_free(&s);

    /* The same number of entries that count: the cap stops the reading. */
    snprintf(path, sizeof path, "%s/many.tar", dir);
    f = fopen(path, "wb");
    for (int i = 0; i <= ARC_MAX_ENTRIES; i++) {
        snprintf(name, sizeof name, "junk/o%05d.o", i);
        tar_entry(f, name, '0', NULL, NULL);
    }
    tar_entry(f, "lesson0/saxpy.cu", '0', "// AFTER JUNK\n", NULL);
    tar_end(f);
    fclose(f);
    ck_assert_int_eq(submission_read(path, ex, n, &s), -1);
    ck_assert_ptr_null(s.data[sx]);
    ck_assert_msg(strstr(s.error, "more than 10000 entries"), "%s", s.error);
    submission_free(&s);

    /* inner.tar holds deepest.tar; outer.tar holds inner.tar and wrap/lesson3/matmul.cu. */
    char deep[256], inner[256], outer[256], cmd[1200];
    snprintf(deep, sizeof deep, "%s/deepest.tar", dir);
    f = fopen(deep, "wb");
    tar_entry(f, "lesson0/saxpy.cu", '0', "// TOO DEEP\n", NULL);
    tar_end(f);
    fclose(f);
    snprintf(inner, sizeof inner, "%s/inner.tar", dir);
    snprintf(outer, sizeof outer, "%s/outer.tar", dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir -p wrap/lesson3 && echo '// NESTED' > "
             "wrap/lesson3/matmul.cu && tar -cf inner.tar deepest.tar wrap && "
             "tar -cf outer.tar inner.tar", dir);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(submission_read(outer, ex, n, &s), 0);
    int mm = index_of(ex, n, "lesson3/matmul.cu");
    ck_assert_ptr_nonnull(s.data[mm]);
    ck_assert_str_eq(s.from[mm], "inner.tar/wrap/lesson3/matmul.cu");
    ck_assert_ptr_null(s.data[sx]);
    ck_assert(refused_with(&s, "inner.tar/deepest.tar", "an archive inside an archive"));
    submission_free(&s);
}
END_TEST

/* ---- whole class runs with a scripted grader ---- */

static int fake_calls;
static double fake_sleep_s;
static const char *fake_gpu = "Scripted GPU";

static int fake_models;        /* device 1 is another model */

static void fake_probe(char *name, size_t len, int *cc)
{
    const char *dev = getenv("CUDA_VISIBLE_DEVICES");
    snprintf(name, len, "%s%s", fake_gpu, fake_models && dev && !strcmp(dev, "1") ? " B" : "");
    *cc = fake_gpu[0] ? 90 : 0;
}

/* Grades by what the staged file says: "FAKE <OUTCOME> <ms>". The baseline
 * takes 10 ms and the reference 1.5 ms in every run. */
static void fake_grade(const exercise *ex, const int *knobs, const grade_opts *g,
                       double timeout_s, result *r)
{
    (void)knobs;
    (void)timeout_s;
    fake_calls++;
    memset(r, 0, sizeof *r);
    if (fake_sleep_s > 0)
        usleep((useconds_t)(fake_sleep_s * 1e6));
    char path[900];
    snprintf(path, sizeof path, "%s/%s", g->student_dir, ex->file);
    char *src = slurp(path);
    char word[32] = "";
    double ms = 0;
    const char *fake = strstr(src, "FAKE ");
    if (fake)
        sscanf(fake, "FAKE %31s %lf", word, &ms);
    snprintf(r->gpu, sizeof r->gpu, "Scripted GPU");
    r->cc = 90;
    if (!strcmp(word, "PASS") || !strcmp(word, "SLOW")) {
        r->outcome = !strcmp(word, "PASS") ? OUT_PASS : OUT_SLOW;
        r->timed = 1;
        r->time[V_BASELINE].ms = 10;
        r->time[V_STUDENT].ms = ms;
        r->time[V_SOLUTION].ms = 1.5;
        r->speedup = 10 / ms;
        snprintf(r->message, sizeof r->message, "Correct, %s: your kernel ran at %.2fx the "
                 "baseline's speed.", r->outcome == OUT_PASS ? "and fast enough"
                 : "but not fast enough", r->speedup);
    } else if (!strcmp(word, "WRONG")) {
        r->outcome = OUT_WRONG;
        snprintf(r->message, sizeof r->message, "Your kernel computed 7 of 4096 values wrong "
                 "(size 4096; 0 never written). Replay with SEED=%llu.", g->seed);
        /* What a compile log or a mismatch list quotes: the student's own bytes. */
        snprintf(r->detail, sizeof r->detail, "%s: bad byte \xff here", path);
    } else {
        r->outcome = OUT_COMPILE_ERROR;
        snprintf(r->message, sizeof r->message, "%s does not compile.", path);
    }
    free(src);
}

static int run_class(const char *subs, const char *out, const char *extra, const char *extra2)
{
    char *argv[16];
    int argc = 0;
    argv[argc++] = "class";
    argv[argc++] = (char *)subs;
    argv[argc++] = "lesson3";
    argv[argc++] = "--out";
    argv[argc++] = (char *)out;
    argv[argc++] = "--seed";
    argv[argc++] = "42";
    if (extra)
        argv[argc++] = (char *)extra;
    if (extra2)
        argv[argc++] = (char *)extra2;
    argv[argc] = NULL;
    /* Quiet: the runs print progress a person would read. */
    fflush(stdout);
    fflush(stderr);
    int o = dup(1), e = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    close(null);
    fake_calls = 0;
    class_hooks hooks = {.grade = fake_grade, .probe = fake_probe};
    int rc = class_main(argc, argv, &hooks);
    fflush(stdout);
    fflush(stderr);
    dup2(o, 1);
    dup2(e, 2);
    close(o);
    close(e);
    return rc;
}

static void student_file(const char *subs, const char *who, const char *file, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s/%s", subs, who, file);
    write_file(p, text);
}

/* ada and dee pass, bo is slow, cy and eli are wrong; eli's archive also
 * holds a '..' entry with the marker OUTSIDE-MARKER. */
static void make_class(const char *subs)
{
    student_file(subs, "ada", "lesson3/matmul.cu", "// FAKE PASS 2.0 ADA-MARKER\n");
    student_file(subs, "ada", "lesson3/bank_conflicts.cu", "// FAKE PASS 4.0\n");
    student_file(subs, "bo", "lesson3/matmul.cu", "// FAKE SLOW 5.0\n");
    student_file(subs, "cy", "lesson3/matmul.cu", "// FAKE WRONG\n");
    student_file(subs, "cy", "lesson3/bank_conflicts.cu", "// FAKE COMPILE\n");
    student_file(subs, "dee", "lesson3/matmul.cu", "// FAKE PASS 1.0\n");
    char p[512];
    snprintf(p, sizeof p, "%s/eli.tar", subs);
    FILE *f = fopen(p, "wb");
    tar_entry(f, "../../outside.cu", '0', "// OUTSIDE-MARKER\n", NULL);
    tar_entry(f, "eli/lesson3/matmul.cu", '0', "// FAKE WRONG\n", NULL);
    tar_end(f);
    fclose(f);
    snprintf(p, sizeof p, "%s/README.txt", subs);
    write_file(p, "not a submission");
}

static char *out_file(const char *out, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", out, name);
    return slurp(p);
}

START_TEST(class_run_writes_every_output)
{
    const char *dir = scratch();
    char subs[256], out[256];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    make_class(subs);
    ck_assert_int_eq(run_class(subs, out, NULL, NULL), 0);
    ck_assert_int_eq(fake_calls, 7);

    char *csv = out_file(out, "gradebook.csv");
    ck_assert_msg(strstr(csv, "student,passed,out_of,lesson3/bank_conflicts,"
                  "lesson3/bank_conflicts speedup,lesson3/matmul,lesson3/matmul speedup,"
                  "refused_entries,graded_at,gpu,entry,notes\r\n"), "%s", csv);
    ck_assert_msg(strstr(csv, "\r\nada,2,2,PASS,2.50,PASS,5.00,0,"), "%s", csv);
    ck_assert_msg(strstr(csv, "\r\nbo,0,2,MISSING,,SLOW,2.00,0,"), "%s", csv);
    ck_assert_msg(strstr(csv, "\r\neli,0,2,MISSING,,WRONG,,1,"), "%s", csv);
    ck_assert_msg(strstr(csv, "1 entry refused"), "%s", csv);
    /* Not a submission, and still a row that says why. */
    ck_assert_msg(strstr(csv, "\r\nREADME.txt,0,0,NOT GRADED,,NOT GRADED,,0,,,README.txt,"
                  "\"not graded: neither a folder nor a tar or zip archive"), "%s", csv);
    ck_assert_msg(strstr(csv, ",Scripted GPU (device 0),eli.tar,1 entry refused\r\n"), "%s", csv);
    free(csv);

    /* Ranked by time, the marked rows where their medians fall. */
    char *lb = out_file(out, "leaderboards/lesson3-matmul.md");
    const char *d = strstr(lb, "| 1 | `dee` | 1.0000 | 10.00x | PASS |");
    const char *ref = strstr(lb, "| - | **reference solution** | 1.5000 | 6.67x | |");
    const char *a = strstr(lb, "| 2 | `ada` | 2.0000 | 5.00x | PASS |");
    const char *b = strstr(lb, "| 3 | `bo` | 5.0000 | 2.00x | SLOW |");
    const char *base = strstr(lb, "| - | **baseline** | 10.0000 | 1.00x | |");
    ck_assert_msg(d && ref && a && b && base && d < ref && ref < a && a < b && b < base, "%s", lb);
    ck_assert_msg(strstr(lb, "Not ranked (not correct, or not timed): `cy` (WRONG), `eli` (WRONG)."),
                  "%s", lb);
    free(lb);
    char *html = out_file(out, "leaderboards/lesson3-matmul.html");
    ck_assert_msg(strstr(html, "<tr class=\"marked\">") && strstr(html, "<td>dee</td>") &&
                  !strstr(html, "http"), "%s", html);
    free(html);

    /* What to teach again: the commonest failure, with its count. */
    char *sum = out_file(out, "summary.md");
    ck_assert_msg(strstr(sum, "| lesson3/matmul | 2 of 5 | 40% | WRONG: Your kernel computed N "
                  "of N values wrong (size N; N never written) (2 of 3) |"), "%s", sum);
    ck_assert_msg(strstr(sum, "| lesson3/bank_conflicts | 1 of 5 | 20% | MISSING: "
                  "lesson3/bank_conflicts.cu is not in the submission (3 of 4) |"), "%s", sum);
    ck_assert_msg(strstr(sum, "- `eli` (`eli.tar`): 1 entry refused: `../../outside.cu`"), "%s", sum);
    ck_assert_msg(strstr(sum, "- `README.txt`: not graded: neither a folder"), "%s", sum);
    ck_assert_msg(strstr(sum, "5 students, graded on Scripted GPU, seed 42"), "%s", sum);
    ck_assert_msg(!strstr(sum, "No GPU"), "%s", sum);
    free(sum);

    /* Per student: the check report, JSON, JUnit, and what was taken. */
    char *txt = out_file(out, "students/cy/report.txt");
    ck_assert_msg(strstr(txt, "lesson3/matmul") && strstr(txt, "WRONG") &&
                  strstr(txt, "exercises/lesson3/matmul.cu: bad byte ? here"), "%s", txt);
    ck_assert_msg(!strstr(txt, "/tmp/grade-class-"), "the staging folder shows: %s", txt);
    free(txt);
    char *ju = out_file(out, "students/cy/junit.xml");
    ck_assert_msg(strstr(ju, "tests=\"2\" failures=\"2\" errors=\"0\" skipped=\"0\"") &&
                  strstr(ju, "<failure type=\"WRONG\" message=\"Your kernel computed 7 of 4096"),
                  "%s", ju);
    free(ju);
    char *js = out_file(out, "students/eli/submission.json");
    ck_assert_msg(strstr(js, "\"refused_count\": 1") && strstr(js, "\"entry\": \"../../outside.cu\""),
                  "%s", js);
    free(js);
    char *rj = out_file(out, "students/ada/report.json");
    ck_assert_msg(strstr(rj, "\"outcome\": \"PASS\""), "%s", rj);
    free(rj);

    /* No student's files show in another's results; the '..' entry nowhere. */
    static const char *names[] = {"ada", "bo", "cy", "dee", "eli"};
    static const char *files[] = {"report.txt", "report.json", "junit.xml", "submission.json"};
    for (int s = 0; s < 5; s++)
        for (int f = 0; f < 4; f++) {
            char p[128];
            snprintf(p, sizeof p, "students/%s/%s", names[s], files[f]);
            char *t = out_file(out, p);
            ck_assert_msg(!strstr(t, "OUTSIDE-MARKER"), "%s holds the refused entry", p);
            ck_assert_msg(s == 0 || !strstr(t, "ADA-MARKER"), "%s holds ada's file", p);
            free(t);
        }
    char p[512];
    snprintf(p, sizeof p, "%s/outside.cu", dir);
    ck_assert_int_ne(access(p, F_OK), 0);
    snprintf(p, sizeof p, "%s/../outside.cu", subs);
    ck_assert_int_ne(access(p, F_OK), 0);
}
END_TEST

START_TEST(class_rerun_skips_unchanged)
{
    const char *dir = scratch();
    char subs[256], out[256], p[512];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    make_class(subs);
    ck_assert_int_eq(run_class(subs, out, NULL, NULL), 0);
    ck_assert_int_eq(fake_calls, 7);
    char *first = out_file(out, "gradebook.csv");

    ck_assert_int_eq(run_class(subs, out, NULL, NULL), 0);
    ck_assert_int_eq(fake_calls, 0);
    char *again = out_file(out, "gradebook.csv");
    ck_assert_msg(strstr(again, "unchanged since its last grade"), "%s", again);
    /* The same grades, read back from the cache. */
    ck_assert_msg(strstr(again, "\r\nada,2,2,PASS,2.50,PASS,5.00,0,"), "%s", again);
    free(first);
    free(again);

    /* One student changes a file: only that student is graded again. */
    student_file(subs, "bo", "lesson3/matmul.cu", "// FAKE PASS 3.0\n");
    ck_assert_int_eq(run_class(subs, out, NULL, NULL), 0);
    ck_assert_int_eq(fake_calls, 1);
    char *csv = out_file(out, "gradebook.csv");
    ck_assert_msg(strstr(csv, "\r\nbo,1,2,MISSING,,PASS,3.33,0,"), "%s", csv);
    free(csv);

    /* A lost report means grading again, and --regrade grades everyone. */
    snprintf(p, sizeof p, "%s/students/cy/junit.xml", out);
    ck_assert_int_eq(unlink(p), 0);
    ck_assert_int_eq(run_class(subs, out, NULL, NULL), 0);
    ck_assert_int_eq(fake_calls, 2);
    ck_assert_int_eq(run_class(subs, out, "--regrade", NULL), 0);
    ck_assert_int_eq(fake_calls, 7);

    /* Another seed is another grade (the later --seed wins). */
    ck_assert_int_eq(run_class(subs, out, "--seed", "43"), 0);
    ck_assert_int_eq(fake_calls, 7);
}
END_TEST

START_TEST(class_time_budget_per_student)
{
    const char *dir = scratch();
    char subs[256], out[256];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    student_file(subs, "slow", "lesson3/bank_conflicts.cu", "// FAKE PASS 2.0\n");
    student_file(subs, "slow", "lesson3/matmul.cu", "// FAKE PASS 2.0\n");
    student_file(subs, "next", "lesson3/matmul.cu", "// FAKE PASS 2.0\n");
    /* Each exercise takes 0.4 s, the budget is 0.3 s per student. */
    fake_sleep_s = 0.4;
    ck_assert_int_eq(run_class(subs, out, "--budget", "0.3"), 0);
    fake_sleep_s = 0;
    ck_assert_int_eq(fake_calls, 2);
    char *csv = out_file(out, "gradebook.csv");
    ck_assert_msg(strstr(csv, "\r\nslow,1,2,PASS,5.00,NOT RUN,,0,"), "%s", csv);
    ck_assert_msg(strstr(csv, "time budget (0 s) ran out"), "%s", csv);
    ck_assert_msg(strstr(csv, "\r\nnext,1,2,MISSING,,PASS,5.00,0,"), "%s", csv);
    free(csv);
    char *txt = out_file(out, "students/slow/report.txt");
    ck_assert_msg(strstr(txt, "The time budget of 0 s per student ran out: 1 exercise was "
                  "not graded."), "%s", txt);
    free(txt);
}
END_TEST

/* Without a GPU nothing can pass: the summary says so instead of 0%. */
START_TEST(class_without_gpu_says_so)
{
    const char *dir = scratch();
    char subs[256], out[256];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    make_class(subs);
    fake_gpu = "";
    int rc = run_class(subs, out, NULL, NULL);
    fake_gpu = "Scripted GPU";
    ck_assert_int_eq(rc, 0);
    char *sum = out_file(out, "summary.md");
    ck_assert_msg(strstr(sum, "5 students, graded without a GPU") &&
                  strstr(sum, "No GPU: nothing was timed. Kernels were compiled, their mechanism checks read from the compiler, and run on the grader's PTX simulator") &&
                  strstr(sum, "| lesson3/matmul | - | n/a | WRONG: "), "%s", sum);
    free(sum);
    char *txt = out_file(out, "students/ada/report.txt");
    ck_assert_msg(strstr(txt, "No GPU could be used, so nothing was timed: each kernel was compiled"), "%s", txt);
    free(txt);
    char *ju = out_file(out, "students/ada/junit.xml");
    ck_assert_msg(strstr(ju, "<property name=\"gpu\" value=\"none\"/>"), "%s", ju);
    free(ju);
}
END_TEST

/* Two workers (--gpus 0,1) on two GPU models: the same grades as one
 * process, each row saying which GPU graded it, the summary saying the
 * class was graded on two models. */
START_TEST(class_workers_share_the_queue)
{
    const char *dir = scratch();
    char subs[256], one[256], two[256];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(one, sizeof one, "%s/one", dir);
    snprintf(two, sizeof two, "%s/two", dir);
    make_class(subs);
    ck_assert_int_eq(run_class(subs, one, NULL, NULL), 0);
    fake_models = 1;
    fake_sleep_s = 0.05;       /* so that both workers get students */
    int rc = run_class(subs, two, "--gpus", "0,1");
    fake_models = 0;
    fake_sleep_s = 0;
    ck_assert_int_eq(rc, 0);
    char *a = out_file(one, "gradebook.csv"), *b = out_file(two, "gradebook.csv");
    static const char *rows[] = {"\r\nada,2,2,PASS,2.50,PASS,5.00,0,", "\r\nbo,0,2,MISSING,,SLOW,2.00,0,",
                                 "\r\ncy,0,2,COMPILE,,WRONG,,0,", "\r\ndee,1,2,MISSING,,PASS,10.00,0,",
                                 "\r\neli,0,2,MISSING,,WRONG,,1,", "\r\nREADME.txt,0,0,NOT GRADED,"};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        ck_assert_msg(strstr(a, rows[i]) && strstr(b, rows[i]), "%s\n%s\n%s", rows[i], a, b);
    ck_assert_msg(strstr(b, ",Scripted GPU (device 0),") && strstr(b, ",Scripted GPU B (device 1),"),
                  "not both GPUs graded: %s", b);
    free(a);
    free(b);
    char *sum = out_file(two, "summary.md");
    ck_assert_msg(strstr(sum, "Graded on 2 different GPU models: Scripted GPU") &&
                  strstr(sum, "Scripted GPU B"),
                  "%s", sum);
    free(sum);
    sum = out_file(one, "summary.md");
    ck_assert_msg(!strstr(sum, "different GPU models"), "%s", sum);
    free(sum);
    char *js = out_file(two, "class.json");
    ck_assert_msg(strstr(js, "\"gpu_device\": 1") && strstr(js, "\"gpu_device\": 0"), "%s", js);
    free(js);
}
END_TEST

/* A grade stands for one GPU model: the same files graded elsewhere are
 * graded again (the speeds are that GPU's), and the row names the model. */
START_TEST(class_regrades_on_another_gpu_model)
{
    const char *dir = scratch();
    char subs[256], out[256];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    make_class(subs);
    ck_assert_int_eq(run_class(subs, out, NULL, NULL), 0);
    ck_assert_int_eq(fake_calls, 7);
    fake_gpu = "Another GPU";
    int rc = run_class(subs, out, NULL, NULL);
    int calls = fake_calls;
    fake_gpu = "Scripted GPU";
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(calls, 7);
    char *csv = out_file(out, "gradebook.csv");
    ck_assert_msg(strstr(csv, ",Another GPU (device 0),") && !strstr(csv, "unchanged since"),
                  "%s", csv);
    free(csv);
}
END_TEST

/* A submission with no exercise file: the summary names what it held (the
 * first two entries, then "..."), so the instructor sees what went wrong. */
START_TEST(class_names_what_an_empty_submission_held)
{
    const char *dir = scratch();
    char subs[256], out[256];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    student_file(subs, "fay", "a-notes.txt", "notes\n");
    student_file(subs, "fay", "b-matmul.cu", "// in the wrong place\n");
    student_file(subs, "fay", "c-more.txt", "more\n");
    student_file(subs, "gus", "only.txt", "only\n");
    ck_assert_int_eq(run_class(subs, out, NULL, NULL), 0);
    ck_assert_int_eq(fake_calls, 0);
    char *sum = out_file(out, "summary.md");
    ck_assert_msg(strstr(sum, "no exercise file was found in it (looked for lessonN/NAME.cu at "
                  "any depth); it holds `a-notes.txt`, `b-matmul.cu`, ...."), "%s", sum);
    ck_assert_msg(strstr(sum, "; it holds `only.txt`."), "%s", sum);
    free(sum);
}
END_TEST

/* --slurm plans and grades nothing: tasks.txt lists each entry to grade, by
 * its name in the submissions folder (hex), one a line, in order; the class
 * files are left for the merge. */
START_TEST(class_slurm_plan_lists_entries)
{
    const char *dir = scratch();
    char subs[256], out[256];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    make_class(subs);
    ck_assert_int_eq(run_class(subs, out, "--slurm", NULL), 0);
    ck_assert_int_eq(fake_calls, 0);
    char *tasks = out_file(out, "slurm/tasks.txt");
    /* ada bo cy dee eli.tar, in hex; README.txt is no submission. */
    ck_assert_str_eq(tasks, "616461\n626f\n6379\n646565\n656c692e746172\n");
    free(tasks);
    char p[512];
    snprintf(p, sizeof p, "%s/gradebook.csv", out);
    ck_assert_msg(access(p, F_OK) != 0, "a plan wrote the gradebook");
    char *sb = out_file(out, "slurm/grade-class.sbatch");
    ck_assert_msg(strstr(sb, "#SBATCH --array=0-4\n") && strstr(sb, "--batch 1 --task"), "%s", sb);
    free(sb);
    ck_assert_int_eq(run_class(subs, out, "--slurm", "--batch"), 2);   /* no value */
}
END_TEST

/* One run at a time: a folder another process holds (even shared, as a
 * worker holds it) is refused plainly, and nothing is graded. */
START_TEST(class_refuses_a_held_folder)
{
    const char *dir = scratch();
    char subs[256], out[256];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    make_class(subs);
    ck_assert_int_eq(mkdir_p(out), 0);
    int held = class_lock(out, 1);
    ck_assert_int_ge(held, 0);
    ck_assert_int_ne(run_class(subs, out, NULL, NULL), 0);
    ck_assert_int_eq(fake_calls, 0);
    close(held);
    ck_assert_int_eq(run_class(subs, out, NULL, NULL), 0);
    ck_assert_int_eq(fake_calls, 7);
}
END_TEST

/* What the instructor watching sees on stderr: the last line counts every
 * student, and says how many failed. */
START_TEST(class_final_progress_line)
{
    const char *dir = scratch();
    char subs[256], out[256], log[300];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/stderr.txt", dir);
    make_class(subs);
    fflush(stderr);
    int e = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 2);
    close(fd);
    char *argv[] = {"class", subs, "lesson3", "--out", out, "--seed", "42", NULL};
    class_hooks hooks = {.grade = fake_grade, .probe = fake_probe};
    int o = dup(1), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    close(null);
    int rc = class_main(7, argv, &hooks);
    fflush(stdout);
    fflush(stderr);
    dup2(o, 1);
    dup2(e, 2);
    close(o);
    close(e);
    ck_assert_int_eq(rc, 0);
    char *text = slurp(log);
    const char *last = strstr(text, "progress: 6 of 6 students done, 5 failed, none left");
    ck_assert_msg(last != NULL, "%s", text);
    free(text);
}
END_TEST

Suite *class_suite(void)
{
    Suite *s = suite_create("class");
    TCase *tc = tcase_create("submissions");
    tcase_add_checked_fixture(tc, NULL, remove_scratch);
    tcase_add_test(tc, name_rules);
    tcase_add_test(tc, tar_hostile_entries_refused);
    tcase_add_test(tc, tar_gz_read_through_gzip);
    tcase_add_test(tc, tar_duplicates_and_damage);
    tcase_add_test(tc, oversized_file_refused);
    tcase_add_test(tc, zip_hostile_entries_refused);
    tcase_add_test(tc, folder_links_and_devices_refused);
    tcase_add_test(tc, stage_writes_only_exercise_files);
    tcase_add_test(tc, identifiers_unique_and_as_given);
    tcase_add_test(tc, caps_skip_ignored_folders);
    suite_add_tcase(s, tc);

    tc = tcase_create("outputs");
    tcase_add_test(tc, sha256_vectors);
    tcase_add_test(tc, text_for_each_format);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);

    tc = tcase_create("runs");
    tcase_add_checked_fixture(tc, NULL, remove_scratch);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, class_run_writes_every_output);
    tcase_add_test(tc, class_rerun_skips_unchanged);
    tcase_add_test(tc, class_time_budget_per_student);
    tcase_add_test(tc, class_without_gpu_says_so);
    tcase_add_test(tc, class_workers_share_the_queue);
    tcase_add_test(tc, class_regrades_on_another_gpu_model);
    tcase_add_test(tc, class_names_what_an_empty_submission_held);
    tcase_add_test(tc, class_slurm_plan_lists_entries);
    tcase_add_test(tc, class_refuses_a_held_folder);
    tcase_add_test(tc, class_final_progress_line);
    suite_add_tcase(s, tc);
    return s;
}
