/* budget_check.c -- whether a run's estimate fits the limit, and the
 * message when it does not.
 *
 * budget_check compares the whole estimate, plus what the process already
 * uses of the limit, with the limit. When the run does not fit, the
 * message says about how much it would need, the largest part of the
 * estimate in words (what it counts: rows of a size, regions, windows x
 * servers, ...), the limit and where it comes from, and the settings to
 * change for that part (for the store, those of the load of the phase
 * that stores the most), adding --max-memory where the limit is
 * --max-memory or the physical memory. budget_admit chains the estimate
 * (budget.c), the limit (budget_limit.c) and the check for
 * engine_run_all; budget_format_size writes sizes in binary units.
 *
 * Design. Only the largest part is named, with one piece of advice: a
 * message short enough to act on, at the price of not saying what the
 * other parts need; a run still too large after the change is told about
 * its next largest part then.
 */
#include "engine/budget_impl.h"

#include <stdio.h>
#include <stdlib.h>

#include "workloads/pattern.h"

/* ---- the verdict ---- */

void budget_format_size(double bytes, char *out, size_t cap)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    size_t u = 0;
    while (bytes >= 1023.5 && u + 1 < sizeof units / sizeof *units) {
        bytes /= 1024;
        u++;
    }
    if (u == 0 || bytes >= 99.95)
        snprintf(out, cap, "%.0f %s", bytes, units[u]);
    else
        snprintf(out, cap, "%.3g %s", bytes, units[u]);
}

/* What part p counts, in words, into out. */
static void part_detail(const budget_estimate *e, int p, char *out, size_t cap)
{
    char size[32];
    switch ((budget_part)p) {
    case BUDGET_STORE:
        if (e->sample_keys) {
            snprintf(out, cap, "about %.0f regions x %u sampled rows in the sampled store",
                     e->regions, (unsigned)e->sample_keys);
            return;
        }
        budget_format_size(e->row_bytes, size, sizeof size);
        snprintf(out, cap, "%.0f rows of about %s in the store", e->rows, size);
        return;
    case BUDGET_IN_FLIGHT:
        snprintf(out, cap, "%.0f operations waiting for their replies", e->in_flight);
        return;
    case BUDGET_REGIONS:
        snprintf(out, cap, "about %.0f regions", e->regions);
        return;
    case BUDGET_SERVERS:
        snprintf(out, cap, "%.0f servers", e->servers);
        return;
    case BUDGET_WINDOWS:
        snprintf(out, cap, "%.0f report windows x %.0f servers of counters", e->windows,
                 e->servers);
        return;
    case BUDGET_KEYSPACE:
        snprintf(out, cap, "%.0f report windows of key samples and %.0f key buckets",
                 e->windows, e->key_buckets);
        return;
    case BUDGET_TRUTH:
        if (16 * e->entity_ids > TRUTH_WRITE * e->tracked)
            snprintf(out, cap, "a slot for each of %.0f entity ids, to score reads against",
                     e->entity_ids);
        else
            snprintf(out, cap, "%.0f writes kept to score reads against", e->tracked);
        return;
    case BUDGET_NAMES:
        snprintf(out, cap, "UID tables of %.0f names", e->names);
        return;
    case BUDGET_BALANCER:
        snprintf(out, cap, "%.0f balancer runs", e->balancer_runs);
        return;
    case BUDGET_WORKLOAD:
        snprintf(out, cap, "the jitter queue of %.0f series", e->series);
        return;
    case BUDGET_REPORT:
        snprintf(out, cap, "the report of %.0f report windows x %.0f servers", e->windows,
                 e->servers);
        return;
    case BUDGET_PARTS:
        break;
    }
    snprintf(out, cap, "?");
}

/* What to lower (or raise) for the load of the phase that stores most. */
static const char *load_advice(const budget_estimate *e)
{
    if (e->store_closed)
        return "lower --clients or --duration, or raise --think";
    switch (e->store_kind) {
    case PATTERN_TIMESERIES:
        return "lower --duration, --metrics or --hosts, or raise --interval";
    case PATTERN_ENTITIES:
    case PATTERN_SEQUENCE:
        return "lower --rate or --duration";
    case PATTERN_TRACE:
        return "replay a shorter trace or set a shorter --duration";
    case PATTERN_YCSB:
        return "lower -p recordcount or -p operationcount";
    default:
        return "lower --duration";
    }
}

static const char *part_advice(const budget_estimate *e, int p)
{
    switch ((budget_part)p) {
    case BUDGET_STORE:
        if (e->sample_keys)
            return "lower --sample-keys, or raise --region-size (fewer regions)";
        return load_advice(e);
    case BUDGET_IN_FLIGHT:
        return e->store_kind == PATTERN_TIMESERIES
                   ? "the servers cannot keep up, so operations queue: lower --duration, "
                     "--metrics or --hosts, or raise --interval"
                   : "the servers cannot keep up, so operations queue: lower --rate or "
                     "--duration";
    case BUDGET_REGIONS:
        return "raise --region-size (or lower --size-scale), or lower --duration";
    case BUDGET_SERVERS:
        return "use fewer servers (--servers, and those events add)";
    case BUDGET_WINDOWS:
        return "use a longer --window, or fewer servers";
    case BUDGET_KEYSPACE:
        return "use a longer --window or fewer --key-buckets";
    case BUDGET_TRUTH:
        return "lower --records, --rate or --duration, or set --read-fraction 0";
    case BUDGET_NAMES:
        return "lower --records, --rate or --duration";
    case BUDGET_BALANCER:
        return "use a longer --balancer-period";
    case BUDGET_WORKLOAD:
        return "lower --metrics, --hosts or --tags, or set --jitter 0";
    case BUDGET_REPORT:
        return "use a longer --window, fewer servers or fewer --key-buckets";
    case BUDGET_PARTS:
        break;
    }
    return "lower --duration";
}

