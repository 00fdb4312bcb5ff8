/* test_ycsb.c -- YCSB's generators (workloads/ycsb.h) against facts
 * checked by hand from YCSB's source (zeta of small n, FNV-64 of known
 * values, key names, counters, the draw-to-value formulas at their
 * boundaries), reproducibility from a seed, and reference rows YCSB's own
 * classes computed (tests/data/ycsb_*.tsv, committed: a missing file fails
 * its test). The data directory is the first argument. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "tests/support.h"

#include "workloads/ycsb.h"


typedef struct data {
    const char *dir;
} data;

/* ---- hand-checked facts -------------------------------------------------- */

static void test_java_casts(void **state)
{
    (void)state;
    assert_int_equal(ycsb_java_d2i(2.9), 2);
    assert_int_equal(ycsb_java_d2i(-2.9), -2);
    assert_int_equal(ycsb_java_d2i(NAN), 0);
    assert_int_equal(ycsb_java_d2i(INFINITY), INT32_MAX);
    assert_int_equal(ycsb_java_d2i(-1e300), INT32_MIN);
    assert_true(ycsb_java_d2l(1e300) == INT64_MAX);
    assert_true(ycsb_java_d2l(-INFINITY) == INT64_MIN);
    assert_true(ycsb_java_d2l(NAN) == 0);
    assert_true(ycsb_java_d2l(12345678901.5) == 12345678901LL);
}

/* FNV-1a 64 of the 8 little-endian bytes, then Math.abs (computed
 * independently, byte by byte, from Utils.fnvhash64's definition). */
static void test_fnvhash64(void **state)
{
    (void)state;
    assert_true(ycsb_utils_fnvhash64(0) == 6284781860667377211LL);
    assert_true(ycsb_utils_fnvhash64(1) == 8517097267634966620LL);
    assert_true(ycsb_utils_fnvhash64(5) == 1000385178204227360LL);
    assert_true(ycsb_utils_fnvhash64(42) == 55488592825689361LL);
    assert_true(ycsb_utils_fnvhash64(1000) == 5952875239596136740LL);
    assert_true(ycsb_utils_fnvhash64(-1) == 8289690350564177859LL);
}

/* CoreWorkload's own doc comment: row 5 is "user5" with zeropadding=1 and
 * "user00000005" with zeropadding=8 (ordered inserts). Hashed: "user" and
 * the decimal fnvhash64. */
static void test_build_key_name(void **state)
{
    (void)state;
    char buf[64];
    assert_int_equal(ycsb_build_key_name(5, 1, true, buf, sizeof buf), 5);
    assert_string_equal(buf, "user5");
    assert_int_equal(ycsb_build_key_name(5, 8, true, buf, sizeof buf), 12);
    assert_string_equal(buf, "user00000005");
    assert_int_equal(ycsb_build_key_name(123, 0, true, buf, sizeof buf), 7);
    assert_string_equal(buf, "user123");
    ycsb_build_key_name(5, 1, false, buf, sizeof buf);
    assert_string_equal(buf, "user1000385178204227360");
    ycsb_build_key_name(0, 22, false, buf, sizeof buf);
    assert_string_equal(buf, "user0006284781860667377211");
    /* too small a buffer: the length, nothing written */
    buf[0] = 'x';
    assert_int_equal(ycsb_build_key_name(5, 8, true, buf, 12), 12);
    assert_int_equal(buf[0], 'x');
}

static void test_zetastatic(void **state)
{
    (void)state;
    assert_true(ycsb_zetastatic(0, 0, 0.99, 0) == 0.0);
    assert_true(ycsb_zetastatic(0, 1, 0.99, 0) == 1.0);
    /* 1 + 2^-0.99 and + 3^-0.99 */
    assert_double_equal(ycsb_zetastatic(0, 2, 0.99, 0), 1.5034777750283594, 1e-15);
    assert_double_equal(ycsb_zetastatic(0, 3, 0.99, 0), 1.8404933390076441, 1e-15);
    /* theta 0: n; the incremental sum is the same sum, bit for bit */
    assert_true(ycsb_zetastatic(0, 10, 0.0, 0) == 10.0);
    double whole = ycsb_zetastatic(0, 1000, 0.99, 0);
    assert_true(ycsb_zetastatic(400, 1000, 0.99, ycsb_zetastatic(0, 400, 0.99, 0)) == whole);
}

