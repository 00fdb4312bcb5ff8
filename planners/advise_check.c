/* advise_check.c -- the pick re-run in longer, heavier and other-seeded
 * regimes (planners/advise_check.h).
 *
 * The work is a grid: regimes x seeds x shortlist members, one engine_run
 * each. Every (regime, seed) gets a scenario of its own whose schemes are
 * the shortlist, and every task writes only its own row of figures, so
 * the grid runs on all cores through engine/jobs.h and the outcome does not
 * depend on the threads. A run's result is reduced to the figures the
 * check reads inside its task and freed there: the check holds `jobs`
 * runs in memory at once, as compare does.
 *
 * A regime stretches or loads the scenario as a user would with options:
 * `--duration`, `--measure-from` (and the events' times) k times; a time
 * series' `--interval` divided by k, an entity or sequence pattern's
 * `--rate` times k. Everything HBase sets (region size, the balancer's
 * period, the split policy) stays as it is: the question is what a table
 * that is older, or written faster, does under the same cluster. The
 * store is resolved again per regime, as `advise` on that scenario would
 * (a long run may need the sampled store where the short one did not).
 *
 * Judging: the shortlist is scored on each objective's median over the
 * seeds by the search's own front and score (advise_pareto,
 * advise_pick). Scores compare log ratios, so which member scores best
 * does not depend on the rest of the front. "The figures that flipped it"
 * are the (at most two) objectives whose weighted log ratio between the
 * new pick and the old moved most in the new pick's favour from the
 * regime as written (for the regime as written itself: from the search's
 * figures, its one seed).
 */
#include "planners/advise_check.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/figures.h"
#include "engine/budget.h"
#include "engine/engine.h"
#include "engine/jobs.h"
#include "scenario/units.h"

/* ---- options ---------------------------------------------------------- */

static uint64_t timeline_us(const scenario *sc)
{
    uint64_t t = 0;
    for (size_t i = 0; i < scenario_phase_count(sc); i++)
        t += scenario_phase(sc, i)->duration_us;
    return t;
}

void advise_check_defaults(const scenario *sc, advise_check_options *o)
{
    memset(o, 0, sizeof *o);
    o->ndurations = 2;
    o->durations[0] = 2;
    o->durations[1] = 4;
    o->nloads = 2;
    o->loads[0] = 2;
    o->loads[1] = 4;
    o->seeds = sc->samples > ADVISE_CHECK_MIN_SEEDS ? sc->samples : ADVISE_CHECK_MIN_SEEDS;
}

/* One item: "2x", "2", "2.5x" or (durations) "2h". */
static int parse_factor(const char *tok, const scenario *sc, int durations, double *out)
{
    size_t len = strlen(tok);
    char num[64];
    if (len == 0 || len >= sizeof num)
        return -1;
    memcpy(num, tok, len + 1);
    if (num[len - 1] == 'x')
        num[--len] = '\0';
    char *end = num;
    double v = NAN;
    if (len && ((num[0] >= '0' && num[0] <= '9') || num[0] == '.'))
        v = strtod(num, &end);
    if (len && *end == '\0') {
        *out = v;
        return 0;
    }
    if (!durations || tok[strlen(tok) - 1] == 'x')
        return -1;
    uint64_t us, base = timeline_us(sc);
    if (units_parse_duration(tok, &us) < 0 || base == 0)
        return -1;
    *out = (double)us / (double)base;
    return 0;
}

