/* test_pattern.c -- every pattern kind: arrivals in time order at the
 * configured rate, and the records they carry; entities choose operations
 * and keys exactly as YCSB's CoreWorkload (ycsb_keychooser) does, and
 * neither entities nor sequence ever read an id not yet written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/pattern.h"
#include "workloads/rng.h"
#include "workloads/ycsb.h"

static pattern_config timeseries(uint32_t metrics, uint32_t hosts, uint64_t interval_us)
{
    pattern_config c = { .kind = PATTERN_TIMESERIES, .metrics = metrics, .hosts = hosts,
                         .tags = 1, .interval_us = interval_us };
    return c;
}

static pattern *make(const pattern_config *c)
{
    char err[256];
    pattern *p = pattern_new(c, 42, err, sizeof err);
    if (!p)
        fail_msg("pattern_new: %s", err);
    return p;
}

static void next(pattern *p, uint64_t *t, record *r)
{
    char err[256];
    assert_int_equal(pattern_next(p, t, r, err, sizeof err), 1);
}

static void test_rejects_bad_config(void **state)
{
    (void)state;
    pattern_config bad[] = {
        timeseries(0, 1, 1000), timeseries(1, 0, 1000), timeseries(1, 1, 0),
        timeseries(65536, 65536, 1000), /* 2^32 series: entity ids overflow */
        { .kind = PATTERN_ENTITIES, .records = 0, .rate_per_s = 10 },
        { .kind = PATTERN_ENTITIES, .records = 10, .rate_per_s = 0 },
        { .kind = PATTERN_ENTITIES, .records = 10, .rate_per_s = 5, .insert_fraction = 1.5 },
        /* both are shares of all operations: together at most 1 */
        { .kind = PATTERN_ENTITIES, .records = 10, .rate_per_s = 5, .insert_fraction = 0.5,
          .read_fraction = 0.6 },
        { .kind = PATTERN_ENTITIES, .records = 10, .rate_per_s = 5, .read_fraction = -0.1 },
        /* YCSB's hot set is 20% of the records: none of 4 */
        { .kind = PATTERN_ENTITIES, .records = 4, .rate_per_s = 5, .distribution = DIST_HOTSPOT },
        { .kind = PATTERN_SEQUENCE, .rate_per_s = 5, .read_fraction = 1.5 },
        { .kind = PATTERN_SEQUENCE, .rate_per_s = -1 },
        { .kind = PATTERN_TRACE, .trace_path = NULL },
        { .kind = PATTERN_TRACE, .trace_path = "/nonexistent/trace.csv" },
    };
    char err[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_null(pattern_new(&bad[i], 1, err, sizeof err));
        assert_true(err[0] != '\0'); /* every refusal says why */
    }
    pattern_config most = timeseries(65535, 65537, 1000); /* 2^32 - 1 series */
    pattern *p = make(&most);
    pattern_free(p);
    /* YCSB D's mix: 95% reads, 5% inserts, no updates (0.95 + 0.05 may
     * round above 1); and every read (0.7 + 0.3). */
    pattern_config d = { .kind = PATTERN_ENTITIES, .records = 10, .rate_per_s = 5,
                         .read_fraction = 0.95, .insert_fraction = 0.05 };
    pattern_free(make(&d));
    d.read_fraction = 0.7;
    d.insert_fraction = 0.3;
    pattern_free(make(&d));
}

/* 3 metrics x 5 hosts over several rounds: times non-decreasing, every
 * series exactly once per interval, in entity order, fields consistent. */