static void test_counters(void **state)
{
    (void)state;
    ycsb_counter c;
    ycsb_counter_init(&c, 10);
    assert_int_equal(ycsb_counter_last(&c), 9);
    assert_int_equal(ycsb_counter_next(&c), 10);
    assert_int_equal(ycsb_counter_next(&c), 11);
    assert_int_equal(ycsb_counter_last(&c), 11);

    ycsb_ackcounter *a = malloc(sizeof *a);
    assert_non_null(a);
    ycsb_ackcounter_init(a, 100);
    assert_int_equal(ycsb_ackcounter_last(a), 99);
    for (int i = 0; i < 4; i++)
        assert_int_equal(ycsb_ackcounter_next(a), 100 + i);
    /* out of order: 101 and 103 first, limit stays until 100 */
    assert_int_equal(ycsb_ackcounter_acknowledge(a, 101), 0);
    assert_int_equal(ycsb_ackcounter_last(a), 99);
    assert_int_equal(ycsb_ackcounter_acknowledge(a, 103), 0);
    assert_int_equal(ycsb_ackcounter_last(a), 99);
    assert_int_equal(ycsb_ackcounter_acknowledge(a, 100), 0);
    assert_int_equal(ycsb_ackcounter_last(a), 101);
    assert_int_equal(ycsb_ackcounter_acknowledge(a, 102), 0);
    assert_int_equal(ycsb_ackcounter_last(a), 103);
    /* a value whose slot is still marked: YCSB throws */
    assert_int_equal(ycsb_ackcounter_acknowledge(a, 200), 0);
    assert_int_equal(ycsb_ackcounter_acknowledge(a, 200 + YCSB_ACK_WINDOW_SIZE), -1);
    assert_int_equal(ycsb_ackcounter_last(a), 103);

    /* from 0 (limit -1) across the window's wrap */
    ycsb_ackcounter_init(a, 0);
    assert_int_equal(ycsb_ackcounter_last(a), -1);
    for (int64_t v = 0; v < YCSB_ACK_WINDOW_SIZE + 10; v++) {
        assert_int_equal(ycsb_ackcounter_next(a), v);
        assert_int_equal(ycsb_ackcounter_acknowledge(a, v), 0);
        if (ycsb_ackcounter_last(a) != v)
            fail_msg("limit %lld after acknowledging %lld",
                     (long long)ycsb_ackcounter_last(a), (long long)v);
    }
    free(a);
}

static void test_uniform(void **state)
{
    (void)state;
    ycsb_uniform g;
    ycsb_uniform_init(&g, 10, 19);
    assert_int_equal(g.interval, 10);
    assert_int_equal(ycsb_uniform_next_bits(&g, 0), 10);
    assert_int_equal(ycsb_uniform_next_bits(&g, 9), 19);
    assert_int_equal(ycsb_uniform_next_bits(&g, 23), 13);
    /* -7: Math.abs gives 7 */
    assert_int_equal(ycsb_uniform_next_bits(&g, (uint64_t)-7), 17);
    /* Long.MIN_VALUE: abs stays negative, -9223372036854775808 % 10 = -8 */
    assert_int_equal(ycsb_uniform_next_bits(&g, (uint64_t)1 << 63), 2);
    rng r1, r2;
    rng_seed(&r1, 7);
    rng_seed(&r2, 7);
    for (int i = 0; i < 1000; i++) {
        int64_t v = ycsb_uniform_next(&g, &r1);
        assert_true(v >= 10 && v <= 19);
        assert_int_equal(v, ycsb_uniform_next_bits(&g, rng_next(&r2)));
    }
}

static void test_zipfian(void **state)
{
    (void)state;
    ycsb_zipfian z;
    ycsb_zipfian_init(&z, 100, 109, YCSB_ZIPFIAN_CONSTANT);
    assert_int_equal(z.items, 10);
    assert_int_equal(z.base, 100);
    assert_int_equal(z.countforzeta, 10);
    double zetan = ycsb_zetastatic(0, 10, 0.99, 0);
    assert_true(z.zetan == zetan);
    assert_true(z.zeta2theta == ycsb_zetastatic(0, 2, 0.99, 0));
    assert_double_equal(z.alpha, 100.0, 1e-9);
    double eta = (1 - pow(2.0 / 10, 0.01)) / (1 - z.zeta2theta / zetan);
    assert_true(z.eta == eta);
    /* u*zetan < 1 -> base; < 1 + 0.5^theta -> base + 1 */
    assert_int_equal(ycsb_zipfian_next_u(&z, 0.0), 100);
    assert_int_equal(ycsb_zipfian_next_u(&z, 0.999 / zetan), 100);
    assert_int_equal(ycsb_zipfian_next_u(&z, 1.001 / zetan), 101);
    assert_int_equal(ycsb_zipfian_next_u(&z, (1.0 + pow(0.5, 0.99)) * 0.999 / zetan), 101);
    /* the formula: base + (long)(items * (eta*u - eta + 1)^alpha) */
    double u = 0.9;
    int64_t want = 100 + (int64_t)(10 * pow(eta * u - eta + 1, 1 / (1 - 0.99)));
    assert_int_equal(ycsb_zipfian_next_u(&z, u), want);
    assert_int_equal(ycsb_zipfian_next_u(&z, 0.999999), 109);

    /* growth: zetan extended incrementally, eta from the original items */
    assert_int_equal(ycsb_zipfian_next_long_u(&z, 50, 0.5) >= 100, 1);
    assert_int_equal(z.countforzeta, 50);
    assert_true(z.zetan == ycsb_zetastatic(0, 50, 0.99, 0));
    assert_true(z.eta == (1 - pow(2.0 / 10, 0.01)) / (1 - z.zeta2theta / z.zetan));
    /* decrease not allowed: nothing recomputed */
    (void)ycsb_zipfian_next_long_u(&z, 20, 0.5);
    assert_int_equal(z.countforzeta, 50);
    z.allowitemcountdecrease = true;
    (void)ycsb_zipfian_next_long_u(&z, 20, 0.5);
    assert_int_equal(z.countforzeta, 20);
    assert_true(z.zetan == ycsb_zetastatic(0, 20, 0.99, 0));

    /* the same seed, the same draws */
    ycsb_zipfian a, b;
    ycsb_zipfian_init(&a, 0, 999, YCSB_ZIPFIAN_CONSTANT);
    b = a;
    rng r1, r2;
    rng_seed(&r1, 42);
    rng_seed(&r2, 42);
    for (int i = 0; i < 1000; i++) {
        int64_t v = ycsb_zipfian_next(&a, &r1);
        assert_true(v >= 0 && v < 1000);
        assert_int_equal(v, ycsb_zipfian_next_u(&b, rng_double(&r2)));
    }
}

