/* scenario_describe.c -- a scenario's workload in words, for the reports'
 * header ("time series: 50 metrics x 20 hosts, one point each per 1 s (1000
 * writes/s), 30 min").
 *
 * The text is the scenario's, not the run's: the engine hands it to the
 * reports unchanged (run_result's workload line), so the same scenario
 * reads the same whatever ran it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "workloads/ycsb_workload.h"

#define DAY_US (86400ull * 1000000ull)

/* A phase's length: minutes under a day ("30 min", "90 min"), days from
 * one day on ("1 d", "30 d", "1.5 d"). */
static void phase_length(uint64_t us, char *out, size_t cap)
{
    if (us < DAY_US)
        snprintf(out, cap, "%.6g min", (double)us / 60e6);
    else
        snprintf(out, cap, "%.6g d", (double)us / (double)DAY_US);
}

/* A YCSB phase in words: "YCSB load: 100000 inserts of 10 x 100 B fields,
 * 1 thread" or "YCSB run: 200000 operations (read 50%, update 50%),
 * zipfian, 1 thread". */
static void describe_ycsb_phase(const phase *ph, char *out, size_t cap)
{
    const ycsb_workload *w = ph->pattern.ycsb;
    char how[64];
    if (w->target > 0)
        snprintf(how, sizeof how, "at %.6g ops/s", w->target);
    else
        snprintf(how, sizeof how, "%u thread%s", ph->clients, ph->clients == 1 ? "" : "s");
    if (ph->pattern.ycsb_phase == YCSB_PHASE_LOAD) {
        snprintf(out, cap, "YCSB load: %lld inserts of %d x %d B fields, %s",
                 (long long)w->core.insertcount, w->fieldcount, w->fieldlength, how);
        return;
    }
    static const char *const names[] = { "read", "update", "insert", "scan", "readmodifywrite" };
    const double share[] = { w->core.readproportion, w->core.updateproportion,
                             w->core.insertproportion, w->core.scanproportion,
                             w->core.readmodifywriteproportion };
    double sum = 0;
    for (int i = 0; i < 5; i++)
        sum += share[i];
    char mix[160] = "";
    for (int i = 0; i < 5; i++) {
        if (!(share[i] > 0))
            continue;
        size_t used = strlen(mix);
        snprintf(mix + used, sizeof mix - used, "%s%s %.3g%%", used ? ", " : "", names[i],
                 share[i] / sum * 100);
    }
    snprintf(out, cap, "YCSB run: %d operations (%s), %s, %s", w->core.operationcount, mix,
             ycsb_requestdist_name(w->core.requestdistribution), how);
}

/* One phase in words, e.g. "time series: 50 metrics x 20 hosts, one point
 * each per 1 s (1000 writes/s), 30 min". */
static void describe_phase(const phase *ph, char *out, size_t cap)
{
    const pattern_config *c = &ph->pattern;
    char length[64];
    if (pattern_is_finite(c) && !ph->duration_given)
        snprintf(length, sizeof length, "to its end");
    else
        phase_length(ph->duration_us, length, sizeof length);
    switch (c->kind) {
    case PATTERN_TIMESERIES: {
        double series = (double)c->metrics * c->hosts * c->tags;
        char tags[32] = "";
        if (c->tags > 1)
            snprintf(tags, sizeof tags, " x %u tags", c->tags);
        snprintf(out, cap, "time series: %u metrics x %u hosts%s, one point each per %.6g s "
                 "(%.6g writes/s)%s, %s", c->metrics, c->hosts, tags,
                 (double)c->interval_us / 1e6, series * 1e6 / (double)c->interval_us,
                 c->jitter_us ? " with jitter" : "", length);
        break;
    }
    case PATTERN_ENTITIES: /* YCSB's mix: reads, inserts, the rest updates */
        snprintf(out, cap, "entities: %llu records, %s, %.6g ops/s %s (%.6g%% reads, %.6g%% "
                 "inserts, the rest updates), %s", (unsigned long long)c->records,
                 scenario_choice_name("distribution", c->distribution), c->rate_per_s,
                 scenario_choice_name("arrivals", c->arrivals), ph->reads.fraction * 100,
                 c->insert_fraction * 100, length);
        break;
    case PATTERN_SEQUENCE:
        if (ph->reads.fraction > 0)
            snprintf(out, cap, "sequence: new ids at %.6g ops/s %s (%.6g%% reads of ids "
                     "written), %s", c->rate_per_s, scenario_choice_name("arrivals", c->arrivals),
                     ph->reads.fraction * 100, length);
        else
            snprintf(out, cap, "sequence: new ids at %.6g writes/s %s, %s", c->rate_per_s,
                     scenario_choice_name("arrivals", c->arrivals), length);
        break;
    case PATTERN_TRACE:
        snprintf(out, cap, "trace %s, %s", c->trace_path ? c->trace_path : "?", length);
        break;
    case PATTERN_YCSB:
        describe_ycsb_phase(ph, out, cap);
        break;
    }
}

char *scenario_describe_workload(const scenario *sc)
{
    char text[1024] = "", one[256];
    size_t n = scenario_phase_count(sc);
    for (size_t i = 0; i < n; i++) {
        const phase *ph = scenario_phase(sc, i);
        describe_phase(ph, one, sizeof one);
        size_t used = strlen(text);
        if (n > 1)
            snprintf(text + used, sizeof text - used, "%s%s: %s", i ? "; then " : "",
                     ph->name, one);
        else
            snprintf(text + used, sizeof text - used, "%s", one);
    }
    return strdup(text);
}

