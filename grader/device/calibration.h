/* calibration.h: the GPU the course is calibrated on, for where there is no
 * GPU to ask: the host backend (device_host.c), `grader static` and the
 * no-GPU path (nogpu.c) size problems and occupancy for it. */
#ifndef GRADER_CALIBRATION_H
#define GRADER_CALIBRATION_H

#include "spec.h"

/* The device facts of the GPU the course is calibrated on (an H100), used
 * where there is no GPU to ask. */
void calibration_device(device_facts *dev);

#endif
