/* unlike.c: guard bytes compared in host memory (unlike.h). */
#include "unlike.h"

size_t host_memory_unlike(const void *src, int byte, size_t bytes, size_t *first)
{
    const unsigned char *p = src;
    size_t n = 0;
    for (size_t i = 0; i < bytes; i++)
        if (p[i] != (unsigned char)byte && !n++)
            *first = i;
    return n;
}