static void test_timeseries_rounds(void **state)
{
    (void)state;
    enum { M = 3, H = 5, S = M * H, ROUNDS = 4 };
    const uint64_t iv = 60 * 1000000u;
    pattern_config c = timeseries(M, H, iv);
    pattern *p = make(&c);
    uint64_t prev = 0;
    for (uint64_t k = 0; k < ROUNDS; k++) {
        int seen[S] = { 0 };
        for (uint32_t i = 0; i < S; i++) {
            uint64_t t;
            record r;
            next(p, &t, &r);
            assert_true(t >= prev);
            prev = t;
            assert_true(t == k * iv + i * iv / S);
            assert_int_equal(r.entity, i);
            assert_int_equal(r.metric, i / H);
            assert_int_equal(r.host, i % H);
            assert_int_equal(r.op, RECORD_PUT);
            assert_int_equal(r.naming, NAMING_SERIES);
            seen[r.entity]++;
        }
        for (int e = 0; e < S; e++)
            assert_int_equal(seen[e], 1);
    }
    assert_true(pattern_rate_per_s(p) > S / 60.0 - 1e-9 && pattern_rate_per_s(p) < S / 60.0 + 1e-9);
    pattern_free(p);
}

/* 3 series over 10 us: floor(i*10/3) = 0, 3, 6, then 10, 13, 16; and an
 * interval whose i * interval overflows 64 bits. */
static void test_timeseries_stagger_exact(void **state)
{
    (void)state;
    pattern_config c = timeseries(1, 3, 10);
    pattern *p = make(&c);
    const uint64_t want[] = { 0, 3, 6, 10, 13, 16 };
    for (size_t i = 0; i < 6; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_true(t == want[i]);
    }
    pattern_free(p);
    c = timeseries(3, 1, UINT64_C(3) << 61);
    p = make(&c);
    const uint64_t huge[] = { 0, UINT64_C(1) << 61, UINT64_C(1) << 62 };
    for (size_t i = 0; i < 3; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_true(t == huge[i]);
    }
    pattern_free(p);
}

static void test_timeseries_tags(void **state)
{
    (void)state;
    pattern_config c = timeseries(2, 3, 1000000);
    c.tags = 4;
    pattern *p = make(&c);
    int seen[2][3][4] = { { { 0 } } };
    for (int i = 0; i < 24; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_int_equal(r.entity, ((r.metric * 3) + r.host) * 4 + r.tag);
        assert_int_equal(r.naming, NAMING_SERIES_TAGGED);
        seen[r.metric][r.host][r.tag]++;
    }
    for (int m = 0; m < 2; m++)
        for (int h = 0; h < 3; h++)
            for (int g = 0; g < 4; g++)
                assert_int_equal(seen[m][h][g], 1);
    pattern_free(p);
}

/* With jitter every point is late by [0, jitter) and still in time order. */
static void test_timeseries_jitter(void **state)
{
    (void)state;
    const uint64_t iv = 1000000, jitter = 300000;
    pattern_config c = timeseries(4, 25, iv);
    c.jitter_us = jitter;
    pattern *p = make(&c);
    uint64_t prev = 0, late_sum = 0;
    uint32_t per_series[100] = { 0 };
    for (int i = 0; i < 100 * 50; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_true(t >= prev);
        prev = t;
        uint64_t round = per_series[r.entity]++;
        uint64_t on_time = round * iv + r.entity * iv / 100;
        assert_true(t >= on_time && t < on_time + jitter);
        late_sum += t - on_time;
    }
    /* Uniform lateness: mean about jitter / 2. */
    double mean = (double)late_sum / 5000.0;
    assert_true(mean > jitter * 0.45 && mean < jitter * 0.55);
    pattern_free(p);
}

static void test_entities_draw_and_insert(void **state)
{
    (void)state;
    pattern_config c = { .kind = PATTERN_ENTITIES, .records = 1000, .rate_per_s = 500,
                         .distribution = DIST_UNIFORM, .naming = NAMING_DOMAIN,
                         .insert_fraction = 0.1 };
    pattern *p = make(&c);
    uint64_t t, prev = 0;
    record r;
    uint32_t max_id = 0, inserts = 0;
    for (int i = 0; i < 10000; i++) {
        next(p, &t, &r);
        assert_true(t >= prev);
        prev = t;
        assert_int_equal(r.naming, NAMING_DOMAIN);
        if (r.entity >= 1000 + inserts) /* a new entity: exactly the next id */
            assert_int_equal(r.entity, 1000 + inserts++);
        if (r.entity > max_id)
            max_id = r.entity;
    }
    /* About 10% of 10,000 operations inserted. */
    assert_true(inserts > 850 && inserts < 1150);
    assert_int_equal(max_id, 1000 + inserts - 1);
    /* Fixed arrivals at 500/s: the 10,000th at 19.998 s. */
    assert_true(t == 19998000);
    pattern_free(p);
}

