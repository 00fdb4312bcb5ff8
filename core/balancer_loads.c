/* balancer_loads.c -- the region loads the stochastic balancer remembers.
 *
 * HBase's StochasticLoadBalancer.updateRegionLoad keeps, per region name,
 * the last numRegionLoadsToRemember (15) BalancerRegionLoads its cluster
 * metrics brought; the cost functions read them through
 * CostFromRegionLoadFunction (the mean of the values: store file size)
 * and CostFromRegionLoadAsRateFunction (the mean increase between
 * consecutive loads, a value below the previous counting in full: request
 * counts and memstore size). balancer_stochastic.c's top comment says how
 * each load is made from the simulator's counters; this file keeps them:
 * one record per region in region order (a hash of the start key and the
 * regionId names it, so split daughters start empty and a moved region
 * keeps its history), carried across splits through an open-addressing
 * index, and a ring of increments per record in a pool: a record keeps its
 * ring where it is, so a rebuild after splits moves 56-byte records, not
 * every region's loads (at a million regions of 1 KiB that copy, 240 MB a
 * minute, was most of a run's time). Memory: 56 bytes per region and 16
 * per remembered load (the pool keeps rings for the most regions seen).
 */
#include "core/balancer_loads.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MEGABYTE 1048576ull
#define MAX_REGION_LOADS 255          /* a history's length fits a byte */


/* One remembered load: increases over the previous load (rates) and the
 * store file size (averaged). */
typedef struct load_slot {
    uint32_t read_inc, write_inc, mem_inc, storefile_mb;
} load_slot;

typedef struct region_rec {
    uint64_t key;                  /* hash of the start key and regionId */
    uint64_t read_offset;          /* region->read_rows when it last opened */
    uint64_t write_offset;
    uint64_t last_read, last_write;/* the newest load's counters */
    uint32_t last_mem;             /* the newest load's memstore MB */
    uint32_t server_id;            /* where it was at the newest load */
    uint32_t ring;                 /* its loads: rings[ring * nloads ..] */
    uint8_t n, head;               /* loads held; ring start */
} region_rec;

struct stochastic_state {
    uint32_t nloads;               /* numRegionLoadsToRemember */
    size_t nrecs;
    region_rec *recs;              /* one per region, in region order */
    load_slot *rings;              /* nloads slots a ring, rings_cap rings; a
                                    * record keeps its ring across observations
                                    * (only the records are rebuilt on splits) */
    size_t rings_cap;
    uint32_t *free_rings;          /* rings of no record, rings_cap room */
    size_t nfree;
};

