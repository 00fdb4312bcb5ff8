/* engine.c -- the discrete-event loop.
 *
 * Two kinds of things happen in simulated time: operations, one stream
 * produced by the current phase's workload pattern, and ticks kept in a
 * small priority queue (balancer runs, report window boundaries, phase
 * ends, closed-loop clients ready again, cluster events). The
 * operation stream is not put through the queue: the loop compares the next
 * operation with the earliest tick and runs whichever comes first (a tick
 * wins a tie, so an operation at exactly t = 60 s lands in the window that
 * starts then). Operations between two ticks therefore run in a tight loop:
 * pattern -> key -> route -> store.
 *
 * Phases run one after the other: a phase ends at its start plus its
 * duration (a phase-end tick), or, for a trace without a duration, just
 * after its last operation. The next phase's pattern starts there. Report
 * windows follow the run however long it turns out to be: their arrays
 * grow as time advances, so a trace of unknown length needs no first pass.
 *
 * Open loop: operations arrive at the pattern's times whatever happens to
 * them. Closed loop (`clients` C > 0): C clients each issue an operation,
 * wait for its reply, think, and issue the next; their next issue times are
 * client ticks in the queue, and the pattern only says what they do.
 * Either way an operation's reply time is known when it is issued (the
 * servers are FIFO queues, core/server.h), so no completion events exist.
 *
 * A write stores its cell and is served by its region's server; a read is
 * planned by the key scheme into row ranges, sent as one RPC per region
 * touched, and scored against the truth of what was written (engine/truth).
 *
 * Everything a run needs lives in a run_state on the stack of engine_run;
 * nothing is global.
 */
#include "engine/engine_impl.h"

#include "engine/budget.h"
#include "scenario/units.h"
#include "engine/windows.h"
#include "scenario/weighting.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int engine_fail(char *err, size_t cap, const char *what)
{
    snprintf(err, cap, "%s", what);
    return -1;
}

/* The split keys that give one region per bucket (when the scheme's key
 * starts with one), into *keys and *bytes (2 bytes a bucket). */
static int bucket_split_keys(const run_state *st, keyref **keys, uint8_t **bytes, size_t *n)
{
    size_t width = 0;
    uint32_t buckets = keyscheme_buckets(st->scheme, &width);
    *n = 0;
    *keys = NULL;
    *bytes = NULL;
    if (buckets < 2)
        return 0;
    *bytes = malloc(2 * (size_t)(buckets - 1));
    *keys = malloc((buckets - 1) * sizeof **keys);
    if (!*bytes || !*keys)
        return -1;
    for (uint32_t b = 1; b < buckets; b++) {
        uint8_t *at = *bytes + 2 * (size_t)(b - 1);
        size_t w = keyscheme_bucket_prefix(st->scheme, b, at);
        (*keys)[b - 1] = keyref_of(at, w);
    }
    *n = buckets - 1;
    return 0;
}

/* The table's split keys: the scheme's buckets, or the scenario's keys or
 * RegionSplitter algorithm. */
static int table_split_keys(const run_state *st, keyref **keys, uint8_t **bytes, size_t *n,
                            char *err, size_t errcap)
{
    if (st->sc->presplit == PRESPLIT_BUCKETS) {
        if (bucket_split_keys(st, keys, bytes, n) == 0)
            return 0;
        return engine_fail(err, errcap, "out of memory for the split keys");
    }
    char why[512];
    if (scenario_split_keys(st->sc, keys, bytes, n, why, sizeof why) == 0)
        return 0;
    snprintf(err, errcap, "presplit: %s", why);
    return -1;
}

/* The balancer's source of randomness: the run's balancer stream. */
static uint32_t balancer_below(void *ctx, uint32_t n)
{
    return (uint32_t)rng_below(ctx, n);
}

static double balancer_unit(void *ctx)
{
    return rng_double(ctx);
}

/* Makes room for window w in the window arrays. */
static int ensure_window(run_state *st, run_result *out, uint64_t w)
{
    if (w < st->windows_cap)
        return 0;
    if (w >= MAX_WINDOWS)
        return -1;
    uint64_t cap = st->windows_cap ? 2ull * st->windows_cap : 64;
    while (cap <= w)
        cap *= 2;
    if (cap > MAX_WINDOWS)
        cap = MAX_WINDOWS;
    size_t n = (size_t)cap * out->nservers, old = (size_t)st->windows_cap * out->nservers;
    uint64_t *wr = realloc(out->window_writes, n * sizeof *wr);
    if (wr)
        out->window_writes = wr;
    uint64_t *rd = NULL; /* a run that cannot read keeps no read counters (NULL: all 0) */
    if (st->may_read && (rd = realloc(out->window_reads, n * sizeof *rd)) != NULL)
        out->window_reads = rd;
    uint64_t *rg = realloc(out->window_regions, (size_t)cap * sizeof *rg);
    if (rg)
        out->window_regions = rg;
    if (!wr || (st->may_read && !rd) || !rg)
        return -1;
    memset(wr + old, 0, (n - old) * sizeof *wr);
    if (rd)
        memset(rd + old, 0, (n - old) * sizeof *rd);
    memset(rg + st->windows_cap, 0, (size_t)(cap - st->windows_cap) * sizeof *rg);
    st->windows_cap = (uint32_t)cap;
    return 0;
}

