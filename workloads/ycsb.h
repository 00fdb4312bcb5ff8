/* ycsb.h -- YCSB's core generators, computed exactly as YCSB computes them.
 *
 * Each generator of YCSB's site.ycsb.generator package (and the parts of
 * site.ycsb.workloads.CoreWorkload that choose keys) as a small value
 * struct: _init builds it as the Java constructor does, and _next_u (or
 * _next_bits) is the pure function of the uniform draw(s) YCSB takes from
 * ThreadLocalRandom: nextDouble() is a double u in [0, 1) (rng_double
 * here), nextLong() 64 bits (rng_next here); _next, where a caller draws
 * through it, takes them from the project's rng. So one seed gives one
 * output sequence, and a test can feed the u YCSB saw and expect YCSB's
 * output. Java semantics are kept: signed
 * 64-bit longs, % truncating toward zero, (int) and (long) casts of doubles
 * saturating (NaN to 0), Long.intValue() keeping the low 32 bits.
 *
 * This module reproduces YCSB including its quirks (named where they are,
 * in ycsb.c); workloads/dist.h keeps the project's own distribution that
 * YCSB lacks (the ranked zipfian). Its users: workloads/ycsb_pattern.c (a
 * YCSB workload's phases) and the entities pattern (workloads/pattern.c).
 */
#ifndef REGIONSIM_YCSB_H
#define REGIONSIM_YCSB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workloads/rng.h"

/* ---- Java helpers -------------------------------------------------------- */

/* Java's (int) cast of a double: truncation toward zero, saturating at
 * Integer.MIN_VALUE/MAX_VALUE, NaN to 0 (JLS 5.1.3). */
int32_t ycsb_java_d2i(double x);
/* Java's (long) cast of a double: as ycsb_java_d2i, at Long's bounds. */
int64_t ycsb_java_d2l(double x);

/* Utils.fnvhash64(val) as a Java long: FNV-1a over val's 8 bytes, least
 * significant first, then Math.abs (Long.MIN_VALUE stays negative). */
int64_t ycsb_utils_fnvhash64(int64_t val);

/* ---- CounterGenerator, AcknowledgedCounterGenerator ------------------- */

typedef struct ycsb_counter {
    int64_t counter; /* the next value to hand out */
} ycsb_counter;

/* new CounterGenerator(countstart). */
void ycsb_counter_init(ycsb_counter *c, int64_t countstart);
/* nextValue(): counter, then counter + 1. */
int64_t ycsb_counter_next(ycsb_counter *c);
/* lastValue(): counter - 1, the last value handed out. */
int64_t ycsb_counter_last(const ycsb_counter *c);

/* AcknowledgedCounterGenerator.WINDOW_SIZE = Integer.rotateLeft(1, 20). */
#define YCSB_ACK_WINDOW_SIZE (1 << 20)

/* A plain value (the window is a bitset inside it, 128 KiB): copy it,
 * embed it; no allocation. */
typedef struct ycsb_ackcounter {
    ycsb_counter base;
    int64_t limit; /* lastValue(): the highest value acknowledged in order */
    uint64_t window[YCSB_ACK_WINDOW_SIZE / 64];
} ycsb_ackcounter;

/* new AcknowledgedCounterGenerator(countstart): limit = countstart - 1. */
void ycsb_ackcounter_init(ycsb_ackcounter *c, int64_t countstart);
/* nextValue() (CounterGenerator's). */
int64_t ycsb_ackcounter_next(ycsb_ackcounter *c);
/* lastValue(): limit, not the last value handed out. */
int64_t ycsb_ackcounter_last(const ycsb_ackcounter *c);
/* acknowledge(value): marks value's window slot, then (the lock is always
 * free in one thread) moves limit over the run of marked slots after it.
 * Acknowledgements may come in any order; limit only passes a value once
 * every value before it is acknowledged. Returns 0, or -1 where YCSB
 * throws "Too many unacknowledged insertion keys." (the slot is still
 * marked: value - k * WINDOW_SIZE unacknowledged); nothing changes then. */
int ycsb_ackcounter_acknowledge(ycsb_ackcounter *c, int64_t value);

/* ---- UniformLongGenerator ------------------------------------------------ */

typedef struct ycsb_uniform {
    int64_t lb, ub, interval; /* interval = ub - lb + 1 */
} ycsb_uniform;

/* new UniformLongGenerator(lb, ub): [lb, ub], both inclusive. */
void ycsb_uniform_init(ycsb_uniform *g, int64_t lb, int64_t ub);
/* nextValue() given nextLong()'s 64 bits: Math.abs(bits) % interval + lb.
 * Requires interval != 0 (YCSB throws ArithmeticException). Note
 * Math.abs(Long.MIN_VALUE) < 0, so that one draw gives a value below lb,
 * as in YCSB. */
