/* nogpu_words.h: what a report made without a GPU says it could not tell.
 *
 * Every sentence about what was not judged without a GPU lives here, so
 * that when more can be judged on the CPU (a simulator of the kernels is
 * being built to judge correctness without a GPU) these change, and no
 * message elsewhere goes on claiming the old limits. */
#ifndef GRADER_NOGPU_WORDS_H
#define GRADER_NOGPU_WORDS_H

/* The report's first paragraph: what was done (a format with one %s, what
 * was checked: "your exercises", "the solutions"). */
extern const char NOGPU_HEADER_FMT[];

/* What it cannot tell, after the header: no value computed, nothing timed,
 * so CHECKED is not a pass and an untouched stub may read CHECKED. */
extern const char NOGPU_CANNOT_TELL[];

/* Closing a message that failed a mechanism check (after its reason). */
extern const char NOGPU_NOT_JUDGED[];

/* An exercise with no mechanism check: nothing the compiler shows tells a
 * finished kernel from the untouched stub. */
extern const char NOGPU_NO_CHECKS[];

/* After "its N mechanism checks hold (listed below).". */
extern const char NOGPU_CHECKS_HOLD[];

/* The summary's last line when some were CHECKED, and when none was. */
extern const char NOGPU_SUMMARY_CHECKED[];
extern const char NOGPU_SUMMARY[];

#endif
