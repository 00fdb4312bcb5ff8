/* scenario.h -- everything a simulation needs to know, as a plain struct.
 *
 * A scenario is the cluster (servers, split size, balancer), the workload
 * (a time series), how long to run, how to cut the report into windows, and
 * the key schemes to compare. It comes from the built-in default, then a
 * scenario file (INI), then command-line options, each overriding the one
 * before. A scenario is pure configuration: it holds no simulation state,
 * so one scenario can be run any number of times.
 *
 * Every setting has one entry in a table in scenario.c (its section, key,
 * type and range); scenario files and command-line options both go through
 * scenario_set, so they accept exactly the same values.
 */
#ifndef REGIONSIM_SCENARIO_H
#define REGIONSIM_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "core/balancer.h"
#include "core/key.h"
#include "core/split.h"
#include "core/store.h"
#include "workloads/keyscheme.h"
#include "workloads/pattern.h"

typedef enum presplit_kind {
    PRESPLIT_NONE = 0,    /* every table starts as one region */
    PRESPLIT_BUCKETS,     /* schemes with a bucket prefix start with one region per bucket */
    PRESPLIT_BY_HEX,      /* RegionSplitter's HexStringSplit, presplit_regions regions */
    PRESPLIT_BY_DECIMAL,  /* DecimalStringSplit */
    PRESPLIT_BY_UNIFORM,  /* UniformSplit */
    PRESPLIT_BY_KEYS,     /* split_keys or split_keys_file */
} presplit_kind;

#define SCENARIO_MAX_SCHEMES 64
#define SCENARIO_MAX_PHASES 16
/* --jobs: threads at most (more would only wait: there are at most
 * SCENARIO_MAX_SCHEMES runs at once) */
#define SCENARIO_MAX_JOBS 1024
/* --samples: seeds per scheme (each sample is a whole run of the scenario) */
#define SCENARIO_MAX_SAMPLES 1000
/* samples unless set: run, compare, sweep and advise run this many seeds
 * (seed .. seed+2) and report the median and range of each figure, since
 * one seed of a chaotic process can be its luckiest or unluckiest (issue
 * 28); keys and watch make one run. Three, not more: each seed is a whole
 * run, and the default compare on 2 cores must stay near twice the time
 * of one seed (docs/performance.md); ask for more with samples = N (CI's
 * examples/ci.ini runs 5). The one place the number lives. */
#define SCENARIO_DEFAULT_SAMPLES 3
/* Servers a run can have in all: the initial ones plus every one events
 * add (docs/scenarios.md). */
#define SCENARIO_MAX_SERVERS 100000
/* A scenario file is a few hundred lines; a file or stream longer than
 * this is refused rather than read forever. */
#define SCENARIO_MAX_LINES 100000
/* YCSB properties set in [ycsb] or by -p, in all. */
#define SCENARIO_MAX_YCSB_PROPS 256

typedef struct scheme_choice {
    const char *label;   /* the name reports use; NULL = derive from text */
    const char *text;    /* a preset name or a scheme expression */
    const char *origin;  /* "FILE:LINE" of a file's `key =`, for messages; NULL else */
} scheme_choice;

typedef struct phase phase;

/* Logical reads mixed into a generated workload. */
typedef struct read_mix {
    double fraction;          /* share of operations that are reads, 0..1 */
    uint32_t weight[QUERY_KINDS]; /* relative weights of the kinds (settings read_<kind name>) */
    int weights_given;        /* 0: the pattern's default mix (scenario_read_weights) */
    int get_any;              /* get: 0 = the entity's most recent record, 1 = any of its records */
    uint64_t range_us;        /* range: an entity's last range_us */
    uint32_t latest_rows;     /* latest: an entity's newest N rows */
    uint32_t scan_rows;       /* scan: N rows from the entity's on, in name order */
    uint64_t window_us;       /* window: every entity's last window_us */
    uint64_t metric_us;       /* metric: every series of a metric, its last metric_us */
    int multi_get;            /* range on an osalt key: OpenTSDB's tsd.query.multi_get.enable
                               * (0, its default: every salt bucket scanned) */
} read_mix;

