/* stats.c: medians, noise and the speed bar. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double *c = malloc(n * sizeof *c);
    if (!c)
        return NAN;
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_double);
    double m = (n % 2) ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    free(c);
    return m;
}

double half_spread(double a, double b)
{
    if (!(a > 0) || !(b > 0))
        return 1.0;
    return fabs(a - b) / (a + b);
}

double speedup_bar(double share, double floor, double ref_speedup)
{
    double bar = 1.0 + share * (ref_speedup - 1.0);
    return bar > floor ? bar : floor;
}

int judge(double measure, double bar, double noise, int higher_is_better)
{
    if (noise < NOISE_FLOOR)
        noise = NOISE_FLOOR;
    if (!(measure > 0) || !(bar > 0))
        return -1;
    /* Work in the direction where bigger is better, relative to the bar. */
    double margin = higher_is_better ? measure / bar - 1.0 : bar / measure - 1.0;
    if (margin > noise)
        return 1;
    if (margin < -noise)
        return -1;
    return 0;
}

double physical_floor_ms(double bytes, double copy_gbps)
{
    if (!(bytes > 0) || !(copy_gbps > 0))
        return 0;
    return bytes / (copy_gbps * 1e9 * FLOOR_MARGIN) * 1e3;
}

double bytes_in_flight_per_sm(double gbps, double latency_ns, int sms)
{
    if (!(gbps > 0) || !(latency_ns > 0) || sms <= 0)
        return 0;
    return gbps * latency_ns / sms;
}
