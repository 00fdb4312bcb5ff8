/* scenario.c -- the scenario value and its settings table.
 *
 * The default is HBase's own cluster settings over a table's first month:
 * 8 servers, 1,000 series writing once a second for 30 days, regions of
 * HBase's 10 GiB that flush at 128 MiB and split by SteppingSplitPolicy
 * (hbase-default.xml 2.6: hbase.hregion.max.filesize = 10737418240,
 * hbase.regionserver.region.split.policy = SteppingSplitPolicy;
 * TableDescriptorBuilder.DEFAULT_MEMSTORE_FLUSH_SIZE = 128 MiB), the
 * StochasticLoadBalancer every 5 minutes (hbase.balancer.period = 300000
 * ms). A month is some 2.6e9 writes: the engine weighs them (engine =
 * auto, docs/weighted.md), and the report window follows the run's length
 * (window = auto: 1 h for a month). size_scale shrinks HBase's sizes for a
 * run of minutes that still splits, at the cost docs/model.md measures:
 * reads touch more regions than they would, and size costs see small
 * regions.
 *
 * A scenario is a plain struct; the strings a file or option gives it
 * (names, expressions, paths) are copies it owns in one list, freed
 * together by scenario_release, so that a phase can be a plain copy of
 * [workload] (sharing its strings, not owning them twice).
 *
 * Settings live in one table: section, key, type, range and where the value
 * goes in the struct. Files and options both set values through it, so a
 * new setting is one table row, and error messages are uniform; reports
 * and --help read values and their documentation back through the same
 * rows (scenario_format_value writes a value as a user writes it).
 *
 * Reading scenario files is scenario_file.c; checks that need the whole
 * scenario are scenario_check.c. What they share with this file (the
 * table's row type, scenario_setting_find and _apply, scenario_own) is in
 * scenario_impl.h.
 */
#include "scenario/scenario.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nearest.h"
#include "scenario/scenario_impl.h"
#include "scenario/units.h"
#include "workloads/keyscheme.h"

#define MINUTE_US (60ull * SECOND_US)

