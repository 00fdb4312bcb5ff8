/* dist.c -- YCSB's request distributions.
 *
 * Every constant and formula below is taken from YCSB's Java sources
 * (github.com/brianfrankcooper/YCSB, core/src/main/java/site/ycsb/...) and
 * names the file it comes from. Only the facts are taken; the code is ours.
 *
 * Design. One struct holds the state of any kind (a tagged union would save
 * a few words; the flat struct keeps each kind's code short). dist_next
 * switches on the kind and calls one small static function per kind. All
 * randomness comes from the rng passed in: a dist holds no generator and no
 * global state, so two dists may share one rng or use one each.
 *
 * Zipfian (Gray et al., "Quickly Generating Billion-Record Synthetic
 * Databases", SIGMOD 1994, as ZipfianGenerator.java implements it). Setup
 * needs zeta(n) = sum_{i=1..n} 1/i^theta: O(n) calls to pow, about 1.5 s
 * per 10^8 items, so dist_new(DIST_ZIPFIAN or DIST_LATEST, n) costs O(n)
 * up to 10^8 items; past that the sum is computed (below). Growing the
 * item count extends the sum incrementally,
 * O(new - old), as YCSB does; it sums the same terms in the same order, so
 * a grown generator is bit-for-bit the generator built at the new size.
 * Draws are O(1). The scrambled zipfian uses YCSB's precomputed zeta, so it
 * is O(1) to build whatever the item count.
 *
 * Deviations from YCSB, each deliberate:
 *  - After the item count grows, YCSB recomputes eta from the count the
 *    generator was *built* with (the final field `items`, not `itemcount`;
 *    ZipfianGenerator.nextLong). That is a bug: for a generator built with
 *    <= 2 items it makes eta 0, negative or NaN and draws fall outside the
 *    range. We recompute eta from the current count (Gray et al.'s
 *    definition), so growth yields exactly the zipfian of the new size.
 *  - Uniform and hotspot draws use rng_below (unbiased) where YCSB takes
 *    Math.abs(nextLong()) % n (slightly biased; Long.MIN_VALUE stays
 *    negative). Same distribution up to YCSB's bias.
 *  - Counts are 64-bit: YCSB truncates some through int (hotspot's hot
 *    interval, CoreWorkload's intValue() of a draw).
 *  - A zeta over more than 10^8 terms (records up to 2^32 - 1 are allowed)
 *    is not summed term by term, which would take a minute: the first
 *    10^6 terms are, and the rest is the Euler-Maclaurin formula's value
 *    (integral, end points, B2 and B4 terms: exact to double rounding).
 *    YCSB's own 10^10-term sum differs from it by its rounding (see
 *    SCRAMBLED_ZETAN below), so draws may differ from YCSB's only where
 *    that rounding moves a boundary. Up to 10^8 items nothing changes.
 *  - A draw that rounds to the item count or beyond (possible only through
 *    floating-point rounding) is clamped to the last item; Java's (long)
 *    cast would have returned it. A hotspot over fewer than 5 items (hot set
 *    of 0 items) draws from the cold set; YCSB would divide by zero.
 *
 * Note for users of YCSB's property names: CoreWorkload maps
 * requestdistribution=zipfian to ScrambledZipfianGenerator, i.e. to
 * DIST_SCRAMBLED_ZIPFIAN here; DIST_ZIPFIAN is the unscrambled generator
 * (item 0 hottest, item 1 next...).
 */
#include "workloads/dist.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a 64 constants, as YCSB's Utils uses them. */
#define FNV_OFFSET_BASIS_64 0xCBF29CE484222325ull
#define FNV_PRIME_64 1099511628211ull

uint64_t ycsb_fnvhash64(uint64_t v)
{
    uint64_t h = FNV_OFFSET_BASIS_64;
    for (int i = 0; i < 8; i++) {
        h ^= v & 0xff;
        h *= FNV_PRIME_64;
        v >>= 8;
    }
    /* Java's Math.abs on a long: the two's complement negation, which
     * leaves Long.MIN_VALUE as it is. */
    return (int64_t)h < 0 ? (uint64_t)0 - h : h;
}

/* ZipfianGenerator.java: ZIPFIAN_CONSTANT = 0.99. */
#define ZIPFIAN_CONSTANT 0.99

/* ScrambledZipfianGenerator.java: ITEM_COUNT = 10000000000L (10^10) and
 * ZETAN = 26.46902820178302, zeta(10^10, 0.99) as its main() computes it
 * (an Euler-Maclaurin evaluation gives 26.469028201751; the difference is
 * the rounding of YCSB's 10^10-term double sum). One stored version of that
 * file has ITEM_COUNT = 10^16 with the same ZETAN; zeta(10^16, 0.99) is
 * about 45.12, so ZETAN belongs to 10^10, which we use. The generator is
 * built as ZipfianGenerator(0, ITEM_COUNT, ...): max inclusive, hence
 * ITEM_COUNT + 1 items with the zeta of ITEM_COUNT, reproduced here. */
