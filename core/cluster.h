/* cluster.h -- region servers + the region map + assignment.
 *
 * The cluster is the whole data model of one simulated table: where every
 * region is, what every server hosts, and the paths of an operation: route
 * the key, store the cell or count the rows read, serve the RPC on the
 * hosting server's queue, and split the region when the policy says so.
 * Time enters only as data: the engine sets `now_us` before each operation,
 * and splits and moves take their region offline until now + their pause.
 * The cluster knows nothing of workloads, randomness or reports.
 */
#ifndef REGIONSIM_CLUSTER_H
#define REGIONSIM_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "core/key.h"
#include "core/regionmap.h"
#include "core/server.h"
#include "core/split.h"

/* What the cluster reports to its journal, when one is set: a region is
 * about to split at `at` (r is the parent, still whole; `why` says what
 * the split policy saw), or region r has moved (the balancer) or been
 * reassigned (its server left) from server id `from` to `to` (`why` is
 * NULL). The journal only watches: it must not change the cluster. */
typedef enum cluster_change { CLUSTER_SPLIT, CLUSTER_MOVE, CLUSTER_REASSIGN } cluster_change;

/* Why a region split: the policy's figures at that moment. */
typedef struct split_why {
    uint64_t size_bytes;        /* the region's stored bytes */
    uint64_t threshold_bytes;   /* the size rule's threshold (split_size_to_check) */
    uint64_t regions_on_server; /* regions of the table on its server (the n of n^3) */
    int busy;                   /* 1: BusyRegionSplitPolicy's blocked-request rule */
    double blocked_ratio;       /* busy: the ratio it saw ... */
    double busy_threshold;      /* ... and the ratio it needed */
} split_why;

typedef void (*cluster_journal_fn)(void *ctx, cluster_change what, const region *r, keyref at,
                                   uint32_t from, uint32_t to, const split_why *why);

/* The weighted engine's server (scenario/weighting.h): serves an operation
 * standing for `weight` at now_us on live server s, instead of its FIFO
 * queue (server_serve's contract, its counters and latency weighted).
 * Returns the reply time, or UINT64_MAX if out of memory. */
typedef uint64_t (*cluster_serve_fn)(void *ctx, server *s, uint64_t t_us, uint64_t ready_us,
                                     uint64_t service_us, uint64_t weight);

typedef struct cluster {
    regionmap *map;
    server *servers;            /* the live servers; region.server indexes this */
    uint32_t nservers;
    server *retired;            /* servers that left (failed, decommissioned), for reports */
    uint32_t nretired;
    uint32_t next_id;           /* the id the next added server gets */
    uint64_t failures, decommissions, reassigned;
    split_policy policy;
    uint64_t splits, moves;
    uint64_t now_us;            /* the time of the operation under way */
    uint64_t split_offline_us;  /* a split takes both daughters offline this long */
    uint64_t move_offline_us;   /* a move takes the region offline this long */
    uint32_t meta_server;       /* live index of the server hosting hbase:meta's one region,
                                 * or CLUSTER_NO_META (not modelled: the default of
                                 * cluster_new); see cluster_move_meta */
    uint64_t meta_offline_until_us; /* a move takes it offline as any region's */
    uint64_t epoch_ms;          /* epoch ms of now_us 0: a server added at now_us gets start
                                 * code epoch_ms + now_us / 1000 (0 until set) */
    uint64_t split_limit;       /* hbase.regionserver.regionSplitLimit: a server with this
                                 * many regions splits no more (0: no limit) */
    uint64_t discharge_us;      /* hbase.hfile.compaction.discharger.interval: a daughter
                                 * splits again only after its server's next discharger
                                 * run (0: as soon as its size says so) */
    cluster_journal_fn journal; /* NULL: nobody watches */
    void *journal_ctx;
    /* Weighted engine (scenario/weighting.h): each operation stands for `weight`
     * (1 unless set): a write's cell_bytes are already its w cells' (the
     * caller multiplies), and the cluster counts w writes, reads, RPCs and
     * rows per stored row (a stored key stands for w rows in a scan);
     * `serve` (NULL: the servers' FIFO queues) serves each RPC. */
    uint64_t weight;
    cluster_serve_fn serve;
    void *serve_ctx;
} cluster;

#define CLUSTER_NO_META UINT32_MAX
#define CLUSTER_META_NAME "hbase:meta,,1" /* its region name (RegionInfoBuilder.FIRST_META_REGIONINFO) */

/* A cluster of nservers (>= 1) servers and a table cut at the given split
 * keys (none: one region), regions assigned round-robin from server 0 (as
 * HBase's round-robin bulk assignment of a new pre-split table does).
 * Offline pauses start at 0 (set the fields). Returns NULL on bad split keys
 * (*bad = index of the first bad one) or out of memory (*bad = nsplits). */
cluster *cluster_new(uint32_t nservers, const keyref *splits, size_t nsplits,
                     split_policy policy, size_t *bad);

void cluster_free(cluster *c);

/* Writes one cell of cell_bytes to row k at now_us: routes it, stores it,
 * counts it on the region and its server, serves it as an RPC needing
 * service_us of the server, and, when the write fills the region's
 * memstore past the flush size (the memstore flushes), splits the region
 * if the policy says so (daughters stay on the parent's server, offline
 * for split_offline_us). HBase looks at a region's split policy after each
 * flush (MemStoreFlusher.flushRegion: HRegion.checkSplit), not after every
 * write; a daughter cannot split while its reference files count
 * (HStore.canSplit: hasReferences, which counts compacted files until the
 * server's CompactedHFilesDischarger archives them, HBASE-20940): here
 * until its server's next discharger run after it opened (discharge_us),
 * or until it is moved (a reopened region has none).
 * Sets *server_index and *reply_us (when the client has its reply).
 * Returns 0, or -1 if out of memory. */
