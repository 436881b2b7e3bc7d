/* test_progress_hand.c: the course map made from a progress file the
 * student edited by hand (it is plain text, read with atof and no caps):
 * a huge speedup is cut to the room of one result, an empty verdict still
 * names the GPU and the date. Files go to /tmp.
 * Run: CK_RUN_SUITE=progress_hand build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "progress.h"
#include "suites.h"

#define GPU "NVIDIA H100 80GB HBM3"

/* A progress file with `text`, loaded into p. */
static void load_text(progress *p, const char *text)
{
    char path[] = "/tmp/grader-progress-hand-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
    ck_assert_int_eq(progress_load(path, p), 0);
    unlink(path);
}

static char *map_of(const progress *p)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    progress_print(f, p, "mine", 0, 400);
    fclose(f);
    return buf;
}

/* The whole line `line` is in the map. */
static void has_line(const char *map, const char *line)
{
    char want[1024];
    snprintf(want, sizeof want, "\n%s\n", line);
    ck_assert_msg(strstr(map, want) != NULL, "the map lacks the line '%s':\n%s", line, map);
}

/* "PASS 1e40x" is 50 characters; one result keeps its first 47, the best
 * and the latest each, before the GPU and the date. */
START_TEST(huge_speedup_cut_to_47)
{
    const char *big = "PASS 10000000000000000303786028427003666890752.00x";
    ck_assert_int_eq((int)strlen(big), 50);
    progress p = {0};
    load_text(&p, "lesson0/saxpy\t" GPU "\tbest\tPASS\t1e40\t2026-11-20 10:00\t\n"
                  "lesson0/saxpy\t" GPU "\tlatest\tPASS\t1e40\t2026-11-21 10:00\t\n");
    char *m = map_of(&p);
    char line[512];
    snprintf(line, sizeof line, "  passed     saxpy           %.47s on " GPU ", 2026-11-21 10:00",
             big);
    has_line(m, line);
    free(m);
    progress_free(&p);
    /* Best and latest differ: each is cut on its own. */
    const char *big2 = "PASS 20000000000000000607572056854007333781504.00x";
    load_text(&p, "lesson0/saxpy\t" GPU "\tbest\tPASS\t1e40\t2026-11-20 10:00\t\n"
                  "lesson0/saxpy\t" GPU "\tlatest\tPASS\t2e40\t2026-11-21 10:00\t\n");
    m = map_of(&p);
    snprintf(line, sizeof line,
             "  passed     saxpy           best %.47s, latest %.47s, on " GPU
             ", 2026-11-21 10:00", big, big2);
    has_line(m, line);
    free(m);
    progress_free(&p);
}
END_TEST

/* An empty verdict field: the result text is empty, and the GPU and the
 * date still follow it. */
START_TEST(empty_verdict_still_names_gpu)
{
    progress p = {0};
    load_text(&p, "lesson0/saxpy\t" GPU "\tbest\t\t-\t2026-11-20 10:00\t\n"
                  "lesson0/saxpy\tno GPU\tbest\t\t-\t2026-11-22 10:00\t\n");
    char *m = map_of(&p);
    has_line(m, "  tried      saxpy            on " GPU ", 2026-11-20 10:00");
    has_line(m, "                              without a GPU, 2026-11-22 10:00");
    free(m);
    progress_free(&p);
}
END_TEST

Suite *progress_hand_suite(void)
{
    Suite *s = suite_create("progress_hand");
    TCase *tc = tcase_create("hand_edited");
    tcase_add_test(tc, huge_speedup_cut_to_47);
    tcase_add_test(tc, empty_verdict_still_names_gpu);
    suite_add_tcase(s, tc);
    return s;
}