#define SCRAMBLED_ITEM_COUNT 10000000000ull
#define SCRAMBLED_ZETAN 26.46902820178302

/* CoreWorkload.java: HOTSPOT_DATA_FRACTION_DEFAULT = "0.2",
 * HOTSPOT_OPN_FRACTION_DEFAULT = "0.8". */
#define HOTSPOT_DATA_FRACTION 0.2
#define HOTSPOT_OPN_FRACTION 0.8

/* ExponentialGenerator.java: EXPONENTIAL_PERCENTILE_DEFAULT = "95",
 * EXPONENTIAL_FRAC_DEFAULT = "0.8571428571" (CoreWorkload reads both). */
#define EXPONENTIAL_PERCENTILE 95.0
#define EXPONENTIAL_FRAC 0.8571428571

/* Gray et al.'s zipfian state (ZipfianGenerator.java fields). */
typedef struct zipf {
    uint64_t count; /* items the zeta below sums over ("countforzeta") */
    double theta;   /* the zipfian constant */
    double alpha;   /* 1 / (1 - theta) */
    double zetan;   /* zeta(count, theta) */
    double zeta2;   /* zeta(2, theta) ("zeta2theta") */
    double eta;     /* (1 - (2/n)^(1-theta)) / (1 - zeta2 / zetan) */
} zipf;

struct dist {
    dist_kind kind;
    uint64_t items;  /* current item count, >= 1 */
    zipf z;          /* zipfian, scrambled_zipfian, latest */
    uint64_t hot;    /* hotspot: items in the hot set [0, hot) */
    uint64_t cursor; /* sequential: the next item */
    double gamma;    /* exponential: rate, fixed at dist_new */
};

static const char *const kind_names[] = {
    [DIST_UNIFORM] = "uniform",
    [DIST_ZIPFIAN] = "zipfian",
    [DIST_SCRAMBLED_ZIPFIAN] = "scrambled_zipfian",
    [DIST_LATEST] = "latest",
    [DIST_HOTSPOT] = "hotspot",
    [DIST_SEQUENTIAL] = "sequential",
    [DIST_EXPONENTIAL] = "exponential",
};
#define KIND_COUNT (sizeof kind_names / sizeof kind_names[0])

int dist_kind_parse(const char *name, dist_kind *out)
{
    assert(name != NULL && out != NULL);
    for (size_t k = 0; k < KIND_COUNT; k++) {
        if (strcmp(name, kind_names[k]) == 0) {
            *out = (dist_kind)k;
            return 0;
        }
    }
    return -1;
}

const char *dist_kind_name(dist_kind kind)
{
    assert((size_t)kind < KIND_COUNT);
    return (size_t)kind < KIND_COUNT ? kind_names[kind] : "?";
}

/* ---- zipfian (ZipfianGenerator.java) ---------------------------------- */

/* Terms zeta_sum adds one by one; beyond them the rest of the sum is the
 * Euler-Maclaurin formula's (about 1.5 s of pow calls per 10^8 terms: a
 * count of 2^32 would take a minute before the first draw). */
#define ZETA_TERMS_MAX 100000000ull
#define ZETA_TERMS_EXACT 1000000ull /* summed before the formula takes over */

/* sum_{k=a..b} k^-theta (1 < a <= b, theta != 1) by Euler-Maclaurin: the
 * integral, the end points' halves and the B2 and B4 corrections; with
 * a >= 10^6 the next term is below 10^-30, far under double rounding. */
static double zeta_tail(double a, double b, double theta)
{
    double s = 1.0 - theta;
    /* b^s - a^s without cancellation: a^s * expm1(s * ln(b / a)) */
    double integral = pow(a, s) * expm1(s * log(b / a)) / s;
    double ends = (pow(a, -theta) + pow(b, -theta)) / 2;
    double d1 = -theta * (pow(b, -theta - 1) - pow(a, -theta - 1));
    double d3 = -theta * (theta + 1) * (theta + 2) * (pow(b, -theta - 3) - pow(a, -theta - 3));
    return integral + ends + d1 / 12 - d3 / 720;
}

/* ZipfianGenerator.zetastatic(st, n, theta, initialsum): initialsum plus
 * sum_{i=st..n-1} 1/(i+1)^theta, in ascending order as YCSB sums. Over
 * ZETA_TERMS_MAX terms the first ZETA_TERMS_EXACT are summed so and the
 * rest computed (a deliberate deviation, see the top comment). */
