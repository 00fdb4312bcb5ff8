/* cluster.c -- the operation paths and region assignment. */
#include "core/cluster.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Per-server latency: 16 buckets per power of two (6% error) keeps a
 * 10,000-server cluster at 76 MiB of histograms. */
#define SERVER_LATENCY_SUB_BITS 4

cluster *cluster_new(uint32_t nservers, const keyref *splits, size_t nsplits,
                     split_policy policy, size_t *bad)
{
    assert(nservers >= 1);
    cluster *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->map = regionmap_new(splits, nsplits, bad);
    c->servers = calloc(nservers, sizeof *c->servers);
    if (!c->map || !c->servers) {
        cluster_free(c);
        return NULL;
    }
    c->nservers = nservers;
    c->next_id = nservers;
    c->meta_server = CLUSTER_NO_META;
    c->policy = policy;
    c->weight = 1;
    for (uint32_t s = 0; s < nservers; s++) {
        c->servers[s].id = s;
        if (histogram_init(&c->servers[s].latency, SERVER_LATENCY_SUB_BITS) < 0) {
            *bad = nsplits;
            cluster_free(c);
            return NULL;
        }
    }
    for (size_t i = 0; i < regionmap_count(c->map); i++) {
        region *r = regionmap_at(c->map, i);
        r->server = (uint32_t)(i % nservers);
        r->next_split_check = split_first_check(&policy);
        c->servers[r->server].regions++;
    }
    return c;
}

void cluster_free(cluster *c)
{
    if (!c)
        return;
    regionmap_free(c->map);
    for (uint32_t s = 0; c->servers && s < c->nservers; s++)
        server_release(&c->servers[s]);
    for (uint32_t s = 0; s < c->nretired; s++)
        server_release(&c->retired[s]);
    free(c->servers);
    free(c->retired);
    free(c);
}

/* The first run of server s's CompactedHFilesDischarger after now_us:
 * the chore runs every discharge_us from the server's start
 * (HRegionServer: hbase.hfile.compaction.discharger.interval, 2 min; a
 * ScheduledChore with no initial delay), its start code the epoch ms it
 * started. A daughter's reference files are compacted as it opens (the
 * compaction HRegionServer.postOpenDeployTasks requests at top priority)
 * and, at these sizes, done well before the chore comes round. */
static uint64_t next_discharge(const cluster *c, uint32_t s, uint64_t now_us)
{
    uint64_t p = c->discharge_us;
    uint64_t start_us = c->servers[s].start_ms * 1000, epoch_us = c->epoch_ms * 1000;
    uint64_t abs_us = epoch_us + now_us;
    uint64_t since = abs_us >= start_us ? abs_us - start_us : 0;
    return now_us + (p - since % p);
}

/* Splits region i if the policy wants it (why: what it saw); failure to
 * find a split point is not an error, running out of memory is. */
static int cluster_maybe_split(cluster *c, size_t i, const split_why *why)
{
    region *r = regionmap_at(c->map, i);
    keyref at;
    /* CompactSplit splits only while the server hosts fewer regions than
     * hbase.regionserver.regionSplitLimit. */
    if (c->split_limit && c->servers[r->server].regions >= c->split_limit)
        return 0;
    if (!split_decide(&c->policy, r, &at, NULL, 0))
        return 0;
    uint32_t s = r->server;
    if (c->journal)
        c->journal(c->journal_ctx, CLUSTER_SPLIT, r, at, c->servers[s].id, c->servers[s].id, why);
    /* SplitTableRegionProcedure.getDaughterRegionIdTimestamp: now in ms, or
     * the parent's id + 1 if that is not later (the clock went back, or a
     * split within the parent's first millisecond). */
    uint64_t id = c->now_us / 1000;
    if (id <= r->id)
        id = r->id + 1;
    if (regionmap_split(c->map, i, at, id) < 0)
        return -1;
    c->servers[s].regions++;
    c->splits++;
    uint64_t back = c->now_us + c->split_offline_us;
    for (size_t d = i; d <= i + 1; d++) {
        region *daughter = regionmap_at(c->map, d);
        daughter->offline_until_us = back;
        daughter->opened_us = c->now_us;
        daughter->next_split_check = split_first_check(&c->policy);
        daughter->refs_until_us = c->discharge_us ? next_discharge(c, s, back) : 0;
        daughter->blocked = 0;
        split_busy_start(&daughter->busy, back, 0, 0); /* online again from back */
    }
    return 0;
}

/* A write is "blocked" for BusyRegionSplitPolicy when it found its region
 * offline or waited more than this in its server's queue (HBase counts
 * writes refused while a memstore is over its blocking size; the
 * simulator has no memstore, and a long queue is the same pressure). */