/* The read mix's weights: as set, or, when no read_<kind> was set, the
 * pattern's default: for time series what OpenTSDB users run (metric 8,
 * range 1, latest 1: dashboards scan a metric, drill-downs one series,
 * alerts its newest points), else get, range, latest and window alike. */
void scenario_read_weights(const phase *ph, uint32_t weight[QUERY_KINDS]);

/* One stretch of the workload: a pattern and how long it runs. */
struct phase {
    const char *name;         /* "workload", or NAME of [phase NAME] */
    pattern_config pattern;
    uint64_t duration_us;     /* how long the phase runs ... */
    int duration_given;       /* ... a trace without one runs to its end */
    uint32_t clients;         /* 0: open loop (arrivals at the pattern's times);
                               * C: closed loop, C clients each waiting for its reply */
    uint64_t think_us;        /* closed loop: a client's pause after each reply */
    read_mix reads;
    uint32_t value_bytes;     /* a cell's value, unless the operation sizes its own (YCSB) */
    uint64_t given;           /* which phase settings were set, for this phase or
                               * [workload] (scenario_phase_given) */
};

/* A change to the cluster at a given time ([event NAME] sections). */
typedef enum event_action {
    EVENT_ADD_SERVERS = 0,   /* `servers` new, empty servers join */
    EVENT_DECOMMISSION,      /* server `server` is drained gracefully: its regions move */
    EVENT_FAIL,              /* server `server` dies: its regions are reassigned after
                              * `detection`, then opened elsewhere */
} event_action;

#define SCENARIO_MAX_EVENTS 64

typedef struct cluster_event {
    const char *name;
    uint64_t at_us;
    event_action action;
    uint32_t servers;        /* add: how many */
    uint32_t server;         /* decommission, fail: its id (rs<id>) */
    uint64_t detection_us;   /* fail: until the master notices (ZooKeeper session timeout) */
    int line;                /* where the file defines it ([event NAME]), for messages */
    int at_line;             /* the line of its `at`, for messages */
} cluster_event;

/* A CI assertion ([assert NAME] sections, --assert options): its text as
 * written and where it came from, nothing more. The sim layer does not
 * depend on reports: reports/assertion.h parses the text (and says what is
 * wrong with it; the caller prefixes origin) and checks it on the results. */
#define SCENARIO_MAX_ASSERTIONS 64

typedef struct scenario_assertion {
    const char *name;        /* [assert NAME]'s NAME; NULL for an --assert (named by its text) */
    const char *text;        /* the assertion, e.g. "write_max_mean <= 1.2 for salted" */
    const char *origin;      /* for messages: "FILE:LINE" of its `expect`, or "--assert" */
} scenario_assertion;

/* Which row store the regions keep (core/store.h): `store` setting. */
typedef enum store_mode {
    STORE_MODE_AUTO = 0,  /* exact when the memory estimate fits, else sampled
                           * (budget_resolve_store decides; unresolved: exact) */
    STORE_MODE_EXACT,
    STORE_MODE_SAMPLED,
} store_mode;

/* How the engine runs operations (scenario/weighting.h): `engine` setting. */
typedef enum engine_mode {
    ENGINE_MODE_AUTO = 0, /* per-op when the run is small enough, else weighted */
    ENGINE_MODE_PER_OP,   /* every operation simulated, FIFO server queues */
    ENGINE_MODE_WEIGHTED, /* one generated operation stands for `weight`; fluid queues */
} engine_mode;

/* [advise]: the question `regionsim advise` answers (planners/advise.h), kept
 * in the file with the workload; its options override each one. The
 * budget is checked here; the weights and the fix are the advisor's
 * (sim does not know its weight names or its candidates), so they are
 * kept as text with where they came from, as an [assert]'s text is, and
 * a mistake in them is reported at that FILE:LINE by `regionsim advise`.
 * Other commands carry the section and do not use it. */
#define SCENARIO_ADVISE_MAX_BUDGET 4096
typedef struct scenario_advise {
    uint32_t budget;            /* candidates simulated at most, 1..4096; 0: not set */
    const char *weights;        /* "reads=2,writes=1"; NULL: not set (owned by the scenario) */
    const char *weights_origin; /* "FILE:LINE" of the weights line */
    const char *fix;            /* a key prefix, "osalt(20)"; NULL: not set (owned) */
    const char *fix_origin;     /* "FILE:LINE" of the fix line */
    const char *check_durations;        /* the check's longer runs, "2x,4x"; NULL: not set */
    const char *check_durations_origin; /* "FILE:LINE" */
    const char *check_loads;            /* its higher loads, "2x,3x,4x"; NULL: not set */
    const char *check_loads_origin;
} scenario_advise;

