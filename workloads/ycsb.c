/* ycsb.c -- YCSB's core generators, exactly as YCSB computes them.
 *
 * Facts (formulas, constants, order of draws, Java's integer and cast
 * semantics) are taken from YCSB's Java sources, github.com/
 * brianfrankcooper/YCSB at d9faaac85a95 (2026-04-15), under
 * core/src/main/java/site/ycsb/: each function names the file and method.
 * The code is ours. Randomness: each _next takes its uniform draws from
 * the caller's rng (rng_double for Java's nextDouble(), rng_next for
 * nextLong()), each _next_u is the pure function of those draws.
 *
 * YCSB quirks kept on purpose (workloads/dist.c fixes some of them):
 *  - ZipfianGenerator.nextLong recomputes eta from the final field `items`
 *    (the count at construction), not the grown itemcount.
 *  - ZipfianGenerator never shrinks zetan unless allowitemcountdecrease
 *    (false by default): a smaller itemcount draws with the larger zetan.
 *  - Math.abs(Long.MIN_VALUE) is negative, so one nextLong() in 2^64 gives
 *    a uniform or hotspot value below the lower bound, and fnvhash64 may
 *    return a negative value (then % gives a negative remainder).
 *  - CoreWorkload.nextKeynum keeps only the low 32 bits of a Long draw
 *    (intValue()), and saturates an exponential draw to an int.
 *  - AcknowledgedCounterGenerator.acknowledge stops its scan when the full
 *    index equals the *slot* of the old limit.
 *  - SequentialGenerator.lastValue() is counter + 1.
 * Not reproduced: the constructors' warm-up nextValue() (ZipfianGenerator,
 * SkewedLatestGenerator), whose only effects are a discarded draw and
 * lastValue; the warnings HotspotIntegerGenerator prints.
 *
 * Checked against YCSB's own classes (tests/data/ycsb_*.tsv, test_ycsb.c):
 * zeta sums, constructor fields, every draw of zipfian (with growth),
 * scrambled, latest, hotspot, uniform, key names and workload C's key
 * popularity are bit-identical. Java's Math.log and C's log may differ by
 * an ulp (Java allows 1 ulp): 2 exponential values of 1200 do, their int
 * parts not; Math.pow could in principle do the same and move a zipfian
 * boundary, which none of the reference draws shows.
 */
#include "workloads/ycsb.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "workloads/dist.h"

/* ---- Java helpers -------------------------------------------------------- */

int32_t ycsb_java_d2i(double x)
{
    if (isnan(x))
        return 0;
    if (x >= 2147483647.0)
        return INT32_MAX;
    if (x <= -2147483648.0)
        return INT32_MIN;
    return (int32_t)x;
}

int64_t ycsb_java_d2l(double x)
{
    if (isnan(x))
        return 0;
    if (x >= 9223372036854775808.0)
        return INT64_MAX;
    if (x <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)x;
}