static void test_sequence_ids_and_poisson_rate(void **state)
{
    (void)state;
    pattern_config c = { .kind = PATTERN_SEQUENCE, .rate_per_s = 2000,
                         .arrivals = ARRIVALS_POISSON, .naming = NAMING_ID };
    pattern *p = make(&c);
    uint64_t t = 0, prev = 0;
    record r;
    for (uint32_t i = 0; i < 20000; i++) {
        next(p, &t, &r);
        assert_int_equal(r.entity, i);
        assert_true(t >= prev);
        prev = t;
    }
    /* 20,000 Poisson arrivals at 2,000/s: about 10 s (sd ~0.07 s). */
    assert_true(t > 9600000 && t < 10400000);
    pattern_free(p);
}

static void test_same_seed_same_operations(void **state)
{
    (void)state;
    pattern_config c = { .kind = PATTERN_ENTITIES, .records = 5000, .rate_per_s = 100,
                         .distribution = DIST_ZIPFIAN, .arrivals = ARRIVALS_POISSON };
    char err[64];
    pattern *a = pattern_new(&c, 7, err, sizeof err), *b = pattern_new(&c, 7, err, sizeof err);
    pattern *other = pattern_new(&c, 8, err, sizeof err);
    int differs = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t ta, tb, to;
        record ra, rb, ro;
        next(a, &ta, &ra);
        next(b, &tb, &rb);
        next(other, &to, &ro);
        assert_true(ta == tb);
        assert_int_equal(ra.entity, rb.entity);
        differs |= ta != to || ra.entity != ro.entity;
    }
    assert_true(differs);
    pattern_free(a);
    pattern_free(b);
    pattern_free(other);
}

/* pattern.c's stream of operation and key draws ("entities" in ASCII). */
#define OPS_STREAM 0x656e746974696573ull

static pattern_config entities(dist_kind d, uint64_t records, double read, double insert,
                               uint64_t operations)
{
    pattern_config c = { .kind = PATTERN_ENTITIES, .records = records, .rate_per_s = 1000,
                         .distribution = d, .read_fraction = read,
                         .insert_fraction = insert, .operations = operations,
                         .naming = NAMING_USER };
    return c;
}

/* For every YCSB request distribution, the entities pattern makes
 * exactly CoreWorkload's operations and keys: ycsb_keychooser built from
 * recordcount = insertcount = records, the fractions as proportions
 * (update the rest) and operationcount, drawn from the same stream, with
 * inserts acknowledged at once. So `zipfian`'s hot keys are YCSB's. Reads
 * come as GET without a key, updates and inserts as PUT. Poisson arrivals
 * draw from another stream and change nothing. */
