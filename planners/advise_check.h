/* advise_check.h -- does advise's pick hold in a longer run, at a higher
 * load, and across seeds? (issue 28)
 *
 * After the search (planners/advise.h) has picked, a shortlist of the front
 * (advise_check_shortlist: the pick, the runner-up, the pick's layout
 * unsalted, the pick at the next fewer buckets, the best other layout) is
 * simulated again in regimes: the scenario as written, its timeline
 * stretched k times (every phase, measure_from and event k times later),
 * and its offered load k times (a time series' interval / k, an entity or
 * sequence rate x k), each at several seeds. In each regime the
 * shortlist is scored as the search scores (advise_pareto, advise_pick) on
 * the median of each objective over the seeds; the regime's pick either
 * is the search's pick (it holds) or is not (it changes), and each seed's
 * own pick is counted too. docs/advise.md#the-check says what it means.
 *
 * Cost: shortlist x seeds x regimes runs, each at most a few times the
 * scenario's; they are independent tasks on all cores (engine/jobs.h) and
 * each writes only its own slots, so the outcome is the same bytes
 * whatever --jobs is.
 */
#ifndef REGIONSIM_ADVISE_CHECK_H
#define REGIONSIM_ADVISE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "planners/advise.h"
#include "scenario/scenario.h"

#define ADVISE_CHECK_MAX_CAND 5      /* the shortlist's size at most */
#define ADVISE_CHECK_MAX_FACTORS 8   /* multipliers per list */
#define ADVISE_CHECK_MIN_SEEDS 3
#define ADVISE_CHECK_MAX_FACTOR 64.0

typedef enum advise_regime_kind {
    ADVISE_REGIME_WRITTEN = 0,  /* the scenario as written, across seeds */
    ADVISE_REGIME_DURATION,     /* its timeline k times as long */
    ADVISE_REGIME_LOAD,         /* its offered load k times */
} advise_regime_kind;

/* What to check: the multipliers (each > 1, ascending, distinct) and the
 * seeds (sc's seed and the next ones). */
typedef struct advise_check_options {
    size_t ndurations;
    double durations[ADVISE_CHECK_MAX_FACTORS];
    size_t nloads;
    double loads[ADVISE_CHECK_MAX_FACTORS];
    uint32_t seeds;             /* >= ADVISE_CHECK_MIN_SEEDS */
} advise_check_options;

/* The defaults: durations 2x, 4x; loads 2x, 4x; seeds max(3, samples). */
void advise_check_defaults(const scenario *sc, advise_check_options *o);

/* Parses a list of multipliers, "2x,4x" ('x' optional), into o's
 * durations (durations != 0) or loads, replacing them. With durations, an
 * item may also be a duration longer than the scenario's
 * (sc's whole timeline: "2h"), taken as its multiple of it. Each value is
 * above 1 and at most 64; the list is kept ascending without repeats.
 * Returns 0, or -1 with "expected ..., found 'TOKEN'" in err. */
int advise_check_parse_factors(const char *text, const scenario *sc, int durations,
                               advise_check_options *o, char *err, size_t errcap);

/* One figure over the seeds: median, smallest, largest (NAN when no
 * seed defined it). */
typedef struct advise_spread {
    double median, min, max;
} advise_spread;

typedef struct advise_regime {
    advise_regime_kind kind;
    double factor;              /* 1 as written */
    int run;                    /* 0: not run, `why_not` says why */
    char why_not[600];
    uint64_t duration_us;       /* the regime's whole timeline */
    uint64_t measure_from_us;
    /* per shortlist member c: */
    advise_spread fig[ADVISE_CHECK_MAX_CAND][ADVISE_MAX_OBJECTIVES];
    advise_spread regions_per_server[ADVISE_CHECK_MAX_CAND]; /* at the end */
    advise_spread busiest_busy[ADVISE_CHECK_MAX_CAND];
    advise_spread offered[ADVISE_CHECK_MAX_CAND];            /* ops/s */
    int front[ADVISE_CHECK_MAX_CAND];
    double score[ADVISE_CHECK_MAX_CAND];   /* NAN off the regime's front */
    size_t pick;                /* shortlist index of the regime's pick (medians) */
    uint32_t seeds_holding;     /* seeds whose own pick is the search's */
    int flipped[2];             /* the objectives that moved most toward the new pick (the
                                 * most first); -1: none */
} advise_regime;

typedef struct advise_check {
    size_t ncand;
    size_t cand[ADVISE_CHECK_MAX_CAND]; /* space indices; cand[0] is the search's pick */
    const char *role[ADVISE_CHECK_MAX_CAND]; /* "pick", "runner-up", "unsalted", ... */
    uint64_t seed;              /* the first seed */
    uint32_t nseeds;
    size_t nregimes;
    advise_regime *regime;      /* [0] as written, then durations, then loads (owned) */
    size_t runs;                /* simulations run */
} advise_check;

/* The shortlist for the check, at most ADVISE_CHECK_MAX_CAND simulated
 * candidates in this order: the pick; the runner-up (the front's second
 * score); the pick's layout unprefixed (else the natural key's), which
 * the text report also compares with; the pick's layout and prefix at
 * the largest simulated bucket count below the pick's not yet listed;
 * then the best-scoring front member of a layout not yet listed, then of
 * any. Writes space indices into idx and roles into role; returns the
 * count (0 when there is no pick). */
size_t advise_check_shortlist(const advise_space *s, const advise_outcome *oc, size_t *idx,
                              const char **role);

/* Runs the check of oc's pick under sc (as advise ran it, its store
 * resolved from `store`, the store mode given before resolution),
 * observing on_progress (may be NULL: called with task i's share done,
 * under a lock). Returns 0 with *out filled (advise_check_free), or -1
 * with a message in err. A regime that cannot be made (a trace's or YCSB
 * run's own length or rate; a scenario that does not validate or would
 * not fit in memory) is kept with run = 0 and why_not. Deterministic for
 * sc's seed, whatever sc's jobs. */
typedef void (*advise_check_progress_fn)(void *ctx, size_t task, size_t ntasks, double share);
int advise_check_run(const scenario *sc, store_mode store, const advise_space *s,
                     const advise_outcome *oc, const advise_check_options *opt,
                     advise_check_progress_fn on_progress, void *ctx, advise_check *out,
                     char *err, size_t errcap);

/* Whether the pick holds in regime r (run, and its pick is the search's). */
int advise_check_holds(const advise_regime *r);

void advise_check_free(advise_check *c);

#endif
