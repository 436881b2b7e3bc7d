/* grade_run.c: one launch, the checks after it, and the correctness runs. */
#include <stdio.h>
#include <string.h>
#include "grade_internal.h"
#include "diagnose.h"
#include "kernel_output.h"
#include "launch_limits.h"
#include "verify.h"

static const char course_bug[] =
    " This is a bug in the course, not in your kernel; please report it.";

/* WRONG for the student's kernel; the course's own versions are trusted, so
 * the same finding about them is the course's fault. */
static enum outcome fault_of(enum variant v)
{
    return v == V_STUDENT ? OUT_WRONG : OUT_INTERNAL;
}

static const char *blame(enum variant v)
{
    return v == V_STUDENT ? "" : course_bug;
}

/* The kernel argument (counting from 1) that is buffer b. */
static int arg_of(const instance *I, int b)
{
    for (int a = 0; a < I->nargs; a++)
        if ((I->args[a].kind == ARG_INPUT || I->args[a].kind == ARG_OUTPUT) && I->args[a].buf == b)
            return a + 1;
    return 0;
}

void build_instance(grade_ctx *g, instance *I, size_t size, unsigned long long seed)
{
    set_stage("building the inputs of size %zu", size);
    if (instance_build(I, g->ex, size, g->knobs, &g->dev, seed) != 0)
        child_fail(OUT_INTERNAL, NULL, "The exercise's spec is broken: %s.%s", I->error,
                   course_bug);
}

/* The spec's __constant__ data into v's module, before every launch. */
static void upload_constants(grade_ctx *g, enum variant v, const instance *I)
{
    for (int c = 0; c < I->nconsts; c++) {
        const constant *C = &I->consts[c];
        void *at;
        size_t bytes;
        if (g->D->constant_slot(&g->k[v], C->symbol, &at, &bytes) != 0)
            child_fail(v == V_STUDENT ? OUT_MISSING : OUT_INTERNAL, NULL,
                       "%s has no __constant__ variable named '%s'. The exercise copies its "
                       "table (%zu bytes) into that variable before every launch: declare it "
                       "at file scope, outside any namespace, as __constant__ with this "
                       "name, and do not rename it.%s", variant_name(v), C->symbol, C->bytes,
                       blame(v));
        if (bytes < C->bytes)
            child_fail(v == V_STUDENT ? OUT_WRONG : OUT_INTERNAL, NULL,
                       "%s declares the __constant__ variable '%s' with %zu bytes, but the "
                       "exercise's table has %zu: declare it with the size the lesson gives."
                       "%s", variant_name(v), C->symbol, bytes, C->bytes, blame(v));
        g->D->upload(at, C->data, C->bytes);
    }
}

_Noreturn static void refused(grade_ctx *g, enum variant v, const instance *I,
                              const launch_result *L)
{
    kernel_limits kl;
    char why[768], detail[128];
    unsigned threads = I->block[0] * I->block[1] * I->block[2];
    g->D->limits(&g->k[v], &kl);
    if (!launch_limit_broken(&kl, threads, I->dyn_smem, &g->dev, why, sizeof why))
        snprintf(why, sizeof why, "The block asks for %u threads, %d registers per thread, "
                 "%zu bytes of static and %zu bytes of dynamic shared memory: one of these "
                 "is more than this GPU or this kernel allows.", threads, kl.regs,
                 kl.smem_static, I->dyn_smem);
    snprintf(detail, sizeof detail, "failing call: cudaLaunchKernel (%s)", L->error);
    child_fail(OUT_RESOURCES, detail, "While %s: the GPU refused the launch (%s). %s",
               g->r->stage, L->error, why);
}

/* Before a launch of v: the lines the launch before it printed (they have
 * reached the process by now: the checks after it synchronised) go to
 * that launch's version. */
static void tally_printed(grade_ctx *g, enum variant v)
{
    long now = kout_lines();
    if (g->printed_by_v >= 0 && g->printed_by_v < N_VARIANTS)
        g->printed_last[g->printed_by_v] = now - g->printed_mark;
    g->printed_mark = now;
    g->printed_by_v = (int)v;
}

/* A launch of v ran past the time limit: what to look at. A kernel that
 * printed before is most likely still printing (device printf is slow and
 * its lines reach the host only at a synchronisation, so none of this
 * launch's are counted): say so, with the numbers, rather than suggest a
 * loop that never ends. */