/* A trace phase cut short by its duration: the operations it did not reach
 * are read to the end of the trace and counted, so the report can say how
 * many were left out (a trace read to its end also checks its last lines).
 * `first` counts one already read. Returns 0, or -1 on a trace error. */
static int leave_out_rest(run_state *st, uint64_t first, char *err, size_t errcap)
{
    if (!pattern_is_finite(&scenario_phase(st->sc, st->phase)->pattern))
        return 0; /* a generator without an end */
    uint64_t t;
    record rec;
    int rc;
    st->left_out += first;
    while ((rc = pattern_next(st->workload, &t, &rec, err, errcap)) > 0)
        st->left_out++;
    return rc;
}

/* An open-loop trace replayed to its end whose operations all share one
 * instant: it would cover one microsecond, and every rate and busy share
 * of the report would be that microsecond's (busy 1630034400.0%). */
static int instant_trace(const run_state *st, char *err, size_t errcap)
{
    const phase *ph = scenario_phase(st->sc, st->phase);
    char path[256];
    escape_text(ph->pattern.trace_path, 200, path, sizeof path);
    snprintf(err, errcap, "%s: all %llu operations of the trace %s are at one time "
             "(%llu us): replayed as timed they arrive in one microsecond; give them times, "
             "set a duration, or replay them closed-loop (clients = N)", ph->name,
             (unsigned long long)st->phase_ops, path,
             (unsigned long long)(st->last_op_us - st->phase_start_us));
    return -1;
}

/* Open loop: fetches the phase's next operation into st->op, or notes that
 * the pattern is done (an open-ended phase then ends just after its last
 * operation). Returns 0, or -1 on a pattern error. */
static int fetch_op(run_state *st, char *err, size_t errcap)
{
    uint64_t rel;
    int rc = engine_ahead_pull(st, &rel, &st->op, err, errcap);
    if (rc < 0)
        return -1;
    if (rc > 0 && rel > UINT64_MAX - 1 - st->phase_start_us) { /* UINT64_MAX is "never" */
        snprintf(err, errcap, "phase %s: an operation %llu us after the phase's start at %llu us "
                 "would pass the simulated clock's end (%llu us)",
                 scenario_phase(st->sc, st->phase)->name, (unsigned long long)rel,
                 (unsigned long long)st->phase_start_us, (unsigned long long)(UINT64_MAX - 1));
        return -1;
    }
    st->t_op = st->phase_start_us + rel;
    st->have_op = rc > 0 && st->t_op < st->phase_end_us;
    if (rc > 0 && !st->have_op)
        return leave_out_rest(st, 1, err, errcap);
    if (st->have_op && st->phase_ops++ == 0)
        st->phase_first_op_us = st->t_op;
    if (!st->have_op && st->phase_end_us == UINT64_MAX) {
        if (st->phase_ops > 1 && st->phase_first_op_us == st->last_op_us)
            return instant_trace(st, err, errcap);
        uint64_t end = st->last_op_us + 1 > st->phase_start_us ? st->last_op_us + 1
                                                               : st->phase_start_us;
        st->phase_end_us = end; /* known now: ticks from here on are past the phase */
        return eventq_push(&st->ticks, end, PHASE_TICK(TICK_PHASE_END, st->phase), 0);
    }
    return 0;
}

/* Starts phase i at time t: its pattern, its end, its clients. */
static int phase_begin(run_state *st, size_t i, uint64_t t, char *err, size_t errcap)
{
    const phase *ph = scenario_phase(st->sc, i);
    pattern_free(st->workload);
    rng r = rng_stream(st->sc->seed, RNG_STREAM_PATTERN + i);
    char why[512];
    pattern_config cfg;
    scenario_pattern_config(ph, &cfg);
    st->workload = pattern_new(&cfg, rng_next(&r), why, sizeof why);
    if (!st->workload) {
        snprintf(err, errcap, "%s", why);
        return -1;
    }
    /* weighted: one in w (weighting_resolve checked that every phase can) */
    if (st->weight > 1 && pattern_set_weight(st->workload, st->weight, rng_next(&r)) < 0) {
        snprintf(err, errcap, "phase %s: its pattern cannot be weighted", ph->name);
        return -1;
    }
    st->phase = i;
    st->phase_value_bytes = ph->value_bytes;
    st->phase_start_us = t;
    scenario_read_weights(ph, st->read_weight);
    st->read_weights = 0;
    for (int k = 0; k < QUERY_KINDS; k++)
        st->read_weights += st->read_weight[k];
    st->write_to_read = pattern_chooses_reads(&ph->pattern) ? 0 : ph->reads.fraction;
    st->have_op = 0;
    st->phase_ops = 0;
    engine_ahead_phase(st, ph);
    int open_ended = pattern_is_finite(&ph->pattern) && !ph->duration_given;
    st->phase_end_us = open_ended ? UINT64_MAX : t + ph->duration_us;
    if (!open_ended &&
        eventq_push(&st->ticks, st->phase_end_us, PHASE_TICK(TICK_PHASE_END, i), 0) < 0)
        return engine_fail(err, errcap, "out of memory for the event queue");
    if (ph->clients == 0)
        return fetch_op(st, err, errcap);
    st->clients_active = ph->clients;
    for (uint32_t c = 0; c < ph->clients; c++)
        if (eventq_push(&st->ticks, t, PHASE_TICK(TICK_CLIENT, i), c) < 0)
            return engine_fail(err, errcap, "out of memory for the event queue");
    return 0;
}

