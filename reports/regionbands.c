/* regionbands.c -- a run's regions as key x time bands. See regionbands.h.
 *
 * The region log (run_result.history) holds every region with its keys,
 * its life [opened, closed) and the server it had when it closed; the
 * timeline holds, in time order, every split (its key and server) and
 * every move or reassignment (the region's start key, from and to). The
 * bands come from replaying the timeline over the log:
 *
 *  - a region is live from its opening to its closing; the regions no
 *    split opened (the daughters of none) are live from the start;
 *  - a split at key K and time t closes the live region that ends where
 *    its daughter [K, end) ends, and opens that daughter and [start, K),
 *    both found in the log by their keys and opening time t;
 *  - a move or reassignment at t of the region starting at S ends the
 *    live region S's band (its server: the move's `from`) and starts the
 *    next; the region's last band ends at its closing, on the server of
 *    the split that closed it or, for a live one, its server at the end.
 *
 * A band's server is known when it ends, so the replay needs no server
 * for a region's start. Lookups go through the log bucketed by start key
 * (in opening order) and by end key (in closing order). The keys are
 * compared by their shell form, which is canonical (core/key.h), so equal
 * strings are equal keys: each distinct string is hashed to a dense id
 * once (the texts read and hashed a few lookups ahead: key_ids), and
 * parsed and placed on the axis once, so the buckets are a
 * counting sort (no string sort of millions of entries) and a lookup
 * compares integers. The first pass (which regions a split opened) keeps
 * each split's family for the second, which searches again only when
 * the parent it found is no longer live. Replaying a run of n regions and
 * e events costs O(n + e) hashing plus a binary search within a key's
 * bucket per lookup.
 * Following the timeline's order, not the events' times, settles events
 * at the same microsecond (a move just before a split of the same
 * region). An event that matches nothing (a hand-made run) is counted
 * and left out; a region it would have opened or closed gets a band over
 * its whole life on its last server.
 *
 * Working memory, for a run of n logged regions (about twice the regions
 * at its end) and as many keys and events as regions: per logged region
 * its two key ids (8 bytes), its entries in the two lookups (32), its
 * band's start (8), three flags and its band (48); per key the table
 * (about 50 bytes) and the lookups' offsets (16); per event its key id
 * (4), its family (12) and a split's place (16): some 300 bytes for each
 * region at the end of the run, 390 MB at 1.3 million (bands of 64 bytes
 * and families of 24 made it 360 bytes).
 *
 * Coarsening (regionbands_coarsen) bounds what a renderer draws: a run of
 * thousands of regions gives thousands of bands, most thinner than a
 * pixel; snapped to a pixel grid, the thin ones vanish into their
 * neighbours and side-by-side pieces on one server merge, and the grid
 * halves until at most max_bands remain, so a page stays a few hundred
 * kilobytes a map whatever the run.
 */
#include "reports/regionbands.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/key.h"
#include "reports/format.h"

/* ---- the key axis ---- */

typedef struct bytes {
    uint8_t *data;
    size_t len;
} bytes;

typedef struct key_axis {
    const keyspace_heatmap *ks;
    bytes *starts;          /* the buckets' first keys, parsed */
    bytes bottom, top;      /* the lowest and highest region boundaries, or len 0 */
} key_axis;

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10
         : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* s (shell form: \xNN escapes, other characters as themselves) as bytes.
 * The reports link no core code, so this is Bytes.toBytesBinary again,
 * lenient: a '\' not followed by two hex digits stands for itself. */
static bytes parse(const char *s)
{
    bytes b = { NULL, 0 };
    size_t len = s ? strlen(s) : 0;
    if (len == 0) return b;
    b.data = malloc(len);
    if (!b.data) report_out_of_memory();
    for (size_t i = 0; i < len; i++) {
        int hi, lo;
        if (s[i] == '\\' && s[i + 1] == 'x' && (hi = hex_digit(s[i + 2])) >= 0 &&
            (lo = hex_digit(s[i + 3])) >= 0) {
            b.data[b.len++] = (uint8_t)(hi << 4 | lo);
            i += 3;
        } else {
            b.data[b.len++] = (uint8_t)s[i];
        }
    }
    return b;
}

