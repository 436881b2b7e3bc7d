/* report_json.c: the machine-readable report, one record per exercise. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include "diagnose.h"
#include "report.h"
#include "report_counts.h"
#include "stats.h"

void json_escape(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void num(FILE *f, const char *key, double v, int last)
{
    /* JSON has no NaN or infinity: write null. */
    if (v != v || v > 1e300 || v < -1e300)
        fprintf(f, "\"%s\": null%s", key, last ? "" : ", ");
    else
        fprintf(f, "\"%s\": %.6g%s", key, v, last ? "" : ", ");
}

static void resources_json(FILE *f, const resources *r)
{
    if (!r->known) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"registers\": %d, \"stack_bytes\": %d, \"spill_stores\": %d, "
            "\"spill_loads\": %d, \"smem_static\": %d, \"smem_dynamic\": %d, "
            "\"occupancy_pct\": %d, \"blocks_per_sm\": %d, \"launch_occupancy_pct\": %d, "
            "\"launch_blocks_per_sm\": %d}",
            r->regs, r->stack_bytes, r->spill_stores, r->spill_loads, r->smem_static,
            r->smem_dynamic, r->occupancy_pct, r->blocks_per_sm,
            r->launch_blocks_per_sm > 0 ? r->launch_occupancy_pct : -1,
            r->launch_blocks_per_sm);
}

static const char *bar_kind_name(enum bar_kind b)
{
    switch (b) {
    case BAR_SPEEDUP: return "speedup";
    case BAR_BANDWIDTH: return "bandwidth";
    case BAR_MATCH_SOLUTION: return "match_solution";
    case BAR_NONE: return "none";
    }
    return "?";
}

static const char *check_kind_name(enum check_kind k)
{
    switch (k) {
    case CHECK_PTX_HAS: return "ptx_has";
    case CHECK_PTX_LACKS: return "ptx_lacks";
    case CHECK_MAX_LOCAL_BYTES: return "max_local_bytes";
    case CHECK_SMEM_BYTES: return "smem_bytes";
    case CHECK_MAX_REGS: return "max_registers";
    case CHECK_MIN_OCCUPANCY: return "min_occupancy";
    case CHECK_MIN_LOAD_BYTES: return "min_load_bytes";
    case CHECK_NONE: break;
    }
    return "none";
}

/* The exercise's mechanism checks as evaluated: [] when grading stopped
 * before them. */
static void checks_json(FILE *f, const exercise *ex, const result *r)
{
    static const char *const state[] = {
        [CS_NOT_EVALUATED] = "not_evaluated", [CS_HOLDS] = "holds", [CS_FAILS] = "fails",
        [CS_UNKNOWN] = "unknown",
    };
    fputs("[", f);
    for (int i = 0; i < MAX_CHECKS && r->checks[i].state != CS_NOT_EVALUATED; i++) {
        fprintf(f, "%s{\"kind\": \"%s\", \"state\": \"%s\", \"what\": ", i ? ", " : "",
                check_kind_name(ex->checks[i].kind), state[r->checks[i].state]);
        json_escape(f, r->checks[i].what);
        fputs("}", f);
    }
    fputs("]", f);
}

/* What the PTX simulator saw the kernel do with its data (watch_facts.h),
 * when a launch was watched: bytes by path, live and dead; a negative
 * figure is one that does not apply, written null. */
static void watch_json(FILE *f, const watch_facts *w)
{
    static const char *const path[WP_N] = {
        [WP_LOAD] = "load", [WP_LOAD_V16] = "load_v16", [WP_ASYNC] = "async",
        [WP_BULK] = "bulk", [WP_CONST] = "const",
    };
    fprintf(f, ", \"watch\": {\"blocks_run\": %u, \"blocks_total\": %u, \"live_bytes\": {",
            w->blocks_run, w->blocks_total);
    for (int p = 0; p < WP_N; p++)
        fprintf(f, "\"%s\": %.0f%s", path[p], w->live_bytes[p], p == WP_N - 1 ? "" : ", ");
    fputs("}, \"dead_bytes\": {", f);
    for (int p = 0; p < WP_N; p++)
        fprintf(f, "\"%s\": %.0f%s", path[p], w->dead_bytes[p], p == WP_N - 1 ? "" : ", ");
    fprintf(f, "}, \"live_uniform_bytes\": %.0f, ", w->live_uniform_bytes);
    num(f, "staged_pct", w->staged_pct < 0 ? NAN : w->staged_pct, 0);
    num(f, "wait_fetches", w->wait_fetches < 0 ? NAN : w->wait_fetches, 0);
    num(f, "smem_live_pct", w->smem_live_pct < 0 ? NAN : w->smem_live_pct, 0);
    num(f, "prefetch_served_pct", w->prefetch_served_pct < 0 ? NAN : w->prefetch_served_pct, 0);
    num(f, "prefetch_lead", w->prefetch_lead < 0 ? NAN : w->prefetch_lead, 1);
    fputs("}", f);
}

/* Little's law for a latency-bound exercise: the latency, and the bytes
 * in flight per SM the student's kernel sustained beside what the copy
 * bandwidth needs (null where the latency is unknown). */
