/* test_ycsb.c -- YCSB's generators (workloads/ycsb.h) against facts
 * checked by hand from YCSB's source (zeta of small n, FNV-64 of known
 * values, key names, counters, the draw-to-value formulas at their
 * boundaries), reproducibility from a seed, and reference rows YCSB's own
 * classes computed (tests/data/ycsb_*.tsv; a test skips while its file is
 * missing). The data directory is the first argument. */
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

#include "workloads/ycsb.h"

/* |a - b| <= eps (this cmocka has no assert_double_equal). */
#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

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
    assert_near(ycsb_zetastatic(0, 2, 0.99, 0), 1.5034777750283594, 1e-15);
    assert_near(ycsb_zetastatic(0, 3, 0.99, 0), 1.8404933390076441, 1e-15);
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
    assert_near(z.alpha, 100.0, 1e-9);
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
    assert_near(ycsb_exponential_next_u(&e, 0.05), 857.1428571, 1e-6);
    assert_true(isinf(ycsb_exponential_next_u(&e, 0.0)));
    ycsb_exponential_init_mean(&e, 4.0);
    assert_near(ycsb_exponential_next_u(&e, exp(-1.0)), 4.0, 1e-12);

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

/* Opens dir/name, or skips the test if it is missing. */
static FILE *open_or_skip(const data *d, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", d->dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        print_message("%s missing: skipped\n", path);
        skip();
    }
    return f;
}

/* One reference file: its header's "name=value" settings (from lines
 * starting with '#') and its rows of tab-separated fields. */
#define REF_MAX_PARAMS 32
#define REF_MAX_FIELDS 8
typedef struct ref {
    FILE *f;
    size_t nparams;
    char pname[REF_MAX_PARAMS][64];
    char pvalue[REF_MAX_PARAMS][128];
    char *line;
    size_t cap;
    size_t nfields;
    char *field[REF_MAX_FIELDS];
    long lineno;
} ref;

/* Records "name=value" tokens of a '#' line. */
static void ref_header(ref *rf, char *text)
{
    for (char *tok = strtok(text, " \t\r\n,;"); tok != NULL; tok = strtok(NULL, " \t\r\n,;")) {
        char *eq = strchr(tok, '=');
        if (eq == NULL || eq == tok || rf->nparams >= REF_MAX_PARAMS)
            continue;
        *eq = '\0';
        snprintf(rf->pname[rf->nparams], sizeof rf->pname[0], "%s", tok);
        snprintf(rf->pvalue[rf->nparams], sizeof rf->pvalue[0], "%s", eq + 1);
        rf->nparams++;
    }
}

/* Next data row into rf->field; false at the end. Header lines (and a
 * first line that does not start with a number) are skipped. */
static bool ref_row(ref *rf)
{
    ssize_t n;
    while ((n = getline(&rf->line, &rf->cap, rf->f)) >= 0) {
        rf->lineno++;
        char *s = rf->line;
        while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
            s[--n] = '\0';
        if (n == 0)
            continue;
        if (s[0] == '#') {
            ref_header(rf, s + 1);
            continue;
        }
        if (!(s[0] == '-' || s[0] == '.' || (s[0] >= '0' && s[0] <= '9')))
            continue; /* a column header */
        rf->nfields = 0;
        for (char *t = strtok(s, "\t"); t != NULL && rf->nfields < REF_MAX_FIELDS;
             t = strtok(NULL, "\t"))
            rf->field[rf->nfields++] = t;
        return true;
    }
    return false;
}

static const char *ref_param(const ref *rf, const char *name)
{
    for (size_t i = 0; i < rf->nparams; i++)
        if (strcmp(rf->pname[i], name) == 0)
            return rf->pvalue[i];
    return NULL;
}

/* Opens dir/name, or skips the test if it is missing; reads its first row
 * (so the header's settings are known). */
static bool ref_open(ref *rf, const data *d, const char *name)
{
    memset(rf, 0, sizeof *rf);
    rf->f = open_or_skip(d, name);
    return ref_row(rf);
}

