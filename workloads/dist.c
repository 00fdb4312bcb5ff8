/* dist.c -- distribution names, and the ranked zipfian and growing latest
 * generators (dist.h says which is used where).
 *
 * Every constant and formula below is taken from YCSB's Java sources
 * (github.com/brianfrankcooper/YCSB, core/src/main/java/site/ycsb/...) and
 * names the file it comes from. Only the facts are taken; the code is ours.
 * YCSB's own key choice (CoreWorkload.init and nextKeynum, with YCSB's
 * quirks) is workloads/ycsb.c; what is here serves what YCSB has no
 * requestdistribution for, so it follows the definitions and fixes the
 * quirks.
 *
 * Design. A dist holds one zipfian state and its item count; dist_next
 * switches on the kind. All randomness comes from the rng passed in: a
 * dist holds no generator and no global state, so two dists may share one
 * rng or use one each.
 *
 * Zipfian (Gray et al., "Quickly Generating Billion-Record Synthetic
 * Databases", SIGMOD 1994, as ZipfianGenerator.java implements it). Setup
 * needs zeta(n) = sum_{i=1..n} 1/i^theta: O(n) calls to pow, about 1.5 s
 * per 10^8 items, so dist_new costs O(n) up to 10^8 items; past that the
 * sum is computed (below). Growing the item count extends the sum
 * incrementally, O(new - old), as YCSB does; it sums the same terms in the
 * same order, so a grown generator is bit-for-bit the generator built at
 * the new size. Draws are O(1).
 *
 * Deviations from YCSB, each deliberate:
 *  - After the item count grows, YCSB recomputes eta from the count the
 *    generator was *built* with (the final field `items`, not `itemcount`;
 *    ZipfianGenerator.nextLong). That is a bug: for a generator built with
 *    <= 2 items it makes eta 0, negative or NaN and draws fall outside the
 *    range (a latest over a sequence's inserts starts at one item). We
 *    recompute eta from the current count (Gray et al.'s definition), so
 *    growth yields exactly the zipfian of the new size.
 *  - A zeta over more than 10^8 terms (records up to 2^32 - 1 are allowed)
 *    is not summed term by term, which would take a minute: the first
 *    10^6 terms are, and the rest is the Euler-Maclaurin formula's value
 *    (integral, end points, B2 and B4 terms: exact to double rounding).
 *    Up to 10^8 items nothing changes.
 *  - A draw that rounds to the item count or beyond (possible only through
 *    floating-point rounding) is clamped to the last item; Java's (long)
 *    cast would have returned it.
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
    dist_kind kind;  /* DIST_RANKED_ZIPFIAN or DIST_LATEST */
    uint64_t items;  /* current item count, >= 1 */
    zipf z;          /* ranked: over items; latest: over items - 1 */
};

static const char *const kind_names[] = {
    [DIST_UNIFORM] = "uniform",
    [DIST_ZIPFIAN] = "zipfian",
    [DIST_RANKED_ZIPFIAN] = "ranked_zipfian",
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
    /* What YCSB's requestdistribution=zipfian builds, by its class name
     * (and this option's meaning before `zipfian` became YCSB's). */
    if (strcmp(name, "scrambled_zipfian") == 0) {
        *out = DIST_ZIPFIAN;
        return 0;
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

double dist_zeta(uint64_t n)
{
    return zeta_sum(0, n, ZIPFIAN_CONSTANT, 0.0);
}

/* ---- the kinds -------------------------------------------------------- */

/* The ranked zipfian: ZipfianGenerator(0, items - 1).nextValue(), item i
 * of rank i. */
static uint64_t next_ranked(dist *d, rng *r)
{
    assert(d->z.count == d->items);
    return zipf_draw(&d->z, r);
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


/* ---- public ----------------------------------------------------------- */

dist *dist_new(dist_kind kind, uint64_t items)
{
    assert(kind == DIST_RANKED_ZIPFIAN || kind == DIST_LATEST);
    assert(items >= 1);
    dist *d = calloc(1, sizeof *d);
    if (d == NULL)
        return NULL;
    d->kind = kind;
    d->items = items;
    /* Ranked: ZipfianGenerator(items). Latest: SkewedLatestGenerator's
     * new ZipfianGenerator(basis.lastValue()), over items - 1. */
    uint64_t count = kind == DIST_LATEST ? items - 1 : items;
    zipf_init(&d->z, count, zeta_sum(0, count, ZIPFIAN_CONSTANT, 0.0));
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
    zipf_grow(&d->z, d->kind == DIST_LATEST ? items - 1 : items);
}

uint64_t dist_next(dist *d, rng *r)
{
    assert(d != NULL && r != NULL);
    uint64_t v = d->kind == DIST_LATEST ? next_latest(d, r) : next_ranked(d, r);
    assert(v < d->items);
    return v;
}
