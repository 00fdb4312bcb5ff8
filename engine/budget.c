/* budget.c -- the memory a run will need, estimated from the scenario
 * alone (budget_estimate_run). See budget.h; docs/model.md (Memory) gives
 * the formula in words. The limit the estimate is held against is
 * budget_limit.c's; the verdict and its message are budget_check.c's.
 *
 * The estimate follows the data structures, each costed as it is when
 * full, with its arrays' growth slack (K is a key's length in bytes):
 *
 *  - the exact row store (core/store_exact.c): a row is its key + 14 bytes (a 6-byte
 *    record header and an 8-byte offset) in arrays that grow by x1.25:
 *    1.25 (K + 14) bytes a row (arrays of 256 KiB and more are mappings
 *    grown by mremap, and a split gives the new store the room the old one
 *    had grown, so the capacities still sum to about 1.25 times what is
 *    stored; resident are only the pages written, a little less). Rows are
 *    the writes, unless the key scheme
 *    provably repeats rows (below). Out-of-order puts wait in a region's
 *    pending buffer, 48 bytes an entry (55 with the array's growth) plus
 *    1.5 K for the key, up to max(4096, rows / 8) entries a region, and
 *    the buffer keeps its room once grown: min(4096 x regions, runs of
 *    puts of one key) entries, or rows / 8 if that is more;
 *  - the sampled row store (store = sampled, core/store_sampled.c) instead:
 *    per region, not per row: sample_keys x (12 + 1.5 K) bytes + 2 K + 128;
 *  - operations in flight (open loop: the most a queue gets when every
 *    write goes to one server, which serves one per service time, plus
 *    what arrives while a region is offline; closed loop: the clients):
 *    the engine's heap of replies, 8 bytes a slot, doubling, and the
 *    servers' rings, 8 bytes doubling (12 counted); a closed loop's
 *    clients each have a tick in the event queue (24 bytes, doubling);
 *  - a region (REGION_BYTES and twice its struct, the array doubling, and
 *    its start and end keys): its store's fixed part and smallest arrays,
 *    its entry in the region map and the balancer's state about it; in
 *    the results, its entries in the region log and the timeline (a split
 *    and a move for each split, a reassignment each when events change
 *    the servers) with their keys in shell form (4 K + 1 bytes). The
 *    regions: the first ones plus two per smallest region size of cell
 *    bytes written, never more than the rows, nor split_limit a server;
 *  - a server: its latency histogram (976 buckets of 8 bytes), queue ring
 *    and counters, and its figures in every scheme's results;
 *  - report windows: writes and reads per server and window, regions per
 *    window, in arrays that double: kept for every scheme, unless the run
 *    is reduced when it ends (the scenario's window_digest, set when no
 *    output needs them, and more than 32 servers: engine/windows.h); then
 *    the full matrix counts only for the runs in flight (their work) and
 *    every scheme keeps its digest (per window a total and a maximum of
 *    each kind, the heatmap binned to at most 32 rows, two sums a server);
 *  - the key space: per window and kind, a reservoir of up to 1024 (then
 *    64, then 8) sampled keys; the heatmap, windows x key buckets x 16
 *    bytes (kept for every scheme);
 *  - the truth of reads (engine/truth.c): 16 bytes per entity id up to the
 *    largest (doubling), 64 per entity written, 56 per write (+ 24 with
 *    metric reads);
 *  - UID tables (workloads/keyscheme_encode.c): 48 bytes per name;
 *  - balancer runs (their reports and timeline entries, doubling), the
 *    jitter queue (24 bytes a series), a trace's line buffer, the run's
 *    own state (1 MiB), and the report writers' scratch: the report is
 *    written to a temporary file as it is rendered (cli/main.c), so what
 *    it needs is one run's server heatmap binned to at most 32 rows
 *    (windows x 32 x 8 bytes, writes and reads), copies of the
 *    servers' counts to sort (17 bytes a server) and the region map's
 *    bands (64 bytes a logged region, 168 a band, 32 a split), for the
 *    largest run.
 *
 * The whole run needs every scheme's results (kept for the report) plus
 * the larger of the work of the `jobs` largest scheme runs (they run at
 * once: scenario_jobs) and the report.
 *
 * Rows. The key scheme is probed: a few records are encoded by fresh
 * encoders with the same seed (so salt() draws alike) and their keys
 * compared. A key that changes with the sequence number alone, or with a
 * random draw not confined to a leading bucket, makes every write a row. A
 * key that does not is one of names x time steps x buckets rows, where
 * names counts only if the key changes with the entity, and the time step
 * is the smallest of 1 ms, 1 s, 1 min, 1 h and 1 day by which the
 * timestamp must move for the key to change (OpenTSDB's hour rows: one per
 * series and hour; a millisecond timestamp: one row per millisecond,
 * however many writes it takes). The probes also give the key length: the
 * longest key of records with the phase's first, middle and last ids.
 */
#include "engine/budget_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/balancer.h"
#include "core/regionmap.h"
#include "core/server.h"
#include "engine/eventq.h"
#include "engine/hbase_inputs.h"
#include "engine/result.h"
#include "engine/windows.h"
#include "scenario/weighting.h"
#include "workloads/keyscheme.h"
#include "workloads/record.h"
#include "workloads/trace.h"
#include "workloads/ycsb_workload.h"

/* engine/engine_impl.h's limit on report windows, and keyspace.c's sample
 * sizes. */
#define WINDOWS_MAX 1000000.0
#define SAMPLE_FIRST 1024.0     /* keys a window for the first 1024 windows */
#define SAMPLE_NEXT 64.0        /* ... up to window 16384 */
#define SAMPLE_LAST 8.0         /* ... and after */

