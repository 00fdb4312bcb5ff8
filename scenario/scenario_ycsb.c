/* scenario_ycsb.c -- a scenario whose workload is a YCSB workload.
 *
 * `ycsb = W` ([workload]) or `--ycsb W` names a stock workload (a .. f) or
 * a YCSB property file; [ycsb] lines and -p options add properties over
 * it, in the order given, as YCSB's Client applies -P then -p. They are
 * only noted while the file and the options are read (so an option can
 * override a file whatever their order on the line); scenario_ycsb_build
 * then resolves them once (workloads/ycsb_workload.h) and turns the
 * scenario into YCSB's two invocations:
 *
 *   load   bin/ycsb load ... : insertcount inserts (CoreWorkload.doInsert)
 *   run    bin/ycsb run ...  : operationcount operations (doTransaction)
 *
 * Each phase is a copy of [workload] (so cluster, report and cell settings
 * apply) with the YCSB pattern. YCSB's Client runs threadcount threads,
 * each waiting for its reply: here threadcount closed-loop clients. With a
 * target it throttles them to target ops/s in all: here an open loop at
 * that rate. A phase runs until its last operation, or for `duration` when
 * one is set (YCSB's maxexecutiontime).
 *
 * A replayed YCSB log (trace_format = ycsb) takes two Client properties
 * the same way: target (its operations' spacing, when no rate is set) and
 * threadcount (closed-loop clients, when no clients are set).
 */
#include "scenario/scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/scenario_impl.h"
#include "workloads/ycsb_workload.h"

/* A property from [ycsb] (origin FILE:LINE) as a file sets it; one from
 * the command line (origin "-p NAME=VALUE") as YCSB's -p: over any file's
 * setting. */
static int set_property(ycsb_properties *props, const char *name, const char *value,
                        const char *origin, char *err, size_t errcap)
{
    if (!strncmp(origin, "-p ", 3))
        return ycsb_properties_set_pair(props, origin + 3, err, errcap);
    return ycsb_properties_set(props, name, value, origin, err, errcap);
}

int scenario_ycsb_property(scenario *sc, const char *name, const char *value,
                           const char *origin, char *err, size_t errcap)
{
    /* Checked now (an unknown name is refused where it is written), kept
     * as text until the workload is resolved. */
    ycsb_properties *check = ycsb_properties_new();
    if (!check) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    int rc = set_property(check, name, value, origin, err, errcap);
    ycsb_properties_free(check);
    if (rc < 0)
        return -1;
    if (sc->nycsb_props == SCENARIO_MAX_YCSB_PROPS) {
        snprintf(err, errcap, "%s: too many YCSB properties (at most %d)", origin,
                 SCENARIO_MAX_YCSB_PROPS);
        return -1;
    }
    struct scenario_ycsb_prop *p = &sc->ycsb_props[sc->nycsb_props];
    p->name = scenario_own(sc, name);
    p->value = scenario_own(sc, value);
    p->origin = scenario_own(sc, origin);
    if (!p->name || !p->value || !p->origin) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    sc->nycsb_props++;
    return 0;
}

/* The properties: the workload's (stock or file), then the overrides. */
static ycsb_properties *collect_properties(const scenario *sc, char *err, size_t errcap)
{
    ycsb_properties *props = ycsb_properties_new();
    if (!props) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    const char *src = sc->ycsb_source;
    int rc = 0;
    if (src && ycsb_builtin_exists(src))
        rc = ycsb_properties_load_builtin(props, src);
    else if (src && (rc = ycsb_properties_load_file(props, src, err, errcap)) < 0 &&
             !strchr(src, '/') && access(src, F_OK) != 0) {
        size_t used = strlen(err); /* a name, not a file: perhaps a stock one misspelt */
        snprintf(err + used, errcap - used, " (the stock workloads are a .. f)");
    }
    for (size_t i = 0; rc == 0 && i < sc->nycsb_props; i++) {
        const struct scenario_ycsb_prop *p = &sc->ycsb_props[i];
        rc = set_property(props, p->name, p->value, p->origin, err, errcap);
    }
    if (rc < 0) {
        ycsb_properties_free(props);
        return NULL;
    }
    return props;
}

/* A resolve error about a property no line set ("operationcount: ... it
 * is not set") gets "ycsb: " before it, so that every message says where
 * it comes from; one naming its origin (FILE:LINE, -p) stays as it is. */
