/* store_exact.c -- the exact sorted row store of one region.
 *
 * (Split by concept: this file keeps main and pending, the put path, merges
 * and the queries that merge; store_count.c counts between puts;
 * store_sort.c sorts pending entries; store.c dispatches store.h's calls.)
 *
 * A small LSM, like HBase's memstore flushed into store files, whose
 * biggest file (main) is always fully compacted:
 *
 *   main     rec  one byte array of records in key order,
 *                 record = [u16 key len][u32 row bytes, saturating][key]
 *                 (unaligned fields, read and written with memcpy)
 *            idx  the uint64 offset of each record in rec, one per row
 *                 -> key + 14 bytes per distinct row; binary search on idx
 *   pending  pk   arena of the key bytes of puts not yet in main
 *            pe   entries {u64 prefix, u64 offset in pk, u32 len, u32 bytes};
 *                 prefix = first 8 key bytes big-endian, zero padded, so
 *                 most compares are one integer compare. pe has room for
 *                 2 * pe_cap entries: the upper half is scratch for sorts
 *                 and merges. pe[0..npend) is two parts:
 *              runs  pe[0..nsorted): up to RUNS_MAX sorted runs, each
 *                    strictly ascending; every key of a run is in no other
 *                    run and not in main (runs hold distinct new rows);
 *                    each run is more than twice as long as the next one
 *              tail  pe[nsorted..npend): puts in arrival order, which may
 *                    repeat each other, a run's key or a main row.
 *
 * store_put (first fetching, all at once, a small store's index and
 * records, or the extension's pending fields: the steps below read them
 * one dependent miss after another):
 *   1. key == main's last row, or == the last pending key: add the bytes to
 *      that row, no new entry (repeated writes to a hot row).
 *   2. pending empty and key > main's last row: append to main. Ascending
 *      keys (monotonic, time-ordered within a prefix: the common case for a
 *      region) stay on this path: amortised O(1), no sort, no merge.
 *   3. nothing pending and fewer than SMALL_ROWS (64) rows: insert into
 *      main in place (insert_main: a memmove of at most a few KiB). The
 *      pending buffers cost about 1 KiB at their least (16 entries with
 *      their scratch slots, a 256-byte key arena); a million regions of a
 *      few rows each (small regions, random keys) held a GB of them.
 *   4. otherwise append to the tail, noting whether pending as a whole stays
 *      strictly ascending (then a merge needs no sort).
 *   Pending is merged into main once max(4096, rows / 8) puts have gone to
 *   the tail since the last merge (a geometric bound, so each row is moved
 *   O(1) times amortised; counting puts, not entries, also bounds the key
 *   arena, which keeps the keys of entries folded away until that merge).
 *
 * Counts (store_count_range) do not merge into main: store_count.c keeps
 * the puts since the last count as sorted runs, and a Bloom filter of the
 * store's keys; its top comment says how.
 *
 * The struct (store_exact.h) holds main and the totals, 80 bytes; pending,
 * the runs, the filter and what counts remember (hints, main's end
 * prefixes, idle counts) are an extension (exact_ext, about 300 bytes)
 * made when first needed: the first put to pending (step 4, so only in a
 * store of SMALL_ROWS rows or more), or a count of a store of SMALL_ROWS
 * rows or more (a smaller one is searched without hints). It then stays
 * until the store is freed, except that a split leaving the store below
 * SMALL_ROWS with nothing pending (a split merges first) and no filter
 * (a split frees it) frees it too. So the million small stores of a run of
 * small regions have none (they held 250 bytes of it each, unused, in a
 * 384-byte struct).
 *
 * Merge into main (on a put past the bound, and before store_rows,
 * store_row_at, store_middle_key, store_first_last and store_split, which
 * are rare: a split check or split, the end of a run): sort all of pending
 * unless it is ascending (store_sort.c: stable counting-sort passes on the
 * bytes where the prefixes differ, a bottom-up merge sort of each small
 * bucket not yet in order), combine equal keys, then merge into main from the back, IN
 * PLACE. store_put has already reserved room in main's arrays for every
 * pending entry (that is where running out of memory can be reported;
 * queries have no error return, so they must not depend on allocating:
 * settling only folds and moves entries within pe, and the filter is an
 * accelerator, left out, or left fuller, if its allocation fails). Rows of
 * main greater than the largest pending key move as whole blocks found by
 * galloping (one memmove, one offset fix-up loop); a pending key already in
 * main adds its bytes there; rows of main below the smallest pending key do
 * not move at all, so a merge costs O(pending log pending + rows after the
 * smallest pending key). The walk down main runs far past the caches in a
 * big store (millions of rows at HBase's region sizes) and the hardware
 * fetches a descending walk late, so the merge fetches main's records and
 * index slots MAIN_AHEAD_* ahead of it (3.7% less CPU for md5 and reversed
 * writes, docs/performance.md). Main never holds garbage: duplicates are folded,
 * not appended. A merge forced by a query frees the pending buffers and
 * trims main's room reserved for them (if main is less than half used), so
 * a store whose rows are listed costs main + the struct (+ the filter); a
 * merge forced by a put keeps them for the puts to come, and so do counts.
 *
 * Trade-offs: arrays grow by x1.5, and by x1.25 once past 1 MiB: big
 * arrays are what the memory budget is about (capacity at most 1.25x use),
 * and their copies stay amortised O(1). Arrays under GROW_CLASS_BYTES
 * (4 KiB) grow one jemalloc size class at a time instead (16 bytes apart
 * up to 128, four classes a doubling past it): a store of 14 rows of
 * 16-byte keys (a 1 KiB region) holds 308 bytes of records and 112 of
 * index in 320 + 112 bytes, where x1.5 from the minimum took 384 + 160;
 * a few more reallocs of a few hundred bytes each. With the 80-byte
 * struct (asserted in store_exact.h) and no extension such a store costs
 * about 512 bytes in all; a million of them are much of a run of small
 * regions' memory. An array that grows to
 * MAP_MIN_BYTES (256 KiB) or more becomes a mapping of its own (mmap),
 * grown and shrunk by mremap, and stays one until freed: the kernel moves
 * its pages instead of copying them to fresh ones. Through realloc, with
 * jemalloc set to hand freed pages back at once (cli/jemalloc_conf.c),
 * every growth copied the array onto pages faulted in anew: `regionsim
 * run --scheme monotonic --duration 2h` took 210,000 minor faults and
 * 0.38 s in the kernel for 178 MB of peak RSS; mapped, 78,000, 0.16 s and
 * 164 MB (salted: 212,000 to 81,000 faults). Only with jemalloc (the
 * default build; sanitizer and valgrind builds go without it and keep
 * realloc, whose blocks they check) and on Linux. A failed mmap (say, past
 * vm.max_map_count, 65,530 mappings by default: 16 GiB of such arrays at
 * the least) falls back to realloc. A split hands the upper rows' pages
 * of such arrays to the new store as they are (mremap; only the page the
 * split point is in is copied) and the old store keeps the lower ones:
 * a row is written once, not copied into the new store again (the split
 * copied half of each store: 78,000 faults, 40,000 moving them). Once
 * a page has moved nothing can fail (the index's pages, should they then
 * not move, are copied into room set aside), so a split out of memory
 * leaves the old store as it was. The new
 * store also takes the room the old one had grown: untouched pages,
 * which are address space, not memory. Main is not shrunk except
 * by a split. While puts are pending they cost 48 + key bytes each (entry,
 * scratch, key), bounded by max(4096, rows / 8) puts. The filter costs
 * 0.75 to 1.25 bytes a key in stores both written and counted. The run
 * stack costs RUNS_MAX words per store, not per row; past RUNS_MAX runs
 * (more than 2^23 pending entries) the top two merge whatever their sizes. A row's
 * bytes saturate at UINT32_MAX in its record (saturating sums do not depend
 * on the order of folding); store_bytes is an exact uint64. Cells are not
 * tracked per row (4 more bytes a row): a split apportions the cell count by
 * bytes (by rows if the store has no bytes), keeping at least one cell per
 * row on each side.
 */
