/* Lesson 14: host-device transfers (lessons/lesson14-transfers.md).
 *
 * The grader grades device code, and this lesson is about the host's side
 * of the bus: pageable and pinned memory, and copies overlapped with kernels
 * in streams. So it has no graded exercise; it is measured on the student's
 * own GPU instead:
 *
 *   make measure lesson14     (grader/measure/transfers.cu and transfers.gp)
 *
 * `make check lesson14` says so and points there. */
#include "../spec.h"

const exercise *const lesson14_exercises[] = { NULL };
