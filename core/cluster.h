/* cluster.h -- region servers + the region map + assignment.
 *
 * The cluster is the whole data model of one simulated table: where every
 * region is, what every server hosts, and the write path (route the key,
 * store the cell, count it, split the region when the policy says so).
 * It knows nothing of time, workloads or reports: the engine drives it.
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
} cluster;

/* A cluster of nservers (>= 1) servers and a table cut at the given split
 * keys (none: one region), regions assigned round-robin from server 0 (as
 * HBase's round-robin bulk assignment of a new pre-split table does).
 * Returns NULL on bad split keys (*bad = index of the first bad one) or out
 * of memory (*bad = nsplits). */
cluster *cluster_new(uint32_t nservers, const keyref *splits, size_t nsplits,
                     split_policy policy, size_t *bad);

void cluster_free(cluster *c);

/* Writes one cell of cell_bytes to row k: routes it, stores it, counts it on
 * the region and its server, and splits the region if the policy says so
 * (daughters stay on the parent's server). Sets *region_index (before any
 * split) and *server_index. Returns 0, or -1 if out of memory. */
int cluster_write(cluster *c, keyref k, uint32_t cell_bytes,
                  size_t *region_index, uint32_t *server_index);

/* Reads row k: routes it and counts the read on its region's server.
 * Returns the server index. */
uint32_t cluster_read(cluster *c, keyref k);

/* Moves region i to server s (a no-op when already there). */
void cluster_move(cluster *c, size_t i, uint32_t s);

/* Distinct rows and bytes stored over all regions. */
uint64_t cluster_rows(cluster *c);
uint64_t cluster_bytes(const cluster *c);

#endif
