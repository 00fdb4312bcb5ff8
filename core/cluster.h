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

typedef struct cluster {
    regionmap *map;
    server *servers;
    uint32_t nservers;
    split_policy policy;
    uint64_t splits, moves;
    uint64_t now_us;            /* the time of the operation under way */
    uint64_t split_offline_us;  /* a split takes both daughters offline this long */
    uint64_t move_offline_us;   /* a move takes the region offline this long */
} cluster;

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
 * service_us of the server, and splits the region if the policy says so
 * (daughters stay on the parent's server, offline for split_offline_us).
 * Sets *server_index and *reply_us (when the client has its reply).
 * Returns 0, or -1 if out of memory. */
int cluster_write(cluster *c, keyref k, uint32_t cell_bytes, uint64_t service_us,
                  uint32_t *server_index, uint64_t *reply_us);

/* Reads row k at now_us: one RPC to the region holding it, needing
 * rpc_us + row_us per row read (1 if the row exists, else 0). Sets
 * *server_index and *reply_us. Returns 0, or -1 if out of memory. */
int cluster_read(cluster *c, keyref k, uint64_t rpc_us, uint64_t row_us,
                 uint32_t *server_index, uint64_t *reply_us);

/* Moves region i to server s (a no-op when already there); the region is
 * offline for move_offline_us from now_us. */
void cluster_move(cluster *c, size_t i, uint32_t s);

/* Distinct rows and bytes stored over all regions. */
uint64_t cluster_rows(cluster *c);
uint64_t cluster_bytes(const cluster *c);

#endif