static keyref ref(bytes b) { return keyref_of(b.data, b.len); }

/* The axis over ks; it owns bottom and top (malloc'd, or len 0). */
static void axis_init(key_axis *ax, const keyspace_heatmap *ks, bytes bottom, bytes top)
{
    ax->ks = ks;
    ax->starts = calloc(ks->nbuckets ? ks->nbuckets : 1, sizeof *ax->starts);
    if (!ax->starts) report_out_of_memory();
    for (uint32_t b = 0; b < ks->nbuckets; b++) ax->starts[b] = parse(ks->bucket_start[b]);
    ax->bottom = bottom;
    ax->top = top;
}

static void axis_free(key_axis *ax)
{
    for (uint32_t b = 0; b < ax->ks->nbuckets; b++) free(ax->starts[b].data);
    free(ax->starts);
    free(ax->bottom.data);
    free(ax->top.data);
}

/* 8 bytes of k from byte `at` on (zeros past its end) as a number. */
static double word_at(bytes k, size_t at)
{
    uint64_t w = 0;
    for (size_t i = 0; i < 8; i++) w = w << 8 | (at + i < k.len ? k.data[at + i] : 0);
    return (double)w;
}

/* Where k sits between lo and hi (lo <= k <= hi), 0..1: the bytes past
 * the prefix lo and hi share, read as a number. */
static double between(bytes lo, bytes hi, bytes k)
{
    size_t c = 0;
    while (c < lo.len && c < hi.len && lo.data[c] == hi.data[c]) c++;
    double l = word_at(lo, c), h = word_at(hi, c), x = word_at(k, c);
    if (!(h > l)) return 0;
    double f = (x - l) / (h - l);
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

/* k's position on the axis; `end` says an empty k is the end (the top). */
static double axis_position(const key_axis *ax, bytes k, int end)
{
    uint32_t n = ax->ks->nbuckets;
    if (!k.len) return end ? n : 0;
    /* the last bucket whose first key is <= k */
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (key_compare(ref(ax->starts[mid]), ref(k)) <= 0) lo = mid;
        else hi = mid;
    }
    double pos;
    if (key_compare(ref(ax->starts[lo]), ref(k)) > 0) {
        pos = 0; /* before bucket 0's first key */
    } else {
        /* k in bucket lo: [a, b) of it spans the keys [from, to) */
        double a = 0, b = 1;
        bytes from = ax->starts[lo], to = { NULL, 0 };
        if (lo + 1 < n) to = ax->starts[lo + 1];
        else if (ax->top.len && key_compare(ref(ax->top), ref(from)) > 0) to = ax->top, b = 0.5;
        if (lo == 0 && from.len == 0 && ax->bottom.len &&
            (!to.len || key_compare(ref(ax->bottom), ref(to)) < 0)) {
            /* bucket 0 from the empty key: its lower half up to the lowest boundary */
            double mid = a + 0.5 * (b - a);
            if (key_compare(ref(k), ref(ax->bottom)) < 0) to = ax->bottom, b = mid;
            else from = ax->bottom, a = mid;
        }
        if (!to.len || key_compare(ref(k), ref(to)) > 0) pos = lo + (a + b) / 2;
        else pos = lo + a + (b - a) * between(from, to, k);
    }
    return pos;
}

double regionbands_key_position(const keyspace_heatmap *ks, const char *k, const char *bottom,
                                const char *top)
{
    if (ks->nbuckets == 0) return 0;
    key_axis ax;
    axis_init(&ax, ks, parse(bottom), parse(top));
    bytes key = parse(k);
    double pos = axis_position(&ax, key, 0);
    free(key.data);
    axis_free(&ax);
    return pos;
}

/* ---- the keys: each distinct text once, parsed once ---- */

#define NO_INDEX SIZE_MAX
#define NO_KEY UINT32_MAX

/* The texts of a run's keys by id (equal texts, equal ids), their bytes
 * and, once asked for, their axis positions: a run of n regions names
 * about n distinct keys thousands of times over, so each is hashed,
 * parsed and placed once. */
