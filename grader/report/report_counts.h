/* report_counts.h: memory counts by line (core/mem_counts.h) in the report.
 *
 * For people, under an exercise's row: the source lines that waste the
 * most (global sectors fetched past what the bytes need, shared wavefronts
 * spent on bank conflicts), at most REPORT_COUNT_LINES of them, each
 * "line 12  global load   32.0 sectors/request (best 4.0), 1024 requests"
 * or "line 20  shared store  32.0-way: 32.0 wavefronts/request (best 1.0),
 * ..."; one line saying nothing is wasted when so. For tools, the JSON
 * value "memory_counts": every counted instruction (line, PTX opcode,
 * space, requests, sectors or wavefronts, ideal), or null. */
#ifndef GRADER_REPORT_COUNTS_H
#define GRADER_REPORT_COUNTS_H

#include <stdio.h>
#include "mem_counts.h"

#define REPORT_COUNT_LINES 3

/* The block under a row, each line cut to `width` columns; nothing when
 * mc was not counted. */
void print_mem_counts(FILE *f, const mem_counts *mc, int width, int color);
/* The JSON value of mc: an object, or null when it was not counted. */
void json_mem_counts(FILE *f, const mem_counts *mc);

#endif
