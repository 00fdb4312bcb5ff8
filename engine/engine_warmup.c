/* engine_warmup.c -- the warm-up: when a run's table leaves it, and
 * where the figures start counting.
 *
 * A new table is one region on one server; it splits as it grows, and the
 * balancer spreads the daughters. Until there is a region for every
 * server, no balancer can give every server one, so the writes' spread in
 * that time is the table's youth, not the key's: two schemes that both
 * write evenly once the table has grown look uneven, and equally so, in
 * the first minutes. That time is the warm-up, defined as the table sees
 * it and detected per run:
 *
 *   - with a balancer: it ends at the first balancer run at which the table
 *     has at least one region per online server (the balancer could then
 *     give each server a region; it runs at that same moment);
 *   - with the balancer off (balancer = none): when the table first has at
 *     least one region per online server (after the split, or the server
 *     leaving, that made it so): nothing will spread the regions, and the
 *     figures say so;
 *   - a table that starts with at least one region per server (pre-split,
 *     assigned round robin when the table is created) has no warm-up: it
 *     ends at time 0.
 *
 * It ends once: servers that join later do not start another one.
 * "Settled" regions per server would be a finer test, but a table that
 * keeps splitting (a constant split size, every default run) never
 * settles, and a monotonic key's regions keep splitting on one server by
 * design: by this definition its warm-up ends like any other, and the
 * measured figures then show the hotspot (window max/mean = servers) rather
 * than hide it in a warm-up that never ends.
 *
 * measure_from = auto (the default) measures from there. A run that never
 * leaves its warm-up (too short, too few writes to split, a balancer period
 * longer than the run) is measured whole, and says so (run_result's
 * warmup_ended = 0): figures of the growing table, labelled as such, tell a
 * user more than no figures at all. Whether it ends is known only at the
 * end, so under auto the engine measures from 0 and starts over (every
 * measured count and latency back to zero, the servers' counters kept as
 * the baseline to subtract) when the warm-up ends: the same figures as a
 * run measured from that moment, and the whole run's when it never does.
 * The warm-up's end is checked before the balancer runs at that tick, so
 * the moves that spread the regions, and their pauses, are measured.
 *
 * The warm-up is detected whatever measure_from says, so a report measured
 * from an explicit time still shows where the growing table ended.
 */
#include "engine/engine_impl.h"

#include <string.h>

/* Regions and servers that count: the table's regions and the online
 * servers (those that left are not online). */
static int table_ready(const cluster *c)
{
    return c->nservers > 0 && regionmap_count(c->map) >= c->nservers;
}

/* The counters of the run's result that count measured operations only,
 * back to zero: measuring starts over (measure_from = auto measured from 0
 * until the warm-up ended). */
static void reset_counts(run_state *st, run_result *out)
{
    out->writes = out->reads = 0;
    memset(out->reads_by_kind, 0, sizeof out->reads_by_kind);
    memset(out->read_rpcs_by_kind, 0, sizeof out->read_rpcs_by_kind);
    memset(out->rows_scanned_by_kind, 0, sizeof out->rows_scanned_by_kind);
    memset(out->records_returned_by_kind, 0, sizeof out->records_returned_by_kind);
    out->rows_scanned = out->records_returned = out->full_scans = 0;
    st->measured_ops = 0;
    st->done_measured = 0;
}

void engine_start_measuring(run_state *st, run_result *out, uint64_t t_us)
{
    cluster *c = st->table;
    for (int pass = 0; pass < 2; pass++) {
        server *sv = pass ? c->retired : c->servers;
        uint32_t n = pass ? c->nretired : c->nservers;
        for (uint32_t s = 0; s < n; s++) {
            st->baseline[sv[s].id] = (server_baseline){ sv[s].writes, sv[s].reads, sv[s].bytes,
                                                        sv[s].rows_scanned, sv[s].rpcs,
                                                        sv[s].busy_us };
            histogram_clear(&sv[s].latency);
            sv[s].longest_queue = 0;
        }
    }
    histogram_clear(&st->latency);
    histogram_clear(&st->read_latency);
    reset_counts(st, out);
    st->measuring = 1;
    st->measure_from_us = t_us;
    out->measure_regions = regionmap_count(c->map);
    out->measure_servers = c->nservers;
    out->bytes_start = cluster_bytes(c);
}

/* What the table was when the warm-up ended at t (ended: 1), or when the
 * run ended still in it (ended: 0, t the run's end): its regions, online
 * servers and each server's writes so far. */
static void warmup_record(run_state *st, run_result *out, uint64_t t_us, int ended)
{
    cluster *c = st->table;
    out->warmup_ended = ended;
    out->warmup_us = t_us;
    out->warmup_regions = regionmap_count(c->map);
    out->warmup_servers = c->nservers;
    for (int pass = 0; pass < 2; pass++) {
        const server *sv = pass ? c->retired : c->servers;
        uint32_t n = pass ? c->nretired : c->nservers;
        for (uint32_t s = 0; s < n; s++)
            out->servers[sv[s].id].warmup_writes = sv[s].writes;
    }
}

/* The warm-up ends at t: what the table was then, and (measure_from =
 * auto) measuring from here. */
static void warmup_end(run_state *st, run_result *out, uint64_t t_us)
{
    st->warmup_done = 1;
    warmup_record(st, out, t_us, 1);
    if (st->sc->measure_auto)
        engine_start_measuring(st, out, t_us);
}

void engine_warmup_check(run_state *st, run_result *out, uint64_t t_us)
{
    if (!st->warmup_done && table_ready(st->table))
        warmup_end(st, out, t_us);
}

void engine_warmup_finish(run_state *st, run_result *out)
{
    if (!st->warmup_done)
        warmup_record(st, out, out->duration_us, 0);
}
