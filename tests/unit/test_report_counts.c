/* test_report_counts.c: memory counts by line in the report
 * (report/report_counts.h): the lines shown under a row (the worst first,
 * at most three, only those at 1.5x their best or more, cut to the width),
 * the one line when none is, and every instruction in the JSON. Part of
 * the `report_lines` suite:
 *
 *   CK_RUN_SUITE=report_lines build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_counts.h"
#include "suites.h"

static mem_count_row row(unsigned line, int space, const char *op, double req, double units,
                         double ideal)
{
    mem_count_row r = {.line = line, .space = space, .requests = req, .units = units,
                       .ideal = ideal};
    snprintf(r.op, sizeof r.op, "%s", op);
    return r;
}

static mem_counts counts_of(const mem_count_row *rows, int n)
{
    mem_counts mc = {.counted = 1, .size = 4097, .blocks_run = 17, .blocks_total = 17, .n = n};
    memcpy(mc.row, rows, (size_t)n * sizeof *rows);
    return mc;
}

typedef struct counts_case {
    const char *name;
    mem_count_row rows[6];
    int n;
    int width;
    const char *want;
} counts_case;

static const char head[] = "  memory by line (PTX simulator, size 4097, 17 of 17 blocks):\n";
static const char head40[] = "  memory by line (PTX simulator, size 4\n";

static const counts_case cases[] = {
    {"the worst three, worst first; one a line of two instructions, summed",
     {{12, MS_GLOBAL, "ld.global.f32", 100, 3200, 400},
      {12, MS_GLOBAL, "st.global.f32", 100, 400, 400},
      {20, MS_SHARED, "ld.shared.f32", 50, 1600, 50},
      {20, MS_SHARED, "ld.shared.f32", 50, 1600, 50},
      {21, MS_SHARED, "st.shared.f32", 100, 200, 100},
      {30, MS_GLOBAL, "ld.global.f32", 100, 500, 400}}, 6, 100,
     "    line 20   shared load    32.0-way: 32.0 wavefronts/request (best 1.0), 100 requests\n"
     "    line 12   global load    32.0 sectors/request (best 4.0), 100 requests\n"
     "    line 21   shared store    2.0-way: 2.0 wavefronts/request (best 1.0), 100 requests\n"},
    {"under 1.5x its best is not shown; the line that says so",
     {{30, MS_GLOBAL, "ld.global.f32", 100, 500, 400},
      {31, MS_SHARED, "cp.async.cg.shared.global", 100, 100, 100}}, 2, 100,
     "    no line fetches 1.5x the sectors its bytes need, no 1.5-way bank conflict\n"},
    {"cut to the width", {{7, MS_GLOBAL, "atom.global.add.u32", 10, 320, 40}}, 1, 40,
     "    line 7    global atomic  32.0 secto\n"},
};

static char *printed(const mem_counts *mc, int width)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    print_mem_counts(f, mc, width, 0);
    fclose(f);
    return buf;
}

START_TEST(lines_under_a_row)
{
    const counts_case *c = &cases[_i];
    mem_counts mc = counts_of(c->rows, c->n);
    char *got = printed(&mc, c->width), want[1024];
    snprintf(want, sizeof want, "%s%s", c->width < 60 ? head40 : head, c->want);
    ck_assert_msg(!strcmp(got, want), "%s:\ngot:\n%swant:\n%s", c->name, got, want);
    free(got);
}
END_TEST

/* Not counted (a GPU run without a simulated launch): nothing under the
 * row, null in the JSON. */
START_TEST(nothing_when_not_counted)
{
    mem_counts mc = {0};
    char *got = printed(&mc, 100);
    ck_assert_str_eq(got, "");
    free(got);
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    json_mem_counts(f, &mc);
    fclose(f);
    ck_assert_str_eq(buf, "null");
    free(buf);
}
END_TEST

/* The JSON lists every instruction, the wasteless ones too. */
START_TEST(json_every_instruction)
{
    mem_count_row rows[2] = {row(12, MS_GLOBAL, "ld.global.v4.f32", 8, 128, 128),
                             row(20, MS_SHARED, "st.shared.f32", 8, 16, 8)};
    mem_counts mc = counts_of(rows, 2);
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    json_mem_counts(f, &mc);
    fclose(f);
    ck_assert_str_eq(buf, "{\"size\": 4097, \"blocks_run\": 17, \"blocks_total\": 17, "
                     "\"dropped\": 0, \"rows\": [{\"line\": 12, \"op\": \"ld.global.v4.f32\", "
                     "\"space\": \"global\", \"requests\": 8, \"sectors\": 128, \"ideal\": 128}, "
                     "{\"line\": 20, \"op\": \"st.shared.f32\", \"space\": \"shared\", "
                     "\"requests\": 8, \"wavefronts\": 16, \"ideal\": 8}]}");
    free(buf);
}
END_TEST

TCase *report_counts_tcase(void)
{
    TCase *tc = tcase_create("memory counts");
    tcase_add_loop_test(tc, lines_under_a_row, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, nothing_when_not_counted);
    tcase_add_test(tc, json_every_instruction);
    return tc;
}