int advise_check_parse_factors(const char *text, const scenario *sc, int durations,
                               advise_check_options *o, char *err, size_t errcap)
{
    double v[ADVISE_CHECK_MAX_FACTORS];
    size_t n = 0;
    const char *p = text;
    char shown[256], tok[64], base[32];
    units_format_duration(timeline_us(sc), base, sizeof base);
    const char *what = durations ? "a multiplier above 1 and at most 64 (2x) or a duration "
                                   "longer than the scenario's"
                                 : "a multiplier above 1 and at most 64 (2x)";
    do {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        while (len && *p == ' ')
            p++, len--;
        while (len && p[len - 1] == ' ')
            len--;
        snprintf(tok, sizeof tok, "%.*s", (int)(len < 60 ? len : 60), p);
        double f;
        if (len >= 60 || parse_factor(tok, sc, durations, &f) < 0 || !(f > 1) ||
            f > ADVISE_CHECK_MAX_FACTOR) {
            if (durations)
                snprintf(err, errcap, "expected %s (%s), found '%s'", what, base,
                         escape_text(tok, 60, shown, sizeof shown));
            else
                snprintf(err, errcap, "expected %s, found '%s'", what,
                         escape_text(tok, 60, shown, sizeof shown));
            return -1;
        }
        if (n == ADVISE_CHECK_MAX_FACTORS) {
            snprintf(err, errcap, "expected at most %d multipliers, found more",
                     ADVISE_CHECK_MAX_FACTORS);
            return -1;
        }
        size_t at = n;
        while (at > 0 && v[at - 1] > f)
            at--;
        if (!(at > 0 && v[at - 1] == f)) { /* a repeat says nothing new */
            memmove(v + at + 1, v + at, (n - at) * sizeof *v);
            v[at] = f;
            n++;
        }
        p = comma ? comma + 1 : NULL;
    } while (p);
    memcpy(durations ? o->durations : o->loads, v, n * sizeof *v);
    *(durations ? &o->ndurations : &o->nloads) = n;
    return 0;
}

/* ---- the shortlist ---------------------------------------------------- */

static int listed(const size_t *idx, size_t n, size_t i)
{
    for (size_t j = 0; j < n; j++)
        if (idx[j] == i)
            return 1;
    return 0;
}

/* front members in score order (ties: generation order) into order */
static size_t front_order(const advise_space *s, size_t *order)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ncand; i++)
        if (s->cand[i].front)
            order[n++] = i;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && s->cand[order[j]].score < s->cand[order[j - 1]].score; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    return n;
}

size_t advise_check_shortlist(const advise_space *s, const advise_outcome *oc, size_t *idx,
                              const char **role)
{
    if (oc->pick == (size_t)-1)
        return 0;
    size_t *order = malloc((s->ncand + 1) * sizeof *order);
    if (!order)
        return 0;
    size_t nf = front_order(s, order), n = 0;
    const advise_candidate *p = &s->cand[oc->pick];
    idx[n] = oc->pick;
    role[n++] = "pick";
    for (size_t r = 0; r < nf && n < 2; r++)
        if (order[r] != oc->pick) {
            idx[n] = order[r];
            role[n++] = "runner-up";
        }
    /* the pick's layout unprefixed, else the natural key (the text's third line) */
    size_t base = (size_t)-1;
    for (int pass = 0; pass < 2 && base == (size_t)-1; pass++)
        for (size_t i = 0; i < s->ncand && base == (size_t)-1; i++)
            if (s->cand[i].stage && s->cand[i].prefix == ADVISE_PREFIX_NONE &&
                s->cand[i].body == (pass ? s->natural : p->body))
                base = i;
    if (base != (size_t)-1 && !listed(idx, n, base)) {
        idx[n] = base;
        role[n++] = s->cand[base].body == p->body ? "unsalted" : "natural key";
    }
    /* the pick at fewer buckets: the largest simulated count below its own */
    size_t fewer = (size_t)-1;
    for (size_t i = 0; p->buckets && i < s->ncand; i++) {
        const advise_candidate *c = &s->cand[i];
        if (c->stage && c->body == p->body && c->prefix == p->prefix && c->buckets &&
            c->buckets < p->buckets && !listed(idx, n, i) &&
            (fewer == (size_t)-1 || c->buckets > s->cand[fewer].buckets))
            fewer = i;
    }
    if (fewer != (size_t)-1 && n < ADVISE_CHECK_MAX_CAND) {
        idx[n] = fewer;
        role[n++] = "fewer buckets";
    }
    /* the best of a layout not listed yet, then the best of any */
    for (int pass = 0; pass < 2; pass++)
        for (size_t r = 0; r < nf && n < ADVISE_CHECK_MAX_CAND; r++) {
            size_t i = order[r];
            int body_listed = 0;
            for (size_t j = 0; j < n; j++)
                body_listed |= s->cand[idx[j]].body == s->cand[i].body;
            if (!listed(idx, n, i) && (pass || !body_listed)) {
                idx[n] = i;
                role[n++] = pass ? "front" : "other layout";
            }
        }
    free(order);
    return n;
}

