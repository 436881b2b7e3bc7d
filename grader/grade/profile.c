/* profile.c: Nsight Compute's view of an exercise (make check lessonN NCU=1).
 *
 * Hardware counters answer what timing cannot: how many shared-memory bank
 * conflicts a kernel has, how busy device memory is, what warps wait on. The
 * grader re-runs itself under `ncu` in a mode that launches the baseline, the
 * student's kernel and the solution once each on the timing problem, reads
 * ncu's CSV and prints the three side by side. Where ncu is missing or the
 * counters are not allowed, the report says so and the grade stands as it
 * was. It runs before the exercise is graded, and what it counted is one of
 * the facts the verdict reads (verdict.h): only an exercise with
 * ncu_no_bank_conflicts (lesson 10) can fail on these counts, and only when
 * they could be read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "buffers.h"
#include "compile_jobs.h"
#include "cuda_check.h"
#include "device.h"
#include "profile.h"
#include "sim_correctness.h"

static const struct {
    const char *metric;
    const char *label;
} metrics[] = {
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared-load bank conflicts"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared-store bank conflicts"},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput, % of peak"},
    {"smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio",
     "long-scoreboard stall (waiting on memory)"},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy, %"},
    {"smsp__sass_inst_executed_op_ldgsts.sum", "async copies (LDGSTS)"},
};
#define N_METRICS (int)(sizeof metrics / sizeof metrics[0])

/* The simulator's memory counts of one launch as Nsight Compute's totals
 * (tests/gpu/ncu-counts-run.sh reads the line): "sim-counts baseline|student|
 * solution SIZE"
 * then metric=value, named as ncu names them. Shared requests are compared
 * with smsp__inst_executed_op_shared_*, instructions with any active lane.
 * cp.async's global side is in the global load totals too: Nsight Compute
 * 2025.3.1 counts an LDGSTS's global reads as global loads (H200,
 * 2026-11-29: lesson 9's solution, 473088 sectors in 59136 requests under
 * ..._op_ld, the simulator's cp.async figures exactly, and no ..._op_ldgsts
 * metric); the _op_ldgsts totals stay, cp.async's alone. */
static void print_sim_counts(FILE *f, enum variant v, size_t size, const mem_counts *mc)
{
    static const char *const ops[] = {"ld", "st", "atom", "red", "ldgsts"};
    double req[2][5] = {{0}}, units[2][5] = {{0}}, ideal[2][5] = {{0}};
    for (int i = 0; i < mc->n; i++) {
        const mem_count_row *r = &mc->row[i];
        int s = r->space == MS_SHARED, o = !strncmp(r->op, "cp.async", 8) ? 4
                                         : !strncmp(r->op, "ld", 2) ? 0
                                         : !strncmp(r->op, "st", 2) ? 1
                                         : !strncmp(r->op, "red", 3) ? 3 : 2;
        req[s][o] += r->requests;
        units[s][o] += r->units;
        ideal[s][o] += r->ideal;
        if (o == 4 && !s) {
            req[0][0] += r->requests;
            units[0][0] += r->units;
        }
    }
    static const char *const who[N_VARIANTS] = {"baseline", "student", "solution"};
    fprintf(f, "sim-counts %s %zu", who[v], size);
    for (int o = 0; o < 5; o++)
        fprintf(f, " l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum=%.0f"
                " l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum=%.0f", ops[o], req[0][o],
                ops[o], units[0][o]);
    for (int o = 0; o < 3; o++)
        fprintf(f, " smsp__inst_executed_op_shared_%s.sum=%.0f"
                " l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum=%.0f"
                " l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum=%.0f", ops[o],
                req[1][o], ops[o], units[1][o], ops[o], units[1][o] - ideal[1][o]);
    fprintf(f, "\n");
    fflush(f);
}

