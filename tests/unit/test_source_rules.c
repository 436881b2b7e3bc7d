/* test_source_rules.c: a kernel file may include the CUDA toolkit's headers
 * and nothing else, and no report may show another file's text.
 *
 * Two layers with NVRTC: the sandbox that confines it (tested directly, in
 * a child); and the whole compile path with a planted secret file included
 * every way we can think of, whose text must appear in no message, log or
 * PTX. The include scan on literal sources (every attack form we know of,
 * each refused with its line; every legitimate form accepted) is the fast
 * suite test_source_scan.c. Run: CK_RUN_SUITE=source_rules build/tests/unit_tests */
#include <errno.h>
#include <fcntl.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "compile.h"
#include "compile_sandbox.h"
#include "source_rules.h"
#include "suites.h"

/* A folder with a secret file, a fake toolkit and a student's folder. */
typedef struct planted {
    char top[64];
    char secret[128];       /* text that must never be shown */
    char valid[128];        /* the secret as valid C++: would even compile */
    char student[128];      /* a student's folder, next to the secret */
} planted;

#define SECRET_MARK "SECRET_4711_DO_NOT_SHOW"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static void plant(planted *p)
{
    snprintf(p->top, sizeof p->top, "/tmp/grader-rules-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(p->top));
    snprintf(p->secret, sizeof p->secret, "%s/secret.h", p->top);
    snprintf(p->valid, sizeof p->valid, "%s/secret_valid.h", p->top);
    snprintf(p->student, sizeof p->student, "%s/student", p->top);
    write_file(p->secret, SECRET_MARK " is the password\n");
    write_file(p->valid, "__device__ const char leak[] = \"" SECRET_MARK "\";\n");
    ck_assert_int_eq(mkdir(p->student, 0700), 0);
    char neighbour[160];
    snprintf(neighbour, sizeof neighbour, "%s/secret.h", p->student);
    write_file(neighbour, SECRET_MARK " next to the student's file\n");
}

static void unplant(const planted *p)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", p->top);
    ck_assert_int_eq(system(cmd), 0);
}

static void assert_no_secret(const compiled *c, const char *what)
{
    ck_assert_msg(!strstr(c->error, SECRET_MARK), "%s: the message shows the secret: %s", what,
                  c->error);
    ck_assert_msg(!c->log || !strstr(c->log, SECRET_MARK), "%s: the log shows the secret:\n%s",
                  what, c->log);
    ck_assert_msg(!c->ptx || !strstr(c->ptx, "SECRET_4711"), "%s: the PTX has the secret", what);
    ck_assert_msg(!c->ptx || !strstr(c->ptx, "83, 69, 67, 82, 69, 84"),
                  "%s: the PTX has the secret's bytes", what);
}

/* Include the planted files every way we know, through compile_file: each
 * is refused, and nothing anywhere shows the secret's text. */
