/* reference.h: where the reference solution the speed bar is measured
 * against comes from.
 *
 * The full course compiles solutions/<file> with NVRTC like every other
 * kernel. The student copy (`make release`) has no solutions/: it carries
 * each exercise's reference compiled to PTX, at the course's default knobs,
 * for the oldest GPU generation the exercise allows, as
 * grader/references/lesson<N>/<name>.ptx; the driver compiles that PTX for
 * the GPU it runs on. A knob set away from its default needs a reference the
 * copy does not carry: the baseline is timed in its place, and the verdict
 * (verdict.h) reads that fact from result.ref_stand_in and says so.
 *
 *   grader references --out DIR    write every exercise's PTX (make release)
 *   grader references --verify     check a student copy: every PTX is there,
 *                                  for the default knobs, and assembles; every
 *                                  exercise file and baseline compiles
 */
#ifndef GRADER_REFERENCE_H
#define GRADER_REFERENCE_H

#include <stddef.h>
#include "compile.h"
#include "versions.h"

/* 1 when this course has no solutions/ folder: references come as PTX. */
int reference_is_compiled(const grade_opts *o);

/* The file the reference for `ex` is read from: solutions/... or the PTX. */
void reference_source(const exercise *ex, const grade_opts *o, char *path, size_t len);
void reference_ptx_path(const exercise *ex, const char *dir, char *path, size_t len);

/* In a student copy: fill `c` with the reference for `ex` at `knobs`, as
 * compile_file would (PTX only), and set *kernel to its entry point.
 * Returns 0 then. When the copy has no reference for these knobs, sets
 * *kernel to the baseline's, writes in `note` what the verdict must say, and
 * returns 1: the caller compiles the baseline in its place
 * (exercise_compile, compile_jobs.h). -1 when the PTX is missing or damaged
 * (c->error says which). */
int reference_load(const exercise *ex, const int *knobs, const grade_opts *o, compiled *c,
                   const char **kernel, char *note, size_t len);

/* The oldest GPU generation ex allows: its reference's PTX targets it. */
int reference_oldest_cc(const exercise *ex);

/* Where a student copy keeps ex's reference PTX, under the course's top
 * (grader/references/lesson<N>/<name>.ptx), as the student knows it. */
void reference_ptx_file(const exercise *ex, const grade_opts *o, char *path, size_t len);

/* Read and check the PTX for ex: its header's knobs (knob_list_text's form)
 * and kernel go to `knobs` and `kernel`. NULL, with `err` saying why, when it
 * is missing or damaged; else the text, for the caller to free. */
char *reference_read_ptx(const exercise *ex, const grade_opts *o, char *knobs, size_t klen,
                         char *kernel, size_t kernlen, char *err, size_t elen);

#endif
