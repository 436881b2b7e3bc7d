/* class_gradebook.c: gradebook.csv, a row per student, in the order an
 * instructor pastes into a spreadsheet: who, the total, then per exercise
 * its verdict and speedup, then anything to look at. */
#include <stdio.h>
#include <string.h>
#include "class.h"

static void notes(const class_run *run, const class_student *st, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    if (!class_graded(st)) {
        snprintf(buf, len, "%s", st->why_not);
        return;
    }
    if (!st->nfound)
        o += snprintf(buf + o, len - o, "no exercise file found; ");
    if (st->cached)
        o += snprintf(buf + o, len - o, "unchanged since its last grade; ");
    if (st->nrefused && o < len)
        o += snprintf(buf + o, len - o, "%d entr%s refused; ", st->nrefused,
                      st->nrefused > 1 ? "ies" : "y");
    if (st->error[0] && o < len)
        o += snprintf(buf + o, len - o, "not read whole: %s; ", st->error);
    if (st->budget_hit && o < len)
        o += snprintf(buf + o, len - o, "time budget (%.0f s) ran out; ", run->budget_s);
    if (o >= 2 && o < len)
        buf[o - 2] = 0;
}

int class_write_gradebook(const class_run *run)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/gradebook.csv", run->out);
    FILE *f = out_open(path);
    if (!f)
        return -1;
    fputs("student,passed,out_of", f);
    for (int i = 0; i < run->nex; i++) {
        char id[96];
        snprintf(id, sizeof id, "lesson%d/%s", run->ex[i]->lesson, run->ex[i]->name);
        fputc(',', f);
        csv_field(f, id);
        fputc(',', f);
        strncat(id, " speedup", sizeof id - strlen(id) - 1);
        csv_field(f, id);
    }
    fputs(",refused_entries,graded_at,gpu,entry,notes\r\n", f);
    for (int s = 0; s < run->nst; s++) {
        const class_student *st = &run->st[s];
        csv_field(f, st->name);
        fprintf(f, ",%d,%d", st->passed, st->counted);
        for (int i = 0; i < run->nex; i++) {
            const class_cell *c = &st->cell[i];
            fputc(',', f);
            csv_field(f, class_graded(st) ? outcome_word(c->outcome) : "NOT GRADED");
            if (c->timed)
                fprintf(f, ",%.2f", c->speedup);
            else
                fputc(',', f);
        }
        char n[512];
        notes(run, st, n, sizeof n);
        fprintf(f, ",%d,", st->nrefused);
        csv_field(f, st->graded_at);
        fputc(',', f);
        char gpu[160];
        snprintf(gpu, sizeof gpu, "%s", st->gpu);
        if (st->gpu[0] && st->gpu_index >= 0)
            snprintf(gpu, sizeof gpu, "%.120s (device %d)", st->gpu, st->gpu_index);
        csv_field(f, gpu);
        fputc(',', f);
        csv_field(f, st->entry);
        fputc(',', f);
        csv_field(f, n);
        fputs("\r\n", f);
    }
    return out_commit(f, path);
}
