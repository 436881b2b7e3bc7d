/* test_hand_in_fixture.c: the hand-ins the class tests build (hand_in.h).
 * No suite of its own. */
#include <archive.h>
#include <archive_entry.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "archive.h"
#include "class.h"
#include "hand_in.h"
#include "suites.h"

struct hand_in {
    struct archive *a;
    struct archive_entry *e;
    char *buf;
    size_t len, cap;
    int closed;
};

static la_ssize_t grow(struct archive *a, void *ud, const void *data, size_t n)
{
    (void)a;
    hand_in *h = ud;
    if (h->len + n > h->cap) {
        h->cap = (h->len + n) * 2;
        h->buf = realloc(h->buf, h->cap);
        ck_assert_ptr_nonnull(h->buf);
    }
    memcpy(h->buf + h->len, data, n);
    h->len += n;
    return (la_ssize_t)n;
}

hand_in *hi_new(const char *kind)
{
    hand_in *h = calloc(1, sizeof *h);
    h->a = archive_write_new();
    h->e = archive_entry_new();
    if (!strncmp(kind, "zip", 3)) {
        ck_assert_int_eq(archive_write_set_format_zip(h->a), ARCHIVE_OK);
        if (!strcmp(kind, "zipstore"))
            ck_assert_int_eq(archive_write_set_options(h->a, "zip:compression=store"), 0);
        if (!strcmp(kind, "zipcrypt")) {
            ck_assert_int_eq(archive_write_set_options(h->a, "zip:encryption=zipcrypt"), 0);
            ck_assert_int_eq(archive_write_set_passphrase(h->a, "pw"), 0);
        }
    } else {
        ck_assert_int_eq(archive_write_set_format_pax_restricted(h->a), ARCHIVE_OK);
        if (!strncmp(kind, "tar.", 4))
            ck_assert_int_eq(archive_write_add_filter_by_name(h->a, kind + 4), ARCHIVE_OK);
    }
    archive_write_set_bytes_per_block(h->a, 0);
    ck_assert_int_eq(archive_write_open(h->a, h, NULL, grow, NULL), ARCHIVE_OK);
    return h;
}

static void header(hand_in *h, const char *name, unsigned type, int perm)
{
    archive_entry_clear(h->e);
    archive_entry_set_pathname(h->e, name);
    archive_entry_set_filetype(h->e, type);
    archive_entry_set_perm(h->e, perm);
    archive_entry_set_mtime(h->e, 1700000000, 0);
}

static void put(hand_in *h, const void *data, size_t len)
{
    ck_assert_int_eq(archive_write_header(h->a, h->e), ARCHIVE_OK);
    if (len)
        ck_assert_int_eq(archive_write_data(h->a, data, len), (la_ssize_t)len);
}

void hi_file(hand_in *h, const char *name, const void *data, size_t len)
{
    header(h, name, AE_IFREG, 0644);
    archive_entry_set_size(h->e, (la_int64_t)len);
    put(h, data, len);
}

void hi_text(hand_in *h, const char *name, const char *text)
{
    hi_file(h, name, text, strlen(text));
}

void hi_unsized(hand_in *h, const char *name, const void *data, size_t len)
{
    header(h, name, AE_IFREG, 0644);
    archive_entry_unset_size(h->e);
    put(h, data, len);
}

void hi_dir(hand_in *h, const char *name)
{
    header(h, name, AE_IFDIR, 0755);
    put(h, NULL, 0);
}

void hi_symlink(hand_in *h, const char *name, const char *target)
{
    header(h, name, AE_IFLNK, 0777);
    archive_entry_set_symlink(h->e, target);
    put(h, NULL, 0);
}

void hi_hardlink(hand_in *h, const char *name, const char *target)
{
    header(h, name, AE_IFREG, 0644);
    archive_entry_set_hardlink(h->e, target);
    archive_entry_set_size(h->e, 0);
    put(h, NULL, 0);
}

void hi_special(hand_in *h, const char *name, unsigned type)
{
    header(h, name, type, 0600);
    archive_entry_set_rdev(h->e, 0x0103);
    put(h, NULL, 0);
}

void hi_sparse(hand_in *h, const char *name, size_t size)
{
    header(h, name, AE_IFREG, 0644);
    archive_entry_set_size(h->e, (la_int64_t)size);
    archive_entry_sparse_add_entry(h->e, 0, 10);
    put(h, "0123456789", 10);
}

void hi_nest(hand_in *h, const char *name, hand_in *inner)
{
    size_t len;
    const char *bytes = hi_bytes(inner, &len);
    hi_file(h, name, bytes, len);
}

const char *hi_bytes(hand_in *h, size_t *len)
{
    if (!h->closed) {
        ck_assert_int_eq(archive_write_close(h->a), ARCHIVE_OK);
        h->closed = 1;
    }
    *len = h->len;
    return h->buf;
}

void hi_save(hand_in *h, const char *path)
{
    size_t len;
    const char *bytes = hi_bytes(h, &len);
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
    hi_free(h);
}

void hi_free(hand_in *h)
{
    archive_write_free(h->a);
    archive_entry_free(h->e);
    free(h->buf);
    free(h);
}