static void test_entities_are_coreworkload(void **state)
{
    (void)state;
    static const struct { dist_kind d; ycsb_requestdist y; } kinds[] = {
        { DIST_UNIFORM, YCSB_REQ_UNIFORM }, { DIST_ZIPFIAN, YCSB_REQ_ZIPFIAN },
        { DIST_LATEST, YCSB_REQ_LATEST }, { DIST_HOTSPOT, YCSB_REQ_HOTSPOT },
        { DIST_SEQUENTIAL, YCSB_REQ_SEQUENTIAL }, { DIST_EXPONENTIAL, YCSB_REQ_EXPONENTIAL },
    };
    ycsb_keychooser *k = malloc(sizeof *k);
    assert_non_null(k);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        pattern_config c = entities(kinds[i].d, 1000, 0.5, 0.05, 20000);
        c.arrivals = i % 2 ? ARRIVALS_POISSON : ARRIVALS_FIXED;
        pattern *p = make(&c);
        ycsb_props props;
        ycsb_props_default(&props);
        props.recordcount = 1000;
        props.insertstart = 0;
        props.insertcount = 1000;
        props.operationcount = 20000;
        props.readproportion = 0.5;
        props.insertproportion = 0.05;
        props.updateproportion = 1.0 - 0.5 - 0.05;
        props.requestdistribution = kinds[i].y;
        assert_int_equal(ycsb_keychooser_init(k, &props), 0);
        rng r = rng_stream(42, OPS_STREAM);
        int counts[3] = { 0 };
        for (int n = 0; n < 20000; n++) {
            int op = ycsb_keychooser_next_op(k, &r);
            int64_t key;
            if (op == YCSB_OP_INSERT) {
                key = ycsb_keychooser_next_insert(k);
                assert_int_equal(
                    ycsb_ackcounter_acknowledge(&k->transactioninsertkeysequence, key), 0);
            } else {
                assert_int_equal(ycsb_keychooser_next_keynum(k, &r, &key), 0);
            }
            uint64_t t;
            record rec;
            next(p, &t, &rec);
            assert_true(rec.entity == (uint64_t)key);
            assert_int_equal(rec.op, op == YCSB_OP_READ ? RECORD_GET : RECORD_PUT);
            assert_null(rec.key);
            assert_int_equal(rec.naming, NAMING_USER);
            counts[op == YCSB_OP_READ ? 0 : op == YCSB_OP_UPDATE ? 1 : 2]++;
        }
        assert_true(counts[0] > 9600 && counts[0] < 10400);
        assert_true(counts[1] > 8600 && counts[1] < 9400);
        assert_true(counts[2] > 850 && counts[2] < 1150);
        pattern_free(p);
    }
    free(k);
}

/* Counts of each id over n operations of c (ids below `ids`). */
static uint32_t *entity_counts(const pattern_config *c, uint64_t seed, int n, uint64_t ids)
{
    char err[256];
    pattern *p = pattern_new(c, seed, err, sizeof err);
    if (!p)
        fail_msg("pattern_new: %s", err);
    uint32_t *counts = calloc(ids, sizeof *counts);
    assert_non_null(counts);
    for (int i = 0; i < n; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_true(r.entity < ids);
        counts[r.entity]++;
    }
    pattern_free(p);
    return counts;
}

/* YCSB's zipfian: ScrambledZipfianGenerator(0, records + expectednewkeys),
 * its item i on key fnvhash64(i) % (records + expectednewkeys + 1).
 * 10,000 records, 100,000 operations expected, 5% inserts:
 * expectednewkeys = 10,000, 20,001 keys; items 0..3 land on 12936, 3457,
 * 11893, 2414. In the first 20,000 operations about 1,000 ids are
 * inserted, so items 0 and 2 are redrawn (never written, never read): the
 * hottest key is item 1's, then item 3's. (The old draw, fnvhash64 % the
 * growing count, made other keys hot and moved them at every insert.) */
static void test_zipfian_hot_keys_are_ycsb(void **state)
{
    (void)state;
    pattern_config c = entities(DIST_ZIPFIAN, 10000, 0.5, 0.05, 100000);
    uint32_t *counts = entity_counts(&c, 3, 20000, 20001);
    const uint64_t n = 20001;
    assert_true(ycsb_fnvhash64(0) % n == 12936 && ycsb_fnvhash64(1) % n == 3457);
    assert_true(ycsb_fnvhash64(2) % n == 11893 && ycsb_fnvhash64(3) % n == 2414);
    uint32_t first = 0, second = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (counts[i] > counts[first]) {
            second = first;
            first = i;
        } else if (i != first && counts[i] > counts[second]) {
            second = i;
        }
    }
    assert_int_equal(first, 3457);
    assert_int_equal(second, 2414);
    assert_int_equal(counts[12936], 0);
    assert_int_equal(counts[11893], 0);
    /* Item 1: 0.5^0.99 / 26.47 = 1.9% of the draws; about half of the
     * draws are redrawn (items above the last insert), so some 3.8%. */
    assert_true(counts[3457] > 19000 * 0.019 && counts[3457] < 19000 * 0.05);
    free(counts);
}

