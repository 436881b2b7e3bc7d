/* fixture.c: reading tests/gpu/<group>/<name>/expect (see fixture.h). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fixture.h"

static const char *const groups[] = {"faulty", "cheats", "races", "accepted", "gaming"};

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

/* NAME=value, NAME in [A-Z0-9_], value in [A-Za-z0-9._-]: nothing a shell
 * would read as more than one word. */
static int is_assignment(const char *s, int numeric)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s)
        return 0;
    for (const char *p = s; p < eq; p++)
        if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
            return 0;
    const char *v = eq + 1;
    if (!*v)
        return 0;
    for (const char *p = v; *p; p++) {
        int ok = numeric ? isdigit((unsigned char)*p) || (p == v && *p == '-')
                         : isalnum((unsigned char)*p) || *p == '.' || *p == '_' || *p == '-';
        if (!ok)
            return 0;
    }
    return 1;
}

static int each_word_is_assignment(const char *s, int numeric)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    int words = 0;
    for (char *w = strtok(buf, " \t"); w; w = strtok(NULL, " \t"), words++)
        if (!is_assignment(w, numeric))
            return 0;
    return words > 0;
}

static int fail(fixture *f, const char *fmt, const char *a, int line)
{
    char what[256];
    snprintf(what, sizeof what, fmt, a);
    snprintf(f->error, sizeof f->error, "%.255s/expect, line %d: %.255s", f->dir, line, what);
    return -1;
}

/* Store `value` under `key`; 1 when the key is known. */
static int store(fixture *f, const char *key, const char *value, int *lesson_set)
{
    struct { const char *key; char *to; size_t len; } text[] = {
        {"exercise", f->exercise, sizeof f->exercise}, {"outcome", f->outcome, sizeof f->outcome},
        {"message", f->message, sizeof f->message},    {"nvrtc", f->nvrtc, sizeof f->nvrtc},
        {"secret", f->secret, sizeof f->secret},       {"env", f->env, sizeof f->env},
        {"set", f->set, sizeof f->set},                {"rule", f->rule, sizeof f->rule},
        {"diagnosis", f->diagnosis, sizeof f->diagnosis},
        {"sim_note", f->sim_note, sizeof f->sim_note},
    };
    if (!strcmp(key, "lesson")) {
        char *end;
        long n = strtol(value, &end, 10);
        f->lesson = *value && !*end && n >= 0 && n < 1000 ? (int)n : -1;
        *lesson_set = 1;
        return 1;
    }
    for (size_t k = 0; k < sizeof text / sizeof *text; k++)
        if (!strcmp(key, text[k].key)) {
            snprintf(text[k].to, text[k].len, "%s", value);
            return 1;
        }
    return 0;
}

int fixture_read(const char *dir, fixture *f)
{
    memset(f, 0, sizeof *f);
    f->lesson = -1;
    snprintf(f->dir, sizeof f->dir, "%s", dir);
    const char *id = strstr(dir, FIXTURE_ROOT "/");
    snprintf(f->id, sizeof f->id, "%s", id ? id + strlen(FIXTURE_ROOT "/") : dir);
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/expect", dir);
    FILE *in = fopen(path, "r");
    if (!in)
        return fail(f, "%s", "cannot be read (every fixture folder needs one)", 0);
    int n = 0, lesson_set = 0, bad = 0;
    while (!bad && fgets(line, sizeof line, in)) {
        n++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *l = trim(line);
        if (!*l)
            continue;
        char *colon = strchr(l, ':');
        if (!colon) {
            bad = fail(f, "'%s' is not 'key: value'", l, n);
            break;
        }
        *colon = 0;
        char *key = trim(l), *value = trim(colon + 1);
        if (!*value)
            bad = fail(f, "%s has no value", key, n);
        else if (!store(f, key, value, &lesson_set))
            bad = fail(f, "unknown key '%s'", key, n);
    }
    fclose(in);
    if (bad)
        return -1;
    if (!lesson_set || f->lesson < 0)
        return fail(f, "%s", "lesson: must be a lesson number", n);
    const char *required[][2] = {{"exercise", f->exercise}, {"outcome", f->outcome},
                                 {"message", f->message},   {"nvrtc", f->nvrtc}};
    for (size_t k = 0; k < sizeof required / sizeof *required; k++)
        if (!required[k][1][0])
            return fail(f, "%s: is missing", required[k][0], n);
    if (strcmp(f->nvrtc, "compiles") && strcmp(f->nvrtc, "fails") && strcmp(f->nvrtc, "runaway"))
        return fail(f, "nvrtc: '%s' is not compiles, fails or runaway", f->nvrtc, n);
    if (f->env[0] && !each_word_is_assignment(f->env, 0))
        return fail(f, "env: '%s' is not NAME=value words", f->env, n);
    if (f->set[0] && !each_word_is_assignment(f->set, 1))
        return fail(f, "set: '%s' is not KNOB=number words", f->set, n);
    return 0;
}

static int by_id(const void *a, const void *b)
{
    return strcmp(((const fixture *)a)->id, ((const fixture *)b)->id);
}

int fixtures_list(fixture *out, int max)
{
    int n = 0;
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++) {
        char root[256];
        snprintf(root, sizeof root, "%s/%s", FIXTURE_ROOT, groups[g]);
        DIR *d = opendir(root);
        if (!d)
            return -1;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            char dir[512];
            struct stat st;
            if (e->d_name[0] == '.')
                continue;
            snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
            if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
                continue;
            if (n < max)
                fixture_read(dir, &out[n]);
            n++;
        }
        closedir(d);
    }
    qsort(out, (size_t)(n < max ? n : max), sizeof *out, by_id);
    return n;
}

int contains_line_of(const char *text, const char *path, size_t min_len, int *checked,
                     char *found, size_t len)
{
    *checked = 0;
    FILE *in = fopen(path, "r");
    if (!in)
        return -1;
    char line[4096];
    int hit = 0;
    while (!hit && fgets(line, sizeof line, in)) {
        char *l = trim(line);
        if (strlen(l) < min_len)
            continue;
        ++*checked;
        if (strstr(text, l)) {
            snprintf(found, len, "%s", l);
            hit = 1;
        }
    }
    fclose(in);
    return hit;
}