int64_t ycsb_uniform_next_bits(const ycsb_uniform *g, uint64_t bits);
/* nextValue() with bits = rng_next(r). */
int64_t ycsb_uniform_next(const ycsb_uniform *g, rng *r);

/* ---- ZipfianGenerator ---------------------------------------------------- */

/* ZipfianGenerator.ZIPFIAN_CONSTANT */
#define YCSB_ZIPFIAN_CONSTANT 0.99

typedef struct ycsb_zipfian {
    int64_t items; /* max - min + 1, fixed at construction */
    int64_t base;  /* min */
    double theta, alpha, zetan, eta, zeta2theta;
    int64_t countforzeta; /* the item count zetan sums over */
    bool allowitemcountdecrease; /* false, as YCSB; set it to recompute */
} ycsb_zipfian;

/* ZipfianGenerator.zetastatic(st, n, theta, initialsum): initialsum +
 * sum_{i=st}^{n-1} 1 / (i+1)^theta, added in ascending i as YCSB adds. */
double ycsb_zetastatic(int64_t st, int64_t n, double theta, double initialsum);

/* Items up to which ycsb_zipfian_init sums zeta term by term as YCSB
 * does (about 1.5 s at the most). */
#define YCSB_ZETA_EXACT_MAX 100000000LL

/* new ZipfianGenerator(min, max, constant): computes zetastatic(max - min
 * + 1, constant), O(max - min) calls to pow; for the constant 0.99 over
 * more than YCSB_ZETA_EXACT_MAX items, dist_zeta's sum (the same to
 * double rounding, in about 1.5 s instead of a minute for 2^32 items).
 * The constructor's warm-up nextValue() is not made (its only effects in
 * YCSB are one discarded draw and lastValue). */
void ycsb_zipfian_init(ycsb_zipfian *z, int64_t min, int64_t max, double constant);
/* new ZipfianGenerator(min, max, constant, zetan), zetan given. */
void ycsb_zipfian_init_zetan(ycsb_zipfian *z, int64_t min, int64_t max,
                             double constant, double zetan);
/* nextLong(itemcount) for the draw u: first, if itemcount > countforzeta,
 * zetan grows incrementally (O(itemcount - countforzeta)) and eta is
 * recomputed, from `items` (YCSB's); if smaller, the same from scratch
 * only when allowitemcountdecrease. Then base if u*zetan < 1, base + 1 if
 * < 1 + 0.5^theta, else base + (long)(itemcount * (eta*u - eta + 1)^alpha). */
int64_t ycsb_zipfian_next_long_u(ycsb_zipfian *z, int64_t itemcount, double u);
/* nextValue(): nextLong(items). */
int64_t ycsb_zipfian_next_u(ycsb_zipfian *z, double u);
int64_t ycsb_zipfian_next(ycsb_zipfian *z, rng *r);

/* ---- ScrambledZipfianGenerator ------------------------------------------- */

/* ScrambledZipfianGenerator.ITEM_COUNT and ZETAN (its precomputed
 * zetastatic(ITEM_COUNT, 0.99)). */
#define YCSB_SCRAMBLED_ITEM_COUNT 10000000000LL
#define YCSB_SCRAMBLED_ZETAN 26.46902820178302

typedef struct ycsb_scrambled {
    ycsb_zipfian gen; /* ZipfianGenerator(0, ITEM_COUNT, 0.99, ZETAN) */
    int64_t min, max, itemcount;
} ycsb_scrambled;

/* new ScrambledZipfianGenerator(min, max) (constant 0.99, the only one
 * YCSB's public constructors use): O(1). */
void ycsb_scrambled_init(ycsb_scrambled *g, int64_t min, int64_t max);
/* nextValue() for the draw u: min + fnvhash64(gen.nextValue()) % itemcount. */
int64_t ycsb_scrambled_next_u(ycsb_scrambled *g, double u);

/* ---- SkewedLatestGenerator ----------------------------------------------- */

/* The basis counter is the caller's: pass its lastValue() to each call. */
typedef struct ycsb_latest {
    ycsb_zipfian zipfian; /* new ZipfianGenerator(basis.lastValue()) */
} ycsb_latest;

/* new SkewedLatestGenerator(basis) with basis.lastValue() == basis_last:
 * the zipfian over basis_last items, O(basis_last). No warm-up draw. */
void ycsb_latest_init(ycsb_latest *g, int64_t basis_last);
/* nextValue() for the draw u: max - zipfian.nextLong(max), max = the
 * basis's lastValue() now (the zipfian grows with it). */