#define BUSY_WAIT_US 10000

/* cluster_write's work once k is routed to region r, index i (inline in
 * both callers: the common write pays no extra call). */
static inline __attribute__((always_inline)) int
write_region(cluster *c, region *r, size_t i, keyref k, uint32_t cell_bytes, uint64_t service_us,
             uint32_t *server_index, uint64_t *reply_us)
{
    server *s = &c->servers[r->server];
    uint64_t reply = c->serve ? c->serve(c->serve_ctx, s, c->now_us, r->offline_until_us,
                                         service_us, c->weight)
                              : server_serve(s, c->now_us, r->offline_until_us, service_us);
    if (reply == UINT64_MAX || store_put(r->rows, k, cell_bytes) < 0)
        return -1;
    r->writes += c->weight;
    /* The memstore flushes once over the flush size (HRegion.isFlushSize),
     * and only then does HBase look at the split policy. */
    r->memstore_bytes += cell_bytes;
    int flushed = r->memstore_bytes > c->policy.flush_bytes;
    if (flushed)
        r->memstore_bytes = 0;
    s->writes += c->weight;
    s->bytes += cell_bytes;
    *server_index = r->server;
    *reply_us = reply;
    if (c->policy.kind == SPLIT_BUSY) {
        uint64_t size = store_bytes(r->rows);
        split_why why = { size, 0, s->regions, 0, 0, 0 };
        r->blocked += c->weight * (r->offline_until_us > c->now_us ||
                                   reply - c->now_us > service_us + BUSY_WAIT_US);
        if (r->refs_until_us <= c->now_us &&
            split_busy_due(&c->policy, &r->busy, c->now_us, r->writes, r->blocked,
                           &why.blocked_ratio)) {
            why.busy = 1;
            why.busy_threshold = split_busy_threshold(&c->policy);
            why.threshold_bytes = split_size_to_check(&c->policy, r, s->regions);
            return cluster_maybe_split(c, i, &why);
        }
    }
    if (!flushed || r->refs_until_us > c->now_us)
        return 0;
    uint64_t size = store_bytes(r->rows); /* only at a flush: a store's header is a miss */
    if (split_due(&c->policy, r, size, s->regions)) {
        split_why why = { size, split_size_to_check(&c->policy, r, s->regions), s->regions, 0, 0, 0 };
        return cluster_maybe_split(c, i, &why);
    }
    return 0;
}

void cluster_ahead_start(cluster_ahead *a, keyref k)
{
    regionmap_ahead_start(&a->route, k);
    a->store_steps = 0;
}

void cluster_prefetch_write(cluster *c, keyref k, cluster_ahead *a)
{
    const region *r = regionmap_ahead_step(c->map, k, &a->route);
    if (!r) {
        a->store_steps = 0;
        return;
    }
    if (a->store_steps == 0) { /* the region's line is in: its store's struct */
        __builtin_prefetch(r->rows);
        __builtin_prefetch((const char *)r->rows + 64); /* a put reads two lines of it */
        a->store_steps = 1;
    } else if (a->store_steps == 1) {
        store_prefetch_put(r->rows);
        a->store_steps = 2;
    }
}

int cluster_write(cluster *c, keyref k, uint32_t cell_bytes, uint64_t service_us,
                  uint32_t *server_index, uint64_t *reply_us)
{
    size_t i;
    region *r = regionmap_find(c->map, k, &i);
    return write_region(c, r, i, k, cell_bytes, service_us, server_index, reply_us);
}

int cluster_write_ahead(cluster *c, keyref k, const cluster_ahead *a, uint32_t cell_bytes,
                        uint64_t service_us, uint32_t *server_index, uint64_t *reply_us)
{
    size_t i;
    region *r = regionmap_find_ahead(c->map, k, &a->route, &i);
    return write_region(c, r, i, k, cell_bytes, service_us, server_index, reply_us);
}

double cluster_row_weight(const cluster *c, store *rows)
{
    if (c->weight <= 1)
        return 1;
    uint64_t n = store_rows(rows), cells = store_cells(rows);
    double w = (double)c->weight;
    if (n == 0 || cells <= n)
        return w;
    /* mu = l / (1 - exp(-l)) rises from 1 (l = 0) like l: bisection on l */
    double mu = (double)cells / (double)n, lo = 0, hi = mu + 1;
    for (int i = 0; i < 50; i++) {
        double l = (lo + hi) / 2;
        if (l / -expm1(-l) < mu)
            lo = l;
        else
            hi = l;
    }
    double l = (lo + hi) / 2, weight = 1 / -expm1(-l);
    return weight < w ? weight : w;
}

