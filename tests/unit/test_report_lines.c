/* test_report_lines.c: the exact lines a student reads (report_table.c):
 * the table at every width it narrows through, each outcome's colour, the
 * run header, each kind of explanation (the message wrapped, the detail
 * indented, what the kernel printed, the times, the checks, why a check
 * matters, the hint, what to try, where it is explained) and the closing
 * summary; and the JSON record tools read (report_json.c), field by
 * field. Each test compares whole lines, so a changed width, word or break
 * is a failure, not only a missing phrase; test_report.c holds the looser
 * rules (valid JSON, what fits in 100 columns).
 *
 *   CK_RUN_SUITE=report_lines build/tests/unit_tests
 *
 * On a mismatch the text printed is left in /tmp/report-lines-NAME.txt.
 * After a deliberate change of wording, REPORT_LINES_DUMP=1 runs every
 * comparison without failing, so each new text can be read there before
 * it replaces the old one here. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "diagnose.h"
#include "report.h"
#include "suites.h"

/* ---- helpers ------------------------------------------------------------ */

/* Fail unless got is want, leaving got in a file to compare by eye. */
static void same(const char *name, const char *got, const char *want)
{
    if (!strcmp(got, want))
        return;
    char path[128];
    snprintf(path, sizeof path, "/tmp/report-lines-%s.txt", name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(got, f);
        fclose(f);
    }
    if (!getenv("REPORT_LINES_DUMP"))
        ck_abort_msg("%s: the text differs (got in %s):\n%s", name, path, got);
}

typedef enum { P_TABLE = 1, P_EXPLAIN = 2, P_SUMMARY = 4, P_HEADER = 8 } part;

/* What the parts print for g[0..n) at `columns` (NULL: none set), as text. */
static char *printed(const graded *g, int n, int parts, int color, const char *columns,
                     const char *root)
{
    if (columns)
        setenv("COLUMNS", columns, 1);
    else
        unsetenv("COLUMNS");
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    if (parts & P_HEADER)
        print_run_header(f, g, n, "your exercises");
    if (parts & P_TABLE)
        print_table(f, g, n, color);
    if (parts & P_EXPLAIN)
        print_explanations(f, g, n, color, root ? root : "/nonexistent");
    if (parts & P_SUMMARY)
        print_summary(f, g, n, color);
    fclose(f);
    unsetenv("COLUMNS");
    return buf;
}

static void expect_printed(const char *name, const graded *g, int n, int parts, int color,
                           const char *columns, const char *want)
{
    char *s = printed(g, n, parts, color, columns, NULL);
    same(name, s, want);
    free(s);
}

/* ---- the exercises and their results ------------------------------------ */

static const exercise ex_speed = {
    .lesson = 3, .name = "matmul", .title = "Tiled matrix multiply", .file = "lesson3/matmul.cu",
    .kernel = "matmul", .explained_in = "lessons/lesson3-shared-memory.md, section 2",
    .knobs = {{"TILE", 16, 8, 32, 1, "tile"}, {"UNROLL", 4, 1, 16, 1, "unroll"},
              {"BLOCKDIMY", 8, 1, 32, 0, "rows"}, {"PREFETCHDISTANCE", 4, 1, 64, 0, "ahead"}},
    .bar = BAR_SPEEDUP, .bar_share = 0.5, .bar_floor = 1.5,
};
static const exercise ex_bw = {
    .lesson = 2, .name = "copy", .title = "A coalesced copy", .file = "lesson2/copy.cu",
    .kernel = "copy", .explained_in = "lessons/lesson2-coalescing.md",
    .bar = BAR_BANDWIDTH, .bar_share = 0.6,
};
static const exercise ex_match = {
    .lesson = 3, .name = "padded", .title = "Padding the tile", .file = "lesson3/padded.cu",
    .kernel = "padded", .bar = BAR_MATCH_SOLUTION, .bar_share = 0.1,
};
static const exercise ex_none = {
    .lesson = 4, .name = "free", .title = "No bar at all", .file = "lesson4/free.cu",
    .kernel = "free", .bar = BAR_NONE,
};

static void timed(result *r, double base, double yours, double ref, double gbps)
{
    snprintf(r->gpu, sizeof r->gpu, "NVIDIA H100 80GB HBM3");
    r->cc = 90;
    r->seed = 7;
    r->timed = 1;
    r->time[V_BASELINE].ms = base;
    r->time[V_STUDENT].ms = yours;
    r->time[V_SOLUTION].ms = ref;
    r->time[V_STUDENT].gbps = gbps;
    r->time[V_STUDENT].reps = 40;
    r->speedup = base / yours;
    r->ref_speedup = base / ref;
    r->copy_gbps = 3000;
}

/* Six rows, one of each bar kind, an untimed one and one without a copy
 * bandwidth, with resources that differ in every column. */
static void six_rows(graded g[6])
{
    memset(g, 0, 6 * sizeof *g);
    g[0].ex = &ex_speed;
    g[0].r.outcome = OUT_SLOW;
    timed(&g[0].r, 2.0, 1.6, 0.5, 1500);
    g[0].r.bar = 2.5;
    /* Knobs of 100 characters: cut to the width, less the line's 9. */
    g[0].r.knobs[0] = 32, g[0].r.knobs[1] = 16, g[0].r.knobs[2] = 3, g[0].r.knobs[3] = 32;
    g[0].r.res[V_STUDENT] = (resources){.known = 1, .regs = 40, .stack_bytes = 16,
                                        .spill_stores = 8, .smem_static = 2048,
                                        .smem_dynamic = 1024, .occupancy_pct = 75,
                                        .blocks_per_sm = 3, .launch_occupancy_pct = 75,
                                        .launch_blocks_per_sm = 3};

    g[1].ex = &ex_bw;
    g[1].r.outcome = OUT_PASS;
    timed(&g[1].r, 1.0, 0.25, 0.24, 2400);
    g[1].r.bar = 1800;
    /* One block per SM where 16 would fit: the column shows the launch's 6%. */
    g[1].r.res[V_STUDENT] = (resources){.known = 1, .regs = 16, .occupancy_pct = 100,
                                        .blocks_per_sm = 16, .launch_occupancy_pct = 6,
                                        .launch_blocks_per_sm = 1};

    g[2].ex = &ex_match;
    g[2].r.outcome = OUT_MECHANISM;
    timed(&g[2].r, 3.0, 1.1, 1.0, 900);
    g[2].r.bar = 1.1;
    g[2].r.knobs[0] = 0;
    g[2].r.res[V_STUDENT] = (resources){.known = 1, .regs = 255, .smem_static = 1023,
                                        .occupancy_pct = -1};

    g[3].ex = &ex_none;
    g[3].r.outcome = OUT_PASS_UNTIMED;
    timed(&g[3].r, 1.0, 1.0, 1.0, 10);
    g[3].r.copy_gbps = 0;     /* not measured: no share of it, a bar of 0% */
    g[3].r.res[V_STUDENT] = (resources){.known = 1, .regs = 8, .occupancy_pct = 0};

    g[5].ex = &ex_bw;        /* a bandwidth bar where no copy bandwidth was measured */
    g[5].r.outcome = OUT_SLOW;
    timed(&g[5].r, 1.0, 0.5, 0.25, 100);
    g[5].r.copy_gbps = 0;
    g[5].r.bar = 500;

    g[4].ex = &ex_speed;
    g[4].r.outcome = OUT_WRONG;
    g[4].r.knobs[0] = 16, g[4].r.knobs[1] = 4, g[4].r.knobs[2] = 8, g[4].r.knobs[3] = 4;
}

/* ---- the table ---------------------------------------------------------- */

START_TEST(table_every_column)
{
    graded g[6];
    six_rows(g);
    expect_printed("table-200", g, 6, P_TABLE, 0, "200",
        "exercise       result    baseline   yours     ref speedup        bar GB/s %bw "
        "flight/SM regs   smem local occ\n"
        "lesson3/matmul SLOW       2.000ms 1.600ms 0.500ms   1.25x    >=2.50x 1500 50%       "
        "  -   40 3.0 KB  24 B 75%\n"
        "  knobs: TILE=32 (default 16) UNROLL=16 (default 4) BLOCKDIMY=3 (default 8) "
        "PREFETCHDISTANCE=32 (default 4)\n"
        "lesson2/copy   PASS       1.000ms 0.250ms 0.240ms   4.00x    >=60%bw 2400 80%       "
        "  -   16    0 B   0 B  6%\n"
        "lesson3/padded MECHANISM  3.000ms 1.100ms 1.000ms   2.73x <=1.10xref  900 30%       "
        "  -  255 1023 B   0 B   -\n"
        "lesson4/free   PASS*      1.000ms 1.000ms 1.000ms   1.00x       none   10   -       "
        "  -    8    0 B   0 B   -\n"
        "lesson3/matmul WRONG            -       -       -       -          -    -   -       "
        "  -    -      -     -   -\n"
        "  knobs: TILE=16 UNROLL=4 BLOCKDIMY=8 PREFETCHDISTANCE=4\n"
        "lesson2/copy   SLOW       1.000ms 0.500ms 0.250ms   2.00x     >=0%bw  100   -       "
        "  -    -      -     -   -\n"
        "occ: the occupancy of the launch the grader makes (its blocks spread over the\n"
        "SMs, at most as many per SM as the resources allow), not the most the\n"
        "resources allow: lesson2/copy launches 1 block per SM (6%); its resources\n"
        "allow 16 (100%).\n"
        "\n");
}
END_TEST