#if defined(__linux__) && defined(REGIONSIM_JEMALLOC)
#define _GNU_SOURCE /* mremap */
#include <sys/mman.h>
#include <unistd.h>
#define MAP_BIG_ARRAYS 1
#endif

#include "core/store_exact.h"

/* The smallest of jemalloc's size classes that holds n bytes, n at most
 * GROW_CLASS_BYTES: multiples of 16 up to 128, then four classes to each
 * doubling (160, 192, 224, 256, 320, ...; jemalloc's sz_s2u). Computed
 * here, not asked of jemalloc (nallocx), so that sanitizer builds, which
 * go without it, grow their arrays alike. */
static size_t size_class_of(size_t n)
{
    if (n <= 128)
        return (n + 15) & ~(size_t)15;
    size_t group = 128; /* n in (group, 2 group] */
    while (2 * group < n)
        group *= 2;
    size_t step = group / 4;
    return (n + step - 1) / step * step;
}

/* The capacity, in elements of elem bytes, to grow cap to so that need
 * fit: x1.5, x1.25 past GROW_SLOW_BYTES, at least min. 0 if need is too
 * large to allocate. An array of less than GROW_CLASS_BYTES grows instead
 * to the smallest size class that holds need elements (the classes are
 * at most 25% apart there): a million stores of a few rows each (small
 * regions) left a third of their arrays' bytes unused at x1.5. */
static size_t grown_cap(size_t cap, size_t need, size_t elem, size_t min)
{
    size_t limit = SIZE_MAX / 2 / elem;
    if (need > limit)
        return 0;
    if (need < min)
        need = min;
    if (need * elem <= GROW_CLASS_BYTES)
        return size_class_of(need * elem) / elem;
    size_t n = cap + (cap * elem > GROW_SLOW_BYTES ? cap / 4 : cap / 2);
    if (n < need)
        n = need;
    if (n < min)
        n = min;
    return n > limit ? need : n;
}

#ifdef MAP_BIG_ARRAYS
/* A mapped array may begin inside its mapping's first page (a split hands
 * the upper rows' pages to the new store as they are: exact_split); its
 * mapping is from the page it begins in to its end. */
static uint8_t *map_base(const void *a, size_t *off)
{
    uintptr_t p = (uintptr_t)a, page = (uintptr_t)sysconf(_SC_PAGESIZE);
    *off = (size_t)(p & (page - 1));
    return (uint8_t *)(p - *off);
}
#endif

