/* history.c -- the region log and the timeline. See history.h. */
#include "engine/history.h"

#include <stdlib.h>
#include <string.h>

void history_init(history *h, const cluster *c)
{
    memset(h, 0, sizeof *h);
    h->table = c;
}

/* Room for one more element in a growing array of `size`-byte elements. */
static int reserve(void **array, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return 0;
    size_t want = *cap ? 2 * *cap : 64;
    if (want > SIZE_MAX / size)
        return -1;
    void *p = realloc(*array, want * size);
    if (!p)
        return -1;
    *array = p;
    *cap = want;
    return 0;
}

static timeline_event *new_event(history *h, uint64_t t_us, timeline_kind kind)
{
    if (h->failed || reserve((void **)&h->events, h->nevents, &h->events_cap,
                             sizeof *h->events) < 0) {
        h->failed = 1;
        return NULL;
    }
    timeline_event *e = &h->events[h->nevents++];
    memset(e, 0, sizeof *e);
    e->t_us = t_us;
    e->kind = kind;
    return e;
}

/* A region's figures now, into the log. */
static int log_region(history *h, const region *r, uint32_t server_id, uint64_t closed_us,
                      int split)
{
    if (reserve((void **)&h->regions, h->nregions, &h->regions_cap, sizeof *h->regions) < 0)
        return -1;
    region_result *out = &h->regions[h->nregions];
    memset(out, 0, sizeof *out);
    out->start = key_format_alloc(region_start(r));
    out->end = key_format_alloc(region_end(r));
    if (!out->start || !out->end) {
        free(out->start);
        free(out->end);
        return -1;
    }
    out->id = r->id;
    out->server = server_id;
    out->split = split;
    out->opened_us = r->opened_us;
    out->closed_us = closed_us;
    out->writes = r->writes;
    out->reads = r->reads;
    out->rows = store_rows(r->rows); /* weighted: a kept row stands for more */
    if (h->table->weight > 1)
        out->rows = (uint64_t)((double)out->rows * cluster_row_weight(h->table, r->rows) + 0.5);
    out->bytes = store_bytes(r->rows);
    h->nregions++;
    return 0;
}

void history_journal(void *ctx, cluster_change what, const region *r, keyref at,
                     uint32_t from, uint32_t to, const split_why *why)
{
    history *h = ctx;
    if (h->failed)
        return;
    uint64_t now = h->table->now_us;
    if (what == CLUSTER_SPLIT && log_region(h, r, from, now, 1) < 0) {
        h->failed = 1;
        return;
    }
    static const timeline_kind kinds[] = { [CLUSTER_SPLIT] = TIMELINE_SPLIT,
                                           [CLUSTER_MOVE] = TIMELINE_MOVE,
                                           [CLUSTER_REASSIGN] = TIMELINE_REASSIGN };
    timeline_event *e = new_event(h, now, kinds[what]);
    if (!e)
        return;
    e->from = from;
    e->to = to;
    e->meta = what != CLUSTER_SPLIT && r == NULL; /* cluster_move_meta, cluster_retire_server */
    if (why)
        e->split = *why;
    e->key = key_format_alloc(at);
    if (!e->key)
        h->failed = 1;
}

void history_balancer_event(history *h, uint64_t t_us, size_t index)
{
    timeline_event *e = new_event(h, t_us, TIMELINE_BALANCER);
    if (e)
        e->balancer = index;
}

void history_server_event(history *h, uint64_t t_us, timeline_kind kind, uint32_t from,
                          uint32_t to)
{
    timeline_event *e = new_event(h, t_us, kind);
    if (e) {
        e->from = from;
        e->to = to;
    }
}

int history_finish(history *h, cluster *c, uint64_t end_us, run_result *out)
{
    for (size_t i = 0; i < regionmap_count(c->map) && !h->failed; i++) {
        const region *r = regionmap_get(c->map, i);
        if (log_region(h, r, c->servers[r->server].id, end_us, 0) < 0)
            h->failed = 1;
    }
    if (h->failed)
        return -1;
    out->history = h->regions;
    out->nhistory = h->nregions;
    out->events = h->events;
    out->nevents = h->nevents;
    memset(h, 0, sizeof *h);
    return 0;
}

void history_release(history *h)
{
    run_result owner = { .history = h->regions, .nhistory = h->nregions,
                         .events = h->events, .nevents = h->nevents };
    history_free_results(&owner);
    memset(h, 0, sizeof *h);
}

void history_free_results(run_result *out)
{
    for (size_t i = 0; i < out->nhistory; i++) {
        free(out->history[i].start);
        free(out->history[i].end);
    }
    free(out->history);
    for (size_t i = 0; i < out->nevents; i++)
        free(out->events[i].key);
    free(out->events);
    out->history = NULL;
    out->events = NULL;
    out->nhistory = out->nevents = 0;
}