static void test_scrambled(void **state)
{
    (void)state;
    ycsb_scrambled g;
    ycsb_scrambled_init(&g, 0, 999);
    assert_int_equal(g.itemcount, 1000);
    assert_true(g.gen.items == YCSB_SCRAMBLED_ITEM_COUNT + 1);
    assert_true(g.gen.zetan == 26.46902820178302);
    /* u = 0: the zipfian gives 0, fnvhash64(0) % 1000 = 211 */
    assert_int_equal(ycsb_scrambled_next_u(&g, 0.0), 6284781860667377211LL % 1000);
    /* 1/zetan < u < (1 + 0.5^0.99)/zetan: 1 -> 8517097267634966620 % 1000 */
    assert_int_equal(ycsb_scrambled_next_u(&g, 1.2 / 26.46902820178302), 620);
    ycsb_scrambled_init(&g, 50, 59);
    assert_int_equal(ycsb_scrambled_next_u(&g, 0.0), 51);
}

static void test_latest(void **state)
{
    (void)state;
    ycsb_latest g;
    ycsb_latest_init(&g, 1000); /* basis.lastValue() = 1000 */
    assert_int_equal(g.zipfian.items, 1000);
    assert_int_equal(ycsb_latest_next_u(&g, 1000, 0.0), 1000);
    assert_int_equal(ycsb_latest_next_u(&g, 1000, 1.2 / g.zipfian.zetan), 999);
    /* basis grew: the zipfian grows with it */
    assert_int_equal(ycsb_latest_next_u(&g, 1005, 0.0), 1005);
    assert_int_equal(g.zipfian.countforzeta, 1005);
    assert_true(g.zipfian.zetan == ycsb_zetastatic(0, 1005, 0.99, 0));
}

static void test_hotspot(void **state)
{
    (void)state;
    ycsb_hotspot g;
    ycsb_hotspot_init(&g, 0, 99, 0.2, 0.8);
    assert_int_equal(g.hot_interval, 20);
    assert_int_equal(g.cold_interval, 80);
    int64_t v;
    assert_int_equal(ycsb_hotspot_next_u(&g, 0.79, 45, &v), 0);
    assert_int_equal(v, 5);
    assert_int_equal(ycsb_hotspot_next_u(&g, 0.8, 45, &v), 0);
    assert_int_equal(v, 65);
    assert_int_equal(ycsb_hotspot_next_u(&g, 0.9, (uint64_t)-81, &v), 0);
    assert_int_equal(v, 21);
    /* swapped bounds, out-of-range fraction -> 0.0 */
    ycsb_hotspot_init(&g, 109, 100, 1.5, 0.5);
    assert_int_equal(g.lower_bound, 100);
    assert_int_equal(g.upper_bound, 109);
    assert_int_equal(g.hot_interval, 0);
    assert_int_equal(ycsb_hotspot_next_u(&g, 0.2, 3, &v), -1);
    assert_int_equal(ycsb_hotspot_next_u(&g, 0.7, 13, &v), 0);
    assert_int_equal(v, 103);
}

static void test_exponential_sequential_discrete(void **state)
{
    (void)state;
    ycsb_exponential e;
    ycsb_exponential_init(&e, 95, 1000 * 0.8571428571);
    assert_true(e.gamma == -log(1.0 - 0.95) / (1000 * 0.8571428571));
    /* u = 0.05: -ln(0.05)/gamma = the range exactly (95th percentile) */
    assert_double_equal(ycsb_exponential_next_u(&e, 0.05), 857.1428571, 1e-6);
    assert_true(isinf(ycsb_exponential_next_u(&e, 0.0)));
    ycsb_exponential_init_mean(&e, 4.0);
    assert_double_equal(ycsb_exponential_next_u(&e, exp(-1.0)), 4.0, 1e-12);

    ycsb_sequential s;
    ycsb_sequential_init(&s, 5, 7);
    assert_int_equal(ycsb_sequential_last(&s), 1);
    const int64_t want[] = {5, 6, 7, 5, 6};
    for (int i = 0; i < 5; i++)
        assert_int_equal(ycsb_sequential_next(&s), want[i]);
    assert_int_equal(ycsb_sequential_last(&s), 6);

    ycsb_discrete d;
    ycsb_discrete_init(&d);
    assert_int_equal(ycsb_discrete_next_u(&d, 0.5), -1);
    assert_int_equal(ycsb_discrete_add(&d, 0.5, YCSB_OP_READ), 0);
    assert_int_equal(ycsb_discrete_add(&d, 0.25, YCSB_OP_UPDATE), 0);
    assert_int_equal(ycsb_discrete_add(&d, 0.25, YCSB_OP_INSERT), 0);
    assert_int_equal(ycsb_discrete_next_u(&d, 0.0), YCSB_OP_READ);
    assert_int_equal(ycsb_discrete_next_u(&d, 0.4999), YCSB_OP_READ);
    assert_int_equal(ycsb_discrete_next_u(&d, 0.5), YCSB_OP_UPDATE);
    assert_int_equal(ycsb_discrete_next_u(&d, 0.7499), YCSB_OP_UPDATE);
    assert_int_equal(ycsb_discrete_next_u(&d, 0.75), YCSB_OP_INSERT);
    assert_int_equal(ycsb_discrete_next_u(&d, 0.9999), YCSB_OP_INSERT);
}