START_TEST(table_narrows_column_by_column)
{
    graded g[6];
    six_rows(g);
    expect_printed("table-default", g, 6, P_TABLE, 0, NULL,
        "exercise       result    baseline   yours     ref speedup        bar GB/s %bw regs  "
        " smem local occ\n"
        "lesson3/matmul SLOW       2.000ms 1.600ms 0.500ms   1.25x    >=2.50x 1500 50%   40 "
        "3.0 KB  24 B 75%\n"
        "  knobs: TILE=32 (default 16) UNROLL=16 (default 4) BLOCKDIMY=3 (default 8) "
        "PREFETCHDISTANCE=32 (def\n"
        "lesson2/copy   PASS       1.000ms 0.250ms 0.240ms   4.00x    >=60%bw 2400 80%   16  "
        "  0 B   0 B  6%\n"
        "lesson3/padded MECHANISM  3.000ms 1.100ms 1.000ms   2.73x <=1.10xref  900 30%  255 "
        "1023 B   0 B   -\n"
        "lesson4/free   PASS*      1.000ms 1.000ms 1.000ms   1.00x       none   10   -    8  "
        "  0 B   0 B   -\n"
        "lesson3/matmul WRONG            -       -       -       -          -    -   -    -  "
        "    -     -   -\n"
        "  knobs: TILE=16 UNROLL=4 BLOCKDIMY=8 PREFETCHDISTANCE=4\n"
        "lesson2/copy   SLOW       1.000ms 0.500ms 0.250ms   2.00x     >=0%bw  100   -    -  "
        "    -     -   -\n"
        "occ: the occupancy of the launch the grader makes (its blocks spread over the\n"
        "SMs, at most as many per SM as the resources allow), not the most the\n"
        "resources allow: lesson2/copy launches 1 block per SM (6%); its resources\n"
        "allow 16 (100%).\n"
        "\n");
    /* The reference's time goes before the baseline's, the local memory
     * before the shared memory. */
    expect_printed("table-90", g, 6, P_TABLE, 0, "90",
        "exercise       result    baseline   yours speedup        bar %bw regs   smem local "
        "occ\n"
        "lesson3/matmul SLOW       2.000ms 1.600ms   1.25x    >=2.50x 50%   40 3.0 KB  24 B "
        "75%\n"
        "  knobs: TILE=32 (default 16) UNROLL=16 (default 4) BLOCKDIMY=3 (default 8) "
        "PREFETCHDISTAN\n"
        "lesson2/copy   PASS       1.000ms 0.250ms   4.00x    >=60%bw 80%   16    0 B   0 B  "
        "6%\n"
        "lesson3/padded MECHANISM  3.000ms 1.100ms   2.73x <=1.10xref 30%  255 1023 B   0 B  "
        " -\n"
        "lesson4/free   PASS*      1.000ms 1.000ms   1.00x       none   -    8    0 B   0 B  "
        " -\n"
        "lesson3/matmul WRONG            -       -       -          -   -    -      -     -  "
        " -\n"
        "  knobs: TILE=16 UNROLL=4 BLOCKDIMY=8 PREFETCHDISTANCE=4\n"
        "lesson2/copy   SLOW       1.000ms 0.500ms   2.00x     >=0%bw   -    -      -     -  "
        " -\n"
        "occ: the occupancy of the launch the grader makes (its blocks spread over the\n"
        "SMs, at most as many per SM as the resources allow), not the most the\n"
        "resources allow: lesson2/copy launches 1 block per SM (6%); its resources\n"
        "allow 16 (100%).\n"
        "\n");
    expect_printed("table-65", g, 6, P_TABLE, 0, "65",
        "exercise       result      yours speedup        bar regs   smem\n"
        "lesson3/matmul SLOW      1.600ms   1.25x    >=2.50x   40 3.0 KB\n"
        "  knobs: TILE=32 (default 16) UNROLL=16 (default 4) BLOCKDIMY=3 (\n"
        "lesson2/copy   PASS      0.250ms   4.00x    >=60%bw   16    0 B\n"
        "lesson3/padded MECHANISM 1.100ms   2.73x <=1.10xref  255 1023 B\n"
        "lesson4/free   PASS*     1.000ms   1.00x       none    8    0 B\n"
        "lesson3/matmul WRONG           -       -          -    -      -\n"
        "  knobs: TILE=16 UNROLL=4 BLOCKDIMY=8 PREFETCHDISTANCE=4\n"
        "lesson2/copy   SLOW      0.500ms   2.00x     >=0%bw    -      -\n"
        "\n");
    expect_printed("table-84", g, 6, P_TABLE, 0, "84",
        "exercise       result      yours speedup        bar %bw regs   smem local occ\n"
        "lesson3/matmul SLOW      1.600ms   1.25x    >=2.50x 50%   40 3.0 KB  24 B 75%\n"
        "  knobs: TILE=32 (default 16) UNROLL=16 (default 4) BLOCKDIMY=3 (default 8) "
        "PREFETCH\n"
        "lesson2/copy   PASS      0.250ms   4.00x    >=60%bw 80%   16    0 B   0 B  6%\n"
        "lesson3/padded MECHANISM 1.100ms   2.73x <=1.10xref 30%  255 1023 B   0 B   -\n"
        "lesson4/free   PASS*     1.000ms   1.00x       none   -    8    0 B   0 B   -\n"
        "lesson3/matmul WRONG           -       -          -   -    -      -     -   -\n"
        "  knobs: TILE=16 UNROLL=4 BLOCKDIMY=8 PREFETCHDISTANCE=4\n"
        "lesson2/copy   SLOW      0.500ms   2.00x     >=0%bw   -    -      -     -   -\n"
        "occ: the occupancy of the launch the grader makes (its blocks spread over the\n"
        "SMs, at most as many per SM as the resources allow), not the most the\n"
        "resources allow: lesson2/copy launches 1 block per SM (6%); its resources\n"
        "allow 16 (100%).\n"
        "\n");
    expect_printed("table-70", g, 6, P_TABLE, 0, "70",
        "exercise       result      yours speedup        bar regs   smem local\n"
        "lesson3/matmul SLOW      1.600ms   1.25x    >=2.50x   40 3.0 KB  24 B\n"
        "  knobs: TILE=32 (default 16) UNROLL=16 (default 4) BLOCKDIMY=3 (defau\n"
        "lesson2/copy   PASS      0.250ms   4.00x    >=60%bw   16    0 B   0 B\n"
        "lesson3/padded MECHANISM 1.100ms   2.73x <=1.10xref  255 1023 B   0 B\n"
        "lesson4/free   PASS*     1.000ms   1.00x       none    8    0 B   0 B\n"
        "lesson3/matmul WRONG           -       -          -    -      -     -\n"
        "  knobs: TILE=16 UNROLL=4 BLOCKDIMY=8 PREFETCHDISTANCE=4\n"
        "lesson2/copy   SLOW      0.500ms   2.00x     >=0%bw    -      -     -\n"
        "\n");
    expect_printed("table-60", g, 6, P_TABLE, 0, "60",
        "exercise       result      yours speedup        bar regs\n"
        "lesson3/matmul SLOW      1.600ms   1.25x    >=2.50x   40\n"
        "  knobs: TILE=32 (default 16) UNROLL=16 (default 4) BLOCKDIM\n"
        "lesson2/copy   PASS      0.250ms   4.00x    >=60%bw   16\n"
        "lesson3/padded MECHANISM 1.100ms   2.73x <=1.10xref  255\n"
        "lesson4/free   PASS*     1.000ms   1.00x       none    8\n"
        "lesson3/matmul WRONG           -       -          -    -\n"
        "  knobs: TILE=16 UNROLL=4 BLOCKDIMY=8 PREFETCHDISTANCE=4\n"
        "lesson2/copy   SLOW      0.500ms   2.00x     >=0%bw    -\n"
        "\n");
    expect_printed("table-40", g, 6, P_TABLE, 0, "40",
        "exercise       result    speedup\n"
        "lesson3/matmul SLOW        1.25x\n"
        "  knobs: TILE=32 (default 16) UNROLL=16 \n"
        "lesson2/copy   PASS        4.00x\n"
        "lesson3/padded MECHANISM   2.73x\n"
        "lesson4/free   PASS*       1.00x\n"
        "lesson3/matmul WRONG           -\n"
        "  knobs: TILE=16 UNROLL=4 BLOCKDIMY=8 PR\n"
        "lesson2/copy   SLOW        2.00x\n"
        "\n");
}
END_TEST


/* The exercise, its result and its speedup stay, even where they alone
 * are wider than the terminal. */
/* A bandwidth bar is a share of the copy bandwidth however slow the copy
 * measured: 0.3 GB/s of 0.5 GB/s is 60%, not the "none measured" 0%. */
START_TEST(table_bar_of_a_slow_copy)
{
    graded g[1];
    memset(g, 0, sizeof g);
    g[0].ex = &ex_bw;
    g[0].r.outcome = OUT_SLOW;
    timed(&g[0].r, 1.0, 0.5, 0.25, 0.4);
    g[0].r.copy_gbps = 0.5;
    g[0].r.bar = 0.3;
    expect_printed("table-slow-copy", g, 1, P_TABLE, 0, "200",
        "exercise     result baseline   yours     ref speedup     bar GB/s %bw flight/SM regs "
        "smem local occ\n"
        "lesson2/copy SLOW    1.000ms 0.500ms 0.250ms   2.00x >=60%bw    0 80%         -    - "
        "   -     -   -\n"
        "\n");
}
END_TEST

START_TEST(table_keeps_three_columns)
{
    graded g[6];
    six_rows(g);
    exercise longer = ex_speed;
    longer.name = "a_name_long_enough_to_overflow";
    g[0].ex = &longer;
    expect_printed("table-overflow", g, 6, P_TABLE, 0, "40",
        "exercise                        result    speedup\n"
        "lesson3/a_name_long_enough_to_o SLOW        1.25x\n"
        "  knobs: TILE=32 (default 16) UNROLL=16 \n"
        "lesson2/copy                    PASS        4.00x\n"
        "lesson3/padded                  MECHANISM   2.73x\n"
        "lesson4/free                    PASS*       1.00x\n"
        "lesson3/matmul                  WRONG           -\n"
        "  knobs: TILE=16 UNROLL=4 BLOCKDIMY=8 PR\n"
        "lesson2/copy                    SLOW        2.00x\n"
        "\n");
}
END_TEST

/* Each outcome's colour in the result column, and only there; the heading
 * bold. */
START_TEST(table_colours)
{
    static const enum outcome o[] = {OUT_PASS, OUT_PASS_UNTIMED, OUT_CHECKED, OUT_SLOW,
                                     OUT_MECHANISM, OUT_UNSUPPORTED, OUT_WRONG, OUT_CRASH,
                                     OUT_TOO_FAST, OUT_NOT_RUN};
    enum { N = sizeof o / sizeof o[0] };
    graded g[N];
    memset(g, 0, sizeof g);
    for (int i = 0; i < N; i++) {
        g[i].ex = &ex_none;
        g[i].r.outcome = o[i];
    }
    expect_printed("table-colours", g, N, P_TABLE, 1, NULL,
        "\033[1mexercise     result    regs smem local occ\033[0m\n"
        "lesson4/free \033[32mPASS     \033[0m    -    -     -   -\n"
        "lesson4/free \033[32mPASS*    \033[0m    -    -     -   -\n"
        "lesson4/free \033[36mCHECKED  \033[0m    -    -     -   -\n"
        "lesson4/free \033[33mSLOW     \033[0m    -    -     -   -\n"
        "lesson4/free \033[33mMECHANISM\033[0m    -    -     -   -\n"
        "lesson4/free \033[33mSKIPPED  \033[0m    -    -     -   -\n"
        "lesson4/free \033[31mWRONG    \033[0m    -    -     -   -\n"
        "lesson4/free \033[31mCRASH    \033[0m    -    -     -   -\n"
        "lesson4/free \033[31mTOO FAST \033[0m    -    -     -   -\n"
        "lesson4/free \033[31mNOT RUN  \033[0m    -    -     -   -\n"
        "\n");
}
END_TEST

