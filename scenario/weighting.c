/* weighting.c -- per-op or weighted, and the weight (weighting.h). */
#include "scenario/weighting.h"

#include <math.h>
#include <stdio.h>

#include "workloads/pattern.h"

/* Why phase ph cannot be weighted, or NULL. */
static const char *phase_unweightable(const phase *ph)
{
    if (ph->clients)
        return "a closed-loop phase (clients wait for their replies)";
    if (!pattern_can_weight(&ph->pattern)) {
        switch (ph->pattern.kind) {
        case PATTERN_TRACE:
            return "a trace (its operations are replayed one by one)";
        case PATTERN_YCSB:
            return "a YCSB phase (its operation count is YCSB's)";
        default:
            return "a time series with jitter";
        }
    }
    return NULL;
}

static double phase_ops(const phase *ph)
{
    const pattern_config *c = &ph->pattern;
    double d = (double)ph->duration_us;
    switch (c->kind) {
    case PATTERN_TIMESERIES:
        return (double)c->metrics * c->hosts * c->tags * ceil(d / (double)c->interval_us);
    case PATTERN_ENTITIES:
    case PATTERN_SEQUENCE:
        return c->rate_per_s * d / 1e6;
    default:
        return 0;
    }
}

double weighting_expected_ops(const scenario *sc)
{
    double ops = 0;
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        if (ph->clients || !pattern_can_weight(&ph->pattern))
            return 0;
        ops += phase_ops(ph);
    }
    return ops;
}

/* The weight for `ops` operations (the top comment of weighting.h). */
static uint64_t chosen_weight(const scenario *sc, double ops)
{
    double planned = 0;
    for (size_t i = 0; i < scenario_phase_count(sc); i++)
        planned += (double)scenario_phase(sc, i)->duration_us;
    double windows = ceil(planned / (double)scenario_window_us(sc));
    double events = (double)scenario_max_servers(sc) * windows * WEIGHT_EVENTS_PER_CELL;
    events = events < WEIGHT_EVENTS_MIN ? WEIGHT_EVENTS_MIN
             : events > WEIGHT_EVENTS_MAX ? WEIGHT_EVENTS_MAX : events;
    double w = ceil(ops / events);
    return w < 1 ? 1 : w > 1000000 ? 1000000 : (uint64_t)w;
}

/* w made to suit every phase: the first time series' stride
 * (pattern_weight_stride), then the next w coprime with every time
 * series' series count. */
static uint64_t stride_for_phases(const scenario *sc, uint64_t w)
{
    size_t n = scenario_phase_count(sc);
    for (size_t i = 0; i < n; i++)
        if (scenario_phase(sc, i)->pattern.kind == PATTERN_TIMESERIES) {
            w = pattern_weight_stride(&scenario_phase(sc, i)->pattern, w);
            break;
        }
    for (int ok = 0; !ok && w > 1; w += !ok) {
        ok = 1;
        for (size_t i = 0; i < n; i++) {
            if (!pattern_weight_fits(&scenario_phase(sc, i)->pattern, w))
                ok = 0;
        }
    }
    return w;
}

/* The largest weight auto gives: a weighted put carries w cells' bytes at
 * once, so w is kept to where a memstore flush still holds
 * WEIGHT_PUTS_PER_FLUSH puts (a cell taken at its value and framing, the
 * key left out: the bound is generous). Past it a region's size, its
 * flushes and so its splits move in steps of a sizable share of a flush:
 * 1 KiB regions at w = 18 grew half the regions per-op does. 64 rather
 * than 16 since splits follow SteppingSplitPolicy by default: web.ini's
 * 1 MiB regions at w = 20 (15 weighted puts a flush) put revdomain's
 * busiest server at 2.69 times the mean, against 1.15 per-op; at w = 5,
 * 1.25. */
static uint64_t largest_weight(const scenario *sc)
{
    uint64_t cell = scenario_cell_overhead(sc);
    if (cell == 0)
        cell = 1;
    uint64_t most = scenario_flush_bytes(sc) / (WEIGHT_PUTS_PER_FLUSH * cell);
    for (size_t i = 0; i < scenario_phase_count(sc); i++)
        if (scenario_phase(sc, i)->reads.fraction > 0 && most > WEIGHT_READS_MAX)
            most = WEIGHT_READS_MAX; /* reads' rows scanned grow with w (weighting.h) */
    return most;
}

int weighting_resolve(const scenario *sc, int watched, weighting *out, char *err, size_t errcap)
{
    *out = (weighting){ 0, 1, 0, NULL };
    if (sc->engine == ENGINE_MODE_PER_OP)
        return 0;
    int forced = sc->engine == ENGINE_MODE_WEIGHTED || sc->weight > 0;
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        const char *why = phase_unweightable(ph);
        if (why && forced) {
            snprintf(err, errcap, "engine = weighted: phase %s is %s; the weighted engine needs "
                     "an open-loop time series without jitter, entities or sequence (use "
                     "engine = per-op or auto)", ph->name, why);
            return -1;
        }
        if (why) {
            out->why = "a phase the weighted engine cannot run";
            return 0;
        }
    }
    if (watched) {
        if (forced) {
            snprintf(err, errcap, "engine = weighted: every operation is written out (a trace "
                     "or a key listing), but the weighted engine makes one in `weight`; use "
                     "engine = per-op");
            return -1;
        }
        out->why = "every operation is written out";
        return 0;
    }
    out->ops = weighting_expected_ops(sc);
    if (!forced && out->ops <= WEIGHT_AUTO_PER_OP_OPS) {
        out->why = "small enough to simulate every operation";
        return 0;
    }
    uint64_t w = sc->weight;
    if (!w) {
        w = chosen_weight(sc, out->ops);
        uint64_t most = largest_weight(sc);
        if (most < 2) {
            out->why = "its flushes are too small for a weighted put (a put stands for a "
                       "whole flush)";
            return 0;
        }
        if (w > most)
            w = most;
    }
    out->weighted = 1;
    out->weight = stride_for_phases(sc, w);
    return 0;
}
