/* store_count.c -- counting an exact store's rows in a range between puts.
 *
 * Counts (store_count_range) do not merge into main: with keys out of
 * order and a count every few puts (scans), merging the few new puts each
 * time moved most of main per count, which is quadratic (md5 keys with 10%
 * reads ran 70x slower than without). A count first settles the tail: sort
 * it, fold its equal keys, fold each key already in main or in a run into
 * that row or entry, and push what is left as a new run. Runs are then
 * merged pairwise from the top, in place, while the top one is at least
 * half as long as the one below (sizes stay more than doubling: O(log
 * pending) runs, each entry moved O(log pending) times). The parts being
 * disjoint, rows in [lo, hi) are the sum of two binary searches in main and
 * in each run (the end of a range by galloping from its start: scans are
 * short); a range holding every key (a scan across the whole region, the
 * common case) costs four compares with the ends of main and of the runs,
 * whose prefixes the store's extension keeps (main's taken again when rows
 * change). A store of fewer than SMALL_ROWS rows with nothing pending has
 * no extension (store_exact.c) and makes none to be counted: its main is
 * searched without hints and its ends read; a count of a bigger store
 * makes one, for the hints and ends, if it has none yet.
 *
 * Is a tail key new? Searching main and every run costs some 30 cache
 * misses, and nearly every key is new (time series write new rows). So a
 * store of FILTER_MIN_KEYS keys or more, once counted, keeps a split block
 * Bloom filter of the keys of main and the runs: FILTER_BITS a key when
 * built, rebuilt from main and the runs once past FILTER_MIN_BITS a key as
 * the store grows, freed by a split (each half builds its own when
 * counted). One cache line answers "new" for all but 1-3% of new keys; the
 * rest, and keys put again, are searched (galloping forward through main
 * and each run when the tail is large: the sorted tail ascends). A store
 * never counted has no filter and never settles: its puts and merges are
 * as they were. A store counted (rows + pending) / IDLE_READ_ROWS times
 * with no put in between is taken as idle: the count merges pending into
 * main and frees the pending buffers and the filter.
 */
#include "core/store_exact.h"

/* ---- runs: reads without merging into main ------------------------------ */

static size_t run_start(const exact_ext *x, size_t j)
{
    return j ? x->run_end[j - 1] : 0;
}

static size_t run_len(const exact_ext *x, size_t j)
{
    return x->run_end[j] - run_start(x, j);
}

/* <0, 0, >0 as pending entry i sorts before, equal to, after key k. */
static inline int entry_compare(const exact_store *s, size_t i, const pkey *k)
{
    const pend *e = &s->x->pe[i];
    return pkey_compare(e->prefix, s->x->pk + e->off, e->len, k);
}

/* Merges the top two runs into one, in place: the upper run moves to the
 * scratch half, then both merge from the back, so entries of the lower run
 * below the upper run's first key do not move. Runs are disjoint: no equal
 * keys to fold. */
static void merge_top_runs(exact_ext *x)
{
    assert(x->nruns >= 2);
    size_t a = run_start(x, x->nruns - 2), i = x->run_end[x->nruns - 2];
    size_t e = x->run_end[x->nruns - 1], j = e - i, w = e;
    pend *up = x->pe + x->pe_cap, *pe = x->pe;
    memcpy(up, pe + i, j * sizeof *up);
    while (j > 0 && i > a) /* w == i + j */
        pe[--w] = pend_compare(x->pk, &pe[i - 1], &up[j - 1]) > 0 ? pe[--i] : up[--j];
    memcpy(pe + a, up, j * sizeof *up); /* if the lower run ran out */
    x->run_end[x->nruns - 2] = e;
    x->nruns--;
}

#ifndef NDEBUG
/* The run stack's shape, and order at the ends of each run. */
static int runs_ok(const exact_ext *x)
{
    if (x->nsorted != (x->nruns ? x->run_end[x->nruns - 1] : 0) ||
        x->nsorted > x->npend || x->nruns > RUNS_MAX)
        return 0;
    for (size_t j = 0; j < x->nruns; j++) {
        size_t a = run_start(x, j), e = x->run_end[j];
        if (e <= a || (j && 2 * run_len(x, j) >= run_len(x, j - 1)))
            return 0;
        if (e - a >= 2 && (pend_compare(x->pk, &x->pe[a], &x->pe[a + 1]) >= 0 ||
                           pend_compare(x->pk, &x->pe[e - 2], &x->pe[e - 1]) >= 0))
            return 0;
    }
    return 1;
}
#endif