static void ref_close(ref *rf)
{
    fclose(rf->f);
    free(rf->line);
}

static double fdouble(const char *s)
{
    return strtod(s, NULL);
}

static int64_t fint(const char *s)
{
    return strtoll(s, NULL, 10);
}

/* The first of `names` the header sets, or fails naming what it has. */
static const char *ref_need(const ref *rf, const char *const *names, const char *file)
{
    for (size_t i = 0; names[i] != NULL; i++) {
        const char *v = ref_param(rf, names[i]);
        if (v != NULL)
            return v;
    }
    fail_msg("%s: no header setting %s", file, names[0]);
    return NULL;
}

#define NEED(rf, file, ...) ref_need((rf), (const char *const[]){__VA_ARGS__, NULL}, (file))

/* Counts a row's mismatch, printing the first few. */
static void mismatch(long *bad, const char *file, long lineno, const char *what)
{
    if ((*bad)++ < 10)
        print_error("%s line %ld: %s\n", file, lineno, what);
}

/* ycsb_zipfian.tsv: ZipfianGenerator(min, max); rows "u<TAB>value", or
 * "u<TAB>itemcount<TAB>value" for nextLong(itemcount). */
static void test_ref_zipfian(void **state)
{
    const char *file = "ycsb_zipfian.tsv";
    ref rf;
    bool more = ref_open(&rf, *state, file);
    int64_t min = fint(NEED(&rf, file, "min", "base"));
    int64_t max = fint(NEED(&rf, file, "max"));
    ycsb_zipfian z;
    ycsb_zipfian_init(&z, min, max, YCSB_ZIPFIAN_CONSTANT);
    long rows = 0, bad = 0;
    for (; more; more = ref_row(&rf), rows++) {
        double u = fdouble(rf.field[0]);
        int64_t got, want = fint(rf.field[rf.nfields - 1]);
        got = rf.nfields >= 3 ? ycsb_zipfian_next_long_u(&z, fint(rf.field[1]), u)
                              : ycsb_zipfian_next_u(&z, u);
        if (got != want)
            mismatch(&bad, file, rf.lineno, "value differs");
    }
    ref_close(&rf);
    assert_true(rows > 0);
    assert_int_equal(bad, 0);
}

/* ycsb_scrambled.tsv: ScrambledZipfianGenerator(min, max); rows
 * "u<TAB>value". */
static void test_ref_scrambled(void **state)
{
    const char *file = "ycsb_scrambled.tsv";
    ref rf;
    bool more = ref_open(&rf, *state, file);
    int64_t min = fint(NEED(&rf, file, "min"));
    int64_t max = fint(NEED(&rf, file, "max"));
    ycsb_scrambled g;
    ycsb_scrambled_init(&g, min, max);
    long rows = 0, bad = 0;
    for (; more; more = ref_row(&rf), rows++) {
        if (ycsb_scrambled_next_u(&g, fdouble(rf.field[0])) != fint(rf.field[rf.nfields - 1]))
            mismatch(&bad, file, rf.lineno, "value differs");
    }
    ref_close(&rf);
    assert_true(rows > 0);
    assert_int_equal(bad, 0);
}

/* ycsb_latest.tsv: SkewedLatestGenerator over a basis whose lastValue()
 * is `last`; rows "u<TAB>value", or "u<TAB>basis_last<TAB>value". */
static void test_ref_latest(void **state)
{
    const char *file = "ycsb_latest.tsv";
    ref rf;
    bool more = ref_open(&rf, *state, file);
    int64_t last = fint(NEED(&rf, file, "last", "lastvalue", "basis", "max"));
    ycsb_latest g;
    ycsb_latest_init(&g, last);
    long rows = 0, bad = 0;
    for (; more; more = ref_row(&rf), rows++) {
        int64_t bl = rf.nfields >= 3 ? fint(rf.field[1]) : last;
        if (ycsb_latest_next_u(&g, bl, fdouble(rf.field[0])) != fint(rf.field[rf.nfields - 1]))
            mismatch(&bad, file, rf.lineno, "value differs");
    }
    ref_close(&rf);
    assert_true(rows > 0);
    assert_int_equal(bad, 0);
}