typedef struct keytab {
    uint32_t *slot;       /* open addressing by text hash: id + 1; 0 = empty */
    size_t mask;          /* slots - 1 */
    const char **text;    /* by id */
    size_t *at;           /* by id: where its bytes begin in `bytes`; at[n] = used */
    double *pos;          /* by id: its axis position, NAN until asked for */
    uint8_t *bytes;
    size_t used, bytes_cap;
    size_t cap;           /* of text, at and pos */
    uint32_t n;
} keytab;

static void *grow(void *p, size_t *cap, size_t want, size_t size)
{
    if (want <= *cap) return p;
    size_t c = *cap ? *cap : 64;
    while (c < want) c *= 2;
    p = c <= SIZE_MAX / size ? realloc(p, c * size) : NULL;
    if (!p) report_out_of_memory();
    *cap = c;
    return p;
}

static uint64_t text_hash(const char *s)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h ^ (h >> 29);
}

static void keytab_rehash(keytab *kt)
{
    size_t cap = kt->slot ? 2 * (kt->mask + 1) : 1024;
    uint32_t *slot = calloc(cap, sizeof *slot);
    if (!slot) report_out_of_memory();
    for (uint32_t id = 0; id < kt->n; id++) {
        size_t j = (size_t)text_hash(kt->text[id]) & (cap - 1);
        while (slot[j]) j = (j + 1) & (cap - 1);
        slot[j] = id + 1;
    }
    free(kt->slot);
    kt->slot = slot;
    kt->mask = cap - 1;
}

/* s's bytes appended to the table's (parse, without a copy of its own). */
static void keytab_parse(keytab *kt, const char *s)
{
    size_t len = strlen(s);
    kt->bytes = grow(kt->bytes, &kt->bytes_cap, kt->used + len, 1);
    bytes b = parse(s);
    if (b.len) memcpy(kt->bytes + kt->used, b.data, b.len);
    kt->used += b.len;
    free(b.data);
}

/* The id of text s (not NULL) of hash h (text_hash), added if new. */
static uint32_t key_id_hashed(keytab *kt, const char *s, uint64_t h)
{
    if (!kt->slot || ((size_t)kt->n + 1) * 2 > kt->mask + 1) keytab_rehash(kt);
    size_t j = (size_t)h & kt->mask;
    for (; kt->slot[j]; j = (j + 1) & kt->mask) {
        uint32_t id = kt->slot[j] - 1;
        if (kt->text[id] == s || strcmp(kt->text[id], s) == 0) return id;
    }
    assert(kt->n < NO_KEY);
    uint32_t id = kt->n;
    if ((size_t)id + 2 > kt->cap) {
        size_t cap = kt->cap ? 2 * kt->cap : 1024;
        kt->text = realloc(kt->text, cap * sizeof *kt->text);
        kt->pos = realloc(kt->pos, cap * sizeof *kt->pos);
        kt->at = realloc(kt->at, cap * sizeof *kt->at);
        if (!kt->text || !kt->pos || !kt->at) report_out_of_memory();
        kt->cap = cap;
    }
    kt->text[id] = s;
    kt->pos[id] = NAN;
    kt->at[id] = kt->used;
    keytab_parse(kt, s);
    kt->at[id + 1] = kt->used;
    kt->slot[j] = id + 1;
    kt->n++;
    return id;
}

/* The texts a run names, by number (0 .. n): a region's start (even) or
 * end (odd), or an event's key; NULL is "", NO_TEXT no key at all. */
typedef const char *(*text_fn)(const run_result *run, size_t j);
static const char NO_TEXT[] = "";

/* Texts a lookup reads ahead: text j + 2 * AHEAD is asked of memory,
 * j + AHEAD hashed (its slot asked) while j is looked up, so the misses
 * of a run's million keys (each text, then its slot) overlap. */
#define AHEAD 8

static const char *text_or_empty(const char *s) { return s ? s : ""; }

static uint64_t hash_of(const char *s) { return s == NO_TEXT ? 0 : text_hash(text_or_empty(s)); }

