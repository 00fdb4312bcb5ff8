/* pattern.h -- logical records: what clients write, before any row key.
 *
 * A pattern is a generator of (arrival time, record) pairs in time order.
 * The engine asks for the next arrival, schedules it, and hands the record
 * to the key scheme. A pattern knows nothing of keys, regions or servers.
 *
 * Time series: M metrics x H hosts = M*H series, each reporting one point
 * every interval. The series are staggered evenly over the interval, so
 * arrivals come at a steady rate of M*H / interval; a point's timestamp is
 * the simulated time of its arrival (ms since the Unix epoch, starting at
 * start_ms).
 */
#ifndef REGIONSIM_PATTERN_H
#define REGIONSIM_PATTERN_H

#include <stdint.h>

/* One logical write. */
typedef struct record {
    uint64_t ts_ms;   /* event time, ms since the Unix epoch */
    uint64_t seq;     /* 0, 1, 2, ...: global order of writes */
    uint32_t entity;  /* series id, 0 .. metrics*hosts-1 = metric*hosts+host */
    uint32_t metric;  /* 0 .. metrics-1 */
    uint32_t host;    /* 0 .. hosts-1 */
} record;

typedef struct timeseries_config {
    uint32_t metrics;      /* >= 1 */
    uint32_t hosts;        /* >= 1 */
    uint64_t interval_us;  /* each series reports once per interval, >= 1 */
    uint64_t start_ms;     /* timestamp at simulated time 0 */
} timeseries_config;

typedef struct pattern pattern;

/* A time-series pattern, or NULL if out of memory or cfg is out of range
 * (metrics*hosts must fit in 32 bits). */
pattern *pattern_timeseries_new(const timeseries_config *cfg);

void pattern_free(pattern *p);

/* Arrivals per second of simulated time. */
double pattern_rate_per_s(const pattern *p);

/* The next write: sets *t_us (simulated time, non-decreasing across calls)
 * and *out. Returns 1, or 0 when the pattern is exhausted (never for a
 * time series). */
int pattern_next(pattern *p, uint64_t *t_us, record *out);

/* Names used by text fields: metric "sys.cpu.user"-style "metric.NNN"
 * and host "hostNNNN". Write at most cap bytes (NUL-terminated); return the
 * length (snprintf semantics). */
int pattern_metric_name(uint32_t metric, char *out, unsigned cap);
int pattern_host_name(uint32_t host, char *out, unsigned cap);

#endif
