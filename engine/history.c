/* history.c -- the region log and the timeline. See history.h. */
#include "engine/history.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/bigarray.h"

/* ---- the key strings: each distinct one once ---------------------------- */

/* A key is found by its bytes, not its text: a lookup hashes the key's few
 * bytes (16 for an md5 key, whose shell form is up to 64 characters) and
 * reads a candidate string against them (the shell form is canonical:
 * core/key.h), so a key already logged is never formatted again. Only
 * the strings are stored; growing the slots parses them back to hash.
 * A slot holds a string's place in 32 bits, its block's number and its
 * offset in the block (+ 1; 0 is empty): 4 bytes a slot, not a pointer's
 * 8, in a table kept at most half full (some 13 MB less at 1.3 million
 * keys, and half the cache lines a lookup's probe touches). A block holds
 * TEXT_BLOCK bytes, so an offset fits 16 bits; a longer string (a key of
 * more than about 16,000 bytes) has a block of its own, at offset 0. At
 * most MAX_BLOCKS blocks: 4 GiB of key text. */

#define TEXT_BLOCK 65536u   /* bytes of strings a block holds */
#define MAX_BLOCKS 65535u   /* a place + 1 fits 32 bits */

typedef struct text_block {
    size_t used, cap;
    char data[];
} text_block;

struct history_text {
    text_block **blocks;    /* in the order made; strings never move */
    size_t nblocks, blocks_cap;
    uint32_t *slot;         /* open addressing by the key's hash: place + 1; 0 = empty */
    size_t mask, n;         /* slots - 1; strings stored */
};

static void text_free(struct history_text *t)
{
    if (!t)
        return;
    for (size_t b = 0; b < t->nblocks; b++)
        free(t->blocks[b]);
    free(t->blocks);
    free(t->slot);
    free(t);
}

/* The string at slot value v (a place + 1). */
static char *text_at(const struct history_text *t, uint32_t v)
{
    uint32_t place = v - 1;
    assert(v != 0 && (place >> 16) < t->nblocks);
    return t->blocks[place >> 16]->data + (place & 0xFFFFu);
}

