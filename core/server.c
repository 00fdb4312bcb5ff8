/* server.c -- FIFO service by Lindley's recursion, and the queue length.
 *
 * Time is in whole microseconds, the simulated clock's resolution: a
 * service time may round to 0 (the work fits in the tick), but the reply
 * to an RPC never comes in the tick it arrived in; it comes at least 1 us
 * later (docs/model.md, Time and determinism).
 *
 * The queue length needs the completion times of the RPCs still in the
 * server, ascending (FIFO). An overloaded server holds millions of them
 * (a read fans out to every region of its range), so they are kept as
 * gaps: the first one's completion (head_done), then each later one's
 * after the one before, in a ring of 32-bit gaps. An RPC that finds the
 * server busy starts when the work before it ends, so its gap is its own
 * service time, which fits 32 bits unless a service takes over 71
 * minutes; such a gap is stored as UINT32_MAX and its value goes to a
 * FIFO of wide gaps, taken in the same order. Half the memory of 64-bit
 * times (the pages an overloaded run faults in and copies as the ring
 * grows were a fifth of a read-heavy run), at one add per RPC done.
 */
#include "core/server.h"

#include "core/bigarray.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define GAP_WIDE UINT32_MAX /* the gap is the next one in s->wide */

/* The ring's capacity is a power of two: positions wrap with a mask. */
static size_t ring_at(const server *s, size_t i)
{
    return (s->ring_head + i) & (s->ring_cap - 1);
}

/* The next wide gap, taken from the front of its FIFO. */
static uint64_t take_wide(server *s)
{
    assert(s->wide_count > 0);
    uint64_t g = s->wide[s->wide_head++];
    if (--s->wide_count == 0)
        s->wide_head = 0;
    return g;
}

/* Drops completions at or before t from the front of the ring. */
static void drop_done(server *s, uint64_t t)
{
    while (s->ring_count && s->head_done <= t) {
        s->ring_head = ring_at(s, 1);
        if (--s->ring_count) {
            uint32_t g = s->in_server[s->ring_head];
            s->head_done += g == GAP_WIDE ? take_wide(s) : g;
        }
    }
}

/* Doubles the ring (past 1 MiB a mapping grown by mremap: no copy); the
 * part that had wrapped round to the front moves past the old end. 0 or
 * -1. */
static int ring_grow(server *s)
{
    size_t old = s->ring_cap, cap = old ? old * 2 : 16;
    if (cap > SIZE_MAX / 2 / sizeof(uint32_t))
        return -1;
    void *p = s->in_server;
    if (bigarray_grow(&p, old * sizeof(uint32_t), cap * sizeof(uint32_t), &s->ring_mapped) < 0)
        return -1;
    uint32_t *r = p;
    if (s->ring_head + s->ring_count > old) /* wrapped: [0, wrapped) follows old */
        memcpy(r + old, r, (s->ring_head + s->ring_count - old) * sizeof *r);
    s->in_server = r;
    s->ring_cap = cap;
    return 0;
}

/* Appends a wide gap to its FIFO (compacted when its front is past half,
 * else grown). 0 or -1. */
static int add_wide(server *s, uint64_t g)
{
    if (s->wide_head + s->wide_count == s->wide_cap) {
        if (s->wide_head >= s->wide_cap / 2 && s->wide_head > 0) {
            memmove(s->wide, s->wide + s->wide_head, s->wide_count * sizeof *s->wide);
            s->wide_head = 0;
        } else {
            size_t cap = s->wide_cap ? 2 * s->wide_cap : 4;
            if (cap > SIZE_MAX / sizeof(uint64_t))
                return -1;
            uint64_t *w = realloc(s->wide, cap * sizeof *w);
            if (!w)
                return -1;
            s->wide = w;
            s->wide_cap = cap;
        }
    }
    s->wide[s->wide_head + s->wide_count++] = g;
    return 0;
}

uint64_t server_serve(server *s, uint64_t t_us, uint64_t ready_us, uint64_t service_us)
{
    drop_done(s, t_us);
    if (s->ring_count == s->ring_cap && ring_grow(s) < 0)
        return UINT64_MAX;
    uint64_t start = t_us > s->busy_until_us ? t_us : s->busy_until_us;
    uint64_t done = start + service_us;
    /* FIFO: after the RPCs still in it, which end at busy_until */
    assert(s->ring_count == 0 || s->busy_until_us <= done);
    uint32_t gap = 0; /* the first RPC's is not read: head_done is its time */
    if (s->ring_count == 0) {
        s->head_done = done;
    } else if (done - s->busy_until_us < GAP_WIDE) {
        gap = (uint32_t)(done - s->busy_until_us);
    } else {
        if (add_wide(s, done - s->busy_until_us) < 0)
            return UINT64_MAX;
        gap = GAP_WIDE;
    }
    s->in_server[ring_at(s, s->ring_count)] = gap;
    s->ring_count++;
    if (s->ring_count > s->longest_queue)
        s->longest_queue = s->ring_count;
    s->busy_until_us = done;
    s->busy_us += service_us;
    s->rpcs++;
    uint64_t reply = done > ready_us + service_us ? done : ready_us + service_us;
    /* The clock ticks in microseconds, so a reply comes at least one tick
     * after its request, even when the service time rounds to 0: a client
     * waiting for it (closed loop) then always moves time on. */
    if (reply <= t_us)
        reply = t_us + 1;
    if (s->latency.counts)
        histogram_record(&s->latency, reply - t_us);
    return reply;
}

uint64_t server_queue_at(server *s, uint64_t t_us)
{
    drop_done(s, t_us);
    return s->ring_count;
}

void server_release(server *s)
{
    bigarray_free(s->in_server, s->ring_cap * sizeof *s->in_server, s->ring_mapped);
    s->in_server = NULL;
    s->ring_head = s->ring_count = s->ring_cap = 0;
    s->ring_mapped = 0;
    free(s->wide);
    s->wide = NULL;
    s->wide_head = s->wide_count = s->wide_cap = 0;
    histogram_release(&s->latency);
}