/* Resizes the array *a of cap bytes, the first used of which matter, to
 * n > 0 bytes; bit is its MAPPED_* bit in s->mapped. Leaves *a alone on
 * failure. */
static int resize_array(exact_store *s, void **a, size_t cap, size_t used,
                        size_t n, unsigned bit)
{
#ifdef MAP_BIG_ARRAYS
    if (s->mapped & bit) { /* stays a mapping, however small it becomes */
        size_t off;
        uint8_t *base = map_base(*a, &off);
        void *q = mremap(base, off + cap, off + n, MREMAP_MAYMOVE);
        if (q == MAP_FAILED) { /* say, two mappings side by side: copy */
            q = mmap(NULL, off + n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
            if (q == MAP_FAILED)
                return -1;
            memcpy((uint8_t *)q + off, *a, used < n ? used : n);
            munmap(base, off + cap);
        }
        *a = (uint8_t *)q + off;
        return 0;
    }
    if (n >= MAP_MIN_BYTES && n > cap) {
        void *q = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        if (q != MAP_FAILED) { /* else (say, too many mappings): realloc */
            if (used)
                memcpy(q, *a, used);
            free(*a);
            *a = q;
            s->mapped |= bit;
            return 0;
        }
    }
#else
    (void)s, (void)cap, (void)used, (void)bit;
#endif
    void *q = realloc(*a, n);
    if (!q)
        return -1;
    *a = q;
    return 0;
}

/* Frees the array a of cap bytes (NULL: nothing). */
static void free_array(exact_store *s, void *a, size_t cap, unsigned bit)
{
#ifdef MAP_BIG_ARRAYS
    if (s->mapped & bit) {
        size_t off;
        uint8_t *base = map_base(a, &off);
        munmap(base, off + cap);
        s->mapped &= ~bit;
        return;
    }
#else
    (void)s, (void)cap, (void)bit;
#endif
    free(a);
}

#ifdef MAP_BIG_ARRAYS
/* Handing the tail of a mapped array of cap bytes, its bytes from `from`
 * on, to a new mapping without copying it (exact_split). The pages from
 * the one `from` is in to the end move (mremap to a mapping reserved for
 * them: the new array, one mapping, which mremap needs to grow it later);
 * the old array's own bytes of from's page are copied back into a page
 * the old mapping grows by (in place, as the move just freed the room;
 * if it cannot grow, the old array is copied into a mapping reserved
 * before the move, so that nothing fails once pages have moved). So the
 * old array keeps its pages below from's, and the new one begins in its
 * first page where `from` was in its page. */
typedef struct tail_move {
    uint8_t *base;        /* the old mapping */
    size_t off, lo, cut, hi, end; /* offsets in it: the array's start, from,
                                     from's page and the next, the end */
} tail_move;

/* Is the tail worth moving (0: m set), or better copied (-1)? */
static int tail_plan(tail_move *m, const void *a, size_t cap, size_t from)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    m->base = map_base(a, &m->off);
    m->lo = m->off + from;
    m->cut = m->lo & ~(page - 1);
    m->hi = (m->lo + page - 1) & ~(page - 1);
    m->end = (m->off + cap + page - 1) & ~(page - 1);
    return m->cut > 0 && m->hi + 4 * page <= m->end ? 0 : -1;
}

/* Moves the tail of *a as planned: 0 with *t the new array, *a the old
 * one (it may have moved) and *kept its bytes; -1 with nothing changed
 * (a mapping could not be made, or the pages not moved). */