/* Nothing graded: the heading alone. */
START_TEST(table_of_nothing)
{
    expect_printed("table-nothing", NULL, 0, P_TABLE, 0, NULL,
        "exercise result regs smem local occ\n"
        "\n");
}
END_TEST

/* One record's cells are the table's columns and no more: the cell past
 * the last is left as it was, for a record with every column and for one
 * with none timed ("-" there). */
START_TEST(table_row_has_its_cells_only)
{
    graded g[6];
    six_rows(g);
    char c[REPORT_COLS + 1][REPORT_CELL];
    static const char *const want[2][REPORT_COLS] = {
        {"lesson3/matmul", "SLOW", "2.000ms", "1.600ms", "0.500ms", "1.25x", ">=2.50x", "1500",
         "50%", "-", "40", "3.0 KB", "24 B", "75%"},
        {"lesson3/matmul", "WRONG", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"},
    };
    for (int row = 0; row < 2; row++) {
        memset(c, '#', sizeof c);
        report_row_cells(&g[row ? 4 : 0], c);
        for (int k = 0; k < REPORT_COLS; k++)
            ck_assert_msg(!strcmp(c[k], want[row][k]), "row %d cell %d: '%.32s', not '%s'",
                          row, k, c[k], want[row][k]);
        for (int b = 0; b < REPORT_CELL; b++)
            ck_assert_msg(c[REPORT_COLS][b] == '#', "row %d: byte %d past the cells written",
                          row, b);
    }
}
END_TEST

/* No memory for the table's cells: no table, and nothing else goes wrong.
 * In a child whose address space is capped just above what it holds, 9 MB
 * of cells cannot be had (the cap is checked to be that tight first). */
START_TEST(table_without_memory)
{
    enum { N = 20000 };    /* 448 bytes of cells a row */
    graded *g = calloc(N, sizeof *g);
    ck_assert_ptr_nonnull(g);
    g[0].ex = &ex_none;    /* the others untouched: no RAM spent on them */
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        unsigned long pages = 0;
        FILE *m = fopen("/proc/self/statm", "r");
        if (!m || fscanf(m, "%lu", &pages) != 1)
            _exit(3);
        fclose(m);
        struct rlimit rl = {.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) +
                                        (1u << 20), .rlim_max = RLIM_INFINITY};
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
        void *probe = malloc((size_t)N * 448);
        if (probe)
            _exit(4);      /* the cap does not bite: the test proves nothing */
        print_table(f, g, N, 0);
        /* The cap lifted and exit(), not _exit(): a coverage build writes
         * down that this child ran print_table's way out. */
        rl.rlim_cur = RLIM_INFINITY;
        setrlimit(RLIMIT_AS, &rl);
        exit(ftell(f) == 0 ? 0 : 5);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child %s %d",
                  WIFEXITED(st) ? "exited" : "died of signal",
                  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    fclose(f);
    free(g);
}
END_TEST

/* A paragraph is cut at its last blank before the width, never at a blank
 * it starts with: there a word too long for the line is cut at the width,
 * and no line is left empty; a blank after a first word of one letter is
 * a place to cut. */
START_TEST(paragraph_never_starts_empty)
{
    char text[128], want[256];
    memset(text, 'x', 101);
    text[0] = ' ';
    text[101] = 0;
    /* The indent (2) and 76 characters make the 78 columns of a paragraph. */
    snprintf(want, sizeof want, "  %.76s\n  %s\n", text, text + 76);
    char *buf;
    size_t len;
    unsetenv("COLUMNS");
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    print_paragraph(f, text, "  ");
    fclose(f);
    same("paragraph-blank-first", buf, want);
    free(buf);
    /* A blank after a first word of one letter is a place to cut. */
    text[0] = 'a';
    text[1] = ' ';
    snprintf(want, sizeof want, "  a\n  %.76s\n  %s\n", text + 2, text + 78);
    f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    print_paragraph(f, text, "  ");
    fclose(f);
    same("paragraph-one-letter-first", buf, want);
    free(buf);
}
END_TEST

START_TEST(bytes_in_words)
{
    char b[32];
    human_bytes(b, sizeof b, 0);
    ck_assert_str_eq(b, "0 B");
    human_bytes(b, sizeof b, 1023);
    ck_assert_str_eq(b, "1023 B");
    human_bytes(b, sizeof b, 1024);
    ck_assert_str_eq(b, "1.0 KB");
    human_bytes(b, sizeof b, 49152 + 512);
    ck_assert_str_eq(b, "48.5 KB");
}
END_TEST

/* ---- the width ---------------------------------------------------------- */

static int width_with(const char *columns)
{
    if (columns)
        setenv("COLUMNS", columns, 1);
    else
        unsetenv("COLUMNS");
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    int w = report_width(f);
    fclose(f);
    unsetenv("COLUMNS");
    return w;
}

/* Not a terminal: $COLUMNS from 40 to 1000, else 100. */
START_TEST(width_from_columns)
{
    ck_assert_int_eq(width_with(NULL), 100);
    ck_assert_int_eq(width_with("40"), 40);
    ck_assert_int_eq(width_with("39"), 100);
    ck_assert_int_eq(width_with("1000"), 1000);
    ck_assert_int_eq(width_with("1001"), 100);
    ck_assert_int_eq(width_with("wide"), 100);
    ck_assert_int_eq(width_with("-80"), 100);
}
END_TEST

/* A terminal's own width wins over $COLUMNS when it is at least 40. */
START_TEST(width_from_terminal)
{
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0) {
        fprintf(stderr, "width_from_terminal: no pseudo-terminal, skipped\n");
        return;
    }
    FILE *tty = fopen(ptsname(m), "w");
    ck_assert_ptr_nonnull(tty);
    setenv("COLUMNS", "120", 1);
    struct winsize ws = {.ws_row = 24, .ws_col = 40};
    ck_assert_int_eq(ioctl(fileno(tty), TIOCSWINSZ, &ws), 0);
    ck_assert_int_eq(report_width(tty), 40);
    ws.ws_col = 39;
    ck_assert_int_eq(ioctl(fileno(tty), TIOCSWINSZ, &ws), 0);
    ck_assert_int_eq(report_width(tty), 120);
    unsetenv("COLUMNS");
    ck_assert_int_eq(report_width(tty), 100);
    fclose(tty);
    close(m);
}
END_TEST

/* ---- the run header ----------------------------------------------------- */

START_TEST(header_lines)
{
    graded g[3];
    memset(g, 0, sizeof g);
    for (int i = 0; i < 3; i++)
        g[i].ex = &ex_speed;
    /* The first result never reached a GPU; the header comes from the
     * second, the latency from the third. */
    timed(&g[1].r, 1, 1, 1, 1);
    g[1].r.copy_gbps = 3352.4;
    g[1].r.seed = 42;
    g[1].r.cc = 89;
    snprintf(g[1].r.gpu, sizeof g[1].r.gpu, "NVIDIA GeForce RTX 4090");
    g[2].r.latency_ns = 612.6;
    expect_printed("header-100", g, 3, P_HEADER, 0, NULL,
        "GPU: NVIDIA GeForce RTX 4090 (compute capability 8.9), copy bandwidth 3352 GB/s, "
        "memory latency\n"
        "613 ns. Grading your exercises. Seed 42 (replay with SEED=42).\n"
        "\n");
    expect_printed("header-60", g, 3, P_HEADER, 0, "60",
        "GPU: NVIDIA GeForce RTX 4090 (compute capability 8.9),\n"
        "copy bandwidth 3352 GB/s, memory latency 613 ns. Grading\n"
        "your exercises. Seed 42 (replay with SEED=42).\n"
        "\n");
    g[1].r.copy_gbps = 0;
    g[2].r.latency_ns = 0;
    g[1].r.cc = 120;
    expect_printed("header-plain", g, 3, P_HEADER, 0, NULL,
        "GPU: NVIDIA GeForce RTX 4090 (compute capability 12.0). Grading your exercises. Seed "
        "42 (replay\n"
        "with SEED=42).\n"
        "\n");
    /* No result with a GPU: no header. */
    g[1].r.gpu[0] = 0;
    expect_printed("header-none", g, 3, P_HEADER, 0, NULL, "");
}
END_TEST

static char *no_gpu_header(const char *why, const char *columns)
{
    if (columns)
        setenv("COLUMNS", columns, 1);
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    print_no_gpu_header(f, why, "lesson3");
    fclose(f);
    unsetenv("COLUMNS");
    return buf;
}

START_TEST(header_without_gpu)
{
    char *s = no_gpu_header("CUDA driver: no CUDA-capable device is detected (cudaGetDeviceCount "
                            "returned 100).", NULL);
    same("nogpu-why", s,
        "No GPU, so nothing was timed. Checked lesson3 without one: each file compiled\n"
        "for the course's calibration GPU (an H100, sm_90), its registers, local and\n"
        "shared memory read from the compiler, its occupancy worked out for an H100,\n"
        "every mechanism check of its exercise, and each kernel run at small sizes on\n"
        "the grader's PTX simulator, which executes the PTX the compiler made on this\n"
        "CPU.\n"
        "  CUDA driver: no CUDA-capable device is detected (cudaGetDeviceCount\n"
        "  returned 100).\n"
        "What this cannot tell: whether a kernel is fast (nothing was timed). Whether\n"
        "a kernel is right, and whether its results come through the mechanism its\n"
        "lesson asks for, the simulator does tell: CORRECT (right at every size it\n"
        "ran, every check holds, the data watched at the largest), MECHANISM (a check\n"
        "fails, with what the simulator saw the data do), or WRONG, CRASH, HANG or\n"
        "RACE (a race named by its two lines, even when the values came out right) in\n"
        "the words a GPU run uses. Neither CORRECT nor CHECKED is a pass: an untouched\n"
        "stub that computes the right values slowly (lesson 2's mapping, ...) reads\n"
        "CORRECT too, and only a GPU shows what is left to do. CHECKED: the simulator\n"
        "could not run the kernel (the message says which instruction), so correctness\n"
        "needs a GPU.\n"
        "\n");
    free(s);
    s = no_gpu_header(NULL, "50");
    same("nogpu-null", s,
        "No GPU, so nothing was timed. Checked lesson3\n"
        "without one: each file compiled for the course's\n"
        "calibration GPU (an H100, sm_90), its registers,\n"
        "local and shared memory read from the compiler,\n"
        "its occupancy worked out for an H100, every\n"
        "mechanism check of its exercise, and each kernel\n"
        "run at small sizes on the grader's PTX\n"
        "simulator, which executes the PTX the compiler\n"
        "made on this CPU.\n"
        "What this cannot tell: whether a kernel is fast\n"
        "(nothing was timed). Whether a kernel is right,\n"
        "and whether its results come through the\n"
        "mechanism its lesson asks for, the simulator\n"
        "does tell: CORRECT (right at every size it ran,\n"
        "every check holds, the data watched at the\n"
        "largest), MECHANISM (a check fails, with what\n"
        "the simulator saw the data do), or WRONG, CRASH,\n"
        "HANG or RACE (a race named by its two lines,\n"
        "even when the values came out right) in the\n"
        "words a GPU run uses. Neither CORRECT nor\n"
        "CHECKED is a pass: an untouched stub that\n"
        "computes the right values slowly (lesson 2's\n"
        "mapping, ...) reads CORRECT too, and only a GPU\n"
        "shows what is left to do. CHECKED: the simulator\n"
        "could not run the kernel (the message says which\n"
        "instruction), so correctness needs a GPU.\n"
        "\n");
    free(s);
    /* An empty reason reads as none. */
    s = no_gpu_header("", NULL);
    char *none = no_gpu_header(NULL, NULL);
    same("nogpu-empty", s, none);
    free(none);
    free(s);
}
END_TEST