static int run_setup(run_state *st, run_result *out, size_t scheme, const engine_observer *obs,
                     char *err, size_t errcap)
{
    const scenario *sc = st->sc;
    char preset[SCENARIO_PRESET_EXPR], why[512];
    int is_preset;
    const char *expr = scenario_scheme_text(sc, scheme, preset, sizeof preset, &is_preset);
    if (keyscheme_parse(expr, &st->scheme, why, sizeof why) < 0) {
        snprintf(err, errcap, "scheme '%s': %s", scenario_scheme_label(sc, scheme), why);
        return -1;
    }
    rng keys_rng = rng_stream(sc->seed, RNG_STREAM_KEYS);
    st->encoder = keyencoder_new(st->scheme, rng_next(&keys_rng));
    if (!st->encoder)
        return engine_fail(err, errcap, "out of memory setting up the run");

    keyref *splits;
    uint8_t *split_bytes;
    size_t nsplits, bad;
    split_policy policy;
    split_policy_defaults(&policy, sc->split_policy);
    policy.max_bytes = sc->region_max_bytes;
    policy.flush_bytes = scenario_flush_bytes(sc);
    policy.jitter = sc->split_jitter;
    rng split_rng = rng_stream(sc->seed, RNG_STREAM_SPLITS);
    policy.jitter_seed = rng_next(&split_rng);
    policy.restriction = sc->split_restriction;
    policy.prefix_len = sc->split_prefix_length;
    policy.delimiter = sc->split_delimiter ? (uint8_t)sc->split_delimiter[0] : 0;
    if (table_split_keys(st, &splits, &split_bytes, &nsplits, err, errcap) < 0) {
        free(splits);
        free(split_bytes);
        return -1;
    }
    st->table = cluster_new(sc->servers, splits, nsplits, policy, &bad);
    free(splits);
    free(split_bytes);
    if (!st->table || histogram_init(&st->latency, RUN_LATENCY_SUB_BITS) < 0 ||
        histogram_init(&st->read_latency, RUN_LATENCY_SUB_BITS) < 0)
        return engine_fail(err, errcap, "out of memory creating the table");
    if (sc->store == STORE_MODE_SAMPLED) { /* auto unresolved runs exact */
        store_config stc = { STORE_SAMPLED, sc->sample_keys };
        if (regionmap_set_store(st->table->map, &stc) < 0)
            return engine_fail(err, errcap, "out of memory creating the table");
    }
    st->table->split_offline_us = sc->split_pause_us;
    st->table->discharge_us = scenario_discharge_us(sc);
    st->table->move_offline_us = sc->move_pause_us;
    st->table->split_limit = sc->split_limit;
    st->table->epoch_ms = sc->start_ms;
    hbase_inputs_draw(sc->seed, sc->start_ms, sc->balancer_period_us, STATUS_PERIOD_US,
                      sc->balancer_phase_us, sc->servers, &st->inputs);
    if (sc->system_regions)
        cluster_place_meta(st->table, st->inputs.meta_server);
    uint64_t *codes = malloc((size_t)sc->servers * sizeof *codes);
    if (!codes)
        return engine_fail(err, errcap, "out of memory creating the table");
    hbase_inputs_start_codes(sc->seed, &st->inputs, codes, sc->servers);
    for (uint32_t s = 0; s < sc->servers; s++)
        st->table->servers[s].start_ms = codes[s];
    free(codes);
    history_init(&st->log, st->table);
    st->table->journal = history_journal;
    st->table->journal_ctx = &st->log;
    keyspace_init(&st->keyspace, rng_stream(sc->seed, RNG_STREAM_KEYSPACE));
    st->service_rng = rng_stream(sc->seed, RNG_STREAM_SERVICE);
    st->reads_rng = rng_stream(sc->seed, RNG_STREAM_READS);
    st->balancer_rng = rng_stream(sc->seed, RNG_STREAM_BALANCER);
    balancer_config bc;
    balancer_defaults(&bc, sc->balancer);
    bc.slop = sc->slop;
    bc.random = (balancer_random){ balancer_below, balancer_unit, &st->balancer_rng };
    st->balancer = balancer_new(&bc);
    st->baseline = calloc(scenario_max_servers(sc), sizeof *st->baseline);
    if (!st->balancer || !st->baseline)
        return engine_fail(err, errcap, "out of memory for the balancer");
    st->end_us = UINT64_MAX;
    truth_init(&st->written);
    replies_init(&st->replies);
    plan_init(&st->read_plan);
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        uint32_t weight[QUERY_KINDS];
        scenario_read_weights(ph, weight);
        /* generated reads are scored against the truth; a trace's find what they find */
        st->may_read |= pattern_may_read(&ph->pattern, ph->reads.fraction);
        st->tracking |= ph->pattern.kind != PATTERN_TRACE &&
                        pattern_may_read(&ph->pattern, ph->reads.fraction);
        if (ph->reads.fraction > 0 && weight[QUERY_METRIC] > 0 && !st->written.track_metrics)
            truth_track_metrics(&st->written); /* per-metric lists only when read */
    }
    if (engine_weighted_setup(st, obs, err, errcap) < 0)
        return -1;
    st->key = malloc(KEYSCHEME_MAX_KEY); /* not on the stack: a 64 KiB frame per write */
    if (!st->key || engine_ahead_setup(st) < 0)
        return engine_fail(err, errcap, "out of memory for the key buffer");
    static const char *const how[] = {
        [PRESPLIT_NONE] = "", [PRESPLIT_BUCKETS] = "at bucket boundaries",
        [PRESPLIT_BY_HEX] = "by HexStringSplit", [PRESPLIT_BY_DECIMAL] = "by DecimalStringSplit",
        [PRESPLIT_BY_UNIFORM] = "by UniformSplit", [PRESPLIT_BY_KEYS] = "at the given keys",
    };
    char presplit[64];
    if (nsplits)
        snprintf(presplit, sizeof presplit, "%zu regions %s", nsplits + 1, how[sc->presplit]);
    else
        snprintf(presplit, sizeof presplit, "none");
    /* A preset or a named [scheme] keeps its name; a bare expression is
     * shown normalised. */
    const char *label = sc->schemes[scheme].label || is_preset
                            ? scenario_scheme_label(sc, scheme)
                            : keyscheme_expr(st->scheme);
    out->scheme_name = strdup(label);
    out->scheme_expr = strdup(keyscheme_expr(st->scheme));
    out->presplit = strdup(presplit);
    /* Results are by server id: every server the run may have had. */
    out->nservers = scenario_max_servers(sc);
    out->servers = calloc(out->nservers, sizeof *out->servers);
    out->window_us = scenario_window_us(sc);
    out->regions_start = regionmap_count(st->table->map);
    out->key_bytes_min = UINT64_MAX;
    if (!out->scheme_name || !out->scheme_expr || !out->presplit || !out->servers ||
        ensure_window(st, out, 0) < 0)
        return engine_fail(err, errcap, "out of memory for the run's counters");

    st->cell_overhead = scenario_cell_framing(sc);
    eventq_init(&st->ticks);
    if ((sc->balancer != BALANCER_NONE &&
         eventq_push(&st->ticks, st->inputs.balancer_first_us, TICK_BALANCER, 0) < 0) ||
        (sc->balancer == BALANCER_STOCHASTIC &&
         eventq_push(&st->ticks, st->inputs.status_first_us, TICK_STATUS, 0) < 0) ||
        (!sc->measure_auto && sc->measure_from_us &&
         eventq_push(&st->ticks, sc->measure_from_us, TICK_MEASURE, 0) < 0) ||
        eventq_push(&st->ticks, out->window_us, TICK_WINDOW, 0) < 0)
        return engine_fail(err, errcap, "out of memory for the event queue");
    for (size_t i = 0; i < sc->nevents; i++)
        if (eventq_push(&st->ticks, sc->events[i].at_us, TICK_EVENT, (uint32_t)i) < 0)
            return engine_fail(err, errcap, "out of memory for the event queue");
    /* measure_from = auto measures from 0 until the warm-up ends (a run that
     * never leaves it is measured whole); a table pre-split into a region a
     * server has none (engine_warmup.c) */
    if (sc->measure_auto || sc->measure_from_us == 0)
        engine_start_measuring(st, out, 0);
    engine_warmup_check(st, out, 0);
    return phase_begin(st, 0, 0, err, errcap);
}

