/* scenario_check.c -- what needs the whole scenario: the checks across
 * settings (scenario_validate), the servers over the run, the split keys.
 *
 * A value is checked against its own range when it is set (the settings
 * table, scenario.c) and a file's structure when it is read
 * (scenario_file.c). What is left needs several settings at once, or the
 * whole run, so it is checked here, once, after the default, the file and
 * the options have all been applied (an option can mend a file's value).
 * scenario_validate goes in this order and stops at the first problem,
 * reported as one message naming the setting, phase, event or scheme:
 *  - the run's size: the operations of every open-loop phase against what
 *    the exact row store can keep in memory (2^32);
 *  - each phase: its pattern, built once (pattern_new checks its numbers);
 *    its reads against its pattern; a closed loop replaying a trace needs
 *    a duration; at most 1,000,000 report windows;
 *  - measure_from against the end of the run, balancer_phase against
 *    balancer_period, the servers events add
 *    against SCENARIO_MAX_SERVERS, and every event against the end of the
 *    run (when it is known: a trace replayed to its end does not know it);
 *  - the pre-split keys, made or read once (scenario_split_keys, which
 *    the engine calls again for the run);
 *  - split restrictions, and each scheme's syntax (keyscheme_parse; a
 *    scheme that is a misspelt preset is told the preset's name);
 *  - multi_get where it has an effect: range reads on OpenTSDB's salted key.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT: the cores this process may use */
#include "scenario/scenario.h"

#include <assert.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/presplit.h"
#include "scenario/scenario_impl.h"
#include "scenario/units.h"
#include "scenario/weighting.h"
#include "workloads/keyscheme.h"

static int fail(char *err, size_t cap, const char *what)
{
    snprintf(err, cap, "%s", what);
    return -1;
}

static int phase_problem(const scenario *sc, const phase *ph, char *err, size_t errcap)
{
    char why[160];
    pattern_config c;
    scenario_pattern_config(ph, &c);
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

/* The cores this process may run on: its CPU affinity (a container or
 * taskset may allow fewer than the machine has), else those online. */
static uint64_t cores_available(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (uint64_t)CPU_COUNT(&set);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (uint64_t)online : 1;
}

uint32_t scenario_jobs(const scenario *sc)
{
    uint64_t jobs = sc->jobs;
    if (jobs == 0)
        jobs = cores_available();
    if (jobs > sc->nschemes)
        jobs = sc->nschemes;
    return jobs ? (uint32_t)jobs : 1;
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
    escape_text(sc->file ? sc->file : "", 160, where, sizeof where);
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
    case PATTERN_YCSB: /* bounded by its operationcount, checked when it is resolved */
        return 0;
    }
    return 0;
}

/* The exact row store keeps every row in memory (about key + 14 bytes a
 * row): a run of more than 2^32 operations would not fit a machine this
 * simulator is meant for, so it is refused before it starts rather than
 * ended by the kernel half way. */
#define MAX_OPERATIONS 4294967296.0

/* Settings that shape generated operations. A trace brings its own
 * operations, times and keys, and a YCSB workload makes them by its own
 * properties, so none of them has an effect on either: the one list of
 * them. A YCSB workload also sets its own reads and clients. */
static const char *const generator_settings[] = {
    "metrics", "hosts", "tags", "interval", "jitter", "rate", "arrivals", "distribution",
    "records", "insert_fraction", "naming", "read_fraction", "clients", "think",
};

/* Why `key`, a generator setting, has no effect on phase ph; NULL when
 * it has one. read_fraction, clients and think act on traces (the first
 * is refused on its own), rate on a YCSB log (it has no times). */
static const char *no_effect_because(const phase *ph, const char *key)
{
    const pattern_config *c = &ph->pattern;
    if (c->kind == PATTERN_YCSB)
        return "a YCSB workload: its properties give the operations, keys, reads and threads "
               "(-p NAME=VALUE; docs/ycsb.md)";
    if (c->kind != PATTERN_TRACE || !strcmp(key, "read_fraction") || !strcmp(key, "clients") ||
        !strcmp(key, "think") || (c->trace_ycsb && !strcmp(key, "rate")))
        return NULL;
    return "a trace replay (the trace gives the operations, their times and keys)";
}

/* A generator setting set where it has no effect is refused, not silently
 * ignored: set in the phase's own section, or in [workload] (or as an
 * option, which sets it there and in every phase) when no phase uses it.
 * Returns 0, or -1 with err naming the setting. */
static int settings_without_effect(const scenario *sc, char *err, size_t errcap)
{
    for (size_t k = 0; k < sizeof generator_settings / sizeof *generator_settings; k++) {
        const char *key = generator_settings[k];
        int everywhere = scenario_phase_given(&sc->workload, key);
        const char *why = NULL;
        size_t used = 0;
        for (size_t i = 0; i < scenario_phase_count(sc); i++) {
            const phase *ph = scenario_phase(sc, i);
            const char *because = no_effect_because(ph, key);
            used += because == NULL;
            if (because && !why)
                why = because;
            if (because && !everywhere && scenario_phase_given(ph, key)) {
                snprintf(err, errcap, "%s: %s has no effect on %s", ph->name, key, because);
                return -1;
            }
        }
        if (everywhere && used == 0) {
            snprintf(err, errcap, "%s: has no effect on %s", key, why);
            return -1;
        }
    }
    return 0;
}

/* multi_get = true changes only range reads on OpenTSDB's salted key
 * (keyscheme_opentsdb_salted): set where no scheme is one, or in a phase
 * without range reads, it has no effect, and is refused (false, the
 * default, states what happens anyway). */
