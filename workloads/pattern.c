/* pattern.c -- logical operations in time order.
 *
 * Every kind answers the same question, "what happens next, and when?",
 * with as little state as its arrivals need:
 *
 * - timeseries without jitter is a closed form, not a queue: S series
 *   report once per interval, series i of round k arriving at
 *       t_us = k*interval + floor(i*interval / S),
 *   so walking i = 0..S-1 and then the next round yields time order with
 *   three counters, O(1) per record whatever S is. Series i is
 *   ((metric * hosts) + host) * tags + tag. The walk keeps i's offset and
 *   its (metric, host, tag) as counters carried from i - 1 (a series_walk),
 *   so a record costs no division.
 * - timeseries with jitter delays each point by U[0, jitter); points of
 *   neighbouring series and rounds then overtake each other, so the next
 *   point of every series sits in a binary min-heap on (time, series):
 *   O(log S) per record, 24 bytes per series.
 * - entities and sequence arrive at a rate: fixed gaps (the k-th operation
 *   at floor(k * 1e6 / rate)) or Poisson (exponential gaps, from the RNG).
 * - trace delegates to the streaming trace reader, ycsb to
 *   workloads/ycsb_pattern.c.
 *
 * Entities choose operations and keys as YCSB's CoreWorkload does (its
 * doTransaction with read, update and insert), with the exact generators
 * of workloads/ycsb.h: a ycsb_keychooser built as CoreWorkload.init
 * builds it from recordcount = insertcount = records, insertstart 0,
 * readproportion = read_fraction, insertproportion = insert_fraction,
 * updateproportion = the rest, and operationcount = the operations the
 * phase is expected to make. Each operation draws operationchooser, then
 *   - insert: the next id of transactioninsertkeysequence (records,
 *     records + 1, ...), acknowledged at once: the simulator applies a
 *     write when it is issued, so a later read finds it;
 *   - read or update: nextKeynum, which redraws any key above the last
 *     acknowledged insert: a read never names an id not yet written.
 * So zipfian is ScrambledZipfianGenerator(0, records + expectednewkeys)
 * (max inclusive; expectednewkeys = (int)(operationcount *
 * insertproportion * 2.0)), fixed at the start: inserts do not move the
 * hot keys. uniform, hotspot and sequential stay on the loaded ids
 * [0, records - 1]; latest and exponential count back from the newest
 * insert. When the operation count is unknown (0), expectednewkeys is
 * taken as if the phase made `records` operations, YCSB's usual
 * operationcount = recordcount. ranked_zipfian (not YCSB's) uses the same
 * operation choice and inserts, and draws ids with dist.h's zipfian over
 * every id written so far (loaded and inserted): the ranks never move, an
 * insert only lengthens the cold tail. Deviations from YCSB: key numbers
 * are taken as 32-bit unsigned ids (YCSB's intValue() keeps the same low
 * 32 bits; records up to 2^32 - 1 are allowed, YCSB's keys stop at
 * 2^31 - 1), and a key YCSB would accept below 0 (Math.abs(Long.MIN_VALUE),
 * one draw in 2^64) is redrawn; an insert past id 2^32 - 2 becomes an
 * update. A zipfian over more than 10^8 items takes its zeta from
 * dist_zeta (ycsb_zipfian_init), not a minute-long sum. Operations and
 * keys come from their own rng stream, so Poisson arrivals do not shift
 * them: the sequence equals ycsb_keychooser's for the same props and
 * stream.
 *
 * Sequence inserts ids 0, 1, 2, ...; with read_fraction, that share of
 * all operations (one rng_double each) reads an id already written,
 * drawn like YCSB's latest (the newest id most popular) over the ids
 * written so far (dist.h's latest, which grows from one id); until the
 * first insert every operation inserts.
 *
 * Weighted (pattern_set_weight, for the weighted engine, scenario/weighting.h):
 * the pattern emits one operation in w and each stands for w, without
 * making the w - 1 others. An on-time time series is a deterministic
 * sequence in (round, series) order, so it is sampled systematically:
 * operations u, u + w, u + 2w, ... of that order (u < w drawn from the
 * seed), each found in O(1) from its index. Within a round the sampled
 * series are evenly spread over the series, far less noisy per window
 * and server than independent thinning; w must be coprime with the series
 * count S (else some series are never sampled) and, when w >= S, should
 * step through the series by about S / golden ratio per sample (else
 * consecutive samples walk slowly through neighbouring series):
 * pattern_weight_stride adjusts w to both. Entities and sequence draw
 * their operations independently, so their weighted stream is exact in
 * distribution: arrivals at rate / w (fixed: every w-th arrival time;
 * Poisson: gaps w times as long), each operation drawn as before; an
 * insert stands for w inserts (w new ids, one of them drawn at random
 * emitted: always the first would give every emitted id one residue mod
 * w, and keys built from an id's last digits would all look alike). Traces,
 * YCSB phases and jittered time series are not weighted (the engine runs
 * them per operation).
 */
