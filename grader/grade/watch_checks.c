/* watch_checks.c: mechanism checks judged on the data watch (watch_checks.h). */
#include <stdio.h>
#include <string.h>
#include "watch_checks.h"
#include "watch_rules.h"

void watch_judge_checks(const exercise *ex, const int *knobs, result *r)
{
    for (int i = 0; i < MAX_CHECKS && ex->checks[i].kind != CHECK_NONE; i++) {
        check_result *cr = &r->checks[i];
        if (ex->checks[i].knock == KNOCK_NONE || cr->state != CS_HOLDS)
            continue;
        size_t n = strlen(cr->what);
        if (!r->watch.watched) {
            snprintf(cr->what + n, sizeof cr->what - n,
                     " (whether it carries the data needs a GPU: not judged)");
            continue;
        }
        char figures[sizeof cr->what];
        if (watch_rule(&ex->checks[i], knobs, &r->watch, figures, sizeof figures) != 0) {
            cr->state = CS_FAILS;
            snprintf(cr->what, sizeof cr->what, "on the PTX simulator %.480s", figures);
        } else {
            snprintf(cr->what + n, sizeof cr->what - n, ", and on the PTX simulator %.480s",
                     figures);
        }
    }
}
