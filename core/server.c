/* server.c -- FIFO service by Lindley's recursion, and the queue length.
 *
 * Time is in whole microseconds, the simulated clock's resolution: a
 * service time may round to 0 (the work fits in the tick), but the reply
 * to an RPC never comes in the tick it arrived in; it comes at least 1 us
 * later (docs/model.md, Time and determinism). */
#include "core/server.h"

#include <assert.h>
#include <stdlib.h>

/* The ring's capacity is a power of two: positions wrap with a mask. */
static size_t ring_at(const server *s, size_t i)
{
    return (s->ring_head + i) & (s->ring_cap - 1);
}

/* Drops completions at or before t from the front of the ring. */
static void drop_done(server *s, uint64_t t)
{
    while (s->ring_count && s->in_server[s->ring_head] <= t) {
        s->ring_head = ring_at(s, 1);
        s->ring_count--;
    }
}

static int ring_grow(server *s)
{
    size_t cap = s->ring_cap ? s->ring_cap * 2 : 16;
    if (cap > SIZE_MAX / sizeof(uint64_t))
        return -1;
    uint64_t *r = malloc(cap * sizeof *r);
    if (!r)
        return -1;
    for (size_t i = 0; i < s->ring_count; i++)
        r[i] = s->in_server[ring_at(s, i)];
    free(s->in_server);
    s->in_server = r;
    s->ring_head = 0;
    s->ring_cap = cap;
    return 0;
}

uint64_t server_serve(server *s, uint64_t t_us, uint64_t ready_us, uint64_t service_us)
{
    drop_done(s, t_us);
    if (s->ring_count == s->ring_cap && ring_grow(s) < 0)
        return UINT64_MAX;
    uint64_t start = t_us > s->busy_until_us ? t_us : s->busy_until_us;
    uint64_t done = start + service_us;
    assert(s->ring_count == 0 || s->in_server[ring_at(s, s->ring_count - 1)] <= done);
    s->in_server[ring_at(s, s->ring_count)] = done;
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
    free(s->in_server);
    s->in_server = NULL;
    s->ring_count = s->ring_cap = 0;
    histogram_release(&s->latency);
}
