/* engine_ahead.c -- the open loop's next writes, fetched ahead to prefetch
 * their routes.
 *
 * Over a million regions a write waits on a chain of dependent cache
 * misses: the chunk's top line, one line of its heads and one of its
 * prefixes (core/regionmap.c), the region's first line, its row store's
 * struct, and inside the store its index and records. One write's misses
 * cannot overlap (each address comes from the line before), but different
 * writes' can. So the open loop keeps the next AHEAD_DEPTH (6) operations
 * of its pattern fetched in a ring, each with its key encoded, and before
 * it runs an operation it moves every write in the ring one step down its
 * route (cluster_prefetch_write: each step reads only what the step before
 * prefetched, and prefetches the next line). A write enters the ring six
 * operations before it runs; by the time it runs its route and the lines
 * of its store a put reads have been prefetched one by one, and
 * cluster_write_ahead takes the slot the cursor found (no second search)
 * when no split came since. Below AHEAD_MIN_REGIONS regions nothing is
 * fetched ahead: the map and the stores then stay in cache and the steps
 * would only cost (engine_ahead_due).
 *
 * Why it changes no output. The prefetches are hints, and a cursor's slot
 * is taken only when no split came since its search (the map is then as
 * it was, and the slot is the route's answer); otherwise the write is
 * routed again, so a split in between only wastes prefetches.
 * Fetching ahead only moves pattern_next calls earlier: only generator
 * patterns fetch ahead (timeseries, entities, sequence), whose draws come
 * from their own random stream and depend on nothing the engine does
 * (pattern_random_series reads the pattern, never changes it); they never
 * fail or end, and their records carry no key bytes of the pattern's (a
 * trace's record points into the trace's buffer until its next call: a
 * trace does not fetch ahead, nor do YCSB phases, whose ends and errors
 * fetch_op handles in order). fetch_op's own work (the phase's counts, its
 * end) is still done when it takes the operation, in the same order. A key
 * is encoded ahead only when the scheme is pure (keyscheme_is_pure: no
 * salt() draw, no UID assigned in order of use), with the time and
 * sequence number the operation will get if the operations before it run
 * in the open loop as fetched; engine_op uses that key only when its
 * record is that record to the last field (ahead_key), and otherwise
 * encodes as before; the route it takes from the cursor is the region
 * regionmap_find would find (regionmap_find_ahead). So the keys, the
 * regions written, and every draw of every random stream are the same as
 * without fetching ahead.
 *
 * A phase that fetches nothing ahead (closed loop, a trace, YCSB, a
 * scheme with salt() or UIDs) runs as before: ahead_on is 0 and the ring
 * stays empty.
 */
#include "engine/engine_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

int engine_ahead_setup(run_state *st)
{
    size_t max = keyscheme_max_len(st->scheme);
    st->ahead_keys = malloc(AHEAD_RING * (max ? max : 1));
    if (!st->ahead_keys)
        return -1;
    for (size_t i = 0; i < AHEAD_RING; i++)
        st->ahead[i].key = st->ahead_keys + i * max;
    return 0;
}

void engine_ahead_release(run_state *st)
{
    free(st->ahead_keys);
    st->ahead_keys = NULL;
}

void engine_ahead_phase(run_state *st, const phase *ph)
{
    pattern_kind kind = ph->pattern.kind;
    int generator = kind == PATTERN_TIMESERIES || kind == PATTERN_ENTITIES ||
                    kind == PATTERN_SEQUENCE;
    st->ahead_on = AHEAD_DEPTH > 0 && ph->clients == 0 && generator &&
                   keyscheme_is_pure(st->scheme);
    st->ahead_head = st->ahead_n = 0; /* what the last phase fetched went with its pattern */
    st->ahead_cur = NULL;
    uint64_t regions = regionmap_count(st->table->map), want = AHEAD_MIN_REGIONS;
    st->ahead_splits = !st->ahead_on ? UINT64_MAX /* never due */
                       : st->table->splits + (want > regions ? want - regions : 0);
}

int engine_ahead_pull_ring(run_state *st, uint64_t *rel, record *rec)
{
    assert(st->ahead_n > 0);
    ahead_op *a = &st->ahead[st->ahead_head];
    st->ahead_head = (st->ahead_head + 1) & (AHEAD_RING - 1);
    st->ahead_n--;
    *rel = a->rel;
    *rec = a->rec;
    st->ahead_cur = a; /* its key stays put until the next fill: see engine_ahead_fill */
    return 1;
}

const uint8_t *engine_ahead_key_ring(const run_state *st, const record *rec, size_t *len,
                                    const cluster_ahead **route)
{
    const ahead_op *a = st->ahead_cur;
    *route = NULL;
    if (!a || !a->keyed || !record_equal(&a->keyed_rec, rec))
        return NULL;
    *len = a->len;
    if (a->routed)
        *route = &a->route;
    return a->key;
}

/* A write fetched ahead at distance d (the operation under way is 0): its
 * key as engine_op will encode it if the d - 1 operations before it run
 * first, and its route's cursor. */
static void ahead_encode(run_state *st, ahead_op *a, uint64_t d)
{
    a->keyed = 0;
    a->routed = 0;
    if (a->rec.op != RECORD_PUT && a->rec.op != RECORD_DELETE && a->rec.op != RECORD_RMW)
        return;
    a->keyed_rec = a->rec;
    a->keyed_rec.ts_ms = st->sc->start_ms + (st->phase_start_us + a->rel) / 1000;
    a->keyed_rec.seq = st->ops + d;
    a->len = keyencoder_encode(st->encoder, &a->keyed_rec, a->key, keyscheme_max_len(st->scheme));
    a->keyed = 1;
    if (a->len > KEY_MAX_LEN)
        return; /* engine_op refuses it: no route */
    cluster_ahead_start(&a->route, keyref_of(a->key, a->len));
    a->routed = 1;
}

void engine_ahead_fill(run_state *st)
{
    assert(engine_ahead_due(st));
    /* The ring holds the operation under way (ahead_cur, taken by
     * engine_ahead_pull) and up to AHEAD_DEPTH after it, in the slots
     * after the head: AHEAD_RING > AHEAD_DEPTH slots, so filling never overwrites
     * the key engine_op is about to use. */
    while (st->ahead_n < AHEAD_DEPTH) {
        ahead_op *a = &st->ahead[(st->ahead_head + st->ahead_n) & (AHEAD_RING - 1)];
        assert(a != st->ahead_cur);
        char unused[64]; /* generators write no message */
        int rc = pattern_next(st->workload, &a->rel, &a->rec, unused, sizeof unused);
        assert(rc == 1); /* generators never end or fail (pattern.h) */
        (void)rc;
        st->ahead_n++;
        ahead_encode(st, a, st->ahead_n);
    }
    for (unsigned i = 0; i < st->ahead_n; i++) {
        ahead_op *a = &st->ahead[(st->ahead_head + i) & (AHEAD_RING - 1)];
        if (a->routed)
            cluster_prefetch_write(st->table, keyref_of(a->key, a->len), &a->route);
    }
}