static void test_keychooser(void **state)
{
    (void)state;
    ycsb_keychooser *k = malloc(sizeof *k);
    assert_non_null(k);
    ycsb_props p;
    ycsb_props_default(&p);
    p.recordcount = 1000;
    p.operationcount = 1000;
    p.insertproportion = 0.05;
    p.readproportion = 0.95;
    p.updateproportion = 0;
    p.requestdistribution = YCSB_REQ_ZIPFIAN;
    assert_int_equal(ycsb_keychooser_init(k, &p), 0);
    assert_int_equal(k->insertcount, 1000);
    assert_int_equal(k->expectednewkeys, 100); /* (int)(1000 * 0.05 * 2.0) */
    assert_int_equal(k->scrambled.itemcount, 1101); /* max inclusive */
    assert_int_equal(ycsb_ackcounter_last(&k->transactioninsertkeysequence), 999);
    assert_int_equal(k->operationchooser.count, 2);
    /* draw 0: fnvhash64(0) % 1101 */
    int64_t keynum;
    assert_int_equal(ycsb_keychooser_draw_u(k, 0.0, 0, &keynum), 0);
    assert_int_equal(keynum, 6284781860667377211LL % 1101);
    rng r;
    rng_seed(&r, 3);
    for (int i = 0; i < 2000; i++) {
        assert_int_equal(ycsb_keychooser_next_keynum(k, &r, &keynum), 0);
        assert_true(keynum >= 0 && keynum <= 999);
        int op = ycsb_keychooser_next_op(k, &r);
        assert_true(op == YCSB_OP_READ || op == YCSB_OP_INSERT);
    }
    /* an insert, acknowledged, lets 1000 be chosen */
    assert_int_equal(ycsb_keychooser_next_insert(k), 1000);
    assert_false(ycsb_keychooser_accepts(k, 1000));
    assert_int_equal(ycsb_ackcounter_acknowledge(&k->transactioninsertkeysequence, 1000), 0);
    assert_true(ycsb_keychooser_accepts(k, 1000));

    /* exponential: lastValue - (int)x, redrawn while negative */
    p.requestdistribution = YCSB_REQ_EXPONENTIAL;
    assert_int_equal(ycsb_keychooser_init(k, &p), 0);
    assert_true(k->exponential.gamma == -log(1 - 95 / 100.0) / (1000 * 0.8571428571));
    assert_int_equal(ycsb_keychooser_draw_u(k, 0.05, 0, &keynum), 0);
    assert_int_equal(keynum, 999 - 857);
    assert_int_equal(ycsb_keychooser_draw_u(k, 1e-300, 0, &keynum), 0);
    assert_false(ycsb_keychooser_accepts(k, keynum));

    /* hotspot and uniform over [insertstart, insertstart + insertcount - 1] */
    p.requestdistribution = YCSB_REQ_HOTSPOT;
    p.insertstart = 100;
    p.insertcount = 500;
    assert_int_equal(ycsb_keychooser_init(k, &p), 0);
    assert_int_equal(k->hotspot.lower_bound, 100);
    assert_int_equal(k->hotspot.upper_bound, 599);
    assert_int_equal(k->hotspot.hot_interval, 100);
    p.requestdistribution = YCSB_REQ_UNIFORM;
    assert_int_equal(ycsb_keychooser_init(k, &p), 0);
    assert_int_equal(ycsb_keychooser_draw_u(k, 0, 499, &keynum), 0);
    assert_int_equal(keynum, 599);
    /* latest over transactioninsertkeysequence's lastValue */
    p.requestdistribution = YCSB_REQ_LATEST;
    assert_int_equal(ycsb_keychooser_init(k, &p), 0);
    assert_int_equal(k->latest.zipfian.items, 999);
    assert_int_equal(ycsb_keychooser_draw_u(k, 0.0, 0, &keynum), 0);
    assert_int_equal(keynum, 999);
    /* recordcount < insertstart + insertcount: YCSB exits */
    p.insertcount = 901;
    assert_int_equal(ycsb_keychooser_init(k, &p), -1);
    free(k);
}

/* YCSB's own tests, seeded: AcknowledgedCounterGeneratorTest's
 * testIncrementPastIntegerMaxValue (start Integer.MAX_VALUE - 1000, 3 x
 * WINDOW_SIZE values, up to 1000 pending acknowledged oldest-first or
 * second-oldest-first) with the limit checked after every step;
 * TestZipfianGenerator.testMinAndMaxParameter (5..10); TestCoreWorkload's
 * createOperationChooser (five proportions of 0.20, each seen). */