static void name_the_workload(char *err, size_t errcap)
{
    size_t n = strspn(err, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._");
    size_t len = strlen(err);
    if (n == 0 || strncmp(err + n, ": ", 2) != 0 || len + 7 > errcap)
        return;
    /* (a memmove here set off a false -Warray-bounds in gcc 12's
     * sanitizer builds without -fno-sanitize-recover) */
    for (size_t i = len + 1; i-- > 0;)
        err[i + 6] = err[i];
    memcpy(err, "ycsb: ", 6);
}

/* Phase `name` of the workload w: a copy of [workload] with YCSB's pattern. */
static void make_phase(scenario *sc, phase *ph, const char *name, ycsb_phase_kind which,
                       const ycsb_workload *w)
{
    *ph = sc->workload;
    ph->name = name;
    ph->pattern.kind = PATTERN_YCSB;
    ph->pattern.ycsb = w;
    ph->pattern.ycsb_phase = which;
    ph->pattern.ycsb_rate_per_s = w->target;
    /* Client.main: "if (threadcount > opcount && opcount > 0) threadcount =
     * opcount" (its load's opcount: insertcount here). */
    uint64_t ops = pattern_operations(&ph->pattern);
    uint64_t threads = (uint64_t)w->threadcount < ops || ops == 0 ? (uint64_t)w->threadcount : ops;
    ph->clients = w->target > 0 ? 0 : (uint32_t)threads;
    ph->think_us = 0;
    if (w->maxexecutiontime > 0 && !ph->duration_given) { /* Client's time limit */
        ph->duration_us = (uint64_t)w->maxexecutiontime * 1000000u;
        ph->duration_given = 1;
    }
}

/* A replayed YCSB log: YCSB's target spaces its operations unless a rate
 * is set; else threadcount closed-loop clients (YCSB's default, 1) replay
 * it unless clients are set. w is NULL when no property was given. */
static void apply_to_log_replays(scenario *sc, const ycsb_workload *w)
{
    size_t n = sc->nphases ? sc->nphases : 1;
    for (size_t i = 0; i < n; i++) {
        phase *ph = sc->nphases ? &sc->phases[i] : &sc->workload;
        if (ph->pattern.kind != PATTERN_TRACE || !ph->pattern.trace_ycsb ||
            scenario_phase_given(ph, "rate"))
            continue;
        if (w && w->target > 0)
            ph->pattern.trace_interval_us = (uint64_t)(1e6 / w->target + 0.5);
        else if (!scenario_phase_given(ph, "clients"))
            ph->clients = w ? (uint32_t)w->threadcount : 1;
    }
}

static int replays_ycsb_log(const scenario *sc)
{
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const pattern_config *c = &scenario_phase(sc, i)->pattern;
        if (c->kind == PATTERN_TRACE && c->trace_ycsb)
            return 1;
    }
    return 0;
}

int scenario_ycsb_build(scenario *sc, char *err, size_t errcap)
{
    int log = !sc->ycsb_source && replays_ycsb_log(sc);
    if (log && sc->nycsb_props == 0) {
        apply_to_log_replays(sc, NULL);
        return 0;
    }
    if (!sc->ycsb_source && sc->nycsb_props == 0)
        return 0;
    if (!sc->ycsb_source && !log) {
        snprintf(err, errcap, "%s: a YCSB property needs a YCSB workload (--ycsb W, or "
                 "ycsb = W in [workload]) or a YCSB log to replay (--trace-format ycsb)",
                 sc->ycsb_props[0].origin);
        return -1;
    }
    if (sc->ycsb_source && sc->nphases) {
        snprintf(err, errcap, "ycsb: a YCSB workload makes its own phases (load, then run); "
                 "found [phase %s]", sc->phases[0].name);
        return -1;
    }
    ycsb_properties *props = collect_properties(sc, err, errcap);
    if (!props)
        return -1;
    /* A log replay reads only target and threadcount; operationcount,
     * which a workload must set, is the log's length. */
    if (log && ycsb_properties_set(props, "operationcount", "1", "a YCSB log", err, errcap) < 0) {
        ycsb_properties_free(props);
        return -1;
    }
    ycsb_workload *w = scenario_own_block(sc, sizeof *w);
    int rc = w ? ycsb_workload_resolve(props, w, err, errcap) : -1;
    if (!w)
        snprintf(err, errcap, "out of memory");
    ycsb_properties_free(props);
    if (rc < 0) {
        name_the_workload(err, errcap);
        return -1;
    }
    sc->ycsb = w;
    if (log) {
        apply_to_log_replays(sc, w);
        return 0;
    }
    make_phase(sc, &sc->phases[0], "load", YCSB_PHASE_LOAD, w);
    make_phase(sc, &sc->phases[1], "run", YCSB_PHASE_RUN, w);
    sc->nphases = 2;
    return 0;
}