_Noreturn static void hung(grade_ctx *g, enum variant v)
{
    long total = kout_lines(), last = g->printed_last[v];
    if (total <= 0)
        child_fail(OUT_HANG, NULL, "While %s: the launch did not finish within %.0f s. %s",
                   g->r->stage, g->o->launch_timeout_s, diagnose_hang(g->r->diags));
    child_fail(OUT_HANG, NULL, "While %s: the launch did not finish within %.0f s, and "
               "printf is what most likely took the time: %s printed %ld line%s in the "
               "launches before this one (%ld in its last one; the first launch's first "
               "lines are shown below). Device printf is slow: every call formats its line "
               "into a buffer the host drains only when the launch ends, and a kernel that "
               "prints from every thread prints a line per element, so the larger the "
               "problem the longer printing takes, until it runs past the limit even though "
               "the kernel itself would end. Print from one thread (if (i == 0) printf(...)) "
               "or under a condition a few elements meet, and remove the prints before "
               "judging speed.", g->r->stage, g->o->launch_timeout_s, variant_name(v), total,
               total == 1 ? "" : "s", last);
}

double run_launch(grade_ctx *g, enum variant v, const instance *I, dev_set *d, int timed)
{
    void *argp[MAX_ARGS];
    dev_set_poison(g->D, d, I);
    upload_constants(g, v, I);
    if (timed)
        g->D->flush_l2(&g->dev);
    dev_set_args(d, I, argp);
    kout_trim();
    tally_printed(g, v);
    launch_result L = g->D->launch(&g->k[v], I, argp, timed, g->o->launch_timeout_s);
    if (L.status == LAUNCH_REFUSED)
        refused(g, v, I, &L);
    if (L.status == LAUNCH_HUNG)
        hung(g, v);
    return L.ms;
}

void guards_broken(enum variant v, const instance *I, guard_damage dmg, const char *when,
                   int owner)
{
    const buffer *B = &I->bufs[dmg.buf];
    long es = (long)elem_size(B->type), end = (long)(B->count * elem_size(B->type));
    long elem = dmg.offset >= 0 ? dmg.offset / es : -((-dmg.offset + es - 1) / es);
    static const char nothing_kept[] = "the GPU hands out memory in 2 MiB pages, so an "
        "array's last page runs on past its end, and the grader fills every byte of its "
        "memory that is no array and checks it after every launch. A kernel may keep nothing "
        "there (nor anywhere else) from one launch to the next.";
    if (owner >= 0 && owner != (int)v && B->is_output)
        child_fail(fault_of(v), NULL, "%s wrote into memory beside its arrays (%s): %zu guard "
                   "bytes changed, the first %ld bytes %s the output array that %s gets as "
                   "argument %d, memory no array of yours uses: %s%s", variant_name(v), when,
                   dmg.bytes, dmg.offset < 0 ? -dmg.offset : dmg.offset - end,
                   dmg.offset < 0 ? "before" : "after", variant_name((enum variant)owner),
                   arg_of(I, dmg.buf), nothing_kept, blame(v));
    char where[700] = "";
    if (dmg.offset >= end + GUARD_BYTES)
        snprintf(where, sizeof where, " That byte (byte offset %ld) is %ld bytes past the "
                 "array's end, beyond its guard, in memory no array uses: %s", dmg.offset,
                 dmg.offset - end, nothing_kept);
    child_fail(fault_of(v), NULL, "%s wrote outside its %s array (argument %d; %s): %zu guard "
               "bytes changed, the first at element %ld of an array of %zu %ss.%s An index is "
               "out of range: check the bounds test (i < n) and how the index is built from "
               "blockIdx and threadIdx.%s", variant_name(v), B->is_output ? "output" : "input",
               arg_of(I, dmg.buf), when, dmg.bytes, elem, B->count, elem_name(B->type), where,
               blame(v));
}

void check_guards(grade_ctx *g, enum variant v, const instance *I, const dev_set *d,
                  const char *when)
{
    guard_damage dmg = dev_set_guards(g->D, d, I);
    if (dmg.bytes)
        guards_broken(v, I, dmg, when, -1);
}

