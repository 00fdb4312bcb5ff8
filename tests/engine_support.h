/* engine_support.h -- the short run the engine's tests share
 * (test_engine.c, test_engine_warmup.c). */
#ifndef REGIONSIM_TESTS_ENGINE_SUPPORT_H
#define REGIONSIM_TESTS_ENGINE_SUPPORT_H

#include "engine/engine.h"

/* sc as the defaults, then a 2.5-minute run (the last 1-minute window is
 * half) of 256 KiB regions split at that size (constant: the tests count
 * on the size, not on stepping's first split at 2 flushes), the balancer
 * every minute, measured whole
 * (measure_from = 0: the warm-up's own tests set auto), with one scheme. */
static inline void short_scenario(scenario *sc, const char *scheme)
{
    scenario_defaults(sc);
    sc->workload.duration_us = 150ull * 1000000;
    sc->region_max_bytes = 256 * 1024;
    sc->split_policy = SPLIT_CONSTANT;
    sc->balancer_period_us = 60ull * 1000000;
    sc->measure_auto = 0;
    sc->nschemes = 0;
    scenario_add_scheme(sc, NULL, scheme);
}

#endif
