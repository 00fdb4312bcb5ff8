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
 *   ((metric * hosts) + host) * tags + tag.
 * - timeseries with jitter delays each point by U[0, jitter); points of
 *   neighbouring series and rounds then overtake each other, so the next
 *   point of every series sits in a binary min-heap on (time, series):
 *   O(log S) per record, 24 bytes per series.
 * - entities and sequence arrive at a rate: fixed gaps (the k-th operation
 *   at floor(k * 1e6 / rate)) or Poisson (exponential gaps, from the RNG).
 * - trace delegates to the streaming trace reader, ycsb to
 *   workloads/ycsb_pattern.c.
 */
#include "workloads/pattern.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/rng.h"
#include "workloads/trace.h"
#include "workloads/ycsb_pattern.h"

typedef struct pending_point {
    uint64_t t_us;     /* when the point arrives */
    uint64_t round;    /* which interval it belongs to */
    uint32_t series;
} pending_point;

struct pattern {
    pattern_config cfg;
    rng random;
    /* timeseries */
    uint64_t series;          /* S = metrics * hosts * tags, <= UINT32_MAX */
    uint64_t round, index;    /* closed form: next point is series `index` of `round` */
    pending_point *heap;      /* jitter: the next point of every series */
    /* entities and sequence */
    uint64_t arrivals;        /* operations generated so far */
    double poisson_t_us;      /* Poisson: time of the last arrival */
    uint64_t entities;        /* entities that exist (entities) / next id (sequence) */
    dist *chooser;
    /* trace */
    trace_reader *trace;
    /* ycsb */
    ycsb_gen *ycsb;
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

static int series_next_on_time(pattern *p, uint64_t *t_us, record *out)
{
    uint64_t i = p->index;
    *t_us = p->round * p->cfg.interval_us + series_offset_us(p, i);
    series_record(p, i, out);
    if (++p->index == p->series) {
        p->index = 0;
        p->round++;
    }
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
    uint64_t k = p->arrivals++;
    double gap = 1e6 / p->cfg.rate_per_s;
    if (p->cfg.arrivals == ARRIVALS_FIXED)
        return (uint64_t)((double)k * gap);
    /* Exponential gap with mean `gap`: -ln(1 - U) * gap, U in [0, 1). */
    p->poisson_t_us += -log1p(-rng_double(&p->random)) * gap;
    return (uint64_t)p->poisson_t_us;
}

static int entities_next(pattern *p, uint64_t *t_us, record *out)
{
    *t_us = next_arrival_us(p);
    int insert = p->cfg.insert_fraction > 0 && p->entities < UINT32_MAX &&
                 rng_double(&p->random) < p->cfg.insert_fraction;
    if (insert) {
        out->entity = (uint32_t)p->entities++;
        dist_set_items(p->chooser, p->entities);
    } else {
        out->entity = (uint32_t)dist_next(p->chooser, &p->random);
    }
    out->naming = p->cfg.naming;
    return 1;
}

static int sequence_next(pattern *p, uint64_t *t_us, record *out)
{
    *t_us = next_arrival_us(p);
    out->entity = (uint32_t)p->entities++; /* wraps after 2^32 inserts */
    out->naming = p->cfg.naming;
    return 1;
}

/* ---- the common interface ---- */

static const char *rate_problem(const pattern_config *c)
{
    if (!(c->rate_per_s > 0) || c->rate_per_s > 1e9)
        return "rate: must be more than 0 and at most 1e9/s";
    return NULL;
}

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
        return rate_problem(c);
    case PATTERN_SEQUENCE:
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
    p->random = rng_stream(seed, 0x7061747465726eull /* "pattern" */);
    switch (cfg->kind) {
    case PATTERN_TIMESERIES:
        p->series = (uint64_t)cfg->metrics * cfg->hosts * cfg->tags;
        if (cfg->jitter_us > 0 && series_heap_init(p) < 0)
            return pattern_fail(p, err, errcap, "out of memory");
        break;
    case PATTERN_ENTITIES:
        p->entities = cfg->records;
        p->chooser = dist_new(cfg->distribution, cfg->records);
        if (!p->chooser)
            return pattern_fail(p, err, errcap, "out of memory");
        break;
    case PATTERN_SEQUENCE:
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
    trace_close(p->trace);
    ycsb_gen_free(p->ycsb);
    free(p);
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

int pattern_chooses_reads(const pattern_config *cfg)
{
    return cfg->kind == PATTERN_YCSB;
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