/* ycsb_hotspot.tsv: HotspotIntegerGenerator(lb, ub, hotset, hotopn); rows
 * "u<TAB>nextLong<TAB>value". */
static void test_ref_hotspot(void **state)
{
    const char *file = "ycsb_hotspot.tsv";
    ref rf;
    bool more = ref_open(&rf, *state, file);
    ycsb_hotspot g;
    ycsb_hotspot_init(&g, fint(NEED(&rf, file, "lb", "lowerbound", "min")),
                      fint(NEED(&rf, file, "ub", "upperbound", "max")),
                      fdouble(NEED(&rf, file, "hotsetfraction", "hotset")),
                      fdouble(NEED(&rf, file, "hotopnfraction", "hotopn")));
    long rows = 0, bad = 0;
    for (; more; more = ref_row(&rf), rows++) {
        assert_true(rf.nfields >= 3);
        int64_t v;
        uint64_t bits = (uint64_t)strtoll(rf.field[1], NULL, 10);
        if (ycsb_hotspot_next_u(&g, fdouble(rf.field[0]), bits, &v) != 0 ||
            v != fint(rf.field[rf.nfields - 1]))
            mismatch(&bad, file, rf.lineno, "value differs");
    }
    ref_close(&rf);
    assert_true(rows > 0);
    assert_int_equal(bad, 0);
}

/* ycsb_exponential.tsv: ExponentialGenerator(percentile, range); rows
 * "u<TAB>value" (a double, compared to 1 ulp-ish: 1e-15 relative). */
static void test_ref_exponential(void **state)
{
    const char *file = "ycsb_exponential.tsv";
    ref rf;
    bool more = ref_open(&rf, *state, file);
    ycsb_exponential g;
    ycsb_exponential_init(&g, fdouble(NEED(&rf, file, "percentile")),
                          fdouble(NEED(&rf, file, "range")));
    long rows = 0, bad = 0, exact = 0;
    for (; more; more = ref_row(&rf), rows++) {
        double got = ycsb_exponential_next_u(&g, fdouble(rf.field[0]));
        double want = fdouble(rf.field[rf.nfields - 1]);
        if (got == want)
            exact++;
        else if (!(fabs(got - want) <= 1e-15 * fabs(want)))
            mismatch(&bad, file, rf.lineno, "value differs");
    }
    ref_close(&rf);
    print_message("%s: %ld rows, %ld bit-identical\n", file, rows, exact);
    assert_true(rows > 0);
    assert_int_equal(bad, 0);
}

/* ycsb_keys.tsv: rows "keynum<TAB>zeropadding<TAB>orderedinserts<TAB>key"
 * from CoreWorkload.buildKeyName. */
static void test_ref_keys(void **state)
{
    const char *file = "ycsb_keys.tsv";
    ref rf;
    bool more = ref_open(&rf, *state, file);
    long rows = 0, bad = 0;
    for (; more; more = ref_row(&rf), rows++) {
        assert_true(rf.nfields >= 4);
        char buf[128];
        const char *o = rf.field[2];
        bool ordered = strcmp(o, "true") == 0 || strcmp(o, "1") == 0 || strcmp(o, "ordered") == 0;
        ycsb_build_key_name(fint(rf.field[0]), (int32_t)fint(rf.field[1]), ordered, buf, sizeof buf);
        if (strcmp(buf, rf.field[3]) != 0)
            mismatch(&bad, file, rf.lineno, "key differs");
    }
    ref_close(&rf);
    assert_true(rows > 0);
    assert_int_equal(bad, 0);
}

/* ycsb_c_popularity.tsv: format not known yet; checked to be present. */
static void test_ref_c_popularity(void **state)
{
    ref rf;
    bool more = ref_open(&rf, *state, "ycsb_c_popularity.tsv");
    ref_close(&rf);
    assert_true(more);
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
        cmocka_unit_test_prestate(test_ref_c_popularity, &d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
