/* scenario.c -- the built-in default scenario and scenario checks.
 *
 * The default is sized for a classroom: 8 servers, 1,000 series writing
 * once a second for 30 simulated minutes, and regions that split at 4 MiB
 * (HBase's default hbase.hregion.max.filesize is 10 GiB; shrinking it is
 * what lets a run of a few seconds show the splits and balancer moves a
 * real table shows over days). The balancer period is HBase's default,
 * hbase.balancer.period = 300000 ms.
 */
#include "sim/scenario.h"

#include <stdio.h>
#include <string.h>

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
    sc->region_max_bytes = 4 * MIB;
    sc->balancer = BALANCER_REGION_COUNT;
    sc->balancer_period_us = 5 * MINUTE_US;
    sc->presplit = PRESPLIT_BUCKETS;
    sc->series.metrics = 50;
    sc->series.hosts = 20;
    sc->series.interval_us = SECOND_US;
    sc->series.start_ms = 1704067200000ull; /* 2024-01-01T00:00:00Z */
    /* OpenTSDB's cell: family "t", a 2-byte qualifier, an 8-byte value. */
    sc->family_bytes = 1;
    sc->qualifier_bytes = 2;
    sc->value_bytes = 8;
    sc->duration_us = 30 * MINUTE_US;
    sc->window_us = MINUTE_US;
    for (size_t i = 0; i < keyscheme_preset_count() && i < SCENARIO_MAX_SCHEMES; i++)
        sc->schemes[sc->nschemes++] = keyscheme_preset_name(i);
}

uint64_t scenario_cell_overhead(const scenario *sc)
{
    return 20ull + sc->family_bytes + sc->qualifier_bytes + sc->value_bytes;
}

int scenario_scheme_expr(const scenario *sc, size_t i, char *out, size_t cap)
{
    if (keyscheme_preset_expr(sc->schemes[i], sc->servers, out, cap) == 0)
        return 1;
    snprintf(out, cap, "%s", sc->schemes[i]);
    return 0;
}

static int fail(char *err, size_t cap, const char *what)
{
    snprintf(err, cap, "%s", what);
    return -1;
}

int scenario_validate(const scenario *sc, char *err, size_t errcap)
{
    if (sc->servers < 1 || sc->servers > 100000)
        return fail(err, errcap, "servers: expected 1 to 100000");
    if (sc->region_max_bytes < 1024)
        return fail(err, errcap, "region size: expected at least 1 KiB");
    if (sc->balancer != BALANCER_NONE && sc->balancer_period_us == 0)
        return fail(err, errcap, "balancer period: expected more than 0");
    if (sc->window_us == 0 || sc->duration_us == 0)
        return fail(err, errcap, "window and duration: expected more than 0");
    if (sc->duration_us / sc->window_us > 1000000)
        return fail(err, errcap, "window: at most 1,000,000 windows per run");
    if (sc->series.metrics < 1 || sc->series.hosts < 1 ||
        (uint64_t)sc->series.metrics * sc->series.hosts > UINT32_MAX)
        return fail(err, errcap, "series: metrics x hosts must be 1 to 4294967295");
    if (sc->series.interval_us == 0)
        return fail(err, errcap, "interval: expected more than 0");
    if (sc->nschemes == 0)
        return fail(err, errcap, "schemes: expected at least one");
    for (size_t i = 0; i < sc->nschemes; i++) {
        char expr[1024], why[512];
        keyscheme *ks;
        scenario_scheme_expr(sc, i, expr, sizeof expr);
        if (keyscheme_parse(expr, &ks, why, sizeof why) < 0) {
            snprintf(err, errcap, "scheme '%s': %s", sc->schemes[i], why);
            return -1;
        }
        keyscheme_free(ks);
    }
    return 0;
}
