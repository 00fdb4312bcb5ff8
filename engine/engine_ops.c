/* engine_ops.c -- one operation: a write or a read, start to reply.
 *
 * A write makes its cell, stores it through the cluster (route, store,
 * serve on the region's server, split if the policy says so), counts it
 * per window and in the key space heatmap, and tells the truth. A read is
 * planned by the key scheme into row ranges, sent as one RPC per region a
 * range touches (together: the read is done when the last reply is), and
 * scored against the truth of what was written. Every operation's reply
 * time is known when it is issued (the servers are FIFO queues), so a
 * min-heap of reply times is all the engine keeps of work in flight.
 */
#include "engine/engine_impl.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The bytes a write sends: per cell, KeyValue framing + row + family +
 * qualifier, plus the values. An operation that sizes its own cells (a
 * YCSB record: fieldcount fields) says how many and their values' bytes;
 * else one cell of the operation's value size or the phase's (a delete
 * marker carries no value). */
static uint32_t cell_bytes(const run_state *st, const record *rec, size_t key_len)
{
    uint64_t cells = rec->cells ? rec->cells : 1;
    uint64_t value = rec->op == RECORD_DELETE ? 0
                     : rec->cells || rec->value_bytes ? rec->value_bytes
                                                      : st->phase_value_bytes;
    uint64_t n = cells * (key_len + st->cell_overhead) + value;
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* A service time of mean `mean_us`: fixed, or exponential when the
 * scenario asks (M/M/1-style servers), rounded to the microsecond. */
static uint64_t service_time(run_state *st, double mean_us)
{
    if (!st->sc->service_exponential)
        return (uint64_t)(mean_us + 0.5);
    double draw = -log1p(-rng_double(&st->service_rng)) * mean_us;
    return (uint64_t)(draw + 0.5);
}

/* A write's service time: per RPC plus per KiB sent. A fixed one depends
 * on the bytes alone, and a run's writes mostly share a size, so the last
 * size's is kept. */
static uint64_t write_service(run_state *st, uint32_t bytes)
{
    const scenario *sc = st->sc;
    if (!sc->service_exponential && st->write_service_known && bytes == st->write_service_bytes)
        return st->write_service_us;
    double mean = (double)sc->rpc_us + (double)bytes * (double)sc->kib_us / 1024.0;
    uint64_t us = service_time(st, mean);
    if (!sc->service_exponential) {
        st->write_service_known = 1;
        st->write_service_bytes = bytes;
        st->write_service_us = us;
    }
    return us;
}

/* ---- operations in flight: their reply times (sim/replies.h) ----
 * Taken as time passes, so they are only the operations still waiting. */

void engine_replies_done(run_state *st, uint64_t now)
{
    size_t done = replies_due(&st->replies, now, st->measure_from_us);
    if (st->measuring)
        st->done_measured += done * st->weight;
}

/* A read RPC's service time: per RPC plus per row read. A fixed one is
 * the same sum in integers (a read RPC each of a read's regions: the
 * conversions were a few percent of a read-heavy run): the times are at
 * most an hour (scenario.c), under 2^32 us, so below 2^19 rows the sum is
 * under 2^52, where the double sum and its rounding are exact. */
static uint64_t read_service(void *ctx, uint64_t rows)
{
    run_state *st = ctx;
    const scenario *sc = st->sc;
    assert(sc->rpc_us < (1ull << 32) && sc->row_us < (1ull << 32)); /* scenario.c's bound */
    if (!sc->service_exponential && rows < (1u << 19))
        return sc->rpc_us + rows * sc->row_us;
    return service_time(st, (double)sc->rpc_us + (double)rows * (double)sc->row_us);
}

/* The kind of the next generated read, by the phase's weights. */
static query_kind pick_read_kind(run_state *st)
{
    uint64_t x = rng_below(&st->reads_rng, st->read_weights);
    int k = 0;
    while (x >= st->read_weight[k])
        x -= st->read_weight[k++];
    return (query_kind)k;
}

/* The query a read of `kind` makes from the operation's record, and how
 * many records it should return (from what the workload wrote). */
static uint64_t build_query(run_state *st, query_kind kind, const record *rec, query *q)
{
    const read_mix *rm = &scenario_phase(st->sc, st->phase)->reads;
    truth_entry last;
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->rec = *rec;
    uint64_t now = rec->ts_ms;
    switch (kind) {
    case QUERY_GET:
        if (rec->key) /* a trace's get: its key, found or not */
            return 1;
        if (rm->get_any) { /* any of its records, uniformly */
            uint64_t n = truth_count(&st->written, rec->entity);
            if (n == 0 || !truth_nth(&st->written, rec->entity,
                                     rng_below(&st->reads_rng, n), &last))
                return 0;
        } else if (!truth_last(&st->written, rec->entity, &last)) {
            return 0; /* nothing written yet: a miss */
        }
        q->rec.ts_ms = last.ts_ms; /* the record's own time and sequence */
        q->rec.seq = last.seq;
        return 1;
    case QUERY_RANGE:
        q->from_ms = now > rm->range_us / 1000 ? now - rm->range_us / 1000 : 0;
        q->to_ms = now;
        q->multi_get = (uint8_t)rm->multi_get;
        return truth_count_range(&st->written, rec->entity, q->from_ms, q->to_ms);
    case QUERY_LATEST:
        q->limit = rm->latest_rows;
        return truth_count_latest(&st->written, rec->entity, rm->latest_rows);
    case QUERY_WINDOW:
        q->from_ms = now > rm->window_us / 1000 ? now - rm->window_us / 1000 : 0;
        q->to_ms = now;
        return truth_count_window(&st->written, q->from_ms, q->to_ms);
    case QUERY_METRIC: /* every series of the operation's metric */
        q->from_ms = now > rm->metric_us / 1000 ? now - rm->metric_us / 1000 : 0;
        q->to_ms = now;
        return truth_count_metric(&st->written, rec->metric, q->from_ms, q->to_ms);
    case QUERY_SCAN: /* rows from the record's name on: counted when scanned */
        q->limit = rec->rows ? rec->rows : rm->scan_rows;
        return 0;
    case QUERY_KINDS:
        break;
    }
    return 0;
}

/* A limit on an inexact range counts matching rows (HBase applies it
 * after the filter): a scan for an entity's newest N through rows of every
 * entity, newest first, reads every row newer than the entity's N-th newest
 * record. The truth knows how many records that is; the ranges share them
 * (each bucket holds its part). 0 when the whole range must be read. */
static uint64_t inexact_scan_limit(run_state *st, const query *q, const plan *pl)
{
    uint64_t since;
    /* weighted: a record kept stands for w, so the N-th newest is about
     * the ceil(N / w)-th kept, and each record counted is w rows */
    uint64_t nth = st->weight > 1 ? (q->limit + st->weight - 1) / st->weight : q->limit;
    if (q->kind != QUERY_LATEST || pl->exact || pl->nranges == 0 ||
        !truth_nth_newest(&st->written, q->rec.entity, nth, &since))
        return 0;
    uint64_t newer = truth_count_window(&st->written, since, UINT64_MAX) * st->weight;
    return (newer + pl->nranges - 1) / pl->nranges;
}

/* A read RPC, counted where the reports count it: its server's reads in
 * this window, and the key space heatmap at the start of its range within
 * its region. */
static int count_read_rpc(void *ctx, uint32_t server_id, keyref start)
{
    run_state *st = ctx;
    st->window_reads[server_id] += st->weight;
    return keyspace_add(&st->keyspace, (uint32_t)st->window, KEYSPACE_READS, start);
}

/* A range bound from the plan's byte pool: an empty bound (the table's
 * start or end) may have no bytes, and the pool may then be NULL. */
static keyref plan_bound(const plan *pl, size_t off, size_t len)
{
    return keyref_of(len ? pl->bytes + off : NULL, len);
}

/* Tells the observer of one planned range of a read, as a trace would
 * replay it: a point read of one row as a get of that row, any other range
 * as a scan of the rows it read from the range's start (a range that read
 * no rows is not told: a trace scan reads at least one). */
static int observe_range(run_state *st, const engine_observer *obs, uint64_t t_us,
                         const record *rec, const plan *pl, const key_range *r, uint64_t rows,
                         uint32_t server)
{
    keyref lo = plan_bound(pl, r->lo_off, r->lo_len);
    keyref hi = plan_bound(pl, r->hi_off, r->hi_len);
    record seen = *rec;
    seen.key = NULL;
    seen.key_len = 0;
    seen.cells = 0;
    seen.value_bytes = 0;
    int one_row = lo.len && hi.len == lo.len + 1 && hi.data[lo.len] == 0 &&
                  memcmp(lo.data, hi.data, lo.len) == 0;
    if (one_row) {
        seen.op = RECORD_GET;
    } else if (rows) {
        seen.op = RECORD_SCAN;
        seen.rows = rows > INT32_MAX ? INT32_MAX : (uint32_t)rows; /* a trace's most */
    } else {
        return 0;
    }
    static const uint8_t first_row[1] = { 0 }; /* no row key sorts before it */
    if (!lo.len)
        lo = keyref_of(first_row, 1);
    return obs->on_op(obs->ctx, t_us, &seen, lo, st->table, server) != 0;
}

/* A logical read at t_us: plan it, then one RPC per region each planned
 * range touches, sent together; the read is done when the last reply is.
 * Each range is told to obs (may be NULL) as a trace would replay it.
 * Returns 0, 1 when the observer asked to stop, or -1 out of memory. */
static int run_read(run_state *st, run_result *out, uint64_t t_us, const record *rec,
                    query_kind kind, const engine_observer *obs, uint64_t *reply_us)
{
    query q;
    uint64_t returned = build_query(st, kind, rec, &q);
    plan *pl = &st->read_plan;
    if (keyencoder_plan(st->encoder, &q, pl) < 0)
        return -1;
    scan_cost cost = { 0, 0, t_us };
    assert(st->may_read && out->window_reads); /* pattern_may_read said this run reads */
    st->window_reads = out->window_reads + st->window * out->nservers;
    uint64_t inexact_limit = inexact_scan_limit(st, &q, pl);
    int stop = 0;
    for (size_t i = 0; i < pl->nranges; i++) {
        const key_range *r = &pl->ranges[i];
        keyref lo = plan_bound(pl, r->lo_off, r->lo_len);
        keyref hi = plan_bound(pl, r->hi_off, r->hi_len);
        uint64_t limit = r->limit && !pl->exact && kind != QUERY_SCAN ? inexact_limit : r->limit;
        uint64_t rows_before = cost.rows;
        uint32_t server = 0;
        if (cluster_scan(st->table, lo, hi, limit, r->reverse, read_service, count_read_rpc,
                         st, &cost, &server) < 0)
            return -1;
        if (obs && obs->on_op && !stop)
            stop = observe_range(st, obs, t_us, rec, pl, r, cost.rows - rows_before,
                                 st->table->servers[server].id);
    }
    if (kind == QUERY_GET && rec->key) /* a trace's get returns what it found */
        returned = cost.rows ? 1 : 0;
    else if (kind != QUERY_SCAN && kind != QUERY_GET) /* weighted: a record counted stands for w */
        returned *= st->weight;
    if (kind == QUERY_LATEST && returned > q.limit) /* weighted: at most the newest `limit` */
        returned = q.limit;
    if (kind == QUERY_SCAN) /* the client keeps the first `limit` of the rows read */
        returned = cost.rows < q.limit ? cost.rows : q.limit;
    /* A read that needs no RPC (its plan is empty: no row can match) is
     * still answered a tick later, as an RPC's reply is (core/server.c):
     * an operation takes at least one tick of the 1 us clock, so clients
     * that wait for their replies always move time on. */
    *reply_us = cost.reply_us > t_us ? cost.reply_us : t_us + 1;
    if (!st->measuring)
        return stop;
    uint64_t w = st->weight; /* this read stands for w reads (1 per-op) */
    out->reads += w;
    out->reads_by_kind[kind] += w;
    out->read_rpcs_by_kind[kind] += w * cost.rpcs;
    out->rows_scanned_by_kind[kind] += w * cost.rows;
    out->records_returned_by_kind[kind] += w * returned;
    out->rows_scanned += w * cost.rows;
    out->records_returned += w * returned;
    out->full_scans += w * pl->full_scan;
    histogram_record_n(&st->read_latency, *reply_us - t_us, w);
    return stop;
}

/* A write (at the cluster's now): the cell, its server's queue, the truth. */
static int run_write(run_state *st, run_result *out, const record *rec, keyref k,
                     const cluster_ahead *route, uint64_t *reply_us, uint32_t *server)
{
    uint32_t bytes = cell_bytes(st, rec, k.len);
    /* weighted: the cells of the w writes it stands for (service: one's) */
    uint64_t stored = (uint64_t)bytes * st->weight;
    uint32_t cells = stored > UINT32_MAX ? UINT32_MAX : (uint32_t)stored;
    uint64_t service = write_service(st, bytes);
    int rc = route ? cluster_write_ahead(st->table, k, route, cells, service, server, reply_us)
                   : cluster_write(st->table, k, cells, service, server, reply_us);
    if (rc < 0)
        return -1;
    out->window_writes[st->window * out->nservers + st->table->servers[*server].id] += st->weight;
    out->writes += st->measuring * st->weight;
    if (keyspace_add(&st->keyspace, (uint32_t)st->window, KEYSPACE_WRITES, k) < 0)
        return -1;
    if (st->tracking && truth_add(&st->written, rec->entity, rec->metric, rec->ts_ms, rec->seq) < 0)
        return -1;
    st->key_bytes_sum += k.len;
    st->keys_written++;
    if (k.len < out->key_bytes_min)
        out->key_bytes_min = k.len;
    if (k.len > out->key_bytes_max)
        out->key_bytes_max = k.len;
    if (!out->key_example) {
        out->key_example = key_format_alloc(k);
        if (!out->key_example)
            return -1;
    }
    return 0;
}

/* Whether the operation is a read, and of which kind: a scan; a get (a
 * trace's of its key, or one the pattern chose, of the kind the phase's
 * read mix draws); or, for a pattern that leaves reads to the engine, a
 * share of its writes (st->write_to_read, of the mix's kinds). */
static int read_kind_of(run_state *st, record *rec, query_kind *kind)
{
    if (rec->op == RECORD_SCAN) {
        *kind = QUERY_SCAN;
        return 1;
    }
    if (rec->op == RECORD_GET) {
        *kind = rec->key ? QUERY_GET : pick_read_kind(st);
        return 1;
    }
    if (rec->op == RECORD_PUT && st->write_to_read > 0 &&
        rng_double(&st->reads_rng) < st->write_to_read) {
        *kind = pick_read_kind(st);
        if (st->weight > 1) /* weighted: a series at a random sampling phase */
            pattern_random_series(st->workload, &st->reads_rng, rec);
        return 1;
    }
    return 0;
}

/* A read-modify-write (YCSB's doTransactionReadModifyWrite): a get of the
 * row, then a put to it. Both are sent at t_us; the servers are FIFO
 * queues, so on one server the put is served after the get, as when the
 * client waits for the get. The reply is the later of the two. Told to
 * obs as one readmodifywrite when the get read exactly the row written
 * (else as the read's ranges, then the put). */
static int run_read_modify_write(run_state *st, run_result *out, uint64_t t_us, const record *rec,
                                 keyref k, const cluster_ahead *route,
                                 const engine_observer *obs, uint64_t *reply_us)
{
    uint64_t read_reply, write_reply;
    uint32_t server;
    const plan *pl = &st->read_plan;
    int rc = run_read(st, out, t_us, rec, QUERY_GET, NULL, &read_reply);
    if (rc < 0 || run_write(st, out, rec, k, route, &write_reply, &server) < 0)
        return -1;
    *reply_us = read_reply > write_reply ? read_reply : write_reply;
    if (!obs || !obs->on_op)
        return 0;
    int same_row = pl->nranges == 1 && pl->ranges[0].lo_len == k.len &&
                   memcmp(pl->bytes + pl->ranges[0].lo_off, k.data, k.len) == 0;
    if (same_row)
        return obs->on_op(obs->ctx, t_us, rec, k, st->table, st->table->servers[server].id) != 0;
    for (size_t i = 0; i < pl->nranges; i++)
        if (observe_range(st, obs, t_us, rec, pl, &pl->ranges[i], 1, st->table->servers[server].id))
            return 1;
    record put = *rec;
    put.op = RECORD_PUT;
    return obs->on_op(obs->ctx, t_us, &put, k, st->table, st->table->servers[server].id) != 0;
}

int engine_op(run_state *st, run_result *out, uint64_t t_us, record *rec,
              const engine_observer *obs, uint64_t *reply_us)
{
    rec->ts_ms = st->sc->start_ms + t_us / 1000;
    rec->seq = st->ops++;
    st->table->now_us = t_us;
    st->last_op_us = t_us;
    engine_replies_done(st, t_us);
    query_kind kind;
    int rc;
    if (read_kind_of(st, rec, &kind)) {
        rc = run_read(st, out, t_us, rec, kind, obs, reply_us);
    } else {
        size_t len;
        const cluster_ahead *route; /* encoded (and routed) ahead: the same key */
        const uint8_t *ahead = engine_ahead_key(st, rec, &len, &route);
        if (!ahead)
            len = keyencoder_encode(st->encoder, rec, st->key, KEYSCHEME_MAX_KEY);
        keyref k = keyref_of(ahead ? ahead : st->key, len);
        if (len > KEY_MAX_LEN) {
            st->long_key = len;
            return -2; /* HBase refuses a row longer than Short.MAX_VALUE */
        }
        if (rec->op == RECORD_RMW) {
            rc = run_read_modify_write(st, out, t_us, rec, k, route, obs, reply_us);
        } else {
            uint32_t s;
            rc = run_write(st, out, rec, k, route, reply_us, &s);
            if (rc == 0 && obs && obs->on_op) /* servers are named by id */
                rc = obs->on_op(obs->ctx, t_us, rec, k, st->table, st->table->servers[s].id) != 0;
        }
    }
    if (rc < 0 || replies_push(&st->replies, t_us, *reply_us) < 0)
        return rc < 0 ? rc : -1;
    if (st->measuring)
        histogram_record_n(&st->latency, *reply_us - t_us, st->weight);
    st->measured_ops += st->measuring * st->weight;
    if (!st->warmup_done && st->sc->balancer == BALANCER_NONE) /* after its split, if any */
        engine_warmup_check(st, out, t_us);
    return rc;
}

/* An operation that failed: the message for its code. */