int64_t ycsb_latest_next_u(ycsb_latest *g, int64_t basis_last, double u);

/* ---- HotspotIntegerGenerator --------------------------------------------- */

typedef struct ycsb_hotspot {
    int64_t lower_bound, upper_bound, hot_interval, cold_interval;
    double hotset_fraction, hot_opn_fraction;
} ycsb_hotspot;

/* new HotspotIntegerGenerator(lb, ub, hotsetFraction, hotOpnFraction): a
 * fraction outside [0, 1] becomes 0.0, lb > ub are swapped (YCSB prints a
 * warning for each; not here); hotInterval = (int)(interval *
 * hotsetFraction), coldInterval = interval - hotInterval. */
void ycsb_hotspot_init(ycsb_hotspot *g, int64_t lb, int64_t ub,
                       double hotset_fraction, double hot_opn_fraction);
/* nextValue() for nextDouble() = u and nextLong() = bits: u <
 * hotOpnFraction: lb + Math.abs(bits) % hotInterval; else lb + hotInterval
 * + Math.abs(bits) % coldInterval. Stores it in *out and returns 0, or
 * returns -1 where YCSB divides by a zero interval (ArithmeticException). */
int ycsb_hotspot_next_u(const ycsb_hotspot *g, double u, uint64_t bits, int64_t *out);

/* ---- ExponentialGenerator ------------------------------------------------ */

/* ExponentialGenerator's EXPONENTIAL_PERCENTILE_DEFAULT and
 * EXPONENTIAL_FRAC_DEFAULT. */
#define YCSB_EXPONENTIAL_PERCENTILE_DEFAULT 95.0
#define YCSB_EXPONENTIAL_FRAC_DEFAULT 0.8571428571

typedef struct ycsb_exponential {
    double gamma;
} ycsb_exponential;

/* new ExponentialGenerator(mean): gamma = 1 / mean. */
void ycsb_exponential_init_mean(ycsb_exponential *g, double mean);
/* new ExponentialGenerator(percentile, range): gamma = -ln(1 -
 * percentile/100) / range. */
void ycsb_exponential_init(ycsb_exponential *g, double percentile, double range);
/* nextValue() for the draw u: -ln(u) / gamma (+inf for u = 0). */
double ycsb_exponential_next_u(const ycsb_exponential *g, double u);

/* ---- SequentialGenerator ------------------------------------------------- */

typedef struct ycsb_sequential {
    int64_t counter, interval, countstart;
} ycsb_sequential;

/* new SequentialGenerator(countstart, countend): interval = countend -
 * countstart + 1, counter 0. */
void ycsb_sequential_init(ycsb_sequential *g, int64_t countstart, int64_t countend);
/* nextValue(): countstart + counter++ % interval (no randomness). Requires
 * interval != 0. */
int64_t ycsb_sequential_next(ycsb_sequential *g);
/* lastValue() as YCSB defines it: counter + 1 (not the last value). */
int64_t ycsb_sequential_last(const ycsb_sequential *g);

/* ---- DiscreteGenerator --------------------------------------------------- */

#define YCSB_DISCRETE_MAX 8

typedef struct ycsb_discrete {
    size_t count;
    double weight[YCSB_DISCRETE_MAX];
    int value[YCSB_DISCRETE_MAX];
} ycsb_discrete;

/* new DiscreteGenerator(): no values. */
void ycsb_discrete_init(ycsb_discrete *g);
/* addValue(weight, value), in order. Returns 0, or -1 if full. */
int ycsb_discrete_add(ycsb_discrete *g, double weight, int value);
/* nextValue() for the draw u: sum the weights in order; walk the values,
 * returning the first whose weight/sum exceeds u, subtracting it from u
 * otherwise. Returns -1 where YCSB throws AssertionError (no value, or
 * rounding leaves u past the last). */
int ycsb_discrete_next_u(const ycsb_discrete *g, double u);
int ycsb_discrete_next(const ycsb_discrete *g, rng *r);

/* ---- CoreWorkload -------------------------------------------------------- */

/* CoreWorkload's operations, the values of its operationchooser. */
typedef enum ycsb_op {
    YCSB_OP_READ = 0,
    YCSB_OP_UPDATE,
    YCSB_OP_INSERT,
    YCSB_OP_SCAN,
    YCSB_OP_READMODIFYWRITE,
} ycsb_op;

/* requestdistribution's values; ZIPFIAN is YCSB's "zipfian", which
 * CoreWorkload builds as a ScrambledZipfianGenerator. */