static int tail_take(const tail_move *m, void **a, void **t, size_t *kept)
{
    size_t n = m->end - m->cut;
    void *d = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (d == MAP_FAILED)
        return -1;
    void *spare = NULL; /* the old array's new mapping, if it cannot grow */
    if (m->lo > m->cut) {
        spare = mmap(NULL, m->hi, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
        if (spare == MAP_FAILED) {
            munmap(d, n);
            return -1;
        }
    }
    if (mremap(m->base + m->cut, n, n, MREMAP_MAYMOVE | MREMAP_FIXED, d) == MAP_FAILED) {
        munmap(d, n);
        if (spare)
            munmap(spare, m->hi);
        return -1;
    }
    /* From here on nothing may fail, or rows would be lost. Never mremap
     * anything back to where the pages were: in a process with threads
     * another mapping may be there by now (MREMAP_FIXED would replace it). */
    uint8_t *base = m->base;
    if (spare) {
        void *g = mremap(base, m->cut, m->hi, MREMAP_MAYMOVE);
        if (g == MAP_FAILED) { /* the spare mapping, copied into */
            g = spare;
            memcpy((uint8_t *)g + m->off, base + m->off, m->cut - m->off);
            munmap(base, m->cut);
        } else {
            munmap(spare, m->hi);
        }
        base = g;
        memcpy(base + m->cut, d, m->lo - m->cut);
    }
    *a = base + m->off;
    *t = (uint8_t *)d + (m->lo - m->cut);
    *kept = m->hi - m->off;
    return 0;
}
#endif

/* Grows array *p of *cap elements of elem bytes (used_bytes of them in
 * use) to hold need elements, at least min: 0, or -1 with it untouched. */
static inline int reserve_array(exact_store *s, void **p, size_t *cap, size_t need,
                                size_t elem, size_t min, size_t used_bytes, unsigned flag)
{
    if (need <= *cap)
        return 0;
    size_t n = grown_cap(*cap, need, elem, min);
    if (n == 0 || resize_array(s, p, *cap * elem, used_bytes, n * elem, flag))
        return -1;
    *cap = n;
    return 0;
}

/* Room for need bytes / index slots / pending entries (each with a scratch
 * slot). Return 0, or -1 with the array untouched. */
static int reserve_rec(exact_store *s, size_t need)
{
    void *p = s->rec;
    int rc = reserve_array(s, &p, &s->rec_cap, need, 1, 64, s->rec_len, MAPPED_REC);
    s->rec = p;
    return rc;
}

static int reserve_keys(exact_store *s, size_t need)
{
    exact_ext *x = s->x;
    void *p = x->pk;
    int rc = reserve_array(s, &p, &x->pk_cap, need, 1, 256, x->pk_len, MAPPED_PK);
    x->pk = p;
    return rc;
}

static int reserve_index(exact_store *s, size_t need)
{
    void *p = s->idx;
    int rc = reserve_array(s, &p, &s->idx_cap, need, sizeof *s->idx, 4,
                           s->rows * sizeof *s->idx, MAPPED_IDX);
    s->idx = p;
    return rc;
}

static int reserve_pending(exact_store *s, size_t need)
{
    if (need > UINT32_MAX) /* run_end holds entry counts in 32 bits */
        return -1;
    exact_ext *x = s->x;
    void *p = x->pe;
    int rc = reserve_array(s, &p, &x->pe_cap, need, 2 * sizeof *x->pe, 16,
                           x->npend * sizeof *x->pe, MAPPED_PE);
    x->pe = p;
    return rc;
}

/* Gives back main's unused room when less than half of it is used.
 * Only with nothing pending: pending rows have room reserved in main. */
static void trim_main(exact_store *s)
{
    assert(pending_of(s) == 0);
    void *p = s->rec;
    if (s->rec_len < s->rec_cap / 2 && s->rec_len &&
        !resize_array(s, &p, s->rec_cap, s->rec_len, s->rec_len, MAPPED_REC)) {
        s->rec = p;
        s->rec_cap = s->rec_len;
    }
    p = s->idx;
    if (s->rows < s->idx_cap / 2 && s->rows &&
        !resize_array(s, &p, s->idx_cap * sizeof *s->idx, s->rows * sizeof *s->idx,
                      s->rows * sizeof *s->idx, MAPPED_IDX)) {
        s->idx = p;
        s->idx_cap = s->rows;
    }
    if (s->rows == 0) {
        free_array(s, s->rec, s->rec_cap, MAPPED_REC);
        free_array(s, s->idx, s->idx_cap * sizeof *s->idx, MAPPED_IDX);
        s->rec = NULL;
        s->idx = NULL;
        s->rec_cap = s->idx_cap = 0;
    }
}

/* ---- main run ----------------------------------------------------------- */

/* First row in [0, i) > k, galloping back from i: O(log distance). */
static size_t gallop_after(const exact_store *s, size_t i, const pkey *k)
{
    size_t hi = i, lo, step = 1;
    for (;;) {
        if (hi == 0)
            return 0;
        size_t probe = hi > step ? hi - step : 0;
        if (row_compare(s, probe, k) <= 0) {
            lo = probe + 1;
            break;
        }
        hi = probe;
        step *= 2;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (row_compare(s, mid, k) > 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* First row in [0, i) > k: the rows just below i one by one, then by
 * galloping. Out-of-order pending keys are dense in main (a merge comes
 * every rows / 8 puts: about 8 rows between two random pending keys), so
 * most searches end within MERGE_LINEAR rows, which the merge then moves
 * anyway; the gallop keeps long stretches (streams) O(log distance). */
static size_t row_after(const exact_store *s, size_t i, const pkey *k)
{
    size_t stop = i > MERGE_LINEAR ? i - MERGE_LINEAR : 0;
    for (; i > stop; i--)
        if (row_compare(s, i - 1, k) <= 0)
            return i;
    return gallop_after(s, i, k);
}

static void write_record(uint8_t *p, const uint8_t *k, size_t n, uint32_t bytes)
{
    wr16(p, (uint16_t)n);
    wr32(p + 2, bytes);
    memcpy(p + REC_HDR, k, n);
}

static int append_main(exact_store *s, keyref k, uint32_t b)
{
    if (reserve_rec(s, s->rec_len + REC_HDR + k.len) || reserve_index(s, s->rows + 1))
        return -1;
    write_record(s->rec + s->rec_len, k.data, k.len, b);
    s->idx[s->rows++] = s->rec_len;
    s->rec_len += REC_HDR + k.len;
    filter_add(s->x, k.data, k.len);
    return 0;
}

/* A small store's put of a key below its last row, nothing pending: into
 * main at once (a memmove of the records and index slots above it; fewer
 * than SMALL_ROWS rows, so a few hundred bytes). Small stores thus never
 * allocate pending buffers (entries and key arena: about 1 KiB at their
 * least), which a table of a million small regions would pay a million
 * times. 0, or -1 with the store unchanged. */
static int insert_main(exact_store *s, const pkey *k, uint32_t b)
{
    assert(pending_of(s) == 0 && s->rows > 0 && s->rows < SMALL_ROWS);
    size_t r = lower_bound_in(s, row_at_compare, 0, s->rows - 1, k);
    if (row_compare(s, r, k) == 0) {
        add_row_bytes(s, r, b);
        return 0;
    }
    size_t size = REC_HDR + k->len;
    if (reserve_rec(s, s->rec_len + size) || reserve_index(s, s->rows + 1))
        return -1;
    size_t off = s->idx[r];
    memmove(s->rec + off + size, s->rec + off, s->rec_len - off);
    for (size_t i = s->rows; i > r; i--)
        s->idx[i] = s->idx[i - 1] + size;
    s->idx[r] = off;
    write_record(s->rec + off, k->data, k->len, b);
    s->rows++;
    s->rec_len += size;
    filter_add(s->x, k->data, k->len);
    return 0;
}

#ifndef NDEBUG
/* Cheap spot checks of order: the ends and around row r. */
static int rows_ordered_near(const exact_store *s, size_t r)
{
    size_t at[3] = { 1, r, s->rows - 1 };
    for (size_t i = 0; i < 3; i++) {
        size_t x = at[i];
        if (x == 0 || x >= s->rows)
            continue;
        keyref a = row_key(s, x - 1), b = row_key(s, x);
        if (key_compare(a, b) >= 0)
            return 0;
    }
    return 1;
}
#endif

/* ---- pending ------------------------------------------------------------ */

/* Sorts all of pending and folds equal keys into one entry. */
static void sort_pending(exact_ext *x)
{
    const pend *a = exact_sort_entries(x->pk, x->pe, x->npend, x->pe + x->pe_cap);
    size_t k = 0, rec = 0;
    for (size_t i = 0; i < x->npend; i++) {
        if (k && pend_compare(x->pk, &x->pe[k - 1], &a[i]) == 0) {
            x->pe[k - 1].bytes = add_saturating(x->pe[k - 1].bytes, a[i].bytes);
        } else {
            x->pe[k++] = a[i];
            rec += REC_HDR + a[i].len;
        }
    }
    x->npend = k;
    x->pend_rec = rec;
    x->pend_sorted = 1;
}

/* Empties pending (its entries are in main), keeping the buffers. */
static void reset_pending(exact_ext *x)
{
    x->npend = x->pk_len = x->pend_rec = x->pend_puts = 0;
    x->nsorted = x->nruns = 0;
    x->pend_sorted = 1;
}

/* Frees the pending buffers (pending is empty). */
static void drop_pending(exact_store *s)
{
    exact_ext *x = s->x;
    assert(x->npend == 0);
    free_array(s, x->pk, x->pk_cap, MAPPED_PK);
    free_array(s, x->pe, x->pe_cap * 2 * sizeof *x->pe, MAPPED_PE);
    x->pk = NULL;
    x->pe = NULL;
    x->pk_cap = x->pe_cap = 0;
    reset_pending(x);
}

/* A new extension: nothing pending, no runs, no filter, no count yet. */
static exact_ext *ext_new(void)
{
    exact_ext *x = calloc(1, sizeof *x);
    if (x) {
        x->pend_sorted = 1;
        x->ends_rows = SIZE_MAX;
    }
    return x;
}

exact_ext *exact_ext_get(exact_store *s)
{
    if (!s->x)
        s->x = ext_new();
    return s->x;
}

/* Frees the extension if none of it is in use and the store is small (a
 * split's lower half): small stores go without one (store_exact.h). What
 * it remembered for counts (hints, ends, idle counts) only speeds them. */
static void ext_release_if_unused(exact_store *s)
{
    exact_ext *x = s->x;
    if (!x || s->rows >= SMALL_ROWS || x->npend || x->pk || x->pe || x->filter)
        return;
    assert(x->nruns == 0 && x->nsorted == 0);
    free(x);
    s->x = NULL;
}

/* Moves main rows [lo, hi) up to end just below record offset *w and index
 * slot *wi (both >= the rows' current ends), fixing their offsets. */
static void move_rows_up(exact_store *s, size_t lo, size_t hi, size_t *w, size_t *wi)
{
    if (lo == hi)
        return;
    size_t start = s->idx[lo];
    size_t end = s->idx[hi - 1] + rec_size_at(s->rec + s->idx[hi - 1]);
    *w -= end - start;
    memmove(s->rec + *w, s->rec + start, end - start);
    uint64_t delta = *w - start;
    for (size_t r = hi; r-- > lo;)
        s->idx[--*wi] = s->idx[r] + delta;
}

/* Main is walked down from row i in a merge, in a big store far past the
 * caches, and the hardware fetches a descending walk late: fetches main's
 * record bytes and index slots MAIN_AHEAD_* below row i, each cache line
 * once (*ahead and *ahead_row: where the fetches reached). */
static inline void fetch_main_ahead(const exact_store *s, size_t i, size_t *ahead,
                                    size_t *ahead_row)
{
    size_t at = s->idx[i - 1], to = at > MAIN_AHEAD_BYTES ? at - MAIN_AHEAD_BYTES : 0;
    for (; *ahead > to; *ahead = *ahead > 64 ? *ahead - 64 : 0)
        prefetch(s->rec + *ahead);
    size_t row = i > MAIN_AHEAD_ROWS ? i - MAIN_AHEAD_ROWS : 0;
    for (; *ahead_row > row; *ahead_row = *ahead_row > 8 ? *ahead_row - 8 : 0)
        prefetch(s->idx + *ahead_row);
}

/* Merges pending into main in place (see the top of the file). Never
 * allocates: store_put reserved rec_len + pend_rec bytes and rows + npend
 * index slots. keep_buffers keeps pending's (now empty) arrays for the
 * puts to come; otherwise they are freed. */
static void merge_pending_into_main(exact_store *s, int keep_buffers)
{
    exact_ext *x = s->x;
    if (!x) /* nothing pending, no buffers */
        return;
    if (x->npend == 0) { /* nothing pending, or all of it folded away */
        reset_pending(x);
        if (!keep_buffers && x->pe) {
            drop_pending(s);
            trim_main(s);
        }
        return;
    }
    for (size_t j = x->nsorted; x->filter && j < x->npend; j++) /* runs are in */
        filter_add(x, x->pk + x->pe[j].off, x->pe[j].len);
    if (!x->pend_sorted)
        sort_pending(x);
    size_t total = s->rec_len + x->pend_rec, nrows = s->rows + x->npend;
    assert(total <= s->rec_cap && nrows <= s->idx_cap);
    size_t i = s->rows;   /* main rows [0, i) are still in place */
    size_t w = total;     /* records are written below w */
    size_t wi = nrows;    /* index slots are written below wi */
    size_t ahead = s->rec_len, ahead_row = s->rows; /* fetched down to */
    for (size_t j = x->npend; j-- > 0;) {
        /* Sorted pending keys sit all over the arena: fetch them early. */
        if (j >= PREFETCH_AHEAD)
            prefetch(x->pk + x->pe[j - PREFETCH_AHEAD].off);
        /* Main is walked down from the top, far past the caches in a big
         * store: fetch its records and index slots ahead of the walk. */
        if (i > 0)
            fetch_main_ahead(s, i, &ahead, &ahead_row);
        const pend *p = &x->pe[j];
        pkey k = { x->pk + p->off, p->len, p->prefix };
        size_t lo = row_after(s, i, &k);
        move_rows_up(s, lo, i, &w, &wi);
        i = lo;
        if (i > 0 && row_compare(s, i - 1, &k) == 0) {
            add_row_bytes(s, i - 1, p->bytes);
            continue;
        }
        w -= REC_HDR + p->len;
        write_record(s->rec + w, k.data, p->len, p->bytes);
        s->idx[--wi] = w;
    }
    /* Keys already in main leave a hole between rows [0, i) and the rest. */
    size_t end = i ? s->idx[i - 1] + rec_size_at(s->rec + s->idx[i - 1]) : 0;
    assert((w == end) == (wi == i));
    if (w > end) {
        size_t gap = w - end;
        memmove(s->rec + end, s->rec + w, total - w);
        for (size_t r = wi; r < nrows; r++)
            s->idx[i + r - wi] = s->idx[r] - gap;
        total -= gap;
        nrows -= wi - i;
    }
    s->rec_len = total;
    s->rows = nrows;
    reset_pending(x);
    if (!keep_buffers) {
        drop_pending(s);
        trim_main(s);
    }
    assert(rows_ordered_near(s, i));
}

/* Before a query: a store that is read may stay idle, so free pending. */
void exact_merge_pending(exact_store *s)
{
    merge_pending_into_main(s, 0);
}

static size_t pend_limit(const exact_store *s)
{
    return s->rows / 8 > PEND_MIN ? s->rows / 8 : PEND_MIN;
}

/* Appends k to pending, first reserving main's room for it (and making
 * the extension, the first time). */
static int append_pending(exact_store *s, const pkey *k, uint32_t b, int ascending)
{
    exact_ext *x = s->x;
    if (!x && !(x = exact_ext_get(s)))
        return -1;
    size_t n = x->npend + 1;
    if (reserve_keys(s, x->pk_len + k->len) ||
        reserve_rec(s, s->rec_len + x->pend_rec + REC_HDR + k->len) ||
        reserve_index(s, s->rows + n) || reserve_pending(s, n))
        return -1;
    pend *e = &x->pe[x->npend++];
    e->prefix = k->prefix;
    e->off = x->pk_len;
    e->len = (uint32_t)k->len;
    e->bytes = b;
    memcpy(x->pk + x->pk_len, k->data, k->len);
    x->pk_len += k->len;
    x->pend_rec += REC_HDR + k->len;
    x->pend_puts++;
    x->pend_sorted = x->pend_sorted && ascending;
    return 0;
}

/* ---- the interface (store.h's, for an exact store) ----------------------- */

exact_store *exact_new(void)
{
    exact_store *s = calloc(1, sizeof *s);
    if (s)
        s->base.kind = STORE_EXACT;
    return s;
}

void exact_free(exact_store *s)
{
    if (!s)
        return;
    free_array(s, s->rec, s->rec_cap, MAPPED_REC);
    free_array(s, s->idx, s->idx_cap * sizeof *s->idx, MAPPED_IDX);
    exact_ext *x = s->x;
    if (x) {
        free_array(s, x->pk, x->pk_cap, MAPPED_PK);
        free_array(s, x->pe, x->pe_cap * 2 * sizeof *x->pe, MAPPED_PE);
        free(x->filter);
        free(x);
    }
    free(s);
}

/* Fetches the cache lines from p to p + n at once. */
static inline void fetch_lines(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)63, end = (uintptr_t)p + n;
    for (; a < end; a += 64)
        prefetch((const void *)a);
}

/* A small store's put reads its rows one dependent miss after another:
 * the last row's index slot and then its record, then insert_main's
 * binary search, slot then record at each probe. Its index and records
 * are a few cache lines (SMALL_ROWS rows at most, a few hundred bytes at
 * a million regions' sizes), most of which the put touches: fetch them
 * all at once (records up to SMALL_FETCH_BYTES: long keys), so that the
 * misses overlap. */
static inline void fetch_small_store(const exact_store *s)
{
    if (s->rows >= SMALL_ROWS)
        return;
    fetch_lines(s->idx, s->rows * sizeof *s->idx);
    fetch_lines(s->rec, s->rec_len < SMALL_FETCH_BYTES ? s->rec_len : SMALL_FETCH_BYTES);
}

/* A put to a store with an extension reads pending's fields, in the
 * extension's first two cache lines, after the struct's: fetch them now,
 * so that their miss overlaps the last-row compare's. */
static inline void fetch_ext(const exact_store *s)
{
    if (s->x)
        fetch_lines(s->x, offsetof(exact_ext, filter));
}

/* Does k point into s's own records (a key from store_row_at & co.)? */
static int key_is_inside(const exact_store *s, keyref k)
{
    uintptr_t p = (uintptr_t)k.data, r = (uintptr_t)s->rec;
    return s->rec && p >= r && p < r + s->rec_len;
}

int exact_put(exact_store *s, keyref k, uint32_t cell_bytes)
{
    assert(k.len >= 1 && k.len <= KEY_MAX_LEN);
    if (k.len < 1 || k.len > KEY_MAX_LEN)
        return -1;
    fetch_small_store(s);
    fetch_ext(s);
    if (key_is_inside(s, k)) { /* a realloc below would pull it away */
        uint8_t *copy = key_copy(k);
        int rc = copy ? exact_put(s, keyref_of(copy, k.len), cell_bytes) : -1;
        free(copy);
        return rc;
    }
    pkey pk = pkey_of(k.data, k.len);
    for (;;) {
        int c = s->rows ? -row_compare(s, s->rows - 1, &pk) : 1;
        if (c == 0) {
            add_row_bytes(s, s->rows - 1, cell_bytes);
            break;
        }
        exact_ext *x = s->x;
        size_t npend = x ? x->npend : 0;
        if (c > 0 && npend == 0) {
            if (append_main(s, k, cell_bytes))
                return -1;
            break;
        }
        if (npend == 0 && s->rows < SMALL_ROWS) {
            if (insert_main(s, &pk, cell_bytes))
                return -1;
            break;
        }
        int d = 1;
        if (npend) {
            pend *last = &x->pe[npend - 1];
            pkey l = { x->pk + last->off, last->len, last->prefix };
            d = pkey_compare(pk.prefix, k.data, k.len, &l);
            if (d == 0) {
                last->bytes = add_saturating(last->bytes, cell_bytes);
                break;
            }
        }
        if (x && x->pend_puts >= pend_limit(s)) {
            merge_pending_into_main(s, 1);
            continue; /* k may now be main's last row or above it */
        }
        if (append_pending(s, &pk, cell_bytes, d > 0))
            return -1;
        break;
    }
    s->bytes += cell_bytes;
    s->cells++;
    return 0;
}

uint64_t exact_bytes(const exact_store *s) { return s->bytes; }
uint64_t exact_cells(const exact_store *s) { return s->cells; }

uint64_t exact_rows(exact_store *s)
{
    exact_merge_pending(s);
    return s->rows;
}

int exact_row_at(exact_store *s, uint64_t i, keyref *key, uint64_t *bytes)
{
    exact_merge_pending(s);
    if (i >= s->rows)
        return -1;
    const uint8_t *p = s->rec + s->idx[i];
    *key = keyref_of(p + REC_HDR, rd16(p));
    *bytes = rd32(p + 2);
    return 0;
}

int exact_middle_key(exact_store *s, keyref *mid)
{
    exact_merge_pending(s);
    if (s->rows == 0)
        return -1;
    if (s->bytes == 0) { /* no sizes to go by: the middle row */
        *mid = row_key(s, s->rows / 2);
        return 0;
    }
    /* Through the index, not record after record: the loads do not wait
     * for the previous record's length, so they overlap. */
    uint64_t half = s->bytes / 2, sum = 0;
    for (size_t r = 0; r < s->rows; r++) {
        sum += rd32(s->rec + s->idx[r] + 2);
        if (sum > half) {
            *mid = row_key(s, r);
            return 0;
        }
    }
    /* Only reachable when saturated rows undercount the total. */
    *mid = row_key(s, s->rows - 1);
    return 0;
}

int exact_first_last(exact_store *s, keyref *first, keyref *last)
{
    exact_merge_pending(s);
    if (s->rows == 0)
        return -1;
    *first = row_key(s, 0);
    *last = row_key(s, s->rows - 1);
    return 0;
}

/* Cells moving with n of rows rows that carry moved of bytes bytes:
 * proportional, at least one per row on each side. */
static uint64_t apportion_cells(const exact_store *s, size_t n, uint64_t moved)
{
    double share = s->bytes ? (double)moved / (double)s->bytes
                            : (double)n / (double)s->rows;
    uint64_t c = (uint64_t)((double)s->cells * share + 0.5);
    uint64_t keep_min = s->rows - n;
    if (c > s->cells - keep_min)
        c = s->cells - keep_min;
    if (c < n)
        c = n;
    return c;
}

exact_store *exact_split(exact_store *s, keyref at)
{
    exact_merge_pending(s);
    exact_store *t = exact_new();
    if (!t)
        return NULL;
    size_t r = lower_bound(s, at), n = s->rows - r;
    if (n == 0)
        return t;
    size_t start = s->idx[r], len = s->rec_len - start;
    /* t's index is allocated first: should the records' pages move and
     * the index's then not, the index is copied into it, so that nothing
     * can fail once pages have moved (on any failure s is as it was). */
    void *nidx = NULL;
    if (resize_array(t, &nidx, 0, 0, n * sizeof *t->idx, MAPPED_IDX))
        goto fail;
    t->idx = nidx;
    t->idx_cap = n;
    int rec_moved = 0, idx_moved = 0;
#ifdef MAP_BIG_ARRAYS
    /* Big arrays: the upper rows' pages become the new store's (the
     * monotonic case: the new store is the one written, and gets the room
     * the old one had grown), the lower rows' stay. */
    size_t icap = s->idx_cap * sizeof *s->idx, ifrom = r * sizeof *s->idx;
    tail_move mr, mi;
    void *rec = s->rec, *idx = s->idx, *trec, *tidx;
    size_t rkept, ikept;
    if (r > 0 && (s->mapped & MAPPED_REC) && (s->mapped & MAPPED_IDX) &&
        !tail_plan(&mr, s->rec, s->rec_cap, start) && !tail_plan(&mi, s->idx, icap, ifrom) &&
        !tail_take(&mr, &rec, &trec, &rkept)) {
        s->rec = rec;
        t->rec = trec;
        t->rec_cap = s->rec_cap - start;
        s->rec_cap = rkept;
        t->mapped |= MAPPED_REC;
        rec_moved = 1;
        if (!tail_take(&mi, &idx, &tidx, &ikept)) { /* else copied to nidx */
            free_array(t, nidx, n * sizeof *t->idx, MAPPED_IDX);
            s->idx = idx;
            t->idx = tidx;
            t->idx_cap = s->idx_cap - r;
            s->idx_cap = ikept / sizeof *s->idx;
            t->mapped |= MAPPED_IDX;
            idx_moved = 1;
        }
    }
#endif
    if (!rec_moved) {
        void *nrec = NULL;
        if (resize_array(t, &nrec, 0, 0, len, MAPPED_REC))
            goto fail;
        t->rec = nrec;
        t->rec_cap = len;
        memcpy(t->rec, s->rec + start, len);
    }
    if (!idx_moved)
        memcpy(t->idx, s->idx + r, n * sizeof *t->idx);
    uint64_t moved = 0;
    for (size_t i = 0; i < n; i++) {
        t->idx[i] -= start;
        moved += rd32(t->rec + t->idx[i] + 2);
    }
    t->rec_len = len;
    t->rows = n;
    if (r == 0) {
        t->bytes = s->bytes;
        t->cells = s->cells;
    } else {
        assert(moved <= s->bytes);
        t->bytes = moved;
        t->cells = apportion_cells(s, n, moved);
    }
    s->bytes -= t->bytes;
    s->cells -= t->cells;
    s->rows = r;
    s->rec_len = start;
    trim_main(s);
    if (s->x) {
        s->x->ends_rows = SIZE_MAX; /* rows may come back to r with other ends */
        filter_free(s->x); /* sized for both halves: each builds its own when read */
        ext_release_if_unused(s);
    }
    return t;
fail:
    exact_free(t);
    return NULL;
}

size_t exact_memory(const exact_store *s)
{
    size_t n = sizeof *s + s->rec_cap + s->idx_cap * sizeof *s->idx;
    const exact_ext *x = s->x;
    if (x)
        n += sizeof *x + x->pk_cap + x->pe_cap * 2 * sizeof *x->pe +
             x->filter_blocks * 8 * sizeof *x->filter;
    return n;
}

/* store_prefetch_put: what the put will read, asked of memory ahead of it
 * (the same fetches a put makes first): a small store's index and records
 * (insert_main moves those above its key), a larger one's extension and
 * last index slot (its put compares with the last row first). */
void exact_prefetch_put(const exact_store *s)
{
    if (!s->rows)
        return;
    if (s->rows < SMALL_ROWS && pending_of(s) == 0) {
        fetch_small_store(s);
        return;
    }
    fetch_ext(s);
    prefetch(&s->idx[s->rows - 1]);
}