void profile_launch_once(const exercise *ex, const int *knobs, const grade_opts *o)
{
    /* No child result here: a failure goes to stderr (child_fail). */
    g_result = NULL;
    const device_ops *D = o->device ? o->device : &device_cuda;
    device_facts dev;
    char log[8192], note[400];
    if (D->probe(&dev, log, sizeof log))
        child_fail(OUT_NO_GPU, NULL, "No usable GPU: %s", log);
    compiled c[N_VARIANTS];
    const char *name[N_VARIANTS];
    kernel k[N_VARIANTS];
    /* The compile path every command takes (compile_jobs.h): the same rules
     * for the student's file as when it is graded. */
    int bad = exercise_compile(ex, knobs, o, dev.cc, D->compile, JOB_ALL, c, name, note,
                               sizeof note);
    if (bad >= 0)
        child_fail(c[bad].outcome ? c[bad].outcome : OUT_COMPILE_ERROR, c[bad].log, "%s: %s",
                   variant_name(bad), c[bad].error);
    for (int v = 0; v < N_VARIANTS; v++)
        if (D->load(&c[v], name[v], &k[v], log, sizeof log))
            child_fail(OUT_CRASH, log, "%s: cannot be loaded", variant_name(v));
    instance I;
    size_t size = o->profile_sim_size ? sim_largest_size(ex) : ex->time_size;
    if (instance_build(&I, ex, size, knobs, &dev, o->seed) != 0)
        child_fail(OUT_INTERNAL, NULL, "spec: %s", I.error);
    /* Baseline, student, solution: ncu numbers its results in this order. */
    for (int v = 0; v < N_VARIANTS; v++) {
        dev_set d;
        void *argp[MAX_ARGS];
        dev_set_upload(D, &d, &I);
        dev_set_poison(D, &d, &I);
        D->flush_l2(&dev);
        dev_set_args(&d, &I, argp);
        if (D == &device_cuda)   /* the uploads done before the launch ncu times */
            CUDA_CHECK(cudaDeviceSynchronize());
        if (D->count_next)
            D->count_next();
        launch_result L = D->launch(&k[v], &I, argp, 0, o->launch_timeout_s);
        if (L.status != LAUNCH_OK)
            child_fail(L.status == LAUNCH_HUNG ? OUT_HANG : OUT_RESOURCES, NULL,
                       "%s: the launch %s", variant_name(v),
                       L.status == LAUNCH_HUNG ? "did not finish" : "was refused");
        if (D->counts) {
            mem_counts mc;
            D->counts(&mc);
            print_sim_counts(stdout, (enum variant)v, size, &mc);
        }
        dev_set_free(D, &d);
    }
    exit(0);
}

/* The value in the last quoted CSV field of `line`, thousands separators
 * dropped; the metric's name is in the third field from the end. */
static int csv_metric(const char *line, char *name, size_t nlen, double *value)
{
    const char *f[32];
    int n = 0;
    for (const char *p = line; *p && n < 32; p++)
        if (*p == '"' && (p == line || p[-1] == ',')) {
            f[n++] = p + 1;
        }
    if (n < 3)
        return 0;
    const char *nm = f[n - 3], *val = f[n - 1];
    size_t l = strcspn(nm, "\"");
    snprintf(name, nlen, "%.*s", (int)l, nm);
    char digits[64];
    size_t d = 0;
    for (const char *p = val; *p && *p != '"' && d + 1 < sizeof digits; p++)
        if (*p != ',')
            digits[d++] = *p;
    digits[d] = 0;
    char *end;
    *value = strtod(digits, &end);
    return end != digits;
}

/* Where ncu is: on the PATH, else $CUDA_HOME/bin/ncu. 0, or -1 when there
 * is none. */
static int find_ncu(char *ncu, size_t len)
{
    const char *home = getenv("CUDA_HOME");
    if (system("command -v ncu >/dev/null 2>&1") == 0) {
        snprintf(ncu, len, "ncu");
        return 0;
    }
    if (home && snprintf(ncu, len, "%s/bin/ncu", home) > 0 && access(ncu, X_OK) == 0)
        return 0;
    return -1;
}

/* ncu's CSV log: each metric's value per version (the launch's ID is the
 * version). Returns 1 when any was read. */
static int read_counters(const char *log, double val[N_VARIANTS][N_METRICS],
                         int seen[N_VARIANTS][N_METRICS])
{
    FILE *f = fopen(log, "r");
    char line[4096];
    int any = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] != '"' || !strncmp(line, "\"ID\"", 4))
            continue;
        int id = atoi(line + 1);
        char name[256];
        double v;
        if (id < 0 || id >= N_VARIANTS || !csv_metric(line, name, sizeof name, &v))
            continue;
        for (int m = 0; m < N_METRICS; m++)
            if (!strcmp(name, metrics[m].metric)) {
                val[id][m] = v;
                seen[id][m] = 1;
                any = 1;
            }
    }
    if (f)
        fclose(f);
    return any;
}