/* YCSB E's measure: with zipfian and 5% inserts, the top 1% of keys get
 * 30.3% of the operations in YCSB. The same here for 100,000 records and
 * 100,000 operations (95% reads, 5% inserts): the 1,000 busiest keys get
 * 30.0-30.3% over seeds (the old draw, reshuffled by every insert, spread
 * them). The share grows with the records (28% for 100,000 records and
 * 10^6 operations, whose expectednewkeys spreads the keys wider; 39% for
 * 10^6 and 10^6), as a zipfian's does. */
static int by_count_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void test_zipfian_top_percent_share_as_ycsb_e(void **state)
{
    (void)state;
    enum { RECORDS = 100000, OPS = 100000 };
    pattern_config c = entities(DIST_ZIPFIAN, RECORDS, 0.95, 0.05, OPS);
    uint64_t ids = RECORDS + OPS / 10;
    uint32_t *counts = entity_counts(&c, 5, OPS, ids);
    qsort(counts, ids, sizeof *counts, by_count_desc);
    uint64_t top = 0;
    for (int i = 0; i < RECORDS / 100; i++)
        top += counts[i];
    double share = (double)top / OPS;
    print_message("top 1%% of keys: %.1f%% of operations\n", 100 * share);
    assert_true(share > 0.29 && share < 0.315);
    free(counts);
}

/* No read or update of an id not yet written, whatever the distribution,
 * with inserts: every PUT of a new id is exactly the next id; every other
 * operation names an id below it. */
static void test_entities_never_touch_unwritten_ids(void **state)
{
    (void)state;
    for (int d = DIST_UNIFORM; d <= DIST_EXPONENTIAL; d++) {
        pattern_config c = entities((dist_kind)d, 100, 0.4, 0.3, 20000);
        pattern *p = make(&c);
        uint64_t written = 100;
        int reads = 0, inserts = 0;
        for (int i = 0; i < 20000; i++) {
            uint64_t t;
            record r;
            next(p, &t, &r);
            if (r.op == RECORD_PUT && r.entity == written) {
                written++;
                inserts++;
                continue;
            }
            assert_true(r.entity < written);
            reads += r.op == RECORD_GET;
        }
        assert_true(inserts > 5700 && inserts < 6300);
        assert_true(reads > 7700 && reads < 8300);
        pattern_free(p);
    }
}

/* YCSB's uniform, hotspot and sequential stay on the loaded records
 * (UniformLongGenerator(0, records - 1) and the like): inserted ids are
 * never read or updated, however many there are. */
static void test_uniform_hotspot_sequential_stay_loaded(void **state)
{
    (void)state;
    const dist_kind kinds[] = { DIST_UNIFORM, DIST_HOTSPOT, DIST_SEQUENTIAL };
    for (size_t k = 0; k < 3; k++) {
        pattern_config c = entities(kinds[k], 1000, 0.25, 0.5, 20000);
        pattern *p = make(&c);
        uint64_t written = 1000, hot = 0, others = 0;
        for (int i = 0; i < 20000; i++) {
            uint64_t t;
            record r;
            next(p, &t, &r);
            if (r.op == RECORD_PUT && r.entity == written) {
                written++;
                continue;
            }
            assert_true(r.entity < 1000);
            hot += r.entity < 200;
            others++;
        }
        assert_true(written > 10000);
        if (kinds[k] == DIST_HOTSPOT) /* 80% on the first 20% */
            assert_true(hot > 0.77 * others && hot < 0.83 * others);
        pattern_free(p);
    }
}

/* YCSB D: 95% reads, 5% inserts, no updates: every PUT inserts, and the
 * newest records are the most read. */