#define ROW_FIXED 14.0          /* store: record header 6 + offset 8 */
#define SAMPLED_FIXED 128.0     /* a sampled store's struct, allocated */
#define SAMPLED_ENTRY 12.0      /* a sampled row's entry: offset, bytes, length */
#define ROW_GROWTH 1.25         /* store arrays grow by x1.25 past 1 MiB */
#define PENDING_ENTRY 55.0      /* store: a pending entry and its sort slot, 48 bytes, as its
                                 * array grows by x1.5 from 16 to 4618 for 4096 entries */
#define PENDING_MIN 4096.0      /* store: pending entries a region may hold, at least */
#define PENDING_GROWTH 1.5      /* the pending keys' arena grows by x1.5 */
#define IN_FLIGHT_HEAP 8.0      /* the engine's heap of replies: 8 bytes, doubling */
#define IN_FLIGHT_RING 12.0     /* servers' rings: 8 bytes, doubling (x1.5 on average over
                                 * the servers the operations wait in) */
#define REGION_BYTES 240.0      /* store struct (112) and its smallest arrays (96), map entry's
                                 * start prefix (16, doubling) */
#define REGION_STOCHASTIC 300.0 /* the stochastic balancer's loads (48 + 15 x 16) and walk */
#define REGION_SIMPLE 60.0      /* the simple balancer's per-run arrays */
#define SERVER_HISTOGRAM 7808.0 /* (64 - 4 + 1) << 4 buckets of 8 bytes */
#define SERVER_EXTRA 240.0      /* queue ring, baseline, balancers' per-server arrays */
#define NAME_BYTES 48.0         /* a UID table's slots per name, doubling, with the old table */
#define TRUTH_ENTITY 64.0       /* the first 4 entries of an entity's list */
/* TRUTH_WRITE (a write kept to score reads against): engine/budget_impl.h */
#define TRUTH_METRIC 24.0       /* in its metric's list, with metric reads */
#define REPORT_BINNED 8.0       /* a cell of a server heatmap binned for a report */
#define REPORT_ROWS 32.0        /* reports/servers.h's SERVER_ROWS_MAX */
#define REPORT_REGION 64.0      /* the region map's replay (reports/regionbands.c): two
                                 * lookup entries, a time and flags a logged region */
#define REPORT_BAND 168.0       /* a band (56 bytes), its array doubling, and the
                                 * coarsened copy: a logged region or region change */
#define REPORT_SPLIT 32.0       /* a split's mark (16 bytes), doubling */
#define REPORT_SORTED 17.0      /* a server's count copied to sort, its mark, a figure's value */
#define RUN_FIXED 1048576.0     /* the run's own state, key buffer, latency histograms */
#define TRACE_BUFFERS 1081344.0 /* a trace reader's line (1 MiB) and key buffers */
#define TRACE_MIN_LINE 8.0      /* "0,put,k\n": the shortest line of a record */

static double max2(double a, double b) { return a > b ? a : b; }

/* A time in us held as a double, as a whole number of us: 0 below 1,
 * UINT64_MAX from 2^64 on (a cast out of range is undefined behaviour: a
 * trace's period of a billion hours gives 3.6e24). */
static uint64_t us_of(double t)
{
    return t <= 0 ? 0 : t >= 0x1p64 ? UINT64_MAX : (uint64_t)t;
}

/* The balancer's first run, as the engine draws it from the seed
 * (engine/hbase_inputs.c; the status chore's phase is not needed here). */
static uint64_t first_balancer_run(const scenario *sc)
{
    hbase_inputs in;
    hbase_inputs_draw(sc->seed, sc->start_ms, sc->balancer_period_us, sc->balancer_period_us,
                      sc->balancer_phase_us, sc->servers, &in);
    return in.balancer_first_us;
}
static double min2(double a, double b) { return a < b ? a : b; }

/* What malloc hands out for n bytes: jemalloc's small classes are 8, 16,
 * then multiples of 16 up to 128, then at most 25% more. */
static double alloc_bytes(double n)
{
    if (n <= 8)
        return 8;
    if (n <= 128)
        return 16 * ceil(n / 16);
    return n * 1.25 + 16;
}

/* A key of k bytes in shell form, allocated (4 characters a byte at most). */
static double shell_bytes(double k)
{
    return alloc_bytes(4 * k + 1);
}

/* The capacity an array doubling from `first` reaches to hold n. */
static double doubled(double n, double first)
{
    double cap = first;
    while (cap < n && cap < 1e30)
        cap *= 2;
    return cap;
}

/* ---- probing the key scheme ---- */

typedef struct prober {
    const keyscheme *ks;
    uint64_t seed;
    uint8_t *a, *b;        /* KEYSCHEME_MAX_KEY bytes each */
} prober;

/* r's key length, encoded by a fresh encoder; 0 if out of memory. Into
 * out (a or b) when given. */
static size_t probe_key(const prober *p, const record *r, uint8_t *out)
{
    keyencoder *ke = keyencoder_new(p->ks, p->seed);
    if (!ke)
        return 0;
    size_t n = keyencoder_encode(ke, r, out, KEYSCHEME_MAX_KEY);
    keyencoder_free(ke);
    return n;
}

/* Whether r1 and r2 get different keys from encoders that draw alike,
 * each having encoded `first` before (so that names `first` has met keep
 * their UIDs, and a name it has not met gets a new one). */
