/* store_sampled.c -- a region's rows as counters and a bounded sample.
 *
 * The sampled store (`store = sampled`, issue 15) answers what the exact
 * store answers -- rows, range counts, the middle key by size, a split --
 * from memory bounded by the number of regions, not rows:
 *
 *   bytes, cells    exact counters, as the exact store keeps them
 *   first, last     the region's smallest and largest keys, exact (copies)
 *   sample          the distinct rows whose key hash h is below a threshold
 *                   tau (every row while `all`), in key order, each with
 *                   its exact bytes (a saturating u32, as the exact store's)
 *
 * This is distinct sampling by hash (Gibbons 2001; the threshold as in
 * KMV/"bottom-k" sketches). The hash is store_key_hash, a fixed function of
 * the key bytes: no RNG, the same key is in or out of every sample alike,
 * runs are byte-identical. tau only falls, so a sampled row has been
 * tracked since its first put and its bytes are exact; and every distinct
 * row is in the sample with the same probability p = tau / 2^64, however
 * often it was written (a hot row is not over-represented). Hence:
 *   rows           sampled / p (exact while `all`, p = 1)
 *   bytes in range sampled bytes in range / p, so the byte-weighted median
 *                  of the sample estimates the middle key by size (HBase's
 *                  split point, store.h)
 *   split          cut the sample at the key; both halves keep tau and stay
 *                  valid samples of their rows (merging two would be the
 *                  union under the smaller tau; regions never merge here)
 * When a put makes the sample exceed its capacity, tau falls to the hash of
 * the (capacity/2 + 1)-th smallest, keeping the capacity/2 smallest: then
 * sampled / p is the KMV estimate (k / U_(k+1)), unbiased for the rows.
 * Between such prunes the sample holds capacity/2..capacity rows, so the
 * relative error of an estimate is about 1 / sqrt(capacity / 2) at worst.
 *
 * Cost: a put hashes its key and compares the hash with tau; most puts stop
 * there (and at two compares with first and last). A put under tau does a
 * binary search in the sample and, for a new row, an insert (memmove of
 * entries of 12 bytes); a prune sorts capacity hashes, O(capacity log
 * capacity) once per capacity/2 sampled rows. Memory: the struct, entries
 * and key bytes for up to capacity + 1 rows (arrays grow x1.5 up to that),
 * and the two end keys: about capacity * (key + 12) bytes at most, times
 * 1.5 for the arena between prunes.
 *
 * Range counts are estimates (store.h says exactly how): a range over the
 * whole region counts store_rows; a one-key range (a point get) counts 1 if
 * the key lies within [first, last] -- a sample could only say 0 or 1/p;
 * other ranges interpolate each end between its neighbouring sampled rows
 * (so a short scan in a time series counts the rows a uniform spread puts
 * there, instead of 0 or a multiple of 1/p). Trade-off: gets of rows never
 * written but inside a region count as found.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/store_impl.h"

typedef struct sentry {
    uint32_t off;   /* key bytes at arena + off */
    uint32_t bytes; /* the row's bytes, saturating */
    uint16_t len;
} sentry;

struct sampled_store {
    store base;            /* kind STORE_SAMPLED */
    uint64_t bytes, cells;
    uint64_t tau;          /* sampled iff all or hash < tau */
    int all;               /* p = 1: every row is sampled */
    uint32_t capacity;
    sentry *e;             /* the sample in key order */
    uint32_t n, e_cap;
    uint8_t *arena;        /* the sampled keys' bytes (some dead after a split) */
    size_t arena_len, arena_cap;
    uint8_t *first, *last; /* the ends; valid when cells > 0 */
    size_t first_len, last_len, first_cap, last_cap;
};

/* ---- helpers ---------------------------------------------------------------- */

static uint32_t add_saturating(uint32_t a, uint32_t b)
{
    uint32_t c = a + b;
    return c < a ? UINT32_MAX : c;
}

static keyref entry_key(const sampled_store *s, uint32_t i)
{
    return keyref_of(s->arena + s->e[i].off, s->e[i].len);
}

static double probability(const sampled_store *s)
{
    return s->all ? 1.0 : (double)s->tau / 18446744073709551616.0;
}