static double zeta_sum(uint64_t st, uint64_t n, double theta, double initial)
{
    double sum = initial;
    uint64_t exact_to = n - st > ZETA_TERMS_MAX ? st + ZETA_TERMS_EXACT : n;
    for (uint64_t i = st; i < exact_to; i++)
        sum += 1.0 / pow((double)(i + 1), theta);
    if (exact_to < n)
        sum += zeta_tail((double)exact_to + 1, (double)n, theta);
    return sum;
}

/* eta = (1 - (2/n)^(1-theta)) / (1 - zeta2theta / zetan), with n the
 * current count (see the top comment for YCSB's stale n). For n <= 2 the
 * formula is 0/0 or divides by zero, but then u * zetan < zetan <=
 * 1 + 0.5^theta and zipf_draw never uses eta: 0 stands in. */
static double zipf_eta(const zipf *z)
{
    if (z->count <= 2)
        return 0.0;
    return (1.0 - pow(2.0 / (double)z->count, 1.0 - z->theta)) /
           (1.0 - z->zeta2 / z->zetan);
}

/* The ZipfianGenerator(min = 0, max = count - 1, theta, zetan)
 * constructor: theta, zeta2theta = zeta(2), alpha = 1/(1-theta), eta. */
static void zipf_init(zipf *z, uint64_t count, double zetan)
{
    z->count = count;
    z->theta = ZIPFIAN_CONSTANT;
    z->alpha = 1.0 / (1.0 - z->theta);
    z->zeta2 = zeta_sum(0, 2, z->theta, 0.0);
    z->zetan = zetan;
    z->eta = zipf_eta(z);
}

/* ZipfianGenerator.nextLong's growth branch: zetan extended from the old
 * count (zetastatic(countforzeta, itemcount, theta, zetan)), eta redone. */
static void zipf_grow(zipf *z, uint64_t count)
{
    assert(count >= z->count);
    if (count == z->count)
        return;
    z->zetan = zeta_sum(z->count, count, z->theta, z->zetan);
    z->count = count;
    z->eta = zipf_eta(z);
}

/* ZipfianGenerator.nextLong(itemcount) with base 0 and itemcount ==
 * z->count: uz = u * zetan; uz < 1 -> 0; uz < 1 + 0.5^theta -> 1; else
 * (long)(itemcount * (eta*u - eta + 1)^alpha). Returns [0, count). */
static uint64_t zipf_draw(const zipf *z, rng *r)
{
    assert(z->count >= 1);
    double u = rng_double(r);
    double uz = u * z->zetan;
    if (uz < 1.0)
        return 0;
    if (uz < 1.0 + pow(0.5, z->theta))
        return 1;
    double n = (double)z->count;
    double x = n * pow(z->eta * u - z->eta + 1.0, z->alpha);
    /* Mathematically x in [0, n); guard rounding (and a NaN) so the cast
     * below is defined. */
    if (!(x >= 0.0))
        return 0;
    if (x >= n)
        return z->count - 1;
    uint64_t v = (uint64_t)x;
    return v < z->count ? v : z->count - 1;
}

/* ---- the kinds -------------------------------------------------------- */

/* UniformLongGenerator.java over [0, items - 1]. */
static uint64_t next_uniform(dist *d, rng *r)
{
    return rng_below(r, d->items);
}

/* ScrambledZipfianGenerator.nextValue: min + fnvhash64(zipfian draw) %
 * itemcount, with min = 0 and itemcount the current count. The underlying
 * zipfian is fixed (10^10 + 1 items), so growing only changes the modulus:
 * the hot items move. CoreWorkload avoids that by building the generator
 * over the records plus 2 x the expected inserts and redrawing keys not
 * inserted yet; a caller wanting that does the same with this dist. */
static uint64_t next_scrambled(dist *d, rng *r)
{
    uint64_t v = zipf_draw(&d->z, r);
    return ycsb_fnvhash64(v) % d->items;
}

/* SkewedLatestGenerator over CoreWorkload's transactioninsertkeysequence
 * (AcknowledgedCounterGenerator(recordcount), whose lastValue() is the
 * newest record, items - 1): max = items - 1; next = max - zipfian(max),
 * the zipfian over max items [0, max). So the newest item is the most
 * popular, then the one before it...; as in YCSB, item 0 (the oldest) is
 * never drawn once items >= 2 (zipfian(max) < max). With one item, 0. */
static uint64_t next_latest(dist *d, rng *r)
{
    uint64_t max = d->items - 1;
    if (max == 0)
        return 0;
    assert(d->z.count == max);
    return max - zipf_draw(&d->z, r);
}

/* HotspotIntegerGenerator.nextValue over [0, items - 1]: with probability
 * hotOpnFraction a uniform item of the hot set [0, hot), else one of the
 * cold set [hot, items); hot = (long)(items * hotsetFraction). */