static uint64_t text_hash(keyref k)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (size_t i = 0; i < k.len; i++)
        h = (h ^ k.data[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

/* Doubles the slots (at least 1024): 0, or -1 with t unchanged. */
static int text_grow(struct history_text *t)
{
    size_t cap = t->slot ? 2 * (t->mask + 1) : 1024;
    uint32_t *slot = calloc(cap, sizeof *slot);
    uint8_t *raw = malloc(KEY_MAX_LEN);
    if (!slot || !raw) {
        free(slot);
        free(raw);
        return -1;
    }
    for (size_t i = 0; t->slot && i <= t->mask; i++) {
        if (!t->slot[i])
            continue;
        const char *str = text_at(t, t->slot[i]);
        size_t len = 0, bad;
        int ok = key_parse(str, strlen(str), raw, KEY_MAX_LEN, &len, &bad);
        assert(ok == 0); /* key_format's output */
        (void)ok;
        size_t j = (size_t)text_hash(keyref_of(raw, len)) & (cap - 1);
        while (slot[j])
            j = (j + 1) & (cap - 1);
        slot[j] = t->slot[i];
    }
    free(raw);
    free(t->slot);
    t->slot = slot;
    t->mask = cap - 1;
    return 0;
}

/* Key k's shell form, n characters, stored in the blocks: its slot value
 * (place + 1), or 0 if out of memory or of places. */
static uint32_t text_store(struct history_text *t, keyref k, size_t n)
{
    text_block *b = t->nblocks ? t->blocks[t->nblocks - 1] : NULL;
    if (!b || b->cap - b->used < n + 1) {
        if (t->nblocks == MAX_BLOCKS)
            return 0;
        if (t->nblocks == t->blocks_cap) {
            size_t cap = t->blocks_cap ? 2 * t->blocks_cap : 64;
            text_block **bs = realloc(t->blocks, cap * sizeof *bs);
            if (!bs)
                return 0;
            t->blocks = bs;
            t->blocks_cap = cap;
        }
        size_t cap = n + 1 > TEXT_BLOCK ? n + 1 : TEXT_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b)
            return 0;
        b->used = 0;
        b->cap = cap;
        t->blocks[t->nblocks++] = b;
    }
    assert(b->used < TEXT_BLOCK); /* an offset fits 16 bits */
    uint32_t place = (uint32_t)(t->nblocks - 1) << 16 | (uint32_t)b->used;
    key_format(k, b->data + b->used, n + 1);
    b->used += n + 1;
    return place + 1;
}

/* Key k (of text_hash `hash`) in shell form, stored once however often
 * it is logged; NULL if out of memory. The string lives until
 * history_free_results. */
static char *text_of(history *h, keyref k, uint64_t hash)
{
    struct history_text *t = h->text;
    if (!t && !(t = h->text = calloc(1, sizeof *t)))
        return NULL;
    if ((t->n + 1) * 2 > (t->slot ? t->mask + 1 : 0) && text_grow(t) < 0)
        return NULL;
    size_t j = (size_t)hash & t->mask;
    for (; t->slot[j]; j = (j + 1) & t->mask) {
        char *str = text_at(t, t->slot[j]);
        if (key_is_formatted(k, str))
            return str;
    }
    uint32_t v = text_store(t, k, key_format_len(k));
    if (!v)
        return NULL;
    t->slot[j] = v;
    t->n++;
    return text_at(t, v);
}

/* A split names three keys (the parent's start and end, long stored, and
 * the split key, new): each lookup is a miss on its slot, then on its
 * string. The three slots are asked of memory at once, then the strings
 * the first two hold, before any is read (text_ahead), so the misses
 * overlap instead of following one another. Hints only: the lookups
 * (text_of) are the same. */
typedef struct text_keys {
    keyref k[3];
    uint64_t hash[3];
} text_keys;

static void text_ahead(const history *h, text_keys *q, size_t n)
{
    const struct history_text *t = h->text;
    for (size_t i = 0; i < n; i++) {
        q->hash[i] = text_hash(q->k[i]);
        if (t && t->slot)
            __builtin_prefetch(&t->slot[q->hash[i] & t->mask]);
    }
    for (size_t i = 0; t && t->slot && i < n; i++) {
        uint32_t v = t->slot[q->hash[i] & t->mask];
        if (v)
            __builtin_prefetch(text_at(t, v));
    }
}

/* ---- the log --------------------------------------------------------------- */

_Static_assert(sizeof(void *) != 8 || sizeof(timeline_event) == 80,
               "a timeline event is 80 bytes on a 64-bit machine (result.h)");

void history_init(history *h, const cluster *c)
{
    memset(h, 0, sizeof *h);
    h->table = c;
}

/* Grows an array of `size`-byte elements from *cap to want elements
 * (bigarray: past a MiB a mapping grown by mremap, so a doubling copies
 * nothing and the room not yet written takes no memory). 0, or -1 with
 * the array unchanged. */
static int grow_to(void **array, size_t *cap, size_t want, size_t size, int *mapped)
{
    if (want > SIZE_MAX / size || bigarray_grow(array, *cap * size, want * size, mapped) < 0)
        return -1;
    *cap = want;
    return 0;
}

/* Room for one more element in a growing array of `size`-byte elements. */
static int reserve(void **array, size_t n, size_t *cap, size_t size, int *mapped)
{
    if (n < *cap)
        return 0;
    return grow_to(array, cap, *cap ? 2 * *cap : 64, size, mapped);
}

static timeline_event *new_event(history *h, uint64_t t_us, timeline_kind kind)
{
    if (h->failed || reserve((void **)&h->events, h->nevents, &h->events_cap,
                             sizeof *h->events, &h->events_mapped) < 0) {
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
                      int split, const text_keys *q)
{
    if (reserve((void **)&h->regions, h->nregions, &h->regions_cap, sizeof *h->regions,
                &h->regions_mapped) < 0)
        return -1;
    region_result *out = &h->regions[h->nregions];
    memset(out, 0, sizeof *out);
    text_keys own;
    if (!q) {
        own.k[0] = region_start(r);
        own.k[1] = region_end(r);
        text_ahead(h, &own, 2);
        q = &own;
    }
    out->start = text_of(h, q->k[0], q->hash[0]);
    out->end = text_of(h, q->k[1], q->hash[1]);
    if (!out->start || !out->end)
        return -1;
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
    text_keys q = { .k = { at } };
    size_t nk = 1;
    if (what == CLUSTER_SPLIT) { /* the region's keys first, as log_region reads them */
        q.k[0] = region_start(r);
        q.k[1] = region_end(r);
        q.k[2] = at;
        nk = 3;
    }
    text_ahead(h, &q, nk);
    if (what == CLUSTER_SPLIT && log_region(h, r, from, now, 1, &q) < 0) {
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
    e->key = text_of(h, at, q.hash[nk - 1]);
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
    /* Room for the live regions at once: the log's largest array, grown to
     * what it needs and no more (doubling could have taken 1.6 times), in
     * place (a mapping's mremap: no second copy of the log at the run's
     * end, when its memory peaks). */
    size_t live = regionmap_count(c->map), want = h->nregions + live;
    if (!h->failed && want > h->regions_cap &&
        grow_to((void **)&h->regions, &h->regions_cap, want, sizeof *h->regions,
                &h->regions_mapped) < 0)
        h->failed = 1;
    for (size_t i = 0; i < regionmap_count(c->map) && !h->failed; i++) {
        const region *r = regionmap_get(c->map, i);
        if (log_region(h, r, c->servers[r->server].id, end_us, 0, NULL) < 0)
            h->failed = 1;
    }
    if (h->failed)
        return -1;
    out->history = h->regions;
    out->nhistory = h->nregions;
    out->history_cap = h->regions_cap;
    out->history_mapped = h->regions_mapped;
    out->events = h->events;
    out->nevents = h->nevents;
    out->events_cap = h->events_cap;
    out->events_mapped = h->events_mapped;
    out->history_text = h->text;
    memset(h, 0, sizeof *h);
    return 0;
}

void history_release(history *h)
{
    run_result owner = { .history = h->regions, .nhistory = h->nregions,
                         .history_cap = h->regions_cap, .history_mapped = h->regions_mapped,
                         .events = h->events, .nevents = h->nevents,
                         .events_cap = h->events_cap, .events_mapped = h->events_mapped,
                         .history_text = h->text };
    history_free_results(&owner);
    memset(h, 0, sizeof *h);
}

void history_free_results(run_result *out)
{
    /* their strings are the text's */
    bigarray_free(out->history, out->history_cap * sizeof *out->history, out->history_mapped);
    bigarray_free(out->events, out->events_cap * sizeof *out->events, out->events_mapped);
    text_free(out->history_text);
    out->history = NULL;
    out->events = NULL;
    out->history_text = NULL;
    out->nhistory = out->nevents = out->history_cap = out->events_cap = 0;
    out->history_mapped = out->events_mapped = 0;
}