typedef struct scenario {
    const char *name;             /* "default" for the built-in one */
    const char *file;             /* the scenario file loaded, for messages; NULL: none */
    uint64_t seed;
    uint32_t samples;             /* run every scheme with seeds seed .. seed+samples-1 (>= 1;
                                   * the program runs them: cli/cli_checks.h) */
    int samples_given;            /* samples was set (a file or --samples), not the default */
    uint32_t jobs;                /* schemes run at once, in threads; 0: one per core
                                   * available (scenario_jobs); output is the same either way */
    uint64_t max_memory;          /* refuse a run estimated to need more bytes (engine/budget.h);
                                   * 0: none of its own (ulimit and the machine still apply) */
    int window_digest;            /* 1: once a run of more than 32 servers ends, its per-server
                                   * window counters are reduced to a digest and freed
                                   * (engine/windows.h), inside its job; 0 (the default): kept.
                                   * Not a setting: the program sets it when no output of the
                                   * invocation needs them server by server */
    store_mode store;             /* the regions' row store */
    uint32_t sample_keys;         /* the sampled store's capacity, rows a region */
    int store_auto;               /* store was auto, resolved to `store` by
                                   * budget_resolve_store (the reports say so) */
    engine_mode engine;           /* per-op, weighted or auto (scenario/weighting.h) */
    uint64_t weight;              /* weighted: operations one generated op stands for;
                                   * 0: chosen from the run's size (weighting_resolve) */

    /* [cluster] */
    uint32_t servers;
    split_kind split_policy;      /* HBase's split policies (core/split.h) */
    uint64_t region_max_bytes;    /* hbase.hregion.max.filesize, scaled for a short run */
    uint64_t flush_bytes;         /* hbase.hregion.memstore.flush.size; 0 = region size / 80 */
    uint32_t size_scale;          /* HBase's sizes divided by this (sets the two above) */
    uint64_t split_limit;         /* hbase.regionserver.regionSplitLimit */
    double split_jitter;          /* hbase.hregion.max.filesize.jitter */
    split_restriction_kind split_restriction;
    uint32_t split_prefix_length; /* prefix restriction: bytes */
    const char *split_delimiter;  /* delimited restriction: one character */
    balancer_kind balancer;
    double slop;                  /* hbase.regions.slop */
    uint64_t balancer_period_us;  /* HBase's hbase.balancer.period */
    int system_regions;           /* 1: hbase:meta in the cluster (the balancer counts it) */
    uint64_t balancer_phase_us;   /* the balancer's first run (0: drawn from the seed;
                                   * engine/hbase_inputs.c) */
    presplit_kind presplit;
    uint32_t presplit_regions;    /* hex, decimal, uniform: how many regions */
    const char *split_keys;       /* keys in shell form, separated by spaces or commas */
    const char *split_keys_file;  /* a file of keys in shell form, one a line */
    /* where each of the two was set: 0 not set, 1 the scenario file, 2 an
     * option (an option's list or file replaces the file's other one; the
     * same source giving both is refused) */
    unsigned char split_keys_from, split_keys_file_from;
    /* server capacity: service time of an RPC */
    uint64_t rpc_us;              /* per RPC */
    uint64_t row_us;              /* per row read */
    uint64_t kib_us;              /* per KiB written */
    int service_exponential;      /* 0: fixed service times; 1: exponential with that mean */
    uint64_t split_pause_us;      /* a split takes its daughters offline this long */
    uint64_t discharge_us;        /* hbase.hfile.compaction.discharger.interval; 0: unset,
                                   * HBase's 2 min scaled as region_size is (scenario_discharge_us) */
    uint64_t move_pause_us;       /* a move takes its region offline this long */

    /* [workload]: the base of every phase, and the only phase when the
     * scenario has no [phase NAME] sections */
    phase workload;
    size_t nphases;
    phase phases[SCENARIO_MAX_PHASES];
    uint32_t family_bytes, qualifier_bytes;
    uint64_t window_us;           /* report window, when window_auto is 0; read it through
                                   * scenario_window_us */
    int window_auto;              /* window = auto (the default): from the run's length */
    uint64_t measure_from_us;     /* figures count operations issued from here (0: all) */
    int measure_auto;             /* measure_from = auto (the default): from the end of each
                                   * run's warm-up, detected by the engine (engine_warmup.c);
                                   * measure_from_us is then 0 */
    uint32_t key_buckets;         /* rows of the key space x time heatmap */
    uint64_t start_ms;            /* the timestamp at simulated time 0 */

    /* [event NAME] sections, in time order */
    size_t nevents;
    cluster_event events[SCENARIO_MAX_EVENTS];

    /* [assert NAME] sections in file order, then --assert options in theirs */
    size_t nassertions;
    scenario_assertion assertions[SCENARIO_MAX_ASSERTIONS];

    scenario_advise advise;       /* [advise] */

    /* [scheme NAME] sections, or --scheme options */
    size_t nschemes;
    scheme_choice schemes[SCENARIO_MAX_SCHEMES];

    /* YCSB ([workload] ycsb = W or --ycsb W; docs/ycsb.md): the stock
     * workload or property file, then the properties of [ycsb] and -p in
     * the order given; scenario_ycsb_build resolves them into `ycsb` and
     * makes the two phases, load and run */
    const char *ycsb_source;      /* NULL: no YCSB workload */
    size_t nycsb_props;
    struct scenario_ycsb_prop {
        const char *name, *value, *origin; /* origin: "FILE:LINE" or "-p NAME=VALUE" */
    } ycsb_props[SCENARIO_MAX_YCSB_PROPS];
    const struct ycsb_workload *ycsb; /* resolved (owned); NULL before */

    /* strings a loaded file or option owns (labels, expressions, paths) */
    char **owned;
    size_t nowned, owned_cap;
} scenario;