static void test_entities_ycsb_d(void **state)
{
    (void)state;
    pattern_config c = entities(DIST_LATEST, 1000, 0.95, 0.05, 20000);
    pattern *p = make(&c);
    uint64_t written = 1000, reads = 0, newest = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        if (r.op == RECORD_PUT) {
            assert_true(r.entity == written); /* an insert, never an update */
            written++;
            continue;
        }
        assert_int_equal(r.op, RECORD_GET);
        assert_true(r.entity < written);
        reads++;
        newest += r.entity + 10 >= written;
    }
    assert_true(reads > 18800 && reads < 19200);
    assert_true(newest > reads / 3); /* the newest 10 of over 1000 records */
    assert_true(pattern_chooses_reads(&c));
    pattern_free(p);
}

/* The rank-ordered zipfian is ranked_zipfian now: id 0 the most popular,
 * then 1, ...; inserts lengthen its tail (the ranks stay), and it never
 * names an id not yet written. */
static void test_ranked_zipfian(void **state)
{
    (void)state;
    dist_kind kind;
    assert_int_equal(dist_kind_parse("ranked_zipfian", &kind), 0);
    pattern_config c = entities(kind, 1000, 0.5, 0.1, 0);
    pattern *p = make(&c);
    uint32_t counts[4000] = { 0 };
    uint64_t written = 1000, beyond = 0;
    for (int i = 0; i < 30000; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_true(r.entity < 4000);
        if (r.op == RECORD_PUT && r.entity == written) {
            written++;
            continue;
        }
        assert_true(r.entity < written);
        beyond += r.entity >= 1000;
        counts[r.entity]++;
    }
    assert_true(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > counts[3]);
    assert_true(counts[0] > 27000 * 0.11); /* 1 / zeta(~2500) = 0.12 */
    assert_true(beyond > 0);
    pattern_free(p);
}

/* Sequence with reads: the first operation inserts id 0; a share
 * read_fraction of all operations reads an id already written, the newest
 * the most read; inserts go on 0, 1, 2, ... */
static void test_sequence_reads_written_ids(void **state)
{
    (void)state;
    pattern_config c = { .kind = PATTERN_SEQUENCE, .rate_per_s = 1000, .read_fraction = 0.5,
                         .naming = NAMING_ID };
    assert_true(pattern_chooses_reads(&c));
    pattern *p = make(&c);
    uint64_t written = 0, reads = 0, newest = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        if (i == 0)
            assert_int_equal(r.op, RECORD_PUT);
        if (r.op == RECORD_PUT) {
            assert_true(r.entity == written++);
            continue;
        }
        assert_int_equal(r.op, RECORD_GET);
        assert_null(r.key);
        assert_true(r.entity < written);
        reads++;
        newest += r.entity + 1 == written;
    }
    assert_true(reads > 9700 && reads < 10300);
    assert_true(newest > reads / 10);
    pattern_free(p);
    /* Every operation a read: the one id ever written is read. */
    c.read_fraction = 1;
    p = make(&c);
    for (int i = 0; i < 100; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_int_equal(r.op, i == 0 ? RECORD_PUT : RECORD_GET);
        assert_int_equal(r.entity, 0);
    }
    pattern_free(p);
    pattern_config ts = timeseries(1, 1, 1000);
    assert_false(pattern_chooses_reads(&ts));
}

