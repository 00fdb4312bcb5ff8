/* server.h -- a simulated region server: its counters, capacity and queue.
 *
 * Which regions a server hosts is recorded on the regions themselves
 * (region.server), so a move is one assignment and the region map stays
 * the single source of truth; the per-server region count is kept here
 * incrementally because the balancer and the reports need it often.
 *
 * Capacity: a server serves RPCs one at a time, first come first served.
 * Because service is FIFO and work-conserving, an RPC's start is
 * max(arrival, the end of the work accepted before it) (Lindley's
 * recursion): the completion time is known the moment the RPC arrives, so
 * the engine needs no completion events. The server remembers the
 * completion times of the RPCs still in it (ascending, by FIFO) only to
 * report its queue length, as gaps: 4 bytes an RPC in the common case.
 *
 * A region that is offline (splitting, moving) delays the RPCs sent to it
 * until it is back: the client waits (HBase clients retry with backoff),
 * the server does not. The model charges that wait to the RPC's latency
 * without holding the server: its work is done in its FIFO turn and the
 * reply leaves no sooner than the region's return plus the service time.
 */
#ifndef REGIONSIM_SERVER_H
#define REGIONSIM_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "core/histogram.h"

typedef struct server {
    uint32_t id;             /* its name in reports (rs<id>); kept when others leave */
    uint64_t start_ms;       /* its ServerName's start code: epoch ms it started (the owner
                              * sets the first servers'; an added one: when it joined) */
    uint64_t regions;        /* regions hosted now */
    uint64_t writes;         /* cells written to regions while hosted here */
    uint64_t reads;          /* read RPCs served */
    uint64_t bytes;          /* cell bytes written while hosted here */
    uint64_t rows_scanned;   /* rows read for read RPCs */
    /* the queue */
    uint64_t busy_until_us;  /* when the work accepted so far is done */
    uint64_t busy_us;        /* service time given, for utilisation */
    uint64_t rpcs;           /* RPCs served */
    uint64_t longest_queue;  /* most RPCs in the server at once (incl. the one in service) */
    /* The RPCs not done yet, as the gaps between their completion times
     * (server.c has the design): the first one's completion, then a ring
     * of each later one's after the one before (UINT32_MAX: the gap is in
     * `wide`, a FIFO of the gaps that do not fit 32 bits). */
    uint64_t head_done;      /* completion of the ring's first RPC (ring_count > 0) */
    uint32_t *in_server;     /* ring of gaps (the first RPC's unused) */
    size_t ring_head, ring_count, ring_cap;
    int ring_mapped;         /* in_server is a mapping (core/bigarray.h) */
    uint64_t *wide;          /* FIFO of gaps of UINT32_MAX us or more */
    size_t wide_head, wide_count, wide_cap;
    histogram latency;       /* latency of the RPCs it served (init by the owner) */
} server;

/* Serves an RPC arriving at t_us that needs service_us of the server and
 * cannot complete before ready_us + service_us (its region's return from
 * offline; 0 if online). Returns its completion time, or UINT64_MAX if out
 * of memory (the server is then unchanged). Records the latency. */
uint64_t server_serve(server *s, uint64_t t_us, uint64_t ready_us, uint64_t service_us);

/* RPCs still in the server at time t_us (those completing after it). */
uint64_t server_queue_at(server *s, uint64_t t_us);

/* Frees the queue and the latency histogram. */
void server_release(server *s);

#endif