/* A ustar header by hand: any size, any bytes in the name. */
static void ustar(FILE *f, const char *name, unsigned long long size)
{
    unsigned char h[512];
    memset(h, 0, sizeof h);
    /* Past 100 bytes, the folders go in the prefix field (up to 155). */
    const char *base = name;
    if (strlen(name) > 100) {
        base = strchr(name + strlen(name) - 100, '/');
        ck_assert_msg(base && base - name <= 155, "%s does not fit ustar", name);
        memcpy(h + 345, name, (size_t)(base - name));
        base++;
    }
    memcpy(h, base, strlen(base));
    snprintf((char *)h + 100, 8, "%07o", 0644);
    snprintf((char *)h + 108, 8, "%07o", 0);
    snprintf((char *)h + 116, 8, "%07o", 0);
    snprintf((char *)h + 124, 12, "%011llo", size);
    snprintf((char *)h + 136, 12, "%011o", 0);
    memset(h + 148, ' ', 8);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++)
        sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    h[155] = ' ';
    fwrite(h, 1, 512, f);
}

void hi_sized_tar_with(const char *path, const char *const *names,
                       const unsigned long long *sizes, const char *const *data, int n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < n; i++) {
        ustar(f, names[i], sizes[i]);
        off_t room = (off_t)((sizes[i] + 511) / 512 * 512);
        if (data && data[i]) {
            ck_assert_uint_eq(fwrite(data[i], 1, sizes[i], f), sizes[i]);
            room -= (off_t)sizes[i];
        }
        ck_assert_int_eq(fseeko(f, room, SEEK_CUR), 0);
    }
    static const char end[1024];
    fwrite(end, 1, sizeof end, f);
    fclose(f);
}

void hi_sized_tar(const char *path, const char *const *names,
                  const unsigned long long *sizes, int n)
{
    hi_sized_tar_with(path, names, sizes, NULL, n);
}

static void put16(FILE *f, unsigned v)
{
    fputc(v & 255, f);
    fputc(v >> 8 & 255, f);
}

static void put32(FILE *f, uint32_t v)
{
    put16(f, v & 0xffff);
    put16(f, v >> 16);
}

void hi_zip_modes(const char *path, const char *const *names, const unsigned *modes, int n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    long off[16];
    uint32_t crc = crc32_of("x", 1);
    for (int i = 0; i < n; i++) {
        off[i] = ftell(f);
        put32(f, 0x04034b50), put16(f, 20), put16(f, 0), put16(f, 0), put16(f, 0), put16(f, 0);
        put32(f, crc), put32(f, 1), put32(f, 1);
        put16(f, (unsigned)strlen(names[i])), put16(f, 0);
        fputs(names[i], f);
        fputc('x', f);
    }
    long cd = ftell(f);
    for (int i = 0; i < n; i++) {
        put32(f, 0x02014b50), put16(f, 3 << 8 | 20), put16(f, 20), put16(f, 0), put16(f, 0);
        put16(f, 0), put16(f, 0), put32(f, crc), put32(f, 1), put32(f, 1);
        put16(f, (unsigned)strlen(names[i])), put16(f, 0), put16(f, 0), put16(f, 0), put16(f, 0);
        put32(f, (uint32_t)modes[i] << 16), put32(f, (uint32_t)off[i]);
        fputs(names[i], f);
    }
    long end = ftell(f);
    put32(f, 0x06054b50), put16(f, 0), put16(f, 0), put16(f, (unsigned)n), put16(f, (unsigned)n);
    put32(f, (uint32_t)(end - cd)), put32(f, (uint32_t)cd), put16(f, 0);
    fclose(f);
}

/* The chain of small blocks that takes all the memory a limit leaves. */
static void **hoard;

void hi_take_all_memory(void)
{
    struct rlimit lim;
    ck_assert_int_eq(getrlimit(RLIMIT_AS, &lim), 0);
    FILE *st = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long vm_kb = 0;
    while (fgets(line, sizeof line, st))
        if (sscanf(line, "VmSize: %lu kB", &vm_kb) == 1)
            break;
    fclose(st);
    lim.rlim_cur = (rlim_t)(vm_kb + 4096) * 1024;
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
    /* Big blocks first; then every small size class, whose freed chunks
     * malloc keeps apart for that size only. */
    static const size_t big[] = {65536, 16384, 4096, 2048};
    for (size_t k = 0; k < sizeof big / sizeof *big; k++)
        for (void **b; (b = malloc(big[k])) != NULL; hoard = b)
            *b = hoard;
    for (size_t size = 1040; size >= 16; size -= 8)
        for (void **b; (b = malloc(size)) != NULL; hoard = b)
            *b = hoard;
}

void hi_give_back_memory(void)
{
    while (hoard) {
        void **next = *hoard;
        free(hoard);
        hoard = next;
    }
}

static char scratch[512];

const char *hi_scratch(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/test-hand-in-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(scratch));
    return scratch;
}

void hi_scratch_remove(void)
{
    char cmd[600];
    if (!scratch[0])
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", scratch);
    scratch[0] = 0;
}

const char *hi_path(const char *fmt, ...)
{
    static char paths[8][4200];
    static int next;
    char rel[3000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rel, sizeof rel, fmt, ap);
    va_end(ap);
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", scratch, rel);
    return p;
}

void hi_write(const char *rel, const char *text)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", hi_path("%s", rel));
    *strrchr(dir, '/') = 0;
    ck_assert_int_eq(mkdir_p(dir), 0);
    FILE *f = fopen(hi_path("%s", rel), "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

void hi_mkdir(const char *rel)
{
    ck_assert_int_eq(mkdir_p(hi_path("%s", rel)), 0);
}