static void in_flight_json(FILE *f, const result *r)
{
    double have = bytes_in_flight_per_sm(r->time[V_STUDENT].gbps, r->latency_ns, r->sm_count);
    double need = bytes_in_flight_per_sm(r->copy_gbps, r->latency_ns, r->sm_count);
    num(f, "latency_ns", r->latency_ns > 0 ? r->latency_ns : NAN, 0);
    fprintf(f, "\"sm_count\": %d, ", r->sm_count);
    num(f, "in_flight_bytes_per_sm", have > 0 ? have : NAN, 0);
    num(f, "in_flight_needed_per_sm", need > 0 ? need : NAN, 0);
    num(f, "in_flight_share", have > 0 && need > 0 ? have / need : NAN, 0);
}

/* The record's words: who it is, the outcome, the message (and the
 * simulator's note, when there is one), what the kernel printed and the
 * patterns diagnosed. */
static void words_json(FILE *f, const exercise *ex, const result *r)
{
    fprintf(f, "    {\"lesson\": %d, \"name\": ", ex->lesson);
    json_escape(f, ex->name);
    fputs(", \"title\": ", f);
    json_escape(f, ex->title);
    fputs(", \"file\": ", f);
    json_escape(f, ex->file);
    fprintf(f, ", \"demo\": %s, \"outcome\": ", ex->demo ? "true" : "false");
    json_escape(f, outcome_word(r->outcome));
    fprintf(f, ", \"passed\": %s, \"message\": ", outcome_is_pass(r->outcome) ? "true" : "false");
    json_escape(f, r->message);
    fputs(", \"detail\": ", f);
    json_escape(f, r->detail);
    if (r->sim_note[0]) {   /* the simulator's word on a GPU's WRONG or hang (sim_note.h) */
        fputs(", \"sim_note\": ", f);
        json_escape(f, r->sim_note);
    }
    /* The first correctness launch's output: its first lines, and how much in all. */
    fputs(", \"printed\": ", f);
    json_escape(f, r->printed);
    fprintf(f, ", \"printed_lines\": %ld, \"printed_bytes\": %ld, \"diagnoses\": [",
            r->printed_lines, r->printed_bytes);
    for (unsigned bit = 1, first = 1; bit; bit <<= 1)
        if ((r->diags & bit) && diagnose_name(bit)) {
            fprintf(f, "%s\"%s\"", first ? "" : ", ", diagnose_name(bit));
            first = 0;
        }
    fputc(']', f);
}

/* Where and how it ran, and the timings when there are any. */
static void run_json(FILE *f, const exercise *ex, const result *r)
{
    fputs(", \"gpu\": ", f);
    json_escape(f, r->gpu);
    fprintf(f, ", \"compute_capability\": %d, \"seed\": %llu, \"knobs\": {", r->cc, r->seed);
    for (int k = 0; k < MAX_KNOBS && ex->knobs[k].name; k++)
        fprintf(f, "%s\"%s\": %d", k ? ", " : "", ex->knobs[k].name, r->knobs[k]);
    fputs("}, \"bar_kind\": ", f);
    json_escape(f, bar_kind_name(ex->bar));
    fputs(", ", f);
    if (!r->timed)
        return;
    num(f, "baseline_ms", r->time[V_BASELINE].ms, 0);
    num(f, "student_ms", r->time[V_STUDENT].ms, 0);
    num(f, "solution_ms", r->time[V_SOLUTION].ms, 0);
    num(f, "speedup", r->speedup, 0);
    num(f, "solution_speedup", r->ref_speedup, 0);
    num(f, "measure", r->measure, 0);
    num(f, "bar", r->bar, 0);
    num(f, "student_gbps", r->time[V_STUDENT].gbps, 0);
    num(f, "copy_gbps", r->copy_gbps, 0);
    num(f, "noise", r->noise, 0);
    if (ex->latency_bound)
        in_flight_json(f, r);
    fprintf(f, "\"rounds\": %d, \"remeasured\": %d, ", r->time[V_STUDENT].reps, r->remeasured);
}

int write_json_report(const char *path, const graded *g, int n, const char *mode)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("{\n  \"mode\": ", f);
    json_escape(f, mode);
    fputs(",\n  \"exercises\": [\n", f);
    for (int i = 0; i < n; i++) {
        const exercise *ex = g[i].ex;
        const result *r = &g[i].r;
        words_json(f, ex, r);
        run_json(f, ex, r);
        fprintf(f, "\"checked_without_gpu\": %s, \"simulated\": %s, \"checks\": ",
                r->no_gpu ? "true" : "false", r->simulated ? "true" : "false");
        checks_json(f, ex, r);
        if (r->watch.watched)
            watch_json(f, &r->watch);
        fputs(", \"resources\": {\"baseline\": ", f);
        resources_json(f, &r->res[V_BASELINE]);
        fputs(", \"student\": ", f);
        resources_json(f, &r->res[V_STUDENT]);
        fputs(", \"solution\": ", f);
        resources_json(f, &r->res[V_SOLUTION]);
        fputs("}, \"memory_counts\": ", f);
        json_mem_counts(f, &r->counts);
        fprintf(f, "}%s\n", i + 1 < n ? "," : "");
    }
    fputs("  ]\n}\n", f);
    if (fclose(f) != 0)
        return -1;
    return 0;
}