static int probe_differ(const prober *p, const record *first, const record *r1,
                        const record *r2)
{
    size_t n[2] = { 0, 0 };
    const record *r[2] = { r1, r2 };
    uint8_t *out[2] = { p->a, p->b };
    for (int i = 0; i < 2; i++) {
        keyencoder *ke = keyencoder_new(p->ks, p->seed);
        if (!ke)
            return 1;
        keyencoder_encode(ke, first, out[i], KEYSCHEME_MAX_KEY);
        n[i] = keyencoder_encode(ke, r[i], out[i], KEYSCHEME_MAX_KEY);
        keyencoder_free(ke);
    }
    return n[0] != n[1] || memcmp(p->a, p->b, n[0]) != 0;
}

/* Whether one encoder gives r different keys twice (a random field). */
static int probe_random(const prober *p, const record *r)
{
    keyencoder *ke = keyencoder_new(p->ks, p->seed);
    if (!ke)
        return 1;
    int differ = 0;
    size_t n1 = keyencoder_encode(ke, r, p->a, KEYSCHEME_MAX_KEY);
    for (int i = 0; i < 8 && !differ; i++) {
        size_t n2 = keyencoder_encode(ke, r, p->b, KEYSCHEME_MAX_KEY);
        differ = n1 != n2 || memcmp(p->a, p->b, n1) != 0;
    }
    keyencoder_free(ke);
    return differ;
}

/* ---- a trace file ---- */

/* Its size in bytes, and the time of its last record (*last_us; -1 when
 * it cannot be read from the file's last lines). 0 if it cannot be
 * stat'ed. */
static double trace_size(const char *path, double *last_us)
{
    struct stat stbuf;
    *last_us = -1;
    if (!path || stat(path, &stbuf) != 0 || stbuf.st_size <= 0)
        return 0;
    double size = (double)stbuf.st_size;
    FILE *f = fopen(path, "rb");
    if (!f)
        return size;
    enum { TAIL = 65536 };
    char *buf = malloc(TAIL + 1);
    long from = stbuf.st_size > TAIL ? (long)(stbuf.st_size - TAIL) : 0;
    size_t n = 0;
    if (buf && fseek(f, from, SEEK_SET) == 0)
        n = fread(buf, 1, TAIL, f);
    fclose(f);
    if (!buf)
        return size;
    buf[n] = '\0';
    /* The last line that is a record: starts with the time's digits
     * (quoted in CSV, perhaps), then a quote, tab or comma. */
    size_t end = n;
    while (end > 0) {
        size_t start = end;
        while (start > 0 && buf[start - 1] != '\n')
            start--;
        if (start == 0 && from > 0)
            break; /* a partial line: nothing more to learn */
        const char *p = buf + start;
        int quoted = *p == '"';
        p += quoted;
        uint64_t t = 0;
        int digits = 0, too_late = 0;
        while (*p >= '0' && *p <= '9' && digits < 21) {
            unsigned d = (unsigned)(*p++ - '0');
            too_late |= t > (TRACE_TIME_MAX - d) / 10;
            t = t * 10 + d;
            digits++;
        }
        if (digits && ((quoted && *p == '"') || (!quoted && (*p == ',' || *p == '\t')))) {
            /* a time past TRACE_TIME_MAX: the reader refuses it, naming its
             * line; the estimate must not refuse the run first for it */
            if (!too_late)
                *last_us = (double)t;
            break;
        }
        end = start ? start - 1 : 0;
    }
    free(buf);
    return size;
}

/* ---- one phase ---- */

typedef struct phase_need {
    double duration_us;
    double ops, puts, rows;
    double simulated_puts;       /* puts the engine simulates (weighted: one in w) */
    double runs;                 /* runs of puts of one key: what can wait in pending buffers */
    double names, max_entity;    /* distinct entities; the largest id + 1 */
    double key;                  /* bytes of its longest probed key */
    double trace_key_bytes;      /* key bytes a trace file adds to its rows */
    double window_ops;           /* most operations in one report window */
    double in_flight;
    double series;               /* the jitter queue */
    double trace_file;           /* a trace phase: the file's size */
    int reads, metric_reads;
} phase_need;

/* Records that may exist by the end of a YCSB phase: the load's, and in the
 * run at most one more per operation. */
static double ycsb_phase_records(const pattern_config *c)
{
    const ycsb_props *p = &c->ycsb->core;
    double loaded = (double)p->insertstart + (double)p->insertcount;
    return c->ycsb_phase == YCSB_PHASE_LOAD ? loaded : loaded + (double)pattern_operations(c);
}

/* Operations a phase of duration d (us) issues at most. */
static double phase_ops(const scenario *sc, const phase *ph, double d, double records_max,
                        double service_us)
{
    const pattern_config *c = &ph->pattern;
    if (ph->clients) {
        /* Each client waits at least a tick (or the write's service) and
         * its think time between operations. */
        double ops = ph->clients * (d / max2(1, (double)ph->think_us + service_us) + 1);
        if (pattern_is_finite(c))
            ops = min2(ops, records_max);
        return ops;
    }
    switch (c->kind) {
    case PATTERN_TIMESERIES: {
        double series = (double)c->metrics * c->hosts * c->tags;
        return series * ceil(d / (double)c->interval_us);
    }
    case PATTERN_ENTITIES:
    case PATTERN_SEQUENCE: {
        double n = c->rate_per_s * d / 1e6;
        /* fixed: the k-th at k / rate, for every k < n */
        return c->arrivals == ARRIVALS_FIXED ? ceil(n) : n + 6 * sqrt(n) + 10;
    }
    case PATTERN_TRACE:
    case PATTERN_YCSB:
        return records_max;
    }
    (void)sc;
    return 0;
}