/* Makes pe[nsorted..npend) (sorted, disjoint from main and the runs) the
 * top run, then merges the top two runs while the top one is at least half
 * as long as the one below (or there are RUNS_MAX runs): run sizes stay
 * more than doubling downwards. */
static void push_run(exact_ext *x)
{
    if (x->npend > x->nsorted) {
        assert(x->nruns < RUNS_MAX);
        const pend *first = &x->pe[x->nsorted], *last = &x->pe[x->npend - 1];
        if (x->nruns == 0 || pend_compare(x->pk, first, &x->runs_min) < 0)
            x->runs_min = *first;
        if (x->nruns == 0 || pend_compare(x->pk, last, &x->runs_max) > 0)
            x->runs_max = *last;
        x->run_end[x->nruns++] = (uint32_t)x->npend;
    }
    x->nsorted = x->npend;
    while (x->nruns >= 2 &&
           (2 * run_len(x, x->nruns - 1) >= run_len(x, x->nruns - 2) ||
            x->nruns == RUNS_MAX))
        merge_top_runs(x);
    x->pend_sorted = x->nruns <= 1; /* no tail: one run is all of pending */
    assert(runs_ok(x));
}

/* If e's key is a row of main or an entry of a run, adds e's bytes there
 * and returns 1; else 0. e is one of n keys looked up in ascending order:
 * from[0] (main) and from[1 + j] (run j) are where the search for the key
 * before ended, and where this one starts. */
static int fold_into_older(exact_store *s, const pend *e, size_t n, size_t *from)
{
    exact_ext *x = s->x;
    pkey k = { x->pk + e->off, e->len, e->prefix };
    size_t r = from[0] = search_from(s, row_at_compare, from[0], s->rows, &k, n);
    if (r < s->rows && row_compare(s, r, &k) == 0) {
        add_row_bytes(s, r, e->bytes);
        return 1;
    }
    for (size_t j = 0; j < x->nruns; j++) {
        size_t end = x->run_end[j];
        size_t i = from[1 + j] = search_from(s, entry_compare, from[1 + j], end, &k, n);
        if (i < end && entry_compare(s, i, &k) == 0) {
            x->pe[i].bytes = add_saturating(x->pe[i].bytes, e->bytes);
            return 1;
        }
    }
    return 0;
}

/* Before settling `more` tail entries: (re)builds the filter over main and
 * the runs once the store is big enough and the filter missing or too full,
 * at FILTER_BITS a key for them and the tail. The filter only saves
 * searches: if memory is short, the old one (correct, only fuller) or none
 * is kept. */
static void filter_refresh(exact_store *s, size_t more)
{
    exact_ext *x = s->x;
    size_t keys = s->rows + x->nsorted + more;
    if (keys < FILTER_MIN_KEYS ||
        (x->filter && (x->filter_keys + more) * FILTER_MIN_BITS <= x->filter_blocks * 256))
        return;
    size_t blocks = keys / (256 / FILTER_BITS) + 1;
    if (blocks > UINT32_MAX) /* filter_block maps a 32-bit hash */
        blocks = UINT32_MAX;
    uint32_t *f = calloc(blocks, 8 * sizeof *f);
    if (!f)
        return;
    filter_free(x);
    x->filter = f;
    x->filter_blocks = blocks;
    const uint8_t *p = s->rec;
    for (size_t r = 0; r < s->rows; r++, p += rec_size_at(p))
        filter_add(x, p + REC_HDR, rd16(p));
    for (size_t i = 0; i < x->nsorted; i++)
        filter_add(x, x->pk + x->pe[i].off, x->pe[i].len);
}

/* The filter hash of e's key, its filter line fetched for a test to come
 * (0 and nothing fetched with no filter). */