/* First sampled row >= k. */
static uint32_t lower_bound(const sampled_store *s, keyref k)
{
    uint32_t lo = 0, hi = s->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (key_compare(entry_key(s, mid), k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* memmove(dst, src, n), with no call for n in 8..16 (most row keys): two
 * words, both read before either is written. */
static void move_key_bytes(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n < 8 || n > 16) {
        memmove(dst, src, n);
        return;
    }
    uint64_t head, tail;
    memcpy(&head, src, 8);
    memcpy(&tail, src + n - 8, 8);
    memcpy(dst, &head, 8);
    memcpy(dst + n - 8, &tail, 8);
}

/* Makes room for a key of len bytes in *buf (capacity *cap); 0 or -1. */
static int reserve_key(uint8_t **buf, size_t *cap, size_t len)
{
    if (len > *cap) {
        size_t n = len < 16 ? 16 : len + len / 2;
        uint8_t *p = realloc(*buf, n);
        if (!p)
            return -1;
        *buf = p;
        *cap = n;
    }
    return 0;
}

/* Copies k into *buf (capacity *cap). 0, or -1 out of memory (unchanged). */
static int set_key(uint8_t **buf, size_t *len, size_t *cap, keyref k)
{
    if (reserve_key(buf, cap, k.len) < 0)
        return -1;
    move_key_bytes(*buf, k.data, k.len);
    *len = k.len;
    return 0;
}

static int points_into(const uint8_t *buf, size_t len, keyref k)
{
    uintptr_t p = (uintptr_t)k.data, b = (uintptr_t)buf;
    return buf && p >= b && p < b + len;
}

/* ---- the sample ------------------------------------------------------------- */

static int hash_less(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Rewrites s's arena with only the keys of its entries, whose offsets are
 * into src (s's own arena, or the store it is split from). 0, or -1 out of
 * memory (then unchanged). */
static int rebuild_arena(sampled_store *s, const uint8_t *src)
{
    size_t need = 0;
    for (uint32_t i = 0; i < s->n; i++)
        need += s->e[i].len;
    uint8_t *a = malloc(need ? need : 1);
    if (!a)
        return -1;
    size_t w = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        memcpy(a + w, src + s->e[i].off, s->e[i].len);
        s->e[i].off = (uint32_t)w;
        w += s->e[i].len;
    }
    if (s->arena == src)
        free(s->arena);
    s->arena = a;
    s->arena_len = w;
    s->arena_cap = need ? need : 1;
    return 0;
}

/* Lowers tau to keep the capacity/2 rows of smallest hash. 0, or -1 out of
 * memory (then the sample is unchanged, and over capacity for a while). */
static int prune(sampled_store *s)
{
    uint64_t *h = malloc((size_t)s->n * sizeof *h);
    if (!h)
        return -1;
    for (uint32_t i = 0; i < s->n; i++)
        h[i] = store_key_hash(s->arena + s->e[i].off, s->e[i].len);
    uint64_t *sorted = malloc((size_t)s->n * sizeof *sorted);
    if (!sorted) {
        free(h);
        return -1;
    }
    memcpy(sorted, h, (size_t)s->n * sizeof *h);
    qsort(sorted, s->n, sizeof *sorted, hash_less);
    uint64_t tau = sorted[s->capacity / 2];
    free(sorted);
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->n; i++)
        if (h[i] < tau)
            s->e[k++] = s->e[i];
    free(h);
    s->n = k;
    s->tau = tau;
    s->all = 0;
    rebuild_arena(s, s->arena); /* a failure only keeps dead keys */
    return 0;
}

/* Inserts k as sampled row i with b bytes. 0 or -1 (unchanged). */
static int insert_at(sampled_store *s, uint32_t i, keyref k, uint32_t b)
{
    if (s->n == s->e_cap) {
        uint32_t c = s->e_cap < 8 ? 8 : s->e_cap + s->e_cap / 2;
        if (c > s->capacity + 1)
            c = s->capacity + 1;
        if (c <= s->n)
            c = s->n + 1;
        sentry *e = realloc(s->e, (size_t)c * sizeof *e);
        if (!e)
            return -1;
        s->e = e;
        s->e_cap = c;
    }
    if (s->arena_len + k.len > s->arena_cap) {
        size_t c = s->arena_cap + s->arena_cap / 2;
        if (c < s->arena_len + k.len)
            c = s->arena_len + k.len;
        if (c < 64)
            c = 64;
        if (c > UINT32_MAX)
            return -1;
        uint8_t *a = realloc(s->arena, c);
        if (!a)
            return -1;
        s->arena = a;
        s->arena_cap = c;
    }
    memcpy(s->arena + s->arena_len, k.data, k.len);
    memmove(&s->e[i + 1], &s->e[i], (size_t)(s->n - i) * sizeof *s->e);
    s->e[i].off = (uint32_t)s->arena_len;
    s->e[i].len = (uint16_t)k.len;
    s->e[i].bytes = b;
    s->arena_len += k.len;
    s->n++;
    return 0;
}

/* ---- the interface (store.h's, for a sampled store) ------------------------- */

sampled_store *sampled_new(uint32_t capacity)
{
    sampled_store *s = calloc(1, sizeof *s);
    if (s) {
        s->base.kind = STORE_SAMPLED;
        s->all = 1;
        s->tau = UINT64_MAX;
        s->capacity = capacity;
    }
    return s;
}

void sampled_free(sampled_store *s)
{
    if (!s)
        return;
    free(s->e);
    free(s->arena);
    free(s->first);
    free(s->last);
    free(s);
}

int sampled_put(sampled_store *s, keyref k, uint32_t cell_bytes)
{
    assert(k.len >= 1 && k.len <= KEY_MAX_LEN);
    if (k.len < 1 || k.len > KEY_MAX_LEN)
        return -1;
    /* The ends first: they are all that can fail before the sample. */
    int new_last = s->cells == 0 || key_compare(k, keyref_of(s->last, s->last_len)) > 0;
    int new_first = s->cells == 0 || (!new_last &&
                                      key_compare(k, keyref_of(s->first, s->first_len)) < 0);
    uint64_t h = store_key_hash(k.data, k.len);
    if (s->all || h < s->tau) {
        uint32_t i = new_last ? s->n : lower_bound(s, k);
        if (i < s->n && key_compare(entry_key(s, i), k) == 0) {
            s->e[i].bytes = add_saturating(s->e[i].bytes, cell_bytes);
        } else {
            /* Only a new sampled row reallocates the arena (and a prune
             * frees it): a key from the store's own bytes is copied first.
             * set_key cannot pull an end from under k: a key inside an end
             * fits its capacity, so that end is not reallocated. */
            if (points_into(s->arena, s->arena_len, k) || points_into(s->first, s->first_len, k) ||
                points_into(s->last, s->last_len, k)) {
                uint8_t *copy = key_copy(k);
                int rc = copy ? sampled_put(s, keyref_of(copy, k.len), cell_bytes) : -1;
                free(copy);
                return rc;
            }
            size_t mark = s->arena_len;
            if (insert_at(s, i, k, cell_bytes) < 0)
                return -1;
            if ((new_last && set_key(&s->last, &s->last_len, &s->last_cap, k) < 0) ||
                (new_first && set_key(&s->first, &s->first_len, &s->first_cap, k) < 0)) {
                memmove(&s->e[i], &s->e[i + 1], (size_t)(s->n - i - 1) * sizeof *s->e);
                s->n--;
                s->arena_len = mark;
                return -1;
            }
            new_first = new_last = 0;
            if (s->n > s->capacity)
                prune(s);
        }
    }
    if ((new_last && set_key(&s->last, &s->last_len, &s->last_cap, k) < 0) ||
        (new_first && set_key(&s->first, &s->first_len, &s->first_cap, k) < 0))
        return -1; /* only a first put can change both, and it changes nothing else */
    s->bytes += cell_bytes;
    s->cells++;
    return 0;
}

uint64_t sampled_bytes(const sampled_store *s) { return s->bytes; }
uint64_t sampled_cells(const sampled_store *s) { return s->cells; }

uint64_t sampled_rows(sampled_store *s)
{
    if (s->all)
        return s->n;
    double r = (double)s->n / probability(s) + 0.5;
    uint64_t rows = r >= (double)s->cells ? s->cells : (uint64_t)r;
    return rows == 0 && s->cells ? 1 : rows;
}

int sampled_row_at(sampled_store *s, uint64_t i, keyref *key, uint64_t *bytes)
{
    uint64_t rows = sampled_rows(s);
    if (i >= rows)
        return -1;
    if (s->n == 0) {
        *key = keyref_of(s->first, s->first_len);
        *bytes = s->bytes;
        return 0;
    }
    uint64_t j = s->all ? i : (uint64_t)((double)i * (double)s->n / (double)rows);
    if (j >= s->n)
        j = s->n - 1;
    *key = entry_key(s, (uint32_t)j);
    *bytes = s->e[j].bytes;
    return 0;
}

int sampled_middle_key(sampled_store *s, keyref *mid)
{
    if (s->cells == 0)
        return -1;
    if (s->n == 0) {
        *mid = keyref_of(s->first, s->first_len);
        return 0;
    }
    uint64_t total = 0;
    for (uint32_t i = 0; i < s->n; i++)
        total += s->e[i].bytes;
    if (total == 0) { /* no sizes to go by: the middle row */
        *mid = entry_key(s, s->n / 2);
        return 0;
    }
    uint64_t half = total / 2, sum = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        sum += s->e[i].bytes;
        if (sum > half) {
            *mid = entry_key(s, i);
            return 0;
        }
    }
    *mid = entry_key(s, s->n - 1); /* unreachable: sum reaches total */
    return 0;
}

int sampled_first_last(sampled_store *s, keyref *first, keyref *last)
{
    if (s->cells == 0)
        return -1;
    *first = keyref_of(s->first, s->first_len);
    *last = keyref_of(s->last, s->last_len);
    return 0;
}

/* Cells moving with a share of the bytes (as the exact store apportions
 * them: at least one a row on each side, counting rows estimated). */
static uint64_t apportion_cells(const sampled_store *s, double share, uint64_t rows_moved,
                                uint64_t rows_kept)
{
    uint64_t c = (uint64_t)((double)s->cells * share + 0.5);
    if (c > s->cells - rows_kept)
        c = s->cells - rows_kept;
    if (c < rows_moved)
        c = rows_moved;
    return c;
}

sampled_store *sampled_split(sampled_store *s, keyref at)
{
    sampled_store *t = sampled_new(s->capacity);
    if (!t)
        return NULL;
    t->tau = s->tau;
    t->all = s->all;
    if (s->cells == 0 || key_compare(at, keyref_of(s->last, s->last_len)) > 0)
        return t; /* nothing moves */
    uint32_t r = lower_bound(s, at), m = s->n - r;
    int everything = key_compare(at, keyref_of(s->first, s->first_len)) <= 0;
    /* The new store's sample, ends and arena, before s changes. */
    if (m) {
        t->e = malloc((size_t)m * sizeof *t->e);
        if (!t->e) {
            sampled_free(t);
            return NULL;
        }
        t->e_cap = m;
        memcpy(t->e, s->e + r, (size_t)m * sizeof *t->e);
        t->n = m;
        if (rebuild_arena(t, s->arena) < 0) {
            sampled_free(t);
            return NULL;
        }
    }
    keyref tfirst = everything ? keyref_of(s->first, s->first_len)
                    : m ? entry_key(s, r) : keyref_of(s->last, s->last_len);
    if (set_key(&t->first, &t->first_len, &t->first_cap, tfirst) < 0 ||
        set_key(&t->last, &t->last_len, &t->last_cap, keyref_of(s->last, s->last_len)) < 0) {
        sampled_free(t);
        return NULL;
    }
    if (everything) {
        t->bytes = s->bytes;
        t->cells = s->cells;
    } else {
        uint64_t moved = 0, total = 0;
        for (uint32_t i = 0; i < s->n; i++) {
            total += s->e[i].bytes;
            if (i >= r)
                moved += s->e[i].bytes;
        }
        double share = total ? (double)moved / (double)total
                       : s->n ? (double)m / (double)s->n : 0.5;
        uint64_t rows = sampled_rows(s);
        uint64_t rows_moved = s->n ? (uint64_t)((double)rows * m / s->n + 0.5) : rows / 2;
        if (rows_moved == 0)
            rows_moved = 1; /* the upper half holds at least its first row */
        if (rows_moved >= rows)
            rows_moved = rows - 1; /* and the lower half its first */
        if (s->all) {
            t->bytes = moved;
        } else {
            t->bytes = (uint64_t)((double)s->bytes * share + 0.5);
            if (t->bytes > s->bytes)
                t->bytes = s->bytes;
        }
        t->cells = apportion_cells(s, share, rows_moved, rows - rows_moved);
    }
    /* s's new last row (its largest sampled row below at, or its first):
     * lower, but perhaps longer than the last it had, so room is made
     * before s changes, and a failure leaves s as it was. */
    keyref new_last = r ? entry_key(s, r - 1) : keyref_of(s->first, s->first_len);
    if (s->cells > t->cells && reserve_key(&s->last, &s->last_cap, new_last.len) < 0) {
        sampled_free(t);
        return NULL;
    }
    /* Now s keeps the rows below at. */
    s->bytes -= t->bytes;
    s->cells -= t->cells;
    s->n = r;
    if (s->cells == 0) {
        s->n = 0;
    } else {
        int rc = set_key(&s->last, &s->last_len, &s->last_cap, new_last);
        assert(rc == 0); /* the room was made above */
        (void)rc;
    }
    if (m)
        rebuild_arena(s, s->arena); /* a failure only keeps dead keys */
    return t;
}

/* The position of k between a and b (a <= k <= b), 0..1, on the 8 bytes
 * after a and b's common prefix. */
static double position(keyref a, keyref b, keyref k)
{
    size_t c = 0, n = a.len < b.len ? a.len : b.len;
    while (c < n && a.data[c] == b.data[c])
        c++;
    uint64_t x = 0, y = 0, z = 0;
    for (size_t i = c; i < c + 8; i++) {
        x = x << 8 | (i < a.len ? a.data[i] : 0);
        y = y << 8 | (i < b.len ? b.data[i] : 0);
        z = z << 8 | (i < k.len ? k.data[i] : 0);
    }
    if (y <= x)
        return 0.5;
    if (z <= x)
        return 0.0;
    if (z >= y)
        return 1.0;
    return (double)(z - x) / (double)(y - x);
}

/* Estimated rows < k, in units of gaps between sampled rows (0..n+1):
 * the sampled rows below k, plus where k falls in its gap. */
static double gaps_below(const sampled_store *s, keyref k)
{
    keyref first = keyref_of(s->first, s->first_len), last = keyref_of(s->last, s->last_len);
    if (key_compare(k, first) <= 0)
        return 0.0;
    if (key_compare(k, last) > 0)
        return (double)s->n + 1.0;
    uint32_t i = lower_bound(s, k);
    keyref a = i ? entry_key(s, i - 1) : first;
    keyref b = i < s->n ? entry_key(s, i) : last;
    return (double)i + position(a, b, k);
}

/* Whether hi is lo + "\0": a range of one key (a get). */
static int one_key(keyref lo, keyref hi)
{
    return hi.len == lo.len + 1 && hi.data[lo.len] == 0 && memcmp(lo.data, hi.data, lo.len) == 0;
}

uint64_t sampled_count_range(sampled_store *s, keyref lo, keyref hi)
{
    if (s->cells == 0 || (hi.len && key_compare(lo, hi) >= 0))
        return 0;
    keyref first = keyref_of(s->first, s->first_len), last = keyref_of(s->last, s->last_len);
    if (s->all) { /* exact: the sample holds every row */
        uint32_t a = lower_bound(s, lo), b = hi.len ? lower_bound(s, hi) : s->n;
        return b > a ? b - a : 0;
    }
    if (hi.len && key_compare(hi, first) <= 0)
        return 0;
    if (key_compare(lo, last) > 0)
        return 0;
    uint64_t rows = sampled_rows(s);
    if (key_compare(lo, first) <= 0 && (hi.len == 0 || key_compare(hi, last) > 0))
        return rows;
    if (hi.len && one_key(lo, hi))
        return 1;
    double g = (hi.len ? gaps_below(s, hi) : (double)s->n + 1.0) - gaps_below(s, lo);
    double est = g * (double)rows / ((double)s->n + 1.0) + 0.5;
    return est <= 0 ? 0 : est >= (double)rows ? rows : (uint64_t)est;
}

size_t sampled_memory(const sampled_store *s)
{
    return sizeof *s + (size_t)s->e_cap * sizeof *s->e + s->arena_cap + s->first_cap +
           s->last_cap;
}