/* The built-in default scenario, with every preset as a scheme. */
void scenario_defaults(scenario *sc);

/* Frees the strings sc owns. */
void scenario_release(scenario *sc);

/* Whether phase setting `key` was set for ph: in its [phase] section, in
 * [workload] (which every phase starts from) or by an option. */
int scenario_phase_given(const phase *ph, const char *key);

/* The pattern a phase runs: its pattern settings plus what the pattern
 * takes from the phase (its read_fraction; for entities the operations
 * it is expected to make, rate x duration). */
void scenario_pattern_config(const phase *ph, pattern_config *out);

/* The phases a run goes through: the [phase] sections, or [workload]. */
size_t scenario_phase_count(const scenario *sc);
const phase *scenario_phase(const scenario *sc, size_t i);

/* Sets the setting `key` (a key of any section, e.g. "servers",
 * "region_size"; docs/scenarios.md lists them) from text. Returns 0; or -1 with
 * "expected ..., found '...'" in err when the value is bad; or -2 when no
 * setting has that key. section, when not NULL, must be the key's section
 * ("" for top-level keys), else -2; a workload key set with section NULL
 * (a command-line option) applies to [workload] and to every phase. */
int scenario_set(scenario *sc, const char *section, const char *key, const char *value,
                 char *err, size_t errcap);

/* A command-line setting option: name "--KEY" with '-' for '_' in KEY
 * ("--region-size"), set by scenario_set(sc, NULL, KEY, value). Returns
 * as scenario_set does: -2 also when name is not "--" and a key of at
 * most 63 characters. */
int scenario_set_option(scenario *sc, const char *name, const char *value, char *err,
                        size_t errcap);

/* Whether the option name ("--KEY", '-' or '_' between KEY's words, as
 * scenario_set_option takes it) names the setting key ("key_buckets"). */
int scenario_option_is(const char *name, const char *key);

/* The option nearest the unknown option `name` (core/nearest.h's distance,
 * within a third of name's length past its dashes, at least 1; 0 for a
 * one-letter name) among `extra` (a command's own options, nextra of them) and
 * every setting's "--KEY" ('-' for '_'; not the file-only `name`) for
 * which keep(option, ctx) is nonzero (keep NULL: every one), written into
 * out (cap bytes); returns out, or NULL when none is near. The first
 * nearest wins a tie, the extras before the settings. For "did you mean". */