static uint64_t entry_hash(const exact_ext *x, const pend *e)
{
    if (!x->filter)
        return 0;
    uint64_t h = key_hash(x->pk + e->off, e->len);
    prefetch(filter_block(x, h));
    return h;
}

/* Before a count: sorts the tail, folds its equal keys and the keys
 * already in main or in a run, and pushes the rest as a run. May build the
 * filter; allocates nothing else. */
static void settle_tail(exact_store *s)
{
    exact_ext *x = s->x;
    size_t n = x->npend - x->nsorted;
    if (n == 0)
        return;
    filter_refresh(s, n);
    pend *tail = x->pe + x->nsorted;
    const pend *sorted = exact_sort_entries(x->pk, tail, n, x->pe + x->pe_cap + x->nsorted);
    size_t from[RUNS_MAX + 1] = { 0 };
    for (size_t j = 0; j < x->nruns; j++)
        from[1 + j] = run_start(x, j);
    uint64_t hash[FILTER_AHEAD]; /* of the entries ahead, lines fetched */
    for (size_t i = 0; i < n && i < FILTER_AHEAD; i++)
        hash[i] = entry_hash(x, &sorted[i]);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const pend *e = &sorted[i];
        uint64_t h = hash[i % FILTER_AHEAD];
        if (i + FILTER_AHEAD < n)
            hash[i % FILTER_AHEAD] = entry_hash(x, &sorted[i + FILTER_AHEAD]);
        if (k && pend_compare(x->pk, &tail[k - 1], e) == 0) {
            tail[k - 1].bytes = add_saturating(tail[k - 1].bytes, e->bytes);
        } else if (!filter_may_hold(x, h) || !fold_into_older(s, e, n, from)) {
            filter_set(x, h);
            tail[k++] = *e;
            continue;
        }
        x->pend_rec -= REC_HDR + e->len; /* its room in main stays reserved */
    }
    x->npend = x->nsorted + k;
    push_run(x);
}

/* Whether [from, to) (to NULL: unbounded) holds the smallest and the
 * largest key of the runs (x has runs). */
static int runs_cover(const exact_ext *x, const pkey *from, const pkey *to)
{
    const pend *lo = &x->runs_min, *hi = &x->runs_max;
    return pkey_compare(lo->prefix, x->pk + lo->off, lo->len, from) >= 0 &&
           (!to || pkey_compare(hi->prefix, x->pk + hi->off, hi->len, to) < 0);
}

/* Whether [from, to) (to NULL: unbounded) holds every row of main and
 * every entry of the runs: the common count, a scan over a whole region.
 * Main's first and last prefixes are kept in the extension (x; taken
 * again when rows change); without one (a small store) they are read. */
static int covers_all(exact_store *s, exact_ext *x, const pkey *from, const pkey *to)
{
    if (!s->rows)
        return !x || !x->nruns || runs_cover(x, from, to);
    uint64_t first, last;
    if (x) {
        if (x->ends_rows != s->rows) { /* main's ends changed */
            const uint8_t *f = s->rec, *l = s->rec + s->idx[s->rows - 1];
            x->first_prefix = key_prefix(f + REC_HDR, rd16(f));
            x->last_prefix = key_prefix(l + REC_HDR, rd16(l));
            x->ends_rows = s->rows;
        }
        first = x->first_prefix;
        last = x->last_prefix;
    } else {
        const uint8_t *f = s->rec, *l = s->rec + s->idx[s->rows - 1];
        first = key_prefix(f + REC_HDR, rd16(f));
        last = key_prefix(l + REC_HDR, rd16(l));
    }
    /* Prefixes decide most bounds without reading main (cache misses). */
    if (from->prefix > first || (from->prefix == first && row_compare(s, 0, from) < 0))
        return 0;
    if (to && (to->prefix < last ||
               (to->prefix == last && row_compare(s, s->rows - 1, to) >= 0)))
        return 0;
    return !x || !x->nruns || runs_cover(x, from, to);
}