/* No counter read: say why, from what ncu wrote to `errpath`. */
static void say_unread(FILE *out, const exercise *ex, const char *errpath)
{
    char *err = NULL;
    FILE *e = fopen(errpath, "r");
    char buf[1024] = "";
    if (e) {
        size_t n = fread(buf, 1, sizeof buf - 1, e);
        buf[n] = 0;
        fclose(e);
        err = buf;
    }
    int perm = err && strstr(err, "ERR_NVGPUCTRPERM");
    fprintf(out, "   Nsight Compute could not read the counters for lesson%d/%s%s. Grading "
                 "does not depend on them.\n",
            ex->lesson, ex->name,
            perm ? ": this user may not read GPU performance counters (see NVIDIA's "
                   "ERR_NVGPUCTRPERM page, or ask the machine's administrator)" : "");
    if (!perm && err && *err)
        fprintf(out, "     | %s\n", strtok(err, "\n"));
    fprintf(out, "\n");
}

/* The three versions' counters side by side; a metric no version has is
 * left out, a version without it shows "-". */
static void print_counters(FILE *out, double val[N_VARIANTS][N_METRICS],
                           int seen[N_VARIANTS][N_METRICS])
{
    fprintf(out, "   Nsight Compute, one launch each on the timing problem:\n");
    fprintf(out, "   %-44s %14s %14s %14s\n", "", "baseline", "yours", "reference");
    for (int m = 0; m < N_METRICS; m++) {
        if (!seen[0][m] && !seen[1][m] && !seen[2][m])
            continue;
        fprintf(out, "   %-44s", metrics[m].label);
        for (int v = 0; v < N_VARIANTS; v++)
            if (seen[v][m])
                fprintf(out, " %14.6g", val[v][m]);
            else
                fprintf(out, " %14s", "-");
        fprintf(out, "\n");
    }
    fprintf(out, "\n");
}

int profile_exercise(const exercise *ex, const options_for_profile *p, FILE *out,
                     ncu_evidence *ev)
{
    memset(ev, 0, sizeof *ev);
    char ncu[512] = "";
    if (find_ncu(ncu, sizeof ncu) != 0) {
        fprintf(out, "   Nsight Compute (ncu) is not installed here, so no hardware counters "
                     "for lesson%d/%s. Grading does not depend on them.\n\n", ex->lesson, ex->name);
        return -1;
    }
    char list[2048] = "";
    for (int m = 0; m < N_METRICS; m++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", m ? "," : "",
                 metrics[m].metric);
    char log[] = "/tmp/grader-ncu-XXXXXX";
    int fd = mkstemp(log);
    if (fd < 0) {
        fprintf(out, "   Nsight Compute was not run for lesson%d/%s: no temporary file for "
                     "its log (%s). Grading does not depend on it.\n\n", ex->lesson, ex->name,
                strerror(errno));
        return -1;
    }
    close(fd);
    char cmd[8192], errpath[64];
    /* --clock-control none: measure the card as it is set, never change it. */
    snprintf(cmd, sizeof cmd,
             "%s --clock-control none --csv --metrics %s --log-file %s %s profile-one "
             "lesson%d --only %s --root %s --student-dir %s %s >/dev/null 2>%s.err",
             ncu, list, log, p->self, ex->lesson, ex->name, p->root, p->student_dir, p->sets,
             log);
    /* Its status says nothing the log does not: what was read is the answer. */
    (void)system(cmd);
    snprintf(errpath, sizeof errpath, "%s.err", log);
    double val[N_VARIANTS][N_METRICS];
    int seen[N_VARIANTS][N_METRICS] = {{0}};
    int any = read_counters(log, val, seen);
    if (any) {
        ev->read = 1;
        for (int v = 0; v < N_VARIANTS; v++)
            ev->conflicts[v] = seen[v][0] ? val[v][0] : -1;
        print_counters(out, val, seen);
    } else
        say_unread(out, ex, errpath);
    unlink(log);
    unlink(errpath);
    return any ? 0 : -1;
}
