/* knobs.c: checking knob settings and saying what was meant. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "knobs.h"
#include "suggest.h"

/* The Makefile's own options (Makefile: MAKE_OPTIONS): never forwarded as
 * knobs, but named here so `only=matmul` can be told it means ONLY. */
static const char *const make_options[] = {
    "ONLY", "SEED", "TIMEOUT", "NCU", "SANITIZE", "STUDENT_DIR", "CUDA_HOME", NULL,
};

int knob_settings_add(knob_settings *ks, const char *arg, char *err, size_t len)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || eq - arg >= (long)sizeof ks->set[0].name ||
        strlen(eq + 1) >= sizeof ks->set[0].value) {
        snprintf(err, len, "a knob is set as NAME=VALUE (e.g. TILE=16); got '%s'", arg);
        return -1;
    }
    int i = 0;
    while (i < ks->n && (strncmp(ks->set[i].name, arg, (size_t)(eq - arg)) ||
                         ks->set[i].name[eq - arg]))
        i++;
    if (i == MAX_SETS) {
        snprintf(err, len, "more than %d knobs set", MAX_SETS);
        return -1;
    }
    snprintf(ks->set[i].name, sizeof ks->set[i].name, "%.*s", (int)(eq - arg), arg);
    snprintf(ks->set[i].value, sizeof ks->set[i].value, "%s", eq + 1);
    if (i == ks->n)
        ks->n++;
    return 0;
}

static const knob *find_knob(const exercise *ex, const char *name)
{
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        if (!strcmp(ex->knobs[k].name, name))
            return &ex->knobs[k];
    return NULL;
}

/* Text appended to buf at *at, never past len. */
static void add(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    if (*at >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    *at = w < 0 ? len : *at + (size_t)w;
}

/* "lesson3" or "lessons 3 and 9" or "lessons 0 to 10": what is being graded. */
static void name_lessons(const exercise *const *sel, int n, char *buf, size_t len)
{
    int seen[64] = {0}, count = 0, lo = -1, hi = -1;
    for (int i = 0; i < n; i++)
        if (sel[i]->lesson < 64 && !seen[sel[i]->lesson]++) {
            count++;
            lo = lo < 0 || sel[i]->lesson < lo ? sel[i]->lesson : lo;
            hi = sel[i]->lesson > hi ? sel[i]->lesson : hi;
        }
    size_t at = 0;
    if (count == 1) {
        add(buf, len, &at, "lesson%d", lo);
        return;
    }
    if (count == hi - lo + 1 && count > 2) {
        add(buf, len, &at, "lessons %d to %d", lo, hi);
        return;
    }
    add(buf, len, &at, "lessons");
    for (int l = 0, k = 0; l < 64; l++)
        if (seen[l]) {
            k++;
            add(buf, len, &at, "%s%d", k == 1 ? " " : k == count ? " and " : ", ", l);
        }
}

/* "TILE (matmul), PDIST (rolling_regs, ...)": the knobs of sel, each once. */
static void list_knobs(const exercise *const *sel, int n, char *buf, size_t len)
{
    size_t at = 0;
    const char *done[64];
    int nd = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < MAX_KNOBS && sel[i]->knobs[k].name; k++) {
            const char *name = sel[i]->knobs[k].name;
            int dup = 0;
            for (int d = 0; d < nd; d++)
                dup |= !strcmp(done[d], name);
            if (dup || nd == 64)
                continue;
            done[nd++] = name;
            add(buf, len, &at, "%s%s (", at ? ", " : "", name);
            for (int j = 0, m = 0; j < n; j++)
                if (find_knob(sel[j], name))
                    add(buf, len, &at, "%s%s", m++ ? ", " : "", sel[j]->name);
            add(buf, len, &at, ")");
        }
}

/* Every knob name of sel, for closest_name(); NULL-terminated. */
static int knob_names(const exercise *const *sel, int n, const char **out, int max)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < MAX_KNOBS && sel[i]->knobs[k].name && m < max - 1; k++) {
            int dup = 0;
            for (int d = 0; d < m; d++)
                dup |= !strcmp(out[d], sel[i]->knobs[k].name);
            if (!dup)
                out[m++] = sel[i]->knobs[k].name;
        }
    out[m] = NULL;
    return m;
}