void scenario_defaults(scenario *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->name = "default";
    sc->seed = 42;
    sc->samples = SCENARIO_DEFAULT_SAMPLES;
    sc->servers = 8;
    sc->store = STORE_MODE_AUTO;
    sc->sample_keys = STORE_SAMPLE_KEYS_DEFAULT;
    /* HBase 2's defaults (hbase-default.xml): SteppingSplitPolicy, regions
     * of 10 GiB; the flush size is unset: region size / 80 = 128 MiB. */
    sc->split_policy = SPLIT_STEPPING;
    sc->region_max_bytes = SPLIT_DEFAULT_MAX_BYTES;
    sc->split_jitter = SPLIT_DEFAULT_JITTER;
    sc->size_scale = 1; /* HBase's sizes, undivided */
    sc->split_limit = 1000; /* hbase.regionserver.regionSplitLimit's default */
    /* hbase.master.loadbalancer.class's default (hbase-default.xml):
     * StochasticLoadBalancer */
    sc->balancer = BALANCER_STOCHASTIC;
    sc->slop = 0.2; /* hbase.regions.slop (BaseLoadBalancer) */
    sc->balancer_period_us = 5 * MINUTE_US;
    sc->system_regions = 1; /* HBase 3: hbase:meta (the namespace table is folded into it) */
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
    sc->discharge_us = 0; /* unset: scaled with the region size (scenario_discharge_us) */
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
    w->duration_us = 30 * 1440 * MINUTE_US; /* 30 days: a table's first month */
    for (int k = 0; k < QUERY_KINDS; k++) /* unused until set: see scenario_read_weights */
        w->reads.weight[k] = 0;
    w->reads.range_us = 10 * MINUTE_US;
    w->reads.latest_rows = 10;
    w->reads.scan_rows = 100;
    w->reads.window_us = MINUTE_US;
    w->reads.metric_us = 60 * MINUTE_US; /* a dashboard's usual span */
    /* OpenTSDB's cell: family "t", a 2-byte qualifier, an 8-byte value. */
    sc->family_bytes = 1;
    sc->qualifier_bytes = 2;
    w->value_bytes = 8;
    sc->window_us = MINUTE_US;
    sc->window_auto = 1;
    sc->measure_auto = 1; /* figures past the warm-up unless asked otherwise */
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
void *scenario_own_block(scenario *sc, size_t bytes)
{
    if (sc->nowned == sc->owned_cap) {
        size_t cap = sc->owned_cap ? 2 * sc->owned_cap : 16;
        char **o = realloc(sc->owned, cap * sizeof *o);
        if (!o)
            return NULL;
        sc->owned = o;
        sc->owned_cap = cap;
    }
    char *p = calloc(1, bytes ? bytes : 1);
    if (p)
        sc->owned[sc->nowned++] = p;
    return p;
}

const char *scenario_own(scenario *sc, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = scenario_own_block(sc, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* A copy of s with its control bytes as \xNN (sc owns it), or s itself
 * when it has none; NULL when out of memory. Names shown in reports and on
 * the terminal never carry a control byte. */
const char *scenario_own_printable(scenario *sc, const char *s)
{
    size_t len = strlen(s), shown = 0;
    for (size_t i = 0; i < len; i++)
        shown += (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? 4 : 1;
    if (shown == len)
        return s;
    char *buf = malloc(shown + 1);
    if (!buf)
        return NULL;
    escape_text(s, shown, buf, shown + 1);
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
    sc->schemes[sc->nschemes].origin = NULL;
    sc->nschemes++;
    return 0;
}

int scenario_add_assertion(scenario *sc, const char *name, const char *text, const char *origin,
                           char *err, size_t errcap)
{
    if (sc->nassertions == SCENARIO_MAX_ASSERTIONS) {
        snprintf(err, errcap, "too many assertions: at most %d ([assert NAME] sections and "
                 "--assert options together)", SCENARIO_MAX_ASSERTIONS);
        return -1;
    }
    for (size_t i = 0; name && i < sc->nassertions; i++) {
        if (sc->assertions[i].name && !strcmp(sc->assertions[i].name, name)) {
            snprintf(err, errcap, "a second assertion named '%s' (the first: %s)", name,
                     sc->assertions[i].origin);
            return -1;
        }
    }
    scenario_assertion a = { NULL, scenario_own(sc, text), scenario_own(sc, origin) };
    if (name)
        a.name = scenario_own(sc, name);
    if (!a.text || !a.origin || (name && !a.name)) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    sc->assertions[sc->nassertions++] = a;
    return 0;
}

int scenario_advise_budget(const char *text, uint32_t *out, char *err, size_t errcap)
{
    unsigned long long b = 0;
    size_t n = 0;
    for (; text[n] >= '0' && text[n] <= '9' && b <= SCENARIO_ADVISE_MAX_BUDGET; n++)
        b = b * 10 + (unsigned)(text[n] - '0');
    if (n == 0 || text[n] || b < 1 || b > SCENARIO_ADVISE_MAX_BUDGET) {
        char shown[4 * SHOWN + 16];
        snprintf(err, errcap, "expected a number of candidates 1..%d, found '%s'",
                 SCENARIO_ADVISE_MAX_BUDGET, escape_text(text, SHOWN, shown, sizeof shown));
        return -1;
    }
    *out = (uint32_t)b;
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
    if (ph->pattern.kind == PATTERN_YCSB) {
        weight[QUERY_GET] = 1; /* YCSB's read: the record's row (its scans are scans) */
    } else if (ph->pattern.kind == PATTERN_TIMESERIES) {
        weight[QUERY_METRIC] = 8;
        weight[QUERY_RANGE] = 1;
        weight[QUERY_LATEST] = 1;
    } else {
        weight[QUERY_GET] = weight[QUERY_RANGE] = weight[QUERY_LATEST] = 1;
        weight[QUERY_WINDOW] = 1;
    }
}

void scenario_pattern_config(const phase *ph, pattern_config *out)
{
    *out = ph->pattern;
    out->read_fraction = ph->reads.fraction;
    double ops = ph->pattern.rate_per_s * (double)ph->duration_us / 1e6;
    out->operations = ph->pattern.kind == PATTERN_ENTITIES && ops < 9.2e18 ? (uint64_t)ops : 0;
    if (ph->pattern.trace_ycsb && scenario_phase_given(ph, "rate")) /* a YCSB log has no times */
        out->trace_interval_us = (uint64_t)(1e6 / ph->pattern.rate_per_s + 0.5);
}

size_t scenario_phase_count(const scenario *sc)
{
    return sc->nphases ? sc->nphases : 1;
}

const phase *scenario_phase(const scenario *sc, size_t i)
{
    return sc->nphases ? &sc->phases[i] : &sc->workload;
}

/* ---- derived values ---- */

uint64_t scenario_discharge_us(const scenario *sc)
{
    if (sc->discharge_us)
        return sc->discharge_us;
    double us = 120.0 * SECOND_US * (double)sc->region_max_bytes / (double)SPLIT_DEFAULT_MAX_BYTES;
    return us < 1 ? 1 : us > 3600.0 * SECOND_US ? 3600 * SECOND_US : (uint64_t)us;
}

uint64_t scenario_window_us(const scenario *sc)
{
    static const uint64_t ladder[] = { MINUTE_US, 5 * MINUTE_US, 15 * MINUTE_US,
                                       60 * MINUTE_US, 360 * MINUTE_US, 1440 * MINUTE_US };
    if (!sc->window_auto)
        return sc->window_us;
    uint64_t planned = 0;
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        if (pattern_is_finite(&ph->pattern) && !ph->duration_given)
            return MINUTE_US; /* open-ended: its length is known only once it is read */
        planned += ph->duration_us;
    }
    size_t k = 0;
    while (k + 1 < sizeof ladder / sizeof ladder[0] &&
           planned > SCENARIO_AUTO_WINDOWS * ladder[k])
        k++;
    return ladder[k];
}

uint64_t scenario_cell_framing(const scenario *sc)
{
    return 20ull + HFILE_CELL_EXTRA + sc->family_bytes + sc->qualifier_bytes;
}

uint64_t scenario_cell_overhead(const scenario *sc)
{
    return scenario_cell_framing(sc) + sc->workload.value_bytes;
}

uint64_t scenario_flush_bytes(const scenario *sc)
{
    return sc->flush_bytes ? sc->flush_bytes : sc->region_max_bytes / 80;
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

/* ---- the settings table ---- */

static const choice balancer_choices[] = {
    { "none", BALANCER_NONE }, { "simple", BALANCER_SIMPLE },
    { "stochastic", BALANCER_STOCHASTIC }, { "region-count", BALANCER_SIMPLE }, { NULL, 0 } };
static const choice presplit_choices[] = {
    { "none", PRESPLIT_NONE }, { "buckets", PRESPLIT_BUCKETS }, { "hex", PRESPLIT_BY_HEX },
    { "decimal", PRESPLIT_BY_DECIMAL }, { "uniform", PRESPLIT_BY_UNIFORM },
    { "keys", PRESPLIT_BY_KEYS }, { NULL, 0 } };
static const choice pattern_choices[] = {
    { "timeseries", PATTERN_TIMESERIES }, { "entities", PATTERN_ENTITIES },
    { "sequence", PATTERN_SEQUENCE }, { "trace", PATTERN_TRACE }, { "ycsb", PATTERN_YCSB },
    { NULL, 0 } };
static const choice trace_format_choices[] = {
    { "regionsim", 0 }, { "ycsb", 1 }, { NULL, 0 } };
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
static const choice system_choices[] = {
    { "none", 0 }, { "meta", 1 }, { NULL, 0 } };
static const choice bool_choices[] = {
    { "false", 0 }, { "true", 1 }, { NULL, 0 } };
static const choice get_choices[] = {
    { "recent", 0 }, { "any", 1 }, { NULL, 0 } };
static const choice store_choices[] = {
    { "auto", STORE_MODE_AUTO }, { "exact", STORE_MODE_EXACT }, { "sampled", STORE_MODE_SAMPLED },
    { NULL, 0 } };
static const choice engine_choices[] = {
    { "auto", ENGINE_MODE_AUTO }, { "per-op", ENGINE_MODE_PER_OP },
    { "weighted", ENGINE_MODE_WEIGHTED }, { NULL, 0 } };
static const choice naming_choices[] = {
    { "user", NAMING_USER }, { "domain", NAMING_DOMAIN }, { "id", NAMING_ID }, { NULL, 0 } };
_Static_assert(sizeof(int) == 4, "service is stored as a 4-byte value");
_Static_assert(sizeof(split_kind) == 4 && sizeof(split_restriction_kind) == 4,
               "choices are stored as 4-byte values");
_Static_assert(sizeof(balancer_kind) == 4 && sizeof(presplit_kind) == 4 &&
               sizeof(pattern_kind) == 4 && sizeof(arrival_kind) == 4 &&
               sizeof(dist_kind) == 4 && sizeof(record_naming) == 4 &&
               sizeof(store_mode) == 4 && sizeof(engine_mode) == 4,
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
    { "", "samples", SET_COUNT, 1, SCENARIO_MAX_SAMPLES, SC(samples), NULL,
      "N", "run every scheme with seeds seed .. seed+N-1: figures as min/median/max, an assertion holds only if it holds in every sample" },
    { "", "jobs", SET_COUNT, 0, SCENARIO_MAX_JOBS, SC(jobs), NULL,
      "N", "schemes run at once, in threads (0: one per core available); the output is the same whatever N" },
    { "", "max_memory", SET_SIZE, 1ull << 20, 1ull << 50, SC(max_memory), NULL,
      "SIZE", "refuse a run estimated to need more memory (unset: the machine's memory); ulimit -v and -d always apply" },
    { "", "store", SET_CHOICE, 0, 0, SC(store), store_choices,
      "S", "the regions' row store: exact (every row), sampled (counters and a bounded sample a region: reads are estimates) or auto (exact when the memory estimate fits, else sampled)" },
    { "", "sample_keys", SET_COUNT, STORE_SAMPLE_KEYS_MIN, STORE_SAMPLE_KEYS_MAX, SC(sample_keys), NULL,
      "N", "sampled store: rows sampled a region, at most" },
    { "", "engine", SET_CHOICE, 0, 0, SC(engine), engine_choices,
      "E", "per-op (every operation simulated, FIFO server queues), weighted (one generated operation stands for `weight`, queueing from a per-window fluid model: docs/weighted.md) or auto (per-op when the run is small enough, else weighted)" },
    { "", "weight", SET_COUNT, 0, 1000000, SC(weight), NULL,
      "N", "weighted engine: operations one generated operation stands for (0: chosen from the run's size)" },
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
    { "cluster", "system_regions", SET_CHOICE, 0, 0, SC(system_regions), system_choices,
      "R", "meta (hbase:meta's region on a server drawn from the seed, counted and moved by "
      "the balancer, as HBase's ensemble does) or none" },
    { "cluster", "balancer_phase", SET_DURATION, 0, UINT64_MAX, SC(balancer_phase_us), NULL,
      "D", "the balancer's first run, at most balancer_period in (0: drawn from the seed, as "
      "the master's start time makes it)" },
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
    { "cluster", "discharge_interval", SET_DURATION, 1, 3600000000ull, SC(discharge_us), NULL,
      "D", "hbase.hfile.compaction.discharger.interval: a split's daughter splits again after its server's next run (unset: 2 min scaled as the region size)" },
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
      "X", "entities: uniform, zipfian (YCSB's, scrambled; synonym scrambled_zipfian), "
      "ranked_zipfian (id 0 hottest), latest, hotspot, sequential or exponential" },
    { "workload", "records", SET_COUNT, 1, UINT32_MAX, PH(pattern.records), NULL,
      "N", "entities: how many exist at the start" },
    { "workload", "insert_fraction", SET_FRACTION, 0, 0, PH(pattern.insert_fraction), NULL,
      "F", "entities: share of operations that insert new ones (updates: what reads "
      "and inserts leave)" },
    { "workload", "naming", SET_CHOICE, 0, 0, PH(pattern.naming), naming_choices,
      "N", "entities, sequence: names user, domain or id" },
    { "workload", "trace", SET_PATH, 0, 0, PH(pattern.trace_path), NULL,
      "FILE", "replay a trace (time,op,key[,bytes]; docs/workloads.md)" },
    { "workload", "trace_format", SET_CHOICE, 0, 0, PH(pattern.trace_ycsb), trace_format_choices,
      "F", "the trace's format: regionsim (time,op,key[,bytes[,cells]]) or ycsb (YCSB's BasicDB "
      "verbose output, replayed at the rate or YCSB's target, or closed-loop)" },
    { "workload", "ycsb", SET_NAME, 0, 0, SC(ycsb_source), NULL,
      "W", "run YCSB workload W (a stock one, a .. f, or a property file): its load, then "
      "its run; -p NAME=VALUE sets a property; see docs/ycsb.md" },
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
    { "reads", "read_scan", SET_COUNT, 0, 1000000, PH(reads.weight[QUERY_SCAN]), NULL,
      "W", "weight of scan reads (scan_rows rows from an entity's name on, as YCSB scans)" },
    { "reads", "get_record", SET_CHOICE, 0, 0, PH(reads.get_any), get_choices,
      "G", "get reads: recent (the entity's newest record) or any" },
    { "reads", "range_length", SET_DURATION, 1, UINT64_MAX, PH(reads.range_us), NULL,
      "D", "range reads: the last D" },
    { "reads", "scan_rows", SET_COUNT, 1, 1000000, PH(reads.scan_rows), NULL,
      "N", "scan reads: N rows" },
    { "reads", "latest_rows", SET_COUNT, 1, 1000000, PH(reads.latest_rows), NULL,
      "N", "latest reads: the newest N rows" },
    { "reads", "window_length", SET_DURATION, 1, UINT64_MAX, PH(reads.window_us), NULL,
      "D", "window reads: the last D" },
    { "reads", "metric_length", SET_DURATION, 1, UINT64_MAX, PH(reads.metric_us), NULL,
      "D", "metric reads: the last D" },
    { "reads", "multi_get", SET_CHOICE, 0, 0, PH(reads.multi_get), bool_choices,
      "B", "range reads on an osalt key: OpenTSDB's tsd.query.multi_get.enable (false: scan "
      "every salt bucket, OpenTSDB's default; true: one get per hour row of the series)" },
    { "workload", "window", SET_DURATION, 1, UINT64_MAX, SC(window_us), NULL,
      "D", "report window: a column of the heatmaps; auto (the default): the shortest of "
      "1 min, 5 min, 15 min, 1 h, 6 h and 1 d giving at most 1,440 windows" },
    { "workload", "measure_from", SET_DURATION, 0, UINT64_MAX, SC(measure_from_us), NULL,
      "D", "figures count only operations issued from D on (0s: all); auto (the default): "
      "from the end of each run's warm-up, the first balancer run at which its table has a "
      "region per server" },
    { "workload", "key_buckets", SET_COUNT, 1, 1000, SC(key_buckets), NULL,
      "N", "rows of the key space heatmap" },
    { "workload", "family_bytes", SET_COUNT, 1, 255, SC(family_bytes), NULL,
      "N", "bytes of the column family name in every cell" },
    { "workload", "qualifier_bytes", SET_COUNT, 0, 65535, SC(qualifier_bytes), NULL,
      "N", "bytes of the qualifier in every cell" },
    { "workload", "value_bytes", SET_COUNT, 0, 1u << 30, PH(value_bytes), NULL,
      "N", "bytes of the value in every cell (a phase may set its own: a load of large "
      "records, updates of small ones)" },
};
#undef SC
#undef PH
#undef ANY
#define NSETTINGS (sizeof settings / sizeof *settings)

const setting *scenario_setting_find(const char *key)
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

/* Whether s is measure_from, which takes "auto" besides a duration. */
static int is_measure_from(const setting *s)
{
    return s->target == IN_SCENARIO && s->offset == offsetof(scenario, measure_from_us);
}

/* Whether s is the report window, which takes "auto" besides a duration. */
static int is_window(const setting *s)
{
    return s->target == IN_SCENARIO && s->offset == offsetof(scenario, window_us);
}

/* Whether s is a duration setting that also takes "auto". */
static int takes_auto(const setting *s)
{
    return is_measure_from(s) || is_window(s);
}

static int setting_expected(const setting *s, char *err, size_t cap, const char *text)
{
    char value[SHOWN + 1], lo[32], hi[32];
    escape_text(text, SHOWN, value, sizeof value);
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
        snprintf(err, cap, "expected %sa duration from %s to %s with a unit (us, ms, s, m, h, d), "
                 "found '%s'", takes_auto(s) ? "auto or " : "", lo, hi, value);
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
static int setting_store(scenario *sc, void *base, const setting *s, const char *value,
                         char *err, size_t errcap);

/* Phase setting s's bit in phase.given: its place among the phase rows. */
static uint64_t phase_setting_bit(const setting *s)
{
    unsigned n = 0;
    for (const setting *r = settings; r < s; r++)
        n += r->target == IN_PHASE;
    assert(s->target == IN_PHASE && n < 64);
    return UINT64_C(1) << n;
}

int scenario_phase_given(const phase *ph, const char *key)
{
    const setting *s = scenario_setting_find(key);
    return s && s->target == IN_PHASE && (ph->given & phase_setting_bit(s)) != 0;
}

int scenario_setting_apply(scenario *sc, void *base, const setting *s, const char *value,
                           char *err, size_t errcap)
{
    int rc = setting_store(sc, base, s, value, err, errcap);
    if (rc == 0 && s->target == IN_PHASE)
        ((phase *)base)->given |= phase_setting_bit(s);
    return rc;
}

/* Parses value as setting s and stores it at base (the scenario or a
 * phase). Returns 0, or -1 with err naming what was expected. */
static int setting_store(scenario *sc, void *base, const setting *s, const char *value,
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
        if (is_measure_from(s) && !strcmp(value, "auto")) {
            ((scenario *)base)->measure_auto = 1;
            ((scenario *)base)->measure_from_us = 0;
            return 0;
        }
        if (is_window(s) && !strcmp(value, "auto")) {
            ((scenario *)base)->window_auto = 1;
            return 0;
        }
        int rc = s->kind == SET_COUNT ? units_parse_count(value, &v)
                 : s->kind == SET_SIZE ? units_parse_size(value, &v)
                                       : units_parse_duration(value, &v);
        if (rc < 0 || v < s->lo || v > s->hi)
            return setting_expected(s, err, errcap, value);
        store_integer(base, s, v);
        if (is_measure_from(s))
            ((scenario *)base)->measure_auto = 0; /* a duration, 0 included: from there */
        if (is_window(s))
            ((scenario *)base)->window_auto = 0;
        if (s->offset == offsetof(phase, duration_us) && s->target == IN_PHASE)
            ((phase *)base)->duration_given = 1;
        if (s->offset == offsetof(scenario, samples) && s->target == IN_SCENARIO)
            ((scenario *)base)->samples_given = 1;
        if (is_read_weight(s))
            ((phase *)base)->reads.weights_given = 1; /* the mix is the user's now */
        return 0;
    }
    }
    return -1;
}

int scenario_unknown_key(const char *section, const char *key, char *err, size_t errcap)
{
    char list[512] = "", shown[65];
    for (size_t i = 0; i < NSETTINGS; i++)
        if (!section || !strcmp(section, settings[i].section))
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     list[0] ? ", " : "", settings[i].key);
    snprintf(err, errcap, "unknown key '%s'; expected one of: %s",
             escape_text(key, 64, shown, sizeof shown), list);
    return -2;
}

int scenario_set_option(scenario *sc, const char *name, const char *value, char *err,
                        size_t errcap)
{
    char key[64];
    size_t n = strncmp(name, "--", 2) ? 0 : strlen(name + 2);
    if (n == 0 || n >= sizeof key)
        return -2;
    for (size_t i = 0; i <= n; i++)
        key[i] = name[2 + i] == '-' ? '_' : name[2 + i];
    return scenario_set(sc, NULL, key, value, err, errcap);
}

int scenario_option_is(const char *name, const char *key)
{
    if (strncmp(name, "--", 2) != 0)
        return 0;
    for (name += 2; *name && *key; name++, key++)
        if (*name != *key && !(*name == '-' && *key == '_'))
            return 0;
    return !*name && !*key;
}

const char *scenario_option_nearest(const char *name, const char *const *extra, size_t nextra,
                                    int (*keep)(const char *option, void *ctx), void *ctx,
                                    char *out, size_t cap)
{
    /* a third of the word past its dashes, at least 1: two edits of a
     * short option ("--name", "--rate") make another word; none for one
     * letter ("-x" is one edit from every one-letter option) */
    size_t len = strnlen(name + strspn(name, "-"), NEAREST_MAX_LEN + 1);
    nearest n = nearest_start(name, len < 2 ? 0 : len / 3 > 1 ? len / 3 : 1, 0);
    char option[NEAREST_MAX_LEN + 1];
    size_t nsettings = scenario_setting_count();
    for (size_t i = 0; i < nextra + nsettings; i++) {
        const char *candidate = i < nextra ? extra[i] : option;
        if (i >= nextra) {
            const char *key = scenario_setting_doc(i - nextra).key;
            if (!strcmp(key, "name") || strlen(key) + 2 > NEAREST_MAX_LEN)
                continue; /* a file names itself: not an option */
            snprintf(option, sizeof option, "--%s", key);
            for (char *c = option; *c; c++)
                *c = *c == '_' ? '-' : *c;
        }
        if (keep && !keep(candidate, ctx))
            continue;
        const char *before = n.best;
        nearest_offer(&n, candidate);
        if (n.best != before) { /* kept in out: option is a scratch buffer */
            snprintf(out, cap, "%s", n.best);
            n.best = out;
        }
    }
    return n.best;
}

int scenario_set(scenario *sc, const char *section, const char *key, const char *value,
                 char *err, size_t errcap)
{
    const setting *s = scenario_setting_find(key);
    if (!s || (section && strcmp(section, s->section) != 0))
        return scenario_unknown_key(section, key, err, errcap);
    if (s->target == IN_SCENARIO) {
        int rc = scenario_setting_apply(sc, sc, s, value, err, errcap);
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
    if (scenario_setting_apply(sc, &sc->workload, s, value, err, errcap) < 0)
        return -1;
    for (size_t i = 0; !section && i < sc->nphases; i++) /* same value: cannot fail */
        scenario_setting_apply(sc, &sc->phases[i], s, value, err, errcap);
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
    const setting *s = scenario_setting_find(key);
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
    if ((is_measure_from(s) && sc->measure_auto) || (is_window(s) && sc->window_auto)) {
        snprintf(out, cap, "%s", "auto");
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
    const setting *s = scenario_setting_find(key);
    if (s && s->kind == SET_DISTRIBUTION)
        return dist_kind_name((dist_kind)value);
    for (const choice *c = s && s->kind == SET_CHOICE ? s->choices : NULL; c && c->name; c++)
        if (c->value == value)
            return c->name; /* the first name: aliases come after it */
    return "?";
}