int cluster_write(cluster *c, keyref k, uint32_t cell_bytes, uint64_t service_us,
                  uint32_t *server_index, uint64_t *reply_us);

/* The write path ahead of time, in steps, so that the cache misses of
 * several writes overlap (the engine fetches its next writes ahead and
 * steps each once per write it does): the steps of a regionmap_ahead
 * cursor down the route of k, then a prefetch of the region's store's
 * struct, then store_prefetch_put (the index and records a put reads).
 * Start a cursor with cluster_ahead_start. Prefetches only: nothing
 * changes, cluster_write routes in full whatever the cursor holds, and a
 * split since the last step makes the next start over. */
typedef struct cluster_ahead {
    regionmap_ahead route;
    unsigned store_steps;     /* once the route has the region: 0, 1 struct, 2 put's lines */
} cluster_ahead;

void cluster_ahead_start(cluster_ahead *a, keyref k);
void cluster_prefetch_write(cluster *c, keyref k, cluster_ahead *a);

/* cluster_write of k with the route a cursor for k has found, if it has
 * (regionmap_find_ahead): the same write, without searching again. */
int cluster_write_ahead(cluster *c, keyref k, const cluster_ahead *a, uint32_t cell_bytes,
                        uint64_t service_us, uint32_t *server_index, uint64_t *reply_us);

/* The service time of one read RPC that reads `rows` rows (the engine's:
 * fixed or drawn at random; the cluster has no randomness of its own). */
typedef uint64_t (*read_service_fn)(void *ctx, uint64_t rows);

/* Told of each RPC a scan sends: the id of the server that serves it and
 * where the RPC's range starts within its region (the scan's lo in the
 * first region it reads, the region's start in the others). Returns 0, or
 * -1 to stop the scan (out of memory). */
typedef int (*scan_rpc_fn)(void *ctx, uint32_t server_id, keyref start);

/* What a scan cost. */
typedef struct scan_cost {
    uint64_t rpcs;         /* one per region touched */
    uint64_t rows;         /* rows read (at most `limit` when one is set) */
    uint64_t reply_us;     /* when the last RPC's reply arrived */
} scan_cost;

/* Scans [lo, hi) at now_us (an empty hi: to the end of the table): one RPC
 * to each region the range touches, in key order (from the top when
 * `reverse`), each reading the range's rows in that region from its exact
 * row store, until `limit` rows have been read (0: no limit). The client
 * sends the RPCs together; each is served by its region's server, and
 * on_rpc (may be NULL) is told of it; both callbacks get ctx. *last_server
 * is the server of the last RPC. Returns 0 and adds to *cost, or -1 if out
 * of memory or on_rpc failed. */
int cluster_scan(cluster *c, keyref lo, keyref hi, uint64_t limit, int reverse,
                 read_service_fn service, scan_rpc_fn on_rpc, void *ctx, scan_cost *cost,
                 uint32_t *last_server);

/* Moves region i to server s (a no-op when already there); the region is
 * offline for move_offline_us from now_us. */
void cluster_move(cluster *c, size_t i, uint32_t s);

/* hbase:meta, a region of its own table that takes no user writes or
 * reads here. The balancer counts it with the table's regions on its
 * server (hbase.master.loadbalance.bytable = false merges every table's
 * regions into one ensemble) and may move it. cluster_place_meta puts it
 * on live server s (no journal: the master assigned it before the run);
 * cluster_move_meta moves it to s (a no-op when there), offline for
 * move_offline_us, counted in `moves` and told to the journal as a move
 * of a NULL region whose key is CLUSTER_META_NAME. */
void cluster_place_meta(cluster *c, uint32_t s);
void cluster_move_meta(cluster *c, uint32_t s);

/* Weighted (c->weight = w > 1): the rows a stored row of `rows` stands
 * for. A row written once (a new row each write) was kept with
 * probability 1/w and stands for w; a row written k >> w times is kept
 * whatever the sampling and stands for itself. With every row of the
 * store written k times, its rows are kept with probability
 * 1 - exp(-l) (l = k / w) and a kept row holds l / (1 - exp(-l)) cells on
 * average: the store's cells per row give l, and the weight is
 * 1 / (1 - exp(-l)), at most w (k >= 1). 1 when c->weight is 1. */
double cluster_row_weight(const cluster *c, store *rows);

/* The regions on live server s the balancer counts: the table's, and
 * hbase:meta when it is there. */
static inline uint64_t cluster_server_load(const cluster *c, uint32_t s)
{
    return c->servers[s].regions + (c->meta_server == s);
}

/* The regions the balancer counts: the table's and hbase:meta's. */
uint64_t cluster_balanced_regions(const cluster *c);

/* Adds n empty servers with the next ids. Returns 0, or -1 if out of
 * memory (c unchanged). */
int cluster_add_servers(cluster *c, uint32_t n);

/* Takes live server i out of the cluster (it failed or is decommissioned):
 * each of its regions goes to the live server then hosting the fewest
 * (lowest index on ties) and is offline until back_us, hbase:meta first
 * when it is there (ServerCrashProcedure assigns meta before the rest); the server's
 * counters move to `retired`. The last live server takes index i. Requires
 * at least two live servers. Returns 0, or -1 if out of memory. */
int cluster_retire_server(cluster *c, uint32_t i, uint64_t back_us);

/* The live index of the server with this id, or UINT32_MAX if it left. */
uint32_t cluster_server_index(const cluster *c, uint32_t id);

/* Distinct rows and bytes stored over all regions. */
uint64_t cluster_rows(cluster *c);
uint64_t cluster_bytes(const cluster *c);

#endif