/* FNV-1a over the start key, mixed with the regionId (splitmix64). */
static uint64_t region_key(const region *r)
{
    uint64_t h = 14695981039346656037ull;
    for (uint32_t i = 0; i < r->start_len; i++)
        h = (h ^ r->start[i]) * 1099511628211ull;
    h ^= r->id + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

/* HRegionServer.createRegionLoad's roundSize to MB (HBASE-26609). */
static uint32_t round_mb(uint64_t bytes)
{
    if (bytes == 0)
        return 0;
    if (bytes < MEGABYTE)
        return 1;
    uint64_t mb = bytes / MEGABYTE;
    return mb > INT_MAX ? INT_MAX : (uint32_t)mb;
}

/* CostFromRegionLoadAsRateFunction's step: the increase, or the whole
 * value when it went down (the counter restarted). */
static uint32_t rate_step(uint64_t prev, uint64_t cur)
{
    uint64_t d = cur >= prev ? cur - prev : cur;
    return d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

static uint32_t clamp_loads(uint32_t n)
{
    return n == 0 ? 1 : n > MAX_REGION_LOADS ? MAX_REGION_LOADS : n;
}

stochastic_state *stochastic_new(const balancer_config *cfg)
{
    stochastic_state *s = calloc(1, sizeof *s);
    if (s)
        s->nloads = clamp_loads(cfg->stochastic.region_loads);
    return s;
}

void stochastic_free(stochastic_state *s)
{
    if (!s)
        return;
    free(s->recs);
    free(s->rings);
    free(s->free_rings);
    free(s);
}

/* Appends region r's current load to record i (updateRegionLoad: drop the
 * oldest when full, then add). */
static void push_load(stochastic_state *s, size_t i, const cluster *c, const region *r)
{
    region_rec *rec = &s->recs[i];
    load_slot *ring = &s->rings[(size_t)rec->ring * s->nloads];
    uint64_t read = r->read_rows - rec->read_offset, write = r->writes - rec->write_offset;
    uint64_t stored = store_bytes(r->rows);
    uint32_t mem = round_mb(r->memstore_bytes);
    uint32_t file = round_mb(stored > r->memstore_bytes ? stored - r->memstore_bytes : 0);
    if (rec->n == s->nloads) {
        rec->head = (uint8_t)((rec->head + 1) % s->nloads);
        rec->n--;
    }
    load_slot *slot = &ring[(rec->head + rec->n) % s->nloads];
    int first = rec->n == 0;
    slot->read_inc = first ? 0 : rate_step(rec->last_read, read);
    slot->write_inc = first ? 0 : rate_step(rec->last_write, write);
    slot->mem_inc = first ? 0 : rate_step(rec->last_mem, mem);
    slot->storefile_mb = file;
    rec->n++;
    rec->last_read = read;
    rec->last_write = write;
    rec->last_mem = mem;
    rec->server_id = c->servers[r->server].id;
}

/* An open-addressing table from record key to old index. */
typedef struct key_index {
    size_t mask;
    uint32_t *slot;   /* old index + 1, 0 = empty */
} key_index;

static int key_index_build(key_index *t, const region_rec *recs, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    t->mask = cap - 1;
    t->slot = calloc(cap, sizeof *t->slot);
    if (!t->slot)
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t h = (size_t)recs[i].key & t->mask;
        while (t->slot[h])
            h = (h + 1) & t->mask;
        t->slot[h] = (uint32_t)(i + 1);
    }
    return 0;
}

static size_t key_index_find(const key_index *t, const region_rec *recs, uint64_t key)
{
    for (size_t h = (size_t)key & t->mask; t->slot[h]; h = (h + 1) & t->mask)
        if (recs[t->slot[h] - 1].key == key)
            return t->slot[h] - 1;
    return SIZE_MAX;
}

/* Room for `more` rings beyond those of records (free or not): 0, or -1
 * with nothing changed. Rings are never copied between records, only the
 * pool grows (x1.5): a split costs its daughters two fresh rings, not a
 * copy of every region's loads. */
static int reserve_rings(stochastic_state *s, size_t more)
{
    size_t used = s->nrecs, need = used + more; /* each record holds one */
    if (need <= s->rings_cap)
        return 0;
    size_t cap = s->rings_cap + s->rings_cap / 2;
    if (cap < need)
        cap = need;
    if (cap >= UINT32_MAX || cap > SIZE_MAX / sizeof(load_slot) / s->nloads)
        return -1;
    load_slot *r = realloc(s->rings, cap * s->nloads * sizeof *r);
    if (!r)
        return -1;
    s->rings = r;
    uint32_t *f = realloc(s->free_rings, cap * sizeof *f);
    if (!f)
        return -1; /* the rings grew: harmless, the capacity stays */
    s->free_rings = f;
    for (size_t i = s->rings_cap; i < cap; i++) /* fresh rings are free */
        s->free_rings[s->nfree++] = (uint32_t)(cap - 1 - (i - s->rings_cap));
    s->rings_cap = cap;
    return 0;
}

/* Regions split since the last observation: carry each surviving region's
 * record (and ring) to its new index, start the new ones empty and forget
 * those gone, freeing their rings (HBase rebuilds its map from the
 * report). 0, or -1 with s unchanged. */
static int rekey(stochastic_state *s, const cluster *c, size_t n)
{
    region_rec *recs = calloc(n ? n : 1, sizeof *recs);
    uint8_t *kept = calloc(s->nrecs ? s->nrecs : 1, 1);
    key_index t = { 0, NULL };
    if (!recs || !kept || reserve_rings(s, n) < 0 ||
        key_index_build(&t, s->recs, s->nrecs) < 0) {
        free(recs);
        free(kept);
        return -1;
    }
    size_t fresh = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t key = region_key(regionmap_get(c->map, i));
        size_t old = key_index_find(&t, s->recs, key);
        if (old != SIZE_MAX && !kept[old]) {
            recs[i] = s->recs[old];
            kept[old] = 1;
        } else {
            recs[i].key = key;
            recs[i].server_id = UINT32_MAX; /* new: its counters count from 0 */
            recs[i].ring = UINT32_MAX;
            fresh++;
        }
    }
    for (size_t j = 0; j < s->nrecs; j++) /* the gone ones' rings */
        if (!kept[j])
            s->free_rings[s->nfree++] = s->recs[j].ring;
    assert(s->nfree >= fresh);
    for (size_t i = 0; i < n; i++)
        if (recs[i].ring == UINT32_MAX)
            recs[i].ring = s->free_rings[--s->nfree];
    free(t.slot);
    free(kept);
    free(s->recs);
    s->recs = recs;
    s->nrecs = n;
    return 0;
}

int stochastic_observe(stochastic_state *s, const cluster *c)
{
    size_t n = regionmap_count(c->map);
    if (n >= UINT32_MAX)
        return -1;
    int same = s->nrecs == n;
    for (size_t i = 0; same && i < n; i++)
        same = s->recs[i].key == region_key(regionmap_get(c->map, i));
    if (!same && rekey(s, c, n) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const region *r = regionmap_get(c->map, i);
        region_rec *rec = &s->recs[i];
        uint32_t id = c->servers[r->server].id;
        if (rec->server_id != id && rec->server_id != UINT32_MAX) {
            /* Reopened on another server (its server left): HRegion's
             * counters start again. */
            rec->read_offset = r->read_rows;
            rec->write_offset = r->writes;
        }
        push_load(s, i, c, r);
    }
    return 0;
}

void region_loads_note_move(stochastic_state *s, const cluster *c, size_t i)
{
    const region *r = regionmap_get(c->map, i);
    region_rec *rec = &s->recs[i];
    rec->read_offset = r->read_rows;
    rec->write_offset = r->writes;
    rec->server_id = c->servers[r->server].id;
}

int region_loads_values(const stochastic_state *s, size_t i, region_load_values *out)
{
    if (i >= s->nrecs)
        return 0;
    const region_rec *rec = &s->recs[i];
    const load_slot *ring = &s->rings[(size_t)rec->ring * s->nloads];
    double read = 0, write = 0, mem = 0, file = 0;
    for (uint32_t k = 0; k < rec->n; k++) {
        const load_slot *slot = &ring[(rec->head + k) % s->nloads];
        file += slot->storefile_mb;
        if (k > 0) {
            read += slot->read_inc;
            write += slot->write_inc;
            mem += slot->mem_inc;
        }
    }
    double steps = rec->n > 1 ? (double)(rec->n - 1) : 0;
    out->read = steps > 0 ? fmax(0.0, read / steps) : 0;
    out->write = steps > 0 ? fmax(0.0, write / steps) : 0;
    out->memstore = steps > 0 ? fmax(0.0, mem / steps) : 0;
    out->storefile = rec->n ? file / rec->n : 0;
    return 1;
}