#include "workloads/pattern.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/rng.h"
#include "workloads/trace.h"
#include "workloads/ycsb.h"
#include "workloads/ycsb_pattern.h"

typedef struct pending_point {
    uint64_t t_us;     /* when the point arrives */
    uint64_t round;    /* which interval it belongs to */
    uint32_t series;
} pending_point;

/* Series i of the closed form, carried from i - 1: offset_us =
 * floor(i * interval / S) = i * step_q + floor(i * step_r / S), with
 * rem = i * step_r mod S; and i's metric, host and tag. */
typedef struct series_walk {
    uint64_t step_q, step_r;  /* interval / S, interval % S */
    uint64_t offset_us, rem;
    uint32_t metric, host, tag;
} series_walk;

struct pattern {
    pattern_config cfg;
    rng random;
    /* timeseries */
    uint64_t series;          /* S = metrics * hosts * tags, <= UINT32_MAX */
    uint64_t round, index;    /* closed form: next point is series `index` of `round` */
    series_walk walk;         /* closed form: series `index`, as counters */
    pending_point *heap;      /* jitter: the next point of every series */
    /* entities and sequence */
    uint64_t arrivals;        /* operations generated so far */
    double poisson_t_us;      /* Poisson: time of the last arrival */
    uint64_t written;         /* ids written: 0 .. written - 1 (loaded and inserted) */
    rng ops;                  /* which operation, which id (not the arrivals) */
    ycsb_keychooser *keys;    /* entities: CoreWorkload's choosers (128 KiB: heap) */
    dist *chooser;            /* entities: ranked_zipfian; sequence: its reads' latest */
    /* trace */
    trace_reader *trace;
    /* ycsb */
    ycsb_gen *ycsb;
    /* weighted: one operation emitted in `weight` (1: every one) */
    uint64_t weight;
};

static pattern *pattern_fail(pattern *p, char *err, size_t cap, const char *what)
{
    if (what)
        snprintf(err, cap, "%s", what);
    pattern_free(p);
    return NULL;
}

/* ---- timeseries ---- */

/* floor(i * interval / S) without overflowing 64 bits: i < S <= 2^32 - 1,
 * so i * (interval % S) < 2^64. */
static uint64_t series_offset_us(const pattern *p, uint64_t i)
{
    uint64_t iv = p->cfg.interval_us, s = p->series;
    return i * (iv / s) + i * (iv % s) / s;
}

static void series_record(const pattern *p, uint64_t i, record *out)
{
    const pattern_config *c = &p->cfg;
    out->entity = (uint32_t)i;
    out->tag = (uint32_t)(i % c->tags);
    uint64_t metric_host = i / c->tags;
    out->metric = (uint32_t)(metric_host / c->hosts);
    out->host = (uint32_t)(metric_host % c->hosts);
    out->naming = c->tags > 1 ? NAMING_SERIES_TAGGED : NAMING_SERIES;
}

