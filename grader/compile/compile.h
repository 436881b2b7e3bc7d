/* compile.h: a kernel file through NVRTC, to PTX and machine code, with the
 * compiler's resource report. Needs no GPU.
 *
 * Every compile is checked before and after: the file may include only the
 * toolkit's headers (source_rules.h), NVRTC runs in a child process with a
 * time and memory limit that may open only the toolkit's headers
 * (compile_child.h, compile_sandbox.h), the PTX may declare no device-global
 * variable the kernel can write (ptx_rules.h), and a resource the kernel asks
 * for beyond what any launch may have is named (resource_limits.h).
 *
 * Error rule (compile/): a compile never prints and never exits; it always
 * fills a `compiled` (compiled.h): ok, or an outcome and one sentence for
 * the student in `error`, naming the file as the student knows it, also
 * when the compiler itself could not run. */
#ifndef GRADER_COMPILE_H
#define GRADER_COMPILE_H

#include <stddef.h>
#include "compiled.h"
#include "toolkit.h"

/* Compile `path` (read from disk; also the name compile errors show) for
 * compute capability `cc`, with -D<knob>=<value> for each of ex's knobs. The
 * file must define the entry point `kernel`. Always fills `out`; free with
 * compiled_free. For one file outside an exercise's versions (the tests,
 * tools): an exercise's files are compiled through compile_jobs.h, which
 * holds the student's file to its folder. */
void compile_file(const char *path, const exercise *ex, const char *kernel,
                  const int *knobs, int cc, compiled *out);

/* Compile n files at once, each in its own child process (so the three
 * versions of an exercise cost about the time of the slowest). Fills out[i]
 * for jobs[i], exactly as compile_file would. */
void compile_files(const compile_job *jobs, int n, compiled *out);
void compiled_free(compiled *c);

/* How long one compile may take (default 30 s, or $GRADER_COMPILE_TIMEOUT)
 * and how much address space it may add (default 2 GiB). A compile over the
 * time ends with OUT_COMPILE_ERROR and a message saying "did not compile
 * within" the limit. Tests set short limits. */
void compile_set_limits(double seconds, size_t bytes);
double compile_time_limit(void);

#endif