/* ---- the explanations --------------------------------------------------- */

/* A course root in a temporary folder with one hint file, whose lines are
 * joined where they continue a paragraph and kept where they start a list
 * item, are indented or are blank; a last line of one character without a
 * newline is joined too. */
static char root[64];

static void make_root(void)
{
    snprintf(root, sizeof root, "/tmp/grader-lines-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    char path[160];
    snprintf(path, sizeof path, "%s/lessons", root);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/lessons/hints", root);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/lessons/hints/lesson3-matmul.txt", root);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("Load each tile once into shared memory,\nthen read it from there.\n\n"
          "Two things to check:\n- the tile loop\n* the barrier\n  an indented line\n\n"
          "A last paragraph,\njoined again,\n!", f);
    fclose(f);
}

static void remove_root(void)
{
    char path[160];
    snprintf(path, sizeof path, "%s/lessons/hints/lesson3-matmul.txt", root);
    unlink(path);
    snprintf(path, sizeof path, "%s/lessons/hints", root);
    rmdir(path);
    snprintf(path, sizeof path, "%s/lessons", root);
    rmdir(path);
    rmdir(root);
}

static void expect_explained(const char *name, const graded *g, int n, int color,
                             const char *columns, const char *want)
{
    make_root();
    char *s = printed(g, n, P_EXPLAIN, color, columns, root);
    remove_root();
    same(name, s, want);
    free(s);
}

static graded one(const exercise *ex, enum outcome o, const char *message)
{
    graded g;
    memset(&g, 0, sizeof g);
    g.ex = ex;
    g.r.outcome = o;
    snprintf(g.r.message, sizeof g.r.message, "%s", message);
    return g;
}

/* Each row says the sizes its exercise is graded on, as the spec lists
 * them and what a size is (issue 26); wrapped under the row when long. */
START_TEST(table_names_the_sizes)
{
    exercise sized = ex_none;
    sized.size_means = "n, the length of x";
    sized.check_sizes[0] = 1, sized.check_sizes[1] = 1000, sized.check_sizes[2] = 4097;
    sized.time_size = 33554432;
    graded g[2] = {one(&sized, OUT_CHECKED, "Compiles."), one(&ex_none, OUT_CHECKED, "Yes.")};
    expect_printed("table-sizes", g, 2, P_TABLE, 0, "60",
        "exercise     result  regs smem local occ\n"
        "lesson4/free CHECKED    -    -     -   -\n"
        "  sizes: 1, 1000, 4097 checked; 33554432 timed (n, the\n"
        "    length of x)\n"
        "lesson4/free CHECKED    -    -     -   -\n"
        "\n");
}
END_TEST

/* A demo's row says it fails on purpose and is not the student's (issue
 * 26: lesson 7's demo row read like the student's failure). */
START_TEST(table_labels_a_demo)
{
    exercise demo = ex_none;
    demo.demo = 1;
    graded g[2] = {one(&demo, OUT_MECHANISM, "Shown."), one(&ex_none, OUT_MECHANISM, "No.")};
    expect_printed("table-demo", g, 2, P_TABLE, 0, NULL,
        "exercise            result    regs smem local occ\n"
        "lesson4/free (demo) MECHANISM    -    -     -   -\n"
        "  demo: fails on purpose to show the lesson; not your file, not counted\n"
        "lesson4/free        MECHANISM    -    -     -   -\n"
        "\n");
}
END_TEST


/* A wrong kernel: the message wrapped at 78 columns, the mismatches as
 * they were listed, what to try with the lesson's number, where it is
 * explained. No times, no checks, no hint. */
START_TEST(explain_wrong)
{
    graded g = one(&ex_speed, OUT_WRONG, "Your kernel computed 3 of 4096 values wrong (size "
                   "4096; 0 never written). Tolerance: |got - expected| <= 1e-05 + "
                   "1e-05*|expected|. Replay these inputs with SEED=7.");
    snprintf(g.r.detail, sizeof g.r.detail, "  index 3: expected 1, got 2\n"
             "  index 4: expected 1.5, got 2.5\n");
    g.r.checks[0] = (check_result){CS_HOLDS, "the PTX has 'ld.shared'"};
    expect_explained("wrong", &g, 1, 0, NULL,
        "-- lesson3/matmul: Tiled matrix multiply\n"
        "   Your kernel computed 3 of 4096 values wrong (size 4096; 0 never written).\n"
        "   Tolerance: |got - expected| <= 1e-05 + 1e-05*|expected|. Replay these\n"
        "   inputs with SEED=7.\n"
        "     |   index 3: expected 1, got 2\n"
        "     |   index 4: expected 1.5, got 2.5\n"
        "   Try: replay the same inputs with the SEED shown above (make check lesson3\n"
        "   SEED=...), and compare your index arithmetic with the baseline's.\n"
        "   Explained in lessons/lesson3-shared-memory.md, section 2.\n"
        "\n");
}
END_TEST

/* WRONG because it read memory the launch never wrote: its own advice,
 * not the index-arithmetic one (the values may even be right). */
START_TEST(explain_unwritten_read)
{
    graded g = one(&ex_speed, OUT_WRONG, "Your kernel depends on memory it never wrote.");
    snprintf(g.r.unwritten, sizeof g.r.unwritten, "read shared memory at line 13");
    expect_explained("unwritten", &g, 1, 0, NULL,
        "-- lesson3/matmul: Tiled matrix multiply\n"
        "   Your kernel depends on memory it never wrote.\n"
        "   Try: give every shared (or local) variable a value in this launch before\n"
        "   any thread reads it: initialise it, then __syncthreads() before the first\n"
        "   read by another thread; make check lesson3 names the next such read.\n"
        "   Explained in lessons/lesson3-shared-memory.md, section 2.\n"
        "\n");
}
END_TEST

/* Crashes and hangs: their own advice, the mbarrier one where the PTX
 * waits on one; a demo gets none, and says it is one. */
START_TEST(explain_crash_and_hang)
{
    graded g[4] = {
        one(&ex_speed, OUT_CRASH, "While running your kernel at size 1000: an illegal memory "
            "access was encountered."),
        one(&ex_bw, OUT_HANG, "While running your kernel: the launch did not finish within 10 s."),
        one(&ex_bw, OUT_HANG, "While running your kernel: the launch did not finish within 10 s."),
        one(&ex_none, OUT_CRASH, ""),
    };
    g[2].r.diags = DIAG_MBARRIER_WAIT;
    exercise demo = ex_speed;
    demo.demo = 1;
    g[3].ex = &demo;
    expect_explained("crash-hang", g, 4, 0, NULL,
        "-- lesson3/matmul: Tiled matrix multiply\n"
        "   While running your kernel at size 1000: an illegal memory access was\n"
        "   encountered.\n"
        "   Try: make check lesson3 SANITIZE=1 runs your kernel under\n"
        "   compute-sanitizer, which names the line of the bad access.\n"
        "   Explained in lessons/lesson3-shared-memory.md, section 2.\n"
        "\n"
        "-- lesson2/copy: A coalesced copy\n"
        "   While running your kernel: the launch did not finish within 10 s.\n"
        "   Try: look at every loop and every __syncthreads() in your kernel; make\n"
        "   check lesson2 TIMEOUT=<seconds> changes the time limit.\n"
        "   Explained in lessons/lesson2-coalescing.md.\n"
        "\n"
        "-- lesson2/copy: A coalesced copy\n"
        "   While running your kernel: the launch did not finish within 10 s.\n"
        "   Try: for each stage, count the bytes announced (expect_tx) and the bytes\n"
        "   copied to that barrier, and the threads that arrive; make check lesson2\n"
        "   TIMEOUT=<seconds> changes the time limit.\n"
        "   Explained in lessons/lesson2-coalescing.md.\n"
        "\n"
        ":: lesson3/matmul (demo, fails on purpose): Tiled matrix multiply\n"
        "   A demonstration, not your file: grader/demos/lesson3/matmul.cu is graded\n"
        "   to show what the lesson explains, and fails on purpose. Nothing to fix\n"
        "   here; what \"your kernel\" says below is about the demo.\n"
        "   (no message)\n"
        "   Explained in lessons/lesson3-shared-memory.md, section 2.\n"
        "\n");
}
END_TEST

/* A pass: "ok", the times, every check holding; nothing to try, no
 * lesson pointed at. PASS* the same. */
START_TEST(explain_pass)
{
    graded g[2] = {one(&ex_speed, OUT_PASS, "Correct, and fast enough: your kernel ran at 3.00x "
                       "the baseline's speed; the bar was 2.50x."),
                   one(&ex_speed, OUT_PASS_UNTIMED, "Correct on every size checked (speed not "
                       "measured in this mode).")};
    timed(&g[0].r, 3.0, 1.0, 0.8, 1200);
    g[0].r.checks[0] = (check_result){CS_HOLDS, "the PTX has 'ld.shared'"};
    g[0].r.checks[1] = (check_result){CS_UNKNOWN, "the occupancy is not known (no ptxas report)"};
    expect_explained("pass", g, 2, 0, NULL,
        "ok lesson3/matmul: Tiled matrix multiply\n"
        "   Correct, and fast enough: your kernel ran at 3.00x the baseline's speed;\n"
        "   the bar was 2.50x.\n"
        "   Times: baseline 3.000 ms, yours 1.000 ms, reference 0.800 ms (medians of 40 rounds).\n"
        "   Mechanism checks:\n"
        "     holds  the PTX has 'ld.shared'\n"
        "     n/a    the occupancy is not known (no ptxas report)\n"
        "\n"
        "ok lesson3/matmul: Tiled matrix multiply\n"
        "   Correct on every size checked (speed not measured in this mode).\n"
        "\n");
}
END_TEST

