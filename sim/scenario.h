/* scenario.h -- everything a simulation needs to know, as a plain struct.
 *
 * A scenario is the cluster (servers, split threshold, balancer), the
 * workload (a time series), how long to run, how to cut the report into
 * windows, and the key schemes to compare. scenario_defaults fills in the
 * built-in default scenario; the command line then overrides fields. A
 * scenario is pure configuration: it holds no simulation state, so one
 * scenario can be run any number of times.
 */
#ifndef REGIONSIM_SCENARIO_H
#define REGIONSIM_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "core/balancer.h"
#include "workloads/pattern.h"

typedef enum presplit_kind {
    PRESPLIT_NONE = 0,   /* every table starts as one region */
    PRESPLIT_BUCKETS,    /* schemes with a bucket prefix start with one region per bucket */
} presplit_kind;

#define SCENARIO_MAX_SCHEMES 64

typedef struct scenario {
    const char *name;             /* "default" for the built-in one */
    uint64_t seed;

    /* cluster */
    uint32_t servers;
    uint64_t region_max_bytes;    /* size split policy threshold */
    balancer_kind balancer;
    uint64_t balancer_period_us;  /* HBase's hbase.balancer.period */
    presplit_kind presplit;

    /* workload: a time series of metrics x hosts */
    timeseries_config series;
    uint32_t family_bytes, qualifier_bytes, value_bytes;
    uint64_t duration_us;         /* simulated time to run */
    uint64_t window_us;           /* report window */

    /* schemes: each a preset name or an expression */
    size_t nschemes;
    const char *schemes[SCENARIO_MAX_SCHEMES];
} scenario;

/* The built-in default scenario, with every preset as a scheme. */
void scenario_defaults(scenario *sc);

/* Bytes a cell adds beyond its row key: KeyValue's fixed fields
 * (4 key length + 4 value length + 2 row length + 1 family length
 * + 8 timestamp + 1 type = 20, from HBase's KeyValue layout) plus the
 * family, qualifier and value. */
uint64_t scenario_cell_overhead(const scenario *sc);

/* Resolves scheme i to its expression: a preset name gives the preset with
 * the bucket count set to the number of servers; anything else is taken as
 * an expression. Writes into out; returns 1 if it was a preset, else 0. */
int scenario_scheme_expr(const scenario *sc, size_t i, char *out, size_t cap);

/* Checks every field for range and every scheme for syntax. Returns 0, or
 * -1 with a message in err naming the field or scheme and what was wrong. */
int scenario_validate(const scenario *sc, char *err, size_t errcap);

#endif