/* The walk at series 0 (of any round). */
static void series_walk_start(pattern *p)
{
    series_walk *w = &p->walk;
    w->step_q = p->cfg.interval_us / p->series;
    w->step_r = p->cfg.interval_us % p->series;
    w->offset_us = w->rem = 0;
    w->metric = w->host = w->tag = 0;
}

/* The walk from series i to i + 1 (< S): what series_offset_us and
 * series_record compute, by carries. */
static void series_walk_step(pattern *p)
{
    series_walk *w = &p->walk;
    w->offset_us += w->step_q;
    w->rem += w->step_r; /* < 2S: both terms < S */
    if (w->rem >= p->series) {
        w->rem -= p->series;
        w->offset_us++;
    }
    if (++w->tag == p->cfg.tags) {
        w->tag = 0;
        if (++w->host == p->cfg.hosts) {
            w->host = 0;
            w->metric++;
        }
    }
}

/* The walk at series i of round `round` (index i < S), in O(1): what
 * stepping from series 0 would reach. */
static void series_walk_to(pattern *p, uint64_t round, uint64_t i)
{
    series_walk *w = &p->walk;
    record r;
    series_walk_start(p);
    p->round = round;
    p->index = i;
    w->offset_us = series_offset_us(p, i);
    w->rem = i * w->step_r % p->series; /* i, step_r < S <= 2^32 - 1: no overflow */
    series_record(p, i, &r);
    w->metric = r.metric;
    w->host = r.host;
    w->tag = r.tag;
}

/* Weighted: from the point just emitted (the walk already at the next
 * one), w - 1 points further on. */
static void series_skip(pattern *p)
{
    uint64_t i = p->index + (p->weight - 1);
    series_walk_to(p, p->round + i / p->series, i % p->series);
}

static int series_next_on_time(pattern *p, uint64_t *t_us, record *out)
{
    const series_walk *w = &p->walk;
    assert(w->offset_us == series_offset_us(p, p->index));
    *t_us = p->round * p->cfg.interval_us + w->offset_us;
    out->entity = (uint32_t)p->index;
    out->tag = w->tag;
    out->metric = w->metric;
    out->host = w->host;
    out->naming = p->cfg.tags > 1 ? NAMING_SERIES_TAGGED : NAMING_SERIES;
    if (++p->index == p->series) {
        p->index = 0;
        p->round++;
        series_walk_start(p);
    } else {
        series_walk_step(p);
    }
    if (p->weight > 1)
        series_skip(p);
    return 1;
}

static int point_before(const pending_point *a, const pending_point *b)
{
    return a->t_us < b->t_us || (a->t_us == b->t_us && a->series < b->series);
}