/* A missing mechanism: the check that fails and why it matters, the
 * diagnosis, then the exercise's hint re-flowed, then the lesson. */
START_TEST(explain_mechanism)
{
    graded g = one(&ex_speed, OUT_MECHANISM, "Correct, but the PTX has no 'ld.shared' "
                   "instruction. Speed: your kernel ran at 1.25x the baseline's speed; the bar "
                   "was 2.50x.");
    timed(&g.r, 2.0, 1.6, 0.5, 1500);
    g.r.checks[0] = (check_result){CS_FAILS, "the PTX has no 'ld.shared' instruction: nothing "
                                             "is read from shared memory, so each value is "
                                             "loaded from device memory again"};
    g.r.checks[1] = (check_result){CS_HOLDS, "the kernel uses 0 bytes of local memory"};
    snprintf(g.r.failed_check, sizeof g.r.failed_check, "A tile read once from device memory "
             "and then from shared memory many times saves the bandwidth the naive kernel "
             "spends.");
    g.r.diags = DIAG_COPY_OF_LOAD;
    expect_explained("mechanism", &g, 1, 0, NULL,
        "-- lesson3/matmul: Tiled matrix multiply\n"
        "   Correct, but the PTX has no 'ld.shared' instruction. Speed: your kernel\n"
        "   ran at 1.25x the baseline's speed; the bar was 2.50x.\n"
        "   Times: baseline 2.000 ms, yours 1.600 ms, reference 0.500 ms (medians of 40 rounds).\n"
        "   Mechanism checks:\n"
        "     FAILS  the PTX has no 'ld.shared' instruction: nothing is read from\n"
        "            shared memory, so each value is loaded from device memory again\n"
        "     holds  the kernel uses 0 bytes of local memory\n"
        "   Why it matters:\n"
        "     A tile read once from device memory and then from shared memory many\n"
        "     times saves the bandwidth the naive kernel spends.\n"
        "   Diagnosis: a register copied from a pending load. The compiled loop copies\n"
        "   a register that one of its own global loads fills (mov in the PTX): the\n"
        "   ring is kept as a shift register, r[k] = r[k+1] every iteration. The local\n"
        "   column may show 0 B, but a copy is an instruction that reads the register,\n"
        "   and reading it waits for the load still filling it, so every iteration\n"
        "   waits for memory again and the prefetch hides almost nothing (1.15x on an\n"
        "   H100 against 4.43x). Fix: do not move values between slots; unroll the\n"
        "   loop by PDIST so slot k is used and refilled in place (lesson 7, \"A shift\n"
        "   register is not a ring\").\n"
        "   Hint (lessons/hints/lesson3-matmul.txt):\n"
        "     Load each tile once into shared memory, then read it from there.\n"
        "     Two things to check:\n"
        "     - the tile loop\n"
        "     * the barrier\n"
        "     an indented line\n"
        "     A last paragraph, joined again, !\n"
        "   Explained in lessons/lesson3-shared-memory.md, section 2.\n"
        "\n");
    /* SLOW: the same hint, no check failing. */
    g.r.outcome = OUT_SLOW;
    g.r.checks[0] = (check_result){CS_HOLDS, "the PTX has 'ld.shared': each value of the tile "
                                             "is read from shared memory, not loaded again"};
    g.r.failed_check[0] = 0;
    g.r.diags = 0;
    expect_explained("slow", &g, 1, 0, "60",
        "-- lesson3/matmul: Tiled matrix multiply\n"
        "   Correct, but the PTX has no 'ld.shared' instruction.\n"
        "   Speed: your kernel ran at 1.25x the baseline's speed;\n"
        "   the bar was 2.50x.\n"
        "   Times: baseline 2.000 ms, yours 1.600 ms, reference 0.500 ms (medians of 40 rounds).\n"
        "   Mechanism checks:\n"
        "     holds  the PTX has 'ld.shared': each value of the\n"
        "            tile is read from shared memory, not loaded\n"
        "            again\n"
        "     holds  the kernel uses 0 bytes of local memory\n"
        "   Hint (lessons/hints/lesson3-matmul.txt):\n"
        "     Load each tile once into shared memory, then read it\n"
        "     from there.\n"
        "     Two things to check:\n"
        "     - the tile loop\n"
        "     * the barrier\n"
        "     an indented line\n"
        "     A last paragraph, joined again, !\n"
        "   Explained in lessons/lesson3-shared-memory.md, section\n"
        "   2.\n"
        "\n");
}
END_TEST

/* Without a GPU: "..", and the checks say where their figures come from
 * (an occupancy check: the H100 too). */
START_TEST(explain_checked)
{
    exercise occ = ex_none;
    occ.checks[0] = (mech_check){CHECK_MAX_REGS, NULL, 64, NULL, "why"};
    occ.checks[1] = (mech_check){CHECK_MIN_OCCUPANCY, NULL, 50, NULL, "why"};
    exercise ptx = ex_none;
    ptx.checks[0] = (mech_check){CHECK_PTX_HAS, "ld.shared", 0, NULL, "why"};
    graded g[3] = {one(&occ, OUT_CHECKED, "Your kernel compiles for sm_90, and its 2 mechanism "
                       "checks hold (listed below)."),
                   one(&ptx, OUT_CHECKED, "Your kernel compiles for sm_90."),
                   one(&ptx, OUT_TOO_FAST, "Your kernel was timed at 0.001 ms.")};
    g[0].r.no_gpu = g[1].r.no_gpu = 1;
    g[0].r.checks[0] = (check_result){CS_HOLDS, "the kernel uses 32 registers per thread"};
    g[0].r.checks[1] = (check_result){CS_HOLDS, "its theoretical occupancy is 100%"};
    g[1].r.checks[0] = (check_result){CS_HOLDS, "the PTX has 'ld.shared'"};
    g[2].r.checks[0] = (check_result){CS_FAILS, "the PTX has no 'ld.shared'"};
    /* A pattern in the PTX is named without a GPU too (no hint file: that
     * is for a kernel known to be slow); a wait on an mbarrier names none. */
    g[1].r.diags = DIAG_WAIT_DEPTH_SWITCH | DIAG_MBARRIER_WAIT;
    g[2].r.diags = DIAG_WAIT_DEPTH_SWITCH;
    expect_explained("checked", g, 3, 0, NULL,
        ".. lesson4/free: No bar at all\n"
        "   Your kernel compiles for sm_90, and its 2 mechanism checks hold (listed\n"
        "   below).\n"
        "   Mechanism checks (compiler output for sm_90, occupancy for an H100):\n"
        "     holds  the kernel uses 32 registers per thread\n"
        "     holds  its theoretical occupancy is 100%\n"
        "\n"
        ".. lesson4/free: No bar at all\n"
        "   Your kernel compiles for sm_90.\n"
        "   Mechanism checks (compiler output for sm_90):\n"
        "     holds  the PTX has 'ld.shared'\n"
        "   Diagnosis: a wait depth chosen at run time. The loop waits on its\n"
        "   asynchronous copies with several different depths (cp.async.wait_group 0,\n"
        "   1, 2, ... in the PTX): libcu++'s pipe.consumer_wait() works out at run\n"
        "   time how many batches may stay in flight and picks the wait through a\n"
        "   switch, in every iteration (2.09x on an H100 against 3.82x). Fix: name the\n"
        "   depth at compile time with cuda::pipeline_consumer_wait_prior<PDIST -\n"
        "   1>(pipe), one wait instruction, or use __pipeline_wait_prior(PDIST - 1)\n"
        "   (lesson 9, \"Waiting with libcu++\").\n"
        "\n"
        "-- lesson4/free: No bar at all\n"
        "   Your kernel was timed at 0.001 ms.\n"
        "   Mechanism checks:\n"
        "     FAILS  the PTX has no 'ld.shared'\n"
        "\n");
}
END_TEST

/* Outcomes whose checks are not the point, and checks never evaluated:
 * none listed. */
START_TEST(explain_no_checks)
{
    static const enum outcome o[] = {OUT_UNSUPPORTED, OUT_COMPILE_ERROR, OUT_RESOURCES,
                                     OUT_INTERNAL, OUT_PASS};
    enum { N = sizeof o / sizeof o[0] };
    graded g[N];
    for (int i = 0; i < N; i++) {
        g[i] = one(&ex_match, o[i], "Said.");
        g[i].r.checks[0] = (check_result){CS_HOLDS, "the PTX has 'ld.shared'"};
    }
    g[N - 1].r.checks[0].state = CS_NOT_EVALUATED;
    expect_explained("no-checks", g, N, 0, NULL,
        "-- lesson3/padded: Padding the tile\n"
        "   Said.\n"
        "\n"
        "-- lesson3/padded: Padding the tile\n"
        "   Said.\n"
        "\n"
        "-- lesson3/padded: Padding the tile\n"
        "   Said.\n"
        "\n"
        "-- lesson3/padded: Padding the tile\n"
        "   Said.\n"
        "\n"
        "ok lesson3/padded: Padding the tile\n"
        "   Said.\n"
        "\n");
}
END_TEST

/* What the kernel printed: every line when all fit, else the first ones
 * and how many more; one line and one more line in the singular. */
START_TEST(explain_kernel_output)
{
    graded g[4] = {one(&ex_none, OUT_PASS, "Correct."), one(&ex_none, OUT_PASS, "Correct."),
                   one(&ex_none, OUT_PASS, "Correct."), one(&ex_none, OUT_PASS, "Correct.")};
    snprintf(g[0].r.printed, sizeof g[0].r.printed, "block 0 thread 0: x = 1\n");
    g[0].r.printed_lines = 1, g[0].r.printed_bytes = 24;
    snprintf(g[1].r.printed, sizeof g[1].r.printed, "a\nb\nc\n");
    g[1].r.printed_lines = 5, g[1].r.printed_bytes = 10;
    snprintf(g[2].r.printed, sizeof g[2].r.printed, "only this one is shown, and it is a long "
             "line that the report has to wrap to fit its width\n");
    g[2].r.printed_lines = 2, g[2].r.printed_bytes = 300;
    /* Nothing printed: nothing said. */
    g[3].r.printed_lines = 0, g[3].r.printed_bytes = 0;
    expect_explained("kernel-output", g, 4, 0, "60",
        "ok lesson4/free: No bar at all\n"
        "   Correct.\n"
        "   Your kernel printed 1 line (24 bytes) in its first\n"
        "   correctness launch:\n"
        "     > block 0 thread 0: x = 1\n"
        "   Later launches' output is not shown, but they print\n"
        "   too: printf costs time in every launch, the timed ones\n"
        "   included. Remove it before you judge the speed.\n"
        "\n"
        "ok lesson4/free: No bar at all\n"
        "   Correct.\n"
        "   Your kernel printed 5 lines (10 bytes) in its first\n"
        "   correctness launch; the first ones:\n"
        "     > a\n"
        "     > b\n"
        "     > c\n"
        "     ... 2 more lines not shown\n"
        "   Later launches' output is not shown, but they print\n"
        "   too: printf costs time in every launch, the timed ones\n"
        "   included. Remove it before you judge the speed.\n"
        "\n"
        "ok lesson4/free: No bar at all\n"
        "   Correct.\n"
        "   Your kernel printed 2 lines (300 bytes) in its first\n"
        "   correctness launch; the first ones:\n"
        "     > only this one is shown, and it is a long line that\n"
        "     >   the report has to wrap to fit its width\n"
        "     ... 1 more line not shown\n"
        "   Later launches' output is not shown, but they print\n"
        "   too: printf costs time in every launch, the timed ones\n"
        "   included. Remove it before you judge the speed.\n"
        "\n"
        "ok lesson4/free: No bar at all\n"
        "   Correct.\n"
        "\n");
}
END_TEST