static uint64_t next_hotspot(dist *d, rng *r)
{
    uint64_t cold = d->items - d->hot;
    assert(cold >= 1);
    if (rng_double(r) < HOTSPOT_OPN_FRACTION && d->hot > 0)
        return rng_below(r, d->hot);
    return d->hot + rng_below(r, cold);
}

/* SequentialGenerator.nextValue: countstart + counter++ % interval. With a
 * fixed count that is 0, 1, ..., items - 1, 0, ...; after growth the scan
 * continues from where it was up to the new last item, then wraps. */
static uint64_t next_sequential(dist *d)
{
    if (d->cursor >= d->items)
        d->cursor = 0;
    return d->cursor++;
}

/* ExponentialGenerator.nextValue draws x = -ln(u) / gamma; CoreWorkload's
 * nextKeynum maps it as keynum = lastValue - (int)x, redrawing while
 * keynum < 0, with lastValue the newest record (items - 1). So the newest
 * item is the most popular and keynum >= 0 iff x < items. u = 0 gives
 * x = +inf, which the same test redraws. */
static uint64_t next_exponential(dist *d, rng *r)
{
    double n = (double)d->items;
    for (;;) {
        double x = -log(rng_double(r)) / d->gamma;
        if (x < n) {
            uint64_t back = (uint64_t)x;
            if (back < d->items)
                return d->items - 1 - back;
        }
    }
}

/* ---- public ----------------------------------------------------------- */

/* The kind-specific state for d->items (dist_new). */
static void init_kind(dist *d)
{
    switch (d->kind) {
    case DIST_ZIPFIAN:
        zipf_init(&d->z, d->items, zeta_sum(0, d->items, ZIPFIAN_CONSTANT, 0.0));
        break;
    case DIST_SCRAMBLED_ZIPFIAN:
        zipf_init(&d->z, SCRAMBLED_ITEM_COUNT + 1, SCRAMBLED_ZETAN);
        break;
    case DIST_LATEST:
        /* SkewedLatestGenerator: new ZipfianGenerator(basis.lastValue()). */
        zipf_init(&d->z, d->items - 1,
                  zeta_sum(0, d->items - 1, ZIPFIAN_CONSTANT, 0.0));
        break;
    case DIST_HOTSPOT:
        d->hot = (uint64_t)((double)d->items * HOTSPOT_DATA_FRACTION);
        break;
    case DIST_EXPONENTIAL:
        /* ExponentialGenerator(percentile, range):
         * gamma = -ln(1 - percentile/100) / range, and CoreWorkload passes
         * range = recordcount * frac. Fixed from here on, as in YCSB, where
         * the generator is built once from the initial record count. */
        d->gamma = -log(1.0 - EXPONENTIAL_PERCENTILE / 100.0) /
                   ((double)d->items * EXPONENTIAL_FRAC);
        break;
    case DIST_UNIFORM:
    case DIST_SEQUENTIAL:
        break;
    }
}

dist *dist_new(dist_kind kind, uint64_t items)
{
    assert((size_t)kind < KIND_COUNT);
    assert(items >= 1);
    dist *d = calloc(1, sizeof *d);
    if (d == NULL)
        return NULL;
    d->kind = kind;
    d->items = items;
    init_kind(d);
    return d;
}

void dist_free(dist *d)
{
    free(d);
}

void dist_set_items(dist *d, uint64_t items)
{
    assert(d != NULL);
    assert(items >= d->items);
    if (items <= d->items)
        return;
    d->items = items;
    switch (d->kind) {
    case DIST_ZIPFIAN:
        zipf_grow(&d->z, items);
        break;
    case DIST_LATEST:
        zipf_grow(&d->z, items - 1);
        break;
    case DIST_HOTSPOT:
        d->hot = (uint64_t)((double)items * HOTSPOT_DATA_FRACTION);
        break;
    case DIST_UNIFORM:
    case DIST_SCRAMBLED_ZIPFIAN:
    case DIST_SEQUENTIAL:
    case DIST_EXPONENTIAL:
        break;
    }
}

uint64_t dist_next(dist *d, rng *r)
{
    assert(d != NULL && r != NULL);
    uint64_t v = 0;
    switch (d->kind) {
    case DIST_UNIFORM:
        v = next_uniform(d, r);
        break;
    case DIST_ZIPFIAN:
        v = zipf_draw(&d->z, r);
        break;
    case DIST_SCRAMBLED_ZIPFIAN:
        v = next_scrambled(d, r);
        break;
    case DIST_LATEST:
        v = next_latest(d, r);
        break;
    case DIST_HOTSPOT:
        v = next_hotspot(d, r);
        break;
    case DIST_SEQUENTIAL:
        v = next_sequential(d);
        break;
    case DIST_EXPONENTIAL:
        v = next_exponential(d, r);
        break;
    }
    assert(v < d->items);
    return v;
}
