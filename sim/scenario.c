/* scenario.c -- the default scenario, the settings table, scenario files.
 *
 * The default is sized for a classroom: 8 servers, 1,000 series writing
 * once a second for 30 simulated minutes, and regions that split at 4 MiB
 * (HBase's default hbase.hregion.max.filesize is 10 GiB; shrinking it is
 * what lets a run of a second show the splits and balancer moves a real
 * table shows over days). The balancer period is HBase's default,
 * hbase.balancer.period = 300000 ms.
 *
 * Settings live in one table: section, key, type, range and where the value
 * goes in the struct. Files and options both set values through it, so a
 * new setting is one table row, and error messages are uniform.
 *
 * Files are INI, read with inih through a line reader of our own so that
 * every message can name FILE:LINE. Sections: top level (name, seed),
 * [cluster], [workload], and one [scheme NAME] per scheme with key = EXPR.
 */
#include "sim/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "core/presplit.h"
#include "sim/units.h"
#include "workloads/keyscheme.h"

#define MIB (1024ull * 1024ull)
#define SECOND_US 1000000ull
#define MINUTE_US (60ull * SECOND_US)

void scenario_defaults(scenario *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->name = "default";
    sc->seed = 42;
    sc->servers = 8;
    /* HBase's ratio of max file size to flush size, 10 GiB : 128 MiB, shrunk
     * so that a region splits at 4 MiB; HBase 2's default policy is
     * stepping, but the constant one keeps the teaching runs simple. */
    sc->split_policy = SPLIT_CONSTANT;
    sc->region_max_bytes = 4 * MIB;
    sc->split_jitter = SPLIT_DEFAULT_JITTER;
    sc->size_scale = 2560; /* 10 GiB / 2560 = 4 MiB */
    sc->split_limit = 1000; /* hbase.regionserver.regionSplitLimit's default */
    sc->balancer = BALANCER_SIMPLE;
    sc->slop = 0.2; /* hbase.regions.slop (BaseLoadBalancer) */
    sc->balancer_period_us = 5 * MINUTE_US;
    sc->presplit = PRESPLIT_BUCKETS;
    sc->presplit_regions = 8;
    /* Service times: a small write costs ~50 us of a region server's
     * handler time, i.e. ~20,000 writes/s per server, the order YCSB runs
     * on HBase report per region server; a region transition (split or
     * move) takes about a second. All settable: docs/scenarios.md. */
    sc->rpc_us = 50;
    sc->row_us = 2;
    sc->kib_us = 10;
    sc->split_pause_us = SECOND_US;
    sc->move_pause_us = SECOND_US;
    phase *w = &sc->workload;
    w->name = "workload";
    w->pattern.kind = PATTERN_TIMESERIES;
    w->pattern.metrics = 50;
    w->pattern.hosts = 20;
    w->pattern.tags = 1;
    w->pattern.interval_us = SECOND_US;
    w->pattern.rate_per_s = 1000;
    w->pattern.arrivals = ARRIVALS_FIXED;
    /* YCSB CoreWorkload's defaults: recordcount 1000... is too small to
     * split; 100,000 records, zipfian requests. */
    w->pattern.distribution = DIST_ZIPFIAN;
    w->pattern.records = 100000;
    w->pattern.naming = NAMING_USER;
    w->duration_us = 30 * MINUTE_US;
    for (int k = 0; k < QUERY_KINDS; k++) /* unused until set: see scenario_read_weights */
        w->reads.weight[k] = 0;
    w->reads.range_us = 10 * MINUTE_US;
    w->reads.latest_rows = 10;
    w->reads.window_us = MINUTE_US;
    w->reads.metric_us = 60 * MINUTE_US; /* a dashboard's usual span */
    /* OpenTSDB's cell: family "t", a 2-byte qualifier, an 8-byte value. */
    sc->family_bytes = 1;
    sc->qualifier_bytes = 2;
    sc->value_bytes = 8;
    sc->window_us = MINUTE_US;
    sc->key_buckets = 20;
    sc->start_ms = 1704067200000ull; /* 2024-01-01T00:00:00Z */
    for (size_t i = 0; i < keyscheme_preset_count(); i++)
        scenario_add_scheme(sc, NULL, keyscheme_preset_name(i));
}

void scenario_release(scenario *sc)
{
    for (size_t i = 0; i < sc->nowned; i++)
        free(sc->owned[i]);
    free(sc->owned);
    sc->owned = NULL;
    sc->nowned = sc->owned_cap = 0;
}

/* A copy of s that sc owns, or NULL when out of memory. */
static const char *scenario_own(scenario *sc, const char *s)
{
    if (sc->nowned == sc->owned_cap) {
        size_t cap = sc->owned_cap ? 2 * sc->owned_cap : 16;
        char **o = realloc(sc->owned, cap * sizeof *o);
        if (!o)
            return NULL;
        sc->owned = o;
        sc->owned_cap = cap;
    }
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) {
        memcpy(p, s, n);
        sc->owned[sc->nowned++] = p;
    }
    return p;
}

/* A copy of s with its control bytes as \xNN (sc owns it), or s itself
 * when it has none; NULL when out of memory. Names shown in reports and on
 * the terminal never carry a control byte. */
