/* eventq.c -- binary heap on (t_us, seq). */
#include "engine/eventq.h"

#include <stdlib.h>

void eventq_init(eventq *q)
{
    q->heap = NULL;
    q->count = q->cap = 0;
    q->next_seq = 0;
}

void eventq_release(eventq *q)
{
    free(q->heap);
    eventq_init(q);
}

static int event_before(const event *a, const event *b)
{
    return a->t_us < b->t_us || (a->t_us == b->t_us && a->seq < b->seq);
}

int eventq_push(eventq *q, uint64_t t_us, uint32_t kind, uint32_t arg)
{
    if (q->count == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 16;
        if (cap > SIZE_MAX / sizeof(event))
            return -1;
        event *h = realloc(q->heap, cap * sizeof *h);
        if (!h)
            return -1;
        q->heap = h;
        q->cap = cap;
    }
    event e = { t_us, q->next_seq++, kind, arg };
    size_t i = q->count++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!event_before(&e, &q->heap[parent]))
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = e;
    return 0;
}

int eventq_pop(eventq *q, event *out)
{
    if (q->count == 0)
        return 0;
    *out = q->heap[0];
    event last = q->heap[--q->count];
    size_t i = 0, n = q->count;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && event_before(&q->heap[child + 1], &q->heap[child]))
            child++;
        if (!event_before(&q->heap[child], &last))
            break;
        q->heap[i] = q->heap[child];
        i = child;
    }
    if (n > 0)
        q->heap[i] = last;
    return 1;
}

size_t eventq_count(const eventq *q) { return q->count; }