/* ---- regimes ---------------------------------------------------------- */

static phase *phase_at(scenario *sc, size_t i)
{
    return sc->nphases ? &sc->phases[i] : &sc->workload;
}

static uint64_t scaled(uint64_t v, double k)
{
    double r = llround((double)v * k);
    return r < 1 ? 1 : (uint64_t)r;
}

/* Makes *out: sc in regime (kind, k) at seed, its schemes the shortlist.
 * Returns 0, or -1 with why the regime cannot be made in why. */
static int make_regime(const scenario *sc, store_mode store, advise_regime_kind kind, double k,
                       scenario *out, char *why, size_t cap)
{
    *out = *sc; /* shares sc's owned strings: never released */
    out->store = store;
    out->store_auto = 0;
    for (size_t i = 0; i < scenario_phase_count(out); i++) {
        phase *ph = phase_at(out, i);
        if (kind == ADVISE_REGIME_DURATION) {
            if (pattern_is_finite(&ph->pattern)) {
                snprintf(why, cap, "phase '%s' is as long as its %s", ph->name,
                         ph->pattern.kind == PATTERN_TRACE ? "trace" : "YCSB operations");
                return -1;
            }
            ph->duration_us = scaled(ph->duration_us, k);
        } else if (kind == ADVISE_REGIME_LOAD) {
            if (ph->clients) {
                snprintf(why, cap, "phase '%s' is a closed loop: its clients set its load",
                         ph->name);
                return -1;
            }
            if (ph->pattern.kind == PATTERN_TIMESERIES) {
                ph->pattern.interval_us = scaled(ph->pattern.interval_us, 1 / k);
            } else if (ph->pattern.kind == PATTERN_ENTITIES ||
                       ph->pattern.kind == PATTERN_SEQUENCE) {
                ph->pattern.rate_per_s *= k;
            } else {
                snprintf(why, cap, "phase '%s' replays %s: its times are its own", ph->name,
                         ph->pattern.kind == PATTERN_TRACE ? "a trace" : "YCSB operations");
                return -1;
            }
        }
    }
    if (kind == ADVISE_REGIME_DURATION) {
        out->measure_from_us = (uint64_t)llround((double)sc->measure_from_us * k);
        for (size_t e = 0; e < out->nevents; e++)
            out->events[e].at_us = (uint64_t)llround((double)sc->events[e].at_us * k);
    }
    char err[512];
    if (scenario_validate(out, err, sizeof err) < 0) {
        snprintf(why, cap, "%s", err);
        return -1;
    }
    budget_resolve_store(out, NULL);
    return 0;
}

/* ---- the runs --------------------------------------------------------- */

enum { EXTRA_REGIONS = 0, EXTRA_BUSY, EXTRA_OFFERED, EXTRAS };

typedef struct check_grid {
    const scenario *runs;       /* nregimes x nseeds scenarios (NULL rows: not run) */
    const int *regime_run;
    const advise_outcome *oc;
    size_t ncand, nseeds, nregimes, stride;
    double *values;             /* task x stride: the objectives, then EXTRAS */
    const size_t *order;        /* the regimes, longest runs first (jobs take them in turn) */
    advise_check_progress_fn on_progress;
    void *ctx;
    pthread_mutex_t lock;
} check_grid;

