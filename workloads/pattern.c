/* pattern.c -- logical records in time order.
 *
 * The time series pattern is a closed form, not a queue: S = metrics*hosts
 * series report once per interval, series i of round k arriving at
 *
 *     t_us = k*interval + floor(i*interval / S)
 *
 * so the S arrivals of a round are spread evenly over [k*interval,
 * (k+1)*interval) and come out in time order simply by walking i = 0..S-1
 * and then moving to the next round. Series i is entity i = metric*hosts +
 * host, so a round lists metric 0's hosts first, then metric 1's, ... The
 * state is three counters: O(1) memory and time per record whatever S is.
 * When S does not divide the interval, several series can share a
 * microsecond; times stay non-decreasing, which is all the engine needs.
 *
 * A pattern carries a kind so that the other patterns of the design
 * (entities, sequence, trace) can join behind the same four functions.
 */
#include "workloads/pattern.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef enum pattern_kind { PATTERN_TIMESERIES } pattern_kind;

struct pattern {
    pattern_kind kind;
    timeseries_config ts;
    uint64_t series;  /* S = metrics * hosts, <= UINT32_MAX */
    uint64_t round;   /* k: rounds completed */
    uint64_t index;   /* i: next series of the current round, < series */
    uint64_t seq;     /* next record.seq */
};

pattern *pattern_timeseries_new(const timeseries_config *cfg)
{
    if (!cfg || cfg->metrics < 1 || cfg->hosts < 1 || cfg->interval_us < 1)
        return NULL;
    uint64_t series = (uint64_t)cfg->metrics * cfg->hosts;
    if (series > UINT32_MAX)
        return NULL;
    pattern *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->kind = PATTERN_TIMESERIES;
    p->ts = *cfg;
    p->series = series;
    return p;
}

void pattern_free(pattern *p)
{
    free(p);
}

double pattern_rate_per_s(const pattern *p)
{
    assert(p->kind == PATTERN_TIMESERIES);
    return (double)p->series * 1e6 / (double)p->ts.interval_us;
}

/* floor(i * interval / S) without overflowing 64 bits: i < S <= 2^32 - 1,
 * so i * (interval % S) < 2^64. */
static uint64_t timeseries_offset_us(const pattern *p, uint64_t i)
{
    uint64_t iv = p->ts.interval_us, s = p->series;
    return i * (iv / s) + i * (iv % s) / s;
}

static int timeseries_next(pattern *p, uint64_t *t_us, record *out)
{
    uint64_t i = p->index;
    assert(i < p->series);
    *t_us = p->round * p->ts.interval_us + timeseries_offset_us(p, i);
    out->ts_ms = p->ts.start_ms + *t_us / 1000;
    out->seq = p->seq++;
    out->entity = (uint32_t)i;
    out->metric = (uint32_t)(i / p->ts.hosts);
    out->host = (uint32_t)(i % p->ts.hosts);
    if (++p->index == p->series) {
        p->index = 0;
        p->round++;
    }
    return 1;
}

int pattern_next(pattern *p, uint64_t *t_us, record *out)
{
    switch (p->kind) {
    case PATTERN_TIMESERIES:
        return timeseries_next(p, t_us, out);
    }
    assert(!"unknown pattern kind");
    return 0;
}

/* Names are zero-padded to a minimum width (3 digits for metrics, 4 for
 * hosts) and grow beyond it, so distinct ids always give distinct names. */
int pattern_metric_name(uint32_t metric, char *out, unsigned cap)
{
    return snprintf(out, cap, "metric.%03" PRIu32, metric);
}

int pattern_host_name(uint32_t host, char *out, unsigned cap)
{
    return snprintf(out, cap, "host%04" PRIu32, host);
}