START_TEST(planted_secret_never_shown)
{
    planted p;
    plant(&p);
    char forms[16][600];
    int n = 0;
    snprintf(forms[n++], 600, "#include \"%s\"\n", p.secret);
    snprintf(forms[n++], 600, "#include \"%s\"\n", p.valid);
    snprintf(forms[n++], 600, "#include <%s>\n", p.secret);
    snprintf(forms[n++], 600, "#include \"secret.h\"\n");
    snprintf(forms[n++], 600, "#include \"../secret.h\"\n");
    snprintf(forms[n++], 600, "#include <../../../../../../../..%s>\n", p.secret);
    snprintf(forms[n++], 600, "#define S \"%s\"\n#include S\n", p.valid);
    snprintf(forms[n++], 600, "#inc\\\nlude \"%s\"\n", p.secret);
    snprintf(forms[n++], 600, "%%:include \"%s\"\n", p.secret);
    snprintf(forms[n++], 600, "/*\n*/ #include \"%s\"\n", p.secret);
    snprintf(forms[n++], 600, "#if __has_include(\"%s\")\n#error found\n#endif\n", p.secret);
    snprintf(forms[n++], 600, "#define H __has_include\n#if H(\"%s\")\n#error found\n#endif\n",
             p.secret);
    snprintf(forms[n++], 600, "#include_next \"%s\"\n", p.secret);
    snprintf(forms[n++], 600, "#line 1 \"%s\"\nint int x;\n", p.secret);
    snprintf(forms[n++], 600, "auto r = R\"x( \" /* )x\";\n#include \"%s\"\n*/\n", p.secret);
    snprintf(forms[n++], 600, "_Pragma(\"include_alias(\\\"a.h\\\", \\\"%s\\\")\")\n"
             "#include \"a.h\"\n", p.secret);
    exercise ex = {.name = "fixture", .kernel = "fx_scale"};
    char path[200];
    snprintf(path, sizeof path, "%s/kernel.cu", p.student);
    for (int i = 0; i < n; i++) {
        char src[1200];
        snprintf(src, sizeof src, "%.600sextern \"C\" __global__ void fx_scale(float *y) "
                 "{ y[0] = 1; }\n", forms[i]);
        write_file(path, src);
        compiled c;
        compile_file(path, &ex, ex.kernel, NULL, 90, &c);
        ck_assert_msg(!c.ok, "form %d compiled:\n%s", i, forms[i]);
        ck_assert_msg(c.outcome == OUT_REFUSED, "form %d: outcome %s, not REFUSED: %s\n%s", i,
                      outcome_word(c.outcome), c.error, forms[i]);
        ck_assert_msg(strstr(c.error, "may include only"), "form %d: %s", i, c.error);
        assert_no_secret(&c, forms[i]);
        compiled_free(&c);
    }
    unplant(&p);
}
END_TEST

/* The sandbox itself, in a child (it cannot be undone): each check that
 * fails exits with its own number. */
static int sandbox_child(const planted *p)
{
    const char *dirs[4];
    int n = compile_include_dirs(dirs, 4);
    char header[1200], evil_dir[160], evil[200];
    snprintf(header, sizeof header, "%s/cuda_pipeline.h", dirs[0]);
    /* A folder allowed to the sandbox, with a link inside it pointing out. */
    snprintf(evil_dir, sizeof evil_dir, "%s/allowed", p->top);
    snprintf(evil, sizeof evil, "%s/link.h", evil_dir);
    if (mkdir(evil_dir, 0700) != 0 || symlink(p->secret, evil) != 0)
        return 2;
    const char *with_evil[5] = {dirs[0], n > 1 ? dirs[1] : dirs[0], evil_dir};
    if (sandbox_enter(with_evil, 3) != 0)
        return 3;
    FILE *f = fopen(p->secret, "r");
    if (f || errno != ENOENT)
        return 4;
    if (!sandbox_refused() || strcmp(sandbox_refused(), p->secret) != 0)
        return 5;
    if (open(p->secret, O_RDONLY) >= 0 || openat(AT_FDCWD, p->secret, O_RDONLY) >= 0)
        return 6;
    if (fopen(evil, "r"))
        return 7;       /* a link inside an allowed folder, to a file outside */
    if (!(f = fopen(header, "r")))
        return 8;       /* the toolkit stays readable */
    fclose(f);
    if (fopen(header, "a") || open(header, O_WRONLY) >= 0)
        return 9;       /* but not writable */
    if (fopen("/dev/zero", "r") || fopen("/proc/self/environ", "r"))
        return 10;
    /* NVRTC itself, under the sandbox: the include fails, the log is clean. */
    char src[300];
    snprintf(src, sizeof src, "#include \"%s\"\nextern \"C\" __global__ void k() {}\n",
             p->secret);
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, src, "k.cu", 0, NULL, NULL) != NVRTC_SUCCESS)
        return 11;
    const char *opts[] = {"-arch=sm_90"};
    if (nvrtcCompileProgram(prog, 1, opts) != NVRTC_ERROR_COMPILATION)
        return 12;
    size_t len = 0;
    nvrtcGetProgramLogSize(prog, &len);
    char *log = malloc(len + 1);
    nvrtcGetProgramLog(prog, log);
    if (strstr(log, SECRET_MARK) || !strstr(log, "cannot open source file"))
        return 13;
    return 0;
}