const char *scenario_option_nearest(const char *name, const char *const *extra, size_t nextra,
                                    int (*keep)(const char *option, void *ctx), void *ctx,
                                    char *out, size_t cap);

/* A setting as --help and docs/scenarios.md document it: its section ("" for the
 * top level), its key (the option is --KEY with '-' for '_'), what it
 * takes (N, SIZE, D, ...) and one sentence. */
typedef struct setting_doc {
    const char *section, *key, *arg, *help;
    int per_phase;      /* a [phase NAME] may set it too (else: the whole run's) */
} setting_doc;

/* The settings, in the table's order (i < scenario_setting_count()). */
size_t scenario_setting_count(void);
setting_doc scenario_setting_doc(size_t i);

/* Setting `key`'s value in sc ([workload]'s for a phase setting) as a user
 * writes it ("4MiB", "5m", "0.2", "1000/s", "simple"; "" when it is not
 * set: a name or path not given, a read weight when none was (the
 * pattern's mix applies), or a number outside what the setting takes,
 * such as flush_size 0 meaning "region size / 80"), into out (cap bytes).
 * Returns 0, or -1 if no such setting. */
int scenario_format_value(const scenario *sc, const char *key, char *out, size_t cap);

/* The name a choice setting (`key`: "balancer", "split_policy",
 * "pattern", "arrivals", "distribution", ...) gives value, as scenario
 * files and options spell it; "?" if none. The one list of those names. */
const char *scenario_choice_name(const char *key, uint32_t value);

/* Adds a scheme (label may be NULL). Returns 0, or -1 if there are already
 * SCENARIO_MAX_SCHEMES (or out of memory). The strings are borrowed; a
 * NULL label of a text with control bytes (raw bytes in a literal) becomes
 * a copy of the text with them as \xNN, so that reports and the terminal
 * never get them raw. */
int scenario_add_scheme(scenario *sc, const char *label, const char *text);

/* Adds an assertion (name NULL for an --assert; origin: "--assert", or
 * "FILE:LINE"), copying the three strings; options add to a file's
 * assertions. Returns 0, or -1 with a message in err: there are
 * SCENARIO_MAX_ASSERTIONS already, the name is another's, or out of
 * memory. The text is not parsed here: reports/assertion.h's
 * assertion_parse_named does, once the options are in. */
int scenario_add_assertion(scenario *sc, const char *name, const char *text, const char *origin,
                           char *err, size_t errcap);

/* An advise budget ([advise] budget, --budget) from text: a whole number
 * of candidates 1..SCENARIO_ADVISE_MAX_BUDGET, digits only. Returns 0, or
 * -1 with "expected a number of candidates 1..4096, found 'TEXT'" in err
 * (the caller prefixes where it came from). */
int scenario_advise_budget(const char *text, uint32_t *out, char *err, size_t errcap);

/* Loads a scenario file over sc (which should hold the defaults). Returns 0,
 * or -1 with "FILE:LINE: what was wrong" in err; sc may then be partly
 * updated and must only be released. */
int scenario_load(scenario *sc, const char *path, char *err, size_t errcap);

/* The same from text in memory (len bytes; the text need not end in a
 * NUL): path names it in messages and reports and anchors the relative
 * paths it holds, as if the file at path held text (scenario/sweep.c reads a
 * point's text so). */
int scenario_load_text(scenario *sc, const char *path, const char *text, size_t len, char *err,
                       size_t errcap);

/* The compacted-file discharger's period in microseconds: discharge_us
 * when set, else HBase's 2 minutes (HRegionServer,
 * hbase.hfile.compaction.discharger.interval) scaled as the region size is
 * (x region_size / 10 GiB), so that a daughter waits the same share of a
 * region's fill time as in HBase; at least 1. */
uint64_t scenario_discharge_us(const scenario *sc);

/* What an HFile (v3, no data block encoding) adds to a KeyValue: its tags
 * length (2 bytes, written even when there are no tags) and the cell's
 * sequence id as a vlong (1 byte at least; 1 once a compaction has cleared
 * it): NoneEncoder.write, hbase-common. Region sizes are store file sizes
 * (HStore.getSize), so a cell counts what it takes in one. */
#define HFILE_CELL_EXTRA 3