/* The phase's probe record for entity id `entity` at time t_us. */
static record probe_record(const scenario *sc, const phase *ph, double entity, double t_us,
                           double seq, const uint8_t *key, size_t key_len)
{
    const pattern_config *c = &ph->pattern;
    record r;
    memset(&r, 0, sizeof r);
    r.ts_ms = sc->start_ms + (uint64_t)(t_us / 1000);
    r.seq = (uint64_t)seq;
    r.entity = (uint32_t)min2(entity, 4294967295.0);
    switch (c->kind) {
    case PATTERN_TIMESERIES:
        r.tag = r.entity % c->tags;
        r.metric = (r.entity / c->tags) / c->hosts;
        r.host = (r.entity / c->tags) % c->hosts;
        r.naming = c->tags > 1 ? NAMING_SERIES_TAGGED : NAMING_SERIES;
        break;
    case PATTERN_ENTITIES:
    case PATTERN_SEQUENCE:
        r.naming = (uint8_t)c->naming;
        break;
    case PATTERN_YCSB:
        r.naming = NAMING_USER; /* as long as an ordered name, give or take padding */
        break;
    case PATTERN_TRACE:
        r.naming = NAMING_KEY;
        r.entity = 0;
        r.key = key;
        r.key_len = (uint16_t)key_len;
        break;
    }
    return r;
}

/* Rows a phase stores at most, by probing the scheme (see the top). */
static double phase_rows(const scenario *sc, const prober *p, const phase *ph,
                         const phase_need *n, double start_us, double *runs)
{
    *runs = n->puts;
    if (ph->pattern.kind == PATTERN_TRACE || n->puts < 1)
        return n->puts;
    double mid = floor(n->names / 2);
    record r1 = probe_record(sc, ph, mid, start_us, 0, NULL, 0);
    record r2 = r1;
    r2.seq = 1;
    if (probe_differ(p, &r1, &r1, &r2))
        return n->puts; /* every write its own row */
    double buckets = 1;
    if (probe_random(p, &r1)) {
        size_t width;
        buckets = keyscheme_buckets(p->ks, &width);
        if (buckets < 1)
            return n->puts;
    }
    static const double steps_ms[] = { 1, 1e3, 60e3, 3600e3, 86400e3 };
    static const double bases_ms[] = { 0, 12345678, 987654321 };
    double step_ms = 0; /* 0: the key does not depend on time */
    for (size_t i = 0; i < sizeof steps_ms / sizeof *steps_ms && !step_ms; i++)
        for (size_t j = 0; j < sizeof bases_ms / sizeof *bases_ms && !step_ms; j++) {
            record a = r1, b = r1;
            a.ts_ms += (uint64_t)bases_ms[j];
            b.ts_ms = a.ts_ms + (uint64_t)steps_ms[i];
            b.seq = 1;
            if (probe_differ(p, &a, &a, &b))
                step_ms = steps_ms[i];
        }
    double times = step_ms ? n->duration_us / 1000 / step_ms + 2 : 1;
    /* Does the key depend on which entity (series, user) writes? */
    double names = 1;
    double others[2] = { 0, max2(0, n->names - 1) };
    for (int i = 0; i < 2 && names == 1; i++) {
        record r = probe_record(sc, ph, others[i], start_us, 0, NULL, 0);
        if (probe_differ(p, &r1, &r1, &r))
            names = n->names;
    }
    double rows = min2(n->puts, names * times * buckets);
    /* A key of time alone comes in runs: the writes of one time step share
     * it, one after the other (no other key between them). */
    if (names == 1 && buckets == 1)
        *runs = rows;
    return rows;
}

/* The longest key of the phase's probe records; for a trace, the key of a
 * 1-byte trace key, and in *per_byte how many key bytes each further byte
 * of a trace key adds. */
static double phase_key(const scenario *sc, const prober *p, const phase *ph,
                        const phase_need *n, double start_us, double *per_byte)
{
    *per_byte = 0;
    if (ph->pattern.kind == PATTERN_TRACE) {
        uint8_t key[100];
        memset(key, 'k', sizeof key);
        record r1 = probe_record(sc, ph, 0, start_us, 0, key, 1);
        record r2 = probe_record(sc, ph, 0, start_us, 0, key, sizeof key);
        double k1 = (double)probe_key(p, &r1, p->a), k2 = (double)probe_key(p, &r2, p->a);
        *per_byte = k2 > k1 ? ceil((k2 - k1) / (double)(sizeof key - 1)) : 0;
        return k1;
    }
    double longest = 0;
    double ids[3] = { 0, floor(n->names / 2), max2(0, n->names - 1) };
    double times[2] = { start_us, start_us + n->duration_us };
    for (int i = 0; i < 3; i++)
        for (int t = 0; t < 2; t++) {
            record r = probe_record(sc, ph, ids[i], times[t], n->ops, NULL, 0);
            longest = max2(longest, (double)probe_key(p, &r, p->a));
        }
    return longest;
}

/* The longest time a region stays offline: a split, a move, a failed
 * server's detection and the move after it. */
static double longest_pause_us(const scenario *sc)
{
    double p = max2((double)sc->split_pause_us, (double)sc->move_pause_us);
    for (size_t i = 0; i < sc->nevents; i++)
        if (sc->events[i].action == EVENT_FAIL)
            p = max2(p, (double)sc->events[i].detection_us + (double)sc->move_pause_us);
    return p;
}

