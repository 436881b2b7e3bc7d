/* watch_rules.c: mechanism checks judged on what the PTX simulator watched
 * (watch_rules.h says each rule and why its threshold is what it is). */
#include <stdio.h>
#include <string.h>
#include "watch_rules.h"

static double pct(double part, double whole) { return whole > 0 ? 100 * part / whole : 0; }

static double live_total(const watch_facts *f)
{
    double t = 0;
    for (int p = 0; p < WP_N; p++)
        t += f->live_bytes[p];
    return t;
}

double watch_path_pct(enum knock_kind k, const watch_facts *f)
{
    const double *b = f->live_bytes;
    switch (k) {
    case KNOCK_ASYNC: return pct(b[WP_ASYNC] + b[WP_BULK], live_total(f));
    case KNOCK_BULK: return pct(b[WP_BULK], live_total(f));
    case KNOCK_VECTOR: return pct(b[WP_LOAD_V16], b[WP_LOAD] + b[WP_LOAD_V16]);
    case KNOCK_CONST: return pct(b[WP_CONST], b[WP_CONST] + f->live_uniform_bytes);
    case KNOCK_SHARED: return f->staged_pct > 0 ? f->staged_pct : 0;
    case KNOCK_NONE: case KNOCK_PREFETCH: break;
    }
    return -1;
}

/* What the kind's share is a share of, and by which path, in words. */
static const char *path_words(enum knock_kind k)
{
    switch (k) {
    case KNOCK_ASYNC: return "of the live input bytes arrived by cp.async or bulk "
                             "copies";
    case KNOCK_BULK: return "of the live input bytes arrived by bulk copies (cp.async.bulk)";
    case KNOCK_VECTOR: return "of the live bytes loaded from global memory came by 16-byte "
                              "vector loads";
    case KNOCK_CONST: return "of the live reads that every lane of a warp makes at one address "
                             "(the table) came from the constant bank (ld.const)";
    case KNOCK_SHARED: return "of the live input bytes reached their use through shared "
                              "memory";
    case KNOCK_NONE: case KNOCK_PREFETCH: break;
    }
    return "";
}

/* The prefetch rule: 0 holds, 1 fails; the figures in buf, a failing one
 * first. */
static int prefetch_rule(const watch_facts *f, char *buf, size_t len)
{
    if (f->prefetch_served_pct < 0) {
        snprintf(buf, len, "no prefetch.global.L2 ran");
        return 1;
    }
    double lead = f->prefetch_lead < 0 ? 0 : f->prefetch_lead;
    int served_ok = f->prefetch_served_pct >= WATCH_MIN_SERVED_PCT;
    int lead_ok = lead >= WATCH_MIN_LEAD;
    char served[120], ahead[120];
    snprintf(served, sizeof served, "%s%.0f%% of the live loads found their line prefetched "
             "(at least %.0f%%)", served_ok ? "" : "only ", f->prefetch_served_pct,
             WATCH_MIN_SERVED_PCT);
    snprintf(ahead, sizeof ahead, "the prefetches ran a median of %.0f fetches ahead of the "
             "loads they served (at least %.0f)", lead, WATCH_MIN_LEAD);
    if (served_ok && !lead_ok)
        snprintf(buf, len, "%s; %s", ahead, served);
    else
        snprintf(buf, len, "%s; %s", served, ahead);
    return !(served_ok && lead_ok);
}

/* Append "; " and a clause to buf. */
static void add(char *buf, size_t len, const char *clause)
{
    size_t n = strlen(buf);
    snprintf(buf + n, len - n, "%s%s", n ? "; " : "", clause);
}

int watch_rule(const mech_check *ch, const int *knobs, const watch_facts *f, char *what,
               size_t len)
{
    char path[256] = "", wait[160] = "", room[160] = "";
    int fails = 0;
    what[0] = 0;
    if (ch->knock == KNOCK_NONE)
        return 0;
    if (ch->knock == KNOCK_PREFETCH) {
        fails = prefetch_rule(f, path, sizeof path);
    } else {
        double share = watch_path_pct(ch->knock, f);
        fails = share < WATCH_MIN_PATH_PCT;
        snprintf(path, sizeof path, "%s%.0f%% %s (at least %.0f%%)",
                 fails ? "only " : "", share, path_words(ch->knock), WATCH_MIN_PATH_PCT);
    }
    if (ch->min_wait) {
        long want = ch->min_wait(knobs);
        int short_wait = f->wait_fetches < (double)want;
        if (f->wait_fetches < 0)
            snprintf(wait, sizeof wait, "no live value waited in shared memory (at least "
                     "%s = %ld iterations)", ch->min_wait_what, want);
        else
            snprintf(wait, sizeof wait, "values waited a median of %.0f iterations in "
                     "shared memory (at least %s = %ld)",
                     f->wait_fetches, ch->min_wait_what, want);
        fails |= short_wait << 1;
    }
    if (ch->kind == CHECK_SMEM_BYTES) {
        double used = f->smem_live_pct < 0 ? 0 : f->smem_live_pct;
        snprintf(room, sizeof room, "%.0f%% of the block's shared memory carried live data "
                 "(at least %.0f%%)", used, WATCH_MIN_SMEM_PCT);
        fails |= (used < WATCH_MIN_SMEM_PCT) << 2;
    }
    /* the failing figure first, so the sentence after "but" says it */
    const char *part[3] = {path, wait, room};
    int order[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++)
        if (fails >> i & 1) {
            order[0] = i;
            order[i] = 0;
            break;
        }
    for (int i = 0; i < 3; i++)
        if (part[order[i]][0])
            add(what, len, part[order[i]]);
    return fails != 0;
}