/* Where a scan from lo starts within region r: lo, or the region's start. */
static keyref scan_start(const region *r, keyref lo)
{
    keyref start = region_start(r);
    return key_compare(lo, start) > 0 ? lo : start;
}

/* Rows of region r inside [lo, hi) (hi empty: unbounded). An end of the
 * range at or beyond the region's own is asked of an exact store as no
 * bound at all (empty): the same count, as every row of a region lies
 * within its bounds, and the store need not compare its first or last row
 * with a bound that shares its first bytes (a region's own start and end
 * mostly do). A range over the whole region, most of a scan's regions,
 * asks any store for every row (a sampled store's estimate of a range
 * depends on its bounds, so it gets the region's own when only one end is
 * the region's). */
static uint64_t rows_in_region(const region *r, keyref lo, keyref hi)
{
    static const keyref none = { NULL, 0 };
    keyref start = region_start(r), end = region_end(r);
    int from_start = key_compare(lo, start) <= 0;
    int to_end = hi.len == 0 || (end.len && key_compare(end, hi) <= 0);
    if (from_start && to_end)
        return store_count_range(r->rows, none, none);
    keyref from = from_start ? start : lo, to = to_end ? end : hi;
    if (to.len && key_compare(from, to) >= 0)
        return 0;
    if (store_kind_of(r->rows) == STORE_EXACT)
        return store_count_range(r->rows, from_start ? none : lo, to_end ? none : hi);
    return store_count_range(r->rows, from, to);
}

int cluster_scan(cluster *c, keyref lo, keyref hi, uint64_t limit, int reverse,
                 read_service_fn service, scan_rpc_fn on_rpc, void *ctx, scan_cost *cost,
                 uint32_t *last_server)
{
    size_t first, last;
    regionmap_range(c->map, lo, hi, &first, &last);
    uint64_t left = limit;
    /* Weighted: a stored row stands for rows of a range (cluster_row_weight),
     * but a get of one row ([k, k\0)) reads that row alone. */
    int one_row = c->weight > 1 && lo.len && hi.len == lo.len + 1 && hi.data[lo.len] == 0 &&
                  memcmp(lo.data, hi.data, lo.len) == 0;
    for (size_t n = 0; n <= last - first; n++) {
        region *r = regionmap_at(c->map, reverse ? last - n : first + n);
        uint64_t rows = rows_in_region(r, lo, hi);
        if (c->weight > 1 && !one_row)
            rows = (uint64_t)((double)rows * cluster_row_weight(c, r->rows) + 0.5);
        if (limit && rows > left)
            rows = left;
        server *s = &c->servers[r->server];
        uint64_t service_us = service(ctx, rows);
        uint64_t reply = c->serve ? c->serve(c->serve_ctx, s, c->now_us, r->offline_until_us,
                                             service_us, c->weight)
                                  : server_serve(s, c->now_us, r->offline_until_us, service_us);
        if (reply == UINT64_MAX)
            return -1;
        s->reads += c->weight;
        r->reads += c->weight;
        r->read_rows += rows * c->weight;
        s->rows_scanned += rows * c->weight;
        if (on_rpc && on_rpc(ctx, s->id, scan_start(r, lo)) < 0)
            return -1;
        cost->rpcs++;
        cost->rows += rows;
        if (reply > cost->reply_us)
            cost->reply_us = reply;
        *last_server = r->server;
        if (limit && (left -= rows) == 0)
            break;
    }
    return 0;
}

void cluster_move(cluster *c, size_t i, uint32_t s)
{
    assert(s < c->nservers);
    region *r = regionmap_at(c->map, i);
    if (r->server == s)
        return;
    c->servers[r->server].regions--;
    c->servers[s].regions++;
    uint32_t from = r->server;
    r->server = s;
    if (c->journal)
        c->journal(c->journal_ctx, CLUSTER_MOVE, r, region_start(r), c->servers[from].id,
                   c->servers[s].id, NULL);
    r->offline_until_us = c->now_us + c->move_offline_us;
    r->memstore_bytes = 0; /* closing a region flushes it */
    r->refs_until_us = 0;  /* and archives its compacted files */
    split_busy_start(&r->busy, r->offline_until_us, r->writes, r->blocked); /* reopened */
    c->moves++;
}

void cluster_place_meta(cluster *c, uint32_t s)
{
    assert(s < c->nservers);
    c->meta_server = s;
}