static void phase_estimate(const scenario *sc, const prober *p, const phase *ph, double start_us,
                           phase_need *n)
{
    const pattern_config *c = &ph->pattern;
    memset(n, 0, sizeof *n);
    double trace_last_us = -1, records_max = 0;
    if (c->kind == PATTERN_TRACE) {
        n->trace_file = trace_size(c->trace_path, &trace_last_us);
        records_max = floor((n->trace_file + 1) / TRACE_MIN_LINE);
    }
    if (c->kind == PATTERN_YCSB)
        records_max = (double)pattern_operations(c);
    if (c->kind == PATTERN_TRACE && !ph->duration_given)
        n->duration_us = trace_last_us >= 0 ? trace_last_us + 1
                                            : WINDOWS_MAX * (double)scenario_window_us(sc);
    else
        n->duration_us = (double)ph->duration_us;
    double d = n->duration_us;
    uint32_t weight[QUERY_KINDS];
    scenario_read_weights(ph, weight);
    double f = ph->reads.fraction;
    n->reads = pattern_may_read(c, f); /* a trace may hold gets; a YCSB run reads */
    n->metric_reads = f > 0 && weight[QUERY_METRIC] > 0;

    /* A write's service time, at least a tick (the key length is not known
     * yet: the shortest, 1 byte, will do); exponential service times hold
     * a server for their mean on average (half of it is counted). With
     * reads, exponential times or a trace, nothing better than a tick
     * bounds how soon a client issues its next operation. */
    double cell = 1 + (double)scenario_cell_overhead(sc);
    double service = max2(1, floor((double)sc->rpc_us + cell * (double)sc->kib_us / 1024 + 0.5));
    double occupies = sc->service_exponential ? max2(1, service / 2) : service;
    int fixed = !sc->service_exponential && f == 0 && c->kind != PATTERN_TRACE;
    n->ops = phase_ops(sc, ph, d, records_max, fixed ? service : 1);
    n->puts = f > 0 ? min2(n->ops, (1 - f) * n->ops + 6 * sqrt(n->ops * f * (1 - f)) + 10)
                    : n->ops;
    if (ph->clients) {
        /* Clients wait for their replies: no more writes than the servers
         * can serve (and the writes still in them), nor, without reads,
         * operations. */
        double served = scenario_max_servers(sc) * (d / occupies + 1) + ph->clients;
        n->puts = min2(n->puts, served);
        if (f == 0 && c->kind != PATTERN_TRACE)
            n->ops = min2(n->ops, served);
    }
    switch (c->kind) {
    case PATTERN_TIMESERIES:
        n->names = (double)c->metrics * c->hosts * c->tags;
        n->max_entity = n->names;
        if (c->jitter_us)
            n->series = n->names;
        break;
    case PATTERN_ENTITIES: {
        /* insert_fraction is a share of all operations (YCSB's
         * insertproportion), reads included */
        double inserts = c->insert_fraction > 0
                             ? n->ops * c->insert_fraction + 6 * sqrt(n->ops) + 10 : 0;
        n->names = min2(4294967295.0, (double)c->records + inserts);
        n->max_entity = n->names;
        break;
    }
    case PATTERN_SEQUENCE:
        n->names = min2(4294967296.0, n->ops);
        n->max_entity = n->names;
        break;
    case PATTERN_TRACE:
        n->names = n->ops;
        n->max_entity = 1;
        break;
    case PATTERN_YCSB:
        n->names = min2(4294967296.0, ycsb_phase_records(c));
        n->max_entity = n->names;
        break;
    }
    double per_byte;
    n->key = phase_key(sc, p, ph, n, start_us, &per_byte);
    n->trace_key_bytes = per_byte * n->trace_file;
    n->rows = phase_rows(sc, p, ph, n, start_us, &n->runs);

    double burst = c->kind == PATTERN_TIMESERIES ? n->names : 1;
    n->window_ops = d > 0 ? min2(n->ops, n->ops * (double)scenario_window_us(sc) / d + burst) : n->ops;
    if (ph->clients) {
        n->in_flight = ph->clients;
    } else if (fixed) {
        /* The worst a queue gets: every write on one server (a hotspot),
         * which serves one per service time; plus what arrives while a
         * region is offline. */
        double write = max2(1, floor((double)sc->rpc_us +
                                     (n->key + (double)scenario_cell_overhead(sc)) *
                                         (double)sc->kib_us / 1024 + 0.5));
        double queued = max2(0, n->ops - d / write);
        double rate = d > 0 ? n->ops / d : n->ops;
        n->in_flight = min2(n->ops, queued + rate * longest_pause_us(sc) + 1);
    } else {
        n->in_flight = n->ops;
    }
    /* The weighted engine (scenario/weighting.h) simulates one operation in w:
     * rows stored, kept for reads, in flight and sampled a window are the
     * simulated ones (bytes and regions are not divided: a cell carries
     * its w cells' bytes). */
    weighting wt;
    char ignored[8];
    if (weighting_resolve(sc, 0, &wt, ignored, sizeof ignored) == 0 && wt.weight > 1) {
        double w = (double)wt.weight;
        n->rows = ceil(n->rows / w);
        n->in_flight = ceil(n->in_flight / w);
        n->window_ops = ceil(n->window_ops / w);
        n->simulated_puts = ceil(n->puts / w);
    } else {
        n->simulated_puts = n->puts;
    }
}

/* ---- one scheme ---- */

/* What one scheme's run needs while it runs (work) and keeps (kept). */
typedef struct scheme_need {
    double work[BUDGET_PARTS], kept[BUDGET_PARTS], report;
    double rows, row_bytes, in_flight, regions, names, tracked, entity_ids, series;
    double store_rows_max;       /* of one phase, for the advice */
    int store_kind, store_closed;
} scheme_need;