/* The whole course's exercises, for "the knob belongs to lesson N". */
static int all_exercises(const exercise **out, int max)
{
    int n = 0;
    for (int l = 0; l < N_LESSONS; l++)
        for (const exercise *const *e = lesson_exercises[l]; e && *e && n < max; e++)
            out[n++] = *e;
    return n;
}

/* A name that is no knob of sel: say what it might have meant. */
static void unknown_name(const knob_setting *s, const exercise *const *sel, int n,
                         char *err, size_t len)
{
    char lessons[128], knobs[512];
    const char *names[64];
    name_lessons(sel, n, lessons, sizeof lessons);
    list_knobs(sel, n, knobs, sizeof knobs);
    knob_names(sel, n, names, 64);
    size_t at = 0;
    add(err, len, &at, "%s=%s: ", s->name, s->value);

    const char *near = closest_name(s->name, names);
    const char *opt = closest_name(s->name, make_options);
    if (near && !strcasecmp(near, s->name)) {
        add(err, len, &at, "knob names are upper case: %s=%s.", near, s->value);
        return;
    }
    if (opt && !strcasecmp(opt, s->name)) {
        add(err, len, &at, "make's options are upper case: %s=%s.", opt, s->value);
        return;
    }
    /* A knob of another lesson, in any case. */
    static const exercise *all[256];
    int na = all_exercises(all, 256), lessons_with[N_LESSONS] = {0}, found = 0;
    const char *real = NULL;
    for (int i = 0; i < na; i++)
        for (int k = 0; k < MAX_KNOBS && all[i]->knobs[k].name; k++)
            if (!strcasecmp(all[i]->knobs[k].name, s->name)) {
                real = all[i]->knobs[k].name;
                found += !lessons_with[all[i]->lesson]++;
            }
    if (knobs[0])
        add(err, len, &at, "%s is not a knob of %s, whose knobs are %s.", s->name, lessons,
            knobs);
    else
        add(err, len, &at, "%s has no knobs.", lessons);
    if (real && found == 1) {
        for (int l = 0; l < N_LESSONS; l++)
            if (lessons_with[l])
                add(err, len, &at, " %s is a knob of lesson%d: make check lesson%d %s=%s.",
                    real, l, l, real, s->value);
    } else if (real) {
        add(err, len, &at, " %s is a knob of lessons", real);
        for (int l = 0, k = 0; l < N_LESSONS; l++)
            if (lessons_with[l]) {
                k++;
                add(err, len, &at, "%s%d", k == 1 ? " " : k == found ? " and " : ", ", l);
            }
        add(err, len, &at, ": make check lessonN %s=%s with one of them.", real, s->value);
    } else if (near) {
        add(err, len, &at, " Did you mean %s=%s?", near, s->value);
    } else if (opt) {
        add(err, len, &at, " Did you mean %s=%s?", opt, s->value);
    } else {
        add(err, len, &at, " Nor is it an option of make check (make help lists them).");
    }
}

/* The allowed values of kn, as a phrase: "a power of two from 8 to 32". */
static void allowed(const knob *kn, char *buf, size_t len)
{
    snprintf(buf, len, "%s from %d to %d", kn->power_of_two ? "a power of two" :
             "a whole number", kn->min, kn->max);
}

static int check_value(const knob_setting *s, const exercise *ex, const knob *kn, char *err,
                       size_t len)
{
    char range[96], *end;
    allowed(kn, range, sizeof range);
    errno = 0;
    long v = strtol(s->value, &end, 10);
    if (!s->value[0] || *end || v < -1000000000L || v > 1000000000L) {
        snprintf(err, len, "%s=%s: %s takes a whole number; for lesson%d/%s, %s (%s).",
                 s->name, s->value, s->name, ex->lesson, ex->name, range, kn->what);
        return -1;
    }
    if (v < kn->min || v > kn->max || (kn->power_of_two && (v & (v - 1)))) {
        snprintf(err, len, "%s=%ld is not allowed for lesson%d/%s: %s must be %s (%s). "
                 "Nothing was graded.", s->name, v, ex->lesson, ex->name, s->name, range,
                 kn->what);
        return -1;
    }
    return 0;
}

/* The most static shared memory a block may declare: 48 KB on every GPU
 * (more needs dynamic shared memory and an opt-in). */
#define STATIC_SMEM_MAX 49152L