static const char *scenario_own_printable(scenario *sc, const char *s)
{
    size_t len = strlen(s), shown = 0;
    for (size_t i = 0; i < len; i++)
        shown += (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? 4 : 1;
    if (shown == len)
        return s;
    char *buf = malloc(shown + 1);
    if (!buf)
        return NULL;
    units_escape(s, shown, buf, shown + 1);
    const char *own = scenario_own(sc, buf);
    free(buf);
    return own;
}

int scenario_add_scheme(scenario *sc, const char *label, const char *text)
{
    if (sc->nschemes == SCENARIO_MAX_SCHEMES)
        return -1;
    if (!label) {
        /* an expression whose literal holds raw control bytes: reports
         * name it with them escaped */
        const char *shown = scenario_own_printable(sc, text);
        if (!shown)
            return -1;
        label = shown != text ? shown : NULL;
    }
    sc->schemes[sc->nschemes].label = label;
    sc->schemes[sc->nschemes].text = text;
    sc->nschemes++;
    return 0;
}

void scenario_read_weights(const phase *ph, uint32_t weight[QUERY_KINDS])
{
    if (ph->reads.weights_given) {
        memcpy(weight, ph->reads.weight, QUERY_KINDS * sizeof *weight);
        return;
    }
    for (int k = 0; k < QUERY_KINDS; k++)
        weight[k] = 0;
    if (ph->pattern.kind == PATTERN_TIMESERIES) {
        weight[QUERY_METRIC] = 8;
        weight[QUERY_RANGE] = 1;
        weight[QUERY_LATEST] = 1;
    } else {
        weight[QUERY_GET] = weight[QUERY_RANGE] = weight[QUERY_LATEST] = 1;
        weight[QUERY_WINDOW] = 1;
    }
}

size_t scenario_phase_count(const scenario *sc)
{
    return sc->nphases ? sc->nphases : 1;
}

const phase *scenario_phase(const scenario *sc, size_t i)
{
    return sc->nphases ? &sc->phases[i] : &sc->workload;
}

/* ---- the settings table ---- */

typedef enum setting_kind {
    SET_COUNT, SET_SIZE, SET_DURATION, SET_RATE, SET_FRACTION, SET_CHOICE, SET_NAME, SET_PATH,
    SET_DISTRIBUTION, /* a YCSB distribution: workloads/dist.h names them */
    SET_KEYS,         /* split keys in shell form, separated by commas or spaces */
} setting_kind;

typedef struct choice {
    const char *name;
    uint32_t value;
} choice;

typedef enum setting_target { IN_SCENARIO, IN_PHASE } setting_target;

typedef struct setting {
    const char *section;     /* "" = top level */
    const char *key;
    setting_kind kind;
    uint64_t lo, hi;         /* accepted range (counts, sizes, durations) */
    setting_target target;   /* where offset points: scenario or phase */
    size_t offset, width;    /* where the value goes: 4 or 8 bytes */
    const choice *choices;   /* SET_CHOICE: ends with a NULL name */
    const char *arg;         /* what the option takes, for --help: N, SIZE, D, ... */
    const char *help;        /* one sentence for --help */
} setting;

static const choice balancer_choices[] = {
    { "none", BALANCER_NONE }, { "simple", BALANCER_SIMPLE },
    { "stochastic", BALANCER_STOCHASTIC }, { "region-count", BALANCER_SIMPLE }, { NULL, 0 } };
static const choice presplit_choices[] = {
    { "none", PRESPLIT_NONE }, { "buckets", PRESPLIT_BUCKETS }, { "hex", PRESPLIT_BY_HEX },
    { "decimal", PRESPLIT_BY_DECIMAL }, { "uniform", PRESPLIT_BY_UNIFORM },
    { "keys", PRESPLIT_BY_KEYS }, { NULL, 0 } };
static const choice pattern_choices[] = {
    { "timeseries", PATTERN_TIMESERIES }, { "entities", PATTERN_ENTITIES },
    { "sequence", PATTERN_SEQUENCE }, { "trace", PATTERN_TRACE }, { NULL, 0 } };
static const choice arrival_choices[] = {
    { "fixed", ARRIVALS_FIXED }, { "poisson", ARRIVALS_POISSON }, { NULL, 0 } };
static const choice split_choices[] = {
    { "constant", SPLIT_CONSTANT }, { "increasing", SPLIT_INCREASING },
    { "stepping", SPLIT_STEPPING }, { "busy", SPLIT_BUSY }, { "disabled", SPLIT_DISABLED },
    { NULL, 0 } };
static const choice restriction_choices[] = {
    { "none", RESTRICT_NONE }, { "prefix", RESTRICT_KEY_PREFIX },
    { "delimited", RESTRICT_DELIMITED }, { NULL, 0 } };
static const choice service_choices[] = {
    { "fixed", 0 }, { "exponential", 1 }, { NULL, 0 } };
static const choice get_choices[] = {
    { "recent", 0 }, { "any", 1 }, { NULL, 0 } };
static const choice naming_choices[] = {
    { "user", NAMING_USER }, { "domain", NAMING_DOMAIN }, { "id", NAMING_ID }, { NULL, 0 } };
_Static_assert(sizeof(int) == 4, "service is stored as a 4-byte value");
_Static_assert(sizeof(split_kind) == 4 && sizeof(split_restriction_kind) == 4,
               "choices are stored as 4-byte values");
_Static_assert(sizeof(balancer_kind) == 4 && sizeof(presplit_kind) == 4 &&
               sizeof(pattern_kind) == 4 && sizeof(arrival_kind) == 4 &&
               sizeof(dist_kind) == 4 && sizeof(record_naming) == 4,
               "choices are stored as 4-byte values");

/* size_scale divides HBase's 10 GiB region and 128 MiB flush sizes; both
 * must stay at least 1 KiB (region_size's and flush_size's minimum). */
#define SIZE_SCALE_MAX (SPLIT_DEFAULT_FLUSH_BYTES / 1024)
_Static_assert(SPLIT_DEFAULT_FLUSH_BYTES / 1024 <= SPLIT_DEFAULT_MAX_BYTES / 1024,
               "the flush size is the smaller of the two");
#define SC(f) IN_SCENARIO, offsetof(scenario, f), sizeof(((scenario *)0)->f)
#define PH(f) IN_PHASE, offsetof(phase, f), sizeof(((phase *)0)->f)
#define ANY 0, UINT64_MAX
static const setting settings[] = {
    { "", "name", SET_NAME, 0, 0, SC(name), NULL,
      "NAME", "the scenario's name in reports (default: the file's name)" },
    { "", "seed", SET_COUNT, ANY, SC(seed), NULL,
      "N", "seed of every random choice" },
    { "", "max_memory", SET_SIZE, 1ull << 20, 1ull << 50, SC(max_memory), NULL,
      "SIZE", "refuse a run estimated to need more memory (unset: the machine's memory); ulimit -v and -d always apply" },
    { "cluster", "servers", SET_COUNT, 1, 100000, SC(servers), NULL,
      "N", "region servers" },
    { "cluster", "split_policy", SET_CHOICE, 0, 0, SC(split_policy), split_choices,
      "P", "constant, increasing, stepping, busy or disabled (HBase's split policies)" },
    { "cluster", "region_size", SET_SIZE, 1024, 1ull << 50, SC(region_max_bytes), NULL,
      "SIZE", "hbase.hregion.max.filesize: a region splits above it" },
    { "cluster", "flush_size", SET_SIZE, 1024, 1ull << 50, SC(flush_bytes), NULL,
      "SIZE", "hbase.hregion.memstore.flush.size (unset: region size / 80)" },
    /* at most 131072: 128 MiB / 131072 = 1 KiB, the smallest flush size */
    { "cluster", "size_scale", SET_COUNT, 1, SIZE_SCALE_MAX, SC(size_scale), NULL,
      "N", "HBase's 10 GiB region and 128 MiB flush sizes divided by N (sets both)" },
    { "cluster", "split_limit", SET_COUNT, 0, 100000000, SC(split_limit), NULL,
      "N", "hbase.regionserver.regionSplitLimit: a server with this many regions splits no more (0: none)" },
    { "cluster", "split_jitter", SET_FRACTION, 0, 0, SC(split_jitter), NULL,
      "F", "hbase.hregion.max.filesize.jitter" },
    { "cluster", "split_restriction", SET_CHOICE, 0, 0, SC(split_restriction), restriction_choices,
      "R", "none, prefix or delimited (KeyPrefix/DelimitedKeyPrefixRegionSplitRestriction)" },
    { "cluster", "split_prefix_length", SET_COUNT, 1, 32767, SC(split_prefix_length), NULL,
      "N", "prefix restriction: split points keep this many bytes" },
    { "cluster", "split_delimiter", SET_NAME, 0, 0, SC(split_delimiter), NULL,
      "C", "delimited restriction: split points end before this character" },
    { "cluster", "balancer", SET_CHOICE, 0, 0, SC(balancer), balancer_choices,
      "B", "simple (SimpleLoadBalancer), stochastic (StochasticLoadBalancer) or none" },
    { "cluster", "balancer_period", SET_DURATION, 1, UINT64_MAX, SC(balancer_period_us), NULL,
      "D", "hbase.balancer.period: it runs at every multiple inside the run" },
    { "cluster", "slop", SET_FRACTION, 0, 0, SC(slop), NULL,
      "F", "hbase.regions.slop" },
    { "cluster", "presplit", SET_CHOICE, 0, 0, SC(presplit), presplit_choices,
      "P", "buckets (one region per bucket of a bucketed key), hex, decimal, uniform (RegionSplitter, presplit_regions regions), keys or none" },
    { "cluster", "presplit_regions", SET_COUNT, 2, 1000000, SC(presplit_regions), NULL,
      "N", "hex, decimal, uniform: how many regions" },
    { "cluster", "split_keys", SET_KEYS, 0, 0, SC(split_keys), NULL,
      "KEYS", "presplit at these keys (shell form, separated by spaces or commas)" },
    { "cluster", "split_keys_file", SET_PATH, 0, 0, SC(split_keys_file), NULL,
      "FILE", "presplit at the keys in FILE (shell form, one a line)" },
    { "cluster", "rpc_time", SET_DURATION, 0, 3600000000ull, SC(rpc_us), NULL,
      "D", "a server's service time per RPC" },
    { "cluster", "row_time", SET_DURATION, 0, 3600000000ull, SC(row_us), NULL,
      "D", "service time per row read" },
    { "cluster", "kib_time", SET_DURATION, 0, 3600000000ull, SC(kib_us), NULL,
      "D", "service time per KiB written" },
    { "cluster", "service", SET_CHOICE, 0, 0, SC(service_exponential), service_choices,
      "S", "fixed or exponential service times" },
    { "cluster", "split_pause", SET_DURATION, 0, 3600000000ull, SC(split_pause_us), NULL,
      "D", "a split takes its daughters offline this long" },
    { "cluster", "move_pause", SET_DURATION, 0, 3600000000ull, SC(move_pause_us), NULL,
      "D", "a move takes its region offline this long" },
    { "workload", "pattern", SET_CHOICE, 0, 0, PH(pattern.kind), pattern_choices,
      "P", "timeseries, entities, sequence or trace" },
    { "workload", "duration", SET_DURATION, 1, UINT64_MAX, PH(duration_us), NULL,
      "D", "simulated time to run (a trace without one: to its end)" },
    { "workload", "metrics", SET_COUNT, 1, 1000000, PH(pattern.metrics), NULL,
      "N", "timeseries: metrics" },
    { "workload", "hosts", SET_COUNT, 1, 1000000, PH(pattern.hosts), NULL,
      "N", "timeseries: hosts per metric" },
    { "workload", "tags", SET_COUNT, 1, 1000000, PH(pattern.tags), NULL,
      "N", "timeseries: values of an extra tag per host" },
    { "workload", "interval", SET_DURATION, 1, UINT64_MAX, PH(pattern.interval_us), NULL,
      "D", "timeseries: each series writes once per interval" },
    { "workload", "jitter", SET_DURATION, 0, UINT64_MAX, PH(pattern.jitter_us), NULL,
      "D", "timeseries: each point late by up to D" },
    { "workload", "rate", SET_RATE, 0, 0, PH(pattern.rate_per_s), NULL,
      "R", "entities, sequence: operations per s, m or h (e.g. 5000/s)" },
    { "workload", "arrivals", SET_CHOICE, 0, 0, PH(pattern.arrivals), arrival_choices,
      "A", "entities, sequence: fixed or poisson" },
    { "workload", "distribution", SET_DISTRIBUTION, 0, 0, PH(pattern.distribution), NULL,
      "X", "entities: uniform, zipfian, scrambled_zipfian, latest, hotspot, sequential or exponential" },
    { "workload", "records", SET_COUNT, 1, UINT32_MAX, PH(pattern.records), NULL,
      "N", "entities: how many exist at the start" },
    { "workload", "insert_fraction", SET_FRACTION, 0, 0, PH(pattern.insert_fraction), NULL,
      "F", "entities: share of writes that insert new ones" },
    { "workload", "naming", SET_CHOICE, 0, 0, PH(pattern.naming), naming_choices,
      "N", "entities, sequence: names user, domain or id" },
    { "workload", "trace", SET_PATH, 0, 0, PH(pattern.trace_path), NULL,
      "FILE", "replay a trace (time,op,key[,bytes]; docs/workloads.md)" },
    { "workload", "clients", SET_COUNT, 0, 1000000, PH(clients), NULL,
      "C", "closed loop: C clients, each waiting for its reply (0: open loop)" },
    { "workload", "think", SET_DURATION, 0, 3600000000ull, PH(think_us), NULL,
      "D", "closed loop: a client's pause after each reply" },
    { "reads", "read_fraction", SET_FRACTION, 0, 0, PH(reads.fraction), NULL,
      "F", "share of generated operations that are reads" },
    /* one weight per read kind: read_<query_kind_name> */
    { "reads", "read_get", SET_COUNT, 0, 1000000, PH(reads.weight[QUERY_GET]), NULL,
      "W", "weight of get reads (one record's row)" },
    { "reads", "read_range", SET_COUNT, 0, 1000000, PH(reads.weight[QUERY_RANGE]), NULL,
      "W", "weight of range reads (one series' or entity's last range_length)" },
    { "reads", "read_latest", SET_COUNT, 0, 1000000, PH(reads.weight[QUERY_LATEST]), NULL,
      "W", "weight of latest reads (one series' newest latest_rows)" },
    { "reads", "read_window", SET_COUNT, 0, 1000000, PH(reads.weight[QUERY_WINDOW]), NULL,
      "W", "weight of window reads (every series' last window_length)" },
    { "reads", "read_metric", SET_COUNT, 0, 1000000, PH(reads.weight[QUERY_METRIC]), NULL,
      "W", "weight of metric reads (every series of one metric, its last metric_length; "
      "time series only)" },
    { "reads", "get_record", SET_CHOICE, 0, 0, PH(reads.get_any), get_choices,
      "G", "get reads: recent (the entity's newest record) or any" },
    { "reads", "range_length", SET_DURATION, 1, UINT64_MAX, PH(reads.range_us), NULL,
      "D", "range reads: the last D" },
    { "reads", "latest_rows", SET_COUNT, 1, 1000000, PH(reads.latest_rows), NULL,
      "N", "latest reads: the newest N rows" },
    { "reads", "window_length", SET_DURATION, 1, UINT64_MAX, PH(reads.window_us), NULL,
      "D", "window reads: the last D" },
    { "reads", "metric_length", SET_DURATION, 1, UINT64_MAX, PH(reads.metric_us), NULL,
      "D", "metric reads: the last D" },
    { "workload", "window", SET_DURATION, 1, UINT64_MAX, SC(window_us), NULL,
      "D", "report window: a column of the heatmaps" },
    { "workload", "measure_from", SET_DURATION, 0, UINT64_MAX, SC(measure_from_us), NULL,
      "D", "figures count only operations issued from D on (the warm-up is left out)" },
    { "workload", "key_buckets", SET_COUNT, 1, 1000, SC(key_buckets), NULL,
      "N", "rows of the key space heatmap" },
    { "workload", "family_bytes", SET_COUNT, 1, 255, SC(family_bytes), NULL,
      "N", "bytes of the column family name in every cell" },
    { "workload", "qualifier_bytes", SET_COUNT, 0, 65535, SC(qualifier_bytes), NULL,
      "N", "bytes of the qualifier in every cell" },
    { "workload", "value_bytes", SET_COUNT, 0, 1u << 30, SC(value_bytes), NULL,
      "N", "bytes of the value in every cell" },
};
#undef SC
#undef PH
#undef ANY
#define NSETTINGS (sizeof settings / sizeof *settings)

static const setting *setting_find(const char *key)
{
    for (size_t i = 0; i < NSETTINGS; i++)
        if (!strcmp(settings[i].key, key))
            return &settings[i];
    return NULL;
}

static void store_bytes_at(void *base, const setting *s, const void *value)
{
    memcpy((unsigned char *)base + s->offset, value, s->width);
}

static void store_integer(void *base, const setting *s, uint64_t v)
{
    if (s->width == 8) {
        store_bytes_at(base, s, &v);
    } else {
        uint32_t v32 = (uint32_t)v;
        store_bytes_at(base, s, &v32);
    }
}

/* "N/s", "N/m" or "N/h": operations per second. */
static int parse_rate(const char *text, double *out)
{
    static const struct { const char *unit; double per_s; } units[] = {
        { "/s", 1.0 }, { "/m", 1.0 / 60 }, { "/h", 1.0 / 3600 } };
    const char *slash = strchr(text, '/');
    char digits[32];
    uint64_t n;
    if (!slash || (size_t)(slash - text) >= sizeof digits)
        return -1;
    memcpy(digits, text, (size_t)(slash - text));
    digits[slash - text] = '\0';
    if (units_parse_count(digits, &n) < 0 || n == 0 || n > 1000000000)
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (!strcmp(slash, units[i].unit)) {
            *out = (double)n * units[i].per_s;
            return 0;
        }
    }
    return -1;
}

