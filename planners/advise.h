/* advise.h -- `regionsim advise`: search the key-design space for a
 * scenario and pick a design on the Pareto front (issue 17).
 *
 * Three parts, each usable alone (tests/test_advise.c drives them):
 *
 *   - the space: advise_space_build turns the scenario's pattern (its
 *     record fields) and cluster (its server count) into candidate key
 *     schemes, each an expression of the scheme language
 *     (docs/keyschemes.md), parsed and deduplicated by its normalised
 *     form, filtered by --fix;
 *   - the front: advise_pareto marks the candidates no other candidate
 *     dominates, advise_pick chooses among them by the weighted score;
 *   - the search: advise_search simulates candidates in stages within the
 *     budget (engine/engine.h's multi-scheme run, all cores) and reads their
 *     objectives from the figure registry (reports/figures.h).
 *
 * Then planners/advise_check.h checks the pick: a shortlist of the front
 * re-run in longer runs, at higher loads and at other seeds.
 *
 * docs/advise.md explains the grammar of the space, the stages, the
 * objectives, the normalisation, the words of the "why" and the check.
 */
#ifndef REGIONSIM_ADVISE_H
#define REGIONSIM_ADVISE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "scenario/scenario.h"

/* Most objectives a candidate is scored on: write balance, two per read
 * kind, p99 latency, key bytes. */
#define ADVISE_MAX_OBJECTIVES (3 + 2 * QUERY_KINDS)
#define ADVISE_MAX_BUDGET SCENARIO_ADVISE_MAX_BUDGET /* 4096 */
#define ADVISE_DEFAULT_BUDGET 64

/* What kind of bucket prefix a candidate has. */
typedef enum advise_prefix {
    ADVISE_PREFIX_NONE = 0,
    ADVISE_PREFIX_SALT,   /* salt(N): a random bucket per write */
    ADVISE_PREFIX_OSALT,  /* osalt(N): a bucket per series (hash of the non-time fields) */
    ADVISE_PREFIX_FIXED,  /* --fix's own prefix, whatever it is */
} advise_prefix;

/* The weight groups of --weights. */
typedef enum advise_group {
    ADVISE_WRITES = 0,    /* write_max_mean */
    ADVISE_READS,         /* each read kind's RPCs and rows per row, by the kind's share */
    ADVISE_LATENCY,       /* p99_latency_us */
    ADVISE_KEYS,          /* key_bytes_mean */
    ADVISE_GROUPS
} advise_group;

/* The group's name in --weights and in the JSON report: "writes",
 * "reads", "latency" or "keys" (g < ADVISE_GROUPS). */
const char *advise_group_name(advise_group g);

typedef struct advise_weights {
    double w[ADVISE_GROUPS];
} advise_weights;

/* One objective: a registry figure (lower is better), its group and its
 * weight within the score. */
typedef struct advise_objective {
    const char *figure;   /* a figure name, e.g. "rpcs_per_read_metric" */
    const char *label;    /* a column heading, e.g. "metric RPCs" */
    advise_group group;
    int kind;             /* the read kind, or -1 */
    double weight;        /* the group's weight times the kind's share (and 1/2 per read figure) */
} advise_objective;

typedef struct advise_candidate {
    char *expr;           /* normalised scheme expression (owned) */
    size_t body;          /* which body (advise_space.bodies) */
    advise_prefix prefix;
    uint32_t buckets;     /* the prefix's bucket count, 0 for none */
    int stage;            /* 0: not simulated; else the stage that simulated it (1..3) */
    double value[ADVISE_MAX_OBJECTIVES];
    int front;            /* on the Pareto front of the simulated candidates */
    double score;         /* weighted score (front members only; else NAN) */
} advise_candidate;

typedef struct advise_space {
    size_t nbodies;
    char **bodies;        /* the unprefixed layouts, in generation order (owned) */
    size_t natural;       /* the body a planner would write first (the pattern's usual key) */
    uint32_t nbuckets;
    uint32_t buckets[32]; /* bucket counts tried, ascending */
    size_t ncand;
    advise_candidate *cand; /* every candidate (all prefixes and counts), generation order */
} advise_space;

