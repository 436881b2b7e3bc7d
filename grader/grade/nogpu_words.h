/* nogpu_words.h: what a report made without a GPU says it could not tell.
 *
 * Every sentence about what was not judged without a GPU lives here, so no
 * message elsewhere claims other limits. Where there are two, [1] is said
 * when the PTX simulator judges correctness after the checks (check and
 * watch: sim_correctness.h; its own message then says what it found) and
 * [0] when nothing is run at all (the class tools, static). */
#ifndef GRADER_NOGPU_WORDS_H
#define GRADER_NOGPU_WORDS_H

/* The report's first paragraph: what was done (a format with one %s, what
 * was checked: "your exercises", "the solutions"). Printed by check and
 * watch, which run the simulator. */
extern const char NOGPU_HEADER_FMT[];

/* What it cannot tell, after the header: nothing timed, so CHECKED is not
 * a pass, and what the simulator's verdicts mean. */
extern const char NOGPU_CANNOT_TELL[];

/* Closing a CORRECT message (the simulator's sentence, the checks): not
 * a pass, speed needs a GPU. */
extern const char NOGPU_CORRECT[];

/* Closing a message that failed a mechanism check (after its reason). */
extern const char *const NOGPU_NOT_JUDGED[2];

/* A CHECKED exercise with no mechanism check: nothing the compiler shows
 * tells a finished kernel from the untouched stub ([1]: and the simulator
 * could not run it). */
extern const char *const NOGPU_NO_CHECKS[2];

/* After "its N mechanism checks hold (listed below)." in a CHECKED
 * message. */
extern const char *const NOGPU_CHECKS_HOLD[2];

/* The summary's last line when some were CHECKED or CORRECT, and when none
 * was. */
extern const char *const NOGPU_SUMMARY_CHECKED[2];
extern const char *const NOGPU_SUMMARY[2];

#endif
