/* balancer.c -- the region-count balancer.
 *
 * One pass, O(R log R): collect each server's regions, take the surplus of
 * every server above ceil(avg) into a pool (oldest first), then hand the
 * pool out to servers below floor(avg), then to servers below ceil(avg);
 * if a server is still below floor, take one region from a server at ceil.
 */
#include "core/balancer.h"

#include <stdlib.h>

typedef struct candidate {
    uint64_t id;    /* region id: lower = older */
    size_t index;   /* position in the region map */
} candidate;

static int candidate_order(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The regions of server s, oldest first, into out (sized by the caller). */
static size_t regions_of(const cluster *c, uint32_t s, candidate *out)
{
    size_t n = 0;
    for (size_t i = 0; i < regionmap_count(c->map); i++) {
        const region *r = regionmap_get(c->map, i);
        if (r->server == s)
            out[n++] = (candidate){ r->id, i };
    }
    qsort(out, n, sizeof *out, candidate_order);
    return n;
}

/* Hands one pooled region to the first server below `limit`; 0 if none. */
static int give_to_server_below(cluster *c, size_t region_index, uint64_t limit)
{
    for (uint32_t s = 0; s < c->nservers; s++) {
        if (c->servers[s].regions < limit) {
            cluster_move(c, region_index, s);
            return 1;
        }
    }
    return 0;
}

static int64_t balance_region_count(cluster *c)
{
    size_t nregions = regionmap_count(c->map);
    uint64_t floor_avg = nregions / c->nservers;
    uint64_t ceil_avg = floor_avg + (nregions % c->nservers != 0);
    candidate *mine = malloc(nregions * sizeof *mine);
    size_t *pool = malloc(nregions * sizeof *pool);
    if (!mine || !pool) {
        free(mine);
        free(pool);
        return -1;
    }
    int empty_server = 0;
    for (uint32_t s = 0; s < c->nservers; s++)
        empty_server |= c->servers[s].regions == 0;

    uint64_t before = c->moves;
    size_t npool = 0;
    for (uint32_t s = 0; s < c->nservers; s++) {
        if (c->servers[s].regions <= ceil_avg)
            continue;
        size_t n = regions_of(c, s, mine);
        size_t surplus = (size_t)(c->servers[s].regions - ceil_avg);
        size_t head = 0, tail = n;
        for (size_t k = 0; k < surplus; k++) {
            int from_tail = empty_server && (k % 2 == 1);
            pool[npool++] = from_tail ? mine[--tail].index : mine[head++].index;
        }
    }
    /* Pooled regions still count on their donor until moved; the donors sit
     * above ceil, so they are never chosen as receivers below. */
    size_t next = 0;
    while (next < npool && give_to_server_below(c, pool[next], floor_avg))
        next++;
    while (next < npool && give_to_server_below(c, pool[next], ceil_avg))
        next++;
    /* Pool exhausted but someone is below floor: take from servers at ceil. */
    for (uint32_t s = 0; s < c->nservers && ceil_avg > floor_avg; s++) {
        if (c->servers[s].regions != ceil_avg)
            continue;
        int below = 0;
        for (uint32_t t = 0; t < c->nservers; t++)
            below |= c->servers[t].regions < floor_avg;
        if (!below)
            break;
        regions_of(c, s, mine);
        give_to_server_below(c, mine[0].index, floor_avg);
    }
    free(mine);
    free(pool);
    return (int64_t)(c->moves - before);
}

int64_t balancer_run(balancer_kind kind, cluster *c)
{
    switch (kind) {
    case BALANCER_NONE:
        return 0;
    case BALANCER_REGION_COUNT:
        return balance_region_count(c);
    }
    return 0;
}
