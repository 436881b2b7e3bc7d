/* cmd_static.c: the commands that grade nothing: `grader list` (every
 * exercise, its files and knobs) and `grader static` (every version
 * compiled with NVRTC for two GPU generations, every mechanism check run;
 * no GPU needed, make static). */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "mechanism.h"
#include "nogpu.h"
#include "static_check.h"

int cmd_list(const options *o)
{
    const exercise *sel[MAX_SELECTED];
    int n = select_exercises(o, sel);
    if (n == 0 && o->only) {
        no_such_exercise(o);
        return EXIT_USAGE;
    }
    for (int i = 0; i < n; i++) {
        const exercise *ex = sel[i];
        printf("lesson%d/%-20s %s\n", ex->lesson, ex->name, ex->title);
        if (ex->demo)
            printf("    demo:     grader/demos/%s (shown for what it teaches; not graded, "
                   "nothing to edit)\n", ex->file);
        else
            printf("    edit:     %s/%s\n", o->g.student_dir, ex->file);
        printf("    lesson:   %s\n", ex->explained_in ? ex->explained_in : "-");
        for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
            printf("    knob:     %s=%d (%d..%d) %s\n", ex->knobs[k].name, ex->knobs[k].def,
                   ex->knobs[k].min, ex->knobs[k].max, ex->knobs[k].what);
    }
    return 0;
}

/* "14 regs, 0 B local, 48.0 KB smem, 25% occupancy" */
static void resources_text(const resources *r, char *buf, size_t len)
{
    char smem[16], local[16];
    human_bytes(smem, sizeof smem, r->smem_static + r->smem_dynamic);
    human_bytes(local, sizeof local, r->stack_bytes + r->spill_stores);
    int at = snprintf(buf, len, "%d regs, %s local, %s smem", r->regs, local, smem);
    if (r->occupancy_pct >= 0 && at > 0 && (size_t)at < len)
        snprintf(buf + at, len - (size_t)at, ", %d%% occupancy", r->occupancy_pct);
}

/* static: the course's own files must compile and the solutions hold their
 * mechanisms (that decides the exit status); the graded folder's files are
 * shown with the verdict they get without a GPU, labelled as whose they are. */
int cmd_static(const options *o)
{
    const exercise *sel[MAX_SELECTED];
    int n = select_checked(o, sel), bad = 0, theirs_failed = 0;
    if (n < 0)
        return EXIT_USAGE;
    int color = want_color(stdout);
    const char *whose = !strcmp(o->g.student_dir, "exercises") ? "yours"
                      : !strcmp(o->g.student_dir, "solutions") ? "solutions"
                      : o->g.student_dir;
    for (int i = 0; i < n; i++) {
        const exercise *ex = sel[i];
        int knobs[MAX_KNOBS];
        char msg[8192], res_text[128];
        knob_values_for(ex, &o->ks, knobs);
        /* The calibration GPU, and the oldest generation the exercise allows. */
        int ccs[2] = {NO_GPU_CC, ex->min_cc > 75 ? ex->min_cc : 75};
        for (int c = 0; c < 2; c++) {
            resources res = {0};
            int r = static_check_exercise(ex, knobs, &o->g, ccs[c], msg, sizeof msg, &res);
            printf("%s%-5s%s lesson%d/%-24s sm_%d", color ? (r ? "\033[31m" : "\033[32m") : "",
                   r ? "FAIL" : "ok", color ? "\033[0m" : "", ex->lesson, ex->name, ccs[c]);
            const char *label = ex->demo ? "demo" : whose;
            if (c == 0) {
                result v;
                check_without_gpu(ex, knobs, &o->g, &v);
                resources_text(&v.res[V_STUDENT], res_text, sizeof res_text);
                printf("  %s: %s", label, outcome_word(v.outcome));
                if (v.res[V_STUDENT].known)
                    printf(" (%s)", res_text);
                int f = -1;
                for (int k = 0; k < MAX_CHECKS && f < 0; k++)
                    f = v.checks[k].state == CS_FAILS ? k : -1;
                if (f >= 0)
                    printf("\n      %s", v.checks[f].what);
                theirs_failed += !ex->demo && !outcome_holds_without_gpu(v.outcome);
            } else if (res.known) {
                res.occupancy_pct = -1;
                resources_text(&res, res_text, sizeof res_text);
                printf("  %s: %s", label, res_text);
            }
            printf("\n");
            if (r) {
                printf("%s", msg);
                bad++;
            }
        }
    }
    printf("%d passed, %d failed (the course's files: every version compiles, every solution "
           "holds its mechanisms)\n", 2 * n - bad, bad);
    if (theirs_failed)
        printf("%d of %s files not CHECKED without a GPU (shown, not counted: an untouched "
               "stub is expected to fail its mechanism checks)\n", theirs_failed,
               !strcmp(whose, "yours") ? "your" : whose);
    return bad ? 1 : 0;
}