/* An operation that failed (engine_op's rc < 0): the message. A key too
 * long names the scheme, by its label and its expression. */
static int op_failed(const run_state *st, int rc, char *err, size_t errcap)
{
    if (rc == -2) {
        const char *label = scenario_scheme_label(st->sc, st->scheme_index);
        const char *expr = keyscheme_expr(st->scheme);
        if (strcmp(label, expr) != 0)
            snprintf(err, errcap, "scheme '%s' (%s): ", label, expr);
        else
            snprintf(err, errcap, "scheme '%s': ", expr);
        size_t used = strlen(err);
        snprintf(err + used, errcap - used, "it made a row key of %zu bytes, longer than "
                 "HBase's limit of %d bytes (HConstants.MAX_ROW_LENGTH)", st->long_key,
                 KEY_MAX_LEN);
        return -1;
    }
    return engine_fail(err, errcap, "out of memory storing a write");
}

/* A closed-loop client found the trace exhausted at t. When it is the
 * last, the phase ends there, before its duration, which is then only a
 * limit: the replay's rates are those of the time it took (a trace that
 * finishes in a minute is not reported as spread over the hour given). */
static int client_done(run_state *st, uint64_t t, char *err, size_t errcap)
{
    assert(st->clients_active > 0);
    if (--st->clients_active > 0 || t >= st->phase_end_us)
        return 0;
    st->phase_end_us = t;
    if (eventq_push(&st->ticks, t, PHASE_TICK(TICK_PHASE_END, st->phase), 0) < 0)
        return engine_fail(err, errcap, "out of memory for the event queue");
    return 0;
}

