/* server.h -- a simulated region server.
 *
 * For now a server is its counters: which regions it hosts is recorded on
 * the regions themselves (region.server), so a move is one assignment and
 * the region map stays the single source of truth; the per-server region
 * count is kept here incrementally because the balancer and the reports
 * need it often. Capacity and queues arrive with the read/latency model.
 */
#ifndef REGIONSIM_SERVER_H
#define REGIONSIM_SERVER_H

#include <stdint.h>

typedef struct server {
    uint64_t regions;   /* regions hosted now */
    uint64_t writes;    /* cells written to regions while hosted here */
    uint64_t reads;     /* point reads served */
    uint64_t bytes;     /* cell bytes written while hosted here */
} server;

#endif