/* A detail's long lines continue two spaces deeper than their own indent;
 * an indent too deep for the room continues two spaces in; a word longer
 * than the room is cut where it must be. */
START_TEST(explain_detail_wrapped)
{
    graded g = one(&ex_none, OUT_COMPILE_ERROR, "");
    snprintf(g.r.detail, sizeof g.r.detail,
             "exercises/lesson4/free.cu(12): error: identifier \"tile\" is undefined in this "
             "scope of the kernel\n"
             "    detected during instantiation of the template with many words after it\n"
             "                    twenty spaces deep then words that wrap around\n"
             "                   nineteen spaces deep then words that wrap around\n"
             "a_very_long_mangled_name_without_any_space_in_it_at_all_that_goes_on\n"
             "exactly thirty-two columns wide!\n");
    expect_explained("detail-40", &g, 1, 0, "40",
        "-- lesson4/free: No bar at all\n"
        "   (no message)\n"
        "     | exercises/lesson4/free.cu(12):\n"
        "     |   error: identifier \"tile\" is\n"
        "     |   undefined in this scope of the\n"
        "     |   kernel\n"
        "     |     detected during\n"
        "     |       instantiation of the\n"
        "     |       template with many words\n"
        "     |       after it\n"
        "     |                     twenty\n"
        "     |   spaces deep then words that\n"
        "     |   wrap around\n"
        "     |                    nineteen\n"
        "     |                      spaces deep\n"
        "     |                      then words\n"
        "     |                      that wrap\n"
        "     |                      around\n"
        "     | a_very_long_mangled_name_without\n"
        "     |   _any_space_in_it_at_all_that_g\n"
        "     |   oes_on\n"
        "     | exactly thirty-two columns wide!\n"
        "\n");
}
END_TEST

/* Little's law in words, its second line hung deeper. */
START_TEST(explain_in_flight)
{
    exercise ring = ex_speed;
    ring.latency_bound = 1;
    graded g = one(&ring, OUT_PASS, "Correct.");
    timed(&g.r, 2.0, 1.0, 0.5, 1320);
    g.r.copy_gbps = 3300;
    g.r.latency_ns = 600;
    g.r.sm_count = 132;
    expect_explained("in-flight", &g, 1, 0, NULL,
        "ok lesson3/matmul: Tiled matrix multiply\n"
        "   Correct.\n"
        "   Times: baseline 2.000 ms, yours 1.000 ms, reference 0.500 ms (medians of 40 rounds).\n"
        "   In flight: at the idle memory latency, your kernel's bandwidth corresponds\n"
        "     to 5.9 KB per SM in flight (1320 GB/s x 600 ns / 132 SMs); the copy\n"
        "     bandwidth to 14.6 KB per SM, so yours is 40% of that (Little's law,\n"
        "     lesson 1). Under load the latency is longer, and the bytes really in\n"
        "     flight more.\n"
        "\n");
}
END_TEST

/* In colour: the heading in its outcome's colour, each check's word in
 * green or red, and the check's text wrapped as if the codes took no
 * room. */
START_TEST(explain_colours)
{
    graded g[3] = {one(&ex_match, OUT_MECHANISM, "Correct, but."),
                   one(&ex_match, OUT_PASS, "Correct."),
                   one(&ex_match, OUT_CHECKED, "Compiles.")};
    g[0].r.checks[0] = (check_result){CS_FAILS, "the PTX has no 'ld.shared' instruction, "
                                                "so every value of the tile is loaded again "
                                                "from device memory"};
    g[0].r.checks[1] = (check_result){CS_HOLDS, "the kernel uses 0 bytes of local memory "
                                                "per thread (stack frame 0, spill stores 0)"};
    g[0].r.checks[2] = (check_result){CS_UNKNOWN, "the occupancy is not known"};
    g[1].r.checks[0] = g[0].r.checks[1];
    g[2].r.no_gpu = 1;
    g[2].r.checks[0] = g[0].r.checks[1];
    expect_explained("colours", g, 3, 1, NULL,
        "\033[33m-- lesson3/padded: Padding the tile\n"
        "\033[0m   Correct, but.\n"
        "   Mechanism checks:\n"
        "     \033[31mFAILS\033[0m  the PTX has no 'ld.shared' instruction, so every value of the\n"
        "            tile is loaded again from device memory\n"
        "     \033[32mholds\033[0m  the kernel uses 0 bytes of local memory per thread (stack "
        "frame\n"
        "            0, spill stores 0)\n"
        "     n/a    the occupancy is not known\n"
        "\n"
        "\033[32mok lesson3/padded: Padding the tile\n"
        "\033[0m   Correct.\n"
        "   Mechanism checks:\n"
        "     \033[32mholds\033[0m  the kernel uses 0 bytes of local memory per thread (stack "
        "frame\n"
        "            0, spill stores 0)\n"
        "\n"
        "\033[36m.. lesson3/padded: Padding the tile\n"
        "\033[0m   Compiles.\n"
        "   Mechanism checks (compiler output for sm_90):\n"
        "     \033[32mholds\033[0m  the kernel uses 0 bytes of local memory per thread (stack "
        "frame\n"
        "            0, spill stores 0)\n"
        "\n");
}
END_TEST

/* A head longer than the line hangs its rest three spaces in. */
START_TEST(explain_long_head)
{
    exercise ex = ex_match;
    ex.title = "A title long enough that the exercise's heading cannot fit on one line of "
               "a forty-column terminal";
    graded g = one(&ex, OUT_PASS, "Correct.");
    expect_explained("long-head", &g, 1, 0, "40",
        "ok lesson3/padded: A title long enough\n"
        "   that the exercise's heading cannot\n"
        "   fit on one line of a forty-column\n"
        "   terminal\n"
        "   Correct.\n"
        "\n");
}
END_TEST

/* ---- the summary -------------------------------------------------------- */

/* n results of lessons[i] with outcomes o[i]. */
static void results(graded *g, exercise *ex, int n, const int *lessons, const enum outcome *o)
{
    memset(g, 0, (size_t)n * sizeof *g);
    for (int i = 0; i < n; i++) {
        ex[i] = ex_none;
        ex[i].lesson = lessons[i];
        g[i].ex = &ex[i];
        g[i].r.outcome = o[i];
    }
}

/* Per lesson, demos left out (a lesson of demos only is not shown); the
 * line wraps between lessons, never inside one. */
START_TEST(summary_progress_wraps)
{
    enum { N = 9 };
    static const int lessons[N] = {0, 1, 1, 2, 3, 4, 10, 11, 11};
    static const enum outcome o[N] = {OUT_PASS, OUT_PASS_UNTIMED, OUT_SLOW, OUT_WRONG,
                                      OUT_CHECKED, OUT_MECHANISM, OUT_PASS, OUT_CRASH,
                                      OUT_UNSUPPORTED};
    graded g[N];
    exercise ex[N];
    results(g, ex, N, lessons, o);
    ex[5].demo = 1;    /* lesson4 holds a demo only */
    ex[8].demo = 1;
    expect_printed("summary-40", g, N, P_SUMMARY, 0, "40",
        "Progress:  lesson0 1/1  lesson1 1/2\n"
        "           lesson2 0/1  lesson3 1/1\n"
        "           lesson10 1/1  lesson11 0/1\n"
        "3 passed, 3 failed (2 demos shown, not graded)\n");
    /* A lesson that ends exactly at the width stays on its line. */
    expect_printed("summary-49", g, N, P_SUMMARY, 0, "49",
        "Progress:  lesson0 1/1  lesson1 1/2  lesson2 0/1\n"
        "           lesson3 1/1  lesson10 1/1\n"
        "           lesson11 0/1\n"
        "3 passed, 3 failed (2 demos shown, not graded)\n");
    expect_printed("summary-100", g, N, P_SUMMARY, 0, NULL,
        "Progress:  lesson0 1/1  lesson1 1/2  lesson2 0/1  lesson3 1/1  lesson10 1/1  lesson11 "
        "0/1\n"
        "3 passed, 3 failed (2 demos shown, not graded)\n");
}
END_TEST

/* One lesson: no progress line. Skipped ones and demos are counted apart,
 * in the singular or plural; the colour is red for a failure, else green. */
START_TEST(summary_counts)
{
    enum { N = 5 };
    static const int lessons[N] = {9, 9, 9, 9, 9};
    static const enum outcome o[N] = {OUT_PASS, OUT_UNSUPPORTED, OUT_UNSUPPORTED, OUT_SLOW,
                                      OUT_PASS};
    graded g[N];
    exercise ex[N];
    results(g, ex, N, lessons, o);
    ex[3].demo = ex[4].demo = 1;
    expect_printed("summary-counts", g, N, P_SUMMARY, 0, NULL,
        "1 passed, 0 failed, 2 skipped (this GPU is too old for them) (2 demos shown, "
        "not graded)\n");
    expect_printed("summary-green", g, N, P_SUMMARY, 1, NULL,
        "\033[32m1 passed, 0 failed\033[0m, "
        "2 skipped (this GPU is too old for them) (2 demos shown, not graded)\n");
    ex[3].demo = 0;
    expect_printed("summary-red", g, N, P_SUMMARY, 1, NULL,
        "\033[31m1 passed, 1 failed\033[0m, "
        "2 skipped (this GPU is too old for them) (1 demo shown, not graded)\n");
}
END_TEST

/* Without a GPU: checked and failed a check, and what CHECKED does not
 * mean; cyan when nothing failed. */