static void test_ycsb_own_tests(void **state)
{
    (void)state;
    ycsb_ackcounter *a = malloc(sizeof *a);
    assert_non_null(a);
    const int64_t start = INT32_MAX - 1000LL;
    ycsb_ackcounter_init(a, start);
    enum { PENDING = 1000 };
    int64_t ring[PENDING + 1];
    size_t head = 0, len = 0;
    /* acked[v - start]: acknowledged yet */
    const int64_t total = 3LL * YCSB_ACK_WINDOW_SIZE;
    unsigned char *acked = calloc((size_t)total, 1);
    assert_non_null(acked);
    int64_t lowest_unacked = start;
    rng r;
    rng_seed(&r, 11);
    for (int64_t i = 0; i < total; i++) {
        int64_t v = ycsb_ackcounter_next(a);
        assert_true(v == start + i);
        while (len == PENDING) {
            int64_t ack;
            if (rng_next(&r) & 1) {
                ack = ring[head];
                head = (head + 1) % (PENDING + 1);
                len--;
            } else {
                /* poll first and second, re-add first at the tail */
                int64_t first = ring[head];
                head = (head + 1) % (PENDING + 1);
                ack = ring[head];
                head = (head + 1) % (PENDING + 1);
                len -= 2;
                ring[(head + len) % (PENDING + 1)] = first;
                len++;
            }
            assert_int_equal(ycsb_ackcounter_acknowledge(a, ack), 0);
            acked[ack - start] = 1;
            while (lowest_unacked < start + total && acked[lowest_unacked - start])
                lowest_unacked++;
            if (ycsb_ackcounter_last(a) != lowest_unacked - 1)
                fail_msg("limit %lld, expected %lld", (long long)ycsb_ackcounter_last(a),
                         (long long)(lowest_unacked - 1));
        }
        ring[(head + len) % (PENDING + 1)] = v;
        len++;
    }
    free(acked);
    free(a);

    ycsb_zipfian z;
    ycsb_zipfian_init(&z, 5, 10, YCSB_ZIPFIAN_CONSTANT);
    for (int i = 0; i < 10000; i++) {
        int64_t v = ycsb_zipfian_next(&z, &r);
        assert_true(v >= 5 && v <= 10);
    }

    ycsb_props p;
    ycsb_props_default(&p);
    p.recordcount = 10;
    p.readproportion = p.updateproportion = p.insertproportion = p.scanproportion =
        p.readmodifywriteproportion = 0.20;
    ycsb_keychooser *k = malloc(sizeof *k);
    assert_non_null(k);
    assert_int_equal(ycsb_keychooser_init(k, &p), 0);
    int counts[5] = {0};
    for (int i = 0; i < 100; i++) {
        int op = ycsb_keychooser_next_op(k, &r);
        assert_true(op >= 0 && op < 5);
        counts[op]++;
    }
    for (int i = 0; i < 5; i++)
        assert_true(counts[i] > 1);
    free(k);
}

/* ---- reference rows from YCSB (tests/data/ycsb_*.tsv) -------------------- */

/* Opens dir/name, or fails the test (the files are committed). */
static FILE *open_or_fail(const data *d, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", d->dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL) /* committed: a broken tree */
        fail_msg("%s: %s", path, strerror(errno));
    return f;
}

/* One reference file (its .md: tests/data/ycsb_reference.md): rows of
 * tab-separated fields; lines starting with '#' describe the columns. */
#define REF_MAX_FIELDS 16
typedef struct ref {
    FILE *f;
    const char *name;
    char *line;
    size_t cap;
    size_t nfields;
    char *field[REF_MAX_FIELDS];
    long lineno;
    long rows, bad;
} ref;

/* Opens dir/name, or fails the test (the files are committed). */
static void ref_open(ref *rf, const data *d, const char *name)
{
    memset(rf, 0, sizeof *rf);
    rf->f = open_or_fail(d, name);
    rf->name = name;
}

/* Next data row into rf->field; false at the end. */
static bool ref_row(ref *rf)
{
    ssize_t n;
    while ((n = getline(&rf->line, &rf->cap, rf->f)) >= 0) {
        rf->lineno++;
        char *s = rf->line;
        while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
            s[--n] = '\0';
        if (n == 0 || s[0] == '#')
            continue;
        rf->nfields = 0;
        for (char *t = strtok(s, "\t"); t != NULL && rf->nfields < REF_MAX_FIELDS;
             t = strtok(NULL, "\t"))
            rf->field[rf->nfields++] = t;
        rf->rows++;
        return true;
    }
    return false;
}

/* Field i of the row; fails if the row is shorter. */
static const char *fld(const ref *rf, size_t i)
{
    if (i >= rf->nfields)
        fail_msg("%s line %ld: %zu fields, wanted field %zu", rf->name, rf->lineno,
                 rf->nfields, i);
    return rf->field[i];
}

static double fdouble(const ref *rf, size_t i)
{
    return strtod(fld(rf, i), NULL); /* hex floats and NaN included */
}

static int64_t fint(const ref *rf, size_t i)
{
    return strtoll(fld(rf, i), NULL, 10);
}

static bool is(const ref *rf, const char *tag)
{
    return rf->nfields > 0 && strcmp(rf->field[0], tag) == 0;
}

/* Counts a mismatch, printing the first few. */
static void mismatch(ref *rf, const char *what, double got, double want)
{
    if (rf->bad++ < 10)
        print_error("%s line %ld: %s: got %.17g (%a), YCSB %.17g (%a)\n", rf->name, rf->lineno,
                    what, got, got, want, want);
}