static double row_bytes_of(double key)
{
    return ROW_GROWTH * (key + ROW_FIXED);
}

/* A sampled store (core/store_sampled.c) when full: the struct and its two
 * end keys, (capacity + 1) entries of 12 bytes, and the sampled keys in an
 * arena that grows by x1.5. (A prune briefly adds two arrays of 8-byte
 * hashes: one store at a time, counted once a run: sampled_prune_bytes.) */
static double sampled_region_bytes(double capacity, double key)
{
    return SAMPLED_FIXED + 2 * alloc_bytes(1.5 * key) + (capacity + 1) * SAMPLED_ENTRY +
           1.5 * capacity * key;
}

/* The prune's two arrays of (capacity + 1) 8-byte hashes, in one store at
 * a time. */
static double sampled_prune_bytes(double capacity)
{
    return 2 * 8 * (capacity + 1);
}

/* Regions the table starts with. */
static double initial_regions(const scenario *sc, const keyscheme *ks)
{
    size_t width;
    switch (sc->presplit) {
    case PRESPLIT_NONE:
        return 1;
    case PRESPLIT_BUCKETS:
        return max2(1, keyscheme_buckets(ks, &width));
    case PRESPLIT_BY_HEX:
    case PRESPLIT_BY_DECIMAL:
    case PRESPLIT_BY_UNIFORM:
        return sc->presplit_regions;
    case PRESPLIT_BY_KEYS: {
        double n = 1;
        for (const char *s = sc->split_keys; s && *s; s++)
            n += *s == ',' || *s == ' ';
        struct stat stbuf;
        if (sc->split_keys_file && stat(sc->split_keys_file, &stbuf) == 0)
            n += (double)stbuf.st_size / 2 + 1;
        return n;
    }
    }
    return 1;
}

/* Names of a UID kind a scheme gives UIDs, over the phases. */
static double uid_names(const scenario *sc, const phase_need *need, const char *expr)
{
    int metric = strstr(expr, "uid(metric") != NULL, host = strstr(expr, "uid(host") != NULL;
    int entity = strstr(expr, "uid(entity") != NULL, tags = strstr(expr, "tags") != NULL;
    if (!metric && !host && !entity && !tags)
        return 0;
    double names = tags ? 2 : 0; /* the tag keys */
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const pattern_config *c = &scenario_phase(sc, i)->pattern;
        int ts = c->kind == PATTERN_TIMESERIES;
        double puts = need[i].puts;
        if (metric)
            names += min2(puts, ts ? c->metrics : 1);
        if (host || tags)
            names += min2(puts, ts ? c->hosts : 1);
        if (tags)
            names += min2(puts, ts ? c->tags : 1);
        if (entity)
            names += min2(puts, need[i].names);
    }
    return names;
}

/* Report windows and the capacity their arrays grow to (doubling from
 * 64, at most WINDOWS_MAX). */
static double window_count(const scenario *sc, double duration_us)
{
    double w = ceil(duration_us / (double)scenario_window_us(sc));
    return min2(WINDOWS_MAX, max2(1, w));
}

/* Key samples of nwindows windows for one kind: keyspace.c keeps up to
 * 1024 keys a window (64 from window 1024, 8 from window 16384), each
 * slot a pointer and a length, each key allocated. */
static double key_samples(double nwindows, double per_window, double key)
{
    double n1 = min2(nwindows, 1024), n2 = min2(nwindows, 16384) - n1, n3 = nwindows - n1 - n2;
    double k = alloc_bytes(max2(1, key));
    return n1 * (SAMPLE_FIRST * 12 + min2(SAMPLE_FIRST, per_window) * k) +
           n2 * (SAMPLE_NEXT * 12 + min2(SAMPLE_NEXT, per_window) * k) +
           n3 * (SAMPLE_LAST * 12 + min2(SAMPLE_LAST, per_window) * k);
}

