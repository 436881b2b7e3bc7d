/* unlike.h: counting the bytes of host-visible memory that differ from a
 * guard byte: the `unlike` operation of the backends whose device memory
 * is host memory (device_host.c, device_sim.c). */
#ifndef GRADER_UNLIKE_H
#define GRADER_UNLIKE_H

#include <stddef.h>

/* How many of the `bytes` bytes at `src` differ from `byte`; *first gets
 * the offset of the first that does (unset when none): device.h's
 * `unlike` contract. */
size_t host_memory_unlike(const void *src, int byte, size_t bytes, size_t *first);

#endif