int budget_check(const budget_estimate *e, const budget_limit *lim, char *err, size_t errcap)
{
    if (lim->source == BUDGET_NO_LIMIT)
        return 0;
    double available = (double)lim->bytes - (double)lim->in_use;
    if (e->bytes <= available)
        return 0;
    int top = 0;
    for (int p = 1; p < BUDGET_PARTS; p++)
        if (e->part[p] > e->part[top])
            top = p;
    char need[32], limit[32], detail[160], whose[96];
    budget_format_size(e->bytes, need, sizeof need);
    budget_format_size((double)lim->bytes, limit, sizeof limit);
    part_detail(e, top, detail, sizeof detail);
    switch (lim->source) {
    case BUDGET_MAX_MEMORY:
        snprintf(whose, sizeof whose, "the %s --max-memory allows", limit);
        break;
    case BUDGET_ULIMIT_V:
        snprintf(whose, sizeof whose, "the %s this process may use (ulimit -v)", limit);
        break;
    case BUDGET_ULIMIT_D:
        snprintf(whose, sizeof whose, "the %s this process may use (ulimit -d)", limit);
        break;
    default:
        snprintf(whose, sizeof whose, "the %s of memory this machine has", limit);
        break;
    }
    char jobs[96] = "";
    if (e->jobs > 1)
        snprintf(jobs, sizeof jobs, ", with %u schemes running at once (fewer --jobs need less)",
                 (unsigned)e->jobs);
    snprintf(err, errcap, "the run would need about %s (%s%s): more than %s; %s%s", need, detail,
             jobs, whose, part_advice(e, top),
             lim->source == BUDGET_MAX_MEMORY ? ", or raise --max-memory"
             : lim->source == BUDGET_PHYSICAL ? ", or set --max-memory to run it anyway"
             : "");
    return -1;
}

/* The estimate of sc run with store mode m and, if jobs is not 0, that many
 * runs at once (--jobs). */
static void estimate_with(const scenario *sc, store_mode m, uint32_t jobs, budget_estimate *e)
{
    scenario *copy = malloc(sizeof *copy);
    if (!copy) { /* estimate sc as it is: the run will meet the same shortage */
        budget_estimate_run(sc, e);
        return;
    }
    *copy = *sc;
    copy->store = m;
    if (jobs)
        copy->jobs = jobs;
    budget_estimate_run(copy, e);
    free(copy);
}

static int fits(const budget_estimate *e, const budget_limit *lim)
{
    return lim->source == BUDGET_NO_LIMIT ||
           e->bytes <= (double)lim->bytes - (double)lim->in_use;
}

void budget_resolve_store(scenario *sc, double *exact_bytes)
{
    if (sc->store != STORE_MODE_AUTO && !exact_bytes)
        return;
    /* One run at a time: the choice, and so the output, must not depend on
     * --jobs or on the cores (budget_fit_jobs lowers the jobs instead). */
    budget_estimate e;
    estimate_with(sc, STORE_MODE_EXACT, 1, &e);
    if (exact_bytes)
        *exact_bytes = e.bytes;
    if (sc->store != STORE_MODE_AUTO)
        return;
    budget_limit lim = budget_limit_of(sc);
    sc->store = fits(&e, &lim) ? STORE_MODE_EXACT : STORE_MODE_SAMPLED;
    sc->store_auto = sc->store == STORE_MODE_SAMPLED;
}

uint32_t budget_fit_jobs(scenario *sc)
{
    uint32_t jobs = scenario_jobs(sc);
    if (jobs <= 1)
        return 0;
    budget_limit lim = budget_limit_of(sc);
    budget_estimate e;
    estimate_with(sc, sc->store, jobs, &e);
    if (fits(&e, &lim))
        return 0;
    do
        estimate_with(sc, sc->store, --jobs, &e);
    while (jobs > 1 && !fits(&e, &lim));
    sc->jobs = jobs;
    return jobs;
}

int budget_admit(const scenario *sc, char *err, size_t errcap)
{
    budget_estimate e;
    budget_estimate_run(sc, &e);
    budget_limit lim = budget_limit_of(sc);
    if (budget_check(&e, &lim, err, errcap) == 0)
        return 0;
    if (sc->store == STORE_MODE_SAMPLED)
        return -1;
    budget_estimate sampled;
    estimate_with(sc, STORE_MODE_SAMPLED, 0, &sampled);
    if (fits(&sampled, &lim)) { /* say that first */
        char need[32], with[32], limit[32];
        budget_format_size(e.bytes, need, sizeof need);
        budget_format_size(sampled.bytes, with, sizeof with);
        budget_format_size((double)lim.bytes, limit, sizeof limit);
        snprintf(err, errcap,
                 "the run would need about %s with the exact store (%.0f rows): more than the "
                 "%s available; use --store sampled (store = sampled: about %s, reads "
                 "estimated) or --store auto",
                 need, e.rows, limit, with);
    }
    return -1;
}
