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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int scenario_add_scheme(scenario *sc, const char *label, const char *text)
{
    if (sc->nschemes == SCENARIO_MAX_SCHEMES)
        return -1;
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

#define SC(f) IN_SCENARIO, offsetof(scenario, f), sizeof(((scenario *)0)->f)
#define PH(f) IN_PHASE, offsetof(phase, f), sizeof(((phase *)0)->f)
#define ANY 0, UINT64_MAX
static const setting settings[] = {
    { "", "name", SET_NAME, 0, 0, SC(name), NULL,
      "NAME", "the scenario's name in reports (default: the file's name)" },
    { "", "seed", SET_COUNT, ANY, SC(seed), NULL,
      "N", "seed of every random choice" },
    { "cluster", "servers", SET_COUNT, 1, 100000, SC(servers), NULL,
      "N", "region servers" },
    { "cluster", "split_policy", SET_CHOICE, 0, 0, SC(split_policy), split_choices,
      "P", "constant, increasing, stepping, busy or disabled (HBase's split policies)" },
    { "cluster", "region_size", SET_SIZE, 1024, 1ull << 50, SC(region_max_bytes), NULL,
      "SIZE", "hbase.hregion.max.filesize: a region splits above it" },
    { "cluster", "flush_size", SET_SIZE, 1024, 1ull << 50, SC(flush_bytes), NULL,
      "SIZE", "hbase.hregion.memstore.flush.size (unset: region size / 80)" },
    { "cluster", "size_scale", SET_COUNT, 1, 1000000, SC(size_scale), NULL,
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
    { "cluster", "split_keys", SET_PATH, 0, 0, SC(split_keys), NULL,
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

static int setting_expected(const setting *s, char *err, size_t cap, const char *value)
{
    switch (s->kind) {
    case SET_COUNT:
        snprintf(err, cap, "expected an integer from %llu to %llu, found '%s'",
                 (unsigned long long)s->lo, (unsigned long long)s->hi, value);
        break;
    case SET_SIZE:
        snprintf(err, cap, "expected a size from 1KiB (units B, KiB, MiB, GiB, TiB), "
                 "found '%s'", value);
        break;
    case SET_DURATION:
        snprintf(err, cap, "expected a %sduration with a unit (us, ms, s, m, h), found '%s'",
                 s->lo ? "positive " : "", value);
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
    case SET_PATH: {
        const char *copy = value[0] ? scenario_own(sc, value) : NULL;
        if (!copy)
            return setting_expected(s, err, errcap, value);
        store_bytes_at(base, s, &copy);
        if (s->target == IN_PHASE) /* trace = FILE means: replay that trace */
            ((phase *)base)->pattern.kind = PATTERN_TRACE;
        else if (s->kind == SET_PATH) /* split_keys(_file) means: pre-split there */
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
    char list[512] = "";
    for (size_t i = 0; i < NSETTINGS; i++)
        if (!section || !strcmp(section, settings[i].section))
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     list[0] ? ", " : "", settings[i].key);
    snprintf(err, errcap, "unknown key '%s'; expected one of: %s", key, list);
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
        snprintf(out, cap, "%.6g/s", d);
        break;
    case SET_FRACTION:
        memcpy(&d, p, sizeof d);
        snprintf(out, cap, "%.6g", d);
        break;
    case SET_CHOICE:
    case SET_DISTRIBUTION:
        snprintf(out, cap, "%s", scenario_choice_name(key, (uint32_t)load_integer(base, s)));
        break;
    case SET_NAME:
    case SET_PATH:
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

typedef struct scheme_section {
    char name[64];
    int line;
    int has_key;
} scheme_section;

typedef struct file_reader {
    FILE *f;
    const char *path;
    scenario *sc;
    int line;                 /* line the reader handed out last */
    int failed;
    char *err;
    size_t errcap;
    int file_has_schemes;     /* the first scheme section replaces the defaults */
    scheme_section sections[SCENARIO_MAX_SCHEMES];
    size_t nsections;
    /* [phase NAME] settings, replayed over the final [workload] at the end */
    struct phase_setting {
        size_t phase;
        const setting *s;
        const char *value;
    } *phase_settings;
    size_t nphase_settings, phase_settings_cap;
} file_reader;

static int file_fail(file_reader *fr, int line, const char *what)
{
    if (!fr->failed)
        snprintf(fr->err, fr->errcap, "%s:%d: %s", fr->path, line, what);
    fr->failed = 1;
    return 0;
}

/* inih's line source: counts lines and notes [scheme NAME] headers, so that
 * a scheme section with no key can be reported too. */
static char *file_read_line(char *buf, int size, void *stream)
{
    file_reader *fr = stream;
    char *s = fgets(buf, size, fr->f);
    if (!s)
        return NULL;
    fr->line++;
    if (!strchr(s, '\n') && !feof(fr->f))
        file_fail(fr, fr->line, "line too long (at most 200 characters)");
    const char *p = s + strspn(s, " \t");
    if (!strncmp(p, "[scheme ", 8) && fr->nsections < SCENARIO_MAX_SCHEMES) {
        scheme_section *ss = &fr->sections[fr->nsections++];
        size_t n = strcspn(p + 8, "]");
        snprintf(ss->name, sizeof ss->name, "%.*s", (int)n, p + 8);
        ss->line = fr->line;
        ss->has_key = 0;
    }
    return s;
}

static int file_scheme_entry(file_reader *fr, const char *name, const char *key,
                             const char *value)
{
    char msg[256];
    if (strcmp(key, "key") != 0) {
        snprintf(msg, sizeof msg, "unknown key '%s' in [scheme %s]; expected key = EXPRESSION",
                 key, name);
        return file_fail(fr, fr->line, msg);
    }
    scheme_section *ss = fr->nsections ? &fr->sections[fr->nsections - 1] : NULL;
    if (ss && ss->has_key) {
        snprintf(msg, sizeof msg, "[scheme %s] has a second 'key'", name);
        return file_fail(fr, fr->line, msg);
    }
    if (!fr->file_has_schemes)
        fr->sc->nschemes = 0;
    fr->file_has_schemes = 1;
    const char *label = scenario_own(fr->sc, name), *text = scenario_own(fr->sc, value);
    if (!label || !text || scenario_add_scheme(fr->sc, label, text) < 0)
        return file_fail(fr, fr->line, "too many schemes (at most 64)");
    if (ss)
        ss->has_key = 1;
    return 1;
}

/* The phase called name, created (as a copy of [workload]) on first use. */
static phase *file_phase(file_reader *fr, const char *name, size_t *index)
{
    scenario *sc = fr->sc;
    for (size_t i = 0; i < sc->nphases; i++) {
        if (!strcmp(sc->phases[i].name, name)) {
            *index = i;
            return &sc->phases[i];
        }
    }
    const char *own = scenario_own(sc, name);
    if (sc->nphases == SCENARIO_MAX_PHASES || !own)
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
    char why[640], msg[768];
    const setting *s = setting_find(key);
    if (!s || s->target != IN_PHASE) {
        if (s)
            snprintf(why, sizeof why, "'%s' belongs in [%s], not in a phase", key,
                     s->section[0] ? s->section : "the top level");
        else
            unknown_key("workload", key, why, sizeof why);
        snprintf(msg, sizeof msg, "[phase %s] %s: %s", name, key, why);
        return file_fail(fr, fr->line, msg);
    }
    size_t index;
    phase *ph = file_phase(fr, name, &index);
    const char *own = scenario_own(fr->sc, value);
    if (!ph || !own)
        return file_fail(fr, fr->line, "too many phases (at most 16)");
    if (setting_apply(fr->sc, ph, s, value, why, sizeof why) < 0) {
        snprintf(msg, sizeof msg, "[phase %s] %s: %s", name, key, why);
        return file_fail(fr, fr->line, msg);
    }
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
 * HBase's default zookeeper.session.timeout of 90000 ms). */
static cluster_event *file_event(file_reader *fr, const char *name)
{
    scenario *sc = fr->sc;
    for (size_t i = 0; i < sc->nevents; i++)
        if (!strcmp(sc->events[i].name, name))
            return &sc->events[i];
    const char *own = scenario_own(sc, name);
    if (sc->nevents == SCENARIO_MAX_EVENTS || !own)
        return NULL;
    cluster_event *e = &sc->events[sc->nevents++];
    memset(e, 0, sizeof *e);
    e->name = own;
    e->servers = 1;
    e->detection_us = 90 * SECOND_US;
    e->line = fr->line;
    e->at_us = UINT64_MAX; /* required */
    return e;
}

static int file_event_entry(file_reader *fr, const char *name, const char *key,
                            const char *value)
{
    static const choice actions[] = { { "add", EVENT_ADD_SERVERS },
                                      { "decommission", EVENT_DECOMMISSION },
                                      { "fail", EVENT_FAIL }, { NULL, 0 } };
    char msg[512];
    cluster_event *e = file_event(fr, name);
    if (!e)
        return file_fail(fr, fr->line, "too many events (at most 64)");
    uint64_t v;
    int ok = 1;
    if (!strcmp(key, "at")) {
        ok = units_parse_duration(value, &v) == 0;
        e->at_us = v;
    } else if (!strcmp(key, "detection")) {
        ok = units_parse_duration(value, &v) == 0;
        e->detection_us = v;
    } else if (!strcmp(key, "servers")) {
        ok = units_parse_count(value, &v) == 0 && v >= 1 && v <= 100000;
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
        snprintf(msg, sizeof msg, "unknown key '%.64s' in [event %.64s]; expected at, action, "
                 "servers, server or detection", key, name);
        return file_fail(fr, fr->line, msg);
    }
    if (!ok) {
        snprintf(msg, sizeof msg, "[event %.64s] %s: expected %s, found '%.100s'", name, key,
                 !strcmp(key, "action") ? "add, decommission or fail"
                 : !strcmp(key, "servers") ? "a count from 1 to 100000"
                 : !strcmp(key, "server") ? "a server number (rs<N>: N)"
                                          : "a duration with a unit (us, ms, s, m, h)",
                 value);
        return file_fail(fr, fr->line, msg);
    }
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

/* A trace named in a file is found relative to the file, not to the
 * directory the program runs in. Returns value or buf. */
static const char *file_relative_path(const file_reader *fr, const char *key,
                                      const char *value, char *buf, size_t cap)
{
    const char *slash = strrchr(fr->path, '/');
    if ((strcmp(key, "trace") != 0 && strcmp(key, "split_keys_file") != 0) ||
        value[0] == '/' || !value[0] || !slash)
        return value;
    snprintf(buf, cap, "%.*s/%s", (int)(slash - fr->path), fr->path, value);
    return buf;
}

static int file_entry(void *user, const char *section, const char *key, const char *value)
{
    file_reader *fr = user;
    if (fr->failed)
        return 1;
    char path[4096];
    value = file_relative_path(fr, key, value, path, sizeof path);
    if (!strncmp(section, "scheme ", 7) && section[7])
        return file_scheme_entry(fr, section + 7, key, value);
    if (!strncmp(section, "phase ", 6) && section[6])
        return file_phase_entry(fr, section + 6, key, value);
    if (!strncmp(section, "event ", 6) && section[6])
        return file_event_entry(fr, section + 6, key, value);
    if (strcmp(section, "") && strcmp(section, "cluster") && strcmp(section, "workload") &&
        strcmp(section, "reads")) {
        char msg[192];
        snprintf(msg, sizeof msg, "unknown section [%.64s]; expected [cluster], [workload], "
                 "[reads], [phase NAME], [event NAME] or [scheme NAME]", section);
        return file_fail(fr, fr->line, msg);
    }
    char why[640], msg[768];
    /* Not scenario_set: a [workload] key in a file sets the base only. */
    int rc = scenario_set(fr->sc, section, key, value, why, sizeof why);
    if (rc == 0)
        return 1;
    if (rc == -2 && setting_find(key))
        snprintf(why, sizeof why, "'%s' belongs in [%s], not in [%s]", key,
                 setting_find(key)->section, section);
    if (section[0])
        snprintf(msg, sizeof msg, "[%s] %s: %s", section, key, why);
    else
        snprintf(msg, sizeof msg, "%s: %s", key, why);
    return file_fail(fr, fr->line, msg);
}

int scenario_load(scenario *sc, const char *path, char *err, size_t errcap)
{
    file_reader fr;
    memset(&fr, 0, sizeof fr);
    fr.f = fopen(path, "r");
    if (!fr.f) {
        snprintf(err, errcap, "%s: cannot open the scenario file", path);
        return -1;
    }
    fr.path = path;
    fr.sc = sc;
    fr.err = err;
    fr.errcap = errcap;
    const char *name_before = sc->name;
    int line = ini_parse_stream(file_read_line, &fr, file_entry, &fr);
    fclose(fr.f);
    if (!fr.failed)
        file_resolve_phases(&fr);
    for (size_t i = 0; i < sc->nevents && !fr.failed; i++) {
        if (sc->events[i].at_us == UINT64_MAX) {
            char msg[160];
            snprintf(msg, sizeof msg, "[event %s] has no 'at = TIME'", sc->events[i].name);
            file_fail(&fr, sc->events[i].line, msg);
        }
    }
    file_sort_events(sc);
    free(fr.phase_settings);
    if (line != 0 && !fr.failed) {
        char msg[64];
        snprintf(msg, sizeof msg, "expected '[section]' or 'key = value'");
        file_fail(&fr, line, msg);
    }
    for (size_t i = 0; i < fr.nsections && !fr.failed; i++) {
        if (!fr.sections[i].has_key) {
            char msg[128];
            snprintf(msg, sizeof msg, "[scheme %s] has no 'key = EXPRESSION'",
                     fr.sections[i].name);
            file_fail(&fr, fr.sections[i].line, msg);
        }
    }
    if (fr.failed)
        return -1;
    if (sc->name == name_before) { /* the file did not name itself */
        const char *base = strrchr(path, '/');
        const char *own = scenario_own(sc, base ? base + 1 : path);
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

uint32_t scenario_max_servers(const scenario *sc)
{
    uint64_t n = sc->servers;
    for (size_t i = 0; i < sc->nevents; i++)
        if (sc->events[i].action == EVENT_ADD_SERVERS)
            n += sc->events[i].servers;
    return n > 1000000 ? 1000000 : (uint32_t)n;
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
        if (sc->split_keys_file)
            return presplit_read_file(sc->split_keys_file, keys, bytes, n, err, errcap);
        if (sc->split_keys)
            return presplit_parse_list(sc->split_keys, keys, bytes, n, err, errcap);
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
        char expr[1024], why[512];
        keyscheme *ks;
        scenario_scheme_expr(sc, i, expr, sizeof expr);
        if (keyscheme_parse(expr, &ks, why, sizeof why) < 0) {
            snprintf(err, errcap, "scheme '%s': %s", scenario_scheme_label(sc, i), why);
            return -1;
        }
        keyscheme_free(ks);
    }
    return 0;
}