static int multi_get_problem(const scenario *sc, size_t tsdb_salted, char *err, size_t errcap)
{
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        if (!ph->reads.multi_get)
            continue;
        uint32_t weight[QUERY_KINDS];
        scenario_read_weights(ph, weight);
        const char *why = !tsdb_salted ? "no scheme is OpenTSDB's salted key (osalt(N) on hour(ts) "
                                         "rows, as opentsdb-salted)"
                          : ph->reads.fraction <= 0 || !weight[QUERY_RANGE]
                              ? "the phase has no range reads (read_fraction, read_range)"
                              : NULL;
        if (why) {
            snprintf(err, errcap, "%s: multi_get has no effect: %s", ph->name, why);
            return -1;
        }
    }
    return 0;
}

int scenario_validate(const scenario *sc, char *err, size_t errcap)
{
    assert(sc->samples >= 1);
    if (sc->seed > UINT64_MAX - (sc->samples - 1)) {
        snprintf(err, errcap, "samples: %" PRIu32 " samples from seed %" PRIu64 " would need "
                 "seeds past 2^64-1 (18446744073709551615): lower the seed or the samples",
                 sc->samples, sc->seed);
        return -1;
    }
    if (sc->engine == ENGINE_MODE_PER_OP && sc->weight > 0) {
        snprintf(err, errcap, "weight: %" PRIu64 " with engine = per-op: a weight is the "
                 "weighted engine's (engine = weighted or auto)", sc->weight);
        return -1;
    }
    double operations = 0;
    for (size_t i = 0; i < scenario_phase_count(sc); i++)
        operations += phase_operations(scenario_phase(sc, i));
    weighting wt; /* the weighted engine simulates one operation in w */
    char ignored[8];
    if (weighting_resolve(sc, 0, &wt, ignored, sizeof ignored) == 0 && wt.weighted)
        operations /= (double)wt.weight;
    if (operations > MAX_OPERATIONS) {
        snprintf(err, errcap, "the workload would issue about %.3g operations, more than "
                 "4294967296 (2^32), beyond what the exact row store keeps in memory: "
                 "shorten the duration or the workload", operations);
        return -1;
    }
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        /* Entities choose reads, updates and inserts as YCSB does: both
         * fractions are shares of all operations, updates the rest. */
        if (ph->pattern.kind == PATTERN_ENTITIES &&
            ph->reads.fraction + ph->pattern.insert_fraction > 1 + 1e-9) {
            snprintf(err, errcap, "read_fraction: %.6g and insert_fraction %.6g%s%s add up to "
                     "more than 1: both are shares of all operations (updates are the rest)",
                     ph->reads.fraction, ph->pattern.insert_fraction,
                     sc->nphases ? " in phase " : "", sc->nphases ? ph->name : "");
            return -1;
        }
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
        if (ph->duration_us / scenario_window_us(sc) > 1000000) {
            snprintf(err, errcap, "%s: at most 1,000,000 report windows per phase", ph->name);
            return -1;
        }
    }
    if (settings_without_effect(sc, err, errcap) < 0)
        return -1;
    uint64_t planned = 0;
    int known = 1;
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        known &= ph->pattern.kind != PATTERN_TRACE || ph->duration_given;
        planned += ph->duration_us;
    }
    if (known && !sc->measure_auto && sc->measure_from_us >= planned) {
        char from[32], len[32];
        units_format_duration(sc->measure_from_us, from, sizeof from);
        units_format_duration(planned, len, sizeof len);
        snprintf(err, errcap, "measure_from: %s is not before the end of the run (%s): "
                 "nothing would be measured", from, len);
        return -1;
    }
    if (sc->balancer_phase_us > sc->balancer_period_us) {
        char phase[32], period[32];
        units_format_duration(sc->balancer_phase_us, phase, sizeof phase);
        units_format_duration(sc->balancer_period_us, period, sizeof period);
        snprintf(err, errcap, "balancer_phase: %s is longer than balancer_period (%s): the "
                 "balancer's first run falls within its first period", phase, period);
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
    size_t tsdb_salted = 0; /* schemes whose range reads multi_get changes */
    for (size_t i = 0; i < sc->nschemes; i++) {
        char buf[SCENARIO_PRESET_EXPR], why[512], label[SHOWN + 1], reason[512];
        keyscheme *ks;
        const char *near;
        int is_preset;
        const char *expr = scenario_scheme_text(sc, i, buf, sizeof buf, &is_preset);
        if (keyscheme_parse(expr, &ks, why, sizeof why) < 0) {
            escape_text(scenario_scheme_label(sc, i), 60, label, sizeof label);
            escape_text(why, sizeof reason - 1, reason, sizeof reason);
            /* a file's scheme: at the line of its `key =` */
            const char *origin = sc->schemes[i].origin;
            int at = origin ? snprintf(err, errcap, "%s: ", origin) : 0;
            size_t off = at > 0 && (size_t)at < errcap ? (size_t)at : 0;
            if (is_preset)
                snprintf(err + off, errcap - off, "scheme '%s' (the preset with one bucket per "
                         "server, servers = %u: %s): %s", label, sc->servers, expr, reason);
            else if ((near = keyscheme_preset_nearest(expr)) != NULL)
                snprintf(err + off, errcap - off, "scheme '%s': %s (did you mean the preset "
                         "'%s'?)", label, reason, near);
            else
                snprintf(err + off, errcap - off, "scheme '%s': %s", label, reason);
            return -1;
        }
        tsdb_salted += keyscheme_opentsdb_salted(ks);
        keyscheme_free(ks);
    }
    return multi_get_problem(sc, tsdb_salted, err, errcap);
}