/* A decimal fraction from 0 to 1: "0", "1", "0.05", ".5". */
static int parse_fraction(const char *text, double *out)
{
    size_t n = strspn(text, "0123456789.");
    if (n == 0 || text[n] || strchr(text, '.') != strrchr(text, '.'))
        return -1;
    char *end;
    double v = strtod(text, &end);
    if (*end || !(v >= 0 && v <= 1))
        return -1;
    *out = v;
    return 0;
}

/* How much of a user's value a message shows: enough to recognise it,
 * little enough that the message keeps its reason. */
#define SHOWN 100

static int setting_expected(const setting *s, char *err, size_t cap, const char *text)
{
    char value[SHOWN + 1], lo[32], hi[32];
    units_escape(text, SHOWN, value, sizeof value);
    switch (s->kind) {
    case SET_COUNT:
        snprintf(err, cap, "expected an integer from %llu to %llu, found '%s'",
                 (unsigned long long)s->lo, (unsigned long long)s->hi, value);
        break;
    case SET_SIZE:
        units_format_size(s->lo, lo, sizeof lo);
        units_format_size(s->hi, hi, sizeof hi);
        snprintf(err, cap, "expected a size from %s to %s (units B, KiB, MiB, GiB, TiB), "
                 "found '%s'", lo, hi, value);
        break;
    case SET_DURATION:
        units_format_duration(s->lo, lo, sizeof lo);
        units_format_duration(s->hi, hi, sizeof hi);
        snprintf(err, cap, "expected a duration from %s to %s with a unit (us, ms, s, m, h), "
                 "found '%s'", lo, hi, value);
        break;
    case SET_RATE:
        snprintf(err, cap, "expected a rate such as 5000/s (1 to 1000000000 per s, m "
                 "or h), found '%s'", value);
        break;
    case SET_FRACTION:
        snprintf(err, cap, "expected a fraction from 0 to 1 such as 0.05, found '%s'", value);
        break;
    case SET_CHOICE: {
        char list[160] = "";
        for (const choice *c = s->choices; c->name; c++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     c == s->choices ? "" : c[1].name ? ", " : " or ", c->name);
        snprintf(err, cap, "expected %s, found '%s'", list, value);
        break;
    }
    case SET_DISTRIBUTION: {
        char list[160] = "";
        for (int k = 0; k <= DIST_EXPONENTIAL; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     k == 0 ? "" : k < DIST_EXPONENTIAL ? ", " : " or ",
                     dist_kind_name((dist_kind)k));
        snprintf(err, cap, "expected %s, found '%s'", list, value);
        break;
    }
    case SET_NAME:
    case SET_PATH:
        snprintf(err, cap, "expected a %s, found '%s'",
                 s->kind == SET_NAME ? "name" : "file name", value);
        break;
    case SET_KEYS:
        snprintf(err, cap, "expected a comma-separated list of keys in shell form "
                 "(a,b,c), found '%s'", value);
        break;
    }
    return -1;
}

