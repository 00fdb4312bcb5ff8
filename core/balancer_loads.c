/* balancer_loads.c -- the region loads the stochastic balancer remembers.
 *
 * HBase's StochasticLoadBalancer.updateRegionLoad keeps, per region name,
 * the last numRegionLoadsToRemember (15) BalancerRegionLoads its cluster
 * metrics brought; the cost functions read them through
 * CostFromRegionLoadFunction (the mean of the values: store file size)
 * and CostFromRegionLoadAsRateFunction (the mean increase between
 * consecutive loads, a value below the previous counting in full: request
 * counts and memstore size). balancer_stochastic.c's top comment says how
 * each load is made from the simulator's counters; this file keeps them.
 *
 * A region's name is its start key and regionId, so a moved region keeps
 * its history and split daughters start empty. Each region points to its
 * record (region.loads: an index into a pool, + 1), and the record holds
 * the regionId it was made for: a split gives the lower daughter the
 * parent's struct with a new id (the record is then dropped and a fresh
 * one made; kept if the id is the same, the parent's name, as HBase
 * would), the upper one no record yet; a region struct new to the state
 * (the upper daughter, or every region of a cluster built anew, as the
 * tests do between observations) finds its record by name, through an
 * index of the records' names. One difference from HBase, which forgets a
 * name absent from one report: a record whose region vanished without a
 * split (only a cluster built anew does that) stays findable by its name
 * until the state is freed. A record's loads are a ring of
 * nloads slots in a pool beside it. Records and rings never move between
 * looks (the pool grows x1.5 by realloc), so a look costs no rebuild.
 *
 * A look (each status period: stochastic_observe) visits every region, in
 * memory order (regionmap_span), in batches of 32 whose changed regions'
 * records, rings, keys and name slots are asked of memory together
 * before any is read. A region whose counters (writes, rows
 * read, memstore bytes) and server are what the last look saw would get a
 * load of no increase and the same store file size as its newest one: the
 * look passes it by, without touching its record, its store or the
 * region: the looks since the one that took its newest load (the
 * region's seen_look; at most nloads) are its idle loads. The next look
 * that finds it changed appends those first, and a balancer run reads
 * them as if appended, so the loads are the ones HBase would have. (The
 * region used to count its idle looks, a write to most regions' cache
 * lines each look.) At a million
 * regions of a few rows (md5 keys, 1 KiB regions) most regions are idle in
 * any one minute; a look used to rebuild the records by hashing every
 * start key and copy every ring (240 bytes a region), most of the run's
 * time.
 *
 * A state for one evaluation (stochastic_total_cost: a fresh balancer
 * looking once) is detached: records by region index, the regions'
 * fields untouched, so it never disturbs the balancer's own state.
 * A record is narrow while it can be: its ring holds a byte a value (4
 * bytes a load) while every value it was given is below 256, its
 * counters fit 32 bits and it never reopened (its counters' offsets are
 * 0). A region of a few rows written a few times a minute (the md5 run
 * of 1 KiB regions) never needs more. The first load that does not fit,
 * or a move, gives the record a wide part (its counters in 64 bits, the
 * offsets) and a wide ring (16 bytes a load), in a pool of their own,
 * freed with the record; both hold the values exactly, so the cost
 * functions see the same numbers either way.
 *
 * Memory: 40 bytes per record, 4 per remembered load (60 for 15), 4 for
 * the free list: 104 bytes a region, where 64-byte records and 16-byte
 * loads made it 308 (the pool keeps room for 1.5 times the most regions
 * seen); 32 + 16 per load (272) more for a record that widened; in each
 * region the loads index and what the last look saw (32 bytes); the
 * names' index, 4 bytes a slot at most half full.
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

/* The same load in a byte a value: every record's ring while all of its
 * loads' values are below NARROW_LIMIT (then a wide ring takes over). */
typedef struct narrow_slot {
    uint8_t read_inc, write_inc, mem_inc, storefile_mb;
} narrow_slot;

#define NARROW_LIMIT 256u

/* A record: 40 bytes. What few records need (a ring value of 256 or
 * more, a counter past 32 bits, a reopening's offsets) is in its wide
 * part. */