/* A closed-loop client is ready at ev->t_us: it issues the phase's next
 * operation and comes back after the reply and its think time. */
static int run_client(run_state *st, run_result *out, const event *ev,
                      const engine_observer *obs, char *err, size_t errcap)
{
    if (TICK_PHASE(ev->kind) != st->phase || ev->t_us >= st->phase_end_us)
        return 0; /* left over from a phase that has ended */
    uint64_t ignored_time, reply;
    record rec;
    int rc = pattern_next(st->workload, &ignored_time, &rec, err, errcap);
    if (rc < 0)
        return rc;
    if (rc == 0) /* an exhausted trace: this client is done */
        return client_done(st, ev->t_us, err, errcap);
    rc = engine_op(st, out, ev->t_us, &rec, obs, &reply);
    if (rc < 0)
        return op_failed(st, rc, err, errcap);
    if (rc > 0)
        return 1;
    uint64_t next = reply + scenario_phase(st->sc, st->phase)->think_us;
    if (next < st->phase_end_us &&
        eventq_push(&st->ticks, next, ev->kind, ev->arg) < 0)
        return engine_fail(err, errcap, "out of memory for the event queue");
    return 0;
}

/* A cluster event at t_us: servers join, are drained, or fail. */
static int run_cluster_event(run_state *st, run_result *out, const cluster_event *e,
                             uint64_t t_us, char *err, size_t errcap)
{
    cluster *c = st->table;
    c->now_us = t_us;
    if (e->action == EVENT_ADD_SERVERS) {
        uint32_t first = c->next_id;
        if (cluster_add_servers(c, e->servers) < 0)
            return engine_fail(err, errcap, "out of memory adding servers");
        history_server_event(&st->log, t_us, TIMELINE_SERVERS_ADDED, first, c->next_id - 1);
        return 0;
    }
    uint32_t i = cluster_server_index(c, e->server);
    if (i == UINT32_MAX || c->nservers < 2) {
        /* Where the scenario file defines it ([event NAME]), when it has one. */
        char where[320] = "";
        if (st->sc->file && e->line > 0)
            snprintf(where, sizeof where, "%.300s:%d: ", st->sc->file, e->line);
        snprintf(err, errcap, "%sevent %s: rs%u is not in the cluster at that time%s", where,
                 e->name, e->server, c->nservers < 2 ? " (or it is the last server)" : "");
        return -1;
    }
    /* Decommissioned: its regions close and open elsewhere (a move each).
     * Failed: nobody closes them; they wait for the master to notice the
     * dead server (ZooKeeper session timeout), then open elsewhere. */
    uint64_t back = t_us + st->sc->move_pause_us;
    history_server_event(&st->log, t_us,
                         e->action == EVENT_FAIL ? TIMELINE_FAILURE : TIMELINE_DECOMMISSION,
                         e->server, e->server);
    if (e->action == EVENT_FAIL) {
        back += e->detection_us;
        c->failures++;
    } else {
        c->decommissions++;
    }
    if (cluster_retire_server(c, i, back) < 0)
        return engine_fail(err, errcap, "out of memory retiring a server");
    if (st->sc->balancer == BALANCER_NONE) /* fewer servers: a region each, maybe */
        engine_warmup_check(st, out, t_us);
    return 0;
}

/* Whether time t lies inside the run: before the last phase's end (not
 * known until the last phase starts; an open-ended trace's once its last
 * operation has run). Ticks at or after the end do not happen, so a
 * balancer runs at every multiple of its period strictly inside the run. */
static int inside_run(const run_state *st, uint64_t t)
{
    if (st->phase + 1 < scenario_phase_count(st->sc))
        return 1;
    return t < st->phase_end_us;
}

/* One balancer run at t: HMaster.balance, its report kept for the
 * timeline. */
static int run_balancer(run_state *st, uint64_t t)
{
    if (st->nbalancer == st->balancer_cap) {
        size_t cap = st->balancer_cap ? 2 * st->balancer_cap : 16;
        balancer_report *log = realloc(st->balancer_log, cap * sizeof *log);
        if (!log)
            return -1;
        st->balancer_log = log;
        st->balancer_cap = cap;
    }
    st->table->now_us = t; /* moved regions go offline from now */
    if (balancer_run(st->balancer, st->table, &st->balancer_log[st->nbalancer]) < 0)
        return -1;
    history_balancer_event(&st->log, t, st->nbalancer++);
    return 0;
}