static void heap_sift_down(pending_point *h, size_t n, size_t i)
{
    pending_point x = h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && point_before(&h[c + 1], &h[c]))
            c++;
        if (!point_before(&h[c], &x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

static uint64_t jittered_time(pattern *p, uint64_t round, uint64_t series)
{
    return round * p->cfg.interval_us + series_offset_us(p, series) +
           rng_below(&p->random, p->cfg.jitter_us);
}

static int series_heap_init(pattern *p)
{
    p->heap = malloc(p->series * sizeof *p->heap);
    if (!p->heap)
        return -1;
    for (uint64_t i = 0; i < p->series; i++)
        p->heap[i] = (pending_point){ jittered_time(p, 0, i), 0, (uint32_t)i };
    for (size_t i = p->series / 2; i-- > 0;)
        heap_sift_down(p->heap, p->series, i);
    return 0;
}

/* The earliest pending point; that series' next round takes its place. */
static int series_next_jittered(pattern *p, uint64_t *t_us, record *out)
{
    pending_point *top = &p->heap[0];
    *t_us = top->t_us;
    series_record(p, top->series, out);
    top->round++;
    top->t_us = jittered_time(p, top->round, top->series);
    if (top->t_us < *t_us)
        top->t_us = *t_us; /* jitter beyond the interval: never arrive in the past */
    heap_sift_down(p->heap, p->series, 0);
    return 1;
}

/* ---- arrivals at a rate ---- */

static uint64_t next_arrival_us(pattern *p)
{
    uint64_t k = p->arrivals;
    p->arrivals += p->weight; /* weighted: every w-th arrival (from a seeded start) */
    double gap = 1e6 / p->cfg.rate_per_s;
    if (p->cfg.arrivals == ARRIVALS_FIXED)
        return (uint64_t)((double)k * gap);
    /* Exponential gap with mean `gap` (weighted: w gaps' worth, a Poisson
     * stream at rate / w): -ln(1 - U) * gap, U in [0, 1). */
    p->poisson_t_us += -log1p(-rng_double(&p->random)) * gap * (double)p->weight;
    return (uint64_t)p->poisson_t_us;
}

/* The stream of operation and key draws: "entities" in ASCII. */
#define OPS_STREAM 0x656e746974696573ull

/* YCSB's operationcount for expectednewkeys: the phase's expected
 * operations, or `records` when unknown (see the top comment), as an int. */
static int32_t entities_operationcount(const pattern_config *c)
{
    uint64_t ops = c->operations ? c->operations : c->records;
    return ops > INT32_MAX ? INT32_MAX : (int32_t)ops;
}

static ycsb_requestdist requestdist_of(dist_kind kind)
{
    switch (kind) {
    case DIST_UNIFORM:
    case DIST_RANKED_ZIPFIAN: /* ids from p->chooser; the keychooser is not asked */
        return YCSB_REQ_UNIFORM;
    case DIST_ZIPFIAN:
        return YCSB_REQ_ZIPFIAN;
    case DIST_LATEST:
        return YCSB_REQ_LATEST;
    case DIST_HOTSPOT:
        return YCSB_REQ_HOTSPOT;
    case DIST_SEQUENTIAL:
        return YCSB_REQ_SEQUENTIAL;
    case DIST_EXPONENTIAL:
        return YCSB_REQ_EXPONENTIAL;
    }
    return YCSB_REQ_UNIFORM;
}

/* CoreWorkload.init's generators for an entities pattern. Returns 0, or
 * -1 out of memory. */
static int entities_init(pattern *p)
{
    const pattern_config *c = &p->cfg;
    ycsb_props props;
    ycsb_props_default(&props);
    props.recordcount = (int64_t)c->records;
    props.insertstart = 0;
    props.insertcount = (int64_t)c->records;
    props.operationcount = entities_operationcount(c);
    props.readproportion = c->read_fraction;
    props.insertproportion = c->insert_fraction;
    double update = 1.0 - c->read_fraction - c->insert_fraction;
    props.updateproportion = update > 0 ? update : 0;
    props.requestdistribution = requestdist_of(c->distribution);
    p->keys = malloc(sizeof *p->keys);
    if (!p->keys)
        return -1;
    int rc = ycsb_keychooser_init(p->keys, &props);
    assert(rc == 0); /* insertstart + insertcount == recordcount */
    (void)rc;
    p->written = c->records;
    if (c->distribution == DIST_RANKED_ZIPFIAN) {
        p->chooser = dist_new(DIST_RANKED_ZIPFIAN, c->records);
        if (!p->chooser)
            return -1;
    }
    return 0;
}

/* nextKeynum (or the ranked zipfian): an id already written. */
static uint32_t entities_key(pattern *p)
{
    if (p->chooser)
        return (uint32_t)dist_next(p->chooser, &p->ops);
    for (;;) {
        int64_t keynum;
        int rc = ycsb_keychooser_next_keynum(p->keys, &p->ops, &keynum);
        assert(rc == 0); /* hotspot's empty hot set is refused by pattern_new */
        (void)rc;
        uint32_t id = (uint32_t)(uint64_t)keynum; /* intValue()'s low 32 bits */
        if (id < p->written)
            return id;
    }
}

static int entities_next(pattern *p, uint64_t *t_us, record *out)
{
    *t_us = next_arrival_us(p);
    out->naming = p->cfg.naming;
    int op = ycsb_keychooser_next_op(p->keys, &p->ops);
    if (op == YCSB_OP_INSERT && p->written < UINT32_MAX) {
        int64_t id = ycsb_keychooser_next_insert(p->keys);
        assert(id >= 0 && (uint64_t)id == p->written);
        int rc = ycsb_ackcounter_acknowledge(&p->keys->transactioninsertkeysequence, id);
        assert(rc == 0); /* acknowledged in order: the window never fills */
        (void)rc;
        out->entity = (uint32_t)id;
        out->op = RECORD_PUT;
        p->written++;
        /* weighted: it stands for w inserts, the w - 1 next ids too, and
         * is one of them drawn at random (always the first would put
         * every insert on ids of one residue mod w: a reversed id's first
         * digit would be the same for all) */
        uint64_t pick = p->weight > 1 ? rng_below(&p->ops, p->weight) : 0;
        for (uint64_t more = 1; more < p->weight && p->written < UINT32_MAX; more++) {
            id = ycsb_keychooser_next_insert(p->keys);
            rc = ycsb_ackcounter_acknowledge(&p->keys->transactioninsertkeysequence, id);
            assert(rc == 0 && (uint64_t)id == p->written);
            if (more == pick)
                out->entity = (uint32_t)id;
            p->written++;
        }
        if (p->chooser)
            dist_set_items(p->chooser, p->written);
        return 1;
    }
    /* A read, an update (or an insert with no id left, or the rounding
     * DiscreteGenerator may leave past its last weight: as an update). */
    out->entity = entities_key(p);
    out->op = op == YCSB_OP_READ ? RECORD_GET : RECORD_PUT;
    return 1;
}

static int sequence_next(pattern *p, uint64_t *t_us, record *out)
{
    *t_us = next_arrival_us(p);
    out->naming = p->cfg.naming;
    if (p->cfg.read_fraction > 0 && p->written > 0 &&
        rng_double(&p->ops) < p->cfg.read_fraction) {
        out->entity = (uint32_t)dist_next(p->chooser, &p->ops);
        out->op = RECORD_GET;
        return 1;
    }
    /* weighted: w new ids, one drawn at random emitted (entities_next
     * says why not the first); wraps after 2^32 inserts */
    out->entity = (uint32_t)(p->written + (p->weight > 1 ? rng_below(&p->ops, p->weight) : 0));
    p->written += p->weight;
    out->op = RECORD_PUT;
    if (p->chooser && p->written <= UINT32_MAX + 1ull)
        dist_set_items(p->chooser, p->written);
    return 1;
}

/* ---- the common interface ---- */

static const char *rate_problem(const pattern_config *c)
{
    if (!(c->rate_per_s > 0) || c->rate_per_s > 1e9)
        return "rate: must be more than 0 and at most 1e9/s";
    return NULL;
}

/* Rounding room for read_fraction + insert_fraction <= 1 (0.7 + 0.3). */
#define FRACTION_SLACK 1e-9

static const char *config_problem(const pattern_config *c)
{
    switch (c->kind) {
    case PATTERN_TIMESERIES:
        if (c->metrics < 1 || c->hosts < 1 || c->tags < 1 || c->interval_us < 1)
            return "timeseries: metrics, hosts, tags and interval must be at least 1";
        if ((uint64_t)c->metrics * c->hosts * c->tags > UINT32_MAX)
            return "timeseries: metrics x hosts x tags must be at most 4294967295";
        if (c->jitter_us > 0 && (uint64_t)c->metrics * c->hosts * c->tags > (1u << 26))
            return "timeseries: jitter needs at most 67108864 series (24 bytes each)";
        return NULL;
    case PATTERN_ENTITIES:
        if (c->records < 1 || c->records > UINT32_MAX)
            return "entities: records must be 1 to 4294967295";
        if (!(c->insert_fraction >= 0 && c->insert_fraction <= 1))
            return "entities: insert_fraction must be 0 to 1";
        if (!(c->read_fraction >= 0 && c->read_fraction <= 1))
            return "entities: read_fraction must be 0 to 1";
        if (c->read_fraction + c->insert_fraction > 1 + FRACTION_SLACK)
            return "entities: read_fraction + insert_fraction must be at most 1 (both are "
                   "shares of all operations; updates are the rest)";
        if (c->distribution == DIST_HOTSPOT && c->records < 5)
            return "entities: hotspot needs at least 5 records (YCSB's hot set, 20% of "
                   "them, would be empty)";
        if ((unsigned)c->distribution > DIST_EXPONENTIAL)
            return "entities: unknown distribution";
        return rate_problem(c);
    case PATTERN_SEQUENCE:
        if (!(c->read_fraction >= 0 && c->read_fraction <= 1))
            return "sequence: read_fraction must be 0 to 1";
        return rate_problem(c);
    case PATTERN_TRACE:
        return c->trace_path && c->trace_path[0] ? NULL : "trace: no trace file given";
    case PATTERN_YCSB:
        return c->ycsb ? NULL : "ycsb: no workload given";
    }
    return "unknown pattern";
}

pattern *pattern_new(const pattern_config *cfg, uint64_t seed, char *err, size_t errcap)
{
    const char *problem = config_problem(cfg);
    if (problem)
        return pattern_fail(NULL, err, errcap, problem);
    pattern *p = calloc(1, sizeof *p);
    if (!p)
        return pattern_fail(NULL, err, errcap, "out of memory");
    p->cfg = *cfg;
    p->weight = 1;
    p->random = rng_stream(seed, 0x7061747465726eull /* "pattern" */);
    switch (cfg->kind) {
    case PATTERN_TIMESERIES:
        p->series = (uint64_t)cfg->metrics * cfg->hosts * cfg->tags;
        series_walk_start(p);
        if (cfg->jitter_us > 0 && series_heap_init(p) < 0)
            return pattern_fail(p, err, errcap, "out of memory");
        break;
    case PATTERN_ENTITIES:
        p->ops = rng_stream(seed, OPS_STREAM);
        if (entities_init(p) < 0)
            return pattern_fail(p, err, errcap, "out of memory");
        break;
    case PATTERN_SEQUENCE:
        p->ops = rng_stream(seed, OPS_STREAM);
        if (cfg->read_fraction > 0 && !(p->chooser = dist_new(DIST_LATEST, 1)))
            return pattern_fail(p, err, errcap, "out of memory");
        break;
    case PATTERN_TRACE:
        p->trace = trace_open_format(cfg->trace_path,
                                     cfg->trace_ycsb ? TRACE_FORMAT_YCSB : TRACE_FORMAT_CSV,
                                     cfg->trace_interval_us, err, errcap);
        if (!p->trace)
            return pattern_fail(p, err, errcap, NULL);
        break;
    case PATTERN_YCSB:
        p->ycsb = ycsb_gen_new(cfg, seed, err, errcap);
        if (!p->ycsb)
            return pattern_fail(p, err, errcap, NULL);
        break;
    }
    return p;
}

void pattern_free(pattern *p)
{
    if (!p)
        return;
    free(p->heap);
    dist_free(p->chooser);
    free(p->keys);
    trace_close(p->trace);
    ycsb_gen_free(p->ycsb);
    free(p);
}

int pattern_can_weight(const pattern_config *cfg)
{
    return (cfg->kind == PATTERN_TIMESERIES && cfg->jitter_us == 0) ||
           cfg->kind == PATTERN_ENTITIES || cfg->kind == PATTERN_SEQUENCE;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int pattern_weight_fits(const pattern_config *cfg, uint64_t w)
{
    return cfg->kind != PATTERN_TIMESERIES ||
           gcd64(w, (uint64_t)cfg->metrics * cfg->hosts * cfg->tags) == 1;
}

uint64_t pattern_weight_stride(const pattern_config *cfg, uint64_t w)
{
    if (w <= 1 || cfg->kind != PATTERN_TIMESERIES)
        return w;
    uint64_t s = (uint64_t)cfg->metrics * cfg->hosts * cfg->tags;
    if (s <= 1)
        return w;
    if (w >= s) { /* the step through the series: near S / golden ratio */
        uint64_t r = (uint64_t)((double)s * 0.6180339887498949);
        if (r == 0)
            r = 1;
        w = (w / s) * s + r;
    }
    while (!pattern_weight_fits(cfg, w))
        w++;
    return w;
}

void pattern_random_series(const pattern *p, rng *random, record *out)
{
    if (p->cfg.kind != PATTERN_TIMESERIES)
        return;
    series_record(p, rng_below(random, p->series), out);
}

int pattern_set_weight(pattern *p, uint64_t w, uint64_t seed)
{
    assert(w >= 1);
    if (w == 1)
        return 0;
    if (!pattern_can_weight(&p->cfg))
        return -1;
    rng r = rng_stream(seed, 0x776569676874ull /* "weight" */);
    uint64_t start = rng_below(&r, w); /* the systematic sample's random start */
    p->weight = w;
    if (p->cfg.kind == PATTERN_TIMESERIES)
        series_walk_to(p, start / p->series, start % p->series);
    else
        p->arrivals = p->cfg.arrivals == ARRIVALS_FIXED ? start : 0;
    return 0;
}

double pattern_rate_per_s(const pattern *p)
{
    switch (p->cfg.kind) {
    case PATTERN_TIMESERIES:
        return (double)p->series * 1e6 / (double)p->cfg.interval_us;
    case PATTERN_ENTITIES:
    case PATTERN_SEQUENCE:
        return p->cfg.rate_per_s;
    case PATTERN_TRACE:
        return 0;
    case PATTERN_YCSB:
        return p->cfg.ycsb_rate_per_s;
    }
    return 0;
}

int pattern_is_finite(const pattern_config *cfg)
{
    return cfg->kind == PATTERN_TRACE || cfg->kind == PATTERN_YCSB;
}

uint64_t pattern_operations(const pattern_config *cfg)
{
    return cfg->kind == PATTERN_YCSB ? ycsb_gen_operations(cfg) : 0;
}

int pattern_may_read(const pattern_config *cfg, double read_fraction)
{
    if (cfg->kind == PATTERN_TRACE)
        return 1;
    if (cfg->kind == PATTERN_YCSB)
        return ycsb_gen_reads(cfg);
    return read_fraction > 0;
}

int pattern_chooses_reads(const pattern_config *cfg)
{
    return cfg->kind == PATTERN_ENTITIES || cfg->kind == PATTERN_SEQUENCE ||
           cfg->kind == PATTERN_YCSB;
}

int pattern_next(pattern *p, uint64_t *t_us, record *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    switch (p->cfg.kind) {
    case PATTERN_TIMESERIES:
        return p->heap ? series_next_jittered(p, t_us, out) : series_next_on_time(p, t_us, out);
    case PATTERN_ENTITIES:
        return entities_next(p, t_us, out);
    case PATTERN_SEQUENCE:
        return sequence_next(p, t_us, out);
    case PATTERN_TRACE:
        return trace_next(p->trace, t_us, out, err, errcap);
    case PATTERN_YCSB:
        return ycsb_gen_next(p->ycsb, t_us, out, err, errcap);
    }
    assert(!"unknown pattern kind");
    return 0;
}
