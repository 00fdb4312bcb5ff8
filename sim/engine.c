/* engine.c -- the discrete-event loop.
 *
 * Two kinds of things happen in simulated time: write arrivals, one stream
 * produced by the workload pattern, and ticks (balancer runs, report window
 * boundaries) kept in a small priority queue. The arrival stream is not put
 * through the queue: the loop compares the next arrival with the earliest
 * tick and runs whichever comes first (a tick wins a tie, so a write at
 * exactly t = 60 s lands in the window that starts then). Writes between two
 * ticks therefore run in a tight loop: pattern -> key -> route -> store.
 *
 * Everything a run needs lives in a run_state on the stack of engine_run;
 * nothing is global.
 */
#include "sim/engine.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/balancer.h"
#include "sim/eventq.h"
#include "workloads/keyscheme.h"
#include "workloads/pattern.h"
#include "workloads/rng.h"

enum tick_kind { TICK_BALANCER = 1, TICK_WINDOW = 2 };

/* Random streams of a run, one per consumer (see workloads/rng.h). */
enum { RNG_STREAM_KEYS = 1 };

typedef struct run_state {
    const scenario *sc;
    keyscheme *scheme;
    keyencoder *encoder;
    pattern *workload;
    cluster *table;
    eventq ticks;
    uint64_t window;          /* current report window */
    uint64_t cell_overhead;
    uint64_t key_bytes_sum;
    int have_example;
} run_state;