static int run_tick(run_state *st, run_result *out, const event *ev,
                    const engine_observer *obs, char *err, size_t errcap)
{
    const scenario *sc = st->sc;
    switch (TICK_KIND(ev->kind)) {
    case TICK_CLIENT:
        return run_client(st, out, ev, obs, err, errcap);
    case TICK_EVENT:
        return run_cluster_event(st, out, &sc->events[ev->arg], ev->t_us, err, errcap);
    case TICK_PHASE_END:
        if (TICK_PHASE(ev->kind) != st->phase || ev->t_us != st->phase_end_us)
            return 0; /* a phase that ended already, or its duration's end after an early one */
        if (scenario_phase(sc, st->phase)->clients && st->clients_active > 0 &&
            leave_out_rest(st, 0, err, errcap) < 0) /* clients cut off mid-trace */
            return -1;
        if (st->phase + 1 == scenario_phase_count(sc)) {
            st->end_us = ev->t_us;
            return 0;
        }
        return phase_begin(st, st->phase + 1, ev->t_us, err, errcap);
    case TICK_BALANCER:
        if (!inside_run(st, ev->t_us))
            return 0; /* at or past the run's end: not run, not rescheduled */
        engine_warmup_check(st, out, ev->t_us); /* before it spreads the regions */
        if (run_balancer(st, ev->t_us) < 0)
            return engine_fail(err, errcap, "out of memory in the balancer");
        if (eventq_push(&st->ticks, ev->t_us + sc->balancer_period_us, TICK_BALANCER, 0) < 0)
            return engine_fail(err, errcap, "out of memory for the event queue");
        return 0;
    case TICK_STATUS:
        if (!inside_run(st, ev->t_us))
            return 0;
        if (balancer_observe(st->balancer, st->table) < 0 ||
            eventq_push(&st->ticks, ev->t_us + STATUS_PERIOD_US, TICK_STATUS, 0) < 0)
            return engine_fail(err, errcap, "out of memory in the balancer's status");
        return 0;
    case TICK_MEASURE:
        engine_start_measuring(st, out, ev->t_us);
        return 0;
    case TICK_WINDOW:
        if (st->weighted)
            engine_weighted_window(st, ev->t_us);
        out->window_regions[st->window] = regionmap_count(st->table->map);
        st->window++;
        if (ensure_window(st, out, st->window) < 0 ||
            eventq_push(&st->ticks, ev->t_us + out->window_us, TICK_WINDOW, 0) < 0)
            return engine_fail(err, errcap, "out of memory in a report window (or over "
                               "1,000,000 windows: use a longer --window)");
        return 0;
    }
    return 0;
}

/* Tells the observer, if it listens, how far the run has got. */
static void report_progress(const run_state *st, const engine_observer *obs, uint64_t t_us)
{
    if (obs && obs->on_progress)
        obs->on_progress(obs->ctx, st->scheme_index, st->sc->nschemes, t_us, st->planned_us);
}

/* Runs events in time order until the last phase has ended: the next
 * open-loop operation or the earliest tick, whichever comes first (a tick
 * wins a tie). */
static int run_loop(run_state *st, run_result *out, const engine_observer *obs,
                    char *err, size_t errcap)
{
    for (;;) {
        uint64_t t_tick = st->ticks.count ? st->ticks.heap[0].t_us : UINT64_MAX;
        if (st->have_op && st->t_op < t_tick && st->t_op < st->end_us) {
            uint64_t reply;
            if (engine_ahead_due(st))
                engine_ahead_fill(st);
            int rc = engine_op(st, out, st->t_op, &st->op, obs, &reply);
            if (rc < 0)
                return op_failed(st, rc, err, errcap);
            if (rc > 0) {
                out->duration_us = st->t_op + 1;
                return 0;
            }
            if (fetch_op(st, err, errcap) < 0)
                return -1;
            if ((st->ops & 0xffff) == 0)
                report_progress(st, obs, st->t_op);
        } else if (t_tick < st->end_us) {
            event ev;
            eventq_pop(&st->ticks, &ev);
            int rc = run_tick(st, out, &ev, obs, err, errcap);
            if (rc < 0)
                return -1;
            if (TICK_KIND(ev.kind) == TICK_WINDOW)
                report_progress(st, obs, ev.t_us);
            if (rc > 0) {
                out->duration_us = ev.t_us + 1;
                return 0;
            }
        } else {
            out->duration_us = st->end_us;
            return 0;
        }
    }
}

static latency_summary summarise(const histogram *h)
{
    latency_summary l = { h->count, histogram_mean(h), histogram_quantile(h, 0.5),
                          histogram_quantile(h, 0.99), histogram_quantile(h, 0.999), h->max };
    return l;
}

