/* launch_occupancy.h: the occupancy of the launch the grader makes, for the
 * report's occ column: how many blocks of the problem's grid each SM holds
 * at once, not what the kernel's resources would allow. A launch of one
 * block per SM (lessons 1 and 5) runs at 6% on an H100 whatever the
 * resources allow, and a student comparing the column with the lesson
 * must read the figure the lesson explains. */
#ifndef GRADER_LAUNCH_OCCUPANCY_H
#define GRADER_LAUNCH_OCCUPANCY_H

#include "instance.h"
#include "result.h"

/* Set res->launch_blocks_per_sm and res->launch_occupancy_pct from I's
 * grid and block on `dev`, capped by res->blocks_per_sm (what the
 * resources allow; unknown: both left at 0 and -1). */
void launch_occupancy_set(resources *res, const instance *I, const device_facts *dev);

#endif
