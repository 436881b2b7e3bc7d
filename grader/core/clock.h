/* clock.h: time as grading measures it: seconds on the monotonic clock, which
 * no change of the wall clock moves. */
#ifndef GRADER_CLOCK_H
#define GRADER_CLOCK_H

/* Seconds since an arbitrary fixed point; only differences mean anything. */
double now_s(void);

#endif