/* Java's long +, -: two's complement wrap-around (no C overflow). */
static int64_t jadd(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t jsub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

/* Math.abs(long): Long.MIN_VALUE stays itself. */
static int64_t jabs(int64_t x)
{
    return x < 0 ? (int64_t)((uint64_t)0 - (uint64_t)x) : x;
}

/* Java's long % long (truncating, as C's; MIN % -1 is 0 in Java). */
static int64_t jmod(int64_t a, int64_t b)
{
    assert(b != 0);
    if (b == -1)
        return 0;
    return a % b;
}

/* Long.intValue(): the low 32 bits. */
static int32_t jl2i(int64_t x)
{
    uint32_t lo = (uint32_t)(uint64_t)x;
    return lo <= INT32_MAX ? (int32_t)lo : (int32_t)(lo - 2147483648u) + INT32_MIN;
}

/* Utils.java, fnvhash64(long): FNV_OFFSET_BASIS_64 0xCBF29CE484222325,
 * FNV_PRIME_64 1099511628211, octets least significant first (val >> 8 is
 * arithmetic, but only 8 octets are taken, so the same bytes), xor then
 * multiply, Math.abs. dist.c's ycsb_fnvhash64 computes the same bits. */
int64_t ycsb_utils_fnvhash64(int64_t val)
{
    return (int64_t)ycsb_fnvhash64((uint64_t)val);
}

/* ---- CounterGenerator.java, AcknowledgedCounterGenerator.java ---------- */

void ycsb_counter_init(ycsb_counter *c, int64_t countstart)
{
    c->counter = countstart;
}

int64_t ycsb_counter_next(ycsb_counter *c)
{
    int64_t v = c->counter;
    c->counter = jadd(c->counter, 1);
    return v;
}

int64_t ycsb_counter_last(const ycsb_counter *c)
{
    return jsub(c->counter, 1);
}

/* AcknowledgedCounterGenerator: WINDOW_MASK = WINDOW_SIZE - 1. */
#define ACK_MASK ((int64_t)YCSB_ACK_WINDOW_SIZE - 1)

static bool win_get(const ycsb_ackcounter *c, int64_t slot)
{
    return (c->window[slot >> 6] >> (slot & 63)) & 1u;
}

static void win_set(ycsb_ackcounter *c, int64_t slot, bool on)
{
    uint64_t bit = (uint64_t)1 << (slot & 63);
    if (on)
        c->window[slot >> 6] |= bit;
    else
        c->window[slot >> 6] &= ~bit;
}

void ycsb_ackcounter_init(ycsb_ackcounter *c, int64_t countstart)
{
    ycsb_counter_init(&c->base, countstart);
    c->limit = jsub(countstart, 1);
    memset(c->window, 0, sizeof c->window);
}

int64_t ycsb_ackcounter_next(ycsb_ackcounter *c)
{
    return ycsb_counter_next(&c->base);
}

int64_t ycsb_ackcounter_last(const ycsb_ackcounter *c)
{
    return c->limit;
}

/* AcknowledgedCounterGenerator.acknowledge(value), with tryLock always
 * succeeding (one thread). */
int ycsb_ackcounter_acknowledge(ycsb_ackcounter *c, int64_t value)
{
    int64_t slot = value & ACK_MASK;
    if (win_get(c, slot))
        return -1; /* "Too many unacknowledged insertion keys." */
    win_set(c, slot, true);
    int64_t before_first_slot = c->limit & ACK_MASK;
    int64_t index;
    for (index = jadd(c->limit, 1); index != before_first_slot; index = jadd(index, 1)) {
        int64_t s = index & ACK_MASK;
        if (!win_get(c, s))
            break;
        win_set(c, s, false);
    }
    c->limit = jsub(index, 1);
    return 0;
}

/* ---- UniformLongGenerator.java ------------------------------------------ */

void ycsb_uniform_init(ycsb_uniform *g, int64_t lb, int64_t ub)
{
    g->lb = lb;
    g->ub = ub;
    g->interval = jadd(jsub(ub, lb), 1);
}

/* nextValue(): Math.abs(ThreadLocalRandom.current().nextLong()) % interval + lb. */
int64_t ycsb_uniform_next_bits(const ycsb_uniform *g, uint64_t bits)
{
    return jadd(jmod(jabs((int64_t)bits), g->interval), g->lb);
}

int64_t ycsb_uniform_next(const ycsb_uniform *g, rng *r)
{
    return ycsb_uniform_next_bits(g, rng_next(r));
}

/* ---- ZipfianGenerator.java ---------------------------------------------- */

/* zetastatic(st, n, theta, initialsum): sum += 1 / Math.pow(i + 1, theta)
 * for i = st .. n-1. */
double ycsb_zetastatic(int64_t st, int64_t n, double theta, double initialsum)
{
    double sum = initialsum;
    for (int64_t i = st; i < n; i++)
        sum += 1 / pow((double)(i + 1), theta);
    return sum;
}

/* The constructor's and nextLong's eta, always from `items`. */
static double zipf_eta(const ycsb_zipfian *z)
{
    return (1 - pow(2.0 / (double)z->items, 1 - z->theta)) / (1 - z->zeta2theta / z->zetan);
}

/* ZipfianGenerator(min, max, zipfianconstant, zetan). */
void ycsb_zipfian_init_zetan(ycsb_zipfian *z, int64_t min, int64_t max,
                             double constant, double zetan)
{
    z->items = jadd(jsub(max, min), 1);
    z->base = min;
    z->theta = constant;
    z->zeta2theta = ycsb_zetastatic(0, 2, z->theta, 0);
    z->alpha = 1.0 / (1.0 - z->theta);
    z->zetan = zetan;
    z->countforzeta = z->items;
    z->allowitemcountdecrease = false;
    z->eta = zipf_eta(z);
}

/* ZipfianGenerator(min, max, zipfianconstant): zetan = zetastatic(max -
 * min + 1, zipfianconstant). */
void ycsb_zipfian_init(ycsb_zipfian *z, int64_t min, int64_t max, double constant)
{
    int64_t items = jadd(jsub(max, min), 1);
    /* Past YCSB_ZETA_EXACT_MAX terms of the constant 0.99, dist_zeta's
     * sum (its first 10^6 terms as YCSB adds them, the rest by
     * Euler-Maclaurin) instead of a minute of pow calls. */
    double zetan = constant == YCSB_ZIPFIAN_CONSTANT && items > YCSB_ZETA_EXACT_MAX
                       ? dist_zeta((uint64_t)items)
                       : ycsb_zetastatic(0, items, constant, 0);
    ycsb_zipfian_init_zetan(z, min, max, constant, zetan);
}

/* ZipfianGenerator.nextLong(itemcount). */
int64_t ycsb_zipfian_next_long_u(ycsb_zipfian *z, int64_t itemcount, double u)
{
    if (itemcount != z->countforzeta) {
        if (itemcount > z->countforzeta) {
            /* zeta(countforzeta, itemcount, theta, zetan): incremental */
            z->zetan = ycsb_zetastatic(z->countforzeta, itemcount, z->theta, z->zetan);
            z->countforzeta = itemcount;
            z->eta = zipf_eta(z);
        } else if (z->allowitemcountdecrease) {
            /* zeta(itemcount, theta): from scratch */
            z->zetan = ycsb_zetastatic(0, itemcount, z->theta, 0);
            z->countforzeta = itemcount;
            z->eta = zipf_eta(z);
        }
    }
    double uz = u * z->zetan;
    if (uz < 1.0)
        return z->base;
    if (uz < 1.0 + pow(0.5, z->theta))
        return jadd(z->base, 1);
    return jadd(z->base, ycsb_java_d2l((double)itemcount *
                                       pow(z->eta * u - z->eta + 1, z->alpha)));
}

/* nextValue(): nextLong(items). */
int64_t ycsb_zipfian_next_u(ycsb_zipfian *z, double u)
{
    return ycsb_zipfian_next_long_u(z, z->items, u);
}

int64_t ycsb_zipfian_next(ycsb_zipfian *z, rng *r)
{
    return ycsb_zipfian_next_u(z, rng_double(r));
}

/* ---- ScrambledZipfianGenerator.java ------------------------------------- */

/* ScrambledZipfianGenerator(min, max, ZIPFIAN_CONSTANT): itemcount = max -
 * min + 1; gen = new ZipfianGenerator(0, ITEM_COUNT, 0.99, ZETAN), i.e.
 * ITEM_COUNT + 1 items with the zeta of ITEM_COUNT terms. */
void ycsb_scrambled_init(ycsb_scrambled *g, int64_t min, int64_t max)
{
    g->min = min;
    g->max = max;
    g->itemcount = jadd(jsub(max, min), 1);
    ycsb_zipfian_init_zetan(&g->gen, 0, YCSB_SCRAMBLED_ITEM_COUNT, YCSB_ZIPFIAN_CONSTANT,
                            YCSB_SCRAMBLED_ZETAN);
}

/* nextValue(): min + Utils.fnvhash64(gen.nextValue()) % itemcount. */
int64_t ycsb_scrambled_next_u(ycsb_scrambled *g, double u)
{
    int64_t ret = ycsb_zipfian_next_u(&g->gen, u);
    return jadd(g->min, jmod(ycsb_utils_fnvhash64(ret), g->itemcount));
}

/* ---- SkewedLatestGenerator.java ----------------------------------------- */

/* new ZipfianGenerator(basis.lastValue()): ZipfianGenerator(long items) is
 * this(0, items - 1). */
void ycsb_latest_init(ycsb_latest *g, int64_t basis_last)
{
    ycsb_zipfian_init(&g->zipfian, 0, jsub(basis_last, 1), YCSB_ZIPFIAN_CONSTANT);
}

/* nextValue(): max = basis.lastValue(); max - zipfian.nextLong(max). */
int64_t ycsb_latest_next_u(ycsb_latest *g, int64_t basis_last, double u)
{
    return jsub(basis_last, ycsb_zipfian_next_long_u(&g->zipfian, basis_last, u));
}

/* ---- HotspotIntegerGenerator.java --------------------------------------- */

void ycsb_hotspot_init(ycsb_hotspot *g, int64_t lb, int64_t ub,
                       double hotset_fraction, double hot_opn_fraction)
{
    if (hotset_fraction < 0.0 || hotset_fraction > 1.0)
        hotset_fraction = 0.0;
    if (hot_opn_fraction < 0.0 || hot_opn_fraction > 1.0)
        hot_opn_fraction = 0.0;
    if (lb > ub) {
        int64_t t = lb;
        lb = ub;
        ub = t;
    }
    g->lower_bound = lb;
    g->upper_bound = ub;
    g->hotset_fraction = hotset_fraction;
    int64_t interval = jadd(jsub(ub, lb), 1);
    g->hot_interval = ycsb_java_d2i((double)interval * hotset_fraction);
    g->cold_interval = jsub(interval, g->hot_interval);
    g->hot_opn_fraction = hot_opn_fraction;
}

/* nextValue(): nextDouble() < hotOpnFraction picks the hot set, then one
 * nextLong() picks within the set. */
int ycsb_hotspot_next_u(const ycsb_hotspot *g, double u, uint64_t bits, int64_t *out)
{
    int64_t a = jabs((int64_t)bits);
    if (u < g->hot_opn_fraction) {
        if (g->hot_interval == 0)
            return -1;
        *out = jadd(g->lower_bound, jmod(a, g->hot_interval));
    } else {
        if (g->cold_interval == 0)
            return -1;
        *out = jadd(jadd(g->lower_bound, g->hot_interval), jmod(a, g->cold_interval));
    }
    return 0;
}

/* ---- ExponentialGenerator.java ------------------------------------------ */

void ycsb_exponential_init_mean(ycsb_exponential *g, double mean)
{
    g->gamma = 1.0 / mean;
}

void ycsb_exponential_init(ycsb_exponential *g, double percentile, double range)
{
    g->gamma = -log(1.0 - percentile / 100.0) / range;
}

/* nextValue(): -Math.log(nextDouble()) / gamma. */
double ycsb_exponential_next_u(const ycsb_exponential *g, double u)
{
    return -log(u) / g->gamma;
}

/* ---- SequentialGenerator.java ------------------------------------------- */

void ycsb_sequential_init(ycsb_sequential *g, int64_t countstart, int64_t countend)
{
    g->counter = 0;
    g->countstart = countstart;
    g->interval = jadd(jsub(countend, countstart), 1);
}

int64_t ycsb_sequential_next(ycsb_sequential *g)
{
    int64_t c = g->counter;
    g->counter = jadd(g->counter, 1);
    return jadd(g->countstart, jmod(c, g->interval));
}

int64_t ycsb_sequential_last(const ycsb_sequential *g)
{
    return jadd(g->counter, 1);
}

/* ---- DiscreteGenerator.java --------------------------------------------- */

void ycsb_discrete_init(ycsb_discrete *g)
{
    memset(g, 0, sizeof *g);
}

int ycsb_discrete_add(ycsb_discrete *g, double weight, int value)
{
    if (g->count >= YCSB_DISCRETE_MAX)
        return -1;
    g->weight[g->count] = weight;
    g->value[g->count] = value;
    g->count++;
    return 0;
}

int ycsb_discrete_next_u(const ycsb_discrete *g, double u)
{
    double sum = 0;
    for (size_t i = 0; i < g->count; i++)
        sum += g->weight[i];
    double val = u;
    for (size_t i = 0; i < g->count; i++) {
        double pw = g->weight[i] / sum;
        if (val < pw)
            return g->value[i];
        val -= pw;
    }
    return -1; /* AssertionError("oops. should not get here.") */
}

int ycsb_discrete_next(const ycsb_discrete *g, rng *r)
{
    return ycsb_discrete_next_u(g, rng_double(r));
}

/* ---- workloads/CoreWorkload.java ---------------------------------------- */

/* The *_PROPERTY_DEFAULT constants of CoreWorkload (and Client's
 * DEFAULT_RECORD_COUNT "0", ExponentialGenerator's two defaults). */
void ycsb_props_default(ycsb_props *p)
{
    memset(p, 0, sizeof *p);
    p->recordcount = 0;
    p->operationcount = 0;
    p->insertstart = 0;
    p->insertcount = -1;
    p->readproportion = 0.95;
    p->updateproportion = 0.05;
    p->insertproportion = 0.0;
    p->scanproportion = 0.0;
    p->readmodifywriteproportion = 0.0;
    p->requestdistribution = YCSB_REQ_UNIFORM;
    p->zeropadding = 1;
    p->orderedinserts = false;
    p->hotspotdatafraction = 0.2;
    p->hotspotopnfraction = 0.8;
    p->exponential_percentile = YCSB_EXPONENTIAL_PERCENTILE_DEFAULT;
    p->exponential_frac = YCSB_EXPONENTIAL_FRAC_DEFAULT;
}

/* CoreWorkload.init (the key and operation choosers) and
 * createOperationGenerator. */
int ycsb_keychooser_init(ycsb_keychooser *k, const ycsb_props *p)
{
    memset(k, 0, offsetof(ycsb_keychooser, transactioninsertkeysequence));
    int64_t recordcount = p->recordcount == 0 ? INT32_MAX : p->recordcount;
    int64_t insertstart = p->insertstart;
    int64_t insertcount = p->insertcount < 0 ? jsub(recordcount, insertstart) : p->insertcount;
    if (recordcount < jadd(insertstart, insertcount))
        return -1; /* "Invalid combination of insertstart, insertcount and recordcount." */
    k->kind = p->requestdistribution;
    k->recordcount = recordcount;
    k->insertstart = insertstart;
    k->insertcount = insertcount;
    k->zeropadding = p->zeropadding;
    k->orderedinserts = p->orderedinserts;
    k->expectednewkeys = 0;
    ycsb_counter_init(&k->keysequence, insertstart);

    ycsb_discrete_init(&k->operationchooser);
    const double props[] = {p->readproportion, p->updateproportion, p->insertproportion,
                            p->scanproportion, p->readmodifywriteproportion};
    const int ops[] = {YCSB_OP_READ, YCSB_OP_UPDATE, YCSB_OP_INSERT, YCSB_OP_SCAN,
                       YCSB_OP_READMODIFYWRITE};
    for (size_t i = 0; i < 5; i++)
        if (props[i] > 0)
            (void)ycsb_discrete_add(&k->operationchooser, props[i], ops[i]);

    ycsb_ackcounter_init(&k->transactioninsertkeysequence, recordcount);
    memset(&k->uniform, 0, sizeof *k - offsetof(ycsb_keychooser, uniform));
    switch (k->kind) {
    case YCSB_REQ_UNIFORM:
        ycsb_uniform_init(&k->uniform, insertstart, jsub(jadd(insertstart, insertcount), 1));
        break;
    case YCSB_REQ_EXPONENTIAL:
        ycsb_exponential_init(&k->exponential, p->exponential_percentile,
                              (double)recordcount * p->exponential_frac);
        break;
    case YCSB_REQ_SEQUENTIAL:
        ycsb_sequential_init(&k->sequential, insertstart, jsub(jadd(insertstart, insertcount), 1));
        break;
    case YCSB_REQ_ZIPFIAN:
        /* expectednewkeys = (int) ((opcount) * insertproportion * 2.0) */
        k->expectednewkeys = ycsb_java_d2i((double)p->operationcount * p->insertproportion * 2.0);
        ycsb_scrambled_init(&k->scrambled, insertstart,
                            jadd(jadd(insertstart, insertcount), k->expectednewkeys));
        break;
    case YCSB_REQ_LATEST:
        ycsb_latest_init(&k->latest, ycsb_ackcounter_last(&k->transactioninsertkeysequence));
        break;
    case YCSB_REQ_HOTSPOT:
        ycsb_hotspot_init(&k->hotspot, insertstart, jsub(jadd(insertstart, insertcount), 1),
                          p->hotspotdatafraction, p->hotspotopnfraction);
        break;
    }
    return 0;
}

/* nextKeynum()'s loop body. */
int ycsb_keychooser_draw_u(ycsb_keychooser *k, double u, uint64_t bits, int64_t *keynum)
{
    int64_t v = 0;
    switch (k->kind) {
    case YCSB_REQ_EXPONENTIAL:
        /* lastValue() - keychooser.nextValue().intValue() (a Double) */
        *keynum = jsub(ycsb_ackcounter_last(&k->transactioninsertkeysequence),
                       ycsb_java_d2i(ycsb_exponential_next_u(&k->exponential, u)));
        return 0;
    case YCSB_REQ_UNIFORM:
        if (k->uniform.interval == 0)
            return -1;
        v = ycsb_uniform_next_bits(&k->uniform, bits);
        break;
    case YCSB_REQ_SEQUENTIAL:
        if (k->sequential.interval == 0)
            return -1;
        v = ycsb_sequential_next(&k->sequential);
        break;
    case YCSB_REQ_ZIPFIAN:
        if (k->scrambled.itemcount == 0)
            return -1;
        v = ycsb_scrambled_next_u(&k->scrambled, u);
        break;
    case YCSB_REQ_LATEST:
        v = ycsb_latest_next_u(&k->latest,
                               ycsb_ackcounter_last(&k->transactioninsertkeysequence), u);
        break;
    case YCSB_REQ_HOTSPOT:
        if (ycsb_hotspot_next_u(&k->hotspot, u, bits, &v) != 0)
            return -1;
        break;
    }
    *keynum = jl2i(v); /* keychooser.nextValue().intValue() */
    return 0;
}

bool ycsb_keychooser_accepts(const ycsb_keychooser *k, int64_t keynum)
{
    if (k->kind == YCSB_REQ_EXPONENTIAL)
        return keynum >= 0; /* while (keynum < 0) */
    return keynum <= ycsb_ackcounter_last(&k->transactioninsertkeysequence);
}

int ycsb_keychooser_next_keynum(ycsb_keychooser *k, rng *r, int64_t *keynum)
{
    for (;;) {
        double u = 0;
        uint64_t bits = 0;
        switch (k->kind) {
        case YCSB_REQ_UNIFORM:
            bits = rng_next(r);
            break;
        case YCSB_REQ_HOTSPOT:
            u = rng_double(r);
            bits = rng_next(r);
            break;
        case YCSB_REQ_SEQUENTIAL:
            break;
        case YCSB_REQ_EXPONENTIAL:
        case YCSB_REQ_ZIPFIAN:
        case YCSB_REQ_LATEST:
            u = rng_double(r);
            break;
        }
        int64_t v;
        if (ycsb_keychooser_draw_u(k, u, bits, &v) != 0)
            return -1;
        if (ycsb_keychooser_accepts(k, v)) {
            *keynum = v;
            return 0;
        }
    }
}

int ycsb_keychooser_next_op(const ycsb_keychooser *k, rng *r)
{
    return ycsb_discrete_next(&k->operationchooser, r);
}

int64_t ycsb_keychooser_next_insert(ycsb_keychooser *k)
{
    return ycsb_ackcounter_next(&k->transactioninsertkeysequence);
}

/* CoreWorkload.buildKeyName(keynum, zeropadding, orderedinserts). */
size_t ycsb_build_key_name(int64_t keynum, int32_t zeropadding, bool orderedinserts,
                           char *buf, size_t cap)
{
    if (!orderedinserts)
        keynum = ycsb_utils_fnvhash64(keynum); /* Utils.hash */
    char value[24];
    int vlen = snprintf(value, sizeof value, "%" PRId64, keynum); /* Long.toString */
    assert(vlen > 0 && (size_t)vlen < sizeof value);
    int64_t fill = (int64_t)zeropadding - vlen;
    size_t nfill = fill > 0 ? (size_t)fill : 0;
    size_t len = 4 + nfill + (size_t)vlen;
    if (buf != NULL && len < cap) {
        memcpy(buf, "user", 4);
        memset(buf + 4, '0', nfill);
        memcpy(buf + 4 + nfill, value, (size_t)vlen + 1);
    }
    return len;
}