static void test_record_names(void **state)
{
    (void)state;
    char buf[64];
    record r = { .metric = 7, .host = 3, .naming = NAMING_SERIES };
    assert_int_equal(record_name(&r, buf, sizeof buf), 19);
    assert_string_equal(buf, "metric.007/host0003");
    r.naming = NAMING_SERIES_TAGGED;
    r.tag = 2;
    record_name(&r, buf, sizeof buf);
    assert_string_equal(buf, "metric.007/host0003/tag02");
    r = (record){ .entity = 0, .naming = NAMING_USER };
    record_name(&r, buf, sizeof buf);
    assert_string_equal(buf, "user6284781860667377211"); /* YCSB's first key */
    r = (record){ .entity = 42 * 4 + 0, .naming = NAMING_DOMAIN };
    record_name(&r, buf, sizeof buf);
    assert_string_equal(buf, "www.site00042.com");
    r = (record){ .entity = 42, .naming = NAMING_ID };
    record_name(&r, buf, sizeof buf);
    assert_string_equal(buf, "0000000042");
    const uint8_t key[] = { 'a', 0xff, ',' };
    r = (record){ .key = key, .key_len = 3, .naming = NAMING_KEY };
    record_name(&r, buf, sizeof buf);
    assert_string_equal(buf, "a\\xFF,");
    /* snprintf semantics: truncated, terminated, full length returned. */
    r = (record){ .metric = 7, .host = 3, .naming = NAMING_SERIES };
    assert_int_equal(record_name(&r, buf, 8), 19);
    assert_string_equal(buf, "metric.");
}

/* Weighted (pattern_set_weight): the stream of a weighted time series is
 * every w-th point of the unweighted one from some start u < w, found by
 * O(1) jumps, for w below and above the series count. */
static void check_systematic(const pattern_config *c, uint64_t w)
{
    enum { STEPPED = 200000 };
    size_t SAMPLED = (STEPPED - w) / w < 300 ? (STEPPED - w) / w : 300;
    assert_true(SAMPLED >= 100);
    pattern *all = make(c);
    uint64_t *t = malloc(STEPPED * sizeof *t);
    record *r = malloc(STEPPED * sizeof *r);
    assert_non_null(t);
    assert_non_null(r);
    for (size_t i = 0; i < STEPPED; i++)
        next(all, &t[i], &r[i]);
    pattern *one = make(c);
    assert_int_equal(pattern_set_weight(one, w, 7), 0);
    uint64_t t0;
    record r0;
    next(one, &t0, &r0);
    size_t u = 0;
    while (u < w && !(t[u] == t0 && r[u].entity == r0.entity))
        u++;
    assert_true(u < w); /* the start is one of the first w */
    for (size_t k = 1; k < SAMPLED; k++) {
        uint64_t tk;
        record rk;
        next(one, &tk, &rk);
        size_t i = u + k * w;
        assert_int_equal(tk, t[i]);
        assert_int_equal(rk.entity, r[i].entity);
        assert_int_equal(rk.metric, r[i].metric);
        assert_int_equal(rk.host, r[i].host);
        assert_int_equal(rk.tag, r[i].tag);
    }
    free(t);
    free(r);
    pattern_free(all);
    pattern_free(one);
}

static void test_weighted_timeseries_is_systematic(void **state)
{
    (void)state;
    pattern_config c = timeseries(7, 13, 1000); /* 91 series, 10.99 us apart */
    c.tags = 3;                                 /* 273 series */
    check_systematic(&c, 10);
    check_systematic(&c, 1);
    uint64_t w = pattern_weight_stride(&c, 100);
    assert_int_equal(w, 100); /* coprime with 273 = 3 x 7 x 13 already */
    check_systematic(&c, w);
    w = pattern_weight_stride(&c, 21); /* shares 3 and 7 */
    assert_int_equal(w, 22);
    /* past the series count: a step of about S / golden ratio, coprime */
    w = pattern_weight_stride(&c, 300);
    assert_true(w >= 300 && w < 300 + 273);
    assert_int_equal((w % 273) >= 160 && (w % 273) <= 180, 1);
    check_systematic(&c, w);
    pattern_config jittered = c;
    jittered.jitter_us = 10;
    pattern *p = make(&jittered);
    assert_int_equal(pattern_set_weight(p, 5, 1), -1); /* not weighted: refused */
    pattern_free(p);
}

/* A weighted sequence: every w-th fixed arrival, each insert one of w new
 * ids; the same seed gives the same stream. */