static void scheme_estimate(const scenario *sc, const keyscheme *ks, uint8_t *buffers,
                            scheme_need *s)
{
    memset(s, 0, sizeof *s);
    s->store_kind = -1;
    size_t nphases = scenario_phase_count(sc);
    prober p = { ks, sc->seed, buffers, buffers + KEYSCHEME_MAX_KEY };
    phase_need need[SCENARIO_MAX_PHASES];
    double start = 0, bytes = 0, window_ops = 0, key = 1, runs = 0;
    double max_entity = 0, entities = 0, tracked = 0, metric_tracked = 0;
    double clients = 0;
    int reads = 0, tracking = 0, metrics = 0, trace = 0;
    for (size_t i = 0; i < nphases; i++) {
        const phase *ph = scenario_phase(sc, i);
        phase_need *n = &need[i];
        phase_estimate(sc, &p, ph, start, n);
        start += n->duration_us;
        runs += n->runs;
        clients = max2(clients, (double)ph->clients);
        double row = row_bytes_of(n->key);
        s->rows += n->rows;
        s->work[BUDGET_STORE] += n->rows * row + ROW_GROWTH * 1.1 * n->trace_key_bytes;
        if (n->rows * row >= s->store_rows_max) {
            s->store_rows_max = n->rows * row;
            s->store_kind = (int)ph->pattern.kind;
            s->store_closed = ph->clients > 0;
            s->row_bytes = row;
        }
        bytes += n->puts * (n->key + (double)scenario_cell_overhead(sc)) + n->trace_key_bytes;
        key = max2(key, n->key);
        window_ops = max2(window_ops, n->window_ops);
        s->in_flight = max2(s->in_flight, n->in_flight);
        s->series = max2(s->series, n->series);
        reads |= n->reads;
        trace |= ph->pattern.kind == PATTERN_TRACE;
        if (ph->reads.fraction > 0) {
            tracking = 1;
            max_entity = max2(max_entity, n->max_entity);
            entities += min2(n->names, n->simulated_puts);
            tracked += n->simulated_puts;
        }
        if (n->metric_reads)
            metrics = 1;
        if (metrics)
            metric_tracked += n->simulated_puts;
    }
    double servers = scenario_max_servers(sc);
    double windows = window_count(sc, start);
    double window_cap = min2(WINDOWS_MAX, doubled(windows + 1, 64));

    s->work[BUDGET_IN_FLIGHT] = doubled(s->in_flight, 64) * IN_FLIGHT_HEAP +
                                s->in_flight * IN_FLIGHT_RING;
    /* closed loop: a tick per client in the event queue (doubling, and the
     * old array while it grows) */
    if (clients > 0)
        s->work[BUDGET_IN_FLIGHT] += doubled(clients, 16) * sizeof(event) * 1.5;

    /* Regions: the first ones, then one more per split. A region splits
     * past its jittered maximum (or sooner, under the increasing and
     * stepping policies, while its server holds at most 3 of them), so it
     * holds at least half the smallest maximum; never more regions than
     * rows; a server at split_limit splits no more. */
    double first = initial_regions(sc, ks), regions = first;
    if (sc->split_policy != SPLIT_DISABLED) {
        double smallest = max2(1, (double)sc->region_max_bytes * (1 - sc->split_jitter / 2));
        regions += 2 * bytes / smallest;
        if (sc->split_policy != SPLIT_CONSTANT) /* small first thresholds */
            regions += 3 * servers;
        if (sc->split_policy == SPLIT_BUSY) /* busy regions split every 10 min at most */
            regions *= pow(2, min2(60, start / 600e6));
        regions = min2(regions, first + s->rows);
        if (sc->split_limit)
            regions = min2(regions, first + servers * (double)sc->split_limit);
    }
    s->regions = regions;
    /* Out-of-order puts wait in a region's pending buffer, which holds up
     * to max(4096, rows / 8) of them and keeps its room once grown: at most
     * 4096 per region (or an eighth of the rows), never more than the runs
     * of puts of one key (a put of the key the last one had adds to it). */
    double pending = max2(min2(regions * PENDING_MIN, runs), s->rows / 8);
    s->work[BUDGET_STORE] += pending * (PENDING_ENTRY + PENDING_GROWTH * key);
    /* The sampled store: a bounded sample a region instead of every row. */
    if (sc->store == STORE_MODE_SAMPLED)
        s->work[BUDGET_STORE] = regions * sampled_region_bytes(sc->sample_keys, key) +
                                sampled_prune_bytes(sc->sample_keys);
    /* the region array doubles; each region owns its start and end keys */
    double balancer = sc->balancer == BALANCER_STOCHASTIC ? REGION_STOCHASTIC
                      : sc->balancer == BALANCER_SIMPLE     ? REGION_SIMPLE
                                                            : 0;
    s->work[BUDGET_REGIONS] = regions * (REGION_BYTES + balancer + 2 * sizeof(region) +
                                         2 * alloc_bytes(key));
    /* the region log: every region that split and every live one; the
     * timeline: every split and about as many moves (the balancer spreads
     * the new regions), and every region reassigned when events change
     * the servers */
    double splits = regions - first, logged = regions + splits;
    double changes = 2 * splits + (sc->nevents ? regions : 0);
    s->kept[BUDGET_REGIONS] = logged * (2 * sizeof(region_result) + 2 * shell_bytes(key)) +
                              changes * (2 * sizeof(timeline_event) + shell_bytes(key));

    s->work[BUDGET_SERVERS] = servers * (2 * sizeof(server) + SERVER_HISTOGRAM + SERVER_EXTRA);
    s->kept[BUDGET_SERVERS] = servers * sizeof(server_result);
    /* writes per server and window; reads too when a phase may read: kept
     * for the report, or, when the run is reduced at its end
     * (engine/windows.h), held only while it runs and its digest kept */
    double matrix = window_cap * servers * (reads ? 2 : 1) * sizeof(uint64_t);
    s->kept[BUDGET_WINDOWS] = window_cap * sizeof(uint64_t); /* regions per window */
    if (sc->window_digest && window_digest_applies((uint32_t)min2(servers, UINT32_MAX))) {
        s->work[BUDGET_WINDOWS] = matrix;
        s->kept[BUDGET_WINDOWS] += window_digest_bytes(servers, windows, reads);
    } else {
        s->kept[BUDGET_WINDOWS] += matrix;
    }

    /* The key space: reservoirs (2 a window, 48 bytes each, doubling) and
     * their samples; the heatmap. */
    double kinds_samples = key_samples(windows, window_ops, key) * (reads ? 2 : 1);
    s->work[BUDGET_KEYSPACE] = doubled(windows, 64) * 2 * 48 + kinds_samples;
    double buckets = min2((double)sc->key_buckets, max2(1, s->rows));
    s->kept[BUDGET_KEYSPACE] = windows * buckets * 2 * sizeof(uint64_t) +
                               buckets * (sizeof(char *) + shell_bytes(key));

    if (tracking) {
        s->tracked = tracked;
        s->entity_ids = max_entity;
        s->work[BUDGET_TRUTH] = 16 * doubled(max_entity, 4) + TRUTH_ENTITY * entities +
                                TRUTH_WRITE * tracked + TRUTH_METRIC * metric_tracked;
    }
    s->names = uid_names(sc, need, keyscheme_expr(ks));
    if (s->names > 0)
        s->work[BUDGET_NAMES] = s->names * NAME_BYTES + 5 * 520.0;

    if (sc->balancer != BALANCER_NONE) {
        double runs = (double)hbase_inputs_balancer_runs(first_balancer_run(sc),
                                                         sc->balancer_period_us,
                                                         us_of(start));
        s->kept[BUDGET_BALANCER] = runs * 2 * (sizeof(balancer_report) + sizeof(timeline_event));
    }
    s->work[BUDGET_WORKLOAD] = 24 * s->series + (trace ? TRACE_BUFFERS : 0) + RUN_FIXED;

    s->report = REPORT_BINNED * windows * min2(servers, REPORT_ROWS) * 2 +
                REPORT_SORTED * servers + REPORT_REGION * logged +
                REPORT_BAND * (logged + changes) + REPORT_SPLIT * splits;
}