void check_inputs(grade_ctx *g, enum variant v, const instance *I, const dev_set *d,
                  const char *when)
{
    input_change ch = dev_set_inputs_changed(g->D, d, I);
    if (!ch.elems)
        return;
    const buffer *B = &I->bufs[ch.buf];
    child_fail(fault_of(v), NULL, "%s changed its input: the array passed as argument %d "
               "(%zu %ss) no longer holds what the grader put there (%s). %zu elements "
               "differ, the first at element %zu (was %.9g, now %.9g). Inputs are "
               "read-only: a kernel that writes into them can hide results for a later "
               "launch. Write only to the output.%s", variant_name(v), arg_of(I, ch.buf),
               B->count, elem_name(B->type), when, ch.elems, ch.first, ch.was, ch.now,
               blame(v));
}

void check_outputs(grade_ctx *g, enum variant v, instance *I, const dev_set *d,
                   const char *when, const char *extra)
{
    mismatch_report rep;
    set_stage("reading back the output of %s (%s)", variant_name(v), when);
    dev_set_download(g->D, d, I);
    if (verify_outputs(I, g->ex->rtol, g->ex->atol, &rep) == 0)
        return;
    if (!extra)
        extra = "";
    if (rep.unwritten == rep.wrong)
        child_fail(fault_of(v), rep.text, "%s left %zu of %zu output values unwritten (%s). "
                   "The grader fills the output with a poison pattern before every launch; "
                   "these still hold it. Some threads, or some part of the index range, "
                   "never store a result: check that the grid covers every element.%s%s",
                   variant_name(v), rep.unwritten, rep.checked, when, extra, blame(v));
    child_fail(fault_of(v), rep.text, "%s computed %zu of %zu values wrong (%s; %zu never "
               "written). Tolerance: |got - expected| <= %g + %g*|expected|. Replay these "
               "inputs with SEED=%llu.%s%s", variant_name(v), rep.wrong, rep.checked, when,
               rep.unwritten, g->ex->atol, g->ex->rtol, g->r->seed, extra, blame(v));
}

void dump_outputs(grade_ctx *g, instance *I, const dev_set *d, size_t size,
                  unsigned long long seed)
{
    if (!g->o->dump_outputs)
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s/size%zu-seed%llu.bin", g->o->dump_outputs, size, seed);
    dev_set_download(g->D, d, I);
    FILE *f = fopen(path, "wb");
    int ok = f != NULL;
    for (int b = 0; ok && b < I->nbufs; b++)
        if (I->bufs[b].is_output)
            ok = fwrite(I->bufs[b].host, elem_size(I->bufs[b].type), I->bufs[b].count, f) ==
                 I->bufs[b].count;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        child_fail(OUT_INTERNAL, NULL, "Could not write the outputs to %s (--dump-outputs).",
                   path);
}

void check_correctness(grade_ctx *g)
{
    /* The student's kernel first: its failure is the one to report. One
     * copy of the inputs per size serves all three: each run is checked
     * before the next one reads them. */
    static const enum variant order[N_VARIANTS] = {V_STUDENT, V_SOLUTION, V_BASELINE};
    for (int s = 0; s < MAX_SIZES && g->ex->check_sizes[s]; s++) {
        instance I;
        dev_set d;
        size_t size = g->ex->check_sizes[s];
        char when[64];
        snprintf(when, sizeof when, "size %zu", size);
        build_instance(g, &I, size, g->r->seed + (unsigned)s);
        dev_set_upload(g->D, &d, &I);
        for (int j = 0; j < N_VARIANTS; j++) {
            enum variant v = order[j];
            if (g->o->correctness_only && v != V_STUDENT)
                continue;
            set_stage("running %s at size %zu", variant_name(v), size);
            /* What the student's kernel prints, from its first launch only. */
            int first = s == 0 && v == V_STUDENT && kout_first_begin() == 0;
            run_launch(g, v, &I, &d, 0);
            if (first) {
                if (g->D->sync)
                    g->D->sync();
                kout_first_end(g->r, !g->o->correctness_only);
            }
            set_stage("checking %s at size %zu", variant_name(v), size);
            check_guards(g, v, &I, &d, when);
            check_inputs(g, v, &I, &d, when);
            if (v == V_STUDENT)
                dump_outputs(g, &I, &d, size, g->r->seed + (unsigned)s);
            check_outputs(g, v, &I, &d, when, NULL);
        }
        dev_set_free(g->D, &d);
        instance_free(&I);
    }
}