static void check_int(ref *rf, const char *what, int64_t got, int64_t want)
{
    if (got != want && rf->bad++ < 10)
        print_error("%s line %ld: %s: got %lld, YCSB %lld\n", rf->name, rf->lineno, what,
                    (long long)got, (long long)want);
}

/* Bit-identical doubles (NaN equals NaN). */
static void check_double(ref *rf, const char *what, double got, double want)
{
    if (!(got == want || (isnan(got) && isnan(want))))
        mismatch(rf, what, got, want);
}

static void ref_done(ref *rf, long min_rows)
{
    fclose(rf->f);
    free(rf->line);
    print_message("%s: %ld rows, %ld mismatches\n", rf->name, rf->rows, rf->bad);
    assert_true(rf->rows >= min_rows);
    assert_int_equal(rf->bad, 0);
}

/* ycsb_zipfian.tsv: zetastatic(n, theta); the constructor's fields
 * (zetan, eta, alpha, zeta2theta); nextLong(itemcount) in order per block,
 * with zetan, eta and countforzeta after each call (growth and shrinking). */
static void test_ref_zipfian(void **state)
{
    ref rf;
    ref_open(&rf, *state, "ycsb_zipfian.tsv");
    ycsb_zipfian z;
    int64_t block = -1;
    while (ref_row(&rf)) {
        if (is(&rf, "zeta")) {
            check_double(&rf, "zeta", ycsb_zetastatic(0, fint(&rf, 1), fdouble(&rf, 2), 0),
                         fdouble(&rf, 4));
        } else if (is(&rf, "state")) {
            int64_t items = fint(&rf, 1);
            ycsb_zipfian_init(&z, 0, items - 1, fdouble(&rf, 2));
            check_double(&rf, "zetan", z.zetan, fdouble(&rf, 4));
            check_double(&rf, "eta", z.eta, fdouble(&rf, 6));
            check_double(&rf, "alpha", z.alpha, fdouble(&rf, 8));
            check_double(&rf, "zeta2theta", z.zeta2theta, fdouble(&rf, 10));
        } else if (is(&rf, "next")) {
            if (fint(&rf, 1) != block) {
                block = fint(&rf, 1);
                ycsb_zipfian_init(&z, 0, fint(&rf, 2) - 1, fdouble(&rf, 3));
            }
            int64_t got = ycsb_zipfian_next_long_u(&z, fint(&rf, 4), fdouble(&rf, 6));
            check_int(&rf, "output", got, fint(&rf, 7));
            check_double(&rf, "zetan after", z.zetan, fdouble(&rf, 8));
            check_double(&rf, "eta after", z.eta, fdouble(&rf, 9));
            check_int(&rf, "countforzeta after", z.countforzeta, fint(&rf, 10));
        } else {
            fail_msg("ycsb_zipfian.tsv line %ld: unknown row", rf.lineno);
        }
    }
    ref_done(&rf, 900);
}

/* ycsb_scrambled.tsv: ScrambledZipfianGenerator(min, max): the inner
 * zipfian's value and the output for each u. */
static void test_ref_scrambled(void **state)
{
    ref rf;
    ref_open(&rf, *state, "ycsb_scrambled.tsv");
    ycsb_scrambled g;
    int64_t min = -1, max = -1;
    while (ref_row(&rf)) {
        if (fint(&rf, 0) != min || fint(&rf, 1) != max) {
            min = fint(&rf, 0);
            max = fint(&rf, 1);
            ycsb_scrambled_init(&g, min, max);
        }
        double u = fdouble(&rf, 5);
        ycsb_zipfian inner = g.gen;
        check_int(&rf, "inner", ycsb_zipfian_next_u(&inner, u), fint(&rf, 6));
        check_int(&rf, "output", ycsb_scrambled_next_u(&g, u), fint(&rf, 7));
    }
    ref_done(&rf, 2000);
}

/* ycsb_latest.tsv: SkewedLatestGenerator built when the basis's
 * lastValue() was construct_last, drawn in order as the basis grows. */
static void test_ref_latest(void **state)
{
    ref rf;
    ref_open(&rf, *state, "ycsb_latest.tsv");
    ycsb_latest g;
    int64_t block = -1;
    while (ref_row(&rf)) {
        if (fint(&rf, 0) != block) {
            block = fint(&rf, 0);
            ycsb_latest_init(&g, fint(&rf, 2));
        }
        check_int(&rf, "output", ycsb_latest_next_u(&g, fint(&rf, 3), fdouble(&rf, 5)),
                  fint(&rf, 6));
    }
    ref_done(&rf, 1000);
}

/* ycsb_hotspot.tsv: HotspotIntegerGenerator(lb, ub, hotset, hotopn) for
 * nextDouble() u1 and nextLong() l2. */
static void test_ref_hotspot(void **state)
{
    ref rf;
    ref_open(&rf, *state, "ycsb_hotspot.tsv");
    while (ref_row(&rf)) {
        ycsb_hotspot g;
        ycsb_hotspot_init(&g, fint(&rf, 0), fint(&rf, 1), fdouble(&rf, 2), fdouble(&rf, 3));
        int64_t v = INT64_MIN;
        int rc = ycsb_hotspot_next_u(&g, fdouble(&rf, 7), (uint64_t)fint(&rf, 8), &v);
        check_int(&rf, "rc", rc, 0);
        check_int(&rf, "output", v, fint(&rf, 9));
    }
    ref_done(&rf, 1200);
}