typedef struct task_observer {
    check_grid *g;
    size_t task;
} task_observer;

static void task_share(check_grid *g, size_t task, double share)
{
    if (!g->on_progress)
        return;
    pthread_mutex_lock(&g->lock);
    g->on_progress(g->ctx, task, g->nregimes * g->nseeds * g->ncand, share);
    pthread_mutex_unlock(&g->lock);
}

static void task_progress(void *ctx, size_t run, size_t nruns, uint64_t done_us,
                          uint64_t total_us)
{
    (void)run;
    (void)nruns;
    task_observer *t = ctx;
    task_share(t->g, t->task, total_us ? (double)done_us / (double)total_us : 0);
}

/* Job j is task i: regime order[j / (seeds x cand)], seed (j / cand) %
 * seeds, member j % cand; its figures go to slot i (regime-major), so the
 * slots do not depend on the order the jobs are taken in. */
static int run_task(void *ctx, size_t j, char *err, size_t errcap)
{
    check_grid *g = ctx;
    size_t per = g->nseeds * g->ncand, regime = g->order[j / per];
    size_t i = regime * per + j % per, c = i % g->ncand;
    double *v = g->values + i * g->stride;
    if (!g->regime_run[regime]) {
        task_share(g, i, 1);
        return 0;
    }
    const scenario *sc = &g->runs[i / g->ncand];
    task_observer to = { g, i };
    engine_observer eo = { NULL, task_progress, &to };
    run_result r;
    if (engine_run(sc, c, g->on_progress ? &eo : NULL, &r, err, errcap) < 0)
        return -1;
    for (size_t o = 0; o < g->oc->nobj; o++)
        v[o] = figure_named(g->oc->obj[o].figure, &r, 0);
    v[g->oc->nobj + EXTRA_REGIONS] = figure_named("regions", &r, 0) / (double)sc->servers;
    v[g->oc->nobj + EXTRA_BUSY] = figure_named("busiest_busy", &r, 0);
    v[g->oc->nobj + EXTRA_OFFERED] = figure_named("offered_ops_per_s", &r, 0);
    run_result_free(&r);
    task_share(g, i, 1);
    return 0;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The spread of v[0], v[stride], ... (n values), NaN left out. */
static advise_spread spread_of(const double *v, size_t n, size_t stride)
{
    double d[RESULT_MAX_SAMPLES];
    size_t m = 0;
    for (size_t i = 0; i < n && m < RESULT_MAX_SAMPLES; i++)
        if (!isnan(v[i * stride]))
            d[m++] = v[i * stride];
    advise_spread s = { NAN, NAN, NAN };
    if (!m)
        return s;
    qsort(d, m, sizeof *d, by_double);
    s.min = d[0];
    s.max = d[m - 1];
    s.median = m % 2 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2;
    return s;
}

/* The shortlist's pick on values vals[c * stride + o] (index, or -1). */
static size_t pick_of(const double *vals, size_t stride, size_t ncand, const advise_outcome *oc,
                      int *front, double *score)
{
    advise_candidate c[ADVISE_CHECK_MAX_CAND];
    memset(c, 0, sizeof c);
    for (size_t i = 0; i < ncand; i++) {
        c[i].stage = 1;
        for (size_t o = 0; o < oc->nobj; o++)
            c[i].value[o] = vals[i * stride + o];
    }
    advise_pareto(c, ncand, oc->nobj);
    size_t p = advise_pick(c, ncand, oc->obj, oc->nobj);
    for (size_t i = 0; front && i < ncand; i++) {
        front[i] = c[i].front;
        score[i] = c[i].score;
    }
    return p;
}

/* log2(a / b) as advise's score counts it (a best of 0: log2(1 + a - b));
 * NaN when either is undefined. */
static double log_ratio(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    double lo = a < b ? a : b;
    if (lo <= 0)
        return log2(1 + (a - lo)) - log2(1 + (b - lo));
    return log2(a / b);
}

/* The two objectives whose weighted log ratio of the new pick over the
 * old moved most in the new pick's favour since `before` (the regime as
 * written, or the search's own figures), the most first, into r->flipped. */
static void flipped_objectives(advise_regime *r, const advise_regime *before,
                               const advise_outcome *oc)
{
    double most[2] = { 0, 0 };
    r->flipped[0] = r->flipped[1] = -1;
    for (size_t o = 0; o < oc->nobj; o++) {
        if (!(oc->obj[o].weight > 0))
            continue;
        double now = log_ratio(r->fig[r->pick][o].median, r->fig[0][o].median);
        double was = log_ratio(before->fig[r->pick][o].median, before->fig[0][o].median);
        double d = oc->obj[o].weight * (now - was);
        if (isnan(d) || !(d < most[1]))
            continue;
        if (d < most[0]) {
            most[1] = most[0];
            r->flipped[1] = r->flipped[0];
            most[0] = d;
            r->flipped[0] = (int)o;
        } else {
            most[1] = d;
            r->flipped[1] = (int)o;
        }
    }
}

static void judge(advise_regime *r, const double *values, const advise_check *c,
                  const advise_outcome *oc, size_t stride)
{
    size_t ns = c->nseeds, nc = c->ncand;
    /* values of this regime: seed-major, [seed][cand][stride] */
    double med[ADVISE_CHECK_MAX_CAND * (ADVISE_MAX_OBJECTIVES + EXTRAS)];
    for (size_t k = 0; k < nc; k++) {
        for (size_t o = 0; o < oc->nobj; o++) {
            r->fig[k][o] = spread_of(values + k * stride + o, ns, nc * stride);
            med[k * stride + o] = r->fig[k][o].median;
        }
        r->regions_per_server[k] =
            spread_of(values + k * stride + oc->nobj + EXTRA_REGIONS, ns, nc * stride);
        r->busiest_busy[k] = spread_of(values + k * stride + oc->nobj + EXTRA_BUSY, ns,
                                       nc * stride);
        r->offered[k] = spread_of(values + k * stride + oc->nobj + EXTRA_OFFERED, ns,
                                  nc * stride);
    }
    r->pick = pick_of(med, stride, nc, oc, r->front, r->score);
    r->seeds_holding = 0;
    for (size_t s = 0; s < ns; s++)
        r->seeds_holding += pick_of(values + s * nc * stride, stride, nc, oc, NULL, NULL) == 0;
}

int advise_check_holds(const advise_regime *r)
{
    return r->run && r->pick == 0;
}

void advise_check_free(advise_check *c)
{
    free(c->regime);
    memset(c, 0, sizeof *c);
}

int advise_check_run(const scenario *sc, store_mode store, const advise_space *s,
                     const advise_outcome *oc, const advise_check_options *opt,
                     advise_check_progress_fn on_progress, void *ctx, advise_check *out,
                     char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    out->ncand = advise_check_shortlist(s, oc, out->cand, out->role);
    out->seed = sc->seed;
    out->nseeds = opt->seeds < ADVISE_CHECK_MIN_SEEDS ? ADVISE_CHECK_MIN_SEEDS : opt->seeds;
    if (out->ncand == 0)
        return 0;
    out->nregimes = 1 + opt->ndurations + opt->nloads;
    out->regime = calloc(out->nregimes, sizeof *out->regime);
    size_t ngroups = out->nregimes * out->nseeds, ntasks = ngroups * out->ncand;
    size_t stride = oc->nobj + EXTRAS;
    scenario *runs = calloc(ngroups, sizeof *runs);
    double *values = malloc(ntasks * stride * sizeof *values);
    int *regime_run = calloc(out->nregimes, sizeof *regime_run);
    int rc = -1;
    if (!out->regime || !runs || !values || !regime_run) {
        snprintf(err, errcap, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < ntasks * stride; i++)
        values[i] = NAN;
    for (size_t r = 0; r < out->nregimes; r++) {
        advise_regime *g = &out->regime[r];
        g->kind = r == 0 ? ADVISE_REGIME_WRITTEN
                : r <= opt->ndurations ? ADVISE_REGIME_DURATION : ADVISE_REGIME_LOAD;
        g->factor = r == 0 ? 1 : r <= opt->ndurations ? opt->durations[r - 1]
                                                       : opt->loads[r - 1 - opt->ndurations];
        g->flipped[0] = g->flipped[1] = -1;
        scenario *base = &runs[r * out->nseeds];
        if (make_regime(sc, store, g->kind, g->factor, base, g->why_not, sizeof g->why_not) < 0)
            continue;
        base->nschemes = out->ncand;
        for (size_t k = 0; k < out->ncand; k++)
            base->schemes[k] = (scheme_choice){ s->cand[out->cand[k]].expr,
                                                s->cand[out->cand[k]].expr, NULL };
        char why[512];
        if (budget_admit(base, why, sizeof why) < 0) {
            snprintf(g->why_not, sizeof g->why_not, "%s", why);
            continue;
        }
        g->duration_us = timeline_us(base);
        g->measure_from_us = base->measure_from_us;
        for (uint32_t k = 1; k < out->nseeds; k++) {
            runs[r * out->nseeds + k] = *base;
            runs[r * out->nseeds + k].seed = sc->seed + k;
        }
        g->run = regime_run[r] = 1;
    }
    if (!regime_run[0]) {
        snprintf(err, errcap, "the check: %s", out->regime[0].why_not);
        goto done;
    }
    /* the longest regimes first, so that no long run is left alone at the end */
    size_t order[1 + 2 * ADVISE_CHECK_MAX_FACTORS];
    for (size_t r = 0; r < out->nregimes; r++) {
        size_t at = r;
        for (; at > 0 && out->regime[order[at - 1]].factor < out->regime[r].factor; at--)
            order[at] = order[at - 1];
        order[at] = r;
    }
    scenario jobs_of = *sc;
    jobs_of.nschemes = ntasks < SCENARIO_MAX_SCHEMES ? ntasks : SCENARIO_MAX_SCHEMES;
    check_grid g = { runs, regime_run, oc, out->ncand, out->nseeds, out->nregimes, stride,
                     values, order, on_progress, ctx, PTHREAD_MUTEX_INITIALIZER };
    rc = jobs_run(ntasks, scenario_jobs(&jobs_of), run_task, &g, err, errcap);
    pthread_mutex_destroy(&g.lock);
    if (rc < 0)
        goto done;
    for (size_t r = 0; r < out->nregimes; r++) {
        if (!regime_run[r])
            continue;
        out->runs += out->nseeds * out->ncand;
        judge(&out->regime[r], values + r * out->nseeds * out->ncand * stride, out, oc, stride);
    }
    for (size_t r = 1; r < out->nregimes; r++)
        if (out->regime[r].run && out->regime[r].pick != 0 && out->regime[r].pick != (size_t)-1)
            flipped_objectives(&out->regime[r], &out->regime[0], oc);
    if (out->regime[0].pick != 0 && out->regime[0].pick != (size_t)-1) {
        /* as written across seeds: against the search's own figures */
        advise_regime search = out->regime[0];
        for (size_t k = 0; k < out->ncand; k++)
            for (size_t o = 0; o < oc->nobj; o++)
                search.fig[k][o].median = s->cand[out->cand[k]].value[o];
        flipped_objectives(&out->regime[0], &search, oc);
    }
    rc = 0;
done:
    free(runs);
    free(values);
    free(regime_run);
    if (rc < 0)
        advise_check_free(out);
    return rc;
}