/* A cell's framing, what it takes beyond its row key and value: KeyValue's
 * fixed fields (4 key length + 4 value length + 2 row length + 1 family
 * length + 8 timestamp + 1 type = 20, from HBase's KeyValue layout), the
 * family and qualifier, and HFILE_CELL_EXTRA. */
uint64_t scenario_cell_framing(const scenario *sc);

/* Bytes a cell adds beyond its row key: its framing plus [workload]'s
 * value size (a phase may set its own). */
uint64_t scenario_cell_overhead(const scenario *sc);

/* hbase.hregion.memstore.flush.size in bytes: flush_bytes when set, else
 * the region size / 80 (HBase's 128 MiB to 10 GiB). */
uint64_t scenario_flush_bytes(const scenario *sc);

/* The report window: the one set, or for window = auto (the default) the
 * shortest of 1 min, 5 min, 15 min, 1 h, 6 h and 1 d that cuts the planned
 * run into at most SCENARIO_AUTO_WINDOWS windows (1 min when a trace or an
 * operation count without a duration leaves the length open). */
#define SCENARIO_AUTO_WINDOWS 1440
uint64_t scenario_window_us(const scenario *sc);

/* Resolves scheme i to its expression: a preset name gives the preset with
 * the bucket count set to the number of servers; anything else is taken as
 * an expression. Writes into out; returns 1 if it was a preset, else 0.
 * An expression longer than cap - 1 is cut: use scenario_scheme_text. */
int scenario_scheme_expr(const scenario *sc, size_t i, char *out, size_t cap);

/* The same without a limit on the length: a preset's expression is
 * written into buf (cap >= SCENARIO_PRESET_EXPR, enough for every preset)
 * and buf is returned; anything else is returned as it is (the scheme's
 * own text, of any length). *is_preset (if not NULL) is set to 1 for a
 * preset, else 0. */
#define SCENARIO_PRESET_EXPR 128
const char *scenario_scheme_text(const scenario *sc, size_t i, char *buf, size_t cap,
                                 int *is_preset);

/* The label reports use for scheme i: its label, else its text. */
const char *scenario_scheme_label(const scenario *sc, size_t i);

/* Servers the cluster can have had by the end: the initial ones plus every
 * added one (their ids are 0 .. this - 1). */
uint32_t scenario_max_servers(const scenario *sc);

/* How many of sc's schemes run at once: the jobs setting, or with 0 the
 * cores this process may run on; never more than the schemes, at least 1. */
uint32_t scenario_jobs(const scenario *sc);

/* The split keys of a pre-split by hex, decimal, uniform or keys (none for
 * none and buckets: buckets depend on the scheme). Returns 0 with *keys
 * and *bytes (free both) and *n, or -1 with "what was wrong" in err. */
int scenario_split_keys(const scenario *sc, keyref **keys, uint8_t **bytes, size_t *n,
                        char *err, size_t errcap);

/* Notes YCSB property name = value (from [ycsb] or -p; origin names where,
 * for messages), to apply over the workload's own. Returns 0, or -1 with a
 * message in err (an unknown property, with the nearest known name; too
 * many). */
int scenario_ycsb_property(scenario *sc, const char *name, const char *value,
                           const char *origin, char *err, size_t errcap);

/* With a YCSB workload (ycsb_source), resolves its properties and makes
 * the run's phases: "load" (YCSB's -load: insertcount inserts) and "run"
 * (-t: operationcount operations), each a copy of [workload] with the
 * YCSB pattern, closed-loop with threadcount clients, or open-loop at
 * target ops/s when a target is set. Does nothing without one (a property
 * without a workload is refused). Call it once, after the file and the
 * options, before scenario_validate. Returns 0, or -1 with a message in
 * err ("FILE:LINE: ..." for a bad property in a file). */
int scenario_ycsb_build(scenario *sc, char *err, size_t errcap);

/* Checks cross-field limits and every scheme's syntax. Returns 0, or -1
 * with a message in err naming the setting or scheme and what was wrong. */
int scenario_validate(const scenario *sc, char *err, size_t errcap);

/* The scenario's workload in words, phase by phase ("load: ...; then run:
 * ..."), for the reports' header; NULL when out of memory (free it). */
char *scenario_describe_workload(const scenario *sc);

#endif