/* ycsb_uniform.tsv: UniformLongGenerator(lb, ub) for nextLong() l. */
static void test_ref_uniform(void **state)
{
    ref rf;
    ref_open(&rf, *state, "ycsb_uniform.tsv");
    while (ref_row(&rf)) {
        ycsb_uniform g;
        ycsb_uniform_init(&g, fint(&rf, 0), fint(&rf, 1));
        check_int(&rf, "output", ycsb_uniform_next_bits(&g, (uint64_t)fint(&rf, 4)),
                  fint(&rf, 5));
    }
    ref_done(&rf, 1500);
}

/* ycsb_exponential.tsv: gamma of ExponentialGenerator(percentile, range);
 * each draw's value, its intValue() and nextKeynum's lastValue - that. */
static void test_ref_exponential(void **state)
{
    ref rf;
    ref_open(&rf, *state, "ycsb_exponential.tsv");
    ycsb_exponential g;
    long exact = 0;
    while (ref_row(&rf)) {
        if (is(&rf, "gamma")) {
            ycsb_exponential_init(&g, fdouble(&rf, 1), fdouble(&rf, 3));
            check_double(&rf, "gamma", g.gamma, fdouble(&rf, 5));
        } else if (is(&rf, "draw")) {
            ycsb_exponential_init(&g, fdouble(&rf, 1), fdouble(&rf, 2));
            double v = ycsb_exponential_next_u(&g, fdouble(&rf, 7));
            double want = fdouble(&rf, 9);
            /* Java's Math.log and C's log may differ by an ulp (2 rows of
             * 1200 do): at most one ulp apart, the int parts exact. */
            if (v == want)
                exact++;
            else if (nextafter(v, want) != want)
                mismatch(&rf, "value (more than 1 ulp)", v, want);
            check_int(&rf, "intvalue", ycsb_java_d2i(v), fint(&rf, 10));
            check_int(&rf, "keynum", fint(&rf, 3) - ycsb_java_d2i(v), fint(&rf, 11));
        } else {
            fail_msg("ycsb_exponential.tsv line %ld: unknown row", rf.lineno);
        }
    }
    print_message("ycsb_exponential.tsv: %ld values bit-identical\n", exact);
    ref_done(&rf, 1200);
}

/* ycsb_keys.tsv: fnvhash64 and buildKeyName, hashed and ordered, with
 * zeropadding 1, 10 and 20. */
static void test_ref_keys(void **state)
{
    ref rf;
    ref_open(&rf, *state, "ycsb_keys.tsv");
    while (ref_row(&rf)) {
        int64_t keynum = fint(&rf, 0);
        check_int(&rf, "fnvhash64", ycsb_utils_fnvhash64(keynum), fint(&rf, 1));
        static const int32_t pads[] = {1, 10, 20};
        for (int i = 0; i < 6; i++) {
            char buf[64];
            ycsb_build_key_name(keynum, pads[i % 3], i >= 3, buf, sizeof buf);
            if (strcmp(buf, fld(&rf, 2 + (size_t)i)) != 0 && rf.bad++ < 10)
                print_error("ycsb_keys.tsv line %ld: %s, YCSB %s\n", rf.lineno, buf,
                            fld(&rf, 2 + (size_t)i));
        }
    }
    ref_done(&rf, 300);
}

/* Java's ThreadLocalRandom after Thread.threadLocalRandomSeed := seed (JDK
 * 17's ThreadLocalRandom.nextSeed: seed += (thread id << 1) + GOLDEN_GAMMA
 * 0x9e3779b97f4a7c15, the harness's main thread having id 1; nextLong =
 * the MurmurHash3 finalizer of the seed (RandomSupport.mixMurmur64);
 * nextDouble = Random.nextDouble's ((next(26) << 27) + next(27)) * 2^-53,
 * next(bits) being the top bits of one such mixed seed: two seeds per
 * double, as ycsb_tlr.tsv shows). Only
 * here, to replay the reference runs; the module itself takes its draws
 * from the project's rng. */
typedef struct tlr {
    uint64_t seed;
} tlr;

static uint64_t tlr_next_long(tlr *t)
{
    t->seed += (1u << 1) + 0x9e3779b97f4a7c15ull;
    uint64_t z = t->seed;
    z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdull;
    z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ull;
    return z ^ (z >> 33);
}

static double tlr_next_double(tlr *t)
{
    uint64_t hi = tlr_next_long(t) >> 38;
    uint64_t lo = tlr_next_long(t) >> 37;
    return (double)((hi << 27) + lo) * 0x1.0p-53;
}

/* ycsb_tlr.tsv: the replica above against the JDK's own stream. */
static void test_ref_tlr(void **state)
{
    ref rf;
    ref_open(&rf, *state, "ycsb_tlr.tsv");
    while (ref_row(&rf)) {
        tlr t = {(uint64_t)fint(&rf, 1)};
        int64_t i = fint(&rf, 2);
        if (is(&rf, "long")) {
            uint64_t v = 0;
            for (int64_t k = 0; k <= i; k++)
                v = tlr_next_long(&t);
            check_int(&rf, "nextLong", (int64_t)v, fint(&rf, 3));
        } else {
            double v = 0;
            for (int64_t k = 0; k <= i; k++)
                v = tlr_next_double(&t);
            check_double(&rf, "nextDouble", v, fdouble(&rf, 4));
        }
    }
    ref_done(&rf, 100);
}