static void prefetch_text(const run_result *run, text_fn text, size_t j, size_t n)
{
    const char *s = j < n ? text(run, j) : NULL;
    if (s && s != NO_TEXT) __builtin_prefetch(s);
}

/* out[j % ways][j / ways] = the id of text j (NO_KEY for NO_TEXT), for
 * j < n, in order of j (ids are given in the order texts are first seen). */
static void key_ids(keytab *kt, const run_result *run, text_fn text, size_t n,
                    uint32_t *const *out, size_t ways)
{
    uint64_t h[AHEAD];
    for (size_t j = 0; j < AHEAD && j < n; j++) {
        h[j] = hash_of(text(run, j));
        prefetch_text(run, text, j + AHEAD, n);
    }
    for (size_t j = 0; j < n; j++) {
        const char *s = text(run, j);
        uint64_t hj = h[j % AHEAD];
        prefetch_text(run, text, j + 2 * AHEAD, n);
        if (j + AHEAD < n) {
            h[j % AHEAD] = hash_of(text(run, j + AHEAD));
            if (kt->slot) __builtin_prefetch(&kt->slot[h[j % AHEAD] & kt->mask]);
        }
        out[j % ways][j / ways] = s == NO_TEXT ? NO_KEY : key_id_hashed(kt, text_or_empty(s), hj);
    }
}

static bytes key_bytes(const keytab *kt, uint32_t id)
{
    /* no arena yet while every key so far was empty: NULL + 0 is undefined */
    return (bytes){ kt->bytes ? kt->bytes + kt->at[id] : NULL, kt->at[id + 1] - kt->at[id] };
}

static void keytab_free(keytab *kt)
{
    free(kt->slot);
    free(kt->text);
    free(kt->at);
    free(kt->pos);
    free(kt->bytes);
}

/* The lowest (highest, if `highest`) non-empty region boundary of the
 * run, among the ids of ids[0..n) (len 0 when none). */
static bytes extreme_boundary(const keytab *kt, const uint32_t *ids, size_t n, int highest)
{
    bytes best = { NULL, 0 };
    for (size_t i = 0; i < n; i++) {
        bytes k = key_bytes(kt, ids[i]);
        if (!k.len) continue;
        int c = best.len ? key_compare(ref(k), ref(best)) : 0;
        if (!best.len || (highest ? c > 0 : c < 0)) best = k;
    }
    return best;
}

/* A copy of b the axis owns. */
static bytes dup_bytes(bytes b)
{
    bytes out = { NULL, b.len };
    if (!b.len) return out;
    out.data = malloc(b.len);
    if (!out.data) report_out_of_memory();
    memcpy(out.data, b.data, b.len);
    return out;
}

/* ---- the replay ---- */

/* A region in a lookup order: its key (start or end) is the bucket it
 * is in; within one, by a time (its opening or its closing), then its
 * index. */
typedef struct entry {
    uint64_t t;
    size_t i;
} entry;

/* The regions by one of their keys: key id's regions are
 * idx[off[id] .. off[id + 1]), in (time, index) order. */
typedef struct key_index {
    entry *idx;
    size_t *off;
} key_index;

/* What the first pass found for a split event: its parent p and
 * daughters a = [start, K), b = [K, end), NO_INDEX where none. */
typedef struct family {
    size_t p, a, b;
} family;

/* A family as the first pass keeps it, for every event: 32-bit indices,
 * UINT32_MAX for NO_INDEX (12 bytes where a family is 24). */
typedef struct kept_family {
    uint32_t p, a, b;
} kept_family;

static uint32_t keep_index(size_t i) { return i == NO_INDEX ? UINT32_MAX : (uint32_t)i; }
static size_t kept_index(uint32_t i) { return i == UINT32_MAX ? NO_INDEX : i; }