/* Each knob of ex that a setting names, "STAGES=8 BLOCKDIMX=256". */
static void knobs_set_text(const knob_settings *ks, const exercise *ex, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int s = 0; s < ks->n; s++)
        if (find_knob(ex, ks->set[s].name))
            add(buf, len, &at, "%s%s=%s", at ? " " : "", ks->set[s].name, ks->set[s].value);
}

/* The knobs together, once each is in its range: the shared memory they
 * make a block declare (the spec's knob_smem, or its shared-memory check's
 * size) must fit in 48 KB, or the kernel would not compile. 0, or -1 with
 * err in the style of check_value. */
static int check_combination(const knob_settings *ks, const exercise *ex, char *err,
                             size_t len)
{
    int knobs[MAX_KNOBS];
    knob_values_for(ex, ks, knobs);
    long smem = ex->knob_smem ? ex->knob_smem(knobs) : 0;
    const char *what = ex->knob_smem_what;
    for (int i = 0; !ex->knob_smem && i < MAX_CHECKS && ex->checks[i].kind != CHECK_NONE; i++)
        if (ex->checks[i].kind == CHECK_SMEM_BYTES && ex->checks[i].expect) {
            smem = ex->checks[i].expect(knobs);
            what = "the buffer this exercise's shared-memory check asks for";
        }
    if (smem <= STATIC_SMEM_MAX)
        return 0;
    char set[256];
    knobs_set_text(ks, ex, set, sizeof set);
    snprintf(err, len, "%s together are not allowed for lesson%d/%s: they make a block "
             "declare %ld bytes of shared memory (%s), more than the 48 KB (49152 bytes) a "
             "block's __shared__ arrays may hold, so the kernel would not compile. Lower one "
             "of them. Nothing was graded.", set, ex->lesson, ex->name, smem,
             what ? what : "its __shared__ arrays");
    return -1;
}

int knob_settings_check(const knob_settings *ks, const exercise *const *sel, int n,
                        char *err, size_t len)
{
    for (int s = 0; s < ks->n; s++) {
        int used = 0;
        for (int i = 0; i < n; i++) {
            const knob *kn = find_knob(sel[i], ks->set[s].name);
            if (!kn)
                continue;
            used = 1;
            if (check_value(&ks->set[s], sel[i], kn, err, len) != 0)
                return -1;
        }
        if (!used) {
            unknown_name(&ks->set[s], sel, n, err, len);
            return -1;
        }
    }
    for (int i = 0; i < n && ks->n; i++)
        if (check_combination(ks, sel[i], err, len) != 0)
            return -1;
    return 0;
}

int knob_values_checked(const exercise *ex, const knob_settings *ks, int knobs[MAX_KNOBS],
                        char *err, size_t len)
{
    for (int s = 0; s < ks->n; s++) {
        const knob *kn = find_knob(ex, ks->set[s].name);
        if (kn && check_value(&ks->set[s], ex, kn, err, len) != 0)
            return -1;
    }
    if (ks->n && check_combination(ks, ex, err, len) != 0)
        return -1;
    knob_values_for(ex, ks, knobs);
    return 0;
}

void knob_values_for(const exercise *ex, const knob_settings *ks, int knobs[MAX_KNOBS])
{
    for (int k = 0; k < MAX_KNOBS; k++) {
        knobs[k] = ex->knobs[k].name ? ex->knobs[k].def : 0;
        if (!ex->knobs[k].name)
            continue;
        for (int s = 0; s < ks->n; s++)
            if (!strcmp(ks->set[s].name, ex->knobs[k].name))
                knobs[k] = (int)strtol(ks->set[s].value, NULL, 10);
    }
}

void knob_text(const exercise *ex, const int *knobs, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++) {
        add(buf, len, &at, "%s%s=%d", k ? " " : "", ex->knobs[k].name, knobs[k]);
        if (knobs[k] != ex->knobs[k].def)
            add(buf, len, &at, " (default %d)", ex->knobs[k].def);
    }
}

void knob_defaults(const exercise *ex, int knobs[MAX_KNOBS])
{
    for (int k = 0; k < MAX_KNOBS; k++)
        knobs[k] = ex->knobs[k].name ? ex->knobs[k].def : 0;
}

void knob_list_text(const exercise *ex, const int *knobs, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name && o < len; k++)
        o += snprintf(buf + o, len - o, "%s%s=%d", k ? " " : "", ex->knobs[k].name, knobs[k]);
    if (!buf[0])
        snprintf(buf, len, "(none)");
}