START_TEST(sandbox_confines_nvrtc)
{
    ck_assert(sandbox_linked());
    planted p;
    plant(&p);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(sandbox_child(&p));
    int status = 0;
    waitpid(pid, &status, 0);
    unplant(&p);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "sandbox check %d failed (see sandbox_child)", WEXITSTATUS(status));
}
END_TEST

START_TEST(sandbox_passes_everything_until_entered)
{
    /* The grader's own process is never confined: before sandbox_enter the
     * functions forward every call. */
    FILE *f = fopen("/proc/self/status", "r");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_ptr_null(sandbox_refused());
}
END_TEST

/* A toolkit whose header reaches outside (a broken or hostile toolkit, or
 * one a student pointed CUDA_HOME at): the scan passes the student's file,
 * and the sandbox stops NVRTC; the compile is refused, naming the file. */
START_TEST(sandbox_refusal_reaches_the_report)
{
    planted p;
    plant(&p);
    char inc[200], hdr[240], path[200];
    snprintf(inc, sizeof inc, "%s/toolkit", p.top);
    ck_assert_int_eq(mkdir(inc, 0700), 0);
    snprintf(inc, sizeof inc, "%s/toolkit/include", p.top);
    ck_assert_int_eq(mkdir(inc, 0700), 0);
    snprintf(hdr, sizeof hdr, "%s/cuda_evil.h", inc);
    char text[300];
    snprintf(text, sizeof text, "#include \"%s\"\n", p.secret);
    write_file(hdr, text);
    snprintf(path, sizeof path, "%s/kernel.cu", p.student);
    write_file(path, "#include <cuda_evil.h>\nextern \"C\" __global__ void fx_scale(float *y) "
               "{ y[0] = 1; }\n");
    const char *old = getenv("CUDA_HOME");
    char toolkit[200];
    snprintf(toolkit, sizeof toolkit, "%s/toolkit", p.top);
    setenv("CUDA_HOME", toolkit, 1);
    exercise ex = {.name = "fixture", .kernel = "fx_scale"};
    compiled c;
    compile_file(path, &ex, ex.kernel, NULL, 90, &c);
    if (old)
        setenv("CUDA_HOME", old, 1);
    else
        unsetenv("CUDA_HOME");
    ck_assert_msg(c.outcome == OUT_REFUSED, "outcome %s: %s", outcome_word(c.outcome), c.error);
    ck_assert_msg(strstr(c.error, p.secret) && strstr(c.error, "may include only"), "%s",
                  c.error);
    assert_no_secret(&c, "a toolkit header that includes the secret");
    compiled_free(&c);
    unplant(&p);
}
END_TEST

/* A file next to the student's that shadows a toolkit header: NVRTC looks
 * next to the source first for a quoted include, so the sandbox must stop it
 * there, though the scan rightly accepts the name. */
START_TEST(shadowed_toolkit_header_refused)
{
    planted p;
    plant(&p);
    char shadow[200], path[200];
    snprintf(shadow, sizeof shadow, "%s/cuda_pipeline.h", p.student);
    write_file(shadow, SECRET_MARK " shadows the toolkit\n");
    snprintf(path, sizeof path, "%s/kernel.cu", p.student);
    write_file(path, "#include \"cuda_pipeline.h\"\nextern \"C\" __global__ void "
               "fx_scale(float *y) { y[0] = 1; }\n");
    exercise ex = {.name = "fixture", .kernel = "fx_scale"};
    compiled c;
    compile_file(path, &ex, ex.kernel, NULL, 90, &c);
    ck_assert_msg(c.outcome == OUT_REFUSED, "outcome %s: %s", outcome_word(c.outcome), c.error);
    ck_assert_msg(strstr(c.error, shadow), "%s", c.error);
    assert_no_secret(&c, "a file shadowing cuda_pipeline.h");
    compiled_free(&c);
    /* Without the shadow, the same file compiles: the name is the toolkit's. */
    unlink(shadow);
    compile_file(path, &ex, ex.kernel, NULL, 90, &c);
    ck_assert_msg(c.ok, "%s\n%s", c.error, c.log ? c.log : "");
    compiled_free(&c);
    unplant(&p);
}
END_TEST