typedef struct replay {
    const run_result *run;
    keytab keys;
    uint32_t *start_id, *end_id; /* by region */
    uint32_t *event_id;          /* by event: its key's (splits, moves, reassignments) */
    key_index by_start, by_end;  /* (start, opened), (end, closed) */
    kept_family *fam;            /* by event: the first pass' finding for a split */
    uint64_t *since;             /* when the region's current band began */
    unsigned char *live, *daughter, *done;
    region_bands *out;
    size_t cap, splits_cap;
    key_axis axis;
} replay;

static int cmp_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

static int entry_cmp(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    int c = cmp_u64(a->t, b->t);
    return c ? c : cmp_u64(a->i, b->i);
}

static void *zalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) report_out_of_memory();
    return p;
}

/* The regions bucketed by id[i] (a counting sort: the ids are dense),
 * each bucket in (t[i], i) order. */
static key_index index_by(const uint32_t *id, size_t n, uint32_t nkeys,
                          const region_result *h, int by_closing)
{
    key_index x = { zalloc(n, sizeof *x.idx), zalloc((size_t)nkeys + 1, sizeof *x.off) };
    for (size_t i = 0; i < n; i++) x.off[id[i] + 1]++;
    for (uint32_t k = 0; k < nkeys; k++) x.off[k + 1] += x.off[k];
    size_t *fill = zalloc(nkeys, sizeof *fill);
    for (size_t i = 0; i < n; i++) {
        uint64_t t = by_closing ? h[i].closed_us : h[i].opened_us;
        x.idx[x.off[id[i]] + fill[id[i]]++] = (entry){ t, i };
    }
    free(fill);
    for (uint32_t k = 0; k < nkeys; k++) {
        entry *b = x.idx + x.off[k];
        size_t m = x.off[k + 1] - x.off[k];
        if (m > 16) {
            qsort(b, m, sizeof *b, entry_cmp);
            continue;
        }
        for (size_t j = 1; j < m; j++) { /* the bucket is in index order: stable on t */
            entry e = b[j];
            size_t at = j;
            for (; at > 0 && b[at - 1].t > e.t; at--) b[at] = b[at - 1];
            b[at] = e;
        }
    }
    return x;
}

static void index_free(key_index *x)
{
    free(x->idx);
    free(x->off);
}

/* The first entry of key k's bucket at time t or after, and the bucket's end. */
static const entry *bucket_from(const key_index *x, uint32_t k, uint64_t t, const entry **end)
{
    const entry *b = x->idx + x->off[k];
    size_t lo = 0, hi = x->off[k + 1] - x->off[k];
    *end = b + hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b[mid].t < t) lo = mid + 1;
        else hi = mid;
    }
    return b + lo;
}

/* The region with start key k opened at t (and, unless end is NO_KEY,
 * that end key), or NO_INDEX. */
static size_t find_opened(const replay *r, uint32_t k, uint64_t t, uint32_t end)
{
    const entry *stop, *x = bucket_from(&r->by_start, k, t, &stop);
    for (; x < stop && x->t == t; x++)
        if (end == NO_KEY || r->end_id[x->i] == end) return x->i;
    return NO_INDEX;
}

/* The live region with start key k, or NO_INDEX. */
static size_t find_live(const replay *r, uint32_t k)
{
    const entry *stop, *x = bucket_from(&r->by_start, k, 0, &stop);
    for (; x < stop; x++)
        if (r->live[x->i]) return x->i;
    return NO_INDEX;
}

/* Key id's position on the axis; `end` says an empty key is the end. */
static double position_of(replay *r, uint32_t id, int end)
{
    bytes k = key_bytes(&r->keys, id);
    if (!k.len) return axis_position(&r->axis, k, end);
    if (isnan(r->keys.pos[id])) r->keys.pos[id] = axis_position(&r->axis, k, end);
    return r->keys.pos[id];
}

/* Region i's band from its `since` to t on server, if not empty. */
static void emit(replay *r, size_t i, uint64_t t, uint32_t server)
{
    uint64_t t0 = r->since[i];
    r->since[i] = t;
    if (t <= t0) return;
    region_bands *b = r->out;
    if (b->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        region_band *p = cap <= SIZE_MAX / sizeof *p ? realloc(b->band, cap * sizeof *p) : NULL;
        if (!p) report_out_of_memory();
        b->band = p;
        r->cap = cap;
    }
    b->band[b->n++] = (region_band){ .key_lo = position_of(r, r->start_id[i], 0),
                                     .key_hi = position_of(r, r->end_id[i], 1), .t0_us = t0,
                                     .t1_us = t, .server = server, .regions = 1,
                                     .first = (uint32_t)i, .last = (uint32_t)i };
}

