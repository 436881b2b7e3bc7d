/* sim_load.c: a module's life (load, look-ups, free); sim.h is the manual. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_module.h"

void sim_free(sim_module *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nk; i++) {
        free(m->k[i].insn);
        free(m->k[i].init);
    }
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].space != SS_SHARED && m->vars[i].data) {
            sim_mem_remove(m->vars[i].data);
            free(m->vars[i].data);
        }
    free(m->k);
    free(m->vars);
    free(m->names);
    free(m);
}

sim_module *sim_load(const char *ptx, char *err, size_t len)
{
    sim_module *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    if (sim_parse_module(m, ptx, err, len) != 0) {
        sim_free(m);
        return NULL;
    }
    return m;
}

int sim_kernel(const sim_module *m, const char *name)
{
    for (int i = 0; i < m->nk; i++)
        if (!strcmp(m->k[i].name, name))
            return i;
    return -1;
}

void sim_kernel_facts_of(const sim_module *m, int k, sim_kernel_facts *f)
{
    const sim_kernel_code *c = &m->k[k];
    *f = (sim_kernel_facts){.smem_static = c->smem_static, .local_bytes = c->local_bytes,
                            .regs = c->nregs, .max_threads = c->max_threads};
}

int sim_symbol(sim_module *m, const char *name, void **at, size_t *bytes)
{
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i].space != SS_SHARED && !strcmp(m->vars[i].name, name)) {
            *at = m->vars[i].data;
            *bytes = m->vars[i].bytes;
            return 0;
        }
    return -1;
}