START_TEST(summary_without_gpu)
{
    enum { N = 3 };
    static const int lessons[N] = {5, 5, 6};
    static const enum outcome o[N] = {OUT_CHECKED, OUT_CHECKED, OUT_CHECKED};
    graded g[N];
    exercise ex[N];
    results(g, ex, N, lessons, o);
    g[1].r.no_gpu = 1;
    expect_printed("summary-checked", g, N, P_SUMMARY, 1, NULL,
        "Checked:  lesson5 2/2  lesson6 1/1\n"
        "\033[36mWithout a GPU: 3 checked, 0 failed a check\033[0m\n"
        "CHECKED: compiles, and every mechanism check holds. Whether the kernels are\n"
        "right and fast was not judged: that needs an NVIDIA GPU (run the same make\n"
        "check on a machine with one).\n");
    /* One exercise, without a GPU. */
    g[0].r.no_gpu = 1;
    expect_printed("summary-one-checked", g, 1, P_SUMMARY, 0, NULL,
        "Without a GPU: 1 checked, 0 failed a check\n"
        "CHECKED: compiles, and every mechanism check holds. Whether the kernels are\n"
        "right and fast was not judged: that needs an NVIDIA GPU (run the same make\n"
        "check on a machine with one).\n");
    g[0].r.outcome = g[1].r.outcome = g[2].r.outcome = OUT_COMPILE_ERROR;
    expect_printed("summary-none-checked", g, N, P_SUMMARY, 1, "50",
        "Checked:  lesson5 0/2  lesson6 0/1\n"
        "\033[31mWithout a GPU: 0 checked, 3 failed a check\033[0m\n"
        "Whether the kernels are right and fast was not\n"
        "judged: that needs an NVIDIA GPU.\n");
}
END_TEST

/* ---- the words ---------------------------------------------------------- */

/* Every outcome's word, as the table, the JSON and the progress file
 * write it, and every variant's name. */
START_TEST(outcome_and_variant_words)
{
    static const struct { enum outcome o; const char *word; int pass; } w[] = {
        {OUT_NOT_RUN, "NOT RUN", 0}, {OUT_PASS, "PASS", 1}, {OUT_PASS_UNTIMED, "PASS*", 1},
        {OUT_SLOW, "SLOW", 0}, {OUT_MECHANISM, "MECHANISM", 0}, {OUT_WRONG, "WRONG", 0},
        {OUT_COMPILE_ERROR, "COMPILE", 0}, {OUT_MISSING, "MISSING", 0},
        {OUT_CRASH, "CRASH", 0}, {OUT_HANG, "HANG", 0}, {OUT_RESOURCES, "RESOURCES", 0},
        {OUT_UNSUPPORTED, "SKIPPED", 0}, {OUT_NO_GPU, "NO GPU", 0},
        {OUT_INTERNAL, "INTERNAL", 0}, {OUT_REFUSED, "REFUSED", 0},
        {OUT_TOO_FAST, "TOO FAST", 0}, {OUT_CHECKED, "CHECKED", 0},
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        ck_assert_str_eq(outcome_word(w[i].o), w[i].word);
        ck_assert_int_eq(outcome_is_pass(w[i].o), w[i].pass);
    }
    ck_assert_str_eq(variant_name(V_BASELINE), "the baseline");
    ck_assert_str_eq(variant_name(V_STUDENT), "your kernel");
    ck_assert_str_eq(variant_name(V_SOLUTION), "the reference solution");
    ck_assert_str_eq(variant_name(N_VARIANTS), "?");
}
END_TEST

/* ---- the JSON record ---------------------------------------------------- */

static void expect_json(const char *name, const graded *g, int n, const char *want)
{
    char path[] = "/tmp/grader-lines-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(write_json_report(path, g, n, "lesson3"), 0);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = 0;
    fclose(f);
    unlink(path);
    same(name, text, want);
}

/* A timed, latency-bound record with every kind of check in every state,
 * every pattern diagnosed, resources known for two versions; then an
 * untimed demo with none of these. Numbers JSON cannot hold are null. */