static void add_split(replay *r, double key, uint64_t t)
{
    region_bands *b = r->out;
    if (b->nsplits == r->splits_cap) {
        size_t cap = r->splits_cap ? 2 * r->splits_cap : 64;
        region_split *p = cap <= SIZE_MAX / sizeof *p ? realloc(b->split, cap * sizeof *p) : NULL;
        if (!p) report_out_of_memory();
        b->split = p;
        r->splits_cap = cap;
    }
    b->split[b->nsplits++] = (region_split){ key, t };
}

/* The family of split event e (see `family`), the parent a live one if
 * need_live; 1 if all three are in the log. */
static int split_family(const replay *r, size_t e, int need_live, family *f)
{
    uint32_t k = r->event_id[e];
    uint64_t t = r->run->events[e].t_us;
    f->p = f->a = NO_INDEX;
    f->b = find_opened(r, k, t, NO_KEY);
    if (f->b == NO_INDEX) return 0;
    const entry *stop, *x = bucket_from(&r->by_end, r->end_id[f->b], t, &stop);
    for (; x < stop && x->t == t; x++) {
        if (r->run->history[x->i].split && (!need_live || r->live[x->i]) && x->i != f->b) {
            f->p = x->i;
            break;
        }
    }
    if (f->p == NO_INDEX) return 0;
    f->a = find_opened(r, r->start_id[f->p], t, k);
    return f->a != NO_INDEX;
}

/* Split event e's family with a live parent: the first pass' finding
 * when its parent is live (the first candidate qualifies for both
 * searches, so both find it), else a search again. */
static int live_family(const replay *r, size_t e, family *f)
{
    kept_family k = r->fam[e];
    *f = (family){ kept_index(k.p), kept_index(k.a), kept_index(k.b) };
    if (f->b == NO_INDEX || f->p == NO_INDEX) return 0;
    if (r->live[f->p]) return f->a != NO_INDEX;
    return split_family(r, e, 1, f);
}

static int names_region(const timeline_event *ev)
{
    return ev->kind == TIMELINE_SPLIT ||
           ((ev->kind == TIMELINE_MOVE || ev->kind == TIMELINE_REASSIGN) && !ev->meta);
}

static const char *bound_text(const run_result *run, size_t j)
{
    const region_result *h = &run->history[j / 2];
    return j % 2 ? h->end : h->start;
}

static const char *event_text(const run_result *run, size_t e)
{
    return names_region(&run->events[e]) ? run->events[e].key : NO_TEXT;
}

static void replay_keys(replay *r)
{
    const run_result *run = r->run;
    size_t n = run->nhistory;
    r->start_id = zalloc(n, sizeof *r->start_id);
    r->end_id = zalloc(n, sizeof *r->end_id);
    r->event_id = zalloc(run->nevents, sizeof *r->event_id);
    /* the bounds in order (start, end, start, ...), then the events' keys */
    uint32_t *const bounds[2] = { r->start_id, r->end_id };
    key_ids(&r->keys, run, bound_text, 2 * n, bounds, 2);
    key_ids(&r->keys, run, event_text, run->nevents, &r->event_id, 1);
    r->by_start = index_by(r->start_id, n, r->keys.n, run->history, 0);
    r->by_end = index_by(r->end_id, n, r->keys.n, run->history, 1);
}