/* One server's figures into its result slot (by id): what it did since
 * measuring began, over the time measured. */
static void collect_server(const run_state *st, const server *sv, run_result *out)
{
    assert(sv->id < out->nservers);
    const server_baseline *b = &st->baseline[sv->id];
    server_result *sr = &out->servers[sv->id];
    uint64_t measured_us = out->duration_us - out->measure_from_us;
    sr->writes = sv->writes - b->writes;
    sr->reads = sv->reads - b->reads;
    sr->bytes = sv->bytes - b->bytes;
    sr->regions = sv->regions;
    sr->rows_scanned = sv->rows_scanned - b->rows_scanned;
    sr->rpcs = sv->rpcs - b->rpcs;
    sr->longest_queue = sv->longest_queue;
    sr->start_code = sv->start_ms;
    sr->busy = measured_us ? (double)(sv->busy_us - b->busy_us) / (double)measured_us : 0;
    sr->latency = summarise(&sv->latency);
}

static int run_collect(run_state *st, run_result *out, char *err, size_t errcap)
{
    cluster *c = st->table;
    if (st->sc->measure_auto)
        out->measure_from_us = st->measure_from_us; /* the warm-up's end, or 0 */
    else
        out->measure_from_us = st->sc->measure_from_us < out->duration_us
                                   ? st->sc->measure_from_us : out->duration_us;
    if (!st->measuring) { /* measure_from past a trace's end: nothing measured */
        out->measure_regions = regionmap_count(c->map);
        out->measure_servers = c->nservers;
        out->bytes_start = cluster_bytes(c);
    }
    out->measure_auto = st->sc->measure_auto;
    out->servers_end = c->nservers;
    engine_warmup_finish(st, out);
    for (uint32_t s = 0; s < out->nservers; s++)
        snprintf(out->servers[s].name, sizeof out->servers[s].name, "rs%u", s);
    for (uint32_t s = 0; s < c->nservers; s++)
        collect_server(st, &c->servers[s], out);
    for (uint32_t s = 0; s < c->nretired; s++)
        collect_server(st, &c->retired[s], out);
    if (c->meta_server != CLUSTER_NO_META)
        out->servers[c->servers[c->meta_server].id].system_regions = 1;
    out->servers_added = c->next_id - st->sc->servers;
    out->decommissions = c->decommissions;
    out->failures = c->failures;
    out->reassigned = c->reassigned;
    engine_replies_done(st, out->duration_us);
    out->unfinished = replies_count(&st->replies) * st->weight;
    out->left_out = st->left_out;
    out->latency = summarise(&st->latency);
    out->read_latency = summarise(&st->read_latency);
    out->regions = regionmap_count(c->map);
    out->splits = c->splits;
    out->moves = c->moves;
    out->rows = cluster_rows(c);
    if (st->weight > 1) { /* weighted: a kept row stands for more (cluster_row_weight) */
        double rows = 0;
        for (size_t i = 0; i < regionmap_count(c->map); i++) {
            store *s = regionmap_at(c->map, i)->rows;
            rows += (double)store_rows(s) * cluster_row_weight(c, s);
        }
        out->rows = (uint64_t)(rows + 0.5);
    }
    out->bytes = cluster_bytes(c);
    if (st->keys_written == 0)
        out->key_bytes_min = 0; /* key sizes are the written rows' */
    out->key_bytes_mean = st->keys_written ? (double)st->key_bytes_sum /
                                                 (double)st->keys_written
                                           : 0.0;
    out->nwindows = (uint32_t)((out->duration_us + out->window_us - 1) / out->window_us);
    if (out->nwindows == 0)
        out->nwindows = 1;
    assert(out->nwindows <= st->windows_cap);
    for (uint64_t w = st->window; w < out->nwindows; w++)
        out->window_regions[w] = regionmap_count(c->map);
    /* done/s: the replies that came within the measured span, whenever
     * their operations arrived (a queue the warm-up left is served in
     * it); not the measured operations less every one still queued,
     * which a backlog from before measure_from would cut below what the
     * servers did */
    double seconds = (double)(out->duration_us - out->measure_from_us) / 1e6;
    out->offered_per_s = seconds > 0 ? (double)st->measured_ops / seconds : 0;
    out->achieved_per_s = seconds > 0 ? (double)st->done_measured / seconds : 0;
    out->balancer_log = st->balancer_log;
    out->balancer_runs = st->nbalancer;
    st->balancer_log = NULL;
    st->nbalancer = st->balancer_cap = 0;
    /* The balancer's remembered loads (some 130 bytes a region) are done
     * with: freed before the region log takes the live regions, it can
     * grow into their memory. */
    balancer_free(st->balancer);
    st->balancer = NULL;
    if (keyspace_finish(&st->keyspace, c, st->sc->key_buckets, out->nwindows,
                        &out->keyspace) < 0 ||
        history_finish(&st->log, c, out->duration_us, out) < 0)
        return engine_fail(err, errcap, "out of memory for the report's heatmap and timeline");
    return 0;
}

