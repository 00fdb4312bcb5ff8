/* eventq.h -- the simulation's priority queue of timed events.
 *
 * A binary min-heap ordered by (time, sequence number): events at the same
 * microsecond come out in the order they were pushed, which makes a run
 * deterministic without any tie-breaking randomness. The queue holds only
 * the next event of each stream (the next write arrival, the next balancer
 * tick, ...), so it stays tiny and push/pop cost O(log streams).
 */
#ifndef REGIONSIM_EVENTQ_H
#define REGIONSIM_EVENTQ_H

#include <stddef.h>
#include <stdint.h>

typedef struct event {
    uint64_t t_us;   /* simulated time, microseconds */
    uint64_t seq;    /* push order, assigned by eventq_push */
    uint32_t kind;   /* the engine's event kinds */
    uint32_t arg;
} event;

typedef struct eventq {
    event *heap;
    size_t count, cap;
    uint64_t next_seq;
} eventq;

/* An empty queue (no allocation until the first push). */
void eventq_init(eventq *q);
void eventq_release(eventq *q);

/* Adds an event. Returns 0, or -1 if out of memory. */
int eventq_push(eventq *q, uint64_t t_us, uint32_t kind, uint32_t arg);

/* Removes the earliest event into *out. Returns 1, or 0 if empty. */
int eventq_pop(eventq *q, event *out);

size_t eventq_count(const eventq *q);

#endif