region_bands regionbands_of(const run_result *run)
{
    region_bands out = { NULL, 0, NULL, 0, run->keyspace.nbuckets, 0 };
    size_t n = run->nhistory;
    if (run->keyspace.nbuckets == 0 || n == 0) return out;
    assert(n <= UINT32_MAX); /* a band names its regions in 32 bits */
    replay r = { .run = run, .out = &out };
    replay_keys(&r);
    r.fam = zalloc(run->nevents, sizeof *r.fam);
    r.since = zalloc(n, sizeof *r.since);
    r.live = zalloc(n, 1);
    r.daughter = zalloc(n, 1);
    r.done = zalloc(n, 1);
    axis_init(&r.axis, &run->keyspace,
              dup_bytes(extreme_boundary(&r.keys, r.start_id, n, 0)),
              dup_bytes(extreme_boundary(&r.keys, r.end_id, n, 1)));

    /* Which regions a split opened: the others are there from the start. */
    for (size_t e = 0; e < run->nevents; e++) {
        if (run->events[e].kind != TIMELINE_SPLIT) continue;
        family f;
        int found = split_family(&r, e, 0, &f);
        r.fam[e] = (kept_family){ keep_index(f.p), keep_index(f.a), keep_index(f.b) };
        if (found) r.daughter[f.a] = r.daughter[f.b] = 1;
    }
    for (size_t i = 0; i < n; i++) {
        r.live[i] = !r.daughter[i];
        r.since[i] = run->history[i].opened_us;
    }

    for (size_t e = 0; e < run->nevents; e++) {
        const timeline_event *ev = &run->events[e];
        if (ev->kind == TIMELINE_SPLIT) {
            family f;
            if (!live_family(&r, e, &f) || r.live[f.a] || r.live[f.b]) {
                out.unmatched++;
                continue;
            }
            emit(&r, f.p, ev->t_us, ev->from);
            add_split(&r, position_of(&r, r.event_id[e], 0), ev->t_us);
            r.live[f.p] = 0;
            r.done[f.p] = 1;
            r.live[f.a] = r.live[f.b] = 1;
            r.since[f.a] = r.since[f.b] = ev->t_us;
        } else if (names_region(ev)) {
            size_t i = find_live(&r, r.event_id[e]); /* hbase:meta is no region of the map */
            if (i == NO_INDEX) {
                out.unmatched++;
                continue;
            }
            emit(&r, i, ev->t_us, ev->from);
        }
    }
    /* The live regions' last bands; a region the replay never reached (an
     * event of a hand-made run that matched nothing) gets its whole life. */
    for (size_t i = 0; i < n; i++) {
        const region_result *h = &run->history[i];
        if (r.done[i]) continue;
        if (!r.live[i]) r.since[i] = h->opened_us;
        emit(&r, i, h->closed_us, h->server);
    }
    axis_free(&r.axis);
    keytab_free(&r.keys);
    free(r.start_id);
    free(r.end_id);
    free(r.event_id);
    index_free(&r.by_start);
    index_free(&r.by_end);
    free(r.fam);
    free(r.since);
    free(r.live);
    free(r.daughter);
    free(r.done);
    return out;
}

/* ---- coarsening ---- */

/* Side-by-side bands merge only when one is thinner than this many grid
 * cells: wider ones stay apart, so the line between two daughters that
 * stay together on one server still shows their split. */
#define THIN_CELLS 3

static int cmp_double(double a, double b) { return (a > b) - (a < b); }

/* Same time span and server, then key: candidates for a merge across keys. */
static int by_time_cmp(const void *pa, const void *pb)
{
    const region_band *a = pa, *b = pb;
    int c = cmp_u64(a->t0_us, b->t0_us);
    if (!c) c = cmp_u64(a->t1_us, b->t1_us);
    if (!c) c = cmp_u64(a->server, b->server);
    if (!c) c = cmp_double(a->key_lo, b->key_lo);
    return c;
}

/* Same keys and server, then time: candidates for a merge across time. */
static int by_keys_cmp(const void *pa, const void *pb)
{
    const region_band *a = pa, *b = pb;
    int c = cmp_double(a->key_lo, b->key_lo);
    if (!c) c = cmp_double(a->key_hi, b->key_hi);
    if (!c) c = cmp_u64(a->server, b->server);
    if (!c) c = cmp_u64(a->t0_us, b->t0_us);
    return c;
}

