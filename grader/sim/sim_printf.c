/* sim_printf.c: device printf (a call of vprintf), as CUDA prints it: the
 * format string and a buffer of the arguments, each at its size's
 * alignment (int-sized conversions 4 bytes, %ld/%lld/%f/%e/%g/%s/%p 8: a
 * float argument is promoted to double). Each executing lane prints its
 * line to stdout in the order threads run here; the buffer and every
 * string are read through sim_addr, so a bad pointer is a fault with the
 * line, as on a GPU. */
#include <stdio.h>
#include <string.h>
#include "sim_engine.h"

#define X(r) w->R[(size_t)(r) * 32 + (size_t)l]

/* The NUL-terminated string at generic address a, at most len - 1 bytes. */
static int read_string(sim_cta *c, sim_warp *w, int l, const sim_insn *in, uint64_t a,
                       char *out, size_t len)
{
    size_t n = 0;
    for (; n + 1 < len; n++) {
        const uint8_t *p = sim_addr(c, w, l, SS_GENERIC, a + n, 1, in, 0);
        if (!p)
            return -1;
        if (!(out[n] = (char)*p))
            return 0;
    }
    out[n] = 0;
    return 0;
}

/* Format one lane's line into out. -1 when the run stopped (a fault). */
static int format(sim_cta *c, sim_warp *w, int l, const sim_insn *in, char *out, size_t len)
{
    char fmt[1024], spec[32], str[512];
    if (read_string(c, w, l, in, X(in->a), fmt, sizeof fmt) != 0)
        return -1;
    uint64_t args = X(in->b), at = 0;
    size_t n = 0;
    for (const char *f = fmt; *f && n + 1 < len;) {
        if (*f != '%' || f[1] == '%') {
            out[n++] = *f;
            f += *f == '%' ? 2 : 1;
            continue;
        }
        size_t k = strspn(f + 1, "-+ #0123456789.hlLjzt") + 1;
        char conv = f[k];
        if (!conv || k + 2 > sizeof spec)
            break;
        memcpy(spec, f, k + 1);
        spec[k + 1] = 0;
        f += k + 1;
        int wide = strstr(spec, "l") || strchr("fFeEgGaAsp", conv);
        size_t size = wide ? 8 : 4;
        at = (at + size - 1) / size * size;
        const uint8_t *p = sim_addr(c, w, l, SS_GENERIC, args + at, size, in, 0);
        if (!p)
            return -1;
        uint64_t v = 0;
        memcpy(&v, p, size);
        at += size;
        int m;
        if (strchr("fFeEgGaA", conv)) {
            double d;
            memcpy(&d, &v, 8);
            m = snprintf(out + n, len - n, spec, d);
        } else if (conv == 's') {
            if (read_string(c, w, l, in, v, str, sizeof str) != 0)
                return -1;
            m = snprintf(out + n, len - n, spec, str);
        } else if (conv == 'p') {
            m = snprintf(out + n, len - n, "%#llx", (unsigned long long)v);
        } else if (wide) {
            m = snprintf(out + n, len - n, spec, (long long)v);
        } else {
            m = snprintf(out + n, len - n, spec, (int)(uint32_t)v);
        }
        n += m > 0 ? (size_t)m : 0;
        if (n >= len)
            n = len - 1;
    }
    out[n] = 0;
    return 0;
}

void sim_printf(sim_cta *c, sim_warp *w, uint32_t m, const sim_insn *in)
{
    char line[2048];
    LANES(m)
        if (format(c, w, l, in, line, sizeof line) != 0)
            return;
        fputs(line, stdout);
        X(in->d[0]) = 0;
    END
}