/* The student's file itself leading out of the submission: a symbolic link
 * to the secret, to the course's solution, or a linked folder. An instructor
 * grading --student-dir submissions/alice must never compile or show them. */
static compiled compile_within(const char *path, const char *folder)
{
    exercise ex = {.name = "fixture", .kernel = "fx_scale"};
    compile_job job = {.path = path, .within = folder, .ex = &ex, .kernel = "fx_scale",
                       .cc = 90};
    compiled c;
    compile_files(&job, 1, &c);
    return c;
}

START_TEST(student_file_may_not_lead_out)
{
    planted p;
    plant(&p);
    char link[200], sub[200], inner[240], real[1200], fifo[200];
    /* A link to the secret. */
    snprintf(link, sizeof link, "%s/kernel.cu", p.student);
    ck_assert_int_eq(symlink(p.secret, link), 0);
    compiled c = compile_within(link, p.student);
    ck_assert_msg(c.outcome == OUT_REFUSED && strstr(c.error, "leads out of"), "%s", c.error);
    assert_no_secret(&c, "the student's file is a link to the secret");
    compiled_free(&c);
    /* A linked folder: student/lesson0 -> the course's solutions/lesson0. */
    char cwd[1024];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(sub, sizeof sub, "%s/lesson0", p.student);
    snprintf(real, sizeof real, "%s/solutions/lesson0", cwd);
    ck_assert_int_eq(symlink(real, sub), 0);
    snprintf(inner, sizeof inner, "%s/saxpy.cu", sub);
    c = compile_within(inner, p.student);
    ck_assert_msg(c.outcome == OUT_REFUSED, "a linked folder: %s %s", outcome_word(c.outcome),
                  c.error);
    compiled_free(&c);
    /* A link that stays inside the folder is the student's own business. */
    unlink(link);
    snprintf(real, sizeof real, "%s/real.cu", p.student);
    write_file(real, "extern \"C\" __global__ void fx_scale(float *y) { y[0] = 1; }\n");
    ck_assert_int_eq(symlink("real.cu", link), 0);
    c = compile_within(link, p.student);
    ck_assert_msg(c.ok, "a link inside the folder: %s", c.error);
    compiled_free(&c);
    /* And the student's folder itself may be a link. */
    char alias[200];
    snprintf(alias, sizeof alias, "%s/alias", p.top);
    ck_assert_int_eq(symlink(p.student, alias), 0);
    snprintf(inner, sizeof inner, "%s/real.cu", alias);
    c = compile_within(inner, alias);
    ck_assert_msg(c.ok, "a linked student folder: %s", c.error);
    compiled_free(&c);
    /* A pipe would block the grader's read forever. */
    snprintf(fifo, sizeof fifo, "%s/pipe.cu", p.student);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    c = compile_within(fifo, p.student);
    ck_assert_msg(c.outcome == OUT_REFUSED && strstr(c.error, "not a regular file"), "%s",
                  c.error);
    compiled_free(&c);
    unplant(&p);
}
END_TEST

Suite *source_rules_suite(void)
{
    Suite *s = suite_create("source_rules");
    TCase *tc = tcase_create("no_file_shown");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, planted_secret_never_shown);
    tcase_add_test(tc, sandbox_confines_nvrtc);
    tcase_add_test(tc, sandbox_passes_everything_until_entered);
    tcase_add_test(tc, sandbox_refusal_reaches_the_report);
    tcase_add_test(tc, shadowed_toolkit_header_refused);
    tcase_add_test(tc, student_file_may_not_lead_out);
    suite_add_tcase(s, tc);
    return s;
}