/* The final order: by server, then time, then key. */
static int by_server_cmp(const void *pa, const void *pb)
{
    const region_band *a = pa, *b = pb;
    int c = cmp_u64(a->server, b->server);
    if (!c) c = cmp_u64(a->t0_us, b->t0_us);
    if (!c) c = cmp_double(a->key_lo, b->key_lo);
    if (!c) c = cmp_double(a->key_hi, b->key_hi);
    return c;
}

static double snap_key(double y, double axis, uint32_t cells)
{
    return round(y / axis * cells) * axis / cells;
}

static uint64_t snap_time(uint64_t t, uint64_t span, uint32_t cells)
{
    if (t >= span) return span;
    double step = (double)span / cells;
    uint64_t s = (uint64_t)llround(round((double)t / step) * step);
    return s > span ? span : s;
}

/* Snaps src[0..n) into dst and merges; returns the bands left. */
static size_t coarsen_once(const region_band *src, size_t n, region_band *dst, double axis,
                           uint32_t key_cells, uint64_t span, uint32_t time_cells)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        region_band b = src[i];
        b.key_lo = snap_key(b.key_lo, axis, key_cells);
        b.key_hi = snap_key(b.key_hi, axis, key_cells);
        b.t0_us = snap_time(b.t0_us, span, time_cells);
        b.t1_us = snap_time(b.t1_us, span, time_cells);
        if (b.key_hi > b.key_lo && b.t1_us > b.t0_us) dst[m++] = b;
    }
    qsort(dst, m, sizeof *dst, by_time_cmp);
    double thin = THIN_CELLS * axis / key_cells;
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        region_band *last = k ? &dst[k - 1] : NULL;
        if (last && last->t0_us == dst[i].t0_us && last->t1_us == dst[i].t1_us &&
            last->server == dst[i].server && last->key_hi == dst[i].key_lo &&
            (last->key_hi - last->key_lo < thin || dst[i].key_hi - dst[i].key_lo < thin)) {
            last->key_hi = dst[i].key_hi;
            last->last = dst[i].last;
            last->regions += dst[i].regions;
        } else {
            dst[k++] = dst[i];
        }
    }
    qsort(dst, k, sizeof *dst, by_keys_cmp);
    m = 0;
    for (size_t i = 0; i < k; i++) {
        region_band *last = m ? &dst[m - 1] : NULL;
        if (last && last->key_lo == dst[i].key_lo && last->key_hi == dst[i].key_hi &&
            last->server == dst[i].server && last->t1_us == dst[i].t0_us) {
            last->t1_us = dst[i].t1_us;
            if (dst[i].regions > last->regions) last->regions = dst[i].regions;
        } else {
            dst[m++] = dst[i];
        }
    }
    return m;
}

void regionbands_coarsen(region_bands *b, uint32_t key_cells, uint64_t span_us,
                         uint32_t time_cells, size_t max_bands)
{
    if (b->n == 0 || b->axis <= 0) return;
    assert(key_cells > 0 && time_cells > 0 && span_us > 0);
    region_band *dst = malloc(b->n * sizeof *dst);
    if (!dst) report_out_of_memory();
    size_t m;
    for (;;) {
        m = coarsen_once(b->band, b->n, dst, b->axis, key_cells, span_us, time_cells);
        if (m <= max_bands || (key_cells == 1 && time_cells == 1)) break;
        key_cells = key_cells > 1 ? key_cells / 2 : 1;
        time_cells = time_cells > 1 ? time_cells / 2 : 1;
    }
    qsort(dst, m, sizeof *dst, by_server_cmp);
    free(b->band);
    b->band = dst;
    b->n = m;
}

long regionbands_server_at(const region_bands *b, double y, uint64_t t_us)
{
    for (size_t i = 0; i < b->n; i++) {
        const region_band *x = &b->band[i];
        if (x->key_lo <= y && y < x->key_hi && x->t0_us <= t_us && t_us < x->t1_us)
            return x->server;
    }
    return -1;
}

void regionbands_free(region_bands *b)
{
    free(b->band);
    free(b->split);
    b->band = NULL;
    b->split = NULL;
    b->n = b->nsplits = 0;
}
