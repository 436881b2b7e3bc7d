/* stats.h: the numbers behind a speed verdict. Pure functions, no GPU, so the
 * test suite checks them everywhere. */
#ifndef GRADER_STATS_H
#define GRADER_STATS_H

#include <stddef.h>
#include "spec.h"

/* Median of n values (n >= 1); sorts a copy, leaves `v` alone. */
double median(const double *v, size_t n);

/* Relative disagreement between two estimates of the same ratio, taken from
 * the first and second halves of the timing rounds: |a - b| / (a + b). The
 * noise band a verdict must clear is max(floor_noise, this). */
double half_spread(double a, double b);

/* The speedup an exercise asks for, given what the reference solution reached
 * in the same run: max(floor, 1 + share * (ref_speedup - 1)). */
double speedup_bar(double share, double floor, double ref_speedup);

/* Where a measurement stands against its bar, as a sign (the outcome itself
 * is verdict.h's alone): 1 when measure clears bar by more than the noise
 * band, -1 when it misses by more (or is not a number), 0 when it is too
 * close to call (the grader then measures again). `higher_is_better` is 0
 * for a time ratio, 1 for speedup and bandwidth. */
int judge(double measure, double bar, double noise, int higher_is_better);

/* The physical floor: the least time, in ms, in which a kernel can move
 * `bytes` (its inputs read once, its outputs written once) when the GPU's
 * measured copy bandwidth is `copy_gbps`, allowing FLOOR_MARGIN for kernels
 * that beat a device-to-device copy (a read-only stream can). 0 when either
 * number is unknown. */
double physical_floor_ms(double bytes, double copy_gbps);

/* How much faster than cudaMemcpy's copy bandwidth a kernel may seem to
 * move its bytes before its time is called impossible. A kernel that only
 * reads, or only writes, can beat a device-to-device copy (which reads and
 * writes every byte). Measured on an NVIDIA H100 80GB HBM3 on 2026-11-23
 * (grader/calibration/h100-2026-11-23-b/floor.txt): against cudaMemcpy's
 * 2952 GB/s the best read-only kernel reached 1.027x, a write-only kernel
 * 1.057x, a copy kernel 0.983x and saxpy 1.003x; the course's solutions
 * reach at most 0.93x. 1.3 leaves room for timing noise and for GPUs whose
 * read-only streams beat their copies by more; a kernel faster than that is
 * being timed on something other than the work. */
#define FLOOR_MARGIN 1.3

/* Little's law: the bytes a kernel keeps in flight on each SM when it
 * moves `gbps` GB/s through a memory of latency `latency_ns` ns over `sms`
 * SMs: gbps x latency / sms (GB/s x ns = bytes). 0 when any is unknown.
 * With the copy bandwidth as `gbps`, what full bandwidth needs. */
double bytes_in_flight_per_sm(double gbps, double latency_ns, int sms);

/* The smallest noise band used, however steady the timings look: a gain under
 * this never counts as real. */
#define NOISE_FLOOR 0.02

#endif