/* Whether s is one of the read_<kind> weights (a phase's reads.weight). */
static int is_read_weight(const setting *s)
{
    return s->target == IN_PHASE && s->offset >= offsetof(phase, reads.weight) &&
           s->offset < offsetof(phase, reads.weight) + sizeof(((phase *)0)->reads.weight);
}

/* Parses value for s and stores it into base (a scenario or a phase). */
static int setting_apply(scenario *sc, void *base, const setting *s, const char *value,
                         char *err, size_t errcap)
{
    uint64_t v;
    double d;
    switch (s->kind) {
    case SET_NAME:
    case SET_PATH:
    case SET_KEYS: {
        const char *copy = value[0] ? scenario_own(sc, value) : NULL;
        if (!copy)
            return setting_expected(s, err, errcap, value);
        store_bytes_at(base, s, &copy);
        if (s->target == IN_PHASE) /* trace = FILE means: replay that trace */
            ((phase *)base)->pattern.kind = PATTERN_TRACE;
        else if (s->kind != SET_NAME) /* split_keys(_file) means: pre-split there */
            ((scenario *)base)->presplit = PRESPLIT_BY_KEYS;
        return 0;
    }
    case SET_CHOICE:
        for (const choice *c = s->choices; c->name; c++) {
            if (!strcmp(value, c->name)) {
                store_integer(base, s, c->value);
                return 0;
            }
        }
        return setting_expected(s, err, errcap, value);
    case SET_DISTRIBUTION: {
        dist_kind k;
        if (dist_kind_parse(value, &k) < 0)
            return setting_expected(s, err, errcap, value);
        store_integer(base, s, (uint64_t)k);
        return 0;
    }
    case SET_RATE:
    case SET_FRACTION:
        if ((s->kind == SET_RATE ? parse_rate(value, &d) : parse_fraction(value, &d)) < 0)
            return setting_expected(s, err, errcap, value);
        store_bytes_at(base, s, &d);
        return 0;
    case SET_COUNT:
    case SET_SIZE:
    case SET_DURATION: {
        int rc = s->kind == SET_COUNT ? units_parse_count(value, &v)
                 : s->kind == SET_SIZE ? units_parse_size(value, &v)
                                       : units_parse_duration(value, &v);
        if (rc < 0 || v < s->lo || v > s->hi)
            return setting_expected(s, err, errcap, value);
        store_integer(base, s, v);
        if (s->offset == offsetof(phase, duration_us) && s->target == IN_PHASE)
            ((phase *)base)->duration_given = 1;
        if (is_read_weight(s))
            ((phase *)base)->reads.weights_given = 1; /* the mix is the user's now */
        return 0;
    }
    }
    return -1;
}

static int unknown_key(const char *section, const char *key, char *err, size_t errcap)
{
    char list[512] = "", shown[65];
    for (size_t i = 0; i < NSETTINGS; i++)
        if (!section || !strcmp(section, settings[i].section))
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     list[0] ? ", " : "", settings[i].key);
    snprintf(err, errcap, "unknown key '%s'; expected one of: %s",
             units_escape(key, 64, shown, sizeof shown), list);
    return -2;
}

int scenario_set(scenario *sc, const char *section, const char *key, const char *value,
                 char *err, size_t errcap)
{
    const setting *s = setting_find(key);
    if (!s || (section && strcmp(section, s->section) != 0))
        return unknown_key(section, key, err, errcap);
    if (s->target == IN_SCENARIO) {
        int rc = setting_apply(sc, sc, s, value, err, errcap);
        if (rc == 0 && (s->offset == offsetof(scenario, split_keys) ||
                        s->offset == offsetof(scenario, split_keys_file))) {
            /* A list and a file from the same source are refused at
             * validation; an option's replaces the file's other one. */
            int list = s->offset == offsetof(scenario, split_keys);
            unsigned char from = section ? 1 : 2;
            unsigned char *other_from = list ? &sc->split_keys_file_from : &sc->split_keys_from;
            const char **other = list ? &sc->split_keys_file : &sc->split_keys;
            if (from == 2 && *other_from == 1) {
                *other = NULL;
                *other_from = 0;
            }
            *(list ? &sc->split_keys_from : &sc->split_keys_file_from) = from;
        }
        if (rc == 0 && !strcmp(key, "size_scale")) {
            /* HBase's hbase.hregion.max.filesize and memstore flush size,
             * shrunk together so that their ratio, and so the policies'
             * behaviour, stays HBase's. */
            sc->region_max_bytes = SPLIT_DEFAULT_MAX_BYTES / sc->size_scale;
            sc->flush_bytes = SPLIT_DEFAULT_FLUSH_BYTES / sc->size_scale;
            if (sc->region_max_bytes < 1024 || sc->flush_bytes < 1024)
                return setting_expected(s, err, errcap, value);
        }
        return rc;
    }
    if (setting_apply(sc, &sc->workload, s, value, err, errcap) < 0)
        return -1;
    for (size_t i = 0; !section && i < sc->nphases; i++)
        setting_apply(sc, &sc->phases[i], s, value, err, errcap); /* same value: cannot fail */
    return 0;
}

size_t scenario_setting_count(void)
{
    return NSETTINGS;
}

setting_doc scenario_setting_doc(size_t i)
{
    const setting *s = &settings[i];
    return (setting_doc){ s->section, s->key, s->arg, s->help, s->target == IN_PHASE };
}

