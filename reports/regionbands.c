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
 * for a region's start. Lookups go through the log sorted by (start key,
 * opening) and by (end key, closing), by their shell form, which is
 * canonical (core/key.h), so equal strings are equal keys: O(log n) each, and
 * replaying a run of n regions and e events costs O((n + e) log n).
 * Following the timeline's order, not the events' times, settles events
 * at the same microsecond (a move just before a split of the same
 * region). An event that matches nothing (a hand-made run) is counted
 * and left out; a region it would have opened or closed gets a band over
 * its whole life on its last server.
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

static void axis_init(key_axis *ax, const keyspace_heatmap *ks, const char *bottom,
                      const char *top)
{
    ax->ks = ks;
    ax->starts = calloc(ks->nbuckets ? ks->nbuckets : 1, sizeof *ax->starts);
    if (!ax->starts) report_out_of_memory();
    for (uint32_t b = 0; b < ks->nbuckets; b++) ax->starts[b] = parse(ks->bucket_start[b]);
    ax->bottom = parse(bottom);
    ax->top = parse(top);
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
static double axis_position(const key_axis *ax, const char *text, int end)
{
    uint32_t n = ax->ks->nbuckets;
    if (!text || !text[0]) return end ? n : 0;
    bytes k = parse(text);
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
    free(k.data);
    return pos;
}

double regionbands_key_position(const keyspace_heatmap *ks, const char *k, const char *bottom,
                                const char *top)
{
    if (ks->nbuckets == 0) return 0;
    key_axis ax;
    axis_init(&ax, ks, bottom, top);
    double pos = axis_position(&ax, k, 0);
    axis_free(&ax);
    return pos;
}

/* The lowest (highest, if `highest`) non-empty region boundary of the
 * run ("" when none). */
static const char *extreme_boundary(const run_result *run, int highest)
{
    const char *found = "";
    bytes best = { NULL, 0 };
    for (size_t i = 0; i < run->nhistory; i++) {
        const char *e = highest ? run->history[i].end : run->history[i].start;
        if (!e || !e[0]) continue;
        bytes k = parse(e);
        int c = best.data ? key_compare(ref(k), ref(best)) : 0;
        if (!best.data || (highest ? c > 0 : c < 0)) {
            free(best.data);
            best = k;
            found = e;
        } else {
            free(k.data);
        }
    }
    free(best.data);
    return found;
}

/* ---- the replay ---- */

/* A region in a lookup order: by a key (its start or its end), then a
 * time (its opening or its closing), then its index. */
typedef struct entry {
    const char *key;
    uint64_t t;
    size_t i;
} entry;

typedef struct replay {
    const run_result *run;
    entry *by_start, *by_end;  /* (start, opened), (end, closed) */
    uint64_t *since;           /* when the region's current band began */
    unsigned char *live, *daughter, *done;
    region_bands *out;
    size_t cap, splits_cap;
    key_axis axis;
} replay;

static const char *str(const char *s) { return s ? s : ""; }

static int cmp_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

static int entry_cmp(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    if (!c) c = cmp_u64(a->t, b->t);
    return c ? c : cmp_u64(a->i, b->i);
}

/* The first position in idx whose entry is (k, t) or after. */
static size_t lower_bound(const replay *r, const entry *idx, const char *k, uint64_t t)
{
    size_t lo = 0, hi = r->run->nhistory;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(idx[mid].key, k);
        if (c == 0) c = cmp_u64(idx[mid].t, t);
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The region with start key k opened at t (and, if end is not NULL, that
 * end key), or SIZE_MAX. */
static size_t find_opened(const replay *r, const char *k, uint64_t t, const char *end)
{
    for (size_t at = lower_bound(r, r->by_start, k, t); at < r->run->nhistory; at++) {
        const entry *x = &r->by_start[at];
        if (strcmp(x->key, k) != 0 || x->t != t) break;
        if (!end || strcmp(str(r->run->history[x->i].end), end) == 0) return x->i;
    }
    return SIZE_MAX;
}

/* The live region with start key k, or SIZE_MAX. */
static size_t find_live(const replay *r, const char *k)
{
    for (size_t at = lower_bound(r, r->by_start, k, 0); at < r->run->nhistory; at++) {
        const entry *x = &r->by_start[at];
        if (strcmp(x->key, k) != 0) break;
        if (r->live[x->i]) return x->i;
    }
    return SIZE_MAX;
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
    const region_result *h = &r->run->history[i];
    b->band[b->n++] = (region_band){ axis_position(&r->axis, h->start, 0),
                                     axis_position(&r->axis, h->end, 1), t0, t, server, i, i, 1 };
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

/* The daughters of split event e: *a = [start, K), *b = [K, end), and the
 * parent *p that closed (a live one, if need_live), or 0 if they are not in
 * the log. */
static int split_family(const replay *r, const timeline_event *e, int need_live, size_t *p,
                        size_t *a, size_t *b)
{
    const char *k = str(e->key);
    *b = find_opened(r, k, e->t_us, NULL);
    if (*b == SIZE_MAX) return 0;
    const char *end = str(r->run->history[*b].end);
    *p = SIZE_MAX;
    for (size_t at = lower_bound(r, r->by_end, end, e->t_us); at < r->run->nhistory; at++) {
        const entry *x = &r->by_end[at];
        if (strcmp(x->key, end) != 0 || x->t != e->t_us) break;
        if (r->run->history[x->i].split && (!need_live || r->live[x->i]) && x->i != *b) {
            *p = x->i;
            break;
        }
    }
    if (*p == SIZE_MAX) return 0;
    *a = find_opened(r, str(r->run->history[*p].start), e->t_us, k);
    return *a != SIZE_MAX;
}

static void *zalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) report_out_of_memory();
    return p;
}

region_bands regionbands_of(const run_result *run)
{
    region_bands out = { NULL, 0, NULL, 0, run->keyspace.nbuckets, 0 };
    size_t n = run->nhistory;
    if (run->keyspace.nbuckets == 0 || n == 0) return out;
    replay r = { .run = run, .out = &out };
    r.by_start = zalloc(n, sizeof *r.by_start);
    r.by_end = zalloc(n, sizeof *r.by_end);
    r.since = zalloc(n, sizeof *r.since);
    r.live = zalloc(n, 1);
    r.daughter = zalloc(n, 1);
    r.done = zalloc(n, 1);
    for (size_t i = 0; i < n; i++) {
        const region_result *h = &run->history[i];
        r.by_start[i] = (entry){ str(h->start), h->opened_us, i };
        r.by_end[i] = (entry){ str(h->end), h->closed_us, i };
    }
    qsort(r.by_start, n, sizeof *r.by_start, entry_cmp);
    qsort(r.by_end, n, sizeof *r.by_end, entry_cmp);
    axis_init(&r.axis, &run->keyspace, extreme_boundary(run, 0), extreme_boundary(run, 1));

    /* Which regions a split opened: the others are there from the start. */
    for (size_t e = 0; e < run->nevents; e++) {
        size_t p, a, b;
        if (run->events[e].kind == TIMELINE_SPLIT &&
            split_family(&r, &run->events[e], 0, &p, &a, &b))
            r.daughter[a] = r.daughter[b] = 1;
    }
    for (size_t i = 0; i < n; i++) {
        r.live[i] = !r.daughter[i];
        r.since[i] = run->history[i].opened_us;
    }

    for (size_t e = 0; e < run->nevents; e++) {
        const timeline_event *ev = &run->events[e];
        if (ev->kind == TIMELINE_SPLIT) {
            size_t p, a, b;
            if (!split_family(&r, ev, 1, &p, &a, &b) || r.live[a] || r.live[b]) {
                out.unmatched++;
                continue;
            }
            emit(&r, p, ev->t_us, ev->from);
            add_split(&r, axis_position(&r.axis, ev->key, 0), ev->t_us);
            r.live[p] = 0;
            r.done[p] = 1;
            r.live[a] = r.live[b] = 1;
            r.since[a] = r.since[b] = ev->t_us;
        } else if ((ev->kind == TIMELINE_MOVE || ev->kind == TIMELINE_REASSIGN) && !ev->meta) {
            size_t i = find_live(&r, str(ev->key)); /* hbase:meta is no region of the map */
            if (i == SIZE_MAX) {
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
    free(r.by_start);
    free(r.by_end);
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
