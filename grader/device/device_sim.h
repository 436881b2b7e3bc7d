/* device_sim.h: the device interface on the PTX simulator (sim/sim.h).
 *
 * What `make check` runs a kernel on where there is no GPU: the module is
 * the PTX NVRTC made for sm_90, device memory is host memory registered with
 * the simulator (any other address a kernel touches is a fault), a launch
 * runs the grid on this CPU. Nothing is timed: launch reports 0 ms.
 *
 * Error rule (device/, as device.h says): a fault in the kernel (an access
 * outside every buffer) ends the child as CRASH, a block where no thread
 * can go on as HANG, both with the simulator's sentence and source line;
 * an instruction the simulator does not run ends it as CHECKED with what
 * it was, so the verdict is "needs a GPU", never a guess. */
#ifndef GRADER_DEVICE_SIM_H
#define GRADER_DEVICE_SIM_H

#include "device.h"

extern const device_ops device_sim;

/* The first race a launch of this process saw (sim_report.race: an access
 * to shared bytes an asynchronous copy in flight will write, with both
 * lines); "" when none. */
const char *device_sim_race(void);
/* The first read of shared or local bytes not written in its launch
 * (sim_report.unwritten); "" when none. */
const char *device_sim_unwritten(void);

/* Thread-instructions run by this process's launches so far. */
unsigned long long device_sim_thread_insns(void);

#endif