START_TEST(json_records)
{
    exercise ex = ex_speed;
    ex.latency_bound = 1;
    ex.checks[0] = (mech_check){CHECK_PTX_HAS, "ld.shared", 0, NULL, "why"};
    ex.checks[1] = (mech_check){CHECK_PTX_LACKS, "ld.local", 0, NULL, "why"};
    ex.checks[2] = (mech_check){CHECK_MAX_LOCAL_BYTES, NULL, 0, NULL, "why"};
    ex.checks[3] = (mech_check){CHECK_SMEM_BYTES, NULL, 4096, NULL, "why"};
    ex.checks[4] = (mech_check){CHECK_MAX_REGS, NULL, 64, NULL, "why"};
    ex.checks[5] = (mech_check){CHECK_MIN_OCCUPANCY, NULL, 50, NULL, "why"};
    exercise demo = ex_bw;
    demo.demo = 1;
    graded g[4];
    memset(g, 0, sizeof g);
    g[0] = one(&ex, OUT_PASS, "Correct, and \"fast\".");
    timed(&g[0].r, 2.0, 0.5, 0.4, 2400);
    g[0].r.measure = 4.0, g[0].r.bar = 2.5, g[0].r.noise = 0.03125, g[0].r.remeasured = 1;
    g[0].r.latency_ns = 600, g[0].r.sm_count = 100;
    g[0].r.knobs[0] = 32, g[0].r.knobs[1] = 4, g[0].r.knobs[2] = 1;
    g[0].r.diags = DIAG_COPY_OF_LOAD | DIAG_WAIT_DEPTH_SWITCH | DIAG_MBARRIER_WAIT |
                   DIAG_L2_PREFETCH_IN_STEP | (1u << 31);
    snprintf(g[0].r.printed, sizeof g[0].r.printed, "x=1\n");
    g[0].r.printed_lines = 3, g[0].r.printed_bytes = 12;
    static const enum check_state st[] = {CS_HOLDS, CS_FAILS, CS_UNKNOWN, CS_HOLDS, CS_FAILS,
                                          CS_HOLDS};
    for (int i = 0; i < 6; i++)
        g[0].r.checks[i] = (check_result){st[i], "what\tit found"};
    g[0].r.res[V_BASELINE] = (resources){.known = 1, .regs = 1, .stack_bytes = 2,
                                         .spill_stores = 3, .spill_loads = 4, .smem_static = 5,
                                         .smem_dynamic = 6, .occupancy_pct = 7,
                                         .blocks_per_sm = 8, .launch_occupancy_pct = 3,
                                         .launch_blocks_per_sm = 4};
    g[0].r.res[V_SOLUTION] = (resources){.known = 1, .regs = 9, .occupancy_pct = -1};

    g[1] = one(&demo, OUT_MECHANISM, "Shown.");
    snprintf(g[1].r.detail, sizeof g[1].r.detail, "line 1\nline 2");
    g[1].r.diags = DIAG_MBARRIER_WAIT;

    /* Timed, with numbers past what JSON can say. */
    g[2] = one(&ex_match, OUT_SLOW, "");
    timed(&g[2].r, 1.0, 1.0, 1.0, 1.0);
    g[2].r.speedup = 1e300, g[2].r.ref_speedup = 1.1e300, g[2].r.measure = -1e300;
    g[2].r.bar = -1.1e300, g[2].r.noise = 0.0 / 0.0, g[2].r.copy_gbps = 1.0 / 0.0;
    g[2].r.time[V_STUDENT].gbps = -1.0 / 0.0;
    g[2].r.checks[0] = (check_result){CS_NOT_EVALUATED, "not shown"};
    /* Latency-bound, the latency known: no bytes in flight without a
     * bandwidth (and no share of them), none needed without a copy
     * bandwidth; figures under 1 byte are figures all the same. */
    exercise lat = ex_none;
    lat.latency_bound = 1;
    graded h[3] = {one(&lat, OUT_SLOW, ""), one(&lat, OUT_SLOW, ""), one(&lat, OUT_SLOW, "")};
    static const double gbps[3] = {0, 0.1, 0.1}, copy[3] = {3000, 0, 0.1};
    for (int k = 0; k < 3; k++) {
        timed(&h[k].r, 1.0, 1.0, 1.0, gbps[k]);
        h[k].r.copy_gbps = copy[k];
        h[k].r.latency_ns = 600, h[k].r.sm_count = 100;
    }
    expect_json("json-no-flight", h, 3,
        "{\n"
        "  \"mode\": \"lesson3\",\n"
        "  \"exercises\": [\n"
        "    {\"lesson\": 4, \"name\": \"free\", \"title\": \"No bar at all\", "
        "\"file\": \"lesson4/free.cu\", \"demo\": false, \"outcome\": \"SLOW\", "
        "\"passed\": false, \"message\": \"\", \"detail\": \"\", \"printed\": \"\", "
        "\"printed_lines\": 0, \"printed_bytes\": 0, \"diagnoses\": [], "
        "\"gpu\": \"NVIDIA H100 80GB HBM3\", \"compute_capability\": 90, \"seed\": 7, "
        "\"knobs\": {}, \"bar_kind\": \"none\", \"baseline_ms\": 1, \"student_ms\": 1, "
        "\"solution_ms\": 1, \"speedup\": 1, \"solution_speedup\": 1, \"measure\": 0, "
        "\"bar\": 0, \"student_gbps\": 0, \"copy_gbps\": 3000, \"noise\": 0, "
        "\"latency_ns\": 600, \"sm_count\": 100, \"in_flight_bytes_per_sm\": null, "
        "\"in_flight_needed_per_sm\": 18000, \"in_flight_share\": null, \"rounds\": 40, "
        "\"remeasured\": 0, \"checked_without_gpu\": false, \"simulated\": false, \"checks\": [], "
        "\"resources\": {\"baseline\": null, \"student\": null, \"solution\": null}"
        ", \"memory_counts\": null},\n"
        "    {\"lesson\": 4, \"name\": \"free\", \"title\": \"No bar at all\", "
        "\"file\": \"lesson4/free.cu\", \"demo\": false, \"outcome\": \"SLOW\", "
        "\"passed\": false, \"message\": \"\", \"detail\": \"\", \"printed\": \"\", "
        "\"printed_lines\": 0, \"printed_bytes\": 0, \"diagnoses\": [], "
        "\"gpu\": \"NVIDIA H100 80GB HBM3\", \"compute_capability\": 90, \"seed\": 7, "
        "\"knobs\": {}, \"bar_kind\": \"none\", \"baseline_ms\": 1, \"student_ms\": 1, "
        "\"solution_ms\": 1, \"speedup\": 1, \"solution_speedup\": 1, \"measure\": 0, "
        "\"bar\": 0, \"student_gbps\": 0.1, \"copy_gbps\": 0, \"noise\": 0, "
        "\"latency_ns\": 600, \"sm_count\": 100, \"in_flight_bytes_per_sm\": 0.6, "
        "\"in_flight_needed_per_sm\": null, \"in_flight_share\": null, \"rounds\": 40, "
        "\"remeasured\": 0, \"checked_without_gpu\": false, \"simulated\": false, \"checks\": [], "
        "\"resources\": {\"baseline\": null, \"student\": null, \"solution\": null}"
        ", \"memory_counts\": null},\n"
        "    {\"lesson\": 4, \"name\": \"free\", \"title\": \"No bar at all\", "
        "\"file\": \"lesson4/free.cu\", \"demo\": false, \"outcome\": \"SLOW\", "
        "\"passed\": false, \"message\": \"\", \"detail\": \"\", \"printed\": \"\", "
        "\"printed_lines\": 0, \"printed_bytes\": 0, \"diagnoses\": [], "
        "\"gpu\": \"NVIDIA H100 80GB HBM3\", \"compute_capability\": 90, \"seed\": 7, "
        "\"knobs\": {}, \"bar_kind\": \"none\", \"baseline_ms\": 1, \"student_ms\": 1, "
        "\"solution_ms\": 1, \"speedup\": 1, \"solution_speedup\": 1, \"measure\": 0, "
        "\"bar\": 0, \"student_gbps\": 0.1, \"copy_gbps\": 0.1, \"noise\": 0, "
        "\"latency_ns\": 600, \"sm_count\": 100, \"in_flight_bytes_per_sm\": 0.6, "
        "\"in_flight_needed_per_sm\": 0.6, \"in_flight_share\": 1, \"rounds\": 40, "
        "\"remeasured\": 0, \"checked_without_gpu\": false, \"simulated\": false, \"checks\": [], "
        "\"resources\": {\"baseline\": null, \"student\": null, \"solution\": null}"
        ", \"memory_counts\": null}\n"
        "  ]\n"
        "}\n");
    /* No bar, checked without a GPU. */
    g[3] = one(&ex_none, OUT_CHECKED, "Compiles.");
    g[3].r.no_gpu = 1;
    expect_json("json", g, 4,
        "{\n"
        "  \"mode\": \"lesson3\",\n"
        "  \"exercises\": [\n"
        "    {\"lesson\": 3, \"name\": \"matmul\", \"title\": \"Tiled matrix multiply\", "
        "\"file\": \"lesson3/matmul.cu\", \"demo\": false, \"outcome\": \"PASS\", "
        "\"passed\": true, \"message\": \"Correct, and \\\"fast\\\".\", \"detail\": \"\", "
        "\"printed\": \"x=1\\n\", \"printed_lines\": 3, \"printed_bytes\": 12, "
        "\"diagnoses\": [\"copy_of_pending_load\", \"run_time_wait_depth\", "
        "\"mbarrier_wait\", \"l2_prefetch_in_current_step\"], \"gpu\": \"NVIDIA H100 80GB "
        "HBM3\", \"compute_capability\": 90, \"seed\": 7, \"knobs\": {\"TILE\": 32, "
        "\"UNROLL\": 4, \"BLOCKDIMY\": 1, \"PREFETCHDISTANCE\": 0}, \"bar_kind\": "
        "\"speedup\", \"baseline_ms\": 2, \"student_ms\": 0.5, \"solution_ms\": 0.4, "
        "\"speedup\": 4, \"solution_speedup\": 5, \"measure\": 4, \"bar\": 2.5, "
        "\"student_gbps\": 2400, \"copy_gbps\": 3000, \"noise\": 0.03125, \"latency_ns\": "
        "600, \"sm_count\": 100, \"in_flight_bytes_per_sm\": 14400, "
        "\"in_flight_needed_per_sm\": 18000, \"in_flight_share\": 0.8, \"rounds\": 40, "
        "\"remeasured\": 1, \"checked_without_gpu\": false, \"simulated\": false, \"checks\": [{\"kind\": "
        "\"ptx_has\", \"state\": \"holds\", \"what\": \"what\\tit found\"}, {\"kind\": "
        "\"ptx_lacks\", \"state\": \"fails\", \"what\": \"what\\tit found\"}, {\"kind\": "
        "\"max_local_bytes\", \"state\": \"unknown\", \"what\": \"what\\tit found\"}, "
        "{\"kind\": \"smem_bytes\", \"state\": \"holds\", \"what\": \"what\\tit found\"}, "
        "{\"kind\": \"max_registers\", \"state\": \"fails\", \"what\": \"what\\tit found\"}, "
        "{\"kind\": \"min_occupancy\", \"state\": \"holds\", \"what\": \"what\\tit "
        "found\"}], \"resources\": {\"baseline\": {\"registers\": 1, \"stack_bytes\": 2, "
        "\"spill_stores\": 3, \"spill_loads\": 4, \"smem_static\": 5, \"smem_dynamic\": 6, "
        "\"occupancy_pct\": 7, \"blocks_per_sm\": 8, \"launch_occupancy_pct\": 3, "
        "\"launch_blocks_per_sm\": 4}, \"student\": null, \"solution\": {\"registers\": 9, "
        "\"stack_bytes\": 0, \"spill_stores\": 0, \"spill_loads\": 0, \"smem_static\": 0, "
        "\"smem_dynamic\": 0, \"occupancy_pct\": -1, \"blocks_per_sm\": 0, "
        "\"launch_occupancy_pct\": -1, \"launch_blocks_per_sm\": 0}}, \"memory_counts\": null},\n"
        "    {\"lesson\": 2, \"name\": \"copy\", \"title\": \"A coalesced copy\", \"file\": "
        "\"lesson2/copy.cu\", \"demo\": true, \"outcome\": \"MECHANISM\", \"passed\": false, "
        "\"message\": \"Shown.\", \"detail\": \"line 1\\nline 2\", \"printed\": \"\", "
        "\"printed_lines\": 0, \"printed_bytes\": 0, \"diagnoses\": [\"mbarrier_wait\"], "
        "\"gpu\": \"\", \"compute_capability\": 0, \"seed\": 0, \"knobs\": {}, \"bar_kind\": "
        "\"bandwidth\", \"checked_without_gpu\": false, \"simulated\": false, \"checks\": [], \"resources\": "
        "{\"baseline\": null, \"student\": null, \"solution\": null}, \"memory_counts\": null},\n"
        "    {\"lesson\": 3, \"name\": \"padded\", \"title\": \"Padding the tile\", "
        "\"file\": \"lesson3/padded.cu\", \"demo\": false, \"outcome\": \"SLOW\", "
        "\"passed\": false, \"message\": \"\", \"detail\": \"\", \"printed\": \"\", "
        "\"printed_lines\": 0, \"printed_bytes\": 0, \"diagnoses\": [], \"gpu\": \"NVIDIA "
        "H100 80GB HBM3\", \"compute_capability\": 90, \"seed\": 7, \"knobs\": {}, "
        "\"bar_kind\": \"match_solution\", \"baseline_ms\": 1, \"student_ms\": 1, "
        "\"solution_ms\": 1, \"speedup\": 1e+300, \"solution_speedup\": null, \"measure\": "
        "-1e+300, \"bar\": null, \"student_gbps\": null, \"copy_gbps\": null, \"noise\": "
        "null, \"rounds\": 40, \"remeasured\": 0, \"checked_without_gpu\": false, \"simulated\": false, "
        "\"checks\": [], \"resources\": {\"baseline\": null, \"student\": null, "
        "\"solution\": null}, \"memory_counts\": null},\n"
        "    {\"lesson\": 4, \"name\": \"free\", \"title\": \"No bar at all\", \"file\": "
        "\"lesson4/free.cu\", \"demo\": false, \"outcome\": \"CHECKED\", \"passed\": false, "
        "\"message\": \"Compiles.\", \"detail\": \"\", \"printed\": \"\", \"printed_lines\": "
        "0, \"printed_bytes\": 0, \"diagnoses\": [], \"gpu\": \"\", \"compute_capability\": "
        "0, \"seed\": 0, \"knobs\": {}, \"bar_kind\": \"none\", \"checked_without_gpu\": "
        "true, \"simulated\": false, \"checks\": [], \"resources\": {\"baseline\": null, \"student\": null, "
        "\"solution\": null}, \"memory_counts\": null}\n"
        "  ]\n"
        "}\n");
    /* None at all. */
    expect_json("json-empty", g, 0,
        "{\n"
        "  \"mode\": \"lesson3\",\n"
        "  \"exercises\": [\n"
        "  ]\n"
        "}\n");
}
END_TEST

Suite *report_lines_suite(void)
{
    Suite *s = suite_create("report_lines");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, table_every_column);
    tcase_add_test(tc, table_narrows_column_by_column);
    tcase_add_test(tc, table_keeps_three_columns);
    tcase_add_test(tc, table_bar_of_a_slow_copy);
    tcase_add_test(tc, table_colours);
    tcase_add_test(tc, table_of_nothing);
    tcase_add_test(tc, table_row_has_its_cells_only);
    tcase_add_test(tc, table_labels_a_demo);
    tcase_add_test(tc, table_names_the_sizes);
    tcase_add_test(tc, table_without_memory);
    tcase_add_test(tc, paragraph_never_starts_empty);
    tcase_add_test(tc, bytes_in_words);
    suite_add_tcase(s, tc);
    tc = tcase_create("width");
    tcase_add_test(tc, width_from_columns);
    tcase_add_test(tc, width_from_terminal);
    suite_add_tcase(s, tc);
    tc = tcase_create("header");
    tcase_add_test(tc, header_lines);
    tcase_add_test(tc, header_without_gpu);
    suite_add_tcase(s, tc);
    tc = tcase_create("explanations");
    tcase_add_test(tc, explain_wrong);
    tcase_add_test(tc, explain_unwritten_read);
    tcase_add_test(tc, explain_crash_and_hang);
    tcase_add_test(tc, explain_pass);
    tcase_add_test(tc, explain_mechanism);
    tcase_add_test(tc, explain_checked);
    tcase_add_test(tc, explain_no_checks);
    tcase_add_test(tc, explain_kernel_output);
    tcase_add_test(tc, explain_detail_wrapped);
    tcase_add_test(tc, explain_in_flight);
    tcase_add_test(tc, explain_colours);
    tcase_add_test(tc, explain_long_head);
    suite_add_tcase(s, tc);
    tc = tcase_create("summary");
    tcase_add_test(tc, summary_progress_wraps);
    tcase_add_test(tc, summary_counts);
    tcase_add_test(tc, summary_without_gpu);
    tcase_add_test(tc, outcome_and_variant_words);
    suite_add_tcase(s, tc);
    tc = tcase_create("json");
    tcase_add_test(tc, json_records);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, report_counts_tcase());
    return s;
}