/* ---- the whole run ---- */

/* Adds the work parts of the `jobs` runs with the most work (those in
 * memory at once at worst) into sum, and their total into *total; ties
 * take the earlier scheme. Selection by repeated maximum: at most
 * SCENARIO_MAX_SCHEMES of each. */
static void add_largest_works(double works[][BUDGET_PARTS], const double *work_of, size_t n,
                              uint32_t jobs, double *sum, double *total)
{
    unsigned char taken[SCENARIO_MAX_SCHEMES] = { 0 };
    for (uint32_t j = 0; j < jobs && j < n; j++) {
        size_t best = n;
        for (size_t i = 0; i < n; i++)
            if (!taken[i] && (best == n || work_of[i] > work_of[best]))
                best = i;
        taken[best] = 1;
        *total += work_of[best];
        for (int p = 0; p < BUDGET_PARTS; p++)
            sum[p] += works[best][p];
    }
}

void budget_estimate_run(const scenario *sc, budget_estimate *out)
{
    memset(out, 0, sizeof *out);
    out->store_kind = -1;
    out->servers = scenario_max_servers(sc);
    out->key_buckets = sc->key_buckets;
    double total = 0;
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        double last_us = -1;
        if (ph->pattern.kind == PATTERN_TRACE && !ph->duration_given) {
            trace_size(ph->pattern.trace_path, &last_us);
            total += last_us >= 0 ? last_us + 1 : WINDOWS_MAX * (double)scenario_window_us(sc);
        } else {
            total += (double)ph->duration_us;
        }
    }
    out->windows = window_count(sc, total);
    if (sc->balancer != BALANCER_NONE)
        out->balancer_runs = (double)hbase_inputs_balancer_runs(
            first_balancer_run(sc), sc->balancer_period_us,
            us_of(total));

    uint8_t *buffers = malloc(2 * (size_t)KEYSCHEME_MAX_KEY);
    if (!buffers)
        return; /* nothing to probe with: the run will meet the same shortage */
    double kept[BUDGET_PARTS] = { 0 }, report = 0;
    scheme_need largest;
    memset(&largest, 0, sizeof largest);
    double largest_work = -1;
    /* Runs in memory at once (--jobs): the `jobs` largest runs' work. */
    double works[SCENARIO_MAX_SCHEMES][BUDGET_PARTS];
    double work_of[SCENARIO_MAX_SCHEMES];
    size_t nworks = 0;
    for (size_t i = 0; i < sc->nschemes; i++) {
        char preset[SCENARIO_PRESET_EXPR], why[256];
        const char *expr = scenario_scheme_text(sc, i, preset, sizeof preset, NULL);
        keyscheme *ks;
        if (keyscheme_parse(expr, &ks, why, sizeof why) < 0)
            continue;
        scheme_need s;
        scheme_estimate(sc, ks, buffers, &s);
        keyscheme_free(ks);
        double work = 0;
        for (int p = 0; p < BUDGET_PARTS; p++) {
            kept[p] += s.kept[p];
            work += s.work[p];
        }
        report = max2(report, s.report); /* the writers take one run at a time */
        memcpy(works[nworks], s.work, sizeof works[nworks]);
        work_of[nworks++] = work;
        if (work > largest_work) {
            largest_work = work;
            largest = s;
        }
    }
    free(buffers);
    if (largest_work < 0)
        return;
    double concurrent[BUDGET_PARTS] = { 0 }, concurrent_work = 0;
    add_largest_works(works, work_of, nworks, scenario_jobs(sc), concurrent, &concurrent_work);
    out->jobs = scenario_jobs(sc);
    for (int p = 0; p < BUDGET_PARTS; p++)
        out->part[p] = kept[p];
    if (report > concurrent_work)
        out->part[BUDGET_REPORT] = report;
    else
        for (int p = 0; p < BUDGET_PARTS; p++)
            out->part[p] += concurrent[p];
    for (int p = 0; p < BUDGET_PARTS; p++)
        out->bytes += out->part[p];
    out->rows = largest.rows;
    out->row_bytes = largest.row_bytes;
    out->in_flight = largest.in_flight;
    out->regions = largest.regions;
    out->names = largest.names;
    out->tracked = largest.tracked;
    out->entity_ids = largest.entity_ids;
    out->series = largest.series;
    out->store_kind = largest.store_kind;
    out->sample_keys = sc->store == STORE_MODE_SAMPLED ? sc->sample_keys : 0;
    out->store_closed = largest.store_closed;
}