typedef enum ycsb_requestdist {
    YCSB_REQ_UNIFORM = 0,
    YCSB_REQ_ZIPFIAN,
    YCSB_REQ_LATEST,
    YCSB_REQ_HOTSPOT,
    YCSB_REQ_SEQUENTIAL,
    YCSB_REQ_EXPONENTIAL,
} ycsb_requestdist;

/* The properties CoreWorkload.init reads to choose operations and keys,
 * already parsed. */
typedef struct ycsb_props {
    int64_t recordcount;   /* "recordcount", default 0 (then Integer.MAX_VALUE) */
    int32_t operationcount; /* "operationcount" (read as an int; needed by zipfian) */
    int64_t insertstart;   /* "insertstart", default 0 */
    int64_t insertcount;   /* "insertcount", default (< 0 here) recordcount - insertstart */
    double readproportion, updateproportion, insertproportion, scanproportion,
        readmodifywriteproportion; /* defaults 0.95, 0.05, 0, 0, 0 */
    ycsb_requestdist requestdistribution; /* default uniform */
    int32_t zeropadding;   /* default 1 */
    bool orderedinserts;   /* insertorder != "hashed"; default false */
    double hotspotdatafraction, hotspotopnfraction;    /* 0.2, 0.8 */
    double exponential_percentile, exponential_frac; /* 95, 0.8571428571 */
} ycsb_props;

/* CoreWorkload's defaults (the *_DEFAULT constants). */
void ycsb_props_default(ycsb_props *p);

/* What CoreWorkload.init builds to choose operations and keys. */
typedef struct ycsb_keychooser {
    ycsb_requestdist kind;
    int64_t recordcount, insertstart, insertcount;
    int32_t expectednewkeys; /* zipfian only: (int)(operationcount * insertproportion * 2.0) */
    int32_t zeropadding;
    bool orderedinserts;
    ycsb_counter keysequence;  /* CounterGenerator(insertstart): the load phase */
    ycsb_discrete operationchooser;
    ycsb_ackcounter transactioninsertkeysequence; /* (recordcount) */
    /* the keychooser: the one of `kind` */
    ycsb_uniform uniform;
    ycsb_exponential exponential;
    ycsb_sequential sequential;
    ycsb_scrambled scrambled;
    ycsb_latest latest;
    ycsb_hotspot hotspot;
} ycsb_keychooser;

/* CoreWorkload.init's construction from p (a large struct: put it on the
 * heap). Returns 0, or -1 where YCSB exits: recordcount < insertstart +
 * insertcount. Latest costs O(recordcount) (its zeta). */
int ycsb_keychooser_init(ycsb_keychooser *k, const ycsb_props *p);

/* One draw of the keychooser, as nextKeynum's loop body computes it before
 * its test: exponential: lastValue() - nextValue().intValue(); the others:
 * nextValue().intValue(). u is the nextDouble() draw, bits the nextLong()
 * one (uniform takes only bits; hotspot u then bits; sequential neither).
 * Returns 0, or -1 where YCSB would throw (see the generators). */
int ycsb_keychooser_draw_u(ycsb_keychooser *k, double u, uint64_t bits, int64_t *keynum);
/* nextKeynum's loop test: true if keynum ends the loop (exponential:
 * keynum >= 0; others: keynum <= transactioninsertkeysequence.lastValue()). */
bool ycsb_keychooser_accepts(const ycsb_keychooser *k, int64_t keynum);
/* CoreWorkload.nextKeynum(): draws (rng_double then rng_next where the
 * generator takes them) until accepted. Returns 0, or -1 as draw_u. May
 * loop long if few keys are accepted (YCSB too). */
int ycsb_keychooser_next_keynum(ycsb_keychooser *k, rng *r, int64_t *keynum);
/* operationchooser.nextValue(): a ycsb_op, or -1 as ycsb_discrete_next. */
int ycsb_keychooser_next_op(const ycsb_keychooser *k, rng *r);
/* A transaction insert's key number (transactioninsertkeysequence.nextValue);
 * the caller acknowledges it with ycsb_ackcounter_acknowledge when done. */
int64_t ycsb_keychooser_next_insert(ycsb_keychooser *k);

/* CoreWorkload.buildKeyName(keynum, zeropadding, orderedinserts): "user",
 * then zeros up to zeropadding digits, then Long.toString of keynum, or of
 * Utils.hash(keynum) (fnvhash64) unless orderedinserts. Writes it with a
 * NUL into buf if it fits in cap bytes; returns its length (without NUL)
 * either way, as snprintf does. */
size_t ycsb_build_key_name(int64_t keynum, int32_t zeropadding, bool orderedinserts,
                           char *buf, size_t cap);

#endif