static void test_weighted_sequence(void **state)
{
    (void)state;
    pattern_config c = { .kind = PATTERN_SEQUENCE, .rate_per_s = 1000,
                         .arrivals = ARRIVALS_FIXED };
    pattern *a = make(&c), *b = make(&c);
    assert_int_equal(pattern_set_weight(a, 50, 9), 0);
    assert_int_equal(pattern_set_weight(b, 50, 9), 0);
    uint64_t t, tb, first = 0;
    record r, rb;
    for (uint64_t k = 0; k < 1000; k++) {
        next(a, &t, &r);
        next(b, &tb, &rb);
        assert_int_equal(t, tb);
        assert_int_equal(r.entity, rb.entity);
        assert_true(r.entity >= 50 * k && r.entity < 50 * (k + 1)); /* one of its 50 ids */
        if (k == 0)
            first = t / 1000; /* the start: an arrival in [0, 50) */
        assert_true(first < 50);
        assert_int_equal(t, (first + 50 * k) * 1000);
    }
    pattern_free(a);
    pattern_free(b);
    /* Poisson: gaps w times as long on average (rate / w) */
    c.arrivals = ARRIVALS_POISSON;
    a = make(&c);
    assert_int_equal(pattern_set_weight(a, 50, 9), 0);
    for (int k = 0; k < 20000; k++)
        next(a, &t, &r);
    double mean_gap = (double)t / 20000;
    assert_true(mean_gap > 50000 * 0.97 && mean_gap < 50000 * 1.03);
    pattern_free(a);
}

/* Weighted entities: the rate is divided by w, an insert takes w ids, and
 * reads and updates name only ids written. */
static void test_weighted_entities(void **state)
{
    (void)state;
    pattern_config c = { .kind = PATTERN_ENTITIES, .records = 1000, .rate_per_s = 1000,
                         .arrivals = ARRIVALS_FIXED, .distribution = DIST_UNIFORM,
                         .insert_fraction = 0.5, .read_fraction = 0.2 };
    pattern *p = make(&c);
    assert_int_equal(pattern_set_weight(p, 20, 3), 0);
    uint64_t t, last_t = 0, inserted = 1000, inserts = 0;
    record r;
    for (int k = 0; k < 5000; k++) {
        next(p, &t, &r);
        assert_true(k == 0 || t - last_t == 20000); /* every 20th of 1 ms arrivals */
        last_t = t;
        if (r.op == RECORD_PUT && r.entity >= inserted) { /* an insert: w ids */
            assert_true(r.entity < inserted + 20);
            inserted += 20;
            inserts++;
        } else {
            assert_true(r.entity < inserted);
        }
    }
    assert_true(inserts > 2300 && inserts < 2700); /* half of 5000 */
    pattern_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejects_bad_config),
        cmocka_unit_test(test_timeseries_rounds),
        cmocka_unit_test(test_timeseries_stagger_exact),
        cmocka_unit_test(test_timeseries_tags),
        cmocka_unit_test(test_timeseries_jitter),
        cmocka_unit_test(test_entities_draw_and_insert),
        cmocka_unit_test(test_sequence_ids_and_poisson_rate),
        cmocka_unit_test(test_same_seed_same_operations),
        cmocka_unit_test(test_entities_are_coreworkload),
        cmocka_unit_test(test_zipfian_hot_keys_are_ycsb),
        cmocka_unit_test(test_zipfian_top_percent_share_as_ycsb_e),
        cmocka_unit_test(test_entities_never_touch_unwritten_ids),
        cmocka_unit_test(test_uniform_hotspot_sequential_stay_loaded),
        cmocka_unit_test(test_entities_ycsb_d),
        cmocka_unit_test(test_ranked_zipfian),
        cmocka_unit_test(test_sequence_reads_written_ids),
        cmocka_unit_test(test_record_names),
        cmocka_unit_test(test_weighted_timeseries_is_systematic),
        cmocka_unit_test(test_weighted_sequence),
        cmocka_unit_test(test_weighted_entities),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