typedef struct keycount {
    int64_t keynum;
    long count;
} keycount;

static int by_count_then_keynum(const void *a, const void *b)
{
    const keycount *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return (x->keynum > y->keynum) - (x->keynum < y->keynum);
}

/* ycsb_c_popularity.tsv: workload C (recordcount 100000, operationcount
 * 200000, zipfian, read only) run through ycsb_keychooser with YCSB's
 * draws (the ThreadLocalRandom replica, seeded after construction): the
 * number of draws and redraws, distinct keys, the 200 most-read keys with
 * their counts, the first 50 keynums, per seed. */
static void test_ref_c_popularity(void **state)
{
    ref rf;
    ref_open(&rf, *state, "ycsb_c_popularity.tsv");
    ycsb_props p;
    ycsb_props_default(&p);
    p.recordcount = 100000;
    p.operationcount = 200000;
    p.requestdistribution = YCSB_REQ_ZIPFIAN;
    p.readproportion = 1;
    p.updateproportion = 0;
    p.insertproportion = 0;
    ycsb_keychooser *k = malloc(sizeof *k);
    long *count = calloc(100000, sizeof *count);
    keycount *sorted = malloc(100000 * sizeof *sorted);
    int64_t *first = malloc(200000 * sizeof *first);
    assert_true(k != NULL && count != NULL && sorted != NULL && first != NULL);
    int64_t seed = INT64_MIN;
    while (ref_row(&rf)) {
        if (fint(&rf, 1) != seed) {
            seed = fint(&rf, 1);
            assert_int_equal(ycsb_keychooser_init(k, &p), 0);
            memset(count, 0, 100000 * sizeof *count);
            tlr t = {(uint64_t)seed};
            long draws = 0;
            for (long op = 0; op < 200000; op++) {
                int64_t keynum;
                do {
                    assert_int_equal(
                        ycsb_keychooser_draw_u(k, tlr_next_double(&t), 0, &keynum), 0);
                    draws++;
                } while (!ycsb_keychooser_accepts(k, keynum));
                assert_true(keynum >= 0 && keynum < 100000);
                count[keynum]++;
                first[op] = keynum;
            }
            long distinct = 0;
            for (int64_t i = 0; i < 100000; i++) {
                sorted[i] = (keycount){i, count[i]};
                distinct += count[i] > 0;
            }
            qsort(sorted, 100000, sizeof *sorted, by_count_then_keynum);
            if (!is(&rf, "summary"))
                fail_msg("ycsb_c_popularity.tsv line %ld: summary row first", rf.lineno);
            check_int(&rf, "ops", 200000, fint(&rf, 2));
            check_int(&rf, "draws", draws, fint(&rf, 3));
            check_int(&rf, "redraws", draws - 200000, fint(&rf, 4));
            check_int(&rf, "distinct", distinct, fint(&rf, 5));
            check_int(&rf, "maxcount", sorted[0].count, fint(&rf, 6));
        } else if (is(&rf, "top")) {
            int64_t rank = fint(&rf, 2);
            assert_true(rank >= 1 && rank <= 100000);
            check_int(&rf, "top keynum", sorted[rank - 1].keynum, fint(&rf, 3));
            check_int(&rf, "top count", sorted[rank - 1].count, fint(&rf, 4));
        } else if (is(&rf, "first")) {
            int64_t i = fint(&rf, 2);
            assert_true(i >= 0 && i < 200000);
            check_int(&rf, "first keynum", first[i], fint(&rf, 3));
        }
    }
    free(first);
    free(sorted);
    free(count);
    free(k);
    ref_done(&rf, 1000);
}

int main(int argc, char **argv)
{
    data d = {argc > 1 ? argv[1] : "tests/data"};
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_java_casts),
        cmocka_unit_test(test_fnvhash64),
        cmocka_unit_test(test_build_key_name),
        cmocka_unit_test(test_zetastatic),
        cmocka_unit_test(test_counters),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_zipfian),
        cmocka_unit_test(test_scrambled),
        cmocka_unit_test(test_latest),
        cmocka_unit_test(test_hotspot),
        cmocka_unit_test(test_exponential_sequential_discrete),
        cmocka_unit_test(test_keychooser),
        cmocka_unit_test(test_ycsb_own_tests),
        cmocka_unit_test_prestate(test_ref_zipfian, &d),
        cmocka_unit_test_prestate(test_ref_scrambled, &d),
        cmocka_unit_test_prestate(test_ref_latest, &d),
        cmocka_unit_test_prestate(test_ref_hotspot, &d),
        cmocka_unit_test_prestate(test_ref_exponential, &d),
        cmocka_unit_test_prestate(test_ref_keys, &d),
        cmocka_unit_test_prestate(test_ref_uniform, &d),
        cmocka_unit_test_prestate(test_ref_tlr, &d),
        cmocka_unit_test_prestate(test_ref_c_popularity, &d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