/* First element of [lo, hi) >= k (hi if none), searched near the rows
 * where recent counts' lower bounds were (x->count_hint: reads of one
 * kind ask for bounds that move little from one read to the next, and a
 * region may serve a few kinds). Each hint is compared with k (lines a
 * recent search touched): the nearest below and at-or-above bracket the
 * answer, and the search gallops inwards from both ends of the bracket at
 * once, then halves what is left: O(K + log distance) compares from the
 * nearer hint, never more than K + 2 log n. The hint nearest the answer
 * moves to it; an answer far from every hint replaces one in turn. */
#define HINT_NEAR 64 /* rows: an answer this near a hint moves it */
static size_t lower_bound_hinted(exact_store *s, size_t lo, size_t hi, const pkey *k)
{
    exact_ext *x = s->x;
    size_t a = lo, b = hi; /* [lo, a) < k, [b, hi) >= k */
    int below = -1, above = -1;
    for (int i = 0; i < COUNT_HINTS; i++) {
        size_t h = x->count_hint[i];
        if (h < a || h >= b)
            continue;
        if (row_compare(s, h, k) < 0) {
            a = h + 1;
            below = i;
        } else {
            b = h;
            above = i;
        }
    }
    for (size_t step = 1; b - a > 2 * step; step *= 2) {
        if (row_compare(s, a + step - 1, k) >= 0) {
            b = a + step - 1;
            break;
        }
        a += step;
        if (row_compare(s, b - step, k) < 0) {
            a = b - step + 1;
            break;
        }
        b -= step;
    }
    size_t r = lower_bound_in(s, row_at_compare, a, b, k);
    size_t from_below = below >= 0 ? r - x->count_hint[below] : SIZE_MAX;
    size_t from_above = above >= 0 ? x->count_hint[above] - r : SIZE_MAX;
    int near = from_below <= from_above ? below : above;
    if (near < 0 || (from_below > HINT_NEAR && from_above > HINT_NEAR)) {
        near = (int)x->count_victim;
        x->count_victim = (x->count_victim + 1) % COUNT_HINTS;
    }
    if (r <= UINT32_MAX)
        x->count_hint[near] = (uint32_t)r;
    return r;
}

/* Entries or rows in [lo, hi) of an ascending range that are >= from and,
 * if to is not NULL, < to; main's (hinted: the store has an extension) is
 * searched near recent counts' lower bounds. A bound outside the range costs one compare (scans cover
 * most regions whole). */
static size_t count_between(exact_store *s, at_compare cmp, size_t lo, size_t hi,
                            const pkey *from, const pkey *to, int hinted)
{
    size_t a = lo;
    if (lo < hi && cmp(s, lo, from) < 0)
        a = hinted ? lower_bound_hinted(s, lo + 1, hi, from)
                   : lower_bound_in(s, cmp, lo + 1, hi, from);
    size_t b = hi;
    if (to && a < hi && cmp(s, hi - 1, to) >= 0)
        b = gallop_forward(s, cmp, a, hi, to); /* scans are short */
    return b - a;
}

uint64_t exact_count_range(exact_store *s, keyref lo, keyref hi)
{
    /* A store past SMALL_ROWS is worth the hints and ends; without memory
     * for them it counts without (x stays NULL). */
    exact_ext *x = s->rows >= SMALL_ROWS ? exact_ext_get(s) : s->x;
    if (x) {
        if (x->idle_cells != s->cells) { /* puts since the last count */
            x->idle_cells = s->cells;
            x->idle_reads = 0;
        }
        if (x->npend && ++x->idle_reads * IDLE_READ_ROWS >= s->rows + x->npend) {
            exact_merge_pending(s); /* not written for a while: compact it */
            filter_free(x);
        }
        settle_tail(s);
    }
    size_t npend = pending_of(s);
    if (lo.len == 0 && hi.len == 0) /* every row (a region scanned whole) */
        return s->rows + npend;
    pkey from = pkey_of(lo.data, lo.len), to = pkey_of(hi.data, hi.len);
    const pkey *upto = hi.len ? &to : NULL;
    if (covers_all(s, x, &from, upto))
        return s->rows + npend;
    uint64_t n = count_between(s, row_at_compare, 0, s->rows, &from, upto, x != NULL);
    for (size_t j = 0; x && j < x->nruns; j++)
        n += count_between(s, entry_compare, run_start(x, j), x->run_end[j], &from, upto, 0);
    return n;
}