typedef struct region_rec {
    uint64_t key;                  /* its region's name: a hash of the start key and
                                    * regionId (region_key) */
    uint64_t id;                   /* the regionId of the region it is for */
    uint32_t last_read, last_write;/* narrow: the newest load's counters */
    uint32_t last_mem;             /* the newest load's memstore MB */
    uint32_t server_id;            /* where it was at the newest load */
    uint32_t wide;                 /* its wide part and ring in the wide pool, + 1;
                                    * 0: narrow */
    uint8_t n, head;               /* loads held; ring start */
} region_rec;
_Static_assert(sizeof(region_rec) == 40, "a narrow record is 40 bytes (the top comment's figure)");

/* A wide record's counters (its own last_read and last_write unused). */
typedef struct wide_part {
    uint64_t read_offset;          /* region->read_rows when it last opened */
    uint64_t write_offset;
    uint64_t last_read, last_write;/* the newest load's counters */
} wide_part;

struct stochastic_state {
    uint32_t nloads;               /* numRegionLoadsToRemember */
    uint32_t looks;                /* looks made (stochastic_observe) */
    int detached;                  /* records by region index (stochastic_new_detached) */
    region_rec *recs;              /* the pool: recs_cap records, each with ... */
    narrow_slot *rings;            /* ... its narrow ring: nloads slots at index * nloads */
    size_t recs_cap, recs_used;    /* records made so far (some free) */
    uint32_t *free_recs;           /* records of no region, recs_cap room */
    size_t nfree;
    load_slot *wide;               /* wide rings, nloads slots each, for the records
                                    * with a value of NARROW_LIMIT or more ... */
    wide_part *parts;              /* ... and their counters, by the same index */
    size_t wide_cap, wide_used;    /* rings made so far (some free) */
    uint32_t *free_wide;           /* wide rings of no record, wide_cap room */
    size_t nwide_free;
    uint32_t *by_key;              /* open addressing on key: record index + 1, 0 empty */
    size_t key_mask, nkeys;        /* slots - 1 (0: none yet); records in it */
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

stochastic_state *stochastic_new_detached(const balancer_config *cfg)
{
    stochastic_state *s = stochastic_new(cfg);
    if (s)
        s->detached = 1;
    return s;
}

void stochastic_free(stochastic_state *s)
{
    if (!s)
        return;
    free(s->recs);
    free(s->rings);
    free(s->free_recs);
    free(s->wide);
    free(s->parts);
    free(s->free_wide);
    free(s->by_key);
    free(s);
}

/* ---- records by name: a region struct new to this state (the upper
 * daughter of a split, or a cluster made anew, as the tests do) finds the
 * record of its name, as HBase finds loads by region name ---------------- */

static size_t key_slot(const stochastic_state *s, uint64_t key)
{
    size_t j = (size_t)key & s->key_mask;
    while (s->by_key[j] && s->recs[s->by_key[j] - 1].key != key)
        j = (j + 1) & s->key_mask;
    return j;
}

/* Room for one more name: 0, or -1 (nothing changed). */
static int key_reserve(stochastic_state *s)
{
    size_t slots = s->by_key ? s->key_mask + 1 : 0;
    if (2 * (s->nkeys + 1) <= slots)
        return 0;
    size_t cap = slots ? 2 * slots : 1024;
    uint32_t *t = calloc(cap, sizeof *t), *old = s->by_key;
    if (!t)
        return -1;
    s->by_key = t;
    s->key_mask = cap - 1;
    for (size_t j = 0; j < slots; j++)
        if (old[j])
            s->by_key[key_slot(s, s->recs[old[j] - 1].key)] = old[j];
    free(old);
    return 0;
}

/* Takes record i's name out (backward-shift deletion of linear probing). */
static void key_remove(stochastic_state *s, uint32_t i)
{
    size_t j = key_slot(s, s->recs[i].key);
    assert(s->by_key[j] == i + 1);
    s->by_key[j] = 0;
    s->nkeys--;
    for (size_t k = (j + 1) & s->key_mask; s->by_key[k]; k = (k + 1) & s->key_mask) {
        size_t home = (size_t)s->recs[s->by_key[k] - 1].key & s->key_mask;
        /* move k's entry to j if its home is not in (j, k] (cyclically) */
        if ((k > j && (home <= j || home > k)) || (k < j && home <= j && home > k)) {
            s->by_key[j] = s->by_key[k];
            s->by_key[k] = 0;
            j = k;
        }
    }
}

/* ---- the rings: a byte a value until a value needs more ------------------ */

/* The load at ring position pos (0 .. nloads - 1, not the load's age). */
static load_slot slot_at(const stochastic_state *s, const region_rec *rec, uint32_t pos)
{
    if (rec->wide)
        return s->wide[(size_t)(rec->wide - 1) * s->nloads + pos];
    narrow_slot n = s->rings[(size_t)(rec - s->recs) * s->nloads + pos];
    return (load_slot){ n.read_inc, n.write_inc, n.mem_inc, n.storefile_mb };
}

/* rec's newest load (rec->n > 0). */
static load_slot newest_load(const stochastic_state *s, const region_rec *rec)
{
    assert(rec->n > 0);
    return slot_at(s, rec, (rec->head + rec->n - 1) % s->nloads);
}

static int fits_narrow(load_slot v)
{
    return v.read_inc < NARROW_LIMIT && v.write_inc < NARROW_LIMIT &&
           v.mem_inc < NARROW_LIMIT && v.storefile_mb < NARROW_LIMIT;
}

/* Grows a pool of *cap entries by x1.5 (64 at first): each entry's item
 * (item_size bytes), its ring of nloads slots (slot_size bytes each) and
 * a free list's room. 0, or -1 with *cap unchanged (the arrays grown so
 * far keep their contents, larger). */
static int grow_pool_arrays(size_t *cap, uint32_t nloads, void **items, size_t item_size,
                            void **rings, size_t slot_size, uint32_t **free_list)
{
    size_t n = *cap ? *cap + *cap / 2 : 64;
    if (n >= UINT32_MAX || n > SIZE_MAX / slot_size / nloads)
        return -1;
    void *a = realloc(*items, n * item_size);
    if (!a)
        return -1;
    *items = a;
    void *g = realloc(*rings, n * nloads * slot_size);
    if (!g)
        return -1;
    *rings = g;
    uint32_t *f = realloc(*free_list, n * sizeof *f);
    if (!f)
        return -1;
    *free_list = f;
    *cap = n;
    return 0;
}

/* Gives rec a wide part and ring holding its counters and loads: 0, or
 * -1 (rec unchanged). */
static int widen(stochastic_state *s, region_rec *rec)
{
    if (rec->wide)
        return 0;
    uint32_t w;
    if (s->nwide_free > 0) {
        w = s->free_wide[--s->nwide_free];
    } else {
        if (s->wide_used == s->wide_cap) {
            void *parts = s->parts, *wide = s->wide;
            int rc = grow_pool_arrays(&s->wide_cap, s->nloads, &parts, sizeof *s->parts, &wide,
                                      sizeof *s->wide, &s->free_wide);
            s->parts = parts; /* grown, or as they were */
            s->wide = wide;
            if (rc < 0)
                return -1;
        }
        w = (uint32_t)s->wide_used++;
    }
    load_slot *ring = &s->wide[(size_t)w * s->nloads];
    for (uint32_t pos = 0; pos < s->nloads; pos++)
        ring[pos] = slot_at(s, rec, pos);
    s->parts[w] = (wide_part){ 0, 0, rec->last_read, rec->last_write };
    rec->wide = w + 1;
    return 0;
}

static wide_part *part_of(const stochastic_state *s, const region_rec *rec)
{
    assert(rec->wide);
    return &s->parts[rec->wide - 1];
}

/* rec's counters' offsets: 0 until it reopened (only a wide record has others). */
static uint64_t read_offset(const stochastic_state *s, const region_rec *rec)
{
    return rec->wide ? part_of(s, rec)->read_offset : 0;
}

static uint64_t write_offset(const stochastic_state *s, const region_rec *rec)
{
    return rec->wide ? part_of(s, rec)->write_offset : 0;
}

/* The newest load's read and write counters. */
static uint64_t last_read(const stochastic_state *s, const region_rec *rec)
{
    return rec->wide ? part_of(s, rec)->last_read : rec->last_read;
}

static uint64_t last_write(const stochastic_state *s, const region_rec *rec)
{
    return rec->wide ? part_of(s, rec)->last_write : rec->last_write;
}

/* rec reopened (moved, or reassigned from a server that left): its
 * counters count from region r's now. 0, or -1 if out of memory (rec
 * unchanged). */
static int reopen(stochastic_state *s, region_rec *rec, const region *r)
{
    if (r->read_rows == 0 && r->writes == 0 && !rec->wide)
        return 0; /* offsets of 0: what a narrow record has */
    if (widen(s, rec) < 0)
        return -1;
    part_of(s, rec)->read_offset = r->read_rows;
    part_of(s, rec)->write_offset = r->writes;
    return 0;
}

/* A record dropped: its wide ring, if any, is free again. */
static void release_wide(stochastic_state *s, region_rec *rec)
{
    if (rec->wide) {
        s->free_wide[s->nwide_free++] = rec->wide - 1;
        rec->wide = 0;
    }
}

/* Appends load v to rec's ring (updateRegionLoad: drop the oldest when
 * full, then add): 0, or -1 if out of memory (rec unchanged). */
static int ring_push(stochastic_state *s, region_rec *rec, load_slot v)
{
    if (!fits_narrow(v) && widen(s, rec) < 0)
        return -1;
    if (rec->n == s->nloads) {
        rec->head = (uint8_t)((rec->head + 1) % s->nloads);
        rec->n--;
    }
    uint32_t pos = (rec->head + rec->n) % s->nloads;
    if (rec->wide)
        s->wide[(size_t)(rec->wide - 1) * s->nloads + pos] = v;
    else
        s->rings[(size_t)(rec - s->recs) * s->nloads + pos] =
            (narrow_slot){ (uint8_t)v.read_inc, (uint8_t)v.write_inc, (uint8_t)v.mem_inc,
                           (uint8_t)v.storefile_mb };
    rec->n++;
    return 0;
}

/* Appends region r's current load to rec: 0, or -1 if out of memory. */
static int push_load(stochastic_state *s, region_rec *rec, const cluster *c, const region *r)
{
    uint64_t read = r->read_rows - read_offset(s, rec);
    uint64_t write = r->writes - write_offset(s, rec);
    uint64_t stored = store_bytes(r->rows);
    uint32_t mem = round_mb(r->memstore_bytes);
    uint32_t file = round_mb(stored > r->memstore_bytes ? stored - r->memstore_bytes : 0);
    int first = rec->n == 0;
    load_slot v = { first ? 0 : rate_step(last_read(s, rec), read),
                    first ? 0 : rate_step(last_write(s, rec), write),
                    first ? 0 : rate_step(rec->last_mem, mem), file };
    if ((read > UINT32_MAX || write > UINT32_MAX) && widen(s, rec) < 0)
        return -1;
    if (ring_push(s, rec, v) < 0)
        return -1;
    if (rec->wide) {
        part_of(s, rec)->last_read = read;
        part_of(s, rec)->last_write = write;
    } else {
        rec->last_read = (uint32_t)read;
        rec->last_write = (uint32_t)write;
    }
    rec->last_mem = mem;
    rec->server_id = c->servers[r->server].id;
    return 0;
}

/* Appends k loads of a region seen unchanged: what push_load would have
 * appended (no increase, the newest store file size) and left (the same
 * last values and server). rec has a load already if k > 0. */
static void push_idle(stochastic_state *s, region_rec *rec, uint32_t k)
{
    if (k == 0)
        return;
    load_slot idle = { 0, 0, 0, newest_load(s, rec).storefile_mb };
    for (uint32_t i = 0; i < k; i++) {
        int ok = ring_push(s, rec, idle);
        assert(ok == 0); /* the newest load's values fit its ring */
        (void)ok;
    }
}

/* Room for one more record in the pool: 0, or -1. */
static int grow_pool(stochastic_state *s)
{
    void *recs = s->recs, *rings = s->rings;
    int rc = grow_pool_arrays(&s->recs_cap, s->nloads, &recs, sizeof *s->recs, &rings,
                              sizeof *s->rings, &s->free_recs);
    s->recs = recs; /* grown, or as they were */
    s->rings = rings;
    return rc;
}

/* A fresh record for regionId id: its index, or UINT32_MAX if out of
 * memory. */
static uint32_t new_record(stochastic_state *s, uint64_t id)
{
    uint32_t i;
    if (!s->detached && key_reserve(s) < 0)
        return UINT32_MAX;
    if (s->nfree > 0) {
        i = s->free_recs[--s->nfree];
    } else {
        if (s->recs_used == s->recs_cap && grow_pool(s) < 0)
            return UINT32_MAX;
        i = (uint32_t)s->recs_used++;
    }
    memset(&s->recs[i], 0, sizeof s->recs[i]);
    s->recs[i].id = id;
    s->recs[i].server_id = UINT32_MAX; /* new: its counters count from 0 */
    return i;
}

/* Region r's record: the one it points to while its regionId is the
 * record's; else the record of its name, or a fresh one. A split's lower
 * daughter (a new regionId in the parent's struct) drops the parent's
 * record: that name is gone. NULL if out of memory. */
static region_rec *record_of(stochastic_state *s, region *r, const uint64_t *known_key)
{
    if (r->loads && s->recs[r->loads - 1].id == r->id)
        return &s->recs[r->loads - 1];
    if (r->loads) { /* the parent's */
        key_remove(s, r->loads - 1);
        release_wide(s, &s->recs[r->loads - 1]);
        s->free_recs[s->nfree++] = r->loads - 1;
        r->loads = 0;
    }
    uint64_t key = known_key ? *known_key : region_key(r);
    if (s->by_key) {
        size_t j = key_slot(s, key);
        if (s->by_key[j]) {
            r->loads = s->by_key[j];
            return &s->recs[r->loads - 1];
        }
    }
    uint32_t i = new_record(s, r->id);
    if (i == UINT32_MAX)
        return NULL;
    s->recs[i].key = key;
    s->by_key[key_slot(s, key)] = i + 1;
    s->nkeys++;
    r->loads = i + 1;
    return &s->recs[i];
}

int stochastic_observe_detached(stochastic_state *s, const cluster *c)
{
    size_t n = regionmap_count(c->map);
    assert(s->detached && s->recs_used == 0); /* it looks once */
    for (size_t i = 0; i < n; i++) {
        const region *r = regionmap_get(c->map, i);
        uint32_t k = new_record(s, r->id);
        if (k == UINT32_MAX)
            return -1;
        assert(k == i);
        if (push_load(s, &s->recs[k], c, r) < 0)
            return -1;
    }
    return 0;
}

/* The looks that saw region r unchanged since its record's newest load
 * (at look r->seen_look), up to nloads (more would fall off the ring),
 * before look `look`. */
static uint32_t idle_looks(const stochastic_state *s, const region *r, uint32_t look)
{
    assert(look > r->seen_look);
    uint32_t idle = look - r->seen_look - 1;
    return idle < s->nloads ? idle : s->nloads;
}

/* Whether region r (on the server of id `id`) is what the last look saw:
 * it then gets no load now (counted by its seen_look). */
static int seen_unchanged(const region *r, uint32_t id)
{
    return r->loads && r->seen_server_id == id && r->seen_writes == r->writes &&
           r->seen_read_rows == r->read_rows && r->seen_memstore == r->memstore_bytes;
}

/* Whether record_of will look region r up by name (its record, if any,
 * is not for its regionId): then it hashes r's start key. */
static int needs_name(const stochastic_state *s, const region *r)
{
    return !r->loads || s->recs[r->loads - 1].id != r->id;
}

/* Region r's new load, and its idle ones before it; key: its name if
 * computed already, else NULL. 0, or -1 if out of memory. */
static int take_load(stochastic_state *s, cluster *c, region *r, uint32_t id,
                     const uint64_t *key)
{
    /* idle loads only while its record is the same */
    uint32_t idle = r->loads && s->recs[r->loads - 1].id == r->id
                        ? idle_looks(s, r, s->looks) : 0;
    region_rec *rec = record_of(s, r, key);
    if (!rec)
        return -1;
    push_idle(s, rec, idle);
    if (rec->server_id != id && rec->server_id != UINT32_MAX) {
        /* Reopened on another server (its server left): HRegion's
         * counters start again. */
        if (reopen(s, rec, r) < 0)
            return -1;
    }
    if (push_load(s, rec, c, r) < 0)
        return -1;
    r->seen_server_id = id;
    r->seen_look = s->looks;
    r->seen_writes = r->writes;
    r->seen_read_rows = r->read_rows;
    r->seen_memstore = r->memstore_bytes;
    return 0;
}

/* Regions a look takes in one batch (see stochastic_observe). */
#define LOOK_BATCH 32

int stochastic_observe(stochastic_state *s, cluster *c)
{
    if (s->detached)
        return stochastic_observe_detached(s, c);
    size_t n = regionmap_count(c->map);
    if (n >= UINT32_MAX || s->looks == UINT32_MAX)
        return -1;
    /* In batches of regions in memory order, three passes: which changed
     * (their loads' records, rings and start keys asked of memory then),
     * the names of those record_of must look up (their index slots
     * asked), then the loads in order. A changed region's record, ring,
     * key and slot are each a miss of their own: this way a batch's are
     * in flight together, not one after the other. The passes read what
     * the loads do not change (a load writes its own region and record
     * only; a record freed or made changes no other region's), so the
     * loads are the ones a single pass took. */
    uint16_t changed[LOOK_BATCH];
    uint64_t key[LOOK_BATCH];
    uint8_t keyed[LOOK_BATCH];
    for (size_t i = 0; i < n;) {
        size_t span;
        region *r = regionmap_span(c->map, i, &span);
        i += span;
        for (size_t b = 0; b < span; b += LOOK_BATCH) {
            size_t m = span - b < LOOK_BATCH ? span - b : LOOK_BATCH, nc = 0;
            for (size_t k = 0; k < m; k++) {
                const region *x = r + b + k;
                if (seen_unchanged(x, c->servers[x->server].id))
                    continue;
                changed[nc++] = (uint16_t)k;
                if (x->loads) {
                    __builtin_prefetch(&s->recs[x->loads - 1]);
                    __builtin_prefetch(&s->rings[(size_t)(x->loads - 1) * s->nloads]);
                }
                if (x->start)
                    __builtin_prefetch(x->start);
            }
            for (size_t k = 0; k < nc; k++) {
                const region *x = r + b + changed[k];
                keyed[k] = s->by_key && needs_name(s, x);
                if (keyed[k]) {
                    key[k] = region_key(x);
                    __builtin_prefetch(&s->by_key[(size_t)key[k] & s->key_mask]);
                }
            }
            for (size_t k = 0; k < nc; k++) {
                region *x = r + b + changed[k];
                if (take_load(s, c, x, c->servers[x->server].id, keyed[k] ? &key[k] : NULL) < 0)
                    return -1;
            }
        }
    }
    s->looks++;
    return 0;
}

int region_loads_note_move(stochastic_state *s, cluster *c, size_t i)
{
    region *r = regionmap_at(c->map, i);
    if (s->detached || !r->loads || s->recs[r->loads - 1].id != r->id)
        return 0; /* no record: its first load counts from 0 */
    region_rec *rec = &s->recs[r->loads - 1];
    if (reopen(s, rec, r) < 0)
        return -1;
    rec->server_id = c->servers[r->server].id;
    r->seen_server_id = UINT32_MAX; /* its next load is no idle one */
    return 0;
}

int region_loads_values(const stochastic_state *s, const cluster *c, size_t i,
                        region_load_values *out)
{
    const region_rec *rec;
    uint32_t idle = 0;
    if (s->detached) {
        if (i >= s->recs_used)
            return 0;
        rec = &s->recs[i];
    } else {
        const region *r = regionmap_get(c->map, i);
        if (!r->loads || s->recs[r->loads - 1].id != r->id)
            return 0;
        rec = &s->recs[r->loads - 1];
        idle = idle_looks(s, r, s->looks); /* loads not yet in the ring, read as if
                                             * appended */
    }
    /* The newest nloads of the ring's n loads followed by `idle` loads of
     * no increase and the newest store file size. */
    uint32_t total = rec->n + idle, keep = total < s->nloads ? total : s->nloads;
    uint32_t skip = total - keep; /* the oldest, dropped */
    uint32_t file_last = rec->n ? newest_load(s, rec).storefile_mb : 0;
    double read = 0, write = 0, mem = 0, file = 0;
    for (uint32_t k = 0; k < keep; k++) {
        uint32_t at = skip + k; /* its place in the whole sequence */
        if (at >= rec->n) {     /* an idle load: increases of 0 */
            file += file_last;
            continue;
        }
        load_slot slot = slot_at(s, rec, (rec->head + at) % s->nloads);
        file += slot.storefile_mb;
        if (k > 0) {
            read += slot.read_inc;
            write += slot.write_inc;
            mem += slot.mem_inc;
        }
    }
    double steps = keep > 1 ? (double)(keep - 1) : 0;
    out->read = steps > 0 ? fmax(0.0, read / steps) : 0;
    out->write = steps > 0 ? fmax(0.0, write / steps) : 0;
    out->memstore = steps > 0 ? fmax(0.0, mem / steps) : 0;
    out->storefile = keep ? file / keep : 0;
    return 1;
}