static int engine_fail(char *err, size_t cap, const char *what)
{
    snprintf(err, cap, "%s", what);
    return -1;
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static char *format_key(keyref k)
{
    size_t n = key_format_len(k) + 1;
    char *p = malloc(n);
    if (p)
        key_format(k, p, n);
    return p;
}

/* The split keys that give one region per bucket, or none. */
static int presplit_keys(const run_state *st, uint8_t (**prefixes)[2], keyref **keys,
                         size_t *n)
{
    size_t width = 0;
    uint32_t buckets = keyscheme_buckets(st->scheme, &width);
    *n = 0;
    *prefixes = NULL;
    *keys = NULL;
    if (st->sc->presplit != PRESPLIT_BUCKETS || buckets < 2)
        return 0;
    *prefixes = malloc((buckets - 1) * sizeof **prefixes);
    *keys = malloc((buckets - 1) * sizeof **keys);
    if (!*prefixes || !*keys)
        return -1;
    for (uint32_t b = 1; b < buckets; b++) {
        size_t w = keyscheme_bucket_prefix(st->scheme, b, (*prefixes)[b - 1]);
        (*keys)[b - 1] = keyref_of((*prefixes)[b - 1], w);
    }
    *n = buckets - 1;
    return 0;
}

static int run_setup(run_state *st, run_result *out, size_t scheme, char *err, size_t errcap)
{
    const scenario *sc = st->sc;
    char expr[1024], why[512];
    int is_preset = scenario_scheme_expr(sc, scheme, expr, sizeof expr);
    if (keyscheme_parse(expr, &st->scheme, why, sizeof why) < 0) {
        snprintf(err, errcap, "scheme '%s': %s", scenario_scheme_label(sc, scheme), why);
        return -1;
    }
    rng keys_rng = rng_stream(sc->seed, RNG_STREAM_KEYS);
    st->encoder = keyencoder_new(st->scheme, rng_next(&keys_rng));
    st->workload = pattern_timeseries_new(&sc->series);
    if (!st->encoder || !st->workload)
        return engine_fail(err, errcap, "out of memory setting up the run");

    uint8_t (*prefixes)[2];
    keyref *splits;
    size_t nsplits, bad;
    split_policy policy = { SPLIT_SIZE, sc->region_max_bytes };
    if (presplit_keys(st, &prefixes, &splits, &nsplits) == 0)
        st->table = cluster_new(sc->servers, splits, nsplits, policy, &bad);
    free(prefixes);
    free(splits);
    if (!st->table)
        return engine_fail(err, errcap, "out of memory creating the table");

    char presplit[64];
    if (nsplits)
        snprintf(presplit, sizeof presplit, "%zu regions at bucket boundaries", nsplits + 1);
    else
        snprintf(presplit, sizeof presplit, "none");
    /* A preset or a named [scheme] keeps its name; a bare expression is
     * shown normalised. */
    const char *label = sc->schemes[scheme].label || is_preset
                            ? scenario_scheme_label(sc, scheme)
                            : keyscheme_expr(st->scheme);
    out->scheme_name = dup_string(label);
    out->scheme_expr = dup_string(keyscheme_expr(st->scheme));
    out->presplit = dup_string(presplit);
    out->nservers = sc->servers;
    out->servers = calloc(sc->servers, sizeof *out->servers);
    out->window_us = sc->window_us;
    out->nwindows = (uint32_t)((sc->duration_us + sc->window_us - 1) / sc->window_us);
    out->window_writes = calloc((size_t)out->nwindows * sc->servers, sizeof(uint64_t));
    out->window_reads = calloc((size_t)out->nwindows * sc->servers, sizeof(uint64_t));
    out->regions_start = regionmap_count(st->table->map);
    out->offered_per_s = pattern_rate_per_s(st->workload);
    out->key_bytes_min = UINT64_MAX;
    if (!out->scheme_name || !out->scheme_expr || !out->presplit || !out->servers ||
        !out->window_writes || !out->window_reads)
        return engine_fail(err, errcap, "out of memory for the run's counters");

    st->cell_overhead = scenario_cell_overhead(sc);
    eventq_init(&st->ticks);
    if ((sc->balancer != BALANCER_NONE &&
         eventq_push(&st->ticks, sc->balancer_period_us, TICK_BALANCER, 0) < 0) ||
        eventq_push(&st->ticks, sc->window_us, TICK_WINDOW, 0) < 0)
        return engine_fail(err, errcap, "out of memory for the event queue");
    return 0;
}

/* One write: record -> key -> cluster, and the counters. Returns 1 to stop
 * (observer asked), 0 to go on, -1 on error. */
static int run_write(run_state *st, run_result *out, uint64_t t_us, const record *rec,
                     const engine_observer *obs)
{
    uint8_t key[KEYSCHEME_MAX_KEY];
    size_t len = keyencoder_encode(st->encoder, rec, key, sizeof key);
    keyref k = keyref_of(key, len);
    size_t region_index;
    uint32_t s;
    if (cluster_write(st->table, k, (uint32_t)(len + st->cell_overhead), &region_index, &s) < 0)
        return -1;
    assert(st->window < out->nwindows);
    out->window_writes[st->window * out->nservers + s]++;
    out->writes++;
    st->key_bytes_sum += len;
    if (len < out->key_bytes_min)
        out->key_bytes_min = len;
    if (len > out->key_bytes_max)
        out->key_bytes_max = len;
    if (!st->have_example) {
        out->key_example = format_key(k);
        st->have_example = 1;
        if (!out->key_example)
            return -1;
    }
    if (obs && obs->on_write)
        return obs->on_write(obs->ctx, t_us, k, st->table, s) != 0;
    return 0;
}

static int run_tick(run_state *st, run_result *out, const event *ev)
{
    const scenario *sc = st->sc;
    switch (ev->kind) {
    case TICK_BALANCER:
        if (balancer_run(sc->balancer, st->table) < 0)
            return -1;
        out->balancer_runs++;
        return eventq_push(&st->ticks, ev->t_us + sc->balancer_period_us, TICK_BALANCER, 0);
    case TICK_WINDOW:
        st->window++;
        return eventq_push(&st->ticks, ev->t_us + sc->window_us, TICK_WINDOW, 0);
    }
    return 0;
}

static int run_loop(run_state *st, run_result *out, const engine_observer *obs,
                    char *err, size_t errcap)
{
    const uint64_t end = st->sc->duration_us;
    uint64_t t_write = 0;
    record rec;
    int have_write = pattern_next(st->workload, &t_write, &rec);
    for (;;) {
        uint64_t t_tick = st->ticks.count ? st->ticks.heap[0].t_us : UINT64_MAX;
        if (have_write && t_write < t_tick && t_write < end) {
            int rc = run_write(st, out, t_write, &rec, obs);
            if (rc < 0)
                return engine_fail(err, errcap, "out of memory storing a write");
            if (rc > 0) {
                out->duration_us = t_write + 1;
                return 0;
            }
            have_write = pattern_next(st->workload, &t_write, &rec);
        } else if (t_tick < end) {
            event ev;
            eventq_pop(&st->ticks, &ev);
            if (run_tick(st, out, &ev) < 0)
                return engine_fail(err, errcap, "out of memory in a tick");
        } else {
            out->duration_us = end;
            return 0;
        }
    }
}

static void run_collect(run_state *st, run_result *out)
{
    cluster *c = st->table;
    for (uint32_t s = 0; s < out->nservers; s++) {
        server_result *sr = &out->servers[s];
        snprintf(sr->name, sizeof sr->name, "rs%u", s);
        sr->writes = c->servers[s].writes;
        sr->bytes = c->servers[s].bytes;
        sr->regions = c->servers[s].regions;
    }
    out->regions = regionmap_count(c->map);
    out->splits = c->splits;
    out->moves = c->moves;
    out->rows = cluster_rows(c);
    out->bytes = cluster_bytes(c);
    if (out->writes == 0)
        out->key_bytes_min = 0;
    out->key_bytes_mean = out->writes ? (double)st->key_bytes_sum / (double)out->writes : 0.0;
}

static void run_teardown(run_state *st)
{
    eventq_release(&st->ticks);
    cluster_free(st->table);
    pattern_free(st->workload);
    keyencoder_free(st->encoder);
    keyscheme_free(st->scheme);
}

int engine_run(const scenario *sc, size_t scheme, const engine_observer *obs,
               run_result *out, char *err, size_t errcap)
{
    assert(scheme < sc->nschemes);
    memset(out, 0, sizeof *out);
    run_state st;
    memset(&st, 0, sizeof st);
    st.sc = sc;
    int rc = run_setup(&st, out, scheme, err, errcap);
    if (rc == 0)
        rc = run_loop(&st, out, obs, err, errcap);
    if (rc == 0)
        run_collect(&st, out);
    run_teardown(&st);
    if (rc < 0)
        run_result_free(out);
    return rc;
}

void run_result_free(run_result *r)
{
    free(r->scheme_name);
    free(r->scheme_expr);
    free(r->key_example);
    free(r->presplit);
    free(r->servers);
    free(r->window_writes);
    free(r->window_reads);
    memset(r, 0, sizeof *r);
}

static const char *balancer_name(balancer_kind k)
{
    return k == BALANCER_REGION_COUNT ? "region-count" : "none";
}

static char *describe_workload(const scenario *sc)
{
    char text[256];
    const timeseries_config *ts = &sc->series;
    double rate = (double)ts->metrics * ts->hosts * 1e6 / (double)ts->interval_us;
    snprintf(text, sizeof text,
             "time series: %u metrics x %u hosts, one point each per %.6g s "
             "(%.6g writes/s), %.6g min",
             ts->metrics, ts->hosts, (double)ts->interval_us / 1e6, rate,
             (double)sc->duration_us / 60e6);
    return dup_string(text);
}

int engine_run_all(const scenario *sc, sim_results *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    out->runs = calloc(sc->nschemes, sizeof *out->runs);
    if (!out->runs)
        return engine_fail(err, errcap, "out of memory");
    for (size_t i = 0; i < sc->nschemes; i++) {
        if (engine_run(sc, i, NULL, &out->runs[i], err, errcap) < 0) {
            sim_results_free(out);
            return -1;
        }
        out->nruns++;
    }
    out->scenario = sc->name;
    out->seed = sc->seed;
    out->servers = sc->servers;
    out->split_policy = "size";
    out->region_max_bytes = sc->region_max_bytes;
    out->balancer = balancer_name(sc->balancer);
    out->balancer_period_us = sc->balancer_period_us;
    out->window_us = sc->window_us;
    out->cell_overhead_bytes = scenario_cell_overhead(sc);
    out->workload = describe_workload(sc);
    if (!out->workload) {
        sim_results_free(out);
        return engine_fail(err, errcap, "out of memory");
    }
    return 0;
}

void sim_results_free(sim_results *res)
{
    for (size_t i = 0; i < res->nruns; i++)
        run_result_free(&res->runs[i]);
    free(res->runs);
    free(res->workload);
    memset(res, 0, sizeof *res);
}