void cluster_move_meta(cluster *c, uint32_t s)
{
    assert(s < c->nservers && c->meta_server != CLUSTER_NO_META);
    if (c->meta_server == s)
        return;
    uint32_t from = c->meta_server;
    c->meta_server = s;
    if (c->journal) {
        keyref name = keyref_of(CLUSTER_META_NAME, sizeof CLUSTER_META_NAME - 1);
        c->journal(c->journal_ctx, CLUSTER_MOVE, NULL, name, c->servers[from].id,
                   c->servers[s].id, NULL);
    }
    c->meta_offline_until_us = c->now_us + c->move_offline_us;
    c->moves++;
}

uint64_t cluster_balanced_regions(const cluster *c)
{
    return regionmap_count(c->map) + (c->meta_server != CLUSTER_NO_META);
}

int cluster_add_servers(cluster *c, uint32_t n)
{
    if (n == 0)
        return 0;
    if (c->nservers > UINT32_MAX - n || c->next_id > UINT32_MAX - n)
        return -1;
    server *s = realloc(c->servers, (size_t)(c->nservers + n) * sizeof *s);
    if (!s)
        return -1;
    c->servers = s;
    for (uint32_t k = 0; k < n; k++) {
        server *fresh = &c->servers[c->nservers];
        memset(fresh, 0, sizeof *fresh);
        if (histogram_init(&fresh->latency, SERVER_LATENCY_SUB_BITS) < 0)
            return -1; /* the servers added so far stay */
        fresh->id = c->next_id++;
        fresh->start_ms = c->epoch_ms + c->now_us / 1000;
        c->nservers++;
    }
    return 0;
}

uint32_t cluster_server_index(const cluster *c, uint32_t id)
{
    for (uint32_t s = 0; s < c->nservers; s++)
        if (c->servers[s].id == id)
            return s;
    return UINT32_MAX;
}

/* The live server other than `skip` hosting the fewest regions (hbase:meta
 * counted). */
static uint32_t least_loaded_except(const cluster *c, uint32_t skip)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t s = 0; s < c->nservers; s++)
        if (s != skip &&
            (best == UINT32_MAX || cluster_server_load(c, s) < cluster_server_load(c, best)))
            best = s;
    return best;
}

int cluster_retire_server(cluster *c, uint32_t i, uint64_t back_us)
{
    assert(i < c->nservers && c->nservers >= 2);
    server *r = realloc(c->retired, (size_t)(c->nretired + 1) * sizeof *r);
    if (!r)
        return -1;
    c->retired = r;
    if (c->meta_server == i) { /* meta first, as ServerCrashProcedure assigns it */
        uint32_t to = least_loaded_except(c, i);
        c->meta_server = to;
        if (back_us > c->meta_offline_until_us)
            c->meta_offline_until_us = back_us;
        c->reassigned++;
        if (c->journal) {
            keyref name = keyref_of(CLUSTER_META_NAME, sizeof CLUSTER_META_NAME - 1);
            c->journal(c->journal_ctx, CLUSTER_REASSIGN, NULL, name, c->servers[i].id,
                       c->servers[to].id, NULL);
        }
    }
    /* Reassign its regions, each to the least loaded of the others. */
    for (size_t k = 0; k < regionmap_count(c->map); k++) {
        region *g = regionmap_at(c->map, k);
        if (g->server != i)
            continue;
        uint32_t to = least_loaded_except(c, i);
        g->server = to;
        c->servers[to].regions++;
        c->servers[i].regions--;
        if (back_us > g->offline_until_us)
            g->offline_until_us = back_us;
        c->reassigned++;
        if (c->journal)
            c->journal(c->journal_ctx, CLUSTER_REASSIGN, g, region_start(g), c->servers[i].id,
                       c->servers[to].id, NULL);
    }
    /* Keep its counters for the reports; the last live server takes i. */
    c->retired[c->nretired++] = c->servers[i];
    uint32_t last = c->nservers - 1;
    if (i != last) {
        c->servers[i] = c->servers[last];
        if (c->meta_server == last)
            c->meta_server = i;
        for (size_t k = 0; k < regionmap_count(c->map); k++) {
            region *g = regionmap_at(c->map, k);
            if (g->server == last)
                g->server = i;
        }
    }
    c->nservers--;
    return 0;
}

uint64_t cluster_rows(cluster *c)
{
    uint64_t n = 0;
    for (size_t i = 0; i < regionmap_count(c->map); i++)
        n += store_rows(regionmap_at(c->map, i)->rows);
    return n;
}

uint64_t cluster_bytes(const cluster *c)
{
    uint64_t n = 0;
    for (size_t i = 0; i < regionmap_count(c->map); i++)
        n += store_bytes(regionmap_get(c->map, i)->rows);
    return n;
}