/* The `width`-byte integer at base + offset. */
static uint64_t load_integer(const void *base, const setting *s)
{
    const unsigned char *p = (const unsigned char *)base + s->offset;
    if (s->width == 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* A rate as the user can write it back: per second, minute or hour, the
 * first whose integer count parses (parse_rate) to exactly this double
 * ("5000/m", not "83.3333/s"). */
static void format_rate(double per_s, char *out, size_t cap)
{
    static const struct { const char *unit; double per_unit; } units[] = {
        { "/s", 1.0 }, { "/m", 60.0 }, { "/h", 3600.0 } };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        double n = round(per_s * units[i].per_unit);
        char text[48];
        double back;
        if (!(n >= 1 && n <= 1e9))
            continue;
        snprintf(text, sizeof text, "%.0f%s", n, units[i].unit);
        if (parse_rate(text, &back) == 0 && back == per_s) {
            snprintf(out, cap, "%s", text);
            return;
        }
    }
    snprintf(out, cap, "%.17g/s", per_s); /* not reached for a parsed rate */
}

/* A fraction as the user can write it back: the fewest decimals that parse
 * (parse_fraction, which takes no exponent) to exactly this double. */
static void format_fraction(double v, char *out, size_t cap)
{
    char text[512];
    for (int decimals = 0; decimals < 400; decimals++) {
        double back;
        snprintf(text, sizeof text, "%.*f", decimals, v);
        if (parse_fraction(text, &back) == 0 && back == v)
            break;
    }
    snprintf(out, cap, "%s", text);
}

int scenario_format_value(const scenario *sc, const char *key, char *out, size_t cap)
{
    const setting *s = setting_find(key);
    if (!s)
        return -1;
    const void *base = s->target == IN_PHASE ? (const void *)&sc->workload : (const void *)sc;
    const unsigned char *p = (const unsigned char *)base + s->offset;
    double d;
    const char *str;
    uint64_t v = 0;
    if (is_read_weight(s) && !sc->workload.reads.weights_given) { /* unset: the pattern's mix */
        snprintf(out, cap, "%s", "");
        return 0;
    }
    if (s->kind == SET_COUNT || s->kind == SET_SIZE || s->kind == SET_DURATION) {
        v = load_integer(base, s);
        if (v < s->lo || v > s->hi) { /* not a value it takes: unset (e.g. flush_size 0) */
            snprintf(out, cap, "%s", "");
            return 0;
        }
    }
    switch (s->kind) {
    case SET_COUNT:
        snprintf(out, cap, "%llu", (unsigned long long)load_integer(base, s));
        break;
    case SET_SIZE:
        units_format_size(load_integer(base, s), out, cap);
        break;
    case SET_DURATION:
        units_format_duration(load_integer(base, s), out, cap);
        break;
    case SET_RATE:
        memcpy(&d, p, sizeof d);
        format_rate(d, out, cap);
        break;
    case SET_FRACTION:
        memcpy(&d, p, sizeof d);
        format_fraction(d, out, cap);
        break;
    case SET_CHOICE:
    case SET_DISTRIBUTION:
        snprintf(out, cap, "%s", scenario_choice_name(key, (uint32_t)load_integer(base, s)));
        break;
    case SET_NAME:
    case SET_PATH:
    case SET_KEYS:
        memcpy(&str, p, sizeof str);
        snprintf(out, cap, "%s", str ? str : "");
        break;
    }
    return 0;
}

const char *scenario_choice_name(const char *key, uint32_t value)
{
    const setting *s = setting_find(key);
    if (s && s->kind == SET_DISTRIBUTION)
        return dist_kind_name((dist_kind)value);
    for (const choice *c = s && s->kind == SET_CHOICE ? s->choices : NULL; c && c->name; c++)
        if (c->value == value)
            return c->name; /* the first name: aliases come after it */
    return "?";
}

/* ---- scenario files ---- */

/* A file is read by inih (ini_parse_stream) through file_read_line, which
 * hands it one line at a time after the checks inih does not make, so
 * that every mistake is reported at its own line and reading stops at the
 * first one:
 *  - a NUL byte, a line longer than inih's buffer holds, a read error
 *    (a directory is refused before reading), more than
 *    SCENARIO_MAX_LINES lines (a stream that never ends);
 *  - a section header without its ']', or with text after it; a section
 *    name with a control byte, an unknown section, a 65th [scheme NAME];
 *  - a line that is neither a comment, a header nor `key = value`;
 *  - an indented line after a `key = value`: inih (built with
 *    INI_ALLOW_MULTILINE, as Debian's libinih is) would take it as the
 *    continuation of that value and hand the key over again, silently
 *    replacing its value.
 * The reader also keeps the section name itself: inih cuts section names
 * to 49 characters, which would merge two long phase or scheme names. */

typedef struct scheme_section {
    const char *name;         /* owned by the scenario */
    int line;
    int has_key;
} scheme_section;

typedef struct file_reader {
    FILE *f;
    const char *path;
    char shown_path[161];     /* path as messages show it: escaped, cut */
    scenario *sc;
    int line;                 /* line the reader handed out last */
    int failed;
    char *err;
    size_t errcap;
    int file_has_schemes;     /* the first scheme section replaces the defaults */
    scheme_section sections[SCENARIO_MAX_SCHEMES];
    size_t nsections;
    char section[256];        /* the current section's name, as its header gives it */
    char prev_key[256];       /* the key of the last `key = value` in this section ... */
    int prev_key_line;        /* ... and its line: an indented line would continue it */
    /* [phase NAME] settings, replayed over the final [workload] at the end */
    struct phase_setting {
        size_t phase;
        const setting *s;
        const char *value;
    } *phase_settings;
    size_t nphase_settings, phase_settings_cap;
} file_reader;

#define FILE_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Records "FILE:LINE: what" unless an error is recorded already; returns
 * 0 (inih's "stop" for a handler). */
static int file_fail(file_reader *fr, int line, const char *fmt, ...) FILE_PRINTF(3, 4);
static int file_fail(file_reader *fr, int line, const char *fmt, ...)
{
    if (!fr->failed) {
        int n = snprintf(fr->err, fr->errcap, "%s:%d: ", fr->shown_path, line);
        if (n >= 0 && (size_t)n < fr->errcap) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(fr->err + n, fr->errcap - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    fr->failed = 1;
    return 0;
}

/* The first control byte (below 0x20, or 0x7f) of s[0..len), or NULL. */
static const char *find_control(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return s + i;
    return NULL;
}

/* inih's ini_find_chars_or_comment: the first of chars, or the ';' of an
 * inline comment (one after whitespace), or the end of s. */
static const char *ini_find(const char *s, const char *chars)
{
    int was_space = 0;
    while (*s && !strchr(chars, *s) && !(was_space && *s == ';')) {
        was_space = isspace((unsigned char)*s);
        s++;
    }
    return s;
}

static scheme_section *file_scheme_section(file_reader *fr, const char *name);
static cluster_event *file_event(file_reader *fr, const char *name);
static phase *file_phase(file_reader *fr, const char *name, size_t *index);

/* A "[section]" line (trimmed, starting with '['). Returns 0, or -1 when it
 * failed. */
static int file_header(file_reader *fr, const char *start)
{
    char shown[SHOWN + 1];
    const char *end = ini_find(start + 1, "]");
    if (*end != ']')
        return file_fail(fr, fr->line, "expected ']' to end the section header, found '%s'",
                         units_escape(start, SHOWN, shown, sizeof shown)) - 1;
    const char *rest = end + 1;
    while (isspace((unsigned char)*rest))
        rest++;
    if (*rest && *rest != ';')
        return file_fail(fr, fr->line, "unexpected '%s' after the section header: expected "
                         "the end of the line or a ; comment",
                         units_escape(rest, SHOWN, shown, sizeof shown)) - 1;
    size_t len = (size_t)(end - start - 1);
    const char *bad = find_control(start + 1, len);
    if (bad)
        return file_fail(fr, fr->line, "control byte \\x%02X in a section name: expected "
                         "printable characters", (unsigned char)*bad) - 1;
    snprintf(fr->section, sizeof fr->section, "%.*s", (int)len, start + 1);
    fr->prev_key[0] = '\0'; /* a header ends inih's continuation */
    const char *s = fr->section;
    size_t index;
    if (!strncmp(s, "scheme ", 7) && s[7]) {
        if (fr->nsections == SCENARIO_MAX_SCHEMES)
            return file_fail(fr, fr->line, "too many schemes: at most %d [scheme NAME] "
                             "sections", SCENARIO_MAX_SCHEMES) - 1;
        if (!file_scheme_section(fr, s + 7))
            return file_fail(fr, fr->line, "out of memory") - 1;
    } else if (!strncmp(s, "phase ", 6) && s[6]) {
        if (!file_phase(fr, s + 6, &index))
            return file_fail(fr, fr->line, "too many phases (at most %d)",
                             SCENARIO_MAX_PHASES) - 1;
    } else if (!strncmp(s, "event ", 6) && s[6]) {
        if (!file_event(fr, s + 6))
            return file_fail(fr, fr->line, "too many events (at most %d)",
                             SCENARIO_MAX_EVENTS) - 1;
    } else if (strcmp(s, "") && strcmp(s, "cluster") && strcmp(s, "workload") &&
               strcmp(s, "reads")) {
        return file_fail(fr, fr->line, "unknown section [%s]; expected [cluster], [workload], "
                         "[reads], [phase NAME], [event NAME] or [scheme NAME]",
                         units_escape(s, 64, shown, sizeof shown)) - 1;
    }
    return 0;
}

/* Checks one line (without its line end) before inih sees it. */
static void file_check_line(file_reader *fr, const char *line)
{
    const char *start = line;
    while (isspace((unsigned char)*start))
        start++;
    if (!*start || *start == ';' || *start == '#')
        return; /* blank, or a comment */
    if (fr->prev_key[0] && start > line) {
        file_fail(fr, fr->line, "indented line: in INI an indented line continues the value "
                  "of the key above ('%s', line %d), which scenario files do not support; "
                  "remove the indentation (or start the line with ; to make it a comment)",
                  fr->prev_key, fr->prev_key_line);
        return;
    }
    if (*start == '[') {
        file_header(fr, start);
        return;
    }
    const char *end = ini_find(start, "=:");
    if (*end != '=' && *end != ':') {
        char shown[SHOWN + 1];
        file_fail(fr, fr->line, "expected '[section]' or 'key = value', found '%s'",
                  units_escape(start, SHOWN, shown, sizeof shown));
        return;
    }
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    char key[256];
    snprintf(key, sizeof key, "%.*s", (int)(end - start), start);
    units_escape(key, 64, fr->prev_key, sizeof fr->prev_key); /* as messages show it */
    /* an empty key ("= value") leaves prev_key empty: inih continues no value */
    fr->prev_key_line = fr->line;
}

/* inih's line source (an fgets for size bytes): the next line, with "\n"
 * as its end whatever the file had ("\r\n", or none on the last line),
 * once file_check_line has passed it; NULL at the end or after an error,
 * which stops inih. */
static char *file_read_line(char *buf, int size, void *stream)
{
    file_reader *fr = stream;
    if (fr->failed || size < 3)
        return NULL;
    size_t max = (size_t)size - 2; /* the characters a line may have: room for "\n" and NUL */
    if (fr->line >= SCENARIO_MAX_LINES) {
        int c = getc(fr->f);
        if (c == EOF && !ferror(fr->f))
            return NULL;
        file_fail(fr, fr->line + 1, "more than %d lines: a scenario file has a few hundred "
                  "(is this the right file?)", SCENARIO_MAX_LINES);
        return NULL;
    }
    size_t n = 0;
    int c;
    while ((c = getc(fr->f)) != EOF && c != '\n') {
        if (c == '\0') {
            file_fail(fr, fr->line + 1, "NUL byte at column %zu: expected text (is this a "
                      "scenario file?)", n + 1);
            return NULL;
        }
        if (n == max + 1) { /* max characters and a '\r' before the "\n" would fit */
            file_fail(fr, fr->line + 1, "line too long: expected at most %zu characters", max);
            return NULL;
        }
        buf[n++] = (char)c;
    }
    if (c == EOF && ferror(fr->f)) {
        file_fail(fr, fr->line + 1, "read error: %s", strerror(errno));
        return NULL;
    }
    if (c == EOF && n == 0)
        return NULL;
    fr->line++;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    if (n > max) {
        file_fail(fr, fr->line, "line too long: expected at most %zu characters", max);
        return NULL;
    }
    buf[n] = '\0';
    /* A UTF-8 byte order mark: skipped, as inih would. */
    if (fr->line == 1 && n >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
        memmove(buf, buf + 3, n - 2);
        n -= 3;
    }
    file_check_line(fr, buf);
    if (fr->failed)
        return NULL;
    buf[n] = '\n';
    buf[n + 1] = '\0';
    return buf;
}

/* Notes a [scheme NAME] header, so that a scheme section with no key can be
 * reported too. NULL when out of memory. */
static scheme_section *file_scheme_section(file_reader *fr, const char *name)
{
    const char *own = scenario_own(fr->sc, name);
    if (!own)
        return NULL;
    scheme_section *ss = &fr->sections[fr->nsections++];
    ss->name = own;
    ss->line = fr->line;
    ss->has_key = 0;
    return ss;
}

static int file_scheme_entry(file_reader *fr, const char *name, const char *key,
                             const char *value)
{
    char shown[65];
    if (strcmp(key, "key") != 0)
        return file_fail(fr, fr->line, "unknown key '%s' in [scheme %s]; expected "
                         "key = EXPRESSION", units_escape(key, 64, shown, sizeof shown), name);
    scheme_section *ss = &fr->sections[fr->nsections - 1]; /* the header came first */
    if (ss->has_key)
        return file_fail(fr, fr->line, "[scheme %s] has a second 'key'", name);
    if (!fr->file_has_schemes)
        fr->sc->nschemes = 0;
    fr->file_has_schemes = 1;
    const char *text = scenario_own(fr->sc, value);
    if (!text || scenario_add_scheme(fr->sc, ss->name, text) < 0)
        return file_fail(fr, fr->line, "out of memory");
    ss->has_key = 1;
    return 1;
}

/* The phase called name, created (as a copy of [workload]) on first use;
 * NULL when there are SCENARIO_MAX_PHASES already (or out of memory). */
static phase *file_phase(file_reader *fr, const char *name, size_t *index)
{
    scenario *sc = fr->sc;
    for (size_t i = 0; i < sc->nphases; i++) {
        if (!strcmp(sc->phases[i].name, name)) {
            *index = i;
            return &sc->phases[i];
        }
    }
    const char *own = sc->nphases < SCENARIO_MAX_PHASES ? scenario_own(sc, name) : NULL;
    if (!own)
        return NULL;
    *index = sc->nphases;
    phase *ph = &sc->phases[sc->nphases++];
    *ph = sc->workload;
    ph->name = own;
    return ph;
}

static int file_phase_entry(file_reader *fr, const char *name, const char *key,
                            const char *value)
{
    char why[640];
    const setting *s = setting_find(key);
    if (!s || s->target != IN_PHASE) {
        if (s)
            snprintf(why, sizeof why, "'%s' belongs in [%s], not in a phase", key,
                     s->section[0] ? s->section : "the top level");
        else
            unknown_key("workload", key, why, sizeof why);
        char shown[65];
        return file_fail(fr, fr->line, "[phase %s] %s: %s", name,
                         units_escape(key, 64, shown, sizeof shown), why);
    }
    size_t index;
    phase *ph = file_phase(fr, name, &index); /* made by its header */
    const char *own = scenario_own(fr->sc, value);
    if (!ph || !own)
        return file_fail(fr, fr->line, "out of memory");
    if (setting_apply(fr->sc, ph, s, value, why, sizeof why) < 0)
        return file_fail(fr, fr->line, "[phase %s] %s: %s", name, key, why);
    if (fr->nphase_settings == fr->phase_settings_cap) {
        size_t cap = fr->phase_settings_cap ? 2 * fr->phase_settings_cap : 16;
        struct phase_setting *ps = realloc(fr->phase_settings, cap * sizeof *ps);
        if (!ps)
            return file_fail(fr, fr->line, "out of memory");
        fr->phase_settings = ps;
        fr->phase_settings_cap = cap;
    }
    fr->phase_settings[fr->nphase_settings++] = (struct phase_setting){ index, s, own };
    return 1;
}

/* The event called name, created on first use (action add, detection 90 s:
 * HBase's default zookeeper.session.timeout of 90000 ms); NULL when there
 * are SCENARIO_MAX_EVENTS already (or out of memory). */
static cluster_event *file_event(file_reader *fr, const char *name)
{
    scenario *sc = fr->sc;
    for (size_t i = 0; i < sc->nevents; i++)
        if (!strcmp(sc->events[i].name, name))
            return &sc->events[i];
    const char *own = sc->nevents < SCENARIO_MAX_EVENTS ? scenario_own(sc, name) : NULL;
    if (!own)
        return NULL;
    cluster_event *e = &sc->events[sc->nevents++];
    memset(e, 0, sizeof *e);
    e->name = own;
    e->servers = 1;
    e->detection_us = 90 * SECOND_US;
    e->line = e->at_line = fr->line;
    e->at_us = UINT64_MAX; /* required */
    return e;
}

static int file_event_entry(file_reader *fr, const char *name, const char *key,
                            const char *value)
{
    static const choice actions[] = { { "add", EVENT_ADD_SERVERS },
                                      { "decommission", EVENT_DECOMMISSION },
                                      { "fail", EVENT_FAIL }, { NULL, 0 } };
    char shown[SHOWN + 1];
    cluster_event *e = file_event(fr, name); /* made by its header */
    if (!e)
        return file_fail(fr, fr->line, "out of memory");
    uint64_t v;
    int ok = 1;
    if (!strcmp(key, "at")) {
        ok = units_parse_duration(value, &v) == 0;
        e->at_us = v;
        e->at_line = fr->line;
    } else if (!strcmp(key, "detection")) {
        ok = units_parse_duration(value, &v) == 0;
        e->detection_us = v;
    } else if (!strcmp(key, "servers")) {
        ok = units_parse_count(value, &v) == 0 && v >= 1 && v <= SCENARIO_MAX_SERVERS;
        e->servers = (uint32_t)v;
    } else if (!strcmp(key, "server")) {
        ok = units_parse_count(value, &v) == 0 && v < 1000000;
        e->server = (uint32_t)v;
    } else if (!strcmp(key, "action")) {
        ok = 0;
        for (const choice *c = actions; c->name; c++)
            if (!strcmp(value, c->name))
                e->action = (event_action)c->value, ok = 1;
    } else {
        return file_fail(fr, fr->line, "unknown key '%s' in [event %s]; expected at, action, "
                         "servers, server or detection",
                         units_escape(key, 64, shown, sizeof shown), name);
    }
    if (!ok)
        return file_fail(fr, fr->line, "[event %s] %s: expected %s, found '%s'", name, key,
                         !strcmp(key, "action") ? "add, decommission or fail"
                         : !strcmp(key, "servers") ? "a count from 1 to 100000"
                         : !strcmp(key, "server") ? "a server number (rs<N>: N)"
                         : "a duration with a unit (us, ms, s, m, h)",
                         units_escape(value, SHOWN, shown, sizeof shown));
    return 1;
}

/* Events in time order (stable: file order on ties). */
static void file_sort_events(scenario *sc)
{
    for (size_t i = 1; i < sc->nevents; i++) {
        cluster_event e = sc->events[i];
        size_t j = i;
        for (; j > 0 && sc->events[j - 1].at_us > e.at_us; j--)
            sc->events[j] = sc->events[j - 1];
        sc->events[j] = e;
    }
}

/* Each phase is [workload] as the file left it, plus its own settings. */
static void file_resolve_phases(file_reader *fr)
{
    scenario *sc = fr->sc;
    char why[640];
    for (size_t i = 0; i < sc->nphases; i++) {
        const char *name = sc->phases[i].name;
        sc->phases[i] = sc->workload;
        sc->phases[i].name = name;
    }
    for (size_t k = 0; k < fr->nphase_settings; k++) {
        struct phase_setting *ps = &fr->phase_settings[k];
        setting_apply(sc, &sc->phases[ps->phase], ps->s, ps->value, why, sizeof why);
    }
}

/* A trace or split keys file named in a file is found relative to the
 * file, not to the directory the program runs in. Returns value, or the
 * joined path (owned by the scenario), or NULL when out of memory. */
static const char *file_relative_path(const file_reader *fr, const char *key,
                                      const char *value)
{
    const char *slash = strrchr(fr->path, '/');
    if ((strcmp(key, "trace") != 0 && strcmp(key, "split_keys_file") != 0) ||
        value[0] == '/' || !value[0] || !slash)
        return value;
    size_t dir = (size_t)(slash - fr->path), len = strlen(value);
    char *joined = malloc(dir + 1 + len + 1);
    if (!joined)
        return NULL;
    memcpy(joined, fr->path, dir);
    joined[dir] = '/';
    memcpy(joined + dir + 1, value, len + 1);
    const char *own = scenario_own(fr->sc, joined);
    free(joined);
    return own;
}

static int file_entry(void *user, const char *inih_section, const char *key, const char *value)
{
    file_reader *fr = user;
    (void)inih_section; /* cut to 49 characters: the reader keeps the whole name */
    const char *section = fr->section;
    if (fr->failed)
        return 0;
    value = file_relative_path(fr, key, value);
    if (!value)
        return file_fail(fr, fr->line, "out of memory");
    if (!strncmp(section, "scheme ", 7))
        return file_scheme_entry(fr, section + 7, key, value);
    if (!strncmp(section, "phase ", 6))
        return file_phase_entry(fr, section + 6, key, value);
    if (!strncmp(section, "event ", 6))
        return file_event_entry(fr, section + 6, key, value);
    if (!section[0] && !strcmp(key, "name")) {
        const char *bad = find_control(value, strlen(value));
        if (bad)
            return file_fail(fr, fr->line, "name: control byte \\x%02X at character %zu: "
                             "expected printable characters", (unsigned char)*bad,
                             (size_t)(bad - value) + 1);
    }
    char why[640], shown[65];
    /* Not scenario_set: a [workload] key in a file sets the base only. */
    int rc = scenario_set(fr->sc, section, key, value, why, sizeof why);
    if (rc == 0)
        return 1;
    if (rc == -2 && setting_find(key))
        snprintf(why, sizeof why, "'%s' belongs in [%s], not in [%s]", key,
                 setting_find(key)->section, section);
    units_escape(key, 64, shown, sizeof shown);
    if (section[0])
        return file_fail(fr, fr->line, "[%s] %s: %s", section, shown, why);
    return file_fail(fr, fr->line, "%s: %s", shown, why);
}

int scenario_load(scenario *sc, const char *path, char *err, size_t errcap)
{
    file_reader fr;
    memset(&fr, 0, sizeof fr);
    fr.path = path;
    fr.sc = sc;
    fr.err = err;
    fr.errcap = errcap;
    units_escape(path, sizeof fr.shown_path - 1, fr.shown_path, sizeof fr.shown_path);
    fr.f = fopen(path, "r");
    struct stat st;
    if (!fr.f || fstat(fileno(fr.f), &st) < 0) {
        snprintf(err, errcap, "%s: cannot open the scenario file: %s", fr.shown_path,
                 strerror(errno));
        if (fr.f)
            fclose(fr.f);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errcap, "%s: is a directory; expected a scenario file", fr.shown_path);
        fclose(fr.f);
        return -1;
    }
    sc->file = scenario_own(sc, path);
    if (!sc->file) {
        snprintf(err, errcap, "%s: out of memory", fr.shown_path);
        fclose(fr.f);
        return -1;
    }
    const char *name_before = sc->name;
    int line = ini_parse_stream(file_read_line, &fr, file_entry, &fr);
    fclose(fr.f);
    if (line != 0 && !fr.failed) /* not expected: the reader checks lines first */
        file_fail(&fr, line, "expected '[section]' or 'key = value'");
    if (!fr.failed)
        file_resolve_phases(&fr);
    for (size_t i = 0; i < sc->nevents && !fr.failed; i++)
        if (sc->events[i].at_us == UINT64_MAX)
            file_fail(&fr, sc->events[i].line, "[event %s] has no 'at = TIME'",
                      sc->events[i].name);
    file_sort_events(sc);
    free(fr.phase_settings);
    for (size_t i = 0; i < fr.nsections && !fr.failed; i++)
        if (!fr.sections[i].has_key)
            file_fail(&fr, fr.sections[i].line, "[scheme %s] has no 'key = EXPRESSION'",
                      fr.sections[i].name);
    if (fr.failed)
        return -1;
    if (sc->name == name_before) { /* the file did not name itself */
        const char *base = strrchr(path, '/');
        const char *own = scenario_own(sc, base ? base + 1 : path);
        own = own ? scenario_own_printable(sc, own) : NULL;
        sc->name = own ? own : sc->name;
    }
    return 0;
}

/* ---- derived values and checks ---- */

uint64_t scenario_cell_overhead(const scenario *sc)
{
    return 20ull + sc->family_bytes + sc->qualifier_bytes + sc->value_bytes;
}

int scenario_scheme_expr(const scenario *sc, size_t i, char *out, size_t cap)
{
    if (keyscheme_preset_expr(sc->schemes[i].text, sc->servers, out, cap) == 0)
        return 1;
    snprintf(out, cap, "%s", sc->schemes[i].text);
    return 0;
}

const char *scenario_scheme_text(const scenario *sc, size_t i, char *buf, size_t cap,
                                 int *is_preset)
{
    int preset = keyscheme_preset_expr(sc->schemes[i].text, sc->servers, buf, cap) == 0;
    if (is_preset)
        *is_preset = preset;
    return preset ? buf : sc->schemes[i].text;
}

const char *scenario_scheme_label(const scenario *sc, size_t i)
{
    return sc->schemes[i].label ? sc->schemes[i].label : sc->schemes[i].text;
}

static int fail(char *err, size_t cap, const char *what)
{
    snprintf(err, cap, "%s", what);
    return -1;
}

static int phase_problem(const scenario *sc, const phase *ph, char *err, size_t errcap)
{
    char why[160];
    pattern_config c = ph->pattern;
    pattern *p = NULL;
    /* A trace's file is opened by the run, not here; everything else is
     * checked by building the pattern once. */
    if (c.kind == PATTERN_TRACE) {
        if (!c.trace_path) {
            snprintf(err, errcap, "%s: the trace pattern needs a trace file (trace = FILE)", ph->name);
            return -1;
        }
        return 0;
    }
    p = pattern_new(&c, sc->seed, why, sizeof why);
    if (!p) {
        snprintf(err, errcap, "%s: %s", ph->name, why);
        return -1;
    }
    pattern_free(p);
    return 0;
}

/* Servers events add, over the whole run (at most 64 x 100000: no overflow). */
static uint64_t added_servers(const scenario *sc, size_t *nadding)
{
    uint64_t n = 0;
    *nadding = 0;
    for (size_t i = 0; i < sc->nevents; i++) {
        if (sc->events[i].action == EVENT_ADD_SERVERS) {
            n += sc->events[i].servers;
            (*nadding)++;
        }
    }
    return n;
}

uint32_t scenario_max_servers(const scenario *sc)
{
    size_t nadding;
    uint64_t n = sc->servers + added_servers(sc, &nadding);
    return n > SCENARIO_MAX_SERVERS ? SCENARIO_MAX_SERVERS : (uint32_t)n; /* validated */
}

int scenario_split_keys(const scenario *sc, keyref **keys, uint8_t **bytes, size_t *n,
                        char *err, size_t errcap)
{
    *keys = NULL;
    *bytes = NULL;
    *n = 0;
    switch (sc->presplit) {
    case PRESPLIT_NONE:
    case PRESPLIT_BUCKETS:
        return 0;
    case PRESPLIT_BY_HEX:
    case PRESPLIT_BY_DECIMAL:
    case PRESPLIT_BY_UNIFORM: {
        presplit_algorithm a = sc->presplit == PRESPLIT_BY_HEX       ? PRESPLIT_HEX
                               : sc->presplit == PRESPLIT_BY_DECIMAL ? PRESPLIT_DECIMAL
                                                                     : PRESPLIT_UNIFORM;
        if (presplit_keys(a, sc->presplit_regions, keys, bytes) < 0) {
            snprintf(err, errcap, "presplit_regions: %u regions do not fit this split "
                     "algorithm's key space (or out of memory)", sc->presplit_regions);
            return -1;
        }
        *n = sc->presplit_regions - 1;
        return 0;
    }
    case PRESPLIT_BY_KEYS:
        if (sc->split_keys_file && sc->split_keys) {
            snprintf(err, errcap, "split_keys and split_keys_file are both set%s: "
                     "expected one of them, the keys or a file of keys",
                     sc->split_keys_from == 2 && sc->split_keys_file_from == 2
                         ? " (--split-keys and --split-keys-file)"
                         : sc->split_keys_from == 1 && sc->split_keys_file_from == 1
                         ? " in the scenario file" : "");
            return -1;
        }
        if (sc->split_keys_file)
            return presplit_read_file(sc->split_keys_file, keys, bytes, n, err, errcap);
        if (sc->split_keys) {
            char why[512];
            if (presplit_parse_list(sc->split_keys, keys, bytes, n, why, sizeof why) == 0)
                return 0;
            snprintf(err, errcap, "split_keys: %s", why);
            return -1;
        }
        snprintf(err, errcap, "presplit = keys needs split_keys or split_keys_file");
        return -1;
    }
    return 0;
}

/* Reads or makes the split keys once, so that a bad key is reported
 * before anything runs. */
static int scenario_presplit_check(const scenario *sc, char *err, size_t errcap)
{
    keyref *keys;
    uint8_t *bytes;
    size_t n;
    char why[512];
    int rc = scenario_split_keys(sc, &keys, &bytes, &n, why, sizeof why);
    free(keys);
    free(bytes);
    if (rc < 0)
        snprintf(err, errcap, "presplit: %s", why);
    return rc;
}

/* The servers over the whole run, and every event's time against the end
 * of the run when it is known (planned_us; a trace replayed to its end
 * does not know it: an event after its end simply never happens). */
static int events_problem(const scenario *sc, int known, uint64_t planned_us, char *err,
                          size_t errcap)
{
    char where[161];
    units_escape(sc->file ? sc->file : "", 160, where, sizeof where);
    size_t nadding;
    uint64_t added = added_servers(sc, &nadding);
    if (sc->servers + added > SCENARIO_MAX_SERVERS) {
        snprintf(err, errcap, "servers: %u at the start and %llu added by %zu event%s make "
                 "%llu, more than %d, the most a run can have", sc->servers,
                 (unsigned long long)added, nadding, nadding == 1 ? "" : "s",
                 (unsigned long long)(sc->servers + added), SCENARIO_MAX_SERVERS);
        return -1;
    }
    for (size_t i = 0; known && i < sc->nevents; i++) {
        const cluster_event *e = &sc->events[i];
        if (e->at_us < planned_us)
            continue;
        char at[32], end[32];
        units_format_duration(e->at_us, at, sizeof at);
        units_format_duration(planned_us, end, sizeof end);
        snprintf(err, errcap, "%s:%d: [event %s] at = %s is not before the end of the run "
                 "(%s): it would never happen", where, e->at_line, e->name, at, end);
        return -1;
    }
    return 0;
}

/* Operations an open-loop phase issues; 0 when unknown (traces, clients). */
static double phase_operations(const phase *ph)
{
    const pattern_config *c = &ph->pattern;
    double seconds = (double)ph->duration_us / 1e6;
    if (ph->clients)
        return 0; /* closed loop: as many as the servers can serve */
    switch (c->kind) {
    case PATTERN_TIMESERIES:
        return (double)c->metrics * c->hosts * c->tags * (double)ph->duration_us /
               (double)c->interval_us;
    case PATTERN_ENTITIES:
    case PATTERN_SEQUENCE:
        return c->rate_per_s * seconds;
    case PATTERN_TRACE:
        return 0;
    }
    return 0;
}

/* The exact row store keeps every row in memory (about key + 14 bytes a
 * row): a run of more than 2^32 operations would not fit a machine this
 * simulator is meant for, so it is refused before it starts rather than
 * ended by the kernel half way. */
#define MAX_OPERATIONS 4294967296.0

int scenario_validate(const scenario *sc, char *err, size_t errcap)
{
    double operations = 0;
    for (size_t i = 0; i < scenario_phase_count(sc); i++)
        operations += phase_operations(scenario_phase(sc, i));
    if (operations > MAX_OPERATIONS) {
        snprintf(err, errcap, "the workload would issue about %.3g operations, more than "
                 "4294967296 (2^32), beyond what the exact row store keeps in memory: "
                 "shorten the duration or the workload", operations);
        return -1;
    }
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        if (phase_problem(sc, ph, err, errcap) < 0)
            return -1;
        const read_mix *rm = &ph->reads;
        if (rm->fraction > 0 && ph->pattern.kind == PATTERN_TRACE) {
            snprintf(err, errcap, "%s: a trace brings its own reads (get lines); "
                     "read_fraction is for generated workloads", ph->name);
            return -1;
        }
        uint32_t weight[QUERY_KINDS];
        uint64_t weights = 0;
        scenario_read_weights(ph, weight);
        for (int k = 0; k < QUERY_KINDS; k++)
            weights += weight[k];
        if (rm->fraction > 0 && weight[QUERY_METRIC] > 0 &&
            ph->pattern.kind != PATTERN_TIMESERIES) {
            snprintf(err, errcap, "%s: read_metric: metric reads need the timeseries pattern "
                     "(a metric and its series); this phase is %s", ph->name,
                     scenario_choice_name("pattern", ph->pattern.kind));
            return -1;
        }
        if (rm->fraction > 0 && weights == 0) {
            char kinds[160] = "";
            for (int k = 0; k < QUERY_KINDS; k++)
                snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%sread_%s",
                         k ? ", " : "", query_kind_name((query_kind)k));
            snprintf(err, errcap, "%s: read_fraction needs a read kind with a weight (%s)",
                     ph->name, kinds);
            return -1;
        }
        if (ph->clients && ph->pattern.kind == PATTERN_TRACE && !ph->duration_given) {
            snprintf(err, errcap, "%s: closed-loop clients replaying a trace need a duration",
                     ph->name);
            return -1;
        }
        if (ph->duration_us / sc->window_us > 1000000) {
            snprintf(err, errcap, "%s: at most 1,000,000 report windows per phase", ph->name);
            return -1;
        }
    }
    uint64_t planned = 0;
    int known = 1;
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        known &= ph->pattern.kind != PATTERN_TRACE || ph->duration_given;
        planned += ph->duration_us;
    }
    if (known && sc->measure_from_us >= planned) {
        char from[32], len[32];
        units_format_duration(sc->measure_from_us, from, sizeof from);
        units_format_duration(planned, len, sizeof len);
        snprintf(err, errcap, "measure_from: %s is not before the end of the run (%s): "
                 "nothing would be measured", from, len);
        return -1;
    }
    if (events_problem(sc, known, planned, err, errcap) < 0)
        return -1;
    if (scenario_presplit_check(sc, err, errcap) < 0)
        return -1;
    if (sc->split_restriction == RESTRICT_KEY_PREFIX && sc->split_prefix_length == 0)
        return fail(err, errcap, "split_restriction = prefix needs split_prefix_length");
    if (sc->split_restriction == RESTRICT_DELIMITED &&
        (!sc->split_delimiter || strlen(sc->split_delimiter) != 1))
        return fail(err, errcap, "split_restriction = delimited needs a one-character "
                    "split_delimiter");
    if (sc->nschemes == 0)
        return fail(err, errcap, "schemes: expected at least one");
    for (size_t i = 0; i < sc->nschemes; i++) {
        char buf[SCENARIO_PRESET_EXPR], why[512], label[SHOWN + 1], reason[512];
        keyscheme *ks;
        int is_preset;
        const char *expr = scenario_scheme_text(sc, i, buf, sizeof buf, &is_preset);
        if (keyscheme_parse(expr, &ks, why, sizeof why) < 0) {
            units_escape(scenario_scheme_label(sc, i), 60, label, sizeof label);
            units_escape(why, sizeof reason - 1, reason, sizeof reason);
            if (is_preset)
                snprintf(err, errcap, "scheme '%s' (the preset with one bucket per server, "
                         "servers = %u: %s): %s", label, sc->servers, expr, reason);
            else
                snprintf(err, errcap, "scheme '%s': %s", label, reason);
            return -1;
        }
        keyscheme_free(ks);
    }
    return 0;
}
