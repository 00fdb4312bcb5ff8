/* cluster.c -- the write path and region assignment. */
#include "core/cluster.h"

#include <assert.h>
#include <stdlib.h>

cluster *cluster_new(uint32_t nservers, const keyref *splits, size_t nsplits,
                     split_policy policy, size_t *bad)
{
    assert(nservers >= 1);
    cluster *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->map = regionmap_new(splits, nsplits, bad);
    c->servers = calloc(nservers, sizeof *c->servers);
    if (!c->map || !c->servers) {
        cluster_free(c);
        return NULL;
    }
    c->nservers = nservers;
    c->policy = policy;
    for (size_t i = 0; i < regionmap_count(c->map); i++) {
        region *r = regionmap_at(c->map, i);
        r->server = (uint32_t)(i % nservers);
        c->servers[r->server].regions++;
    }
    return c;
}

void cluster_free(cluster *c)
{
    if (!c)
        return;
    regionmap_free(c->map);
    free(c->servers);
    free(c);
}

/* Splits region i if the policy wants it; failure to find a split point is
 * not an error, running out of memory is. */
static int cluster_maybe_split(cluster *c, size_t i)
{
    region *r = regionmap_at(c->map, i);
    keyref at;
    if (!split_decide(&c->policy, r, &at))
        return 0;
    uint32_t s = r->server;
    if (regionmap_split(c->map, i, at) < 0)
        return -1;
    c->servers[s].regions++;
    c->splits++;
    return 0;
}

int cluster_write(cluster *c, keyref k, uint32_t cell_bytes,
                  size_t *region_index, uint32_t *server_index)
{
    size_t i = regionmap_route(c->map, k);
    region *r = regionmap_at(c->map, i);
    if (store_put(r->rows, k, cell_bytes) < 0)
        return -1;
    r->writes++;
    server *s = &c->servers[r->server];
    s->writes++;
    s->bytes += cell_bytes;
    *region_index = i;
    *server_index = r->server;
    if (split_due(&c->policy, r, store_bytes(r->rows)))
        return cluster_maybe_split(c, i);
    return 0;
}

uint32_t cluster_read(cluster *c, keyref k)
{
    uint32_t s = regionmap_get(c->map, regionmap_route(c->map, k))->server;
    c->servers[s].reads++;
    return s;
}

void cluster_move(cluster *c, size_t i, uint32_t s)
{
    assert(s < c->nservers);
    region *r = regionmap_at(c->map, i);
    if (r->server == s)
        return;
    c->servers[r->server].regions--;
    c->servers[s].regions++;
    r->server = s;
    c->moves++;
}

uint64_t cluster_rows(cluster *c)
{
    uint64_t n = 0;
    for (size_t i = 0; i < regionmap_count(c->map); i++)
        n += store_rows(regionmap_at(c->map, i)->rows);
    return n;
}

uint64_t cluster_bytes(const cluster *c)
{
    uint64_t n = 0;
    for (size_t i = 0; i < regionmap_count(c->map); i++)
        n += store_bytes(regionmap_get(c->map, i)->rows);
    return n;
}