static void run_teardown(run_state *st)
{
    keyspace_release(&st->keyspace);
    history_release(&st->log);
    histogram_release(&st->latency);
    histogram_release(&st->read_latency);
    truth_release(&st->written);
    replies_release(&st->replies);
    free(st->fluid);
    free(st->key);
    engine_ahead_release(st);
    plan_release(&st->read_plan);
    eventq_release(&st->ticks);
    cluster_free(st->table);
    balancer_free(st->balancer);
    free(st->balancer_log);
    free(st->baseline);
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
    st.scheme_index = scheme;
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        if (pattern_is_finite(&ph->pattern) && !ph->duration_given) {
            st.planned_us = 0; /* unknown until the trace ends */
            break;
        }
        st.planned_us += ph->duration_us;
    }
    int rc = run_setup(&st, out, scheme, obs, err, errcap);
    if (rc == 0)
        rc = run_loop(&st, out, obs, err, errcap);
    if (rc == 0) /* done: the last report says so (reports come only before the end) */
        report_progress(&st, obs, st.planned_us);
    if (rc == 0)
        rc = run_collect(&st, out, err, errcap);
    run_teardown(&st);
    /* No output wants the servers' window counters one by one: keep their
     * digest, here in the run's own job, so that at most `jobs` full
     * matrices exist at once (engine/windows.h). */
    if (rc == 0 && sc->window_digest && window_digest_reduce(out) < 0)
        rc = engine_fail(err, errcap, "out of memory reducing the report windows");
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
    free(r->window_regions);
    window_digest_free(&r->digest);
    free(r->balancer_log);
    keyspace_heatmap_free(&r->keyspace);
    history_free_results(r);
    memset(r, 0, sizeof *r);
}

int engine_run_all(const scenario *sc, const engine_observer *obs, sim_results *out,
                   char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    /* Before anything is allocated for the run: refuse what cannot fit.
     * Every operation watched (a trace written) runs per-op under auto
     * (scenario/weighting.h): estimated so. */
    if (obs && obs->on_op && sc->engine == ENGINE_MODE_AUTO && sc->weight == 0) {
        scenario *per_op = malloc(sizeof *per_op);
        if (!per_op)
            return engine_fail(err, errcap, "out of memory");
        *per_op = *sc;
        per_op->engine = ENGINE_MODE_PER_OP;
        int rc = budget_admit(per_op, err, errcap);
        free(per_op);
        if (rc < 0)
            return -1;
    } else if (budget_admit(sc, err, errcap) < 0) {
        return -1;
    }
    out->runs = calloc(sc->nschemes, sizeof *out->runs);
    if (!out->runs)
        return engine_fail(err, errcap, "out of memory");
    if (engine_run_schemes(sc, obs, out->runs, err, errcap) < 0) {
        free(out->runs);
        out->runs = NULL;
        return -1;
    }
    out->nruns = sc->nschemes;
    out->scenario = sc->name;
    out->seed = sc->seed;
    out->nsamples = 1; /* the program adds the others' figures (cli/cli_checks.h) */
    out->servers = sc->servers;
    out->split_policy = scenario_choice_name("split_policy", sc->split_policy);
    out->region_max_bytes = sc->region_max_bytes;
    out->flush_bytes = scenario_flush_bytes(sc);
    out->split_jitter = sc->split_jitter;
    out->discharge_us = scenario_discharge_us(sc);
    out->balancer = scenario_choice_name("balancer", sc->balancer);
    out->balancer_period_us = sc->balancer_period_us;
    hbase_inputs in;
    hbase_inputs_draw(sc->seed, sc->start_ms, sc->balancer_period_us, STATUS_PERIOD_US,
                      sc->balancer_phase_us, sc->servers, &in);
    out->balancer_first_us = in.balancer_first_us;
    out->status_first_us = in.status_first_us;
    out->window_us = scenario_window_us(sc);
    out->measure_from_us = sc->measure_from_us;
    out->measure_auto = sc->measure_auto;
    /* A YCSB workload sizes its own values (fieldlength, in its
     * description): the overhead is the cell's framing alone. */
    out->store_sampled = sc->store == STORE_MODE_SAMPLED;
    out->store_auto = sc->store_auto;
    out->sample_keys = sc->sample_keys;
    weighting wt;
    if (weighting_resolve(sc, obs && obs->on_op, &wt, err, errcap) == 0 && wt.weighted) {
        out->engine_weighted = 1;
        out->engine_auto = sc->engine == ENGINE_MODE_AUTO && sc->weight == 0;
        out->engine_weight = wt.weight;
    }
    out->cell_overhead_bytes = scenario_cell_overhead(sc) -
                               (sc->ycsb_source ? sc->workload.value_bytes : 0);
    out->workload = scenario_describe_workload(sc);
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
    for (size_t i = 0; i < res->nchecks; i++) {
        free(res->checks[i].name);
        free(res->checks[i].expression);
        free(res->checks[i].scheme);
    }
    free(res->checks);
    free(res->sample_values);
    memset(res, 0, sizeof *res);
}