/* Parses --weights "reads=2,writes=1" over *w (names: writes, reads,
 * latency, keys; values: non-negative decimal numbers, not all zero; each
 * name at most once). named, when not NULL, holds the names given so far
 * (bit g for group g; 0 at first) and gets this text's: a name an earlier
 * text gave is refused too (several --weights add up, each weight named
 * once). Returns 0, or -1 with a message naming the bad token in err
 * (control bytes escaped). */
int advise_parse_weights(const char *text, advise_weights *w, unsigned *named, char *err,
                         size_t errcap);

/* The default weights: writes 1, reads 1, latency 1, keys 0.25. */
void advise_default_weights(advise_weights *w);

/* Builds the candidate space for sc (its first phase's pattern, its
 * servers) keeping only candidates whose normalised expression starts with
 * the fields of `fix` (NULL or "" for none; a bucket field of fix adds its
 * count to the counts tried). Every candidate parses with keyscheme_parse
 * and no two have the same normalised expression. Returns 0, or -1 with a
 * message in err (fix is not a scheme, or no candidate starts with it). */
int advise_space_build(const scenario *sc, const char *fix, advise_space *out, char *err,
                       size_t errcap);
void advise_space_free(advise_space *s);

/* The objectives for sc's read mix: write_max_mean; for each read kind
 * with a positive weight in some phase that reads, rpcs_per_read_<kind>
 * and rows_scanned_per_row_<kind>; p99_latency_us; key_bytes_mean.
 * Returns how many were written to obj (<= ADVISE_MAX_OBJECTIVES). */
size_t advise_objectives(const scenario *sc, const advise_weights *w, advise_objective *obj);

/* Marks front = 1 on each simulated candidate (stage > 0) that no other
 * simulated candidate dominates (no worse in every objective, better in
 * one; NaN counts as worse than any number), 0 on the rest. Candidates
 * with equal values are both on the front. Returns the front's size. */
size_t advise_pareto(advise_candidate *c, size_t n, size_t nobj);

/* Scores the front members (score: the weighted mean of log2(value / the
 * front's best value), so 0 = best in everything) and returns the index of
 * the best (ties: the earlier candidate), or (size_t)-1 if the front is
 * empty. Others get score NAN. */
size_t advise_pick(advise_candidate *c, size_t n, const advise_objective *obj, size_t nobj);

/* What advise_search did, for the report. */
typedef struct advise_outcome {
    size_t tried;                 /* candidates simulated */
    size_t stage_tried[4];        /* per stage (index 1..3) */
    size_t sampled;               /* stage 1 was a seeded sample of this many layouts (0: all) */
    size_t nobj;
    advise_objective obj[ADVISE_MAX_OBJECTIVES];
    size_t pick;                  /* index into the space's candidates */
    size_t front;                 /* front size */
    uint32_t home_buckets;        /* stage 2's bucket count */
    advise_weights weights;       /* as given */
} advise_outcome;

/* How the search is going, for a progress bar (each function may be
 * NULL): before each batch of runs (up to SCENARIO_MAX_SCHEMES candidates
 * at once), on_batch with how many candidates were simulated before it;
 * then the batch's runs through on_progress, as engine_run_all reports
 * them (run k of the batch is candidate first + k of the search's). The
 * search simulates min(budget, the space's candidates) in all. */
typedef struct advise_observer {
    void (*on_batch)(void *ctx, size_t first);
    engine_progress_fn on_progress;
    void *ctx;
} advise_observer;

/* Simulates candidates of s under sc (its schemes replaced) in three
 * stages within `budget` runs (see docs/advise.md): 1, every layout
 * unprefixed (a seeded sample of them when they exceed half the budget);
 * 2, the prefixes at the server count on the layouts in stage-1 score
 * order; 3, the other bucket counts around the bucketed front members,
 * then untried candidates in generation order while budget is left.
 * Fills each simulated candidate's values, the front and the pick; it
 * simulates min(budget, s->ncand) candidates in all. obs (may be NULL)
 * hears how far it has got; it changes nothing else. Returns 0, or -1
 * with a message in err. Deterministic for sc's seed, whatever sc's jobs. */
int advise_search(const scenario *sc, advise_space *s, const advise_weights *w, size_t budget,
                  const advise_observer *obs, advise_outcome *out, char *err, size_t errcap);

#endif
